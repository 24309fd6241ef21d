"""The serial line protocol (PROTOCOL.md): bytes in, one reply line per command line out.

Protocol assembles lines from the byte stream (120-byte limit, overflow, non-printable
bytes) and hands each good one to handle(line) -> reply; command() is that handler for a
running table. JSON is built by hand with a fixed key order (MicroPython's dicts are not
ordered)."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton import text, transient

MAX_LINE = const(120)


class Protocol:
    """feed(bytes) -> every complete line is answered through write(text) exactly once."""

    def __init__(self, handle, write):
        self.handle = handle        # handle(line str) -> reply str
        self.write = write          # write(line str without the newline)
        self.buf = bytearray(MAX_LINE + 1)    # room for a trailing \r
        self.n = 0
        self.overflow = False

    def feed(self, data):
        for b in data:
            if b == 10:  # \n
                self.end_line()
            elif self.overflow:
                pass
            elif self.n > MAX_LINE:
                self.overflow = True
            else:
                self.buf[self.n] = b
                self.n += 1

    def end_line(self):
        n = self.n
        self.n = 0
        if n and self.buf[n - 1] == 13:  # \r
            n -= 1
        if self.overflow or n > MAX_LINE:
            self.overflow = False
            self.write(text(27, MAX_LINE))  # err overflow line longer than %d bytes, thrown away
            return
        for i in range(n):
            b = self.buf[i]
            if b < 32 or b > 126:
                self.write(text(28, b, i + 1))  # err usage non-printable byte 0x%02x at column %d
                return
        line = bytes(self.buf[:n]).decode()
        try:
            reply = self.handle(line)
        except Exception as exc:  # noqa: BLE001 - a bad command must never stop the device
            reply = text(29, type(exc).__name__, exc)  # err internal %s: %s
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
    d = {}  # the posts by seat number
    for k in posts:
        d[int(k)] = posts[k]
    order = []
    for s in h.dealt:
        if s in d:
            order.append(s)
    for s in sorted(d):
        if s not in order:
            order.append(s)
    return '{"n":%s,"button":%s,"sb":%s,"bb":%s,"dealt":[%s],"posts":{%s},"first_to_act":%s}' % (
        _jnum(h.n), _jnum(h.button), _jnum(h.sb), _jnum(h.bb),
        ",".join([str(s) for s in h.dealt]),
        ",".join(['"%d":%s' % (s, _pair(d[s])) for s in order]),
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

def command(app, line):
    """Run one command line against a running App; returns the reply line. What a monitor
    asks several times a second (leds, state, hand, ping) is answered here; every other
    line (table events, presses, undo, version, config, mistakes) by hostcmd.py, imported
    for the line and released."""
    words = line.split()
    if not words:
        return "ok"
    if len(words) == 1:
        cmd = words[0].lower()
        if cmd == "leds":
            return "ok " + app.leds()
        if cmd == "state":
            return "ok " + state_json(app.table)
        if cmd == "hand" and app.table.hand is not None:
            return "ok " + hand_json(app.table.hand)
        if cmd == "ping":
            return "ok pong"
    return transient("hostcmd").command(app, words)
