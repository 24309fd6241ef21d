"""Two buttons held together (chords.py, presses.py): a move with the seat buttons alone, a
kill from the next-hand button, and the half-done and mistaken chords refused; a held seat
lit from its first moment. On CPython and MicroPython alike, through the real App."""

import two_runtimes
from device_rig import Rig


def seated(players, deal=None):
    rig = Rig({"seats": 9, "leds": 27})
    for s in players:
        rig.reply("sit %d" % s)
    if deal is not None:
        rig.reply("deal %d" % deal)
    rig.run(300)
    rig.take()
    return rig


def chord(rig, first, second, hold_first=400, hold_second=120, let_go_first_early=False):
    """Hold `first`, then press `second` and let it go, then let `first` go; returns the
    lines written."""
    rig.take()
    rig.level(first, 0, hold_first)
    rig.level(second, 0, hold_second)
    if let_go_first_early:
        rig.level(first, 1, 60)
        rig.level(second, 1, 200)
    else:
        rig.level(second, 1, 60)
        rig.level(first, 1, 200)
    return rig.take()


def test_a_held_seat_lights_its_arc_at_once():
    rig = seated((1, 2, 3))
    before = rig.seat_leds(5)
    rig.level(5, 0)   # one loop turn after the press
    assert rig.seat_leds(5) != before and rig.ring.held[5] == 1
    rig.level(5, 0, 100)   # held: still lit
    assert rig.ring.held[5] == 1 and rig.seat_leds(5) != before
    rig.level(5, 1, 300)
    assert rig.ring.held[5] == 0 and rig.statuses()[4] == "active"   # he sat down


def test_a_move_with_the_seat_buttons_alone():
    rig = seated((1, 2, 3, 4), deal=1)
    lines = chord(rig, 3, 7)
    assert rig.statuses()[2] == "empty" and rig.statuses()[6] == "active", rig.statuses()
    assert "* seat 3 empty" in lines and "* seat 7 active" in lines, lines
    assert not [x for x in lines if "away" in x or "waiting" in x], lines


def test_a_long_hold_then_a_press_is_a_move_never_a_bust():
    rig = seated((1, 2, 3, 4), deal=1)
    chord(rig, 2, 8, hold_first=1500)
    assert rig.statuses()[1] == "empty" and rig.statuses()[7] == "active", rig.statuses()
    assert rig.table.hands == 1


def test_the_move_is_undone_by_holding_the_next_hand_button():
    rig = seated((1, 2, 3, 4), deal=1)
    chord(rig, 3, 7)
    lines = rig.hold(0)
    assert "* undo move 3 7" in lines, lines
    assert rig.statuses()[2] == "active" and rig.statuses()[6] == "empty"


def test_two_buttons_pressed_together_without_the_hold_are_two_presses():
    rig = seated((1, 2, 3, 4), deal=1)
    lines = chord(rig, 3, 7, hold_first=40)
    assert rig.statuses()[2] == "away" and rig.statuses()[6] == "waiting", lines
    assert "* seat 3 away" in lines and not [x for x in lines if "move" in x], lines


def test_chords_done_wrong_are_refused_and_change_nothing():
    rig = seated((1, 2, 3, 4), deal=1)
    before = rig.table.to_dict()
    chord(rig, 3, 7, let_go_first_early=True)   # the held button let go first
    assert rig.table.to_dict() == before
    chord(rig, 3, 4)   # onto a taken seat
    assert rig.table.to_dict() == before


def test_a_kill_from_the_next_hand_button_then_a_half_kill():
    rig = seated((1, 2, 3, 4, 5, 6), deal=1)
    rig.take()
    rig.level(0, 0, 400)
    rig.level(5, 0, 120)
    rig.level(5, 1, 200)
    assert rig.table.kill_mark == (5, False)
    assert rig.ring.kill == 5   # its seat blinks the kill's colour
    rig.level(5, 0, 120)
    rig.level(5, 1, 200)
    assert rig.table.kill_mark == (5, True)
    rig.level(0, 1, 300)
    lines = rig.take()
    assert rig.table.hands == 1, lines   # no deal, no undo from the next-hand button
    assert "* kill 5" in lines and "* kill 5 half" in lines, lines
    h = rig.table.deal()
    assert h.posts[5] == (30, 0) and h.kill == 5
    rig.app.show_table()
    assert rig.ring.kill == 5   # posted in this hand
    rig.reply("deal")
    assert rig.ring.kill == 0   # spent


if __name__ == "__main__":
    two_runtimes.run_all(globals())
