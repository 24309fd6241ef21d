"""A test rig for the device app: the real App, rules, ring and buttons, with fake pins, a
fake clock, a CaptureStrip and a fake flash (used by test_app and test_protocol)."""
from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store import config, filestore
from fake_flash import FakeFlash


class FakePin:
    """A button input with its pull-up: 1 released, 0 pressed."""

    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


class Rig:
    def __init__(self, cfg=None, fs=None, rng=None, now=1000):
        cfg, errors = config.validate(cfg or {})
        assert errors == [], errors
        self.cfg = cfg
        self.seats = cfg["seats"]
        self.pins = [FakePin() for _ in range(self.seats + 1)]
        self.out = []
        self.fs = fs if fs is not None else FakeFlash()
        self.store = filestore.Store(self.fs)
        self.strip = CaptureStrip(cfg["leds"])
        self.now = now
        self.draws = []

        def pick(n):
            self.draws.append(n)
            return rng(n) if rng else 0
        self.app = App(cfg, self.strip, self.pins, self.out.append, self.store, rng=pick,
                       now_ms=now)
        self.table = self.app.table
        self.ring = self.app.ring

    def take(self):
        """The lines written since the last take."""
        lines = self.out[:]
        del self.out[:]
        return lines

    def send(self, line):
        """Send one command line; returns every line written meanwhile (events, reply)."""
        self.take()
        self.app.feed((line + "\n").encode())
        return self.take()

    def reply(self, line):
        lines = self.send(line)
        replies = [x for x in lines if not x.startswith("* ")]
        assert len(replies) == 1, lines
        return replies[0]

    def tick(self, ms=5):
        self.now += ms
        self.app.tick(self.now)

    def run(self, ms, step=5):
        end = self.now + ms
        while self.now < end:
            self.tick(step)

    def level(self, i, level, ms=0, step=5):
        self.pins[i].level = level
        self.tick(step)
        if ms > step:
            self.run(ms - step, step)

    def press(self, i, ms=120, step=5, settle=160):
        """Press button i for ms, release, let it settle; returns the lines written. (The
        next press, 160 ms on, counts: buttons/button.py gives none within 150 ms of a release.)"""
        self.take()
        self.level(i, 0, ms, step)
        self.level(i, 1, settle, step)
        return self.take()

    def hold(self, i, ms=1500):
        return self.press(i, ms)

    def seat_leds(self, seat):
        return [self.strip.colour(k) for k in self.ring.arc(seat)]

    def statuses(self):
        return [self.table.status(s) for s in range(1, self.seats + 1)]

    def reboot(self, cfg=None):
        """A power cycle: a new app on what the flash keeps."""
        fs = self.fs.reboot() if hasattr(self.fs, "reboot") else self.fs
        return Rig(cfg or self.cfg, fs=fs, now=self.now + 100)


def ticks_heap_locked(rig, turns=300, step=7):
    """`turns` loop turns `step` ms apart with MicroPython's heap locked: one that allocates
    raises MemoryError. False on CPython (nothing to measure), else True."""
    try:
        import micropython
        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        return False
    lock()
    try:
        now = rig.now
        for _ in range(turns):
            now += step
            rig.app.tick(now)
    finally:
        unlock()
    rig.now = now
    return True


def marks(ring):
    """What the ring is told of the table: each seat's status, then the seat of each role."""
    return (bytes(ring.status), ring.button, ring.sb, ring.bb, ring.first_to_act)


def scaled(hex_colour, brightness=128):
    """A palette colour after the ring's brightness (no current limiting)."""
    v = int(hex_colour, 16)
    r, g, b = v >> 16, (v >> 8) & 255, v & 255
    return "%02X%02X%02X" % (r * brightness // 255, g * brightness // 255, b * brightness // 255)
