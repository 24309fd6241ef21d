"""The room's web pages: the wall page at /, the tournament clock for a TV at /clock, their
static files from page/, and the room as /room.json."""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from . import mqttconn
from .model import RoomModel

log = logging.getLogger("dealerbutton.room")

PAGE = Path(__file__).resolve().with_name("page")

FILES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/room.js": ("room.js", "text/javascript; charset=utf-8"),
         "/room.css": ("room.css", "text/css; charset=utf-8"),
         "/clock": ("clock.html", "text/html; charset=utf-8"),
         "/clock.js": ("clock.js", "text/javascript; charset=utf-8"),
         "/clock.css": ("clock.css", "text/css; charset=utf-8")}


def make_server(model: RoomModel, where: str) -> ThreadingHTTPServer:
    """The page's server on where, HOST:PORT (checked by options.host_port)."""
    host, _, port = where.rpartition(":")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            path = self.path.split("?", 1)[0]
            if path == "/room.json":
                body = json.dumps(model.summary(), separators=(",", ":")).encode()
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
