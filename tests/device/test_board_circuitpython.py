"""The CircuitPython board (firmware/dealerbutton/board/circuitpython.py,
firmware/circuitpython/code.py and boot.py) on CPython: small fakes of CircuitPython's board,
digitalio, microcontroller, supervisor, storage, watchdog and neopixel_write modules, with the
real adafruit-circuitpython-neopixel and adafruit_pixelbuf code between the app and the
captured neopixel_write. Each "boot" imports board/circuitpython.py (board_cp here) afresh on
a new set of fakes."""

import json
import runpy
import sys
import types

import pytest
from dealerbutton import VERSION
from dealerbutton.store import filestore
from dealerbutton.ticks import ticks_diff
from micropython_unix import FIRMWARE

CODE_PY = FIRMWARE / "circuitpython" / "code.py"
BOOT_PY = FIRMWARE / "circuitpython" / "boot.py"
FAKED = ("board", "digitalio", "microcontroller", "microcontroller.pin", "supervisor",
         "storage", "watchdog", "neopixel_write")
REAL = ("neopixel", "adafruit_pixelbuf")
OURS = ("dealerbutton.board.circuitpython",)
CP_PERIOD = 1 << 29          # supervisor.ticks_ms() wraps here


def _touched(name):
    return any(name == m or name.startswith(m + ".") for m in FAKED + REAL + OURS)


class Reset(Exception):
    """microcontroller.reset() was called."""


class McuPin:
    """A microcontroller.Pin: GPIO n."""

    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "GPIO%d" % self.n


class Rig:
    """One power-up of a fake CircuitPython board: pins with levels the test sets, a clock,
    the serial console, the drive's mount state, the watchdog and the NeoPixel wire."""

    def __init__(self, tmp_path, start_ms=1000, gp_names=True, missing=(), readonly=True,
                 storage_knows=True, has_watchdog=True):
        self.tmp = tmp_path
        self.start = start_ms
        self.ms = start_ms            # absolute fake time; ticks_ms() gives it modulo 2**29
        self.levels = {}              # gpio -> level forced by the test (0: pressed)
        self.claimed = {}             # gpio -> DigitalInOut holding it
        self.ios = []                 # every DigitalInOut made
        self.wire = []                # (DigitalInOut, bytes) per neopixel_write
        self.serial = bytearray()     # bytes the host sent, not read yet
        self.events = []              # (absolute ms, function)
        self.remounts = []
        self.resets = 0
        self.readonly = readonly      # to CircuitPython (as at power-up without boot.py)
        self.modules = self.make_modules(gp_names, missing, storage_knows, has_watchdog)

    # -- the fake modules ---------------------------------------------------------------
    def make_modules(self, gp_names, missing, storage_knows, has_watchdog):
        rig = self
        mcu = types.ModuleType("microcontroller")
        pins = types.ModuleType("microcontroller.pin")
        for n in range(30):
            if n not in missing:
                setattr(pins, "GPIO%d" % n, McuPin(n))
        mcu.Pin = McuPin
        mcu.pin = pins

        def reset():
            rig.resets += 1
            raise Reset()
        mcu.reset = reset

        wd = types.ModuleType("watchdog")

        class WatchDogMode:
            RAISE = "RAISE"
            RESET = "RESET"
        wd.WatchDogMode = WatchDogMode

        class WatchDogTimer:
            def __init__(self):
                self.timeout = None
                self.mode = None
                self.feeds = 0

            def feed(self):
                assert self.mode is not None, "feed() of a watchdog that is not running"
                self.feeds += 1
        if has_watchdog:
            mcu.watchdog = WatchDogTimer()

        brd = types.ModuleType("board")
        for n in range(30):
            p = getattr(pins, "GPIO%d" % n, None)
            if p is None:
                continue
            # Pico-style boards name GPn; others (Feather RP2040) only Dn / An.
            setattr(brd, ("GP%d" if gp_names else "D%d") % n, p)
        brd.board_id = "fake_pico" if gp_names else "fake_feather"

        dio = types.ModuleType("digitalio")

        class Direction:
            INPUT = "INPUT"
            OUTPUT = "OUTPUT"

        class Pull:
            UP = "UP"
            DOWN = "DOWN"

        class DigitalInOut:
            def __init__(self, pin):
                if not isinstance(pin, McuPin):
                    raise TypeError("pin must be a microcontroller.Pin, not %r" % (pin,))
                if pin.n in rig.claimed:
                    raise ValueError("%r in use" % pin)
                rig.claimed[pin.n] = self
                rig.ios.append(self)
                self.pin = pin
                self.direction = Direction.INPUT
                self.pull = None
                self.out = False
                self.released = False

            def switch_to_input(self, pull=None):
                self.direction = Direction.INPUT
                self.pull = pull

            def switch_to_output(self, value=False, drive_mode=None):
                self.direction = Direction.OUTPUT
                self.out = value

            @property
            def value(self):
                assert not self.released, "read of a released pin"
                if self.direction == Direction.OUTPUT:
                    return self.out
                if self.pin.n in rig.levels:
                    return bool(rig.levels[self.pin.n])
                # A button pin with no pull floats: read as low (pressed), so a missing
                # pull-up shows up as a pressed button.
                return self.pull == Pull.UP

            @value.setter
            def value(self, v):
                self.out = bool(v)

            def deinit(self):
                self.released = True
                if rig.claimed.get(self.pin.n) is self:
                    del rig.claimed[self.pin.n]
        dio.Direction = Direction
        dio.Pull = Pull
        dio.DigitalInOut = DigitalInOut

        npw = types.ModuleType("neopixel_write")

        def neopixel_write(io, buf):
            assert isinstance(io, DigitalInOut) and io.direction == Direction.OUTPUT
            rig.wire.append((io, bytes(buf)))
        npw.neopixel_write = neopixel_write

        sup = types.ModuleType("supervisor")

        class Runtime:
            @property
            def serial_bytes_available(self):
                return len(rig.serial)
        sup.runtime = Runtime()
        sup.ticks_ms = lambda: rig.ms % CP_PERIOD

        sto = types.ModuleType("storage")

        def remount(path, readonly=False, disable_concurrent_write_protection=False):
            assert path == "/"
            rig.remounts.append(readonly)
            rig.readonly = readonly
        sto.remount = remount
        if storage_knows:
            def getmount(path):
                return types.SimpleNamespace(readonly=rig.readonly)
            sto.getmount = getmount

        return {"microcontroller": mcu, "microcontroller.pin": pins, "watchdog": wd,
                "board": brd, "digitalio": dio, "neopixel_write": npw, "supervisor": sup,
                "storage": sto}

    # -- what the test does ---------------------------------------------------------------
    def at(self, ms, fn):
        """fn() ms milliseconds from now."""
        self.events.append((self.ms + ms, fn))
        self.events.sort(key=lambda e: e[0])

    def press(self, gpio, at, hold_ms):
        self.at(at, lambda: self.levels.__setitem__(gpio, 0))
        self.at(at + hold_ms, lambda: self.levels.pop(gpio, None))

    def send(self, text, at=0):
        if at == 0:
            self.serial += text.encode()
        else:
            self.at(at, lambda: self.serial.extend(text.encode()))

    def sleep(self, seconds):
        self.ms += max(1, int(round(seconds * 1000)))
        while self.events and self.events[0][0] <= self.ms:
            self.events.pop(0)[1]()

    def io(self, gpio):
        return [d for d in self.ios if d.pin.n == gpio][-1]

    @property
    def watchdog(self):
        return getattr(self.modules["microcontroller"], "watchdog", None)


class Stdin:
    """CircuitPython's sys.stdin: read(n) gives str, from the rig's serial bytes."""

    def __init__(self, rig):
        self.rig = rig

    def read(self, n=1):
        data = bytes(self.rig.serial[:n])
        del self.rig.serial[:n]
        return data.decode("latin-1")


@pytest.fixture
def power(tmp_path, monkeypatch):
    """power(**rig options) -> (rig, board_cp): a fresh power-up on new fakes, its state
    and config in tmp_path. Everything put into sys.modules is taken out afterwards."""
    import dealerbutton.board as shells

    write_config(tmp_path, {})
    deployed_files(tmp_path)
    saved = {k: v for k, v in sys.modules.items() if _touched(k)}
    saved_attr = getattr(shells, "circuitpython", None)
    monkeypatch.setattr(sys, "path", [p for p in sys.path
                                      if not p.rstrip("/").endswith("support/fakes")])

    def boot(**kw):
        rig = Rig(tmp_path, **kw)
        for k in [k for k in sys.modules if _touched(k)]:
            del sys.modules[k]
        sys.modules.update(rig.modules)
        import dealerbutton.board.circuitpython as board_cp
        import neopixel
        assert neopixel.__file__.endswith("site-packages/neopixel.py"), neopixel.__file__
        board_cp.CONFIG_PATH = str(tmp_path / "config.json")
        board_cp.DRIVE = str(tmp_path)
        monkeypatch.setattr(board_cp, "sleep_s", rig.sleep)
        monkeypatch.setattr(sys, "stdin", Stdin(rig))
        return rig, board_cp

    try:
        yield boot
    finally:
        for k in [k for k in sys.modules if _touched(k)]:
            del sys.modules[k]
        sys.modules.update(saved)
        if saved_attr is None:
            if hasattr(shells, "circuitpython"):
                del shells.circuitpython
        else:
            shells.circuitpython = saved_attr


MADE = "no saved state: clean start"


def deployed_files(root):
    """The files deploy --drive makes for the saved table (drivestore.FILES), blank."""
    from dealerbutton.store import drivestore

    (root / drivestore.FOLDER).mkdir(exist_ok=True)
    for name in drivestore.FILES:
        (root / drivestore.FOLDER / name).write_bytes(b" " * drivestore.SIZE)


def saved_copy(tmp_path, k=0):
    """The table in the drive's copy k (state/table-a.json, table-b.json), or None."""
    from dealerbutton.store import drivestore

    path = tmp_path / "state" / drivestore.COPIES[k]
    if not path.exists():
        return None
    return path.read_bytes()[drivestore.START:].rstrip(b" ").decode()


def write_config(tmp_path, cfg):
    (tmp_path / "config.json").write_text(json.dumps(cfg))


def out_lines(capsys):
    return capsys.readouterr().out.splitlines()


def replies(lines):
    return [x for x in lines if x.startswith("ok") or x.startswith("err")]


def wire_order(rgb, order):
    """The bytes a strip in colour order `order` gets for an RGB frame."""
    out = bytearray(len(rgb))
    for i in range(0, len(rgb), 3):
        for j, c in enumerate(order):
            out[i + j] = rgb[i + "RGB".index(c)]
    return bytes(out)


# -- pins, buttons, serial ------------------------------------------------------------
def test_buttons_are_read_with_the_pull_up_and_a_seat_press_sits_a_player(tmp_path, power,
                                                                           capsys):
    write_config(tmp_path, {"seats": 4})
    rig, board_cp = power(readonly=False)
    rig.press(3, at=100, hold_ms=120)          # seat 2 is on GP3 in the default pin map
    board_cp.run(loops=300)
    out = out_lines(capsys)
    assert out[0] == "* info " + MADE, out
    assert "* seat 2 active" in out, out
    t = board_cp.app.table
    assert [t.status(s) for s in (1, 2, 3, 4)] == ["empty", "active", "empty", "empty"]
    buttons = {n: (rig.io(n).direction, rig.io(n).pull) for n in (2, 3, 4, 5, 15)}
    assert buttons == {n: ("INPUT", "UP") for n in (2, 3, 4, 5, 15)}
    assert rig.io(16).direction == "OUTPUT"
    # Only the pins in use are claimed: 4 seats, the next-hand button and the LED data pin.
    assert sorted(rig.claimed) == [2, 3, 4, 5, 15, 16]


def test_a_seat_held_from_power_up_is_a_stuck_button(tmp_path, power, capsys, monkeypatch):
    """The panel's first look sees a button already held when the board starts: that
    press never acts; held stuck_ms (here 2 s) it is reported stuck; let go and pressed
    again, it works."""
    from dealerbutton.buttons import button

    monkeypatch.setattr(button.Button, "stuck_ms", 2000)
    write_config(tmp_path, {"seats": 4})
    rig, board_cp = power(readonly=False)
    rig.levels[3] = 0                          # seat 2 held (stuck) while the board starts
    rig.at(2500, lambda: rig.levels.pop(3))
    rig.press(3, at=3000, hold_ms=120)         # then pressed: a player sits down
    board_cp.run(loops=3000)
    out = out_lines(capsys)
    assert rig.ms - rig.start > 3200
    assert "* error seat 2 button stuck" in out, out
    assert [x for x in out if x.startswith("* seat")] == ["* seat 2 active"], out


def test_a_chord_of_two_seat_buttons_moves_a_player(tmp_path, power, capsys):
    write_config(tmp_path, {"seats": 4})
    rig, board_cp = power(readonly=False)
    rig.send("sit 1\n")
    rig.press(2, at=100, hold_ms=900)          # seat 1 held ...
    rig.press(4, at=500, hold_ms=150)          # ... and seat 3 pressed: 1 moves to 3
    board_cp.run(loops=600)
    out = out_lines(capsys)
    t = board_cp.app.table
    assert [t.status(s) for s in (1, 3)] == ["empty", "active"], out


def test_serial_commands_get_replies_a_few_per_loop(tmp_path, power, capsys):
    rig, board_cp = power(readonly=False)
    rig.send("ping\nversion\nsit 1\nsit 2\n")
    rig.send("press 0\npress 2\nbogus\n", at=300)
    rig.send("ping\n" * 60, at=600)          # 300 bytes: more than one loop turn takes
    seen = []
    rig.at(610, lambda: seen.append(len(rig.serial)))
    board_cp.run(loops=200)
    out = out_lines(capsys)
    got = replies(out)
    assert got[:6] == ["ok pong", "ok " + VERSION, "ok", "ok", "ok draw", "ok button"], out
    assert got[6].startswith("err unknown command bogus"), got
    assert any(x.startswith('* hand {"n":1,"button":2,') for x in out), out
    assert got[7:] == ["ok pong"] * 60
    assert 0 < seen[0] < 300                  # taken INPUT_MAX bytes per loop turn
    assert not rig.serial


@pytest.mark.parametrize("order", ["GRB", "RGB", "BRG", "BGR", "RBG", "GBR"])
def test_frames_reach_neopixel_write_in_the_configured_colour_order(tmp_path, power, capsys,
                                                                    order):
    write_config(tmp_path, {"seats": 4, "palette": {"active": "FF0000", "button": "00FF00"},
                            "color_order": order})
    rig, board_cp = power(readonly=False)
    rig.send("sit 1\nsit 2\npress 0\npress 1\n")
    board_cp.run(loops=100)
    app = board_cp.app
    strip = app.strip.pixels
    assert type(strip).__module__ == "neopixel" and type(strip).__mro__[1].__module__ == \
        "adafruit_pixelbuf"
    assert len(rig.wire) >= 20                 # a frame every 25 ms (5 ms a loop turn)
    led = rig.io(16)
    assert all(io is led for io, _ in rig.wire)
    frame = rig.wire[-1][1]
    assert len(frame) == 3 * 24
    # Exactly the ring's frame, in the strip's order, not dimmed a second time.
    assert frame == wire_order(app.ring.buf, order)
    assert any(frame)


def test_grb_bytes_of_a_known_colour(tmp_path, power, capsys):
    write_config(tmp_path, {"seats": 4, "palette": {"active": "FF0000"}, "brightness": 255})
    rig, board_cp = power(readonly=False)
    rig.send("sit 1\n")
    board_cp.run(loops=3)
    assert board_cp.app.table.status(1) == "active"
    first = rig.wire[-1][1][:3]                # seat 1's first LED: red, sent G, R, B
    assert first[0] == 0 and first[1] > 0 and first[2] == 0, list(first)


# -- saved state ------------------------------------------------------------------------
def test_state_is_saved_and_restored_across_a_reboot(tmp_path, power, capsys):
    rig, board_cp = power(readonly=False)
    rig.send("sit 3\nsit 4\n")
    board_cp.run(loops=5)
    saved = saved_copy(tmp_path, 1)
    assert saved.startswith('{"v":1,"seq":2,'), saved
    assert saved_copy(tmp_path, 0).startswith('{"v":1,"seq":1,')
    out_lines(capsys)
    rig, board_cp = power(readonly=False)      # power cycle: new fakes, board_cp re-imported
    rig.send("state\n")
    board_cp.run(loops=5)
    out = out_lines(capsys)
    assert out[0] == "* info state restored (save 2)", out
    state = json.loads([x for x in out if x.startswith("ok ")][0][3:])
    assert [s["status"] for s in state["seats"]][2:4] == ["active", "active"]


def test_a_read_only_drive_is_reported_once_and_play_goes_on_unsaved(tmp_path, power,
                                                                     capsys):
    rig, board_cp = power(readonly=False)
    rig.send("sit 3\n")
    board_cp.run(loops=3)
    before = saved_copy(tmp_path), saved_copy(tmp_path, 1)
    out_lines(capsys)
    rig, board_cp = power(readonly=True)       # no boot.py remount (or the button held)
    rig.send("sit 4\nsit 5\nstate\n")
    board_cp.run(loops=10)
    out = out_lines(capsys)
    assert out[0] == "* info state restored (save 1)", out
    assert out[1] == "* error " + board_cp.READONLY, out
    assert "read-only" in out[1] and "NOT saved" in out[1]
    assert [x for x in out if x.startswith("* error")] == [out[1]]
    state = json.loads([x for x in out if x.startswith("ok {")][0][3:])
    assert [s["status"] for s in state["seats"]][2:5] == ["active"] * 3
    assert (saved_copy(tmp_path), saved_copy(tmp_path, 1)) == before
    assert rig.watchdog.feeds == 10            # the loop kept running


def test_a_save_refused_by_the_drive_is_reported_once(tmp_path, power, capsys, monkeypatch):
    """When storage cannot tell, the first save that meets EROFS says so, the rest are
    skipped; any other flash error is still reported every time."""
    rig, board_cp = power(readonly=False, storage_knows=False)
    errno = [30]
    real_open = filestore.OsFs.open

    def open_(self, name, mode, *rest):
        if "w" in mode or "+" in mode:
            raise OSError(errno[0], "Read-only filesystem")
        return real_open(self, name, mode, *rest)
    monkeypatch.setattr(filestore.OsFs, "open", open_)
    rig.send("sit 1\nsit 2\nsit 3\n")
    board_cp.run(loops=5)
    out = out_lines(capsys)
    errors = [x for x in out if x.startswith("* error")]
    assert errors == ["* error save failed: " + board_cp.READONLY], out
    assert replies(out) == ["ok"] * 3
    assert not saved_copy(tmp_path) and not saved_copy(tmp_path, 1)
    # Another failure (a full flash) is not taken for a read-only drive.
    rig, board_cp = power(readonly=False, storage_knows=False)
    errno[0] = 28
    rig.send("sit 1\nsit 2\n")
    board_cp.run(loops=5)
    errors = [x for x in out_lines(capsys) if x.startswith("* error")]
    assert len(errors) == 2 and all("save failed" in e and "28" in e for e in errors), errors


# -- boot.py, code.py, safe boot ----------------------------------------------------------
def test_boot_py_makes_the_drive_writable_to_the_board(tmp_path, power, capsys):
    rig, board_cp = power()
    runpy.run_path(str(BOOT_PY))
    assert rig.remounts == [False] and not rig.readonly
    assert 15 not in rig.claimed               # the button pin is free for code.py
    assert "held" not in capsys.readouterr().out


def test_held_at_power_up_the_drive_stays_the_computers_and_code_py_waits(tmp_path, power,
                                                                         capsys):
    rig, board_cp = power()
    rig.levels[15] = 0                          # next-hand button held
    runpy.run_path(str(BOOT_PY))
    assert rig.remounts == [] and rig.readonly
    out = out_lines(capsys)
    assert out == ["dealerbutton: next-hand button held at power-up: CIRCUITPY stays "
                   "writable for the computer; the board will not save the table"]
    board_cp.max_loops = 5
    runpy.run_path(str(CODE_PY), run_name="__main__")
    out = out_lines(capsys)
    assert out == ["dealerbutton: safe boot (next-hand button held): app not started, "
                   "the REPL is free"]
    assert board_cp.app is None and rig.wire == [] and rig.watchdog.mode is None
    assert rig.claimed == {}                    # the REPL user may claim any pin
    # Let go, then save a file from the computer: CircuitPython reloads code.py, which now
    # runs the table, on a drive it may not write.
    del rig.levels[15]
    rig.send("sit 1\n")
    runpy.run_path(str(CODE_PY), run_name="__main__")
    out = out_lines(capsys)
    assert out[:2] == ["* info no saved state: clean start", "* error " + board_cp.READONLY]
    assert "ok" in out and not saved_copy(tmp_path)
    assert rig.watchdog.mode == "RESET" and rig.watchdog.feeds == 5


def test_power_up_boot_then_code_runs_the_table_and_saves(tmp_path, power, capsys):
    rig, board_cp = power()
    runpy.run_path(str(BOOT_PY))
    board_cp.max_loops = 8
    rig.send("sit 2\n")
    runpy.run_path(str(CODE_PY), run_name="__main__")
    out = out_lines(capsys)
    assert out[0] == "* info " + MADE and "ok" in out, out
    assert not [x for x in out if x.startswith("* error")]
    assert saved_copy(tmp_path).startswith('{"v":1,"seq":1,')
    wdt = rig.watchdog
    assert (wdt.timeout, wdt.mode, wdt.feeds) == (8, "RESET", 8)


def test_the_safe_boot_button_follows_config_json(tmp_path, power, capsys):
    write_config(tmp_path, {"pins": {"next": 20}})
    rig, board_cp = power()
    rig.levels[15] = 0                          # the default pin: not the button any more
    runpy.run_path(str(BOOT_PY))
    assert rig.remounts == [False]
    rig, board_cp = power()
    rig.levels[20] = 0
    runpy.run_path(str(BOOT_PY))
    assert rig.remounts == []
    assert board_cp.safe_boot_requested()
    rig.at(5, lambda: rig.levels.pop(20))       # a bounce, not a held button
    assert not board_cp.safe_boot_requested()


def test_a_drive_without_the_files_the_table_is_saved_in_starts_no_table_and_says_why(
        tmp_path, power, capsys):
    """A copy cut short while it was made (0 bytes), or a drive filled by hand: boot.py
    leaves the drive to the computer, code.py starts no table (the ring's error pattern,
    every command refused) and says which file, and the command that makes them again."""
    from dealerbutton import ring
    from dealerbutton.store import drivestore

    (tmp_path / "state" / "table-b.json").write_bytes(b"")
    rig, board_cp = power()
    runpy.run_path(str(BOOT_PY))
    assert rig.remounts == [] and rig.readonly     # the computer's, to mend it
    board_cp.max_loops = 5
    rig.send("sit 1\nping\n")
    runpy.run_path(str(CODE_PY), run_name="__main__")
    out = out_lines(capsys)
    line = ("the CIRCUITPY drive lacks the files the table is saved in (state/table-b.json "
            "0 bytes, not 12288): " + drivestore.RECOVERY)
    assert "* error " + line in out, out
    assert "dealerbutton deploy --drive" in line
    assert replies(out) == ["err drive " + line, "ok pong"], out
    assert board_cp.app.ring.mode == ring.ERROR and rig.wire
    assert (tmp_path / "state" / "table-b.json").read_bytes() == b""   # never written
    assert not saved_copy(tmp_path)


# -- pin names ----------------------------------------------------------------------------
def test_pins_are_found_as_microcontroller_gpio_on_boards_without_gp_names(tmp_path, power,
                                                                          capsys):
    write_config(tmp_path, {"seats": 3})
    rig, board_cp = power(gp_names=False, readonly=False)
    assert not hasattr(rig.modules["board"], "GP16")
    rig.press(2, at=50, hold_ms=100)
    board_cp.run(loops=300)
    out = out_lines(capsys)
    assert "* seat 1 active" in out, out
    assert rig.io(16).pin is rig.modules["microcontroller"].pin.GPIO16
    assert rig.wire


def test_a_pin_the_board_lacks_is_a_config_error(tmp_path, power, capsys):
    write_config(tmp_path, {"seats": 4})
    rig, board_cp = power(missing=(4,), readonly=False)
    rig.send("ping\nsit 1\n")
    board_cp.run(loops=5)
    out = out_lines(capsys)
    problem = ("pins.seats[2]: this board has no GPIO 4 (neither board.GP4 nor "
               "microcontroller.pin.GPIO4)")
    assert out[0] == "dealerbutton: config.json rejected (1 problem): " + problem, out
    assert out[1] == "* error config.json rejected (1 problem): " + problem
    assert out[2:] == ["ok pong", "err config config.json rejected (1 problem): " + problem]
    assert rig.watchdog.mode is None and rig.wire and any(rig.wire[-1][1])  # error pattern
    assert sorted(rig.claimed) == [16]


# -- time, crash, Ctrl-C ------------------------------------------------------------------
def test_clock_across_the_supervisor_wrap(power):
    rig, board_cp = power()
    raw = [CP_PERIOD - 7]
    clock = board_cp.Clock(lambda: raw[0] % CP_PERIOD)
    prev = clock()
    for step in (3, 3, 5, 1000, 1 << 27, 1 << 28, 7):
        raw[0] += step
        now = clock()
        assert ticks_diff(now, prev) == step
        assert 0 <= now < 1 << 30
        prev = now
    # Without the adapter ticks.py would see the wrap as a jump back of ~2**29 ms.
    assert ticks_diff(2, CP_PERIOD - 2) != 4


def test_a_long_press_held_across_the_wrap_is_a_long_press(tmp_path, power, capsys):
    write_config(tmp_path, {"seats": 4})
    rig, board_cp = power(start_ms=CP_PERIOD - 400, readonly=False)
    rig.send("sit 1\n")
    rig.press(2, at=100, hold_ms=1500)          # seat 1 held 1.5 s; ticks_ms wraps at 400
    board_cp.run(loops=2000)
    out = out_lines(capsys)
    assert rig.ms > CP_PERIOD + 1000
    assert "* seat 1 empty" in out, out        # long press: the player left
    assert board_cp.app.table.status(1) == "empty"


def test_a_crash_prints_the_traceback_and_resets(tmp_path, power, capsys, monkeypatch):
    from dealerbutton import app

    rig, board_cp = power(readonly=False)

    def broken(self, now_ms):
        raise RuntimeError("ring on fire")
    monkeypatch.setattr(app.App, "tick", broken)
    with pytest.raises(Reset):
        board_cp.run(loops=5)
    captured = capsys.readouterr()
    assert "dealerbutton: crashed, resetting" in captured.out
    assert "RuntimeError: ring on fire" in captured.out + captured.err
    assert rig.resets == 1


def test_ctrl_c_stops_the_loop_and_the_watchdog(tmp_path, power, capsys, monkeypatch):
    from dealerbutton import app

    rig, board_cp = power(readonly=False)

    def interrupted(self, now_ms):
        raise KeyboardInterrupt
    monkeypatch.setattr(app.App, "tick", interrupted)
    board_cp.run(loops=5)
    out = out_lines(capsys)
    assert out[-1] == "dealerbutton: stopped by Ctrl-C; the REPL is free", out
    assert rig.watchdog.mode is None and rig.resets == 0


def test_repl_command_leaves_the_line_to_the_repl(tmp_path, power, capsys):
    rig, board_cp = power(readonly=False)
    rig.send("ping\nrepl\nping\n")
    board_cp.run(loops=50)
    out = out_lines(capsys)
    assert out[-3:] == ["ok pong", "ok repl", "dealerbutton: the REPL is free (repl command)"], out
    assert rig.watchdog.mode is None and rig.resets == 0
    assert bytes(rig.serial) == b"ping\n"      # left for the REPL


def test_a_board_without_a_watchdog_still_plays(tmp_path, power, capsys):
    rig, board_cp = power(readonly=False, has_watchdog=False)
    rig.send("sit 1\n")
    board_cp.run(loops=3)
    assert "ok" in out_lines(capsys)
