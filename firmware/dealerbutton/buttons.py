"""Push-button decoder: debounce, short and long press, stuck-button latch.

Pure logic: feed it the pin level and the time, it returns one event per call.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ticks import ticks_diff

NONE = const(0)
SHORT = const(1)  # released before long_ms
LONG = const(2)  # released after long_ms (and before stuck_ms)
STUCK = const(3)  # held for stuck_ms: latched, ignored until released
RELEASED = const(4)  # a stuck button was released at last: it works again

EVENT_NAMES = ("none", "short", "long", "stuck", "released")


class Button:
    """One push-button.  ``ev = b.update(pressed, now_ms)`` every poll.

    A level change counts only once the input has stayed at the new level for
    ``debounce_ms``; the press is timed from the moment the input settled down,
    so bounce never stretches or shortens it.  A button that is already pressed
    at the first poll (held at power-up, or stuck) never gives SHORT or LONG for
    that press: it can only latch as STUCK and later report RELEASED.

    LONG is given at the release, not when the hold reaches ``long_ms``: a long
    press busts a player out, and a button that sticks must never do that.  A
    hold that reaches ``stuck_ms`` gives STUCK instead and nothing at its release
    but RELEASED.  ``long_ready`` tells the shell that letting go now is a long
    press, so the ring can show it while the finger is still down.
    """

    debounce_ms = 50
    long_ms = 1000
    stuck_ms = 30000

    def __init__(self, debounce_ms=None, long_ms=None, stuck_ms=None):
        if debounce_ms is not None:
            self.debounce_ms = debounce_ms
        if long_ms is not None:
            self.long_ms = long_ms
        if stuck_ms is not None:
            self.stuck_ms = stuck_ms
        self.stuck = False
        self._started = False
        self._raw = False  # last level seen
        self._raw_at = 0  # when the input last changed level
        self._down = False  # debounced level
        self._down_at = 0  # when the debounced press began (input settled low)
        self._long = False  # this press has been held for long_ms
        self._armed = True  # this press may give SHORT/LONG

    @property
    def long_ready(self):
        """Held for long_ms, not stuck: a release now gives LONG."""
        return self._long and self._down and not self.stuck

    @property
    def pressed(self):
        """The debounced level."""
        return self._down

    def update(self, pressed, now_ms):
        pressed = bool(pressed)
        if not self._started:
            self._started = True
            self._raw = pressed
            self._raw_at = now_ms
            # Held from the very first poll: nobody pressed it on purpose.
            self._armed = not pressed
            return NONE
        if pressed != self._raw:
            self._raw = pressed
            self._raw_at = now_ms
        settled = ticks_diff(now_ms, self._raw_at) >= self.debounce_ms
        if settled and self._raw != self._down:
            self._down = self._raw
            if self._down:
                self._down_at = self._raw_at
                self._long = False
            else:
                return self._release()
        if self._down and self._raw:
            # Held (no release pending): time it from the settled press.
            held = ticks_diff(now_ms, self._down_at)
            if not self.stuck and held >= self.stuck_ms:
                self.stuck = True
                return STUCK
            if self._armed and not self._long and held >= self.long_ms:
                self._long = True
        return NONE

    def _release(self):
        armed = self._armed
        self._armed = True
        if self.stuck:
            self.stuck = False
            return RELEASED
        if not armed:
            return NONE
        return LONG if self._long else SHORT
