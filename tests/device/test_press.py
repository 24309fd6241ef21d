"""A press in the loop shows its flash before the change it hides: a next-hand press's
whole-ring flash goes out before the table deals (or undoes), a seat press's flash before
the seat's new mark is drawn, all in the same loop turn; that frame is byte for byte the
frame of changing first. The deal, the marks, the events and the save follow in the order
of the table's events. And Table.deal_refusal says exactly what deal() would refuse
(CPython and MicroPython)."""
import two_runtimes
from dealerbutton import ring as R
from dealerbutton.rules import RuleError, Table
from device_rig import Rig, marks
from reliability_campaign import Rand

MIN = 60000
TOURNAMENT = {"levels": [{"sb": 25, "bb": 50, "minutes": 20},
                         {"sb": 50, "bb": 100, "ante": 100, "minutes": 20}]}


class Frames:
    """Wraps a rig's strip: each frame shown, with the hands dealt when it went out."""

    def __init__(self, rig):
        self.rig = rig
        self.strip = rig.app.strip
        self.shown = []

    def show(self, buf):
        app = self.rig.app
        self.shown.append((bytes(buf), app.table.hands, marks(app.ring)))
        self.rig.out.append("<frame>")
        self.strip.show(buf)


def twins(cfg, commands, ms=300, presses=()):
    """Two rigs in the same state: the same config, commands, presses and loop turns."""
    rigs = []
    for _ in range(2):
        rig = Rig(cfg)
        for line in commands:
            rig.send(line)
        for i in presses:
            rig.press(i)
        rig.run(ms)
        rig.take()
        rigs.append(rig)
    return rigs


def press_both_ways(cfg, commands, ms=300, presses=(), button=0, hold=200):
    """Rig a: `button` pressed for `hold` ms and let go in the loop (1 ms turns). Rig b, at
    the turn a decides the press, does the same press at once (as the `press` command
    does) and renders. Returns (a, b, the frames and the lines of a's turn that decided
    the press)."""
    a, b = twins(cfg, commands, ms, presses)
    pressed = []
    act = a.app.presses.press

    def press(seat, long, when=0):
        pressed.append((seat, long))
        return act(seat, long, when)
    a.app.presses.press = press
    a.level(button, 0, hold, step=5)
    b.run(hold, step=5)
    frames = Frames(a)
    a.app.strip = frames
    a.pins[button].level = 1
    for _ in range(60):
        frames.shown = []
        a.take()
        a.tick(1)
        b.tick(1)
        if pressed:
            break
    assert pressed == [(button, hold >= 1000)], pressed
    b.take()
    b.app.press(button, hold >= 1000)
    b.app.frame(b.now)
    assert a.table.to_dict() == b.table.to_dict()
    assert marks(a.ring) == marks(b.ring)
    assert bytes(a.strip.frame) == bytes(b.strip.frame)
    return a, b, frames.shown, a.take()


def check_same_frame(cfg, commands, ms=300, presses=(), button=0, hold=200):
    """The frame of a's press turn is b's; returns (a, that frame, the marks then)."""
    a, b, shown, lines = press_both_ways(cfg, commands, ms, presses, button, hold)
    assert len(shown) == 1, "not one frame in the turn of the press"
    frame, hands_then, marks_then = shown[0]
    assert frame == bytes(b.strip.frame), (cfg, button, hold)
    events = [x for x in lines if x.startswith("* ")]
    assert events == b.take(), (events, lines)
    assert "<frame>" in lines and not [x for x in lines[:lines.index("<frame>")]
                                       if x.startswith("* ")], lines
    return a, frame, hands_then, marks_then


def check_deal_shown_first(cfg, commands, ms=300, presses=()):
    a, frame, hands_then, marks_then = check_same_frame(cfg, commands, ms, presses)
    assert hands_then == a.table.hands - 1, (hands_then, a.table.hands)  # before the deal
    assert marks_then != marks(a.ring)
    return a, frame


def test_the_frame_of_a_next_hand_press_is_the_frame_of_dealing_first():
    a, frame = check_deal_shown_first({"seats": 9, "leds": 24},
                                ["sit 1", "sit 2", "sit 4", "sit 5", "deal 1", "away 4"])
    assert a.table.hands == 2
    # the whole ring in the accepted flash's colour
    assert len(set(frame[i:i + 3] for i in range(0, len(frame), 3))) == 1


def test_the_same_frame_on_a_big_ring_cut_to_its_current_budget():
    cfg = {"seats": 12, "leds": 60, "brightness": 255, "budget_ma": 300}
    cmds = ["sit %d" % s for s in range(1, 13)] + ["deal 3", "away 5", "deal", "back 5"]
    check_deal_shown_first(cfg, cmds)


def test_the_same_frame_for_the_draw_for_the_button():
    # before the first hand a press starts the draw for the button; the next one draws
    # it and deals the first hand
    a, _ = check_deal_shown_first({"seats": 9, "leds": 24}, ["sit 2", "sit 3", "sit 7"],
                            presses=(0,))
    assert a.table.hands == 1 and a.ring.mode == R.NORMAL


def test_the_same_frame_at_a_tournament_table_in_the_last_minute():
    cfg = {"seats": 6, "leds": 24, "tournament": TOURNAMENT}
    cmds = ["sit 1", "sit 2", "sit 3", "deal 1", "clock set 0:30", "clock resume"]
    a, frame = check_deal_shown_first(cfg, cmds, ms=1000)
    assert a.ring.clock == R.CLOCK_COMING


def test_a_seat_press_shows_its_flash_before_the_new_mark():
    cfg = {"seats": 9, "leds": 24}
    table = ["sit 1", "sit 2", "sit 4", "sit 5", "deal 1", "away 5", "sit 7"]
    # a seat press: sit, away, leave (a long press), back, post instead of waiting
    for button, hold, status in ((3, 200, "waiting"), (2, 200, "away"), (1, 1200, "empty"),
                                 (5, 200, "active"), (7, 200, "waiting")):
        a, frame, hands_then, marks_then = check_same_frame(cfg, table, button=button,
                                                            hold=hold)
        assert a.table.status(button) == status, (button, a.table.status(button))
        # drawn under the flash: the seat's old mark when the frame went out
        assert marks_then != marks(a.ring), button
        status_then = marks_then[0]
        assert [status_then[s] for s in range(10) if s != button] == [
            a.ring.status[s] for s in range(10) if s != button]
        assert marks_then[1:] == marks(a.ring)[1:]   # the roles stay where they were


def test_an_undo_shows_its_flash_before_the_marks():
    cfg = {"seats": 9, "leds": 24}
    a, frame, hands_then, marks_then = check_same_frame(
        cfg, ["sit 1", "sit 2", "sit 4", "deal 1", "deal"], button=0, hold=1200)
    assert a.table.hands == 1 and hands_then == 1
    assert marks_then != marks(a.ring)


def test_a_refused_next_hand_press_changes_nothing():
    a, b = twins({"seats": 9, "leds": 24}, ["sit 1", "sit 2", "deal 1", "leave 2"])
    before = a.table.to_dict()
    lines = a.press(0)
    assert lines == [], lines
    assert a.table.to_dict() == before
    later = a.app.after_flash
    assert not (later.deal or later.show or later.hand or later.undo or later.report)


def test_a_next_hand_and_a_seat_pressed_together_are_two_presses():
    # Two buttons down in the same turn, with no hold: no chord (chords.py), each acts on
    # its release, the next-hand button first (the panel reads the buttons in order).
    a, b = twins({"seats": 9, "leds": 24}, ["sit 1", "sit 2", "sit 3", "deal 1"])
    for i in (0, 6):
        a.pins[i].level = 0
    a.run(200)
    for i in (0, 6):
        a.pins[i].level = 1
    a.run(300)
    lines = a.take()
    assert a.table.hands == 2 and a.table.status(6) == "waiting", lines
    b.send("deal")
    b.send("sit 6")
    assert a.table.to_dict() == b.table.to_dict()


def test_deal_refusal_says_what_deal_refuses():
    rng = Rand(99)
    checked = 0
    refused = 0
    for seats, rules, tournament in ((4, "dead", False), (9, "moving", False),
                                     (6, "simple", False), (5, "dead", True)):
        t = Table(seats, rules, tournament=tournament)
        for _ in range(600):
            for button in (None, 0, 1, rng.below(seats) + 1, seats + 1, -1, "2", True):
                why = t.deal_refusal(button)
                before = t.to_dict()
                try:
                    t.deal(button)
                except RuleError as exc:
                    assert str(exc) == why, (button, str(exc), why)
                    assert t.to_dict() == before
                    refused += 1
                else:
                    assert why is None, (button, why)
                    t.undo()
                    assert t.to_dict() == before
                checked += 1
            seat = rng.below(seats) + 1
            try:
                [t.sit, t.away, t.back, t.leave, t.sit, t.sit][rng.below(6)](seat)
                if rng.below(3) == 0:
                    t.deal(None if t.hands else seat)
            except RuleError:
                pass
    print("deal_refusal: %d calls, %d refused" % (checked, refused))
    assert refused and refused < checked


if __name__ == "__main__":
    two_runtimes.run_all(globals())
