"""What runs instead of the table when config.json was refused, or the drive lacks the files
the table is saved in (CircuitPython): the ring shows the error pattern (if it can), every
command is answered `err config ...` (`err drive ...`; ping, version and repl still work),
nothing else happens. Loaded only then."""

from dealerbutton import VERSION, protocol
from dealerbutton import ring as ringmod
from dealerbutton.app import App, make_ring
from dealerbutton.stats import Stats
from dealerbutton.store import config


def start_refused(cfg, errors, make_strip, write, now_ms=0, drive=None):
    """The refused-config mode as a board starts it: the error pattern on the ring when the
    strip can still be made (not when its pin or LED count is what was refused). drive: the
    drive's problem instead (errors then empty)."""
    strip = None
    if not [e for e in errors if e.startswith("pins.led") or e.startswith("leds")]:
        try:
            strip = make_strip(cfg)
        except Exception:  # noqa: BLE001 - the message must still go out
            strip = None
    return Rejected(cfg, errors, strip, write, now_ms, drive=drive)


class Rejected:
    """The refused-config mode: the error pattern on the ring (if there is a strip), the
    message for every command but ping, version and repl."""

    repl_requested = False

    def __init__(self, cfg, errors, strip, write, now_ms=0, name="config.json", drive=None):
        self.message = drive or config.message(errors, name)
        self.kind = "drive " if drive else "config "
        self.stats = Stats()
        self.last_frame = now_ms
        self.strip = strip
        self.write = write
        self.ring = None
        if strip is not None:
            try:
                self.ring = make_ring(cfg, strip)
                self.ring.mode = ringmod.ERROR
            except ValueError:      # a ring it cannot draw (too few LEDs): the message says
                self.ring = None
        self.protocol = protocol.Protocol(self.command, write)
        write("* error " + self.message)
        self.tick(now_ms)

    def feed(self, data):
        self.stats.dirty = True
        self.protocol.feed(data)

    def command(self, line):
        words = line.split()
        if not words:
            return "ok"
        if words == ["ping"]:
            return "ok pong"
        if words == ["version"]:
            return "ok " + VERSION
        if words == ["repl"]:
            self.repl_requested = True
            self.protocol.paused = True
            return "ok repl"
        return "err " + self.kind + self.message

    def doze(self, ms, sleep_ms):
        sleep_ms(ms)

    def tick(self, now_ms):
        """A frame of the error pattern; returns the loop's pause (ms), as App.tick."""
        if self.ring is not None:
            self.ring.render(now_ms)
            self.strip.show(self.ring.buf)
            self.last_frame = now_ms
        return App.frame_ms
