"""The centre unit's printed parts as solids: the base (walls, floor, the ring's pillars, the
Pico's bed, the cable holes, the weights' pockets and the rubber foot's groove underneath)
and the diffusing top (its plate, its locating lip, the seat numbers engraved)."""

from __future__ import annotations

import math
from typing import List

from build123d import (
    Box,
    Circle,
    Cylinder,
    Part,
    Polygon,
    Pos,
    RectangleRounded,
    Rot,
    Sketch,
    extrude,
    offset,
)

from .dimensions import PICO, PUCK
from .layout import PuckLayout
from .sevenseg import number_strokes
from .solid import UP, part, sketch


def outline(lay: PuckLayout) -> Sketch:
    """The puck seen from above: the ring's circle and the Pico's bay."""
    bay = Pos(lay.end_x / 2, 0) * RectangleRounded(lay.end_x, 2 * lay.bay_half, PUCK.corner)
    return sketch(Circle(lay.outer_r) + bay)


def _band(lay: PuckLayout, inset: float, width: float) -> Sketch:
    """The band of the outline from `inset` to `inset + width` inside its edge."""
    shape = outline(lay)
    return sketch(offset(shape, -inset) - offset(shape, -(inset + width)))


def _wedge(half_angle: float, reach: float) -> Sketch:
    """A wedge from the centre along +x, half_angle (degrees, under 90) either side."""
    t = math.tan(math.radians(half_angle))
    return Polygon((0, 0), (reach, -reach * t), (reach, reach * t), align=None)


def _at(r: float, angle: float, z: float = 0.0) -> Pos:
    a = math.radians(angle)
    return Pos(r * math.cos(a), r * math.sin(a), z)


def foot_cord_length(lay: PuckLayout) -> float:
    """The rubber cord's length: the foot groove's middle line, in millimetres."""
    middle = offset(outline(lay), -(PUCK.foot_inset + (PUCK.foot_cord + 0.2) / 2))
    return sum(e.length for e in middle.edges())


def base(lay: PuckLayout) -> Part:
    """The base, printed upright (its floor on the bed)."""
    shape = outline(lay)
    solid = extrude(shape, lay.z_lid)
    solid -= Pos(0, 0, lay.z_floor) * extrude(sketch(offset(shape, -PUCK.wall)), lay.z_lid)
    solid += _fence(lay) + _pico_bed(lay) + _supports(lay) + _first_led_mark(lay)
    solid -= _holes(lay)
    solid -= _underside(lay)
    return part(solid)


def _fence(lay: PuckLayout) -> Part:
    """The ring's pocket wall across the bay, with a doorway for the wires."""
    reach = lay.outer_r * 2
    arc = (Circle(lay.outer_r) - Circle(lay.pocket_r)) & (
        _wedge(lay.bay_angle() + 2.0, reach) - _wedge(lay.fence_gap(), reach))
    return Pos(0, 0, lay.z_floor - 0.1) * extrude(sketch(arc), lay.z_ring + lay.ring.board
                                                  - lay.z_floor + 0.1)


def _pico_bed(lay: PuckLayout) -> Part:
    """The block the Pico lies in: its pocket, grooves under its two pin rows."""
    x0 = lay.pico_x0 - PUCK.fit - PUCK.bed_margin
    x1 = lay.pico_x1 + PUCK.fit
    top = lay.z_pico + PICO.board
    bed = Pos((x0 + x1) / 2, 0, lay.z_floor - 0.1) * Box(
        x1 - x0, 2 * lay.bed_half, top - lay.z_floor + 0.1, align=UP)
    px0, px1 = lay.pico_x0 - PUCK.fit, x1 + 1.0
    bed -= Pos((px0 + px1) / 2, 0, lay.z_pico) * Box(
        px1 - px0, PICO.width + 2 * PUCK.fit, PICO.board + 1.0, align=UP)
    for side in (-1, 1):
        y = side * (PICO.width / 2 - PICO.pin_row)
        bed -= Pos((px0 + px1) / 2, y, lay.z_pico - PUCK.relief) * Box(
            px1 - px0, PUCK.relief_width, PUCK.relief + 0.1, align=UP)
    return part(bed)


def _supports(lay: PuckLayout) -> Part:
    """The pillars the ring lies on and the post under the middle of the top."""
    z0 = lay.z_floor - 0.1
    solids = Pos(0, 0, z0) * Cylinder(PUCK.post / 2, lay.z_lid - z0, align=UP)
    for a in lay.pillar_angles():
        solids += _at(lay.ring_mid_r, a, z0) * Cylinder(PUCK.pillar / 2, lay.z_ring - z0,
                                                        align=UP)
    return part(solids)


def _first_led_mark(lay: PuckLayout) -> Part:
    """An L on the floor: its stem under the ring's first LED, its foot pointing the way
    the LEDs count."""
    a = lay.marks.first_led
    z0 = lay.z_floor - 0.1
    h = PUCK.key + 0.1
    stem = _at(lay.ring_mid_r, a, z0) * Rot(0, 0, a) * Box(
        PUCK.key_length, PUCK.key_width, h, align=UP)
    r_foot = lay.ring_mid_r - PUCK.key_length / 2 + PUCK.key_width / 2
    along = math.degrees((PUCK.key_length - PUCK.key_width) / 2 / r_foot) * lay.marks.counting
    foot = _at(r_foot, a + along, z0) * Rot(0, 0, a) * Box(
        PUCK.key_width, PUCK.key_length, h, align=UP)
    return part(stem + foot)


def _holes(lay: PuckLayout) -> List[Part]:
    """The USB plug's opening, the next-hand button's and the power lead's holes in the
    bay's end, and a hole for each seat's cable in the round wall."""
    width, height = PUCK.usb_opening
    x0 = lay.end_inner_x - 0.5
    length = lay.end_x + 1.0 - x0
    holes: List[Part] = [Pos(x0 + length / 2, 0, lay.usb_z) * Box(length, width, height)]
    z = lay.z_floor + PUCK.exit_height
    for _name, y, d in lay.end_holes:
        holes.append(Pos(x0 + length / 2, y, z) * Rot(0, 90, 0) * Cylinder(d / 2, length))
    r0 = lay.pocket_r - 0.5
    for a in lay.seat_exits():
        span = lay.outer_r + 1.0 - r0
        holes.append(_at(r0 + span / 2, a, z) * Rot(0, 0, a) * Rot(0, 90, 0)
                     * Cylinder(PUCK.exit_hole / 2, span))
    return holes


def weight_pockets(lay: PuckLayout) -> List[Part]:
    """The pockets for the steel washers, cut up into the floor from below: as many as
    fit with the foot's groove and a wall's width round each."""
    d = PUCK.weight + 2 * PUCK.weight_fit
    room = offset(outline(lay), -(PUCK.foot_inset + PUCK.foot_cord + 0.2 + 1.6))
    out: List[Part] = []
    for x, y in lay.weight_places():
        disc = Pos(x, y) * Circle(d / 2)
        if (disc - room).area < 1e-6:
            out.append(Pos(x, y, -1.0) * Cylinder(d / 2, PUCK.weight_thick + 0.4 + 1.0,
                                                   align=UP))
    return out


def _underside(lay: PuckLayout) -> List[Part]:
    groove = Pos(0, 0, -1.0) * extrude(_band(lay, PUCK.foot_inset, PUCK.foot_cord + 0.2),
                                        PUCK.foot_groove + 1.0)
    return [groove] + weight_pockets(lay)


def top(lay: PuckLayout) -> Part:
    """The diffusing top, printed upside down (its face on the bed, the numbers' grooves
    then on the bed side)."""
    shape = outline(lay)
    plate = Pos(0, 0, lay.z_lid) * extrude(shape, PUCK.top)
    lip = _band(lay, PUCK.wall + PUCK.lid_fit, PUCK.lip_wall)
    plate += Pos(0, 0, lay.z_lid - PUCK.lip) * extrude(lip, PUCK.lip + 0.1)
    return part(plate - _numbers(lay))


def _numbers(lay: PuckLayout) -> List[Part]:
    """Each seat's number, engraved in the top at the middle of its arc, its top toward
    the middle so that it reads from the seat."""
    r = lay.number_radius()
    z = lay.z_top - PUCK.digit_depth
    cuts: List[Part] = []
    for seat, a in enumerate(lay.marks.seat_angles, 1):
        for cx, cy, w, h in number_strokes(str(seat), lay.ring.digit, PUCK.digit_stroke):
            cuts.append(_at(r, a, z) * Rot(0, 0, a + 90) * Pos(cx, cy, 0)
                        * Box(w, h, PUCK.digit_depth + 1.0, align=UP))
    return cuts
