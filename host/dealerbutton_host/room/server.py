"""The room's web pages: the wall page at /, the tournament clock for a TV at /clock, their
static files from page/, the room as /room.json, and the floor's moves: POST /moves/start
{"from", "seat", "to"} and POST /moves/cancel {"id"}, each answered with {"move": ...} or
{"error": why} (409 for a move the room refuses); and hand-for-hand: POST /handforhand
{"on": true or false}, answered with {"handforhand": ...}."""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional, cast
from urllib.parse import urlsplit

from . import mqttconn
from .handforhand import Floor
from .model import RoomModel
from .moves import MoveRefused

log = logging.getLogger("dealerbutton.room")

PAGE = Path(__file__).resolve().with_name("page")

FILES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/room.js": ("room.js", "text/javascript; charset=utf-8"),
         "/room.css": ("room.css", "text/css; charset=utf-8"),
         "/clock": ("clock.html", "text/html; charset=utf-8"),
         "/clock.js": ("clock.js", "text/javascript; charset=utf-8"),
         "/clock.css": ("clock.css", "text/css; charset=utf-8")}


MAX_BODY = 1024  # a move's request is a few dozen bytes
POSTS = ("/moves/start", "/moves/cancel", "/handforhand")


class RoomServer(ThreadingHTTPServer):
    """The room's pages for one model; control: the page may start and cancel moves, and
    switch hand-for-hand (through the floor, once the room runs on the broker)."""

    def __init__(self, address, model: RoomModel, control: bool, floor: Optional[Floor]):
        super().__init__(address, RoomHandler)
        self.model = model
        self.control = control
        self.floor = floor


def room_summary(model: RoomModel, floor: Optional[Floor]) -> dict:
    """The model's summary, with hand-for-hand's when there is a floor."""
    summary = model.summary()
    if floor is not None:
        summary["handforhand"] = floor.summary(summary["tables"])
    return summary


def make_server(model: RoomModel, where: str, control: bool = True,
                floor: Optional[Floor] = None) -> RoomServer:
    """The page's server on where, HOST:PORT (checked by options.host_port); control: the
    page may start and cancel moves, and switch hand-for-hand (floor, or the server's
    floor once set)."""
    host, _, port = where.rpartition(":")
    try:
        return RoomServer((host or "127.0.0.1", int(port)), model, control, floor)
    except OSError as e:
        raise mqttconn.BrokerError("--http %s: cannot serve on it: %s"
                                   % (where, e.strerror or e), status=1) from None


class RoomHandler(BaseHTTPRequestHandler):
    """A request of the room's pages: a page, its files, the room's JSON; a move started or
    cancelled, hand-for-hand switched."""

    @property
    def room(self) -> RoomServer:
        return cast(RoomServer, self.server)

    def do_GET(self):  # noqa: N802 - the http.server name
        path = self.path.split("?", 1)[0]
        if path == "/room.json":
            summary = room_summary(self.room.model, self.room.floor)
            summary["control"] = self.room.control
            body = json.dumps(summary, separators=(",", ":")).encode()
            kind = "application/json"
        elif path in FILES:
            name, kind = FILES[path]
            body = (PAGE / name).read_bytes()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):  # noqa: N802 - the http.server name
        path = self.path.split("?", 1)[0]
        if path not in POSTS or path == "/handforhand" and self.room.floor is None:
            self.send_error(404)
            return
        status, answer = self.move(path)
        if status == 200 and "move" in answer:   # (hand-for-hand's Floor says its own)
            log.info("%s: %s", path[1:], json.dumps(answer["move"]))
        elif status != 200:
            log.warning("%s refused: %s", path[1:], answer["error"])
        self.answer(status, answer)

    def move(self, path):
        """(HTTP status, answer) of a request of the page: start or cancel a move, switch
        hand-for-hand."""
        if not self.room.control:
            return 403, {"error": "this room view is read-only (--read-only)"}
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, {"error": "send JSON (Content-Type: application/json)"}
        origin = self.headers.get("Origin")
        if origin and urlsplit(origin).netloc != self.headers.get("Host"):
            return 403, {"error": "a page of another site may not move players"}
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            return 400, {"error": "a JSON object of at most %d bytes" % MAX_BODY}
        model = self.room.model
        try:
            body = json.loads(self.rfile.read(length))
            if path == "/handforhand":
                return self.hand_for_hand(body["on"])
            if path == "/moves/start":
                move = model.moves.start(str(body["from"]), body["seat"], str(body["to"]))
            else:
                move = model.moves.cancel(body["id"])
        except MoveRefused as e:
            return 409, {"error": str(e)}
        except (ValueError, KeyError, TypeError):
            return 400, {"error": "start: {\"from\", \"seat\", \"to\"}; cancel: {\"id\"}; "
                         "hand-for-hand: {\"on\": true or false}"}
        model.changed.set()
        return 200, {"move": move}

    def hand_for_hand(self, on):
        """(HTTP status, answer) of the page's hand-for-hand button."""
        floor = self.room.floor
        if not isinstance(on, bool) or floor is None:
            return 400, {"error": "hand-for-hand: {\"on\": true or false}"}
        floor.switch(on)
        self.room.model.changed.set()
        return 200, {"handforhand": room_summary(self.room.model, floor)["handforhand"]}

    def answer(self, status, answer):
        body = json.dumps(answer, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - quiet: a wall polls every second
        pass


def serve(model: RoomModel, server: ThreadingHTTPServer) -> int:
    host, port = server.server_address[:2]
    log.info("room %s on http://%s:%d/", model.room, host, port)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
