"""The room view: every table of a room on the broker, at a glance.

    dealerbutton room --broker mqtt://floor-pi --room club              # web page
    dealerbutton room --broker mqtt://floor-pi --room club --terminal   # in the terminal
    dealerbutton room --broker mqtt://floor-pi --room club --hand-for-hand on

main() feeds the room's messages to a RoomModel (model.py) and draws its summary() in the
terminal (render_text) or serves it as the web page (server.py). Both start and cancel the
floor's moves between tournament tables (moves.py), whose commands go out on the tables'
cmd topics through the room's own connection (publisher()); in the terminal a key starts
or cancels one (press_key). A room that runs also plays hand-for-hand when the floor says
so (handforhand.py), through the same connection.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from typing import List, Optional

from . import mqttconn
from .handforhand import Floor
from .model import RoomModel
from .moves import MoveRefused
from .server import make_server, room_summary, serve

log = logging.getLogger("dealerbutton.room")


# -- the terminal --------------------------------------------------------------------------
def _glyphs():
    if "utf" in (sys.stdout.encoding or "").lower():
        return {"active": "\u25cf", "away": "\u25cc", "waiting": "\u25d0", "empty": "\u00b7",
                "reserved": "\u25c7", "moving": "\u25c6"}
    return {"active": "#", "away": "a", "waiting": "w", "empty": ".", "reserved": "r",
            "moving": "m"}


def fmt_ms(ms) -> str:
    if ms is None:
        return "--:--"
    s = ms // 1000
    return "%d:%02d" % (s // 60, s % 60)


def move_text(m: dict) -> str:
    """A move the floor started, in words: where from, where to, how far it got."""
    way = "seat %d of table %s -> seat %d of table %s" % (m["seat"], m["from"], m["target"],
                                                          m["to"])
    if m["phase"] == "moving":
        return way + ": in progress, the seat is kept for him"
    if m["phase"] == "seated":
        return way + ": in progress, seated; leaving table %s" % m["from"]
    return way + ": done"


KEYS = "abcdefghijklmnopqrstuvwxyz"   # a move in progress, to cancel, by its key


def render_text(summary: dict, glyphs: Optional[dict] = None, width: int = 100,
                keys: bool = False) -> List[str]:
    """The room as lines of text (what --terminal draws); keys: each suggested move and each
    move in progress shown with the key that starts or cancels it (press_key)."""
    g = glyphs or _glyphs()
    tables = summary["tables"]
    lines = ["Room %s: %d table(s), %d online, %d players, %d open seats"
             % (summary["room"], len(tables), summary["online"], summary["players"],
                summary["open"]),
             "seats: %s player  %s away  %s waiting  %s open  [ ] button" % (
                 g["active"], g["away"], g["waiting"], g["empty"])
             + ("  %s kept for a player moving in  %s moving out" % (
                 g.get("reserved", "r"), g.get("moving", "m")) if _marked(tables) else ""),
             ""]
    lines += [table_line(t, g)[:width] for t in tables]
    lines += hand_for_hand_text(summary.get("handforhand"))
    lines += tournament_text(summary.get("tournament"), keys)
    lines += moves_text(summary.get("moves") or [], keys)
    if keys:
        lines += ["", "keys: 1-9 start that move, a-z cancel that one, q quit"]
    return [line[:width] for line in lines]


def table_line(t: dict, g: dict) -> str:
    """One table in a line: its name, its seats round the ring (the button in brackets),
    and its facts: open seats, hand-for-hand, away and waiting players, pace, stakes,
    clock."""
    head = "%-8s" % ("T" + t["name"] if t["name"][:1].isdigit() else t["name"])[:8]
    if not t["state"]:
        return "%s %s" % (head, "offline, nothing known" if not t["online"]
                          else "online, no state yet")
    ring = ""
    for s in t["seats"]:
        mark = g.get(s.get("mark") or "", g[s["status"]])
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
    return "%s %s  %s" % (head, ring, ", ".join(parts))


def tournament_text(tour: Optional[dict], keys: bool) -> List[str]:
    """A tournament's players and tables, its break table, and the moves that balance it
    (keys: the first nine numbered, to start with a key)."""
    if not tour:
        return []
    lines = ["", "Tournament: %d players at %d tables (%s)" % (
        tour["players"], len(tour["sizes"]),
        " ".join("%s:%d" % (s["name"], s["players"]) for s in tour["sizes"]))]
    if tour["break"]:
        lines.append("  break table %s" % tour["break"])
    for i, m in enumerate(tour["moves"]):
        lines.append("  %smove %s from table %s to table %s" % (
            "[%d] " % (i + 1) if keys and i < 9 and m["seat"] else "",
            "seat %d" % m["seat"] if m["seat"] else "a player", m["from"], m["to"]))
    if not tour["moves"]:
        lines.append("  tables balanced")
    return lines


def moves_text(moves: List[dict], keys: bool) -> List[str]:
    """The floor's moves, in progress and done (keys: those in progress lettered, to cancel
    with a key)."""
    if not moves:
        return []
    lines = ["", "Moves:"]
    going = [m for m in moves if m["state"] != "done"]
    for m in moves:
        i = going.index(m) if m in going else -1
        key = "[%s] " % KEYS[i] if keys and 0 <= i < len(KEYS) and m["phase"] == "moving" \
            else ""
        lines.append("  %s%s" % (key, move_text(m)))
    return lines


def _marked(tables: List[dict]) -> bool:
    """Some seat of these tables holds a mark of a move under way."""
    return any(s.get("mark") for t in tables for s in t["seats"])


def press_key(model: RoomModel, summary: dict, key: str) -> str:
    """A key pressed in the terminal, against the summary it saw: a digit starts that
    suggested move, a letter cancels that move in progress; what happened, in words."""
    try:
        if key.isdigit() and key != "0":
            proposals = (summary.get("tournament") or {}).get("moves") or []
            i = int(key) - 1
            if i >= len(proposals) or not proposals[i]["seat"]:
                return "no suggested move %s" % key
            p = proposals[i]
            m = model.moves.start(p["from"], p["seat"], p["to"])
            model.changed.set()
            return "started: " + move_text(m)
        if key in KEYS:
            going = [m for m in summary.get("moves") or [] if m["state"] != "done"]
            i = KEYS.index(key)
            if i >= len(going):
                return "no move in progress %s" % key
            m = model.moves.cancel(going[i]["id"])
            model.changed.set()
            return "cancelled: seat %d of table %s stays; seat %d of table %s is released" % (
                m["seat"], m["from"], m["target"], m["to"])
    except MoveRefused as e:
        return "refused: %s" % e
    return ""


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


def publisher(client, room: str):
    """publish(table, line): a command line on that table's cmd topic (QoS 1; paho queues
    it while the broker is away)."""

    def publish(table: str, line: str) -> None:
        log.info("table %s: %s", table, line)
        client.publish(mqttconn.topic(room, table, "cmd"), line, qos=1)

    return publish


def connect(model: RoomModel, broker: mqttconn.Broker, mode: Optional[bool] = None,
            control: bool = True):
    """The room's connection: it follows the tables and publishes the moves' commands, and
    hand-for-hand's through its Floor (in mode, or as the floor chooses later; none for a
    room without control)."""
    client = mqttconn.make_client(broker)
    publish = publisher(client, model.room)
    floor = Floor(model, publish, mode) if control else None
    follow(client, model, broker, then=floor.step if floor else None)
    model.moves.publish = publish
    mqttconn.start(client, broker, log)
    return client, floor


CHECK_S = 1.0   # the moves in progress are checked against the tables this often


def keep_checking(model: RoomModel, stop: threading.Event) -> threading.Thread:
    """A thread that checks the moves in progress every CHECK_S until stop is set (what a
    table lacks is sent again)."""

    def run():
        while not stop.wait(CHECK_S):
            model.moves.check()

    t = threading.Thread(target=run, name="room-moves", daemon=True)
    t.start()
    return t


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
    control = not args.read_only
    if not args.terminal:  # a port in use is said before the broker is tried
        server = make_server(model, args.http, control=control)
    mode = {None: None, "on": True, "off": False}[args.hand_for_hand]
    client, floor = connect(model, broker, mode, control)
    if server is not None:
        server.floor = floor
    stop = threading.Event()
    keep_checking(model, stop)
    if floor is not None:
        threading.Thread(target=floor.run, args=(stop,), name="room-handforhand",
                         daemon=True).start()
    if mode is not None:
        log.info("hand-for-hand %s", args.hand_for_hand)
    try:
        if server is None:
            return terminal(model, control, floor)
        return serve(model, server)
    except KeyboardInterrupt:
        return 0
    finally:
        stop.set()
        client.disconnect()
        client.loop_stop()


def terminal(model: RoomModel, control: bool = True, floor: Optional[Floor] = None) -> int:
    """Draw the room until Ctrl-C (or q); from a terminal, unless control is off, its keys
    start and cancel moves (press_key)."""
    import shutil

    keys = Keys.open(sys.stdin) if control else None
    message = ""
    try:
        while True:
            width, height = shutil.get_terminal_size((100, 30))
            summary = room_summary(model, floor)
            lines = render_text(summary, width=width, keys=keys is not None)
            if message:
                lines.append(message[:width])
            sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(lines[:height - 1]) + "\n")
            sys.stdout.flush()
            if keys is None:
                model.changed.wait(1.0)
            else:
                key = keys.read(1.0, model.changed)
                if key == "q":
                    return 0
                if key:
                    message = press_key(model, summary, key)
            model.changed.clear()
    finally:
        if keys is not None:
            keys.close()


class Keys:
    """Single key presses from a terminal (cbreak mode, no echo), given back as it was by
    close()."""

    def __init__(self, stream, saved):
        self.stream = stream
        self.saved = saved

    @classmethod
    def open(cls, stream) -> Optional["Keys"]:
        """The keys of stream, or None when it is not a terminal."""
        try:
            import termios
            import tty

            if not stream.isatty():
                return None
            saved = termios.tcgetattr(stream.fileno())
            tty.setcbreak(stream.fileno())
        except (ImportError, OSError, ValueError):
            return None
        return cls(stream, saved)

    def read(self, timeout: float, changed: threading.Event) -> str:
        """A key pressed within timeout seconds, or "" (sooner when changed is set)."""
        import select

        end = time.monotonic() + timeout
        while not changed.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return ""
            ready, _, _ = select.select([self.stream], [], [], min(left, 0.1))
            if ready:
                return os.read(self.stream.fileno(), 1).decode("ascii", "replace").lower()
        return ""

    def close(self) -> None:
        import termios

        termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self.saved)
