"""The pages of the manual whose examples are tests, their fenced blocks, and the mark of a
block left out on purpose (``<!-- not run: why -->`` on the line before it)."""

import re
from pathlib import Path

from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

ROOT = Path(__file__).resolve().parents[3]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "hardware" / "README.md",
         ROOT / "firmware" / "dealerbutton" / "PROTOCOL.md",
         ROOT / "firmware" / "dealerbutton" / "rules" / "RULES.md"] + sorted((ROOT / "docs").glob("*.md"))

LEFT_OUT = re.compile(r"<!-- not run: (\S.*?) -->")
# a fenced block's info string (```python, ```sh, ``` ...) and its text
FENCED = RawFencedCodeBlockLexer(info_pattern=re.compile(r"(?P<info>[^\n]*)\n"))


def fenced_blocks(document):
    """Every fenced block of a Sybil document, as lexed regions: ``lexemes["info"]`` is the
    info string, ``lexemes["source"]`` the text (a list item's indent taken off)."""
    return list(FENCED(document))


def line_before(text, start):
    """The line before the one that begins at or around ``start``, stripped."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
    return text[before:max(line_start - 1, 0)].strip() if line_start else ""


def left_out(text, start):
    """Why the block at ``start`` is not run (its ``<!-- not run: why -->``), or None."""
    m = LEFT_OUT.fullmatch(line_before(text, start))
    return m.group(1) if m else None


def first_line(text, position):
    """The line number (from 1) of a position in a page."""
    return text.count("\n", 0, position) + 1
