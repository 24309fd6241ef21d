"""Numbers as seven-segment strokes: rectangles to engrave, the same on every computer (no
font is looked up, so the parts and their pictures do not change with the fonts installed)."""

from __future__ import annotations

from typing import List, Tuple

# Segments lit per digit, in the usual names: a top, b top right, c bottom right, d bottom,
# e bottom left, f top left, g middle.
DIGITS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg",
}
WIDTH = 0.55   # a digit's width, of its height
GAP = 0.3      # between two digits, of the height

Rect = Tuple[float, float, float, float]   # centre x, centre y, width, height


def _segment(name: str, w: float, h: float, t: float) -> Rect:
    """One segment of a digit w wide and h high centred on (0, 0), strokes t wide; the
    strokes overlap at the corners, so a digit is one piece."""
    x, y = (w - t) / 2, h / 4
    return {
        "a": (0.0, (h - t) / 2, w, t),
        "g": (0.0, 0.0, w, t),
        "d": (0.0, -(h - t) / 2, w, t),
        "f": (-x, y, t, h / 2), "b": (x, y, t, h / 2),
        "e": (-x, -y, t, h / 2), "c": (x, -y, t, h / 2),
    }[name]


def number_strokes(text: str, height: float, stroke: float) -> List[Rect]:
    """The rectangles of `text` (digits) `height` high, centred on (0, 0), reading along +x
    with its top toward +y."""
    w = WIDTH * height
    total = len(text) * w + (len(text) - 1) * GAP * height
    out: List[Rect] = []
    for i, ch in enumerate(text):
        cx = -total / 2 + w / 2 + i * (w + GAP * height)
        for seg in DIGITS[ch]:
            x, y, sw, sh = _segment(seg, w, height, stroke)
            out.append((cx + x, y, sw, sh))
    return out


def number_width(text: str, height: float) -> float:
    return len(text) * WIDTH * height + (len(text) - 1) * GAP * height
