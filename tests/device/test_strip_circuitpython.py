"""The CircuitPython strip adapter over the real adafruit-circuitpython-neopixel and
adafruit_pixelbuf code (Blinka's OS-agnostic board stands in for the board), capturing the
bytes the library would clock out of the pin."""

import os
import sys

import pytest
from dealerbutton.board import strip_cp
from dealerbutton.board.strip import NeoPixelStrip as MicroPythonStrip
from dealerbutton.ring import ACTIVE, WAIT_BB, Ring

# Modules whose import depends on the board Blinka detects, or that tests/support/fakes shadows.
LIBRARY_MODULES = ("neopixel", "neopixel_write", "adafruit_pixelbuf", "board", "digitalio",
                   "microcontroller", "adafruit_blinka", "adafruit_platformdetect")


def _ours(name):
    return any(name == m or name.startswith(m + ".") for m in LIBRARY_MODULES)


@pytest.fixture(scope="module")
def lib():
    """Import the real neopixel library on a clean slate and put everything back after, so
    tests that use the fake `neopixel` (tests/support/fakes) are not affected."""
    saved_modules = {k: v for k, v in sys.modules.items() if _ours(k)}
    saved_path = list(sys.path)
    saved_env = os.environ.get("BLINKA_OS_AGNOSTIC")
    for k in saved_modules:
        del sys.modules[k]
    sys.path[:] = [p for p in sys.path if not p.rstrip("/").endswith("support/fakes")]
    os.environ["BLINKA_OS_AGNOSTIC"] = "1"
    try:
        import adafruit_pixelbuf
        import board
        import neopixel

        assert issubclass(neopixel.NeoPixel, adafruit_pixelbuf.PixelBuf), neopixel.__file__
        yield neopixel, board
    finally:
        for k in [k for k in sys.modules if _ours(k)]:
            del sys.modules[k]
        sys.modules.update(saved_modules)
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("BLINKA_OS_AGNOSTIC", None)
        else:
            os.environ["BLINKA_OS_AGNOSTIC"] = saved_env


@pytest.fixture
def wire(lib, monkeypatch):
    """Every transmission the library makes: (pin, bytes)."""
    neopixel, _ = lib
    sent = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append((pin, bytes(buf))))
    return sent


FRAME = bytes([10, 20, 30, 40, 50, 60, 200, 100, 0, 255, 255, 255])  # 4 LEDs, R G B


def make(lib, n=4, **kw):
    neopixel, board = lib
    kw.setdefault("auto_write", False)
    return neopixel.NeoPixel(board.NEOPIXEL, n, **kw)


def test_grb_is_the_default_wire_order(lib, wire):
    pixels = make(lib)
    strip = strip_cp.NeoPixelStrip(pixels)
    assert strip.n == 4
    strip.show(FRAME)
    assert len(wire) == 1
    pin, data = wire[0]
    assert pin is pixels.pin
    assert list(data) == [20, 10, 30, 50, 40, 60, 100, 200, 0, 255, 255, 255]


def test_rgb_and_bgr_rings(lib, wire):
    strip_cp.NeoPixelStrip(make(lib, pixel_order="RGB")).show(FRAME)
    assert wire[-1][1] == FRAME
    strip_cp.NeoPixelStrip(make(lib, pixel_order="BGR")).show(FRAME)
    assert list(wire[-1][1][:6]) == [30, 20, 10, 60, 50, 40]


def test_library_brightness_scales_the_bytes_on_the_wire(lib, wire):
    strip_cp.NeoPixelStrip(make(lib, brightness=0.5)).show(FRAME)
    expected = []
    for i in range(0, 12, 3):
        r, g, b = FRAME[i], FRAME[i + 1], FRAME[i + 2]
        expected += [int(g * 0.5), int(r * 0.5), int(b * 0.5)]
    assert list(wire[-1][1]) == expected
    assert list(wire[-1][1][:3]) == [10, 5, 15]


def test_grbw_sends_grey_on_the_white_led(lib, wire):
    # The library drives the W die for colours with R == G == B (as on a real board).
    strip_cp.NeoPixelStrip(make(lib, bpp=4, pixel_order="GRBW")).show(FRAME)
    data = list(wire[-1][1])
    assert len(data) == 16
    assert data[0:4] == [20, 10, 30, 0]
    assert data[12:16] == [0, 0, 0, 255]


def test_one_transmission_per_frame_even_if_created_with_auto_write(lib, wire):
    pixels = make(lib, auto_write=True)
    strip = strip_cp.NeoPixelStrip(pixels)
    assert pixels.auto_write is False
    other = bytes(reversed(FRAME))
    for frame in (FRAME, other, FRAME):
        strip.show(frame)
    assert len(wire) == 3
    assert list(wire[1][1][:3]) == [255, 255, 255]


def test_an_unchanged_frame_goes_out_again_once_a_second(lib, wire):
    strip = strip_cp.NeoPixelStrip(make(lib))
    for _ in range(2 + 2 * strip_cp.REFRESH):
        strip.show(FRAME)
    # the first, then again after REFRESH frames not sent (a second at 40 frames a second)
    assert len(wire) == 2
    assert wire[0][1] == wire[1][1]
    strip.show(bytes(12))
    assert wire[-1][1] == bytes(12)


def test_open_strip_builds_the_real_neopixel(lib, wire):
    neopixel, board = lib
    strip = strip_cp.open_strip(board.NEOPIXEL, 4, order="RGB", brightness=0.25)
    assert isinstance(strip.pixels, neopixel.NeoPixel)
    assert strip.pixels.byteorder == "RGB"
    strip.show(FRAME)
    assert list(wire[-1][1][:3]) == [int(10 * 0.25), int(20 * 0.25), int(30 * 0.25)]


class MicroPythonNeoPixel:
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)

    def write(self):
        pass


@pytest.mark.parametrize("order", ["GRB", "RGB"])
def test_ring_frames_reach_the_wire_as_on_micropython(lib, wire, order):
    """The same ring frame gives the same bytes on both boards' adapters."""
    ring = Ring(24, 9, brightness=96)
    for seat, status in {1: ACTIVE, 2: ACTIVE, 3: ACTIVE, 6: WAIT_BB}.items():
        ring.status[seat] = status
    ring.button = 1
    ring.sb = 2
    ring.bb = 3
    cp = strip_cp.NeoPixelStrip(make(lib, n=24, pixel_order=order))
    np = MicroPythonNeoPixel(24)
    mp = MicroPythonStrip(np, order=order)
    for t in (0, 400, 900):
        frame = ring.render(t)
        cp.show(frame)
        mp.show(frame)
        assert wire[-1][1] == bytes(np.buf)
    assert any(wire[-1][1])


class FakeStateMachine:
    """rp2pio.StateMachine as PioStrip uses it: each background write's bytes."""

    def __init__(self, program, **kw):
        self.program = list(program)
        self.kw = kw
        self.sent = []
        self.writing = False

    def background_write(self, buf):
        self.sent.append(bytes(buf))

    def deinit(self):
        pass


def test_the_rp2040_strip_sends_the_ring_s_frames_as_they_are(lib, monkeypatch):
    """On an RP2040 the ring draws in the strip's colour order and PioStrip sends its frame
    unchanged (no per-LED work): the bytes on the wire are those MicroPython's adapter makes
    from the RGB frame."""
    import types

    from dealerbutton.app import make_ring

    rp2pio = types.SimpleNamespace(StateMachine=FakeStateMachine)
    monkeypatch.setitem(sys.modules, "rp2pio", rp2pio)
    monkeypatch.setitem(sys.modules, "supervisor", types.SimpleNamespace(ticks_ms=lambda: 0))
    cfg = {"leds": 24, "seats": 9, "offset": 0, "direction": "cw", "brightness": 96,
           "budget_ma": 400, "palette": None}
    strip = strip_cp.open_strip("GP16", 24, order="GRB")
    assert isinstance(strip, strip_cp.PioStrip) and strip.frame_order == "GRB"
    assert strip.sm.kw["first_sideset_pin"] == "GP16"
    ring = make_ring(cfg, strip)
    rgb_ring = make_ring(cfg)
    for r in (ring, rgb_ring):
        for seat, status in {1: ACTIVE, 2: ACTIVE, 3: ACTIVE, 6: WAIT_BB}.items():
            r.status[seat] = status
        r.button, r.sb, r.bb, r.first_to_act = 1, 2, 3, 1   # (first to act breathes)
    np = MicroPythonNeoPixel(24)
    mp = MicroPythonStrip(np, order="GRB")
    for t in (0, 400, 900):
        strip.show(ring.render(t))
        mp.show(rgb_ring.render(t))
        assert strip.sm.sent[-1] == bytes(np.buf)
    assert len(strip.sm.sent) == 3
    # An unchanged frame is not sent again, but for once every REFRESH frames.
    n = len(strip.sm.sent)
    for _ in range(strip_cp.REFRESH):
        strip.show(ring.buf)
    assert len(strip.sm.sent) == n
    strip.show(ring.buf)
    assert len(strip.sm.sent) == n + 1
    # RGBW strips, and a brightness of the library's, go through the neopixel library.
    neopixel, board = lib
    for kw in ({"order": "GRBW"}, {"order": "GRB", "brightness": 0.5}):
        assert isinstance(strip_cp.open_strip(board.NEOPIXEL, 24, **kw).pixels, neopixel.NeoPixel)
