import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# tests/ for the helpers, tests/mp for the two-runtime test modules.  The fakes of
# `machine` and `neopixel` (tests/fakes) are put on the path only by the tests that
# want them, so that the real adafruit `neopixel` stays importable on CPython.
for p in (HERE, HERE / "mp"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


# The reliability campaigns (tests/test_reliability_*.py) run at their quick size in the
# normal test command; `pytest --campaign=large` runs them at their large size.
def pytest_addoption(parser):
    parser.addoption("--campaign", action="store", default="quick", choices=("quick", "large"),
                     help="size of the reliability campaigns (default: quick)")


@pytest.fixture(scope="session")
def campaign(request):
    """The size of the reliability campaigns: "quick" or "large"."""
    return request.config.getoption("--campaign")
