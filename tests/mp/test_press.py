"""A press of the next-hand button in the loop: its whole-ring flash goes out before the
table deals (in the same loop turn), and that frame is byte for byte the frame of dealing
first; the deal, its events and the save follow in the order of the table's events. And
Table.deal_refusal says exactly what deal() would refuse (CPython and MicroPython)."""
import mptest
from dealerbutton import ring as R
from dealerbutton.rules import RuleError, Table
from devrig import Rig

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
        self.shown.append((bytes(buf), self.rig.app.table.hands))
        self.rig.out.append("<frame>")
        self.strip.show(buf)


class Lcg:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


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


def press_both_ways(cfg, commands, ms=300, presses=()):
    """Rig a: the next-hand button pressed and let go in the loop (1 ms turns). Rig b, at
    the turn a decides the press, does the same press at once (as the `press` command
    does) and renders. Returns (a, b, the frames and the lines of a's turn that decided
    the press)."""
    a, b = twins(cfg, commands, ms, presses)
    a.level(0, 0, 200, step=5)
    b.run(200, step=5)
    frames = Frames(a)
    a.app.strip = frames
    a.pins[0].level = 1
    hands = a.table.hands
    mode = a.ring.mode
    for _ in range(60):
        frames.shown = []
        a.take()
        a.tick(1)
        b.tick(1)
        if a.table.hands != hands or a.ring.mode != mode:
            break
    b.app.press(0, False)
    b.app.frame(b.now)
    return a, b, frames.shown, a.take()


def check_same_frame(cfg, commands, ms=300, presses=()):
    a, b, shown, lines = press_both_ways(cfg, commands, ms, presses)
    assert shown, "no frame in the turn of the press"
    frame, hands_then = shown[0]
    assert hands_then == a.table.hands - 1, (hands_then, a.table.hands)  # before the deal
    assert frame == bytes(b.strip.frame), cfg
    assert a.table.to_dict() == b.table.to_dict()
    assert bytes(a.ring.marks) == bytes(b.ring.marks)
    hand = [x for x in lines if x.startswith("* hand ")]
    assert len(hand) == 1 and lines.index(hand[0]) > lines.index("<frame>"), lines
    return a, frame


def test_the_frame_of_a_next_hand_press_is_the_frame_of_dealing_first():
    a, frame = check_same_frame({"seats": 9, "leds": 24},
                                ["sit 1", "sit 2", "sit 4", "sit 5", "deal 1", "away 4"])
    assert a.table.hands == 2
    # the whole ring in the accepted flash's colour
    assert len(set(frame[i:i + 3] for i in range(0, len(frame), 3))) == 1


def test_the_same_frame_on_a_big_ring_cut_to_its_current_budget():
    cfg = {"seats": 12, "leds": 60, "brightness": 255, "budget_ma": 300}
    cmds = ["sit %d" % s for s in range(1, 13)] + ["deal 3", "away 5", "deal", "back 5"]
    check_same_frame(cfg, cmds)


def test_the_same_frame_for_the_draw_for_the_button():
    # before the first hand a press starts the draw for the button; the next one draws
    # it and deals the first hand
    a, _ = check_same_frame({"seats": 9, "leds": 24}, ["sit 2", "sit 3", "sit 7"],
                            presses=(0,))
    assert a.table.hands == 1 and a.ring.mode == R.NORMAL


def test_the_same_frame_at_a_tournament_table_in_the_last_minute():
    cfg = {"seats": 6, "leds": 24, "tournament": TOURNAMENT}
    cmds = ["sit 1", "sit 2", "sit 3", "deal 1", "clock set 0:30", "clock resume"]
    a, frame = check_same_frame(cfg, cmds, ms=1000)
    assert a.ring.clock == R.CLOCK_COMING


def test_a_refused_next_hand_press_changes_nothing():
    a, b = twins({"seats": 9, "leds": 24}, ["sit 1", "sit 2", "deal 1", "leave 2"])
    before = a.table.to_dict()
    lines = a.press(0)
    assert lines == [], lines
    assert a.table.to_dict() == before
    assert a.app.deal_later == -1


def test_a_next_hand_and_a_seat_press_in_the_same_turn_keep_their_order():
    a, b = twins({"seats": 9, "leds": 24}, ["sit 1", "sit 2", "sit 3", "deal 1"])
    for i in (0, 6):
        a.pins[i].level = 0
    a.run(200)
    a.take()
    for i in (0, 6):
        a.pins[i].level = 1
    a.run(100)
    lines = a.take()
    assert b.app.press(0, False) == "ok deal"
    assert b.app.press(6, False) == "ok sit"
    expected = b.take()
    assert lines == expected, (lines, expected)
    assert lines[-1] == "* seat 6 waiting", lines
    assert a.table.to_dict() == b.table.to_dict()


def test_deal_refusal_says_what_deal_refuses():
    rng = Lcg(99)
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
    mptest.run_all(globals())
