"""The referee's table: RULES.md's events (E1..E4, C1..C6, F3, T4) and what the table shows,
written again from the text with sets of seats and a record per player. The next hand is
ref_hand.py's, its posts and `owes` ref_posts.py's. Shares no code with dealerbutton."""

from __future__ import annotations

import copy
from typing import Dict, List, Optional, Set, Tuple

from . import ref_hand, ref_posts
from .ref_hand import Next

UNDO_DEPTH = 40   # E3: at least 32
MARKERS = ("bb", "sb", "ante", "button_blind")   # in the order they are shown
MAX_CHIPS = 1000000


class Player:
    """A seated player and what is his (it goes with him when he moves, C1)."""

    __slots__ = ("status", "new", "post", "markers", "carries_sb", "carries_live_sb",
                 "paid_bb", "wait", "kill", "moved", "dealt_last")

    def __init__(self, status: str, new: bool, post: bool):
        self.status = status        # "active", "away" or "waiting"
        self.new = new              # never dealt in yet (M3a, T2)
        self.post = post            # a waiting player's choice: post (else wait for the BB)
        self.markers: Set[str] = set()   # missed "bb", "sb", "ante", "button_blind" (M1, F1, F2)
        self.carries_sb = False     # MB2: a made-up SB carried to the next hand, dead
        self.carries_live_sb = False  # F4: a missed SB carried to the next hand, live
        self.paid_bb = False        # MB2: paid a BB as a blind last hand
        self.wait = 0               # C3: deals left in a mover's wait
        self.kill: Optional[str] = None   # F3: "full" or "half", for the next deal
        self.moved = False          # came to his seat since the last deal (C1, C6)
        self.dealt_last = False     # dealt into the last hand, wherever he sat (MB2)


class Referee:
    """A table, cash game or tournament, by the text of RULES.md. Each event returns whether
    it is allowed (E2); a refused one changes nothing."""

    def __init__(self, seats: int, rules: str, small: int, big: int, tournament: bool = False,
                 button_blind: int = 0, makeup: str = "together"):
        self.n = seats
        self.rules = rules
        self.tournament = tournament
        self.button_blind = button_blind
        self.makeup = makeup
        self.level: Tuple[int, int, int, str] = (small, big, 0, "each")
        self.players: Dict[int, Player] = {}
        self.hands = 0
        # the last hand as really played
        self.button = self.sb_pos = self.bb = 0
        self.dealt: Set[int] = set()
        self.left: Set[int] = set()         # dealt into the last hand, emptied since
        # C6: the seats an active player left since the last deal, each with what a take-over
        # restores: (the seat had been left before him, he had been dealt into the last hand)
        self.left_active: Dict[int, Tuple[bool, bool]] = {}
        self.passed: Set[int] = set()       # S2
        self.travel = 0
        self.history: Optional[List[tuple]] = []

    @property
    def small(self) -> int:
        return self.level[0]

    @property
    def big(self) -> int:
        return self.level[1]

    def with_status(self, *statuses) -> Set[int]:
        return {s for s, p in self.players.items() if p.status in statuses}

    def actives(self) -> Set[int]:
        """The players counted active: at a tournament table everybody seated (T1)."""
        if self.tournament:
            return set(self.players)
        return self.with_status("active")

    def presents(self) -> Set[int]:
        """The players who can be dealt in: active or waiting (T1: everybody seated)."""
        return self.actives() | self.with_status("waiting")

    def is_seat(self, seat) -> bool:
        return type(seat) is int and 1 <= seat <= self.n

    # -- events ---------------------------------------------------------------------------
    def snapshot(self):
        """The state before an event, for undo (E3); none on a twin (twin())."""
        if self.history is None:
            return
        del self.history[:-UNDO_DEPTH + 1]
        self.history.append(copy.deepcopy((
            self.players, self.level, self.hands, self.button, self.sb_pos, self.bb,
            self.dealt, self.left, self.left_active, self.passed, self.travel)))

    def undo(self) -> bool:
        if not self.history:
            return False
        (self.players, self.level, self.hands, self.button, self.sb_pos, self.bb, self.dealt,
         self.left, self.left_active, self.passed, self.travel) = self.history.pop()
        return True

    def sit(self, seat: int, post: bool = False) -> bool:
        if not self.is_seat(seat) or seat in self.players or post and self.tournament:
            return False
        self.snapshot()
        if self.hands == 0:
            self.players[seat] = Player("active", False, post)  # S1
        elif self.tournament:
            self.players[seat] = Player("active", True, False)  # T2
        else:
            self.players[seat] = Player("waiting", True, post)
        return True

    def away(self, seat: int) -> bool:
        p = self.players.get(seat)
        if p is None or p.status == "away":
            return False
        self.snapshot()
        if p.carries_sb or p.carries_live_sb:  # MB2, F5: a carried SB becomes a marker
            p.carries_sb = p.carries_live_sb = False
            p.markers.add("sb")
        p.status = "away"
        return True

    def back(self, seat: int, wait: bool = False) -> bool:
        p = self.players.get(seat)
        if p is None or p.status != "away" or wait and self.tournament:
            return False
        self.snapshot()
        if not self.tournament and (p.new or p.wait or self.markers_worth(p)):  # M3, M3a, C3
            p.status = "waiting"
            p.post = not wait
        else:
            p.status = "active"
            p.markers = set()   # F5: worth nothing at this level, nothing owed
        return True

    def markers_worth(self, p: Player) -> int:
        """What his markers come to in chips at the level in force (F5)."""
        small, big, ante, _ = self.level
        worth = {"bb": big, "sb": small, "ante": ante, "button_blind": self.button_blind}
        return sum(worth[m] for m in p.markers)

    def choose(self, seat: int, choice: str) -> bool:
        p = self.players.get(seat)
        if (self.tournament or p is None or p.status != "waiting"
                or choice not in ("post", "wait") or p.post == (choice == "post")):
            return False  # E2: the choice already made too
        self.snapshot()
        p.post = choice == "post"
        return True

    def leave(self, seat: int) -> bool:
        p = self.players.get(seat)
        if p is None:
            return False
        self.snapshot()
        self.left_active.pop(seat, None)
        if self.hands and p.status == "active":  # C6: he may be taken over
            self.left_active[seat] = (seat in self.left, p.dealt_last)
        if seat in self.dealt:
            self.left.add(seat)
        del self.players[seat]          # M5: his debts and his kill go with him
        return True

    def move(self, a: int, b: int) -> bool:
        """C1..C5: the player in a moves to the empty seat b; a is left as by a leave."""
        if (not self.is_seat(a) or not self.is_seat(b) or a == b or a not in self.players
                or b in self.players):
            return False
        self.snapshot()
        p = self.players.pop(a)
        wait = self.mover_wait(p, a, b)
        if a in self.dealt:
            self.left.add(a)
        self.left_active.pop(a, None)
        self.players[b] = p
        p.carries_sb = p.carries_live_sb = p.paid_bb = False  # C3, F5: dropped with the move
        p.moved = True
        if self.tournament:
            p.new = True  # C5: dealt in as T2 says for seat b
        elif wait:
            p.wait += wait
            if p.status == "active":
                p.status, p.post = "waiting", False
        return True

    def mover_wait(self, p: Player, a: int, b: int) -> int:
        """C2, C3: the deals he sits out: none before the first hand, for a new or owing
        player (C4), in the first orbit onto a seat no blind has passed, or towards the BB."""
        if not self.hands or self.tournament or p.new or p.markers:
            return 0
        if p.status == "waiting" and not p.wait:
            return 0
        if self.travel < self.n and b not in self.passed:
            return 0
        return max(0, ref_posts.k(self, b, a) - ref_posts.k(self, a, a))

    def take(self, seat: int) -> bool:
        """C6: a new player takes over the seat an active player left since the last deal."""
        if (self.tournament or not self.is_seat(seat) or seat in self.players
                or seat not in self.left_active):
            return False
        self.snapshot()
        p = Player("active", False, False)
        p.moved = True  # he makes up nothing the leaver carried
        was_left, p.dealt_last = self.left_active.pop(seat)  # as if the leaver had stayed
        self.players[seat] = p
        if not was_left:
            self.left.discard(seat)
        return True

    def kill(self, seat: int, half: bool = False) -> bool:
        """F3: mark an active player for a kill at the next deal (the mark moves)."""
        p = self.players.get(seat)
        if self.tournament or p is None or p.status != "active":
            return False
        self.snapshot()
        for other in self.players.values():
            other.kill = None
        p.kill = "half" if half else "full"
        return True

    def set_level(self, sb, bb, ante=0, ante_kind="each") -> Optional[bool]:
        """T4: the level from the next deal on. None: refused; False: the level in force
        (no event); True: changed."""
        for chips in (sb, bb, ante):
            if type(chips) is not int or not 0 <= chips <= MAX_CHIPS:
                return None
        if not 0 < sb <= bb or ante_kind not in ("each", "bb", "button"):
            return None
        if (sb, bb, ante, ante_kind) == self.level:
            return False
        self.snapshot()
        self.level = (sb, bb, ante, ante_kind)
        return True

    # -- the deal -----------------------------------------------------------------------------
    def can_deal(self, button: Optional[int]) -> bool:
        if len(self.presents()) < 2:
            return False
        if self.hands == 0:
            return button is not None and button in self.players  # S1: active or away
        return button is None

    def plan(self, draw: Optional[int] = None) -> Next:
        """The next hand: its positions, who is dealt in, and what it charges."""
        nx = ref_hand.plan(self, draw)
        ref_posts.charge(self, nx)
        return nx

    def deal(self, draw: Optional[int] = None) -> Optional[Tuple[Next, Dict]]:
        """The next hand is dealt: (its plan, its posts in chips), or None if refused."""
        if not self.can_deal(draw):
            return None
        self.snapshot()
        nx = self.plan(draw)
        posts = ref_posts.posts(self, nx)
        if self.tournament:
            for s, p in self.players.items():
                if p.status != "away":
                    p.status = "active" if s in nx.dealt else "waiting"  # T2: held out
                p.new = False
                p.markers = set()
        else:
            self.mark_missed(nx)
        for s, p in self.players.items():
            if s in nx.dealt:
                if not self.tournament:  # (T1: away is only shown)
                    p.status = "active"
                p.new, p.post, p.wait = False, False, 0
                p.markers = set()
                p.carries_live_sb = s in nx.carries_live_sb
            elif p.wait:  # C3: the wait counts deals
                p.wait -= 1
                if not p.wait and p.status == "waiting" and not p.markers and not p.new:
                    p.status = "active"
            p.paid_bb = s in nx.paid_bb
            p.carries_sb = s in nx.carries_sb
            p.kill = None    # F3: the deal spends it
            p.moved = False
            p.dealt_last = s in nx.dealt
        self.hands += 1
        self.button, self.sb_pos, self.bb = nx.button, nx.sb_pos, nx.bb
        self.dealt = set(nx.dealt)
        self.left = set()
        self.left_active = {}
        self.passed = nx.passed
        self.travel = nx.travel
        return nx, posts

    def mark_missed(self, nx: Next):
        """M1, M2: a player not dealt in (not a new one, nor a mover waiting out his wait)
        misses the BB it passes him, the SB when its position passes or lands on his seat
        (heads-up: as really posted), a made-up SB he was due (MB2); F1, F2: the dealer ante
        and the button blind when a dead button lies on his seat."""
        sb_misses = nx.sb_passes | (set() if nx.heads_up else {nx.sb_pos})
        ante, kind = self.level[2], self.level[3]
        for s, p in self.players.items():
            if s in nx.dealt or p.new or p.status == "active":
                continue
            if p.status == "waiting" and p.wait:
                continue
            if s in nx.bb_passes:
                p.markers.add("bb")
            if s in sb_misses or s in nx.misses_made_up_sb:
                p.markers.add("sb")
            if s == nx.button:
                if kind == "button" and ante:
                    p.markers.add("ante")
                if self.button_blind and not nx.heads_up:
                    p.markers.add("button_blind")

    # -- what the screens show --------------------------------------------------------------
    def status(self, seat: int) -> str:
        p = self.players.get(seat)
        return "empty" if p is None else p.status

    def choice(self, seat: int) -> Optional[str]:
        p = self.players.get(seat)
        if p is None or p.status != "waiting" or self.tournament:
            return None
        return "post" if p.post else "wait"

    def markers(self, seat: int) -> Tuple[str, ...]:
        p = self.players.get(seat)
        return () if p is None else tuple(m for m in MARKERS if m in p.markers)

    def wait(self, seat: int) -> int:
        p = self.players.get(seat)
        return 0 if p is None else p.wait

    def kill_mark(self) -> Optional[Tuple[int, bool]]:
        for s, p in self.players.items():
            if p.kill:
                return (s, p.kill == "half")
        return None

    def next_hand(self) -> Optional[Next]:
        """The next hand, if one can be dealt (after the first: that one needs the draw)."""
        return self.plan() if self.hands and len(self.presents()) >= 2 else None

    def every_owes(self) -> List[Tuple[int, int]]:
        nx = self.next_hand()
        return [self.owes_if_back(s) if self.status(s) == "away" else ref_posts.owes(self, s, nx)
                for s in range(1, self.n + 1)]

    def owes_if_back(self, seat: int) -> Tuple[int, int]:
        """M6b: an away player owes what M6a gives him at a twin of this table where he has
        just come back (`back`, post)."""
        twin = self.twin()
        twin.back(seat)
        return ref_posts.owes(twin, seat, twin.next_hand())

    def twin(self) -> "Referee":
        """A copy of this table to try an event on, without an undo history."""
        twin = copy.copy(self)
        twin.history = None
        twin.players = copy.deepcopy(self.players)
        for name in ("dealt", "left", "passed"):
            setattr(twin, name, set(getattr(self, name)))
        twin.left_active = dict(self.left_active)
        return twin

