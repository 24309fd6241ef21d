"""LED strip adapter for CircuitPython boards, over adafruit-circuitpython-neopixel.

Same interface as strip.py: show(rgb_buf) with 3 bytes R, G, B per LED, and n.
Colour order and brightness are the neopixel library's (pixel_order, brightness).
"""


class NeoPixelStrip:
    """Wraps a ``neopixel.NeoPixel``; its auto_write is turned off so that one frame goes
    out as one transmission.  Colours are set as packed ints (small ints: no allocation
    per LED on the board)."""

    def __init__(self, pixels):
        pixels.auto_write = False
        self.pixels = pixels
        self.n = len(pixels)

    def show(self, rgb_buf):
        pixels = self.pixels
        s = 0
        for i in range(self.n):
            pixels[i] = (rgb_buf[s] << 16) | (rgb_buf[s + 1] << 8) | rgb_buf[s + 2]
            s += 3
        pixels.show()


def open_strip(pin, n, order="GRB", brightness=1.0):
    """A NeoPixelStrip on a board pin (e.g. board.GP16): n LEDs, colour order like "GRB"
    (WS2812B), "RGB" or "GRBW", brightness 0.0..1.0 applied by the library."""
    import neopixel

    # The type checker sees MicroPython's neopixel stub (installed for the firmware
    # checks), which shadows the adafruit library this runs with.
    pixels = neopixel.NeoPixel(pin, n, brightness=brightness, auto_write=False, pixel_order=order)  # pyright: ignore[reportCallIssue]
    return NeoPixelStrip(pixels)
