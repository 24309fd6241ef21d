"""The room's web pages: the wall page at /, the tournament clock for a TV at /clock, their
static files from page/, the room as /room.json, and POST /handforhand, the page's button
that switches hand-for-hand on or off ({"on": true} or {"on": false}): only for a browser
on the room's own computer, the only one whose page shows the button."""

from __future__ import annotations

import ipaddress
import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional

from . import mqttconn
from .handforhand import Floor
from .model import RoomModel

log = logging.getLogger("dealerbutton.room")

PAGE = Path(__file__).resolve().with_name("page")

FILES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/room.js": ("room.js", "text/javascript; charset=utf-8"),
         "/room.css": ("room.css", "text/css; charset=utf-8"),
         "/clock": ("clock.html", "text/html; charset=utf-8"),
         "/clock.js": ("clock.js", "text/javascript; charset=utf-8"),
         "/clock.css": ("clock.css", "text/css; charset=utf-8")}


class RoomServer(ThreadingHTTPServer):
    floor: Optional[Floor] = None   # hand-for-hand, once the room runs on the broker


def room_summary(model: RoomModel, floor: Optional[Floor]) -> dict:
    """The model's summary, with hand-for-hand's when there is a floor."""
    summary = model.summary()
    if floor is not None:
        summary["handforhand"] = floor.summary(summary["tables"])
    return summary


def from_this_computer(address: str) -> bool:
    """A client address of this computer's own (loopback)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def make_server(model: RoomModel, where: str, floor: Optional[Floor] = None) -> RoomServer:
    """The page's server on where, HOST:PORT (checked by options.host_port)."""
    host, _, port = where.rpartition(":")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            path = self.path.split("?", 1)[0]
            if path == "/room.json":
                summary = room_summary(model, server.floor)
                if "handforhand" in summary:
                    summary["handforhand"]["button"] = from_this_computer(self.client_address[0])
                body = json.dumps(summary, separators=(",", ":")).encode()
                kind = "application/json"
            elif path in FILES:
                name, kind = FILES[path]
                body = (PAGE / name).read_bytes()
            else:
                self.send_error(404)
                return
            self.reply(200, kind, body)

        def do_POST(self):  # noqa: N802 - the http.server name
            """The page's hand-for-hand button. Only from this computer, and only a JSON
            request from the page itself: a form on another site can send neither that type
            nor this origin."""
            if self.path != "/handforhand" or server.floor is None:
                self.send_error(404)
                return
            if not from_this_computer(self.client_address[0]):
                self.send_error(403, "only from the room's own computer")
                return
            origin = self.headers.get("Origin")
            if origin is not None and origin != "http://" + self.headers.get("Host", ""):
                self.send_error(403, "not from this page")
                return
            if self.headers.get("Content-Type", "").split(";")[0] != "application/json":
                self.send_error(415, "send JSON")
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
                on = json.loads(self.rfile.read(min(length, 100)))["on"]
            except (ValueError, KeyError, TypeError):
                on = None
            if not isinstance(on, bool):
                self.send_error(400, 'send {"on": true} or {"on": false}')
                return
            server.floor.switch(on)
            summary = room_summary(model, server.floor)
            self.reply(200, "application/json", json.dumps(summary["handforhand"]).encode())

        def reply(self, status, kind, body):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):  # noqa: A002 - quiet: a wall polls every second
            pass

    try:
        server = RoomServer((host or "127.0.0.1", int(port)), Handler)
    except OSError as e:
        raise mqttconn.BrokerError("--http %s: cannot serve on it: %s"
                                   % (where, e.strerror or e), status=1) from None
    server.floor = floor
    return server


def serve(model: RoomModel, server: ThreadingHTTPServer) -> int:
    host, port = server.server_address[:2]
    log.info("room %s on http://%s:%d/", model.room, host, port)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
