"""Hypothesis properties of the rules core over random event sequences, every rule set.

The invariants themselves live in tests/support/rules_scenario.py (shared with the examples
and the exhaustive walk): exactly one big blind, always dealt in; heads-up the button
posts the small blind and acts first; nobody owes more than one SB and one BB, a player
away keeps his markers until he pays or the BB reaches him, and owes what his return now
would cost him; in `dead` the player who paid the BB pays the SB next hand when three or more are
dealt in; active players are always dealt in and away ones never; refused events change
nothing; antes are dead money at the hand's level. At tournament tables (T1..T5):
everybody seated is dealt in but a newcomer on the button or SB position, once; nobody
owes or chooses anything; heads-up as in a cash game.
"""

import json

import pytest
from dealerbutton.rules import RuleError, Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_scenario import (
    EVENTS,
    ante_of,
    apply,
    check_table,
    describe,
    hand_key,
    state_key,
    step,
    table,
)

RULE_SETS = ["dead", "moving", "simple"]
TABLES = [(r, False) for r in RULE_SETS] + [(r, True) for r in RULE_SETS]
TABLE_IDS = RULE_SETS + [r + "-tournament" for r in RULE_SETS]
SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def games(draw, deals=6, size=80):
    """A table size, the players seated before the first hand, its button, then events
    (deals drawn `deals` times more often, so that hands are actually played)."""
    seats = draw(st.integers(2, 12))
    players = sorted(draw(st.sets(st.integers(1, seats), max_size=seats)))
    button = draw(st.sampled_from(players)) if len(players) >= 2 else None
    kinds = st.sampled_from(EVENTS + ("deal",) * deals)
    events = draw(st.lists(st.tuples(kinds, st.integers(1, seats)), max_size=size))
    return seats, players, button, events


def start(rules, seats, players, button, tournament=False):
    t = table(seats, players, rules=rules, tournament=tournament)
    if button is not None:
        assert step(t, "deal", button)
    return t


@pytest.mark.parametrize(("rules", "tournament"), TABLES, ids=TABLE_IDS)
@SETTINGS
@given(game=games())
def test_every_invariant_holds_over_random_events(rules, tournament, game):
    seats, players, button, events = game
    t = start(rules, seats, players, button, tournament)
    for ev, seat in events:
        step(t, ev, seat)  # checks refusals, deals and the table after each event
        check_table(t)


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games(deals=24, size=120))  # long stretches of hands while players are away
def test_a_player_away_keeps_his_markers_and_owes_what_his_return_would_cost(rules, game):
    """M2: like a room's "missed SB" and "missed BB" markers, the markers a player holds
    from the moment he steps away until he comes back or leaves are never taken away, over
    any number of hands; he never owes more than one BB live and one SB dead; and M6b: what
    he owes is what a copy of the table where he comes back now, dealt at once, makes him
    post beyond his position's blind (the big blind posts one BB, nothing more: M4)."""
    seats, players, button, events = game
    t = start(rules, seats, players, button)
    held = {}  # seat -> his markers after the last event, for players away since
    for ev, seat in events:
        if ev == "undo":
            continue
        try:
            apply(t, ev, seat)
        except RuleError:
            continue
        for s in range(1, seats + 1):
            if t.status(s) != "away":
                held.pop(s, None)
                continue
            live, dead = t.owes(s)
            assert live in (0, t.stakes[1]) and dead in (0, t.stakes[0]), (s, live, dead)
            assert set(held.get(s, ())) <= set(t.markers(s)), (s, held.get(s), t.markers(s))
            held[s] = t.markers(s)
            if t.hands:
                check_return(t, s, (live, dead))


def check_return(t, s, owed):
    """Seat s, away, comes back on a copy of t, dealt at once: he posts what he owed."""
    twin = Table.from_dict(t.to_dict())
    twin.back(s)
    try:
        h = twin.deal()
    except RuleError:
        return   # no hand even with him back (M6c)
    if s not in h.dealt or s == h.bb:
        return
    live, dead = h.posts.get(s, (0, 0))
    dead -= ante_of(h, s)
    if s == h.sb:
        live -= h.level[0]
    assert (live, dead) == owed, (s, owed, describe(h))


@pytest.mark.parametrize(("rules", "tournament"), TABLES, ids=TABLE_IDS)
@SETTINGS
@given(game=games())
def test_undo_restores_exactly(rules, tournament, game):
    seats, players, button, events = game
    t = start(rules, seats, players, button, tournament)
    accepted = len(players) + (button is not None)
    for ev, seat in events:
        if ev == "undo":
            continue
        key, hk = state_key(t), hand_key(t.hand)
        try:
            apply(t, ev, seat)
        except RuleError:
            assert state_key(t) == key
            continue
        accepted += 1
        after, after_hand = state_key(t), hand_key(t.hand)
        t.undo()
        assert state_key(t) == key and hand_key(t.hand) == hk, (ev, seat)
        apply(t, ev, seat)  # the same event again gives the same result
        assert state_key(t) == after and hand_key(t.hand) == after_hand
    # and all the way back, one event at a time, as deep as the history goes
    depth = 0
    while t.can_undo():
        t.undo()
        check_table(t)
        depth += 1
    assert depth >= min(32, accepted)
    if accepted <= 32:
        assert t.hands == 0 and state_key(t) == state_key(Table(seats, rules,
                                                                 tournament=tournament))


@pytest.mark.parametrize(("rules", "tournament"), TABLES, ids=TABLE_IDS)
@SETTINGS
@given(game=games(), split=st.integers(0, 80))
def test_saved_table_deals_the_same_future(rules, tournament, game, split):
    seats, players, button, events = game
    t = start(rules, seats, players, button, tournament)
    split = min(split, len(events))
    for ev, seat in events[:split]:
        try:
            apply(t, ev, seat)
        except RuleError:
            pass
    text = json.dumps(t.to_dict(), separators=(",", ":"))   # compact, as the store writes it
    assert len(text) < 2048, text   # well inside the state file's limit (store.READ_LIMIT)
    copy = Table.from_dict(json.loads(text))
    assert state_key(copy) == state_key(t) and hand_key(copy.hand) == hand_key(t.hand)
    for ev, seat in events[split:] + [("deal", 1)] * 3:
        if ev == "undo" and not copy.can_undo():
            continue  # the saved form keeps no undo history
        results = []
        for x in (t, copy):
            try:
                h = apply(x, ev, seat)
                results.append(describe(h) if h is not None else "ok")
            except RuleError as e:
                results.append("refused: %s" % e)
        assert results[0] == results[1], (ev, seat, results)
        assert state_key(copy) == state_key(t)


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games(deals=12, size=120))
def test_tournament_deals_everybody_seated_but_a_newcomer_once(rules, game):
    """T1, T2: every hand deals every seated player, away ones included, except a player
    who sat down since the last hand and whose seat is the button or the SB position; he
    is dealt into the hand after (or leaves first). Exactly one BB, nobody owes, antes
    are dead; heads-up the button posts the SB (H1)."""
    seats, players, button, events = game
    t = start(rules, seats, players, button, True)
    newcomers = set()  # sat down since the last hand
    held_out = set()   # held out of the last hand
    for ev, seat in events:
        if ev == "undo":
            continue
        seated = {s for s in range(1, seats + 1) if t.status(s) != "empty"}
        try:
            h = apply(t, ev, seat)
        except RuleError:
            continue
        if ev in ("sit", "sitpost") and t.hands:
            newcomers.add(seat)
        if ev == "leave":
            newcomers.discard(seat)
            held_out.discard(seat)
        if h is None:
            continue
        skipped = seated - set(h.dealt)
        assert skipped <= newcomers, (skipped, newcomers, describe(h))
        assert not skipped & held_out, (skipped, held_out)
        for s in skipped:
            assert s == h.button or h.sb is None or len(h.dealt) == 2, (s, describe(h))
        assert len([s for s in h.posts if h.posts[s][0] == h.level[1]]) == 1, describe(h)
        dead = sum(h.posts[s][1] for s in h.posts)
        antes = h.level[2] * (len(h.dealt) if h.level[3] == "each" else 1)
        assert dead == antes, (describe(h), h.level)  # the only dead money: antes
        if len(h.dealt) == 2:
            assert h.sb == h.button and h.first_to_act == h.button, describe(h)
        assert all(t.owes(s) == (0, 0) for s in range(1, seats + 1))
        held_out = skipped
        newcomers = set()
