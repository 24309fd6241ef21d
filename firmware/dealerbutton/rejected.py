"""What the board runs instead of the table when config.json was refused (app.Rejected):
imported only then."""

from dealerbutton import VERSION, config, protocol
from dealerbutton import ring as ringmod
from dealerbutton.app import make_ring


class Rejected:
    """What runs instead of the table when config.json was refused: the ring shows the
    error pattern (if there is a strip), every command is answered `err config ...`
    (ping and version still work), nothing else happens."""

    def __init__(self, cfg, errors, strip, write, now_ms=0):
        self.message = config.message(errors)
        self.strip = strip
        self.write = write
        self.ring = None
        if strip is not None:
            self.ring = make_ring(cfg)
            self.ring.mode = ringmod.ERROR
        self.protocol = protocol.Protocol(self.command, write)
        write("* error " + self.message)
        self.tick(now_ms)

    def feed(self, data):
        self.protocol.feed(data)

    def command(self, line):
        words = line.split()
        if not words:
            return "ok"
        if words == ["ping"]:
            return "ok pong"
        if words == ["version"]:
            return "ok " + VERSION
        return "err config " + self.message

    def tick(self, now_ms):
        if self.ring is not None:
            self.ring.render(now_ms)
            self.strip.show(self.ring.buf)
