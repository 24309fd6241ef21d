"""What moves on the ring, drawn on every frame over the steady picture: the chase of the
draw for the button, the tournament clock's signals, hand-for-hand's wait, the seats whose
button is held and the flash of a press.

The clock's signals (ring.clock) never take a seat's LED: they light only the LEDs the
seats leave dark (empty seats, the gaps) and dim the whole ring for a moment, every seat
keeping its colours:
    CLOCK_COMING  the last minute of a level: the dark LEDs blink vermilion once a second
                  and the whole ring dips to a quarter for 200 ms on each beat
    CLOCK_NEW     a level has just started (10 s): the ring blinks twice a second, dim
                  and bright, the dark LEDs white when it is bright
    CLOCK_BREAK   a break: clock_parts of the ring's LEDs, clockwise from seat 1's first,
                  stand for the time left: there the dark LEDs glow bluish green, past
                  them the ring is dimmed to a third; the bright part shrinks as it runs

Hand-for-hand, the table's hand over and waiting for the room's deal (ring.WAITING): the
whole ring dimmed to a third, every seat keeping its colours, and one white LED going
round, once in 3 s.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ring.canvas import colour_of, paint_run, scale
from dealerbutton.ring.palette import ROLE_DRAW, ROLE_OK, ROLE_REFUSED
from dealerbutton.ticks import ticks_diff

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

_LEVEL_HELD = const(144)  # a seat whose button is held: its arc glows
_FLASH_OK_MS = const(250)  # accepted press: one bright flash
_FLASH_REFUSED_MS = const(120)  # refused press: on, off, on, off of this length each
_CHASE_TURN_MS = const(2000)  # the draw for the button: one turn of the ring
_WAITING_TURN_MS = const(3000)  # hand-for-hand's wait: one turn of its white LED
_WAITING_DIM = const(85)  # ... over the ring at 85/256 (a third)


class Overlays:
    """Draws what moves onto the frame buf, painted on canvas over the steady picture
    steady; each drawing returns the change in buf's byte sum, or its new sum. Holds the
    press flashing: flash_seat (-1: none; 0: the whole ring) and flash_ok."""

    def __init__(self, canvas, steady, buf):
        self._canvas = canvas
        self._steady = steady
        self._buf = buf
        self.flash_seat = -1
        self._flash_also = -1
        self.flash_ok = True
        self._flash_dark = False
        self._flash_at = 0

    def start_flash(self, seat, also, ok, dark, now_ms):
        """A press's flash from now_ms: accepted (ok) or refused; dark: an accepted one
        flashes the seat dark instead of lit."""
        self.flash_seat = seat
        self._flash_also = also
        self.flash_ok = ok
        self._flash_dark = dark
        self._flash_at = now_ms

    def chase(self, now_ms, brightness):
        """The draw for the button: a head and a fading tail going round."""
        canvas = self._canvas
        leds = canvas.leds
        step = _CHASE_TURN_MS // leds
        if step < 1:
            step = 1
        head = (now_ms // step) % leds
        buf = self._buf
        canvas.colour(ROLE_DRAW, 255, brightness)
        total = canvas.led(buf, head)
        canvas.colour(ROLE_DRAW, 96, brightness)
        total += canvas.led(buf, (head - 1) % leds)
        canvas.colour(ROLE_DRAW, 32, brightness)
        return total + canvas.led(buf, (head - 2) % leds)

    def clock(self, ring, now_ms, brightness, total):
        """ring's clock signal on the LEDs no seat lights and over the whole frame, whose
        byte sum is total; returns its new sum. (Each step a method of few names, as
        ring.render's.)"""
        if ring.clock == CLOCK_BREAK:
            return self._break_time(ring, brightness, total)
        if ring.clock == CLOCK_COMING:
            t = now_ms % _CLOCK_BEAT_MS
            if t < _CLOCK_BEAT_MS // 2:
                self._canvas.colour(ROLE_REFUSED, _LEVEL_CLOCK, brightness)
                total += self._light_free(self._steady.nfree)
            if t < _CLOCK_DIP_MS:
                total = scale(self._buf, len(self._buf), _CLOCK_DIP)
            return total
        # CLOCK_NEW: dim, then bright with the free LEDs lit
        if now_ms % (2 * _CLOCK_NEW_MS) < _CLOCK_NEW_MS:
            return scale(self._buf, len(self._buf), _CLOCK_DIP)
        self._canvas.colour(ROLE_OK, _LEVEL_CLOCK, brightness)
        return total + self._light_free(self._steady.nfree)

    def _break_time(self, ring, brightness, total):
        """A break: the free LEDs among the first clock_parts lit, the ring past them dimmed;
        returns the frame's new byte sum."""
        self._canvas.colour(ROLE_DRAW, _LEVEL_CLOCK, brightness)
        total += self._light_free(self._free_below(ring.clock_parts))
        return self._dim_from(ring.clock_parts, total)

    def _free_below(self, parts):
        """How many of the free LEDs (in logical order) come before LED parts."""
        free = self._steady.free
        n = 0
        while n < self._steady.nfree and free[n] < parts:
            n += 1
        return n

    def _light_free(self, n):
        """The first n free LEDs in the canvas's colour; returns what that adds to the
        frame's byte sum."""
        total = 0
        i = 0
        while i < n:
            total += self._canvas.led(self._buf, self._steady.free[i])
            i += 1
        return total

    def _dim_from(self, k, total):
        """The frame, whose byte sum is total, dimmed to a third from logical LED k on;
        returns its new sum."""
        while k < self._canvas.leds:
            total += self._dim_led(3 * self._canvas.phys[k])
            k += 1
        return total

    def _dim_led(self, p):
        """The LED whose bytes start at p, dimmed to a third; returns the change in the
        frame's byte sum."""
        buf = self._buf
        before = buf[p] + buf[p + 1] + buf[p + 2]
        buf[p] = buf[p] * _CLOCK_BREAK_DIM >> 8
        buf[p + 1] = buf[p + 1] * _CLOCK_BREAK_DIM >> 8
        buf[p + 2] = buf[p + 2] * _CLOCK_BREAK_DIM >> 8
        return buf[p] + buf[p + 1] + buf[p + 2] - before

    def waiting(self, now_ms, brightness):
        """Hand-for-hand's wait over the whole frame: the ring dimmed to a third, one white
        LED going round; returns the frame's new byte sum."""
        canvas = self._canvas
        leds = canvas.leds
        total = scale(self._buf, 3 * leds, _WAITING_DIM)
        step = _WAITING_TURN_MS // leds
        canvas.colour(ROLE_OK, 255, brightness)
        return total + canvas.led(self._buf, (now_ms // step) % leds)

    def held(self, seat, brightness):
        """A held seat's whole arc, lit (the press shows from its first moment)."""
        canvas = self._canvas
        rgb = canvas.rgb
        colour_of(rgb, canvas.pal, ROLE_OK, _LEVEL_HELD, brightness)
        return paint_run(self._buf, canvas.phys, canvas.start[seat - 1], canvas.start[seat],
                         rgb)

    def flash(self, now_ms, brightness):
        """The flash of a press over its seat (and its second seat), ended once it is over."""
        t = ticks_diff(now_ms, self._flash_at)  # its age
        if t < 0:
            t = 0
        if self.flash_ok:
            if t >= _FLASH_OK_MS:
                self.flash_seat = -1
                return 0
            role = ROLE_OK
            on = not self._flash_dark
        else:
            if t >= 4 * _FLASH_REFUSED_MS:
                self.flash_seat = -1
                return 0
            role = ROLE_REFUSED
            on = (t // _FLASH_REFUSED_MS) & 1 == 0
        canvas = self._canvas
        start = canvas.start
        seat = self.flash_seat
        if seat == 0:
            a = 0
            b = canvas.leds
        else:
            a = start[seat - 1]
            b = start[seat]
        rgb = canvas.rgb
        colour_of(rgb, canvas.pal, role, 255 if on else 0, brightness)
        total = paint_run(self._buf, canvas.phys, a, b, rgb)
        also = self._flash_also
        if also > 0:
            total += paint_run(self._buf, canvas.phys, start[also - 1], start[also], rgb)
        return total
