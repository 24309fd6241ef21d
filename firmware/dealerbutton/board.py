"""The real board (Raspberry Pi Pico, MicroPython): pins, NeoPixel ring, watchdog, USB serial.

The only module that imports machine and neopixel. run() loads /config.json, then runs the
App forever: polls stdin without blocking, ticks the app, feeds the watchdog. Ctrl-C stops
it and leaves the REPL free (the watchdog is switched off first); any other crash prints
its traceback and resets the board, which restores the saved state at power-up.
"""

import sys
import time

import machine
import neopixel

from dealerbutton import transient
from dealerbutton.strip import NeoPixelStrip

CONFIG_PATH = "/config.json"
STATE_DIR = "/"
WDT_MS = 8000          # rp2040: at most about 8.3 s
LOOP_MS = 5            # pause per loop turn: buttons are polled every ~5-10 ms
INPUT_MAX = 128        # bytes taken from the host per loop turn, so the ring never stalls
max_loops = None       # tests: stop after this many loop turns (None: forever)


def now_ms():
    return int(time.ticks_ms())  # type: ignore[attr-defined]  (MicroPython's time)


def sleep_ms(ms):
    time.sleep_ms(ms)  # type: ignore[attr-defined]


def load_config(path=None):
    """(config, errors) from config.json; a missing file means the defaults."""
    return transient("boot").load_config(path)


def make_strip(cfg):
    np = neopixel.NeoPixel(machine.Pin(cfg["pins"]["led"], machine.Pin.OUT), cfg["leds"])
    return NeoPixelStrip(np, cfg["color_order"])


def seat_pins(cfg):
    """pins[0]: the next-hand button, pins[s]: seat s; pull-ups on, pressed reads 0."""
    pins = [machine.Pin(cfg["pins"]["next"], machine.Pin.IN, machine.Pin.PULL_UP)]
    for g in cfg["pins"]["seats"][:cfg["seats"]]:
        pins.append(machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP))
    return pins


def safe_boot_requested(*args):
    """True when the next-hand button is held at power-up (read over ~50 ms, all low; the
    arguments, samples=5 and gap_ms=10, are boot.safe_boot_requested's)."""
    return transient("boot").safe_boot_requested(*args)


def stop_watchdog():
    """The rp2 watchdog cannot be stopped through machine.WDT; clear its enable bit so the
    REPL (and mpremote) is not reset under the user's feet after Ctrl-C."""
    return transient("boot").stop_watchdog()


def _write(line):
    print(line)


class Input:
    """Non-blocking reads of the host's bytes from stdin (USB serial)."""

    def __init__(self):
        import select
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.read = sys.stdin.buffer.read

    def pump(self, app):
        n = 0
        while n < INPUT_MAX and self.poller.poll(0):
            b = self.read(1)
            if not b:
                break
            app.feed(b)
            n += 1


def run(loops=None):
    """Start the device: never returns on the board except after Ctrl-C."""
    if loops is None:
        loops = max_loops
    app, wdt = transient("boot").start()
    host = Input()
    n = 0
    try:
        while loops is None or n < loops:
            n += 1
            host.pump(app)
            app.tick(now_ms())
            if wdt is not None:
                wdt.feed()      # only a loop that got this far is healthy
            sleep_ms(LOOP_MS)
    except KeyboardInterrupt:
        print("dealerbutton: stopped by Ctrl-C; the REPL is free%s"
              % ("" if stop_watchdog() or wdt is None
                 else " (the watchdog resets the board in 8 s)"))
        return
    except Exception as exc:  # noqa: BLE001 - a crash ends in a reset, never a dead table
        print("dealerbutton: crashed, resetting")  # (no import here: it must not fail)
        sys.print_exception(exc)   # type: ignore[attr-defined]
        sleep_ms(100)
        machine.reset()
