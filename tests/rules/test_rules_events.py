"""Events, refusals, undo and saved state of the rules core (RULES.md E1..E4), plus a
seeded random walk checking every invariant; on CPython and MicroPython alike."""
import json

import two_runtimes
from dealerbutton.rules import RuleError, Table
from dealerbutton.rules.undo import DEPTH
from rules_scenario import (
    EVENTS,
    check_table,
    describe,
    hand_key,
    refused,
    refuses_every_table_data,
    seed000,
    state_key,
    statuses,
    step,
    table,
)


class Lcg:
    """The same pseudo-random numbers on both runtimes."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n


def test_E1_every_event_kind_through_the_public_api():
    t = Table(seats=6, rules="dead", stakes=(5, 10))
    assert (t.seats, t.rules, t.stakes, t.hands, t.hand) == (6, "dead", (5, 10), 0, None)
    for s in (1, 2, 3, 4):
        t.sit(s)
    h = t.deal(button=4)
    assert (h.n, h.button, h.sb, h.bb, h.first_to_act) == (1, 4, 1, 2, 3)
    assert h.dealt == (1, 2, 3, 4) and h.posts == {1: (5, 0), 2: (10, 0)}
    t.sit(5)
    assert (t.status(5), t.choice(5)) == ("waiting", "wait")
    t.choose(5, "post")
    assert t.choice(5) == "post"
    t.away(3)
    assert t.status(3) == "away" and t.choice(3) is None
    t.back(3, wait=True)
    assert t.status(3) == "active"  # nothing missed yet
    t.leave(4)
    assert t.status(4) == "empty"
    h = t.deal()
    assert h.n == 2 and t.hands == 2 and t.hand is h
    assert t.can_undo()
    t.undo()
    assert t.hands == 1 and t.hand.n == 1


def test_E2_refused_events_name_the_seat_and_change_nothing():
    t = seed000()
    t.away(4)
    t.sit(8)
    t.deal()
    key, hk, can = state_key(t), hand_key(t.hand), t.can_undo()
    cases = [
        (t.sit, (0,), {}, "seat 0 does not exist"),
        (t.sit, (10,), {}, "seat 10 does not exist"),
        (t.sit, ("3",), {}, "seat '3' does not exist"),
        (t.sit, (True,), {}, "seat True does not exist"),
        (t.sit, (3,), {}, "seat 3 is taken"),
        (t.away, (9,), {}, "seat 9 is empty: nobody to send away"),
        (t.away, (4,), {}, "seat 4 is already away"),
        (t.back, (9,), {}, "seat 9 is empty"),
        (t.back, (3,), {}, "seat 3 is active, not away"),
        (t.back, (8,), {}, "seat 8 is waiting, not away"),
        (t.choose, (3, "post"), {}, "seat 3 is active, not waiting"),
        (t.choose, (8, "fold"), {}, "seat 8: the choice is post or wait"),
        (t.choose, (8, "wait"), {}, "seat 8 already chose to wait"),
        (t.leave, (9,), {}, "seat 9 is empty: nobody to leave"),
        (t.deal, (), {"button": 3}, "seat 3: the button is placed only for the first hand"),
        (t.status, (11,), {}, "seat 11 does not exist"),
        (t.owes, (-1,), {}, "seat -1 does not exist"),
        (t.choice, (None,), {}, "seat None does not exist"),
    ]
    for fn, args, kw, want in cases:
        msg = refused(fn, *args, **kw)
        assert want in msg, (want, msg)
        assert state_key(t) == key and hand_key(t.hand) == hk and t.can_undo() == can, want
    assert isinstance(RuleError("x"), ValueError)


def test_E2_dealing_needs_two_players_and_undo_needs_history():
    t = Table(4)
    assert refused(t.undo) == "nothing to undo"
    assert "0 player" in refused(t.deal, button=1)
    t.sit(1)
    assert "1 player" in refused(t.deal, button=1)
    t.sit(2)
    t.away(2)
    assert "1 player" in refused(t.deal, button=1)
    t.sit(3)
    assert "seat 4 is empty" in refused(t.deal, button=4)
    assert t.deal(button=2).button == 3  # S1: the draw may go to a player away


def test_E2_bad_table_settings_are_refused():
    for args in ((1,), (13,), ("9",), (9, "fast"), (9, "dead", (20, 10)), (9, "dead", 10),
                 (9, "dead", (0, 10)), (9, "dead", (1.5, 3))):
        try:
            Table(*args)
        except ValueError as e:
            assert str(e)
        else:
            raise AssertionError("accepted %r" % (args,))


def test_E3_undo_restores_the_exact_state_32_deep():
    t = table(9, (1, 2, 3, 4, 5, 6), button=2, rules="moving")
    rnd = Lcg(7)
    history = []
    while len(history) < 40:
        key, hk = state_key(t), hand_key(t.hand)
        ev = EVENTS[rnd.below(len(EVENTS) - 1)]  # everything but undo
        if step(t, ev, 1 + rnd.below(9)):
            history.append((key, hk))
    for key, hk in reversed(history[-32:]):
        t.undo()
        assert state_key(t) == key and hand_key(t.hand) == hk


def test_E3_undo_restores_the_exact_state_with_the_history_compacted_now_and_then():
    # The device compacts the history when it saves (after most events, not all).
    t = table(9, (1, 2, 3, 4, 5, 6), button=2, rules="dead")
    rnd = Lcg(11)
    history = []
    while len(history) < 45:
        key, hk = state_key(t), hand_key(t.hand)
        ev = EVENTS[rnd.below(len(EVENTS) - 1)]  # everything but undo
        if step(t, ev, 1 + rnd.below(9)):
            history.append((key, hk))
            if rnd.below(3):
                t.compact_history()
    for key, hk in reversed(history[-DEPTH:]):
        t.undo()
        assert state_key(t) == key and hand_key(t.hand) == hk
    assert not t.can_undo()


def test_E3_the_history_is_as_deep_whether_compacted_or_not():
    for compact_every in (0, 1, 2, 3):
        t = table(6, (1, 2, 3), button=1)
        for i in range(60):
            t.deal()
            if compact_every and i % compact_every == 0:
                t.compact_history()
        depth = 0
        while t.can_undo():
            t.undo()
            depth += 1
            if compact_every == 2:
                t.compact_history()   # (between undos too: nothing to do, nothing lost)
        assert depth == DEPTH, (compact_every, depth)


def test_E3_undo_history_is_bounded_and_at_least_32_deep():
    t = table(6, (1, 2, 3), button=1)
    for _ in range(100):
        t.deal()
    depth = 0
    while t.can_undo():
        t.undo()
        depth += 1
    assert 32 <= depth == DEPTH
    assert t.hands == 101 - depth and t.hand.n == t.hands
    assert refused(t.undo) == "nothing to undo"


def test_E3_undo_of_a_deal_brings_back_the_previous_hand_and_debts():
    t = seed000()
    t.away(4)
    t.deal()
    t.deal()
    assert t.owes(4) == (20, 0)
    before = describe(t.hand)
    t.deal()
    assert t.owes(4) == (20, 10)
    t.undo()
    assert describe(t.hand) == before and t.owes(4) == (20, 0)
    t.undo()
    t.undo()
    t.undo()  # the away
    t.undo()  # the first deal
    assert t.hand is None and t.hands == 0 and t.status(4) == "active"


def test_E4_round_trip_deals_the_same_hands():
    for name in ("dead", "moving", "simple"):
        t = table(8, (1, 2, 4, 5, 7), button=4, rules=name)
        rnd = Lcg(11)
        for i in range(300):
            ev = EVENTS[rnd.below(len(EVENTS) - 1)]
            seat = 1 + rnd.below(8)
            if i % 25 == 0:
                copy = Table.from_dict(t.to_dict())
                assert state_key(copy) == state_key(t)
                assert hand_key(copy.hand) == hand_key(t.hand)
                for _ in range(3):  # the same future on both
                    try:
                        h = t.deal()
                    except RuleError as e:
                        assert refused(copy.deal) == str(e)
                        break
                    assert describe(copy.deal()) == describe(h)
                    assert state_key(copy) == state_key(t)
            step(t, ev, seat)


def test_E4_state_is_plain_json_data_and_small():
    t = table(12, tuple(range(1, 13)), button=12, rules="moving", stakes=(500, 1000))
    t.leave(2)
    t.deal()  # a make-up, a carried blind
    t.away(5)
    t.away(9)
    for _ in range(7):
        t.deal()
    t.back(5)
    t.sit(2, post=True)
    t.leave(11)
    d = t.to_dict()
    text = json.dumps(d)
    assert len(text) < 2048, len(text)   # (in words, well inside store.READ_LIMIT)
    back = json.loads(text)
    assert back == d
    again = Table.from_dict(back)
    assert state_key(again) == state_key(t) and statuses(again) == statuses(t)
    assert describe(again.deal()) == describe(t.deal())


def test_E4_from_dict_refuses_bad_data():
    good = seed000().to_dict()
    bad = []
    for k in good:
        d = dict(good)
        del d[k]
        bad.append(d)
    for k, v in (("format", 99), ("v", 99), ("seats", 20), ("rules", "x"), ("level", [20, 10]),
                 ("hands", -1), ("players", [1, 2]), ("players", [300] * 9),
                 ("button", 0), ("big_blind", 99), ("dealt", [1, 99]), ("dealt", 6),
                 ("travel", 99), ("posts", [1, 2]), ("posts", "x"), ("hands", "1")):
        d = dict(good)
        d[k] = v
        bad.append(d)
    bad.append(None)
    bad.append([])
    refuses_every_table_data(bad)


def test_random_walk_keeps_every_invariant():
    # Seeded events on every rule set; prints a digest so that both runtimes must agree.
    for name in ("dead", "moving", "simple"):
        for seats in (3, 6, 10):
            t = Table(seats, name)
            rnd = Lcg(seats * 31 + len(name))
            accepted = 0
            for _ in range(600):
                ev = EVENTS[rnd.below(len(EVENTS))]
                if ev == "sit" and rnd.below(2):
                    ev = "deal"  # deal more often
                if step(t, ev, 1 + rnd.below(seats)):
                    accepted += 1
                check_table(t)
            print(name, seats, accepted, t.hands, statuses(t),
                  describe(t.hand) if t.hand else "-")


if __name__ == "__main__":
    two_runtimes.run_all(globals())
