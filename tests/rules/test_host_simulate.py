"""`dealerbutton simulate`: deterministic for a seed, figures that add up, and invariant
checks that really catch a broken rules core."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dealerbutton.rules import Table
from dealerbutton_host.sim import simulate

BIN = Path(sys.executable).parent


def run(*args):
    proc = subprocess.run([str(BIN / "dealerbutton"), "simulate", *args], capture_output=True,
                          text=True, timeout=120)
    return proc


def sections(stdout):
    """{rules: (summary line, seat rows, adds-up line, invariants line)}"""
    out = {}
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"rules (\w+): ", line)
        if m:
            rows = []
            j = i + 2
            while re.match(r"\s+(\d+|all) ", lines[j]):
                rows.append([int(x) if x.isdigit() else x for x in lines[j].split()[:7]])
                j += 1
            out[m.group(1)] = (line, rows, lines[j], lines[j + 1])
    return out


def test_same_seed_same_report_and_the_figures_add_up():
    a = run("--seed", "7", "--hands", "1500", "--seats", "7")
    b = run("--seed", "7", "--hands", "1500", "--seats", "7")
    assert a.returncode == 0, a.stdout + a.stderr
    assert a.stdout == b.stdout
    assert "100% 1500/1500 hands" in a.stderr  # the progress bar, on stderr only
    assert "[#" not in a.stdout and "[-" not in a.stdout
    c = run("--seed", "8", "--hands", "1500", "--seats", "7")
    assert c.returncode == 0 and c.stdout != a.stdout

    found = sections(a.stdout)
    assert sorted(found) == ["dead", "moving", "simple"]
    for rules, (summary, rows, adds, invariants) in found.items():
        hands, sessions, dead_buttons, no_sb, heads_up = map(int, re.match(
            r"rules \w+: (\d+) hands in (\d+) sessions; (\d+) dead buttons, (\d+) hands "
            r"without a small blind, (\d+) heads-up", summary).groups())
        assert hands == 1500
        seats, total = rows[:-1], rows[-1]
        assert [r[0] for r in seats] == list(range(1, 8)) and total[0] == "all"
        for col in range(1, 7):  # dealt, SB, BB, button, posts, chips
            assert sum(r[col] for r in seats) == total[col], (rules, col)
        dealt, sb, bb, button = total[1], total[2], total[3], total[4]
        assert bb == hands  # exactly one BB per hand
        assert sb == hands - no_sb
        assert button + dead_buttons == hands
        assert 2 * hands <= dealt <= 7 * hands
        assert heads_up <= hands
        if rules != "dead":
            assert dead_buttons < hands / 100  # the button only moves to players
        assert adds.count(" ok") == 3 and "WRONG" not in adds
        assert invariants.startswith("invariants held:")
        checks = int(re.search(r"(\d+) checks", invariants).group(1))
        assert checks > 10 * hands


@pytest.mark.parametrize("seats", [2, 3, 12])
def test_every_table_size_holds(seats):
    for rules in simulate.RULE_SETS:
        report = simulate.simulate(rules, 3, 300, seats)
        assert report.hands == 300
        assert sum(f.bb for f in report.per_seat.values()) == 300
        if seats == 2:
            assert report.heads_up == 300


class BrokenTable(Table):
    """A rules core with one bug: the small blind is forgotten now and then."""

    def deal(self, button=None):
        h = super().deal(button)
        if h.n % 17 == 0 and len(h.dealt) >= 3 and h.sb is not None:
            h.posts.pop(h.bb)
        return h


def test_a_broken_rules_core_is_caught_with_its_history(monkeypatch):
    monkeypatch.setattr(simulate, "Table", BrokenTable)
    with pytest.raises(simulate.InvariantFailed) as exc:
        simulate.simulate("dead", 1, 500, 9)
    text = str(exc.value)
    assert "(M4)" in text and re.search(r"in session \d+, hand \d+", text)
    assert "last events:" in text


class SwappedHeadsUp(Table):
    def deal(self, button=None):
        h = super().deal(button)
        if len(h.dealt) == 2:
            h.sb = h.bb
        return h


def test_heads_up_rule_is_checked(monkeypatch):
    monkeypatch.setattr(simulate, "Table", SwappedHeadsUp)
    with pytest.raises(simulate.InvariantFailed) as exc:
        simulate.simulate("moving", 1, 500, 2)
    assert "(H1)" in str(exc.value)


def test_invariant_failure_exits_non_zero(monkeypatch, capsys):
    monkeypatch.setattr(simulate, "Table", SwappedHeadsUp)
    assert simulate.main(1, 200, "simple", 2) == 1
    assert "INVARIANT FAILED (seed 1)" in capsys.readouterr().out


def test_bad_seat_count_is_refused():
    proc = run("--seats", "13")
    assert proc.returncode == 2 and "2..12" in proc.stderr


def test_help_says_what_it_does_and_shows_every_default():
    proc = run("--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "Play random sessions through the rules core" in text
    for option, default in (("--seed SEED", "1"), ("--hands HANDS", "5000"),
                            ("--rules {dead,moving,simple,all}", "all"),
                            ("--seats SEATS", "9")):
        after = text.split("  " + option if ("  " + option) in text else " " + option)[-1]
        assert re.match(r"[^-]*\(default: %s\)" % default, after), (option, after[:120])


def test_the_manual_names_every_command_of_the_help():
    """The manual's count and list of commands (docs/host-tools.md) is the one
    `dealerbutton --help` gives."""
    from dealerbutton_host import cli

    sub = next(a for a in cli.parser()._actions if a.dest == "command")
    names = list(sub.choices)
    page = " ".join((Path(__file__).parents[2] / "docs" / "host-tools.md").read_text().split())
    page = re.sub(r"\]\([^)]*\)", "]", page)   # the links' targets (benchmarks.md ...)
    m = re.search(r"has (\w+) commands: ([^.]*)\.", page)
    assert m, "docs/host-tools.md does not say how many commands there are"
    assert m.group(1) == {7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven",
                          12: "twelve"}[len(names)]
    assert sorted(re.findall(r"`(\w+)`", m.group(2))) == sorted(names)


# -- tournaments -----------------------------------------------------------------------------

def tournament_rows(stdout):
    """The level rows and the 'all' row of each tournament's table, as lists of ints."""
    rows = []
    for line in stdout.splitlines():
        m = re.match(r"\s+(\d+|all)\s", line)
        if m and not line.lstrip().startswith("level"):
            rows.append(line.split())
    return rows


def test_tournament_same_seed_same_report_and_the_levels_add_up():
    a = run("--tournament", "--seed", "4", "--rules", "dead")
    b = run("--tournament", "--seed", "4", "--rules", "dead")
    assert a.returncode == 0, a.stdout + a.stderr
    assert a.stdout == b.stdout and "tournament dead:" in a.stderr
    assert run("--tournament", "--seed", "5", "--rules", "dead").stdout != a.stdout
    assert "10 hands a level" in a.stdout and "big-blind ante" in a.stdout
    rows = tournament_rows(a.stdout)
    levels, total = rows[:-1], rows[-1]
    assert total[0] == "all" and [int(r[0]) for r in levels] == list(range(1, len(levels) + 1))
    # columns after level, blinds, ante: hands players busts entries blinds antes
    # blinded-off held-out dead-buttons; the 'all' row has no blinds, ante or players
    for col, tcol in ((3, 1), (5, 2), (6, 3), (7, 4), (8, 5), (9, 6), (10, 7), (11, 8)):
        assert sum(int(r[col]) for r in levels) == int(total[tcol]), col
    for r in levels:
        sb, bb = map(int, r[1].split("/"))
        hands, antes = int(r[3]), int(r[8])
        assert (sb, bb) == simulate.level_at(int(r[0]), "bb")[:2]
        blinds = int(r[7])  # one BB every hand, one SB but when it is dead
        assert bb * hands <= blinds <= (sb + bb) * hands and blinds % sb == 0
        assert antes == (0 if r[2] == "-" else int(r[2]) * hands)  # one ante, from the BB
        if r is not levels[-1]:
            assert hands == 10
    summary = re.search(r"(\d+) hands, level (\d+) reached, players left: 1 of (\d+) entries "
                        r"\((\d+) late or re-entries\), (\d+) busts; won by seat \d+ with all "
                        r"(\d+) chips", a.stdout)
    assert summary, a.stdout
    hands, reached, entries, late, busts, chips = map(int, summary.groups())
    assert hands == int(total[1]) and reached == len(levels) and busts == entries - 1
    assert chips == entries * simulate.STACK and late == int(total[3])
    assert "invariants held:" in a.stdout and "%d round trips" % hands in a.stdout


def test_tournament_every_rule_set_and_size_holds_and_every_rule_is_exercised():
    held_out = blinded_off = dead_buttons = late = 0
    for rules in simulate.RULE_SETS:
        for seats in (2, 3, 6, 9, 12):
            for seed in range(1, 9):
                for kind in ("bb", "each"):
                    done = simulate.Tournament(seed, rules, seats, seats, 10, kind, 5000).run()
                    assert len(done.seated()) == 1
                    held_out += sum(f.held_out for f in done.levels)
                    blinded_off += sum(f.blinded_off for f in done.levels)
                    dead_buttons += sum(f.dead_buttons for f in done.levels)
                    late += done.entries - done.players
                    if kind == "each" and len(done.levels) >= 3:
                        assert done.levels[2].antes % 25 == 0 and done.levels[2].antes > 0
    assert held_out and blinded_off and dead_buttons and late, (held_out, blinded_off,
                                                                dead_buttons, late)


def test_tournament_stops_at_the_hand_limit():
    done = simulate.Tournament(1, "dead", 9, 9, 1000, "bb", 30).run()
    assert done.t.hands == 30 and len(done.seated()) > 1
    assert "stopped at the hand limit" in done.lines()[-2]


class CashAtHeart(Table):
    """A rules core that ignores tournament=True: away players are skipped and owe blinds."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20), tournament=False):
        super().__init__(seats, rules, stakes)


class AnteLeftOut(Table):
    def deal(self, button=None):
        h = super().deal(button)
        if h.n % 13 == 0 and h.level[2] and h.level[3] == "bb":
            live, dead = h.posts[h.bb]
            h.posts[h.bb] = (live, 0)
        return h


@pytest.mark.parametrize(("broken", "rule"), [(CashAtHeart, "(T1)"), (AnteLeftOut, "(T5)")])
def test_a_broken_tournament_core_is_caught(monkeypatch, broken, rule):
    monkeypatch.setattr(simulate, "Table", broken)
    with pytest.raises(simulate.InvariantFailed) as exc:
        for seed in range(1, 20):
            simulate.Tournament(seed, "dead", 9, 9, 10, "bb", 5000).run()
    assert rule in str(exc.value) and "last events:" in str(exc.value)


def test_tournament_bad_player_count_is_refused():
    proc = run("--tournament", "--players", "10", "--seats", "9")
    assert proc.returncode == 2 and "--players must be 2..9" in proc.stderr
    proc = run("--tournament", "--seats", "1")
    assert proc.returncode == 2 and "2..12" in proc.stderr


# -- --json --------------------------------------------------------------------------------

def test_json_holds_the_figures_printed(tmp_path):
    """--json writes what the report prints: the referee's totals and sizes, the fairness
    report's 'all' row, a tournament's hands (the Reliability page's table is made from it)."""
    out = tmp_path / "referee.json"
    proc = run("--referee", "--hands", "330", "--rules", "dead", "--json", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(out.read_text())
    dead = data["rule_sets"]["dead"]
    assert data["mode"] == "referee" and data["seats"] == list(range(2, 13))
    assert ("referee dead: %d hands in %d sessions, %d events played on both, %d seats' posts"
            % (dead["hands"], dead["sessions"], dead["events_on_both"], dead["posts_checked"])
            in proc.stdout)
    assert [s["seats"] for s in dead["sizes"]] == list(range(2, 13))
    assert sum(s["hands"] for s in dead["sizes"]) == dead["hands"] == 330
    out = tmp_path / "fair.json"
    proc = run("--hands", "200", "--rules", "simple", "--json", str(out))
    simple = json.loads(out.read_text())["rule_sets"]["simple"]
    dealt = sum(s["dealt"] for s in simple["per_seat"].values())
    assert re.search(r"^\s+all\s+%d\s" % dealt, proc.stdout, re.M), proc.stdout
    out = tmp_path / "tournament.json"
    proc = run("--tournament", "--rules", "moving", "--json", str(out))
    moving = json.loads(out.read_text())["rule_sets"]["moving"]
    assert "tournament moving: %d hands" % moving["hands"] in proc.stderr
    assert sum(level["hands"] for level in moving["levels"]) == moving["hands"]
