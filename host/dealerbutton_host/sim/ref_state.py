"""What the referee knows of a table: its seats, rules and level, a record per player, the
last hand as really played, and the undo history of E3. The events that change it are
ref_seats.py's and ref_deal.py's; ref_table.py puts them together. Shares no code with
dealerbutton."""

from __future__ import annotations

import copy
from typing import Dict, List, Optional, Set, Tuple

UNDO_DEPTH = 40   # E3: at least 32


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


class TableFacts:
    """A table's facts, cash game or tournament, and the history that undoes its events."""

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

    def markers_worth(self, p: Player) -> int:
        """What his markers come to in chips at the level in force (F5)."""
        small, big, ante, _ = self.level
        worth = {"bb": big, "sb": small, "ante": ante, "button_blind": self.button_blind}
        return sum(worth[m] for m in p.markers)

    # -- undo (E3) ------------------------------------------------------------------------
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
