"""LED ring renderer (Ring): the seats' statuses and roles in, one frame out (3 bytes an
LED, R G B or the strip's own colour order; brightness and current limit applied).

After every table event the app writes each seat's status into ``ring.status`` (EMPTY,
ACTIVE, AWAY, WAIT_BB, WAIT_POST; RESERVED and MOVING for the floor's marks) and the seat
of each role into ``ring.button``, ``ring.sb``, ``ring.bb``, ``ring.kill`` and
``ring.first_to_act`` (0: nobody), the mode into ``ring.mode`` (WAITING: hand-for-hand's
wait for the room's deal); at a tournament table ``ring.clock`` and ``ring.clock_parts``
every loop turn. Presses come as ``ring.flash()`` and ``ring.hold()``. The board calls
``ring.render(now_ms)`` every frame and sends ``ring.buf`` to the strip. render() only
writes into buffers made in __init__, so it never allocates.

Each seat owns an arc of LEDs (``ring.arc(seat)``); what it shows there is seatlook.py's.
A frame is a copy of the steady picture (steady.py: the seats' colours, drawn again only
where a status or role changed) with what moves drawn on top (the seat that acts first
breathing, and overlays.py's chase, clock signals, hand-for-hand's wait, held seats and
flashes): byte for byte the frame of drawing everything every time.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ring.canvas import Canvas, scale
from dealerbutton.ring.overlays import CLOCK_NONE, Overlays
from dealerbutton.ring.palette import ROLE_BUTTON, ROLE_OK
from dealerbutton.ring.seatlook import ACTIVE, SeatLook
from dealerbutton.ring.steady import SteadyPicture

# Modes.
NORMAL = const(0)
DRAW = const(1)  # before the first hand: press a seat to put the button there
ERROR = const(2)  # the configuration was refused
WAITING = const(3)  # hand-for-hand: the hand is over, the table waits for the room's deal


def estimate_ma(buf):
    """Current drawn by a frame (RGB bytes per LED), WLED's model: about 55 mA per LED at
    full white, scaled by R+G+B over 765, plus 1 mA idle per LED."""
    total = 0
    for v in buf:
        total += v
    return total * 55 // 765 + len(buf) // 3


class Ring:
    """The table's LED ring: leds LEDs shared out among seats seats, seat 1's first LED at
    strip LED offset (reverse: counting down the strip); frames drawn at brightness 0..255
    and kept within budget_ma; palette: config.json's, over the default one; order: the
    order of each LED's bytes in buf ("RGB", or "GRB" for a strip that sends buf as it is)."""

    def __init__(self, leds, seats, offset=0, reverse=False, brightness=128, budget_ma=400,
                 palette=None, order="RGB"):
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
        self.order = order
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
        self.held = bytearray(seats + 1)   # seats whose button is held (hold() sets them)
        self._holding = 0  # how many seats are held
        self.clock = CLOCK_NONE
        self.clock_parts = 0  # CLOCK_BREAK: how many LEDs stand for the time left
        self.buf = bytearray(3 * leds)
        self._view = memoryview(self.buf)  # copying into a memoryview slice allocates nothing
        self.ma = 0  # estimated current of the last frame
        # A press's flash shows: from flash() to the frame that finds it over. (A plain
        # attribute: a property would make every attribute store look through the class.)
        self.flashing = False
        # The level frames are drawn at, the brightness at most: lowered where the picture
        # would go over budget_ma, found again when the picture or the brightness changes
        # (see _fit_level), so that a frame over budget is rare and the steady seats stay
        # as bright from frame to frame.
        self._fit = 255
        self._fit_brightness = -1
        self._refit = True
        self._canvas = Canvas(leds, seats, self.offset, self.reverse, palette, order)
        self._look = SeatLook(self._canvas, self)
        self._steady = SteadyPicture(self._canvas, seats, self._look)
        self._overlays = Overlays(self._canvas, self._steady, self.buf)

    # -- configuration (not on the frame path) --------------------------------------
    def set_palette(self, palette=None):
        """The default palette, overridden per role by a dict of role -> "RRGGBB" (config.json's
        "palette", which store/config.py has checked); a bad one raises ValueError."""
        self._canvas.set_palette(palette)
        self._steady.forget()

    def arc(self, seat):
        """The strip indices of a seat's LEDs, in seat order (seat 0: the whole ring)."""
        return self._canvas.arc(seat)

    # -- events -----------------------------------------------------------------------
    def hold(self, seat, on):
        """A seat's button is held (on) or let go: its arc glows while held."""
        was = self.held[seat]
        self.held[seat] = 1 if on else 0
        self._holding += self.held[seat] - was

    def flash(self, seat, ok, now_ms, button_alone=None, also=-1):
        """Feedback for a press on seat (0: the next-hand button, whole ring): one bright
        flash when accepted, a double blink in the warning colour when refused; also: a
        second seat flashing with it (a move's). button_alone: the seat showed the button
        alone when it was pressed (default: whether it does now, see shows_button_alone())."""
        if not 0 <= seat <= self.seats:
            raise ValueError("seat %d: no such seat" % seat)
        # A seat lit all in the flash's colour already (the button alone, white on every LED
        # of its arc) flashes dark instead: the press must show.
        pal = self._canvas.pal
        if button_alone is None:
            button_alone = self.shows_button_alone(seat)
        dark = (ok and button_alone
                and pal[3 * ROLE_BUTTON:3 * ROLE_BUTTON + 3] == pal[3 * ROLE_OK:3 * ROLE_OK + 3])
        self._overlays.start_flash(seat, also, bool(ok), dark, now_ms)
        self.flashing = True

    def shows_button_alone(self, seat):
        """The seat has the button and no other role, and its player is in (ACTIVE): the
        button's white fills its whole arc."""
        return (seat > 0 and seat == self.button and self.status[seat] == ACTIVE
                and seat != self.sb and seat != self.bb and seat != self.first_to_act
                and seat != self.kill)

    def flash_hides(self, seat):
        """An accepted press of seat is flashing (0: the next-hand button's, over the whole
        ring): its flash is drawn over every LED of the seat, which shows nothing else."""
        return self._overlays.flash_seat == seat and self._overlays.flash_ok

    # -- the frame ------------------------------------------------------------------
    def render(self, now_ms):
        """The frame of now_ms in buf (returned too), its estimated current in ma.

        Every step is a method of few names: MicroPython puts the frame of a call whose
        names and stack pass 11 words on the heap, and this runs 40 times a second."""
        level = self.brightness   # (0..255, at most the level that fits the budget)
        if level > 255:
            level = 255
        elif level < 0:
            level = 0
        if level != self._fit_brightness:
            self._fit_brightness = level
            self._refit = True
        if level > self._fit:
            level = self._fit
        total = self._steady_frame(now_ms, level)
        if self.mode != ERROR:
            total = self._moving(now_ms, level, total)
        passing = self._holding or self._overlays.flash_seat >= 0  # a press's light, soon gone
        if passing:
            total = self._press_light(now_ms, level, total)
        ma = total * 55 // 765 + self.leds  # the estimated current, from the byte sum
        if not passing:   # (the level of later frames follows the steady picture)
            self._fit_level(level, total, ma)
        if ma > self.budget_ma:
            ma = self._limit(total)
        self.ma = ma
        return self.buf

    def _steady_frame(self, now_ms, level):
        """buf: the steady picture's half of now_ms (the blinks' on or off half); returns
        its byte sum."""
        steady = self._steady
        if self.mode == ERROR:
            half = steady.error_now(now_ms, level)
        else:
            half = steady.seats_now(self, now_ms, level)
        if steady.changed:
            steady.changed = False
            self._refit = True
        self._view[0:self.leds * 3] = steady.bases[half]
        return steady.sums[half]

    def _moving(self, now_ms, level, total):
        """What moves drawn over the steady picture, whose byte sum is total: the seat that
        acts first (it breathes), the draw's chase, the clock's signal, hand-for-hand's
        wait; returns the new sum."""
        if self.first_to_act:   # (it breathes: drawn every frame)
            total += self._look.draw(self.first_to_act, now_ms, level, self.buf)
        if self.mode == DRAW:
            total += self._overlays.chase(now_ms, level)
        if self.clock != CLOCK_NONE:
            total = self._overlays.clock(self, now_ms, level, total)
        if self.mode == WAITING:
            total = self._overlays.waiting(now_ms, level)
        return total

    def _press_light(self, now_ms, level, total):
        """The held seats' glow and a press's flash over the frame, whose byte sum is total;
        returns the new sum."""
        moving = self._overlays
        if self._holding:
            held = self.held
            for seat in range(1, self.seats + 1):
                if held[seat]:
                    total += moving.held(seat, level)
        if moving.flash_seat >= 0:
            total += moving.flash(now_ms, level)
            self.flashing = moving.flash_seat >= 0
        return total

    def _fit_level(self, level, total, ma):
        """The level later frames are drawn at: lowered to what this frame (drawn at level,
        byte sum total, estimated current ma) needs to fit the budget when it is over; when
        the picture changed, the highest level at which it fits (the brightness at most)."""
        over = ma > self.budget_ma
        if not (over or self._refit):
            return
        self._refit = False
        # (budget_ma - leds) * 765 // 55: the largest byte sum within the budget
        fit = level * ((self.budget_ma - self.leds) * 765 // 55) // total if total else 255
        if not over:
            fit = min(255, max(level, fit))
        self._fit = fit

    def _limit(self, total):
        """The frame, whose byte sum is total, scaled down to the largest R+G+B sum within
        the budget; returns its estimated current."""
        buf = self.buf
        leds = self.leds
        total = scale(buf, len(buf), (self.budget_ma - leds) * 765 // 55 * 256 // total)
        return total * 55 // 765 + leds
