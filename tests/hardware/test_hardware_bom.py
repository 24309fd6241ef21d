"""The bill of materials: made from hardware/README.md's parts list and hardware/pins.json,
each button's cable on its pin of the pin map and cut to the table's size."""

import csv
import json
import re
import shutil

import pytest
from hardware_rig import ROOT

pytestmark = pytest.mark.xdist_group("hardware")

PINS = json.loads((ROOT / "hardware" / "pins.json").read_text())
CONFIG = json.loads((ROOT / "firmware" / "config.json").read_text())


def rows(built, ring):
    with open(built.out / ("bom-%s.csv" % ring), newline="") as f:
        return list(csv.DictReader(f))


def readme_pins():
    """The pin map's table of hardware/README.md: signal -> (GPIO, Pico pin)."""
    text = (ROOT / "hardware" / "README.md").read_text()
    return {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r"^\| (seat \d+|next-hand button|LED ring data \(DIN\)) \| (GP\d+) \| (\d+) \|", text,
        re.M)}


@pytest.mark.parametrize("ring", ["24", "60"])
def test_every_cable_is_on_its_pin_of_the_pin_map(built, ring):
    cables = {r["item"]: r for r in rows(built, ring) if r["gpio"]}
    seats = CONFIG["seats"]
    expected = {"cable, seat %d" % s: "GP%d" % PINS["seats"][s - 1] for s in range(1, seats + 1)}
    expected["cable, next hand"] = "GP%d" % PINS["next"]
    expected["wire, ring data"] = "GP%d" % PINS["led"]
    expected["wire, ring 5 V"] = "VBUS"
    expected["wire, ring ground"] = "GND"
    assert {k: r["gpio"] for k, r in cables.items()} == expected
    table = readme_pins()
    names = {"cable, next hand": "next-hand button", "wire, ring data": "LED ring data (DIN)"}
    for item, row in cables.items():
        name = names.get(item, item.removeprefix("cable, "))
        if name in table:
            assert (row["gpio"], row["pico_pin"]) == table[name], item
    assert cables["wire, ring 5 V"]["pico_pin"] == "40"
    assert cables["wire, ring ground"]["pico_pin"] in {"3", "8", "13", "18", "23", "28", "33",
                                                         "38"}


def test_the_bought_parts_are_the_parts_lists_for_each_ring(built):
    small = {r["item"]: r for r in rows(built, "24")}
    big = {r["item"]: r for r in rows(built, "60")}
    assert "LED ring" in small and "bigger ring" not in small
    assert "bigger ring" in big and "LED ring" not in big
    assert "power supply (for 60 LEDs or a higher budget)" in big
    for bill in (small, big):
        assert bill["seat buttons"]["qty"] == str(CONFIG["seats"] + 1)
        assert bill["pod-tact"]["qty"] == str(CONFIG["seats"] + 1)
        assert bill["microcontroller"]["what"].startswith("Raspberry Pi Pico")
        assert float(bill["steel washer M16"]["qty"]) >= 1


def test_a_part_the_bill_does_not_know_is_refused(tmp_path):
    from dealerbutton_host.hardware import bom
    from dealerbutton_host.hardware.dimensions import TableSize

    (tmp_path / "hardware").mkdir()
    shutil.copy(ROOT / "hardware" / "pins.json", tmp_path / "hardware" / "pins.json")
    text = (ROOT / "hardware" / "README.md").read_text().replace(
        "| data resistor |", "| flux capacitor | one | 1 | $1 |\n| data resistor |")
    (tmp_path / "hardware" / "README.md").write_text(text)
    with pytest.raises(ValueError, match="'flux capacitor'"):
        bom.bill(tmp_path, bom.Build("24", "tact", 9, TableSize()), [], 300.0, 1)


def test_the_cables_grow_with_the_table_and_mirror_round_the_dealer():
    from dealerbutton_host.hardware.dimensions import TableSize
    from dealerbutton_host.hardware.seats import places

    small = places(TableSize(length=1.8, width=0.9), 9)
    large = places(TableSize(length=3.0, width=1.4), 9)
    for a, b in zip(small, large, strict=True):
        assert a.name == b.name
        assert b.cable > a.cable >= TableSize().slack
    cables = [p.cable for p in small[1:]]
    assert cables == cables[::-1]         # seat 1 and seat 9 sit alike either side
    assert small[0].y < 0 and abs(small[0].x) < 1e-9    # the dealer on -y
    assert small[1].x < 0                 # seat 1 to the dealer's left
