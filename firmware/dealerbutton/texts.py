"""The wording of refusals and errors, by key (dealerbutton.text(key, *args) fills one in):
imported when one is needed and released, so that none of it takes RAM while play goes well.
"""

TEXTS = {
    # rules.py: refused events (RuleError)
    "seats": "a table has 2 to 12 seats, not %r",
    "rules": "rules must be dead, moving or simple, not %r",
    "stakes2": "stakes must be two whole numbers (small, big), not %r",
    "stakes": "stakes must be whole numbers with 0 < small <= big, not %r",
    "no seat": "seat %r does not exist: the seats are 1 to %d",
    "taken": "seat %d is taken: the player there must leave first",
    "away empty": "seat %d is empty: nobody to send away",
    "away away": "seat %d is already away",
    "back empty": "seat %d is empty: nobody to bring back",
    "back": "seat %d is %s, not away: nobody to bring back",
    "choice": "seat %d: the choice is post or wait, not %r",
    "choose": "seat %d is %s, not waiting: nothing to choose",
    "chosen": "seat %d already chose to %s",
    "leave": "seat %d is empty: nobody to leave",
    "undo": "nothing to undo",
    "button": "seat %r: the button is placed only for the first hand",
    "players": "cannot deal: %d player(s) present, at least two are needed",
    "first": "the first hand needs the button seat (who won the draw)",
    "first seat": "seat %d has no active player: the first button goes to a player who drew for it",
    # app.py: presses refused, buttons, saves
    "pins": "pins: %d given for %d seats and the next-hand button",
    "event": "no such event: %s",
    "draw": "err rule the draw for the button needs two players seated",
    "to leave": "err seat seat %d is empty: nobody to leave",
    "draw seat": "err seat seat %d is %s: the button goes to a seated player",
    "stuck next": "* error next-hand button stuck",
    "stuck": "* error seat %d button stuck",
    "released": "* info %s button released, working again",
    "save": "* error save failed: %s",
    # protocol.py: replies to bad lines and commands
    "overflow": "err overflow line longer than %d bytes, thrown away",
    "byte": "err usage non-printable byte 0x%02x at column %d",
    "internal": "err internal %s: %s",
    "unknown": "err unknown command %s (commands: %s)",
    "number": "err usage seat must be a number, not %s",
    "off table": "err seat seat %d is not on this table (%d..%d)",
    "nohand": "err nohand no hand has been dealt yet",
    "usage": "err usage %s",
    # ring.py: a ring it cannot draw, a seat it does not have
    "ring seats": "seats: %d is not in 2..12",
    "ring leds": "leds: %d LEDs cannot show %d seats",
    "brightness": "brightness: %d is not in 0..255",
    "budget": "budget_ma: %d mA is not even the idle current of %d LEDs",
    "flash": "seat %d: no such seat",
}

# protocol.py: what each command takes (the `err usage` replies)
USAGE = {
    "ping": "ping",
    "version": "version",
    "state": "state",
    "hand": "hand",
    "sit": "sit N [post]",
    "away": "away N",
    "back": "back N [wait]",
    "choose": "choose N post|wait",
    "leave": "leave N",
    "deal": "deal [N]",
    "undo": "undo",
    "press": "press N (0: next-hand button)",
    "hold": "hold N (0: next-hand button)",
    "leds": "leds",
    "config": "config",
}
