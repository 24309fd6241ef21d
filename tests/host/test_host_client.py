"""The host's protocol client: against a tiny fake device, then end to end against the
emulated board (`dealerbutton emulate --stdio` and `--pty`) under CPython and MicroPython."""

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from dealerbutton_host.device.client import (
    Client,
    CommandError,
    DeviceClosed,
    DeviceError,
    DeviceTimeout,
    Reply,
)

BIN = Path(sys.executable).parent
RUNTIMES = ["cpython", "micropython"]

FAKE_DEVICE = textwrap.dedent("""
    import sys, time
    out = sys.stdout
    def say(line):
        out.write(line + "\\r\\n")
        out.flush()
    say("* boot banner event")
    for raw in sys.stdin:
        line = raw.rstrip("\\r\\n")
        if line == "":
            say("ok")
        elif line == "ping":
            say("ok pong")
        elif line == "events":
            say("* first")
            say("ok done")
            say("* second")
        elif line == "slow":
            time.sleep(1.0)
            say("ok late")
        elif line == "repl":
            say("Traceback (most recent call last):")
        elif line == "json":
            say('ok {"a": [1, 2]}')
        elif line == "die":
            sys.stderr.write("boom: fake device failed\\n")
            sys.stderr.flush()
            sys.exit(3)
        else:
            say("err unknown command " + line)
""")


@pytest.fixture
def fake(tmp_path):
    script = tmp_path / "fake_device.py"
    script.write_text(FAKE_DEVICE)
    proc = subprocess.Popen([sys.executable, "-u", str(script)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    seen = []
    client = Client.process(proc, timeout=2.0, on_event=seen.append)
    client.seen = seen
    yield client
    client.close()
    proc.kill()
    proc.wait()


def test_reply_parsing():
    assert Reply("ok").ok and Reply("ok").payload == ""
    r = Reply("ok pong")
    assert r.ok and r.payload == "pong"
    r = Reply("err rule seat 3 is empty: nobody to send away")
    assert not r.ok and r.code == "rule" and r.message == "seat 3 is empty: nobody to send away"
    r = Reply(">>> ping")
    assert r.bad and not r.ok
    assert Reply('ok {"n": 1}').json() == {"n": 1}


def test_replies_and_events_are_kept_apart(fake):
    fake.sync()
    assert fake.call("ping") == "pong"
    assert fake.call("events") == "done"
    fake.poll(0.3)  # the event sent after the reply
    assert fake.seen == ["* boot banner event", "* first", "* second"]
    assert fake.take_events() == ["* boot banner event", "* first", "* second"]
    assert fake.take_events() == []
    assert fake.json("json") == {"a": [1, 2]}


def test_err_reply_raises_command_error(fake):
    fake.sync()
    with pytest.raises(CommandError) as exc:
        fake.call("frobnicate 3")
    assert exc.value.code == "unknown"
    assert "frobnicate 3" in str(exc.value)


def test_timeout_is_clear_and_the_late_reply_is_not_taken_for_the_next_one(fake):
    fake.sync()
    with pytest.raises(DeviceTimeout) as exc:
        fake.send("slow", timeout=0.3)
    assert "no reply to 'slow'" in str(exc.value) and "0.3 s" in str(exc.value)
    time.sleep(1.0)  # "ok late" arrives now
    assert fake.call("ping") == "pong"


def test_a_line_that_is_not_a_reply_is_an_error_naming_it(fake):
    fake.sync()
    with pytest.raises(DeviceError) as exc:
        fake.call("repl")
    assert "not a protocol reply" in str(exc.value) and "Traceback" in str(exc.value)


def test_device_exit_is_reported_with_status_and_stderr(fake):
    fake.sync()
    with pytest.raises(DeviceClosed) as exc:
        fake.send("die")
    assert "exited with status 3" in str(exc.value)
    assert "boom: fake device failed" in str(exc.value)


def test_sync_names_a_device_that_does_not_speak_the_protocol(tmp_path):
    echo = tmp_path / "echo.py"  # like a board at its REPL: it echoes what it is sent
    echo.write_text("import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n")
    proc = subprocess.Popen([sys.executable, str(echo)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, bufsize=0)
    client = Client.process(proc, timeout=1.0)
    with pytest.raises(DeviceError) as exc:
        client.sync()
    assert "does not speak the dealerbutton protocol; it said: ping" in str(exc.value)
    client.close()
    proc.wait(5)


def test_one_command_per_line_only(fake):
    with pytest.raises(ValueError):
        fake.send("sit 1\ndeal 1")


# -- end to end against the emulated board ------------------------------------------------
def emulate_cmd(*args):
    return [str(BIN / "dealerbutton"), "emulate"] + list(args)


def runtime_flag(runtime):
    return ["--micropython"] if runtime == "micropython" else []


def play_a_hand(client, seats=6):
    """The protocol end to end: the same checks for every transport and runtime."""
    assert client.call("ping") == "pong"
    assert client.call("version")
    cfg = client.json("config")
    assert cfg["seats"] == seats
    state = client.json("state")
    assert [s["status"] for s in state["seats"]] == ["empty"] * seats
    assert client.send("hand").code == "nohand"
    for seat in (1, 2, 3):
        assert client.call("sit %d" % seat) == ""
    hand = client.json("deal 1")
    assert (hand["n"], hand["button"], hand["sb"], hand["bb"]) == (1, 1, 2, 3)
    assert hand["posts"] == {"2": [10, 0], "3": [20, 0]}
    assert client.json("hand") == hand
    client.poll(0.2)
    events = client.take_events()
    assert "* seat 1 active" in events
    assert any(e.startswith("* hand ") and json.loads(e[7:]) == hand for e in events)
    leds = client.call("leds").split()
    assert len(leds) == cfg["leds"] and all(len(x) == 6 for x in leds)
    assert any(x != "000000" for x in leds)
    with pytest.raises(CommandError) as exc:
        client.call("away 5")  # an empty seat
    assert exc.value.code == "rule"
    client.call("press 4")  # a short press on an empty seat: a player sits down
    assert client.json("state")["seats"][3]["status"] == "waiting"
    client.call("hold 4")  # a long press: he leaves again
    assert client.json("state")["seats"][3]["status"] == "empty"
    assert client.send("x" * 130).code == "overflow"
    assert client.call("ping") == "pong"
    return hand


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_protocol_over_stdio_and_the_table_survives_a_restart(runtime, tmp_path):
    state = tmp_path / "state"
    args = emulate_cmd("--stdio", "--seats", "6", "--state", str(state), *runtime_flag(runtime))
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    client = Client.process(proc, timeout=5.0)
    try:
        client.sync(timeout=10)
        hand = play_a_hand(client)
    finally:
        client.close()
        assert proc.wait(10) == 0
    # Power cycle: the same state folder, no options: the table comes back (the options
    # of this folder are remembered).
    proc = subprocess.Popen(emulate_cmd("--stdio", "--state", str(state),
                                        *runtime_flag(runtime)),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    client = Client.process(proc, timeout=5.0)
    try:
        client.sync(timeout=10)
        assert client.json("hand") == hand
        assert client.json("state")["hands"] == 1
        assert len(client.json("state")["seats"]) == 6
    finally:
        client.close()
        proc.wait(10)


class PtyEmulator:
    """`dealerbutton emulate --pty` as a user runs it; path = the pseudo-terminal."""

    def __init__(self, *args, link=None):
        extra = ["--link", str(link)] if link else []
        self.proc = subprocess.Popen(emulate_cmd("--pty", *extra, *args), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        ready = select.select([self.proc.stdout], [], [], 15)[0]
        assert ready, "emulate --pty printed nothing"
        self.banner = self.proc.stdout.readline()
        assert self.banner.startswith("device on /dev/"), self.banner + self.proc.stderr.read()
        self.path = self.banner.split()[2]

    def stop(self):
        """Ctrl-C, as the user would."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(10)
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_protocol_over_a_pty(runtime, tmp_path):
    link = tmp_path / "ttyDEALER"
    emu = PtyEmulator("--seats", "6", "--state", str(tmp_path / "state"),
                      *runtime_flag(runtime), link=link)
    try:
        assert "connect with: dealerbutton monitor --port %s" % link in emu.banner
        assert os.readlink(link) == emu.path
        client = Client.serial(emu.path, timeout=5.0)
        try:
            client.sync(timeout=10)
            play_a_hand(client)
        finally:
            client.close()
        # A second connection (through the link) finds the device still there.
        client = Client.serial(str(link), timeout=5.0)
        try:
            client.sync(timeout=10)
            assert client.json("state")["hands"] == 1
        finally:
            client.close()
    finally:
        assert emu.stop() == 0
    assert not link.exists()


def test_a_config_the_firmware_refuses_is_said_before_the_emulator_starts(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text('{"seats": 40}')
    proc = subprocess.run(emulate_cmd("--stdio", "--config", str(bad), "--state",
                                      str(tmp_path / "s")),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("dealerbutton emulate: --config %s refused: seats: 40 is out of "
                           "range 2..12\n" % bad)
    assert not (tmp_path / "s").exists()      # nothing made, nothing remembered


def test_default_state_folder_is_per_user_and_created(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.Popen(emulate_cmd("--stdio", "--seats", "4"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, env=env)
    client = Client.process(proc, timeout=5.0)
    try:
        client.sync(timeout=10)
        client.call("sit 2")
    finally:
        client.close()
        proc.wait(10)
    folder = tmp_path / "data" / "dealerbutton" / "emulator"
    assert (folder / "state.json").exists()
    assert json.loads((folder / "emulate.json").read_text())["seats"] == 4
