"""The manual's "Build one" page (docs/build-one.md): its tables and steps between
`<!-- parts: NAME -->` and `<!-- /parts -->`, written from a build of the default
configuration, and its pictures, copied into docs/parts/. Nothing in those blocks is
written by hand; `dealerbutton hardware build --manual` writes them again."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Callable, Dict, List

from . import bom, centre, model
from .build import Request, Result, bill_rows
from .dimensions import PRINTING, PUCK, RINGS, TableSize

PAGE = Path("docs") / "build-one.md"
PICTURES = Path("docs") / "parts"
BLOCK = re.compile(r"(<!-- parts: ([\w-]+) -->\n)(.*?)(<!-- /parts -->)", re.S)


def _table(header: List[str], rows: List[List[str]]) -> List[str]:
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def printed_block(request: Request, result: Result, root: Path) -> List[str]:
    rows = []
    for name, made in result.parts.items():
        rows.append(["%s (`%s.stl`)" % (made.spec.title, name), made.spec.material,
                     made.spec.orientation, made.size(), "%.1f" % made.volume_cm3])
    return _table(["part (file)", "material", "on the bed", "size", "cm3 solid"], rows)


def settings_block(request: Request, result: Result, root: Path) -> List[str]:
    p = PRINTING
    rows = [["layer height", "%g mm" % p.layer],
            ["perimeters", "%d (%g mm lines: every wall of %g mm or more is solid)"
             % (p.perimeters, p.line, p.min_wall)],
            ["infill", "%d %%" % p.infill],
            ["supports", "none: every part is drawn to print without them"],
            ["fit", "%g mm round every bought part in its pocket, %g mm round the top's lip"
             % (PUCK.fit, PUCK.lid_fit)]]
    return _table(["setting", "value"], rows)


def _bom_rows(request: Request, result: Result, root: Path) -> List[bom.Row]:
    return bill_rows(request, request.rings[0], result, root)


def bom_block(request: Request, result: Result, root: Path) -> List[str]:
    rows = [[r.item, "%g" % r.qty, r.what] for r in _bom_rows(request, result, root)
            if not r.gpio]
    return _table(["item", "qty", "what"], rows)


def wiring_block(request: Request, result: Result, root: Path) -> List[str]:
    rows = [[r.item.removeprefix("cable, ").removeprefix("wire, "), r.gpio, r.pico_pin,
             "%s m" % r.cable_m] for r in _bom_rows(request, result, root) if r.gpio]
    return _table(["button or wire", "GPIO", "Pico pin", "cut to"], rows)


def assembly_block(request: Request, result: Result, root: Path) -> List[str]:
    ring = request.rings[0]
    lay = model.puck_layout(ring, request.setup)
    setup = request.setup
    weights = len(centre.weight_pockets(lay))
    cord = centre.foot_cord_length(lay) / 1000.0
    steps = [
        "Print the parts with the settings above: the base and the pods dark, the top "
        "white or clear.",
        "Glue a steel washer into each of the %d pockets under the base, and %.2f m of "
        "%g mm rubber cord into the groove round them: the puck then stays put on the "
        "felt." % (weights, cord, PUCK.foot_cord),
        "Solder three wires to the ring's pads at its first LED: data (through the "
        "resistor), 5 V and GND; solder the capacitor across 5 V and GND (its stripe to "
        "GND) and lay it on the floor opposite the L.",
        "Lay the ring on its %d pillars, its first LED over the L on the floor, the LEDs "
        "counting the way the L's foot points (config.json: offset %d, direction %s); a "
        "dot of hot glue on three pillars holds it." % (PUCK.pillars, setup.offset,
                                                        setup.direction),
        "Thread each seat's cable in through its hole: seat 1's is the first clockwise "
        "from the Pico's end, the others follow in order. The next-hand cable and, with an "
        "external supply, the power lead come in through the two holes beside the USB "
        "opening.",
        "Solder every cable to the Pico as the wiring table says (the second core of each "
        "button's cable to a GND pin), then lay the Pico in its pocket, its USB socket at "
        "the opening.",
        "Each pod: the cable in through the notch at the back and round its pins, soldered "
        "to the switch; a tact switch pushed up into its socket (a drop of hot glue) with "
        "its cap pressed on, or an arcade button snapped into its hole; a rubber foot "
        "under each corner post.",
        "Press the top on (it goes on one way only, the numbers over the ring), put the "
        "puck in the middle of the table with its USB end toward the dealer and a pod on "
        "the rail in front of each seat, plug the USB cable in and run "
        "`dealerbutton deploy`.",
    ]
    return ["%d. %s" % (i, s) for i, s in enumerate(steps, 1)]


BLOCKS: Dict[str, Callable[[Request, Result, Path], List[str]]] = {
    "printed": printed_block, "settings": settings_block, "bom": bom_block,
    "wiring": wiring_block, "assembly": assembly_block,
}


def default_request(root: Path) -> Request:
    """The build the page shows: both rings, the default config.json, the default table."""
    setup = model.read_setup(root / "firmware" / "config.json")
    return Request(list(RINGS), setup, TableSize(), "tact")


def render(text: str, request: Request, result: Result, root: Path) -> str:
    """The page with every block made again."""
    def block(m: re.Match) -> str:
        name = m.group(2)
        if name not in BLOCKS:
            raise KeyError("parts block %r: no such block (%s)" % (name, ", ".join(BLOCKS)))
        return (m.group(1) + "\n" + "\n".join(BLOCKS[name](request, result, root)) + "\n\n"
                + m.group(4))
    return BLOCK.sub(block, text)


def write(root: Path, request: Request, result: Result) -> List[Path]:
    """The page's blocks and its pictures, from this build."""
    folder = root / PICTURES
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in result.pictures:
        shutil.copyfile(path, folder / path.name)
        written.append(folder / path.name)
    page = root / PAGE
    page.write_text(render(page.read_text(), request, result, root))
    return written + [page]

