"""LED strip adapters: show(rgb_buf) sends one frame (3 bytes R, G, B per LED); n is the LED count.

NeoPixelStrip drives MicroPython's neopixel.NeoPixel; CaptureStrip (capture.py, loaded on
the first use of strip.CaptureStrip) keeps frames for tests and the emulator.  The
CircuitPython adapter is in strip_cp.py.
"""

from dealerbutton import text, transient


class NeoPixelStrip:
    """MicroPython's neopixel.NeoPixel: copies the frame into np.buf in the strip's colour
    order (WS2812B: GRB; some rings: RGB; RGBW strips: GRBW with white left off), then
    np.write().  Allocates nothing per frame."""

    def __init__(self, np, order="GRB"):
        self.np = np
        self.order = order
        # Byte positions of R, G, B (and W, or -1) inside one LED's bytes on the wire.
        if not isinstance(order, str) or "".join(sorted(order)) not in ("BGR", "BGRW"):
            # order: %r is not a colour order like GRB, RGB or GRBW
            raise ValueError(text(39, order))
        self._r, self._g, self._b, self._w = (order.find("R"), order.find("G"),
                                              order.find("B"), order.find("W"))
        self.bpp = len(order)
        self.n = np.n if hasattr(np, "n") else len(np.buf) // self.bpp
        if self.n * self.bpp != len(np.buf):
            # order: %s does not fit a buffer of %d bytes
            raise ValueError(text(40, order, len(np.buf)))

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


def __getattr__(name):
    """CaptureStrip and hex_colours, for the tests and the emulator, are in capture.py: the
    board never loads them."""
    if name in ("CaptureStrip", "hex_colours"):
        return getattr(transient("capture"), name)
    raise AttributeError(name)
