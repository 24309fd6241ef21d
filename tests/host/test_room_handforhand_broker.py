"""Hand-for-hand end to end: three emulated tournament tables (`dealerbutton emulate`), each
behind its `dealerbutton bridge`, a real Mosquitto, and `dealerbutton room --hand-for-hand
on` serving its page. Nothing deals until the last table's hand is over, then all three
do; a table that goes offline while the others wait does not hold them up, and gets the
mode again when it comes back; the page's button switches it off."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from mqtt_rig import MOSQUITTO, Mosquitto, Recorder, free_port

pytestmark = pytest.mark.skipif(not os.path.exists(MOSQUITTO) and not os.environ.get("CI"),
                                reason="mosquitto not installed (under CI: a failure)")

EXE = [sys.executable, "-m", "dealerbutton_host.cli"]
CONFIG = Path(__file__).resolve().parents[2] / "docs" / "tournament-config.json"
TABLES = ("1", "2", "3")


def topic(name, sub):
    return "dealerbutton/club/%s/%s" % (name, sub)


class Table:
    """An emulated tournament table and its bridge."""

    def __init__(self, name, folder: Path, url):
        self.name = name
        self.link = str(folder / ("tty" + name))
        self.state = str(folder / ("state" + name))
        self.log = open(folder / ("bridge%s.log" % name), "w")
        self.start()
        self.bridge = subprocess.Popen(EXE + ["bridge", "--port", self.link, "--broker", url,
                                              "--room", "club", "--table", name],
                                       stdout=subprocess.DEVNULL, stderr=self.log)

    def start(self):
        self.emu = subprocess.Popen(EXE + ["emulate", "--pty", "--link", self.link, "--state",
                                           self.state, "--config", str(CONFIG), "--seats", "4"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "device on" in self.emu.stdout.readline()

    def stop_emulator(self):
        if self.emu.poll() is None:
            self.emu.send_signal(signal.SIGINT)
            self.emu.wait(10)

    def stop(self):
        self.stop_emulator()
        if self.bridge.poll() is None:
            self.bridge.terminate()
            self.bridge.wait(10)
        self.log.close()


@pytest.fixture
def room(tmp_path):
    broker = Mosquitto(tmp_path / "broker")
    rec = Recorder(broker)
    tables = {}
    room_proc = None
    try:
        for name in TABLES:
            tables[name] = Table(name, tmp_path, broker.url)
        for name in TABLES:
            rec.wait_for(lambda m, n=name: m[0] == topic(n, "online") and m[1] == "1",
                         timeout=20, what="table %s online" % name)
            for line in ("sit 1", "sit 2", "sit 3", "deal 1"):
                rec.publish(topic(name, "cmd"), line)
        for name in TABLES:
            rec.wait_for(lambda m, n=name: m[0] == topic(n, "state") and '"hands":1,' in m[1],
                         what="table %s's first hand" % name)
        port = free_port()
        room_log = open(tmp_path / "room.log", "w")
        room_proc = subprocess.Popen(EXE + ["room", "--broker", broker.url, "--room", "club",
                                            "--http", "127.0.0.1:%d" % port,
                                            "--hand-for-hand", "on"],
                                     stdout=subprocess.DEVNULL, stderr=room_log)
        yield rec, tables, "http://127.0.0.1:%d" % port, tmp_path / "room.log"
    finally:
        if room_proc is not None:
            room_proc.terminate()
            room_proc.wait(10)
        for t in tables.values():
            t.stop()
        rec.close()
        broker.stop()


def last_state(rec, name):
    return rec.last_state(topic(name, "state"))


def wait_h4h(rec, name, value, timeout=15):
    rec.wait_for(lambda m: m[0] == topic(name, "state")
                 and json.loads(m[1]).get("handforhand") == value
                 and last_state(rec, name).get("handforhand") == value,
                 timeout=timeout, what="table %s %s" % (name, value))


def hands_dealt(rec, name):
    return [p for p in rec.of(topic(name, "event")) if p.startswith("* hand ")]


def page(url):
    for _ in range(50):
        try:
            with urllib.request.urlopen(url + "/room.json", timeout=5) as r:
                return json.loads(r.read())
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the room's page did not answer")


def test_every_table_deals_together_once_every_hand_is_over(room):
    rec, tables, url, room_log = room
    for name in TABLES:
        wait_h4h(rec, name, "playing")               # the room sent the mode
    # Each table's bridge has taken 5 commands at once (its burst: sit, sit, sit, deal and
    # the room's handforhand), then 2 a second: a press right now would be refused.
    time.sleep(0.6)
    for name in ("1", "2"):
        rec.publish(topic(name, "cmd"), "press 0")   # their dealers: our hand is over
    for name in ("1", "2"):
        wait_h4h(rec, name, "waiting")
    time.sleep(1.0)
    assert [len(hands_dealt(rec, n)) for n in TABLES] == [1, 1, 1]   # nobody dealt yet
    h4h = page(url)["handforhand"]
    assert h4h["mode"] == "on" and h4h["playing"] == ["3"] and h4h["waiting"] == ["1", "2"]
    rec.publish(topic("3", "cmd"), "press 0")
    for name in TABLES:
        rec.wait_for(lambda m, n=name: m[0] == topic(n, "event")
                     and m[1].startswith('* hand {"n":2,'), what="table %s's deal" % name)
    for name in TABLES:
        wait_h4h(rec, name, "playing")
    assert page(url)["handforhand"]["deals"] == 1
    assert "hand-for-hand deal 1: every hand is over, dealt table(s) 1 2 3" in \
        room_log.read_text()

    # Table 3 goes away while 1 and 2 wait: they are dealt without it.
    for name in ("1", "2"):
        rec.publish(topic(name, "cmd"), "press 0")
    for name in ("1", "2"):
        wait_h4h(rec, name, "waiting")
    assert len(hands_dealt(rec, "1")) == 2
    tables["3"].stop_emulator()
    rec.wait_for(lambda m: m[0] == topic("3", "online") and m[1] == "0", what="table 3 offline")
    for name in ("1", "2"):
        rec.wait_for(lambda m, n=name: m[0] == topic(n, "event")
                     and m[1].startswith('* hand {"n":3,'), what="table %s's deal" % name)
    assert page(url)["handforhand"]["offline"] == ["3"]
    assert len(hands_dealt(rec, "3")) == 2

    # Back (restarted, its saved table): playing its hand, and in the mode again.
    n_states = len(rec.of(topic("3", "state")))
    tables["3"].start()
    rec.wait_for(lambda m: m[0] == topic("3", "state")
                 and len(rec.of(topic("3", "state"))) > n_states, timeout=20,
                 what="table 3 back")
    wait_h4h(rec, "3", "playing")
    assert page(url)["handforhand"]["playing"] == ["1", "2", "3"]

    # The page's button: off, and the tables leave the mode.
    req = urllib.request.Request(url + "/handforhand", data=b'{"on": false}', method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        assert json.loads(r.read())["handforhand"]["mode"] == "off"
    for name in TABLES:
        rec.wait_for(lambda m, n=name: m[0] == topic(n, "state")
                     and "handforhand" not in json.loads(m[1])
                     and "handforhand" not in last_state(rec, n), what="table %s off" % name)
    rec.publish(topic("1", "cmd"), "press 0")       # the button deals again
    rec.wait_for(lambda m: m[0] == topic("1", "event") and m[1].startswith('* hand {"n":4,'),
                 what="table 1's own deal")
