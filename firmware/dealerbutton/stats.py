"""The board's own figures (the `stats` command) and when the collector runs.

The loop that drives the App (board/pico.py, board/circuitpython.py, board/unix.py) times
each of its turns with Stats.start() and Stats.turn(): the whole turn, from reading the
host's bytes to the collector, so that what the board reports is its real load. Durations
go into histograms made once at start, so recording one allocates nothing and the figures
cover the whole time since boot in fixed memory; `load` is the busy share of the last
LOAD_WINDOW_MS.

The collector runs right after a turn that drew a frame (the next one is 25 ms away), at
most every COLLECT_EVERY_MS but at once after a save, and only when the app did something
since the last one (a host command, a press, a save: what allocates;
an idle turn and a frame allocate nothing). MicroPython collects by itself only when an
allocation finds the heap full, wherever that happens to be; collected this way, the
board's 246 KB heap never gets near full. Nothing here asks the heap how full it is:
gc.mem_alloc() walks the whole heap (about 11 ms on the Pico), so only the `stats` command
does. CPython frees by reference counting and keeps its own collector.
"""

import gc
import time
from array import array

import dealerbutton
from dealerbutton.ticks import TICKS_MAX, ticks_add, ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# MicroPython and CircuitPython: a heap of their own to report and a collector to schedule
OWN_HEAP = hasattr(gc, "mem_alloc")
COLLECT_EVERY_MS = const(500)  # the collector runs at most this often
LOAD_WINDOW_MS = const(10000)  # `load`: the busy share over this long
STEPS = const(4)               # histogram buckets per doubling of the duration
BUCKETS = const(100)           # 0 us .. about 2**24 us (17 s) at 4 per doubling

if hasattr(time, "ticks_us"):      # MicroPython
    ticks_us = time.ticks_us  # pyright: ignore[reportAttributeAccessIssue]
else:                              # CPython, CircuitPython
    def _monotonic_us():
        return (time.monotonic_ns() // 1000) & TICKS_MAX  # pyright: ignore[reportAttributeAccessIssue]
    ticks_us = _monotonic_us


def _bucket(us):
    """The histogram bucket of a duration: values below 2 * STEPS exactly, then STEPS
    buckets per doubling."""
    if us < 2 * STEPS:
        return us if us > 0 else 0
    top = 1
    v = us
    while v >= 2 * STEPS:
        v >>= 1
        top += 1
    # v is now in STEPS .. 2 * STEPS - 1: the bucket within the doubling
    b = top * STEPS + v - STEPS
    return b if b < BUCKETS else BUCKETS - 1


def _low(bucket):
    """The smallest duration that falls into a bucket."""
    if bucket < 2 * STEPS:
        return bucket
    top = bucket // STEPS
    v = bucket % STEPS + STEPS
    return v << (top - 1)


# The buckets of durations under 256 us, looked up rather than worked out: a loop turn is
# counted 100 times a second. A longer one is looked up at 1/32 or 1/1024 of its length
# (still 8 us or more, where a bucket only depends on the top bits), 5 or 10 doublings
# (5 * STEPS buckets each) further up: so up to 262 ms. Filled in place: a list made first
# would leave garbage that stale pointers on the board can keep alive.
_SMALL = bytearray(256)
for _us in range(256):
    _SMALL[_us] = _bucket(_us)


class Histogram:
    """Durations in microseconds: count, max, and a median good to 1/STEPS of a
    doubling (about 19 %), from BUCKETS counters made once."""

    def __init__(self):
        self.counts = array("L", [0] * BUCKETS)
        self.n = 0
        self.max = 0

    def add(self, us):
        if 0 <= us < 256:
            b = _SMALL[us]
        elif us < 256 << 5:
            b = _SMALL[us >> 5] + 5 * STEPS
        elif us < 256 << 10:
            b = _SMALL[us >> 10] + 10 * STEPS
        else:
            b = _bucket(us)
        self.counts[b] += 1
        self.n += 1
        if us > self.max:
            self.max = us

    def median(self):
        """The lower bound of the bucket that holds the middle duration (0 when empty)."""
        return self.percentile(50)

    def percentile(self, p):
        """The lower bound of the bucket that holds the p-th percentile (0 when empty)."""
        rank = (self.n * p + 99) // 100
        seen = 0
        for b in range(BUCKETS):
            seen += self.counts[b]
            if seen >= rank and seen:
                return _low(b)
        return 0

    def json(self):
        return '{"n":%d,"median_us":%d,"p95_us":%d,"max_us":%d}' % (
            self.n, self.median(), self.percentile(95), self.max)


class Stats:
    """What the `stats` command reports; start() and turn() are called by the loop once per
    turn, dirty set by the app whenever it did something that may allocate."""

    def __init__(self, reset_cause="none", clock_us=None):
        self.clock_us = clock_us or ticks_us   # the tests give their own
        self.frame = Histogram()       # turns that drew a frame: the whole turn
        self.loop = Histogram()        # every turn (polling, commands, frame, save, collector)
        self.collect = Histogram()     # the collector's pauses (after a frame)
        self.reset_cause = reset_cause
        self.saves = 0
        self.uptime_s = 0
        self.uptime_ms = 0
        self.last = self.clock_us()
        self.since = self.last         # the start of this turn
        self.collected = self.last     # when the collector last ran
        self.dirty = False             # the app did something since then
        # A save happened: the next collection need not wait COLLECT_EVERY_MS. It then comes
        # right after the press that saved, rather than later, where the next press may be.
        self.collect_after_save = False
        self.pressing = False          # the app: a button is down, or its release not counted
        self.busy_us = 0               # turns' time in this load window
        self.window_ms = 0             # the load window's length so far
        self.load = -1                 # busy per mille of the last whole window (-1: none yet)

    def start(self):
        """The loop's turn begins."""
        self.since = self.clock_us()

    def turn(self, framed):
        """The turn that start() began is over but for this; framed: it drew a frame. Runs
        the collector if due (not while a button is pressed: its pause would delay the
        press's flash), then counts the whole turn."""
        if framed and self.dirty and not self.pressing:
            self.collect_if_due()
        now = self.clock_us()
        took = ticks_diff(now, self.since)
        self.loop.add(took)
        self.busy_us += took
        if framed:
            self.frame.add(took)
            self.tally(now)   # 40 times a second is often enough for the clock's sums

    def tally(self, now):
        """Uptime and the load window, to now (whole ms: the rest counts next time)."""
        ms = ticks_diff(now, self.last) // 1000
        if ms <= 0:
            return
        self.last = ticks_add(self.last, ms * 1000)
        self.uptime_ms += ms
        while self.uptime_ms >= 1000:
            self.uptime_ms -= 1000
            self.uptime_s += 1
        self.window_ms += ms
        if self.window_ms >= LOAD_WINDOW_MS:
            self.load = self.busy_us // self.window_ms   # us per ms: per mille
            self.busy_us = 0
            self.window_ms = 0

    def collect_if_due(self):
        if not OWN_HEAP:
            return False
        t0 = self.clock_us()
        ago = ticks_diff(t0, self.collected)
        if not self.collect_after_save and 0 <= ago < COLLECT_EVERY_MS * 1000:
            return False
        self.collect_after_save = False
        dealerbutton.collect()
        self.collect.add(ticks_diff(self.clock_us(), t0))
        self.collected = t0
        self.dirty = False
        return True

    def json(self):
        """The `stats` reply. The heap in use is what is alive: the collector runs first."""
        self.tally(self.clock_us())
        heap = ',"heap_free":null,"heap_used":null'
        if OWN_HEAP:
            dealerbutton.collect()
            heap = ',"heap_free":%d,"heap_used":%d' % (
                gc.mem_free(), gc.mem_alloc())  # type: ignore[attr-defined]
        load = "null" if self.load < 0 else "%d" % self.load
        return ('{"uptime_s":%d,"reset_cause":"%s","saves":%d,"load_permille":%s%s,"frame":%s,'
                '"loop":%s,"collect":%s}' % (self.uptime_s, self.reset_cause, self.saves, load,
                                             heap, self.frame.json(), self.loop.json(),
                                             self.collect.json()))
