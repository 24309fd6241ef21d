"""The floor's moves between tournament tables, carried out by light.

A move takes the player in seat `seat` of table `frm` to table `to`:

    start     the room picks the seat he gets at `to` (target_seat: the open seat the big
              blind reaches first) and sends `reserve <target>` to `to` and
              `reserve <seat>` to `frm` on their cmd topics: the kept seat and the player
              who goes each light up on their table's ring
    seated    `to`'s state shows a player in the kept seat: the room sends `leave <seat>`
              to `frm` (the mark there goes with the player)
    done      `frm`'s state shows the seat empty
    cancel    before he sits: `release` to both tables, and the move is dropped

The devices forget their marks at a power cut and the cmd topic keeps nothing for a table
that is away: whenever a table's state lacks what a move in progress expects of it (a mark,
the leave), or still shows a mark a cancel released, the room sends the command again, at
most every RESEND_S, and at once when the table comes back online. Moves owns no connection: publish(table, line) sends a
command line on that table's cmd topic.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Dict, List, Optional

MOVING = "moving"       # the marks are out: waiting for the player at the kept seat
SEATED = "seated"       # he sits there: waiting for his old seat to be left
DONE = "done"
PHASES = (MOVING, SEATED, DONE)
RESEND_S = 5.0          # a command a table's state shows missing is sent again this often
KEEP_DONE = 8           # done moves still shown


class MoveRefused(Exception):
    """A move the room will not start or cancel, and why."""


class Move:
    def __init__(self, number: int, frm: str, seat: int, to: str, target: int, now: float):
        self.number = number
        self.frm = frm
        self.seat = seat
        self.to = to
        self.target = target
        self.phase = MOVING
        self.started = now
        self.finished: Optional[float] = None

    def as_dict(self) -> dict:
        return {"id": self.number, "from": self.frm, "seat": self.seat, "to": self.to,
                "target": self.target, "phase": self.phase,
                "state": "done" if self.phase == DONE else "in progress"}


def target_seat(seats: List[dict], bb: Optional[int], kept=()) -> Optional[int]:
    """The seat a player moved to this table gets: the open seat the big blind reaches first
    after the last hand's (`bb`; before the first hand, from seat 1 on), the worst position:
    he may post the big blind at once, never the small blind or the button. `seats`: the
    state's seats; a seat in `kept` or holding a mark is not open."""
    n = len(seats)
    if not isinstance(bb, int) or not 1 <= bb <= n:
        bb = n
    for k in range(1, n + 1):
        s = (bb - 1 + k) % n + 1
        seat = seats[s - 1]
        if seat["status"] == "empty" and not seat.get("mark") and s not in kept:
            return s
    return None


class Moves:
    """The room's moves. tables() returns {name: (state or None, online)} now; observe(name)
    is called when a table's state or online changed, check() now and then (it sends again
    what the states show missing); start() and cancel() come from the page or the
    terminal. A lock keeps the callers' threads apart."""

    def __init__(self, tables: Callable[[], Dict[str, tuple]],
                 publish: Optional[Callable[[str, str], None]] = None,
                 now: Callable[[], float] = time.monotonic):
        self.tables = tables
        self.publish = publish
        self.now = now
        self.moves: List[Move] = []
        self.count = 0
        self.sent: Dict[tuple, float] = {}   # (table, command line) -> when it last went
        self.releases: List[tuple] = []      # (table, seat) a cancel released, until it shows
        self.online: Dict[str, bool] = {}
        self.lock = threading.RLock()

    # -- the floor --------------------------------------------------------------------
    def start(self, frm: str, seat: int, to: str) -> dict:
        """Start moving the player in seat `seat` of table `frm` to table `to`: the move, or
        MoveRefused with why."""
        with self.lock:
            tables = self.tables()
            if frm == to:
                raise MoveRefused("a move goes to another table")
            for name in (frm, to):
                state, online = tables.get(name, (None, False))
                if state is None:
                    raise MoveRefused("table %s is not in the room" % name)
                if not online:
                    raise MoveRefused("table %s is offline" % name)
            source = tables[frm][0]["seats"]
            if type(seat) is not int or not 1 <= seat <= len(source):
                raise MoveRefused("table %s has no seat %r" % (frm, seat))
            if source[seat - 1]["status"] == "empty":
                raise MoveRefused("seat %d of table %s is empty: nobody to move" % (seat, frm))
            for m in self.unfinished():
                if (m.frm, m.seat) == (frm, seat):
                    raise MoveRefused("seat %d of table %s is moving already (move %d)"
                                      % (seat, frm, m.number))
            kept = [m.target for m in self.unfinished() if m.to == to]
            state = tables[to][0]
            target = target_seat(state["seats"], (state.get("hand") or {}).get("bb"), kept)
            if target is None:
                raise MoveRefused("table %s has no open seat" % to)
            self.count += 1
            move = Move(self.count, frm, seat, to, target, self.now())
            self.moves.append(move)
            self.releases = [r for r in self.releases if r not in ((to, target), (frm, seat))]
            self._send(to, "reserve %d" % target)
            self._send(frm, "reserve %d" % seat)
            return move.as_dict()

    def cancel(self, number: int) -> dict:
        """Cancel a move in progress: `release` to both tables; the move, or MoveRefused."""
        with self.lock:
            for m in self.moves:
                if m.number == number:
                    break
            else:
                raise MoveRefused("no move %r" % (number,))
            if m.phase != MOVING:
                raise MoveRefused("move %d: the player sits at table %s already" % (number, m.to))
            self.moves.remove(m)
            for table, seat in ((m.to, m.target), (m.frm, m.seat)):
                self._send(table, "release %d" % seat)
                self.releases.append((table, seat))
            out = m.as_dict()
            out["state"] = "cancelled"
            return out

    # -- what the tables say ------------------------------------------------------------
    def observe(self, name: str) -> None:
        """Table `name`'s state or online changed: the moves it is part of go on."""
        with self.lock:
            tables = self.tables()
            online = tables.get(name, (None, False))[1]
            if online and not self.online.get(name):
                for key in [k for k in self.sent if k[0] == name]:
                    del self.sent[key]   # back online: what it lacks goes at once
            self.online[name] = bool(online)
            for m in self.unfinished():
                if name in (m.frm, m.to):
                    self._follow(m, tables)
            self._release(tables, name)

    def check(self) -> None:
        """Every move in progress against the tables' last states (what they lack is sent
        again), and the seats a cancel released."""
        with self.lock:
            tables = self.tables()
            for m in self.unfinished():
                self._follow(m, tables)
            self._release(tables)

    def _follow(self, m: Move, tables: Dict[str, tuple]) -> None:
        """The move's next step, by the states of its two tables."""
        to_state, to_online = tables.get(m.to, (None, False))
        frm_state, frm_online = tables.get(m.frm, (None, False))
        kept = _seat(to_state, m.target)
        if m.phase == MOVING and kept is not None:
            if kept["status"] != "empty":
                m.phase = SEATED
            elif kept.get("mark") != "reserved" and to_online:
                self._send(m.to, "reserve %d" % m.target, again=True)
        seat = _seat(frm_state, m.seat)
        if seat is None:
            return
        if m.phase == MOVING:
            if seat["status"] != "empty" and seat.get("mark") != "moving" and frm_online:
                self._send(m.frm, "reserve %d" % m.seat, again=True)
        elif m.phase == SEATED:
            if seat["status"] == "empty":
                m.phase = DONE
                m.finished = self.now()
                self._forget_done()
            elif frm_online:
                self._send(m.frm, "leave %d" % m.seat, again=True)

    def _release(self, tables: Dict[str, tuple], only: Optional[str] = None) -> None:
        """The seats a cancel released (of table `only`, or all): sent `release` again while
        their table's state still shows the mark; forgotten once it does not."""
        for table, seat in list(self.releases):
            if only is not None and table != only:
                continue
            state, online = tables.get(table, (None, False))
            marked = _seat(state, seat)
            if marked is None or online and not marked.get("mark"):
                self.releases.remove((table, seat))
            elif online:
                self._send(table, "release %d" % seat, again=True)

    # -- what the views show -------------------------------------------------------------
    def unfinished(self) -> List[Move]:
        return [m for m in self.moves if m.phase != DONE]

    def summary(self) -> List[dict]:
        """Every move in progress, then the last done ones, each as_dict()."""
        with self.lock:
            return [m.as_dict() for m in self.unfinished()] + \
                [m.as_dict() for m in self.moves if m.phase == DONE]

    # -- sending ---------------------------------------------------------------------------
    def _send(self, table: str, line: str, again: bool = False) -> None:
        """line on table's cmd topic; again: only if it did not go within RESEND_S."""
        now = self.now()
        last = self.sent.get((table, line))
        if again and last is not None and now - last < RESEND_S:
            return
        self.sent[(table, line)] = now
        if self.publish is not None:
            self.publish(table, line)

    def _forget_done(self) -> None:
        done = [m for m in self.moves if m.phase == DONE]
        for m in done[:-KEEP_DONE]:
            self.moves.remove(m)


def _seat(state: Optional[dict], seat: int) -> Optional[dict]:
    """Seat `seat` of a table's state, or None (no state, no such seat)."""
    if state is None or not 1 <= seat <= len(state["seats"]):
        return None
    return state["seats"][seat - 1]
