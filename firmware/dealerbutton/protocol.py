"""The serial line protocol (PROTOCOL.md): bytes in, one reply line per command line out.

Protocol assembles lines from the byte stream (120-byte limit, overflow, non-printable
bytes) and hands each good one to handle(line) -> reply; command() is that handler for a
running table: every host command is in COMMANDS, parsed and answered by its function.
JSON payloads keep their keys in a fixed order (MicroPython's dicts have none)."""

import json

from dealerbutton.rules.words import ANTE_KINDS, MARKS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MAX_LINE = const(120)
_LF = const(10)
_CR = const(13)


class Protocol:
    """feed(bytes) -> every complete line is answered through write(text) exactly once.
    CR, LF and CRLF each end a line (a CRLF is one line end), so a serial terminal that
    sends CR alone is answered at once."""

    def __init__(self, handle, write):
        self.handle = handle        # handle(line str) -> reply str
        self.write = write          # write(line str without the line end)
        self.buf = bytearray(MAX_LINE)
        self.n = 0
        self.overflow = False
        self.after_cr = False       # the last byte was a CR: an LF now is its CRLF
        self.paused = False         # the line was handed to the REPL: the rest is not ours

    def feed(self, data):
        for b in data:
            if self.paused:
                return
            if b == _LF and self.after_cr:
                self.after_cr = False   # the line ended at its CR already
            elif b == _CR or b == _LF:
                self.after_cr = b == _CR
                self.end_line()
            else:
                self.after_cr = False
                if self.overflow:
                    pass
                elif self.n >= MAX_LINE:
                    self.overflow = True
                else:
                    self.buf[self.n] = b
                    self.n += 1

    def end_line(self):
        n = self.n
        self.n = 0
        if self.overflow:
            self.overflow = False
            self.write("err overflow line longer than %d bytes, thrown away" % MAX_LINE)
            return
        for i in range(n):
            b = self.buf[i]
            if b < 32 or b > 126:
                self.write("err usage non-printable byte 0x%02x at column %d" % (b, i + 1))
                return
        line = bytes(self.buf[:n]).decode()
        try:
            reply = self.handle(line)
        except Exception as exc:  # noqa: BLE001 - a bad command must never stop the device
            reply = "err internal %s: %s" % (type(exc).__name__, exc)
        self.write(reply)


# -- JSON payloads: compact, one line, keys in a fixed order -------------------------------

def json_object(pairs):
    """A JSON object of (key, JSON text) pairs, in their order."""
    return "{%s}" % ",".join(['"%s":%s' % (key, text) for key, text in pairs])


def dumps(v):
    """v as compact JSON (the runtime's json)."""
    return json.dumps(v, separators=(",", ":"))


def hand_json(h):
    """{"n":..,"button":..,"sb":..,"bb":..,"dealt":[..],"posts":{"seat":[live,dead]},
    "first_to_act":..}; posts in the order the seats are dealt; then "kill" and
    "button_blind", the seats that posted them, when a hand has them."""
    posts = json_object([(str(s), dumps(list(h.posts[s]))) for s in h.dealt if s in h.posts])
    pairs = [("n", dumps(h.n)), ("button", dumps(h.button)), ("sb", dumps(h.sb)),
             ("bb", dumps(h.bb)), ("dealt", dumps(list(h.dealt))), ("posts", posts),
             ("first_to_act", dumps(h.first_to_act))]
    if h.kill:
        pairs.append(("kill", dumps(h.kill)))
    if h.button_blind:
        pairs.append(("button_blind", dumps(h.button_blind)))
    return json_object(pairs)


def seat_json(t, s, marks=None):
    """One seat of the `state` payload: its status and what its player owes; then, where
    they apply, a waiting player's choice (post, or wait for the big blind), the deals left
    in a mover's wait, the missed-blind markers he holds, a kill marked on him, the floor's
    mark (marks: the app's, a words.MARKS index per seat)."""
    pairs = [("seat", dumps(s)), ("status", dumps(t.status(s))), ("owes", dumps(list(t.owes(s))))]
    choice = t.choice(s)
    if choice:
        pairs.append(("choice", dumps(choice)))
    if t.mover_wait(s):
        pairs.append(("wait", dumps(t.mover_wait(s))))
    if t.markers(s):
        pairs.append(("missed", dumps(list(t.markers(s)))))
    kill = t.kill_mark
    if kill is not None and kill[0] == s:
        pairs.append(("kill", dumps("half" if kill[1] else "full")))
    if marks and marks[s]:
        pairs.append(("mark", dumps(MARKS[marks[s]])))
    return json_object(pairs)


def state_json(t, marks=None, hand_for_hand=None):
    """The `state` payload: the table's rules, stakes, hands dealt and every seat (with the
    floor's marks, when given); then, while the table plays hand-for-hand (a
    handforhand.HandForHand that is on), "handforhand": "playing", or "waiting" once its
    hand is over."""
    seats = "[%s]" % ",".join([seat_json(t, s, marks) for s in range(1, t.seats + 1)])
    pairs = [("rules", dumps(t.rules)), ("stakes", dumps(list(t.stakes))),
             ("hands", dumps(t.hands)), ("seats", seats)]
    if hand_for_hand is not None and hand_for_hand.on:
        pairs.append(("handforhand", '"waiting"' if hand_for_hand.waiting else '"playing"'))
    return json_object(pairs)


_HEX = "0123456789ABCDEF"


def leds_text(buf, order="RGB"):
    """The `leds` payload: "RRGGBB" per LED, space separated, from a frame whose LEDs' 3
    bytes are in order (see ring.Ring)."""
    r = order.index("R")
    g = order.index("G")
    b = order.index("B")
    out = []
    for i in range(0, len(buf) - 2, 3):
        out.append("%02X%02X%02X" % (buf[i + r], buf[i + g], buf[i + b]))
    return " ".join(out)


# -- commands: each a function (app, args) -> reply, and how it is used ---------------------

def _usage(name):
    return "err usage " + COMMANDS[name][1]


def _seat(app, word, lowest=1):
    """The seat number in word, or an error reply."""
    if not word.isdigit() or len(word) > 3:
        return None, "err usage seat must be %d..%d%s, not %s" % (
            lowest, app.table.seats, " (0: next-hand button)" if lowest == 0 else "", word)
    n = int(word)
    if n < lowest or n > app.table.seats:
        return None, "err seat seat %d is not on this table (%d..%d)" % (n, lowest, app.table.seats)
    return n, None


def _no_args(reply):
    """A command without arguments whose reply is reply(app)."""
    def run(app, args):
        return reply(app) if not args else None
    return run


def _hand(app):
    if app.table.hand is None:
        return "err nohand no hand has been dealt yet"
    return "ok " + hand_json(app.table.hand)


def _seat_event(name, options, needed=False):
    """The table event `name` on one seat: `name N`, with one of options after it (needed:
    always)."""
    def run(app, args):
        if not args or len(args) > 2:
            return None
        seat, err = _seat(app, args[0])
        if err:
            return err
        option = args[1].lower() if len(args) == 2 else None
        if option is None and needed or option is not None and option not in options:
            return None
        return app.command_event(name, seat, option)
    return run


def _press(long):
    def run(app, args):
        if len(args) != 1:
            return None
        seat, err = _seat(app, args[0], 0)
        return err or app.press(seat, long)
    return run


def _mark(reserve):
    """`reserve N` (reserve: True) or `release N`: the floor's mark on a seat."""
    def run(app, args):
        if len(args) != 1:
            return None
        seat, err = _seat(app, args[0])
        return err or app.mark(seat, reserve)
    return run


def _deal(app, args):
    if len(args) > 1:
        return None
    button = None
    if args:
        button, err = _seat(app, args[0])
        if err:
            return err
    return app.command_event("deal", button, None)


def _move(app, args):
    if len(args) != 2:
        return None
    a, err = _seat(app, args[0])
    b, err2 = _seat(app, args[1])
    return err or err2 or app.command_event("move", a, b)


def _kill(app, args):
    if not args or len(args) > 2 or args[1:] and args[1].lower() != "half":
        return None
    seat, err = _seat(app, args[0])
    return err or app.command_event("kill", seat, "half" if len(args) == 2 else None)


def _level(app, args):
    """`level` (the level in force) or `level SB/BB [ante A [each|bb|button]]`."""
    if not args:
        return "ok " + level_json(app.table.level)
    if len(args) not in (1, 3, 4) or len(args) > 1 and args[1].lower() != "ante":
        return None
    blinds = args[0].split("/")
    numbers = blinds + args[2:3]
    for word in numbers:
        if not word.isdigit() or len(word) > 7:
            return None
    if len(blinds) != 2:
        return None
    kind = args[3].lower() if len(args) == 4 else "each"
    if kind not in ANTE_KINDS:
        return None
    if app.table_clock is not None:
        return "err rule the tournament clock sets the level (clock next, clock prev)"
    level = (int(blinds[0]), int(blinds[1]), int(args[2]) if len(args) > 2 else 0, kind)
    return app.command_event("level", 0, level)


def level_json(level):
    """A level as JSON: {"sb":..,"bb":..,"ante":..,"ante_kind":..}."""
    return json_object([("sb", dumps(level[0])), ("bb", dumps(level[1])),
                        ("ante", dumps(level[2])), ("ante_kind", dumps(level[3]))])


def _hand_for_hand(app, args):
    if len(args) != 1 or args[0].lower() not in ("on", "off"):
        return None
    from dealerbutton.handforhand import switch  # (loaded the first time it is asked)
    return switch(app, args[0].lower() == "on")


def _clock(app, args):
    if app.table_clock is None:
        return 'err clock no tournament: a cash game (config.json has no "tournament")'
    return app.table_clock.command(args)


COMMANDS = {
    "ping": (_no_args(lambda app: "ok pong"), "ping"),
    "version": (_no_args(lambda app: "ok " + app.version), "version"),
    "state": (_no_args(lambda app: "ok " + state_json(app.table, app.marks,
                                                      app.hand_for_hand)), "state"),
    "hand": (_no_args(_hand), "hand"),
    "sit": (_seat_event("sit", ("post", "wait")), "sit N [post|wait]"),
    "away": (_seat_event("away", ()), "away N"),
    "back": (_seat_event("back", ("wait",)), "back N [wait]"),
    "choose": (_seat_event("choose", ("post", "wait"), True), "choose N post|wait"),
    "leave": (_seat_event("leave", ()), "leave N"),
    "move": (_move, "move A B (the player in seat A to the empty seat B)"),
    "take": (_seat_event("take", ()), "take N (a new player takes over from the one who left)"),
    "kill": (_kill, "kill N [half]"),
    "reserve": (_mark(True), "reserve N (an empty seat: kept; a player: moving)"),
    "release": (_mark(False), "release N"),
    "level": (_level, "level [SB/BB [ante A [each|bb|button]]]"),
    "deal": (_deal, "deal [N]"),
    "undo": (_no_args(lambda app: app.command_event("undo", 0, None)), "undo"),
    "press": (_press(False), "press N (0: next-hand button)"),
    "hold": (_press(True), "hold N (0: next-hand button)"),
    "leds": (_no_args(lambda app: "ok " + app.leds()), "leds"),
    "config": (_no_args(lambda app: "ok " + app.config_json()), "config"),
    "repl": (_no_args(lambda app: app.hand_over()), "repl"),
    "stats": (_no_args(lambda app: "ok " + app.stats.json()), "stats"),
    "clock": (_clock, "clock [pause|resume|next|prev|set M:SS]"),
    "handforhand": (_hand_for_hand, "handforhand on|off"),
}


def command(app, line):
    """Run one command line against a running App; returns the reply line."""
    words = line.split()
    if not words:
        return "ok"
    name = words[0].lower()
    if name not in COMMANDS:
        return "err unknown command %s (commands: %s)" % (name[:20], " ".join(sorted(COMMANDS)))
    return COMMANDS[name][0](app, words[1:]) or _usage(name)
