"""Shared pieces of the reliability campaigns (tests/device/test_reliability_*.py), for
CPython and the MicroPython unix port alike: a deterministic random source (the same numbers on both
runtimes), the real App on fake pins with a fake wrapping clock, and random table sessions.
"""
from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store import config, filestore
from dealerbutton.ticks import TICKS_MAX, ticks_add

M64 = (1 << 64) - 1


class Rand:
    """A 64-bit LCG (Knuth's MMIX constants), top bits out: identical on both runtimes."""

    def __init__(self, seed):
        self.x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & M64

    def bits(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & M64
        return self.x >> (64 - n)

    def below(self, n):
        return self.bits(31) % n

    def between(self, lo, hi):
        """lo..hi, both included."""
        return lo + self.below(hi - lo + 1)

    def chance(self, num, den=100):
        return self.below(den) < num

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def weighted(self, pairs):
        """One value of [(weight, value), ...]."""
        total = 0
        for w, _ in pairs:
            total += w
        r = self.below(total)
        for w, v in pairs:
            if r < w:
                return v
            r -= w
        return pairs[-1][1]


class Pin:
    """A button input with its pull-up: 1 released, 0 pressed."""

    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


def make_config(seats=9, rules="dead", **more):
    d = {"seats": seats, "rules": rules}
    for k in more:
        d[k] = more[k]
    cfg, errors = config.validate(d)
    if errors:
        raise ValueError("; ".join(errors))
    return cfg


class Device:
    """The real App (rules, ring, buttons, store, protocol) on fake pins, a CaptureStrip, a
    store on `flash` and a fake clock that wraps like ticks_ms. Building one is a power-up."""

    def __init__(self, cfg, flash, now=1000, seed=1):
        self.cfg = cfg
        self.flash = flash
        self.now = now & TICKS_MAX
        self.rand = Rand(seed)          # the draw for the button
        self.out = []
        self.pins = [Pin() for _ in range(cfg["seats"] + 1)]
        self.strip = CaptureStrip(cfg["leds"])
        self.store = filestore.Store(flash)
        self.app = App(cfg, self.strip, self.pins, self.write, self.store,
                       rng=self.draw, now_ms=self.now)
        self.table = self.app.table

    def write(self, line):
        self.out.append(line)

    def draw(self, n):
        return self.rand.below(n)

    def take(self):
        lines = self.out[:]
        del self.out[:]
        return lines

    def feed(self, data):
        """Host bytes in; the lines written meanwhile out."""
        self.take()
        self.app.feed(data)
        return self.take()

    def tick(self, ms):
        self.now = ticks_add(self.now, ms)
        return self.app.tick(self.now)

    def run(self, ms, step=5):
        while ms > 0:
            d = step if step < ms else ms
            self.tick(d)
            ms -= d

    def pin_press(self, i, hold_ms, settle_ms=100, step=5):
        """A clean press of button i through its pin (the real debouncer and the loop)."""
        self.take()
        self.pins[i].level = 0
        self.run(hold_ms, step)
        self.pins[i].level = 1
        self.run(settle_ms, step)
        return self.take()


# -- random sessions -------------------------------------------------------------------------

def random_event(rand, table, pins=True):
    """One random thing that happens at a table, as ("cmd", line) or ("pin", i, hold_ms):
    mostly sensible for the table's state, sometimes refused."""
    n = table.seats
    seats = list(range(1, n + 1))
    by = {"empty": [], "active": [], "away": [], "waiting": []}
    for s in seats:
        by[table.status(s)].append(s)
    present = len(by["active"]) + len(by["waiting"])

    def some(status):
        if by[status] and not rand.chance(10):
            return rand.pick(by[status])
        return rand.pick(seats)          # maybe a seat where it is refused

    choices = [(10 if present < 3 else 3, "sit"), (4, "away"), (4, "back"), (2, "choose"),
               (3, "leave"), (12 if present >= 2 else 1, "deal"), (2, "undo"),
               (3, "press"), (1, "hold")]
    if pins:
        choices.append((3, "pin"))
        choices.append((1, "pinlong"))
    what = rand.weighted(choices)
    if what == "sit":
        s = some("empty")
        return ("cmd", "sit %d post" % s if rand.chance(30) else "sit %d" % s)
    if what == "away":
        return ("cmd", "away %d" % some("active"))
    if what == "back":
        s = some("away")
        return ("cmd", "back %d wait" % s if rand.chance(30) else "back %d" % s)
    if what == "choose":
        return ("cmd", "choose %d %s" % (some("waiting"), rand.pick(("post", "wait"))))
    if what == "leave":
        return ("cmd", "leave %d" % some(rand.pick(("active", "away", "waiting"))))
    if what == "deal":
        if table.hands == 0 and by["active"]:
            return ("cmd", "deal %d" % rand.pick(by["active"]))
        return ("cmd", "deal")
    if what == "undo":
        return ("cmd", "undo")
    if what == "press" or what == "hold":
        return ("cmd", "%s %d" % (what, rand.between(0, n)))
    if what == "pin":
        return ("pin", rand.between(0, n), rand.between(60, 700))
    return ("pin", rand.between(0, n), rand.between(1100, 2500))


def do(dev, ev):
    """Play one event of random_event on a Device; returns the lines written."""
    if ev[0] == "cmd":
        return dev.feed((ev[1] + "\n").encode())
    return dev.pin_press(ev[1], ev[2])


def replies(lines):
    return [x for x in lines if not x.startswith("* ")]
