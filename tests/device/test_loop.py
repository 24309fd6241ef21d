"""The device loop's timing through the real App: frames on a steady 25 ms grid whatever
the loop's rhythm, buttons at rest cost one pin read every other turn, quick turns while a
button is down, a press on the ring one release wait after the release, no allocation on
the idle poll (CPython and MicroPython)."""

import two_runtimes
from dealerbutton.buttons.button import Button
from dealerbutton.buttons.panel import Pins
from dealerbutton.rules import Table
from dealerbutton.ticks import TICKS_MAX, ticks_add, ticks_diff
from device_rig import Rig


class CountingPin:
    def __init__(self):
        self.level = 1
        self.reads = 0

    def value(self):
        self.reads += 1
        return self.level


class Stamps:
    """Wraps the rig's strip: the time of every frame shown."""

    def __init__(self, rig):
        self.rig = rig
        self.strip = rig.app.strip
        self.at = []

    def show(self, buf):
        self.at.append(self.rig.now)
        self.strip.show(buf)


def seated_rig(now=1000):
    rig = Rig({"seats": 9, "leds": 24}, now=now)
    for s in (1, 2, 3):
        rig.send("sit %d" % s)
    rig.send("deal 1")
    rig.run(300)
    return rig


def test_frames_keep_a_steady_25ms_grid_on_an_uneven_loop():
    for start in (1000, TICKS_MAX - 400):
        rig = seated_rig(start)
        stamps = Stamps(rig)
        rig.app.strip = stamps
        steps = (5, 6, 7, 5, 9, 6)  # a loop turn: 5 ms of sleep plus its own work
        for n in range(400):
            rig.tick(steps[n % len(steps)])
        gaps = [ticks_diff(stamps.at[i + 1] & TICKS_MAX, stamps.at[i] & TICKS_MAX)
                for i in range(len(stamps.at) - 1)]
        span = ticks_diff(stamps.at[-1] & TICKS_MAX, stamps.at[0] & TICKS_MAX)
        # On average exactly 25 ms: each frame lands on the first loop turn at or after
        # its slot, so a gap is never more than one loop turn off.
        assert max(gaps) <= 25 + 9 and min(gaps) >= 25 - 9, gaps
        assert abs(span - 25 * len(gaps)) <= 9, (span, len(gaps))


def test_a_loop_that_falls_far_behind_starts_the_grid_again():
    rig = seated_rig()
    stamps = Stamps(rig)
    rig.app.strip = stamps
    rig.tick(5)
    rig.tick(200)  # the loop stalled (a long save, the collector)
    rig.run(100, 5)
    gaps = [stamps.at[i + 1] - stamps.at[i] for i in range(len(stamps.at) - 1)]
    # No burst of frames to catch up: one at once, then every 25 ms again.
    assert gaps[1:] == [25] * (len(gaps) - 1), gaps


def test_buttons_at_rest_are_read_once_and_not_decoded():
    rig = seated_rig()
    pins = [CountingPin() for _ in rig.pins]
    rig.app.panel.pins = pins
    rig.app.panel.bank = Pins(pins)   # the per-pin bank (the board's reads one register)
    updates = []
    for i in range(len(rig.app.panel.buttons)):
        b = rig.app.panel.buttons[i]
        b.update = _counting(b.update, i, updates)
    rig.run(100)
    # Twenty turns: buttons at rest are read once a turn, through the bank.
    assert [p.reads for p in pins] == [20] * len(pins), [p.reads for p in pins]
    assert updates == [], updates
    # A press: that button alone is decoded, until it is at rest again.
    pins[4].level = 0
    rig.run(100)
    pins[4].level = 1
    rig.run(100)
    assert updates and set(updates) == {4}, updates
    n = len(updates)
    rig.run(100)
    assert len(updates) == n  # at rest again


def _counting(update, i, log):
    def counted(pressed, now_ms):
        log.append(i)
        return update(pressed, now_ms)
    return counted


def test_a_press_shows_one_release_wait_after_the_release():
    rig = seated_rig()
    stamps = Stamps(rig)
    rig.app.strip = stamps
    rig.pins[5].level = 0
    rig.run(300)
    released = rig.now
    rig.pins[5].level = 1
    shown = None
    while shown is None:
        rig.tick(5)
        if rig.app.ring.flashing and stamps.at and stamps.at[-1] == rig.now:
            shown = rig.now
    # Seen released at the first poll, decided when it has been released for release_ms.
    assert shown - released == 5 + Button.release_ms, shown - released
    assert rig.table.status(5) == "waiting"


def test_idle_tick_allocates_nothing():
    rig = seated_rig()
    rig.run(100)
    app = rig.app
    start = rig.now

    def idle_ticks():
        now = start
        for _ in range(200):
            now = ticks_add(now, 5)
            app.tick(now)

    grown = two_runtimes.allocated(idle_ticks)
    assert grown in (None, 0), grown


def test_the_loop_turns_quickly_only_while_a_button_is_down():
    rig = seated_rig()
    app = rig.app
    rig.now += 5
    assert 1 <= app.tick(rig.now) <= app.frame_ms  # at rest: until the next frame
    rig.pins[5].level = 0
    rig.now += 5
    assert app.tick(rig.now) == app.panel.quick_ms
    for _ in range(300):
        rig.now += 1
        assert app.tick(rig.now) == app.panel.quick_ms  # held
    rig.pins[5].level = 1
    pauses = []
    for _ in range(30):
        rig.now += 1
        pauses.append(app.tick(rig.now))
    # Released: quick until the release has counted (20 ms), then the loop's pace again.
    assert pauses[:19] == [app.panel.quick_ms] * 19 and pauses[-1] > app.panel.quick_ms, pauses
    assert rig.table.status(5) == "waiting"


def test_at_rest_the_loop_turns_once_a_frame():
    rig = seated_rig()
    app = rig.app
    rig.now += app.tick(rig.now)
    frames = []
    for _ in range(100):
        pause = app.tick(rig.now)
        assert app.last_frame == rig.now   # every turn draws a frame ...
        frames.append(rig.now)
        assert 1 <= pause <= app.frame_ms, pause
        rig.now += pause
    gaps = [frames[i + 1] - frames[i] for i in range(len(frames) - 1)]
    assert set(gaps) == {app.frame_ms}, gaps   # ... on the 25 ms grid


class Sleeps:
    """The board's sleep_ms for doze(): the rig's clock moves on; a pin may go down at a
    given time."""

    def __init__(self, rig, pin=None, down_at=None):
        self.rig = rig
        self.pin = pin
        self.down_at = down_at
        self.slept = []

    def __call__(self, ms):
        self.slept.append(ms)
        self.rig.now += ms
        if self.pin is not None and self.rig.now >= self.down_at:
            self.rig.pins[self.pin].level = 0


def test_doze_sleeps_to_the_next_frame_and_wakes_for_a_press():
    rig = seated_rig()
    app = rig.app
    sleep = Sleeps(rig)
    app.doze(25, sleep)
    assert sleep.slept == [4, 4, 4, 4, 4, 4, 1]   # the buttons read every 4 ms meanwhile
    # A button goes down 10 ms in: the next read sees it and the loop turns at once.
    sleep = Sleeps(rig, pin=4, down_at=rig.now + 10)
    app.doze(25, sleep)
    assert sleep.slept == [4, 4, 4], sleep.slept
    assert app.tick(rig.now) == app.panel.quick_ms


def test_doze_does_not_wake_for_a_button_already_held():
    rig = seated_rig()
    app = rig.app
    rig.pins[3].level = 0
    for _ in range(31000 // 5):   # held until it is stuck: the loop polls it every turn
        rig.now += 5
        app.tick(rig.now)
    assert app.panel.buttons[3].stuck
    sleep = Sleeps(rig)
    app.doze(25, sleep)
    assert sleep.slept == [4, 4, 4, 4, 4, 4, 1]   # it does not cut the sleep short


def test_a_stuck_button_does_not_keep_the_loop_quick():
    rig = seated_rig()
    app = rig.app
    rig.pins[3].level = 0
    pause = None
    for _ in range(31000 // 5):
        rig.now += 5
        pause = app.tick(rig.now)
    assert app.panel.buttons[3].stuck
    assert pause > app.panel.quick_ms
    assert "* error seat 3 button stuck" in rig.take()


def test_with_quick_turns_a_press_shows_about_20ms_after_the_release():
    rig = seated_rig()
    stamps = Stamps(rig)
    rig.app.strip = stamps
    rig.pins[5].level = 0
    pause = None
    for _ in range(150):  # held about 300 ms
        rig.now += (pause or 5) + 1  # each turn: the sleep asked for, 1 ms of work
        pause = rig.app.tick(rig.now)
    released = rig.now + 1  # the contact opens during the sleep after this turn
    rig.pins[5].level = 1
    while not (rig.app.ring.flashing and stamps.at and stamps.at[-1] == rig.now):
        rig.now += (pause or 5) + 1
        pause = rig.app.tick(rig.now)
    assert rig.now - released <= Button.release_ms + 4, rig.now - released



class Marks:
    """Wraps the rig's strip: each frame shown leaves "<frame>" among the lines written."""

    def __init__(self, rig):
        self.rig = rig
        self.strip = rig.app.strip

    def show(self, buf):
        self.rig.out.append("<frame>")
        self.strip.show(buf)


def test_a_press_is_on_the_ring_before_its_events_are_written():
    rig = seated_rig()
    rig.app.strip = Marks(rig)
    saves = rig.app.stats.saves
    lines = rig.press(0, ms=200, step=1, settle=30)
    events = [x for x in lines if x.startswith("* ")]
    assert len(events) == 1 and events[0].startswith('* hand {"n":2,'), lines
    first = lines.index(events[0])
    # the frame of the deal went out in the same tick, just before its events
    assert lines[first - 1] == "<frame>", lines
    assert lines[first:first + len(events)] == events, lines
    assert rig.table.hands == 2
    # saved in the same tick, after the events
    assert rig.app.stats.saves == saves + 1
    assert Table.from_dict(rig.store.load()[0]).hands == 2
    # two presses decided in the same turn: the first one's events go out before the
    # second event happens (the events stay in the order of the table's events), the
    # second one's after the frame
    rig.take()
    assert rig.app.press(6, False, True) == "ok sit"
    assert rig.take() == []
    assert rig.app.press(7, False, True) == "ok sit"
    assert rig.take() == ["* seat 6 waiting"]
    rig.tick(1)
    assert rig.take() == ["<frame>", "* seat 7 waiting"]


def test_a_press_command_writes_its_events_before_its_reply():
    rig = seated_rig()
    lines = rig.send("press 0")
    assert lines[-1] == "ok deal", lines
    assert lines[-2].startswith("* hand "), lines
    lines = rig.send("press 6")
    assert lines == ["* seat 6 waiting", "ok sit"], lines


if __name__ == "__main__":
    two_runtimes.run_all(globals())
