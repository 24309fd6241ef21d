"""Short sessions where the rules core once broke a ruling of RULES.md (S1, S2, DB2, DB3, MB2,
MS2, H1, D5, M1, M6, E2, E4), each the shortest random session found, one test each named
by its rule, and the corners around them; on CPython and MicroPython alike.

A session reads `T(seats,rules); sit 1; sit 2 post; deal 2; away 1; deal` at stakes 10/20
(`deal 2`: the first hand, the draw on seat 2); hand_is gives button, SB, BB, posts.
"""
import json

import two_runtimes
from dealerbutton.rules import RuleError, Table
from rules_scenario import hand_is, play, refused, session

# ---- S1: the draw may go to a player away -------------------------------------------------


def test_S1_the_draw_on_an_away_player_two_active_play_heads_up():
    t = session("T(3,dead); sit 2; sit 3; sit 1; away 1; deal 1")
    hand_is(t.hand, 2, 2, 3, {2: (10, 0), 3: (20, 0)}, first=2, dealt=(3, 2))
    assert t.owes(1) == (0, 0)


def test_S1_the_draw_on_an_away_player_a_dead_first_button():
    t = session("T(9,dead); sit 1; sit 2; sit 3; sit 4; away 1; deal 1")
    hand_is(t.hand, 1, 2, 3, {2: (10, 0), 3: (20, 0)}, first=4, dealt=(2, 3, 4))
    assert t.owes(1) == (0, 0)  # the blinds come from his seat: they did not pass it
    t.deal()
    hand_is(t.hand, 2, 3, 4, {3: (10, 0), 4: (20, 0)})
    assert t.owes(1) == (0, 0)
    t.deal()  # the BB goes from seat 4 round to seat 2, past seat 1
    hand_is(t.hand, 3, 4, 2, {4: (10, 0), 2: (20, 0)})
    assert t.owes(1) == (20, 0)


def test_S1_the_draw_never_on_an_empty_seat():
    t = Table(5)
    t.sit(1)
    t.sit(2)
    assert refused(t.deal, button=3) == (
        "seat 3 is empty: the first button goes to a player who drew for it")


# ---- S2: the blinds as really posted pass seats ---------------------------------------------

def test_S2_a_heads_up_big_blind_passes_the_seat_of_a_player_who_left():
    t = session("T(10,moving); sit 1; sit 6; sit 8; deal 6; leave 6; deal")
    hand_is(t.hand, 1, 1, 8, {1: (10, 0), 8: (20, 0)})  # the BB went from 1 to 8
    t.sit(6, post=True)
    t.sit(4)
    assert t.owes(6) == (20, 0)
    h = t.deal()
    hand_is(h, 8, 1, 4, {1: (10, 0), 4: (20, 0), 6: (20, 0)}, dealt=(1, 4, 6, 8))


# ---- DB2, DB3: the small blind position and the button ------------------------------------

def test_DB3_no_rotation_seat_between_the_BB_and_the_SB_heads_up_newcomer_waits():
    t = session("T(6,dead); sit 2; sit 5; deal 5; sit 6 post; deal")
    hand_is(t.hand, 2, 2, 5, {2: (10, 0), 5: (20, 0)}, dealt=(5, 2))
    assert t.status(6) == "waiting" and t.owes(6) == (20, 0)
    h = t.deal()  # then the BB reaches him
    hand_is(h, 2, 5, 6, {5: (10, 0), 6: (20, 0)}, dealt=(5, 6, 2))


def test_DB3_heads_up_with_a_newcomer_on_the_BB_no_button_on_a_seat_outside_the_rotation():
    t = session("T(6,dead); sit 2; sit 5; deal 5; leave 5; sit 6")
    assert t.owes(6) == (20, 0)  # the next BB lands on him
    h = t.deal()  # seat 1 is no rotation seat: heads-up, the SB player has the button
    hand_is(h, 2, 2, 6, {2: (10, 0), 6: (20, 0)}, dealt=(6, 2))


def test_DB2_M1_the_SB_position_landing_again_on_an_away_seat_is_missed():
    t = session("T(8,dead); sit 8; sit 2; deal 2; away 2; sit 6; away 8; sit 4; sit 7; deal")
    hand_is(t.hand, 8, None, 4, {4: (20, 0)}, dealt=(4, 6, 7))
    assert t.owes(2) == (20, 10)
    assert t.owes(8) == (0, 0)  # the BB went from his seat on: it passed him not


# ---- MB2, MS2 ---------------------------------------------------------------------------------

def test_MB2_a_newcomer_takes_the_BB_on_the_seat_of_the_BB_who_left_nothing_made_up():
    t = session("T(4,moving); sit 4; sit 2; sit 1; sit 3; deal 1; leave 2; leave 3; sit 3")
    assert t.owes(4) == (0, 0)
    h = t.deal()
    hand_is(h, 4, 1, 3, {1: (10, 0), 3: (20, 0)}, dealt=(1, 3, 4))
    h = t.deal()  # seat 4 pays his big blind once, in turn
    hand_is(h, 1, 3, 4, {3: (10, 0), 4: (20, 0)})


def test_MB2_what_an_active_player_is_due_is_what_he_owes():
    t = session("T(5,moving); sit 1; sit 2; sit 3; sit 4; sit 5; deal 1; leave 3")
    assert t.owes(4) == (20, 0) and t.owes(2) == (0, 0) and t.owes(5) == (0, 0)
    h = t.deal()
    hand_is(h, 2, None, 5, {4: (20, 0), 5: (20, 0)})
    assert t.owes(4) == (0, 10)
    h = t.deal()
    assert h.posts[4] == (0, 10) and t.owes(4) == (0, 0)


def test_MS2_one_active_player_a_new_game_the_button_to_the_next_present_player():
    t = session("T(7,simple); sit 6; sit 3; deal 6; leave 6; sit 7; deal")
    hand_is(t.hand, 7, 7, 3, {7: (10, 0), 3: (20, 0)}, dealt=(3, 7))


def test_MS2_D5_a_newcomer_posting_on_the_new_games_button_posts_only_the_SB():
    t = session("T(2,moving); sit 2; sit 1; deal 2; leave 1; sit 1 post")
    assert t.owes(1) == (0, 0)
    h = t.deal()
    hand_is(h, 1, 1, 2, {1: (10, 0), 2: (20, 0)}, dealt=(2, 1))


def test_MS2_three_present_the_blinds_follow_the_button():
    t = session("T(9,simple); sit 1; sit 2; sit 3; deal 1; leave 2; leave 3; sit 5; sit 7")
    assert t.owes(5) == (0, 0) and t.owes(7) == (0, 0)
    h = t.deal()
    hand_is(h, 5, 7, 1, {7: (10, 0), 1: (20, 0)}, dealt=(7, 1, 5))
    assert [t.status(s) for s in (1, 5, 7)] == ["active"] * 3


# ---- H1: heads-up missed blinds follow the blinds as posted -----------------------------------

def test_H1_heads_up_the_SB_stays_put_the_away_player_misses_nothing():
    t = session("T(3,dead); sit 1; sit 2; sit 3; deal 2; away 1; deal")
    hand_is(t.hand, 3, 3, 2, {3: (10, 0), 2: (20, 0)})
    assert t.owes(1) == (0, 0)


def test_H1_heads_up_the_BB_passes_the_away_player():
    t = session("T(3,simple); sit 3; sit 1; sit 2; deal 1; away 1; deal")
    hand_is(t.hand, 3, 3, 2, {3: (10, 0), 2: (20, 0)})
    assert t.owes(1) == (20, 0)


def test_H1_heads_up_the_SB_moving_back_passes_nobody():
    t = session("T(10,dead); sit 9; sit 8; sit 10; sit 1; sit 3; deal 9; away 10; away 8; "
                "leave 1; deal")
    hand_is(t.hand, 9, 9, 3, {9: (10, 0), 3: (20, 0)})
    assert t.owes(8) == (0, 0) and t.owes(10) == (0, 0)
    t.deal()  # on round again: the SB from 9 past 10, the BB from 3 past 8
    hand_is(t.hand, 3, 3, 9, {3: (10, 0), 9: (20, 0)})
    assert t.owes(8) == (20, 0) and t.owes(10) == (0, 10)


def test_H1_heads_up_the_SB_going_round_from_the_BB_seat_passes_what_lies_between():
    # the SB's last seat is the new BB: the SB goes from it all the way round
    t = session("T(4,dead); sit 1; sit 2; sit 3; deal 1; away 3; deal")
    hand_is(t.hand, 2, 2, 1, {2: (10, 0), 1: (20, 0)})
    assert t.owes(3) == (0, 0)
    t.deal()
    hand_is(t.hand, 1, 1, 2, {1: (10, 0), 2: (20, 0)})
    assert t.owes(3) == (0, 10)  # the SB went from seat 2 to seat 1, past seat 3


# ---- D5: a new game charges only its positions' blinds -----------------------------------------

def test_D5_a_newcomer_held_out_on_the_heads_up_button_is_brought_in_on_the_SB():
    t = session("T(4,dead); sit 4; sit 3; deal 4; away 3; sit 1 post")
    assert t.owes(1) == (0, 0)
    h = t.deal()
    hand_is(h, 1, 1, 4, {1: (10, 0), 4: (20, 0)}, dealt=(4, 1))
    assert t.owes(3) == (0, 0)


def test_D5_a_player_back_from_away_owes_nothing_before_a_new_game():
    t = session("T(4,dead); sit 1; sit 2; sit 3; deal 1; away 3; deal; deal; deal; back 3")
    assert t.owes(3) == (20, 10)  # his markers: the next BB reaches him
    t.leave(1)
    assert t.owes(3) == (0, 0)  # one player could be dealt in: a new game
    h = t.deal()
    hand_is(h, 3, 3, 2, {3: (10, 0), 2: (20, 0)}, dealt=(2, 3))
    assert t.status(3) == "active" and t.owes(3) == (0, 0)
    t.undo()
    t.undo()
    assert t.owes(3) == (20, 10)  # undone: his markers again


# ---- M6: owes says what the next deal charges ----------------------------------------------

def test_M6_the_next_BB_reaches_a_new_player_S2_does_not_free_him():
    t = session("T(5,dead); sit 5; sit 1; deal 5; sit 3")
    assert t.owes(3) == (20, 0)
    hand_is(t.deal(), 5, 1, 3, {1: (10, 0), 3: (20, 0)})


def test_M6_a_new_player_owes_nothing_when_the_next_deal_is_a_new_game():
    t = session("T(2,moving); sit 2; sit 1; deal 2; leave 1; sit 1")
    assert t.owes(1) == (0, 0)
    t.leave(2)  # no hand can be dealt: S2 so far, the blinds passed both seats
    assert t.owes(1) == (20, 0)


def test_M6_the_figure_follows_the_next_deal_as_players_sit_down():
    t = session("T(9,dead); sit 1; sit 2; sit 3; deal 1; sit 6")
    assert t.owes(6) == (20, 0)  # the next BB lands on seat 6
    t.sit(5)
    assert t.owes(6) == (0, 0) and t.owes(5) == (20, 0)  # now on seat 5: 6 plays free
    t.undo()
    assert t.owes(6) == (20, 0)
    t.sit(5)
    h = t.deal()
    hand_is(h, 2, 3, 5, {3: (10, 0), 5: (20, 0)}, dealt=(3, 5, 6, 1, 2))


def test_M6_an_away_new_player_owes_one_big_blind_unless_a_new_game_comes():
    t = session("T(9,dead); sit 1; sit 2; sit 3; deal 1; sit 6")
    t.away(6)  # S2 deals in free only a player dealt in: one BB
    assert t.owes(6) == (20, 0)
    t.deal()  # the BB goes from 3 to 1, past seat 6
    assert t.owes(6) == (20, 0)
    t = session("T(3,dead); sit 3; sit 2; deal 2; sit 1; away 1")
    assert t.owes(1) == (20, 0)
    t = session("T(4,moving); sit 2; sit 3; deal 3; sit 4; away 4; leave 3; sit 1")
    assert t.owes(4) == (0, 0)   # the next deal is a new game (MS2)


def test_M6_a_new_player_held_out_by_D2_owes_one_big_blind():
    t = session("T(3,dead); sit 2; sit 3; deal 2; leave 2; sit 2; sit 1")
    assert t.owes(2) == (20, 0)   # S2's free entry does not reach the zone


def test_MB2_a_player_due_a_made_up_small_blind_who_steps_away_misses_it():
    t = session("T(6,moving); sit 1; sit 2; sit 3; sit 4; sit 5; deal 1; leave 2")
    # hand 1: button 1, SB 2, BB 3; seat 2 leaves: seat 3 paid the BB, so he is due the SB
    t.away(3)
    assert t.owes(3) == (0, 10)   # the made-up SB he would post, dead
    t.deal()
    assert t.markers(3) == ("sb",) and t.owes(3) == (0, 10)


def test_M6_each_seat_dealt_in_posts_its_blind_plus_what_it_owed():
    events = ("sit 1; sit 2; sit 3; sit 4; deal 2; away 3; deal; sit 6 post; deal; back 3; "
              "sit 5; deal; leave 1; deal; choose 5 post; away 6; deal; back 6 wait; deal; "
              "leave 2; deal; leave 4; deal")
    for rules in ("dead", "moving", "simple"):
        t = session("T(6,%s)" % rules)
        for event in events.split("; "):
            owed = [t.owes(s) for s in range(1, 7)]
            try:
                play(t, event)
            except RuleError:  # e.g. a choice for a player the BB has reached
                assert event.startswith(("choose", "back")), (rules, event)
                continue
            if event != "deal":
                continue
            h = t.hand
            for s in range(1, 7):
                live, dead = owed[s - 1]
                if s not in h.dealt:
                    want = (0, 0)
                elif s == h.bb:
                    want = (20, 0)  # M4
                else:
                    want = (live + (10 if s == h.sb else 0), dead)
                assert h.posts.get(s, (0, 0)) == want, (rules, h.n, s, owed, h.posts)
        assert t.hands == 9, (rules, t.hands)


# ---- E2, E4 ----------------------------------------------------------------------------------

def test_E2_choosing_the_choice_already_made_is_refused_and_changes_nothing():
    t = session("T(4,dead); sit 1; sit 2; deal 1; sit 3 post; sit 4")
    before = json.dumps(t.to_dict())
    assert refused(t.choose, 3, "post") == "seat 3 already chose to post"
    assert refused(t.choose, 4, "wait") == "seat 4 already chose to wait"
    assert json.dumps(t.to_dict()) == before
    t.choose(4, "post")
    t.undo()
    assert json.dumps(t.to_dict()) == before


def test_E4_a_restored_table_deals_the_same_and_undoes_nothing_before_the_restore():
    t = session("T(6,moving); sit 1; sit 2; sit 3; deal 1; leave 2; sit 5")
    copy = Table.from_dict(json.loads(json.dumps(t.to_dict())))
    assert t.can_undo() and not copy.can_undo()
    assert refused(copy.undo) == "nothing to undo"
    assert [copy.owes(s) for s in range(1, 7)] == [t.owes(s) for s in range(1, 7)]
    h, h2 = t.deal(), copy.deal()
    assert (h.button, h.sb, h.bb, h.dealt, h.posts) == (h2.button, h2.sb, h2.bb, h2.dealt,
                                                        h2.posts)
    copy.undo()  # back to the restore, and no further
    assert not copy.can_undo() and copy.hands == 1


if __name__ == "__main__":
    two_runtimes.run_all(globals())
