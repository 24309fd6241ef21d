"""The bill of materials of one build: the printed parts, the parts list of
hardware/README.md (what this build needs of it, how many), the weights and the rubber
cord the puck takes, and a cable for each button with its GPIO and Pico pin from
hardware/pins.json, cut to the table's size."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from .dimensions import POD, PUCK, TableSize
from .seats import places

# The Pico's 40 pins in order (pin 1 is GP0): what each carries.
PICO_PINS: Tuple[str, ...] = tuple(str(
    "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15 "
    "GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 GND GP28 ADC_VREF 3V3 3V3_EN "
    "GND VSYS VBUS").split())
COLUMNS = ["item", "qty", "what", "gpio", "pico_pin", "cable_m"]


def pico_pin(signal: str) -> int:
    """The Pico's pin number (1..40) of a GPIO (GP2) or supply pin (VBUS)."""
    return PICO_PINS.index(signal) + 1


@dataclass(frozen=True)
class Build:
    """What a bill of materials is made for."""

    ring: str          # "24" or "60"
    button: str        # "tact" or "arcade"
    seats: int
    table: TableSize


@dataclass(frozen=True)
class Row:
    item: str
    qty: float
    what: str
    gpio: str = ""
    pico_pin: str = ""
    cable_m: str = ""

    def cells(self) -> List[str]:
        qty = "%g" % self.qty
        return [self.item, qty, self.what, self.gpio, self.pico_pin, self.cable_m]


def parts_list(readme: Path) -> List[Dict[str, str]]:
    """The rows of the "## Parts" table of hardware/README.md: part, example, qty."""
    text = readme.read_text()
    m = re.search(r"^## Parts\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        raise ValueError("%s has no \"## Parts\" section" % readme)
    rows = [line for line in m.group(1).splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    out = []
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out.append(dict(zip(header, cells, strict=True)))
    return out


# What a build takes of each row of the parts list: a quantity, or None (not this build).
Rule = Callable[[Build], Optional[float]]
RULES: Dict[str, Rule] = {
    "microcontroller": lambda b: 1,
    "LED ring": lambda b: 1 if b.ring == "24" else None,
    "or a bigger ring": lambda b: 1 if b.ring == "60" else None,
    "seat buttons": lambda b: b.seats + 1,
    "bulk capacitor": lambda b: 1,
    "data resistor": lambda b: 1,
    "level shifter (optional, see below)": lambda b: None,
    "power supply (for 60 LEDs or a higher budget)": lambda b: 1 if b.ring == "60" else None,
    "Schottky diode (only with an external supply)": lambda b: 1 if b.ring == "60" else None,
    "wire": lambda b: None,     # cut per button below
}


def bought_rows(readme: Path, build: Build) -> List[Row]:
    rows = []
    for entry in parts_list(readme):
        part = entry["part"]
        if part not in RULES:
            raise ValueError("%s: the parts list names %r, which the bill of materials does "
                             "not know (hardware/bom.py RULES)" % (readme, part))
        qty = RULES[part](build)
        if qty is not None:
            rows.append(Row(part.removeprefix("or a "), qty, entry["example"]))
    return rows


def wiring_rows(pins: Dict, build: Build) -> List[Row]:
    """A cable for each button, from its GPIO to its pod, and the ring's three wires."""
    rows = []
    where = places(build.table, build.seats)
    for place in where:
        gpio = pins["next"] if place.name == "next hand" else pins["seats"][
            int(place.name.split()[1]) - 1]
        rows.append(Row("cable, %s" % place.name, 1, "2-core, GP%d to the button, the other "
                        "core to GND" % gpio, "GP%d" % gpio, str(pico_pin("GP%d" % gpio)),
                        "%.2f" % place.cable))
    total = sum(p.cable for p in where)
    rows.insert(0, Row("2-core cable", round(total, 2), "metres in all, cut into the cables "
                       "below"))
    short = "%.2f" % 0.15
    rows.append(Row("wire, ring data", 1, "GP%d through the data resistor to DIN"
                    % pins["led"], "GP%d" % pins["led"], str(pico_pin("GP%d" % pins["led"])),
                    short))
    rows.append(Row("wire, ring 5 V", 1, "VBUS to the ring's 5 V, the capacitor's plus",
                    "VBUS", str(pico_pin("VBUS")), short))
    rows.append(Row("wire, ring ground", 1, "GND to the ring's GND, the capacitor's minus",
                    "GND", str(pico_pin("GND")), short))
    return rows


def bill(root: Path, build: Build, printed: List[Row], cord_mm: float,
         weights: int) -> List[Row]:
    """Every row of the bill of materials."""
    pins = json.loads((root / "hardware" / "pins.json").read_text())
    extra = [Row("steel washer M16", weights, "DIN 125, 30 mm across, 3 mm thick, about "
                 "%g g: one glued in each pocket under the puck" % PUCK.weight_mass),
             Row("rubber O-ring cord", round(cord_mm / 1000.0 + 0.05, 2),
                 "%g mm nitrile, metres: %.2f m glued in the groove under the puck, and 5 cm "
                 "to trim" % (PUCK.foot_cord, cord_mm / 1000.0)),
             Row("rubber feet", 4 * (build.seats + 1), "self-adhesive, %g mm: one under each "
                 "post of the pods" % POD.foot)]
    return (printed + bought_rows(root / "hardware" / "README.md", build) + extra
            + wiring_rows(pins, build))


def csv_text(rows: List[Row]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow(r.cells())
    return out.getvalue()
