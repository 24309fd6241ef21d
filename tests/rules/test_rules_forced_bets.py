"""Forced bets beyond two blinds (RULES.md F1-F5): the dealer ante, the button blind, kills,
missed blinds made up one a hand. The worked examples, exactly, and the rulings around them.
On CPython and MicroPython alike."""

import two_runtimes
from dealerbutton.rules import Table
from rules_scenario import describe, hand_is, play, refused, state_key


def six(**options):
    """Nine seats, 10/20, dead button, players in 1-6 before the first hand."""
    t = Table(9, "dead", (10, 20), **options)
    for s in range(1, 7):
        t.sit(s)
    return t


def test_F1_example_a_dealer_ante():
    t = six()
    t.set_level(10, 20, 5, "button")
    h = t.deal(button=1)
    hand_is(h, 1, 2, 3, {1: (0, 5), 2: (10, 0), 3: (20, 0)})


def test_F1_F2_example_a_dealer_ante_and_a_button_blind():
    t = six(button_blind=10)
    t.set_level(10, 20, 5, "button")
    h = t.deal(button=1)
    hand_is(h, 1, 2, 3, {1: (10, 5), 2: (10, 0), 3: (20, 0)})
    assert h.button_blind == 1


def test_F3_example_kills_full_and_half():
    t = six()
    hand_is(t.deal(button=1), 1, 2, 3, {2: (10, 0), 3: (20, 0)})
    t.kill(5)
    assert t.kill_mark == (5, False)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0), 5: (40, 0)}, first=6)
    assert h.kill == 5 and t.kill_mark is None
    t.kill(5, half=True)
    h = t.deal()
    hand_is(h, 3, 4, 5, {4: (10, 0), 5: (30, 0)}, first=6)


def test_F3_a_kill_is_undone_and_moved_and_refused_where_it_cannot_be():
    t = six()
    t.deal(button=1)
    key = state_key(t)
    t.kill(5)
    t.kill(2, half=True)
    assert t.kill_mark == (2, True)
    t.undo()
    assert t.kill_mark == (5, False)
    t.undo()
    assert t.kill_mark is None and state_key(t) == key
    t.away(4)
    assert refused(t.kill, 4) == "seat 4 is away: only an active player can be marked for a kill"
    assert refused(t.kill, 8) == "seat 8 is empty: only an active player can be marked for a kill"
    tour = Table(9, tournament=True)
    tour.sit(1)
    assert refused(tour.kill, 1) == "seat 1: a tournament has no kill blind (F3: cash games only)"


def test_F2_a_tournament_has_no_button_blind():
    assert refused(Table, 9, "dead", (10, 20), True, 10) == (
        "a tournament has no button blind (F2: cash games only)")


def test_F1_a_dead_button_on_an_away_player_marks_a_missed_ante():
    t = six()
    t.set_level(10, 20, 5, "button")
    t.deal(button=1)   # B1 SB2 BB3
    t.away(2)
    t.deal()           # DB: B2 (dead, away) SB3 BB4
    assert "ante" in t.markers(2), (t.markers(2), describe(t.hand))
    assert 2 not in t.hand.posts
    t.back(2)
    assert t.owes(2)[1] >= 5


def test_F4_one_per_hand_posts_the_big_blind_then_the_small_one_live():
    t = Table(9, "dead", (10, 20), makeup="one_per_hand")
    for s in range(1, 8):
        t.sit(s)
    t.deal(button=1)
    t.away(5)
    for _ in range(9):
        t.deal()
    assert t.markers(5) == ("bb", "sb")
    t.back(5)
    assert t.owes(5) == (20, 0)   # the big blind first
    h = t.deal()
    hand_is(h, 6, 7, 1, {7: (10, 0), 1: (20, 0), 5: (20, 0)})
    assert (t.status(5), t.markers(5), t.owes(5)) == ("active", (), (10, 0))
    h = t.deal()   # then the small blind, live
    hand_is(h, 7, 1, 2, {1: (10, 0), 2: (20, 0), 5: (10, 0)})
    assert t.owes(5) == (0, 0)


def test_F4_one_per_hand_an_away_mover_who_missed_the_small_blind():
    t = Table(9, "simple", (10, 20), makeup="one_per_hand")
    play(t, "sit 9; sit 8; sit 1; sit 3; move 1 7; deal 7; deal; away 7; move 7 2; deal")
    assert (t.mover_wait(2), t.markers(2), t.owes(2)) == (1, ("sb",), (20, 0))
    t.back(2)
    h = t.deal()   # his big blind first ...
    assert h.posts[2] == (20, 0) and t.owes(2) == (0, 0), describe(h)
    h = t.deal()   # ... and the big blind reaching his seat clears the small one (M4)
    hand_is(h, 8, 9, 2, {9: (10, 0), 2: (20, 0)})


def test_F4_one_per_hand_a_missed_small_blind_is_owed_once():
    t = Table(6, "moving", (10, 20), makeup="one_per_hand")
    play(t, "sit 1; sit 2; sit 3; sit 4; sit 5; sit 6; deal 1; leave 3; deal; away 4; leave 1")
    assert (t.markers(4), t.owes(4)) == (("sb",), (10, 0))
    t.back(4)
    h = t.deal()
    assert h.posts[4] == (10, 0), describe(h)


def test_F5_a_marker_worth_nothing_is_nothing_owed():
    t = Table(4, "dead", (10, 20))
    play(t, "sit 1; sit 2; sit 3; sit 4; level 10 20 5 button; deal 1; away 2; deal")
    assert (t.markers(2), t.owes(2)) == (("ante",), (0, 5))
    t.set_level(10, 20, 0, "button")
    assert t.owes(2) == (0, 0)
    t.back(2)
    assert (t.status(2), t.markers(2), t.owes(2)) == ("active", (), (0, 0))
    t.undo()
    assert (t.status(2), t.markers(2)) == ("away", ("ante",))


def test_F5_a_kill_keeps_a_dead_small_blind_he_is_due():
    for kill in (False, True):
        t = Table(4, "moving", (10, 20))
        play(t, "sit 1; sit 3; sit 4; deal 1; move 1 2")
        if kill:
            t.kill(4)
        h = t.deal()
        assert (h.button, h.sb, h.bb) == (2, 3, 4), describe(h)
        assert h.posts[4] == ((40, 0) if kill else (20, 0)), describe(h)
        t.away(4)
        assert (t.markers(4), t.owes(4)) == (("sb",), (0, 10)), kill


def test_F4_a_tournament_makes_up_no_missed_blinds():
    assert refused(Table, 9, "dead", (10, 20), True, 0, "one_per_hand") == (
        "a tournament makes up no missed blinds (F4: cash games only)")


if __name__ == "__main__":
    two_runtimes.run_all(globals())
