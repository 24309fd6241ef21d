"""Button decoder and tick maths with a fake clock: clean, bouncing, chattering, stuck
buttons and the ticks wrap-around (runs on CPython and MicroPython)."""
import two_runtimes
from dealerbutton.buttons.button import EVENT_NAMES, LONG, NONE, RELEASED, SHORT, STUCK, Button
from dealerbutton.ticks import TICKS_MAX, ticks_add, ticks_diff

PERIOD = TICKS_MAX + 1


class Lcg:
    """A tiny deterministic random source (the same numbers on both runtimes)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def drive(b, segments, t0=0, step=1):
    """Poll b every `step` ms through segments of (pressed, duration_ms); return the
    events as (event, ms since the start)."""
    events = []
    t = 0
    for level, duration in segments:
        end = t + duration
        while t < end:
            ev = b.update(level, ticks_add(t0, t))
            if ev != NONE:
                events.append((ev, t))
            t += step
    return events


def kinds(events):
    return [e for e, _ in events]


def bounce(rng, max_ms, end_level):
    """A burst of random toggles lasting at most max_ms, ending with the level before
    end_level (the caller appends end_level)."""
    segs = []
    total = 0
    level = end_level
    limit = 1 + rng.below(max_ms)
    while total < limit:
        d = 1 + rng.below(3)
        segs.append((level, d))
        total += d
        level = not level
    return segs


def test_ticks_diff_and_add_match_modular_arithmetic():
    rng = Lcg(7)
    for _ in range(3000):
        a = (rng.below(1 << 15) << 15) | rng.below(1 << 15)
        d = ((rng.below(1 << 14) << 15) | rng.below(1 << 15)) - (1 << 28)
        b = (a + d) % PERIOD
        assert ticks_add(a, d) == b, (a, d)
        assert ticks_diff(b, a) == d, (a, d)


def test_ticks_wrap_edges():
    assert ticks_add(TICKS_MAX, 1) == 0
    assert ticks_add(0, -1) == TICKS_MAX
    assert ticks_diff(0, TICKS_MAX) == 1
    assert ticks_diff(TICKS_MAX, 0) == -1
    assert ticks_diff(5, 5) == 0
    assert ticks_diff(1 << 29, 0) == -(1 << 29)
    assert ticks_diff((1 << 29) - 1, 0) == (1 << 29) - 1


def test_clean_short_press():
    b = Button()
    ev = drive(b, [(False, 100), (True, 200), (False, 200)])
    # The release counts once stable for release_ms: 300 + 20.
    assert ev == [(SHORT, 320)], ev


def test_clean_long_press_fires_once_at_the_release():
    b = Button()
    ev = drive(b, [(False, 100), (True, 2500)])
    # Held past long_ms (timed from when the input settled low): ready, not yet fired.
    assert ev == [], ev
    assert b.long_ready
    ev = drive(b, [(False, 200)], t0=2600)
    # The release counts once stable for release_ms.
    assert ev == [(LONG, 20)], ev
    assert not b.long_ready


def test_short_long_boundary():
    b = Button()
    ev = drive(b, [(False, 100), (True, 990), (False, 200)])
    assert kinds(ev) == [SHORT], ev
    b = Button()
    ev = drive(b, [(False, 100), (True, 1010), (False, 200)])
    assert kinds(ev) == [LONG], ev


def test_tap_shorter_than_debounce_is_ignored():
    b = Button()
    assert drive(b, [(False, 100), (True, 30), (False, 300)]) == []
    assert not b.pressed


def test_bounce_bursts_up_to_10ms_give_one_event_per_press():
    rng = Lcg(2024)
    b = Button()
    segs = [(False, 100)]
    expected = []
    for i in range(60):
        hold = 80 + rng.below(700) if i % 3 else 1200 + rng.below(3000)
        segs += bounce(rng, 10, True) + [(True, hold)]
        segs += bounce(rng, 10, False) + [(False, 100 + rng.below(400))]
        expected.append(SHORT if hold < 900 else LONG)
    ev = drive(b, segs)
    assert kinds(ev) == expected, (kinds(ev), expected)


def test_a_150ms_bounce_outlier_still_one_press():
    rng = Lcg(99)
    b = Button()
    segs = [(False, 100)]
    # A dirty contact: toggling every 1..3 ms for about 150 ms before settling.
    t = 0
    level = True
    while t < 150:
        d = 1 + rng.below(3)
        segs.append((level, d))
        level = not level
        t += d
    segs += [(True, 300)] + bounce(rng, 10, False) + [(False, 300)]
    ev = drive(b, segs)
    assert kinds(ev) == [SHORT], ev
    # The same outlier at the release of a long hold: one LONG, nothing more.
    b = Button()
    segs = [(False, 100), (True, 1500)]
    level = False
    t = 0
    while t < 150:
        d = 1 + rng.below(3)
        segs.append((level, d))
        level = not level
        t += d
    segs.append((False, 300))
    ev = drive(b, segs)
    assert kinds(ev) == [LONG], ev


def test_chattering_input_gives_no_event():
    rng = Lcg(5)
    b = Button()
    segs = [(False, 100)]
    level = True
    for _ in range(2000):  # toggles every 1..40 ms (never 50 ms stable) for ~40 s
        segs.append((level, 1 + rng.below(40)))
        level = not level
    segs.append((False, 300))
    assert drive(b, segs) == []
    assert not b.stuck


def test_release_glitch_during_a_hold_is_ignored():
    b = Button()
    ev = drive(b, [(False, 100), (True, 500), (False, 19), (True, 1000), (False, 200)])
    # An open under 20 ms while held is no release; the real one is answered after 20 ms.
    assert ev == [(LONG, 1639)], ev


def test_hold_of_40s_latches_stuck_once_then_recovers():
    b = Button()
    ev = drive(b, [(False, 100), (True, 40000)], step=5)
    # STUCK once at 30 s, and never a LONG: a stuck button busts nobody out.
    assert ev == [(STUCK, 30100)], ev
    assert not b.long_ready
    assert b.stuck
    ev = drive(b, [(False, 300)], t0=40100, step=5)
    assert ev == [(RELEASED, 20)], ev
    assert not b.stuck
    # Works normally again.
    ev = drive(b, [(True, 200), (False, 200)], t0=40400)
    assert kinds(ev) == [SHORT], ev


def test_button_held_at_power_up_never_gives_short_or_long():
    b = Button()
    ev = drive(b, [(True, 40000), (False, 300)], step=5)
    assert kinds(ev) == [STUCK, RELEASED], ev
    b = Button()
    ev = drive(b, [(True, 2000), (False, 300)])
    assert ev == [], ev
    ev = drive(b, [(True, 200), (False, 200)], t0=2300)
    assert kinds(ev) == [SHORT], ev


def test_presses_across_the_ticks_wrap():
    start = PERIOD - 700
    b = Button()
    ev = drive(b, [(False, 100), (True, 400), (False, 200), (True, 1500), (False, 200)],
               t0=start)
    assert ev == [(SHORT, 520), (LONG, 2220)], ev
    b = Button()
    ev = drive(b, [(False, 100), (True, 40000), (False, 200)], t0=PERIOD - 20000, step=5)
    assert kinds(ev) == [STUCK, RELEASED], ev


def test_sparse_polling_every_10ms():
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 100), (True, 1300), (False, 100)], step=10)
    assert kinds(ev) == [SHORT, LONG], ev


def test_tunables_as_arguments_and_class_attributes():
    b = Button(debounce_ms=20, long_ms=500, stuck_ms=3000)
    ev = drive(b, [(False, 100), (True, 600), (False, 100)])
    assert ev == [(LONG, 720)], ev

    class Quick(Button):
        debounce_ms = 10
        long_ms = 300

    q = Quick()
    assert q.stuck_ms == 30000
    ev = drive(q, [(False, 100), (True, 250), (False, 100)])
    assert ev == [(SHORT, 370)], ev
    assert Button.debounce_ms == 50 and Button.long_ms == 1000 and Button.stuck_ms == 30000
    assert Button.release_ms == 20
    b = Button(release_ms=5)
    ev = drive(b, [(False, 100), (True, 200), (False, 100)])
    assert ev == [(SHORT, 305)], ev


def test_release_waits_20ms_press_50ms():
    """A press needs 50 ms of steady contact (a tap or a bounce train is not a press); the
    release, which is what acts, needs only 20 ms: a player sees the ring answer sooner.
    Polled every 5 ms or closer (the board's loop, while a button is down), a tap is
    answered as quickly; polled further apart, a tap let go within 150 ms of its press
    waits 50 ms, as a contact still bouncing could look steady between two polls."""
    b = Button()
    assert drive(b, [(False, 100), (True, 50), (False, 100)]) == []  # seen for 49 ms
    for step, tap_wait in ((1, 20), (5, 20), (10, 50)):
        b = Button()
        ev = drive(b, [(False, 100), (True, 60), (False, 100)], step=step)
        assert ev == [(SHORT, 160 + tap_wait)], (step, ev)
        b = Button()
        ev = drive(b, [(False, 100), (True, 140), (False, 100)], step=step)
        assert ev == [(SHORT, 240 + tap_wait)], (step, ev)
        b = Button()   # held past 150 ms: 20 ms, whatever the polls
        ev = drive(b, [(False, 100), (True, 200), (False, 100)], step=step)
        assert ev == [(SHORT, 320)], (step, ev)
    # An open seen for 19 ms while held (a dirty contact) is no release; 20 ms is one.
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 19), (True, 300), (False, 100)])
    assert ev == [(SHORT, 739)], ev
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 21), (True, 300), (False, 100)])
    assert ev == [(SHORT, 420), (SHORT, 741)], ev
    # A press that bounced when pressed: it counts once settled, its release after 20 ms.
    b = Button()
    ev = drive(b, [(False, 100), (True, 2), (False, 1), (True, 200), (False, 100)])
    assert ev == [(SHORT, 323)], ev


def test_a_quick_release_then_bounce_gives_no_second_press():
    """A contact let go cleanly counts as released after 20 ms; if it then bounces for a
    while (the rare ~150 ms outlier), no new press can start within rearm_ms (150 ms) of
    that release: those closings get no credit until then."""
    b = Button()
    segs = [(False, 100), (True, 300), (False, 30), (True, 100), (False, 200)]
    ev = drive(b, segs)
    assert ev == [(SHORT, 420)], ev  # the 100 ms closing 30 ms later is no press
    # A deliberate press after the lockout counts; so does one begun within it and held
    # past it long enough (50 ms after the lockout ends).
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 180), (True, 100), (False, 200)])
    assert ev == [(SHORT, 420), (SHORT, 700)], ev
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 100), (True, 150), (False, 200)])
    # Released at 400, counted at 420; pressed at 500: credit from 570, down at 620; let
    # go at 650: counted at 670.
    assert ev == [(SHORT, 420), (SHORT, 670)], ev
    b = Button()
    ev = drive(b, [(False, 100), (True, 300), (False, 100), (True, 110), (False, 200)])
    assert ev == [(SHORT, 420)], ev  # held only until 610: not 50 ms past the lockout


def test_two_presses_in_a_row_count_twice_75ms_apart_and_never_vanish():
    """The limit button.py states: let go 75 ms or more between them, the second one
    ending 230 ms or more after the first release, two presses count as two; closer, as
    one (the pair never gives nothing). Polls every 1, 5 and 10 ms, at several phases."""
    twice = once = 0
    for step in (1, 5, 10):
        for first in (60, 100, 149, 150, 200, 400, 1500):
            for second in (60, 80, 100, 150, 250):
                for gap in (20, 40, 55, 70, 75, 100, 130, 170):
                    for phase in range(0, step, 4):
                        segs = [(False, 200 + phase), (True, first), (False, gap),
                                (True, second), (False, 400)]
                        got = kinds(drive(Button(), segs, step=step))
                        assert got and got[0] == (LONG if first >= 1000 else SHORT), got
                        if gap >= 75 and gap + second >= 230:
                            assert got[1:] == [SHORT], (step, first, gap, second, got)
                            twice += 1
                        elif len(got) == 1:
                            once += 1
    print("two presses in a row: %d counted twice, %d closer ones once" % (twice, once))
    assert once > 100


def test_at_rest_tells_when_a_poll_may_skip_the_button():
    b = Button()
    assert not b.at_rest  # never polled
    b.update(False, 0)
    assert b.at_rest
    b.update(True, 5)  # a bounce or a press begins
    assert not b.at_rest
    b.update(False, 8)  # it was a bounce: back at rest at once
    assert b.at_rest
    for t in range(60, 300, 5):  # a press, once the input rested 50 ms
        b.update(True, t)
    assert b.pressed and not b.at_rest
    b.update(False, 300)
    assert not b.at_rest  # released, not yet settled
    assert b.update(False, 320) == SHORT
    assert b.at_rest
    # Held at power-up: not at rest until let go.
    b = Button()
    b.update(True, 0)
    assert not b.at_rest


def test_event_names():
    assert EVENT_NAMES[SHORT] == "short"
    assert EVENT_NAMES[RELEASED] == "released"
    assert (NONE, SHORT, LONG, STUCK, RELEASED) == (0, 1, 2, 3, 4)


def test_update_allocates_nothing():
    b = Button()
    b.update(False, 0)

    def three_seconds_of_polls():
        t = 1
        while t < 3000:
            b.update(t > 100 and t < 2500, t)
            t += 1

    grown = two_runtimes.allocated(three_seconds_of_polls)
    assert grown in (None, 0), grown


if __name__ == "__main__":
    two_runtimes.run_all(globals())
