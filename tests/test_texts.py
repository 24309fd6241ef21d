"""The firmware's messages live in texts.py by number (dealerbutton.text(n, ...)); every call
quotes its message in a comment, on its line or the line above. Checks that each quote is
the message the number gives, so numbers and wording cannot drift apart."""

import re

from dealerbutton import text
from dealerbutton.texts import TEXTS
from mpy import FIRMWARE


def test_every_text_call_quotes_its_message():
    calls = 0
    for path in sorted((FIRMWARE / "dealerbutton").glob("*.py")):
        lines = path.read_text().split("\n")
        for i, line in enumerate(lines):
            for m in re.finditer(r"\btext\((\d+)", line):
                if line.lstrip().startswith("def "):
                    continue
                n = int(m.group(1))
                assert n < len(TEXTS), (path.name, i + 1, n)
                quote = line.split("  # ", 1)[1] if "  # " in line else lines[i - 1].strip()[2:]
                assert quote == TEXTS[n], (path.name, i + 1, n, quote, TEXTS[n])
                calls += 1
    assert calls


def test_text_fills_in_the_blanks():
    assert text(5, 3) == "seat 3 is taken: the player there must leave first"
    assert text(0, (1, 2)) == "a table has 2 to 12 seats, not (1, 2)"
