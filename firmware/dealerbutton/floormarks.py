"""The floor's marks on a table's seats during a move between tables (`reserve N`,
`release N`): a seat kept for a player coming, a player about to go.

They are the device's, not the table's: shown and reported, never saved, never undone, and
each one goes as soon as the table makes it moot (the kept seat taken, the player gone)."""

from dealerbutton.rules.words import MARKS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A seat's mark: its index in words.MARKS.
NO_MARK = const(0)
RESERVED = const(1)   # an empty seat kept for a player moving in
MOVING = const(2)     # a seated player about to move out


class FloorMarks:
    """Each seat's mark (marks[seat], an index in words.MARKS), as the floor set them."""

    def __init__(self, seats):
        self.by_seat = bytearray(seats + 1)

    def __getitem__(self, seat):
        return self.by_seat[seat]

    def __setitem__(self, seat, mark):
        self.by_seat[seat] = mark

    def __len__(self):
        return len(self.by_seat)

    def change(self, seat, reserve, status):
        """`reserve N` (reserve: True: reserved on an empty seat, moving on a player) or
        `release N`, on a seat whose status is `status`: (the refusal, or None; the mark's
        word for the event)."""
        had = self.by_seat[seat]
        if not reserve:
            if had == NO_MARK:
                return "err rule seat %d has no mark: nothing to release" % seat, None
            mark = NO_MARK
        elif had != NO_MARK:
            return "err rule seat %d is %s already: release it first" % (seat, MARKS[had]), None
        else:
            mark = RESERVED if status == "empty" else MOVING
        self.by_seat[seat] = mark
        return None, MARKS[mark]

    def holds(self, seat, status):
        """The seat's mark, or NO_MARK if the seat's status has made it moot (a reserved
        seat taken, a moving player gone)."""
        mark = self.by_seat[seat]
        if mark != NO_MARK and (mark == RESERVED) == (status == "empty"):
            return mark
        return NO_MARK

    def drop_if_moot(self, seat, status):
        """The seat's mark dropped if its status made it moot: True if one was."""
        if self.by_seat[seat] != NO_MARK and self.holds(seat, status) == NO_MARK:
            self.by_seat[seat] = NO_MARK
            return True
        return False
