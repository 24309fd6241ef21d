"""What a page says an example prints, against what it printed.

Figures that vary from machine to machine or from run to run are written ``...`` in the
page: inside a line ``...`` stands for any text, and a line of ``...`` alone for any number
of lines (none too). Everything else must be equal, line for line (spaces at the ends of lines aside)."""

import re

ANY_LINES = "..."


def line_pattern(expected):
    """A regular expression for one expected line, ``...`` standing for any text."""
    parts = expected.rstrip().split("...")
    return re.compile(".*?".join(re.escape(part) for part in parts) + r"\s*\Z")


def lines_match(expected, got):
    """Whether the lists of lines match, ``...`` as above."""
    patterns = [None if line.strip() == ANY_LINES else line_pattern(line) for line in expected]
    seen = {}

    def match(i, j):
        if (i, j) in seen:
            return seen[i, j]
        if i == len(patterns):
            result = j == len(got)
        elif patterns[i] is None:
            result = any(match(i + 1, k) for k in range(j, len(got) + 1))
        else:
            result = j < len(got) and patterns[i].match(got[j]) is not None and match(i + 1, j + 1)
        seen[i, j] = result
        return result

    return match(0, 0)


def first_difference(expected, got):
    """The first expected line that the output does not give, with the line given in its
    place: for the failure's message (``...`` lines are passed over)."""
    j = 0
    for i, line in enumerate(expected):
        if line.strip() == ANY_LINES:
            return i, line, "(the lines after it)"
        if j >= len(got):
            return i, line, "(nothing)"
        if not line_pattern(line).match(got[j]):
            return i, line, got[j]
        j += 1
    return len(expected), "(nothing)", got[j] if j < len(got) else "(nothing)"


def report(where, expected, got):
    """None when ``got`` gives what the page says, else what differs (the page's line
    number ``where`` of the first expected line) and the whole output."""
    if lines_match(expected, got):
        return None
    i, want, have = first_difference(expected, got)
    return "line %d: the page says %r, the example gave %r\nthe whole output:\n%s" % (
        where + i, want, have, "\n".join(got))
