"""`dealerbutton clock`: its large characters and layout, the model against the replies of
the firmware's own clock, then the real thing in a real terminal (tmux) against a device on
a pseudo-terminal that answers `clock` with the firmware's Clock (and one that does not)."""

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from dealerbutton.clock.schedule import Clock
from dealerbutton.store.config import check_tournament
from dealerbutton_host.device import clockview
from dealerbutton_host.device.client import DeviceError, Reply
from dealerbutton_host.device.emulator import PtyDevice
from dealerbutton_host.device.view import to_text
from test_clock import MIN, SCHEDULE  # tests/device: the firmware clock's own tests
from test_host_view import Tmux, dealerbutton

ROOT = Path(__file__).resolve().parents[2]


def firmware_clock():
    return Clock(check_tournament(SCHEDULE)[0], 0)


def model_of(c, now_ms=0, at=100.0):
    """A model that read c's `clock` reply at time `at`."""
    m = clockview.ClockModel("test")
    c.tick(now_ms)  # as the device does, every frame
    m.refresh(FakeClient(["ok " + c.json(now_ms)]), at)
    return m


class FakeClient:
    """Answers `clock` with the given reply lines, one per call."""

    name = "/dev/ttyFAKE"

    def __init__(self, lines):
        self.lines = list(lines)
        self.sent = []

    def send(self, command):
        self.sent.append(command)
        return Reply(self.lines.pop(0))


# -- large characters ----------------------------------------------------------------------
def test_large_characters_scale_and_fit():
    assert clockview.big_rows("1:0", 1, 1, "#") == [
        " #    ###", "##  # # #", " #    # #", " #  # # #", "###   ###"]
    rows = clockview.big_rows("10", 2, 1, "#")
    assert rows == ["  ##    ######", "####    ##  ##", "  ##    ##  ##", "  ##    ##  ##",
                    "######  ######"]
    assert clockview.big_rows("7", 1, 2, "#") == ["###", "###", "  #", "  #", "  #", "  #",
                                                 " # ", " # ", " # ", " # "]
    assert clockview.big_width("12:34", 1) == 17 and clockview.big_width("12:34", 4) == 68
    assert all(len(r) == 68 for r in clockview.big_rows("12:34", 4, 2))
    assert clockview.fit("12:34", 80, 11) == (4, 2)  # 68 x 10
    # Width short for 2:1 pixels: larger ones, down to 1.5:1, rather than smaller ones.
    assert clockview.fit("12:34", 200, 52) == (11, 7)
    assert clockview.fit("50/100", 132, 15) == (5, 3)
    assert clockview.fit("12:34", 200, 52, max_sy=3) == (6, 3)
    assert clockview.fit("25000/50000", 80, 20) == (1, 1)  # too wide at 2x1: narrower
    assert clockview.fit("25000/50000", 40, 20) == (0, 0)  # not even 1x1: plain text
    assert clockview.fit("12:34", 80, 4) == (0, 0)  # not 5 rows
    # Every character the screen writes in large is in the font.
    assert set("0123456789:/ BREAK") <= set(clockview.FONT)


# -- the model ---------------------------------------------------------------------------------
def test_the_model_reads_the_firmware_clock_and_counts_down_in_between():
    c = firmware_clock()
    c.resume(0)
    m = model_of(c, 5 * MIN, at=100.0)
    assert m.clock["level"] == 1 and m.clock["running"] is True
    assert m.ms_left(100.0) == 15 * MIN and m.ms_left(102.5) == 15 * MIN - 2500
    assert m.ms_left(100.0 + 3600) == 0  # never below 0:00
    # Asked again only when due: once a second, or at once after a clock event.
    client = FakeClient(["ok " + c.json(5 * MIN + 500)] * 3)
    assert not m.refresh(client, 100.5) and client.sent == []
    assert m.refresh(client, 101.0) and client.sent == ["clock"]
    m.on_event("* hand {}", 101.2)
    assert not m.refresh(client, 101.2)
    m.on_event("* level 2 50/100 ante 100", 101.3)
    assert m.last_event == "level 2 50/100 ante 100" and m.flash_until == 111.3
    assert m.refresh(client, 101.3)
    m.on_event("* clock paused", 101.4)
    assert m.flash_until == 111.3 and m.refresh(client, 101.4)
    # Paused: the time stays.
    c.pause(6 * MIN)
    m = model_of(c, 6 * MIN, at=200.0)
    assert m.ms_left(200.0) == m.ms_left(9999.0) == 14 * MIN


def test_replies_that_are_not_a_clock():
    m = clockview.ClockModel("test")
    with pytest.raises(clockview.NoClock) as e:
        m.refresh(FakeClient(["err unknown command clock (commands: away back ping)"]), 1.0)
    assert str(e.value) == ("/dev/ttyFAKE has no tournament clock (it answers: err unknown "
                            "command clock): its firmware is older than the clock; update it "
                            "with `dealerbutton deploy`")
    m.refresh(FakeClient(["err clock no tournament in config.json"]), 2.0)
    assert m.clock is None and m.error == "the device says: no tournament in config.json"
    assert m.next_poll == 2.0 + clockview.RETRY_S
    with pytest.raises(DeviceError, match="not a protocol reply"):
        m.refresh(FakeClient([">>> "]), 10.0)
    for payload, message in (("{", "not JSON"), ("[1]", "not a JSON object"),
                             ('{"level":"1"}', "has no level"),
                             ('{"level":1,"sb":1,"bb":2,"ante":0,"ante_kind":"each",'
                              '"break":0,"ms_left":5,"running":true}', "has no break"),
                             ('{"level":1,"sb":1,"bb":2,"ante":0,"ante_kind":"each",'
                              '"break":false,"ms_left":5,"running":true,"next":{"sb":2}}',
                              "next level is not understood")):
        m.refresh(FakeClient(["ok " + payload]), 20.0)
        assert message in m.error, (payload, m.error)
        m.due = True
    m.refresh(FakeClient(["ok " + firmware_clock().json(0)]), 30.0)
    assert m.error == "" and m.clock["level"] == 1


# -- the layout ---------------------------------------------------------------------------------
def screen(m, width, height, now):
    items = clockview.layout(m, width, height, now)
    for y, x, text, _style in items:
        assert 0 <= y < height and 0 <= x and x + len(text) <= width, (y, x, text)
    return items, to_text(items, width, height)


def block_at(lines, rows):
    """The line index where the rows of a large text start (centred), or -1."""
    stripped = [ln.strip() for ln in lines]
    want = [r.strip() for r in rows]
    for i in range(len(lines) - len(rows) + 1):
        if stripped[i:i + len(rows)] == want:
            return i
    return -1


def test_a_dealer_ante_is_named():
    schedule = dict(SCHEDULE, ante_kind="button")
    c = Clock(check_tournament(schedule)[0], 0)
    c.resume(0)
    m = model_of(c, 20 * MIN + 5000, at=100.0)  # level 2: ante 100
    items, lines = screen(m, 80, 24, 100.0)
    assert "ante 100 (dealer ante)" in [ln.strip() for ln in lines], "\n".join(lines)


def test_layout_at_80x24_level_blinds_time_and_next():
    c = firmware_clock()
    c.resume(0)
    m = model_of(c, 20 * MIN + 5000, at=100.0)  # level 2, 19:55 left
    items, lines = screen(m, 80, 24, 100.0)
    assert lines[0] == "test"
    assert lines[1].strip() == "LEVEL 2"
    t = block_at(lines, clockview.big_rows("19:55", 4, 2))
    b = block_at(lines, clockview.big_rows("50/100", 2, 1))
    assert 2 <= t and t + 10 < b, "\n".join(lines)
    assert lines[b + 5].strip() == "ante 100 (big-blind ante)"
    assert lines[b + 6].strip() == "next: break, 10 min"
    assert lines[23].endswith("q: quit")
    time_styles = {it[3] for it in items if clockview.PIXEL in it[2] and it[0] < b}
    assert time_styles == {"bold"}
    # 0:30 before the break: the time turns red.
    c2 = firmware_clock()
    c2.resume(0)
    m = model_of(c2, 40 * MIN - 30000, at=100.0)
    items, lines = screen(m, 80, 24, 100.0)
    b = block_at(lines, clockview.big_rows("50/100", 2, 1))
    assert {it[3] for it in items if clockview.PIXEL in it[2] and it[0] < b} == {"error"}


def test_layout_scales_up_and_down():
    c = firmware_clock()
    m = model_of(c, 0, at=0.0)
    _, lines = screen(m, 200, 60, 0.0)
    assert block_at(lines, clockview.big_rows("20:00", 11, 7)) >= 2
    assert block_at(lines, clockview.big_rows("25/50", 6, 3)) > 0
    assert lines[1].strip() == "LEVEL 1   PAUSED"
    assert any(ln.strip() == "no ante" for ln in lines)
    assert any(ln.strip() == "next: level 2   50/100   ante 100   (20 min)" for ln in lines)
    # Small screens: plain text, nothing outside the screen, nothing lost that fits.
    _, lines = screen(m, 40, 10, 0.0)
    assert "20:00" in "\n".join(lines) and "25/50" in "\n".join(lines)
    for w, h in ((20, 6), (1, 1), (3, 2), (80, 24), (300, 100)):
        screen(m, w, h, 0.0)
    empty = clockview.ClockModel("nothing yet")
    _, lines = screen(empty, 80, 24, 0.0)
    assert lines[12].strip() == "(waiting for the clock)"


def test_layout_of_a_break_paused_blinking_and_a_new_level():
    c = firmware_clock()
    c.resume(0)
    c.tick(40 * MIN)
    c.pause(41 * MIN)
    m = model_of(c, 41 * MIN, at=100.0)
    items, lines = screen(m, 80, 24, 100.0)
    assert lines[1].strip() == "BREAK   PAUSED"
    t = block_at(lines, clockview.big_rows("9:00", 4, 2))
    b = block_at(lines, clockview.big_rows("BREAK", 2, 1))
    assert 0 < t < b, "\n".join(lines)
    assert lines[b + 5].strip() == "then level 3   100/200   ante 200   (15 min)"
    # Paused: the time blinks, bold one second and dim the next.
    for now, style in ((100.0, "bold"), (101.0, "dim"), (102.5, "bold")):
        items = clockview.layout(m, 80, 24, now)
        assert {it[3] for it in items if clockview.PIXEL in it[2] and it[0] < b} == {style}
    # A level starts: its blinds stand out for a while, the event is on the last line.
    c.resume(41 * MIN)
    c.tick(50 * MIN)
    m = model_of(c, 50 * MIN, at=200.0)
    m.on_event("* level 3 100/200 ante 200", 200.0)
    for now, style in ((200.0, "error"), (209.9, "error"), (210.1, "bold")):
        items = clockview.layout(m, 80, 24, now)
        lines = to_text(items, 80, 24)
        b = block_at(lines, clockview.big_rows("100/200", 2, 1))
        assert {it[3] for it in items if clockview.PIXEL in it[2] and it[0] >= b} == {style}
    assert lines[23].startswith("last: level 3 100/200 ante 200")
    # The last level: no next one.
    assert any(ln.strip() == "last level: the blinds stay" for ln in lines)


def test_layout_says_what_is_wrong_on_the_last_line():
    c = firmware_clock()
    c.resume(0)
    m = model_of(c, 0, at=0.0)
    m.connection = "disconnected: /dev/ttyACM0: Input/output error; waiting for the device " \
                   "to come back"
    items, lines = screen(m, 80, 24, 0.0)
    assert lines[1].strip() == "LEVEL 1"
    t = block_at(lines, clockview.big_rows("20:00", 4, 2))
    assert t >= 2, "\n".join(lines)
    # The time last heard of is dimmed: the device may have been paused meanwhile.
    assert {it[3] for it in items if clockview.PIXEL in it[2] and it[0] < t + 10} == {"dim"}
    assert lines[23] == ("disconnected: /dev/ttyACM0: Input/output error; waiting for the "
                         "device  q: quit")  # cut short of the keys
    empty = clockview.ClockModel("test")
    empty.error = "the device says: no tournament in config.json"
    _, lines = screen(empty, 80, 24, 0.0)
    assert lines[12].strip() == "(waiting for the clock)"
    assert lines[23].startswith("the device says: no tournament in config.json")


# -- in a real terminal ---------------------------------------------------------------------
# A device on a pseudo-terminal whose `clock` is the firmware's Clock, running on real time;
# CLOCK_FIFO feeds it `clock ...` lines as if its buttons had been pressed (their events go
# to the terminal, their replies nowhere). With "old" it answers `clock` as a firmware
# without the clock does.
FAKE_DEVICE = textwrap.dedent("""
    import os, select, sys, time
    sys.path.insert(0, %(firmware)r)
    from dealerbutton.clock.schedule import Clock
    from dealerbutton.store.config import check_tournament
    from dealerbutton.ticks import TICKS_MAX
    SCHEDULE = %(schedule)r
    mode = sys.argv[1]
    def now():
        return int(time.monotonic() * 1000) & TICKS_MAX
    clock = Clock(check_tournament(SCHEDULE)[0], now())
    def say(line):
        os.write(1, line.encode() + b"\\r\\n")
    def handle(line, from_host=True):
        words = line.split()
        if not words:
            return "ok"
        if words[0] == "ping":
            return "ok pong"
        if words[0] == "clock" and mode == "clock":
            if len(words) == 1:
                return "ok " + clock.json(now())
            try:  # clock pause|resume|next|prev|set M:SS
                for event in getattr(clock, words[1])(*(words[2:] + [now()])):
                    say(event)
            except ValueError as e:
                return "err clock %%s" %% e
            return "ok"
        return "err unknown command %%s (commands: away back choose config deal hand hold " \\
               "leave leds ping press sit state undo version)" %% words[0]
    control = os.open(os.environ["CLOCK_FIFO"], os.O_RDWR | os.O_NONBLOCK)
    bufs = {0: b"", control: b""}
    while True:
        ready = select.select([0, control], [], [], 0.02)[0]
        for event in clock.tick(now()):
            say(event)
        for fd in ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                sys.exit(0)
            bufs[fd] += data
            while b"\\n" in bufs[fd]:
                line, bufs[fd] = bufs[fd].split(b"\\n", 1)
                reply = handle(line.decode().rstrip("\\r"))
                if fd == 0:
                    say(reply)
""") % {"firmware": str(ROOT / "firmware"), "schedule": SCHEDULE}


class FakeDevice:
    def __init__(self, tmp_path, mode="clock", link=None):
        script = tmp_path / "fake_clock_device.py"
        script.write_text(FAKE_DEVICE)
        self.fifo = tmp_path / ("control-%d" % time.monotonic_ns())
        os.mkfifo(self.fifo)
        env = dict(os.environ, CLOCK_FIFO=str(self.fifo))
        self.dev = PtyDevice([sys.executable, "-u", str(script), mode], env,
                             link=str(link) if link else None)
        self.path = self.dev.path

    def press(self, command):
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, command.encode() + b"\n")
        finally:
            os.close(fd)

    def stop(self):
        self.dev.stop()


def wait_for_big(term, text, sx, sy, timeout=15.0):
    rows = clockview.big_rows(text, sx, sy)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = term.screen().splitlines()
        if block_at(lines, rows) >= 0:
            return lines
        time.sleep(0.1)
    raise AssertionError("no large %r on the screen:\n%s" % (text, term.screen()))


def test_the_clock_in_a_real_terminal_follows_the_device(tmp_path):
    link = tmp_path / "ttyCLOCK"
    device = FakeDevice(tmp_path, link=link)
    term = Tmux(dealerbutton("clock", "--port", link), width=80, height=24)
    try:
        term.wait_for(r"^\s+LEVEL 1   PAUSED\s*$")
        lines = wait_for_big(term, "20:00", 4, 2)
        assert block_at(lines, clockview.big_rows("25/50", 2, 1)) > 0
        screen = term.screen()
        assert "no ante" in screen
        assert "next: level 2   50/100   ante 100   (20 min)" in screen
        # The clock is started: the seconds run.
        device.press("clock resume")
        term.wait_for(r"^\s+LEVEL 1\s*$")
        term.wait_for(r"last: clock running")
        wait_for_big(term, "19:58", 4, 2, timeout=5)
        # Three seconds before the end of the level: red; then level 2 starts.
        device.press("clock set 0:03")
        wait_for_big(term, "0:02", 4, 2, timeout=5)
        red = [ln for ln in term.screen(colours=True).splitlines()
               if "\x1b[38;5;196m" + clockview.PIXEL in ln]
        assert len(red) == 10, red  # the time's 10 rows, and nothing else
        term.wait_for(r"^\s+LEVEL 2\s*$", timeout=6)
        term.wait_for(r"last: level 2 50/100 ante 100")
        wait_for_big(term, "50/100", 2, 1)
        assert "ante 100 (big-blind ante)" in term.screen()
        # The next entry is the break.
        device.press("clock next")
        term.wait_for(r"^\s+BREAK\s*$")
        wait_for_big(term, "BREAK", 2, 1)
        assert "then level 3   100/200   ante 200   (15 min)" in term.screen()
        # The board resets: the screen says so, and comes back with it.
        device.stop()
        term.wait_for(r"^disconnected: ")
        device = FakeDevice(tmp_path, link=link)
        term.wait_for(r"^\s+LEVEL 1   PAUSED\s*$")
        assert "disconnected" not in term.screen() and "waiting" not in term.screen()
        term.keys("q")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()
        device.stop()


def test_a_device_without_the_clock_is_one_clear_line(tmp_path):
    device = FakeDevice(tmp_path, mode="old")
    err = tmp_path / "stderr"
    term = Tmux("%s 2>%s" % (dealerbutton("clock", "--port", device.path), err),
                width=80, height=24)
    try:
        assert term.wait_exit() == 2, term.screen()
        assert err.read_text() == (
            "dealerbutton clock: %s has no tournament clock (it answers: err unknown command "
            "clock): its firmware is older than the clock; update it with `dealerbutton "
            "deploy`\n" % device.path)
    finally:
        term.close()
        device.stop()


def test_no_board_is_a_clear_message(monkeypatch, capsys):
    from dealerbutton_host import cli
    from dealerbutton_host.device import deploy

    monkeypatch.setattr(deploy, "find_board", lambda: None)
    assert cli.main(["clock"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dealerbutton clock: no board found") and "--port" in err
    assert "Traceback" not in err


def test_the_clock_command_is_listed():
    out = subprocess.run([str(Path(sys.executable).parent / "dealerbutton"), "--help"],
                         capture_output=True, text=True, timeout=30).stdout
    assert re.search(r"^\s+clock\s+the tournament clock full screen", out, re.M), out


def test_no_terminal_is_one_clear_line(tmp_path):
    device = FakeDevice(tmp_path)
    try:
        proc = subprocess.run([str(Path(sys.executable).parent / "dealerbutton"), "clock",
                               "--port", device.path], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2
        assert proc.stderr == ("dealerbutton clock: the clock is drawn on a terminal: run it "
                               "in one, with its input and output not redirected\n")
        err = tmp_path / "stderr"
        term = Tmux("TERM=nosuchterm %s 2>%s" % (dealerbutton("clock", "--port", device.path),
                                                  err))
        try:
            assert term.wait_exit() == 2, term.screen()
        finally:
            term.close()
        assert err.read_text() == ("dealerbutton clock: this terminal cannot show the clock "
                                   "(TERM=nosuchterm): setupterm: could not find terminal\n")
    finally:
        device.stop()
