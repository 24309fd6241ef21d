"""The page's Web Serial side (devices.mjs SerialBoard, lineclient.mjs) and its protocol
client, run under Node against the emulator: the browser's Web Serial cannot reach a
pseudo-terminal, so the port is the emulator's pipes, shaped like a SerialPort."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing (Debian: apt-get install nodejs)")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "firmware"))
    proc = subprocess.run([node, str(HERE / "serial_check.mjs"), sys.executable,
                           str(tmp_path_factory.mktemp("state"))],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_client_matches_replies_to_commands_in_order(run):
    c = run["client"]
    assert c["sent"] == ["ping\n", "sit 3\n", "state\n", "ping\n"]  # none after the close
    # CR, LF and CRLF end lines; chunks split anywhere; events and other lines set apart
    assert c["events"] == ["* seat 3 active"]
    assert c["others"][0] == "MicroPython v1.27 banner"
    assert c["replies"] == ["ok pong", "seat", "seat 3 is taken"]
    assert c["timeout"] == "no reply to state within 200 ms"
    assert c["late"] == ["ok {}"]
    assert c["closed"] == "unplugged" and c["after"] == "unplugged"
    assert c["twoLines"] == "a command is one line"


def test_reply_parsing_and_what_the_page_shows(run):
    ok, err, bad = run["parse"]
    assert ok["ok"] and ok["payload"] == ""
    assert (err["ok"], err["code"], err["message"]) == (False, "nohand",
                                                        "no hand has been dealt yet")
    assert bad["bad"] and bad["code"] == "bad"
    assert run["leds"][0] == ["FF0000", "00FF00", "0000FF"]
    assert run["shown"] == ["#FFFFFF", "#7F0000", "#123456"]
    assert run["handLines"] == ["hand 7: D 5 (dead)  no small blind this hand  BB 2  first "
                                "to act 3", "dealt 2 3 1", "posts 3: 20+10 dead"]
    assert run["roles"] == ["first posts 20", ""]
    # What a seat owes and its status, as said at the table (stakes 10/20).
    assert run["owes"] == ["the big blind (20)", "the small blind (10, dead)",
                           "BB 20 + SB 10 (dead)", "", "50", "20 + 5 dead"]
    assert run["status"] == ["waiting for the big blind", "will post, then play", "away",
                             "active", "empty"]


def test_clock_as_the_page_shows_it(run):
    from dealerbutton.clock.schedule import mss

    assert run["mss"] == [mss(ms) for ms in (0, 1, 999, 1000, 1001, 59999, 60000, 754321,
                                             36000000)]
    assert run["mss"][-2:] == ["12:35", "600:00"]
    assert run["clockLeft"] == [7500, 0, 10000, 0]   # a running clock counts down
    assert run["clockText"] == [
        {"level": "Level 3 · 75/150 · ante 150 (big-blind ante)",
         "next": "next: a break of 10 min"},
        {"level": "Level 3 · 75/150 · ante 150", "next": "last level: the blinds stay"},
        {"level": "Level 3 · 75/150 · ante 150 (dealer ante)",
         "next": "last level: the blinds stay"},
        {"level": "BREAK: no hand is dealt",
         "next": "next: level 4 · 100/200 · ante 0 (20 min)"}]


def test_ring_geometry_is_the_terminal_views(run):
    from dealerbutton_host.device.view import ring_positions

    for got, args in ((run["ring"], (24, 9, 0, False)), (run["ringCcw"], (12, 3, 2, True))):
        led_turn, seat_turn = ring_positions(*args)
        assert got["ledTurn"] == pytest.approx(led_turn)
        assert got["seatTurn"] == pytest.approx(seat_turn)


def test_serial_board_drives_the_emulator(run):
    assert run["baudRate"] == 115200
    assert run["replies"] == [["press 1", "ok sit"], ["press 2", "ok sit"],
                              ["press 3", "ok sit"], ["press 4", "ok sit"],
                              ["press 5", "ok sit"], ["hold 5", "ok leave"],
                              ["hold 0", "ok undo"]]
    seats = {s["seat"]: s["status"] for s in run["state"]["seats"]}
    assert [seats[s] for s in range(1, 7)] == ["active"] * 5 + ["empty"]
    assert run["deal"].startswith('ok {"n":1,"button":2,')
    assert run["events"][:7] == ["* info no saved state: clean start", "* seat 1 active",
                                 "* seat 2 active", "* seat 3 active", "* seat 4 active",
                                 "* seat 5 active", "* seat 5 empty"]
    assert "* seat 5 active" in run["events"][7:]
    assert any(e.startswith('* hand {"n":1,"button":2,') for e in run["events"])
    # the ring as polled (leds, ten times a second): 24 LEDs, lit where the players are
    assert len(run["frame"]) == 24 and any(c != "000000" for c in run["frame"])
    assert len(run["leds"][1]) == 24
    assert run["others"] == []
    assert run["closedWhy"] == "done" and run["exit"] == 0
