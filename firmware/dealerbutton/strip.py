"""LED strip adapters: show(rgb_buf) sends one frame (3 bytes R, G, B per LED); n is the LED count.

NeoPixelStrip drives MicroPython's neopixel.NeoPixel. The strip that keeps frames for the
tests and the emulator is capture.CaptureStrip; the CircuitPython adapter is in strip_cp.py.
"""

class NeoPixelStrip:
    """MicroPython's neopixel.NeoPixel: copies the frame into np.buf in the strip's colour
    order (WS2812B: GRB; some rings: RGB; RGBW strips: GRBW with white left off), then
    np.write().  Allocates nothing per frame."""

    def __init__(self, np, order="GRB"):
        self.np = np
        self.order = order
        if not isinstance(order, str) or "".join(sorted(order)) not in ("BGR", "BGRW"):
            raise ValueError("order: %r is not a colour order like GRB, RGB or GRBW" % (order,))
        # Where R, G, B (and W, or 255: none) go among one LED's bytes on the wire.
        self._at = bytes([order.find(c) & 255 for c in "RGBW"])
        self.bpp = len(order)
        self.n = np.n if hasattr(np, "n") else len(np.buf) // self.bpp
        if self.n * self.bpp != len(np.buf):
            raise ValueError("order: %s does not fit a buffer of %d bytes" % (order, len(np.buf)))

    def show(self, rgb_buf):
        out = self.np.buf
        bpp = self.bpp
        p = self._at
        r = p[0]
        g = p[1]
        b = p[2]
        w = p[3]
        d = 0
        s = 0
        for _ in range(self.n):
            out[d + r] = rgb_buf[s]
            out[d + g] = rgb_buf[s + 1]
            out[d + b] = rgb_buf[s + 2]
            if w != 255:
                out[d + w] = 0
            d += bpp
            s += 3
        self.np.write()
