"""`dealerbutton clock`: the tournament clock full screen, in large digits, for a screen at
the table: the level, the blinds and ante, the time left, the next level, breaks.

It asks the device `clock` once a second (at once after a `* level`, `* break` or
`* clock` event) and counts the seconds down itself in between. ClockModel follows the
device; layout() turns it into positioned strings (pure, testable without a terminal);
run() draws them with curses, and reconnects when the board resets.
"""

from __future__ import annotations

import curses
import json
import os
import sys
import time
from typing import Callable, List, Optional, Tuple

from dealerbutton.clock.schedule import mss

from .client import Client, DeviceClosed, DeviceError
from .view import Item, _Colours, draw

POLL_S = 1.0        # the device is asked this often
RETRY_S = 3.0       # after a refused `clock`, or a port that is there but not the app
FLASH_S = 10.0      # a new level's blinds stand out this long
REDRAW_S = 0.2      # the seconds turn over on time
PIXEL = "\u2588" if "utf" in (sys.stdout.encoding or "").lower() else "#"

# Large characters, 5 rows high: '#' is a lit pixel.
FONT = {
    "0": ("###", "# #", "# #", "# #", "###"),
    "1": (" # ", "## ", " # ", " # ", "###"),
    "2": ("###", "  #", "###", "#  ", "###"),
    "3": ("###", "  #", " ##", "  #", "###"),
    "4": ("# #", "# #", "###", "  #", "  #"),
    "5": ("###", "#  ", "###", "  #", "###"),
    "6": ("###", "#  ", "###", "# #", "###"),
    "7": ("###", "  #", "  #", " # ", " # "),
    "8": ("###", "# #", "###", "# #", "###"),
    "9": ("###", "# #", "###", "  #", "###"),
    ":": (" ", "#", " ", "#", " "),
    "/": ("  #", "  #", " # ", "#  ", "#  "),
    " ": ("  ", "  ", "  ", "  ", "  "),
    "A": ("###", "# #", "###", "# #", "# #"),
    "B": ("## ", "# #", "## ", "# #", "## "),
    "E": ("###", "#  ", "## ", "#  ", "###"),
    "K": ("# #", "# #", "## ", "# #", "# #"),
    "R": ("## ", "# #", "## ", "# #", "# #"),
}
ANTE_KINDS = {"each": "every player", "bb": "big-blind ante", "button": "dealer ante"}


class NoClock(DeviceError):
    """The device does not know the `clock` command."""


class NoTerminal(DeviceError):
    """There is no terminal to draw on (reported like a device problem: one line)."""


# -- large characters -------------------------------------------------------------------
def big_width(text: str, sx: int) -> int:
    pixels = sum(len(FONT.get(ch, FONT[" "])[0]) for ch in text) + max(0, len(text) - 1)
    return pixels * sx


def big_rows(text: str, sx: int, sy: int, pixel: str = PIXEL) -> List[str]:
    """text in FONT, each pixel sx columns wide and sy rows high, one column of pixels
    between characters."""
    rows = []
    for r in range(5):
        parts = []
        for ch in text:
            glyph = FONT.get(ch, FONT[" "])
            parts.append("".join(pixel * sx if p == "#" else " " * sx for p in glyph[r]))
        rows.append((" " * sx).join(parts))
    return [row for row in rows for _ in range(sy)]


def fit(text: str, width: int, rows: int, max_sy: int = 1000) -> Tuple[int, int]:
    """The largest scale (sx, sy) at which text fits: pixels twice as wide as high (a
    terminal cell is about twice as high as wide), or down to 1.5 times where the width
    is short, else 1x1; (0, 0) if it does not fit."""
    for sy in range(min(rows // 5, max_sy), 0, -1):
        for sx in range(2 * sy, (3 * sy + 1) // 2 - 1, -1):
            if big_width(text, sx) <= width:
                return sx, sy
    if rows >= 5 and big_width(text, 1) <= width:
        return 1, 1
    return 0, 0


# -- the model --------------------------------------------------------------------------
FIELDS = (("level", int), ("sb", int), ("bb", int), ("ante", int), ("ante_kind", str),
          ("break", bool), ("ms_left", int), ("running", bool))


def parse_clock(payload: str) -> dict:
    """The `clock` reply's JSON, checked; ValueError says what is wrong."""
    try:
        d = json.loads(payload)
    except ValueError:
        raise ValueError("the clock reply is not JSON: %r" % payload[:60]) from None
    if not isinstance(d, dict):
        raise ValueError("the clock reply is not a JSON object: %r" % payload[:60])
    for name, kind in FIELDS:
        v = d.get(name)
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            raise ValueError("the clock reply has no %s: %r" % (name, payload[:60]))
    nxt = d.get("next")
    if nxt is not None and not (isinstance(nxt, dict) and (
            isinstance(nxt.get("break"), int)
            or all(isinstance(nxt.get(k), int) for k in ("level", "sb", "bb", "ante")))):
        raise ValueError("the clock reply's next level is not understood: %r" % (nxt,))
    return d


class ClockModel:
    """What the screen knows of the device's clock, kept up to date through a Client."""

    def __init__(self, title: str = "dealerbutton clock"):
        self.title = title
        self.clock: Optional[dict] = None
        self.got_at = 0.0       # when the clock was read (time.monotonic())
        self.error = ""         # what the device said instead of its clock
        self.connection = ""    # "" when connected, else what is going on
        self.last_event = ""
        self.flash_until = 0.0
        self.due = True         # ask the device now
        self.next_poll = 0.0

    def on_event(self, line: str, now: Optional[float] = None) -> None:
        if line.startswith(("* level ", "* break ", "* clock ")):
            now = time.monotonic() if now is None else now
            self.last_event = line[2:]
            self.due = True
            if not line.startswith("* clock "):
                self.flash_until = now + FLASH_S

    def refresh(self, client: Client, now: Optional[float] = None) -> bool:
        """Ask the device for its clock when due; True if it was asked."""
        now = time.monotonic() if now is None else now
        if not self.due and now < self.next_poll:
            return False
        self.due = False
        self.next_poll = now + POLL_S
        reply = client.send("clock")
        if reply.ok:
            try:
                self.clock = parse_clock(reply.payload)
                self.got_at = now
                self.error = ""
            except ValueError as e:
                self.error = str(e)
                self.next_poll = now + RETRY_S
        elif reply.code == "unknown":
            raise NoClock("%s has no tournament clock (it answers: err unknown command "
                          "clock): its firmware is older than the clock; update it with "
                          "`dealerbutton deploy`" % client.name)
        elif reply.bad:
            raise DeviceError("%s: not a protocol reply to 'clock': %r (is the app running?)"
                              % (client.name, reply.line[:60]))
        else:
            self.clock = None
            self.error = "the device says: %s" % reply.message
            self.next_poll = now + RETRY_S
        return True

    def ms_left(self, now: float) -> int:
        c = self.clock
        if not c:
            return 0
        if not c["running"]:
            return c["ms_left"]
        return max(0, c["ms_left"] - int((now - self.got_at) * 1000))


def next_text(c: dict, first: str = "next: ") -> str:
    nxt = c.get("next")
    if nxt is None:
        return "last level: the blinds stay"
    if "break" in nxt:
        return first + "break, %d min" % nxt["break"]
    return first + "level %d   %d/%d   ante %d   (%d min)" % (
        nxt["level"], nxt["sb"], nxt["bb"], nxt["ante"], nxt.get("minutes", 0))


class Screen:
    """Positioned strings (y, x, text, style), each cut to a width x height screen."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.items: List[Item] = []

    def put(self, y, x, text, style=None):
        if 0 <= y < self.height and 0 <= x < self.width and text:
            self.items.append((y, x, text[: self.width - x], style))

    def centre(self, y, text, style=None):
        self.put(y, max(0, (self.width - len(text)) // 2), text, style)

    def block(self, y, text, sx, sy, style) -> int:
        """text in large characters (plain if it does not fit) from row y; the next row."""
        for row in big_rows(text, sx, sy) if sy else [text]:
            self.centre(y, row, style)
            y += 1
        return y


def layout(model: ClockModel, width: int, height: int, now: float) -> List[Item]:
    """The whole screen as positioned strings; curses-free so tests can read it."""
    screen = Screen(width, height)
    screen.put(0, 0, model.title, "bold")
    if model.clock is None:
        screen.centre(height // 2, "(waiting for the clock)", "dim")
    else:
        draw_clock(screen, model, model.clock, now)
    footer(screen, model)
    return screen.items


def draw_clock(screen: Screen, model: ClockModel, c: dict, now: float) -> None:
    """The level, the time left and the blinds in large characters, then the ante and the
    next level, centred between the title and the footer."""
    width, height = screen.width, screen.height
    ms = model.ms_left(now)
    on_break = c["break"]
    paused = not c["running"]
    label = ("BREAK" if on_break else "LEVEL %d" % c["level"]) + ("   PAUSED" if paused else "")
    time_text = mss(ms)
    if on_break:
        big2, small = "BREAK", next_text(c, "then ")
    else:
        big2 = "%d/%d" % (c["sb"], c["bb"])
        small = "ante %d (%s)" % (c["ante"], ANTE_KINDS.get(c["ante_kind"], c["ante_kind"]))
        if not c["ante"]:
            small = "no ante"
    below = [small, "" if on_break else next_text(c)]

    # Rows: title, label, [gap, time, gap, blinds], the text lines, footer.
    rows = height - 4 - len(below)
    time_sx, time_sy = fit(time_text, width, rows - 5 if rows >= 10 else rows)
    used = 5 * time_sy if time_sy else 1
    b_sx, b_sy = fit(big2, width, rows - used - 1, time_sy or 1000)
    used += 1 + (5 * b_sy if b_sy else 1)
    y = 2 + max(0, (rows - used) // 2)

    screen.centre(1, label, "reverse" if paused else "bold")
    y = screen.block(y, time_text, time_sx, time_sy, time_style(model, c, ms, now)) + 1
    y = screen.block(y, big2, b_sx, b_sy, "error" if now < model.flash_until else "bold")
    for line in below:
        if y < height - 1:
            screen.centre(y, line, "bold")
        y += 1


def time_style(model: ClockModel, c: dict, ms: int, now: float) -> str:
    """The time left blinks while paused, shows red in the last minute before a new level,
    and dims while the device is not heard (the time last heard of)."""
    if model.connection:
        return "dim"  # the last time heard of: the device may have paused meanwhile
    paused = not c["running"]
    if paused:
        return "bold" if int(now) % 2 == 0 else "dim"  # blinks while paused
    coming = c.get("next") is not None and ms <= 60000
    return "error" if coming else "bold"


def footer(screen: Screen, model: ClockModel) -> None:
    """The last line: what is wrong, else the last clock event; and how to quit."""
    width, height = screen.width, screen.height
    keys = "q: quit"
    room = max(0, width - len(keys) - 2)
    if model.connection or model.error:
        screen.put(height - 1, 0, (model.connection or model.error)[:room], "error")
    elif model.last_event:
        screen.put(height - 1, 0, ("last: " + model.last_event)[:room], "dim")
    screen.put(height - 1, max(0, width - len(keys) - 1), keys, "reverse")


# -- the screen ---------------------------------------------------------------------------
def run(connect: Callable[[], Client], model: ClockModel) -> int:
    """The full-screen clock until q; always gives the terminal back in its old state.
    NoClock ends it (after the terminal is restored) for the caller to report."""
    return curses.wrapper(_loop, connect, model)


def _loop(stdscr, connect, model: ClockModel) -> int:
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    stdscr.timeout(int(REDRAW_S * 1000))
    colours = _Colours()
    client: Optional[Client] = None
    next_try = 0.0

    def lost(why: str):
        nonlocal client
        if client is not None:
            client.close()
        client = None
        model.connection = "disconnected: %s; waiting for the device to come back" % why

    try:
        while True:
            now = time.monotonic()
            if client is None and now >= next_try:
                next_try = now + 0.5
                try:
                    fresh = connect()
                    fresh.on_event = model.on_event
                    client = fresh
                    model.connection = ""
                    model.due = True
                except DeviceError as e:
                    if model.clock is None:
                        model.connection = "waiting for the device: %s" % e
                    else:
                        model.connection = ("disconnected: %s; waiting for the device to come "
                                            "back" % e)
                    if not isinstance(e, DeviceClosed):
                        next_try = now + RETRY_S  # there, but not the app: do not spam it
            if client is not None:
                try:
                    client.poll(0)
                    model.refresh(client, now)
                except NoClock:
                    raise
                except DeviceClosed as e:
                    lost(str(e))
                except DeviceError as e:
                    model.error = str(e)
                    model.next_poll = now + RETRY_S
            height, width = stdscr.getmaxyx()
            draw(stdscr, colours, layout(model, width, height, now))
            try:
                key = stdscr.get_wch()
            except curses.error:
                continue
            if key in ("q", "Q", "\x04"):
                return 0
    except KeyboardInterrupt:
        return 0
    finally:
        if client is not None:
            client.close()


def main(port: str, timeout: float = 5.0) -> int:
    def connect() -> Client:
        return Client.connect(port, timeout)

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise NoTerminal("the clock is drawn on a terminal: run it in one, with its input "
                         "and output not redirected")
    try:
        return run(connect, ClockModel("dealerbutton clock  %s" % port))
    except curses.error as e:
        raise NoTerminal("this terminal cannot show the clock (TERM=%s): %s"
                         % (os.environ.get("TERM", ""), e)) from None
