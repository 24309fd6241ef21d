"""The real board (Raspberry Pi Pico, MicroPython): pins, NeoPixel ring, watchdog, USB serial.

The only module that imports machine and neopixel (a board without PIO: strip_pio.py drives
the Pico's ring). run() loads /config.json (safe boot,
the refused-config mode and the watchdog start here too), then runs the App forever: polls
stdin without blocking, ticks the app, feeds the watchdog. While it runs every byte on the serial line is the protocol's (Ctrl-C included); the `repl` command ends
the loop and leaves the REPL free (Ctrl-C back on, the watchdog switched off first); any
crash prints its traceback and resets the board, which restores the saved state at power-up.

A Pico W whose config.json has a "network" block also publishes its table on an MQTT broker
(dealerbutton.net, on the board only then: net.start wires it): the loop ticks the Net
after the app.
"""

import sys
import time

import machine

import dealerbutton
from dealerbutton.app import App
from dealerbutton.board.strip import NeoPixelStrip
from dealerbutton.buttons.panel import Pins
from dealerbutton.store import filestore

CONFIG_PATH = "/config.json"
STATE_DIR = "/"
WDT_MS = 8000          # rp2040: at most about 8.3 s
INPUT_MAX = 128        # bytes taken from the host per loop turn, so the ring never stalls
SIO_GPIO_IN = 0xD0000004  # RP2040 SIO: the input level of GPIO n is bit n
CTRL_C = 3             # the REPL's interrupt character, given back when the app lets go
max_loops = None       # tests: stop after this many loop turns (None: forever)


try:  # MicroPython's own, called straight (a wrapper would cost a call every loop turn)
    now_ms = time.ticks_ms  # type: ignore[attr-defined]
    sleep_ms = time.sleep_ms  # type: ignore[attr-defined]
except AttributeError:  # CPython, where the tests run this module with fake pins
    def now_ms():
        return int(time.monotonic() * 1000) & 0x3FFFFFFF  # pyright: ignore

    def sleep_ms(ms):
        time.sleep(ms / 1000)


def load_config(path=None):
    """(config, errors) from config.json; a missing file means the defaults."""
    from dealerbutton.store import config
    path = path or CONFIG_PATH
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        print("dealerbutton: no %s, running on the defaults" % path)
        return config.defaults(), []
    return config.load_text(text, path.rsplit("/", 1)[-1])


def make_strip(cfg):
    """The ring: on the RP2040 through its PIO and DMA (strip_pio.py: the CPU does not wait
    for the bits), elsewhere through MicroPython's neopixel."""
    order = cfg["color_order"]
    if sys.platform == "rp2":
        from dealerbutton.board.strip_pio import PioNeoPixel
        np = PioNeoPixel(cfg["pins"]["led"], cfg["leds"], len(order))
    else:
        import neopixel
        np = neopixel.NeoPixel(machine.Pin(cfg["pins"]["led"], machine.Pin.OUT), cfg["leds"])
    return NeoPixelStrip(np, order)


def seat_pins(cfg):
    """pins[0]: the next-hand button, pins[s]: seat s; pull-ups on, pressed reads 0."""
    pins = [machine.Pin(cfg["pins"]["next"], machine.Pin.IN, machine.Pin.PULL_UP)]
    for gpio in cfg["pins"]["seats"][:cfg["seats"]]:
        pins.append(machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP))
    return pins


class PinBank(Pins):
    """The buttons' pins read all at once: one read of the SIO's GPIO_IN register (mem32:
    machine.mem32 on the rp2 port) gives every pin's level; without mem32 (other ports,
    the tests) each pin is read in turn (panel.Pins). pressed(): bit i set while pins[i]
    (GPIO gpios[i]) reads pressed. An idle table costs one read and one mask a poll."""

    def __init__(self, pins, gpios, mem32=None):
        Pins.__init__(self, pins)
        self.gpios = gpios
        self.mem32 = mem32
        self.mask = 0
        for g in gpios:
            self.mask |= 1 << g

    def pressed(self):
        if self.mem32 is None:
            return Pins.pressed(self)
        low = ~self.mem32[SIO_GPIO_IN] & self.mask   # pull-ups: pressed reads 0
        if not low:
            return 0
        bits = 0
        gpios = self.gpios
        for i in range(len(gpios)):
            if low >> gpios[i] & 1:
                bits |= 1 << i
        return bits


def pin_bank(cfg, pins, mem32=None):
    """The PinBank of seat_pins(cfg): the register read on the rp2 port (or with mem32)."""
    if mem32 is None and sys.platform == "rp2":
        mem32 = machine.mem32
    return PinBank(pins, [cfg["pins"]["next"]] + cfg["pins"]["seats"][:cfg["seats"]], mem32)


def safe_boot_requested(samples=5, gap_ms=10):
    """True when the next-hand button is held at power-up (read over ~50 ms, all low)."""
    try:
        cfg, errors = load_config(None)
        gpio = cfg["pins"]["next"]
    except Exception:  # noqa: BLE001 - the escape must work whatever the config says
        from dealerbutton.store import config
        gpio = config.DEFAULTS["pins"]["next"]
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    sleep_ms(2)   # let the pull-up charge the line
    for _ in range(samples):
        if pin.value() != 0:
            return False
        sleep_ms(gap_ms)
    return True


def stop_watchdog():
    """The rp2 watchdog cannot be stopped through machine.WDT; clear its enable bit so the
    REPL (and mpremote) is not reset under the user's feet after Ctrl-C."""
    impl = getattr(sys.implementation, "_machine", "")
    if sys.platform == "rp2" and "RP2040" in impl:
        # WATCHDOG CTRL (0x40058000), atomic bit-clear alias (+0x3000), ENABLE is bit 30.
        machine.mem32[0x4005B000] = 1 << 30
        return True
    return False


RESET_CAUSES = (("PWRON_RESET", "power-on"), ("HARD_RESET", "reset"), ("WDT_RESET", "watchdog"),
                ("DEEPSLEEP_RESET", "deep sleep"), ("SOFT_RESET", "soft reset"))


def reset_cause():
    """Why the board started, in words (machine.reset_cause())."""
    try:
        cause = machine.reset_cause()
    except AttributeError:
        return "unknown"
    for name, words in RESET_CAUSES:
        if getattr(machine, name, None) == cause:
            return words
    return "unknown"


def start():
    """The App of config.json (or the refused-config mode), the watchdog (None when the
    config was refused) and the Net (None without a usable "network" block), as run()
    starts them."""
    cfg, errors = load_config()
    now = now_ms()
    wdt = None
    net = None
    if errors:   # the refused-config mode
        from dealerbutton.store import config
        _write("dealerbutton: " + config.message(errors))
        from dealerbutton.rejected import start_refused
        app = start_refused(cfg, errors, make_strip, _write, now)
    else:
        pins = seat_pins(cfg)
        app = App(cfg, make_strip(cfg), pins, _write, make_store(),
                  now_ms=now, bank=pin_bank(cfg, pins))
        wdt = machine.WDT(timeout=WDT_MS)
        if cfg.get("network"):
            net = start_network(app, cfg["network"], wdt)
    return app, wdt, net


def start_network(app, settings, wdt):
    """The Net of config.json's network block, or None (said on the serial line; the table
    runs on) on a board without Wi-Fi: a Pico, not a Pico W, does not load net.py at all
    (6 KB of heap for code that could not run)."""
    try:
        import network  # noqa: F401  # pyright: ignore[reportMissingImports]  (a Pico W's)
    except ImportError:
        _write("dealerbutton: network: this board has no Wi-Fi (no network module); "
               "the table runs without it")
        return None
    from dealerbutton import net
    return net.start(app, settings, wdt.feed, _write, lambda: now_ms())


def _write(line):
    print(line)


class Console:
    """The USB serial line while the app runs. The protocol owns it: every byte the host
    sends goes to the app, 0x03 (Ctrl-C) included, which MicroPython would otherwise turn
    into a KeyboardInterrupt wherever the app happens to be. own() switches that off,
    release() gives Ctrl-C back for the REPL (the `repl` command, or the app stopping).

    The seam for tests: kbd_intr (micropython.kbd_intr on the board) and waiting()/read()
    (stdin here) can be replaced, so the hand-over runs the same on both runtimes."""

    def __init__(self, kbd_intr=None):
        if kbd_intr is None:
            import micropython
            kbd_intr = micropython.kbd_intr  # pyright: ignore[reportAttributeAccessIssue]
        self.kbd_intr = kbd_intr
        self.poller = None

    def own(self):
        self.kbd_intr(-1)

    def release(self):
        self.kbd_intr(CTRL_C)

    def waiting(self):
        """True when a byte from the host is waiting (never blocks, allocates nothing:
        ipoll, not poll, which makes a list every call)."""
        if self.poller is None:
            import select
            self.poller = select.poll()
            self.poller.register(sys.stdin, select.POLLIN)
        for _ in self.poller.ipoll(0):  # pyright: ignore[reportAttributeAccessIssue]
            return True
        return False

    def read(self):
        """One byte from the host (b"" at the end of input)."""
        return sys.stdin.buffer.read(1)

    def pump(self, app):
        """Hand the host's waiting bytes to the app (at most INPUT_MAX); stops at once when
        the app hands the line over to the REPL: what follows is the REPL's."""
        n = 0
        while n < INPUT_MAX and not app.repl_requested and self.waiting():
            b = self.read()
            if not b:
                break
            app.feed(b)
            n += 1


def make_store():
    """The saved table: state.json on the board's littlefs (store/filestore.py)."""
    return filestore.Store(filestore.OsFs(STATE_DIR))


def run(loops=None, console=None):
    """Start the device: never returns on the board except after the `repl` command (or
    Ctrl-C, if the line was not the app's)."""
    if loops is None:
        loops = max_loops
    console = console or Console()
    try:
        app, wdt, net = start()
        dealerbutton.unload()   # (what only the start needed)
        console.own()
    except KeyboardInterrupt:
        # Ctrl-C while the app starts (a host deploying as the board boots): the watchdog
        # may be running already, and nothing would feed it at the REPL.
        stopped = stop_watchdog()
        _write("dealerbutton: stopped by Ctrl-C while starting; the REPL is free%s"
               % ("" if stopped else " (a watchdog, if started, resets the board in 8 s)"))
        return
    stats = app.stats
    stats.reset_cause = reset_cause()
    n = 0
    try:
        while loops is None or n < loops:
            n += 1
            stats.start()
            console.pump(app)
            if app.repl_requested:
                console.release()
                stopped = stop_watchdog() or wdt is None
                _write("dealerbutton: the REPL is free (repl command); reset the board to start "
                       "the app again%s" % ("" if stopped else
                                            " (the watchdog resets the board in 8 s)"))
                return
            now = now_ms()
            pause = app.tick(now)  # until the next frame, or 1 ms while a button is down
            if wdt is not None:
                wdt.feed()      # only a loop that got this far is healthy
            if net is not None:
                net.tick(now)   # feeds the watchdog before each call that may block
                stats.dirty = True   # (the network's work allocates)
            stats.turn(app.last_frame == now)   # collects garbage after a frame if due
            app.doze(pause, sleep_ms)
        console.release()
    except KeyboardInterrupt:
        console.release()
        stopped = stop_watchdog() or wdt is None
        _write("dealerbutton: stopped by Ctrl-C; the REPL is free%s"
               % ("" if stopped else " (the watchdog resets the board in 8 s)"))
        return
    except Exception as exc:  # noqa: BLE001 - a crash ends in a reset, never a dead table
        print("dealerbutton: crashed, resetting")
        sys.print_exception(exc)   # type: ignore[attr-defined]
        sleep_ms(100)
        machine.reset()
