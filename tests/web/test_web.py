"""`dealerbutton web`: what the site holds, how it is served and written out, its errors."""

import json
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from dealerbutton_host import cli
from dealerbutton_host.web import server as web

FIRMWARE = Path(web.__file__).resolve().parents[3] / "firmware" / "dealerbutton"
# The modules that drive real hardware, which the page leaves out (it has its own board).
HARDWARE = ("board/pico.py", "board/circuitpython.py", "board/strip_cp.py")


def need_runtime():
    if not (web.runtime_dir() / "micropython.wasm").is_file():
        pytest.fail("MicroPython's WebAssembly runtime is missing: run `npm ci`")


def test_firmware_modules_are_listed_from_the_folder(tmp_path):
    for name in ("__init__.py", "app.py", "newmodule.py", "notes.md", "part/__init__.py",
                 "part/piece.py") + HARDWARE:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("# " + name)
    assert list(web.firmware_modules(tmp_path)) == ["__init__.py", "app.py", "newmodule.py",
                                                    "part/__init__.py", "part/piece.py"]


def test_site_has_the_page_the_runtime_and_every_firmware_module():
    need_runtime()
    files = web.site()
    modules = json.loads(files["firmware/modules.json"])
    on_disk = sorted(p.relative_to(FIRMWARE).as_posix() for p in FIRMWARE.rglob("*.py")
                     if "__pycache__" not in p.parts)
    on_disk = [name for name in on_disk if name not in HARDWARE]
    assert modules == on_disk and "app.py" in modules and "rules/table.py" in modules
    for name in modules:
        assert files["firmware/dealerbutton/" + name] == FIRMWARE / name
    for name in ("index.html", "table.mjs", "devices.mjs", "lineclient.mjs", "webtable.py",
                 "style.css", "MICROPYTHON-LICENSE.txt", "runtime/micropython.mjs",
                 "runtime/micropython.wasm"):
        assert name in files, name
    assert web.content(files["runtime/micropython.wasm"])[:4] == b"\0asm"


def test_missing_runtime_is_one_clear_line(tmp_path):
    with pytest.raises(web.WebError) as e:
        web.site(tmp_path)
    assert "run `npm ci` in %s" % tmp_path in str(e.value)
    assert "\n" not in str(e.value)


def test_the_runtime_is_pinned():
    root = Path(web.__file__).resolve().parents[3]
    package = json.loads((root / "package.json").read_text())
    lock = json.loads((root / "package-lock.json").read_text())
    assert package["dependencies"] == {web.RUNTIME_PACKAGE: "1.27.0"}
    entry = lock["packages"]["node_modules/" + web.RUNTIME_PACKAGE]
    assert entry["version"] == "1.27.0" and entry["integrity"].startswith("sha512-")


@pytest.fixture
def served():
    need_runtime()
    server = web.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/" % server.server_address[1], server
    server.shutdown()
    server.server_close()


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers["Content-Type"], r.read()


def test_server_serves_each_file_with_its_type(served):
    url, _ = served
    status, kind, body = fetch(url)
    assert status == 200 and kind.startswith("text/html") and b"table.mjs" in body
    assert fetch(url + "runtime/micropython.wasm")[1] == "application/wasm"
    assert fetch(url + "table.mjs")[1].startswith("text/javascript")
    status, _, body = fetch(url + "firmware/dealerbutton/rules/table.py")
    assert body == (FIRMWARE / "rules" / "table.py").read_bytes()
    with pytest.raises(urllib.error.HTTPError) as e:
        fetch(url + "../pyproject.toml")
    assert e.value.code == 404


def test_port_in_use_is_one_clear_line(served):
    _, server = served
    port = server.server_address[1]
    with pytest.raises(web.WebError) as e:
        web.make_server("127.0.0.1", port)
    assert str(e.value).startswith("--port %d: cannot serve on 127.0.0.1:%d: " % (port, port))
    assert e.value.status == 1


def test_cli_writes_a_folder_to_publish(tmp_path, capsys):
    need_runtime()
    out = tmp_path / "site"
    assert cli.main(["web", "--out", str(out)]) == 0
    files = web.site()
    assert "dealerbutton web: %d files in %s" % (len(files), out) in capsys.readouterr().out
    for name, item in files.items():
        assert (out / name).read_bytes() == web.content(item), name


def test_cli_refuses_a_file_as_folder(tmp_path, capsys):
    need_runtime()
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["web", "--out", str(f)]) == 2
    assert capsys.readouterr().err == "dealerbutton web: --out %s: not a folder\n" % f


def test_cli_port_in_use(capsys):
    need_runtime()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert cli.main(["web", "--port", str(port)]) == 1   # a failure, not a bad value
    err = capsys.readouterr().err
    assert err.startswith("dealerbutton web: --port %d: cannot serve on 127.0.0.1:%d: "
                          % (port, port))
    assert err.count("\n") == 1
