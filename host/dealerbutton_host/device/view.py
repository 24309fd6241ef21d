"""The live table view shared by `dealerbutton emulate` and `dealerbutton monitor`.

A TableModel follows the device through the protocol (replies to `leds`, `state`,
`hand`, `config`, and the `* ` events); layout() turns it into positioned strings
(pure, testable without a terminal); run() draws them with curses and turns keys
into button presses or typed protocol commands.
"""

from __future__ import annotations

import collections
import curses
import json
import math
import os
import sys
import textwrap
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .client import Client, CommandError, DeviceClosed, DeviceError
from .keys import SEAT_KEYS, KeySequence

REFRESH_S = 0.1  # ~10 Hz
STATE_EVERY_S = 1.0  # state and hand are re-read at least this often (and after events)

RGB = Tuple[int, int, int]
MAX_NOTICES = 4  # `* error` lines kept on screen at once (the newest)
DISMISS = "(any key: dismiss)"
# A lit LED: a solid block in its colour (also readable without colours, or as text).
LED_GLYPH = "\u2588\u2588" if "utf" in (sys.stdout.encoding or "").lower() else "##"
# An item of the laid out screen: (row, column, text, style); style is None, "bold",
# "dim", "reverse", "error" or ("led", (r, g, b)).
Item = Tuple[int, int, str, object]


# -- colours ------------------------------------------------------------------------
_CUBE = (0, 95, 135, 175, 215, 255)
BASIC = ((0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
         (0, 205, 205), (229, 229, 229))  # curses COLOR_BLACK..COLOR_WHITE, xterm values


def _dist(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _cube_level(v: int) -> int:
    return min(range(6), key=lambda i: abs(_CUBE[i] - v))


def xterm256(rgb: RGB) -> int:
    """The nearest colour of the xterm 256-colour palette (cube 16..231, greys 232..255)."""
    r, g, b = (_cube_level(v) for v in rgb)
    cube_index = 16 + 36 * r + 6 * g + b
    cube_rgb = (_CUBE[r], _CUBE[g], _CUBE[b])
    grey_i = min(23, max(0, (sum(rgb) // 3 - 8 + 5) // 10))
    grey = 8 + 10 * grey_i
    if _dist(rgb, (grey, grey, grey)) < _dist(rgb, cube_rgb):
        return 232 + grey_i
    return cube_index


def basic8(rgb: RGB) -> int:
    """The nearest of the 8 basic terminal colours."""
    return min(range(8), key=lambda i: _dist(rgb, BASIC[i]))


def parse_leds(payload: str) -> List[RGB]:
    out = []
    for word in payload.split():
        if len(word) == 6:
            try:
                v = int(word, 16)
            except ValueError:
                continue
            out.append(((v >> 16) & 255, (v >> 8) & 255, v & 255))
    return out


def shown(rgb: RGB, brightness: int) -> RGB:
    """An LED as the eye sees it: the device's brightness setting undone (an LED at
    half power still looks bright, a terminal cell at half value looks grey)."""
    if brightness <= 0:
        return rgb
    r, g, b = (min(255, v * 255 // brightness) for v in rgb)
    return (r, g, b)


class NoTerminal(Exception):
    """The live view cannot be drawn: no terminal, or one curses cannot drive."""


def need_terminal(stdin=None, stdout=None) -> None:
    """Raise NoTerminal unless stdin and stdout are a terminal the view can use."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        ok = stdin.isatty() and stdout.isatty()
    except (AttributeError, ValueError):
        ok = False
    if not ok:
        raise NoTerminal("the live view needs a terminal (stdin and stdout are not one)")


# -- the model --------------------------------------------------------------------------
class TableModel:
    """What the view knows about the device, kept up to date through a Client."""

    def __init__(self, title: str = "dealerbutton"):
        self.title = title
        self.config: Optional[dict] = None
        self.state: Optional[dict] = None
        self.hand: Optional[dict] = None
        self.leds: List[RGB] = []
        self.version = ""
        self.log: collections.deque = collections.deque(maxlen=300)
        self.connection = ""  # "" when connected, else what is going on
        self.dirty = True  # state/hand must be re-read
        self._last_full = 0.0
        self.clock: Optional[dict] = None  # a tournament's clock (the `clock` reply)
        self.clock_at = 0.0                # when it was read (time.monotonic())
        # The device's `* error` lines (a table kept aside at start-up, a stuck button, a
        # failed save): shown above the events until a key is pressed (dismiss()).
        self.notices: List[str] = []
        self.drawing = False  # the chase of the draw for the button waits for a seat
        self.hands_seen = 0   # `* hand` events so far

    def note(self, text: str) -> None:
        self.log.append(time.strftime("%H:%M:%S ") + text)

    def on_event(self, line: str) -> None:
        if line.startswith("* hand "):
            self.hands_seen += 1
            self.drawing = False
            try:
                self.hand = json.loads(line[7:])
                line = "* " + hand_lines(self.hand)[0]
            except (ValueError, AttributeError, TypeError):
                pass
        elif line.startswith("* error "):
            self.notices = (self.notices + [line[2:]])[-MAX_NOTICES:]
        self.note(line)
        self.dirty = True

    def dismiss(self) -> None:
        self.notices = []

    def pressed(self, command: str, reply, hands_before: int) -> None:
        """After a press or hold sent from the view: `ok draw` without a hand dealt by it
        means the chase for the draw for the button has started; any other outcome of a
        press ends it (the button given, the draw cancelled or made at random)."""
        if command.startswith(("press", "hold")) and reply.ok:
            self.drawing = reply.payload == "draw" and self.hands_seen == hands_before

    def on_other(self, line: str) -> None:
        self.note("? " + line)

    def refresh(self, client: Client, now: Optional[float] = None) -> None:
        """Read the LEDs; read state and hand when an event said they changed (and
        once a second anyway, for changes made by buttons on a real board)."""
        now = time.monotonic() if now is None else now
        if self.config is None:
            self.config = client.json("config")
            try:
                self.version = client.call("version")
            except CommandError:
                self.version = "?"
        self.leds = parse_leds(client.call("leds"))
        if self.dirty or now - self._last_full >= STATE_EVERY_S:
            self.dirty = False
            self._last_full = now
            self.state = client.json("state")
            reply = client.send("hand")
            if reply.ok:
                self.hand = reply.json()
            elif reply.code == "nohand":
                self.hand = None
            if (self.config or {}).get("tournament"):
                reply = client.send("clock")
                self.clock = reply.json() if reply.ok else None
                self.clock_at = now

    def clock_left(self, now: float) -> int:
        """The clock's ms left now, counted down between two reads."""
        c = self.clock or {}
        left = int(c.get("ms_left", 0))
        if c.get("running"):
            left -= int((now - self.clock_at) * 1000)
        return max(0, left)

    # -- derived facts ------------------------------------------------------------------
    def seats(self) -> int:
        if self.state and self.state.get("seats"):
            return len(self.state["seats"])
        if self.config and self.config.get("seats"):
            return int(self.config["seats"])
        return 0

    def seat_rows(self) -> List[dict]:
        return list(self.state.get("seats", [])) if self.state else []

    def roles(self, seat: int, short: bool = False) -> str:
        """What the seat is in the hand: D, SB, BB, first, and a post beyond the blinds
        (its amount, or with short=True just "posted": the hand lines give it)."""
        h = self.hand
        if not h:
            return ""
        out = []
        if h.get("button") == seat:
            out.append("D" if seat in h.get("dealt", []) else "D(dead)")
        if h.get("sb") == seat:
            out.append("SB")
        if h.get("bb") == seat:
            out.append("BB")
        if h.get("kill") == seat:
            out.append("kill")
        if h.get("button_blind") == seat:
            out.append("btn blind")
        if h.get("first_to_act") == seat:
            out.append("first")
        post = (h.get("posts") or {}).get(str(seat))
        if post and seat not in (h.get("sb"), h.get("bb")):
            out.append("posted" if short else "posts " + money(post))
        return " ".join(out)


def money(pair) -> str:
    live, dead = pair
    if live and dead:
        return "%d+%d dead" % (live, dead)
    if dead:
        return "%d dead" % dead
    return "%d" % live


def hand_lines(hand: Optional[dict], drawing: bool = False) -> List[str]:
    if drawing:
        return ["DRAW for the button: press the seat that",
                "won it (space: a seat at random, u: cancel)"]
    if not hand:
        return ["no hand dealt yet: seat the players, press",
                "the next-hand button (space), then the seat",
                "that won the draw for the button"]
    dead = hand.get("button") not in hand.get("dealt", [])
    first = "hand %d: D %s%s  %s  BB %s  first to act %s" % (
        hand.get("n", 0), hand.get("button"), " (dead)" if dead else "",
        "SB %s" % hand["sb"] if hand.get("sb") is not None else "no small blind this hand",
        hand.get("bb"), hand.get("first_to_act"))
    if hand.get("kill"):
        first += "  kill %s" % hand["kill"]
    if hand.get("button_blind"):
        first += "  button blind %s" % hand["button_blind"]
    posts = hand.get("posts") or {}
    post_text = ", ".join("%s: %s" % (s, money(posts[s])) for s in sorted(posts, key=int))
    return [first, "dealt %s" % " ".join(str(s) for s in hand.get("dealt", [])),
            "posts %s" % (post_text or "-")]


def clock_lines(model: TableModel, now: float) -> List[str]:
    """The tournament clock in three short lines (none in a cash game): its title with the
    time left (and PAUSED), the level or break, what comes next."""
    c = model.clock
    if not c:
        return []
    from dealerbutton.clock.schedule import mss

    head = "tournament clock  %s%s left%s" % ("BREAK  " if c.get("break") else "",
                                             mss(model.clock_left(now)),
                                             "" if c.get("running") else "  PAUSED")
    if c.get("break"):
        first = "no hand until the break ends"
    else:
        first = "level %d  %d/%d  ante %d%s" % (
            c["level"], c["sb"], c["bb"], c["ante"],
            " (BB ante)" if c.get("ante_kind") == "bb" and c["ante"] else "")
    nxt = c.get("next")
    if nxt is None:
        second = "last level: the blinds stay"
    elif "break" in nxt:
        second = "then a break of %d min" % nxt["break"]
    else:
        second = "next: level %d  %d/%d  ante %d  (%d min)" % (
            nxt["level"], nxt["sb"], nxt["bb"], nxt["ante"], nxt.get("minutes", 0))
    return [head, first, second]


def ring_positions(leds: int, seats: int, offset: int = 0, reverse: bool = False):
    """(LED angle list by strip index, seat centre angle list by seat) in turns from the
    top, clockwise, seat 1 first, following the firmware's arcs (dealerbutton.ring): seat s owns
    logical LEDs [(s-1)*L//N, s*L//N), logical k is strip LED offset +/- k."""
    step = -1 if reverse else 1
    led_turn = [0.0] * leds
    for k in range(leds):
        led_turn[(offset + step * k) % leds] = (k + 0.5) / leds
    seat_turn = [0.0] * (seats + 1)
    for s in range(1, seats + 1):
        a, b = (s - 1) * leds // seats, s * leds // seats
        seat_turn[s] = (a + b) / 2.0 / leds
    return led_turn, seat_turn


def help_text(mode: str, seats: int, width: int = 200, drawing: bool = False,
              hint: str = "") -> str:
    """The help line: the keys of the mode (keys.py), or what a sequence of keys begun
    waits for (hint)."""
    if drawing and mode != "command":
        return "DRAW: a seat key gives the button | space: random | u: cancel | q: quit"
    if mode == "command":
        long_text = ("type a protocol command (state, sit 3, deal 1, ...) + Enter | "
                     "Tab: keys | Ctrl-C: quit")
        short = "command + Enter | Tab: keys | Ctrl-C: quit"
    elif hint:
        return hint
    else:
        last = SEAT_KEYS[max(0, min(seats, 12) - 1)]
        forms = [("1..%s: seat (1-9 0 - = are 1-12) | shift+key or l,key: long press | "
                  "space/n: next hand | u: undo | m,A,B: move A to B | k,N: kill (again: "
                  "half) | t,N: take over | c: clock (next hand held 5 s) | ':' command | "
                  "q: quit" % last),
                 ("1..%s seat | shift: long | space: next hand | u: undo | m,A,B: move | "
                  "k,N: kill | t,N: take over | c: clock | ':' command | q: quit" % last),
                 "1..%s seat|shift long|space deal|u undo|m move|k kill|t take|c clock|:cmd|"
                 "q quit" % last]
        return ([f for f in forms if len(f) < width] or forms[-1:])[0]
    return long_text if len(long_text) < width else short


# What a seat's status is called on the screen, and what the less obvious words mean.
STATUS_WORDS = {"wait": "waits for BB", "post": "will post"}
LEGEND = (("waits for BB", "waits for BB: comes in on his big blind"),
          ("moved, in", "moved, in N: changed seats, sits out N more deals"),
          ("will post", "will post: posts what he owes, then plays"))
SEAT_HEADER = "seat  status       owes       this hand"
SEAT_ROW = "%4d  %-12s %-10s %s"


def marks_text(row: dict) -> str:
    """What a seat row adds to its roles: a kill marked for the next hand, a missed ante or
    button blind among what the player owes."""
    out = []
    if row.get("kill"):
        out.append("half kill next" if row["kill"] == "half" else "kill next")
    missed = [m for m in row.get("missed") or () if m in ("ante", "button_blind")]
    if missed:
        out.append("missed " + "+".join("ante" if m == "ante" else "btn blind" for m in missed))
    return "".join(" " + t for t in out)


def status_word(row: dict) -> str:
    status = str(row.get("status", "?"))
    if status == "waiting" and row.get("wait") and row.get("choice") != "post":
        return "moved, in %d" % row["wait"]   # a mover's wait: the deals he sits out (C3)
    if status == "waiting" and row.get("choice") in STATUS_WORDS:
        return STATUS_WORDS[row["choice"]]
    return status


def title_line(model: TableModel, width: int) -> str:
    """The title and the table's facts; the facts (rules, stakes, hands) always show."""
    state = model.state or {}
    facts = ""
    if state:
        stakes = state.get("stakes") or (model.config or {}).get("stakes") or ["?", "?"]
        facts = "  rules %s  stakes %s/%s  hands %s" % (
            state.get("rules", "?"), stakes[0], stakes[1], state.get("hands", 0))
    name = model.title
    if model.version and len(name) + len(model.version) + 11 + len(facts) <= width:
        name += "  firmware " + model.version
    if len(name) + len(facts) > width:
        name = name[: max(0, width - len(facts))]
    return (name + facts).strip()


def wrap_lines(lines: List[str], width: int, indent: int = 9) -> List[str]:
    """Lines fitted to the width: a long one (the reply to `leds`, a hand with many
    posts) goes on over indented lines, broken between words."""
    out: List[str] = []
    width = max(width, indent + 10)
    for line in lines:
        if len(line) <= width:
            out.append(line)
        else:
            out.extend(textwrap.wrap(line, width, subsequent_indent=" " * indent,
                                     break_on_hyphens=False))
    return out


def fitted(lines: Sequence[Tuple[str, object]], width: int) -> List[Tuple[str, object]]:
    """Styled lines fitted to the width as wrap_lines() does, each part in its line's style."""
    return [(part, style) for line, style in lines
            for part in wrap_lines([line], width, indent=2)]


class Screen:
    """Positioned strings (y, x, text, style) cut to a width x height screen (a string that
    starts left of it loses its first characters)."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.items: List[Item] = []

    def put(self, y, x, text, style=None):
        if 0 <= y < self.height and x < self.width:
            if x < 0:
                text, x = text[-x:], 0
            self.items.append((y, x, text[: max(0, self.width - x)], style))


class Rows(NamedTuple):
    """How the rows of a screen are shared out: the seats' rows and legend, the largest
    ring the width allows, the clock's and the last hand's lines (their blocks 0 when left
    out), the device's notices and the event rows, and the rows left between the top two
    and the events (the ring's and the right-hand panel's)."""

    seat_rows: List[dict]
    legend: List[str]
    widest_ring: int
    clock_text: Sequence[Tuple[str, object]]
    clock_block: int
    hand_text: List[str]
    hand_block: int
    notice: List[str]
    log_rows: int
    room: int


def layout(model: TableModel, width: int, height: int, mode: str = "keys",
           prompt: str = "", now: Optional[float] = None, hint: str = "") -> List[Item]:
    """The whole screen as positioned strings; curses-free so tests can read it.

    Rows: the title, a connection line, then the ring (left) beside the seats, their
    legend, a tournament's clock and the last hand (right); the events below; the prompt
    and the help line at the bottom. When rows are short the events shrink to 3 lines,
    then the last hand, the legend and then the clock are left out."""
    screen = Screen(width, height)
    now = time.monotonic() if now is None else now
    screen.put(0, 0, title_line(model, width), "bold")
    if model.connection:
        screen.put(1, 0, model.connection, "error")
    rows = share_rows(model, width, height, now)
    ring_h = max(5, rows.room)
    radius = min(rows.widest_ring, max(2, (ring_h - 3) // 2))
    draw_ring(screen, model, radius, 2 + (ring_h - 1) // 2, 2 * radius + 6)
    draw_panel(screen, model, rows, 4 * radius + 15)
    draw_events(screen, model, rows)
    if mode == "command":
        screen.put(height - 2, 0, "> " + prompt, "reverse")
    screen.put(height - 1, 0, help_text(mode, model.seats(), width, model.drawing, hint),
               "reverse")
    return screen.items


def share_rows(model: TableModel, width: int, height: int, now: float) -> Rows:
    """How many rows each part of the screen takes, and what fits (see layout())."""
    rows = model.seat_rows()
    words = {status_word(row) for row in rows}
    legend = [text for word, text in LEGEND if any(w.startswith(word) for w in words)]
    # The ring's radius if rows allow: at most half the width, and room left for the seat
    # rows with their longest "this hand" ("first posted", "D SB first").
    panel_width = len(SEAT_ROW % (0, "", "", "")) + len("first posted")
    widest_ring = max(2, min((width // 2 - 13) // 4, (width - panel_width - 15) // 4))
    text_width = width - (4 * widest_ring + 15)
    hand_text = wrap_lines(hand_lines(model.hand, model.drawing), text_width, indent=6)
    hand_block = 1 + len(hand_text)
    # The clock's lines, each fitted to the panel: (text, style); its title line (with the
    # time left) in the error colour in a level's last minute.
    last_minute = 0 < model.clock_left(now) <= 60000 and (model.clock or {}).get("next")
    clock_text = [(line, ("error" if last_minute else "bold") if k == 0 else None)
                  for k, line in enumerate(clock_lines(model, now))]
    clock_block = 1 + len(fitted(clock_text, text_width)) if clock_text else 0  # + a blank
    # The device's errors, above the events until a key is pressed: never cut short.
    notice = wrap_lines(["! " + n for n in model.notices] + [DISMISS], width) \
        if model.notices else []
    fewest_log_rows = max(3, min(len(notice), height - 8))
    log_rows = max(fewest_log_rows, min(10, height // 4))
    room = height - 5 - log_rows  # title, connection; events label; prompt, help
    need = 1 + max(len(rows), 1) + len(legend) + hand_block + clock_block
    if need > room:
        log_rows = max(fewest_log_rows, log_rows - (need - room))
        room = height - 5 - log_rows
    if need > room:
        need -= hand_block
        hand_block = 0
    if need > room:
        need -= len(legend)
        legend = []
    if need > room:
        clock_block = 0
    return Rows(rows, legend, widest_ring, clock_text, clock_block, hand_text, hand_block,
                notice, log_rows, room)


def draw_ring(screen: Screen, model: TableModel, radius: int, cy: int, cx: int) -> None:
    """The ring, on the left: a circle of LED cells (2 columns each) centred on (cy, cx),
    the seat numbers round it, and in its middle the draw or the hand's positions."""
    cfg = model.config or {}
    seats = model.seats()
    nleds = len(model.leds) or int(cfg.get("leds", 0) or 0)
    if not (seats and nleds >= seats):
        screen.put(cy, 2, "(waiting for the device)", "dim")
        return
    led_turn, seat_turn = ring_positions(nleds, seats, int(cfg.get("offset", 0) or 0),
                                         cfg.get("direction") == "ccw")
    brightness = int(cfg.get("brightness", 255) or 255)
    for i, turn in enumerate(led_turn):
        a = 2 * math.pi * turn
        y = cy - int(round(radius * math.cos(a)))
        x = cx + int(round(2 * radius * math.sin(a))) - 1
        rgb = model.leds[i] if i < len(model.leds) else (0, 0, 0)
        if rgb == (0, 0, 0):
            screen.put(y, x, "..", "dim")
        else:
            screen.put(y, x, LED_GLYPH, ("led", shown(rgb, brightness)))
    for s in range(1, seats + 1):
        a = 2 * math.pi * seat_turn[s]
        y = cy - int(round((radius + 1.2) * math.cos(a)))
        x = cx + int(round(2 * (radius + 2.2) * math.sin(a)))
        label = "%d" % s
        screen.put(y, x - len(label) // 2, label, "bold")
    if model.drawing:
        for k, line in enumerate(("DRAW", "press the seat", "that won it")):
            screen.put(cy - 1 + k, cx - len(line) // 2, line, "bold" if k == 0 else None)
    elif model.hand:
        h = model.hand
        screen.put(cy - 1, cx - 3, "hand %d" % h.get("n", 0), "bold")
        if h.get("sb") is None:
            roles = "D%s BB%s, no SB" % (h.get("button"), h.get("bb"))
        else:
            roles = "D%s SB%s BB%s" % (h.get("button"), h.get("sb"), h.get("bb"))
        screen.put(cy, cx - 5, roles)


def draw_panel(screen: Screen, model: TableModel, rows: Rows, x0: int) -> None:
    """The right-hand panel from column x0: a row per seat, the legend, a tournament's
    clock and the last hand, as many of them as rows.share_rows() kept."""
    roles_width = screen.width - x0 - len(SEAT_ROW % (0, "", "", ""))
    screen.put(2, x0, SEAT_HEADER, "bold")
    for i, row in enumerate(rows.seat_rows):
        seat = int(row.get("seat", i + 1))
        owes = row.get("owes") or [0, 0]
        owes_text = money(owes) if (owes[0] or owes[1]) else "-"
        status = status_word(row)
        roles = model.roles(seat) + marks_text(row)
        if len(roles) > roles_width:
            roles = model.roles(seat, short=True) + marks_text(row)
        screen.put(3 + i, x0, SEAT_ROW % (seat, status, owes_text, roles),
                   "dim" if status == "empty" else None)
    y = 3 + max(len(rows.seat_rows), 1)
    for j, text in enumerate(rows.legend):
        screen.put(y + j, x0, text, "dim")
    y += len(rows.legend) + 1
    if rows.clock_block:    # the panel as drawn is as wide as planned, or wider
        for j, (line, style) in enumerate(fitted(rows.clock_text, screen.width - x0)):
            screen.put(y + j, x0, line, style)
        y += rows.clock_block    # its lines, a blank line
    if rows.hand_block:
        for j, line in enumerate(rows.hand_text):
            screen.put(y + j, x0, line)


def draw_events(screen: Screen, model: TableModel, rows: Rows) -> None:
    """The events at the bottom, above the prompt and help lines: the device's notices
    first, then the newest events that fit."""
    log_top = screen.height - 2 - rows.log_rows
    screen.put(log_top - 1, 0, "events", "bold")
    for j, line in enumerate(rows.notice):
        screen.put(log_top + j, 0, line, "dim" if line == DISMISS else "error")
    for j, line in enumerate(log_lines(model, screen.width, rows.log_rows - len(rows.notice))):
        screen.put(log_top + len(rows.notice) + j, 0, line,
                   "error" if (" err " in line or "* error" in line) else None)


def log_lines(model: TableModel, width: int, rows: int) -> List[str]:
    """The newest events that fit in rows, each whole (fitted to the width), oldest first;
    the last one's first rows if even it does not fit. Those shown above them as notices
    are left out."""
    shown = ["* " + n for n in model.notices]
    lines = [line for line in model.log if line[9:] not in shown]
    out: List[str] = []
    for line in reversed(lines[-rows:] if rows > 0 else []):
        wrapped = wrap_lines([line], width)
        if len(out) + len(wrapped) > rows:
            return out or wrapped[:rows]
        out = wrapped + out
    return out


def to_text(items: List[Item], width: int, height: int) -> List[str]:
    """The laid out screen as plain text lines."""
    grid = [[" "] * width for _ in range(height)]
    for y, x, text, _style in items:
        for k, ch in enumerate(text):
            if 0 <= x + k < width:
                grid[y][x + k] = ch
    return ["".join(row).rstrip() for row in grid]


# -- curses -------------------------------------------------------------------------------
class _Colours:
    def __init__(self):
        self.ok = curses.has_colors()
        self.many = False
        self.pairs: Dict[int, int] = {}
        if self.ok:
            try:
                curses.start_color()
                curses.use_default_colors()
            except curses.error:
                pass
            self.many = curses.COLORS >= 256

    def attr(self, style) -> int:
        if style is None:
            return curses.A_NORMAL
        if style == "bold":
            return curses.A_BOLD
        if style == "dim":
            return curses.A_DIM
        if style == "reverse":
            return curses.A_REVERSE
        if style == "error":
            return curses.A_BOLD | self._pair(1 if not self.many else 196, fg=True)
        if isinstance(style, tuple) and style[0] == "led":
            rgb = style[1]
            if not self.ok:
                return curses.A_REVERSE if sum(rgb) > 200 else curses.A_NORMAL
            colour = xterm256(rgb) if self.many else basic8(rgb)
            return self._pair(colour)
        return curses.A_NORMAL

    def _pair(self, colour: int, fg: bool = False) -> int:
        if not self.ok:
            return curses.A_NORMAL
        key = colour + (1000 if fg else 0)
        if key not in self.pairs:
            n = len(self.pairs) + 1
            if n >= curses.COLOR_PAIRS:
                return curses.A_REVERSE
            try:
                if fg:
                    curses.init_pair(n, colour, -1)
                else:
                    curses.init_pair(n, colour, colour)  # a solid cell of the LED's colour
            except curses.error:
                return curses.A_REVERSE
            self.pairs[key] = n
        return curses.color_pair(self.pairs[key])


def draw(stdscr, colours: _Colours, items: List[Item]) -> None:
    stdscr.erase()
    height, width = stdscr.getmaxyx()
    for y, x, text, style in items:
        if y >= height or x >= width:
            continue
        text = text[: width - x]
        if y == height - 1 and x + len(text) >= width:
            text = text[: max(0, width - x - 1)]  # the last cell cannot be written
        if not text:
            continue
        try:
            stdscr.addstr(y, x, text, colours.attr(style))
        except curses.error:
            pass
    stdscr.noutrefresh()
    curses.doupdate()


class Connector:
    """How the view gets (and after a loss, gets again) its client."""

    def __init__(self, connect: Callable[[], Client], describe: str, reconnect: bool,
                 extra_poll: Optional[Callable[[TableModel], None]] = None):
        self.connect = connect
        self.describe = describe
        self.reconnect = reconnect
        self.extra_poll = extra_poll


def run(connector: Connector, model: TableModel, start_mode: str = "keys",
        can_quit_with_q: bool = True) -> int:
    """The interactive view; always gives the terminal back in its old state."""
    need_terminal()
    try:
        return curses.wrapper(lambda stdscr: LiveView(stdscr, connector, model, start_mode,
                                                      can_quit_with_q).run())
    except curses.error as e:
        raise NoTerminal("the terminal cannot show the live view (TERM=%s: %s)"
                         % (os.environ.get("TERM", ""), e)) from None


class LiveView:
    """The view on a curses screen until quit: it connects to the device (again after a
    loss, when the connector reconnects), polls it, redraws when something changed, and
    turns keys into button presses, or, in command mode, into typed protocol commands."""

    def __init__(self, stdscr, connector: Connector, model: TableModel, start_mode: str,
                 can_quit_with_q: bool):
        self.stdscr = stdscr
        self.connector = connector
        self.model = model
        self.can_quit_with_q = can_quit_with_q
        self.mode = start_mode
        self.prompt = ""
        self.history: List[str] = []
        self.keys = KeySequence()
        self.client: Optional[Client] = None
        self.attempted = False
        self.next_try = 0.0
        self.next_refresh = 0.0
        self.redraw = True

    def run(self) -> int:
        """The loop: the exit status when the user quits (0)."""
        try:
            curses.curs_set(0)
        except curses.error:
            pass
        self.stdscr.keypad(True)
        self.stdscr.timeout(30)
        colours = _Colours()
        try:
            while True:
                now = time.monotonic()
                self.connect_when_due(now)
                if self.connector.extra_poll:
                    self.connector.extra_poll(self.model)
                self.poll(now)
                if self.redraw:
                    height, width = self.stdscr.getmaxyx()
                    draw(self.stdscr, colours, layout(self.model, width, height, self.mode,
                                                      self.prompt, hint=self.keys.hint()))
                    self.redraw = False
                try:
                    key = self.stdscr.get_wch()
                except curses.error:
                    continue
                status = self.on_key(key)
                if status is not None:
                    return status
        except KeyboardInterrupt:
            return 0
        finally:
            if self.client is not None:
                self.client.close()

    def connect_when_due(self, now: float) -> None:
        """Connect when there is no client: once, or every half second when the connector
        reconnects (every 3 s to a port that answers but is not the app)."""
        model, connector = self.model, self.connector
        if not (self.client is None and now >= self.next_try
                and (connector.reconnect or not self.attempted)):
            return
        self.attempted = True
        self.next_try = now + 0.5
        try:
            client = self.client = connector.connect()
            client.on_event = model.on_event
            client.on_other = model.on_other
            model.connection = ""
            model.config = None
            model.dirty = True
            model.drawing = False
            model.note("connected to %s" % connector.describe)
            for line in client.take_events():  # its start-up lines among them
                model.on_event(line)
        except DeviceError as e:
            if not connector.reconnect:
                model.connection = "cannot start the device: %s (q to quit)" % e
                model.note(model.connection)
            elif isinstance(e, DeviceClosed) and e.absent:  # no port (yet)
                model.connection = "disconnected; waiting for %s" % connector.describe
            else:  # a port it cannot use, or not the app: say why
                model.connection = "disconnected; waiting for %s (%s)" % (
                    connector.describe, e)
                if not isinstance(e, DeviceClosed):
                    self.next_try = now + 3.0  # there, but not the app: do not spam it
        self.redraw = True

    def poll(self, now: float) -> None:
        """Read what the device sent, and refresh the model from it when due."""
        if self.client is None:
            return
        try:
            if self.client.poll(0):
                self.redraw = True
            if now >= self.next_refresh:
                self.next_refresh = now + REFRESH_S
                self.model.refresh(self.client, now)
                self.redraw = True
        except DeviceClosed as e:
            self.lost(str(e))
            self.redraw = True
        except DeviceError as e:
            self.model.note("! %s" % e)
            self.next_refresh = now + 1.0
            self.redraw = True

    def lost(self, why: str) -> None:
        if self.client is not None:
            self.client.close()
        self.client = None
        model = self.model
        if self.connector.reconnect:  # a board that resets: its port goes away and comes back
            model.connection = "disconnected; waiting for %s" % self.connector.describe
        else:
            model.connection = "device stopped: %s (q to quit)" % why
        model.note(model.connection)

    def send(self, command: str) -> None:
        model = self.model
        if self.client is None:
            model.note("not connected: %s not sent" % command)
            return
        hands_before = model.hands_seen
        try:
            reply = self.client.send(command)
        except DeviceClosed as e:
            self.lost(str(e))
            return
        except DeviceError as e:
            model.note("! %s" % e)
            return
        model.pressed(command, reply, hands_before)
        if not (reply.ok and command.startswith(("press", "hold"))) or reply.payload:
            model.note("> %s  ->  %s" % (command, reply.line))
        model.dirty = True

    def on_key(self, key) -> Optional[int]:
        """A key pressed: the exit status if it quits, else None."""
        self.redraw = True
        if key == curses.KEY_RESIZE:
            return None
        if self.model.notices:  # the key that dismisses the device's errors does only that
            self.model.dismiss()
            return None
        if self.mode == "command":
            return self.on_command_key(key)
        if not isinstance(key, str):
            return None
        if key == "\x1b":
            self.keys.cancel()
            return None
        if key in ("q", "Q", "\x04") and self.can_quit_with_q:
            return 0
        if key in (":", "\t"):
            self.mode = "command"
            self.keys.cancel()
            return None
        command = self.keys.key(key, self.model)
        if command:
            self.send(command)
        return None

    def on_command_key(self, key) -> Optional[int]:
        """A key at the command prompt: Enter sends the line (quit, exit: the view ends),
        Tab or Esc goes back to the keys, Up brings the last command back."""
        if key in ("\n", "\r", curses.KEY_ENTER):
            command = self.prompt.strip()
            self.prompt = ""
            if command in ("quit", "exit"):
                return 0
            if command:
                self.history.append(command)
                self.send(command)
        elif key in ("\t", "\x1b"):
            self.mode = "keys"
        elif key in (curses.KEY_BACKSPACE, "\x7f", "\b"):
            self.prompt = self.prompt[:-1]
        elif key == curses.KEY_UP and self.history:
            self.prompt = self.history[-1]
        elif key == "\x04":
            return 0
        elif isinstance(key, str) and key.isprintable():
            self.prompt += key
        return None
