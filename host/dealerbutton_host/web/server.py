"""`dealerbutton web`: the page that runs the board's own firmware in the browser.

The page is static files: the page itself (page/ beside this module), MicroPython's
WebAssembly runtime (the npm package pinned in package.json, installed by `npm ci`) and
the firmware's modules, listed from firmware/dealerbutton/ when the site is put together
(all of them but the board's hardware ones). site() maps each URL path to its content;
serve() serves that map, build() writes it as a folder to publish anywhere.
"""

from __future__ import annotations

import errno
import http.server
import json
import shutil
from pathlib import Path
from typing import Dict, Union

import dealerbutton

from ..options import Refused
from . import ringsvg

PAGE = Path(__file__).resolve().with_name("page")
CHECKOUT = Path(__file__).resolve().parents[3]
RUNTIME_PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
# Modules that drive real hardware (the Pico's, CircuitPython's): the page has its own.
HARDWARE_MODULES = ("board/pico.py", "board/circuitpython.py", "board/strip_cp.py")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".py": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
}

Content = Union[Path, bytes]


class WebError(Refused):
    """What keeps the page from being served, in one line."""


def runtime_dir(root: Path = CHECKOUT) -> Path:
    return root / "node_modules" / RUNTIME_PACKAGE


def firmware_modules(folder: Path | None = None) -> Dict[str, Path]:
    """The firmware's modules the page loads: every module of firmware/dealerbutton/ and its
    packages but the hardware ones, by path in it ("app.py", "rules/table.py"), sorted."""
    folder = folder or Path(dealerbutton.__file__).resolve().parent
    skip = set()
    for pattern in HARDWARE_MODULES:
        skip.update(p.relative_to(folder).as_posix() for p in folder.glob(pattern))
    found = {p.relative_to(folder).as_posix(): p for p in folder.rglob("*.py")
             if "__pycache__" not in p.parts}
    return {rel: found[rel] for rel in sorted(found) if rel not in skip}


def site(root: Path = CHECKOUT) -> Dict[str, Content]:
    """URL path (no leading slash) -> a file or bytes: everything the page needs."""
    runtime = runtime_dir(root)
    missing = [name for name in RUNTIME_FILES if not (runtime / name).is_file()]
    if missing:
        raise WebError("MicroPython's WebAssembly runtime is not installed (no %s): run "
                       "`npm ci` in %s" % (runtime / missing[0], root), status=1)
    files: Dict[str, Content] = {}
    for p in sorted(PAGE.iterdir()):
        if p.is_file():
            files[p.name] = p
    for name in RUNTIME_FILES:
        files["runtime/" + name] = runtime / name
    modules = firmware_modules()
    for name, p in modules.items():
        files["firmware/dealerbutton/" + name] = p
    files["firmware/modules.json"] = (json.dumps(sorted(modules)) + "\n").encode()
    # The ring's legend, drawn by the firmware's renderer (as hardware/ring-legend.svg).
    files["ring-legend.json"] = (json.dumps(ringsvg.legend_rows()) + "\n").encode()
    return files


def content(item: Content) -> bytes:
    return item.read_bytes() if isinstance(item, Path) else item


def build(out: Path, root: Path = CHECKOUT) -> int:
    """Write the site into the folder out (made if needed); returns the number of files."""
    files = site(root)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise WebError("--out %s: not a folder" % out)
    try:
        for name, item in files.items():
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(item, Path):
                shutil.copyfile(item, target)
            else:
                target.write_bytes(item)
    except OSError as e:
        raise WebError("--out %s: cannot write %s: %s"
                       % (out, e.filename or out, e.strerror or e), status=1) from None
    return len(files)


def handler_for(files: Dict[str, Content]):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            self.answer(True)

        def do_HEAD(self):  # noqa: N802
            self.answer(False)

        def answer(self, body: bool):
            path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
            item = files.get(path)
            if item is None:
                self.send_error(404, "not part of the page: /" + path)
                return
            data = content(item)
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(Path(path).suffix,
                                                       "application/octet-stream"))
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_message(self, format, *args):  # noqa: A002 - the http.server name
            pass

    return Handler


def make_server(host: str = "127.0.0.1", port: int = 8080, root: Path = CHECKOUT):
    """A server of the page (not yet serving): port 0 picks a free one."""
    files = site(root)
    try:
        return http.server.ThreadingHTTPServer((host, port), handler_for(files))
    except OSError as e:
        raise WebError("%s: cannot serve on %s:%d: %s" % (
            server_option(e, "--host %s" % host, "--port %d" % port), host, port,
            e.strerror or e), status=1) from None


def server_option(e: OSError, host: str, port: str) -> str:
    """Which option made binding a server fail: the port (in use, or one below 1024 that
    needs more rights) or the host (no such name or address here)."""
    return port if e.errno in (errno.EADDRINUSE, errno.EACCES) else host


def serve(host: str, port: int, out=print) -> int:
    server = make_server(host, port)
    address, port = server.server_address[:2]
    out("dealerbutton web: the table is on http://%s:%d/ (Ctrl-C stops)"
        % ("[%s]" % address if ":" in str(address) else address, port))
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
