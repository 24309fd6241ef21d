"""`dealerbutton monitor` against the emulator's pseudo-terminal: a scripted session, and
the live view following a board that resets (its port goes away and comes back)."""

import re
import subprocess
import sys
import time
from pathlib import Path

from test_host_client import PtyEmulator
from test_host_view import Tmux, dealerbutton

BIN = Path(sys.executable).parent


def monitor(*args):
    return subprocess.run([str(BIN / "dealerbutton"), "monitor", *args], capture_output=True,
                          text=True, timeout=60)


def test_scripted_session(tmp_path):
    # Through the emulator's link: once it stops, the link is gone with it, whereas the
    # pseudo-terminal's own name may be given to another program's (another test's) at once.
    link = tmp_path / "ttyDEALER"
    emu = PtyEmulator("--seats", "5", "--state", str(tmp_path / "state"), link=link)
    try:
        script = tmp_path / "session.txt"
        script.write_text("# three players, the first hand, one step away\n"
                          "sit 1\nsit 2\nsit 3\n\ndeal 2\naway 1\nstate\n")
        proc = monitor("--port", str(link), "--script", str(script))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        lines = proc.stdout.splitlines()
        commands = [ln for ln in lines if ln.startswith("> ")]
        assert commands == ["> sit 1", "> sit 2", "> sit 3", "> deal 2", "> away 1", "> state"]
        # Every command is followed by exactly its reply (events may come in between).
        replies = [ln for ln in lines if ln.startswith(("ok", "err"))]
        assert len(replies) == len(commands)
        assert replies[:3] == ["ok", "ok", "ok"]
        assert replies[3].startswith('ok {"n":1,"button":2,"sb":3,"bb":1')
        assert '"seat":1,"status":"away"' in replies[5]
        assert "* seat 1 away" in lines
        assert any(ln.startswith("* hand {") for ln in lines)

        # A refused command: printed, and the exit status says so.
        proc = monitor("--port", str(link), "-c", "sit 2", "-c", "ping")
        assert proc.returncode == 1
        assert proc.stdout.splitlines()[:4] == [
            "> sit 2", "err rule seat 2 is taken: the player there must leave first",
            "> ping", "ok pong"]
    finally:
        emu.stop()
    # The device is gone: a clear message, not a traceback.
    assert not link.exists()
    proc = monitor("--port", str(link), "-c", "ping")
    assert proc.returncode == 2
    assert "cannot open" in proc.stderr and "Traceback" not in proc.stderr


def test_no_board_is_a_clear_message(monkeypatch, capsys):
    from dealerbutton_host import cli
    from dealerbutton_host.device import deploy

    monkeypatch.setattr(deploy, "find_board", lambda: None)
    assert cli.main(["monitor", "-c", "ping"]) == 2
    err = capsys.readouterr().err
    assert "no board found" in err and "--port" in err


def test_live_view_follows_the_board_through_a_reset(tmp_path):
    link = tmp_path / "ttyBOARD"
    state = tmp_path / "state"
    emu = PtyEmulator("--seats", "4", "--state", str(state), link=link)
    term = Tmux(dealerbutton("monitor", "--port", link))
    try:
        term.wait_for(r"connected to %s" % link)
        term.wait_for(r"\b4  empty")
        term.keys("-l", "sit 2")  # the monitor starts at its command prompt
        term.keys("Enter")
        term.wait_for(r"\b2  active")
        # The board resets: its port disappears ...
        assert emu.stop() == 0
        screen = term.wait_for(r"^disconnected; waiting for %s$" % re.escape(str(link)))
        # The event log says the same, not the errno of the vanished port.
        assert re.search(r"^\d\d:\d\d:\d\d disconnected; waiting for %s$"
                         % re.escape(str(link)), screen, re.M), screen
        assert "Input/output error" not in screen and "connection lost" not in screen
        time.sleep(0.5)
        # ... and comes back (same state folder: the table is as it was).
        emu = PtyEmulator("--seats", "4", "--state", str(state), link=link)
        term.wait_for(r"^disconnected", absent=True)  # the status line; the log keeps it
        term.wait_for(r"\b2  active")
        term.keys("-l", "sit 3")
        term.keys("Enter")
        term.wait_for(r"\b3  active")
        term.keys("C-c")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()
        emu.stop()
