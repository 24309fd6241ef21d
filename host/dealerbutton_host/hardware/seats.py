"""Where the seats are: on the ring (the firmware's own arcs, so the puck's marks match what
the ring lights) and round the table (where the pods sit, how long each cable is).

Angles are in degrees, counter-clockwise seen from above, 0 along the puck's +x: the Pico's
end, which faces the dealer. The seats count clockwise from the dealer's left, as at the
table, so seat 1's arc starts just clockwise of 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Tuple

from dealerbutton.ring.canvas import Canvas

from .dimensions import TableSize


@dataclass(frozen=True)
class RingMarks:
    """What the puck moulds in for one ring and config: each seat's number at the middle
    of its arc, the first LED's mark, and which way the LEDs count from it (-1: clockwise,
    +1: counter-clockwise)."""

    leds: int
    seats: int
    seat_angles: Tuple[float, ...]
    first_led: float
    counting: int


def led_angle(logical: float, leds: int) -> float:
    """The angle of logical LED `logical` (seat 1's first LED is 0), at its middle."""
    return -(logical + 0.5) * 360.0 / leds


def ring_marks(leds: int, seats: int, offset: int, direction: str) -> RingMarks:
    """The marks for a ring of `leds` LEDs at a table of `seats`, with config.json's
    `offset` and `direction`: the seats' arcs as the firmware's renderer lays them out."""
    canvas = Canvas(leds, seats, offset % leds, direction == "ccw", None)
    arcs = [list(canvas.arc(s)) for s in range(1, seats + 1)]
    logical = {phys: k for k, phys in enumerate(canvas.phys)}
    angles = []
    for arc in arcs:
        first, last = logical[arc[0]], logical[arc[-1]]
        angles.append(_wrap(led_angle((first + last) / 2.0, leds)))
    first = led_angle(logical[0], leds)
    second = led_angle(logical[1 % leds], leds)
    counting = 1 if _wrap(second - first) > 0 else -1
    return RingMarks(leds, seats, tuple(angles), _wrap(first), counting)


def _wrap(angle: float) -> float:
    """An angle in -180..180."""
    return (angle + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class Place:
    """A button's place on the rail: its name, x and y in metres from the table's centre
    (the dealer on -y), and the cable it needs, in metres."""

    name: str
    x: float
    y: float
    cable: float


def rail_point(table: TableSize, along: float) -> Tuple[float, float]:
    """The point `along` metres round the rail, clockwise seen from above, from the dealer
    (the middle of the long side at -y)."""
    r = table.width / 2.0 - table.rail
    half = (table.length - table.width) / 2.0
    perimeter = 4 * half + 2 * math.pi * r
    d = along % perimeter
    if d <= half:                                    # the dealer's side, to the left
        return -d, -r
    d -= half
    if d <= math.pi * r:                             # the left end
        a = -math.pi / 2 - d / r
        return -half + r * math.cos(a), r * math.sin(a)
    d -= math.pi * r
    if d <= 2 * half:                                # the far side
        return -half + d, r
    d -= 2 * half
    if d <= math.pi * r:                             # the right end
        a = math.pi / 2 - d / r
        return half + r * math.cos(a), r * math.sin(a)
    return half - (d - math.pi * r), -r              # back along the dealer's side


def rail_length(table: TableSize) -> float:
    r = table.width / 2.0 - table.rail
    return 4 * (table.length - table.width) / 2.0 + 2 * math.pi * r


def cable_run(table: TableSize, x: float, y: float) -> float:
    """From the puck in the middle to a pod at (x, y): the straight line and its spare,
    and the slack, rounded up to 5 cm."""
    straight = math.hypot(x, y)
    run = straight * (1.0 + table.spare) + table.slack
    return math.ceil(round(run * 20.0, 6)) / 20.0


def places(table: TableSize, seats: int) -> List[Place]:
    """The next-hand button at the dealer, then seats 1..seats evenly round the rail,
    clockwise from the dealer's left."""
    step = rail_length(table) / (seats + 1)
    out = []
    for k in range(seats + 1):
        x, y = rail_point(table, k * step)
        out.append(Place("next hand" if k == 0 else "seat %d" % k, x, y,
                         cable_run(table, x, y)))
    return out


def check_table(table: TableSize) -> None:
    """A table the cables can be cut for, else ValueError saying what is wrong."""
    if not 0.5 <= table.width <= 3.0:
        raise ValueError("--table-width %g m: give the table's width in metres, 0.5 to 3"
                         % table.width)
    if not table.width <= table.length <= 6.0:
        raise ValueError("--table-length %g m: give the table's length in metres, from its "
                         "width (%g) to 6" % (table.length, table.width))
