"""LED strip adapters: show(rgb_buf) sends one frame (3 bytes R, G, B per LED); n is the LED count.

NeoPixelStrip drives MicroPython's neopixel.NeoPixel; CaptureStrip keeps frames for
tests and the emulator.  The CircuitPython adapter is in strip_cp.py.
"""


def _order(order):
    """Byte positions of R, G, B (and W, or -1) inside one LED's bytes on the wire."""
    if not isinstance(order, str) or "".join(sorted(order)) not in ("BGR", "BGRW"):
        raise ValueError("order: %r is not a colour order like GRB, RGB or GRBW" % (order,))
    return order.find("R"), order.find("G"), order.find("B"), order.find("W")


class NeoPixelStrip:
    """MicroPython's neopixel.NeoPixel: copies the frame into np.buf in the strip's colour
    order (WS2812B: GRB; some rings: RGB; RGBW strips: GRBW with white left off), then
    np.write().  Allocates nothing per frame."""

    def __init__(self, np, order="GRB"):
        self.np = np
        self.order = order
        self._r, self._g, self._b, self._w = _order(order)
        self.bpp = len(order)
        self.n = np.n if hasattr(np, "n") else len(np.buf) // self.bpp
        if self.n * self.bpp != len(np.buf):
            raise ValueError("order: %s does not fit a buffer of %d bytes" % (order, len(np.buf)))

    def show(self, rgb_buf):
        out = self.np.buf
        bpp = self.bpp
        ro = self._r
        go = self._g
        bo = self._b
        wo = self._w
        d = 0
        s = 0
        for _ in range(self.n):
            out[d + ro] = rgb_buf[s]
            out[d + go] = rgb_buf[s + 1]
            out[d + bo] = rgb_buf[s + 2]
            if wo >= 0:
                out[d + wo] = 0
            d += bpp
            s += 3
        self.np.write()


class CaptureStrip:
    """A strip that keeps the last frame (RGB bytes) and counts the writes."""

    def __init__(self, n):
        self.n = n
        self.frame = bytearray(3 * n)
        self.writes = 0

    def show(self, rgb_buf):
        frame = self.frame
        for i in range(len(frame)):
            frame[i] = rgb_buf[i]
        self.writes += 1

    def colour(self, i):
        """LED i of the last frame as "RRGGBB"."""
        return "%02X%02X%02X" % (self.frame[3 * i], self.frame[3 * i + 1], self.frame[3 * i + 2])

    def hex(self):
        """The last frame, one "RRGGBB" per LED, space separated (the `leds` reply)."""
        return hex_colours(self.frame)


def hex_colours(rgb_buf):
    """"RRGGBB RRGGBB ..." for a frame of RGB bytes."""
    return " ".join("%02X%02X%02X" % (rgb_buf[i], rgb_buf[i + 1], rgb_buf[i + 2])
                    for i in range(0, len(rgb_buf) - 2, 3))
