"""The referee's deal, from RULES.md: when a hand may be dealt (S1), what it does to every
player (D1..D5, T2, C3, F3, F4, MB2) and the blinds it marks missed (M1, M2, F1, F2). Where
its positions go is ref_hand.py's, what it charges ref_posts.py's. Shares no code with
dealerbutton."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from . import ref_hand, ref_posts
from .ref_hand import Next
from .ref_state import TableFacts


class Dealing(TableFacts):
    """The deal of the next hand on a table's facts."""

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
            self.hold_out(nx)
        else:
            self.mark_missed(nx)
        self.after_the_deal(nx)
        self.hands += 1
        self.button, self.sb_pos, self.bb = nx.button, nx.sb_pos, nx.bb
        self.dealt = set(nx.dealt)
        self.left = set()
        self.left_active = {}
        self.passed = nx.passed
        self.travel = nx.travel
        return nx, posts

    def hold_out(self, nx: Next):
        """T2: at a tournament table a present player not dealt in is held out (waiting);
        nobody is new after a deal, and nobody owes (T1)."""
        for s, p in self.players.items():
            if p.status != "away":
                p.status = "active" if s in nx.dealt else "waiting"
            p.new = False
            p.markers = set()

    def after_the_deal(self, nx: Next):
        """Every player as the deal leaves him: one dealt in owes nothing and is active, a
        mover's wait counts one deal less (C3), what he carries to the next hand (MB2, F4),
        and a kill spent (F3)."""
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
