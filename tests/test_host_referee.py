"""The independent referee (host/dealerbutton_host/sim/referee.py) and `dealerbutton simulate
--referee`: random sessions on every rule set and table size agree with the rules core, every
deal posts the blind of each position plus what `owes` said before it, and a core that breaks
a ruling is caught, with the shortest session that shows it."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from dealerbutton import rules
from dealerbutton.rules import Table
from dealerbutton_host.sim import referee, simulate

BIN = Path(sys.executable).parent


@pytest.mark.parametrize("rules_set", simulate.RULE_SETS)
def test_random_sessions_agree_with_the_referee_and_owes_is_what_the_deal_charges(rules_set):
    compared = checked = new_games = heads_up = 0
    for seats in (2, 3, 4, 6, 9, 12):
        report = simulate.simulate(rules_set, 5, 700, seats, referee=True)
        assert report.hands == 700
        compared += report.compared
        checked += report.owes_checks
        new_games += report.new_games
        heads_up += report.heads_up
    # not vacuous: thousands of events and seats checked, new games and heads-up among them
    assert compared > 6000 and checked >= 700 * (2 + 3 + 4 + 6 + 9 + 12)
    assert new_games > 20 and heads_up > 700


def old_sb_passes(self, sb_seat, bb, heads_up):
    """H1 before the ruling: a heads-up SB that moves back still passes seats."""
    return self._seats_after(self._sb_seat, sb_seat)


REAL_OWES = Table.owes


def owes_markers_before_a_new_game(self, seat):
    """M6 read the old way: a new player owes his BB whatever the next deal is."""
    live, dead = REAL_OWES(self, seat)
    if self.status(seat) == "waiting" and (live, dead) == (0, 0) and self.hands:
        plan = self._planned()
        if plan.can_deal and plan.new_game and not self._plays_free(seat, self._passed,
                                                                    self._travel):
            return self.stakes[1], 0
    return live, dead


@pytest.mark.parametrize(("method", "broken", "rule"), [
    ("_sb_passes", old_sb_passes, "M6"),
    ("owes", owes_markers_before_a_new_game, "M6"),
])
def test_a_core_that_breaks_a_ruling_is_caught_with_its_shortest_session(monkeypatch, method,
                                                                         broken, rule):
    monkeypatch.setattr(rules.Table, method, broken)
    with pytest.raises(referee.Disagreement) as exc:
        for seats in (2, 3, 4, 5, 6):
            for rules_set in simulate.RULE_SETS:
                simulate.simulate(rules_set, 1, 400, seats, referee=True)
    e = exc.value
    assert e.rule == rule and e.table is not None
    short = referee.shortest(e.table.seats, e.table.rules, e.table.log)
    assert len(short) < len(e.table.log) and len(short) <= 20, short
    assert referee.replay(e.table.seats, e.table.rules, short).rule == rule
    monkeypatch.undo()  # the real core: the same session agrees
    assert referee.replay(e.table.seats, e.table.rules, short) is None


def test_the_referee_holds_the_rulings_sessions():
    """Sessions of RULES.md's rulings, replayed on a checked table: no disagreement."""
    for seats, rules_set, log in (
            (3, "dead", [("sit", (1, False)), ("sit", (2, False)), ("sit", (3, False)),
                         ("deal", (2,)), ("away", (1,)), ("deal", (None,))]),
            (7, "simple", [("sit", (6, False)), ("sit", (3, False)), ("deal", (6,)),
                           ("leave", (6,)), ("sit", (7, False)), ("deal", (None,))]),
            (6, "dead", [("sit", (2, False)), ("sit", (5, False)), ("deal", (5,)),
                         ("sit", (6, True)), ("deal", (None,)), ("deal", (None,))])):
        assert referee.replay(seats, rules_set, log) is None
        assert referee.notation(seats, rules_set, log).startswith("T(%d,%s); sit" % (
            seats, rules_set))


def test_notation_reads_like_the_sessions_of_the_issues():
    log = [("sit", (1, False)), ("sit", (2, True)), ("deal", (1,)), ("back", (3, True)),
           ("choose", (2, "wait")), ("deal", (None,)), ("leave", (2,)), ("undo", ())]
    assert referee.notation(4, "moving", log) == (
        "T(4,moving); sit 1; sit 2 post; deal 1; back 3 wait; choose 2 wait; deal; leave 2; "
        "undo")


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


def test_the_command_exits_one_on_a_disagreement(monkeypatch, capsys):
    monkeypatch.setattr(rules.Table, "_sb_passes", old_sb_passes)
    assert simulate.referee_main(1, 2000, "dead", 5) == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT (seed 1, rules dead, 5 seats) M6: seat" in out
    assert re.search(r"shortest session: T\(5,dead\); sit \d; .*; deal", out), out
