"""The board's start (board.py): config.json, the App (or the refused-config mode), the
watchdog; safe boot and stopping the watchdog. Imported for the call and released: none of it
is needed once the table runs.
"""

import sys

import machine

from dealerbutton import board, config, store
from dealerbutton.app import App, Rejected


def load_config(path=None):
    """(config, errors) from config.json; a missing file means the defaults."""
    path = path or board.CONFIG_PATH
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        print("dealerbutton: no %s, running on the defaults" % path)
        return config.defaults(), []
    return config.load_text(text, path.rsplit("/", 1)[-1])


def start():
    """The App of config.json (or the refused-config mode) and the watchdog (None when the
    config was refused), as board.run() starts them."""
    cfg, errors = load_config()
    now = board.now_ms()
    wdt = None
    if errors:
        strip = None
        if not [e for e in errors if e.startswith("pins.led") or e.startswith("leds")]:
            try:
                strip = board.make_strip(cfg)
            except Exception:  # noqa: BLE001 - the message must still go out
                strip = None
        print("dealerbutton: " + config.message(errors))
        app = Rejected(cfg, errors, strip, board._write, now)
    else:
        app = App(cfg, board.make_strip(cfg), board.seat_pins(cfg), board._write,
                  store.Store(store.OsFs(board.STATE_DIR)), now_ms=now)
        wdt = machine.WDT(timeout=board.WDT_MS)
    return app, wdt


def safe_boot_requested(samples=5, gap_ms=10):
    """True when the next-hand button is held at power-up (read over ~50 ms, all low)."""
    try:
        cfg, errors = load_config(None)
        gpio = cfg["pins"]["next"]
    except Exception:  # noqa: BLE001 - the escape must work whatever the config says
        gpio = config.DEFAULTS["pins"]["next"]
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    board.sleep_ms(2)   # let the pull-up charge the line
    for _ in range(samples):
        if pin.value() != 0:
            return False
        board.sleep_ms(gap_ms)
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
