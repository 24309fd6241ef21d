"""The room view: every table of a room on the broker, at a glance.

    dealerbutton room --broker mqtt://floor-pi --room club              # web page
    dealerbutton room --broker mqtt://floor-pi --room club --terminal   # in the terminal
    dealerbutton room --broker mqtt://floor-pi --room club --hand-for-hand on

main() feeds the room's messages to a RoomModel (model.py) and draws its summary() in the
terminal (render_text) or serves it as the web page (server.py); a running room also
plays hand-for-hand when the floor says so (handforhand.py).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import List, Optional

from . import mqttconn
from .handforhand import Floor
from .model import RoomModel
from .server import make_server, room_summary, serve

log = logging.getLogger("dealerbutton.room")


# -- the terminal --------------------------------------------------------------------------
def _glyphs():
    if "utf" in (sys.stdout.encoding or "").lower():
        return {"active": "\u25cf", "away": "\u25cc", "waiting": "\u25d0", "empty": "\u00b7"}
    return {"active": "#", "away": "a", "waiting": "w", "empty": "."}


def fmt_ms(ms) -> str:
    if ms is None:
        return "--:--"
    s = ms // 1000
    return "%d:%02d" % (s // 60, s % 60)


def render_text(summary: dict, glyphs: Optional[dict] = None, width: int = 100) -> List[str]:
    """The room as lines of text (what --terminal draws)."""
    g = glyphs or _glyphs()
    tables = summary["tables"]
    lines = ["Room %s: %d table(s), %d online, %d players, %d open seats"
             % (summary["room"], len(tables), summary["online"], summary["players"],
                summary["open"]),
             "seats: %s player  %s away  %s waiting  %s open  [ ] button"
             % (g["active"], g["away"], g["waiting"], g["empty"]), ""]
    for t in tables:
        head = "%-8s" % ("T" + t["name"] if t["name"][:1].isdigit() else t["name"])[:8]
        if not t["state"]:
            lines.append("%s %s" % (head, "offline, nothing known" if not t["online"]
                                    else "online, no state yet"))
            continue
        ring = ""
        for s in t["seats"]:
            mark = g[s["status"]]
            ring += ("[%s]" % mark) if s["seat"] == t.get("button") else (" %s " % mark)
        parts = ["%d open" % t["open"]]
        if t.get("handforhand"):
            parts.append("hand over" if t["handforhand"] == "waiting" else "playing its hand")
        if t.get("level_next"):
            parts.append("level %d from the next deal" % t["level_next"])
        if t["away"]:
            parts.append("%d away" % t["away"])
        if t["waiting"]:
            parts.append("%d waiting" % t["waiting"])
        parts.append("%s hands/h" % ("--" if t["per_hour"] is None else t["per_hour"]))
        if t.get("stakes"):
            parts.append("%d/%d" % tuple(t["stakes"]))
        c = t.get("clock")
        if c:
            if c["break"]:
                parts.append("break %s" % fmt_ms(c["ms_left"]))
            else:
                parts.append("L%s %s/%s%s %s%s" % (
                    c["level"], c["sb"], c["bb"], " ante %s" % c["ante"] if c["ante"] else "",
                    fmt_ms(c["ms_left"]), "" if c["running"] else " paused"))
        if not t["online"]:
            parts.append("OFFLINE")
        lines.append(("%s %s  %s" % (head, ring, ", ".join(parts)))[:width])
    lines += hand_for_hand_text(summary.get("handforhand"))
    tour = summary.get("tournament")
    if tour:
        lines += ["", "Tournament: %d players at %d tables (%s)" % (
            tour["players"], len(tour["sizes"]),
            " ".join("%s:%d" % (s["name"], s["players"]) for s in tour["sizes"]))]
        if tour["break"]:
            lines.append("  break table %s" % tour["break"])
        for m in tour["moves"]:
            lines.append("  move %s from table %s to table %s" % (
                "seat %d" % m["seat"] if m["seat"] else "a player", m["from"], m["to"]))
        if not tour["moves"]:
            lines.append("  tables balanced")
    return lines


def hand_for_hand_text(h4h: Optional[dict]) -> List[str]:
    """Hand-for-hand's lines (none until the floor has chosen it)."""
    if not h4h or not h4h["mode"]:
        return []
    if h4h["mode"] == "off":
        return ["", "Hand-for-hand: off"]
    playing = h4h["playing"]
    lines = ["", "Hand-for-hand: on, %d deal(s) together so far" % h4h["deals"],
             "  still playing their hand: %s" % (" ".join(playing) if playing else
                                                 "none (dealing every table)")]
    if h4h["waiting"]:
        lines.append("  hand over, waiting: %s" % " ".join(h4h["waiting"]))
    if h4h["switching"]:
        lines.append("  not in hand-for-hand yet: %s" % " ".join(h4h["switching"]))
    if h4h["offline"]:
        lines.append("  offline, left out: %s" % " ".join(h4h["offline"]))
    for n in h4h["level_next"]:
        lines.append("  table %s: level %d from the next deal" % (n["table"], n["level"]))
    if h4h["levels_differ"]:
        lines.append("  the clocks differ: " + "; ".join(
            "level %d at %s" % (n["level"], " ".join(n["tables"]))
            for n in h4h["levels_differ"]))
    return lines


# -- running it ----------------------------------------------------------------------------
def follow(client, model: RoomModel, broker: mqttconn.Broker, answered=None,
           then=None) -> None:
    """Feed the room's messages to the model once the broker accepts the connection (and
    after every reconnection); answered(reason), if given, hears of every answer of the
    broker: None when it accepted, else its reason for refusing; then(), if given, runs
    after each message the model took."""

    def on_connect(c, userdata, flags, rc, properties=None):
        if rc.is_failure:
            log.warning("broker %s refused the connection: %s", broker.describe(),
                        mqttconn.reason_text(rc))
            if answered:
                answered(mqttconn.reason_text(rc))
            return
        log.info("connected to %s", broker.describe())
        for t in model.topics():
            c.subscribe(t, qos=1)
        if answered:
            answered(None)

    def on_message(c, userdata, msg):
        model.handle(msg.topic, bytes(msg.payload))
        if then:
            then()

    client.on_connect = on_connect
    client.on_message = on_message


def connect(model: RoomModel, broker: mqttconn.Broker, mode: Optional[bool] = None):
    """The room's client, following the model, and its Floor (hand-for-hand in mode, or
    as the floor chooses later), which publishes table commands through it."""
    client = mqttconn.make_client(broker)
    floor = Floor(model, lambda topic, line: client.publish(topic, line, qos=1), mode)
    follow(client, model, broker, then=floor.step)
    mqttconn.start(client, broker, log)
    return client, floor


ANSWER_S = 10.0  # --once: how long the broker may take to answer the connection


def once(model: RoomModel, broker: mqttconn.Broker, wait: float) -> int:
    """--once: the room as the broker's retained states give it after `wait` seconds,
    printed; a broker that cannot be reached, or refuses, is an error (exit status 1)."""
    client = mqttconn.make_client(broker)
    answers: List[Optional[str]] = []
    answered = threading.Event()

    def answer(reason):
        answers.append(reason)
        answered.set()

    follow(client, model, broker, answer)
    try:
        client.connect(broker.host, broker.port, keepalive=mqttconn.KEEPALIVE_S)
    except (OSError, ValueError) as e:
        raise mqttconn.BrokerError("cannot reach the broker %s: %s"
                                   % (broker.describe(), mqttconn.reason_of(e)),
                                   status=1) from None
    client.loop_start()
    try:
        if not answered.wait(ANSWER_S):
            raise mqttconn.BrokerError("the broker %s did not answer within %d s"
                                       % (broker.describe(), ANSWER_S), status=1)
        if answers[0] is not None:
            raise mqttconn.BrokerError("the broker %s refused the connection: %s"
                                       % (broker.describe(), answers[0]), status=1)
        time.sleep(wait)
    finally:
        client.disconnect()
        client.loop_stop()
    print("\n".join(render_text(model.summary())))
    return 0


def main(args, broker: mqttconn.Broker) -> int:
    model = RoomModel(args.room)
    if args.once:
        return once(model, broker, args.wait)
    server = None
    if not args.terminal:  # a port in use is said before the broker is tried
        server = make_server(model, args.http)
    mode = {None: None, "on": True, "off": False}[args.hand_for_hand]
    client, floor = connect(model, broker, mode)
    if server is not None:
        server.floor = floor
    stop = threading.Event()
    threading.Thread(target=floor.run, args=(stop,), daemon=True).start()
    if mode is not None:
        log.info("hand-for-hand %s", args.hand_for_hand)
    try:
        if server is None:
            return terminal(model, floor)
        return serve(model, server)
    except KeyboardInterrupt:
        return 0
    finally:
        stop.set()
        client.disconnect()
        client.loop_stop()


def terminal(model: RoomModel, floor: Optional[Floor] = None) -> int:
    import shutil

    while True:
        width, height = shutil.get_terminal_size((100, 30))
        lines = render_text(room_summary(model, floor), width=width)[:height - 1]
        sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(lines) + "\n")
        sys.stdout.flush()
        model.changed.wait(1.0)
        model.changed.clear()
