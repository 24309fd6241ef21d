"""`dealerbutton simulate`: random sessions through the rules core, every invariant checked,
and a fairness report per rule set (who paid which blind, posts, dead buttons).

Each session seats a few players, deals the first hand with a random button, then
between hands players join (posting or waiting), step away, come back, change their
mind, move to another seat, take over a seat just left and bust out; with the options, the
dealer marks kills and the level (with its ante) changes. Every hand is checked against the
invariants of the rules; any failure stops the run with the seed, the session and its last
events.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Dict, List, Optional

from dealerbutton.rules import RuleError, Table

from .referee import CheckedTable, Disagreement, notation, shortest

RULE_SETS = ("dead", "moving", "simple")
STAKES = (10, 20)
# The levels a session with antes switches between: (small blind, big blind, ante).
ANTE_LEVELS = ((10, 20, 5), (25, 50, 10), (10, 20, 0))


class Options:
    """What the random sessions play beyond two blinds: a tournament table (T1..T5), an ante
    of a kind (each, bb, button: the dealer ante, F1) with level changes, a button blind
    (F2), kills (F3), missed blinds made up one a hand (F4)."""

    def __init__(self, tournament: bool = False, ante_kind: Optional[str] = None,
                 button_blind: int = 0, kills: bool = False, makeup: str = "together"):
        self.tournament = tournament
        self.ante_kind = ante_kind
        self.button_blind = button_blind
        self.kills = kills
        self.makeup = makeup

    def words(self) -> str:
        """The options as the report's first line gives them ("" for none)."""
        out = []
        if self.tournament:
            out.append("tournament tables")
        if self.ante_kind:
            out.append("antes %s (levels %s)" % (self.ante_kind, ", ".join(
                "%d/%d ante %d" % level for level in ANTE_LEVELS)))
        if self.button_blind:
            out.append("button blind %d" % self.button_blind)
        if self.kills:
            out.append("kills")
        if self.makeup != "together":
            out.append("missed blinds made up one a hand")
        return "".join(", " + w for w in out)

    def key(self) -> str:
        """The options in the random seed: none adds nothing."""
        return "".join("/" + w for w in self.words().split(", ")[1:])


def blinds_of(h, s: int, button_blind: int):
    """What seat s posts in hand h, the hand's antes and button blind aside: (live, dead)."""
    live, dead = h.posts.get(s, (0, 0))
    ante, kind = h.level[2], h.level[3]
    if s in h.dealt and (kind == "each" or kind == "bb" and s == h.bb
                         or kind == "button" and s == h.button):
        dead -= ante
    if s == h.button_blind:
        live -= button_blind
    return live, dead


class InvariantFailed(AssertionError):
    """An invariant did not hold; history holds every event of the session so far."""

    history: List[str] = []


class SeatFigures:
    __slots__ = ("dealt", "sb", "bb", "button", "posts", "chips")

    def __init__(self):
        self.dealt = self.sb = self.bb = self.button = self.posts = self.chips = 0


class Report:
    def __init__(self, rules: str, seats: int):
        self.rules = rules
        self.seats = seats
        self.per_seat: Dict[int, SeatFigures] = {s: SeatFigures() for s in range(1, seats + 1)}
        self.hands = 0
        self.sessions = 0
        self.dead_buttons = 0
        self.no_sb = 0
        self.heads_up = 0
        self.events = 0
        self.refused = 0
        self.undos = 0
        self.round_trips = 0
        self.checks = 0
        self.compared = 0       # events played on the referee too (--referee)
        self.owes_checks = 0    # seats' posts checked against what they owed
        self.new_games = 0      # hands dealt as a new game (D5, MS2)
        self.accepted: Dict[str, int] = {}  # events played on both and accepted, by name

    def add_hand(self, h) -> None:
        self.hands += 1
        for s in h.dealt:
            self.per_seat[s].dealt += 1
        if h.sb is not None:
            self.per_seat[h.sb].sb += 1
        else:
            self.no_sb += 1
        self.per_seat[h.bb].bb += 1
        if h.button in h.dealt:
            self.per_seat[h.button].button += 1
        else:
            self.dead_buttons += 1
        if len(h.dealt) == 2:
            self.heads_up += 1
        for s, (live, dead) in h.posts.items():
            fig = self.per_seat[s]
            fig.chips += live + dead
            if s != h.bb and s != h.sb:
                fig.posts += 1
            elif s == h.sb and (live + dead) > STAKES[0]:
                fig.posts += 1  # the small blind plus what he owed
            elif s == h.bb and (live + dead) > STAKES[1]:
                fig.posts += 1

    def lines(self) -> List[str]:
        total = SeatFigures()
        for fig in self.per_seat.values():
            for k in SeatFigures.__slots__:
                setattr(total, k, getattr(total, k) + getattr(fig, k))
        out = ["rules %s: %d hands in %d sessions; %d dead buttons, %d hands without a "
               "small blind, %d heads-up" % (self.rules, self.hands, self.sessions,
                                             self.dead_buttons, self.no_sb, self.heads_up),
               " seat   dealt     SB     BB button  posts   chips  chips/hand dealt"]
        rows = list(self.per_seat.items()) + [("all", total)]
        for seat, fig in rows:
            per = "%.2f" % (fig.chips / fig.dealt) if fig.dealt else "-"
            out.append("%5s %7d %6d %6d %6d %6d %7d  %s" % (
                seat, fig.dealt, fig.sb, fig.bb, fig.button, fig.posts, fig.chips, per))
        ok_bb = total.bb == self.hands
        ok_sb = total.sb == self.hands - self.no_sb
        ok_btn = total.button == self.hands - self.dead_buttons
        out.append("adds up: BBs %d = hands %d %s; SBs %d = hands - no SB %d %s; buttons %d + "
                   "dead %d = hands %s" % (
                       total.bb, self.hands, "ok" if ok_bb else "WRONG", total.sb,
                       self.hands - self.no_sb, "ok" if ok_sb else "WRONG", total.button,
                       self.dead_buttons, "ok" if ok_btn else "WRONG"))
        out.append("invariants held: %d checks over %d hands; %d events (%d refused and "
                   "unchanged), %d undos exact, %d round trips deal the same"
                   % (self.checks, self.hands, self.events, self.refused, self.undos,
                      self.round_trips))
        return out


def report_figures(r: "Report") -> Dict[str, object]:
    """A rule set's figures, as the JSON of --json has them."""
    figures: Dict[str, object] = {k: getattr(r, k) for k in (
        "seats", "hands", "sessions", "dead_buttons", "no_sb", "heads_up", "events",
        "refused", "undos", "round_trips", "checks")}
    figures["per_seat"] = {str(seat): {k: getattr(fig, k) for k in SeatFigures.__slots__}
                           for seat, fig in r.per_seat.items()}
    return figures


def write_json(path: Optional[str], figures: Dict[str, object]) -> None:
    """--json: the run's figures to path (when given), with what stopped it if it failed."""
    if path:
        with open(path, "w") as f:
            f.write(json.dumps(figures, indent=1, sort_keys=True) + "\n")


def hand_key(h):
    return (h.n, h.button, h.sb, h.bb, tuple(h.dealt), sorted(h.posts.items()), h.first_to_act)


class Session:
    """One table from its first hand to its last, with random comings and goings."""

    def __init__(self, rng: random.Random, rules: str, seats: int, report: Report,
                 number: int, table_class=None, options: Optional[Options] = None):
        self.rng = rng
        self.rules = rules
        self.seats = seats
        self.report = report
        self.number = number
        self.options = options or Options()
        o = self.options
        self.t = (table_class or Table)(seats=seats, rules=rules, stakes=STAKES,
                                        tournament=o.tournament, button_blind=o.button_blind,
                                        makeup=o.makeup)
        self.history: List[str] = []
        self.changed: set = set()   # seats left, moved from or to since the last deal

    def fail(self, rule: str, text: str):
        err = InvariantFailed("%s (%s) in session %d, hand %d, rules %s\nlast events: %s"
                              % (text, rule, self.number, self.t.hands, self.rules,
                                 "; ".join(self.history[-40:])))
        err.history = list(self.history)
        raise err

    def check(self, ok: bool, rule: str, text: str):
        self.report.checks += 1
        if not ok:
            self.fail(rule, text)

    # -- events ---------------------------------------------------------------------------
    def seats_with(self, status: str) -> List[int]:
        return [s for s in range(1, self.seats + 1) if self.t.status(s) == status]

    def apply(self, name: str, fn, *args) -> bool:
        """Apply one event; refused events must change nothing (E2)."""
        before = self.t.to_dict()
        label = " ".join([name] + [str(a) for a in args])
        self.report.events += 1
        try:
            result = fn(*args)
        except RuleError as e:
            self.report.refused += 1
            self.check(self.t.to_dict() == before, "E2", "refused %r changed the table" % label)
            self.check(bool(str(e)), "E2", "refused %r without a reason" % label)
            self.history.append(label + " (refused)")
            return False
        self.history.append(label)
        if name in ("leave", "move", "take", "undo"):
            self.changed.update(a for a in args if isinstance(a, int))
            if name == "undo":
                self.changed.update(range(1, self.seats + 1))
        if result is False:  # (set_level: the level in force already, no event)
            return True
        if name != "undo" and self.rng.random() < 0.05:  # E3: undo restores exactly, then do it again
            after = self.t.to_dict()
            self.t.undo()
            self.check(self.t.to_dict() == before, "E3", "undo of %r did not restore" % label)
            fn(*args)
            self.check(self.t.to_dict() == after, "E3", "redo of %r differs" % label)
            self.report.undos += 1
        return True

    def random_event(self) -> None:
        rng, t, options = self.rng, self.t, self.options
        cash = not options.tournament
        empty = self.seats_with("empty")
        active = self.seats_with("active")
        away = self.seats_with("away")
        waiting = self.seats_with("waiting")
        present = len(active) + len(waiting)
        choices = []
        if empty:
            choices.append(("sit", 3.0 if present < 4 else 1.0))
        if active:
            choices.append(("away", 0.4))
        if away:
            choices.append(("back", 1.0))
        if waiting and cash:
            choices.append(("choose", 0.3))
        if present + len(away) > 2:
            choices.append(("leave", 0.6))
        if empty and present + len(away):
            choices.append(("move", 0.5))
        if active and options.kills:
            choices.append(("kill", 0.3))
        if options.ante_kind:
            choices.append(("level", 0.1))
        choices.append(("bad", 0.15))
        kinds, weights = zip(*choices, strict=True)
        kind = rng.choices(kinds, weights)[0]
        if kind == "sit":
            post = cash and rng.random() < 0.5
            self.apply("sit", t.sit, rng.choice(empty), post)
        elif kind == "away":
            self.apply("away", t.away, rng.choice(active))
        elif kind == "back":
            self.apply("back", t.back, rng.choice(away), cash and rng.random() < 0.4)
        elif kind == "choose":
            self.apply("choose", t.choose, rng.choice(waiting), rng.choice(("post", "wait")))
        elif kind == "leave":
            seat = rng.choice(active + away + waiting)
            if self.apply("leave", t.leave, seat) and cash and rng.random() < 0.4:
                self.apply("take", t.take, seat)  # C6: a new player takes over at once
        elif kind == "move":
            self.apply("move", t.move, rng.choice(active + away + waiting), rng.choice(empty))
        elif kind == "kill":
            self.apply("kill", t.kill, rng.choice(active), rng.random() < 0.3)
        elif kind == "level":
            sb, bb, ante = rng.choice(ANTE_LEVELS)
            self.apply("level", t.set_level, sb, bb, ante, options.ante_kind)
        else:  # an event the rules must refuse, or may: anything on any seat
            seat = rng.randint(1, self.seats)
            what = rng.choice(("sit", "away", "back", "leave", "choose", "undo", "move", "take",
                               "kill"))
            if what == "choose":
                self.apply("choose", t.choose, seat, rng.choice(("post", "wait", "maybe")))
            elif what == "undo":  # undo whatever came last (an event or a deal)
                self.apply("undo", t.undo)
            elif what == "move":
                self.apply("move", t.move, seat, rng.randint(0, self.seats + 1))
            else:
                self.apply(what, getattr(t, what), seat)

    # -- hands ------------------------------------------------------------------------------
    def deal(self) -> Optional[object]:
        """Deal the next hand (the first: on a seat drawn at random) and check it: a refused
        deal only with fewer than two players present (D5); a restored copy deals the same
        (E4); the hand's structure; what each seat owes after it (M2)."""
        t = self.t
        level = t.level
        prev = t.hand
        status_before = {s: t.status(s) for s in range(1, self.seats + 1)}
        twin = Table.from_dict(json.loads(json.dumps(t.to_dict())))
        button = None
        if t.hands == 0:  # the draw: any seated player, one away too (S1)
            seated = self.seats_with("active") + self.seats_with("away")
            if not seated:
                return None
            button = self.rng.choice(seated)
        self.report.events += 1
        try:
            h = t.deal(button) if button else t.deal()
        except RuleError:
            self.report.refused += 1
            present = [s for s, st in status_before.items()
                       if st in ("active", "waiting") or self.options.tournament and st == "away"]
            self.check(len(present) < 2, "D5", "deal refused with %d players present"
                       % len(present))
            self.history.append("deal (refused)")
            return None
        self.history.append("deal %s -> %r" % (button or "", h))
        # E4: a table restored from its data deals the same hand and ends the same; its
        # undo history starts at the restore.
        self.check(not twin.can_undo(), "E4", "a restored table can undo")
        h2 = twin.deal(button) if button else twin.deal()
        self.check(hand_key(h2) == hand_key(h), "E4", "restored table dealt %r, not %r"
                   % (h2, h))
        self.check(twin.to_dict() == t.to_dict(), "E4", "restored table diverged")
        self.report.round_trips += 1
        self.check_hand(h, level[1], status_before)
        self.check_dead_button(h, prev, status_before)
        self.changed = set()
        # One set of blinds owed at most (M2, F1, F2): a big or a small blind live, a small
        # blind, a dealer ante and a button blind dead.
        small, big, ante, _ = level
        for s in range(1, self.seats + 1):
            live, dead = t.owes(s)
            self.check(live in (0, small, big)
                       and 0 <= dead <= small + ante + self.options.button_blind,
                       "M2", "seat %d owes %r" % (s, (live, dead)))
        self.report.add_hand(h)
        return h

    def check_hand(self, h, big: int, status_before: Dict[int, str]) -> None:
        """What any hand must be: one BB dealt in posting one big blind (DB1, M4), the SB
        and the first to act dealt in, only players present dealt in (D1, D4, T1), and
        heads-up the button on the SB, acting first (H1)."""
        t = self.t
        tournament = self.options.tournament
        dealt = tuple(h.dealt)
        # Exactly one BB, always dealt in, posting a big blind and nothing more (DB1, M4).
        self.check(isinstance(h.bb, int) and h.bb in dealt, "DB1",
                   "BB %r not dealt in %r" % (h.bb, dealt))
        self.check(h.kill == h.bb or blinds_of(h, h.bb, self.options.button_blind) == (big, 0),
                   "M4", "BB seat %d posts %r" % (h.bb, h.posts.get(h.bb)))
        self.check(len(dealt) >= 2 and len(set(dealt)) == len(dealt), "D1",
                   "dealt %r" % (dealt,))
        self.check(h.sb is None or h.sb in dealt, "DB2", "SB %r not dealt in" % h.sb)
        self.check(h.first_to_act in dealt, "D1", "first to act %r not dealt in"
                   % h.first_to_act)
        self.check(1 <= h.button <= self.seats, "DB3", "button %r" % h.button)
        self.check(set(h.posts) <= set(dealt), "D1", "posts by seats not dealt in: %r"
                   % h.posts)
        for s in dealt:  # (T1: at a tournament table away players are dealt in, still away)
            self.check(status_before[s] in ("active", "waiting")
                       or tournament and status_before[s] == "away", "D4",
                       "seat %d was %s and got dealt in" % (s, status_before[s]))
            self.check(t.status(s) == "active" or tournament and t.status(s) == "away", "D1",
                       "seat %d dealt in but %s" % (s, t.status(s)))
        # Heads-up: the button posts the SB and acts first (H1).
        if len(dealt) == 2:
            other = dealt[0] if dealt[1] == h.button else dealt[1]
            self.check(h.button in dealt and h.sb == h.button and h.bb == other, "H1",
                       "heads-up %r: button must post the SB" % h)
            first = other if h.kill == h.button else h.button   # F3: the killer acts last
            self.check(h.first_to_act == first, "H1", "heads-up first to act %r"
                       % h.first_to_act)

    def check_dead_button(self, h, prev, status_before: Dict[int, str]) -> None:
        """Dead button: whoever paid the BB pays the SB next, with 3+ dealt in (DB2), his
        seat not changed since (C1, C6) and he not a newcomer held out (T2)."""
        if (self.rules == "dead" and prev is not None and len(h.dealt) >= 3
                and status_before.get(prev.bb) == "active" and prev.bb not in self.changed
                and (prev.bb in h.dealt or not self.options.tournament)):
            self.check(h.sb == prev.bb, "DB2", "previous BB %d is active but the SB is %r"
                       % (prev.bb, h.sb))

    def play(self, hands: int, progress) -> int:
        rng = self.rng
        if self.options.ante_kind:
            sb, bb, ante = ANTE_LEVELS[0]
            self.apply("level", self.t.set_level, sb, bb, ante, self.options.ante_kind)
        for _ in range(rng.randint(2, self.seats)):
            self.apply("sit", self.t.sit, rng.choice(self.seats_with("empty")))
        if len(self.seats_with("active")) >= 3 and rng.random() < 0.25:
            self.apply("away", self.t.away, rng.choice(self.seats_with("active")))
        played = 0
        attempts = 0
        while played < hands and attempts < hands * 4:
            attempts += 1
            if self.t.hands:
                r = rng.random()
                n = 0 if r < 0.55 else 1 if r < 0.85 else rng.randint(2, 4)
                for _ in range(n):
                    self.random_event()
            if self.deal() is not None:
                played += 1
                progress(1)
            else:
                self.random_event()
        return played


def simulate(rules: str, seed: int, hands: int, seats: int, progress=None,
             referee: bool = False, options: Optional[Options] = None) -> Report:
    """Random sessions of `hands` hands in all; with referee=True every event is played on
    the independent referee too (referee.CheckedTable), and a disagreement is raised with
    the session that led to it (its `table`). `options`: what they play beyond two blinds."""
    options = options or Options()
    rng = random.Random("%d/%s/%d%s" % (seed, rules, seats, options.key()))
    report = Report(rules, seats)
    progress = progress or (lambda n: None)
    done = 0
    while done < hands:
        report.sessions += 1
        length = min(hands - done, rng.randint(20, 400))
        session = Session(rng, rules, seats, report, report.sessions,
                          CheckedTable if referee else None, options)
        checked = session.t if isinstance(session.t, CheckedTable) else None
        try:
            done += session.play(length, progress)
        except Disagreement as e:
            e.table = checked
            raise
        if checked is not None:
            report.compared += checked.compared
            report.owes_checks += checked.owes_checks
            report.new_games += checked.new_games
            for name, count in checked.accepted.items():
                report.accepted[name] = report.accepted.get(name, 0) + count
    return report


class Progress:
    """A progress bar on stderr."""

    def __init__(self, total: int, label: str, stream=None):
        self.total = max(1, total)
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        tty = getattr(self.stream, "isatty", lambda: False)()
        self.step = max(1, self.total // (50 if tty else 4))
        self.draw()

    def __call__(self, n: int) -> None:
        self.done += n
        if self.done % self.step == 0 and self.done != self.total:
            self.draw()

    def draw(self) -> None:
        width = 30
        full = width * self.done // self.total
        self.stream.write("\r%-14s [%s%s] %3d%% %d/%d hands" % (
            self.label, "#" * full, "-" * (width - full), 100 * self.done // self.total,
            self.done, self.total))
        self.stream.flush()

    def end(self, seconds: float) -> None:
        self.draw()
        self.stream.write("  %.1f s\n" % seconds)
        self.stream.flush()


def failed(bar: "Progress", start: float, seed: int, e: AssertionError,
           out: Optional[Dict[str, object]] = None) -> int:
    """Report a failed run (an invariant, or a disagreement with the referee and the
    shortest session that gives it): exit status 1. out (the --json figures) gets it too."""
    bar.end(time.monotonic() - start)
    print()
    table = e.table if isinstance(e, Disagreement) else None
    if table is None:
        print("INVARIANT FAILED (seed %d): %s" % (seed, e))
        if out is not None:
            out["failed"] = "invariant failed: %s" % e
        return 1
    log = shortest(table.seats, table.rules, table.log, **table.options)
    session = notation(table.seats, table.rules, log, **table.options)
    print("DISAGREEMENT (seed %d, rules %s, %d seats) %s" % (seed, table.rules, table.seats, e))
    print("shortest session: %s" % session)
    if out is not None:
        out["failed"] = "disagreement (rules %s, %d seats): %s; shortest session: %s" % (
            table.rules, table.seats, e, session)
    return 1


def main(seed: int, hands: int, rules: str, seats: int, json_path: Optional[str] = None,
         options: Optional[Options] = None) -> int:
    if not 2 <= seats <= 12:
        print("dealerbutton simulate: --seats must be 2..12", file=sys.stderr)
        return 2
    options = options or Options()
    sets = RULE_SETS if rules == "all" else (rules,)
    print("simulate: seed %d, %d hands per rule set, %d seats, stakes %d/%d%s"
          % (seed, hands, seats, STAKES[0], STAKES[1], options.words()))
    out: Dict[str, object] = {"mode": "fairness", "seed": seed, "hands": hands, "seats": seats,
                              "stakes": list(STAKES), "options": vars(options),
                              "rule_sets": {}}
    done: Dict[str, object] = {}
    out["rule_sets"] = done
    for name in sets:
        bar = Progress(hands, "rules " + name)
        start = time.monotonic()
        try:
            report = simulate(name, seed, hands, seats, bar, options=options)
        except InvariantFailed as e:
            rc = failed(bar, start, seed, e, out)
            write_json(json_path, out)
            return rc
        bar.end(time.monotonic() - start)
        print()
        for line in report.lines():
            print(line)
        done[name] = report_figures(report)
    write_json(json_path, out)
    return 0


def referee_main(seed: int, hands: int, rules: str, seats: Optional[int],
                 json_path: Optional[str] = None, options: Optional[Options] = None) -> int:
    """--referee: the random sessions on every table size from 2 to 12 seats (or --seats),
    every event played on the independent referee too and every deal checked against what
    `owes` said before it; figures per rule set and table size, or the first disagreement
    with the shortest session that shows it. `options`: what they play beyond two blinds
    (tournament tables too)."""
    options = options or Options()
    if seats is not None and not 2 <= seats <= 12:
        print("dealerbutton simulate: --seats must be 2..12", file=sys.stderr)
        return 2
    sizes = list(range(2, 13)) if seats is None else [seats]
    sets = RULE_SETS if rules == "all" else (rules,)
    print("simulate --referee: seed %d, %d hands per rule set on %s, stakes %d/%d%s; every "
          "event played on the referee too" % (seed, hands, "%d seats" % seats if seats
                                               else "2 to 12 seats", STAKES[0], STAKES[1],
                                               options.words()))
    done: Dict[str, object] = {}
    out: Dict[str, object] = {"mode": "referee", "seed": seed, "hands": hands, "seats": sizes,
                              "stakes": list(STAKES), "options": vars(options),
                              "rule_sets": done}
    for name in sets:
        bar = Progress(hands, "referee " + name)
        start = time.monotonic()
        reports = []
        for i, size in enumerate(sizes):
            share = hands * (i + 1) // len(sizes) - hands * i // len(sizes)
            try:
                reports.append(simulate(name, seed, share, size, bar, referee=True,
                                        options=options))
            except (Disagreement, InvariantFailed) as e:
                rc = failed(bar, start, seed, e, out)
                write_json(json_path, out)
                return rc
        bar.end(time.monotonic() - start)
        totals: Dict[str, object] = {
            "hands": sum(r.hands for r in reports),
            "sessions": sum(r.sessions for r in reports),
            "events_on_both": sum(r.compared for r in reports),
            "posts_checked": sum(r.owes_checks for r in reports),
            "disagreements": 0}
        print()
        print("referee %s: %d hands in %d sessions, %d events played on both, %d seats' "
              "posts checked against owes; disagreements: 0" % (
                  name, totals["hands"], totals["sessions"], totals["events_on_both"],
                  totals["posts_checked"]))
        print(" seats   hands sessions  heads-up  new games  dead buttons  no SB    events")
        for r in reports:
            print("%6d %7d %8d %9d %10d %13d %6d %9d" % (
                r.seats, r.hands, r.sessions, r.heads_up, r.new_games, r.dead_buttons,
                r.no_sb, r.compared))
        totals["sizes"] = [{"seats": r.seats, "hands": r.hands, "sessions": r.sessions,
                            "heads_up": r.heads_up, "new_games": r.new_games,
                            "dead_buttons": r.dead_buttons, "no_sb": r.no_sb,
                            "events_on_both": r.compared} for r in reports]
        done[name] = totals
    write_json(json_path, out)
    return 0


# -- tournaments -----------------------------------------------------------------------------

# A home tournament's blind schedule: (small blind, big blind, ante each player). The
# big-blind ante (--ante-kind bb) is one big blind, from the level where antes start; past
# the end of the list every level doubles the last one.
SCHEDULE = ((25, 50, 0), (50, 100, 0), (75, 150, 25), (100, 200, 25), (150, 300, 50),
            (200, 400, 50), (300, 600, 75), (400, 800, 100), (500, 1000, 100),
            (700, 1400, 200), (1000, 2000, 300), (1500, 3000, 400), (2000, 4000, 500))
STACK = 5000          # starting chips: 100 big blinds of the first level
LATE_LEVELS = 3       # late registration and re-entry until the end of this level
AWAY_CHANCE = 0.01    # a player in the hand steps away after it ...
AWAY_HANDS = (2, 25)  # ... for this many hands (blinded off meanwhile)


def level_at(number: int, ante_kind: str):
    """(sb, bb, ante, ante kind) of a level, 1-based."""
    if number <= len(SCHEDULE):
        sb, bb, ante = SCHEDULE[number - 1]
    else:
        sb, bb, ante = SCHEDULE[-1]
        for _ in range(number - len(SCHEDULE)):
            sb, bb, ante = 2 * sb, 2 * bb, 2 * ante
    if ante_kind == "bb":
        ante = bb if ante else 0
    return sb, bb, ante, ante_kind


class LevelFigures:
    __slots__ = ("level", "hands", "players", "busts", "entries", "blinds", "antes",
                 "blinded_off", "held_out", "dead_buttons")

    def __init__(self, level):
        self.level = level
        self.hands = self.busts = self.entries = self.blinds = self.antes = 0
        self.blinded_off = self.held_out = self.dead_buttons = 0
        self.players = 0


class Tournament:
    """One tournament table from the first hand to its winner: chips won and lost at random,
    blinds and antes from the schedule, players away (blinded off), busts, late entries."""

    def __init__(self, seed: int, rules: str, seats: int, players: int, hands_per_level: int,
                 ante_kind: str, max_hands: int):
        self.rng = random.Random("%d/%s/%d/tournament" % (seed, rules, seats))
        self.rules = rules
        self.seats = seats
        self.players = players
        self.hands_per_level = hands_per_level
        self.ante_kind = ante_kind
        self.max_hands = max_hands
        self.t = Table(seats=seats, rules=rules, stakes=level_at(1, ante_kind)[:2],
                       tournament=True)
        self.stacks: Dict[int, int] = {}
        self.away_until: Dict[int, int] = {}
        self.newcomers: set = set()   # sat down since the last hand
        self.held_out: set = set()    # held out of the last hand (T2)
        self.level = 1
        self.levels: List[LevelFigures] = []
        self.history: List[str] = []
        self.checks = self.round_trips = self.undos = 0
        self.entries = self.busts = 0

    def fail(self, rule: str, text: str):
        err = InvariantFailed("%s (%s) in the tournament, hand %d, rules %s\nlast events: %s"
                              % (text, rule, self.t.hands, self.rules,
                                 "; ".join(self.history[-40:])))
        err.history = list(self.history)
        raise err

    def check(self, ok: bool, rule: str, text: str):
        self.checks += 1
        if not ok:
            self.fail(rule, text)

    def event(self, label: str, fn, *args):
        """An event the rules must accept; now and then undone and done again (E3)."""
        before = self.t.to_dict()
        try:
            fn(*args)
        except RuleError as e:
            self.fail("E2", "%s refused: %s" % (label, e))
        self.history.append(label)
        if self.rng.random() < 0.05:
            after = self.t.to_dict()
            self.t.undo()
            self.check(self.t.to_dict() == before, "E3", "undo of %r did not restore" % label)
            fn(*args)
            self.check(self.t.to_dict() == after, "E3", "redo of %r differs" % label)
            self.undos += 1

    def seated(self) -> List[int]:
        return [s for s in range(1, self.seats + 1) if self.t.status(s) != "empty"]

    def sit(self, seat: int) -> None:
        self.event("sit %d" % seat, self.t.sit, seat)
        self.stacks[seat] = STACK
        self.entries += 1
        if self.t.hands:
            self.newcomers.add(seat)
            self.levels[-1].entries += 1

    def refusals(self) -> None:
        """T1: no post or wait choice at a tournament table (a newcomer posting, a player
        back waiting for the BB, a choice made): refused, and nothing changed."""
        t = self.t
        before = t.to_dict()
        tries = []
        empty = [s for s in range(1, self.seats + 1) if t.status(s) == "empty"]
        if empty:
            tries.append(("sit %d post" % empty[0], lambda: t.sit(empty[0], post=True)))
        away = [s for s in range(1, self.seats + 1) if t.status(s) == "away"]
        if away:
            tries.append(("back %d wait" % away[0], lambda: t.back(away[0], wait=True)))
        seat = self.rng.choice(self.seated())
        tries.append(("choose %d post" % seat, lambda: t.choose(seat, "post")))
        for label, fn in tries:
            try:
                fn()
            except RuleError as e:
                self.check("no post or wait" in str(e), "T1", "%s refused: %s" % (label, e))
            else:
                self.fail("T1", "%s was accepted" % label)
        self.check(t.to_dict() == before, "T1", "a refused choice changed the table")

    def between_hands(self) -> None:
        rng, t = self.rng, self.t
        hands = t.hands
        for seat in sorted(self.away_until):
            if self.away_until[seat] <= hands:
                del self.away_until[seat]
                self.event("back %d" % seat, t.back, seat)
        h = t.hand
        assert h is not None
        for seat in h.dealt:
            if (t.status(seat) == "active" and seat not in self.away_until
                    and rng.random() < AWAY_CHANCE):
                self.event("away %d" % seat, t.away, seat)
                self.away_until[seat] = hands + rng.randint(*AWAY_HANDS)
        if self.level <= LATE_LEVELS:  # late registration: now and then a new player
            empty = [s for s in range(1, self.seats + 1) if t.status(s) == "empty"]
            if empty and rng.random() < 0.04:
                self.sit(rng.choice(empty))
        if hands % self.hands_per_level == 0:
            self.level += 1
            sb, bb, ante, kind = level_at(self.level, self.ante_kind)
            self.event("level %d/%d ante %d %s" % (sb, bb, ante, kind), t.set_level, sb, bb,
                       ante, kind)
            self.levels.append(LevelFigures(self.level))
        if rng.random() < 0.02:
            self.refusals()

    def deal(self):
        t = self.t
        seated = self.seated()
        status_before = {s: t.status(s) for s in seated}
        level = t.level
        twin = Table.from_dict(json.loads(json.dumps(t.to_dict())))
        button = self.rng.choice(seated) if t.hands == 0 else None
        h = t.deal(button) if button else t.deal()
        self.history.append("deal %s -> %r" % (button or "", h))
        h2 = twin.deal(button) if button else twin.deal()
        self.check(hand_key(h2) == hand_key(h) and twin.to_dict() == t.to_dict(), "E4",
                   "a restored table dealt %r, not %r" % (h2, h))
        self.round_trips += 1
        sb, bb, ante, kind = level
        self.check(h.level == level, "T4", "hand dealt at %r, the level is %r"
                   % (h.level, level))
        skipped = set(seated) - set(h.dealt)
        self.check(skipped <= self.newcomers, "T1", "seats %r skipped, newcomers %r"
                   % (sorted(skipped), sorted(self.newcomers)))
        self.check(not skipped & self.held_out, "T2", "seats %r held out twice"
                   % sorted(skipped & self.held_out))
        for s in skipped:
            self.check(s == h.button or h.sb is None or len(h.dealt) == 2, "T2",
                       "seat %d held out off the button and SB position" % s)
        antes = 0
        for s in h.dealt:
            live, dead = h.posts.get(s, (0, 0))
            a = ante if kind == "each" or s == h.bb else 0
            want = bb if s == h.bb else sb if s == h.sb else 0
            self.check((live, dead) == (want, a), "T5", "seat %d posts %r, due %r"
                       % (s, (live, dead), (want, a)))
            antes += a
        self.check(set(h.posts) <= set(h.dealt), "D1", "posts by seats not dealt in")
        if len(h.dealt) == 2:
            self.check(h.sb == h.button and h.first_to_act == h.button, "H1",
                       "heads-up %r: the button must post the SB" % h)
        for s in range(1, self.seats + 1):
            self.check(t.owes(s) == (0, 0), "T1", "seat %d owes %r" % (s, t.owes(s)))
        fig = self.levels[-1]
        fig.hands += 1
        fig.antes += antes
        fig.blinds += sum(live for live, _ in h.posts.values())
        fig.blinded_off += sum(1 for s in h.dealt if status_before[s] == "away")
        fig.held_out += len(skipped)
        fig.dead_buttons += h.button not in h.dealt
        self.held_out = skipped
        self.newcomers = set()
        return h

    def play_hand(self, h) -> None:
        """Chips: every post into the pot (a short stack all in for less); now and then two
        players in the hand get all their chips in, else one of them takes the pot. Away
        players fold."""
        rng, stacks = self.rng, self.stacks
        pot = 0
        for s, (live, dead) in h.posts.items():
            paid = min(stacks[s], live + dead)
            stacks[s] -= paid
            pot += paid
        playing = [s for s in h.dealt if s not in self.away_until and self.t.status(s) != "away"]
        if not playing:
            playing = [h.bb]
        if len(playing) >= 2 and rng.random() < 0.12:
            a, b = rng.sample(playing, 2)
            stake = min(stacks[a], stacks[b])
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            stacks[winner] += stake + pot
            stacks[loser] -= stake
        else:
            stacks[rng.choice(playing)] += pot
        for s in h.dealt:
            if stacks[s] == 0:
                self.event("leave %d" % s, self.t.leave, s)
                del stacks[s]
                self.away_until.pop(s, None)
                self.busts += 1
                self.levels[-1].busts += 1
                if self.level <= LATE_LEVELS and rng.random() < 0.5:
                    self.sit(s)  # re-entry: sitting down again (T2)

    def run(self) -> "Tournament":
        seats = list(range(1, self.seats + 1))
        self.rng.shuffle(seats)
        for s in sorted(seats[:self.players]):
            self.sit(s)
        self.levels.append(LevelFigures(1))
        self.t.set_level(*level_at(1, self.ante_kind))
        while len(self.seated()) >= 2 and self.t.hands < self.max_hands:
            if self.t.hands:
                self.between_hands()
            fig = self.levels[-1]
            if not fig.hands:
                fig.players = len(self.seated())
            h = self.deal()
            self.play_hand(h)
        chips = sum(self.stacks.values())
        self.check(chips == STACK * self.entries, "chips", "%d chips on the table, %d bought in"
                   % (chips, STACK * self.entries))
        return self

    def lines(self) -> List[str]:
        t = self.t
        out = ["tournament, rules %s: %d seats, %d players of %d chips, %d hands a level, "
               "%s ante" % (self.rules, self.seats, self.players, STACK, self.hands_per_level,
                            "big-blind" if self.ante_kind == "bb" else "each player's"),
               "level     blinds   ante  hands players busts entries  blinds posted  antes "
               "posted  blinded off  held out  dead buttons"]
        total = LevelFigures(0)
        for fig in self.levels:
            sb, bb, ante, _ = level_at(fig.level, self.ante_kind)
            out.append("%5d %10s %6s %6d %7d %5d %7d %14d %13d %12d %9d %13d" % (
                fig.level, "%d/%d" % (sb, bb), ante or "-", fig.hands, fig.players, fig.busts,
                fig.entries, fig.blinds, fig.antes, fig.blinded_off, fig.held_out,
                fig.dead_buttons))
            for k in ("hands", "busts", "entries", "blinds", "antes", "blinded_off",
                      "held_out", "dead_buttons"):
                setattr(total, k, getattr(total, k) + getattr(fig, k))
        out.append("%5s %10s %6s %6d %7s %5d %7d %14d %13d %12d %9d %13d" % (
            "all", "", "", total.hands, "", total.busts, total.entries, total.blinds,
            total.antes, total.blinded_off, total.held_out, total.dead_buttons))
        left = self.seated()
        if len(left) == 1:
            end = "won by seat %d with all %d chips" % (left[0], self.stacks[left[0]])
        else:
            end = "stopped at the hand limit with %d players left" % len(left)
        out.append("%d hands, level %d reached, players left: %d of %d entries (%d late "
                   "or re-entries), %d busts; %s" % (t.hands, self.level, len(left),
                                                     self.entries, self.entries - self.players,
                                                     self.busts, end))
        out.append("invariants held: %d checks over %d hands; %d undos exact, %d round trips "
                   "deal the same" % (self.checks, t.hands, self.undos, self.round_trips))
        return out


def tournament_figures(done: "Tournament") -> Dict[str, object]:
    """A tournament's figures, as the JSON of --json has them."""
    left = done.seated()
    return {"seats": done.seats, "players": done.players, "hands": done.t.hands,
            "level_reached": done.level, "entries": done.entries, "busts": done.busts,
            "players_left": len(left), "checks": done.checks, "undos": done.undos,
            "round_trips": done.round_trips,
            "levels": [{k: getattr(fig, k) for k in LevelFigures.__slots__}
                       for fig in done.levels]}


def tournament_main(seed: int, rules: str, seats: int, players: Optional[int], minutes: int,
                    pace: int, ante_kind: str, max_hands: int,
                    json_path: Optional[str] = None) -> int:
    if not 2 <= seats <= 12:
        print("dealerbutton simulate: --seats must be 2..12", file=sys.stderr)
        return 2
    players = seats if players is None else players
    if not 2 <= players <= seats:
        print("dealerbutton simulate: --players must be 2..%d (the seats)" % seats,
              file=sys.stderr)
        return 2
    hands_per_level = max(1, minutes * pace // 60)
    sets = RULE_SETS if rules == "all" else (rules,)
    print("simulate: seed %d, a tournament per rule set; levels of %d minutes at %d hands an "
          "hour: %d hands a level" % (seed, minutes, pace, hands_per_level))
    results: Dict[str, object] = {}
    out: Dict[str, object] = {"mode": "tournament", "seed": seed, "minutes": minutes,
                              "pace": pace, "hands_per_level": hands_per_level,
                              "ante_kind": ante_kind, "rule_sets": results}
    for name in sets:
        start = time.monotonic()
        try:
            done = Tournament(seed, name, seats, players, hands_per_level, ante_kind,
                              max_hands).run()
        except InvariantFailed as e:
            print()
            print("INVARIANT FAILED (seed %d): %s" % (seed, e))
            out["failed"] = "invariant failed: %s" % e
            write_json(json_path, out)
            return 1
        sys.stdout.flush()
        print("tournament %s: %d hands in %.2f s" % (name, done.t.hands,
                                                     time.monotonic() - start), file=sys.stderr)
        print()
        for line in done.lines():
            print(line)
        results[name] = tournament_figures(done)
    write_json(json_path, out)
    return 0
