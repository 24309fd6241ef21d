"""Hand-for-hand across the room's tables: the floor switches it on or off, the room sends
the mode to every online tournament table, follows which tables have finished their hand,
and when every online one has, sends `deal` to all of them at once.

HandForHand decides which commands to send from the tables as the room model summarises
them (model.table_summary); it knows no broker. Floor ties it to the model and to an MQTT
client: it looks again after every message the model takes, and every second.

Until the floor chooses (`dealerbutton room --hand-for-hand on|off`, the page's button) the
room sends nothing, so that a second room view never undoes what the floor chose.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

from .model import RoomModel

log = logging.getLogger("dealerbutton.room")

MODE_AGAIN_S = 5.0   # a table that does not report the mode is sent it again after this
DEAL_AGAIN_S = 10.0  # a table still waiting at the same hand is dealt again after this


class HandForHand:
    """The room's hand-for-hand mode and the commands it calls for. A table takes part when
    it is online and plays a tournament; one that is offline is left out of the wait and
    gets the mode again when it comes back (a table that restarted plays on, its hand not
    over, until its dealer says so)."""

    def __init__(self, mode: Optional[bool] = None):
        self.mode = mode   # True: on, False: off, None: the floor has not chosen
        self.sent: Dict[str, Tuple[str, float]] = {}   # table -> (mode command, when sent)
        self.dealt: Dict[str, Tuple[int, float]] = {}  # table -> (its hands, when dealt)
        self.deals = 0     # the deals sent to every table at once

    def switch(self, on: bool) -> None:
        self.mode = on
        self.sent.clear()

    def update(self, tables: List[dict], now: float) -> List[Tuple[str, str]]:
        """The commands the tables need now, [(table, command line)]: the mode to each
        table that does not report it yet, then, once every table's hand is over, `deal`
        to all of them, back to back."""
        if self.mode is None:
            return []
        playing = _taking_part(tables)
        out = []
        cmd = "handforhand on" if self.mode else "handforhand off"
        for t in playing:
            if (t["handforhand"] is not None) != self.mode:
                last = self.sent.get(t["name"])
                if last is None or last[0] != cmd or now - last[1] >= MODE_AGAIN_S:
                    self.sent[t["name"]] = (cmd, now)
                    out.append((t["name"], cmd))
        if self.mode and playing and all(t["handforhand"] == "waiting" for t in playing):
            deals = []
            for t in playing:
                last = self.dealt.get(t["name"])
                # (a table whose state has not come since its deal is not dealt twice)
                if last is None or last[0] != t["hands"] or now - last[1] >= DEAL_AGAIN_S:
                    self.dealt[t["name"]] = (t["hands"], now)
                    deals.append((t["name"], "deal"))
            if deals:
                self.deals += 1
                out += deals
        return out

    def summary(self, tables: List[dict]) -> dict:
        """What the views show: the mode ("on", "off" or None), the tables still playing
        their hand, those whose hand is over, those that have not taken the mode yet, the
        tournament tables offline, the levels that start at the next deal, the levels the
        tables' clocks would deal next when they differ, the deals sent to every table at
        once."""
        playing = _taking_part(tables)
        mode = None if self.mode is None else ("on" if self.mode else "off")
        return {
            "mode": mode,
            "playing": [t["name"] for t in playing if t["handforhand"] != "waiting"],
            "waiting": [t["name"] for t in playing if t["handforhand"] == "waiting"],
            "switching": [t["name"] for t in playing
                          if self.mode is not None
                          and (t["handforhand"] is not None) != self.mode],
            "offline": [t["name"] for t in tables
                        if t["state"] and t["tournament"] and not t["online"]],
            "level_next": [{"table": t["name"], "level": t["level_next"]}
                           for t in playing if t.get("level_next")],
            "levels_differ": _levels_differ(playing),
            "deals": self.deals,
        }


def _levels_differ(tables: List[dict]) -> List[dict]:
    """The level each clock would deal next, [{"level", "tables"}], when the tables' clocks
    are not all on one level (none during a break); else []. Each table deals its own
    clock's level: the floor brings the late clocks on (`clock next`)."""
    levels: Dict[int, List[str]] = {}
    for t in tables:
        clock = t.get("clock")
        if clock and not clock["break"] and isinstance(clock["level"], int):
            levels.setdefault(clock["level"], []).append(t["name"])
    if len(levels) < 2:
        return []
    return [{"level": level, "tables": levels[level]} for level in sorted(levels)]


def _taking_part(tables: List[dict]) -> List[dict]:
    """The tables hand-for-hand plays: online, with a state, at a tournament."""
    return [t for t in tables if t["online"] and t["state"] and t["tournament"]]


class Floor:
    """Hand-for-hand on the broker: the model's tables in, HandForHand's commands out
    through publish(table, line) (view.publisher: on the table's cmd topic)."""

    def __init__(self, model: RoomModel, publish: Callable[[str, str], object],
                 mode: Optional[bool] = None, now: Callable[[], float] = time.monotonic):
        self.model = model
        self.publish = publish
        self.now = now
        self.h4h = HandForHand(mode)
        self.lock = threading.Lock()

    def switch(self, on: bool) -> None:
        """The floor's choice: hand-for-hand on or off."""
        with self.lock:
            self.h4h.switch(on)
        log.info("hand-for-hand %s", "on" if on else "off")
        self.step()

    def step(self) -> None:
        """Send what the tables need now (after every message, and every second)."""
        if self.h4h.mode is None:
            return   # (the floor has not chosen: nothing to send)
        tables = self.model.summary()["tables"]
        with self.lock:
            commands = self.h4h.update(tables, self.now())
            deals = self.h4h.deals
        for name, line in commands:
            self.publish(name, line)
        dealt = [name for name, line in commands if line == "deal"]
        if dealt:
            log.info("hand-for-hand deal %d: every hand is over, dealt table(s) %s",
                     deals, " ".join(dealt))

    def summary(self, tables: List[dict]) -> dict:
        with self.lock:
            return self.h4h.summary(tables)

    def run(self, stop: threading.Event) -> None:
        """Look again every second until stop is set (resends, tables gone offline)."""
        while not stop.wait(1.0):
            self.step()
