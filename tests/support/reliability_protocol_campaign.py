"""Reliability campaign 2: protocol fuzzing, on CPython and under `micropython` alike.

A seeded stream of lines -- valid commands, wrong ones, random printable text, binary,
overlong lines, empty lines, CR, LF and CRLF line ends, floods -- goes into the real App (or the emulated board)
cut into pieces at random points. Every line must get exactly one reply, of the kind its
content calls for; only `* ` lines may come besides; and the table (plus the ring's mode and
the saved sequence number) may change only for a valid command that was accepted.

    micropython reliability_protocol_campaign.py [lines] [seed]    prints the counts (the same on CPython)
"""
import json

from reliability_campaign import Device, Rand, make_config

MAX_LINE = 120
NO_ARG = ("ping", "version", "state", "hand", "undo", "leds", "config")
SEAT_CMDS = ("sit", "away", "back", "choose", "leave", "press", "hold")
COMMANDS = NO_ARG + SEAT_CMDS + ("deal",)
PRINTABLE = bytes(range(32, 127))

# What the reply to a line of each kind starts with.
EXPECT = {
    "valid": ("ok", "err rule ", "err nohand "),
    "empty": ("ok",),
    "unknown": ("err unknown ",),
    "usage": ("err usage ",),
    "seat": ("err seat ",),
    "nonprint": ("err usage non-printable ",),
    "overflow": ("err overflow ",),
}


class NullFlash:
    """A flash that keeps nothing (the fuzzing is about the protocol, not the saves)."""

    def __init__(self):
        self.files = {}

    def open(self, name, mode):
        if "r" in mode:
            raise OSError(2, "ENOENT")
        return self

    def write(self, data):
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass

    def rename(self, old, new):
        pass

    def remove(self, name):
        raise OSError(2, "ENOENT")


def _case(rand, word):
    if rand.chance(10):
        return word.upper()
    return word


def _spaces(rand):
    return " " * (1 + (rand.below(3) if rand.chance(10) else 0))


def valid_line(rand, seats):
    cmd = rand.pick(COMMANDS)
    words = [_case(rand, cmd)]
    if cmd == "deal":
        if rand.chance(30):
            words.append(str(rand.between(1, seats)))
    elif cmd in SEAT_CMDS:
        lo = 0 if cmd in ("press", "hold") else 1
        s = rand.between(lo, seats)
        words.append(("00%d" % s)[-3:] if rand.chance(5) else str(s))
        if cmd == "sit" and rand.chance(30):
            words.append(_case(rand, "post"))
        elif cmd == "back" and rand.chance(30):
            words.append(_case(rand, "wait"))
        elif cmd == "choose":
            words.append(_case(rand, rand.pick(("post", "wait"))))
    line = _spaces(rand).join(words)
    if rand.chance(5):
        line = " " + line + "  "
    return line.encode()


def usage_line(rand, seats):
    """A known command with the wrong words after it."""
    cmd = rand.pick(COMMANDS)
    if cmd in NO_ARG:
        extra = rand.pick(("1", "x", "now", "0 0"))
        return ("%s %s" % (cmd, extra)).encode()
    if cmd == "deal":
        return rand.pick((b"deal 1 2", b"deal x", b"deal -1", b"deal 1.5", b"deal 0001"))
    bad = rand.pick(("", "x", "-1", "1.0", "9999", "one", "%d maybe" % rand.between(1, seats),
                     "1 2 3"))
    if cmd == "choose" and bad == "":
        bad = "%d" % rand.between(1, seats)       # choose needs post or wait
    return ("%s %s" % (cmd, bad)).strip().encode()


def seat_line(rand, seats):
    cmd = rand.pick(SEAT_CMDS + ("deal",))
    wrong = (seats + 1, 999, seats + rand.between(2, 50))
    if cmd not in ("press", "hold"):
        wrong += (0,)                             # seat 0 is the next-hand button only
    line = "%s %d" % (cmd, rand.pick(wrong))
    if cmd == "choose":
        line += " post"
    return line.encode()


def random_printable(rand, n):
    b = bytearray(n)
    for i in range(n):
        b[i] = 32 + rand.below(95)
    return bytes(b)


def unknown_line(rand):
    while True:
        n = rand.between(1, MAX_LINE)
        line = random_printable(rand, n)
        words = line.split()
        if words and words[0].decode().lower() not in COMMANDS:
            return line


def binary_line(rand):
    """Random bytes (never a newline), at least one of them not printable."""
    n = rand.between(1, 140)
    b = bytearray(n)
    for i in range(n):
        c = rand.below(256)
        while c == 10:
            c = rand.below(256)
        b[i] = c
    if rand.chance(30):
        b[rand.below(n)] = rand.pick((0, 13, 9, 127, 255, 0xC3))
    return bytes(b)


def overlong_line(rand, seats):
    n = rand.pick((MAX_LINE + 1, MAX_LINE + 2, rand.between(MAX_LINE + 1, 600),
                   rand.between(600, 5000)))
    if rand.chance(30):
        head = valid_line(rand, seats) + b" "
        return head + b"x" * (n - len(head)) if n > len(head) else head + b"x"
    return random_printable(rand, n)


def classify(body):
    """The kind of reply the framing gives a line's bytes (line end excluded), or None when
    the line reaches the command parser."""
    if len(body) > MAX_LINE:
        return "overflow"
    for c in body:
        if c < 32 or c > 126:
            return "nonprint"
    return None


def next_lines(rand, seats):
    """The next lines of the stream as [(bytes without the line end, kind, line end)]; a
    flood is a run of valid commands. CR, LF and CRLF each end a line: a binary line with
    CRs in it is several lines."""
    while True:
        kind = rand.weighted([(40, "valid"), (4, "empty"), (8, "unknown"), (8, "usage"),
                              (6, "seat"), (10, "binary"), (6, "overlong"), (1, "flood")])
        if kind == "flood":
            word = rand.pick(("state", "ping", "press %d" % rand.between(0, seats), "hand",
                              "leds", "sit %d" % rand.between(1, seats), "deal", "undo"))
            return [(word.encode(), "valid", b"\n")] * rand.between(10, 100)
        if kind == "valid":
            raw = valid_line(rand, seats)
        elif kind == "empty":
            raw = rand.pick((b"", b" ", b"   "))
        elif kind == "unknown":
            raw = unknown_line(rand)
        elif kind == "usage":
            raw = usage_line(rand, seats)
        elif kind == "seat":
            raw = seat_line(rand, seats)
        elif kind == "binary":
            raw = binary_line(rand)
        else:
            raw = overlong_line(rand, seats)
        end = rand.weighted([(70, b"\n"), (15, b"\r"), (15, b"\r\n")])
        pieces = raw.split(b"\r")
        out = []
        for i in range(len(pieces)):
            body = pieces[i]
            line_end = end if i == len(pieces) - 1 else b"\r"
            if not body and line_end == b"\n":
                line_end = b"\r\n"      # after a lone CR, an LF would make a CRLF of it
            piece_kind = classify(body)
            if piece_kind is None:
                piece_kind = kind
                if kind == "binary":          # all printable after all: parse it
                    words = body.split()
                    if not words:
                        piece_kind = "empty"
                    elif words[0].decode().lower() in COMMANDS:
                        break                 # could be anything: draw again
                    else:
                        piece_kind = "unknown"
            out.append((body, piece_kind, line_end))
        else:
            return out


class FuzzDevice(Device):
    """A Device that checks every reply as it is written: its kind, and that the table, the
    ring's mode and the saved sequence number changed only for an accepted valid command."""

    def __init__(self, cfg, flash, now, seed):
        self.expect = []            # (line, kind) sent and not answered yet
        self.n = 0                  # replies so far
        self.events = 0
        self.changed = 0
        self.kinds = {}
        self.state = None
        Device.__init__(self, cfg, flash, now=now, seed=seed)
        self.state = self.snapshot()

    def snapshot(self):
        return (self.app.table.to_dict(), self.app.ring.mode, self.store.seq)

    def write(self, line):
        if line.startswith("* "):
            self.events += 1
            return
        if self.state is None:
            raise AssertionError("a reply before any input: %r" % line)
        if not self.expect:
            raise AssertionError("more replies than lines: %r" % line)
        body, kind = self.expect.pop(0)
        self.n += 1
        if line.startswith("err internal"):
            raise AssertionError("line %r crashed the handler: %r" % (body, line))
        check_reply(kind, line, body)
        check_payload(body, line)
        now = self.snapshot()
        if kind != "valid" or not line.startswith("ok"):
            if now != self.state:
                raise AssertionError("line %r (%s, %r) changed the table" % (body, kind, line))
        elif now != self.state:
            self.changed += 1
        self.state = now
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def check_reply(kind, line, body):
    for s in EXPECT[kind]:
        if line == s or line.startswith(s):
            return
    raise AssertionError("line %r (%s) got %r" % (body, kind, line))


def check_payload(body, reply):
    """JSON payloads parse, on both runtimes."""
    if not reply.startswith("ok "):
        return
    words = body.split()
    cmd = words[0].decode().lower() if words else ""
    if cmd in ("state", "hand", "config", "deal"):
        json.loads(reply[3:])


def run(lines=2000, seed=1, seats=None, rules=None):
    """Fuzz one App; returns the counts. Raises AssertionError on the first broken rule."""
    rand = Rand(seed)
    if seats is None:
        seats = rand.between(2, 12)
    if rules is None:
        rules = rand.pick(("dead", "moving", "simple"))
    cfg = make_config(seats=seats, rules=rules)
    dev = FuzzDevice(cfg, NullFlash(), rand.bits(30), seed)
    made = 0
    size = 0
    feeds = 0
    buf = b""
    while made < lines or buf:
        if made < lines and len(buf) < 8000:
            for body, kind, end in next_lines(rand, seats):
                dev.expect.append((body, kind))
                buf += body + end
                made += 1
                size += len(body) + len(end)
            continue
        # A read of random length: it may end anywhere in a line, or hold a flood.
        n = rand.weighted([(3, 1), (4, rand.between(2, 16)), (3, rand.between(17, 300)),
                           (1, rand.between(300, 4000))])
        dev.app.feed(buf[:n])
        buf = buf[n:]
        feeds += 1
        if rand.chance(30):
            dev.tick(rand.between(1, 40))        # the loop goes on between reads
    assert dev.n == made and not dev.expect, (dev.n, made)
    return {"lines": made, "bytes": size, "feeds": feeds, "events": dev.events,
            "changed": dev.changed, "kinds": dev.kinds, "seats": seats, "rules": rules}


def summary(counts):
    kinds = counts["kinds"]
    return "%d lines, %d bytes in %d reads (%s), %d changed the table, %d event lines" % (
        counts["lines"], counts["bytes"], counts["feeds"],
        " ".join(["%s %d" % (k, kinds[k]) for k in sorted(kinds)]), counts["changed"],
        counts["events"])


def main(argv):
    lines = int(argv[1]) if len(argv) > 1 else 2000
    seeds = int(argv[2]) if len(argv) > 2 else 1
    total = {"lines": 0, "bytes": 0, "feeds": 0, "events": 0, "changed": 0, "kinds": {}}
    for seed in range(1, seeds + 1):
        c = run(lines, seed)
        for k in ("lines", "bytes", "feeds", "events", "changed"):
            total[k] += c[k]
        for k in c["kinds"]:
            total["kinds"][k] = total["kinds"].get(k, 0) + c["kinds"][k]
        print("seed %d (%d seats, %s): %s" % (seed, c["seats"], c["rules"], summary(c)))
    print("total: " + summary(total))


if __name__ == "__main__":
    import sys
    main(sys.argv)
