"""The manual's examples are tests: Sybil collects them from the pages of
tests/support/docexamples/pages.py (pyproject.toml names the pages in testpaths), with the
parsers of tests/support/docexamples/; CONTRIBUTING.md says how a block is written."""

import sys
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent / "tests" / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

from docexamples import pages  # noqa: E402
from docexamples.sybils import EXAMPLES  # noqa: E402

collect_page = EXAMPLES.pytest()


def pytest_collect_file(file_path, parent):
    """A page of the manual is a file of tests (its examples)."""
    if file_path.resolve() in pages.PAGES:
        return collect_page(file_path, parent)
    return None
