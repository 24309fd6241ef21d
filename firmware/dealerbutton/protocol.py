"""The serial line protocol (PROTOCOL.md): bytes in, one reply line per command line out.

Protocol assembles lines from the byte stream (120-byte limit, overflow, non-printable
bytes) and hands each good one to handle(line) -> reply; command() is that handler for a
running table: every host command is parsed and answered here. JSON is built by hand with
a fixed key order (MicroPython's dicts are not ordered)."""

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


# -- JSON payloads -------------------------------------------------------------------

def _jnum(v):
    return "null" if v is None else str(v)


def _pair(p):
    return "[%d,%d]" % (p[0], p[1])


def hand_json(h):
    """{"n":..,"button":..,"sb":..,"bb":..,"dealt":[..],"posts":{"seat":[live,dead]},
    "first_to_act":..}; posts in the order the seats are dealt."""
    posts = h.posts
    by_seat = {}
    for k in posts:
        by_seat[int(k)] = posts[k]
    order = []
    for s in h.dealt:
        if s in by_seat:
            order.append(s)
    for s in sorted(by_seat):
        if s not in order:
            order.append(s)
    return '{"n":%s,"button":%s,"sb":%s,"bb":%s,"dealt":[%s],"posts":{%s},"first_to_act":%s}' % (
        _jnum(h.n), _jnum(h.button), _jnum(h.sb), _jnum(h.bb),
        ",".join([str(s) for s in h.dealt]),
        ",".join(['"%d":%s' % (s, _pair(by_seat[s])) for s in order]),
        _jnum(h.first_to_act))


def state_json(t):
    seats = []
    for s in range(1, t.seats + 1):
        c = t.choice(s)  # a waiting player's choice: post, or wait for the big blind
        seats.append('{"seat":%d,"status":"%s","owes":%s%s}' % (
            s, t.status(s), _pair(t.owes(s)), ',"choice":"%s"' % c if c else ""))
    return '{"rules":"%s","stakes":[%d,%d],"hands":%d,"seats":[%s]}' % (
        t.rules, t.stakes[0], t.stakes[1], t.hands, ",".join(seats))


# -- commands --------------------------------------------------------------------------

COMMANDS = ("ping", "version", "state", "hand", "sit", "away", "back", "choose", "leave", "deal",
            "undo", "press", "hold", "leds", "config", "repl", "stats", "clock")
# What each command takes (the `err usage` replies), where it takes more than its name.
USAGE = {
    "sit": "sit N [post|wait]",
    "away": "away N",
    "back": "back N [wait]",
    "choose": "choose N post|wait",
    "leave": "leave N",
    "deal": "deal [N]",
    "press": "press N (0: next-hand button)",
    "hold": "hold N (0: next-hand button)",
    "clock": "clock [pause|resume|next|prev|set M:SS]",
}


def _usage(cmd):
    return "err usage " + (USAGE[cmd] if cmd in USAGE else cmd)


def _seat(app, word, lowest=1):
    """The seat number in word, or an error reply."""
    if not word.isdigit() or len(word) > 3:
        return None, "err usage seat must be %d..%d%s, not %s" % (
            lowest, app.table.seats, " (0: next-hand button)" if lowest == 0 else "", word)
    n = int(word)
    if n < lowest or n > app.table.seats:
        return None, "err seat seat %d is not on this table (%d..%d)" % (n, lowest, app.table.seats)
    return n, None


def command(app, line):
    """Run one command line against a running App; returns the reply line."""
    words = line.split()
    if not words:
        return "ok"
    cmd = words[0].lower()
    args = words[1:]
    if cmd not in COMMANDS:
        return "err unknown command %s (commands: %s)" % (cmd[:20], " ".join(sorted(COMMANDS)))
    t = app.table
    if cmd == "clock":
        return app.clock_command(args)
    if cmd in ("ping", "version", "state", "hand", "undo", "leds", "config", "repl", "stats"):
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
                return "err nohand no hand has been dealt yet"
            return "ok " + hand_json(t.hand)
        if cmd == "undo":
            return app.run("undo", 0, None)
        if cmd == "leds":
            return "ok " + app.leds()
        if cmd == "repl":
            return app.hand_over()
        if cmd == "stats":
            return "ok " + app.stats.json()
        return "ok " + app.config_json()
    if cmd == "deal":
        if len(args) > 1:
            return _usage(cmd)
        button = None
        if args:
            button, err = _seat(app, args[0])
            if err:
                return err
        return app.run("deal", button, None)
    if not args or len(args) > 2:
        return _usage(cmd)
    lowest = 0 if cmd in ("press", "hold") else 1
    seat, err = _seat(app, args[0], lowest)
    if err:
        return err
    option = args[1].lower() if len(args) == 2 else None
    if cmd in ("press", "hold"):
        if option is not None:
            return _usage(cmd)
        return app.press(seat, cmd == "hold")
    if cmd == "sit" and option not in (None, "post", "wait"):
        return _usage(cmd)
    if cmd == "back" and option not in (None, "wait"):
        return _usage(cmd)
    if cmd == "choose" and option not in ("post", "wait"):
        return _usage(cmd)
    if cmd in ("away", "leave") and option is not None:
        return _usage(cmd)
    return app.run(cmd, seat, option)
