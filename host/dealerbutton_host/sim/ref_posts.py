"""What the referee's next hand charges each seat (M3..M6, MB2, C3, F1..F5, T1, T5) and what a
player owes (M6), written from RULES.md. Shares no code with dealerbutton."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from .ref_hand import Charge, Next, after, first_after, moved_over

Referee = Any   # the referee's table and its players (ref_table.py), which call this module
Player = Any


def charge(ref: "Referee", nx: Next):
    """Every seat dealt in: its position's blind, its debts (a waiting player's), MB2's
    make-ups, the button blind, F4's carried small blinds, the kill."""
    if nx.heads_up:
        nx.sb_player = nx.button
    elif nx.sb_pos in nx.dealt and nx.sb_pos != nx.button:
        nx.sb_player = nx.sb_pos
    else:
        nx.sb_player = None
    nx.charges = {}
    nx.paid_bb = {nx.bb}
    only_blinds = nx.new_game or ref.tournament
    for s in nx.dealt:
        if s == nx.bb:
            nx.charges[s] = Charge("BB")  # M4: nothing more
        elif s == nx.sb_player:
            nx.charges[s] = Charge("SB")  # D5: never a debt on the SB
        elif ref.players[s].status == "waiting" and not only_blinds:
            nx.charges[s] = debts(ref, nx, s)
        else:
            nx.charges[s] = Charge()
    if ref.rules == "moving" and ref.hands and not only_blinds and not nx.heads_up:
        make_up(ref, nx)
    if ref.button_blind and not nx.heads_up and nx.button in nx.dealt:
        nx.charges[nx.button].button_blind = True  # F2: none on a dead button
    if ref.makeup == "one_per_hand" and not only_blinds:
        carried_small_blinds(ref, nx)
    if not ref.tournament:
        kill(ref, nx)


def debts(ref: "Referee", nx: Next, s: int) -> Charge:
    """What a player not active would post to be dealt in at this deal, beyond his position:
    a new player's BB unless S2 deals him in free there (M3a, S2), a mover's BB (C3), his
    markers (M3: the BB live, the SB dead; F4: the BB first, the SB live on its own; the
    missed ante and button blind dead, F1, F2)."""
    p = ref.players[s]
    if p.new:
        return Charge() if s in nx.free and s in nx.dealt else Charge("BB")
    return markers_charge(ref, p)


def make_up(ref: "Referee", nx: Next):
    """MB2, from the text: when a player dealt into the last hand (of three or more) has left,
    the player due the BB (the first one after the last BB who was dealt into it, a mover
    too, and is still active, never the last BB, unless this hand's BB lies from the last BB
    up to him) and the one due the SB
    (whoever paid a BB last hand) post what they were due; one blind a hand, biggest first,
    the rest carried. A mover or a player who took a seat over makes up nothing (C1, C6); a
    player due a made-up SB who is not dealt in misses it."""
    n = ref.n
    stay = {s for s in nx.dealt
            if ref.players[s].status == "active" and s not in ref.left}
    due_bb = set()
    due_sb = set()
    if ref.left and len(ref.dealt) >= 3:
        # the players dealt into the last hand, movers among them, but the last BB's seat
        played = {s for s in nx.dealt if s != ref.bb and ref.players[s].status == "active"
                  and ref.players[s].dealt_last}
        due = first_after(n, ref.bb, played)
        if due and nx.bb not in moved_over(n, ref.bb, due) | {ref.bb}:
            due_bb.add(due)
        paid = {s for s, p in ref.players.items() if p.paid_bb}
        nx.misses_made_up_sb = {s for s in paid if s not in nx.dealt
                                and ref.players[s].status in ("away", "waiting")}
        due_sb |= paid & stay
    due_sb |= {s for s in stay if ref.players[s].carries_sb}
    due_sb.discard(nx.sb_player)
    nx.due_dead_sb = set(due_sb)
    for s in sorted(due_bb | due_sb):
        if ref.players[s].moved:
            continue
        c = nx.charges[s]
        if s in due_bb or s == nx.bb:
            c.blind, c.dead_sb = "BB", False
            nx.paid_bb.add(s)
            if s == nx.sb_player or s in due_sb:
                nx.carries_sb.add(s)
            if s == nx.sb_player:
                nx.sb_player = None
        else:
            c.blind, c.dead_sb = None, True


def carried_small_blinds(ref: "Referee", nx: Next):
    """F4: a returning player posting both missed blinds posts the BB now and the SB, live, at
    the next hand he is dealt in, unless a blind of his own falls there (his position's, the
    button blind, a make-up): then he carries it on. The BB on his seat clears it (M4)."""
    for s in sorted(nx.dealt - {nx.bb}):
        p = ref.players[s]
        c = nx.charges[s]
        if p.status == "waiting":
            if c.blind == "BB" and "sb" in p.markers:  # (a missed BB or a mover's BB now)
                nx.carries_live_sb.add(s)
        elif p.carries_live_sb:
            if s == nx.sb_player or c.blind or c.dead_sb or c.button_blind:
                nx.carries_live_sb.add(s)
            else:
                c.blind = "SB"


def kill(ref: "Referee", nx: Next):
    """F3: the player marked, if dealt in, posts the kill in place of every live blind he is
    due, one he would carry on included (each counts as paid); his dead amounts stand,
    carried ones too (F5)."""
    for s in sorted(nx.dealt):
        p = ref.players[s]
        if p.kill:
            c = nx.charges[s]
            nx.killer = s
            nx.killed_blind = c.blind
            if c.blind == "BB":
                nx.paid_bb.add(s)
            c.kill, c.blind, c.button_blind = p.kill, None, False
            if s not in nx.due_dead_sb:  # F5: a dead SB he is due stays carried
                nx.carries_sb.discard(s)
            nx.carries_live_sb.discard(s)


# -- in chips -------------------------------------------------------------------------------

def blind_chips(blind: Optional[str], level) -> int:
    return level[1] if blind == "BB" else level[0] if blind == "SB" else 0


def kill_chips(kind: str, level) -> int:
    return 2 * level[1] if kind == "full" else 3 * level[1] // 2


def posts(ref: "Referee", nx: Next) -> Dict[int, Tuple[int, int]]:
    """The hand's posts in chips: {seat: (live, dead)}, antes (T4, T5, F1) included."""
    level = ref.level
    small, _, ante, kind = level
    out = {}
    for s in sorted(nx.dealt):
        c = nx.charges[s]
        live = kill_chips(c.kill, level) if c.kill else blind_chips(c.blind, level)
        if c.button_blind:
            live += ref.button_blind
        dead = (small * c.dead_sb + ante * c.dead_ante
                + ref.button_blind * c.dead_button_blind)
        if kind == "each" or kind == "bb" and s == nx.bb or kind == "button" and s == nx.button:
            dead += ante
        if live or dead:
            out[s] = (live, dead)
    return out


def in_chips(ref: "Referee", c: Charge) -> Tuple[int, int]:
    """A player's debts (a Charge without forced bets) in chips at the level in force."""
    small, _, ante, _ = ref.level
    return (blind_chips(c.blind, ref.level),
            small * c.dead_sb + ante * c.dead_ante + ref.button_blind * c.dead_button_blind)


# -- what a player owes (M6) ------------------------------------------------------------------

def owes(ref: "Referee", s: int, nx: Optional[Next]) -> Tuple[int, int]:
    """M6a, M6c, with `nx` the next hand (None when none can be dealt): what the player, who
    is present, would post to be dealt in at the next deal, beyond his position's blind, the
    hand's antes, button blind and kill, as that deal would charge it. (An away player's
    figure is a present one's: Referee.owes_if_back, M6b.)"""
    p = ref.players.get(s)
    if p is None or ref.hands == 0 or ref.tournament:
        return (0, 0)
    if nx is None:
        return in_chips(ref, so_far(ref, s, p))
    if p.status == "active":
        if s not in nx.dealt:
            return (0, 0)
        c = nx.charges[s]
        blind = nx.killed_blind if s == nx.killer else c.blind
        if s in (nx.bb, nx.sb_player):
            blind = None
        return in_chips(ref, Charge(blind, c.dead_sb))
    if nx.new_game:
        return (0, 0)  # a new game charges only its positions' blinds
    return in_chips(ref, debts(ref, nx, s))


def so_far(ref: "Referee", s: int, p: "Player") -> Charge:
    """What a player owes while no hand can be dealt (M6c): S2's conditions so far for a new
    player, else his markers, a mover's BB, a carried SB."""
    if p.status == "active":
        return Charge("SB" if p.carries_live_sb else None, p.carries_sb)
    if p.new:
        free = ref.travel < ref.n and s not in ref.passed
        return Charge() if free else Charge("BB")
    return markers_charge(ref, p)


def markers_charge(ref: "Referee", p: "Player") -> Charge:
    """What a returning player's markers (or a mover's wait) make him post: a mover one BB
    and what he missed, else by the table's make-up (M3, F4), antes and button blinds dead."""
    ante = "ante" in p.markers
    button_blind = "button_blind" in p.markers
    big = p.wait or "bb" in p.markers   # a mover's BB stands for a missed one
    if ref.makeup == "one_per_hand":   # F4: the BB first, the SB live at the next hand
        blind = "BB" if big else "SB" if "sb" in p.markers else None
        return Charge(blind, False, ante, button_blind)
    return Charge("BB" if big else None, "sb" in p.markers, ante, button_blind)


def k(ref: "Referee", seat: int, mover: int) -> int:
    """C3's k(seat): 1 + the players, active or waiting, strictly after the last hand's BB and
    before `seat`, the mover not counted (every other one when `seat` is the last BB)."""
    count = 1
    for s in after(ref.n, ref.bb):
        if s == seat:
            break
        p = ref.players.get(s)
        if s != mover and p is not None and p.status in ("active", "waiting"):
            count += 1
    return count
