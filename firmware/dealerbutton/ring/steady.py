"""The ring's steady picture: every seat's colours while its status and roles stay the same,
brightness applied, drawn again only where they change; each frame starts as a copy of it.

It is drawn twice, once for each half of the blink of the seats that owe a post, of the
kill and of the floor's marks (bases[0]: the on half, bases[1]: the off half), with the sum
of each one's bytes for the current limit. The seat that acts first is left dark: it
breathes, so it is drawn on every frame. With the seats it finds the LEDs no seat lights,
where the clock shows.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from array import array

from dealerbutton.ring.canvas import BLACK, paint_run
from dealerbutton.ring.palette import ROLE_ERROR
from dealerbutton.ring.seatlook import (
    EMPTY,
    MOVING,
    POST_BLINK_MS,
    POST_OFF_MS,
    POST_ON_MS,
    RESERVED,
    WAIT_POST,
)

# What bases were drawn for.
_DRAWN_NOTHING = const(-1)  # nothing yet, or the palette changed: draw it all
_DRAWN_SEATS = const(0)  # the seats
_DRAWN_ERROR = const(1)  # the error pattern, plus its phase (0 or 1)

_ERROR_BLINK_MS = const(500)  # the error pattern swaps this often
_LEVEL_ERROR = const(192)


class SteadyPicture:
    """The steady picture of a ring drawn on canvas (see the module doc): bases and sums,
    and free[0:nfree], the logical LEDs no seat lights; changed: what it shows changed (not
    just its level, or the error pattern's step) since the ring last cleared it. look (a
    seatlook.SeatLook on canvas) draws each seat."""

    def __init__(self, canvas, seats, look):
        leds = canvas.leds
        self._canvas = canvas
        self._look = look
        self._seats = seats
        self.bases = (bytearray(3 * leds), bytearray(3 * leds))
        self.sums = [0, 0]
        self.free = array("H", [0] * leds)
        self.nfree = 0
        # The statuses and roles bases show, and the seats to draw again (a 1 each).
        self._drawn_status = bytearray(seats + 1)
        self._drawn_button = 0
        self._drawn_sb = 0
        self._drawn_bb = 0
        self._drawn_first_to_act = 0
        self._drawn_kill = 0
        self._again = bytearray(seats + 1)
        self._drawn_what = _DRAWN_NOTHING
        self._drawn_brightness = -1
        self.changed = False

    def forget(self):
        """The next frame draws the whole picture again (the palette changed)."""
        self._drawn_what = _DRAWN_NOTHING

    def error_now(self, now_ms, level):
        """bases[0] made the error pattern of now_ms at brightness level (every other LED in
        the error colour, shifting by one every half second); returns 0, its index."""
        what = _DRAWN_ERROR + ((now_ms // _ERROR_BLINK_MS) & 1)
        if self._drawn_what < _DRAWN_ERROR:
            self.changed = True
        if what != self._drawn_what or level != self._drawn_brightness:
            self._draw_error(what - _DRAWN_ERROR, level)
            self._drawn_what = what
            self._drawn_brightness = level
        return 0

    def seats_now(self, ring, now_ms, level):
        """bases made the seats of ring's statuses and roles at brightness level; returns the
        index of the one that shows now_ms's half of the blink."""
        changed = (ring.status != self._drawn_status or ring.button != self._drawn_button
                   or ring.sb != self._drawn_sb or ring.bb != self._drawn_bb
                   or ring.first_to_act != self._drawn_first_to_act
                   or ring.kill != self._drawn_kill)
        if changed or self._drawn_what != _DRAWN_SEATS:
            self.changed = True
        if self._drawn_what != _DRAWN_SEATS or level != self._drawn_brightness:
            self._draw_seats(ring, level)
        elif changed:
            self._redraw_changed(ring, level)
        return 0 if now_ms % POST_BLINK_MS < POST_OFF_MS else 1

    def _draw_error(self, phase, level):
        """Every other LED in the error colour; phase shifts the pattern by one."""
        canvas = self._canvas
        base = self.bases[0]
        for i in range(len(base)):
            base[i] = 0
        total = 0
        canvas.colour(ROLE_ERROR, _LEVEL_ERROR, level)
        for k in range(canvas.leds):
            if (k + phase) & 1 == 0:
                total += canvas.led(base, k)
        self.sums[0] = total

    def _draw_seats(self, ring, level):
        """Every seat's steady picture, from the dark."""
        base = self.bases[0]
        for i in range(len(base)):
            base[i] = 0
        total = 0
        self._note_drawn(ring)
        for seat in range(1, self._seats + 1):
            if seat != ring.first_to_act:
                total += self._look.draw(seat, POST_ON_MS, level, base)
        self.sums[0] = total
        self._drawn_what = _DRAWN_SEATS
        self._drawn_brightness = level
        self._seats_changed(ring, level)

    def _redraw_changed(self, ring, level):
        """The seats whose status or roles changed since bases were drawn: only they are
        drawn again."""
        again = self._again
        status = ring.status
        drawn = self._drawn_status
        for seat in range(1, self._seats + 1):
            if status[seat] != drawn[seat]:
                again[seat] = 1
        _moved(again, self._drawn_button, ring.button)
        _moved(again, self._drawn_sb, ring.sb)
        _moved(again, self._drawn_bb, ring.bb)
        _moved(again, self._drawn_first_to_act, ring.first_to_act)
        _moved(again, self._drawn_kill, ring.kill)
        self._note_drawn(ring)
        canvas = self._canvas
        base = self.bases[0]
        phys = canvas.phys
        start = canvas.start
        total = self.sums[0]
        for seat in range(1, self._seats + 1):
            if not again[seat]:
                continue
            again[seat] = 0
            # Clear the seat's arc (black), then draw it unless it is drawn every frame.
            total += paint_run(base, phys, start[seat - 1], start[seat], BLACK)
            if seat != ring.first_to_act:
                total += self._look.draw(seat, POST_ON_MS, level, base)
        again[0] = 0
        self.sums[0] = total
        self._seats_changed(ring, level)

    def _note_drawn(self, ring):
        """bases are drawn for ring's statuses and roles of now."""
        status = ring.status
        drawn = self._drawn_status
        for seat in range(self._seats + 1):
            drawn[seat] = status[seat]
        self._drawn_button = ring.button
        self._drawn_sb = ring.sb
        self._drawn_bb = ring.bb
        self._drawn_first_to_act = ring.first_to_act
        self._drawn_kill = ring.kill

    def _seats_changed(self, ring, level):
        """After the on half changed: the off half (the same, but the seats that owe a post,
        the kill and the marked seats drawn in their blink's off half) and the LEDs left
        free."""
        on, off = self.bases
        off[:] = on
        total = self.sums[0]
        status = ring.status
        canvas = self._canvas
        phys = canvas.phys
        start = canvas.start
        for seat in range(1, self._seats + 1):
            look = status[seat]
            if ((look == WAIT_POST or look == RESERVED or look == MOVING or seat == ring.kill)
                    and seat != ring.first_to_act):
                total += paint_run(off, phys, start[seat - 1], start[seat], BLACK)
                total += self._look.draw(seat, POST_OFF_MS, level, off)
        self.sums[1] = total
        self._find_free(ring)

    def _find_free(self, ring):
        """The LEDs no seat lights: an empty seat's arc (a dead button is drawn: not empty),
        the gap at the end of an arc of 4 LEDs or more."""
        status = ring.status
        start = self._canvas.start
        free = self.free
        n = 0
        for seat in range(1, self._seats + 1):
            a = start[seat - 1]
            b = start[seat]
            if status[seat] == EMPTY and not _has_role(ring, seat):
                for k in range(a, b):
                    free[n] = k
                    n += 1
            elif b - a >= 4:
                free[n] = b - 1
                n += 1
        self.nfree = n


def _moved(again, was, now):
    """A role that moved from seat was to seat now: both are marked to draw again ([0],
    nobody, is never drawn)."""
    if was != now:
        again[was] = 1
        again[now] = 1


def _has_role(ring, seat):
    """The button, a blind, the kill or first to act is at seat (whoever sits there, if
    anyone)."""
    return (seat == ring.button or seat == ring.sb or seat == ring.bb
            or seat == ring.first_to_act or seat == ring.kill)
