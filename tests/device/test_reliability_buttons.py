"""Reliability campaign 3: buttons, through the real App with fake pins and a fake clock.

Random episodes are played on two devices in lockstep: a "bouncy" one whose pins see what
real contacts do -- bounce bursts up to 10 ms on each edge, now and then an outlier of
about 150 ms (Ganssle's measurements), short open glitches while held, chattering
contacts, two buttons at once, a button stuck for minutes -- polled every 5..10 ms, or at
the pace of the board's loop (quick turns while a button is down), and a "clean" one that
gets only the intended presses with clean edges. Every press the App acts on is
recorded: the bouncy device must act on exactly the intended presses (button, short or
long) and nothing else, write the same lines as the clean one, and end each episode with
the same table; a stuck button is reported once, never acts, and is reported working again
once when let go. The clock wraps on the way.
"""
from dealerbutton.buttons.button import Button
from dealerbutton.buttons.chords import Chords
from fake_flash import FakeFlash
from reliability_campaign import Device, Rand, make_config

SIZES = {
    "quick": {"episodes": 400, "stuck": 2, "stuck_minutes": (1, 3)},
    "large": {"episodes": 4000, "stuck": 12, "stuck_minutes": (1, 10)},
}
DEBOUNCE = 50


class Counts:
    def __init__(self):
        self.presses = 0
        self.long = 0
        self.edges = 0
        self.bounces = 0           # bounce transitions on the pins
        self.outliers = 0          # ~150 ms bounces
        self.glitches = 0          # opens while held
        self.pairs = 0
        self.same_instant = 0
        self.chatter = 0
        self.chatter_toggles = 0
        self.stuck = 0
        self.stuck_ms = 0
        self.polls = 0
        self.power_cycles = 0      # after presses that could come in either order


def instrument(dev):
    """Record every press the App acts on, as (button, long)."""
    dev.acted = []
    orig = dev.app.presses.press

    def press(seat, long, when):
        dev.acted.append((seat, bool(long)))
        return orig(seat, long, when)
    dev.app.presses.press = press


def edge(rand, t, level, counts, bouncy=True):
    """Transitions [(time, level)] of a contact reaching `level` at about time t."""
    if not bouncy:
        return [(t, level)]
    counts.edges += 1
    kind = rand.weighted([(2, "clean"), (7, "burst"), (1, "outlier")])
    if kind == "clean":
        return [(t, level)]
    if kind == "burst":
        length = rand.between(1, 100) / 10          # 0.1 .. 10 ms
        gaps = (2, 150)                             # 0.02 .. 1.5 ms apart
    else:
        counts.outliers += 1
        length = rand.between(120, 160)
        gaps = (50, 300)                            # 0.5 .. 3 ms apart
    out = []
    at = t
    cur = level
    while at < t + length:
        out.append((at, cur))
        cur = 1 - cur
        at += rand.between(gaps[0], gaps[1]) / 100
    if out[-1][1] != level:      # the last toggle leaves the contact at `level`
        out.append((at, level))
    counts.bounces += len(out) - 1
    return out


def press_wave(rand, t, hold, counts, bouncy=True):
    """A press at t held `hold` ms (after its bounce), released; returns (transitions,
    end time of the release bounce)."""
    down = edge(rand, t, 0, counts, bouncy)
    t_hold = down[-1][0]
    up_at = t_hold + hold
    wave = list(down)
    if bouncy and rand.chance(20):
        # Short opens while held (a dirty contact): under 20 ms, at least 60 ms apart.
        g = t_hold + rand.between(60, 200)
        while g + 80 < up_at:
            d = rand.between(1, 200) / 10
            wave.append((g, 1))
            wave.append((g + d, 0))
            counts.glitches += 1
            g += d + rand.between(60, 400)
    up = edge(rand, up_at, 1, counts, bouncy)
    return wave + up, up[-1][0]


def chatter_wave(rand, t, counts):
    """A contact chattering for 1..10 s: levels lasting 11..40 ms, so that no 50 ms is
    ever stable, and every level is seen by a 10 ms poll."""
    out = []
    end = t + rand.between(1000, 10000)
    level = 0
    while t < end:
        out.append((t, level))
        level = 1 - level
        t += rand.between(11, 40)
        counts.chatter_toggles += 1
    out.append((t, 1))
    return out, t


def play(dev, waves, until, jitter):
    """Poll the device until `until` ms after the episode began, its pins following the
    waves {pin: [(time, level), ...]}: every 5..10 ms (random), or (half the episodes) at
    the pace of the board's loop: as soon as the app asks while a button is down (its
    quick turns, plus 0..1 ms of work), else every 5..10 ms."""
    pos = {}
    for p in waves:
        waves[p].sort(key=lambda x: x[0])
        pos[p] = 0
    t = 0
    polls = 0
    paced = jitter.chance(50)
    pause = None
    while t < until:
        step = pause + jitter.between(0, 1) if paced and pause else jitter.between(5, 10)
        t += step
        for p in waves:
            w = waves[p]
            i = pos[p]
            while i < len(w) and w[i][0] <= t:
                dev.pins[p].level = w[i][1]
                i += 1
            pos[p] = i
        pause = dev.tick(step)
        polls += 1
    return polls


def pick_press(rand, dev):
    """A button and a short or long press that keeps the game going."""
    t = dev.table
    seats = t.seats
    present = [s for s in range(1, seats + 1) if t.status(s) in ("active", "waiting")]
    if len(present) < 3 and rand.chance(70):
        empty = [s for s in range(1, seats + 1) if t.status(s) == "empty"]
        if empty:
            return rand.pick(empty), False
    b = 0 if rand.chance(30) else rand.between(1, seats)
    return b, rand.chance(15 if b else 10)


def hold_for(rand, long):
    # Well inside short (< 1000 ms with a 150 ms bounce) or long (>= 1000 ms).
    return rand.between(1300, 4000) if long else rand.between(80, 600)


def power_cycle(dev):
    """The same device after a power cycle: the table from its flash, no undo history."""
    again = Device(dev.cfg, dev.flash.reboot(), now=dev.now + 500, seed=7)
    again.take()
    instrument(again)
    return again


def check_same(bouncy, clean, what, sort=False):
    a = bouncy.take()
    b = clean.take()
    if sort:
        a, b = sorted(a), sorted(b)
    assert a == b, (what, a, b)
    assert bouncy.table.to_dict() == clean.table.to_dict(), what
    assert bouncy.app.ring.mode == clean.app.ring.mode, what
    return a


def test_bounce_chatter_two_buttons_and_stuck_buttons(campaign):
    size = SIZES[campaign]
    rand = Rand(31)
    jitter = Rand(32)
    counts = Counts()
    cfg = make_config(seats=9, rules="dead")
    start = (1 << 30) - 600000               # the ticks wrap ten minutes in
    bouncy = Device(cfg, FakeFlash(), now=start, seed=3)
    clean = Device(cfg, FakeFlash(), now=start, seed=3)
    for dev in (bouncy, clean):
        instrument(dev)
        for s in (1, 2, 4, 6):
            dev.feed(b"sit %d\n" % s)
    check_same(bouncy, clean, "setup")
    stuck_at = set()
    while len(stuck_at) < size["stuck"]:
        stuck_at.add(rand.below(size["episodes"]))
    for n in range(size["episodes"]):
        bouncy.acted = []
        clean.acted = []
        if n in stuck_at:
            stuck_episode(rand, jitter, bouncy, clean, counts, size)
            continue
        kind = rand.weighted([(70, "single"), (15, "pair"), (5, "same"), (10, "chatter")])
        if kind == "chatter":
            counts.chatter += 1
            b = rand.between(0, cfg["seats"])
            wave, end = chatter_wave(rand, 0, counts)
            counts.polls += play(bouncy, {b: wave}, end + 200, jitter)
            play(clean, {}, end + 200, jitter)
            assert bouncy.acted == [], ("chatter", b, bouncy.acted)
            check_same(bouncy, clean, "chatter")
            continue
        if kind == "single":
            b, long = pick_press(rand, bouncy)
            hold = hold_for(rand, long)
            wave, end = press_wave(rand, 0, hold, counts)
            cwave, _ = press_wave(rand, 0, hold, counts, bouncy=False)
            quiet = end + rand.between(DEBOUNCE + 150, 1500)
            counts.polls += play(bouncy, {b: wave}, quiet, jitter)
            play(clean, {b: cwave}, quiet, jitter)
            expected = [(b, long)]
            counts.presses += 1
            counts.long += long
            assert bouncy.acted == expected, (n, b, long, bouncy.acted)
            assert clean.acted == expected, (n, b, long, clean.acted)
            check_same(bouncy, clean, (n, "single", b, long))
            continue
        # Two seat buttons held at once, the second pressed while the first is down (or
        # both at the same instant). Seat presses in play commute, so when the releases
        # are less than 400 ms apart (bounce may swap them) the order is not checked.
        if bouncy.app.ring.mode != 0:
            continue                        # in the draw for the button the order matters
        a = rand.between(1, cfg["seats"])
        c = rand.between(1, cfg["seats"] - 1)
        c = c + 1 if c >= a else c
        la, lc = rand.chance(20), rand.chance(20)
        if kind == "same":
            counts.same_instant += 1
            la = lc = rand.chance(20)
            ha = hc = hold_for(rand, la)
            ta = tc = 0
        else:
            counts.pairs += 1
            ha = hold_for(rand, la)
            hc = hold_for(rand, lc)
            # The second goes down well within the hold that makes a chord of them (bounce
            # may shift each press by up to 150 ms): two presses, never a move or a kill.
            ta, tc = 0, rand.between(0, min(Chords.hold_ms - 150, ha - 60))
        waves, cwaves = {}, {}
        end = 0
        for s, t0, h in ((a, ta, ha), (c, tc, hc)):
            w, e = press_wave(rand, t0, h, counts)
            waves[s] = w
            cwaves[s], _ = press_wave(rand, t0, h, counts, bouncy=False)
            end = max(end, e)
        quiet = end + rand.between(DEBOUNCE + 150, 1500)
        counts.polls += play(bouncy, waves, quiet, jitter)
        play(clean, cwaves, quiet, jitter)
        counts.presses += 2
        counts.long += la + lc
        if kind == "same" or abs((ta + ha) - (tc + hc)) < 400:
            expected = sorted([(a, la), (c, lc)])
            assert sorted(bouncy.acted) == expected, (n, bouncy.acted, expected)
            assert sorted(clean.acted) == expected, (n, clean.acted, expected)
            check_same(bouncy, clean, (n, "same instant", a, c), sort=True)
            # The two presses may have been taken in either order: the tables are the same,
            # their undo histories may not be. A power cycle of both forgets those.
            bouncy, clean = power_cycle(bouncy), power_cycle(clean)
            assert bouncy.table.to_dict() == clean.table.to_dict()
            counts.power_cycles += 1
        else:
            order = sorted([(ta + ha, (a, la)), (tc + hc, (c, lc))])
            expected = [order[0][1], order[1][1]]
            assert bouncy.acted == expected, (n, bouncy.acted, expected)
            assert clean.acted == expected, (n, clean.acted, expected)
            check_same(bouncy, clean, (n, "two at once", a, c))
    # Nothing lost on the way: the saved table is the table.
    again = Device(cfg, bouncy.flash.reboot(), now=bouncy.now)
    assert again.table.to_dict() == bouncy.table.to_dict()
    print("\nbuttons: %d intended presses (%d long) with %d edges, %d bounce transitions "
          "(%d outliers of ~150 ms), %d opens while held; %d pairs held at once and %d "
          "pressed at the same instant; %d chattering contacts (%d toggles); %d stuck "
          "buttons for %.1f minutes in all; %d polls, %d power cycles. Acted on exactly the "
          "intended presses, no spurious event, clock wrapped"
          % (counts.presses, counts.long, counts.edges, counts.bounces, counts.outliers,
             counts.glitches, counts.pairs, counts.same_instant, counts.chatter,
             counts.chatter_toggles, counts.stuck, counts.stuck_ms / 60000.0, counts.polls,
             counts.power_cycles))
    assert bouncy.now < start                  # wrapped
    assert counts.outliers and counts.glitches and counts.stuck == size["stuck"]


def stuck_episode(rand, jitter, bouncy, clean, counts, size):
    """Button b stuck for minutes on the bouncy device while others are pressed now and
    then on both; the clean device never sees b at all."""
    seats = bouncy.table.seats
    b = rand.between(0, seats)
    lo, hi = size["stuck_minutes"]
    length = rand.between(lo * 60000, hi * 60000)
    counts.stuck += 1
    counts.stuck_ms += length
    wave, _ = press_wave(rand, 0, length, counts)
    waves = {b: wave}
    cwaves = {}
    expected = []
    # Until it is found stuck, b is a held button: a press of another is a chord with it
    # (chords.py). The others are pressed once b is known to be stuck.
    t = rand.between(Button.stuck_ms + 1000, Button.stuck_ms + 20000)
    while t < length - 5000:
        o, long = pick_press(rand, bouncy)
        if o == b:
            t += 5000
            continue
        hold = hold_for(rand, long)
        w, e = press_wave(rand, t, hold, counts)
        waves.setdefault(o, []).extend(w)
        cwaves.setdefault(o, []).extend(press_wave(rand, t, hold, counts, bouncy=False)[0])
        expected.append((o, long))
        counts.presses += 1
        t = e + rand.between(30000, 90000)
    quiet = wave[-1][0] + 300
    counts.polls += play(bouncy, waves, quiet, jitter)
    play(clean, cwaves, quiet, jitter)
    assert bouncy.acted == expected, ("stuck", b, bouncy.acted, expected)
    assert clean.acted == expected
    lines = bouncy.take()
    name = "next-hand" if b == 0 else "seat %d" % b
    stuck = "* error next-hand button stuck" if b == 0 else "* error seat %d button stuck" % b
    back = "* info %s button released, working again" % name
    assert lines.count(stuck) == 1 and lines.count(back) == 1, lines
    assert lines.index(stuck) < lines.index(back) == len(lines) - 1, lines
    others = [x for x in lines if x not in (stuck, back)]
    assert others == clean.take(), (others,)
    assert bouncy.table.to_dict() == clean.table.to_dict()
    # It works again at once.
    if bouncy.app.ring.mode == 0:
        bouncy.acted, clean.acted = [], []
        for dev in (bouncy, clean):
            w, e = press_wave(rand, 0, 200, counts, bouncy=dev is bouncy)
            play(dev, {b: w}, e + 300, jitter)
        assert bouncy.acted == [(b, False)] == clean.acted
        check_same(bouncy, clean, ("after stuck", b))
