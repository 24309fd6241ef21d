"""Strip adapters for MicroPython: colour order into neopixel's buffer, one write per frame,
no allocation; the capturing strip (CPython and MicroPython)."""
import sys

import two_runtimes
from dealerbutton.board import strip as strip_mod
from dealerbutton.board.capture import CaptureStrip, hex_colours
from dealerbutton.board.strip import NeoPixelStrip
from dealerbutton.ring import ACTIVE, Ring


class MicroPythonNeoPixel:
    """The parts of MicroPython's neopixel.NeoPixel (micropython-lib) a strip touches:
    buf holds the bytes in wire order, __setitem__ is its own (ORDER maps R, G, B, W to
    positions: GRB), write() sends buf (here: counts it)."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = v[j]

    def write(self):
        self.writes += 1


FRAME = bytearray([10, 20, 30, 40, 50, 60, 70, 80, 90, 255, 0, 1])  # 4 LEDs: R, G, B


def by_setitem(n, bpp):
    """The buffer MicroPython's own NeoPixel builds from np[i] = (r, g, b[, w])."""
    np = MicroPythonNeoPixel(None, n, bpp)
    for i in range(n):
        if bpp == 3:
            np[i] = (FRAME[3 * i], FRAME[3 * i + 1], FRAME[3 * i + 2])
        else:
            np[i] = (FRAME[3 * i], FRAME[3 * i + 1], FRAME[3 * i + 2], 0)
    return np.buf


def test_grb_matches_micropython_neopixel_own_order():
    np = MicroPythonNeoPixel(None, 4)
    strip = NeoPixelStrip(np)
    assert strip.n == 4
    strip.show(FRAME)
    assert np.buf == by_setitem(4, 3)
    assert list(np.buf[:6]) == [20, 10, 30, 50, 40, 60]
    assert np.writes == 1


def test_rgb_and_bgr_orders():
    np = MicroPythonNeoPixel(None, 4)
    NeoPixelStrip(np, order="RGB").show(FRAME)
    assert np.buf == FRAME
    np = MicroPythonNeoPixel(None, 4)
    NeoPixelStrip(np, order="BGR").show(FRAME)
    assert list(np.buf[:6]) == [30, 20, 10, 60, 50, 40]


def test_grbw_leaves_white_off():
    np = MicroPythonNeoPixel(None, 4, bpp=4)
    strip = NeoPixelStrip(np, order="GRBW")
    assert strip.n == 4
    strip.show(FRAME)
    assert np.buf == by_setitem(4, 4)
    assert list(np.buf[:8]) == [20, 10, 30, 0, 50, 40, 60, 0]


def test_bad_orders_are_refused():
    for order in ("GGB", "RG", "RGBX", "GRBWW", "RGBR", 3):
        try:
            NeoPixelStrip(MicroPythonNeoPixel(None, 4), order=order)
        except ValueError as e:
            assert "order" in str(e)
        else:
            raise AssertionError("accepted %r" % (order,))
    try:
        NeoPixelStrip(MicroPythonNeoPixel(None, 4, bpp=3), order="GRBW")
    except ValueError as e:
        assert "GRBW" in str(e)
    else:
        raise AssertionError("a 4-byte order on a 3-byte buffer")


def test_a_new_frame_is_one_write_and_follows_the_ring():
    ring = Ring(24, 9, brightness=255, budget_ma=2000)
    for seat in (1, 2, 3, 4):
        ring.status[seat] = ACTIVE
    ring.button = 1
    ring.sb = 2
    ring.bb = 3
    ring.first_to_act = 4  # breathes: every frame below differs
    np = MicroPythonNeoPixel(None, 24)
    strip = NeoPixelStrip(np)
    for t in range(0, 1000, 100):
        strip.show(ring.render(t))
    assert np.writes == 10 and strip.writes == 10
    # LED 0 (button, white), LED 5 (big blind, E69F00 -> G, R, B on the wire).
    assert list(np.buf[0:3]) == [255, 255, 255]
    assert list(np.buf[15:18]) == [0x9F, 0xE6, 0x00]


def test_the_same_frame_is_not_sent_again_but_refreshed_now_and_then():
    np = MicroPythonNeoPixel(None, 4)
    strip = NeoPixelStrip(np)
    frame = bytearray(FRAME)
    strip.show(frame)
    assert np.writes == 1
    for _ in range(strip_mod.RESEND_EVERY):
        strip.show(frame)
    assert np.writes == 1  # the strip holds its colours
    strip.show(frame)
    assert np.writes == 2  # ... yet gets the frame again about once a second
    frame[5] = 7
    strip.show(frame)
    assert np.writes == 3
    assert np.buf[5] == 7  # LED 1's blue: the third of its bytes in GRB too
    frame[5] = 60
    np.buf[0] = 0  # noise on the line changed what the strip shows; the next change fixes it
    strip.show(frame)
    assert np.writes == 4 and np.buf == by_setitem(4, 3)


def test_viper_and_plain_reorder_agree():
    """MicroPython reorders in viper code, CPython in plain Python: both give the same bytes
    as neopixel's own np[i] = ..., in every order (both are run on MicroPython)."""
    from dealerbutton.ring import plainloops
    try:
        from dealerbutton.ring import fastloops
    except ImportError:   # CPython
        fastloops = None
    frame = bytearray(range(3, 183))
    for order in ("GRB", "RGB", "BGR", "BRG", "GRBW", "RGBW", "WRGB"):
        bpp = len(order)
        at = bytearray(4)
        for i in range(4):
            k = order.find("RGBW"[i])
            at[i] = 15 if k < 0 else k
        plain = bytearray(60 * bpp)
        plainloops.reorder(plain, frame, 60, at, bpp)
        for k in range(60):
            for c in range(3):
                assert plain[bpp * k + order.find("RGB"[c])] == frame[3 * k + c], (order, k)
            if bpp == 4:
                assert plain[bpp * k + order.find("W")] == 0
        if fastloops is not None:
            fast = bytearray(60 * bpp)
            fastloops.reorder(fast, frame, 60, at, bpp)
            assert fast == plain, order
    if sys.implementation.name == "micropython":
        assert strip_mod._reorder is fastloops.reorder  # the board's build has viper


def test_show_allocates_nothing():
    np = MicroPythonNeoPixel(None, 60)
    strip = NeoPixelStrip(np)
    frame = bytearray(range(180))
    cap = CaptureStrip(60)
    strip.show(frame)
    cap.show(frame)

    def fifty_frames():
        for i in range(50):
            frame[0] = i  # a new frame each time: the reorder and the write run
            strip.show(frame)
            cap.show(frame)

    grown = two_runtimes.allocated(fifty_frames)
    assert grown in (None, 0), grown


def test_capture_strip_keeps_a_copy_of_the_last_frame():
    cap = CaptureStrip(4)
    assert cap.n == 4 and cap.writes == 0
    assert cap.hex() == "000000 000000 000000 000000"
    frame = bytearray(FRAME)
    cap.show(frame)
    frame[0] = 99
    assert cap.frame == FRAME
    assert cap.colour(0) == "0A141E"
    assert cap.colour(3) == "FF0001"
    assert cap.hex() == "0A141E 28323C 46505A FF0001"
    cap.show(bytearray(12))
    assert cap.writes == 2
    assert cap.hex() == "000000 000000 000000 000000"


def test_hex_colours():
    assert hex_colours(b"") == ""
    assert hex_colours(bytes([1, 2, 3])) == "010203"
    assert hex_colours(FRAME) == "0A141E 28323C 46505A FF0001"


if __name__ == "__main__":
    two_runtimes.run_all(globals())
