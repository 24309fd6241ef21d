"""Draw the ring's colours and animations as an SVG, from the firmware's own renderer.

    python -m dealerbutton_host.web.ringsvg -o hardware/ring-legend.svg

Every LED colour in the picture is a byte of ``Ring.render()`` output (brightness 255,
no current limit, default palette), so the legend cannot drift from the firmware.
"""

import argparse
import math
import sys

from dealerbutton import ring as R

# A sample table: 9 seats on a 24-LED ring, LED 0 at the top, clockwise: each seat's
# status, and the seat of each role.
SAMPLE_LEDS = 24
SAMPLE = {
    1: R.WAIT_POST,
    2: R.ACTIVE,
    3: R.ACTIVE,
    4: R.ACTIVE,
    5: R.ACTIVE,
    6: R.ACTIVE,
    7: R.AWAY,
    8: R.EMPTY,
    9: R.WAIT_BB,
}
SAMPLE_ROLES = {"button": 2, "sb": 3, "bb": 4, "first_to_act": 5}
SAMPLE_T = 1000  # the pulse at its top, the owes-a-post blink on
SAMPLES = 8  # LEDs in a row of the legend: one seat LED at successive moments

# (label, the seat's status, its role or a press ("" for neither), ms between the samples)
ROWS = (
    ("Dealer button", R.ACTIVE, "button", 250),
    ("Dead button (button on an empty or away seat): dim white", R.EMPTY, "button", 250),
    ("Small blind", R.ACTIVE, "sb", 250),
    ("Big blind", R.ACTIVE, "bb", 250),
    ("Kill, marked for the next hand or posted in this one: blinks vermilion", R.ACTIVE,
     "kill", 250),
    ("First to act before the flop: the seat breathes (2 s)", R.ACTIVE, "first_to_act", 250),
    ("Seated, nothing else to show: faint white", R.ACTIVE, "", 250),
    ("Away", R.AWAY, "", 250),
    ("Waiting for the big blind: steady", R.WAIT_BB, "", 250),
    ("Owes a post / will post: blinks once a second", R.WAIT_POST, "", 250),
    ("Empty seat: dark", R.EMPTY, "", 250),
    ("Kept for a player moving in: bluish green and white swap every 0.5 s", R.RESERVED, "",
     250),
    ("Player moving out to another table: orange and white swap every 0.5 s", R.MOVING, "",
     250),
    ("Press accepted: one bright flash of 0.25 s (every 60 ms)", R.ACTIVE, "ok", 60),
    ("Press refused: double blink (every 60 ms)", R.ACTIVE, "refused", 60),
)
PRESSES = ("ok", "refused")
RING_ROWS = (
    ("Before the first hand: a chase; press a seat for the button", R.DRAW),
    ("Configuration refused: every other LED, swapping each 0.5 s", R.ERROR),
    ("Hand-for-hand, hand over: dimmed, a white LED goes round (3 s)", R.WAITING),
)


def _ring(leds, seats):
    return R.Ring(leds, seats, brightness=255, budget_ma=100000)


def _hex(buf, i):
    return "#%02X%02X%02X" % (buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])


def sample_frame():
    r = _ring(SAMPLE_LEDS, len(SAMPLE))
    for seat, status in SAMPLE.items():
        r.status[seat] = status
    for role, seat in SAMPLE_ROLES.items():
        setattr(r, role, seat)
    buf = r.render(SAMPLE_T)
    return r, [_hex(buf, i) for i in range(r.leds)]


def time_strip(status, what, step_ms):
    """The colour of seat 1's LED at SAMPLES moments step_ms apart: the seat in status, with
    the role `what` or pressed at 0 ("ok", "refused")."""
    r = _ring(12, 12)
    r.status[1] = status
    if what in PRESSES:
        r.flash(1, what == "ok", 0)
    elif what:
        setattr(r, what, 1)
    colours = []
    for t in range(0, SAMPLES * step_ms, step_ms):
        buf = r.render(t)
        colours.append(_hex(buf, 0))
    return colours


def ring_strip(mode):
    r = _ring(12, 4)
    r.mode = mode
    if mode == R.WAITING:  # (it dims the seats: four players, the button and the blinds)
        for seat in range(1, 5):
            r.status[seat] = R.ACTIVE
        r.button, r.sb, r.bb = 1, 2, 3
    buf = r.render(250)
    return [_hex(buf, i) for i in range(12)]


def legend_rows():
    """The legend's rows, drawn by the renderer: [{"label", "leds": ["#RRGGBB", ...],
    "ring": False for one seat LED at SAMPLES moments, True for the whole ring at one}]."""
    rows = [{"label": label, "leds": time_strip(status, what, step), "ring": False}
            for label, status, what, step in ROWS]
    return rows + [{"label": label, "leds": ring_strip(mode), "ring": True}
                   for label, mode in RING_ROWS]


def _circle(out, x, y, rad, fill):
    out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#555" stroke-width="1"/>'
               % (x, y, rad, fill))


def _text(out, x, y, s, size=14, anchor="start", fill="#DDD", weight="normal"):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out.append('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" fill="%s" '
               'font-weight="%s">%s</text>' % (x, y, size, anchor, fill, weight, s))


def legend_svg():
    width, height = 1060, 722
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">'
           % (width, height, width, height),
           '<rect width="%d" height="%d" fill="#15171A"/>' % (width, height)]
    _text(out, 20, 32, "dealerbutton: what the ring shows", 20, weight="bold", fill="#FFF")
    _text(out, 20, 54, "Colours are the firmware renderer's output (dealerbutton.ring, brightness 255, "
          "default palette).", 12, fill="#AAA")

    # The sample table.
    r, colours = sample_frame()
    cx, cy, rad = 190, 320, 120
    for i in range(r.leds):
        a = 2 * math.pi * i / r.leds
        _circle(out, cx + rad * math.sin(a), cy - rad * math.cos(a), 11, colours[i])
    for seat in range(1, r.seats + 1):
        arc = r.arc(seat)
        mid = (arc[0] + arc[-1]) / 2
        a = 2 * math.pi * mid / r.leds
        _text(out, cx + (rad + 34) * math.sin(a), cy - (rad + 34) * math.cos(a) + 5,
              str(seat), 16, "middle", "#FFF", "bold")
    _text(out, cx, cy - 8, "sample table", 13, "middle", "#AAA")
    _text(out, cx, cy + 10, "9 seats, 24 LEDs", 13, "middle", "#AAA")
    notes = ("seat 2 button, 3 SB, 4 BB, 5 first to act,",
             "6 seated, 7 away, 8 empty, 9 waiting for",
             "the BB, 1 owes a post")
    for i, line in enumerate(notes):
        _text(out, cx, 500 + 18 * i, line, 13, "middle", "#AAA")

    # The legend: one LED over 2 s per meaning, then two whole-ring patterns.
    x0, y = 400, 100
    _text(out, x0, y - 20, "one seat LED over 2 s (every 0.25 s) \u2192", 12, fill="#AAA")
    rows = legend_rows()
    for row in rows[:len(ROWS)]:
        for j, c in enumerate(row["leds"]):
            _circle(out, x0 + 10 + 24 * j, y, 9, c)
        _text(out, x0 + 10 + 24 * SAMPLES, y + 5, row["label"], 14)
        y += 34
    y += 16
    _text(out, x0, y - 18, "the whole ring (12 LEDs) at one moment \u2192", 12, fill="#AAA")
    for row in rows[len(ROWS):]:
        for j, c in enumerate(row["leds"]):
            _circle(out, x0 + 10 + 16 * j, y, 7, c)
        _text(out, x0 + 10 + 16 * len(row["leds"]), y + 5, row["label"], 14)
        y += 30
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m dealerbutton_host.web.ringsvg",
                                     description="Draw the ring legend as SVG.")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    svg = legend_svg()
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    else:
        sys.stdout.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
