"""Every worked example of RULES.md and seed 000, one test each, named by rule id.

Runs on CPython (pytest) and on MicroPython (tests/device/test_micropython.py compares
outputs).
Seed 000's five-seat cases are modelled on nine seats: Alice..Ellen on seats 1..5, Frank
and Gina on 6 and 7, the first button on Gina's seat 7 (Alice SB, Bob BB), so Carol
(seat 3) is due the big blind, as in the seed.
"""
import two_runtimes
from rules_scenario import describe, hand_is, refused, seed000, table

ALICE, BOB, CAROL, DAVID, ELLEN, FRANK, GINA = 1, 2, 3, 4, 5, 6, 7


# ---- S: starting a game --------------------------------------------------------------

def test_S1_first_hand_button_from_the_draw_blinds_next_two_active():
    t = seed000()
    hand_is(t.hand, GINA, ALICE, BOB, {ALICE: (10, 0), BOB: (20, 0)}, first=CAROL,
            dealt=(1, 2, 3, 4, 5, 6, 7))
    assert t.hand.n == 1 and t.hands == 1


def test_S1_players_seated_before_the_first_hand_are_active():
    t = table(9, ())
    t.sit(2)
    t.sit(5, post=True)
    assert t.status(2) == "active" and t.status(5) == "active"
    assert t.owes(2) == (0, 0) and t.choice(2) is None


def test_S1_first_hand_blinds_skip_empty_and_away_seats():
    t = table(9, (2, 4, 5, 8))
    t.away(4)
    h = t.deal(button=8)
    hand_is(h, 8, 2, 5, {2: (10, 0), 5: (20, 0)}, first=8, dealt=(2, 5, 8))


def test_S1_first_hand_with_two_players_button_posts_the_small_blind():
    t = table(9, (3, 7), button=7)
    hand_is(t.hand, 7, 7, 3, {7: (10, 0), 3: (20, 0)}, first=7, dealt=(3, 7))


def test_S1_first_button_must_be_a_player_who_drew():
    t = table(9, (3, 7))
    assert "seat 5" in refused(t.deal, button=5)
    assert "first hand needs" in refused(t.deal)
    t.deal(button=3)
    assert "seat 3" in refused(t.deal, button=3)


def test_S2_new_player_in_the_first_orbit_on_an_unpassed_seat_plays_free():
    # first hand: button 1, SB 2, BB 3: the blinds have passed seats 1..3 only
    t = table(9, (1, 2, 3, 4), button=1)
    t.sit(7)  # chose to wait for the big blind
    assert t.status(7) == "waiting" and t.choice(7) == "wait"
    assert t.owes(7) == (0, 0)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)}, dealt=(3, 4, 7, 1, 2))
    assert 7 not in h.posts and t.status(7) == "active"


def test_S2_seats_the_first_hand_blinds_passed_are_not_free():
    # first hand button 7, SB 1, BB 2: seats 7, 8, 9, 1, 2 count as passed
    t = seed000()
    t.sit(8)
    assert t.owes(8) == (20, 0)
    h = t.deal()
    assert 8 not in h.dealt  # waits for the big blind
    t.sit(9, post=True)
    h = t.deal()
    assert h.posts[9] == (20, 0)


def test_S2_seat_passed_by_a_blind_after_the_first_hand_is_not_free():
    t = table(9, (1, 2, 3, 4), button=1)  # passed: 1..3
    h = t.deal()  # BB 3 -> 4: passes seat 4 only
    assert h.bb == 4
    h = t.deal()  # BB 4 -> 1: passes 5..9 and 1
    assert h.bb == 1
    t.sit(6)
    assert t.owes(6) == (20, 0)
    assert 6 not in t.deal().dealt


def test_S2_after_the_first_orbit_every_new_player_owes_a_big_blind():
    t = table(12, (1, 2, 3), button=1)
    for _ in range(12):
        t.deal()
    for s in range(4, 13):
        t.sit(s)
        assert t.owes(s) == (20, 0), s


def test_S2_the_first_hands_button_seat_was_not_passed():
    # Four seats: the first hand button 1, SB 2, BB 3. The player on seat 1 leaves and a
    # new one sits there: no blind has passed seat 1 yet, so he plays free.
    t = table(4, (1, 2, 4, 3), button=1)
    t.leave(1)
    t.sit(1)
    assert t.owes(1) == (0, 0)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)}, first=1, dealt=(3, 4, 1, 2))
    assert t.status(1) == "active"


def test_S2_the_first_heads_up_hands_button_seat_was_not_passed():
    t = table(6, (2, 5), button=2)  # heads-up: button 2 posts the SB, BB 5
    t.sit(1)
    t.sit(4)
    assert t.owes(4) == (20, 0)  # the BB passed seats 3, 4 and 5
    assert t.owes(1) == (20, 0)  # and the next BB lands on seat 1 (M6)
    t.leave(2)
    t.sit(2)
    assert t.owes(2) == (20, 0)  # no blind passes seat 2, but D2 holds him out (M6)
    h = t.deal()  # the new player on the button waits (D2): heads-up
    hand_is(h, 5, 5, 1, {5: (10, 0), 1: (20, 0)}, dealt=(1, 5))
    assert t.status(2) == "waiting" and t.owes(2) == (20, 0)  # the next BB reaches him


# ---- DB: dead button (seed 000) ---------------------------------------------------------

def test_DB4_seed000_case1_alice_eliminated():
    t = seed000()
    t.leave(ALICE)
    h = t.deal()  # Carol BB, Bob SB, button on Alice's vacant seat
    hand_is(h, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0)}, first=DAVID,
            dealt=(2, 3, 4, 5, 6, 7))
    h = t.deal()
    hand_is(h, BOB, CAROL, DAVID, {CAROL: (10, 0), DAVID: (20, 0)}, first=ELLEN)


def test_DB4_seed000_case2_bob_eliminated_then_next_hand():
    t = seed000()
    t.leave(BOB)
    h = t.deal()  # Carol BB, no small blind, Alice has the button
    hand_is(h, ALICE, None, CAROL, {CAROL: (20, 0)}, first=DAVID, dealt=(3, 4, 5, 6, 7, 1))
    h = t.deal()  # David BB, Carol SB, button on Bob's vacant seat
    hand_is(h, BOB, CAROL, DAVID, {CAROL: (10, 0), DAVID: (20, 0)}, first=ELLEN)


def test_DB4_seed000_case3_alice_and_bob_eliminated_then_next_hand():
    t = seed000()
    t.leave(ALICE)
    t.leave(BOB)
    h = t.deal()  # Carol BB, no SB, button on Alice's vacant seat
    hand_is(h, ALICE, None, CAROL, {CAROL: (20, 0)}, first=DAVID)
    h = t.deal()  # David BB, Carol SB, button on Bob's vacant seat
    hand_is(h, BOB, CAROL, DAVID, {CAROL: (10, 0), DAVID: (20, 0)})


def test_DB4_seed000_case4_alice_bob_carol_eliminated_then_next_hand():
    t = seed000()
    for p in (ALICE, BOB, CAROL):
        t.leave(p)
    h = t.deal()  # David BB, no SB, the button skips to Bob's vacant seat
    hand_is(h, BOB, None, DAVID, {DAVID: (20, 0)}, first=ELLEN, dealt=(4, 5, 6, 7))
    h = t.deal()  # Ellen BB, David SB, button on Carol's vacant seat
    hand_is(h, CAROL, DAVID, ELLEN, {DAVID: (10, 0), ELLEN: (20, 0)}, first=FRANK)


def test_DB4_seed000_no_one_eliminated_carol_posts_the_big_blind():
    t = seed000()
    h = t.deal()
    hand_is(h, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0)}, first=DAVID)


def test_DB1_big_blind_skips_away_players_who_miss_it():
    t = seed000()
    t.away(DAVID)
    h = t.deal()
    hand_is(h, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0)}, first=ELLEN)
    assert t.owes(DAVID) == (0, 0)  # no blind has passed him yet
    h = t.deal()  # the BB skips David's seat: he misses it
    hand_is(h, BOB, CAROL, ELLEN, {CAROL: (10, 0), ELLEN: (20, 0)})
    assert t.owes(DAVID) == (20, 0)


def test_DB1_waiting_player_gets_the_big_blind_and_owes_nothing_more():
    t = seed000()
    t.leave(CAROL)
    t.sit(CAROL, post=True)  # a new player on the seat due the big blind
    h = t.deal()
    hand_is(h, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0)})
    assert t.status(CAROL) == "active" and t.owes(CAROL) == (0, 0)


def test_DB2_previous_big_blind_posts_the_small_blind():
    t = seed000()
    for _ in range(6):
        prev = t.hand
        h = t.deal()
        assert h.sb == prev.bb and h.posts[h.sb] == (10, 0)


def test_DB2_away_player_on_the_small_blind_position_misses_it():
    t = seed000()
    t.deal()  # Carol BB
    t.away(CAROL)
    h = t.deal()  # David BB; the SB position is Carol's seat: no small blind
    hand_is(h, BOB, None, DAVID, {DAVID: (20, 0)})
    assert t.owes(CAROL) == (0, 10)


def test_DB3_dead_button_gives_the_cutoff_last_action_on_consecutive_hands():
    t = seed000()
    t.leave(BOB)
    h = t.deal()
    assert h.button == ALICE and h.dealt[-1] == ALICE
    h = t.deal()
    assert h.button == BOB and t.status(BOB) == "empty"
    assert h.dealt[-1] == ALICE  # Alice acts last again


# ---- MB: moving button, SM: simplified ---------------------------------------------------

def test_MB1_button_and_blinds_move_to_the_next_active_players():
    t = table(9, (1, 3, 5, 7), button=1, rules="moving")
    hand_is(t.hand, 1, 3, 5, {3: (10, 0), 5: (20, 0)}, first=7)
    h = t.deal()
    hand_is(h, 3, 5, 7, {5: (10, 0), 7: (20, 0)}, first=1)


def test_MB1_away_player_is_passed_by_the_small_blind():
    t = table(9, (1, 3, 5, 7), button=1, rules="moving")
    t.away(5)  # he just paid the big blind
    h = t.deal()
    hand_is(h, 3, 7, 1, {7: (10, 0), 1: (20, 0)}, first=3, dealt=(7, 1, 3))
    assert t.owes(5) == (0, 10)


def test_MB2_worked_example_big_blind_leaves():
    # Seats A B C D E; last hand button A, SB B, BB C; C leaves.
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="moving")
    hand_is(t.hand, 1, 2, 3, {2: (10, 0), 3: (20, 0)})
    t.leave(3)
    h = t.deal()  # button B, SB position D, BB E; D was due the BB: D posts a BB
    hand_is(h, 2, None, 5, {4: (20, 0), 5: (20, 0)}, first=1, dealt=(4, 5, 1, 2))
    assert t.owes(4) == (0, 10)  # ... and owes the SB
    h = t.deal()  # button D, SB E, BB A; D posts a dead SB on the button
    hand_is(h, 4, 5, 1, {4: (0, 10), 5: (10, 0), 1: (20, 0)}, first=2)
    assert t.owes(4) == (0, 0)
    h = t.deal()
    hand_is(h, 5, 1, 2, {1: (10, 0), 2: (20, 0)})


def test_MB2_small_blind_leaves_big_blind_pays_a_dead_small_on_the_button():
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="moving")
    t.leave(2)
    # button C (next active after A); D was due the BB, C (last BB) was due the SB
    h = t.deal()
    hand_is(h, 3, None, 5, {3: (0, 10), 4: (20, 0), 5: (20, 0)}, first=1)
    h = t.deal()
    hand_is(h, 4, 5, 1, {4: (0, 10), 5: (10, 0), 1: (20, 0)})


def test_MB2_button_leaves_nothing_to_make_up():
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="moving")
    t.leave(1)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)}, first=5)


def test_MB2_away_player_is_not_made_up_he_misses_blinds():
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="moving")
    t.away(3)
    h = t.deal()  # nobody left: no make-up; C misses the SB (M)
    hand_is(h, 2, 4, 5, {4: (10, 0), 5: (20, 0)})
    assert t.owes(3) == (0, 10)


def test_MB2_never_right_after_a_heads_up_hand():
    t = table(9, (1, 4, 7), button=1, rules="moving")
    t.away(7)  # he has just paid the big blind
    h = t.deal()
    hand_is(h, 4, 4, 1, {4: (10, 0), 1: (20, 0)}, first=4)
    assert t.owes(7) == (0, 0)  # heads-up the SB stays on seat 4: no blind passed him
    t.back(7)
    t.sit(5, post=True)
    t.sit(6, post=True)
    t.leave(1)  # dealt into the last hand, but that hand was heads-up: 4 is due no BB
    h = t.deal()
    hand_is(h, 7, 4, 5, {4: (10, 0), 5: (20, 0), 6: (20, 0)}, dealt=(4, 5, 6, 7))


def test_MB2_nothing_made_up_when_no_blind_skipped_anybody():
    # Nine seats: first hand button 9, SB 2, BB 3. The player on seat 4 leaves and a new
    # one sits there and takes the BB on his seat: seat 9, next, is not charged a BB
    # now; he pays his BB in turn, next hand, once.
    t = table(9, (3, 2, 4, 9), button=9, rules="moving")
    t.leave(4)
    t.sit(4)
    h = t.deal()
    hand_is(h, 2, 3, 4, {3: (10, 0), 4: (20, 0)}, first=9, dealt=(3, 4, 9, 2))
    h = t.deal()
    hand_is(h, 3, 4, 9, {4: (10, 0), 9: (20, 0)}, first=2)
    h = t.deal()
    hand_is(h, 4, 9, 2, {9: (10, 0), 2: (20, 0)}, first=3)


def test_MB2_player_due_the_big_blind_was_dealt_into_the_last_hand():
    # Seat 5 sat out hand 2 (no blind passed him) and is back; the BB of hand 2, seat 4,
    # leaves. Seat 6 is the player due the BB, and gets it: nothing is made up, seat 5
    # takes the SB of his position.
    t = table(6, (1, 2, 3, 4, 5, 6), button=1, rules="moving")  # SB 2, BB 3
    t.away(5)
    hand_is(t.deal(), 2, 3, 4, {3: (10, 0), 4: (20, 0)}, dealt=(3, 4, 6, 1, 2))
    t.back(5)
    assert t.status(5) == "active"
    t.leave(4)
    h = t.deal()
    hand_is(h, 3, 5, 6, {5: (10, 0), 6: (20, 0)}, first=1, dealt=(5, 6, 1, 2, 3))


def test_SM1_simplified_makes_nothing_up():
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="simple")
    t.leave(3)
    h = t.deal()
    hand_is(h, 2, 4, 5, {4: (10, 0), 5: (20, 0)}, first=1)
    assert t.owes(4) == (0, 0)
    h = t.deal()
    hand_is(h, 4, 5, 1, {5: (10, 0), 1: (20, 0)})


def test_SM1_away_players_still_miss_blinds():
    t = table(9, (1, 3, 5, 7), button=1, rules="simple")
    t.away(5)
    t.deal()
    assert t.owes(5) == (0, 10)
    t.deal()  # BB 1 -> 3: does not pass 5; SB 7 -> 1
    h = t.deal()  # BB 3 -> 7 passes 5: the big blind is marked too (M2)
    assert h.bb == 7 and t.owes(5) == (20, 10)


# ---- H: heads-up -----------------------------------------------------------------------

def test_H1_heads_up_button_posts_small_blind_and_acts_first():
    for rules in ("dead", "moving", "simple"):
        t = table(9, (2, 6), button=6, rules=rules)
        for i in range(4):
            h = t.hand
            other = 2 if h.button == 6 else 6
            hand_is(h, h.button, h.button, other, {h.button: (10, 0), other: (20, 0)},
                    first=h.button)
            assert h.button == (6 if i % 2 == 0 else 2), rules
            t.deal()


def test_H2_seed000_three_handed_alice_busts():
    for rules in ("dead", "moving", "simple"):
        t = table(9, (ALICE, BOB, CAROL), button=ALICE, rules=rules)
        hand_is(t.hand, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0)})
        t.leave(ALICE)
        h = t.deal()  # Bob BB; the button skips past Bob to Carol
        hand_is(h, CAROL, CAROL, BOB, {CAROL: (10, 0), BOB: (20, 0)}, first=CAROL)


def test_H2_seed000_three_handed_carol_busts():
    for rules in ("dead", "moving", "simple"):
        t = table(9, (ALICE, BOB, CAROL), button=ALICE, rules=rules)
        t.leave(CAROL)
        h = t.deal()  # Alice BB; Bob the button, paying the SB a second hand running
        hand_is(h, BOB, BOB, ALICE, {BOB: (10, 0), ALICE: (20, 0)}, first=BOB)


def test_H3_heads_up_writes_off_made_up_blinds():
    t = table(5, (1, 2, 3, 4, 5), button=1, rules="moving")
    t.leave(3)
    t.deal()
    assert t.owes(4) == (0, 10)  # D carries a small blind
    t.leave(1)
    t.leave(2)
    h = t.deal()  # D and E heads-up: the BB moves on from E to D, nothing made up
    hand_is(h, 5, 5, 4, {5: (10, 0), 4: (20, 0)}, first=5)
    assert t.owes(4) == (0, 0)


def test_H3_heads_up_keeps_missed_blinds_of_away_players():
    t = table(9, (1, 2, 3, 4), button=1, rules="moving")
    t.away(4)
    t.deal()  # BB 3 -> 1 passes seat 4
    assert t.owes(4) == (20, 0)
    t.leave(3)
    h = t.deal()
    assert len(h.dealt) == 2
    assert t.owes(4)[0] == 20


# ---- D: who is dealt in --------------------------------------------------------------------

def test_D1_active_players_and_the_big_blind_are_dealt_in():
    t = seed000()
    t.sit(8)  # waits for the big blind
    h = t.deal()
    assert h.dealt == (2, 3, 4, 5, 6, 7, 1)


def test_D2_new_player_posting_is_dealt_in_next_hand_with_a_live_big_blind():
    t = seed000()
    t.sit(8, post=True)
    h = t.deal()
    hand_is(h, ALICE, BOB, CAROL, {BOB: (10, 0), CAROL: (20, 0), 8: (20, 0)}, first=DAVID,
            dealt=(2, 3, 4, 5, 6, 7, 8, 1))


def test_D2_poster_on_the_button_waits_until_the_button_passes():
    t = seed000()
    t.leave(BOB)
    t.deal()  # button Alice, no SB, BB Carol
    t.sit(BOB, post=True)  # the next button is on this seat
    h = t.deal()
    hand_is(h, BOB, CAROL, DAVID, {CAROL: (10, 0), DAVID: (20, 0)})
    assert BOB not in h.dealt and t.status(BOB) == "waiting" and t.choice(BOB) == "post"
    h = t.deal()  # the button has passed his seat: he posts and plays
    hand_is(h, CAROL, DAVID, ELLEN, {DAVID: (10, 0), ELLEN: (20, 0), BOB: (20, 0)})
    assert BOB in h.dealt


def test_D2_returning_player_on_the_button_waits_until_it_passes():
    # seed 003: who missed the small blind cannot return until after the button has passed
    t = seed000()
    t.away(BOB)  # he just paid the big blind
    h = t.deal()  # the SB position is Bob's seat: no small blind, Bob misses it
    hand_is(h, ALICE, None, CAROL, {CAROL: (20, 0)})
    assert t.owes(BOB) == (0, 10)
    t.back(BOB)
    h = t.deal()  # the button is on Bob's seat: he waits, his choice stands
    hand_is(h, BOB, CAROL, DAVID, {CAROL: (10, 0), DAVID: (20, 0)})
    assert t.status(BOB) == "waiting" and t.choice(BOB) == "post"
    h = t.deal()
    hand_is(h, CAROL, DAVID, ELLEN, {DAVID: (10, 0), ELLEN: (20, 0), BOB: (0, 10)})


def test_D3_waiting_player_is_dealt_in_when_the_big_blind_reaches_him():
    t = seed000()
    t.sit(8)
    for bb in (3, 4, 5, 6, 7):
        h = t.deal()
        assert h.bb == bb and 8 not in h.dealt
    h = t.deal()
    assert h.bb == 8 and h.posts[8] == (20, 0) and 8 in h.dealt
    assert t.status(8) == "active"


def test_D3_waiting_player_changes_his_mind_and_posts():
    t = seed000()
    t.sit(8)
    t.deal()
    t.choose(8, "post")
    h = t.deal()
    assert h.posts[8] == (20, 0)


def test_D4_away_players_are_not_dealt_in():
    t = seed000()
    t.away(FRANK)
    h = t.deal()
    assert FRANK not in h.dealt and FRANK not in h.posts


def test_D5_last_two_present_players_just_play():
    t = table(6, (1, 2, 3), button=1)
    t.deal()  # BB 3 -> 1: every seat has been passed
    t.sit(5)  # waits for the big blind
    t.leave(3)
    t.leave(1)
    assert t.owes(5) == (0, 0)  # M6: the next deal is a new game
    t.leave(2)
    assert t.owes(5) == (20, 0)  # no hand can be dealt: S2 so far (every seat passed)
    t.undo()
    h = t.deal()  # Bob alone could be dealt in: both play, owing nothing
    hand_is(h, 5, 5, 2, {5: (10, 0), 2: (20, 0)}, first=5)
    assert t.status(5) == "active" and t.owes(5) == (0, 0)


def test_D5_heads_up_newcomer_owes_nothing_and_posts_only_the_small_blind():
    # simple, four seats: seats 4 and 3 play heads-up; a newcomer on seat 1 waits for the
    # BB, seat 3 steps away. Only seat 4 could be dealt in (H2 gives him the BB): both
    # play, and the newcomer on the button posts only the SB the heads-up button posts.
    t = table(4, (4, 3), button=4, rules="simple")
    t.sit(1)
    t.away(3)
    h = t.deal()
    hand_is(h, 1, 1, 4, {1: (10, 0), 4: (20, 0)}, first=1, dealt=(4, 1))
    assert t.status(1) == "active" and t.owes(1) == (0, 0)


def test_D5_everybody_present_plays_the_button_posts_nothing():
    # moving, seven seats: heads-up 6 and 1, two newcomers wait for the BB on 5 and 7,
    # seat 1 leaves. Only seat 6 could be dealt in: all three play, each posting only
    # the blind of his position.
    t = table(7, (6, 1), button=6, rules="moving")
    t.sit(5)
    t.sit(7)
    t.leave(1)
    h = t.deal()
    hand_is(h, 7, 5, 6, {5: (10, 0), 6: (20, 0)}, first=7, dealt=(5, 6, 7))
    for s in (5, 6, 7):
        assert t.status(s) == "active" and t.owes(s) == (0, 0)


def test_D5_fewer_than_two_present_players_cannot_deal():
    t = table(6, (1, 2, 3), button=1)
    t.leave(1)
    t.away(2)
    msg = refused(t.deal)
    assert "cannot deal" in msg and "1 player" in msg


# ---- M: missed blinds -----------------------------------------------------------------------

def test_M1_away_player_misses_the_big_then_the_small_blind():
    t = seed000()
    t.away(DAVID)
    t.deal()  # BB Carol
    t.deal()  # BB Ellen: passes David
    assert t.owes(DAVID) == (20, 0)
    h = t.deal()  # SB Ellen: passes David
    assert h.sb == ELLEN and t.owes(DAVID) == (20, 10)


def test_M1_waiting_player_held_out_misses_the_blinds_that_pass_him():
    # dead, three seats: seat 3 steps away before the first hand and misses its BB. Back,
    # he waits on the button seat (D2) and the SB passes him: he owes both blinds, as a
    # room marks them; the BB then reaches him and clears them (M4).
    t = table(3, (1, 3, 2))
    t.away(3)
    h = t.deal(button=2)
    hand_is(h, 2, 2, 1, {2: (10, 0), 1: (20, 0)})
    assert t.owes(3) == (20, 0)
    t.back(3)
    h = t.deal()
    assert 3 not in h.dealt and t.status(3) == "waiting"
    assert t.owes(3) == (20, 10)
    h = t.deal()
    hand_is(h, 1, 2, 3, {2: (10, 0), 3: (20, 0)})
    assert t.owes(3) == (0, 0)


def test_M1_returning_player_waiting_for_the_button_misses_the_small_blind():
    # Seven seats, seat 5 away: the BB passes him. Back, he is between the button and the
    # BB and waits (D2) while the SB passes him; then he posts both, in every rule set.
    for rules in ("dead", "moving", "simple"):
        t = table(7, (1, 2, 3, 4, 5, 6, 7), button=1, rules=rules)
        t.away(5)
        t.deal()
        t.deal()  # BB 4 -> 6 passes seat 5
        assert t.owes(5) == (20, 0)
        t.back(5)
        h = t.deal()
        hand_is(h, 4, 6, 7, {6: (10, 0), 7: (20, 0)}, dealt=(6, 7, 1, 2, 3, 4))
        assert t.owes(5) == (20, 10) and t.choice(5) == "post", rules
        h = t.deal()
        hand_is(h, 6, 7, 1, {7: (10, 0), 1: (20, 0), 5: (20, 10)})


def test_M2_markers_are_never_taken_away_by_more_orbits():
    t = seed000()
    t.away(DAVID)
    seen = []
    for _ in range(9):
        t.deal()
        seen.append(t.owes(DAVID))
    # BB: 3, 5 (passes David), 6 (the SB passes him), 7, 1, 2, 3, 5 (passes again), 6
    assert seen == [(0, 0), (20, 0), (20, 10), (20, 10), (20, 10), (20, 10), (20, 10),
                    (20, 10), (20, 10)], seen


def test_M2_debt_of_a_player_away_never_shrinks_in_any_rule_set():
    # Five seats, 10/20, button 1, seat 4 away: the BB passes him on the first deal, the
    # SB on the second, and both markers stay for as long as he is away.
    for rules in ("dead", "moving", "simple"):
        t = table(5, (1, 2, 3, 4, 5), button=1, rules=rules)
        t.away(4)
        seen = []
        for _ in range(6):
            t.deal()
            seen.append(t.owes(4))
        assert seen == [(20, 0)] + [(20, 10)] * 5, (rules, seen)


def test_M2_coming_back_after_six_hands_posts_both_missed_blinds():
    # Back after hand 6, 7 or 8: he posts the same 20 live + 10 dead each time (after
    # hand 6 he is between the button and the SB and comes in a hand later, D2).
    for hands in (6, 7, 8):
        t = table(5, (1, 2, 3, 4, 5), button=1)
        t.away(4)
        while t.hands < hands:
            t.deal()
        assert t.owes(4) == (20, 10)
        t.back(4)
        h = t.deal()
        if hands == 6:
            assert 4 not in h.dealt and t.owes(4) == (20, 10), describe(h)
            h = t.deal()
        assert h.bb != 4 and h.posts[4] == (20, 10), (hands, describe(h))
        assert t.owes(4) == (0, 0)


def test_M3_returning_player_who_owes_nothing_is_active_at_once():
    t = seed000()
    t.away(DAVID)
    t.back(DAVID)
    assert t.status(DAVID) == "active"
    t.away(DAVID)
    t.deal()
    t.back(DAVID, wait=True)
    assert t.status(DAVID) == "active"


def test_M3_seed000_posting_both_missed_blinds_big_live_small_dead():
    t = seed000()
    t.away(DAVID)
    t.deal()
    t.deal()
    t.deal()
    assert t.owes(DAVID) == (20, 10)
    t.back(DAVID)
    assert t.status(DAVID) == "waiting" and t.choice(DAVID) == "post"
    h = t.deal()  # button 5, SB 6, BB 7: David is not between them
    hand_is(h, ELLEN, FRANK, GINA, {FRANK: (10, 0), GINA: (20, 0), DAVID: (20, 10)})
    assert t.status(DAVID) == "active" and t.owes(DAVID) == (0, 0)


def test_M3_waiting_for_the_big_blind_clears_the_debt():
    t = seed000()
    t.away(DAVID)
    for _ in range(3):
        t.deal()
    t.back(DAVID, wait=True)
    for bb in (7, 1, 2, 3):
        h = t.deal()
        assert h.bb == bb and DAVID not in h.dealt
        assert t.owes(DAVID) == (20, 10)
    h = t.deal()
    assert h.bb == DAVID and h.posts[DAVID] == (20, 0)
    assert t.owes(DAVID) == (0, 0)


def test_M3a_new_player_stepping_away_still_owes_only_one_big_blind():
    t = seed000()
    t.sit(8)
    t.away(8)
    for _ in range(9):  # the blinds pass seat 8 while he is away
        t.deal()
    t.back(8)
    assert t.status(8) == "waiting" and t.owes(8) == (20, 0)


def test_M4_seed000_no_post_for_a_player_in_the_big_blind():
    t = seed000()
    t.away(DAVID)
    for _ in range(7):  # BB: 3, 5, 6, 7, 1, 2, 3
        t.deal()
    assert t.hand.bb == CAROL and t.owes(DAVID) == (20, 10)
    t.back(DAVID)  # chooses to post, but the big blind reaches him first
    h = t.deal()
    assert h.bb == DAVID and h.posts[DAVID] == (20, 0)
    assert t.owes(DAVID) == (0, 0)


def test_M5_leaving_takes_the_debts_a_new_player_starts_clean():
    t = seed000()
    t.away(DAVID)
    for _ in range(3):
        t.deal()
    assert t.owes(DAVID) == (20, 10)
    t.leave(DAVID)
    assert t.status(DAVID) == "empty" and t.owes(DAVID) == (0, 0)
    t.sit(DAVID)
    assert t.owes(DAVID) == (20, 0)


def test_M5_bust_and_rebuy_keeps_the_seat_and_owes_what_passed():
    t = seed000()
    t.deal()  # BB Carol
    t.deal()  # BB David
    t.away(ELLEN)  # rebuying
    t.deal()  # BB Frank: passes Ellen
    t.back(ELLEN)
    assert t.status(ELLEN) == "waiting" and t.owes(ELLEN) == (20, 0)


if __name__ == "__main__":
    two_runtimes.run_all(globals())
