"""Push-button decoder: debounce, short and long press, stuck-button latch.

Pure logic: feed it the pin level and the time, it returns one event per call.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ticks import ticks_add, ticks_diff

NONE = const(0)
SHORT = const(1)  # released before long_ms
LONG = const(2)  # released after long_ms (and before stuck_ms)
STUCK = const(3)  # held for stuck_ms: latched, ignored until released
RELEASED = const(4)  # a stuck button was released at last: it works again

EVENT_NAMES = ("none", "short", "long", "stuck", "released")


class Button:
    """One push-button.  ``ev = b.update(pressed, now_ms)`` every poll.

    A press counts only once the input has stayed pressed for ``debounce_ms``, a
    release once it has stayed released for ``release_ms``; the press is timed
    from the moment the input settled down, so bounce never stretches or
    shortens it.  The release is what acts, so its wait is what a player feels
    between letting go and seeing the ring answer: it is kept short (20 ms),
    just long enough for the bursts contacts make when let go (up to 10 ms) and
    for a dirty contact opening for a moment while held (under 20 ms).

    A contact pressed now and then bounces for a long time (the rare ~150 ms
    outlier, toggling every 0.5-3 ms). Polls ``dense_ms`` (5 ms) apart or closer
    see it bounce, and a press counts only after it settled; polls further apart
    can mistake it for a steady press, and then for a release. So a tap (let go
    within ``rearm_ms`` of its press) whose polls came further apart than that
    waits ``debounce_ms`` for its release; the board's loop polls a button that is
    down every 1-3 ms, so its taps are answered as quickly as longer presses. A
    press beginning within ``rearm_ms`` of a release (perhaps that release still
    bouncing) gets no credit for its time until then.  A button that is already
    pressed at the first poll (held at power-up, or stuck) never gives SHORT or
    LONG for that press: it can only latch as STUCK and later report RELEASED.

    Two presses in a row both count when the button is let go at least 75 ms between
    them and the second one ends at least 230 ms after the first one's release (polls
    every 1-10 ms): a double press of ~100 ms presses and ~100 ms pauses counts twice.
    Closer, they count as one, never none: a press beginning within ``rearm_ms`` of a
    release gets no credit until then.

    LONG is given at the release, not when the hold reaches ``long_ms``: a long
    press busts a player out, and a button that sticks must never do that.  A
    hold that reaches ``stuck_ms`` gives STUCK instead and nothing at its release
    but RELEASED.  ``long_ready`` tells the shell that letting go now is a long
    press, so the ring can show it while the finger is still down.
    """

    debounce_ms = 50
    release_ms = 20
    rearm_ms = 150  # the longest a contact bounces (the rare outlier): see update()
    dense_ms = 5    # polls this close see a bouncing contact bounce
    long_ms = 1000
    stuck_ms = 30000

    def __init__(self, debounce_ms=None, long_ms=None, stuck_ms=None, release_ms=None,
                 rearm_ms=None):
        if debounce_ms is not None:
            self.debounce_ms = debounce_ms
        if release_ms is not None:
            self.release_ms = release_ms
        if rearm_ms is not None:
            self.rearm_ms = rearm_ms
        if long_ms is not None:
            self.long_ms = long_ms
        if stuck_ms is not None:
            self.stuck_ms = stuck_ms
        # What a poll knows of the button (each its own flag):
        self.started = False  # polled at least once
        self.raw = False      # the level last seen: pressed
        self.down = False     # the debounced level: pressed
        self.long = False     # this press has been held for long_ms
        self.armed = True     # this press may give SHORT/LONG
        self.stuck = False    # held for stuck_ms and not released since: ignored
        self.sparse = False   # polled more than dense_ms apart since this press began
        self.slow = False     # this release waits debounce_ms (a tap seen by sparse polls)
        self.quiet = False    # released after release_ms: a new press gets no credit for rearm_ms
        # Released and settled: while its input reads released, update() would change
        # nothing, so a poll may skip it (False until the first poll).
        self.at_rest = False
        self._raw_at = 0  # when the input last changed level
        # When the debounced press began (input settled low); once released after
        # release_ms, when that release counted.
        self._down_at = 0
        self._poll_at = 0  # the last poll

    @property
    def long_ready(self):
        """Held for long_ms, not stuck, not disarmed: a release now gives LONG."""
        return self.long and self.down and self.armed and not self.stuck

    @property
    def pressed(self):
        """The debounced level."""
        return self.down

    @property
    def down_at(self):
        """When the press going on settled down (while pressed)."""
        return self._down_at

    def disarm(self):
        """This press gives nothing when let go (it was part of a chord: chords.py)."""
        self.armed = False

    def update(self, pressed, now_ms):
        raw = True if pressed else False
        if not self.started:
            self.started = True
            self._raw_at = now_ms
            self._poll_at = now_ms
            # Held from the very first poll: nobody pressed it on purpose.
            self.raw = raw
            self.armed = not raw
            self.at_rest = not raw
            return NONE
        if ticks_diff(now_ms, self._poll_at) > self.dense_ms:
            self.sparse = True
        self._poll_at = now_ms
        if raw != self.raw:
            self.raw = raw
            if not self.down:
                if raw:
                    self.sparse = False  # a press may begin here: its polls are counted from now
            elif not raw and self.sparse and ticks_diff(now_ms, self._down_at) < self.rearm_ms:
                self.slow = True  # a tap between polls far apart: perhaps a bounce, not a release
            self._raw_at = now_ms
            if raw and self.quiet:
                # A press beginning within rearm_ms of a release: most likely that
                # release's bounce (it can last ~150 ms); it gets no credit until then.
                since = ticks_diff(now_ms, self._down_at)
                if 0 <= since < self.rearm_ms:
                    self._raw_at = ticks_add(self._down_at, self.rearm_ms)
                else:
                    self.quiet = False
        if raw != self.down and ticks_diff(now_ms, self._raw_at) >= (
                self.debounce_ms if raw or self.slow else self.release_ms):
            if not raw:
                return self._released(now_ms)
            self.down = True
            self.long = False
            self.quiet = False
            self._down_at = self._raw_at
        if raw and self.down:
            # Held (no release pending): time it from the settled press.
            held = ticks_diff(now_ms, self._down_at)
            if not self.stuck and held >= self.stuck_ms:
                self.stuck = True
                self.at_rest = False
                return STUCK
            if self.armed and not self.long and held >= self.long_ms:
                self.long = True
        self.at_rest = not raw and not self.down
        return NONE

    def _released(self, now_ms):
        """The debounced release: a stuck button works again; an unarmed press gives
        nothing; a release that waited debounce_ms (slow) leaves no quiet time."""
        if self.stuck:
            event = RELEASED
        elif not self.armed:
            event = NONE
        else:
            event = LONG if self.long else SHORT
        self.down = False
        self.stuck = False
        self.armed = True
        self.quiet = not self.slow
        if not self.slow:
            self._down_at = now_ms
        self.slow = False
        self.at_rest = True
        return event
