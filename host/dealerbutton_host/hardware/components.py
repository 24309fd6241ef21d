"""Stand-ins of the bought parts, placed where they go: the ring (its board and LEDs), the
Pico (its board, its chips, its USB socket), the capacitor, a seat's switch. The fit checks
measure the printed parts against them, and the assembly pictures show them."""

from __future__ import annotations

import math

from build123d import Box, Circle, Compound, Cylinder, Part, Pos, Rot, extrude

from .dimensions import CAPACITOR, PICO, POD
from .layout import PodLayout, PuckLayout
from .solid import UP, sketch


def ring(lay: PuckLayout) -> Compound:
    """The ring's board on its pillars, its first LED over the floor's mark, the others
    counting round the way the mark points."""
    r = lay.ring
    board = Pos(0, 0, lay.z_ring) * extrude(sketch(Circle(r.outer / 2) - Circle(r.inner / 2)),
                                              r.board)
    leds = []
    for k in range(r.leds):
        a = lay.marks.first_led + lay.marks.counting * 360.0 * k / r.leds
        x, y = lay.ring_mid_r * math.cos(math.radians(a)), lay.ring_mid_r * math.sin(
            math.radians(a))
        leds.append(Pos(x, y, lay.z_ring + r.board) * Rot(0, 0, a)
                    * Box(r.led, r.led, r.led_height, align=UP))
    return Compound(children=[board] + leds)


def pico(lay: PuckLayout) -> Compound:
    """The Pico in its pocket, its USB socket at the bay's end."""
    x0, x1, z = lay.pico_x0, lay.pico_x1, lay.z_pico
    board = Pos((x0 + x1) / 2, 0, z) * Box(PICO.length, PICO.width, PICO.board, align=UP)
    top = z + PICO.board
    chips = Pos((x0 + x1) / 2 - 3.0, 0, top) * Box(PICO.length - 14.0, PICO.width - 6.0,
                                                  1.0, align=UP)
    usb_len = 5.5
    usb = Pos(x1 + PICO.usb_overhang - usb_len / 2, 0, top) * Box(
        usb_len, PICO.usb_width, PICO.usb_height, align=UP)
    return Compound(children=[board, chips, usb])


def capacitor(lay: PuckLayout) -> Part:
    """The 1000 uF capacitor lying on the floor inside the ring's pillars."""
    x, y, a = lay.capacitor_place()
    d = CAPACITOR.diameter
    return (Pos(x, y, lay.z_floor + d / 2) * Rot(0, 0, a) * Rot(0, 90, 0)
            * Cylinder(d / 2, CAPACITOR.length))


def switch(lay: PodLayout) -> Compound:
    """The seat's switch in its pod: a tact switch's body in its socket with its cap up
    through the top, or an arcade button's body down through the top under its bezel."""
    s = lay.switch
    x = lay.switch_x
    under = lay.z_under_top
    height = s.pod_height
    if s.kind == "tact":
        body = Pos(x, 0, under - s.body_height) * Box(s.body, s.body, s.body_height, align=UP)
        cap = Pos(x, 0, under + POD.fit) * Cylinder(
            s.above_width / 2, height + s.above - under - POD.fit, align=UP)
        return Compound(children=[body, cap])
    body = Pos(x, 0, height - s.body_height) * Cylinder(s.body / 2, s.body_height, align=UP)
    bezel = Pos(x, 0, height) * Cylinder(s.above_width / 2, s.above, align=UP)
    return Compound(children=[body, bezel])
