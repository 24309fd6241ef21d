"""What each undoable event of the table was, so that an undo can say what it undid
(`* undo sit 3`, `* undo deal (hand 4)`): the table (rules.py) keeps the states to go
back to, this the events' names, newest last, as deep as the table's own history."""

from dealerbutton.rules import UNDO_DEPTH

# The table events the history names, and their options.
EVENTS = ("sit", "away", "back", "choose", "leave", "deal", "level")
OPTIONS = (None, "post", "wait")


class History:
    def __init__(self):
        # Each event kept, by its index in the ring: its name, its seat, its option (as
        # indexes into EVENTS and OPTIONS; seat 0: none).
        self.event = bytearray(UNDO_DEPTH)
        self.seat = bytearray(UNDO_DEPTH)
        self.option = bytearray(UNDO_DEPTH)
        self.count = 0   # how many are kept (at most UNDO_DEPTH)
        self.top = 0     # where the next one goes (a ring of UNDO_DEPTH)

    def remember(self, event, seat, option):
        """An accepted event (no allocation: three bytes)."""
        i = self.top
        self.event[i] = EVENTS.index(event)
        self.seat[i] = seat or 0
        self.option[i] = OPTIONS.index(option) if option in OPTIONS else 0
        self.top = (self.top + 1) % UNDO_DEPTH
        if self.count < UNDO_DEPTH:
            self.count += 1

    def undone(self, hands):
        """The event the table has just undone, in words ("sit 3", "deal (hand 4)"), taken
        off the history; hands: the hands dealt now (after the undo)."""
        if not self.count:
            return "an event from before the last start"   # not kept across a power cut
        self.count -= 1
        self.top = (self.top - 1) % UNDO_DEPTH
        i = self.top
        event = EVENTS[self.event[i]]
        seat = self.seat[i]
        option = OPTIONS[self.option[i]]
        if event == "deal":
            return "deal%s (hand %d)" % (" %d" % seat if seat else "", hands + 1)
        if event == "level":
            return "level %d (the clock's level is played again from the next deal)" % seat
        return "%s %d%s" % (event, seat, " " + option if option else "")
