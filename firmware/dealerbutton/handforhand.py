"""Hand-for-hand play (a tournament near the money): while the room has the mode on, the
next-hand button's short press says "our hand is over" instead of dealing, and the table
waits for the room's `deal`, which every table gets at once.

A HandForHand is made at the first `handforhand` command (switch()): a table that never plays
hand-for-hand never loads this module. Nothing of it is saved: a table that restarts plays
as usual until the room sends the mode again.
"""

from dealerbutton import ring as ringmod


def switch(app, on):
    """The `handforhand on|off` command: the app's HandForHand (made the first time) switched;
    the reply."""
    if app.hand_for_hand is None:
        app.hand_for_hand = HandForHand(app)
    return app.hand_for_hand.switch(on)


class HandForHand:
    """The table's hand-for-hand mode (on) and its hand being over, the table waiting for
    the room's deal (waiting), with the ring's look for it (ring.WAITING)."""

    def __init__(self, app):
        self.app = app
        self.on = False
        self.waiting = False

    def switch(self, on):
        """`handforhand on|off`: the reply; an event when the mode changes. Off ends a wait
        without dealing: the next-hand button deals again."""
        if on != self.on:
            self.on = on
            if self.waiting:
                self._wait(False)
            self.app.write("* handforhand " + ("on" if on else "off"))
        return "ok"

    def hand_over(self):
        """The next-hand button's short press while the mode is on: the hand is over and the
        table waits. Pressed again while it waits: nothing more."""
        if not self.waiting:
            self._wait(True)
            self.app.write("* handforhand waiting")
        return "ok over"

    def cancel(self):
        """The next-hand button's long press while the table waits: the hand is not over
        after all (nothing is undone at the table)."""
        self._wait(False)
        self.app.write("* handforhand playing")
        return "ok cancel"

    def dealt(self):
        """A deal ends the wait (its `* hand` event says so; the App's deal puts the ring
        back to NORMAL)."""
        self.waiting = False

    def _wait(self, waiting):
        self.waiting = waiting
        self.app.ring.mode = ringmod.WAITING if waiting else ringmod.NORMAL
        self.app.render_due = True
