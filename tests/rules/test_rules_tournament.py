"""Tournament tables and levels (RULES.md T1..T5): worked examples by rule id, refusals,
undo and the saved form, and a seeded random walk with every invariant checked; on CPython
and MicroPython alike."""
import json

import two_runtimes
from dealerbutton.rules import RuleError, Table
from dealerbutton.rules.savedform import FORMAT
from dealerbutton.rules.undo import DEPTH
from rules_scenario import (
    EVENTS,
    LEVELS,
    check_table,
    describe,
    hand_key,
    refused,
    refuses_every_table_data,
    state_key,
    statuses,
    step,
    table,
)
from test_rules_events import Lcg


def hand_is(h, button, sb, bb, dealt, posts):
    got = (h.button, h.sb, h.bb, h.dealt, h.posts)
    want = (button, sb, bb, tuple(dealt), posts)
    assert got == want, (describe(h), want)


def tournament(seats=9, players=(1, 2, 3, 4, 5, 6), button=6, rules="dead", stakes=(100, 200)):
    return table(seats, players, button=button, rules=rules, stakes=stakes, tournament=True)


def test_T1_away_players_are_blinded_off_and_owe_nothing():
    t = tournament()
    t.away(3)
    t.away(5)
    hand_is(t.deal(), 1, 2, 3, (2, 3, 4, 5, 6, 1), {2: (100, 0), 3: (200, 0)})
    assert t.status(3) == "away" and t.owes(3) == (0, 0) and t.choice(3) is None
    hand_is(t.deal(), 2, 3, 4, (3, 4, 5, 6, 1, 2), {3: (100, 0), 4: (200, 0)})
    hand_is(t.deal(), 3, 4, 5, (4, 5, 6, 1, 2, 3), {4: (100, 0), 5: (200, 0)})
    for _ in range(6):  # a whole orbit and more away: still nothing owed
        h = t.deal()
        assert 3 in h.dealt and 5 in h.dealt, describe(h)
    assert t.owes(3) == t.owes(5) == (0, 0)
    t.back(3)
    assert t.status(3) == "active" and t.owes(3) == (0, 0)


def test_T1_the_same_table_as_a_cash_game_skips_the_away_player():
    cash = table(9, (1, 2, 3, 4, 5, 6), button=6, stakes=(100, 200))
    cash.away(3)
    assert cash.deal().bb == 4 and cash.owes(3) == (200, 0)


def test_T1_post_and_wait_choices_are_refused_and_change_nothing():
    t = tournament()
    t.away(2)
    t.deal()
    t.sit(8)
    key, hk, can = state_key(t), hand_key(t.hand), t.can_undo()
    want = "a tournament has no post or wait, all are dealt in"
    assert refused(t.sit, 7, post=True) == "seat 7: " + want
    assert refused(t.back, 2, wait=True) == "seat 2: " + want
    assert refused(t.choose, 8, "post") == "seat 8: " + want
    assert refused(t.choose, 1, "wait") == "seat 1: " + want
    assert "seat 3 is taken" in refused(t.sit, 3)
    assert "seat 10 does not exist" in refused(t.sit, 10, post=True)
    assert state_key(t) == key and hand_key(t.hand) == hk and t.can_undo() == can


def test_T1_first_hand_an_away_player_is_dealt_in_and_may_hold_the_button():
    t = Table(6, tournament=True)
    for s in (1, 2, 3, 4):
        t.sit(s)
    t.away(4)
    hand_is(t.deal(button=4), 4, 1, 2, (1, 2, 3, 4), {1: (10, 0), 2: (20, 0)})
    assert t.status(4) == "away"


def test_T1_under_moving_nothing_is_made_up():
    t = tournament(9, (1, 2, 3, 4, 5), button=1, rules="moving")
    t.leave(3)
    hand_is(t.deal(), 2, 4, 5, (4, 5, 1, 2), {4: (100, 0), 5: (200, 0)})
    assert t.owes(4) == (0, 0)
    hand_is(t.deal(), 4, 5, 1, (5, 1, 2, 4), {5: (100, 0), 1: (200, 0)})


def test_T2_new_player_is_dealt_in_from_the_next_hand_posting_nothing():
    t = tournament()
    t.sit(8)
    assert (t.status(8), t.owes(8), t.choice(8)) == ("active", (0, 0), None)
    hand_is(t.deal(), 1, 2, 3, (2, 3, 4, 5, 6, 8, 1), {2: (100, 0), 3: (200, 0)})


def test_T2_new_player_on_the_next_button_waits_exactly_one_hand():
    t = tournament()
    t.deal()
    t.leave(3)
    hand_is(t.deal(), 2, None, 4, (4, 5, 6, 1, 2), {4: (200, 0)})
    t.sit(3)
    hand_is(t.deal(), 3, 4, 5, (4, 5, 6, 1, 2), {4: (100, 0), 5: (200, 0)})
    assert t.status(3) == "waiting" and t.owes(3) == (0, 0) and t.choice(3) is None
    hand_is(t.deal(), 4, 5, 6, (5, 6, 1, 2, 3, 4), {5: (100, 0), 6: (200, 0)})
    assert t.status(3) == "active"


def test_T2_new_player_on_the_small_blind_position_waits_then_takes_the_button():
    t = tournament()
    t.deal()
    t.leave(3)
    t.sit(3)
    hand_is(t.deal(), 2, None, 4, (4, 5, 6, 1, 2), {4: (200, 0)})
    assert t.status(3) == "waiting"
    hand_is(t.deal(), 3, 4, 5, (4, 5, 6, 1, 2, 3), {4: (100, 0), 5: (200, 0)})


def test_T2_new_player_between_the_button_and_the_small_blind_gets_the_button_and_waits():
    # Seats 1, 3, 5 play; a newcomer on 4, between the next button (3) and SB (5), is
    # counted in: the button is his seat, and he waits one hand.
    t = tournament(9, (1, 3, 5), button=1)
    hand_is(t.hand, 1, 3, 5, (3, 5, 1), {3: (100, 0), 5: (200, 0)})
    t.sit(4)
    hand_is(t.deal(), 4, 5, 1, (5, 1, 3), {5: (100, 0), 1: (200, 0)})
    assert t.status(4) == "waiting"
    hand_is(t.deal(), 5, 1, 3, (1, 3, 4, 5), {1: (100, 0), 3: (200, 0)})
    assert t.status(4) == "active"


def test_T2_new_player_behind_the_big_blind_takes_the_dead_button_then_plays():
    t = tournament(9, (1, 2, 4, 5), button=1)  # SB 2, BB 4: the next SB is 4, BB 5 ...
    t.sit(3)  # ... and 3, counted in, is the seat before the SB: the button, held out
    hand_is(t.deal(), 3, 4, 5, (4, 5, 1, 2), {4: (100, 0), 5: (200, 0)})
    assert t.status(3) == "waiting"
    hand_is(t.deal(), 4, 5, 1, (5, 1, 2, 3, 4), {5: (100, 0), 1: (200, 0)})


def test_T2_new_player_on_the_big_blind_is_dealt_in_and_posts_it():
    t = tournament(9, (1, 2, 3), button=1)
    t.sit(4)  # right after the BB: the next BB is his, and he posts it
    hand_is(t.deal(), 2, 3, 4, (3, 4, 1, 2), {3: (100, 0), 4: (200, 0)})


def test_T2_new_player_away_before_his_first_hand_is_held_out_the_same_way():
    t = tournament()
    t.deal()
    t.leave(3)
    t.deal()
    t.sit(3)
    t.away(3)
    h = t.deal()
    assert h.button == 3 and 3 not in h.dealt and t.status(3) == "away"
    assert 3 in t.deal().dealt  # then blinded off like anybody away


def test_T2_holding_a_newcomer_out_never_leaves_fewer_than_two_players():
    t = tournament(4, (1, 2), button=1)  # heads-up: 1 button and SB, 2 BB
    t.leave(1)
    t.sit(1)  # the next button; only he and seat 2 are left: D5, he plays
    h = t.deal()
    assert sorted(h.dealt) == [1, 2] and h.bb == 1 and h.sb == h.button == 2, describe(h)


def test_T3_busting_leaves_a_dead_small_blind_then_a_dead_button():
    t = tournament()
    t.leave(2)
    hand_is(t.deal(), 1, None, 3, (3, 4, 5, 6, 1), {3: (200, 0)})
    hand_is(t.deal(), 2, 3, 4, (3, 4, 5, 6, 1), {3: (100, 0), 4: (200, 0)})


def test_T3_down_to_heads_up_by_busts_the_big_blind_keeps_moving():
    t = tournament(9, (1, 2, 3), button=1)
    t.leave(1)
    hand_is(t.deal(), 3, 3, 2, (2, 3), {2: (200, 0), 3: (100, 0)})


def test_T4_a_level_applies_from_the_next_deal_and_the_last_hand_keeps_its_own():
    t = tournament()
    before = describe(t.hand)
    assert t.set_level(200, 400, 50) is True
    assert (t.stakes, t.level) == ((200, 400), (200, 400, 50, "each"))
    assert describe(t.hand) == before and t.hand.level == (100, 200, 0, "each")
    h = t.deal()
    assert h.level == (200, 400, 50, "each")
    assert h.posts == {2: (200, 50), 3: (400, 50), 4: (0, 50), 5: (0, 50), 6: (0, 50),
                       1: (0, 50)}


def test_T4_setting_the_level_in_force_is_no_event():
    t = tournament()
    t.set_level(25, 50, 5, "bb")
    assert t.set_level(25, 50, 5, "bb") is False
    t.undo()
    assert t.level == (100, 200, 0, "each")
    assert t.set_level(100, 200) is False


def test_T4_bad_levels_are_refused_with_a_clear_message_and_change_nothing():
    t = tournament()
    t.set_level(25, 50, 5)
    key, can = state_key(t), t.can_undo()
    cases = [(0, 50), (60, 50), (25.0, 50), (True, 50), (25, "50"), (25, 1000000001),
             (25, 50, -1), (25, 50, None), (25, 50, 5, "table"), (25, 50, 5, None)]
    for args in cases:
        msg = refused(t.set_level, *args)
        full = tuple(args) + (0, "each")[len(args) - 2:]
        assert msg == ("level %r/%r ante %r %r: blinds and ante are whole numbers up to"
                       " 1000000, 0 < sb <= bb, kind each, bb or button" % full), (args, msg)
        assert state_key(t) == key and t.can_undo() == can
    assert "level 20/10 ante 0 'each'" in refused(Table, 9, "dead", (20, 10))
    assert isinstance(RuleError("x"), ValueError)


def test_T4_cash_game_stakes_change_and_debts_are_blinds_at_the_level_in_force():
    t = table(9, (1, 2, 3, 4, 5), button=5)
    t.away(3)
    t.deal()  # the BB skips him
    assert t.owes(3) == (20, 0)
    t.set_level(50, 100)
    assert t.owes(3) == (100, 0)
    t.back(3)
    hand_is(t.deal(), 2, 4, 5, (4, 5, 1, 2), {4: (50, 0), 5: (100, 0)})  # D2, the SB passes
    assert t.owes(3) == (100, 50)
    hand_is(t.deal(), 4, 5, 1, (5, 1, 2, 3, 4), {5: (50, 0), 1: (100, 0), 3: (100, 50)})


def test_T4_a_level_is_undone_like_any_event_even_after_deals():
    t = tournament()
    t.set_level(200, 400, 50)
    t.deal()
    t.set_level(300, 600, 600, "bb")
    h = t.deal()
    assert h.posts[h.bb] == (600, 600) and h.posts[h.sb] == (300, 0) and len(h.posts) == 2
    t.undo()  # the deal
    assert t.hand.level == (200, 400, 50, "each") and t.level == (300, 600, 600, "bb")
    t.undo()  # the level
    assert t.level == (200, 400, 50, "each")
    t.undo()
    t.undo()
    assert t.level == (100, 200, 0, "each") and t.hand.level == t.level and t.hands == 1


def test_T5_antes_are_dead_each_seat_or_the_big_blind_alone():
    t = tournament(9, (1, 2, 3), button=1)
    t.set_level(100, 200, 25)
    hand_is(t.deal(), 2, 3, 1, (3, 1, 2), {3: (100, 25), 1: (200, 25), 2: (0, 25)})
    t.set_level(100, 200, 200, "bb")
    hand_is(t.deal(), 3, 1, 2, (1, 2, 3), {1: (100, 0), 2: (200, 200)})
    t.leave(3)  # heads-up (H2): the big blind still posts the table's ante
    hand_is(t.deal(), 2, 2, 1, (1, 2), {1: (200, 200), 2: (100, 0)})
    t.set_level(100, 200, 25)
    hand_is(t.deal(), 1, 1, 2, (2, 1), {2: (200, 25), 1: (100, 25)})


def test_T5_antes_in_a_cash_game_add_to_a_returning_players_post():
    t = table(9, (1, 2, 3, 4, 5, 6, 7), button=7)
    t.away(4)
    t.deal()
    t.deal()
    t.deal()
    t.set_level(10, 20, 5)
    t.back(4)
    h = t.deal()
    assert h.posts[4] == (20, 10 + 5), describe(h)


def test_E4_levels_and_the_tournament_flag_are_saved_and_round_trip():
    t = tournament(12, tuple(range(1, 13)), button=12)
    t.set_level(500, 1000, 1000, "bb")
    t.away(5)
    t.leave(2)
    t.deal()
    t.sit(2)
    t.set_level(1000, 2000, 2000, "bb")
    d = t.to_dict()
    text = json.dumps(d)
    back = json.loads(text)
    assert back == d and back["format"] == FORMAT == 4 and back["tournament"] is True
    assert back["level"] == [1000, 2000, 2000, "bb"]
    assert back["hand_level"] == [500, 1000, 1000, "bb"]
    copy = Table.from_dict(back)
    assert copy.tournament and copy.level == t.level and state_key(copy) == state_key(t)
    assert describe(copy.hand) == describe(t.hand) and not copy.can_undo()
    for _ in range(3):
        assert describe(copy.deal()) == describe(t.deal())


def test_E4_a_format_1_table_is_read_as_a_cash_game_without_antes():
    d = {"v": 1, "n": 5, "r": "dead", "k": [10, 20], "h": 1, "f": [1, 1, 1, 2, 0],
         "p": [1, 2, 2, 3, 14, 0, 14, 0], "q": [36, 56]}
    t = Table.from_dict(d)
    assert (t.tournament, t.level, t.hand.level) == (False, (10, 20, 0, "each"),
                                                    (10, 20, 0, "each"))
    assert t.hand.posts == {2: (10, 0), 3: (20, 0)} and t.status(4) == "away"
    assert t.to_dict()["format"] == FORMAT
    assert describe(Table.from_dict(t.to_dict()).deal()) == describe(t.deal())


def test_E4_a_format_2_table_is_read_as_it_was_saved():
    # What the firmware before format 3 wrote (one-letter keys): the same table in words.
    d = {"v": 2, "n": 5, "r": "moving", "t": 1, "k": [25, 50, 5, "bb"],
         "l": [25, 50, 5, "bb"], "h": 1, "f": [1, 1, 1, 2, 0],
         "p": [1, 2, 2, 3, 14, 0, 14, 0], "q": [36, 56]}
    t = Table.from_dict(d)
    words = t.to_dict()
    assert words["format"] == FORMAT and words["tournament"] is True and words["seats"] == 5
    assert (words["button"], words["small_blind"], words["big_blind"]) == (1, 2, 3)
    assert words["dealt"] == [1, 2, 3] and words["passed"] == [1, 2, 3]
    assert describe(Table.from_dict(words).deal()) == describe(t.deal())


def test_E4_bad_levels_or_flags_in_saved_data_are_refused():
    good = tournament().to_dict()
    bad = []
    for k, v in (("tournament", 2), ("tournament", 1), ("tournament", "1"),
                 ("level", [10, 20]), ("level", [20, 10, 0, "each"]),
                 ("level", [10, 20, -1, "each"]), ("level", [10, 20, 0, "x"]),
                 ("hand_level", [10, 20, 0]), ("hand_level", [0, 20, 0, "bb"]),
                 ("hand_level", None), ("format", 2), ("format", 5), ("dealt", [0]),
                 ("dealt", [1, 99]), ("passed", "1"), ("left", [None])):
        d = dict(good)
        d[k] = v
        bad.append(d)
    for k in ("tournament", "hand_level", "format", "dealt"):
        d = dict(good)
        del d[k]
        bad.append(d)
    old = {"v": 2, "n": 5, "r": "dead", "t": 2, "k": [10, 20, 0, "each"],
           "l": [10, 20, 0, "each"], "h": 0, "f": [0] * 5, "p": [0] * 8, "q": []}
    bad.append(old)   # format 2 with a tournament flag of 2
    refuses_every_table_data(bad)


def test_E3_an_undo_record_holds_both_levels_and_every_post():
    t = tournament(12, tuple(range(1, 13)), button=12, rules="moving")
    keys = []
    for i in range(DEPTH):
        keys.append((state_key(t), hand_key(t.hand)))
        if i % 3 == 0:
            assert t.set_level(*LEVELS[(i // 3 + 1) % 3])
        else:
            t.deal()
    for key, hk in reversed(keys):
        t.undo()
        assert (state_key(t), hand_key(t.hand)) == (key, hk)


def test_random_walk_of_tournament_tables_keeps_every_invariant():
    # Seeded events on every rule set, levels among them; a digest both runtimes must agree on.
    for name in ("dead", "moving", "simple"):
        for seats in (3, 6, 10):
            t = Table(seats, name, tournament=True)
            rnd = Lcg(seats * 17 + len(name))
            accepted = 0
            for _ in range(600):
                ev = EVENTS[rnd.below(len(EVENTS))]
                if ev in ("sit", "post", "wait") and rnd.below(2):
                    ev = "deal"
                if step(t, ev, 1 + rnd.below(seats)):
                    accepted += 1
                check_table(t)
            print(name, seats, accepted, t.hands, statuses(t), t.level,
                  describe(t.hand) if t.hand else "-")


if __name__ == "__main__":
    two_runtimes.run_all(globals())
