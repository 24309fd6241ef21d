"""The room's web pages: the wall page at /, the tournament clock for a TV at /clock, their
static files from page/, the room as /room.json, and the floor's moves: POST /moves/start
{"from", "seat", "to"} and POST /moves/cancel {"id"}, each answered with {"move": ...} or
{"error": why} (409 for a move the room refuses)."""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from . import mqttconn
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


def make_server(model: RoomModel, where: str, control: bool = True) -> ThreadingHTTPServer:
    """The page's server on where, HOST:PORT (checked by options.host_port); control: the
    page may start and cancel moves."""
    host, _, port = where.rpartition(":")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            path = self.path.split("?", 1)[0]
            if path == "/room.json":
                summary = model.summary()
                summary["control"] = control
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
            if path not in ("/moves/start", "/moves/cancel"):
                self.send_error(404)
                return
            status, answer = self.move(path)
            if status == 200:
                log.info("%s: %s", path[1:], json.dumps(answer["move"]))
            else:
                log.warning("%s refused: %s", path[1:], answer["error"])
            self.answer(status, answer)

        def move(self, path):
            """(HTTP status, answer) of a request to start or cancel a move."""
            if not control:
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
            try:
                body = json.loads(self.rfile.read(length))
                if path == "/moves/start":
                    move = model.moves.start(str(body["from"]), body["seat"], str(body["to"]))
                else:
                    move = model.moves.cancel(body["id"])
            except MoveRefused as e:
                return 409, {"error": str(e)}
            except (ValueError, KeyError, TypeError):
                return 400, {"error": "start: {\"from\", \"seat\", \"to\"}; cancel: {\"id\"}"}
            model.changed.set()
            return 200, {"move": move}

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

    try:
        return ThreadingHTTPServer((host or "127.0.0.1", int(port)), Handler)
    except OSError as e:
        raise mqttconn.BrokerError("--http %s: cannot serve on it: %s"
                                   % (where, e.strerror or e), status=1) from None


def serve(model: RoomModel, server: ThreadingHTTPServer) -> int:
    host, port = server.server_address[:2]
    log.info("room %s on http://%s:%d/", model.room, host, port)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
