"""A table in this process: the firmware's App with emulated buttons and a capture strip,
driven by simulated time. The card-room benchmark runs hundreds of these; the bridge's
tests use one as a device.

    t = SimTable(seats=9, on_event=print)
    t.send("sit 3")           # a protocol command -> its reply line
    t.press(4)                # seat 4's button pushed and let go (through debounce)
"""

from __future__ import annotations

from typing import Callable, List, Optional

from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store import config

from ..device.client import DeviceError

PRESS_MS = 80  # held this long: past the 50 ms debounce, well short of a long press
STEP_MS = 10


class Pin:
    """An emulated button (value 0 while pressed, as with the pull-up)."""

    def __init__(self):
        self.down = False

    def value(self):
        return 0 if self.down else 1


class SimTable:
    def __init__(self, seats: int = 9, rules: str = "dead",
                 on_event: Optional[Callable[[str], None]] = None, seed: int = 1):
        cfg, errors = config.validate({"seats": seats, "leds": max(24, seats * 2),
                                       "rules": rules})
        if errors:
            raise ValueError("; ".join(errors))
        self.pins = [Pin() for _ in range(seats + 1)]
        self.strip = CaptureStrip(cfg["leds"])
        self.on_event = on_event
        self.replies: List[str] = []
        self.now = 0
        state = [seed * 7919 + 1]

        def rng(n):  # a small LCG: the same table for the same seed
            state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
            return (state[0] >> 8) % n

        self.app = App(cfg, self.strip, self.pins, self._write, rng=rng, now_ms=0)
        self.seats = seats
        self.closed = False

    def _write(self, line: str) -> None:
        if line.startswith("* "):
            if self.on_event:
                self.on_event(line)
        else:
            self.replies.append(line)

    def send(self, line: str) -> str:
        """One protocol command, as the serial line would carry it: its reply line."""
        if self.closed:
            raise DeviceError("the simulated table is switched off")
        self.replies.clear()
        self.app.feed(line.encode("ascii", "replace") + b"\n")
        if len(self.replies) != 1:
            raise DeviceError("%d replies to %r" % (len(self.replies), line))
        return self.replies[0]

    def advance(self, ms: int) -> None:
        """Let `ms` of time pass, ticking the App as the board's loop does."""
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + STEP_MS)
            self.app.tick(self.now)

    def press(self, seat: int, hold_ms: int = PRESS_MS) -> None:
        """Push seat's button (0: next hand) for hold_ms and let go, then let the
        debounce settle: the App acts on it as on a finger."""
        self.pins[seat].down = True
        self.advance(hold_ms)
        self.pins[seat].down = False
        self.advance(80)

    def status(self, seat: int) -> str:
        return self.app.table.status(seat)
