"""The ring's LEDs as the renderer paints them: the seats' arcs in logical order, where each
LED sits on the strip, and the palette's colours at a level and brightness.

The loops over many LEDs (a colour, a run of LEDs, scaling a frame) are MicroPython viper
code (fastloops.py) where it loads, elsewhere the same loops in plain Python
(plainloops.py); the renderer's modules take them from here."""

from array import array

from dealerbutton.ring.palette import palette_bytes

try:
    from dealerbutton.ring.fastloops import colour as colour_of
    from dealerbutton.ring.fastloops import paint as paint_run
    from dealerbutton.ring.fastloops import scale  # noqa: F401  (the renderer takes it from here)
except (ImportError, SyntaxError, ValueError):  # CPython, no viper here, .mpy of another CPU
    from dealerbutton.ring.plainloops import colour as colour_of
    from dealerbutton.ring.plainloops import paint as paint_run
    from dealerbutton.ring.plainloops import scale  # noqa: F401

BLACK = b"\x00\x00\x00"


class Canvas:
    """Logical LED k (counted from seat 1's first LED, in seat order) is strip LED phys[k];
    seat s owns the logical LEDs start[s - 1] to start[s] - 1. rgb holds the colour being
    painted, made from the palette's bytes (pal). Each LED's 3 bytes are in order ("RGB", or
    the strip's own colour order, so that a strip can send the frame as it is)."""

    def __init__(self, leds, seats, offset, reverse, palette, order="RGB"):
        self.leds = leds
        self.order = order
        step = -1 if reverse else 1
        self.phys = array("H", [(offset + step * k) % leds for k in range(leds)])
        self.start = array("H", [s * leds // seats for s in range(seats + 1)])
        self.rgb = bytearray(3)
        self.set_palette(palette)

    def set_palette(self, palette=None):
        """The default palette, overridden per role by a dict of role -> "RRGGBB"; a bad one
        raises ValueError."""
        self.pal = palette_bytes(palette, self.order)

    def arc(self, seat):
        """The strip indices of a seat's LEDs, in seat order (seat 0: the whole ring)."""
        if seat == 0:
            return [self.phys[k] for k in range(self.leds)]
        return [self.phys[k] for k in range(self.start[seat - 1], self.start[seat])]

    def colour(self, role, level, brightness):
        """rgb: a palette role's 3 bytes at a level (0..255), then the brightness (the same
        two roundings as scaling the drawn frame by the brightness afterwards)."""
        colour_of(self.rgb, self.pal, role, level, brightness)

    def run(self, out, a, b):
        """Logical LEDs a to b - 1 in the colour of rgb; returns what that adds to out's
        byte sum."""
        return paint_run(out, self.phys, a, b, self.rgb)

    def led(self, out, k):
        """Logical LED k in the colour of rgb; returns what that adds to out's byte sum."""
        return paint_run(out, self.phys, k, k + 1, self.rgb)
