"""Every sequence of events up to a depth on a 4-seat table, for every rule set, as a cash
game and as a tournament table (where the level changes too, among three levels). The depth
is the campaign's: 6 deep (5 at tournament tables) in the normal run, 9 (7) with
`pytest --campaign=large`; $RULES_DEPTH and $RULES_TOURNAMENT_DEPTH set it by hand.

States are deduplicated by their saved form (to_dict), with the hand count reduced to
"none yet / some": nothing in the rules depends on it beyond that (the first hand and
S2 look at hands == 0 only), so equal keys have the same futures and the walk can go
deeper.  Every transition is checked: refused events change nothing, accepted ones keep
every invariant of rules_scenario (one BB dealt in, heads-up button posts the SB, one
set of debts that never shrinks while its player is away or held out, in `dead` the last
BB posts the SB ...), undo restores exactly, and the saved state round-trips.
"""

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor

import pytest
from dealerbutton.rules import RuleError, Table
from rules_scenario import (
    EVENTS,
    apply,
    before_event,
    check_deal,
    check_debts_kept,
    check_table,
    hand_key,
    seat_debts,
)

SEATS = 4
# The depths of each campaign size: (cash game, tournament table).
DEPTHS = {"quick": (6, 5), "large": (9, 7)}
MOVES = [(ev, s) for ev in EVENTS if ev not in ("undo", "deal", "level")
         for s in range(1, SEATS + 1)]
# At a tournament table: no post or wait choices (refused, T1: tried on one seat), and the
# level moves to either of the two others.
TOURNAMENT_MOVES = ([(ev, s) for ev in ("sit", "away", "back", "leave") for s in range(1, SEATS + 1)]
                    + [("sitpost", 1), ("backwait", 1), ("post", 1), ("wait", 1),
                       ("level", 1), ("level", 2)])


def norm(d):
    """The saved form, with the hand count reduced to none yet / some."""
    return json.dumps(dict(d, hands=d["hands"] > 0), sort_keys=True)


def same(a, b):
    return norm(a) == norm(b) and a["hands"] == b["hands"]


def moves(d):
    base = TOURNAMENT_MOVES if d["tournament"] else MOVES
    if d["hands"] == 0:
        return base + [("deal", s) for s in range(1, SEATS + 1)]
    return base + [("deal", 0)]


def explore(rules, depth, tournament=False):
    """Breadth-first walk; returns (states, transitions, accepted, deals) counts."""
    start = Table(SEATS, rules, tournament=tournament).to_dict()
    seen = {norm(start)}
    frontier = [start]
    transitions = accepted = deals = 0
    for _ in range(depth):
        nxt = []
        for d in frontier:
            t = Table.from_dict(d)  # back to d after every move: refused, or undone
            before = before_event(t)
            debts = seat_debts(t)
            hk = hand_key(t.hand)
            for ev, seat in moves(d):
                transitions += 1
                try:
                    h = apply(t, ev, seat)
                except RuleError as e:
                    assert str(e)
                    assert same(t.to_dict(), d), ("refused event changed the table", ev, seat)
                    assert hand_key(t.hand) == hk
                    continue
                accepted += 1
                check_table(t)
                check_debts_kept(t, before[0], debts)
                if h is not None:
                    deals += 1
                    check_deal(t, before, h)
                after = t.to_dict()
                copy = Table.from_dict(after)  # E4: the saved form is the whole state
                assert same(copy.to_dict(), after) and hand_key(copy.hand) == hand_key(t.hand)
                t.undo()  # E3: undo restores exactly
                assert same(t.to_dict(), d), ("undo did not restore", ev, seat)
                assert hand_key(t.hand) == hk
                k = norm(after)
                if k not in seen:
                    seen.add(k)
                    nxt.append(after)
        frontier = nxt
    return len(seen), transitions, accepted, deals


def explore_table(job):
    kind, depth = job
    rules, _, tournament = kind.partition(" ")
    return explore(rules, depth, bool(tournament))


def test_exhaustive_four_seats_every_rule_set(capsys, campaign):
    began = time.time()
    cash, at_tournament = DEPTHS[campaign]
    cash = int(os.environ.get("RULES_DEPTH", cash))
    at_tournament = int(os.environ.get("RULES_TOURNAMENT_DEPTH", at_tournament))
    kinds = ("dead", "moving", "simple", "dead tournament", "moving tournament",
             "simple tournament")
    depths = [at_tournament if kind.endswith("tournament") else cash for kind in kinds]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = dict(zip(kinds, pool.map(explore_table, zip(kinds, depths, strict=True)),
                           strict=True))
    total = 0
    lines = []
    for kind, depth in zip(kinds, depths, strict=True):
        states, transitions, accepted, deals = results[kind]
        lines.append("exhaustive %s: depth %d, %d distinct states, %d transitions "
                     "(%d accepted, %d deals)" % (kind, depth, states, transitions, accepted,
                                                  deals))
        assert deals > 0 and states > 1000
        total += states
    lines.append("exhaustive: %d states on %d seats in %.1f s"
                 % (total, SEATS, time.time() - began))
    with capsys.disabled():  # the figures are part of the report, not debug output
        print("\n" + "\n".join(lines))


@pytest.mark.parametrize("rules", ["dead", "moving", "simple"])
@pytest.mark.parametrize("tournament", [False, True], ids=["cash", "tournament"])
def test_exhaustive_walk_reaches_the_interesting_places(rules, tournament):
    """The walk is not vacuous: at a small depth it already deals heads-up and
    multi-way hands and sees every status."""
    states, transitions, accepted, deals = explore(rules, depth=5, tournament=tournament)
    assert deals > 50 and accepted < transitions
