"""Two buttons held together (a chord): one held, then another pressed and let go while the
first is still held. The panel (panel.py) reports each button going down and coming up;
this tells the handler what the chord was:

    handler.chord(first, second, ok)

A chord starts when a button goes down while another has been held at least hold_ms; two
buttons that go down closer together than that are two presses (two players sitting down at
once), never a chord. ok is True for a chord done right: `second` let go while `first` is
still held, and no third button in it. Otherwise (the held one let go first, a third
button, the next-hand button as the second) it is refused. Either way the buttons of a
chord give no press of their own when let go: a chord is never taken for a sit, an away,
a leave or an undo."""

from dealerbutton.ticks import ticks_diff


class Chords:
    hold_ms = 300   # the first button held this long before the second one goes down

    def __init__(self, buttons, handler):
        self.buttons = buttons    # buttons.Button, by index
        self.handler = handler
        self.first = -1           # the held button of the chord going on, or -1
        self.second = -1          # the button pressed while it was held, or -1
        self.ok = False           # ... pressed after hold_ms, and nothing else in it

    def down(self, i):
        """Button i went down (debounced)."""
        if self.first < 0:
            held = self._held_other(i)
            if held < 0 or ticks_diff(self.buttons[i].down_at,
                                      self.buttons[held].down_at) < self.hold_ms:
                return   # no other button held, or pressed together: two presses
            self.first = held
            self.buttons[held].disarm()
        elif self.second >= 0 or i == self.first:
            self.ok = False   # a third button: the chord is refused when it ends
            self.buttons[i].disarm()
            return
        self.second = i
        self.buttons[i].disarm()
        self.ok = i != 0

    def up(self, i):
        """Button i came up (debounced)."""
        if i == self.second:
            if self.first >= 0:
                self.handler.chord(self.first, self.second, self.ok)
            self.second = -1   # the first may still take another second (a kill, again)
        elif i == self.first:
            if self.second >= 0:
                self.handler.chord(self.first, self.second, False)  # let go too early
                self.buttons[self.second].disarm()
                self.second = -1
            self.first = -1
            self.ok = False

    def _held_other(self, i):
        """The button held longest, but i, that is down and may act, or -1."""
        best = -1
        for k in range(len(self.buttons)):
            b = self.buttons[k]
            if k != i and b.down and b.armed and not b.stuck and (
                    best < 0 or ticks_diff(b.down_at, self.buttons[best].down_at) < 0):
                best = k
        return best
