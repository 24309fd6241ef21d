"""A seat button's pod as a solid: an open-bottomed shell that sits on the rail, the switch
in its top, corner posts with a rubber foot under each, and the cable's strain relief (a
notch in the back wall, then pins the cable weaves round before it reaches the switch)."""

from __future__ import annotations

from build123d import Box, Cylinder, Part, Pos, RectangleRounded, extrude, offset

from .dimensions import POD
from .layout import PodLayout
from .solid import UP, part, sketch


def pod(lay: PodLayout) -> Part:
    """The pod, printed upside down (its top on the bed; nothing overhangs)."""
    s = lay.switch
    foot = RectangleRounded(s.pod_length, s.pod_width, POD.corner)
    shell = extrude(foot, s.pod_height)
    shell -= Pos(0, 0, -1.0) * extrude(sketch(offset(foot, -POD.wall)), lay.z_under_top + 1.0)
    for x, y in lay.posts:
        shell += Pos(x, y, 0) * Cylinder(POD.post / 2, lay.z_under_top + 0.1, align=UP)
    for x, y in lay.pins:
        shell += Pos(x, y, 0) * Cylinder(POD.relief_pin / 2, lay.z_under_top + 0.1, align=UP)
    if s.kind == "tact":
        shell += _socket(lay)
    shell -= Pos(lay.switch_x, 0, lay.z_under_top - 1.0) * Cylinder(
        s.hole / 2, s.top + 2.0, align=UP)
    notch = POD.cable
    shell -= Pos(lay.half_x - POD.wall / 2, 0, -1.0) * Box(
        POD.wall + 2.0, notch, notch + 1.0, align=UP)
    return part(shell)


def _socket(lay: PodLayout) -> Part:
    """The square socket the tact switch's body is pushed up into."""
    s = lay.switch
    inner = s.body + 2 * POD.fit
    outer = inner + 2 * POD.socket_wall
    z0 = lay.z_under_top - s.body_height
    shell = Pos(lay.switch_x, 0, z0) * Box(outer, outer, s.body_height + 0.1, align=UP)
    return part(shell - Pos(lay.switch_x, 0, z0 - 1.0) * Box(inner, inner, s.body_height + 1.0,
                                                               align=UP))
