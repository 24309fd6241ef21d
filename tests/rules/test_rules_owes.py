"""What a player owes (RULES.md M6a-M6c): for a player away, what he would pay if he came back
now (M6b), the sessions the independent check traced, each as the rules give it. On CPython
and MicroPython alike."""

import two_runtimes
from dealerbutton.rules import Table
from rules_scenario import describe, hand_is, play


def after(seats, rules, events, **options):
    """A table of this many seats under these rules, 10/20, after these events."""
    t = Table(seats, rules, (10, 20), **options)
    play(t, events)
    return t


def back_and_deal(t, seat):
    """Seat comes back (post) and the next hand is dealt: what he posts in it."""
    t.back(seat)
    h = t.deal()
    return h.posts.get(seat, (0, 0)), h


def test_M6b_an_away_new_player_whom_S2_would_deal_in_free_owes_nothing():
    t = after(7, "simple", "sit 6; sit 2; sit 4; sit 5; deal 2; sit 7; away 7")
    assert t.owes(7) == (0, 0)
    posts, h = back_and_deal(t, 7)
    assert 7 in h.dealt and posts == (0, 0), describe(h)


def test_M6b_an_away_new_player_whose_return_makes_a_hand_owes_one_big_blind():
    # Without him nobody could be dealt in with seat 2; back, he plays heads-up on the BB.
    t = after(3, "dead", "sit 2; sit 1; away 1; leave 2; back 1; sit 2; deal 1; sit 3; leave 1;"
                         " away 3")
    assert (t.status(2), t.status(3)) == ("active", "away")
    assert t.owes(3) == (20, 0)
    posts, h = back_and_deal(t, 3)
    hand_is(h, 2, 2, 3, {2: (10, 0), 3: (20, 0)})


def test_M6b_markers_are_nothing_when_his_return_makes_a_new_game():
    t = after(4, "dead", "sit 4; sit 3; sit 1; away 1; deal 3; deal; deal; deal")
    assert t.owes(1) == (20, 10) and t.markers(1) == ("bb", "sb")
    t.away(3)   # only seat 4 is left present: back, the next deal is a new game (D5)
    assert t.owes(1) == (0, 0) and t.markers(1) == ("bb", "sb")
    posts, h = back_and_deal(t, 1)
    assert posts in ((10, 0), (20, 0)) and len(h.dealt) == 2, describe(h)


def test_M6b_moving_the_made_up_small_blind_only_if_the_positions_do_not_give_it():
    t = after(5, "moving", "sit 1; sit 2; sit 3; sit 4; sit 5; deal 1; leave 5; away 3")
    assert t.owes(3) == (0, 0)   # back now, the next deal gives him the SB
    posts, h = back_and_deal(t, 3)
    assert h.sb == 3 and posts == (10, 0), describe(h)


def test_M6b_moving_an_away_player_without_markers_owes_the_made_up_big_blind():
    t = after(4, "moving", "sit 4; sit 2; sit 3; sit 1; away 2; deal 4; deal; deal; leave 4;"
                           " away 3; sit 4; back 2")
    assert (t.markers(3), t.owes(3)) == ((), (20, 0))
    posts, h = back_and_deal(t, 3)
    assert h.bb != 3 and posts == (20, 0), describe(h)


def test_M6b_moving_an_away_player_without_markers_owes_the_made_up_small_blind_dead():
    t = after(6, "moving", "sit 1; sit 2; deal 2; away 2; sit 5; deal; sit 3; leave 3; sit 6;"
                           " leave 2; deal; sit 3; away 6; leave 5")
    assert (t.markers(6), t.owes(6)) == ((), (0, 10))
    posts, h = back_and_deal(t, 6)
    assert posts == (0, 10), describe(h)


def test_M6b_the_figure_is_the_copy_after_back_and_changes_nothing():
    t = after(4, "dead", "sit 4; sit 3; sit 1; away 1; deal 3; deal; deal; deal; away 3")
    before = t.to_dict()
    t.owes(1)
    assert t.to_dict() == before and t.can_undo()
    t.undo()   # the last event is still `away 3`
    assert t.status(3) == "active" and t.owes(1) == (20, 10)


def test_M6c_no_hand_even_with_him_back_S2_so_far_decides():
    t = after(3, "dead", "sit 1; sit 2; deal 1; away 1; leave 2")
    # present: nobody; back, seat 1 alone: no hand; he owes his markers (none yet)
    assert t.owes(1) == (0, 0)
    t = after(4, "dead", "sit 1; sit 2; sit 3; deal 1; leave 2; sit 2; away 2; leave 1; leave 3")
    # a new player whose seat the first hand's small blind passed: one big blind
    assert t.owes(2) == (20, 0)
    t = after(4, "dead", "sit 1; sit 2; sit 3; deal 1; sit 4; away 4; leave 1; leave 2; leave 3")
    # ... and one whose seat no blind has passed in the first orbit: nothing
    assert t.owes(4) == (0, 0)


if __name__ == "__main__":
    two_runtimes.run_all(globals())
