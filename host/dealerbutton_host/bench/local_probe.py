"""The device side of the benchmark: times and weighs the firmware on the runtime running it.

Runs under the `micropython` unix port (time and heap per call, heap in use) and under
CPython (the reference times); dealerbutton_host.bench.local starts it and reads the one
JSON object it prints on stdout. Progress goes to stderr. The board's own figures are not
measured here: `dealerbutton bench --board` measures them on the emulated Pico.

    MICROPYPATH=firmware micropython host/dealerbutton_host/bench/local_probe.py [--quick] [--heap-only]
    PYTHONPATH=firmware python host/dealerbutton_host/bench/local_probe.py [--quick]

Time: time.ticks_us/ticks_diff on MicroPython, perf_counter_ns on CPython, around one call.
Heap: gc.mem_alloc() before and after the call with the collector disabled (MicroPython only).
Everything here runs on both runtimes: no f-strings, no typing, % formatting only.
"""

import gc
import sys
import time

MICROPYTHON = sys.implementation.name == "micropython"
HEAP = hasattr(gc, "mem_alloc")

if MICROPYTHON:
    now_us = time.ticks_us  # type: ignore[attr-defined]
    _ticks_diff = time.ticks_diff  # type: ignore[attr-defined]

    def elapsed_us(t0, t1):
        return _ticks_diff(t1, t0)
else:
    now_us = time.perf_counter_ns

    def elapsed_us(t0, t1):
        return (t1 - t0) / 1000.0

if HEAP:
    mem_alloc = gc.mem_alloc  # type: ignore[attr-defined]
    collect = gc.collect  # type: ignore[assignment]  # before each measured call
else:
    def mem_alloc():
        return 0

    def collect():
        pass  # CPython counts references; a full collection per call would only slow it

SEATS = 12
LEDS = 60
RULE_SETS = ("dead", "moving", "simple")
# What main.py brings in through board/pico.py, each module after the ones it imports (the
# ring and the rules core each a package whose __init__ loads all of it).
IMPORT_ORDER = ("dealerbutton", "dealerbutton.ticks", "dealerbutton.ring",
                "dealerbutton.buttons.button", "dealerbutton.board.strip", "dealerbutton.rules",
                "dealerbutton.values", "dealerbutton.store.config", "dealerbutton.stats",
                "dealerbutton.history", "dealerbutton.buttons.panel",
                "dealerbutton.store.startup", "dealerbutton.protocol",
                "dealerbutton.store.filestore", "dealerbutton.app", "dealerbutton.board.pico")
IDLE_SAMPLES = 3000  # kept within the small heap the unix port runs with
QUICK = {"hands": 40, "frames": 300, "presses": 30, "collects": 5}
FULL = {"hands": 500, "frames": 3000, "presses": 400, "collects": 50}


def progress(msg):
    sys.stderr.write("bench[%s]: %s\n" % (sys.implementation.name, msg))


# -- stand-ins for the board's C modules (made before the heap baseline) -------------------

class _Module:
    pass


class _Pin:
    """machine.Pin with its pull-up: value() is 1 until the bench sets level 0 (pressed)."""
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self._level = 1
        _MEM32[SIO_GPIO_IN] |= 1 << id

    def value(self, v=None):
        if v is None:
            return self._level
        self.level = v

    @property
    def level(self):
        return self._level

    @level.setter
    def level(self, v):
        self._level = v
        if v:
            _MEM32[SIO_GPIO_IN] |= 1 << self.id
        else:
            _MEM32[SIO_GPIO_IN] &= ~(1 << self.id)


# machine.mem32 for the one register the board reads, the SIO's GPIO_IN (every pin's level,
# kept by the pins above): a dict, so reading it is one call into C, as on the board.
SIO_GPIO_IN = 0xD0000004
_MEM32 = {SIO_GPIO_IN: 0}


class _NeoPixel:
    """neopixel.NeoPixel: its buffer as on the board; write() (C on the board) does nothing."""

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)

    def write(self):
        pass


class _PinTable:
    """machine.Pin as the rp2 port has it: Pin(gpio, ...) hands out the one object of that
    GPIO from a table built in C (no heap); here the table is built with the stand-ins,
    before the heap baseline, so that a pin weighs what it weighs on the board."""
    IN = _Pin.IN
    OUT = _Pin.OUT
    OPEN_DRAIN = _Pin.OPEN_DRAIN
    PULL_UP = _Pin.PULL_UP
    PULL_DOWN = _Pin.PULL_DOWN

    def __init__(self):
        self.pins = [_Pin(gpio) for gpio in range(30)]

    def __call__(self, id, mode=-1, pull=-1, value=None):
        pin = self.pins[id]
        pin.level = 1  # configured again: at rest (pulled up)
        return pin


def install_board_stand_ins():
    machine = _Module()
    machine.Pin = _PinTable()  # type: ignore[attr-defined]
    machine.mem32 = _MEM32  # type: ignore[attr-defined]
    neopixel = _Module()
    neopixel.NeoPixel = _NeoPixel  # type: ignore[attr-defined]
    sys.modules["machine"] = machine  # type: ignore[assignment]
    sys.modules["neopixel"] = neopixel  # type: ignore[assignment]


class MemFlash:
    """A flash for filestore.Store. keep=False keeps only each file's size, so the app's saves
    leave nothing on the heap (on the board the file is in flash, not in RAM)."""

    def __init__(self, keep=True):
        self.keep = keep
        self.files = {}

    def open(self, name, mode):
        if "r" in mode:
            if name not in self.files or not self.keep:
                raise OSError(2, "ENOENT")
            return _Reader(self.files[name])
        self.files[name] = b""
        return _Writer(self, name)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2, "ENOENT")
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        if name not in self.files:
            raise OSError(2, "ENOENT")
        del self.files[name]


class _Reader:
    def __init__(self, data):
        self.data = data

    def read(self, n=-1):
        return self.data if n < 0 else self.data[:n]

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, name):
        self.fs = fs
        self.name = name
        self.size = 0
        self.parts = []

    def write(self, data):
        self.size += len(data)
        if self.fs.keep:
            self.parts.append(bytes(data))
        return len(data)

    def flush(self):
        self.fs.files[self.name] = b"".join(self.parts) if self.fs.keep else self.size

    def close(self):
        pass


def _write(line):
    pass


class Rng:
    """A small deterministic generator, the same sequence on both runtimes."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 16) % n


class Samples:
    """Measurements in a list made once at its full size: no growth while measuring (a list
    that doubles would fragment the unix port's small heap). Past cap, samples are dropped."""

    def __init__(self, cap):
        self.v = [0] * cap
        self.n = 0

    def add(self, x):
        if self.n < len(self.v):
            self.v[self.n] = x
            self.n += 1

    def sorted(self):
        """The samples, sorted in place (no copy: the heap may have no room for one)."""
        del self.v[self.n:]
        self.v.sort()
        return self.v


def sample_pool(counts):
    """Every list of measurements, made at the start (before the heap baseline, and before
    the apps scatter their objects over the heap)."""
    hands = len(RULE_SETS) * counts["hands"]
    frames = counts["frames"]
    presses = counts["presses"]
    pool = {}
    for name, cap in (("deal_t", hands), ("deal_b", hands),
                      ("ev_t", 2 * hands), ("ev_b", 2 * hands),  # 1.5 events a hand on average
                      ("ft", frames), ("fb", frames), ("rt", frames),
                      ("lat", presses), ("seat_lat", presses), ("deal_lat", presses),
                      ("press_b", presses), ("idle_t", IDLE_SAMPLES), ("idle_b", IDLE_SAMPLES),
                      ("save_t", max(10, presses // 4)), ("save_b", max(10, presses // 4)),
                      ("gc_t", counts["collects"]), ("f24", min(frames, 1000)),
                      ("clk_t", min(frames, 1000)), ("clk_b", min(frames, 1000))):
        pool[name] = Samples(cap)
    return pool


# -- statistics -----------------------------------------------------------------------------

def rank(sorted_values, p):
    """Nearest-rank percentile p (0..100) of a sorted list."""
    n = len(sorted_values)
    k = (p * n + 99) // 100
    if k < 1:
        k = 1
    return sorted_values[k - 1]


def time_stats(samples):
    s = samples.sorted()
    if not s:
        return {"n": 0, "median_us": None, "p95_us": None, "max_us": None}
    return {"n": len(s), "median_us": rank(s, 50), "p95_us": rank(s, 95), "max_us": s[-1]}


def heap_stats(samples):
    if not HEAP:
        return None
    s = samples.sorted()
    if not s:
        return None
    return {"n": len(s), "median_b": rank(s, 50), "max_b": s[-1],
            "mean_b": sum(s) // len(s), "nonzero": len(s) - count_zero(s)}


def count_zero(s):
    n = 0
    for v in s:
        if v == 0:
            n += 1
    return n


# -- churn: valid seat events on a table ---------------------------------------------------

def play_event(t, cmd, s, opt):
    """One seat event picked by pick_event, played on table t."""
    if cmd == "sit":
        t.sit(s, opt == "post")
    elif cmd == "away":
        t.away(s)
    elif cmd == "back":
        t.back(s, opt == "wait")
    elif cmd == "choose":
        t.choose(s, opt)
    else:
        t.leave(s)


def pick_event(t, rng):
    """(cmd, seat, option) for a valid seat event: empty seats fill up, active players go
    away or bust, away players come back or leave, waiting ones change their mind."""
    s = 1 + rng.below(t.seats)
    st = t.status(s)
    r = rng.below(10)
    if st == "empty":
        return "sit", s, "post" if r < 5 else None
    if st == "active":
        return ("leave" if r < 3 else "away"), s, None
    if st == "away":
        return ("leave" if r < 2 else "back"), s, ("wait" if r >= 7 else None)
    return "choose", s, ("wait" if t.choice(s) == "post" else "post")


def present(t):
    n = 0
    for s in range(1, t.seats + 1):
        st = t.status(s)
        if st == "active" or st == "waiting":
            n += 1
    return n


# -- the measured parts ------------------------------------------------------------------

def bench_rules(hands, pool, out):
    """deal() on a full 12-seat table with churn (0..3 seat events between hands), and each
    seat event on its own, for every rule set."""
    from dealerbutton.rules import Table
    deal_t = pool["deal_t"]
    deal_b = pool["deal_b"]
    ev_t = pool["ev_t"]
    ev_b = pool["ev_b"]
    per_rules = {}
    for rules in RULE_SETS:
        progress("deal() and seat events, %s rules, %d hands" % (rules, hands))
        rng = Rng(12345)
        t = Table(SEATS, rules, (10, 20))
        for s in range(1, SEATS + 1):
            t.sit(s)
        t.deal(1)
        worst = 0
        warm = 60  # fill the undo history first: its growth is not per-deal cost
        for i in range(warm + hands):
            measure = i >= warm
            for _ in range(rng.below(4)):
                cmd, s, opt = pick_event(t, rng)
                collect()
                gc.disable()
                a = mem_alloc()
                t0 = now_us()
                play_event(t, cmd, s, opt)
                t1 = now_us()
                b = mem_alloc()
                gc.enable()
                if measure:
                    ev_t.add(elapsed_us(t0, t1))
                    ev_b.add(b - a)
            while present(t) < 2:
                for s in range(1, SEATS + 1):
                    if t.status(s) == "empty":
                        t.sit(s, True)
                        break
            collect()
            gc.disable()
            a = mem_alloc()
            t0 = now_us()
            t.deal()
            t1 = now_us()
            b = mem_alloc()
            gc.enable()
            if measure:
                deal_t.add(elapsed_us(t0, t1))
                deal_b.add(b - a)
                if b - a > worst:
                    worst = b - a
        per_rules[rules] = {"hands": t.hands, "max_deal_b": worst if HEAP else None}
    out["deal"] = {"time": time_stats(deal_t), "heap": heap_stats(deal_b), "rules": per_rules}
    out["event"] = {"time": time_stats(ev_t), "heap": heap_stats(ev_b)}


def play(app, rng, hands):
    """Seat events and deals through the app, as the host's commands would do them."""
    for _ in range(hands):
        for _ in range(rng.below(4)):
            cmd, s, opt = pick_event(app.table, rng)
            app.command_event(cmd, s, opt)
        if present(app.table) >= 2:
            app.command_event("deal", None, None)
        else:
            for s in range(1, SEATS + 1):
                if app.table.status(s) == "empty":
                    app.command_event("sit", s, "post")


def bench_frames(app, frames, pool, out):
    """app.frame(now): ring.render (60 LEDs, 12 seats) and the copy into the NeoPixel buffer;
    the table changes, presses flash and the draw chase runs now and then, between frames."""
    from dealerbutton import ring as ringmod
    progress("rendered frames, %d" % frames)
    rng = Rng(777)
    ring = app.ring
    now = app.now
    ft = pool["ft"]
    fb = pool["fb"]
    rt = pool["rt"]
    for i in range(frames):
        now += 25
        app.now = now
        if i % 8 == 0:
            cmd, s, opt = pick_event(app.table, rng)
            app.command_event(cmd, s, opt)
        if i % 50 == 0 and present(app.table) >= 2:
            app.command_event("deal", None, None)
        if i % 40 == 0:  # a press a second: a quarter of the frames carry its flash
            ring.flash(rng.below(SEATS + 1), rng.below(4) > 0, now)
        if i % 200 == 150:
            ring.mode = ringmod.DRAW
        elif i % 200 == 170:
            ring.mode = ringmod.NORMAL
        collect()
        gc.disable()
        a = mem_alloc()
        t0 = now_us()
        app.frame(now)
        t1 = now_us()
        b = mem_alloc()
        gc.enable()
        ft.add(elapsed_us(t0, t1))
        fb.add(b - a)
        gc.disable()
        t0 = now_us()
        ring.render(now)  # the same frame again, the ring alone (no strip copy)
        t1 = now_us()
        gc.enable()
        rt.add(elapsed_us(t0, t1))
    ring.mode = ringmod.NORMAL
    out["frame"] = {"time": time_stats(ft), "heap": heap_stats(fb), "render": time_stats(rt)}


def bench_presses(app, presses, pool, out):
    """A short press of a seat button (or the next-hand button: deal), held 100 ms, then let
    go; the tick whose debounce decides the press is timed from its start to the end of the
    strip write in it (the save that follows in the same tick is left out). The ticks without
    a press or a frame are the idle poll of 13 buttons."""
    progress("button presses, %d" % presses)
    rng = Rng(4242)
    missed = 0
    now = app.now
    for _ in range(presses):
        seat = rng.below(SEATS + 3)
        if seat > SEATS:
            seat = 0  # the next-hand button: deal
        now, missed_here = press_and_release(app, seat, now, pool)
        missed += missed_here
    bench_saves(app, pool, out)
    out["press"] = {"time": time_stats(pool["lat"]), "heap": heap_stats(pool["press_b"]),
                    "missed": missed, "seat": time_stats(pool["seat_lat"]),
                    "next_hand": time_stats(pool["deal_lat"])}
    out["idle_tick"] = {"time": time_stats(pool["idle_t"]), "heap": heap_stats(pool["idle_b"])}


def press_and_release(app, seat, now, pool):
    """One press of seat's button (0: the next-hand button) in ticks of 5 ms: the tick that
    decides it goes to the press figures of pool, a tick without a press or a frame to the
    idle ones. Returns (the time after it, the presses missed: decided in a tick without a
    frame, or not decided at all)."""
    strip = app.strip
    pin = app.panel.pins[seat]
    lat = pool["lat"]
    missed = 0
    decided = False
    for step in range(60):
        if step == 0:
            pin.level = 0
        elif step == 20:
            pin.level = 1
        now += 5
        before_press = app.pressed
        before_show = strip.shows
        collect()
        gc.disable()
        a = mem_alloc()
        t0 = now_us()
        app.tick(now)
        t1 = now_us()
        b = mem_alloc()
        gc.enable()
        if app.pressed != before_press:
            if strip.shows == before_show:
                missed += 1  # a press without a frame in its tick
            else:
                lat.add(elapsed_us(t0, strip.at))
                pool["deal_lat" if seat == 0 else "seat_lat"].add(elapsed_us(t0, strip.at))
                pool["press_b"].add(b - a)
            decided = True
        elif strip.shows == before_show:
            pool["idle_t"].add(elapsed_us(t0, t1))
            pool["idle_b"].add(b - a)
        if decided and step >= 30:
            break
    return now, missed if decided else missed + 1


def bench_saves(app, pool, out):
    """As many saves of the app's table as pool has room for, each timed and weighed."""
    st = pool["save_t"]
    sb = pool["save_b"]
    saves = len(st.v)
    for _ in range(saves):
        collect()
        gc.disable()
        a = mem_alloc()
        t0 = now_us()
        app.save()
        t1 = now_us()
        b = mem_alloc()
        gc.enable()
        st.add(elapsed_us(t0, t1))
        sb.add(b - a)
    out["save"] = {"time": time_stats(st), "heap": heap_stats(sb)}


def bench_gc(collects, pool, out):
    progress("gc.collect() pauses, %d" % collects)
    ts = pool["gc_t"]
    for _ in range(collects):
        t0 = now_us()
        gc.collect()
        t1 = now_us()
        ts.add(elapsed_us(t0, t1))
    out["gc_collect"] = {"time": time_stats(ts)}


def bench_state(out):
    """The saved state file of a full 12-seat table with debts and history, as filestore.Store
    writes it, read back and checked; and the same file with every number at its widest."""
    from dealerbutton.rules import Table
    from dealerbutton.store import filestore
    progress("saved state size")
    t, events = full_table(Table)
    debts = 0
    taken = 0
    for s in range(1, SEATS + 1):
        if t.status(s) != "empty":
            taken += 1
        live, dead = t.owes(s)
        if live or dead:
            debts += 1
    fs = MemFlash(keep=True)
    st = filestore.Store(fs)
    st.seq = events - 1
    size = st.save(t.to_dict())
    data = fs.files[filestore.NAME]
    d, seq, problem = filestore.parse(data)
    ok = problem is None and seq == events and d is not None
    if ok:
        ok = Table.from_dict(d).to_dict() == t.to_dict()
    head, payload = st.encode(widest_table(t.to_dict()), 9999999)
    worst = len(head) + len(payload) + 1 - len("%d" % filestore.checksum(filestore.FORMAT, 9999999, payload))
    worst += 10  # the CRC at its widest, 10 digits
    out["state"] = {"bytes": size, "worst_bytes": worst, "hands": t.hands, "seats_taken": taken,
                    "players_owing": debts, "round_trip": ok, "seq": seq}


def full_table(Table):
    """A 12-seat table after 400 rounds of random events and deals, then filled: every seat
    taken; three players away long enough to owe both blinds, two new players waiting (one
    posts, one waits for the big blind). Returns (the table, the events played on it)."""
    rng = Rng(99)
    t = Table(SEATS, "dead", (10, 20))
    for s in range(1, SEATS + 1):
        t.sit(s)
    t.deal(1)
    events = 13
    for _ in range(400):
        for _ in range(rng.below(4)):
            cmd, s, opt = pick_event(t, rng)
            play_event(t, cmd, s, opt)
            events += 1
        if present(t) >= 2:
            t.deal()
            events += 1
    for s in range(1, SEATS + 1):
        if t.status(s) == "empty":
            t.sit(s, True)
            events += 1
        elif t.status(s) == "away":
            t.back(s)
            events += 1
    for _ in range(3):
        t.deal()
        events += 1
    for s in (3, 7, 11):
        if t.status(s) == "active":
            t.away(s)
            events += 1
    for _ in range(SEATS + 1):
        t.deal()
        events += 1
    for s in (5, 9):
        t.leave(s)
        t.sit(s, s == 5)
        events += 2
    return t, events


def widest_table(d):
    """The saved form d with every number at its widest: a million hands, ten million saves,
    the biggest stakes config.json takes, every seat taken by a player holding everything a
    player can hold, every seat in every seat list, every seat posting every kind of post."""
    d["hands"] = 999999
    d["level"] = d["hand_level"] = [1000000, 1000000, 1000000, "button"]
    d["button_blind"] = 1000000
    d["makeup"] = "one_per_hand"
    d["rules"] = "moving"
    d["players"] = [{"seat": s, "status": "waiting", "choice": "wait", "new": True,
                     "carries_sb": True, "carries_live_sb": True, "paid_bb": True,
                     "moved_in": True, "missed": ["bb", "sb", "ante", "button_blind"],
                     "mover_wait": 255, "kill": "half"} for s in range(1, SEATS + 1)]
    d["button"] = d["small_blind"] = d["small_blind_player"] = d["big_blind"] = SEATS
    for name in ("dealt", "left", "left_active", "passed"):
        d[name] = list(range(1, SEATS + 1))
    d["travel"] = SEATS
    d["posts"] = [{"seat": s, "live": ["half_kill", "bb", "button_blind"],
                   "dead": ["sb", "sb", "ante", "button_blind"]} for s in range(1, SEATS + 1)]
    return d


def checked_config(d):
    """config.validate(d) as the board's power-up does it (store/config.py stays loaded)."""
    from dealerbutton.store import config
    return config.validate(d)


def make_app(cls, now_ms=1000, extra=None):
    """The App as pico.run() builds it (stand-in pins and NeoPixel), 12 seats, 60 LEDs, the
    app's saves going to a flash that keeps only the size; 12 players sit, the first hand.
    extra: more config.json blocks ("tournament", "network")."""
    d = {"seats": SEATS, "leds": LEDS}
    d.update(extra or {})
    cfg, errors = checked_config(d)
    from dealerbutton.board import pico
    from dealerbutton.store import filestore
    if errors:
        raise SystemExit("bench: config refused: %r" % (errors,))
    pins = pico.seat_pins(cfg)   # read as on the rp2 port: one register read
    app = cls(cfg, pico.make_strip(cfg), pins, _write, filestore.Store(MemFlash(keep=False)),
              now_ms=now_ms, bank=pico.pin_bank(cfg, pins, _MEM32))
    for s in range(1, SEATS + 1):
        app.command_event("sit", s, None)
    app.command_event("deal", 1, None)
    return app


def default_app(fields=None):
    """The App with the default config.json (9 seats, 24 LEDs), six players, a hand dealt:
    what a home game runs. fields: more of config.json (a tournament)."""
    from dealerbutton.app import App
    from dealerbutton.board import pico
    from dealerbutton.store import filestore

    gc.collect()
    cfg, errors = checked_config(fields or {})
    if errors:
        raise SystemExit("bench: config refused: %r" % (errors,))
    pins = pico.seat_pins(cfg)
    app = App(cfg, pico.make_strip(cfg), pins, _write, filestore.Store(MemFlash(keep=False)),
              now_ms=1000, bank=pico.pin_bank(cfg, pins, _MEM32))
    for s in (1, 2, 4, 5, 7, 8):
        app.command_event("sit", s, None)
    app.command_event("deal", 1, None)
    return app


def bench_default_frames(frames, pool, out):
    """app.frame(now) of the default ring (24 LEDs, 9 seats) while a hand is played: first
    to act breathes, now and then a seat event or a flash."""
    progress("rendered frames, default ring (24 LEDs), %d" % frames)
    app = default_app()
    rng = Rng(31)
    now = app.now
    ft = pool["f24"]
    for i in range(min(frames, 1000)):
        now += 25
        app.now = now
        if i % 40 == 0:
            app.ring.flash(rng.below(10), rng.below(4) > 0, now)
        collect()
        gc.disable()
        t0 = now_us()
        app.frame(now)
        t1 = now_us()
        gc.enable()
        ft.add(elapsed_us(t0, t1))
    out["frame_default"] = {"time": time_stats(ft), "leds": app.ring.leds,
                            "seats": app.ring.seats}


def bench_clock_frames(frames, pool, out):
    """A tournament table, its clock running (the default ring, six players, a hand dealt),
    through each of the clock's signals on the ring in turn: nothing, the last minute, a
    level just started, a break. The heap of each loop turn (which draws a frame: 25 ms
    apart), then the time of the frame alone, as frame_default."""
    progress("frames with the tournament clock running, %d" % frames)
    app = default_app({"tournament": {"ante_kind": "bb", "levels": [
        {"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "ante": 100, "minutes": 20},
        {"break": 10}, {"sb": 100, "bb": 200, "ante": 200, "minutes": 20}]}})
    clock = app.table_clock
    assert clock is not None
    clock.command(["resume"])
    ft = pool["clk_t"]
    fb = pool["clk_b"]
    n = min(frames, 1000)
    # (the command, at which frame): 5 minutes left, then the last minute, then the level
    # runs out (a new level), then the break.
    steps = ((0, ["set", "5:00"]), (n // 4, ["set", "0:50"]), (n // 2, ["set", "0:01"]),
             (3 * n // 4, ["next"]))
    now = app.now
    for i in range(n):
        for at, words in steps:
            if i == at:
                clock.command(words)
        now += 25
        saves = app.stats.saves
        collect()
        gc.disable()
        a = mem_alloc()
        app.tick(now)  # its heap; its time is the frame's, below, and the idle tick's
        b = mem_alloc()
        gc.enable()
        if app.stats.saves != saves:
            continue  # a level or break started, or the 30 s save: a save's turn (save_*)
        fb.add(b - a)
        # The frame alone (as frame_default), the clock's signal set by that turn.
        gc.disable()
        t0 = now_us()
        app.frame(now)
        t1 = now_us()
        gc.enable()
        ft.add(elapsed_us(t0, t1))
    out["frame_clock"] = {"time": time_stats(ft), "heap": heap_stats(fb),
                          "signal_at_end": app.ring.clock}


def bench_heap(out):
    """Heap in use: importing the whole application (board/pico.py and all it imports, as main.py
    does), then the App of pico.run() with 12 seats, a 60-LED ring, 12 players and the first
    hand; then after 200 hands of play (the undo history full)."""
    gc.collect()
    base = mem_alloc()
    per_module = {}
    last = base
    for name in IMPORT_ORDER:
        __import__(name)
        gc.collect()
        now = mem_alloc()
        per_module[name] = now - last
        last = now
    imported = last - base
    from dealerbutton.app import App
    app = make_app(App)
    gc.collect()
    built = mem_alloc() - base
    play(app, Rng(2024), 200)
    gc.collect()
    played = mem_alloc() - base
    rules = sys.modules["dealerbutton.rules.table"]
    loaded_from = getattr(rules, "__file__", "?")
    app = None
    gc.collect()
    tournament = heap_variant(base, {"tournament": TOURNAMENT})
    wifi = heap_variant(base, {"network": NETWORK})
    if HEAP:
        out["heap_in_use"] = {"loaded_from": loaded_from, "import_b": imported, "app_b": built, "played_b": played,
                              "tournament_b": tournament, "wifi_b": wifi,
                              "per_module_b": per_module,
                              "heap_total_b": mem_alloc() + gc.mem_free()}  # type: ignore
    else:
        out["heap_in_use"] = None


# A tournament's schedule (config.json's "tournament" block) and a Pico W's "network" block.
TOURNAMENT = {"ante_kind": "bb", "levels": [
    {"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "ante": 100, "minutes": 20},
    {"break": 10}, {"sb": 100, "bb": 200, "ante": 200, "minutes": 15}]}
NETWORK = {"ssid": "club", "wifi_password": "secret", "broker": "192.168.1.10",
           "room": "club", "table": "t1"}


class NoClient:
    """umqtt.simple's client, never made: the stand-in Wi-Fi stays down."""

    def __init__(self, client_id):
        raise OSError("no broker in the bench")


def wifi_down():
    """The Wi-Fi link's state for the Net: never up."""
    return False


def heap_variant(base, extra):
    """Heap in use (from base) with the App of a config with the extra blocks, built after
    the first one is gone (the modules it loaded stay, as on the board); with a "network"
    block, the Net pico.start adds (net.py; umqtt.simple and the Wi-Fi driver not
    counted). None when this firmware refuses the block."""
    from dealerbutton.app import App
    try:
        app = make_app(App, extra=extra)
    except SystemExit as exc:
        progress("heap with %s: not measured (%s)" % (", ".join(sorted(extra)), exc))
        return None
    net = None
    if "network" in extra:
        from dealerbutton import net as netmod
        net = netmod.Net(app, NETWORK, NoClient, app.now, wifi_down)
    play(app, Rng(7), 20)
    gc.collect()
    used = mem_alloc() - base
    del app, net
    gc.collect()
    return used


def bench_app():
    """A fresh app for the timed parts, counting its presses (to find the tick that handled
    one) and stamping the end of each strip write."""
    from dealerbutton.app import App

    class BenchApp(App):
        pressed = 0   # presses handled so far

        def __init__(self, *args, **kwargs):
            App.__init__(self, *args, **kwargs)
            handle = self.presses.press

            def counted(seat, long, when=0):
                self.pressed += 1
                return handle(seat, long, when)
            self.presses.press = counted

    app = make_app(BenchApp)
    play(app, Rng(2025), 100)
    return app


class StampStrip:
    """Wraps the app's NeoPixelStrip: counts the frames shown and stamps when each ended."""

    def __init__(self, strip):
        self.strip = strip
        self.n = strip.n
        self.shows = 0
        self.at = now_us()

    def show(self, rgb_buf):
        self.strip.show(rgb_buf)
        self.at = now_us()
        self.shows += 1


def main(argv):
    quick = "--quick" in argv
    counts = QUICK if quick else FULL
    out = {"runtime": sys.implementation.name,
           "version": sys.version.split()[0] if not MICROPYTHON else "%d.%d.%d" % (
               sys.implementation.version[0], sys.implementation.version[1],
               sys.implementation.version[2]),
           "quick": quick, "heap_counted": HEAP,
           "word_bits": 64 if sys.maxsize > 0xFFFFFFFF else 32}
    pool = sample_pool(counts) if "--heap-only" not in argv else None
    install_board_stand_ins()
    progress("heap in use after import and a 12-seat table")
    bench_heap(out)
    if "--heap-only" not in argv:
        app = bench_app()
        bench_frames(app, counts["frames"], pool, out)
        app.strip = StampStrip(app.strip)  # type: ignore[assignment]
        bench_presses(app, counts["presses"], pool, out)
        bench_gc(counts["collects"], pool, out)
        app = None  # the 12-seat app is done with: its room goes to the default one
        gc.collect()
        bench_default_frames(counts["frames"], pool, out)
        bench_clock_frames(counts["frames"], pool, out)
        bench_rules(counts["hands"], pool, out)
        pool = None   # (the samples are counted: the widest state file needs the room)
        gc.collect()
        bench_state(out)
    import json
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
