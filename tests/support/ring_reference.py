"""The LED ring renderer as it was when it drew every LED of every frame, kept as it was
but for this docstring and the attributes it reads the table from (dealerbutton.ring's),
a test's support: tests/device/test_ring.py holds the incremental renderer (dealerbutton.ring)
to its frames byte for byte. It has learnt what the ring learnt since: the held seat, a
flash over two seats, the kill, the floor's marks (a reserved seat, a player moving), and
the level it draws at to fit the budget (the fit level: lowered when a frame without a
press's light goes over, found again when what the seats show or the brightness changes).

LED ring renderer: the seats' statuses and roles in, one RGB frame out (brightness and
current limit applied).

After every table event the app writes each seat's status into ``ring.status`` and the
seat of each role into ``ring.button``, ``ring.sb``, ``ring.bb`` and ``ring.first_to_act``
(0: nobody); the board calls ``ring.render(now_ms)`` every frame and sends ``ring.buf`` to
the strip. render() only writes into buffers made in __init__, so it never allocates.

Each seat owns an arc of LEDs.  What a seat shows, in priority order (with fewer
LEDs than things to show, the first ones win, one LED each):

    1. the dealer button (white; dim white when dead: on an empty or away seat)
    2. the big blind (orange)       3. the small blind (sky blue)
    4. a kill (blinking vermilion)
    5. first to act (bluish green)  6. the seat's status, when it is not just "active"
       (away: blue; waiting for the BB: reddish purple; owes a post: blinking yellow)

An active seat without a role glows faint white; an empty seat is dark.  The whole
arc of the seat that acts first breathes (a slow pulse), so "first to act" survives
even on a single LED.  Arcs of 4 LEDs or more keep their last LED dark as a gap.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from array import array

from dealerbutton import ring as _ring
from dealerbutton.ticks import ticks_diff

# A seat's status (ring.status[seat]).
EMPTY = const(0)
ACTIVE = const(1)
AWAY = const(2)
WAIT_BB = const(3)  # waiting for the big blind
WAIT_POST = const(4)  # waiting, will post / owes a post
RESERVED = const(5)  # empty, kept for a player moving in
MOVING = const(6)  # its player is about to move out

# Modes.
NORMAL = const(0)
DRAW = const(1)  # before the first hand: press a seat to put the button there
ERROR = const(2)  # the configuration was refused

# Levels (0..255) each thing is drawn at, before the brightness setting, and timings.
_LEVEL_ROLE = const(255)  # button, blinds, first to act: full
_LEVEL_DEAD = const(72)  # a dead button
_LEVEL_ACTIVE = const(32)  # somebody sits here, nothing else to say
_LEVEL_AWAY = const(112)
_LEVEL_WAIT = const(128)  # waiting for the big blind (steady)
_LEVEL_POST_ON = const(255)  # owes a post: blinks between these two
_LEVEL_POST_OFF = const(40)
_POST_BLINK_MS = const(1000)  # one blink per second, on for the first half
_PULSE_MS = const(2000)  # first to act: one breath every 2 s ...
_PULSE_LOW = const(40)  # ... between this level and full
_LEVEL_HELD = const(144)  # a seat whose button is held
_FLASH_OK_MS = const(250)  # accepted press: one bright flash
_FLASH_REFUSED_MS = const(120)  # refused press: on, off, on, off of this length each
_CHASE_TURN_MS = const(2000)  # DRAW mode: one turn of the ring
_ERROR_BLINK_MS = const(500)
_LEVEL_ERROR = const(192)

ROLES = _ring.ROLES
DEFAULT_PALETTE = _ring.DEFAULT_PALETTE


def estimate_ma(buf):
    """Current drawn by a frame (RGB bytes per LED), WLED's model: about 55 mA per LED at
    full white, scaled by R+G+B over 765, plus 1 mA idle per LED."""
    total = 0
    for v in buf:
        total += v
    return total * 55 // 765 + len(buf) // 3


class Ring:
    def __init__(self, leds, seats, offset=0, reverse=False, brightness=128, budget_ma=400,
                 palette=None):
        if not 2 <= seats <= 12:
            raise ValueError("seats: %d is not in 2..12" % seats)
        if leds < seats:
            raise ValueError("leds: %d LEDs cannot show %d seats" % (leds, seats))
        if not 0 <= brightness <= 255:
            raise ValueError("brightness: %d is not in 0..255" % brightness)
        if budget_ma <= leds:
            raise ValueError("budget_ma: %d mA is not even the idle current of %d LEDs"
                             % (budget_ma, leds))
        self.leds = leds
        self.seats = seats
        self.offset = offset % leds
        self.reverse = bool(reverse)
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.status = bytearray(seats + 1)
        self.button = 0  # the seat of each role, 0 for nobody
        self.sb = 0
        self.bb = 0
        self.first_to_act = 0
        self.kill = 0
        self.mode = NORMAL
        self.buf = bytearray(3 * leds)
        self.ma = 0  # estimated current of the last frame
        # Logical LED k (counted from seat 1's first LED, in seat order) -> LED on the strip.
        step = -1 if self.reverse else 1
        self._phys = array("H", [(self.offset + step * k) % leds for k in range(leds)])
        self._start = array("H", [s * leds // seats for s in range(seats + 1)])
        # What a seat shows, up to six things: each one's palette role and level.
        self._show_role = bytearray(7)
        self._show_level = bytearray(7)
        self._flash_seat = -1
        self._flash_also = -1
        self._flash_ok = True
        self._flash_at = 0
        self.held = bytearray(seats + 1)
        self._fit = 255
        self._fit_brightness = -1
        self._refit = True
        self._shown = None   # what the seats showed at the last frame (for the fit level)
        self.set_palette(palette)

    # -- configuration (not on the frame path) --------------------------------------
    def set_palette(self, palette=None):
        """Default palette, overridden per role by a dict of role -> "RRGGBB" (read as
        ring.Ring reads it; a bad one raises ValueError)."""
        self._pal = _ring.palette_bytes(palette)
        self._shown = None

    def arc(self, seat):
        """The strip indices of a seat's LEDs, in seat order (seat 0: the whole ring)."""
        if seat == 0:
            return [self._phys[k] for k in range(self.leds)]
        return [self._phys[k] for k in range(self._start[seat - 1], self._start[seat])]

    # -- events -----------------------------------------------------------------------
    def hold(self, seat, on):
        self.held[seat] = 1 if on else 0

    def flash(self, seat, ok, now_ms, button_alone=None, also=-1):
        """Feedback for a press on seat (0: the next-hand button, whole ring): one bright
        flash when accepted, a double blink in the warning colour when refused; also: a
        second seat in the same flash."""
        if not 0 <= seat <= self.seats:
            raise ValueError("seat %d: no such seat" % seat)
        self._flash_seat = seat
        self._flash_also = also
        self._flash_ok = bool(ok)
        self._flash_at = now_ms
        # The button alone on an active seat is white on every LED: the flash is dark there.
        if button_alone is None:
            button_alone = (seat > 0 and seat == self.button and self.status[seat] == ACTIVE
                            and seat not in (self.sb, self.bb, self.first_to_act, self.kill))
        self._flash_dark = (ok and button_alone
                            and self._pal[0:3] == self._pal[24:27])          # button, ok

    @property
    def flashing(self):
        return self._flash_seat >= 0

    # -- the frame ------------------------------------------------------------------
    def render(self, now_ms):
        if self.mode == ERROR:
            shown = "error"
        else:
            shown = (bytes(self.status), self.button, self.sb, self.bb, self.first_to_act,
                     self.kill)
        refit = shown != self._shown
        self._shown = shown
        passing = self._flash_seat >= 0 or any(self.held)
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        if self.mode == ERROR:
            phase = (now_ms // _ERROR_BLINK_MS) & 1
            for k in range(self.leds):
                if (k + phase) & 1 == 0:
                    self._put(k, 11, _LEVEL_ERROR)  # role: error
        else:
            for seat in range(1, self.seats + 1):
                self._seat(seat, now_ms)
            if self.mode == DRAW:
                self._chase(now_ms)
        for seat in range(1, self.seats + 1):
            if self.held[seat]:
                for k in range(self._start[seat - 1], self._start[seat]):
                    self._put(k, 8, _LEVEL_HELD)  # role: ok
        if self._flash_seat >= 0:
            self._flash(now_ms)
        self._limit(refit, passing)
        return buf

    def _put(self, k, role, level):
        p = 3 * self._phys[k]
        r = 3 * role
        pal = self._pal
        buf = self.buf
        buf[p] = pal[r] * level // 255
        buf[p + 1] = pal[r + 1] * level // 255
        buf[p + 2] = pal[r + 2] * level // 255

    def _seat(self, seat, now_ms):
        status = self.status[seat]
        role = self._show_role    # role[j]: the palette role of thing j
        level = self._show_level  # level[j]: its level
        n = 0
        if seat == self.button:
            role[n] = 0  # role: button
            level[n] = (_LEVEL_DEAD if status == EMPTY or status == AWAY or status == RESERVED
                        else _LEVEL_ROLE)
            n += 1
        if seat == self.bb:
            role[n] = 2  # role: bb
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == self.sb:
            role[n] = 1  # role: sb
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == self.kill:
            role[n] = 12  # role: kill
            on = now_ms % _POST_BLINK_MS < _POST_BLINK_MS // 2
            level[n] = _LEVEL_POST_ON if on else _LEVEL_POST_OFF
            n += 1
        if seat == self.first_to_act:
            role[n] = 3  # role: first
            level[n] = _LEVEL_ROLE
            n += 1
        if status == AWAY:
            role[n] = 5  # role: away
            level[n] = _LEVEL_AWAY
            n += 1
        elif status == WAIT_BB:
            role[n] = 6  # role: wait_bb
            level[n] = _LEVEL_WAIT
            n += 1
        elif status == WAIT_POST:
            role[n] = 7  # role: wait_post
            on = now_ms % _POST_BLINK_MS < _POST_BLINK_MS // 2
            level[n] = _LEVEL_POST_ON if on else _LEVEL_POST_OFF
            n += 1
        elif status == ACTIVE and n == 0:
            role[n] = 4  # role: active
            level[n] = _LEVEL_ACTIVE
            n += 1
        elif status == RESERVED or status == MOVING:
            # The mark (role reserved or moving) and white (role active), swapping places.
            mark = 13 if status == RESERVED else 14
            on = now_ms % _POST_BLINK_MS < _POST_BLINK_MS // 2
            role[n] = mark if on else 4
            role[n + 1] = 4 if on else mark
            level[n] = level[n + 1] = _LEVEL_ROLE
            n += 2
        if n == 0:
            return
        if seat == self.first_to_act:
            # Breathe: a triangle wave between pulse_low and full.
            half = _PULSE_MS // 2
            t = now_ms % _PULSE_MS
            if t >= half:
                t = _PULSE_MS - t
            t = _PULSE_LOW + (255 - _PULSE_LOW) * t // half  # the pulse's level
            for j in range(n):
                level[j] = level[j] * t // 255
        start = self._start[seat - 1]
        size = self._start[seat] - start
        if size >= 4:
            size -= 1  # a dark gap before the next seat
        if n > size:
            for j in range(size):
                self._put(start + j, role[j], level[j])
            return
        q = size // n  # LEDs per thing, one more for the first r of them
        r = size % n
        k = start
        for j in range(n):
            count = q + 1 if j < r else q
            for _ in range(count):
                self._put(k, role[j], level[j])
                k += 1

    def _chase(self, now_ms):
        leds = self.leds
        step = _CHASE_TURN_MS // leds
        if step < 1:
            step = 1
        head = (now_ms // step) % leds
        self._put(head, 10, 255)  # role: draw
        self._put((head - 1) % leds, 10, 96)  # role: draw
        self._put((head - 2) % leds, 10, 32)  # role: draw

    def _flash(self, now_ms):
        t = ticks_diff(now_ms, self._flash_at)  # its age
        if t < 0:
            t = 0
        if self._flash_ok:
            if t >= _FLASH_OK_MS:
                self._flash_seat = -1
                return
            role = 8  # role: ok
            on = not self._flash_dark
        else:
            if t >= 4 * _FLASH_REFUSED_MS:
                self._flash_seat = -1
                return
            role = 9  # role: refused
            on = (t // _FLASH_REFUSED_MS) & 1 == 0
        seat = self._flash_seat
        if seat == 0:
            ks = list(range(self.leds))
        else:
            ks = list(range(self._start[seat - 1], self._start[seat]))
        if self._flash_also > 0:
            ks += list(range(self._start[self._flash_also - 1], self._start[self._flash_also]))
        for k in ks:
            if on:
                self._put(k, role, 255)
            else:
                self._put(k, role, 0)

    def _limit(self, refit, passing):
        """Apply the brightness (the fit level at most), then scale the frame down to the
        current budget."""
        buf = self.buf
        level = self.brightness
        if level > 255:
            level = 255
        elif level < 0:
            level = 0
        if level != self._fit_brightness:
            self._fit_brightness = level
            refit = True
        self._refit = refit or self._refit
        if level > self._fit:
            level = self._fit
        total = 0
        for i in range(len(buf)):
            v = buf[i] * level // 255
            buf[i] = v
            total += v
        leds = self.leds
        ma = total * 55 // 765 + leds
        allowed = (self.budget_ma - leds) * 765 // 55
        if not passing and (ma > self.budget_ma or self._refit):
            self._refit = False
            if ma > self.budget_ma:
                self._fit = level * allowed // total
            elif total == 0:
                self._fit = 255
            else:
                self._fit = min(255, max(level, level * allowed // total))
        if ma > self.budget_ma:
            # Down to the largest R+G+B sum over all LEDs that stays within budget.
            scale = (self.budget_ma - leds) * 765 // 55 * 256 // total
            total = 0
            for i in range(len(buf)):
                v = buf[i] * scale >> 8
                buf[i] = v
                total += v
            ma = total * 55 // 765 + leds
        self.ma = ma
