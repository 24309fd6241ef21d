"""The referee's next hand: positions (S1, DB1..DB3, MB1, MS2, H1, H2), who is dealt in (D1..D5,
S2, T1, T2) and the seats the blinds pass (M1, H1, S2), written from RULES.md with sets of
seats. What each seat posts is ref_posts.py's. Shares no code with dealerbutton."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set

Referee = Any   # the referee's table (ref_table.Referee), which calls this module


class Charge:
    """What one seat posts at a deal, before it is counted in chips: its live blind ("SB",
    "BB" or None: his position's, a debt or a make-up), dead amounts, the button blind (F2)
    and a kill ("full" or "half", F3)."""

    __slots__ = ("blind", "dead_sb", "dead_ante", "dead_button_blind", "button_blind", "kill")

    def __init__(self, blind: Optional[str] = None, dead_sb: bool = False,
                 dead_ante: bool = False, dead_button_blind: bool = False):
        self.blind = blind
        self.dead_sb = dead_sb
        self.dead_ante = dead_ante
        self.dead_button_blind = dead_button_blind
        self.button_blind = False
        self.kill: Optional[str] = None


class Next:
    """The next hand as the referee sees it."""

    def __init__(self):
        self.new_game = False
        self.heads_up = False
        self.button = self.sb_pos = self.bb = 0
        self.sb_player: Optional[int] = None
        self.dealt: Set[int] = set()
        self.free: Set[int] = set()          # S2: a new player is dealt in free there
        self.sb_passes: Set[int] = set()
        self.bb_passes: Set[int] = set()
        self.passed: Set[int] = set()
        self.travel = 0
        self.charges: Dict[int, Charge] = {}
        self.paid_bb: Set[int] = set()       # paid a BB as a blind (MB2's "due the SB")
        self.carries_sb: Set[int] = set()    # MB2: a made-up SB carried on, dead
        self.carries_live_sb: Set[int] = set()  # F4: a missed SB carried on, live
        self.misses_made_up_sb: Set[int] = set()  # MB2: due a made-up SB, not dealt in
        self.due_dead_sb: Set[int] = set()   # MB2: due a made-up SB, dealt in (posted or carried)
        self.killer: Optional[int] = None
        self.killed_blind: Optional[str] = None  # the live blind the kill replaced


# -- the table round ------------------------------------------------------------------------

def after(n: int, seat: int) -> List[int]:
    """Every seat after `seat`, clockwise, `seat` itself last."""
    return [(seat + i - 1) % n + 1 for i in range(1, n + 1)]


def before(n: int, seat: int) -> List[int]:
    """Every seat before `seat`, counter-clockwise, `seat` itself last."""
    return [(seat - i - 1) % n + 1 for i in range(1, n + 1)]


def first_after(n: int, seat: int, among) -> int:
    for s in after(n, seat):
        if s in among:
            return s
    return 0


def moved_over(n: int, start: int, end: int) -> Set[int]:
    """The seats a position passes going from `start` to `end`: after start, up to and
    including end (none if it stays)."""
    out: Set[int] = set()
    if start == end:
        return out
    for s in after(n, start):
        out.add(s)
        if s == end:
            break
    return out


def strictly_between(n: int, start: int, end: int) -> Set[int]:
    """Seats after `start` and before `end`, clockwise (every other seat if equal)."""
    out: Set[int] = set()
    for s in after(n, start):
        if s == end:
            break
        out.add(s)
    return out


def first_before_stop(seats: List[int], among: Set[int], stop: int) -> Optional[int]:
    """The first of `seats`, in their order, that is `among`, if it comes before `stop`."""
    for s in seats:
        if s == stop:
            return None
        if s in among:
            return s
    return None


# -- the plan ---------------------------------------------------------------------------------

def plan(ref: "Referee", draw: Optional[int] = None) -> Next:
    """The next hand's positions and who is dealt in, at the referee's table (the first
    with the seat that won the draw); what it charges is ref_posts.charge's."""
    nx = Next()
    active = ref.actives()
    present = ref.presents()
    if ref.hands == 0:
        assert draw is not None
        first_hand(ref, nx, draw, active)
    elif ref.rules != "dead" and not ref.tournament and len(active) <= 1:
        new_game(ref, nx, present)  # MS2
    else:
        regular_hand(ref, nx, active, present)
    count_passes(ref, nx, draw)
    return nx


def first_hand(ref: "Referee", nx: Next, draw: int, active: Set[int]):
    """S1: the button on the draw, SB and BB on the next two active players (H1 with two)."""
    n = ref.n
    if len(active) == 2 and draw in active:
        sb = draw
    else:
        sb = first_after(n, draw, active - {draw})
    bb = first_after(n, sb, active - {draw, sb})
    nx.dealt = set(active)
    nx.heads_up = len(active) == 2
    nx.sb_pos, nx.bb = sb, bb
    nx.button = sb if nx.heads_up else draw


def dead_positions(ref: "Referee", active: Set[int], present: Set[int]):
    """DB1..DB3: (button or None when only the SB and BB players play, SB position, BB)."""
    n = ref.n
    bb = first_after(n, ref.bb, present)
    rotation = (active | {ref.button, ref.sb_pos, ref.bb} | ref.dealt) - {bb}
    if ref.bb in active and ref.bb not in ref.left:
        sb = ref.bb
    else:
        sb = next(s for s in before(n, bb) if s in rotation)
    button = first_before_stop(before(n, sb), rotation, bb)
    return button, sb, bb


def moving_positions(ref: "Referee", active: Set[int], present: Set[int]):
    """MB1: (button, SB position, BB; the BB on the SB when nobody is between the SB and
    the button)."""
    n = ref.n
    button = first_after(n, ref.button, active)
    sb = first_after(n, button, active - {button})
    bb = first_before_stop(after(n, sb), present, button) or sb
    return button, sb, bb


def regular_hand(ref: "Referee", nx: Next, active: Set[int], present: Set[int]):
    """Positions by the rule set, who is dealt in, heads-up; a new game (D5) when fewer than
    two could be dealt in."""
    n = ref.n
    if ref.rules == "dead":
        button, sb, bb = dead_positions(ref, active, present)
    else:
        button, sb, bb = moving_positions(ref, active, present)
    only_blinds = button is None
    if only_blinds:
        button = sb
    # S2 at this deal, by these positions
    if ref.travel + (button - ref.button) % n < n:
        passed = ref.passed | sb_moves(ref, sb, bb, only_blinds) | moved_over(n, ref.bb, bb)
        nx.free = set(range(1, n + 1)) - passed
    if only_blinds:
        dealt = ({sb} & active) | {bb}
    elif ref.tournament:  # T2: a newcomer on the button or the SB position waits a hand
        zone = {button, sb} - {bb}
        dealt = (active - {s for s in zone if s in active and ref.players[s].new}) | {bb}
    else:  # D2: the zone is the button and the seats after it, before the BB
        zone = ({button} | strictly_between(n, button, bb)) - {bb}
        dealt = active | {bb}
        for s, p in ref.players.items():
            if p.status == "waiting" and s not in zone and (p.post or (p.new and s in nx.free)):
                dealt.add(s)
    if len(dealt) == 2:  # H1, H2
        bb = first_after(n, ref.bb, dealt)
        button = sb = (dealt - {bb}).pop()
        if not ref.tournament and ref.players[button].status == "waiting":
            dealt = {bb}  # D2: the heads-up button; never a debt on the SB
    if len(dealt) < 2:
        new_game(ref, nx, present)  # D5
        return
    nx.button, nx.sb_pos, nx.bb, nx.dealt = button, sb, bb, dealt
    nx.heads_up = len(dealt) == 2


def new_game(ref: "Referee", nx: Next, present: Set[int]):
    """D5, MS2: every present player plays, owing nothing. MS2 moves the button to the next
    present player; under dead (and at a tournament table) the positions are the rule set's
    with every present player active."""
    n = ref.n
    nx.new_game = True
    nx.dealt = set(present)
    nx.heads_up = len(present) == 2
    if ref.rules == "dead" or ref.tournament:
        if ref.rules == "dead":
            button, sb, bb = dead_positions(ref, present, present)
            if button is None:
                button = sb
        else:
            button, sb, bb = moving_positions(ref, present, present)
        if nx.heads_up:
            bb = first_after(n, ref.bb, present)
            button = sb = (present - {bb}).pop()
    else:
        button = first_after(n, ref.button, present)
        if nx.heads_up:
            sb = button
            bb = (present - {button}).pop()
        else:
            sb = first_after(n, button, present - {button})
            bb = first_after(n, sb, present - {button, sb})
    nx.button, nx.sb_pos, nx.bb = button, sb, bb


def sb_moves(ref: "Referee", sb: int, bb: int, heads_up: bool) -> Set[int]:
    """H1: a heads-up SB that is not between its last position and the new BB has moved
    back: it passes nobody."""
    if heads_up and sb not in strictly_between(ref.n, ref.sb_pos, bb):
        return set()
    return moved_over(ref.n, ref.sb_pos, sb)


def count_passes(ref: "Referee", nx: Next, draw: Optional[int]):
    """The seats each blind passes as really posted (M1), those passed since the first hand
    and the button's travel (S2)."""
    n = ref.n
    if ref.hands == 0:  # S1: the SB from the draw's seat, the BB from the SB
        assert draw is not None
        nx.sb_passes = moved_over(n, draw, nx.sb_pos)
        nx.bb_passes = moved_over(n, nx.sb_pos, nx.bb)
        nx.passed = nx.sb_passes | nx.bb_passes
        nx.travel = 0
        return
    nx.sb_passes = sb_moves(ref, nx.sb_pos, nx.bb, nx.heads_up)
    nx.bb_passes = moved_over(n, ref.bb, nx.bb)
    nx.passed = ref.passed | nx.sb_passes | nx.bb_passes
    nx.travel = min(n, ref.travel + (nx.button - ref.button) % n)


def first_to_act(ref: "Referee", nx: Next) -> int:
    """H1: heads-up the button; else the first player dealt in after the BB. F3: the killer
    acts last (heads-up: the other player acts first)."""
    if nx.heads_up:
        if nx.killer == nx.button:
            return (nx.dealt - {nx.button}).pop()
        return nx.button
    for s in after(ref.n, nx.bb):
        if s in nx.dealt and s != nx.killer and s != nx.bb:
            return s
    return 0
