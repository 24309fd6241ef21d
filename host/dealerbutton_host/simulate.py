"""`dealerbutton simulate`: random sessions through the rules core, every invariant checked,
and a fairness report per rule set (who paid which blind, posts, dead buttons).

Each session seats a few players, deals the first hand with a random button, then
between hands players join (posting or waiting), step away, come back, change their
mind and bust out. Every hand is checked against the invariants of the rules; any
failure stops the run with the seed, the session and its last events.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Dict, List, Optional

from dealerbutton.rules import RuleError, Table

RULE_SETS = ("dead", "moving", "simple")
STAKES = (10, 20)


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


def hand_key(h):
    return (h.n, h.button, h.sb, h.bb, tuple(h.dealt), sorted(h.posts.items()), h.first_to_act)


class Session:
    """One table from its first hand to its last, with random comings and goings."""

    def __init__(self, rng: random.Random, rules: str, seats: int, report: Report,
                 number: int):
        self.rng = rng
        self.rules = rules
        self.seats = seats
        self.report = report
        self.number = number
        self.t = Table(seats=seats, rules=rules, stakes=STAKES)
        self.history: List[str] = []

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
            fn(*args)
        except RuleError as e:
            self.report.refused += 1
            self.check(self.t.to_dict() == before, "E2", "refused %r changed the table" % label)
            self.check(bool(str(e)), "E2", "refused %r without a reason" % label)
            self.history.append(label + " (refused)")
            return False
        self.history.append(label)
        if name != "undo" and self.rng.random() < 0.05:  # E3: undo restores exactly, then do it again
            after = self.t.to_dict()
            self.t.undo()
            self.check(self.t.to_dict() == before, "E3", "undo of %r did not restore" % label)
            fn(*args)
            self.check(self.t.to_dict() == after, "E3", "redo of %r differs" % label)
            self.report.undos += 1
        return True

    def random_event(self) -> None:
        rng, t = self.rng, self.t
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
        if waiting:
            choices.append(("choose", 0.3))
        if present + len(away) > 2:
            choices.append(("leave", 0.6))
        choices.append(("bad", 0.15))
        kinds, weights = zip(*choices, strict=True)
        kind = rng.choices(kinds, weights)[0]
        if kind == "sit":
            post = rng.random() < 0.5
            self.apply("sit", t.sit, rng.choice(empty), post)
        elif kind == "away":
            self.apply("away", t.away, rng.choice(active))
        elif kind == "back":
            self.apply("back", t.back, rng.choice(away), rng.random() < 0.4)
        elif kind == "choose":
            self.apply("choose", t.choose, rng.choice(waiting), rng.choice(("post", "wait")))
        elif kind == "leave":
            self.apply("leave", t.leave, rng.choice(active + away + waiting))
        else:  # an event the rules must refuse, or may: anything on any seat
            seat = rng.randint(1, self.seats)
            what = rng.choice(("sit", "away", "back", "leave", "choose", "undo"))
            if what == "choose":
                self.apply("choose", t.choose, seat, rng.choice(("post", "wait", "maybe")))
            elif what == "undo":  # undo whatever came last (an event or a deal)
                self.apply("undo", t.undo)
            else:
                self.apply(what, getattr(t, what), seat)

    # -- hands ------------------------------------------------------------------------------
    def deal(self) -> Optional[object]:
        t = self.t
        big = STAKES[1]
        prev = t.hand
        status_before = {s: t.status(s) for s in range(1, self.seats + 1)}
        twin = Table.from_dict(json.loads(json.dumps(t.to_dict())))
        button = None
        if t.hands == 0:
            active = self.seats_with("active")
            if not active:
                return None
            button = self.rng.choice(active)
        self.report.events += 1
        try:
            h = t.deal(button) if button else t.deal()
        except RuleError:
            self.report.refused += 1
            present = [s for s, st in status_before.items() if st in ("active", "waiting")]
            self.check(len(present) < 2, "D5", "deal refused with %d players present"
                       % len(present))
            self.history.append("deal (refused)")
            return None
        self.history.append("deal %s -> %r" % (button or "", h))
        # E4: a table restored from its data deals the same hand and ends the same.
        h2 = twin.deal(button) if button else twin.deal()
        self.check(hand_key(h2) == hand_key(h), "E4", "restored table dealt %r, not %r"
                   % (h2, h))
        self.check(twin.to_dict() == t.to_dict(), "E4", "restored table diverged")
        self.report.round_trips += 1
        dealt = tuple(h.dealt)
        # Exactly one BB, always dealt in, posting a big blind and nothing more (DB1, M4).
        self.check(isinstance(h.bb, int) and h.bb in dealt, "DB1",
                   "BB %r not dealt in %r" % (h.bb, dealt))
        self.check(tuple(h.posts.get(h.bb, (0, 0))) == (big, 0), "M4",
                   "BB seat %d posts %r" % (h.bb, h.posts.get(h.bb)))
        self.check(len(dealt) >= 2 and len(set(dealt)) == len(dealt), "D1",
                   "dealt %r" % (dealt,))
        self.check(h.sb is None or h.sb in dealt, "DB2", "SB %r not dealt in" % h.sb)
        self.check(h.first_to_act in dealt, "D1", "first to act %r not dealt in"
                   % h.first_to_act)
        self.check(1 <= h.button <= self.seats, "DB3", "button %r" % h.button)
        self.check(set(h.posts) <= set(dealt), "D1", "posts by seats not dealt in: %r"
                   % h.posts)
        for s in dealt:
            self.check(status_before[s] in ("active", "waiting"), "D4",
                       "seat %d was %s and got dealt in" % (s, status_before[s]))
            self.check(t.status(s) == "active", "D1", "seat %d dealt in but %s"
                       % (s, t.status(s)))
        # Heads-up: the button posts the SB and acts first (H1).
        if len(dealt) == 2:
            other = dealt[0] if dealt[1] == h.button else dealt[1]
            self.check(h.button in dealt and h.sb == h.button and h.bb == other, "H1",
                       "heads-up %r: button must post the SB" % h)
            self.check(h.first_to_act == h.button, "H1", "heads-up first to act %r"
                       % h.first_to_act)
        # Dead button: whoever paid the BB pays the SB next, with 3+ dealt in (DB2).
        if (self.rules == "dead" and prev is not None and len(dealt) >= 3
                and status_before.get(prev.bb) == "active"):
            self.check(h.sb == prev.bb, "DB2", "previous BB %d is active but the SB is %r"
                       % (prev.bb, h.sb))
        # One set of blinds owed at most (M2).
        for s in range(1, self.seats + 1):
            live, dead = t.owes(s)
            self.check(live in (0, big) and dead in (0, STAKES[0]), "M2",
                       "seat %d owes %r" % (s, (live, dead)))
        self.report.add_hand(h)
        return h

    def play(self, hands: int, progress) -> int:
        rng = self.rng
        for _ in range(rng.randint(2, self.seats)):
            self.apply("sit", self.t.sit, rng.choice(self.seats_with("empty")))
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


def simulate(rules: str, seed: int, hands: int, seats: int, progress=None) -> Report:
    rng = random.Random("%d/%s/%d" % (seed, rules, seats))
    report = Report(rules, seats)
    progress = progress or (lambda n: None)
    done = 0
    while done < hands:
        report.sessions += 1
        length = min(hands - done, rng.randint(20, 400))
        done += Session(rng, rules, seats, report, report.sessions).play(length, progress)
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


def main(seed: int, hands: int, rules: str, seats: int) -> int:
    if not 2 <= seats <= 12:
        print("dealerbutton simulate: --seats must be 2..12", file=sys.stderr)
        return 2
    sets = RULE_SETS if rules == "all" else (rules,)
    print("simulate: seed %d, %d hands per rule set, %d seats, stakes %d/%d"
          % (seed, hands, seats, STAKES[0], STAKES[1]))
    for name in sets:
        bar = Progress(hands, "rules " + name)
        start = time.monotonic()
        try:
            report = simulate(name, seed, hands, seats, bar)
        except InvariantFailed as e:
            bar.end(time.monotonic() - start)
            print()
            print("INVARIANT FAILED (seed %d): %s" % (seed, e))
            return 1
        bar.end(time.monotonic() - start)
        print()
        for line in report.lines():
            print(line)
    return 0
