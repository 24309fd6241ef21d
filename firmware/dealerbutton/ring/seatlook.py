"""What one seat shows on its arc of LEDs: its roles and status as colours, in priority
order, the arc of the seat that acts first breathing.

What a seat shows, in priority order (with fewer LEDs than things to show, the first ones
win, one LED each):

    1. the dealer button (white; dim white when dead: on an empty or away seat)
    2. the big blind (orange)       3. the small blind (sky blue)
    4. a kill (blinking vermilion: the kill marked for the next hand, or posted this hand)
    5. first to act (bluish green)  6. the seat's status, when it is not just "active"
       (away: blue; waiting for the BB: reddish purple; owes a post: blinking yellow),
       or the floor's mark during a move between tables (RESERVED: an empty seat kept for
       a player coming, bluish green; MOVING: a player about to go, orange), which shares
       its LEDs with white, the two swapping places every half second

An active seat without a role glows faint white; an empty seat is dark.  The whole arc of
the seat that acts first breathes (a slow pulse), so "first to act" survives even on a
single LED.  Arcs of 4 LEDs or more keep their last LED dark as a gap.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ring.canvas import colour_of, paint_run
from dealerbutton.ring.palette import (
    ROLE_ACTIVE,
    ROLE_AWAY,
    ROLE_BB,
    ROLE_BUTTON,
    ROLE_FIRST,
    ROLE_KILL,
    ROLE_MOVING,
    ROLE_RESERVED,
    ROLE_SB,
    ROLE_WAIT_BB,
    ROLE_WAIT_POST,
)

# A seat's status (ring.status[seat]).
EMPTY = const(0)
ACTIVE = const(1)
AWAY = const(2)
WAIT_BB = const(3)  # waiting for the big blind
WAIT_POST = const(4)  # waiting, will post / owes a post
RESERVED = const(5)  # empty, kept for a player the floor is moving in
MOVING = const(6)  # its player is about to move to another table

# The blink of a seat that owes a post and of a kill: one a second, on for its first half.
POST_BLINK_MS = const(1000)
POST_ON_MS = const(0)  # the blink's on half starts here ...
POST_OFF_MS = const(POST_BLINK_MS // 2)  # ... and its off half here

# Levels (0..255) each thing is drawn at, before the brightness setting.
_LEVEL_ROLE = const(255)  # button, blinds, first to act: full
_LEVEL_DEAD = const(72)  # a dead button
_LEVEL_ACTIVE = const(32)  # somebody sits here, nothing else to say
_LEVEL_AWAY = const(112)
_LEVEL_WAIT = const(128)  # waiting for the big blind (steady)
_LEVEL_POST_ON = const(255)  # owes a post, a kill: blinks between these two
_LEVEL_POST_OFF = const(40)
_PULSE_MS = const(2000)  # first to act: one breath every 2 s ...
_PULSE_LOW = const(40)  # ... between this level and full

class SeatLook:
    """Draws what one seat shows onto its arc of a frame (canvas's LEDs): its things in
    priority order, each a palette role at a level, sharing the arc's LEDs.

    Every step is a method of few names: MicroPython puts the frame of a call whose names
    and stack pass 11 words on the heap, and the seat that acts first is drawn 40 times a
    second. What a step hands the next one is kept here instead."""

    def __init__(self, canvas, ring):
        self.canvas = canvas
        self.ring = ring             # the seats' statuses and roles (a ring.Ring)
        self.n = 0                   # how many things the seat being drawn shows ...
        self.role = bytearray(7)     # ... each one's palette role ...
        self.level = bytearray(7)    # ... and level (0..255)
        self._blinking = 0           # the level of what blinks, at the time being drawn
        self._out = None             # the frame being drawn into, its brightness, ...
        self._brightness = 0
        self._k = 0                  # ... the next LED to paint ...
        self._each = 0               # ... how many LEDs each thing gets, one more for
        self._more = 0               # the first _more of them

    def draw(self, seat, now_ms, brightness, out):
        """Draws what seat shows at now_ms, by the ring's statuses and roles, onto its arc
        in out, which must be dark there; returns the sum of the bytes drawn."""
        self._blinking = _LEVEL_POST_ON if now_ms % POST_BLINK_MS < POST_OFF_MS else _LEVEL_POST_OFF
        self.find(seat)
        if self.n == 0:
            return 0
        if seat == self.ring.first_to_act:
            self._breathe(now_ms)
        self._out = out
        self._brightness = brightness
        return self._paint(seat)

    def find(self, seat):
        """What seat shows, in priority order, into role and level (n of them); the blinking
        ones at the level draw() found for its time."""
        ring = self.ring
        status = ring.status[seat]
        role = self.role
        level = self.level
        n = 0
        if seat == ring.button:
            role[n] = ROLE_BUTTON
            level[n] = (_LEVEL_DEAD if status == EMPTY or status == AWAY or status == RESERVED
                        else _LEVEL_ROLE)
            n += 1
        if seat == ring.bb:
            role[n] = ROLE_BB
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == ring.sb:
            role[n] = ROLE_SB
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == ring.kill:
            role[n] = ROLE_KILL
            level[n] = self._blinking
            n += 1
        if seat == ring.first_to_act:
            role[n] = ROLE_FIRST
            level[n] = _LEVEL_ROLE
            n += 1
        self.n = n
        if status == AWAY:
            self._put(ROLE_AWAY, _LEVEL_AWAY)
        elif status == WAIT_BB:
            self._put(ROLE_WAIT_BB, _LEVEL_WAIT)
        elif status == WAIT_POST:
            self._put(ROLE_WAIT_POST, self._blinking)
        elif status == ACTIVE and n == 0:
            self._put(ROLE_ACTIVE, _LEVEL_ACTIVE)
        elif status == RESERVED or status == MOVING:
            self._mark(ROLE_RESERVED if status == RESERVED else ROLE_MOVING)

    def _put(self, role, level):
        """One more thing the seat shows."""
        self.role[self.n] = role
        self.level[self.n] = level
        self.n += 1

    def _mark(self, mark):
        """The floor's mark and white, in one order in the first half second, the other in
        the next."""
        if self._blinking == _LEVEL_POST_ON:
            self._put(mark, _LEVEL_ROLE)
            self._put(ROLE_ACTIVE, _LEVEL_ROLE)
        else:
            self._put(ROLE_ACTIVE, _LEVEL_ROLE)
            self._put(mark, _LEVEL_ROLE)

    def _breathe(self, now_ms):
        """The things' levels scaled by the breath of first to act: a triangle wave between
        _PULSE_LOW and full."""
        half = _PULSE_MS // 2
        t = now_ms % _PULSE_MS
        if t >= half:
            t = _PULSE_MS - t
        t = _PULSE_LOW + (255 - _PULSE_LOW) * t // half  # the pulse's level
        level = self.level
        for j in range(self.n):
            level[j] = level[j] * t // 255

    def _paint(self, seat):
        """The things painted onto seat's arc, sharing its LEDs (the first ones win when
        there are fewer LEDs than things; an arc of 4 LEDs or more keeps its last one dark,
        a gap before the next seat); returns the sum of the bytes drawn."""
        start = self.canvas.start
        self._k = start[seat - 1]
        size = start[seat] - self._k
        if size >= 4:
            size -= 1
        n = self.n
        if n > size:   # one LED each for the first ones
            n = size
            self._each = 1
            self._more = 0
        else:
            self._each = size // n
            self._more = size % n
        total = 0
        j = 0
        while j < n:   # (a for loop's iterator takes 4 words of the frame)
            total += self._paint_thing(j)
            j += 1
        return total

    def _paint_thing(self, j):
        """Thing j on the next LEDs of the arc; returns what it adds to the frame's sum
        (the frame is dark there)."""
        canvas = self.canvas
        colour_of(canvas.rgb, canvas.pal, self.role[j], self.level[j], self._brightness)
        k = self._k
        end = k + self._each + (1 if j < self._more else 0)
        self._k = end
        return paint_run(self._out, canvas.phys, k, end, canvas.rgb)
