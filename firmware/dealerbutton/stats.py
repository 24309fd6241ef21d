"""The board's own figures (the `stats` command) and when the collector runs.

The loop that drives the App (board.py, unix.py, board_cp.py) times each of its turns with
Stats.turn(): how long the turn took, and whether it drew a frame. Durations go into
histograms made once at start, so recording one allocates nothing and the figures cover
the whole time since boot in fixed memory.

The collector runs when the loop has time for it: right after a turn that drew a frame
(the next one is 25 ms away; a collection takes about 6 ms on the Pico), once COLLECT_AFTER
more bytes are in use than after the last collection, or COLLECT_EVERY_MS went by with
anything allocated. MicroPython collects by itself only when an allocation finds the heap
full, wherever that happens to be, a frame as likely as anywhere; collected this way, the
board's 246 KB heap never gets near full. CPython frees by reference counting and keeps
its own collector.
"""

import gc
import time
from array import array

from dealerbutton.ticks import TICKS_MAX, ticks_add, ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# MicroPython and CircuitPython: a heap of their own to report and a collector to schedule
OWN_HEAP = hasattr(gc, "mem_alloc")
COLLECT_AFTER = const(16384)   # bytes allocated since the last collection
COLLECT_EVERY_MS = const(1000)  # and at least this often when anything was allocated
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


class Histogram:
    """Durations in microseconds: count, max, and a median good to 1/STEPS of a
    doubling (about 19 %), from BUCKETS counters made once."""

    def __init__(self):
        self.counts = array("L", [0] * BUCKETS)
        self.n = 0
        self.max = 0

    def add(self, us):
        self.counts[_bucket(us)] += 1
        self.n += 1
        if us > self.max:
            self.max = us

    def median(self):
        """The lower bound of the bucket that holds the middle duration (0 when empty)."""
        half = (self.n + 1) // 2
        seen = 0
        for b in range(BUCKETS):
            seen += self.counts[b]
            if seen >= half and seen:
                return _low(b)
        return 0

    def json(self):
        return '{"n":%d,"median_us":%d,"max_us":%d}' % (self.n, self.median(), self.max)


class Stats:
    """What the `stats` command reports; turn() is called by the loop once per turn."""

    def __init__(self, reset_cause="none"):
        self.frame = Histogram()       # turns that drew a frame: the whole turn
        self.loop = Histogram()        # every turn (polling, commands, frame, save)
        self.collect = Histogram()     # the collector's pauses between frames
        self.reset_cause = reset_cause
        self.saves = 0
        self.uptime_s = 0
        self.uptime_ms = 0
        self.last = ticks_us()
        self.since = self.last         # the start of this turn
        self.allocated = _allocated()  # heap in use after the last collection
        self.collected = self.last     # when it was

    def start(self):
        """The loop's turn begins."""
        now = ticks_us()
        ms = ticks_diff(now, self.last) // 1000
        if ms > 0:
            self.last = ticks_add(self.last, ms * 1000)   # the part of a ms left counts next time
            self.uptime_ms += ms
            while self.uptime_ms >= 1000:
                self.uptime_ms -= 1000
                self.uptime_s += 1
        self.since = now

    def turn(self, framed):
        """The turn that start() began has ended; framed: it drew a frame. Collects garbage
        if the turn drew a frame and enough was allocated since the last collection."""
        took = ticks_diff(ticks_us(), self.since)
        self.loop.add(took)
        if framed:
            self.frame.add(took)
        self.collect_if_due(framed)

    def collect_if_due(self, framed):
        if not OWN_HEAP or not framed:
            return False
        used = _allocated()
        if used < self.allocated:
            self.allocated = used       # collected meanwhile (by hand, or a full heap)
        grown = used - self.allocated
        if grown < COLLECT_AFTER and (grown <= 0 or ticks_diff(self.since, self.collected)
                                      < COLLECT_EVERY_MS * 1000):
            return False
        t0 = ticks_us()
        gc.collect()
        self.collect.add(ticks_diff(ticks_us(), t0))
        self.allocated = _allocated()
        self.collected = t0
        return True

    def json(self):
        heap = ',"heap_free":null,"heap_used":null'
        if OWN_HEAP:
            heap = ',"heap_free":%d,"heap_used":%d' % (
                gc.mem_free(), gc.mem_alloc())  # type: ignore[attr-defined]
        return ('{"uptime_s":%d,"reset_cause":"%s","saves":%d%s,"frame":%s,"loop":%s,'
                '"collect":%s}' % (self.uptime_s, self.reset_cause, self.saves, heap,
                                   self.frame.json(), self.loop.json(), self.collect.json()))


def _allocated():
    if OWN_HEAP:
        return gc.mem_alloc()  # type: ignore[attr-defined]
    return 0
