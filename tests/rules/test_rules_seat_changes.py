"""Seat changes and take-overs (RULES.md C1-C6): the worked examples, exactly, and the rulings
around them. On CPython and MicroPython alike."""

import two_runtimes
from dealerbutton.rules import RuleError, Table
from rules_scenario import describe, hand_is, play, refused, state_key


def nine(players):
    """Nine seats, 10/20, dead button, these players seated before the first hand."""
    t = Table(9, "dead", (10, 20))
    for s in players:
        t.sit(s)
    return t


def deals(t, n):
    for _ in range(n):
        t.deal()


def dealt(h):
    return sorted(h.dealt)


def test_C3_example_moving_away_from_the_big_blind_waits_three_deals():
    t = nine(range(1, 9))
    t.deal(button=1)
    deals(t, 8)
    hand_is(t.hand, 1, 2, 3, t.hand.posts)
    t.move(5, 9)   # k(5) = 2, k(9) = 5
    assert (t.status(9), t.mover_wait(9), t.owes(9)) == ("waiting", 3, (20, 0))
    assert t.status(5) == "empty" and t.choice(9) == "wait"
    h = t.deal()
    assert (h.n, h.button, h.sb, h.bb, h.first_to_act) == (10, 2, 3, 4, 6), describe(h)
    assert dealt(h) == [1, 2, 3, 4, 6, 7, 8], describe(h)
    h = t.deal()
    assert (h.n, h.button, h.sb, h.bb, h.first_to_act) == (11, 3, 4, 6, 7), describe(h)
    h = t.deal()
    assert (h.n, h.button, h.sb, h.bb, h.first_to_act) == (12, 4, 6, 7, 8), describe(h)
    assert (t.status(9), t.mover_wait(9), t.owes(9)) == ("active", 0, (0, 0))
    h = t.deal()
    assert (h.n, h.button, h.sb, h.bb, h.first_to_act) == (13, 6, 7, 8, 9), describe(h)
    assert dealt(h) == [1, 2, 3, 4, 6, 7, 8, 9], describe(h)
    h = t.deal()
    assert (h.n, h.button, h.sb, h.bb) == (14, 7, 8, 9), describe(h)


def test_C3_example_moving_towards_the_big_blind_costs_nothing():
    t = nine((1, 2, 3, 5, 6, 7, 8, 9))
    t.deal(button=1)
    deals(t, 8)
    hand_is(t.hand, 1, 2, 3, t.hand.posts)
    t.move(8, 4)   # k(8) = 4, k(4) = 1
    assert (t.status(4), t.mover_wait(4), t.owes(4)) == ("active", 0, (0, 0))
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)})


def test_C2_example_a_free_move_in_the_first_orbit():
    t = nine(range(1, 7))
    h = t.deal(button=1)
    hand_is(h, 1, 2, 3, {2: (10, 0), 3: (20, 0)})
    t.move(5, 8)   # no blind has passed seat 8
    assert (t.status(8), t.mover_wait(8)) == ("active", 0)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)})
    assert dealt(h) == [1, 2, 3, 4, 6, 8], describe(h)


def test_C6_example_taking_over_a_seat_just_left():
    t = nine(range(1, 7))
    t.deal(button=1)
    deals(t, 6)
    hand_is(t.hand, 1, 2, 3, t.hand.posts)
    t.leave(6)
    t.take(6)
    assert (t.status(6), t.owes(6)) == ("active", (0, 0))
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)})
    assert h.n == 8 and dealt(h) == [1, 2, 3, 4, 5, 6], describe(h)


def test_C1_a_move_is_one_event_and_undo_puts_him_back_exactly():
    t = nine(range(1, 9))
    t.deal(button=1)
    deals(t, 8)
    t.away(2)
    deals(t, 2)
    before = state_key(t), t.markers(2), t.owes(2)
    t.move(2, 9)
    assert t.status(9) == "away" and t.markers(9) == before[1] and t.owes(9) == before[2]
    t.undo()
    assert (state_key(t), t.markers(2), t.owes(2)) == before


def test_C1_refusals_change_nothing():
    t = nine((1, 2, 3))
    t.deal(button=1)
    key = state_key(t)
    for a, b, why in ((4, 5, "seat 4 is empty: nobody to move"),
                      (1, 2, "seat 2 is taken: a player moves only to an empty seat"),
                      (1, 1, "seat 1: a move needs two different seats"),
                      (1, 10, "seat 10 does not exist: the seats are 1 to 9"),
                      (0, 5, "seat 0 does not exist: the seats are 1 to 9")):
        assert refused(t.move, a, b) == why, (a, b, refused(t.move, a, b))
        assert state_key(t) == key


def test_C4_a_new_player_keeps_being_new_where_he_moves():
    t = nine(range(1, 6))
    t.deal(button=1)
    deals(t, 9)
    t.sit(7)
    t.move(7, 8)
    assert (t.status(8), t.choice(8), t.mover_wait(8), t.owes(8)) == ("waiting", "wait", 0,
                                                                       (20, 0))


def test_C5_at_a_tournament_table_a_move_is_a_late_entry():
    t = Table(9, "dead", (100, 200), tournament=True)
    for s in range(1, 7):
        t.sit(s)
    t.deal(button=1)   # B1 SB2 BB3; next B2 SB3 BB4
    t.move(6, 3 + 5)   # to seat 8: not the next button or small blind
    assert t.status(8) == "active" and t.mover_wait(8) == 0
    assert 8 in t.deal().dealt


def test_C6_refusals():
    t = nine(range(1, 7))
    assert refused(t.take, 6) == ("seat 6 is taken: the player there must leave first")
    t.leave(6)
    assert "nobody to take over from" in refused(t.take, 6)   # before the first hand
    t.sit(6)
    t.deal(button=1)
    t.away(5)
    t.leave(5)
    assert "nobody to take over from" in refused(t.take, 5)   # he was away
    t.move(4, 9)
    assert "nobody to take over from" in refused(t.take, 4)   # a move emptied it
    t.leave(3)
    t.deal()
    assert "nobody to take over from" in refused(t.take, 3)   # not since the last deal
    tour = Table(9, "dead", tournament=True)
    assert refused(tour.take, 1) == "seat 1: a tournament has no take-over (C6: cash games only)"


def test_C3_an_away_mover_comes_back_to_the_rest_of_his_wait():
    t = nine(range(1, 9))
    t.deal(button=1)
    deals(t, 8)
    t.away(5)
    t.move(5, 9)
    assert (t.status(9), t.mover_wait(9)) == ("away", 3)
    t.deal()
    t.back(9)
    assert (t.status(9), t.mover_wait(9), t.choice(9)) == ("waiting", 2, "post")


def test_play_knows_seat_changes():
    t = nine(range(1, 7))
    play(t, "deal 1; deal; move 5 9; leave 6; take 6")
    assert [t.status(s) for s in (5, 6, 9)] == ["empty", "active", "active"]   # C2, C6
    try:
        play(t, "take 5")
    except RuleError:
        pass
    else:
        raise AssertionError("take 5 accepted")


def test_C6_a_take_over_keeps_an_earlier_leave_of_the_seat():
    # The big blind left seat 3, a mover came and left again: the one who takes over plays as
    # if the mover had stayed, and the big blind who left is still gone (DB2).
    t = nine(range(1, 6))
    t.deal(button=1)   # B1 SB2 BB3
    play(t, "leave 3; leave 4; move 2 3; leave 3; take 3")
    h = t.deal()
    assert (h.button, h.sb, h.bb) == (3, None, 5), describe(h)
    t = nine(range(1, 6))
    t.deal(button=1)
    play(t, "leave 3; leave 4; move 2 3")
    assert describe(t.deal()) == describe(h)


def test_MB2_movers_dealt_in_count_and_the_last_big_blind_is_never_due_it():
    t = Table(6, "moving", (10, 20))
    play(t, "sit 3; sit 4; sit 5; deal 5")   # B5 SB3 BB4
    play(t, "move 5 6; move 3 5")
    h = t.deal()   # the mover in 5 is due the big blind and has it: nothing is made up
    assert (h.button, h.sb, h.bb) == (6, 4, 5), describe(h)
    assert h.posts == {4: (10, 0), 5: (20, 0)}, describe(h)
    assert [t.owes(s) for s in (4, 5, 6)] == [(0, 0)] * 3


if __name__ == "__main__":
    two_runtimes.run_all(globals())
