"""Hypothesis properties of the rules core over random event sequences, every rule set.

The invariants themselves live in tests/mp/rules_scenario.py (shared with the examples
and the exhaustive walk): exactly one big blind, always dealt in; heads-up the button
posts the small blind and acts first; nobody owes more than one SB and one BB, and what a
player away (or waiting, not dealt in) owes never shrinks until he pays or the BB reaches
him; in `dead` the player who paid the BB pays the SB next hand when three or more are
dealt in; active players are always dealt in and away ones never; refused events change
nothing.
"""

import json

import pytest
from dealerbutton.rules import RuleError, Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_scenario import (
    EVENTS,
    apply,
    check_table,
    describe,
    hand_key,
    state_key,
    step,
    table,
)

RULE_SETS = ["dead", "moving", "simple"]
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


def start(rules, seats, players, button):
    t = table(seats, players, rules=rules)
    if button is not None:
        assert step(t, "deal", button)
    return t


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games())
def test_every_invariant_holds_over_random_events(rules, game):
    seats, players, button, events = game
    t = start(rules, seats, players, button)
    for ev, seat in events:
        step(t, ev, seat)  # checks refusals, deals and the table after each event
        check_table(t)


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games(deals=24, size=120))  # long stretches of hands while players are away
def test_debt_of_a_player_away_never_shrinks_while_he_stays_away(rules, game):
    """M2: like a room's "missed SB" and "missed BB" markers, what a player owes from the
    moment he steps away until he comes back or leaves only grows, over any number of
    hands; and he never owes more than one BB live and one SB dead."""
    seats, players, button, events = game
    t = start(rules, seats, players, button)
    small, big = t.stakes
    owed = {}  # seat -> what he owed after the last event, for players away since
    for ev, seat in events:
        if ev == "undo":
            continue
        try:
            apply(t, ev, seat)
        except RuleError:
            continue
        for s in range(1, seats + 1):
            if t.status(s) != "away":
                owed.pop(s, None)
                continue
            live, dead = t.owes(s)
            assert live in (0, big) and dead in (0, small), (s, live, dead)
            if s in owed:
                assert live >= owed[s][0] and dead >= owed[s][1], (s, owed[s], (live, dead))
            owed[s] = (live, dead)


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games())
def test_undo_restores_exactly(rules, game):
    seats, players, button, events = game
    t = start(rules, seats, players, button)
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
        assert t.hands == 0 and state_key(t) == state_key(Table(seats, rules))


@pytest.mark.parametrize("rules", RULE_SETS)
@SETTINGS
@given(game=games(), split=st.integers(0, 80))
def test_saved_table_deals_the_same_future(rules, game, split):
    seats, players, button, events = game
    t = start(rules, seats, players, button)
    split = min(split, len(events))
    for ev, seat in events[:split]:
        try:
            apply(t, ev, seat)
        except RuleError:
            pass
    text = json.dumps(t.to_dict())
    assert len(text) < 400, text
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
