"""The room as the broker tells it, which the room view (view.py) draws.

RoomModel follows dealerbutton/<room>/+/state, online and event (the retained state gives
every table at once to a view started last); summary() is what the views draw: each
table's seats, open seats, away and waiting players, hands per hour, its tournament clock
and a level that starts at its next deal, whether its hand-for-hand hand is over, the
room's clock (room_clock()) and for a tournament the table sizes and the moves that
balance them (balance()), with the moves the floor has started (moves.py), which it
follows from the tables' states.
Anything on those topics that is not what a table publishes is refused (logged) and
changes nothing.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections import deque
from typing import Callable, Dict, List, Optional, Sequence

from . import mqttconn
from .moves import Moves

log = logging.getLogger("dealerbutton.room")

STATUSES = ("empty", "active", "away", "waiting")
MAX_PAYLOAD = 16384  # a 12-seat state is ~1.2 KB
MAX_TABLES = 1000


# -- what a table publishes ---------------------------------------------------------------
def check_state(data) -> Optional[str]:
    """None if `data` (parsed JSON) is a table's state as the bridge publishes it, else
    what is wrong with it."""
    if not isinstance(data, dict):
        return "not a JSON object"
    seats = data.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 12:
        return "no list of 2..12 seats"
    for i, s in enumerate(seats, 1):
        if not isinstance(s, dict) or s.get("seat") != i or s.get("status") not in STATUSES:
            return "seat %d is not {seat, status}" % i
    for key in ("hands", "per_hour"):
        v = data.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            return "%s is not a count" % key
    hand = data.get("hand")
    if hand is not None and not (isinstance(hand, dict) and _seat_or_none(hand.get("button"))
                                 and _seat_or_none(hand.get("bb"))):
        return "hand is not a hand"
    stakes = data.get("stakes")
    if stakes is not None and not (isinstance(stakes, list) and len(stakes) == 2
                                   and all(_count(x) for x in stakes)):
        return "stakes are not two numbers"
    clock = data.get("clock")
    if clock is not None and not isinstance(clock, dict):
        return "clock is not an object"
    if data.get("handforhand") not in (None, "playing", "waiting"):
        return "handforhand is not playing or waiting"
    return None


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _seat_or_none(v) -> bool:
    return v is None or (_count(v) and 1 <= v <= 12)


class Table:
    def __init__(self, name: str):
        self.name = name
        self.state: Optional[dict] = None
        self.online: Optional[bool] = None
        self.received = 0.0  # when the state came (time.monotonic)
        self.heard = 0       # the room's count of states when this one came (0: none yet)
        self.events: deque = deque(maxlen=4)
        # The clock's level when the table's last hand was dealt (as its first state after
        # the deal says; for a table first heard mid-hand, its level then): None until known.
        self.hand_level: Optional[int] = None


class RoomModel:
    """The room as the broker tells it. handle() is called from paho's thread; summary()
    from the views' (a lock keeps them apart)."""

    def __init__(self, room: str, now: Callable[[], float] = time.monotonic,
                 on_state: Optional[Callable[[str, dict, float], None]] = None):
        self.room = room
        self.now = now
        self.on_state = on_state
        self.tables: Dict[str, Table] = {}
        self.lock = threading.Lock()
        self.refused = 0
        self.states = 0  # states taken so far: orders the tables' latest states
        self.changed = threading.Event()
        self.prefix = "%s/%s/" % (mqttconn.PREFIX, room)
        self.moves = Moves(self.snapshot, now=now)   # its publish is the view's to give

    def snapshot(self) -> Dict[str, tuple]:
        """Every table now: {name: (state or None, online)}."""
        with self.lock:
            return {t.name: (t.state, bool(t.online)) for t in self.tables.values()}

    def topics(self) -> List[str]:
        return [self.prefix + "+/" + sub for sub in ("state", "online", "event")]

    def _refuse(self, topic: str, why: str) -> None:
        self.refused += 1
        log.warning("refused a message on %r: %s", topic[:100], why)

    def handle(self, topic: str, payload: bytes) -> None:
        if not topic.startswith(self.prefix):
            return self._refuse(topic, "not this room")
        parts = topic[len(self.prefix):].split("/")
        if len(parts) != 2 or parts[1] not in ("state", "online", "event"):
            return self._refuse(topic, "not a table topic")
        name, sub = parts
        if not mqttconn.NAME_RE.match(name):
            return self._refuse(topic, "not a table name")
        if len(payload) > MAX_PAYLOAD:
            return self._refuse(topic, "%d bytes, more than a table sends" % len(payload))
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            return self._refuse(topic, "not UTF-8")
        if sub == "online":
            if text not in ("0", "1"):
                return self._refuse(topic, "online is 1 or 0, not %r" % text[:20])
        elif sub == "state":
            if not text:  # an emptied retained message: the table was taken off the broker
                with self.lock:
                    self.tables.pop(name, None)
                self.moves.observe(name)
                self.changed.set()
                return None
            try:
                data = json.loads(text)
            except ValueError:
                return self._refuse(topic, "not JSON")
            why = check_state(data)
            if why:
                return self._refuse(topic, why)
        elif not text.startswith("* ") or not text.isprintable():
            return self._refuse(topic, "not an event line")
        with self.lock:
            table = self.tables.get(name)
            if table is None:
                if len(self.tables) >= MAX_TABLES:
                    return self._refuse(topic, "more than %d tables" % MAX_TABLES)
                table = self.tables[name] = Table(name)
            t = self.now()
            if sub == "online":
                table.online = text == "1"
            elif sub == "state":
                table.hand_level = _hand_level(table, data)
                table.state = data
                table.received = t
                self.states += 1
                table.heard = self.states
            else:
                table.events.append(text[:120])
        if sub != "event":
            self.moves.observe(name)
        self.changed.set()
        if sub == "state" and self.on_state:
            self.on_state(name, data, t)

    # -- what the views draw ------------------------------------------------------------
    def summary(self) -> dict:
        now = self.now()
        with self.lock:
            tables = [(t.name, t.state, t.online, t.received, list(t.events), t.heard,
                       t.hand_level) for t in self.tables.values()]
        out = []
        for name, state, online, received, events, _, level in sorted(
                tables, key=lambda x: _order(x[0])):
            out.append(table_summary(name, state, online, now - received, events, level))
        heard = {x[0]: x[5] for x in tables}
        seated = [t for t in out if t["state"]]
        room = {"room": self.room, "tables": out,
                "players": sum(t["players"] for t in seated),
                "open": sum(t["open"] for t in seated if t["online"]),
                "online": sum(1 for t in out if t["online"]),
                "clock": room_clock(out, heard)}
        moves = self.moves.summary()
        room["moves"] = moves
        tourney = [t for t in seated if t["tournament"]]
        if tourney:
            room["tournament"] = balance(tourney, [m for m in moves if m["state"] != "done"])
        return room


def _hand_level(table: Table, data: dict) -> Optional[int]:
    """The clock's level of the table's last hand, with this new state of it: the level the
    state's clock is at, after a deal (its first state with a new count of hands) or when
    not known yet (not during a break: the level after it is not the hand's)."""
    clock = data.get("clock")
    if not isinstance(clock, dict) or clock.get("break") or not _count(clock.get("level")):
        return table.hand_level
    old = table.state.get("hands") if table.state else None
    if table.hand_level is None or data.get("hands") != old:
        return clock["level"]
    return table.hand_level


def _order(name: str):
    """Tables in natural order: 2 before 10."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p.lower())
            for p in re.split(r"(\d+)", name) if p]


def table_summary(name: str, state: Optional[dict], online: Optional[bool], age: float,
                  events: list, hand_level: Optional[int] = None) -> dict:
    t: dict = {"name": name, "online": bool(online), "state": state is not None,
               "events": events}
    if state is None:
        t.update(seats=[], players=0, open=0, away=0, waiting=0, tournament=False)
        return t
    seats = state["seats"]
    hand = state.get("hand") or {}
    statuses = [s["status"] for s in seats]
    t.update(
        seats=[{"seat": s["seat"], "status": s["status"],
                "post": s["status"] == "waiting" and s.get("choice", "post") == "post"
                and s.get("owes", [0, 0]) != [0, 0],
                "wait": s.get("wait", 0), "kill": s.get("kill"), "mark": s.get("mark")}
               for s in seats],
        moved=sum(1 for s in seats if s.get("wait")),
        kill=hand.get("kill"),
        players=sum(1 for s in statuses if s != "empty"),
        open=statuses.count("empty"), away=statuses.count("away"),
        waiting=statuses.count("waiting"), hands=state.get("hands"),
        per_hour=state.get("per_hour"), stakes=state.get("stakes"), rules=state.get("rules"),
        button=hand.get("button"), sb=hand.get("sb"), bb=hand.get("bb"),
        tournament=bool(state.get("tournament")) or isinstance(state.get("clock"), dict),
        handforhand=state.get("handforhand"))
    clock = state.get("clock")
    if isinstance(clock, dict):
        t["clock"] = clock_summary(clock, age)
        level = t["clock"]["level"]
        if hand_level is not None and not t["clock"]["break"] and level != hand_level:
            t["level_next"] = level  # the clock moved on: its level starts at the next deal
    t["next_bb"] = next_big_blind(statuses, hand.get("bb"))
    return t


def room_clock(tables: List[dict], heard: Dict[str, int]) -> Optional[dict]:
    """The room's tournament clock: the clock of the online table whose state came last
    (the tables of a tournament follow one schedule, and a level moved by hand at a table
    reaches the room in that table's state), with that table's name; None when no online
    table has a clock."""
    clocked = [t for t in tables if t["online"] and "clock" in t]
    if not clocked:
        return None
    latest = max(clocked, key=lambda t: heard[t["name"]])
    return dict(latest["clock"], table=latest["name"])


def clock_summary(clock: dict, age: float) -> dict:
    """The level and the time left now (the state said how much was left `age` s ago), and
    what comes next when the device says it."""
    left = None
    for key in ("ms_left", "left_ms", "ms"):
        if _count(clock.get(key)):
            left = clock[key]
            break
    running = clock.get("running", True) is not False
    if left is not None and running:
        left = max(0, left - int(age * 1000))
    out = {"level": clock.get("level"), "sb": clock.get("sb"), "bb": clock.get("bb"),
           "ante": clock.get("ante"), "break": bool(clock.get("break")),
           "running": running, "ms_left": left}
    if clock.get("ante_kind") in ("each", "bb"):
        out["ante_kind"] = clock["ante_kind"]
    if "next" in clock:
        out["next"] = next_entry(clock["next"])
    return out


def next_entry(entry) -> Optional[dict]:
    """The device's next entry of the schedule as the room shows it: a level {"level", "sb",
    "bb", "ante", "minutes"}, a break {"break": minutes}, or None (the last level, or
    nothing a device sends)."""
    if not isinstance(entry, dict):
        return None
    if _count(entry.get("break")):
        return {"break": entry["break"]}
    if not all(_count(entry.get(k)) for k in ("level", "sb", "bb")):
        return None
    return {"level": entry["level"], "sb": entry["sb"], "bb": entry["bb"],
            "ante": entry["ante"] if _count(entry.get("ante")) else 0,
            "minutes": entry["minutes"] if _count(entry.get("minutes")) else None}


def next_big_blind(statuses: List[str], bb) -> Optional[int]:
    """The seat that gets the big blind next (the player a balancing move takes)."""
    n = len(statuses)
    if not isinstance(bb, int) or not 1 <= bb <= n:
        bb = n
    for k in range(1, n + 1):
        s = (bb - 1 + k) % n + 1
        if statuses[s - 1] != "empty":
            return s
    return None


def balance(tables: List[dict], started: Sequence[dict] = ()) -> dict:
    """Tournament table sizes and moves, by the usual practice: when the players fit at one
    table fewer, the shortest table breaks and its players go one by one to the shortest
    other tables; then, while the longest table has two or more players more than the
    shortest, the longest gives one (the next big blind) to the shortest. Moves under way
    count as made: the seats the tables show marked (a player moving out, a seat kept for
    one coming) and the moves the floor has `started` (moves.py's, in progress) whose marks
    the tables do not show (yet, or again)."""
    size = {t["name"]: t["players"] for t in tables}
    capacity = {t["name"]: len(t["seats"]) for t in tables}
    order = [t["name"] for t in tables]
    bb_seats = {t["name"]: _seat_cycle(t) for t in tables}
    seats = {t["name"]: t["seats"] for t in tables}
    going = {(n, s["seat"]) for n in order for s in seats[n]
             if s.get("mark") == "moving" and s["status"] != "empty"}
    coming = {(n, s["seat"]) for n in order for s in seats[n]
              if s.get("mark") == "reserved" and s["status"] == "empty"}
    for m in started:
        if m["from"] in size and _taken(seats[m["from"]], m["seat"]):
            going.add((m["from"], m["seat"]))     # he is still there, and goes
        if m["to"] in size and not _taken(seats[m["to"]], m["target"]):
            coming.add((m["to"], m["target"]))    # he is not there yet, and comes
    for name, seat in going:
        size[name] -= 1
        if seat in bb_seats[name]:
            bb_seats[name].remove(seat)
    for name, _ in coming:
        size[name] += 1
    moves = []
    broken = None
    total = sum(size.values())
    live = [n for n in order if size[n] > 0]
    if len(live) > 1:
        smallest = min(live, key=lambda n: (size[n], -order.index(n)))
        others = [n for n in live if n != smallest]
        if total <= sum(capacity[n] for n in others):
            broken = smallest
            while size[smallest] > 0:
                to = min((n for n in others if size[n] < capacity[n]),
                         key=lambda n: (size[n], order.index(n)))
                moves.append(_move(smallest, to, bb_seats, size))
            live = others
    while len(live) > 1:
        most = max(live, key=lambda n: (size[n], -order.index(n)))
        roomy = [n for n in live if size[n] < capacity[n]]
        if not roomy:
            break
        least = min(roomy, key=lambda n: (size[n], order.index(n)))
        if size[most] - size[least] < 2:
            break
        moves.append(_move(most, least, bb_seats, size))
    return {"sizes": [{"name": n, "players": t["players"], "seats": capacity[n]}
                      for n, t in zip(order, tables, strict=True)],
            "players": total, "break": broken, "moves": moves}


def _taken(seats: List[dict], seat: int) -> bool:
    return 1 <= seat <= len(seats) and seats[seat - 1]["status"] != "empty"


def _seat_cycle(t: dict) -> List[int]:
    """The table's players from the next big blind on, clockwise."""
    first = t.get("next_bb")
    seats = [s["seat"] for s in t["seats"] if s["status"] != "empty"]
    if first in seats:
        i = seats.index(first)
        seats = seats[i:] + seats[:i]
    return seats


def _move(frm: str, to: str, bb_seats: Dict[str, List[int]], size: Dict[str, int]) -> dict:
    seats = bb_seats[frm]
    seat = seats.pop(0) if seats else None
    size[frm] -= 1
    size[to] += 1
    return {"from": frm, "to": to, "seat": seat}
