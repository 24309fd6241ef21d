"""The host's commands (PROTOCOL.md), all but the few a monitor asks all the time (which
protocol.command answers itself): imported for one command line and released.
"""

from dealerbutton import text, transient
from dealerbutton.protocol import hand_json, state_json

# The commands (texts.USAGE has what each one takes).
COMMANDS = ("ping", "version", "state", "hand", "sit", "away", "back", "choose", "leave", "deal",
            "undo", "press", "hold", "leds", "config")


def _usage(cmd):
    return "err usage " + transient("texts").USAGE.get(cmd, cmd)


def _seat(app, word, lowest=1):
    """The seat number in word, or an error reply."""
    if not word.isdigit() or len(word) > 3:
        return None, text(31, word)  # err usage seat must be a number, not %s
    n = int(word)
    if n < lowest or n > app.table.seats:
        # err seat seat %d is not on this table (%d..%d)
        return None, text(32, n, lowest, app.table.seats)
    return n, None


def command(app, words):
    """protocol.command for a line of words (at least one)."""
    cmd = words[0].lower()
    args = words[1:]
    if cmd not in COMMANDS:
        # err unknown command %s (commands: %s)
        return text(30, cmd[:20], " ".join(sorted(COMMANDS)))
    t = app.table
    if cmd in ("ping", "version", "state", "hand", "undo", "leds", "config"):
        if args:
            return _usage(cmd)
        if cmd == "ping":
            return "ok pong"
        if cmd == "version":
            return "ok " + app.version
        if cmd == "state":
            return "ok " + state_json(t)
        if cmd == "hand":
            if t.hand is None:
                return text(33)  # err nohand no hand has been dealt yet
            return "ok " + hand_json(t.hand)
        if cmd == "undo":
            return app.run("undo", 0, None)
        if cmd == "leds":
            return "ok " + app.leds()
        return "ok " + app.config_json()
    if cmd == "deal":
        if len(args) > 1:
            return _usage(cmd)
        button = None
        if args:
            button, e = _seat(app, args[0])
            if e:
                return e
        return app.run("deal", button, None)
    if not args or len(args) > 2:
        return _usage(cmd)
    lowest = 0 if cmd in ("press", "hold") else 1
    seat, e = _seat(app, args[0], lowest)
    if e:
        return e
    option = args[1].lower() if len(args) == 2 else None
    if cmd in ("press", "hold"):
        if option is not None:
            return _usage(cmd)
        return app.press(seat, cmd == "hold")
    if cmd == "sit" and option not in (None, "post"):
        return _usage(cmd)
    if cmd == "back" and option not in (None, "wait"):
        return _usage(cmd)
    if cmd == "choose" and option not in ("post", "wait"):
        return _usage(cmd)
    if cmd in ("away", "leave") and option is not None:
        return _usage(cmd)
    return app.run(cmd, seat, option)
