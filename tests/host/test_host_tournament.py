"""A tournament on the emulator: the table view shows the clock, and `dealerbutton clock
--port` follows the emulator on its pseudo-terminal end to end (CPython and MicroPython)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dealerbutton_host.device import clockview, view
from dealerbutton_host.device.client import Client
from test_host_clockview import wait_for_big
from test_host_view import Tmux, dealerbutton

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "docs" / "tournament-config.json"
BIN = Path(sys.executable).parent


def model_with_clock(clock, at=100.0):
    m = view.TableModel("test")
    m.config = json.loads(SCHEDULE.read_text())
    m.state = {"rules": "dead", "stakes": [25, 50], "hands": 0,
               "seats": [{"seat": s, "status": "empty", "owes": [0, 0]} for s in range(1, 10)]}
    m.clock = clock
    m.clock_at = at
    return m


LEVEL_3 = {"level": 3, "sb": 75, "bb": 150, "ante": 150, "ante_kind": "bb", "break": False,
           "ms_left": 61000, "running": True,
           "next": {"level": 4, "sb": 100, "bb": 200, "ante": 200, "minutes": 20}}


def clock_screen(clock, width, height, now=100.0, seats=9):
    m = model_with_clock(clock)
    m.state["seats"] = m.state["seats"][:seats]
    items = view.layout(m, width, height, now=now)
    for y, x, text, _style in items:  # nothing drawn past the edge, so nothing was cut off
        assert 0 <= y < height and x + len(text) <= width, (y, x, text)
    return items, "\n".join(view.to_text(items, width, height))


def test_the_table_view_shows_the_clock_counting_down():
    items, text = clock_screen(LEVEL_3, 120, 40, now=100.5)
    assert "tournament clock  1:01 left" in text   # 60.5 s: rounds up
    assert "level 3  75/150  ante 150 (BB ante)" in text
    assert "next: level 4  100/200  ante 200  (20 min)" in text
    # The last minute is in the error colour; the paused clock says so.
    items, _ = clock_screen(LEVEL_3, 120, 40, now=101.5)
    lines = [it for it in items if "left" in it[2]]
    assert lines[0][2].endswith("1:00 left") and lines[0][3] == "error", lines
    paused = dict(LEVEL_3, running=False, ms_left=754000)
    _, text = clock_screen(paused, 120, 40, now=500.0)
    assert "tournament clock  12:34 left  PAUSED" in text
    brk = dict(LEVEL_3, level=4, sb=100, bb=200, ante=200, ms_left=540000, running=False,
               next={"level": 5, "sb": 150, "bb": 300, "ante": 300, "minutes": 20})
    brk["break"] = True
    _, text = clock_screen(brk, 120, 40)
    assert "tournament clock  BREAK  9:00 left  PAUSED" in text
    assert "no hand until the break ends" in text
    # A cash game has no clock lines.
    m = model_with_clock(None)
    assert "tournament clock" not in "\n".join(view.to_text(view.layout(m, 120, 40), 120, 40))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("seats", [6, 9])
def test_the_clock_fits_80_and_100_columns_whole(size, seats):
    big = dict(LEVEL_3, level=12, sb=10000, bb=20000, ante=20000, ms_left=7200000,
               running=False, next={"level": 13, "sb": 15000, "bb": 30000, "ante": 30000,
                                    "minutes": 120})
    items, text = clock_screen(big, *size, seats=seats)
    x0 = next(x for _y, x, t, _s in items if t.startswith("tournament clock"))
    panel = " ".join(t for _y, x, t, _s in sorted(items) if x >= x0)   # right of the ring
    flat = " ".join(panel.split())
    assert "tournament clock 120:00 left PAUSED" in flat, text
    assert "level 12 10000/20000 ante 20000 (BB ante)" in flat, text
    assert "next: level 13 15000/30000 ante 30000 (120 min)" in flat, text


def test_the_model_reads_the_clock_only_at_a_tournament_table():
    class Fake:
        def __init__(self, config):
            self.config = config
            self.sent = []

        def json(self, command):
            self.sent.append(command)
            return self.config if command == "config" else {"seats": []}

        def call(self, command):
            self.sent.append(command)
            return "0 0 0" if command == "leds" else "1.0"

        def send(self, command):
            self.sent.append(command)
            from dealerbutton_host.device.client import Reply
            return Reply("ok " + json.dumps(LEVEL_3) if command == "clock" else "err nohand x")

    cash = Fake({"seats": 9})
    m = view.TableModel()
    m.refresh(cash, 1.0)
    assert "clock" not in cash.sent and m.clock is None
    tour = Fake(json.loads(SCHEDULE.read_text()))
    m = view.TableModel()
    m.refresh(tour, 1.0)
    assert tour.sent[-1] == "clock" and m.clock == LEVEL_3


def start_emulator(tmp_path, runtime):
    link = tmp_path / "ttyTOURNAMENT"
    args = [str(BIN / "dealerbutton"), "emulate", "--pty", "--link", str(link),
            "--config", str(SCHEDULE), "--state", str(tmp_path / "state")]
    if runtime == "micropython":
        args.insert(2, "--micropython")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    assert first.startswith("device on "), (first, proc.stderr.read() if proc.poll() else "")
    return proc, link


def control(link, *commands):
    """Send commands as a second program on the port would; returns their replies."""
    client = Client.serial(str(link), timeout=5.0)
    try:
        client.sync(timeout=10.0)
        return [client.send(c).line for c in commands]
    finally:
        client.close()


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_dealerbutton_clock_follows_the_emulator(runtime, tmp_path):
    proc, link = start_emulator(tmp_path, runtime)
    term = None
    try:
        assert control(link, "sit 1", "sit 2", "sit 3", "deal 1")[:3] == ["ok"] * 3
        term = Tmux(dealerbutton("clock", "--port", link), width=80, height=24)
        term.wait_for(r"^\s+LEVEL 1   PAUSED\s*$")
        lines = wait_for_big(term, "20:00", 4, 2)
        assert "next: level 2   50/100   ante 0   (20 min)" in "\n".join(lines)
        term.keys("q")
        assert term.wait_exit() == 0, term.screen()
        term.close()
        # The director moves to level 4 with 3 s left and starts the clock.
        assert control(link, "clock next", "clock next", "clock next", "clock set 0:03",
                       "clock resume") == ["ok"] * 5
        term = Tmux(dealerbutton("clock", "--port", link), width=80, height=24)
        term.wait_for(r"^\s+LEVEL 4\s*$")
        wait_for_big(term, "100/200", 2, 1)
        assert "ante 200 (big-blind ante)" in term.screen()
        # The level runs out: the break starts on the device and on the screen.
        term.wait_for(r"^\s+BREAK\s*$", timeout=10)
        wait_for_big(term, "BREAK", 2, 1)
        assert "then level 5   150/300   ante 300   (20 min)" in term.screen()
        term.keys("q")
        assert term.wait_exit() == 0, term.screen()
        # No hand is dealt during the break; level 5 after it.
        reply = control(link, "deal")[0]
        assert re.match(r"err rule no hand during the break: (10:00|9:5\d) left$", reply), reply
        replies = control(link, "clock next", "deal", "hand")
        assert replies[:2] == ["ok", replies[1]] and replies[1].startswith("ok {"), replies
        hand = json.loads(replies[2][3:])
        assert hand["posts"][str(hand["bb"])] == [300, 300], hand   # level 5: 300 and the BB ante
    finally:
        if term is not None:
            term.close()
        proc.terminate()
        proc.wait(10)


def test_the_emulators_clock_reply_is_what_dealerbutton_clock_reads(tmp_path):
    out = subprocess.run(
        [str(BIN / "dealerbutton"), "emulate", "--stdio", "--config", str(SCHEDULE),
         "--state", str(tmp_path / "state")],
        input="clock\n", capture_output=True, text=True, timeout=30).stdout
    reply = out.splitlines()[-1]
    c = clockview.parse_clock(reply[3:])
    assert c["level"] == 1 and c["ms_left"] == 20 * 60000 and c["ante_kind"] == "bb"


def test_the_emulator_view_shows_the_clock_in_a_real_terminal(tmp_path):
    term = Tmux(dealerbutton("emulate", "--config", SCHEDULE, "--state", tmp_path / "state"))
    try:
        term.wait_for(r"tournament clock  20:00 left  PAUSED")
        term.wait_for(r"level 1  25/50  ante 0$")
        assert "next: level 2  50/100  ante 0  (20 min)" in term.screen()
        term.keys(":")
        term.keys("-l", "clock resume")
        term.keys("Enter")
        term.wait_for(r"\* clock running")
        term.wait_for(r"tournament clock  19:5\d left\s*$")
        term.keys("Tab", "q")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()
