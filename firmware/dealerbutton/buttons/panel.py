"""The table's buttons as the loop sees them: each decoded by its own Button (button.py),
all read at once through a bank, one polled on its own only while it is not at rest.

pins[0] is the next-hand button, pins[s] seat s (value() == 0 while pressed). poll() tells
the handler (presses.Presses) what the buttons say: handler.button_event(i, ev) for a press, a
stuck button or its release, handler.held_long(i, now_ms, first) on every poll while
button i is held long enough for a long press (first: the first such poll),
handler.button_touched(i, on) as soon as button i reads pressed and when it is let go
(before any debouncing: the ring lights a held seat at once), and handler.chord(first,
second, ok) for two buttons held together (chords.py).
"""

from dealerbutton.buttons.button import Button
from dealerbutton.buttons.chords import Chords


class Pins:
    """The pins read one by one: pressed() has bit i set while pins[i] reads pressed (0: the
    pull-up is shorted). The board reads them all at once instead (board.PinBank)."""

    def __init__(self, pins):
        self.pins = pins

    def pressed(self):
        pins = self.pins
        bits = 0
        for i in range(len(pins)):
            if pins[i].value() == 0:
                bits |= 1 << i
        return bits


class Panel:
    # While a button is down or its release is being timed (and it is not stuck) the loop
    # had better turn every quick_ms: a release counts once seen released for 20 ms, and
    # turns quick_ms apart see it as soon as it happens and the 20 ms as soon as they are
    # over (button.py answers a tap that quickly only when polled that often).
    quick_ms = 1
    # With every button at rest the loop sleeps until its next frame, reading the buttons
    # this often meanwhile (doze()): a press lights its seat within this, plus a frame.
    rest_ms = 4

    def __init__(self, pins, handler, now_ms=0, bank=None):
        """bank: what reads every pin at once (pressed() -> a bit a pin; default: Pins, one
        pin after the other)."""
        self.pins = pins
        self.bank = bank or Pins(pins)
        self.handler = handler
        self.buttons = [Button() for _ in pins]
        self.chords = Chords(self.buttons, handler)
        self.long_shown = [False] * len(pins)   # its hold has reached a long press
        self.touched = [False] * len(pins)      # it reads pressed, or is held (not stuck)
        self.unsettled = len(pins)  # buttons not at rest (pressed, settling or held)
        self.quick = False          # one of them wants quick turns (see quick_ms)
        self.bank_seen = -1         # the bank's last reading (one register on the board)
        for i in range(len(pins)):
            # The first look at each button: one held from power-up never acts (stuck?).
            self.buttons[i].update(pins[i].value() == 0, now_ms)

    def poll(self, now_ms):
        """One loop turn's look: the bank, then the buttons that read pressed or are not at
        rest (a button at rest reading released is skipped: an idle table costs one read)."""
        pressed = self.bank.pressed()
        self.bank_seen = pressed
        if pressed or self.unsettled:
            self.poll_buttons(pressed, now_ms)

    def poll_buttons(self, pressed, now_ms):
        unsettled = 0
        quick = False
        for i in range(len(self.buttons)):
            b = self.buttons[i]
            if pressed >> i & 1 or not b.at_rest:
                self.poll_button(i, now_ms)
                if not b.at_rest:
                    unsettled += 1
                    quick = quick or not b.stuck
        self.unsettled = unsettled
        self.quick = quick

    def poll_button(self, i, now_ms):
        b = self.buttons[i]
        was_down = b.down
        raw = self.pins[i].value() == 0
        ev = b.update(raw, now_ms)
        touched = (raw or b.down) and not b.stuck
        if touched != self.touched[i]:
            self.touched[i] = touched
            self.handler.button_touched(i, touched)
        if b.down != was_down:
            if b.down:
                self.chords.down(i)
            else:
                self.chords.up(i)
        if ev:
            self.handler.button_event(i, ev)
        if b.long_ready:
            self.handler.held_long(i, now_ms, not self.long_shown[i])
            self.long_shown[i] = True
        else:
            self.long_shown[i] = False

    def doze(self, ms, sleep_ms):
        """The loop's sleep between two turns (sleep_ms: the board's): ms, cut short when
        the bank reads otherwise than at the last turn (a press, a release), read every
        rest_ms. An idle table costs a loop turn a frame and a register read in between."""
        rest = self.rest_ms
        while ms > rest:
            sleep_ms(rest)
            ms -= rest
            if self.bank.pressed() != self.bank_seen:
                return
        sleep_ms(ms)
