"""The board's own figures (stats.py): histograms in fixed memory, the `stats` reply, and
the collector run between frames, never inside one, on both runtimes."""
import gc
import json
import sys

import two_runtimes
from dealerbutton import stats
from device_rig import Rig

MICROPYTHON = sys.implementation.name == "micropython"


def test_buckets_cover_every_duration_in_order():
    last = -1
    for us in (0, 1, 2, 7, 8, 9, 15, 16, 100, 999, 1000, 25000, 10 ** 6, 10 ** 9):
        b = stats._bucket(us)
        assert b >= last and 0 <= b < stats.BUCKETS, (us, b)
        assert stats._low(b) <= us, (us, b, stats._low(b))
        if b < stats.BUCKETS - 1:
            assert us < stats._low(b + 1), (us, b)
        last = b


def test_add_finds_the_bucket_of_every_duration():
    # add() looks the bucket up (a table, shifted for the longer ones): the same as _bucket.
    edges = [255, 256, 8191, 8192, 262143, 262144, 10 ** 6, 10 ** 8]
    for us in list(range(0, 300000, 97)) + edges:
        h = stats.Histogram()
        h.add(us)
        assert h.counts[stats._bucket(us)] == 1, us


def test_histogram_median_and_max():
    h = stats.Histogram()
    assert h.json() == '{"n":0,"median_us":0,"p95_us":0,"max_us":0}'
    for us in (100, 110, 120, 5000, 130):
        h.add(us)
    assert h.n == 5 and h.max == 5000
    assert 96 <= h.median() <= 120, h.median()   # within a quarter of a doubling
    before = len(h.counts)
    for us in range(0, 20000000, 99991):
        h.add(us)
    assert len(h.counts) == before == stats.BUCKETS   # fixed memory


def test_stats_reply_is_compact_json_with_every_figure():
    rig = Rig({"seats": 4})
    for s in (1, 2):
        rig.reply("sit %d" % s)
    for _ in range(10):
        rig.app.stats.start()
        rig.tick(25)
        rig.app.stats.turn(rig.app.last_frame == rig.now)
    reply = rig.reply("stats")
    assert reply.startswith("ok {") and " " not in reply[3:], reply
    d = json.loads(reply[3:])
    assert sorted(d) == ["collect", "frame", "heap_free", "heap_used", "load_permille", "loop",
                         "reset_cause", "saves", "uptime_s"], sorted(d)
    assert d["load_permille"] is None   # (a whole load window has not gone by)
    assert d["saves"] == 2 and d["reset_cause"] == "none"
    assert d["frame"]["n"] == 10 and d["loop"]["n"] == 10
    assert d["frame"]["median_us"] <= d["frame"]["p95_us"] <= d["frame"]["max_us"]
    if MICROPYTHON:
        assert d["heap_free"] > 0 and d["heap_used"] > 0
    else:
        assert d["heap_free"] is None and d["heap_used"] is None
    assert rig.reply("stats 1") == "err usage stats"


def play(rig, turns):
    """The loop as the board runs it, with presses and host commands between frames:
    (frames, collections, most heap in use at a frame)."""
    app = rig.app
    frames = 0
    most = 0
    for i in range(turns):
        app.stats.start()
        if i % 7 == 0:
            rig.send("press %d" % (1 + i // 7 % 4))
        if i % 50 == 0:
            rig.send("hand")
            rig.send("state")
        rig.now += 5
        app.tick(rig.now)
        framed = app.last_frame == rig.now
        if framed:
            frames += 1
            if MICROPYTHON:
                most = max(most, gc.mem_alloc())
        app.stats.turn(framed)
    return frames, app.stats.collect.n, most


def test_the_collector_runs_between_frames():
    rig = Rig({"seats": 4})
    # The loop's clock is the rig's (a turn: 5 ms), so that the collector's schedule is too.
    rig.app.stats = stats.Stats(clock_us=lambda: rig.now * 1000 & 0x3FFFFFFF)
    for s in (1, 2, 3, 4):
        rig.reply("sit %d" % s)
    rig.reply("deal 1")
    if MICROPYTHON:
        gc.collect()
    start = gc.mem_alloc() if MICROPYTHON else 0
    frames, collections, most = play(rig, 4000)
    assert frames > 700, frames
    if MICROPYTHON:
        assert collections > 10, collections    # garbage was made and collected, by the loop
        # The heap in use never grew past what the schedule allows: MicroPython's own
        # collection (only when the heap is full) never had to run. The Pico's heap is
        # 246 KB, of which 128 KB may be in use: the rest is room for the garbage made between
        # two scheduled collections, here at a press every 35 ms (objects on this 64-bit
        # port are about twice their size on the Pico).
        assert most < start + 2 * (246 - 128) * 1024, (most - start)
    else:
        assert collections == 0   # CPython frees by reference counting: nothing to schedule


def looping_rig():
    """A 4-seat rig with a player seated, the loop's clock the rig's, and turns(n): n loop
    turns 5 ms apart, each ending as the board's loop ends it (Stats.turn)."""
    rig = Rig({"seats": 4})
    rig.reply("sit 1")
    rig.app.stats = stats.Stats(clock_us=lambda: rig.now * 1000 & 0x3FFFFFFF)
    app = rig.app

    def turns(n):
        for _ in range(n):
            app.stats.start()
            rig.now += 5
            app.tick(rig.now)
            app.stats.turn(app.last_frame == rig.now)

    return rig, turns


def test_an_idle_loop_never_runs_the_collector():
    # Nothing happens: nothing allocates, so the collector (14 ms on the Pico with the
    # app's heap) has no reason to run, and neither has gc.mem_alloc (it walks the heap).
    rig, idle = looping_rig()
    app = rig.app
    play(rig, 200)
    idle(200)       # the last commands' garbage is collected ...
    before = app.stats.collect.n
    assert before > 0 or not MICROPYTHON
    idle(2000)      # ... then 10 s of nothing
    assert app.stats.collect.n == before, (before, app.stats.collect.n)
    assert rig.app.stats.load >= 0   # a whole load window went by


def test_no_collector_pause_while_a_button_is_pressed():
    # A collection (14 ms on the Pico with the app's heap) between a release and its flash
    # would make the flash late: the collector waits until no button is down and every
    # release has counted, then runs after the next frame.
    rig, turns = looping_rig()
    app = rig.app
    turns(200)
    app.stats.dirty = True       # garbage made (a command, a save), the collector due
    before = app.stats.collect.n
    rig.pins[1].level = 0        # seat 1's button down for 0.6 s
    turns(120)
    assert app.stats.pressing
    assert app.stats.collect.n == before
    rig.pins[1].level = 1
    turns(3)                     # released 15 ms ago: not yet counted
    assert app.stats.pressing and app.stats.collect.n == before
    turns(10)
    assert not app.stats.pressing
    assert rig.table.status(1) == "away"   # the short press acted
    if MICROPYTHON:
        assert app.stats.collect.n == before + 1


two_runtimes.run_all(globals())
