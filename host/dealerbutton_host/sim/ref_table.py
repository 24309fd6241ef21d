"""The referee's table: RULES.md's events (E1..E4, C1..C6, F3, T4: ref_seats.py; the deal:
ref_deal.py) on what it knows of the table (ref_state.py), and what the table shows, written
again from the text with sets of seats and a record per player. The next hand is
ref_hand.py's, its posts and `owes` ref_posts.py's. Shares no code with dealerbutton."""

from __future__ import annotations

import copy
from typing import List, Optional, Tuple

from . import ref_posts
from .ref_deal import Dealing
from .ref_hand import Next
from .ref_seats import SeatEvents
from .ref_state import UNDO_DEPTH

__all__ = ["MARKERS", "UNDO_DEPTH", "Referee"]

MARKERS = ("bb", "sb", "ante", "button_blind")   # in the order they are shown


class Referee(SeatEvents, Dealing):
    """A table, cash game or tournament, by the text of RULES.md. Each event returns whether
    it is allowed (E2); a refused one changes nothing. What its seats show is read here."""

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
