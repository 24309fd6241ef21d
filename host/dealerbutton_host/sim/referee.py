"""An independent referee for the rules core: the rules of RULES.md (S1..E4, C1..C6, F1..F5,
T1..T5) written again from the text, with sets of seats and plain walks round the table,
sharing no code with dealerbutton (ref_table.py: the table and what it shows, on
ref_state.py's facts; ref_seats.py: the seat events; ref_deal.py: the deal; ref_hand.py: the
next hand; ref_posts.py: what it charges and `owes`). `CheckedTable` plays every event on both and
reports the first place they disagree: what is accepted, a hand, a seat's status, choice,
debts, markers, mover's wait, the kill mark. It also checks the owes/charges property
(M6) after every event, on a copy of the table dealt at once, and on every deal: each seat
dealt in posts the blind of its position plus what `owes` said just before the deal, and
the hand's forced bets (antes, button blind, kill; the big blind: one big blind, nothing
more).

`dealerbutton simulate --referee` runs random sessions through it (see simulate.py).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from dealerbutton.rules import RuleError, Table

from . import ref_hand
from .ref_posts import kill_chips
from .ref_table import UNDO_DEPTH, Referee

__all__ = ["UNDO_DEPTH", "CheckedTable", "Disagreement", "Referee", "notation", "replay",
           "shortest"]


class Disagreement(AssertionError):
    """The rules core and the referee (or the owes/charges property) disagree; `table` is
    the CheckedTable it happened on, when the caller sets it (its log replays it)."""

    def __init__(self, rule: str, text: str):
        super().__init__("%s: %s" % (rule, text))
        self.rule = rule
        self.table: Optional["CheckedTable"] = None


def hand_of(h) -> tuple:
    return (h.button, h.sb, h.bb, tuple(sorted(h.dealt)), sorted(h.posts.items()),
            h.first_to_act, h.kill, h.button_blind)


def ante_of(h, s: int) -> int:
    """The ante seat s posts in hand h (T5, F1)."""
    ante, kind = h.level[2], h.level[3]
    if s not in h.dealt:
        return 0
    if kind == "each" or kind == "bb" and s == h.bb or kind == "button" and s == h.button:
        return ante
    return 0


class CheckedTable(Table):
    """A rules-core table whose every event is played on a Referee too: any difference in
    what is accepted, in a hand, or in what a seat shows raises Disagreement. Each deal,
    and a copy of the table dealt after every other event, is also checked against what
    `owes` said just before it (M6)."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20), tournament=False,
                 button_blind=0, makeup="together"):
        super().__init__(seats, rules, stakes, tournament, button_blind, makeup)
        self.options = {"tournament": tournament, "button_blind": button_blind,
                        "makeup": makeup}
        self.referee = Referee(seats, rules, stakes[0], stakes[1], tournament, button_blind,
                               makeup)
        self.owes_checks = 0     # seats whose posts were checked against `owes`
        self.compared = 0        # events compared with the referee
        self.new_games = 0       # hands the referee dealt as a new game (D5, MS2)
        self.log: List[tuple] = []  # every event tried: (name, args), to replay it
        self.accepted: Dict[str, int] = {}  # events both accepted, by name

    @classmethod
    def from_dict(cls, d):
        return Table.from_dict(d)  # a plain table: the saved form has no referee

    def _both(self, name: str, core, referee, *args) -> Tuple[Any, Any]:
        """Play an event on the core and on the referee: both accept it (their results) or
        both refuse it (RuleError)."""
        self.log.append((name, args))
        try:
            result = core(*args)
            accepted = True
        except RuleError:
            result = None
            accepted = False
        expected = referee(*args)
        if accepted != (expected is not None and expected is not False
                        or name == "set_level" and expected is False):
            raise Disagreement("E2", "%s%r: the core %s it, the referee %s it" % (
                name, args, "accepted" if accepted else "refused",
                "accepts" if expected else "refuses"))
        self.compared += 1
        if not accepted:
            raise RuleError("%s%r refused" % (name, args))
        self.accepted[name] = self.accepted.get(name, 0) + 1
        return result, expected

    # -- what the seats show --------------------------------------------------------------
    def seen(self) -> List[tuple]:
        """Every seat as the core shows it: (status, choice, owes, markers, mover's wait)."""
        return [(self.status(s), self.choice(s), self.owes(s), self.markers(s),
                 self.mover_wait(s)) for s in range(1, self.seats + 1)]

    def seats_agree(self):
        ref = self.referee
        want = ref.every_owes()
        got_all = self.seen()
        for s in range(1, self.seats + 1):
            got = got_all[s - 1]
            expect = (ref.status(s), ref.choice(s), want[s - 1], ref.markers(s), ref.wait(s))
            if got != expect:
                rule = ("status" if got[:2] != expect[:2] else "M6" if got[2] != expect[2]
                        else "M2" if got[3] != expect[3] else "C3")
                raise Disagreement(rule, "seat %d is %r, the referee says %r" % (
                    s, got, expect))
        if self.kill_mark != ref.kill_mark():
            raise Disagreement("F3", "the kill mark is %r, the referee says %r" % (
                self.kill_mark, ref.kill_mark()))
        self.owes_by_a_deal(got_all)

    def owes_by_a_deal(self, seen):
        """M6 after every event: a copy of the table dealt now charges each seat what `owes`
        says (M6a); for each player away, a copy where he has come back (`back`, post),
        dealt now, charges him what `owes` says of him here (M6b). The first hand needs a
        draw: none before it."""
        if not self.hands:
            return
        saved = self.to_dict()
        if self.deal_refusal() is None:
            twin = Table.from_dict(saved)
            self.check_posts_against_owes(twin.deal(), seen, self.kill_mark, "after the event")
        for s in range(1, self.seats + 1):
            if seen[s - 1][0] == "away":
                twin = Table.from_dict(saved)
                twin.back(s)
                if twin.deal_refusal() is None:
                    self.check_posts_against_owes(twin.deal(), seen, self.kill_mark,
                                                  "back now (M6b)", (s,))

    # -- events ---------------------------------------------------------------------------
    def sit(self, seat, post=False):
        self._both("sit", super().sit, self.referee.sit, seat, post)
        self.seats_agree()

    def away(self, seat):
        self._both("away", super().away, self.referee.away, seat)
        self.seats_agree()

    def back(self, seat, wait=False):
        self._both("back", super().back, self.referee.back, seat, wait)
        self.seats_agree()

    def choose(self, seat, choice):
        self._both("choose", super().choose, self.referee.choose, seat, choice)
        self.seats_agree()

    def leave(self, seat):
        self._both("leave", super().leave, self.referee.leave, seat)
        self.seats_agree()

    def move(self, a, b):
        self._both("move", super().move, self.referee.move, a, b)
        self.seats_agree()

    def take(self, seat):
        self._both("take", super().take, self.referee.take, seat)
        self.seats_agree()

    def kill(self, seat, half=False):
        self._both("kill", super().kill, self.referee.kill, seat, half)
        self.seats_agree()

    def set_level(self, sb, bb, ante=0, ante_kind="each"):
        changed, expected = self._both("set_level", super().set_level, self.referee.set_level,
                                       sb, bb, ante, ante_kind)
        if changed != expected:
            raise Disagreement("T4", "level %r: the core says changed=%r, the referee %r" % (
                (sb, bb, ante, ante_kind), changed, expected))
        self.seats_agree()
        return changed

    def undo(self):
        self._both("undo", super().undo, self.referee.undo)
        self.seats_agree()

    def deal(self, button=None):
        seen = self.seen()
        kill_mark = self.kill_mark
        last = self.hand
        level = self.level
        h, (nx, posts) = self._both("deal", super().deal, self.referee.deal, button)
        self.new_games += nx.new_game
        if h.level != level:
            raise Disagreement("T4", "%r dealt at %r, the level is %r" % (h, h.level, level))
        self.check_structure(h, last, seen, button)
        self.check_posts_against_owes(h, seen, kill_mark, "at the deal")
        expect = (nx.button, nx.sb_player, nx.bb, tuple(sorted(nx.dealt)),
                  sorted(posts.items()), ref_hand.first_to_act(self.referee, nx), nx.killer,
                  nx.button if nx.button in nx.charges and nx.charges[nx.button].button_blind
                  else None)
        if hand_of(h) != expect:
            raise Disagreement("hand", "the core dealt %r (posts %r, kill %r, button blind "
                               "%r), the referee %r" % (h, sorted(h.posts.items()), h.kill,
                                                        h.button_blind, expect))
        self.seats_agree()
        return h

    # -- what RULES.md says of any hand ------------------------------------------------------
    def check_structure(self, h, last, seen, draw):
        """Who may be dealt in and where the button may stand, whatever the positions."""
        dealt = set(h.dealt)
        small = h.level[0]

        def fail(rule, text):
            raise Disagreement(rule, "%s in %r (posts %r)" % (text, h, sorted(h.posts.items())))

        for s in range(1, self.seats + 1):
            status, choice, owed = seen[s - 1][:3]
            live, dead = h.posts.get(s, (0, 0))
            dead -= ante_of(h, s)
            if s == h.button_blind:
                live -= self.state.button_blind
            if self.tournament:
                if status == "empty" and s in dealt:
                    fail("T1", "empty seat %d dealt in" % s)
                if (status != "empty" and s not in dealt and s != h.button
                        and h.sb is not None and len(dealt) > 2):  # (no SB: its position)
                    fail("T2", "seat %d held out off the button and SB position" % s)
                continue
            if status == "active" and s not in dealt:
                fail("D1", "active seat %d not dealt in" % s)
            if status in ("away", "empty") and s in dealt:
                fail("D4", "%s seat %d dealt in" % (status, s))
            if s == h.kill:
                continue
            if status == "waiting" and s in dealt and s != h.bb and choice == "wait":
                # D3: in on the BB only, unless he plays free (S2) or a new game starts (D5)
                if owed != (0, 0) or (live, dead) not in ((0, 0), (small, 0)):
                    fail("D3", "seat %d waiting for the BB dealt in off it" % s)
            if status == "waiting" and s == h.sb and (live, dead) != (small, 0):
                fail("D5", "waiting seat %d posts a debt on the SB" % s)
        if h.bb not in dealt or h.button == h.bb:
            fail("DB1", "the BB must be dealt in, never on the button")
        if len(dealt) == 2:
            first = h.button if h.kill != h.button else (dealt - {h.button}).pop()
            if not (h.sb == h.button and h.button in dealt and h.first_to_act == first):
                fail("H1", "heads-up the button posts the SB and acts first")
        elif last is not None and self.rules == "dead":
            # The rotation seats: active players, the last hand's button, SB position (a
            # seat after its button, before its BB) and BB, and whoever it dealt in.
            rotation = ({s for s in range(1, self.seats + 1) if seen[s - 1][0] == "active"
                         or self.tournament and seen[s - 1][0] != "empty"}
                        | {last.button, last.bb} | set(last.dealt))
            seat = last.button % self.seats + 1
            while seat != last.bb:
                rotation.add(seat)
                seat = seat % self.seats + 1
            if h.button not in rotation:
                fail("DB3", "the button on seat %d, not a rotation seat" % h.button)
        elif last is not None and h.button not in dealt and not self.tournament:
            fail("MB1", "the button on seat %d, not a player dealt in" % h.button)
        elif last is None and h.button != draw:
            fail("S1", "the first button is not on the seat that won the draw (%r)" % draw)

    def check_posts_against_owes(self, h, seen, kill_mark, when, seats=None):
        """M6: each seat dealt in (of `seats`, every seat if None) posts his position's blind
        plus what he owed before the deal, and the hand's forced bets: the ante (T5, F1), the
        button blind (F2), the kill in place of every live blind (F3); the BB posts one big
        blind, nothing more (M4); nobody else posts."""
        small, big = h.level[:2]
        for s in seats or range(1, self.seats + 1):
            posts = h.posts.get(s, (0, 0))
            status, _, (live, dead) = seen[s - 1][:3]
            ante = ante_of(h, s)
            if s not in h.dealt:
                want = (0, 0)
            elif kill_mark is not None and s == kill_mark[0]:
                want = (kill_chips("half" if kill_mark[1] else "full", h.level),
                        (0 if s == h.bb else dead) + ante)
            elif s == h.bb:
                want = (big, ante)
            else:
                live += small if s == h.sb else 0
                live += self.state.button_blind if s == h.button_blind else 0
                want = (live, dead + ante)
            if posts != want:
                raise Disagreement("M6", "%s: seat %d (%s, owed %r) posts %r in %r, not %r" % (
                    when, s, status, seen[s - 1][2], posts, h, want))
            self.owes_checks += 1


# -- sessions as the issues write them ----------------------------------------------------

def notation(seats: int, rules: str, log, **options) -> str:
    """A session as the issues write it: `T(4,dead); sit 1; sit 2 post; deal 1; away 2; deal`
    (a tournament, a button blind, make-ups one a hand: `T(4,dead,tournament)`,
    `T(4,dead,button blind 20,one per hand)`)."""
    head = [str(seats), rules]
    if options.get("tournament"):
        head.append("tournament")
    if options.get("button_blind"):
        head.append("button blind %d" % options["button_blind"])
    if options.get("makeup", "together") != "together":
        head.append("one per hand")
    words = ["T(%s)" % ",".join(head)]
    for name, args in log:
        if name == "sit":
            words.append("sit %d%s" % (args[0], " post" if args[1] else ""))
        elif name == "back":
            words.append("back %d%s" % (args[0], " wait" if args[1] else ""))
        elif name == "kill":
            words.append("kill %d%s" % (args[0], " half" if args[1] else ""))
        elif name == "deal":
            words.append("deal" if args[0] is None else "deal %d" % args[0])
        elif name == "set_level":
            words.append("level %d %d %d %s" % args)
        else:
            words.append(" ".join([name] + [str(a) for a in args]))
    return "; ".join(words)


def replay(seats: int, rules: str, log, **options) -> Optional[Disagreement]:
    """Play a logged session again on a checked table: the disagreement it ends in, if any."""
    t = CheckedTable(seats, rules, **options)
    for name, args in log:
        try:
            getattr(t, name)(*args)
        except RuleError:
            pass
        except Disagreement as e:
            return e
    return None


def shortest(seats: int, rules: str, log, **options) -> list:
    """The session cut down to the fewest events that still end in a disagreement of the
    same rule: whole stretches first, then one event at a time."""
    first = replay(seats, rules, log, **options)
    if first is None:
        return list(log)
    events = list(log)
    chunk = max(1, len(events) // 2)
    while True:
        cut = False
        i = len(events) - chunk
        while i >= 0:
            trial = events[:i] + events[i + chunk:]
            found = replay(seats, rules, trial, **options)
            if found is not None and found.rule == first.rule:
                events = trial
                cut = True
            i -= chunk
        if chunk == 1 and not cut:
            return events
        chunk = max(1, chunk // 2)
