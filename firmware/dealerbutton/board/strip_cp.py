"""LED strip adapters for CircuitPython boards: show(buf) sends a frame, n is the LED count.

On an RP2040 (rp2pio) PioStrip sends the ring's frames as they are: the ring draws them in
the strip's colour order (its frame_order), a PIO state machine kept running sends the bits
and DMA feeds it (rp2pio's background_write). Other boards, and RGBW strips, go through the
adafruit neopixel library (lib/neopixel.py on the drive) with NeoPixelStrip, which takes
R, G, B frames: colour order and brightness are adafruit_pixelbuf's (byteorder, brightness).

A frame the same as the last one sent is not sent again, but for once every REFRESH frames:
the LEDs keep their colours by themselves.
"""

from time import sleep

REFRESH = 40          # an unchanged frame goes out again after this many
# The PIO program of MicroPython's WS2812 example (strip_pio.py), assembled: 8 MHz, 10
# cycles a bit: high 2 + (5 for a 1, else low) + low 3; side-set 1 pin, autopull 8 bits.
WS2812 = (0x6221,     # bitloop: out x, 1       side 0 [2]
          0x1123,     #          jmp !x do_zero side 1 [1]
          0x1400,     #          jmp bitloop    side 1 [4]
          0xA442)     # do_zero: nop            side 0 [4]
LATCH_MS = 1          # the line held low this long ends a frame (WS2812B: over 280 us)


class NeoPixelStrip:
    """Wraps a PixelBuf (``neopixel.NeoPixel``) and takes R, G, B frames; its auto_write is
    turned off so that one frame goes out as one transmission. Colours are set as packed
    ints (small ints: no allocation per LED on the board)."""

    def __init__(self, pixels):
        pixels.auto_write = False
        self.pixels = pixels
        self.n = len(pixels)
        self.last = bytearray(3 * self.n)   # the frame last sent, R G B
        self.same = REFRESH                 # frames not sent since (the first one goes)

    def show(self, rgb_buf):
        if self.same < REFRESH and rgb_buf == self.last:
            self.same += 1
            return
        self.same = 0
        self.last[:] = rgb_buf
        pixels = self.pixels
        s = 0
        for i in range(self.n):
            pixels[i] = (rgb_buf[s] << 16) | (rgb_buf[s + 1] << 8) | rgb_buf[s + 2]
            s += 3
        pixels.show()


class PioStrip:
    """WS2812 LEDs on an RP2040 pin, 3 bytes an LED: a PIO state machine sends the frames and
    DMA feeds it, so the CPU only starts each transfer. show(buf) takes a frame already in
    the strip's colour order (frame_order: the ring draws it so), copies it and sends it.
    Allocates nothing per frame."""

    def __init__(self, rp2pio, pin, n, order):
        import array

        import supervisor  # pyright: ignore[reportMissingImports]

        self.frame_order = order
        self.n = n
        self.out = bytearray(3 * n)   # the frame being sent (read by the DMA)
        self.sm = rp2pio.StateMachine(array.array("H", WS2812), frequency=8000000,
                                      first_sideset_pin=pin, sideset_pin_count=1,
                                      auto_pull=True, pull_threshold=8,
                                      out_shift_right=False)
        self.ticks_ms = supervisor.ticks_ms
        # How long a frame takes on the wire and to latch, in whole ms.
        self.busy_ms = (len(self.out) * 10 + 999) // 1000 + LATCH_MS
        self.sent = -1      # when the last frame went (-1: none yet: `writing` reads True
                            # on CircuitPython 10 until the first background write ends)
        self.same = REFRESH  # frames not sent since (the first one goes)

    def show(self, buf):
        if self.same < REFRESH and buf == self.out:
            self.same += 1
            return
        self.same = 0
        sm = self.sm
        if self.sent >= 0 and (self.ticks_ms() - self.sent) & 0x1FFFFFFF <= self.busy_ms:
            n = 0
            while sm.writing and n < 5000:   # (a frame takes 2 ms at most: never hang)
                n += 1
            sleep(LATCH_MS / 1000)   # the last bits leave the FIFO; the LEDs latch
        self.out[:] = buf
        sm.background_write(self.out)
        self.sent = self.ticks_ms()

    def deinit(self):
        self.sm.deinit()


def open_strip(pin, n, order="GRB", brightness=1.0):
    """The strip on a board pin (e.g. board.GP16): n LEDs, colour order like "GRB"
    (WS2812B), "RGB" or "GRBW", brightness 0.0..1.0. On an RP2040 with 3 bytes an LED at full
    brightness (the ring does the dimming), a PioStrip; else the neopixel library's."""
    try:
        import rp2pio  # pyright: ignore[reportMissingImports]
    except ImportError:
        rp2pio = None
    if rp2pio is not None and len(order) == 3 and brightness == 1.0:
        return PioStrip(rp2pio, pin, n, order)
    import neopixel

    # The type checker sees MicroPython's neopixel stub (installed for the firmware
    # checks), which shadows the adafruit library this runs with.
    pixels = neopixel.NeoPixel(pin, n, brightness=brightness, auto_write=False, pixel_order=order)  # pyright: ignore[reportCallIssue]
    return NeoPixelStrip(pixels)
