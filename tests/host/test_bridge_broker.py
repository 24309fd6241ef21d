"""`dealerbutton bridge` between the emulator's pseudo-terminal and a real Mosquitto that
the test starts: both ways, either side going away and coming back, the last will,
credentials and TLS."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mqtt_rig import MOSQUITTO, Mosquitto, Recorder

pytestmark = pytest.mark.skipif(not os.path.exists(MOSQUITTO) and not os.environ.get("CI"),
                                reason="mosquitto not installed (under CI: a failure)")

T = "dealerbutton/club/7/"
EXE = [sys.executable, "-m", "dealerbutton_host.cli"]


class Emulator:
    def __init__(self, folder: Path):
        self.link = str(folder / "tty")
        self.state = str(folder / "state")
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(EXE + ["emulate", "--pty", "--link", self.link, "--state",
                                            self.state, "--seats", "6"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "device on" in self.proc.stdout.readline()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(10)


class Bridge:
    def __init__(self, url, port, folder, extra=(), env=None):
        self.err_path = folder / "bridge.log"
        self.err = open(self.err_path, "w")
        self.argv = EXE + ["bridge", "--port", port, "--broker", url, "--room", "club",
                           "--table", "7"] + list(extra)
        self.proc = subprocess.Popen(self.argv, stderr=self.err, stdout=subprocess.DEVNULL,
                                     env=dict(os.environ, **(env or {})))

    def log(self):
        if not self.err.closed:
            self.err.flush()
        return self.err_path.read_text()

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        self.err.close()


@pytest.fixture
def room(tmp_path):
    things = []

    def start(kind, *args, **kw):
        thing = kind(*args, **kw)
        things.append(thing)
        return thing

    yield start
    for thing in reversed(things):
        try:
            (thing.close if isinstance(thing, Recorder) else thing.stop)()
        except Exception:
            pass


def online(value):
    return lambda m: m[0] == T + "online" and m[1] == value


def table_up(room, tmp_path):
    """A broker, a recorder on it, the emulator and its bridge, once the table is online."""
    broker = room(Mosquitto, tmp_path / "broker")
    rec = room(Recorder, broker)
    emu = room(Emulator, tmp_path)
    bridge = room(Bridge, broker.url, emu.link, tmp_path)
    rec.wait_for(online("1"), what="online 1")
    return broker, rec, emu, bridge


def test_both_ways_and_retained_state(room, tmp_path):
    broker, rec, emu, bridge = table_up(room, tmp_path)
    for command in ("sit 1", "sit 2", "sit 3", "deal 2"):
        rec.publish(T + "cmd", command)
    rec.wait_for(lambda m: m[0] == T + "state" and '"hands":1' in m[1], what="a state")
    replies = [json.loads(p) for p in rec.of(T + "reply")]
    assert [r["cmd"] for r in replies] == ["sit 1", "sit 2", "sit 3", "deal 2"]
    assert [r["reply"] for r in replies[:3]] == ["ok", "ok", "ok"]
    assert replies[3]["reply"].startswith('ok {"n":1,"button":2')
    events = rec.of(T + "event")
    assert events[:3] == ["* seat 1 active", "* seat 2 active", "* seat 3 active"]
    assert events[3].startswith('* hand {"n":1,"button":2')

    # Somebody who comes later is handed the table at once, from what the broker retained.
    late = room(Recorder, broker, topics=(T + "state", T + "online"))
    m = late.wait_for(lambda m: m[0] == T + "state", what="the retained state")
    assert m[2] is True
    state = json.loads(m[1])
    assert state["hands"] == 1 and state["hand"]["button"] == 2
    assert [s["status"] for s in state["seats"]] == ["active"] * 3 + ["empty"] * 3
    assert late.wait_for(lambda m: m[0] == T + "online")[1:] == ("1", True)


def test_the_device_goes_away_and_comes_back(room, tmp_path):
    broker, rec, emu, bridge = table_up(room, tmp_path)
    rec.publish(T + "cmd", "sit 4")
    rec.wait_for(lambda m: m[1] == "* seat 4 active", what="the sit")
    emu.stop()
    rec.wait_for(online("0"), what="online 0 after the device stopped")
    rec.publish(T + "cmd", "sit 5")
    r = rec.wait_for(lambda m: m[0] == T + "reply" and "sit 5" in m[1], what="a reply")
    assert "err offline" in r[1]
    n = len(rec.of(T + "online"))
    emu.start()  # the same table, resumed from its saved state
    rec.wait_for(lambda m: m[0] == T + "online" and m[1] == "1"
                 and len(rec.of(T + "online")) > n, timeout=15, what="online 1 again")
    rec.publish(T + "cmd", "sit 5")
    rec.wait_for(lambda m: m[1] == "* seat 5 active", what="a sit after the restart")
    state = rec.wait_for(lambda m: m[0] == T + "state" and '"seat":5,"status":"active"' in m[1])
    assert '"seat":4,"status":"active"' in state[1]
    assert bridge.proc.poll() is None
    assert "lost the device" in bridge.log()


def test_the_broker_goes_away_and_comes_back(room, tmp_path):
    broker, rec, emu, bridge = table_up(room, tmp_path)
    rec.publish(T + "cmd", "sit 6")
    rec.wait_for(lambda m: m[1] == "* seat 6 active", what="the sit")
    rec.close()
    broker.stop()  # no persistence: whatever was retained is gone with it
    time.sleep(1.0)
    broker.start()
    # A fresh subscriber after the restart still gets the table: the bridge published it
    # again when it reconnected.
    late = room(Recorder, broker, topics=(T + "state", T + "online"))
    state = late.wait_for(lambda m: m[0] == T + "state", timeout=20, what="state again")
    assert '"seat":6,"status":"active"' in state[1]
    assert late.wait_for(lambda m: m[0] == T + "online")[1] == "1"
    late.publish(T + "cmd", "sit 1")  # and commands reach it again
    late.wait_for(lambda m: m[0] == T + "state" and '"seat":1,"status":"active"' in m[1],
                  what="a command after the broker came back")
    assert emu.proc.poll() is None
    assert bridge.proc.poll() is None
    assert "lost the broker" in bridge.log()


def test_last_will_when_the_bridge_dies(room, tmp_path):
    broker, rec, emu, bridge = table_up(room, tmp_path)
    bridge.proc.kill()  # no goodbye: the broker says it, after the keepalive
    rec.wait_for(online("0"), timeout=30, what="the last will")


def test_a_clean_stop_says_offline(room, tmp_path):
    broker, rec, emu, bridge = table_up(room, tmp_path)
    bridge.stop(signal.SIGINT)
    assert bridge.proc.returncode == 0
    rec.wait_for(online("0"), timeout=5, what="online 0")


def test_credentials_from_a_file_never_shown(room, tmp_path):
    broker = room(Mosquitto, tmp_path / "broker", users={"floor": "pa55-word!", "spy": "x"})
    rec = room(Recorder, broker, username="spy", password="x")
    emu = room(Emulator, tmp_path)
    creds = tmp_path / "creds"
    creds.write_text("username=floor\npassword=pa55-word!\n")
    creds.chmod(0o600)
    bridge = room(Bridge, broker.url, emu.link, tmp_path, ["--credentials", str(creds)])
    rec.wait_for(online("1"), what="online 1")
    assert "pa55" not in " ".join(bridge.argv)
    with open("/proc/%d/cmdline" % bridge.proc.pid, "rb") as f:
        assert b"pa55" not in f.read()
    bridge.stop()
    log = bridge.log()
    assert "connected to mqtt://127.0.0.1:%d as floor" % broker.port in log
    assert "pa55" not in log


def test_wrong_credentials_are_logged_without_the_password(room, tmp_path):
    broker = room(Mosquitto, tmp_path / "broker", users={"floor": "right"})
    emu = room(Emulator, tmp_path)
    bridge = room(Bridge, broker.url, emu.link, tmp_path,
                  env={"DEALERBUTTON_MQTT_USERNAME": "floor",
                       "DEALERBUTTON_MQTT_PASSWORD": "wrong-guess"})
    end = time.monotonic() + 10
    while "refused the connection" not in bridge.log() and time.monotonic() < end:
        time.sleep(0.1)
    bridge.stop()
    log = bridge.log()
    assert "refused the connection: not authorized" in log or "bad user name" in log
    assert "wrong-guess" not in log


def test_credentials_in_the_url_are_refused(tmp_path):
    r = subprocess.run(EXE + ["bridge", "--port", "/dev/null", "--broker",
                              "mqtt://floor:pa55@127.0.0.1", "--room", "club", "--table", "7"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "credentials do not belong on the command line" in r.stderr
    assert "pa55" not in r.stderr


def test_tls_with_a_self_signed_certificate(room, tmp_path):
    broker = room(Mosquitto, tmp_path / "broker", tls=True)
    rec = room(Recorder, broker)
    emu = room(Emulator, tmp_path)
    room(Bridge, broker.url, emu.link, tmp_path, ["--cafile", str(broker.cert)])
    rec.wait_for(online("1"), what="online 1 over TLS")
    rec.publish(T + "cmd", "sit 2")
    rec.wait_for(lambda m: m[1] == "* seat 2 active", what="an event over TLS")


def test_tls_refuses_a_certificate_it_does_not_trust(room, tmp_path):
    broker = room(Mosquitto, tmp_path / "broker", tls=True)
    rec = room(Recorder, broker)
    emu = room(Emulator, tmp_path)
    bridge = room(Bridge, broker.url, emu.link, tmp_path)  # the system's CAs only
    time.sleep(3)
    assert rec.of(T + "online") == []
    assert bridge.proc.poll() is None  # still trying, as it would for a broker that is down
    assert "CERTIFICATE_VERIFY_FAILED" in bridge.log()
