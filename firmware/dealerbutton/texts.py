"""The wording of refusals and errors, by number (dealerbutton.text(n, *args) fills one in):
imported when one is needed and released, so that none of it takes RAM while play goes well.
"""

TEXTS = (  # dealerbutton.text(n, ...) takes message n: the number at the end of its line
    # rules.py: refused events (RuleError)
    "a table has 2 to 12 seats, not %r",  # 0
    "rules must be dead, moving or simple, not %r",  # 1
    "stakes must be two whole numbers (small, big), not %r",  # 2
    "stakes must be whole numbers with 0 < small <= big, not %r",  # 3
    "seat %r does not exist: the seats are 1 to %d",  # 4
    "seat %d is taken: the player there must leave first",  # 5
    "seat %d is empty: nobody to send away",  # 6
    "seat %d is already away",  # 7
    "seat %d is empty: nobody to bring back",  # 8
    "seat %d is %s, not away: nobody to bring back",  # 9
    "seat %d: the choice is post or wait, not %r",  # 10
    "seat %d is %s, not waiting: nothing to choose",  # 11
    "seat %d already chose to %s",  # 12
    "seat %d is empty: nobody to leave",  # 13
    "nothing to undo",  # 14
    "seat %r: the button is placed only for the first hand",  # 15
    "cannot deal: %d player(s) present, at least two are needed",  # 16
    "the first hand needs the button seat (who won the draw)",  # 17
    "seat %d has no active player: the first button goes to a player who drew for it",  # 18
    # app.py: presses refused, buttons, saves
    "pins: %d given for %d seats and the next-hand button",  # 19
    "no such event: %s",  # 20
    "err rule the draw for the button needs two players seated",  # 21
    "err seat seat %d is empty: nobody to leave",  # 22
    "err seat seat %d is %s: the button goes to a seated player",  # 23
    "* error next-hand button stuck",  # 24
    "* error seat %d button stuck",  # 25
    "* info %s button released, working again",  # 26
    # protocol.py: replies to bad lines and commands
    "err overflow line longer than %d bytes, thrown away",  # 27
    "err usage non-printable byte 0x%02x at column %d",  # 28
    "err internal %s: %s",  # 29
    "err unknown command %s (commands: %s)",  # 30
    "err usage seat must be a number, not %s",  # 31
    "err seat seat %d is not on this table (%d..%d)",  # 32
    "err nohand no hand has been dealt yet",  # 33
    # ring.py: a ring it cannot draw, a seat it does not have
    "seats: %d is not in 2..12",  # 34
    "leds: %d LEDs cannot show %d seats",  # 35
    "brightness: %d is not in 0..255",  # 36
    "budget_ma: %d mA is not even the idle current of %d LEDs",  # 37
    "seat %d: no such seat",  # 38
    # strip.py: a colour order it cannot send
    "order: %r is not a colour order like GRB, RGB or GRBW",  # 39
    "order: %s does not fit a buffer of %d bytes",  # 40
    # rules.py: how a Hand shows itself (repr)
    "Hand(n=%d, button=%d, sb=%s, bb=%d, dealt=%r, first_to_act=%d)",  # 41
)

# protocol.py: what each command takes (the `err usage` replies), where it takes more than
# its name
USAGE = {
    "sit": "sit N [post]",
    "away": "away N",
    "back": "back N [wait]",
    "choose": "choose N post|wait",
    "leave": "leave N",
    "deal": "deal [N]",
    "press": "press N (0: next-hand button)",
    "hold": "hold N (0: next-hand button)",
}
