"""The terminal view of `dealerbutton emulate` / `monitor`: its pieces, then the real thing
in a real terminal (tmux), driven by keys and read back from the screen."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from dealerbutton import ring as ringmod
from dealerbutton_host.device import view
from dealerbutton_host.device.keys import KeySequence

BIN = Path(sys.executable).parent
HAND = {"n": 4, "button": 3, "sb": 5, "bb": 6, "dealt": [5, 6, 1, 2, 3],
        "posts": {"5": [10, 0], "6": [20, 0], "2": [20, 10]}, "first_to_act": 1}


def make_model(seats=6):
    m = view.TableModel("test")
    m.config = {"seats": seats, "leds": 24, "offset": 0, "direction": "cw", "brightness": 128}
    statuses = ["active", "active", "active", "away", "active", "active"][:seats]
    m.state = {"rules": "dead", "stakes": [10, 20], "hands": 4,
               "seats": [{"seat": i + 1, "status": st, "owes": [20, 10] if st == "away"
                          else [0, 0]} for i, st in enumerate(statuses)]}
    m.hand = HAND
    m.leds = view.parse_leds(" ".join(["FF0000"] * 4 + ["000000"] * 20))
    return m


def test_colours_map_to_the_nearest_terminal_colour():
    assert view.xterm256((0, 0, 0)) == 16
    assert view.xterm256((255, 255, 255)) == 231
    assert view.xterm256((255, 0, 0)) == 196
    assert view.xterm256((0, 0, 255)) == 21
    assert view.xterm256((128, 128, 128)) == 244  # a grey is a grey, not a cube colour
    assert view.xterm256((230, 159, 0)) == 178  # the BB orange: (215, 175, 0)
    assert view.basic8((230, 20, 10)) == 1 and view.basic8((0, 0, 250)) == 4
    assert view.basic8((250, 250, 250)) == 7
    assert view.parse_leds("FF8000 00ff00 junk 0000FF") == [(255, 128, 0), (0, 255, 0),
                                                           (0, 0, 255)]
    assert view.shown((64, 32, 0), 128) == (127, 63, 0)


@pytest.mark.parametrize("leds,seats,offset,reverse", [(24, 9, 0, False), (60, 12, 7, True),
                                                       (12, 12, 3, False), (24, 5, 23, True)])
def test_ring_drawing_follows_the_firmware_arcs(leds, seats, offset, reverse):
    """Every LED of a seat's arc (as dealerbutton.ring lights it) is drawn within that seat's
    sector, so seat labels sit next to their own LEDs."""
    led_turn, seat_turn = view.ring_positions(leds, seats, offset, reverse)
    r = ringmod.Ring(leds, seats, offset=offset, reverse=reverse)
    previous_end = 0.0
    for seat in range(1, seats + 1):
        turns = [led_turn[i] for i in r.arc(seat)]
        assert turns == sorted(turns)  # the arc is drawn clockwise, in seat order
        assert turns[0] > previous_end - 1e-9  # after the previous seat's arc
        assert turns[0] - 0.5 / leds <= seat_turn[seat] <= turns[-1] + 0.5 / leds
        previous_end = turns[-1]
    assert led_turn[r.arc(1)[0]] < 1.0 / seats  # seat 1 starts at the top
    assert sorted(led_turn) == [(k + 0.5) / leds for k in range(leds)]


def test_layout_shows_seats_statuses_debts_the_hand_and_help():
    lines = view.to_text(view.layout(make_model(), 120, 40), 120, 40)
    text = "\n".join(lines)
    rows = [ln for ln in lines if re.search(r"\s\d+\s+(active|away|empty)\s", ln)]
    assert len(rows) == 6
    assert re.search(r"\b4  away\s+20\+10 dead", text)
    assert re.search(r"\b3  active\s+-\s+D\b", text)
    assert re.search(r"\b5  active\s+-\s+SB\b", text)
    assert re.search(r"\b6  active\s+-\s+BB\b", text)
    assert re.search(r"\b1  active\s+-\s+first\b", text)
    assert re.search(r"\b2  active\s+-\s+posts 20\+10 dead", text)
    assert "hand 4: D 3  SB 5  BB 6  first to act 1" in text
    assert "posts 2: 20+10 dead, 5: 10, 6: 20" in text
    assert "rules dead  stakes 10/20  hands 4" in lines[0]
    assert lines[-1] == ("1..6 seat|shift long|space deal|u undo|m move|k kill|t take|c clock|"
                         ":cmd|q quit")
    wide = view.to_text(view.layout(make_model(), 132, 40), 132, 40)
    assert wide[-1] == ("1..6 seat | shift: long | space: next hand | u: undo | m,A,B: move | "
                        "k,N: kill | t,N: take over | c: clock | ':' command | q: quit")
    # The four lit LEDs are drawn as coloured cells, the dark ones as dots.
    items = view.layout(make_model(), 120, 40)
    lit = [it for it in items if isinstance(it[3], tuple)]
    assert len(lit) == 4 and all(it[3][1] == (255, 0, 0) for it in lit)
    assert len([it for it in items if it[2] == ".."]) == 20
    # Seat labels around the ring.
    labels = {it[2] for it in items if it[3] == "bold" and it[2].isdigit()}
    assert labels == {"1", "2", "3", "4", "5", "6"}


def test_layout_survives_tiny_and_empty_screens():
    for w, h in ((20, 6), (1, 1), (80, 24)):
        view.to_text(view.layout(make_model(), w, h), w, h)
    empty = view.TableModel("nothing yet")
    assert any("waiting for the device" in ln
               for ln in view.to_text(view.layout(empty, 80, 24), 80, 24))


LEDS_REPLY = " ".join("%06X" % (0x101010 * (k % 16)) for k in range(24))


def waiting_model(seats):
    """A table with every status, both choices of a waiting player, debts, a posted
    hand and the reply to `leds` (24 LEDs) last in the events."""
    m = make_model(seats)
    m.title = "dealerbutton emulator (MicroPython)"
    m.version = "0.1.0"
    rows = m.state["seats"] = [{"seat": i + 1, "status": "active", "owes": [0, 0]}
                               for i in range(seats)]
    m.config["seats"] = seats
    rows[1].update(status="waiting", choice="wait", owes=[20, 0])
    rows[3].update(status="waiting", choice="post", owes=[20, 10])
    rows[4].update(status="away", owes=[20, 10])
    rows[5].update(status="empty")
    m.note("> leds  ->  ok " + LEDS_REPLY)
    return m


@pytest.mark.parametrize("seats", [6, 9, 12])
def test_layout_fits_80x24_and_explains_the_waiting_words(seats):
    items = view.layout(waiting_model(seats), 80, 24)
    for y, x, text, _style in items:  # nothing drawn past the edge, so nothing was cut off
        assert 0 <= y < 24 and x + len(text) <= 80, (y, x, text)
    lines = view.to_text(items, 80, 24)
    text = "\n".join(lines)
    assert lines[0].startswith("dealerbutton emulator (MicroPython)")
    assert lines[0].endswith("rules dead  stakes 10/20  hands 4")
    assert re.search(r"\b2  waits for BB 20\s", text)
    assert re.search(r"\b4  will post    20\+10 dead$", text, re.M)
    assert re.search(r"\b5  away         20\+10 dead\b", text)
    assert len(re.findall(r"^.*\b\d+  (active|away|empty|waits for BB|will post) ", text,
                          re.M)) == seats
    # The reply to `leds` is shown whole, over as many lines as it takes.
    events = lines[lines.index("events") + 1:-1]
    assert " ".join(events).split("ok ", 1)[1].split() == LEDS_REPLY.split()
    if seats <= 9:  # rows to spare: the words are explained and the last hand shown
        assert "waits for BB: comes in on his big blind" in lines[2 + seats + 1]
        assert "will post: posts what he owes, then plays" in lines[2 + seats + 2]
        assert "hand 4: D 3  SB 5  BB 6  first to act 1" in text
    # Before the first hand, and with a hand of many posts: all of it, on more lines.
    for hand in (None, dict(HAND, posts={str(k): [20, 10] for k in range(1, 7)})):
        m = waiting_model(seats)
        m.hand = hand
        items = view.layout(m, 80, 24)
        assert all(x + len(text) <= 80 for _y, x, text, _s in items)
        if seats == 6:
            panel = sorted((y, x, t) for y, x, t, _s in items if x > 30 and 2 < y < 17)
            text = " ".join(" ".join(t for _y, _x, t in panel).split())
            assert ("no hand dealt yet: seat the players, press the next-hand button (space), "
                    "then the seat that won the draw for the button" in text
                    if hand is None else
                    "posts 1: 20+10 dead, 2: 20+10 dead, 3: 20+10 dead, 4: 20+10 dead, "
                    "5: 20+10 dead, 6: 20+10 dead" in text)
    # On a wide screen the firmware's version shows too, and a post's amount.
    wide = view.to_text(view.layout(waiting_model(seats), 132, 42), 132, 42)
    assert "(MicroPython)  firmware 0.1.0  rules dead" in wide[0]
    assert "waits for BB: comes in on his big blind" in "\n".join(wide)


def test_narrow_seat_rows_say_posted_and_the_hand_lines_say_how_much():
    m = make_model(6)
    m.hand = dict(HAND, first_to_act=2)  # seat 2 posts 20+10 dead and acts first
    wide = "\n".join(view.to_text(view.layout(m, 132, 42), 132, 42))
    assert re.search(r"\b2  active\s+-\s+first posts 20\+10 dead$", wide, re.M)
    narrow = "\n".join(view.to_text(view.layout(m, 80, 24), 80, 24))
    assert re.search(r"\b2  active\s+-\s+first posted$", narrow, re.M)
    assert "posts 2: 20+10 dead, 5: 10, 6: 20" in narrow


def screen_text(m, width, height):
    items = view.layout(m, width, height)
    for y, x, text, _style in items:  # nothing drawn past the edge, so nothing was cut off
        assert 0 <= y < height and x + len(text) <= width, (y, x, text)
    return view.to_text(items, width, height)


ASIDE = ("* error saved table (save 4) has 9 seats, config.json 6: kept as "
         "state-9seats-dead-10-20.json (config.json back to 9 seats resumes it): clean start")


@pytest.mark.parametrize("size", [(80, 24), (132, 42)])
def test_a_start_up_error_stays_on_screen_until_a_key(size):
    m = waiting_model(9)
    m.on_event("* info no saved state: clean start")
    assert m.notices == []
    m.on_event(ASIDE)
    for k in range(30):   # however many events follow, it stays
        m.on_event("* seat %d active" % (k % 9 + 1))
    lines = screen_text(m, *size)
    text = " ".join(" ".join(lines).split())
    assert ASIDE[2:] in text, text
    assert text.count("kept as") == 1   # not again in the events below it
    assert "(any key: dismiss)" in text
    m.dismiss()
    text = " ".join(" ".join(screen_text(m, *size)).split())
    assert "kept as" not in text and "dismiss" not in text


def test_the_draw_for_the_button_is_said_in_words():
    m = make_model(6)
    m.hand = None
    m.drawing = True
    lines = screen_text(m, 80, 24)
    panel = " ".join(t for _y, x, t, _s in sorted(view.layout(m, 80, 24)) if x > 30)
    assert "DRAW for the button: press the seat that won it" in " ".join(panel.split())
    assert lines[-1].startswith("DRAW: a seat key gives the button | space: random | u: cancel")
    m.drawing = False
    assert "DRAW" not in " ".join(screen_text(m, 80, 24))


def test_a_hand_without_a_small_blind_says_so():
    m = make_model(6)
    m.hand = dict(HAND, sb=None, posts={"6": [20, 0]})
    text = "\n".join(screen_text(m, 132, 42))
    assert "hand 4: D 3  no small blind this hand  BB 6  first to act 1" in text
    assert "D3 BB6, no SB" in text
    assert "SB -" not in text and "SB-" not in text


def seats_model(seats):
    """A model of a table of that many seats, every one taken."""
    m = make_model()
    m.state = dict(m.state, seats=[{"seat": i + 1, "status": "active", "owes": [0, 0]}
                                   for i in range(seats)])
    return m


def typed(model, *keys):
    """The commands a KeySequence sends for keys typed one after the other."""
    seq = KeySequence()
    sent = [seq.key(k, model) for k in keys]
    return [c for c in sent if c], seq


def test_keys_map_to_presses():
    m9, m12 = seats_model(9), seats_model(12)
    assert typed(m9, "1")[0] == ["press 1"]
    assert typed(m12, "0", "=")[0] == ["press 10", "press 12"]
    assert typed(m9, "=")[0] == []  # no seat 12 on 9 seats
    assert typed(m9, "!")[0] == ["hold 1"]
    assert typed(m12, "+")[0] == ["hold 12"]
    assert typed(m9, "l", "3")[0] == ["hold 3"]
    assert typed(m9, " ", "n", "u", "x")[0] == ["press 0", "press 0", "hold 0"]


def test_key_sequences_play_the_chords_and_the_take_over():
    m = seats_model(9)
    sent, seq = typed(m, "m", "3")
    assert sent == [] and "the empty seat he goes to" in seq.hint()
    assert typed(m, "m", "3", "7")[0] == ["move 3 7"]
    assert typed(m, "k", "2")[0] == ["kill 2"]
    m.state["seats"][1]["kill"] = "full"   # marked already: the same chord again is half
    assert typed(m, "k", "2")[0] == ["kill 2 half"]
    m.state["seats"][1]["kill"] = "half"
    assert typed(m, "k", "2")[0] == ["kill 2"]
    assert typed(m, "t", "5")[0] == ["take 5"]
    # a key that does not go on with the sequence ends it and counts as itself
    sent, seq = typed(m, "m", "u")
    assert sent == ["hold 0"] and seq.pending == ""
    sent, seq = typed(m, "k")
    assert "kill" in seq.hint()
    seq.cancel()
    assert seq.hint() == ""


def test_the_clock_key_is_the_five_second_hold():
    m = seats_model(9)
    m.clock = {"running": True}
    assert typed(m, "c")[0] == ["clock pause"]
    m.clock = {"running": False}
    assert typed(m, "c")[0] == ["clock resume"]


def test_the_help_line_names_every_key_at_every_width():
    m = make_model(6)
    for width, words in ((240, "m,A,B: move A to B"), (132, "m,A,B: move"), (80, "m move")):
        line = view.to_text(view.layout(m, width, 40), width, 40)[-1]
        assert len(line) < width and words in line, (width, line)
        for key in ("shift", "u", "k", "t", "c", "q"):
            assert key in line
    line = view.to_text(view.layout(m, 80, 24, hint=KeySequence.hint(typed(m, "t")[1])),
                        80, 24)[-1]
    assert line == "take over: the seat a new player takes | Esc: cancel"


# -- in a real terminal ------------------------------------------------------------------
class Tmux:
    """A private tmux server (its own socket) with one window running a command; the
    command's exit status is written to a file (tmux's own is not always filled in)."""

    def __init__(self, command, width=132, height=42):
        if not shutil.which("tmux"):
            pytest.fail("tmux is needed for the terminal tests")
        self.socket = "dbtest-" + uuid.uuid4().hex[:8]
        # The program sizes itself by the terminal; COLUMNS and LINES (which pytest-xdist's
        # workers have) would override the window's size.
        self.env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        self.env["TERM"] = "xterm-256color"
        self.status_file = Path(tempfile.mkdtemp(prefix="dbtmux-")) / "status"
        shell_cmd = "cd %s && %s; echo $? > %s" % (os.getcwd(), command, self.status_file)
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", str(width),
                  "-y", str(height), shell_cmd)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket] + list(args), capture_output=True,
                              text=True, timeout=10, env=self.env)

    def screen(self, colours=False):
        args = ["capture-pane", "-p", "-t", "t"] + (["-e"] if colours else [])
        return self.tmux(*args).stdout

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, pattern, timeout=15.0, absent=False):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            found = re.search(pattern, screen, re.M)
            if (found is None) == absent:
                return screen
            time.sleep(0.1)
        raise AssertionError("%s %r on the screen:\n%s" % ("still" if absent else "no",
                                                           pattern, self.screen()))

    def wait_exit(self, timeout=10.0):
        """The command's exit status, once it has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status_file.exists() and self.status_file.read_text().strip():
                return int(self.status_file.read_text())
            time.sleep(0.1)
        raise AssertionError("still running:\n" + self.screen())

    def close(self):
        self.tmux("kill-server")
        shutil.rmtree(self.status_file.parent, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def dealerbutton(*args):
    return " ".join([str(BIN / "dealerbutton")] + [str(a) for a in args])


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_emulate_view_in_a_real_terminal(runtime, tmp_path):
    state = tmp_path / "state"
    flag = "--micropython" if runtime == "micropython" else ""
    term = Tmux(dealerbutton("emulate", "--seats", 6, "--state", state, flag))
    try:
        term.wait_for(r"seat\s+status\s+owes")
        screen = term.wait_for(r"\b6  empty")
        assert "1..6 seat | shift: long | space: next hand" in screen
        term.keys("1", "2", "3")  # three players sit down
        term.wait_for(r"^.*\b3\s+active")
        term.keys("Space")  # before the first hand: the draw for the button ...
        term.keys("2")  # ... won by seat 2: the first hand is dealt
        term.wait_for(r"hand 1: D 2  SB 3  BB 1  first to act 2")
        screen = term.wait_for(r"\b2\s+active\s+-\s+D first")
        assert "* hand 1: D 2" in screen  # the event log
        coloured = term.screen(colours=True)
        assert re.search(r"\x1b\[[0-9;]*48;5;\d+m", coloured), "no 256-colour LED cells"
        term.keys("#")  # long press of seat 3: he leaves
        term.wait_for(r"^.*\b3\s+empty")
        term.keys("u")  # undo (long press of next hand): he is back
        term.wait_for(r"^.*\b3\s+active")
        term.keys(":")
        term.keys("-l", "away 1")
        term.keys("Enter")
        term.wait_for(r"^.*\b1\s+away")
        term.keys("Tab", "q")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()
    # Start again on the same folder: the table resumes where it was.
    term = Tmux(dealerbutton("emulate", "--state", state, flag))
    try:
        screen = term.wait_for(r"hand 1: D 2  SB 3  BB 1")
        assert re.search(r"^.*\b1\s+away", screen, re.M)
        assert "hands 1" in screen
        term.keys("n")  # next hand
        term.wait_for(r"hand 2: D 3")
        term.keys("q")
    finally:
        term.close()


def test_a_move_a_kill_and_a_take_over_with_keys_only(tmp_path):
    """The chords of the board (a seat change, a kill and a half kill) and the take-over,
    which no button does, each played from the keys."""
    term = Tmux(dealerbutton("emulate", "--seats", 6, "--state", tmp_path / "state"))
    try:
        term.wait_for(r"\b6  empty")
        term.keys("1", "2", "3")
        term.wait_for(r"^.*\b3\s+active")
        term.keys("Space", "1")          # the draw for the button, won by seat 1: hand 1
        term.wait_for(r"hand 1: D 1  SB 2  BB 3")
        term.keys("m")                   # a seat change: seat 1 held, then seat 5 pressed
        term.wait_for(r"move: the seat the player leaves")
        term.keys("1")
        term.wait_for(r"move from seat 1: the empty seat he goes to")
        term.keys("5")
        term.wait_for(r"> move 1 5  ->  ok")
        term.wait_for(r"^.*\b5\s+active")
        assert re.search(r"^.*\b1\s+empty", term.screen(), re.M)
        term.keys("k", "2")              # next hand held, then seat 2: a kill ...
        term.wait_for(r"^.*\b2\s+active.*\bkill next")
        term.keys("k", "2")              # ... the same again: a half kill
        term.wait_for(r"^.*\b2\s+active.*\bhalf kill next")
        assert "> kill 2 half  ->  ok" in term.screen()
        term.keys("#")                   # seat 3 leaves (a long press) ...
        term.wait_for(r"^.*\b3\s+empty")
        term.keys("t", "3")              # ... and a new player takes his place over
        term.wait_for(r"> take 3  ->  ok")
        term.wait_for(r"^.*\b3\s+active")
        term.keys("q")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()


def test_the_clock_is_paused_and_started_with_a_key(tmp_path):
    """The next-hand button held 5 s at a tournament table: the c key."""
    config = Path(__file__).parents[2] / "docs" / "tournament-config.json"
    term = Tmux(dealerbutton("emulate", "--config", config, "--state", tmp_path / "state"))
    try:
        term.wait_for(r"tournament clock  20:00 left  PAUSED")
        term.keys("c")
        term.wait_for(r"> clock resume  ->  ok")
        term.wait_for(r"tournament clock  19:5\d left$")
        term.keys("c")
        term.wait_for(r"> clock pause  ->  ok")
        term.wait_for(r"tournament clock  19:5\d left  PAUSED")
        term.keys("q")
        assert term.wait_exit() == 0, term.screen()
    finally:
        term.close()


def test_emulate_in_an_80x24_terminal_fits_and_shows_the_whole_leds_reply(tmp_path):
    term = Tmux(dealerbutton("emulate", "--seats", 9, "--state", tmp_path / "state"), 80, 24)
    try:
        term.wait_for(r"\b9  empty")
        term.keys("1", "2", "3", "4", "5")
        term.wait_for(r"\b5  active")
        term.keys("Space")  # the draw for the button: said in words until a seat is pressed
        screen = term.wait_for(r"^DRAW: a seat key gives the button")
        assert re.search(r"^\s.*\bDRAW\b(?!:)", screen, re.M), screen  # in the ring
        assert "press the seat" in screen
        term.keys("1")  # won by seat 1
        term.wait_for(r"hand 1: D 1")
        assert "DRAW" not in term.screen()
        term.keys("4")  # seat 4 steps away and misses blinds
        term.wait_for(r"\b4  away")
        term.keys("n", "n")
        term.wait_for(r"hands 3$")
        term.keys("4", "6", "7", "7")  # 4 back (posts), 6 sits (waits), 7 sits, then posts
        screen = term.wait_for(r"\b7  will post")
        assert re.search(r"^.*\b4  will post    20\+10 dead", screen, re.M)
        assert re.search(r"^.*\b6  waits for BB 20", screen, re.M)
        assert "waits for BB: comes in on his big blind" in screen
        assert "will post: posts what he owes, then plays" in screen
        term.keys(":")
        term.keys("-l", "leds")
        term.keys("Enter")
        screen = term.wait_for(r"> leds  ->  ok ")
        words = screen.split("> leds  ->  ok ", 1)[1].split("\n>")[0].split()
        assert len(words) == 24 and all(re.fullmatch(r"[0-9A-F]{6}", w) for w in words), screen
        assert screen.splitlines()[0].endswith("stakes 10/20  hands 3")
        assert all(len(line) <= 80 for line in screen.splitlines())
        term.keys("Tab", "q")
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_a_table_kept_aside_at_start_up_is_said_on_screen_and_comes_back(tmp_path):
    """Nine seats, a hand, quit; start again with --seats 6: the screen says where the
    9-seat table went until a key is pressed; back to --seats 9, it is there again."""
    state = tmp_path / "state"
    with Tmux(dealerbutton("emulate", "--seats", 9, "--state", state), 80, 24) as term:
        term.wait_for(r"\b9  empty")
        term.keys("1", "2", "3")
        term.wait_for(r"\b3  active")
        term.keys("Space", "2")
        term.wait_for(r"hand 1: D 2")
        term.keys("q")
        assert term.wait_exit() == 0
    with Tmux(dealerbutton("emulate", "--seats", 6, "--state", state), 80, 24) as term:
        screen = term.wait_for(r"\(any key: dismiss\)")
        text = " ".join(screen.split())
        assert ("! error saved table (save 4) has 9 seats, config.json 6: kept as "
                "state-9seats-dead-10-20.json (config.json back to 9 seats resumes it): clean "
                "start") in text, screen
        term.keys("1")  # dismisses, and does nothing else
        term.wait_for(r"dismiss", absent=True)
        assert re.search(r"\b1  empty", term.screen())
        term.keys("q")
        assert term.wait_exit() == 0
    with Tmux(dealerbutton("emulate", "--seats", 9, "--state", state), 80, 24) as term:
        screen = term.wait_for(r"hand 1: D 2")
        assert "dismiss" not in screen  # nothing went wrong: nothing to dismiss
        assert re.search(r"\b3  active", screen)
        term.keys("q")


@pytest.mark.parametrize("command", ["emulate", "monitor --port /dev/ttyACM9"])
def test_no_terminal_is_a_one_line_message(command, tmp_path):
    """Started with its input (or output) not a terminal, the view says what to use."""
    state = tmp_path / "state"
    argv = [str(BIN / "dealerbutton")] + command.split() + ["--state", str(state)] * (
        command == "emulate")
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("dealerbutton %s: the live view needs a terminal"
                               % command.split()[0])
    if command == "emulate":
        assert "--stdio" in lines[0] and "--pty" in lines[0]
        assert not state.exists()  # nothing was started or made
    else:
        assert "--command CMD or --script FILE" in lines[0]
    # In a terminal, with input from elsewhere, and in one curses cannot drive (the shell
    # waits a little after it, so that tmux shows its last words).
    name = "dealerbutton %s: " % command.split()[0]
    for how in ("%s < /dev/null", "TERM=nosuchterm %s"):
        term = Tmux((how % " ".join(argv)) + "; s=$?; sleep 1; (exit $s)", 200, 10)
        try:
            screen = term.wait_for(re.escape(name))
            assert term.wait_exit() == 2
            assert "Traceback" not in screen
            assert "--stdio" in screen if command == "emulate" else "--script FILE" in screen
        finally:
            term.close()


def test_link_without_pty_is_refused(tmp_path):
    for extra in (["--stdio"], []):
        proc = subprocess.run([str(BIN / "dealerbutton"), "emulate", "--link",
                               str(tmp_path / "tty"), "--state", str(tmp_path)] + extra,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 2
        assert proc.stderr.startswith("dealerbutton emulate: --link PATH works only with "
                                      "--pty"), proc.stderr
        assert ("--stdio has none" if extra else "the live view has none") in proc.stderr
        assert not (tmp_path / "tty").exists()
