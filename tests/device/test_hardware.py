"""hardware/: the Wokwi diagram, the pin map, the firmware's default config and the README
agree; the ring legend picture is what the renderer draws today."""

import json
import re

import pytest
from micropython_unix import ROOT

HW = ROOT / "hardware"
PINS = json.loads((HW / "pins.json").read_text())
DIAGRAM = json.loads((HW / "diagram.json").read_text())
CONFIG_PATH = ROOT / "firmware" / "config.json"

PICO_GPIO = set(range(0, 23)) | {26, 27, 28}
PICO_PINS = ({"GP%d" % g for g in PICO_GPIO} | {"GND.%d" % i for i in range(1, 9)}
             | {"VBUS", "VSYS", "3V3", "3V3_EN", "RUN", "ADC_VREF"})
PART_PINS = {
    "wokwi-pi-pico": PICO_PINS,
    "wokwi-led-ring": {"DIN", "DOUT", "VCC", "GND"},
    "wokwi-pushbutton": {"1.l", "2.l", "1.r", "2.r"},
}


def parts():
    return {p["id"]: p for p in DIAGRAM["parts"]}


def wires():
    """Every connection as a pair of (part id, pin)."""
    out = []
    for c in DIAGRAM["connections"]:
        a, b = c[0], c[1]
        out.append((tuple(a.split(":", 1)), tuple(b.split(":", 1))))
    return out


def peers(part, pin):
    """The (part, pin) ends wired to part:pin."""
    found = []
    for a, b in wires():
        if a == (part, pin):
            found.append(b)
        if b == (part, pin):
            found.append(a)
    return found


def pico_pin(part, pin):
    ends = [p for p in peers(part, pin) if p[0] == "pico"]
    assert len(ends) == 1, "%s:%s should be wired to exactly one Pico pin: %r" % (part, pin, ends)
    return ends[0][1]


def seat_buttons():
    return sorted((p for p in DIAGRAM["parts"]
                   if p["type"] == "wokwi-pushbutton" and p["id"].startswith("seat")),
                  key=lambda p: int(p["id"][4:]))


def config():
    return json.loads(CONFIG_PATH.read_text())


def test_pin_map_is_well_formed():
    assert set(PINS) == {"led", "next", "seats"}
    assert len(PINS["seats"]) == 12
    used = [PINS["led"], PINS["next"]] + PINS["seats"]
    assert len(set(used)) == len(used), "a GPIO used twice"
    assert set(used) <= PICO_GPIO
    assert not {0, 1} & set(used), "GP0/GP1 stay free for the UART"
    assert PINS == {"led": 16, "next": 15, "seats": list(range(2, 14))}


def test_every_wire_ends_on_a_real_pin():
    by_id = parts()
    for end in [e for w in wires() for e in w]:
        part, pin = end
        if part == "$serialMonitor":
            assert pin in ("RX", "TX")
            continue
        assert part in by_id, end
        assert pin in PART_PINS[by_id[part]["type"]], end


def test_diagram_has_the_pico_ring_and_buttons():
    by_id = parts()
    assert by_id["pico"]["type"] == "wokwi-pi-pico"
    assert by_id["ring"]["type"] == "wokwi-led-ring"
    assert by_id["next"]["type"] == "wokwi-pushbutton"
    ids = [p["id"] for p in seat_buttons()]
    assert ids == ["seat%d" % s for s in range(1, len(ids) + 1)]
    assert DIAGRAM["version"] == 1


def test_ring_wiring_matches_the_pin_map():
    assert pico_pin("ring", "DIN") == "GP%d" % PINS["led"]
    assert pico_pin("ring", "VCC") in ("VBUS", "VSYS")
    assert pico_pin("ring", "GND").startswith("GND.")


def test_buttons_go_from_their_gpio_to_ground():
    for s, part in enumerate(seat_buttons(), 1):
        assert pico_pin(part["id"], "1.l") == "GP%d" % PINS["seats"][s - 1], part["id"]
        assert pico_pin(part["id"], "2.l").startswith("GND."), part["id"]
    assert pico_pin("next", "1.l") == "GP%d" % PINS["next"]
    assert pico_pin("next", "2.l").startswith("GND.")


def test_no_gpio_is_wired_to_two_things():
    seen = {}
    for a, b in wires():
        for end, other in ((a, b), (b, a)):
            if end[0] == "pico" and end[1].startswith("GP"):
                assert seen.setdefault(end[1], other) == other, (end, other, seen[end[1]])


def test_firmware_default_config_uses_the_pin_map_and_the_diagram_matches_it():
    cfg = config()
    assert cfg["pins"] == PINS
    assert int(parts()["ring"]["attrs"]["pixels"]) == cfg["leds"] == 24
    assert len(seat_buttons()) == cfg["seats"] == 9


def test_readme_pin_table_matches_the_pin_map():
    text = (HW / "README.md").read_text()
    rows = dict(re.findall(r"^\| (seat \d+|next-hand button|LED ring data \(DIN\)) \| GP(\d+) \|",
                           text, re.M))
    expected = {"seat %d" % s: str(g) for s, g in enumerate(PINS["seats"], 1)}
    expected["next-hand button"] = str(PINS["next"])
    expected["LED ring data (DIN)"] = str(PINS["led"])
    assert rows == expected


@pytest.mark.parametrize("part", ["Raspberry Pi Pico", "WS2812B 24-LED ring", "WS2812B 60-LED",
                                  "12x12 mm tactile", "1000 uF 10 V", "330 or 470 ohm",
                                  "74AHCT125", "5 V 2 A", "1N5817", "ring-legend.svg"])
def test_readme_names_the_parts_and_the_picture(part):
    assert part in (HW / "README.md").read_text()


def test_ring_legend_svg_is_up_to_date():
    from dealerbutton_host.web import ringsvg

    assert ringsvg.legend_svg() == (HW / "ring-legend.svg").read_text(), (
        "regenerate: python -m dealerbutton_host.web.ringsvg -o hardware/ring-legend.svg")


def test_ring_legend_colours_come_from_the_renderer():
    from dealerbutton import ring
    from dealerbutton_host.web import ringsvg

    svg = (HW / "ring-legend.svg").read_text()
    _, sample = ringsvg.sample_frame()
    circles = re.findall(r'<circle [^>]*fill="(#[0-9A-F]{6})"', svg)
    assert circles[:24] == sample
    # Every default palette colour appears at full strength somewhere in the picture.
    for role, colour in zip(ring.ROLES, ring.DEFAULT_PALETTE, strict=True):
        if role in ("active", "away", "wait_bb", "error"):  # always drawn dimmed
            continue
        assert "#" + colour in circles, role


def test_ringsvg_command_writes_the_file(tmp_path):
    from dealerbutton_host.web import ringsvg

    out = tmp_path / "legend.svg"
    assert ringsvg.main(["-o", str(out)]) == 0
    assert out.read_text() == (HW / "ring-legend.svg").read_text()
