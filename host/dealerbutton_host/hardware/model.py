"""The printed parts by name, each with what it is made from, and the assemblies they go
into with the bought parts' stand-ins: what `dealerbutton hardware build` writes and what
the tests measure."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List

from .dimensions import PICO, POD, PRINTING, PUCK, RINGS, SWITCHES
from .layout import PodLayout, PuckLayout
from .seats import ring_marks


@dataclass(frozen=True)
class Setup:
    """What the parts take from config.json: the seats, and where seat 1 is on the ring."""

    seats: int = 9
    offset: int = 0
    direction: str = "cw"


def read_setup(path: Path) -> Setup:
    """config.json's seats, offset and direction (the firmware's defaults where it has none);
    ValueError in one line if the file cannot be used."""
    try:
        cfg = json.loads(path.read_text())
    except OSError as e:
        raise ValueError("%s: cannot read it: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise ValueError("%s: not JSON: %s" % (path, e)) from None
    if not isinstance(cfg, dict):
        raise ValueError("%s: not a config.json (an object is expected)" % path)
    seats, off, direction = cfg.get("seats", 9), cfg.get("offset", 0), cfg.get("direction", "cw")
    if not isinstance(seats, int) or not 2 <= seats <= 12:
        raise ValueError("%s: seats must be a whole number 2..12, not %r" % (path, seats))
    if not isinstance(off, int) or isinstance(off, bool):
        raise ValueError("%s: offset must be a whole number, not %r" % (path, off))
    if direction not in ("cw", "ccw"):
        raise ValueError("%s: direction must be \"cw\" or \"ccw\", not %r" % (path, direction))
    return Setup(seats, off, direction)


def puck_layout(ring: str, setup: Setup) -> PuckLayout:
    r = RINGS[ring]
    return PuckLayout(r, ring_marks(r.leds, setup.seats, setup.offset, setup.direction))


@dataclass(frozen=True)
class PartSpec:
    """A printed part: its file name, what the manual calls it, how to print it, and how
    to make its solid."""

    name: str
    title: str
    material: str
    orientation: str
    make: Callable[[], object]


@dataclass(frozen=True)
class Fit:
    """A bought part in a printed part's pocket: the gap the design leaves round it, and the
    height at which the two are cut across to measure it."""

    component: str
    part: str
    z: float
    clearance: float
    what: str


def centre_specs(ring: str, setup: Setup) -> List[PartSpec]:
    from . import centre

    lay = puck_layout(ring, setup)
    return [
        PartSpec("centre-%s-base" % ring, "centre unit base, %s-LED ring" % ring,
                 PRINTING.base_material, "upright, its floor on the bed, no supports",
                 lambda: centre.base(lay)),
        PartSpec("centre-%s-top" % ring, "diffusing top, %s-LED ring" % ring,
                 PRINTING.top_material, "face down (the numbers on the bed), no supports",
                 lambda: centre.top(lay)),
    ]


def pod_specs() -> List[PartSpec]:
    from . import pods

    return [PartSpec("pod-%s" % kind, "seat pod, %s" % s.label, PRINTING.base_material,
                     "upside down, its top on the bed, no supports",
                     (lambda lay: lambda: pods.pod(lay))(PodLayout(s)))
            for kind, s in SWITCHES.items()]


def specs(rings: List[str], setup: Setup) -> List[PartSpec]:
    """Every printed part of the given rings, then the pods."""
    return [p for r in rings for p in centre_specs(r, setup)] + pod_specs()


def centre_components(ring: str, setup: Setup) -> Dict[str, object]:
    """The ring's, the Pico's and the capacitor's stand-ins in the puck."""
    from . import components

    lay = puck_layout(ring, setup)
    return {"ring": components.ring(lay), "pico": components.pico(lay),
            "capacitor": components.capacitor(lay)}


def centre_fits(ring: str, setup: Setup) -> List[Fit]:
    lay = puck_layout(ring, setup)
    base = "centre-%s-base" % ring
    return [
        Fit("ring", base, lay.z_ring + lay.ring.board / 2, PUCK.fit,
            "the ring's board in its pocket"),
        Fit("pico", base, lay.z_pico + PICO.board / 2, PUCK.fit,
            "the Pico's board in its pocket"),
    ]


def pod_fits(kind: str) -> List[Fit]:
    lay = PodLayout(SWITCHES[kind])
    s = lay.switch
    if kind == "tact":
        return [Fit("switch", "pod-tact", lay.z_under_top - s.body_height / 2, POD.fit,
                    "the tact switch's body in its socket"),
                Fit("switch", "pod-tact", lay.z_under_top + s.top / 2,
                    (s.hole - s.above_width) / 2, "its cap in the hole")]
    return [Fit("switch", "pod-arcade", lay.z_under_top + s.top / 2, POD.fit,
                "the arcade button's body in its hole")]


def pod_components(kind: str) -> Dict[str, object]:
    from . import components

    return {"switch": components.switch(PodLayout(SWITCHES[kind]))}
