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

from dealerbutton.palette import (
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
from dealerbutton.ringcanvas import colour_of, paint_run

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

# What the seat being drawn shows, up to seven things: each one's palette role and level.
_thing_role = bytearray(7)
_thing_level = bytearray(7)


def draw_seat(ring, canvas, seat, now_ms, brightness, out):
    """Draws what seat shows at now_ms, by ring's statuses and roles, onto its arc in out,
    which must be dark there; returns the sum of the bytes drawn."""
    n = _things(ring, seat, now_ms)
    if n == 0:
        return 0
    if seat == ring.first_to_act:
        _breathe(n, now_ms)
    return _paint_things(canvas, seat, n, brightness, out)


def _things(ring, seat, now_ms):
    """What seat shows, in priority order, into _thing_role and _thing_level: how many."""
    status = ring.status[seat]
    role = _thing_role
    level = _thing_level
    on = now_ms % POST_BLINK_MS < POST_OFF_MS
    blink = _LEVEL_POST_ON if on else _LEVEL_POST_OFF
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
        level[n] = blink
        n += 1
    if seat == ring.first_to_act:
        role[n] = ROLE_FIRST
        level[n] = _LEVEL_ROLE
        n += 1
    if status == AWAY:
        role[n] = ROLE_AWAY
        level[n] = _LEVEL_AWAY
        n += 1
    elif status == WAIT_BB:
        role[n] = ROLE_WAIT_BB
        level[n] = _LEVEL_WAIT
        n += 1
    elif status == WAIT_POST:
        role[n] = ROLE_WAIT_POST
        level[n] = blink
        n += 1
    elif status == ACTIVE and n == 0:
        role[n] = ROLE_ACTIVE
        level[n] = _LEVEL_ACTIVE
        n += 1
    elif status == RESERVED or status == MOVING:
        # The mark and white, in one order in the first half second, the other in the next.
        mark = ROLE_RESERVED if status == RESERVED else ROLE_MOVING
        role[n] = mark if on else ROLE_ACTIVE
        role[n + 1] = ROLE_ACTIVE if on else mark
        level[n] = level[n + 1] = _LEVEL_ROLE
        n += 2
    return n


def _breathe(n, now_ms):
    """The first n things' levels scaled by the breath of first to act: a triangle wave
    between _PULSE_LOW and full."""
    half = _PULSE_MS // 2
    t = now_ms % _PULSE_MS
    if t >= half:
        t = _PULSE_MS - t
    t = _PULSE_LOW + (255 - _PULSE_LOW) * t // half  # the pulse's level
    level = _thing_level
    for j in range(n):
        level[j] = level[j] * t // 255


def _paint_things(canvas, seat, n, brightness, out):
    """The first n things painted onto seat's arc, sharing its LEDs (the first ones win
    when there are fewer LEDs than things); returns the sum of the bytes drawn."""
    start = canvas.start[seat - 1]
    size = canvas.start[seat] - start
    if size >= 4:
        size -= 1  # a dark gap before the next seat
    phys = canvas.phys
    pal = canvas.pal
    rgb = canvas.rgb
    role = _thing_role
    level = _thing_level
    total = 0
    k = start
    if n > size:
        n = size  # one LED each for the first ones
        q = 1
        r = 0
    else:
        q = size // n  # LEDs per thing, one more for the first r of them
        r = size % n
    for j in range(n):
        colour_of(rgb, pal, role[j], level[j], brightness)
        end = k + q + 1 if j < r else k + q
        # out is dark on the arc: the change in its sum is what the thing adds.
        total += paint_run(out, phys, k, end, rgb)
        k = end
    return total
