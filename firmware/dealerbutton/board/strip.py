"""LED strip adapters: show(rgb_buf) sends one frame (3 bytes R, G, B per LED); n is the LED count.

NeoPixelStrip drives MicroPython's neopixel.NeoPixel. The strip that keeps frames for the
tests and the emulator is capture.CaptureStrip; the CircuitPython adapter is in strip_cp.py.

Reordering 60 LEDs into the strip's colour order byte by byte took about 2 ms of the board's
25 ms frame in bytecode: on MicroPython it runs as viper code (ring/fastloops.py, a few
microseconds), elsewhere as the same loop in plain Python (ring/plainloops.py).
"""



try:
    from dealerbutton.ring.fastloops import reorder as _reorder
except (ImportError, SyntaxError, ValueError):  # CPython, no viper here, .mpy of another CPU
    from dealerbutton.ring.plainloops import reorder as _reorder

# A frame the same as the last one is not sent again, except this often (frames): a strip
# that caught noise on its data line is put right within about a second.
RESEND_EVERY = 40


class NeoPixelStrip:
    """MicroPython's neopixel.NeoPixel: copies the frame into np.buf in the strip's colour
    order (WS2812B: GRB; some rings: RGB; RGBW strips: GRBW with white left off), then
    np.write(), unless the frame is the one already on the strip. Allocates nothing per
    frame."""

    def __init__(self, np, order="GRB"):
        self.np = np
        self.order = order
        if not isinstance(order, str) or "".join(sorted(order)) not in ("BGR", "BGRW"):
            raise ValueError("order: %r is not a colour order like GRB, RGB or GRBW" % (order,))
        self.bpp = len(order)
        self.n = np.n if hasattr(np, "n") else len(np.buf) // self.bpp
        if self.n * self.bpp != len(np.buf):
            raise ValueError("order: %s does not fit a buffer of %d bytes" % (order, len(np.buf)))
        # Where R, G, B (and W, or 15: none) go among one LED's bytes on the wire.
        self._at = bytearray(4)
        for i in range(4):
            at = order.find("RGBW"[i])
            self._at[i] = 15 if at < 0 else at
        self._last = bytearray(3 * self.n)  # the frame on the strip
        self._last_view = memoryview(self._last)
        self._same = RESEND_EVERY  # frames since the last write (the first frame is sent)
        self.writes = 0

    def show(self, rgb_buf):
        if self._same < RESEND_EVERY and rgb_buf == self._last:
            self._same += 1
            return
        self._same = 0
        self._last_view[0:len(self._last)] = rgb_buf
        _reorder(self.np.buf, rgb_buf, self.n, self._at, self.bpp)
        self.np.write()
        self.writes += 1
