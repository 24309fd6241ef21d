"""The ring's data line on the RP2040: a PIO state machine sends the bits, DMA feeds it.

neopixel.NeoPixel sends a frame with machine.bitstream, the CPU timing every bit with
interrupts off: 0.72 ms of the board's time for 24 LEDs, 1.8 ms for 60, 40 times a
second. Here the CPU only starts the transfer (tens of microseconds) and goes on; the
PIO program (MicroPython's WS2812 example, 8 MHz: 1.25 us a bit) shifts each byte out,
a DMA channel copies the frame into its FIFO, paced by it.

PioNeoPixel has neopixel.NeoPixel's buf, n and write(), so strip.NeoPixelStrip drives it
as it drives the other. write() copies buf into the frame being sent, so buf may change
as soon as it returns; a frame sent while the last one is still going out (or within the
300 us the LEDs need to latch it) waits for it.
"""

from time import ticks_add, ticks_diff, ticks_us  # pyright: ignore[reportAttributeAccessIssue]

import rp2
from machine import Pin

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

LATCH_US = const(300)  # the line held low this long ends a frame (WS2812B: over 280 us)
BYTE_US = const(10)    # 8 bits of 1.25 us
DREQ_PIO0_TX0 = const(0)  # the DMA pacing signal of PIO0's state machine 0's TX FIFO


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=8)
def ws2812():
    # 10 cycles a bit at 8 MHz: high 2 + (5 for a 1, else low) + low 3.
    wrap_target()  # noqa: F821 (as above)  # pyright: ignore[reportUndefinedVariable]
    label("bitloop")  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    out(x, 1).side(0)[2]  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp(not_x, "do_zero").side(1)[1]  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp("bitloop").side(1)[4]  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("do_zero")  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    nop().side(0)[4]  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    wrap()  # noqa: F821  # pyright: ignore[reportUndefinedVariable]


class PioNeoPixel:
    """n LEDs of bpp bytes each (in the strip's wire order) on a GPIO."""

    def __init__(self, gpio, n, bpp=3, state_machine=0):
        self.n = n
        self.buf = bytearray(n * bpp)       # what the app draws into
        self._out = bytearray(n * bpp)      # the frame being sent (read by the DMA)
        self._copy = memoryview(self._out)  # (copying into a memoryview allocates nothing)
        self._sm = rp2.StateMachine(state_machine, ws2812, freq=8_000_000,
                                    sideset_base=Pin(gpio))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._count = len(self._out)
        self._dma.config(read=self._out, write=self._sm, count=self._count,
                         ctrl=self._dma.pack_ctrl(size=0, inc_write=False,
                                                  treq_sel=DREQ_PIO0_TX0 + state_machine))
        self._free_at = ticks_us()  # when the last frame is out and latched

    def write(self):
        while ticks_diff(self._free_at, ticks_us()) > 0:
            pass   # the last frame is still going out, or latching
        # Each frame from the program's first instruction, whatever a cut-short frame left
        # in the state machine (a decoder watching the pin, like the emulated Pico's, takes
        # the restart as the end of the last frame).
        self._sm.restart()
        self._copy[:] = self.buf
        # The channel as __init__ set it up, from the frame's first byte again: its own
        # registers (DMA.config's five keywords would make a call frame on the heap).
        dma = self._dma
        # (rp2.DMA's register attributes, missing from the type stubs)
        dma.read = self._out  # pyright: ignore[reportAttributeAccessIssue]
        dma.count = self._count  # pyright: ignore[reportAttributeAccessIssue]
        dma.active(1)
        self._free_at = ticks_add(ticks_us(), self._count * BYTE_US + LATCH_US)
