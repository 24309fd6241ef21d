"""The emulated board (dealerbutton.board.unix) end to end, as a subprocess under CPython and
under the real `micropython` command: pipes, a pseudo-terminal, state kept across runs."""

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from micropython_unix import FIRMWARE, ROOT, micropython_exe

RUNTIMES = ["cpython", "micropython"]


def command(runtime, *args):
    if runtime == "cpython":
        cmd = [sys.executable, "-m", "dealerbutton.board.unix"]
        env = dict(os.environ, PYTHONPATH=str(FIRMWARE))
    else:
        cmd = [micropython_exe(), "-m", "dealerbutton.board.unix"]
        env = dict(os.environ, MICROPYPATH=str(FIRMWARE))
    return cmd + [str(a) for a in args], env


def run(runtime, lines, *args, cwd=None, timeout=60):
    cmd, env = command(runtime, *args)
    data = "".join(line + "\n" for line in lines)
    proc = subprocess.run(cmd, input=data, capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout)
    return proc


def replies(out):
    return [x for x in out.splitlines() if not x.startswith("* ")]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_game_over_pipes_and_resume_after_restart(runtime, tmp_path):
    state = tmp_path / "table"
    p = run(runtime, ["ping", "version", "sit 1", "sit 3", "sit 5", "press 0", "press 3",
                      "away 5", "deal", "state"], "--state", state)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert out[0] == "* info no saved state: clean start"
    r = replies(p.stdout)
    assert len(r) == 10, out
    assert r[:3] == ["ok pong", "ok 0.1.0", "ok"]
    assert r[5:7] == ["ok draw", "ok button"]
    assert "* seat 5 away" in out
    hands = [json.loads(x[7:]) for x in out if x.startswith("* hand ")]
    assert [h["n"] for h in hands] == [1, 2]
    assert hands[0]["button"] == 3
    state_reply = json.loads(r[-1][3:])
    assert state_reply["hands"] == 2
    assert (state / "state.json").exists() and not (state / "state.json.tmp").exists()
    # a restart resumes the table
    p2 = run(runtime, ["hand", "state"], "--state", state)
    assert p2.returncode == 0, p2.stderr
    assert p2.stdout.splitlines()[0].startswith("* info state restored (save ")
    r2 = replies(p2.stdout)
    assert json.loads(r2[0][3:]) == hands[1]
    assert json.loads(r2[1][3:]) == state_reply


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_every_line_gets_one_reply_even_garbage(runtime, tmp_path):
    lines = ["", "bogus", "sit", "sit 99", "x" * 300, "sit 1 \x01", "\xff\xfe", "deal",
             "undo", "hand", "  ping  ", "choose 1 maybe"]
    cmd, env = command(runtime, "--state", tmp_path)
    data = b"".join(x.encode("latin-1") + b"\r\n" for x in lines)
    p = subprocess.run(cmd, input=data, capture_output=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    r = replies(p.stdout.decode())
    assert len(r) == len(lines), r
    assert r[0] == "ok" and r[10] == "ok pong"
    assert r[4].startswith("err overflow") and r[5].startswith("err usage non-printable")
    assert r[6].startswith("err usage non-printable")
    assert r[7].startswith("err rule ")      # nobody to deal to
    assert r[8] == "err rule nothing to undo" and r[9].startswith("err nohand")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_options_and_config_file(runtime, tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"seats": 6, "leds": 12, "stakes": [25, 50]}))
    p = run(runtime, ["config", "leds"], "--config", cfg, "--rules", "moving",
            "--state", tmp_path)
    assert p.returncode == 0, p.stderr
    r = replies(p.stdout)
    c = json.loads(r[0][3:])
    assert (c["seats"], c["leds"], c["rules"], c["stakes"]) == (6, 12, "moving", [25, 50])
    assert len(r[1].split()) == 13
    p = run(runtime, ["config"], "--seats", "12", "--state", tmp_path / "b")
    assert json.loads(replies(p.stdout)[0][3:])["seats"] == 12


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_bad_arguments_and_bad_config_are_refused(runtime, tmp_path):
    p = run(runtime, [], "--seats", "20", "--rules", "fast")
    assert p.returncode == 2
    assert "seats: 20 is out of range 2..12" in p.stderr and "rules: must be one of" in p.stderr
    p = run(runtime, [], "--frobnicate")
    assert p.returncode == 2 and "unknown argument --frobnicate" in p.stderr
    assert "usage:" in p.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"seats": 9, "pins": {"led": 2}}')
    p = run(runtime, [], "--config", bad)
    assert p.returncode == 2 and "pins.seats[0]: GPIO 2 is already used by pins.led" in p.stderr
    bad.write_text('{"seats": ')
    p = run(runtime, [], "--config", bad)
    assert p.returncode == 2 and "malformed JSON" in p.stderr


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_refused_config_runs_the_refused_mode_as_the_board_does(runtime, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"seats": 9, "pins": {"led": 2}}')
    p = run(runtime, ["ping", "version", "state", "sit 1", "repl"], "--config", bad, "--state",
            tmp_path / "st")
    message = ("%s rejected (1 problem): pins.seats[0]: GPIO 2 is already used by pins.led"
               % bad)
    assert p.stderr == "dealerbutton emulate: %s\n" % message
    assert p.stdout.splitlines() == ["* error " + message, "ok pong", "ok 0.1.0",
                                     "err config " + message, "err config " + message,
                                     "ok repl"]
    assert p.returncode == 2          # it ran, refusing: the status says so
    assert not (tmp_path / "st" / "state.json").exists()
    # a ring it cannot draw: the refused mode all the same, without the error pattern
    p = run(runtime, ["ping", "leds"], "--seats", "4", "--leds", "3", "--state", tmp_path / "st")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stdout.splitlines()[1:] == ["ok pong", "err config configuration rejected (1 "
                                         "problem): leds: 3 LEDs for 4 seats: the ring needs "
                                         "at least one LED per seat"], p.stdout


class PtyDevice:
    """The emulator on a pseudo-terminal, as the host connects it."""

    def __init__(self, runtime, *args):
        cmd, env = command(runtime, *args)
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                                     env=env, close_fds=True)
        os.close(slave)
        self.pending = b""

    def send(self, data):
        os.write(self.master, data)

    def line(self, timeout=10.0):
        end = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = end - time.monotonic()
            assert left > 0, "no line from the emulator; got %r" % self.pending
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, "the emulator closed the terminal: %r" % self.pending
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.rstrip(b"\r").decode()

    def reply(self, command):
        self.send(command.encode() + b"\r\n")
        while True:
            line = self.line()
            if not line.startswith("* "):
                return line

    def close(self):
        os.close(self.master)
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_on_a_pseudo_terminal_no_echo_and_the_ring_keeps_running(runtime, tmp_path):
    dev = PtyDevice(runtime, "--state", tmp_path)
    try:
        assert dev.line() == "* info no saved state: clean start"
        assert dev.reply("ping") == "ok pong"          # no echo of "ping" before it
        assert dev.reply("sit 2") == "ok"
        assert dev.reply("sit 4") == "ok"
        assert dev.reply("press 0") == "ok draw"
        first = dev.reply("leds")
        time.sleep(0.3)                                 # the draw chase moves on its own
        second = dev.reply("leds")
        assert first != second
        # a command typed in pieces: one reply
        dev.send(b"pi")
        time.sleep(0.05)
        dev.send(b"ng\n")
        assert dev.line() == "ok pong"
        # a bare \r ends a line (a serial terminal's Enter): "pi" and "ng" are two lines
        assert dev.reply("pi\rng").startswith("err unknown command pi ")
        assert dev.line().startswith("err unknown command ng ")
        dev.send(b"ping\r")                            # CR alone: answered at once
        assert dev.line() == "ok pong"
        assert dev.reply("press 4") == "ok button"
    finally:
        rc = dev.close()
    assert rc == 0
    assert (tmp_path / "state.json").exists()


def test_emulator_module_runs_without_the_host_package():
    """board/unix.py and everything it imports lives in firmware/ (it runs under micropython)."""
    src = (ROOT / "firmware" / "dealerbutton" / "board" / "unix.py").read_text()
    assert "dealerbutton_host" not in src and "argparse" not in src


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_bench_port_prints_what_the_device_reports(runtime, tmp_path):
    """`dealerbutton bench --port` on the emulator's pty: the figures of its `stats`."""
    from test_host_client import PtyEmulator

    args = ("--micropython",) if runtime == "micropython" else ()
    emu = PtyEmulator("--state", str(tmp_path / "st"), *args)
    try:
        time.sleep(0.5)                   # some frames go by
        proc = subprocess.run([str(Path(sys.executable).parent / "dealerbutton"), "bench",
                               "--port", emu.path], capture_output=True, text=True, timeout=60)
    finally:
        emu.stop()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == ("dealerbutton bench: what the device on %s reports (stats; medians and "
                      "p95s are good to about 19%%)" % emu.path), out
    labels = [line[2:36].strip() for line in out[1:]]
    assert labels == ["uptime", "load (busy share, last 10 s)", "heap",
                      "frame (a loop turn that drew one)", "loop turn (without its pause)",
                      "collector, between frames", "saves"]
    assert "not yet (the first 10 s)" in out[2], out
    frames = out[4]
    assert "median" in frames and "p95" in frames and " frames" in frames, frames
    if runtime == "micropython":
        assert "KB in use" in out[3], out
    else:
        assert "n/a (CPython)" in out[3], out
