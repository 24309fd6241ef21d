"""LED ring renderer: the seats' statuses and roles in, one RGB frame out (brightness and
current limit applied).

After every table event the app writes each seat's status into ``ring.status`` (EMPTY,
ACTIVE, AWAY, WAIT_BB, WAIT_POST) and the seat of each role into ``ring.button``,
``ring.sb``, ``ring.bb`` and ``ring.first_to_act`` (0: nobody); the board calls
``ring.render(now_ms)`` every frame and sends ``ring.buf`` to the strip. render() only
writes into buffers made in __init__, so it never allocates.

A frame must cost little of its 25 ms on the board, where Python runs about 125 times
slower than on a PC. So the steady part of the picture (a seat's colours while its status
and roles stay the same) is drawn once, brightness applied, with the sum of its bytes kept for the
current limit: twice, once for each half of the blink of the seats that owe a post
(``_bases``); a frame copies the one of the moment (one C copy) and draws on top only what
moves: the arc of the seat that breathes (first to act), the draw chase and a flash. The
result is byte for byte the frame of drawing everything every time.

Each seat owns an arc of LEDs.  What a seat shows, in priority order (with fewer
LEDs than things to show, the first ones win, one LED each):

    1. the dealer button (white; dim white when dead: on an empty or away seat)
    2. the big blind (orange)       3. the small blind (sky blue)
    4. a kill (blinking vermilion: the kill marked for the next hand, or posted this hand)
    5. first to act (bluish green)  6. the seat's status, when it is not just "active"
       (away: blue; waiting for the BB: reddish purple; owes a post: blinking yellow)

An active seat without a role glows faint white; an empty seat is dark.  The whole
arc of the seat that acts first breathes (a slow pulse), so "first to act" survives
even on a single LED.  Arcs of 4 LEDs or more keep their last LED dark as a gap.

At a tournament table the app sets ``ring.clock`` (and ``ring.clock_parts``) every loop
turn; the clock's signals never take a seat's LED: they light only the LEDs the seats
leave dark (empty seats, the gaps) and dim the whole ring for a moment, every seat keeping
its colours:
    CLOCK_COMING  the last minute of a level: the dark LEDs blink vermilion once a second
                  and the whole ring dips to a quarter for 200 ms on each beat
    CLOCK_NEW     a level has just started (10 s): the ring blinks twice a second, dim
                  and bright, the dark LEDs white when it is bright
    CLOCK_BREAK   a break: clock_parts of the ring's LEDs, clockwise from seat 1's first,
                  stand for the time left: there the dark LEDs glow bluish green, past
                  them the ring is dimmed to a third; the bright part shrinks as it runs
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from array import array

from dealerbutton.ticks import ticks_diff

# A seat's status (ring.status[seat]).
EMPTY = const(0)
ACTIVE = const(1)
AWAY = const(2)
WAIT_BB = const(3)  # waiting for the big blind
WAIT_POST = const(4)  # waiting, will post / owes a post

# Modes.
NORMAL = const(0)
DRAW = const(1)  # before the first hand: press a seat to put the button there
ERROR = const(2)  # the configuration was refused

# The tournament clock's signal (ring.clock).
CLOCK_NONE = const(0)
CLOCK_COMING = const(1)  # the last minute of a level: a change is coming
CLOCK_NEW = const(2)  # a level has just started
CLOCK_BREAK = const(3)  # a break: clock_parts of the LEDs stand for the time left
_CLOCK_BEAT_MS = const(1000)  # last minute: one beat a second, the dark LEDs lit half of it
_CLOCK_DIP_MS = const(200)  # ... and the whole ring dipped for this long on each beat
_CLOCK_NEW_MS = const(250)  # a new level: dim, then bright, this long each
_CLOCK_DIP = const(64)  # a dip: the frame at 64/256
_CLOCK_BREAK_DIM = const(85)  # a break: the ring past the time left at 85/256 (a third)
_LEVEL_CLOCK = const(192)  # the clock's colour on the dark LEDs

# Levels (0..255) each thing is drawn at, before the brightness setting, and timings.
_LEVEL_ROLE = const(255)  # button, blinds, first to act: full
_LEVEL_DEAD = const(72)  # a dead button
_LEVEL_ACTIVE = const(32)  # somebody sits here, nothing else to say
_LEVEL_AWAY = const(112)
_LEVEL_WAIT = const(128)  # waiting for the big blind (steady)
_LEVEL_POST_ON = const(255)  # owes a post: blinks between these two
_LEVEL_POST_OFF = const(40)
_POST_BLINK_MS = const(1000)  # one blink per second, on for the first half
_POST_ON_MS = const(0)  # the blink's on half starts here ...
_POST_OFF_MS = const(_POST_BLINK_MS // 2)  # ... and its off half here (both drawn ahead)
_PULSE_MS = const(2000)  # first to act: one breath every 2 s ...
_PULSE_LOW = const(40)  # ... between this level and full
_LEVEL_HELD = const(144)  # a seat whose button is held: its arc glows
_FLASH_OK_MS = const(250)  # accepted press: one bright flash
_FLASH_REFUSED_MS = const(120)  # refused press: on, off, on, off of this length each
_CHASE_TURN_MS = const(2000)  # DRAW mode: one turn of the ring
_ERROR_BLINK_MS = const(500)
_LEVEL_ERROR = const(192)

# The palette: a colour per role, overridden per role by config.json's "palette" (role
# name -> "RRGGBB", checked by config.py). Okabe-Ito hues (safe for the common
# colour-blindnesses) plus white; no meaning rests on hue alone: brightness and animation
# differ too (see the README).
ROLES = ("button", "sb", "bb", "first", "active", "away", "wait_bb", "wait_post",
         "ok", "refused", "draw", "error", "kill")
DEFAULT_PALETTE = ("FFFFFF", "56B4E9", "E69F00", "009E73", "FFFFFF", "0072B2", "CC79A7",
                   "F0E442", "FFFFFF", "D55E00", "009E73", "D55E00", "D55E00")
# Each role by name: where its R, G, B sit in the palette bytes, in the order of ROLES (a
# test checks the two agree).
ROLE_BUTTON = const(0)
ROLE_SB = const(1)
ROLE_BB = const(2)
ROLE_FIRST = const(3)
ROLE_ACTIVE = const(4)
ROLE_AWAY = const(5)
ROLE_WAIT_BB = const(6)
ROLE_WAIT_POST = const(7)
ROLE_OK = const(8)  # an accepted press
ROLE_REFUSED = const(9)  # a refused press
ROLE_DRAW = const(10)  # the chase of the draw for the button
ROLE_ERROR = const(11)  # the pattern of a refused configuration
ROLE_KILL = const(12)  # the seat of a kill (blinks: the steady vermilion is the clock's)


_BLACK = b"\x00\x00\x00"

# What the steady picture (Ring._bases) was drawn for.
_DRAWN_NOTHING = const(-1)  # nothing yet, or the palette changed: draw it all
_DRAWN_SEATS = const(0)  # the seats (NORMAL and DRAW modes)
_DRAWN_ERROR = const(1)  # the error pattern, plus its phase (0 or 1)



# Two loops over many LEDs run on every frame of a 60-LED ring or of a flash over the whole
# ring: scaling the frame down to the current budget (every byte) and painting a run of
# LEDs. In bytecode they cost the board about 2 ms and 1 ms; MicroPython runs them as viper
# code (fastloops.py), elsewhere the same loops in plain Python (plainloops.py), and with
# them a colour's three bytes at a level and brightness (63 us in bytecode, 37 in viper).
try:
    from dealerbutton.fastloops import colour as _colour_of
    from dealerbutton.fastloops import paint as _paint_run
    from dealerbutton.fastloops import scale as _scale
except (ImportError, SyntaxError, ValueError):  # CPython, no viper here, .mpy of another CPU
    from dealerbutton.plainloops import colour as _colour_of
    from dealerbutton.plainloops import paint as _paint_run
    from dealerbutton.plainloops import scale as _scale

def palette_bytes(palette=None):
    """The palette as R, G, B bytes per role in the order of ROLES: the default, overridden
    per role by a dict of role -> "RRGGBB"; an unknown role or a colour that is not "RRGGBB"
    raises ValueError."""
    pal = bytearray(3 * len(ROLES))
    for i in range(len(ROLES)):
        _put_colour(pal, i, DEFAULT_PALETTE[i])
    if palette:
        for role in sorted(palette):
            colour = palette[role]
            if role not in ROLES:
                raise ValueError("palette.%s: unknown role" % role)
            if not is_colour(colour):
                raise ValueError('palette.%s: %r is not a colour "RRGGBB"' % (role, colour))
            _put_colour(pal, ROLES.index(role), colour)
    return pal


def _put_colour(pal, i, colour):
    """Role i's R, G, B bytes in pal, from "RRGGBB"."""
    c = int(colour, 16)
    pal[3 * i] = c >> 16
    pal[3 * i + 1] = (c >> 8) & 0xFF
    pal[3 * i + 2] = c & 0xFF


def is_colour(v):
    """A colour "RRGGBB" in hex."""
    if not isinstance(v, str) or len(v) != 6:
        return False
    for c in v:
        if c not in "0123456789abcdefABCDEF":
            return False
    return True


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
        self.status = bytearray(seats + 1)  # each seat's status ([0]: unused)
        # The seat of each role, 0 for nobody (no hand yet, no small blind).
        self.button = 0
        self.sb = 0
        self.bb = 0
        self.first_to_act = 0
        self.kill = 0   # the seat of the kill marked for the next hand, or posted in this one
        self.mode = NORMAL
        self.buf = bytearray(3 * leds)
        self._view = memoryview(self.buf)  # copying into a memoryview slice allocates nothing
        self.ma = 0  # estimated current of the last frame
        # Logical LED k (counted from seat 1's first LED, in seat order) -> LED on the strip.
        step = -1 if self.reverse else 1
        self._phys = array("H", [(self.offset + step * k) % leds for k in range(leds)])
        self._start = array("H", [s * leds // seats for s in range(seats + 1)])
        # What a seat shows, up to six things: each one's palette role and level.
        self._show_role = bytearray(6)
        self._show_level = bytearray(6)
        self._rgb = bytearray(3)  # one colour being painted
        # The steady picture, brightness applied, dark under the seat drawn every frame
        # (first to act): [0] with the seats that owe a post in their blink's on half (or
        # the error pattern), [1] in its off half. With the sums of their bytes (the
        # current limit needs the frame's sum).
        self._bases = (bytearray(3 * leds), bytearray(3 * leds))
        self._base_sums = [0, 0]
        # The statuses and roles _bases show, and the seats to draw again (a 1 each).
        self._drawn_status = bytearray(seats + 1)
        self._drawn_button = 0
        self._drawn_sb = 0
        self._drawn_bb = 0
        self._drawn_first_to_act = 0
        self._drawn_kill = 0
        self._again = bytearray(seats + 1)
        self._drawn_what = _DRAWN_NOTHING
        self._drawn_brightness = -1
        self._flash_seat = -1
        self._flash_also = -1   # a second seat in the same flash (a move's two seats)
        self._flash_ok = True
        self._flash_dark = False
        self._flash_at = 0
        self.held = bytearray(seats + 1)   # seats whose button is held: lit until let go
        self.clock = CLOCK_NONE
        self.clock_parts = 0  # CLOCK_BREAK: how many LEDs stand for the time left
        # The logical LEDs no seat lights (empty seats, the gaps), found with the seats.
        self._free = array("H", [0] * leds)
        self._nfree = 0
        self.set_palette(palette)

    # -- configuration (not on the frame path) --------------------------------------
    def set_palette(self, palette=None):
        """The default palette, overridden per role by a dict of role -> "RRGGBB" (config.json's
        "palette", which config.py has checked); a bad one raises ValueError."""
        self._pal = palette_bytes(palette)
        self._drawn_what = _DRAWN_NOTHING

    def arc(self, seat):
        """The strip indices of a seat's LEDs, in seat order (seat 0: the whole ring)."""
        if seat == 0:
            return [self._phys[k] for k in range(self.leds)]
        return [self._phys[k] for k in range(self._start[seat - 1], self._start[seat])]

    # -- events -----------------------------------------------------------------------
    def hold(self, seat, on):
        """A seat's button is held (on) or let go: its arc glows while held."""
        self.held[seat] = 1 if on else 0

    def flash(self, seat, ok, now_ms, button_alone=None, also=-1):
        """Feedback for a press on seat (0: the next-hand button, whole ring): one bright
        flash when accepted, a double blink in the warning colour when refused.
        button_alone: the seat showed the button alone when it was pressed (default:
        whether it does now, see shows_button_alone())."""
        if not 0 <= seat <= self.seats:
            raise ValueError("seat %d: no such seat" % seat)
        self._flash_seat = seat
        self._flash_also = also
        self._flash_ok = bool(ok)
        self._flash_at = now_ms
        # A seat lit all in the flash's colour already (the button alone, white on every LED
        # of its arc) flashes dark instead: the press must show.
        pal = self._pal
        if button_alone is None:
            button_alone = self.shows_button_alone(seat)
        self._flash_dark = (ok and button_alone
                            and pal[3 * ROLE_BUTTON:3 * ROLE_BUTTON + 3]
                            == pal[3 * ROLE_OK:3 * ROLE_OK + 3])

    def shows_button_alone(self, seat):
        """The seat has the button and no other role, and its player is in (ACTIVE): the
        button's white fills its whole arc."""
        return (seat > 0 and seat == self.button and self.status[seat] == ACTIVE
                and seat != self.sb and seat != self.bb and seat != self.first_to_act
                and seat != self.kill)

    @property
    def flashing(self):
        return self._flash_seat >= 0

    def flash_hides(self, seat):
        """An accepted press of seat is flashing (0: the next-hand button's, over the whole
        ring): its flash is drawn over every LED of the seat, which shows nothing else."""
        return self._flash_seat == seat and self._flash_ok

    # -- the frame ------------------------------------------------------------------
    def render(self, now_ms):
        level = self.brightness
        if level > 255:
            level = 255
        elif level < 0:
            level = 0
        if self.mode == ERROR:
            what = _DRAWN_ERROR + ((now_ms // _ERROR_BLINK_MS) & 1)
            if what != self._drawn_what or level != self._drawn_brightness:
                self._draw_error(what - _DRAWN_ERROR, level)
                self._drawn_what = what
                self._drawn_brightness = level
            half = 0
        else:
            if self._drawn_what != _DRAWN_SEATS or level != self._drawn_brightness:
                self._draw_seats(level)
            elif (self.status != self._drawn_status or self.button != self._drawn_button
                  or self.sb != self._drawn_sb or self.bb != self._drawn_bb
                  or self.first_to_act != self._drawn_first_to_act
                  or self.kill != self._drawn_kill):
                self._redraw_changed(level)
            half = 0 if now_ms % _POST_BLINK_MS < _POST_OFF_MS else 1  # the post blink's half
        base = self._bases[half]
        self._view[0:len(base)] = base
        total = self._base_sums[half]
        if self.mode != ERROR:
            if self.first_to_act:  # (it breathes: drawn every frame)
                total += self._seat(self.first_to_act, now_ms, level, self.buf)
            if self.mode == DRAW:
                total += self._chase(now_ms, level)
            if self.clock != CLOCK_NONE:
                total = self._clock(now_ms, level, total)
        held = self.held
        for seat in range(1, self.seats + 1):
            if held[seat]:
                total += self._held(seat, level)
        if self._flash_seat >= 0:
            total += self._flash(now_ms, level)
        self._limit(total)
        return self.buf

    # -- the steady picture (drawn again only when it changes) ---------------------------
    def _draw_error(self, phase, level):
        """Every other LED in the error colour; phase shifts the pattern by one."""
        base = self._bases[0]
        for i in range(len(base)):
            base[i] = 0
        total = 0
        self._colour(ROLE_ERROR, _LEVEL_ERROR, level)
        for k in range(self.leds):
            if (k + phase) & 1 == 0:
                total += self._paint(base, k)
        self._base_sums[0] = total

    def _draw_seats(self, level):
        """Every seat's steady picture, from the dark."""
        base = self._bases[0]
        for i in range(len(base)):
            base[i] = 0
        total = 0
        self._note_drawn()
        for seat in range(1, self.seats + 1):
            if seat != self.first_to_act:  # (first to act is drawn every frame)
                total += self._seat(seat, _POST_ON_MS, level, base)
        self._base_sums[0] = total
        self._drawn_what = _DRAWN_SEATS
        self._drawn_brightness = level
        self._seats_changed(level)

    def _redraw_changed(self, level):
        """The seats whose status or roles changed since _bases were drawn: only they are
        drawn again."""
        again = self._again
        status = self.status
        drawn = self._drawn_status
        for seat in range(1, self.seats + 1):
            if status[seat] != drawn[seat]:
                again[seat] = 1
        # A role that moved: the seat it left and the seat it reached ([0], nobody, is never
        # drawn).
        if self.button != self._drawn_button:
            again[self._drawn_button] = 1
            again[self.button] = 1
        if self.sb != self._drawn_sb:
            again[self._drawn_sb] = 1
            again[self.sb] = 1
        if self.bb != self._drawn_bb:
            again[self._drawn_bb] = 1
            again[self.bb] = 1
        if self.first_to_act != self._drawn_first_to_act:
            again[self._drawn_first_to_act] = 1
            again[self.first_to_act] = 1
        if self.kill != self._drawn_kill:
            again[self._drawn_kill] = 1
            again[self.kill] = 1
        self._note_drawn()
        base = self._bases[0]
        phys = self._phys
        start = self._start
        total = self._base_sums[0]
        for seat in range(1, self.seats + 1):
            if not again[seat]:
                continue
            again[seat] = 0
            # Clear the seat's arc (black), then draw it unless it is drawn every frame.
            total += _paint_run(base, phys, start[seat - 1], start[seat], _BLACK)
            if seat != self.first_to_act:
                total += self._seat(seat, _POST_ON_MS, level, base)
        again[0] = 0
        self._base_sums[0] = total
        self._seats_changed(level)

    def _note_drawn(self):
        """_bases are drawn for the statuses and roles of now."""
        status = self.status
        drawn = self._drawn_status
        for seat in range(self.seats + 1):
            drawn[seat] = status[seat]
        self._drawn_button = self.button
        self._drawn_sb = self.sb
        self._drawn_bb = self.bb
        self._drawn_first_to_act = self.first_to_act
        self._drawn_kill = self.kill

    def _seats_changed(self, level):
        """After the steady picture's on half changed: its off half (the same, but the
        seats that owe a post and the kill drawn in their blink's off half), the seat drawn every frame
        (first to act), the LEDs left free for the clock."""
        on, off = self._bases
        off[:] = on
        total = self._base_sums[0]
        status = self.status
        phys = self._phys
        start = self._start
        for seat in range(1, self.seats + 1):
            if ((status[seat] == WAIT_POST or seat == self.kill)
                    and seat != self.first_to_act):
                total += _paint_run(off, phys, start[seat - 1], start[seat], _BLACK)
                total += self._seat(seat, _POST_OFF_MS, level, off)
        self._base_sums[1] = total
        self._find_free()

    def _has_role(self, seat):
        """The button, a blind or first to act is at seat (whoever sits there, if anyone)."""
        return (seat == self.button or seat == self.sb or seat == self.bb
                or seat == self.first_to_act or seat == self.kill)

    def _find_free(self):
        """The LEDs no seat lights, for the clock: an empty seat's arc (a dead button is
        drawn: not empty), the gap at the end of an arc of 4 LEDs or more."""
        status = self.status
        start = self._start
        free = self._free
        n = 0
        for seat in range(1, self.seats + 1):
            a = start[seat - 1]
            b = start[seat]
            if status[seat] == EMPTY and not self._has_role(seat):
                for k in range(a, b):
                    free[n] = k
                    n += 1
            elif b - a >= 4:
                free[n] = b - 1
                n += 1
        self._nfree = n

    # -- drawing ----------------------------------------------------------------------
    def _colour(self, role, level, brightness):
        """A role's R, G, B at a level (0..255), then the brightness (the same two roundings
        as scaling the drawn frame by the brightness afterwards), into _rgb: no tuple."""
        _colour_of(self._rgb, self._pal, role, level, brightness)

    def _paint(self, out, k):
        """Logical LED k in the colour of _rgb; returns what that adds to the byte sum."""
        return _paint_run(out, self._phys, k, k + 1, self._rgb)

    def _seat(self, seat, now_ms, brightness, out):
        """Draw a seat's arc into out (dark LEDs left as they are: out is dark there);
        returns the sum of the bytes drawn."""
        status = self.status[seat]
        role = self._show_role    # role[j]: the palette role of thing j
        level = self._show_level  # level[j]: its level
        n = 0
        if seat == self.button:
            role[n] = ROLE_BUTTON
            level[n] = _LEVEL_DEAD if status == EMPTY or status == AWAY else _LEVEL_ROLE
            n += 1
        if seat == self.bb:
            role[n] = ROLE_BB
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == self.sb:
            role[n] = ROLE_SB
            level[n] = _LEVEL_ROLE
            n += 1
        if seat == self.kill:
            role[n] = ROLE_KILL
            on = now_ms % _POST_BLINK_MS < _POST_OFF_MS
            level[n] = _LEVEL_POST_ON if on else _LEVEL_POST_OFF
            n += 1
        if seat == self.first_to_act:
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
            on = now_ms % _POST_BLINK_MS < _POST_OFF_MS
            level[n] = _LEVEL_POST_ON if on else _LEVEL_POST_OFF
            n += 1
        elif status == ACTIVE and n == 0:
            role[n] = ROLE_ACTIVE
            level[n] = _LEVEL_ACTIVE
            n += 1
        if n == 0:
            return 0
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
        phys = self._phys
        rgb = self._rgb
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
            self._colour(role[j], level[j], brightness)
            end = k + q + 1 if j < r else k + q
            # out is dark on the arc (a cleared steady picture, or buf copied from one):
            # the change in its sum is what the thing adds.
            total += _paint_run(out, phys, k, end, rgb)
            k = end
        return total

    def _clock(self, now_ms, brightness, total):
        """The clock's signal on top of the seats (see the module doc); returns the frame's
        new byte sum."""
        buf = self.buf
        free = self._free
        if self.clock == CLOCK_BREAK:
            parts = self.clock_parts
            self._colour(ROLE_DRAW, _LEVEL_CLOCK, brightness)
            for i in range(self._nfree):
                if free[i] < parts:
                    total += self._paint(buf, free[i])
            phys = self._phys
            for k in range(parts, self.leds):
                p = 3 * phys[k]
                for j in range(p, p + 3):
                    v = buf[j]
                    if v:
                        w = v * _CLOCK_BREAK_DIM >> 8
                        buf[j] = w
                        total += w - v
            return total
        if self.clock == CLOCK_COMING:
            t = now_ms % _CLOCK_BEAT_MS
            lit = t < _CLOCK_BEAT_MS // 2
            dip = t < _CLOCK_DIP_MS
            role = ROLE_REFUSED
        else:  # CLOCK_NEW
            dip = now_ms % (2 * _CLOCK_NEW_MS) < _CLOCK_NEW_MS
            lit = not dip
            role = ROLE_OK
        if lit:
            self._colour(role, _LEVEL_CLOCK, brightness)
            for i in range(self._nfree):
                total += self._paint(buf, free[i])
        if dip:
            total = _scale(buf, len(buf), _CLOCK_DIP)
        return total

    def _chase(self, now_ms, brightness):
        """DRAW mode: a head and a fading tail going round; returns the change in byte sum."""
        leds = self.leds
        step = _CHASE_TURN_MS // leds
        if step < 1:
            step = 1
        head = (now_ms // step) % leds
        buf = self.buf
        self._colour(ROLE_DRAW, 255, brightness)
        total = self._paint(buf, head)
        self._colour(ROLE_DRAW, 96, brightness)
        total += self._paint(buf, (head - 1) % leds)
        self._colour(ROLE_DRAW, 32, brightness)
        return total + self._paint(buf, (head - 2) % leds)

    def _flash(self, now_ms, brightness):
        """The flash of a press over its seat; returns the change in byte sum."""
        t = ticks_diff(now_ms, self._flash_at)  # its age
        if t < 0:
            t = 0
        if self._flash_ok:
            if t >= _FLASH_OK_MS:
                self._flash_seat = -1
                return 0
            role = ROLE_OK
            on = not self._flash_dark
        else:
            if t >= 4 * _FLASH_REFUSED_MS:
                self._flash_seat = -1
                return 0
            role = ROLE_REFUSED
            on = (t // _FLASH_REFUSED_MS) & 1 == 0
        seat = self._flash_seat
        if seat == 0:
            a = 0
            b = self.leds
        else:
            a = self._start[seat - 1]
            b = self._start[seat]
        self._colour(role, 255 if on else 0, brightness)
        total = _paint_run(self.buf, self._phys, a, b, self._rgb)
        also = self._flash_also
        if also > 0:
            total += _paint_run(self.buf, self._phys, self._start[also - 1], self._start[also],
                                self._rgb)
        return total

    def _held(self, seat, brightness):
        """A held seat's whole arc, lit (the press shows from its first moment); returns the
        change in byte sum."""
        self._colour(ROLE_OK, _LEVEL_HELD, brightness)
        return _paint_run(self.buf, self._phys, self._start[seat - 1], self._start[seat],
                          self._rgb)

    def _limit(self, total):
        """The frame's estimated current from its byte sum; over the budget, the whole frame
        is scaled down to the largest R+G+B sum that stays within it."""
        buf = self.buf
        leds = self.leds
        ma = total * 55 // 765 + leds
        if ma > self.budget_ma:
            scale = (self.budget_ma - leds) * 765 // 55 * 256 // total
            total = _scale(buf, len(buf), scale)
            ma = total * 55 // 765 + leds
        self.ma = ma
