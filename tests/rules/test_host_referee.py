"""The independent referee (host/dealerbutton_host/sim/referee.py, ref_*.py) and `dealerbutton
simulate --referee`: random sessions on every rule set and table size agree with the rules
core, with seat changes, forced bets and tournament tables too; every deal, and a copy of the
table dealt after every event, posts the blind of each position plus what `owes` said before
it; every worked example of RULES.md agrees; and a core that breaks a ruling is caught, with
the shortest session that shows it."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import rules_document
from dealerbutton.rules import charges, dealing, hand, nexthand, seatchange
from dealerbutton.rules.words import WAITING
from dealerbutton_host.sim import referee, simulate
from docexamples import rulestables

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
FORCED_BETS = simulate.Options(ante_kind="button", button_blind=20, kills=True,
                               makeup="one_per_hand")


@pytest.mark.parametrize("rules_set", simulate.RULE_SETS)
def test_random_sessions_agree_with_the_referee_and_owes_is_what_the_deal_charges(rules_set):
    compared = checked = new_games = heads_up = 0
    accepted: dict = {}
    for seats in (2, 3, 4, 6, 9, 12):
        report = simulate.simulate(rules_set, 5, 700, seats, referee=True)
        assert report.hands == 700
        compared += report.compared
        checked += report.owes_checks
        new_games += report.new_games
        heads_up += report.heads_up
        for name, count in report.accepted.items():
            accepted[name] = accepted.get(name, 0) + count
    # not vacuous: thousands of events and seats checked, new games and heads-up among them,
    # moves and take-overs
    assert compared > 6000 and checked >= 700 * (2 + 3 + 4 + 6 + 9 + 12)
    assert new_games > 20 and heads_up > 700
    assert accepted["move"] > 100 and accepted["take"] > 100, accepted


@pytest.mark.parametrize("rules_set", simulate.RULE_SETS)
def test_sessions_with_every_forced_bet_agree_with_the_referee(rules_set):
    """A dealer ante with level changes, a button blind, kills, make-ups one a hand."""
    accepted: dict = {}
    for seats in (2, 3, 5, 9):
        report = simulate.simulate(rules_set, 2, 600, seats, referee=True, options=FORCED_BETS)
        assert report.hands == 600
        for name, count in report.accepted.items():
            accepted[name] = accepted.get(name, 0) + count
    assert min(accepted[name] for name in ("move", "take", "kill", "set_level")) > 20, accepted


@pytest.mark.parametrize("ante_kind", ["each", "bb", "button"])
def test_tournament_sessions_agree_with_the_referee(ante_kind):
    options = simulate.Options(tournament=True, ante_kind=ante_kind)
    for rules_set in simulate.RULE_SETS:
        moves = 0
        for seats in (2, 4, 9):
            report = simulate.simulate(rules_set, 3, 300, seats, referee=True, options=options)
            assert report.hands == 300
            moves += report.accepted.get("move", 0)
        assert moves > 10


def checked_table(first_line):
    """The CheckedTable an example's first line sets up (rules_document.setup's table)."""
    plain = rules_document.setup(first_line).state
    return referee.CheckedTable(plain.seats, plain.rules, plain.level[:2], plain.tournament,
                                plain.button_blind, plain.makeup)


def test_every_worked_example_of_the_rules_agrees_with_the_referee():
    """RULES.md's worked examples (C and F ones included), event by event on a checked
    table: the referee agrees with every hand, seat and refusal."""
    found = rulestables.worked_examples(ROOT / "firmware" / "dealerbutton" / "rules" / "RULES.md")
    rules = {rule for rule, _, _ in found}
    assert len(found) >= 70 and {"C1", "C2", "C3", "C6", "F1", "F2", "F3", "F4"} <= rules
    events = 0
    for rule, line, lines in found:
        t = checked_table(lines[0])
        for number, text_line in enumerate(lines[1:], line + 1):
            words = text_line.split("#")[0].split()
            if words and not text_line.startswith(" "):
                try:
                    rules_document.event(t, words)
                except referee.Disagreement as e:
                    raise AssertionError("RULES.md line %d (%s): %s" % (number, rule, e)) from e
        events += t.compared
    assert events > 700


# -- cores that break a ruling ------------------------------------------------------------

REAL_OWES = charges.owes
REAL_K = seatchange.hands_before_big_blind
REAL_MARK_MISSED = dealing._mark_missed
REAL_FIRST_TO_ACT = hand._first_to_act
REAL_TAKE_OVER = seatchange.take_over
REAL_MOVE = seatchange.move_player


def old_sb_passes(self, state, heads_up):
    """H1 before the ruling: a heads-up SB that moves back still passes seats."""
    return state.seats_after(state.sb_seat, self.sb_seat)


def owes_markers_before_a_new_game(plan, state, seat):
    """M6 read the old way: a new player owes his BB whatever the next deal is."""
    live, dead = REAL_OWES(plan, state, seat)
    if (state.status[seat] == WAITING and (live, dead) == (0, 0) and state.hands
            and plan.can_deal and plan.new_game and not charges.plays_free(state, seat)):
        return state.level[1], 0
    return live, dead


def k_counting_the_mover(state, seat, mover):
    """C3 misread: the mover counted among the players before his own new seat."""
    return REAL_K(state, seat, 0)


def no_dealer_ante_marker(plan, state):
    """F1 forgotten: a dead button on an away player's seat leaves him no ante to make up."""
    kept = bytes(state.missed_ante)
    REAL_MARK_MISSED(plan, state)
    state.missed_ante[:] = kept


def killer_acts_in_turn(state, dealt, killer):
    """F3 forgotten: the killer acts in his turn, not last."""
    return REAL_FIRST_TO_ACT(state, dealt, None)


def take_over_as_a_newcomer_in_a_left_seat(state, seat):
    """C6 half done: the seat still counts as left for the positions."""
    REAL_TAKE_OVER(state, seat)
    state.left[seat] = state.dealt[seat]


def a_tournament_move_is_no_late_entry(state, a, b):
    """C5 forgotten: a player moved onto the button or the SB position is dealt in there."""
    wait = REAL_MOVE(state, a, b)
    state.new[b] = 0
    return wait


def carried_small_blind_forgotten(plan, state):
    """F4 forgotten: the small blind is never carried to the next hand."""


TOURNAMENT = simulate.Options(tournament=True, ante_kind="bb")


# (where, what, the broken version, the rules the disagreement may name, the sessions'
# options, the most events its shortest session may take: a missed blind needs an orbit)
@pytest.mark.parametrize(("module", "name", "broken", "rules", "options", "most"), [
    (nexthand.NextHand, "_sb_passes", old_sb_passes, ("M6",), None, 30),
    (charges, "owes", owes_markers_before_a_new_game, ("M6",), None, 30),
    (seatchange, "hands_before_big_blind", k_counting_the_mover, ("status", "C3"), None, 30),
    (dealing, "_mark_missed", no_dealer_ante_marker, ("M6",), FORCED_BETS, 30),
    (hand, "_first_to_act", killer_acts_in_turn, ("H1", "hand"), FORCED_BETS, 30),
    (seatchange, "take_over", take_over_as_a_newcomer_in_a_left_seat, ("M6", "hand"), None,
     30),
    (charges, "_carried_small_blinds", carried_small_blind_forgotten, ("M6",), FORCED_BETS,
     60),
    (seatchange, "move_player", a_tournament_move_is_no_late_entry, ("hand",), TOURNAMENT, 30),
])
def test_a_core_that_breaks_a_ruling_is_caught_with_its_shortest_session(
        monkeypatch, module, name, broken, rules, options, most):
    monkeypatch.setattr(module, name, broken)
    with pytest.raises(referee.Disagreement) as exc:
        for seats in (2, 3, 4, 5, 6):
            for rules_set in simulate.RULE_SETS:
                simulate.simulate(rules_set, 1, 400, seats, referee=True, options=options)
    e = exc.value
    assert e.rule in rules and e.table is not None, e
    table = e.table
    short = referee.shortest(table.seats, table.rules, table.log, **table.options)
    assert len(short) < len(table.log) and len(short) <= most, short
    assert referee.replay(table.seats, table.rules, short, **table.options).rule == e.rule
    monkeypatch.undo()  # the real core: the same session agrees
    assert referee.replay(table.seats, table.rules, short, **table.options) is None


def test_the_referee_holds_the_rulings_sessions():
    """Sessions of RULES.md's rulings, replayed on a checked table: no disagreement."""
    for seats, rules_set, log in (
            (3, "dead", [("sit", (1, False)), ("sit", (2, False)), ("sit", (3, False)),
                         ("deal", (2,)), ("away", (1,)), ("deal", (None,))]),
            (7, "simple", [("sit", (6, False)), ("sit", (3, False)), ("deal", (6,)),
                           ("leave", (6,)), ("sit", (7, False)), ("deal", (None,))]),
            (6, "dead", [("sit", (2, False)), ("sit", (5, False)), ("deal", (5,)),
                         ("sit", (6, True)), ("deal", (None,)), ("deal", (None,))]),
            # M6, MB2: the player who paid the BB steps away after a player dealt in left;
            # he owes the made-up SB, dead, that the next deal makes his marker
            (8, "moving", [("sit", (6, False)), ("sit", (8, False)), ("sit", (3, False)),
                           ("sit", (5, False)), ("sit", (2, False)), ("deal", (8,)),
                           ("deal", (None,)), ("leave", (3,)), ("away", (5,)),
                           ("deal", (None,))])):
        assert referee.replay(seats, rules_set, log) is None
        assert referee.notation(seats, rules_set, log).startswith("T(%d,%s); sit" % (
            seats, rules_set))


def test_an_away_player_due_a_made_up_small_blind_owes_it():
    t = referee.CheckedTable(8, "moving")
    for s in (6, 8, 3, 5, 2):
        t.sit(s)
    t.deal(8)
    t.deal()   # button 2, SB 3, BB 5
    t.leave(3)
    t.away(5)  # he paid the BB: MB2 makes him due the SB, which he misses away
    assert t.owes(5) == (0, 10) and t.referee.every_owes()[4] == (0, 10)
    t.deal()
    assert t.markers(5) == ("sb",) and t.owes(5) == (0, 10)


def test_notation_reads_like_the_sessions_of_the_issues():
    log = [("sit", (1, False)), ("sit", (2, True)), ("deal", (1,)), ("back", (3, True)),
           ("choose", (2, "wait")), ("deal", (None,)), ("leave", (2,)), ("undo", ())]
    assert referee.notation(4, "moving", log) == (
        "T(4,moving); sit 1; sit 2 post; deal 1; back 3 wait; choose 2 wait; deal; leave 2; "
        "undo")
    log = [("set_level", (10, 20, 5, "button")), ("move", (1, 3)), ("take", (2,)),
           ("kill", (4, True)), ("kill", (4, False))]
    assert referee.notation(4, "dead", log, button_blind=20, makeup="one_per_hand") == (
        "T(4,dead,button blind 20,one per hand); level 10 20 5 button; move 1 3; take 2; "
        "kill 4 half; kill 4")
    assert referee.notation(4, "dead", [], tournament=True) == "T(4,dead,tournament)"


def test_the_command_prints_its_figures_and_exits_zero():
    proc = subprocess.run([str(BIN / "dealerbutton"), "simulate", "--referee", "--hands", "660",
                           "--rules", "moving"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "660 hands per rule set on 2 to 12 seats" in out
    m = re.search(r"referee moving: 660 hands in \d+ sessions, (\d+) events played on both, "
                  r"(\d+) seats' posts checked against owes; disagreements: 0", out)
    assert m, out
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s+\d+\s", line)]
    assert [int(r[0]) for r in rows] == list(range(2, 13))
    assert sum(int(r[1]) for r in rows) == 660 and sum(int(r[-1]) for r in rows) == int(m[1])


@pytest.mark.parametrize("options", [
    ["--ante-kind", "button", "--button-blind", "20", "--kills", "--makeup", "one_per_hand"],
    ["--tournament", "--ante-kind", "each"]])
def test_the_command_plays_each_option(options):
    proc = subprocess.run([str(BIN / "dealerbutton"), "simulate", "--referee", "--hands", "330",
                           "--rules", "dead", "--seats", "5"] + options,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    head = proc.stdout.splitlines()[0]
    if "--kills" in options:
        assert ("antes button (levels 10/20 ante 5, 25/50 ante 10, 10/20 ante 0), button blind "
                "20, kills, missed blinds made up one a hand;") in head, head
    else:
        assert "tournament tables, antes each" in head, head
    assert "referee dead: 330 hands in" in proc.stdout


def test_the_command_refuses_cash_options_at_a_tournament():
    proc = subprocess.run([str(BIN / "dealerbutton"), "simulate", "--tournament", "--kills"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--kills: cash games only" in proc.stderr


def test_the_command_exits_one_on_a_disagreement(monkeypatch, capsys):
    monkeypatch.setattr(nexthand.NextHand, "_sb_passes", old_sb_passes)
    assert simulate.referee_main(1, 2000, "dead", 5) == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT (seed 1, rules dead, 5 seats) M6: seat" in out
    assert re.search(r"shortest session: T\(5,dead\); sit \d; .*; deal", out), out
