"""The printed parts as `dealerbutton hardware build` writes them: each builds as one valid
solid for both rings, each STL is watertight, every wall is at least 1.6 mm thick (rays
cast into the mesh), the parts and the bought parts' stand-ins do not overlap when
assembled, the ring, the Pico and the switches fit their pockets with the stated gap, and the
seat numbers sit over the LEDs the firmware lights for each seat. The figures are printed
(pytest -s shows them)."""

import math

import pytest
from hardware_rig import need_extra

pytestmark = pytest.mark.xdist_group("hardware")

PARTS = ["centre-24-base", "centre-24-top", "centre-60-base", "centre-60-top", "pod-tact",
         "pod-arcade"]


def test_every_part_is_built_for_both_rings_as_one_valid_solid(built):
    assert sorted(built.solids) == sorted(PARTS)
    for name in PARTS:
        solid = built.solids[name]
        assert solid.is_valid, name
        assert len(solid.solids()) == 1, name
        print("%-16s built in %5.2f s, %6.1f cm3" % (name, built.seconds[name],
                                                      solid.volume / 1000))


def test_every_stl_is_watertight_and_holds_the_solids_volume(built):
    for name, mesh in built.meshes.items():
        assert mesh.is_watertight, name
        assert mesh.is_winding_consistent, name
        solid = built.solids[name].volume
        assert abs(mesh.volume - solid) / solid < 0.005, (name, mesh.volume, solid)


def test_every_wall_is_at_least_the_minimum(built):
    from dealerbutton_host.hardware.dimensions import PRINTING
    from dealerbutton_host.hardware.measure import thinnest_wall

    for name, mesh in built.meshes.items():
        wall = thinnest_wall(mesh)
        print("%-16s thinnest wall %.2f mm at (%.1f, %.1f, %.1f), %d rays"
              % ((name, wall.thickness) + wall.at + (wall.rays,)))
        assert wall.rays > 19000, name
        assert wall.thickness >= PRINTING.min_wall, (name, wall)


def test_the_wall_measurement_finds_a_thin_wall():
    """A box whose pocket leaves a 1 mm side wall: the rays find that wall."""
    need_extra()
    from build123d import Box, Pos
    from dealerbutton_host.hardware.measure import thinnest_wall
    from dealerbutton_host.hardware.render import mesh_of

    part = Box(20, 20, 10) - Pos(1.5, 0, 2) * Box(15, 16, 10)
    wall = thinnest_wall(mesh_of(part, 0.02, 0.1))
    assert wall.thickness == pytest.approx(1.0, abs=0.01)
    assert wall.at[0] == pytest.approx(9.0, abs=0.01) or wall.at[0] == pytest.approx(
        10.0, abs=0.01)     # on one face or the other of the wall from x = 9 to 10


def _pairs(names):
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


def test_the_assembled_parts_do_not_overlap(built):
    from dealerbutton_host.hardware import model
    from dealerbutton_host.hardware.measure import overlap

    setup = model.Setup()
    for ring in ("24", "60"):
        shapes = {"base": built.solids["centre-%s-base" % ring],
                  "top": built.solids["centre-%s-top" % ring]}
        shapes.update(model.centre_components(ring, setup))
        for a, b in _pairs(list(shapes)):
            common = overlap(shapes[a], shapes[b])
            print("%s-LED ring: %s and %s overlap by %.4f mm3" % (ring, a, b, common))
            assert common < 1e-3, (ring, a, b, common)
    for kind in ("tact", "arcade"):
        common = overlap(built.solids["pod-%s" % kind], model.pod_components(kind)["switch"])
        print("pod-%s and its switch overlap by %.4f mm3" % (kind, common))
        assert common < 1e-3, kind


def test_an_overlap_is_found(built):
    """The Pico pushed 2 mm along, into the bay's end: the check sees it."""
    from build123d import Pos
    from dealerbutton_host.hardware import model
    from dealerbutton_host.hardware.measure import overlap

    pico = model.centre_components("24", model.Setup())["pico"]
    assert overlap(built.solids["centre-24-base"], Pos(2, 0, 0) * pico) > 1.0


def test_the_bought_parts_fit_their_pockets_with_the_stated_gap(built):
    from dealerbutton_host.hardware import model
    from dealerbutton_host.hardware.measure import clearance

    setup = model.Setup()
    checks = []
    for ring in ("24", "60"):
        parts = model.centre_components(ring, setup)
        checks += [(fit, parts[fit.component]) for fit in model.centre_fits(ring, setup)]
    for kind in ("tact", "arcade"):
        parts = model.pod_components(kind)
        checks += [(fit, parts[fit.component]) for fit in model.pod_fits(kind)]
    for fit, component in checks:
        gap = clearance(built.solids[fit.part], component, fit.z)
        print("%-16s %s: %.3f mm (stated %.2f)" % (fit.part, fit.what, gap, fit.clearance))
        assert gap == pytest.approx(fit.clearance, abs=0.01), (fit, gap)
    assert len(checks) == 7


def _angle(x, y):
    return math.degrees(math.atan2(y, x))


def _gap(a, b):
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("offset,direction", [(0, "cw"), (5, "ccw")])
def test_each_seat_number_is_over_the_leds_the_firmware_lights_for_that_seat(offset,
                                                                              direction):
    """The ring's stand-in puts its first LED over the floor's mark and counts the way the
    mark points; each seat's arc, as the firmware's renderer lays it out with config.json's
    offset and direction, is then under that seat's engraved number."""
    need_extra()
    from dealerbutton.ring.canvas import Canvas
    from dealerbutton_host.hardware import centre, components, model
    from dealerbutton_host.hardware.render import engraved, mesh_of

    setup = model.Setup(9, offset, direction)
    lay = model.puck_layout("24", setup)
    leds = components.ring(lay).solids()[1:]
    led_angles = [_angle(*tuple(s.center())[:2]) for s in leds]
    top = mesh_of(centre.top(lay))
    floors = top.triangles_center[engraved(top)]
    canvas = Canvas(24, 9, offset, direction == "ccw", None)
    for seat in range(1, 10):
        arc = [led_angles[p] for p in canvas.arc(seat)]
        middle = _angle(sum(math.cos(math.radians(a)) for a in arc),
                        sum(math.sin(math.radians(a)) for a in arc))
        near = [f for f in floors if _gap(_angle(f[0], f[1]), middle) < 12.0]
        assert near, (seat, middle)
        number = _angle(sum(f[0] for f in near), sum(f[1] for f in near))
        half_arc = max(_gap(a, middle) for a in arc) + 180.0 / 24
        assert _gap(number, middle) < half_arc, (seat, number, middle, half_arc)


def test_twelve_seat_numbers_fit_the_small_rings_top_a_wall_apart():
    need_extra()
    from dealerbutton_host.hardware import centre, model
    from dealerbutton_host.hardware.dimensions import PRINTING
    from dealerbutton_host.hardware.measure import thinnest_wall
    from dealerbutton_host.hardware.render import mesh_of

    lay = model.puck_layout("24", model.Setup(12, 0, "cw"))
    wall = thinnest_wall(mesh_of(centre.top(lay), 0.02, 0.1))
    assert wall.thickness >= PRINTING.min_wall, wall
