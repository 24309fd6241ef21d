"""The real board under CircuitPython: pins, NeoPixel ring, watchdog, USB serial, saved state.

The CircuitPython counterpart of pico.py, and the only module that imports board,
digitalio, microcontroller, supervisor and storage. run() loads /config.json, then runs the
App forever: polls the serial console without blocking, ticks the app, feeds the watchdog.
Ctrl-C stops it and leaves the REPL free (the watchdog is switched off first); any other
crash prints its traceback and resets the board, which restores the saved state.

Pins in config.json stay GPIO numbers (store/config.py accepts whole numbers 0..29 only): n is
board.GPn (Raspberry Pi Pico and boards that name their pins that way), else
microcontroller.pin.GPIOn (every RP2040 board: Feather, QT Py, ... whatever their silk
screen says). A number the board has neither name for is a config error.

Saving: CircuitPython code can write to the CIRCUITPY drive only after boot.py remounted
it (and then the computer cannot). boot.py (see boot()) does so unless the next-hand
button is held at power-up, or the drive lacks the files the table is saved in; a
read-only drive is reported once as `* error ...` and the table then runs without saving.
A drive without those files (store/drivestore.py: deploy --drive makes them, the board never
does) starts no table: the ring shows the error pattern, and the console says which file
and the command that makes them again.
"""

import os
import sys
import time

import board
import digitalio
import microcontroller
import supervisor  # pyright: ignore[reportMissingImports]

import dealerbutton
from dealerbutton.board import strip_cp
from dealerbutton.store.drivestore import DriveStore
from dealerbutton.ticks import ticks_add

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

CONFIG_PATH = "/config.json"
DRIVE = "/"
WDT_S = 8              # rp2040: at most about 8.3 s
INPUT_MAX = 128        # bytes taken from the host per loop turn, so the ring never stalls
# The ring's steady frames (its animations: the breath of first to act, blinks, fades) come
# 20 times a second here, not 40 (app.App.frame_ms): a frame takes about 1.3 ms of
# CircuitPython's bytecode on the Pico, ring and strip. A press still shows at once.
FRAME_MS = 50
# Between frames the buttons at rest are read this often (panel.Panel.doze): here each read
# takes every pin in turn through digitalio, so less often than on MicroPython, where one
# register holds them all.
REST_MS = 10
max_loops = None       # tests: stop after this many loop turns (None: forever)
app = None             # the running App (or Rejected), for tests

EROFS = const(30)
# supervisor.ticks_ms() counts modulo 2**29; ticks.py (like MicroPython) modulo 2**30.
CP_TICKS_MASK = const(0x1FFFFFFF)
READONLY = ("the CIRCUITPY drive is read-only to the board (next-hand button held at "
            "power-up, or no boot.py): the table is NOT saved; power up without holding it "
            "to save")


class Clock:
    """Milliseconds in ticks.py's period (2**30) from supervisor.ticks_ms (period 2**29):
    each call adds the time since the last one, so ticks_diff stays right across the
    2**29 wrap as long as it is called more often than every 6 days (the loop: every few
    ms). Small ints only: no allocation."""

    def __init__(self, raw):
        self.raw = raw
        self.last = raw() & CP_TICKS_MASK
        self.now = self.last

    def __call__(self):
        r = self.raw() & CP_TICKS_MASK
        self.now = ticks_add(self.now, (r - self.last) & CP_TICKS_MASK)
        self.last = r
        return self.now


now_ms = None          # a Clock, made at the first call of run() or clock()


def clock():
    global now_ms
    if now_ms is None:
        now_ms = Clock(supervisor.ticks_ms)
    return now_ms


def sleep_s(seconds):
    time.sleep(seconds)


def sleep_ms(ms):
    sleep_s(ms / 1000)


def gpio(n):
    """The board pin object for GPIO number n, or None if the board has no such pin."""
    pin = getattr(board, "GP%d" % n, None)
    if pin is None:
        names = getattr(microcontroller, "pin", None)
        pin = getattr(names, "GPIO%d" % n, None)
    return pin


def pin_errors(cfg):
    """store/config.py's "field: problem" list for the pins this board does not have."""
    p = cfg["pins"]
    used = [("pins.led", p["led"]), ("pins.next", p["next"])]
    seats = p["seats"]
    for i in range(min(cfg["seats"], len(seats))):
        used.append(("pins.seats[%d]" % i, seats[i]))
    errors = []
    for name, n in used:
        if gpio(n) is None:
            errors.append("%s: this board has no GPIO %d (neither board.GP%d nor "
                          "microcontroller.pin.GPIO%d)" % (name, n, n, n))
    return errors


class Pin:
    """A button input with the pull-up on, read like machine.Pin: value() is 1 released,
    0 pressed (to ground)."""

    def __init__(self, n):
        io = digitalio.DigitalInOut(gpio(n))
        io.switch_to_input(pull=digitalio.Pull.UP)
        self.io = io

    def value(self):
        return 1 if self.io.value else 0

    def deinit(self):
        self.io.deinit()


class Bank:
    """The buttons read all at once for the loop (pressed(), as panel.Pins'), straight from
    their digitalio objects. (keypad.Keys would scan them in C, but it keeps CircuitPython's
    1 ms tick running, and that costs the idle loop more than these reads: see "Figures on
    CircuitPython" in docs/circuitpython.md.)"""

    def __init__(self, pins):
        self.reads = tuple((pins[i].io, 1 << i) for i in range(len(pins)))

    def pressed(self):
        bits = 0
        for io, bit in self.reads:
            if not io.value:
                bits |= bit
        return bits


def load_config(path=None, quiet=False):
    """(config, errors) from config.json; a missing file means the defaults."""
    from dealerbutton.store import config
    path = path or CONFIG_PATH
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        if not quiet:
            print("dealerbutton: no %s, running on the defaults" % path)
        return config.defaults(), []
    return config.load_text(text, path.rsplit("/", 1)[-1])


def make_strip(cfg):
    # The ring applies the brightness and the current limit itself: the library's stays 1.0.
    return strip_cp.open_strip(gpio(cfg["pins"]["led"]), cfg["leds"], cfg["color_order"], 1.0)


def seat_pins(cfg):
    """pins[0]: the next-hand button, pins[s]: seat s; pull-ups on, pressed reads 0."""
    pins = [Pin(cfg["pins"]["next"])]
    for n in cfg["pins"]["seats"][:cfg["seats"]]:
        pins.append(Pin(n))
    return pins


def next_button_held(samples=5):
    """True when the next-hand button is held (read over ~50 ms, all low). The pin is
    released afterwards, so the app can claim it."""
    from dealerbutton.store import config
    try:
        cfg, errors = load_config(quiet=True)
        n = cfg["pins"]["next"]
        if gpio(n) is None:
            n = config.DEFAULTS["pins"]["next"]
    except Exception:  # noqa: BLE001 - the escape must work whatever the config says
        n = config.DEFAULTS["pins"]["next"]
    if gpio(n) is None:
        return False
    pin = Pin(n)
    try:
        sleep_s(0.002)   # let the pull-up charge the line
        for _ in range(samples):
            if pin.value() != 0:
                return False
            sleep_s(0.01)
        return True
    finally:
        pin.deinit()


def safe_boot_requested():
    """code.py: the next-hand button held at start: the app does not start."""
    return next_button_held()


def boot():
    """boot.py, once at power-up before USB starts: make CIRCUITPY writable to the board
    (so the table can be saved) unless the next-hand button is held; then it stays
    writable to the computer, to edit config.json or update the firmware. Returns True
    when the board may write."""
    import storage  # pyright: ignore[reportMissingImports]

    if next_button_held():
        print("dealerbutton: next-hand button held at power-up: CIRCUITPY stays writable "
              "for the computer; the board will not save the table")
        return False
    if DriveStore(DRIVE).check() is not None:
        return False     # for the computer to mend (code.py says what to do)
    storage.remount("/", readonly=False)
    return True


def drive_readonly(path=None):
    """True when CircuitPython may not write to the filesystem holding path."""
    try:
        import storage  # pyright: ignore[reportMissingImports]

        return bool(storage.getmount(path or DRIVE).readonly)
    except (ImportError, AttributeError, OSError, ValueError):
        return False     # unknown: a failing save still says so (FlashStore.save)


class FlashStore(DriveStore):
    """The table's two copies on the drive (store/drivestore.py), which may be read-only to the
    board: then the table is not saved, and that is said once (a read-only error out of a
    save, the first time)."""

    def save(self, table_dict, clock_dict=None):
        if self.readonly:
            return 0
        try:
            return DriveStore.save(self, table_dict, clock_dict)
        except OSError as exc:
            if not exc.args or exc.args[0] != EROFS:
                raise
            self.readonly = True
            raise OSError(READONLY) from None

    def sync(self):
        os.sync()   # CircuitPython's flash cache to the flash; no file is closed


def make_store():
    """The saved table: its two copies on the CIRCUITPY drive (store/drivestore.py), not
    written when the drive is not the board's."""
    flash = FlashStore(DRIVE)
    flash.readonly = drive_readonly()
    return flash


def _write(line):
    print(line)


def print_exception(exc):
    try:
        import traceback
        try:
            traceback.print_exception(exc)   # CircuitPython 9+, CPython 3.10+
        except TypeError:
            traceback.print_exception(type(exc), exc, exc.__traceback__)
    except Exception:  # noqa: BLE001 - the reset must still happen
        print(repr(exc))


def stop_watchdog(wdt):
    """Switch the watchdog off (CircuitPython 9+: mode None; older: deinit())."""
    if wdt is None:
        return True
    try:
        wdt.mode = None
        return True
    except Exception:  # noqa: BLE001 - not every port can stop it
        pass
    try:
        wdt.deinit()
        return True
    except Exception:  # noqa: BLE001
        return False


def start_watchdog():
    """microcontroller.watchdog in RESET mode with WDT_S seconds, or None where the port
    has no watchdog."""
    wdt = getattr(microcontroller, "watchdog", None)
    if wdt is None:
        return None
    try:
        # CircuitPython's own module; on a computer the name may be another package's
        # (PyPI's watchdog, which MkDocs brings), without WatchDogMode.
        from watchdog import WatchDogMode  # pyright: ignore[reportMissingImports, reportAttributeAccessIssue]

        wdt.timeout = WDT_S
        wdt.mode = WatchDogMode.RESET
    except Exception:  # noqa: BLE001 - play on without it rather than not at all
        print("dealerbutton: no watchdog on this board")
        return None
    return wdt


class Input:
    """Non-blocking reads of the host's bytes from the serial console: raw bytes from
    usb_cdc.console where there is one (sys.stdin turns every CR into LF, so a terminal's
    CRLF would read as two line ends), else sys.stdin."""

    def __init__(self):
        self.runtime = supervisor.runtime
        self.read = sys.stdin.read
        self.port = None
        try:
            import usb_cdc  # pyright: ignore[reportMissingImports]

            self.port = usb_cdc.console
        except (ImportError, AttributeError):
            pass

    def pump(self, app):
        port = self.port
        n = 0
        if port is not None:
            while n < INPUT_MAX and not app.repl_requested and port.in_waiting:
                app.feed(port.read(1))
                n += 1
            return
        runtime = self.runtime
        while n < INPUT_MAX and not app.repl_requested and runtime.serial_bytes_available:
            c = self.read(1)
            if not c:
                break
            app.feed(c.encode() if isinstance(c, str) else c)
            n += 1


def start_table(cfg, flash, now):
    """The App at the table config.json sets up, saved on the drive (flash).

    The app is imported only here, after config.json's checks: CircuitPython compiles each
    module as it is imported, and store/config.py (the biggest, unloaded after the start)
    compiled on top of the app and the rules core leaves the heap in pieces too small for
    the start's reads."""
    from dealerbutton.app import App

    pins = seat_pins(cfg)
    app = App(cfg, make_strip(cfg), pins, _write, flash, now_ms=now, bank=Bank(pins))
    app.frame_ms = FRAME_MS
    app.panel.rest_ms = REST_MS
    if flash.readonly:
        _write("* error " + READONLY)
    return app


def run(loops=None):
    """Start the device: never returns on the board except after `repl` or Ctrl-C."""
    global app
    if loops is None:
        loops = max_loops
    now_ms = clock()
    cfg, errors = load_config()
    if not errors:
        errors = pin_errors(cfg)
    now = now_ms()
    wdt = None
    host = Input()
    n = 0
    flash = make_store()
    if not errors:
        flash.check()
    if errors:   # config.json refused
        from dealerbutton.store.config import message
        print("dealerbutton: " + message(errors))
        from dealerbutton.rejected import start_refused
        app = start_refused(cfg, errors, make_strip, _write, now)
    elif flash.damage is not None:   # not the files deploy made: no table, the way out
        print("dealerbutton: " + flash.damage)
        from dealerbutton.rejected import start_refused
        app = start_refused(cfg, [], make_strip, _write, now, drive=flash.damage)
    else:
        app = start_table(cfg, flash, now)
        dealerbutton.unload()   # (what only the start needed)
        wdt = start_watchdog()   # the try follows at once: Ctrl-C from here on stops it
    try:
        while loops is None or n < loops:
            n += 1
            app.stats.start()
            host.pump(app)
            if app.repl_requested:      # `repl`: leave the line to the REPL
                stopped = stop_watchdog(wdt)
                print("dealerbutton: the REPL is free (repl command)%s"
                      % ("" if stopped else " (the watchdog resets the board in 8 s)"))
                return
            now = now_ms()
            pause = app.tick(now)  # until the next frame, or 1 ms while a button is down
            app.stats.turn(app.last_frame == now)
            if wdt is not None:
                wdt.feed()      # only a loop that got this far is healthy
            app.doze(pause, sleep_ms)
    except KeyboardInterrupt:
        stopped = stop_watchdog(wdt)
        print("dealerbutton: stopped by Ctrl-C; the REPL is free%s"
              % ("" if stopped else " (the watchdog resets the board in 8 s)"))
        return
    except Exception as exc:  # noqa: BLE001 - a crash ends in a reset, never a dead table
        print("dealerbutton: crashed, resetting")
        print_exception(exc)
        sleep_s(0.1)
        microcontroller.reset()  # pyright: ignore[reportAttributeAccessIssue] (Blinka's has none)
