"""What each undoable event of the table was, so that an undo can say what it undid
(`* undo sit 3`, `* undo deal (hand 4)`): the table (rules/undo.py) keeps the states to go back
to, this the events' names, newest last, as deep as the table's own history."""

from dealerbutton.rules.undo import DEPTH


class History:
    def __init__(self):
        self.events = []   # (event, seat or 0, option or None), newest last

    def remember(self, event, seat, option):
        """An event the table accepted."""
        if len(self.events) == DEPTH:
            self.events.pop(0)
        self.events.append((event, seat or 0, option))

    def undone(self, hands):
        """The event the table has just undone, in words ("sit 3", "deal (hand 4)"), taken
        off the history; hands: the hands dealt now (after the undo)."""
        if not self.events:
            return "an event from before the last start"   # not kept across a power cut
        event, seat, option = self.events.pop()
        if event == "deal":
            return "deal%s (hand %d)" % (" %d" % seat if seat else "", hands + 1)
        if event == "level" and option is None:
            return "level %d (the clock's level is played again from the next deal)" % seat
        if event == "level":
            small, big, ante, kind = option
            return "level %d/%d%s" % (small, big, " ante %d %s" % (ante, kind) if ante else "")
        return "%s %d%s" % (event, seat, " %s" % option if option else "")
