"""The keys of the live view (`emulate`, `monitor`) in keys mode: each key, or a short
sequence of keys, turned into the protocol command that the same button, or chord of
buttons, gives on the board.

    1..9 0 - =        short press of seat 1..12
    shift (! .. +)    long press of that seat; or l, then the seat key
    space or n        short press of the next-hand button; u: its long press (undo)
    m, seat A, seat B a seat change: A held, then B pressed (move A B)
    k, seat           the next-hand button held, then the seat pressed: a kill, or a half
                      kill when that seat's player is marked for a full one already
    t, seat           a take-over (take N): no button does it on the board
    c                 the next-hand button held 5 s: the tournament clock paused, or started

A key that does not go on with a sequence ends it and counts as itself; Esc ends it.
"""

from typing import Optional

SEAT_KEYS = "1234567890-="  # short press of seats 1..12
LONG_KEYS = "!@#$%^&*()_+"  # the same keys with shift: long press
# the first key of a sequence, and what the help line asks for next
SEQUENCES = {
    "l": "long press: the seat",
    "m": "move: the seat the player leaves",
    "k": "kill: the seat of the player (the same again: a half kill)",
    "t": "take over: the seat a new player takes",
}


class KeySequence:
    """Keys typed in keys mode -> protocol commands, with the sequence begun so far."""

    def __init__(self):
        self.pending = ""   # the keys of an unfinished sequence: "", "m", "m3", "k", ...

    def hint(self) -> str:
        """What the help line says while a sequence waits for its next key."""
        if not self.pending:
            return ""
        if len(self.pending) > 1:
            return "move from seat %s: the empty seat he goes to | Esc: cancel" % self.pending[1:]
        return SEQUENCES[self.pending] + " | Esc: cancel"

    def cancel(self) -> None:
        self.pending = ""

    def key(self, ch: str, model) -> Optional[str]:
        """The command for a key (None: nothing to send); model is the view's TableModel."""
        seats = model.seats()
        seat = SEAT_KEYS.index(ch) + 1 if ch and ch in SEAT_KEYS else 0
        if seat > seats:
            seat = 0
        pending, self.pending = self.pending, ""
        if pending and seat:
            return self.sequel(pending, seat, model)
        if ch in SEQUENCES:
            self.pending = ch
            return None
        if ch in (" ", "n"):
            return "press 0"
        if ch == "u":
            return "hold 0"
        if ch == "c":
            running = (model.clock or {}).get("running")
            return "clock pause" if running else "clock resume"
        if seat:
            return "press %d" % seat
        if ch and ch in LONG_KEYS and LONG_KEYS.index(ch) < seats:
            return "hold %d" % (LONG_KEYS.index(ch) + 1)
        return None

    def sequel(self, pending: str, seat: int, model) -> Optional[str]:
        """The seat key that goes on with a sequence."""
        if pending == "l":
            return "hold %d" % seat
        if pending == "m":
            self.pending = "m%d" % seat
            return None
        if pending.startswith("m"):
            return "move %s %d" % (pending[1:], seat)
        if pending == "k":
            rows = [r for r in model.seat_rows() if r.get("seat") == seat]
            marked = rows and rows[0].get("kill") == "full"
            return "kill %d half" % seat if marked else "kill %d" % seat
        return "take %d" % seat
