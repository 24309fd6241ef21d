"""`dealerbutton hardware build`: every printed part as STL and STEP with a picture, the
assembly pictures, and the bill of materials of each ring, into one folder."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List

import trimesh
from build123d import export_step, export_stl

from . import bom, centre, model, render
from .dimensions import SWITCHES, TableSize

STL_TOLERANCE = 0.02        # mm from the true surface
STL_ANGLE = 0.1             # radians between two facets of a curve


@dataclass
class Made:
    """A printed part as built: its solid, its mesh as written to STL, the seconds taken."""

    spec: model.PartSpec
    solid: object
    mesh: trimesh.Trimesh
    seconds: float

    @property
    def volume_cm3(self) -> float:
        return self.solid.volume / 1000.0  # type: ignore[attr-defined]

    def size(self) -> str:
        x, y, z = self.mesh.extents
        return "%.0f x %.0f x %.0f mm" % (x, y, z)


@dataclass
class Result:
    """Everything one build made."""

    out: Path
    parts: Dict[str, Made] = field(default_factory=dict)
    pictures: List[Path] = field(default_factory=list)
    boms: List[Path] = field(default_factory=list)


@dataclass(frozen=True)
class Request:
    """What to build: the rings, config.json's seats and marks, the table, the button kind
    the bill of materials counts."""

    rings: List[str]
    setup: model.Setup
    table: TableSize
    button: str = "tact"


def make_part(spec: model.PartSpec, out: Path) -> Made:
    """One part: its solid, then its STL (read back as the mesh) and its STEP."""
    start = time.perf_counter()
    solid = spec.make()
    stl = out / (spec.name + ".stl")
    export_stl(solid, str(stl), tolerance=STL_TOLERANCE, angular_tolerance=STL_ANGLE)  # type: ignore[arg-type]
    export_step(solid, str(out / (spec.name + ".step")))  # type: ignore[arg-type]
    mesh = trimesh.load(str(stl), force="mesh")
    return Made(spec, solid, mesh, time.perf_counter() - start)  # type: ignore[arg-type]


def part_picture(made: Made, path: Path) -> None:
    """A part as it is printed: the pods upside down, the top from higher up (its
    numbers)."""
    name = made.spec.name
    layer, elevation = render.Layer(made.mesh, render.COLOURS["base"]), 32.0
    if name.startswith("pod-"):
        layer = render.Layer(render.flipped(made.mesh)[0], render.COLOURS["pod"])
    elif name.endswith("-top"):
        layer = render.Layer(made.mesh, render.COLOURS["top"], render.engraved(made.mesh),
                             render.COLOURS["engraved"])
        elevation = 58.0
    notes = ["%s, %.1f cm3 solid" % (made.size(), made.volume_cm3),
             "print: %s; %s" % (made.spec.material, made.spec.orientation)]
    render.picture(path, [layer], made.spec.title, notes, elevation=elevation)


def centre_picture(result: Result, ring: str, setup: model.Setup, path: Path) -> None:
    """The base with the Pico, the capacitor and the ring in place; the top beside it."""
    base = result.parts["centre-%s-base" % ring]
    top = result.parts["centre-%s-top" % ring]
    layers = [render.Layer(base.mesh, render.COLOURS["base"])]
    for name, shape in model.centre_components(ring, setup).items():
        colour = render.COLOURS["led" if name == "ring" else name]
        if name == "ring":
            layers += _ring_layers(shape)
        else:
            layers.append(render.Layer(render.mesh_of(shape), colour))
    aside = top.mesh.copy()
    aside.apply_translation((0.0, -(base.mesh.extents[1] + 20.0), -top.mesh.bounds[0][2]))
    layers.append(render.Layer(aside, render.COLOURS["top"], render.engraved(aside),
                               render.COLOURS["engraved"]))
    title = "centre unit, %s-LED ring: the parts in place, the top beside" % ring
    notes = ["the ring (its first LED over the L on the floor), the Pico (green), "
             "the capacitor (blue)", "%d seats: a number engraved at the middle of each "
             "seat's arc, seat 1 to the dealer's left" % setup.seats]
    render.picture(path, layers, title, notes)


def _ring_layers(ring) -> List[render.Layer]:
    """The ring's board dark, its LEDs in yellow."""
    board, *leds = ring.solids()
    layers = [render.Layer(render.mesh_of(board), render.COLOURS["ring"])]
    layers += [render.Layer(render.mesh_of(led), render.COLOURS["led"]) for led in leds]
    return layers


def pod_picture(result: Result, kind: str, path: Path) -> None:
    pod = result.parts["pod-%s" % kind]
    switch = model.pod_components(kind)["switch"]
    layers = [render.Layer(pod.mesh, render.COLOURS["pod"]),
              render.Layer(render.mesh_of(switch), render.COLOURS["switch"])]
    title = "seat pod with its %s, on the rail" % SWITCHES[kind].label
    notes = ["the cable comes in through the notch at the back (toward the table's middle)",
             "and weaves round the pins inside before it reaches the switch"]
    render.picture(path, layers, title, notes)


def run(request: Request, out: Path, root: Path, say: Callable[[str], None]) -> Result:
    """Build everything into `out`, a line said for each file made."""
    out.mkdir(parents=True, exist_ok=True)
    result = Result(out)
    for spec in model.specs(request.rings, request.setup):
        made = make_part(spec, out)
        start = time.perf_counter()
        picture = out / (spec.name + ".png")
        part_picture(made, picture)
        result.parts[spec.name] = made
        result.pictures.append(picture)
        say("%-16s built in %.1f s, %.1f cm3, %s; STL, STEP; picture in %.1f s"
            % (spec.name, made.seconds, made.volume_cm3, made.size(),
               time.perf_counter() - start))
    for ring in request.rings:
        path = out / ("centre-%s.png" % ring)
        centre_picture(result, ring, request.setup, path)
        result.pictures.append(path)
        say("%-16s assembly picture" % path.stem)
    for kind in SWITCHES:
        path = out / ("pod-%s-assembled.png" % kind)
        pod_picture(result, kind, path)
        result.pictures.append(path)
        say("%-16s assembly picture" % path.stem)
    for ring in request.rings:
        path = out / ("bom-%s.csv" % ring)
        path.write_text(bom.csv_text(bill_rows(request, ring, result, root)))
        result.boms.append(path)
        say("%-16s bill of materials, %s-LED ring, %s pods" % (path.stem, ring, request.button))
    return result


def bill_rows(request: Request, ring: str, result: Result, root: Path) -> List[bom.Row]:
    """The bill of materials of one ring's build."""
    lay = model.puck_layout(ring, request.setup)
    build = bom.Build(ring, request.button, request.setup.seats, request.table)
    printed = []
    for name in ("centre-%s-base" % ring, "centre-%s-top" % ring, "pod-%s" % request.button):
        made = result.parts[name]
        qty = request.setup.seats + 1 if name.startswith("pod-") else 1
        printed.append(bom.Row(name, qty, "printed: %s (%s.stl)" % (made.spec.title, name)))
    return bom.bill(root, build, printed, centre.foot_cord_length(lay),
                    len(centre.weight_pockets(lay)))
