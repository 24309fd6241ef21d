"""The referee's seat events, from RULES.md: sit, away, back, a waiting player's choice
(E1..E4), leave, move and take-over (C1..C6), the kill mark (F3) and the level (T4). Each
returns whether it is allowed (E2); a refused one changes nothing. Shares no code with
dealerbutton."""

from __future__ import annotations

from typing import Optional

from . import ref_posts
from .ref_state import Player, TableFacts

MAX_CHIPS = 1000000


class SeatEvents(TableFacts):
    """The events of the players at their seats, and of the level, on a table's facts."""

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
