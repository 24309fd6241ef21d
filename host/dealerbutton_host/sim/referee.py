"""An independent referee for the rules core: the cash-game rules of RULES.md (S1..E4) written
again from the text, with sets of seats and plain walks round the table, sharing no code
with dealerbutton.rules. `CheckedTable` plays every event on both and reports the first
place they disagree, and checks the owes/charges property on every deal: each seat dealt
in posts the blind of its position plus what `owes` said just before the deal (the big
blind: one big blind, nothing more).

`dealerbutton simulate --referee` runs random sessions through it (see simulate.py).
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Set, Tuple

from dealerbutton.rules import RuleError, Table

UNDO_DEPTH = 40  # E3, as RULES.md has it


class Disagreement(AssertionError):
    """The rules core and the referee (or the owes/charges property) disagree; `table` is
    the CheckedTable it happened on, when the caller sets it (its log replays it)."""

    def __init__(self, rule: str, text: str):
        super().__init__("%s: %s" % (rule, text))
        self.rule = rule
        self.table: Optional["CheckedTable"] = None


class Player:
    __slots__ = ("status", "new", "post", "missed_bb", "missed_sb", "carries_sb", "paid_bb")

    def __init__(self, status: str, new: bool, post: bool):
        self.status = status        # "active", "away" or "waiting"
        self.new = new              # never dealt in yet (M3a)
        self.post = post            # a waiting player's choice: post (else wait for the BB)
        self.missed_bb = False      # the room's markers (M1, M2)
        self.missed_sb = False
        self.carries_sb = False     # MB2: a made-up SB carried to the next hand
        self.paid_bb = False        # MB2: paid a BB as a blind last hand


class Next:
    """The next hand as the referee sees it."""

    def __init__(self):
        self.new_game = False
        self.button = self.sb_pos = self.bb = 0
        self.sb_player: Optional[int] = None
        self.dealt: Set[int] = set()
        self.free: Set[int] = set()
        self.posts: Dict[int, Tuple[int, int]] = {}
        self.sb_passes: Set[int] = set()
        self.bb_passes: Set[int] = set()
        self.passed: Set[int] = set()
        self.travel = 0
        self.paid_bb: Set[int] = set()
        self.carries_sb: Set[int] = set()


class Referee:
    """A cash table by the text of RULES.md."""

    def __init__(self, seats: int, rules: str, small: int, big: int):
        self.n = seats
        self.rules = rules
        self.small = small
        self.big = big
        self.players: Dict[int, Player] = {}
        self.hands = 0
        # the last hand as really played
        self.button = self.sb_pos = self.bb = 0
        self.dealt: Set[int] = set()
        self.left: Set[int] = set()    # dealt into the last hand, left since
        self.passed: Set[int] = set()  # S2
        self.travel = 0
        self.history: List[tuple] = []

    # -- the table round ----------------------------------------------------------------
    def after(self, seat: int) -> List[int]:
        """Every seat after `seat`, clockwise, `seat` itself last."""
        return [(seat + i - 1) % self.n + 1 for i in range(1, self.n + 1)]

    def before(self, seat: int) -> List[int]:
        """Every seat before `seat`, counter-clockwise, `seat` itself last."""
        return [(seat - i - 1) % self.n + 1 for i in range(1, self.n + 1)]

    def first_after(self, seat: int, among) -> int:
        for s in self.after(seat):
            if s in among:
                return s
        return 0

    def moved_over(self, start: int, end: int) -> Set[int]:
        """The seats a position passes going from `start` to `end`: after start, up to and
        including end (none if it stays)."""
        out: Set[int] = set()
        if start == end:
            return out
        for s in self.after(start):
            out.add(s)
            if s == end:
                break
        return out

    def strictly_between(self, start: int, end: int) -> Set[int]:
        """Seats after `start` and before `end`, clockwise (every other seat if equal)."""
        out: Set[int] = set()
        for s in self.after(start):
            if s == end:
                break
            out.add(s)
        return out

    def with_status(self, *statuses) -> Set[int]:
        return {s for s, p in self.players.items() if p.status in statuses}

    # -- events ---------------------------------------------------------------------------
    def snapshot(self):
        """The state before an event, for undo (E3: 40 deep)."""
        del self.history[:-UNDO_DEPTH + 1]
        self.history.append(copy.deepcopy((self.players, self.hands, self.button, self.sb_pos,
                                           self.bb, self.dealt, self.left, self.passed,
                                           self.travel)))

    def sit(self, seat: int, post: bool = False) -> bool:
        if not 1 <= seat <= self.n or seat in self.players:
            return False
        self.snapshot()
        if self.hands == 0:
            self.players[seat] = Player("active", False, post)  # S1
        else:
            self.players[seat] = Player("waiting", True, post)
        return True

    def away(self, seat: int) -> bool:
        p = self.players.get(seat)
        if p is None or p.status == "away":
            return False
        self.snapshot()
        if p.carries_sb:
            p.carries_sb = False
            p.missed_sb = True
        p.status = "away"
        return True

    def back(self, seat: int, wait: bool = False) -> bool:
        p = self.players.get(seat)
        if p is None or p.status != "away":
            return False
        self.snapshot()
        if p.new or p.missed_bb or p.missed_sb:  # M3, M3a
            p.status = "waiting"
            p.post = not wait
        else:
            p.status = "active"
        return True

    def choose(self, seat: int, choice: str) -> bool:
        p = self.players.get(seat)
        if p is None or p.status != "waiting" or choice not in ("post", "wait"):
            return False
        if p.post == (choice == "post"):  # E2: the choice already made
            return False
        self.snapshot()
        p.post = choice == "post"
        return True

    def leave(self, seat: int) -> bool:
        if seat not in self.players:
            return False
        self.snapshot()
        if seat in self.dealt:
            self.left.add(seat)
        del self.players[seat]
        return True

    def undo(self) -> bool:
        if not self.history:
            return False
        (self.players, self.hands, self.button, self.sb_pos, self.bb, self.dealt, self.left,
         self.passed, self.travel) = self.history.pop()
        return True

    # -- the next hand ----------------------------------------------------------------------
    def can_deal(self, button: Optional[int]) -> bool:
        present = self.with_status("active", "waiting")
        if len(present) < 2:
            return False
        if self.hands == 0:
            return button is not None and button in self.players  # S1: active or away
        return button is None

    def plan(self, draw: Optional[int] = None) -> Next:
        nx = Next()
        active = self.with_status("active")
        present = self.with_status("active", "waiting")
        if self.hands == 0:
            assert draw is not None
            self.first_hand(nx, draw, active)
        elif self.rules != "dead" and len(active) <= 1:
            self.new_game(nx, present)  # MS2
        else:
            self.regular_hand(nx, active, present)
        self.count_passes(nx, draw)
        self.count_posts(nx)
        return nx

    def first_hand(self, nx: Next, draw: int, active: Set[int]):
        if len(active) == 2 and draw in active:
            sb = draw
        else:
            sb = self.first_after(draw, active - {draw})
        bb = self.first_after(sb, active - {draw, sb})
        nx.dealt = set(active)
        nx.sb_pos, nx.bb = sb, bb
        nx.button = sb if len(active) == 2 else draw

    def dead_positions(self, active: Set[int], present: Set[int]):
        """DB1..DB3: (button or None when only the SB and BB players play, SB position, BB)."""
        bb = self.first_after(self.bb, present)
        rotation = (active | {self.button, self.sb_pos, self.bb} | self.dealt) - {bb}
        if self.bb in active and self.bb not in self.left:
            sb = self.bb
        else:
            sb = next(s for s in self.before(bb) if s in rotation)
        button = first_before_stop(self.before(sb), rotation, bb)
        return button, sb, bb

    def moving_positions(self, active: Set[int], present: Set[int]):
        """MB1: (button, SB position, BB; the BB on the SB when nobody is between the SB and
        the button)."""
        button = self.first_after(self.button, active)
        sb = self.first_after(button, active - {button})
        bb = first_before_stop(self.after(sb), present, button) or sb
        return button, sb, bb

    def regular_hand(self, nx: Next, active: Set[int], present: Set[int]):
        if self.rules == "dead":
            button, sb, bb = self.dead_positions(active, present)
        else:
            button, sb, bb = self.moving_positions(active, present)
        only_blinds = button is None
        if only_blinds:
            button = sb
        # S2 at this deal, by these positions
        travel = self.travel + (button - self.button) % self.n
        if travel < self.n:
            passed = self.passed | self.sb_moves(sb, bb, only_blinds) | self.moved_over(self.bb, bb)
            nx.free = set(range(1, self.n + 1)) - passed
        if only_blinds:
            dealt = ({sb} & active) | {bb}
        else:
            zone = ({button} | self.strictly_between(button, bb)) - {bb}
            dealt = active | {bb}
            for s, p in self.players.items():
                if p.status == "waiting" and s not in zone and (p.post or (p.new and s in nx.free)):
                    dealt.add(s)
        if len(dealt) == 2:
            bb = self.first_after(self.bb, dealt)
            button = sb = (dealt - {bb}).pop()
            if self.players[button].status == "waiting":
                dealt = {bb}  # D2: the heads-up button; never a debt on the SB
        if len(dealt) < 2:
            self.new_game(nx, present)  # D5
            return
        nx.button, nx.sb_pos, nx.bb, nx.dealt = button, sb, bb, dealt

    def new_game(self, nx: Next, present: Set[int]):
        nx.new_game = True
        nx.dealt = set(present)
        if self.rules == "dead":
            button, sb, bb = self.dead_positions(present, present)
            if button is None:
                button = sb
            if len(present) == 2:
                bb = self.first_after(self.bb, present)
                button = sb = (present - {bb}).pop()
        else:
            button = self.first_after(self.button, present)
            if len(present) == 2:
                sb = button
                bb = (present - {button}).pop()
            else:
                sb = self.first_after(button, present - {button})
                bb = self.first_after(sb, present - {button, sb})
        nx.button, nx.sb_pos, nx.bb = button, sb, bb

    def sb_moves(self, sb: int, bb: int, heads_up: bool) -> Set[int]:
        """H1: a heads-up SB that is not between its last position and the new BB has moved
        back: it passes nobody."""
        if heads_up and sb not in self.strictly_between(self.sb_pos, bb):
            return set()
        return self.moved_over(self.sb_pos, sb)

    def count_passes(self, nx: Next, draw: Optional[int]):
        heads_up = len(nx.dealt) == 2
        if self.hands == 0:  # S1: the SB from the draw's seat, the BB from the SB
            assert draw is not None
            nx.sb_passes = self.moved_over(draw, nx.sb_pos)
            nx.bb_passes = self.moved_over(nx.sb_pos, nx.bb)
            nx.passed = nx.sb_passes | nx.bb_passes
            nx.travel = 0
            return
        nx.sb_passes = self.sb_moves(nx.sb_pos, nx.bb, heads_up)
        nx.bb_passes = self.moved_over(self.bb, nx.bb)
        nx.passed = self.passed | nx.sb_passes | nx.bb_passes
        nx.travel = min(self.n, self.travel + (nx.button - self.button) % self.n)

    def count_posts(self, nx: Next):
        heads_up = len(nx.dealt) == 2
        if heads_up:
            nx.sb_player = nx.button
        elif nx.sb_pos in nx.dealt and nx.sb_pos != nx.button:
            nx.sb_player = nx.sb_pos
        else:
            nx.sb_player = None
        posts: Dict[int, Tuple[int, int]] = {}
        for s in sorted(nx.dealt):
            p = self.players[s]
            if s == nx.bb:
                posts[s] = (self.big, 0)
            elif s == nx.sb_player:
                posts[s] = (self.small, 0)
            elif nx.new_game or p.status != "waiting":
                continue
            elif p.new:
                if s not in nx.free:
                    posts[s] = (self.big, 0)
            elif p.missed_bb or p.missed_sb:
                posts[s] = (self.big if p.missed_bb else 0, self.small if p.missed_sb else 0)
        nx.posts = posts
        nx.paid_bb = {nx.bb}
        nx.carries_sb = set()
        if self.rules == "moving" and self.hands and not heads_up and not nx.new_game:
            self.make_up(nx)

    def make_up(self, nx: Next):
        """MB2, from the text: the player due the BB and the player due the SB post what they
        were due; one blind a hand, biggest first, the rest carried."""
        stay = {s for s in nx.dealt
                if self.players[s].status == "active" and s not in self.left}
        due_bb: Set[int] = set()
        due_sb: Set[int] = set()
        if self.left and len(self.dealt) >= 3:
            due = self.first_after(self.bb, stay & self.dealt)
            if due and nx.bb not in self.moved_over(self.bb, due) | {self.bb}:
                due_bb.add(due)
            due_sb |= {s for s in stay if self.players[s].paid_bb and s != nx.sb_player}
        due_sb |= {s for s in stay if self.players[s].carries_sb and s != nx.sb_player}
        for s in sorted(due_bb | due_sb):
            if s in due_bb or s == nx.bb:
                nx.posts[s] = (self.big, 0)
                nx.paid_bb.add(s)
                if s == nx.sb_player or s in due_sb:
                    nx.carries_sb.add(s)
                if s == nx.sb_player:
                    nx.sb_player = None
            else:
                nx.posts[s] = (0, self.small)

    def deal(self, draw: Optional[int] = None) -> Optional[Next]:
        if not self.can_deal(draw):
            return None
        self.snapshot()
        nx = self.plan(draw)
        heads_up = len(nx.dealt) == 2
        sb_misses = nx.sb_passes | (set() if heads_up else {nx.sb_pos})
        for s, p in self.players.items():
            if s in nx.dealt:
                p.status = "active"
                p.new = p.missed_bb = p.missed_sb = False
            elif not p.new:  # M1, M2
                p.missed_bb = p.missed_bb or s in nx.bb_passes
                p.missed_sb = p.missed_sb or s in sb_misses
            p.paid_bb = s in nx.paid_bb
            p.carries_sb = s in nx.carries_sb
        self.hands += 1
        self.button, self.sb_pos, self.bb = nx.button, nx.sb_pos, nx.bb
        if heads_up:
            self.sb_pos = nx.button
        self.dealt = set(nx.dealt)
        self.left = set()
        self.passed = nx.passed
        self.travel = nx.travel
        return nx

    # -- what the screens show --------------------------------------------------------------
    def status(self, seat: int) -> str:
        p = self.players.get(seat)
        return "empty" if p is None else p.status

    def choice(self, seat: int) -> Optional[str]:
        p = self.players.get(seat)
        if p is None or p.status != "waiting":
            return None
        return "post" if p.post else "wait"

    def so_far(self, seat: int, p: Player) -> Tuple[int, int]:
        if p.status == "active":
            return (0, self.small if p.carries_sb else 0)
        if p.new:
            free = self.travel < self.n and seat not in self.passed
            return (0, 0) if free else (self.big, 0)
        return (self.big if p.missed_bb else 0, self.small if p.missed_sb else 0)

    def owes(self, seat: int, nx: Optional[Next]) -> Tuple[int, int]:
        """M6, with `nx` the next hand (None if none can be dealt)."""
        p = self.players.get(seat)
        if p is None or self.hands == 0:
            return (0, 0)
        if nx is None or p.status == "away":
            return self.so_far(seat, p)
        if p.status == "active":
            live, dead = nx.posts.get(seat, (0, 0))
            if seat == nx.bb:
                live -= self.big
            elif seat == nx.sb_player:
                live -= self.small
            return (live, dead)
        if nx.new_game:
            return (0, 0)
        if p.new:
            return (0, 0) if seat in nx.free else (self.big, 0)
        return (self.big if p.missed_bb else 0, self.small if p.missed_sb else 0)

    def every_owes(self) -> List[Tuple[int, int]]:
        present = self.with_status("active", "waiting")
        nx = self.plan() if self.hands and len(present) >= 2 else None
        return [self.owes(s, nx) for s in range(1, self.n + 1)]


def first_before_stop(seats: List[int], among: Set[int], stop: int) -> Optional[int]:
    """The first of `seats`, in their order, that is `among`, if it comes before `stop`."""
    for s in seats:
        if s == stop:
            return None
        if s in among:
            return s
    return None


def hand_of(h) -> tuple:
    return (h.button, h.sb, h.bb, tuple(sorted(h.dealt)), sorted(h.posts.items()))


class CheckedTable(Table):
    """A rules-core table whose every event is played on a Referee too: any difference in
    what is accepted, in a hand, or in a seat's status, choice or debt raises Disagreement.
    Each deal is also checked against what `owes` said just before it (M6)."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20), tournament=False):
        super().__init__(seats, rules, stakes, tournament)
        self.referee = Referee(seats, rules, stakes[0], stakes[1])
        self.owes_checks = 0     # seats whose posts were checked against `owes`
        self.compared = 0        # events compared with the referee
        self.new_games = 0       # hands the referee dealt as a new game (D5, MS2)
        self.log: List[tuple] = []  # every event tried: (name, args), to replay it

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
        if accepted != bool(expected):
            raise Disagreement("E2", "%s%r: the core %s it, the referee %s it" % (
                name, args, "accepted" if accepted else "refused",
                "accepts" if expected else "refuses"))
        self.compared += 1
        if not accepted:
            raise RuleError("%s%r refused" % (name, args))
        return result, expected

    def seats_agree(self):
        ref = self.referee
        want = ref.every_owes()
        for s in range(1, self.seats + 1):
            got = (self.status(s), self.choice(s), self.owes(s))
            expect = (ref.status(s), ref.choice(s), want[s - 1])
            if got != expect:
                raise Disagreement("M6" if got[:2] == expect[:2] else "status",
                                   "seat %d is %r, the referee says %r" % (s, got, expect))

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

    def undo(self):
        self._both("undo", super().undo, self.referee.undo)
        self.seats_agree()

    def deal(self, button=None):
        before = [(self.status(s), self.owes(s), self.choice(s))
                  for s in range(1, self.seats + 1)]
        last = self.hand
        h, nx = self._both("deal", super().deal, self.referee.deal, button)
        self.new_games += nx.new_game
        self.check_structure(h, last, before, button)
        self.check_posts_against_owes(h, before)
        expect = (nx.button, nx.sb_player, nx.bb, tuple(sorted(nx.dealt)),
                  sorted(nx.posts.items()))
        if hand_of(h) != expect:
            raise Disagreement("hand", "the core dealt %r (posts %r), the referee %r" % (
                h, sorted(h.posts.items()), expect))
        self.seats_agree()
        return h

    def check_structure(self, h, last, before, draw):
        """What RULES.md says of any hand, whatever the positions: who may be dealt in and
        where the button may stand."""
        dealt = set(h.dealt)
        small = self.stakes[0]

        def fail(rule, text):
            raise Disagreement(rule, "%s in %r (posts %r)" % (text, h, sorted(h.posts.items())))

        for s in range(1, self.seats + 1):
            status, owed, choice = before[s - 1]
            if status == "active" and s not in dealt:
                fail("D1", "active seat %d not dealt in" % s)
            if status in ("away", "empty") and s in dealt:
                fail("D4", "%s seat %d dealt in" % (status, s))
            if status == "waiting" and s in dealt and s != h.bb and choice == "wait":
                # D3: in on the BB only, unless he plays free (S2) or a new game starts (D5)
                if owed != (0, 0) or h.posts.get(s, (0, 0)) not in ((0, 0), (small, 0)):
                    fail("D3", "seat %d waiting for the BB dealt in off it" % s)
            if status == "waiting" and s == h.sb and h.posts.get(s) != (small, 0):
                fail("D5", "waiting seat %d posts a debt on the SB" % s)
        if h.bb not in dealt or h.button == h.bb:
            fail("DB1", "the BB must be dealt in, never on the button")
        if len(dealt) == 2:
            if not (h.sb == h.button and h.button in dealt and h.first_to_act == h.button):
                fail("H1", "heads-up the button posts the SB and acts first")
        elif last is not None and self.rules == "dead":
            # The rotation seats: active players, the last hand's button, SB position (a
            # seat after its button, before its BB) and BB, and whoever it dealt in.
            rotation = ({s for s in range(1, self.seats + 1) if before[s - 1][0] == "active"}
                        | {last.button, last.bb} | set(last.dealt))
            seat = last.button % self.seats + 1
            while seat != last.bb:
                rotation.add(seat)
                seat = seat % self.seats + 1
            if h.button not in rotation:
                fail("DB3", "the button on seat %d, not a rotation seat" % h.button)
        elif last is not None and h.button not in dealt:
            fail("MB1", "the button on seat %d, not a player dealt in" % h.button)
        elif last is None and h.button != draw:
            fail("S1", "the first button is not on the seat that won the draw (%r)" % draw)

    def check_posts_against_owes(self, h, before):
        """M6: each seat dealt in posts his position's blind plus what he owed before the
        deal; the BB posts one big blind and nothing more (M4); nobody else posts."""
        small, big = self.stakes
        for s in range(1, self.seats + 1):
            posts = h.posts.get(s, (0, 0))
            status, (live, dead), _ = before[s - 1]
            if s not in h.dealt:
                want = (0, 0)
            elif s == h.bb:
                want = (big, 0)
            else:
                want = (live + (small if s == h.sb else 0), dead)
            if posts != want:
                raise Disagreement("M6", "seat %d (%s, owed %r) posts %r in %r, not %r" % (
                    s, status, (live, dead), posts, h, want))
            self.owes_checks += 1


def notation(seats: int, rules: str, log) -> str:
    """A session as the issues write it: `T(4,dead); sit 1; sit 2 post; deal 1; away 2; deal`."""
    words = ["T(%d,%s)" % (seats, rules)]
    for name, args in log:
        if name == "sit":
            words.append("sit %d%s" % (args[0], " post" if args[1] else ""))
        elif name == "back":
            words.append("back %d%s" % (args[0], " wait" if args[1] else ""))
        elif name == "deal":
            words.append("deal" if args[0] is None else "deal %d" % args[0])
        else:
            words.append(" ".join([name] + [str(a) for a in args]))
    return "; ".join(words)


def replay(seats: int, rules: str, log) -> Optional[Disagreement]:
    """Play a logged session again on a checked table: the disagreement it ends in, if any."""
    t = CheckedTable(seats, rules)
    for name, args in log:
        try:
            getattr(t, name)(*args)
        except RuleError:
            pass
        except Disagreement as e:
            return e
    return None


def shortest(seats: int, rules: str, log) -> list:
    """The session cut down to the fewest events that still end in a disagreement of the
    same rule: whole stretches first, then one event at a time."""
    first = replay(seats, rules, log)
    if first is None:
        return list(log)
    events = list(log)
    chunk = max(1, len(events) // 2)
    while True:
        cut = False
        i = len(events) - chunk
        while i >= 0:
            trial = events[:i] + events[i + chunk:]
            found = replay(seats, rules, trial)
            if found is not None and found.rule == first.rule:
                events = trial
                cut = True
            i -= chunk
        if chunk == 1 and not cut:
            return events
        chunk = max(1, chunk // 2)
