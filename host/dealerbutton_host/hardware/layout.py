"""Where everything goes in the puck and in a pod, worked out from the dimensions table:
heights, pockets, holes. The solids (centre.py, pods.py) and the stand-ins of the bought
parts (components.py) are both placed from here, so a fit is measured between the two.

The puck: the ring's centre at the origin, the Pico's bay along +x (toward the dealer), the
floor's underside at z = 0. A pod: its footprint centred on the origin, +x toward the
table's centre (its cable's side), the rail at z = 0.
"""

from __future__ import annotations

import math
from typing import List, Tuple

from .dimensions import CAPACITOR, PICO, POD, PUCK, Ring, Switch
from .seats import RingMarks
from .sevenseg import number_width

Point = Tuple[float, float]


class PuckLayout:
    """The centre unit's layout for one ring and one set of seat marks."""

    def __init__(self, ring: Ring, marks: RingMarks):
        self.ring = ring
        self.marks = marks
        p = PUCK
        self.pocket_r = ring.outer / 2 + p.fit          # the ring's pocket
        self.outer_r = self.pocket_r + p.wall
        self.z_floor = p.floor
        self.z_ring = p.floor + p.cavity                 # the ring's underside
        self.z_leds = self.z_ring + ring.board + ring.led_height
        self.z_lid = self.z_leds + p.air                 # the walls' top, the top's underside
        self.z_top = self.z_lid + p.top
        self.ring_mid_r = (ring.outer + ring.inner) / 4  # the LEDs' circle
        # The Pico, USB end toward +x, its underside on its bed.
        self.pico_x0 = ring.outer / 2 + p.bay_gap
        self.pico_x1 = self.pico_x0 + PICO.length
        self.z_pico = p.floor + p.pico_lift
        self.bed_half = PICO.width / 2 + p.fit + p.bed_margin
        self.end_inner_x = self.pico_x1 + PICO.usb_overhang + p.fit
        self.end_x = self.end_inner_x + p.wall
        hole_y = self.bed_half + p.exit_spacing + p.power_hole / 2
        # the end wall is straight up to its inner corners' curve: the holes stay in it
        self.bay_inner_half = hole_y + p.power_hole / 2 + p.exit_spacing + p.corner - p.wall
        self.bay_half = self.bay_inner_half + p.wall
        self.usb_z = self.z_pico + PICO.board + PICO.usb_height / 2
        self.end_holes = [("next hand", -hole_y, p.exit_hole), ("power", hole_y, p.power_hole)]

    def bay_angle(self) -> float:
        """The half angle, from +x, that the Pico's bay takes of the round wall."""
        return math.degrees(math.asin(min(1.0, self.bay_half / self.outer_r)))

    def fence_gap(self) -> float:
        """The half angle of the doorway in the fence between the ring and the bay."""
        return math.degrees(math.asin(min(1.0, (self.bed_half - PUCK.bed_margin)
                                          / self.pocket_r)))

    def seat_exits(self) -> List[float]:
        """The angle of each seat's cable hole in the round wall, in seat order: spread
        evenly clockwise round the wall that the bay leaves, from the dealer's left."""
        margin = math.degrees((PUCK.exit_hole / 2 + PUCK.exit_spacing) / self.outer_r)
        start = -(self.bay_angle() + margin)
        span = 360.0 - 2 * (self.bay_angle() + margin)
        n = self.marks.seats
        step = span / (n - 1) if n > 1 else 0.0
        return [start - k * step for k in range(n)]

    def pillar_angles(self) -> List[float]:
        """The pillars under the ring, evenly round, between the first LED's mark."""
        n = PUCK.pillars
        return [self.marks.first_led + (k + 0.5) * 360.0 / n for k in range(n)]

    def capacitor_place(self) -> Tuple[float, float, float]:
        """The capacitor's centre x, y and the angle it lies across: opposite the first
        LED's mark, inside the pillars."""
        r = self.ring_mid_r - PUCK.pillar / 2 - CAPACITOR.diameter / 2 - 2.0
        a = self.marks.first_led + 180.0
        return r * math.cos(math.radians(a)), r * math.sin(math.radians(a)), a + 90.0

    def number_radius(self) -> float:
        """The seat numbers' circle: inside the ring's LEDs, or further out when the numbers
        need it to stay a wall's width apart (many seats on a small ring)."""
        h = self.ring.digit
        inside = self.ring.inner / 2 - h / 2 - PUCK.digit_stroke - 1.0
        widest = max(number_width(str(s), h) for s in range(1, self.marks.seats + 1))
        apart = (widest + PUCK.digit_apart) / (2 * math.sin(math.pi / self.marks.seats))
        r = max(inside, apart + h / 2)
        if r + h / 2 > self.outer_r - PUCK.wall - PUCK.digit_apart:
            raise ValueError("the %s-LED ring's top has no room for %d seat numbers"
                             % (self.ring.name, self.marks.seats))
        return r

    def weight_places(self) -> List[Point]:
        """The weights' pockets under the floor: a square grid from the ring's centre, each
        kept where it has the foot's groove and a wall's width round it (the caller checks
        against the outline)."""
        d = PUCK.weight + 2 * PUCK.weight_fit
        step = d + 2.0
        out = []
        nx = int((self.end_x + self.outer_r) / step) + 1
        ny = int(self.outer_r / step) + 1
        for i in range(-nx, nx + 1):
            for j in range(-ny, ny + 1):
                out.append((i * step, j * step))
        return out


class PodLayout:
    """A seat button pod's layout for one switch."""

    def __init__(self, switch: Switch):
        self.switch = switch
        p = POD
        self.half_x = switch.pod_length / 2
        self.half_y = switch.pod_width / 2
        self.z_under_top = switch.pod_height - switch.top
        back_inner = self.half_x - p.wall
        self.pins: List[Point] = [
            (back_inner - 3.0 - k * p.relief_step, (1 if k % 2 == 0 else -1) * p.relief_offset)
            for k in range(p.relief_pins)]
        last_pin = self.pins[-1][0] - p.relief_pin / 2
        self.socket_half = (switch.body / 2 + p.fit + p.socket_wall if switch.kind == "tact"
                            else switch.hole / 2)
        self.switch_x = last_pin - 4.0 - self.socket_half
        front = -self.half_x + p.wall + 1.6
        if self.switch_x - max(self.socket_half, switch.above_width / 2) < front:
            raise ValueError("the %s pod is too short for its switch and strain relief"
                             % switch.kind)
        self.posts: List[Point] = [(sx * (self.half_x - p.post_inset),
                                    sy * (self.half_y - p.post_inset))
                                   for sx in (-1, 1) for sy in (-1, 1)]
