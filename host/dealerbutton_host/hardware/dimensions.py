"""Every size the printed parts are made from, in millimetres, in one table.

The bought parts (`RINGS`, `PICO`, `CAPACITOR`, `SWITCHES`) are what their makers' drawings
give; the printed parts' own sizes (`PUCK`, `POD`) are chosen here and nowhere else: the
models in centre.py and pods.py, the stand-ins of the bought parts in components.py, the
bill of materials and the manual's page all read them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict


@dataclass(frozen=True)
class Ring:
    """A WS2812B ring: its LEDs and its circuit board (an annulus, the LEDs on top)."""

    leds: int
    outer: float          # the board's outer diameter
    inner: float          # the board's inner diameter
    board: float          # the board's thickness
    led: float            # a 5050 LED's side
    led_height: float     # how far an LED stands above the board
    digit: float          # the seat numbers' height, engraved in the top inside the LEDs
    label: str            # how the parts list names it

    @property
    def name(self) -> str:
        return str(self.leds)


# The two rings of the parts list (hardware/README.md): Adafruit's NeoPixel Ring 24 and a
# ring of four 15-LED arcs.
RINGS: Dict[str, Ring] = {
    "24": Ring(24, outer=65.6, inner=52.3, board=1.6, led=5.0, led_height=1.6, digit=6.4,
               label="LED ring"),
    "60": Ring(60, outer=158.0, inner=145.0, board=1.6, led=5.0, led_height=1.6, digit=9.0,
               label="or a bigger ring"),
}


@dataclass(frozen=True)
class Pico:
    """The Raspberry Pi Pico: its board, the parts on top, its micro-USB socket."""

    length: float = 51.0
    width: float = 21.0
    board: float = 1.0
    parts_height: float = 3.0      # the tallest part above the board (the USB socket)
    usb_width: float = 8.0
    usb_height: float = 2.6
    usb_overhang: float = 1.3      # the socket's mouth beyond the board's end
    pin_row: float = 1.61          # the pin holes' centres from the long edges


PICO = Pico()


@dataclass(frozen=True)
class Capacitor:
    """The 1000 uF 10 V electrolytic, lying on its side in the puck."""

    diameter: float = 10.0
    length: float = 20.0


CAPACITOR = Capacitor()


@dataclass(frozen=True)
class Switch:
    """A seat button as the pod holds it: the part in the pod's top (a square body under
    the top, or a round body through it), what stands above the top, what hangs below."""

    kind: str              # "tact" or "arcade"
    label: str             # how the pod is named in the manual
    body: float            # tact: the body's side; arcade: the body's diameter in the hole
    body_height: float     # how far the body reaches below the pod's top
    above: float           # what stands above the pod's top (a cap, a bezel)
    above_width: float     # the cap's or the bezel's diameter
    hole: float            # the hole in the pod's top, for the cap or the body
    top: float             # the pod's top under it (an arcade button's clips need <= 4)
    pod_length: float      # the pod's footprint, front to back (toward the table's centre)
    pod_width: float
    pod_height: float


SWITCHES: Dict[str, Switch] = {
    # a 12x12x7.3 mm tact switch with its round cap
    "tact": Switch("tact", "12 mm tact switch", body=12.0, body_height=3.6, above=5.5,
                   above_width=11.5, hole=12.2, top=2.4, pod_length=46.0, pod_width=40.0,
                   pod_height=14.0),
    # a snap-in 24 mm arcade button with its microswitch
    "arcade": Switch("arcade", "24 mm arcade button", body=23.6, body_height=30.0, above=6.0,
                     above_width=31.0, hole=24.2, top=3.0, pod_length=56.0, pod_width=50.0,
                     pod_height=36.0),
}


@dataclass(frozen=True)
class Puck:
    """The centre unit's printed base and diffusing top (both rings)."""

    wall: float = 2.4              # the side walls
    corner: float = 4.0            # the Pico bay's outer corners' radius
    floor: float = 5.6             # the floor, weights' pockets cut into it from below
    cavity: float = 12.0           # from the floor to the ring's underside (the capacitor)
    air: float = 3.0               # from the LEDs' tops to the diffuser (it blends them)
    top: float = 2.4               # the diffusing top's plate
    lip: float = 2.0               # the top's locating lip, down inside the walls
    lip_wall: float = 2.0
    fit: float = 0.3               # the gap round every bought part in its pocket
    lid_fit: float = 0.2           # the gap round the top's lip inside the walls
    pillar: float = 5.0            # the pillars under the ring: diameter
    pillars: int = 6
    post: float = 10.0             # the centre post under the top
    bay_gap: float = 4.0           # from the ring's pocket to the Pico's pocket
    pico_lift: float = 4.0         # the Pico's underside above the floor
    bed_margin: float = 2.0        # the Pico's bed round its pocket
    relief: float = 2.0            # grooves under the Pico's pin rows: depth
    relief_width: float = 3.2
    usb_opening: tuple = (11.0, 8.5)  # a micro-USB plug's moulding: width, height
    exit_hole: float = 4.5         # a seat button's cable (2-core bell wire, up to 4 mm)
    power_hole: float = 5.5        # an external 5 V supply's lead
    exit_height: float = 3.5       # the cable holes' centres above the floor
    exit_spacing: float = 1.6      # at least this much wall between two holes
    weight: float = 30.0           # a steel washer M16 (DIN 125: 30 mm, 3 mm, about 11 g)
    weight_thick: float = 3.0
    weight_fit: float = 0.3
    weight_mass: float = 11.0      # grams
    foot_cord: float = 3.0         # the rubber foot: 3 mm O-ring cord in a groove
    foot_groove: float = 2.0       # the groove's depth (the cord stands 1 mm proud)
    foot_inset: float = 2.4        # from the outer edge to the groove
    digit_stroke: float = 0.8     # the seat numbers' strokes, engraved in the top
    digit_depth: float = 0.6
    digit_apart: float = 1.6       # at least this much between two numbers
    key: float = 1.0               # the first LED's mark on the floor: how high it stands
    key_width: float = 2.0
    key_length: float = 6.0


PUCK = Puck()


@dataclass(frozen=True)
class Pod:
    """The seat button pods (both switches)."""

    wall: float = 2.4
    corner: float = 6.0            # the footprint's corners
    socket_wall: float = 2.0       # the tact switch's socket round its body
    post: float = 7.0              # the corner posts (a rubber foot on each): diameter
    post_inset: float = 6.0        # their centres from the outer walls
    cable: float = 4.5             # the cable's notch in the back wall
    relief_pin: float = 4.0        # the strain relief: pins the cable weaves round
    relief_pins: int = 3
    relief_step: float = 6.0       # from one pin to the next, along the cable
    relief_offset: float = 2.6     # each pin's centre beside the cable's line
    fit: float = 0.3               # the gap round the switch in its socket or hole
    foot: float = 8.0              # the rubber feet under the posts


POD = Pod()


@dataclass(frozen=True)
class Printing:
    """How the parts are printed (the manual's print settings)."""

    layer: float = 0.2
    perimeters: int = 3            # 3 x 0.45 mm lines: every 2 mm wall is solid
    line: float = 0.45
    infill: int = 25               # percent
    base_material: str = "PETG or PLA, any dark colour"
    top_material: str = "PETG or PLA, natural white or clear (it diffuses the LEDs)"
    density: float = 1.27          # g/cm3 (PETG), for the masses in the parts table
    min_wall: float = 1.6          # every wall at least this thick (measured by the tests)


PRINTING = Printing()


@dataclass(frozen=True)
class TableSize:
    """The table the cables are cut for: an oval (two half circles joined by straight
    sides), the dealer in the middle of a long side, the pods on the rail."""

    length: float = 2.4            # metres
    width: float = 1.2
    rail: float = 0.10             # from the table's edge to the pods' place on the rail
    slack: float = 0.25            # per cable: inside the puck and the pod, and to tuck in
    spare: float = 0.10            # 10 % more than the straight line, for the way round
