"""The emulated board for the host: the device's protocol on stdin/stdout (a pipe or a
pseudo-terminal), under CPython or the `micropython` command.

    python -m dealerbutton.board.unix [--state DIR] [--config FILE] [--seats N] [--leds L]
                                      [--rules R]
    MICROPYPATH=firmware micropython -m dealerbutton.board.unix ...

Nobody presses its buttons by hand: use the `press N` / `hold N` commands. The ring is a
CaptureStrip (see the `leds` command); the table is saved in DIR/state.json as on the board,
so a restart resumes the game. End of input ends it, and so does `repl` (which on the board
hands the serial line to the REPL).
"""

import sys

from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.rejected import Rejected
from dealerbutton.store import config, filestore

MICROPYTHON = sys.implementation.name == "micropython"
NAME = "dealerbutton emulate"
USAGE = ("usage: %s [--state DIR] [--config FILE] [--seats N] [--leds L]"
         " [--rules dead|moving|simple]" % NAME)
OPTIONS = ("--state", "--config", "--seats", "--leds", "--rules")
POLL_MS = 10


class Released:
    """An emulated button pin: never pressed (value 1 with the pull-up)."""

    def value(self):
        return 1


def ticks_ms():
    if MICROPYTHON:
        import time
        return int(time.ticks_ms())  # type: ignore[attr-defined]
    import time
    return (time.monotonic_ns() // 1000000) & 0x3FFFFFFF  # type: ignore[attr-defined]


def parse_args(argv):
    """{option: value} from the command line, or raise ValueError with what is wrong."""
    opts = {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            raise ValueError("")
        value = None
        if "=" in a and a.split("=", 1)[0] in OPTIONS:
            a, value = a.split("=", 1)
        elif a in OPTIONS:
            if i + 1 >= len(argv):
                raise ValueError("%s needs a value" % a)
            i += 1
            value = argv[i]
        else:
            raise ValueError("unknown argument %s" % a)
        opts[a[2:]] = value
        i += 1
    return opts


def load_config(opts):
    """(config, errors) from --config FILE (or the defaults) and the overrides."""
    d = {}
    name = "config"
    if "config" in opts:
        name = opts["config"]
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as exc:
            return config.defaults(), ["%s: cannot read (%s)" % (name, exc)]
        d, errors = config.parse(data, name)
        if errors:
            return config.defaults(), errors
        if not isinstance(d, dict):
            return config.validate(d)
    for key in ("seats", "leds"):
        if key in opts:
            v = opts[key]
            d[key] = int(v) if v.isdigit() else v
    if "rules" in opts:
        d["rules"] = opts["rules"]
    if "seats" in opts and "leds" not in opts and "leds" not in d:
        d["leds"] = max(24, d["seats"]) if isinstance(d["seats"], int) else 24
    return config.validate(d)


class Terminal:
    """When stdin is a terminal (a pty from the host), make it behave like the board's USB
    serial: no echo, no line editing, bytes as sent (\\r stays \\r); Ctrl-C still stops."""

    # Linux termios flags, for MicroPython's termios module which has no constants.
    ICRNL = 0o400
    INLCR = 0o100
    IGNCR = 0o200
    IXON = 0o2000
    ECHO = 0o10
    ICANON = 0o2
    IEXTEN = 0o100000
    ECHONL = 0o100

    def __init__(self, fd):
        self.fd = fd
        self.saved = None
        try:
            import termios
        except ImportError:
            return
        try:
            attrs = termios.tcgetattr(fd)
        except Exception:  # noqa: BLE001 - not a terminal: nothing to do
            return
        self.saved = [a if not isinstance(a, list) else list(a) for a in attrs]
        flags = self
        if not MICROPYTHON:
            flags = termios
        attrs[0] &= ~(flags.ICRNL | flags.INLCR | flags.IGNCR | flags.IXON)
        attrs[3] &= ~(flags.ECHO | flags.ICANON | flags.IEXTEN | flags.ECHONL)
        try:
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
        except Exception:  # noqa: BLE001 - keep going in whatever mode it is
            self.saved = None

    def restore(self):
        if self.saved is not None:
            import termios
            try:
                termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
            except Exception:  # noqa: BLE001 - the terminal may be gone already
                pass


class Input:
    """Non-blocking stdin: read() returns the bytes there are (maybe none) or None at the
    end of input, after waiting at most timeout_ms."""

    def __init__(self):
        import select
        self.select = select
        self.fd = sys.stdin.fileno()
        self.poller = select.poll()
        if MICROPYTHON:
            self.poller.register(sys.stdin, select.POLLIN)
        else:
            self.poller.register(self.fd, select.POLLIN)

    def read(self, timeout_ms):
        try:
            ready = self.poller.poll(timeout_ms)
            if not ready:
                return b""
            if not MICROPYTHON:
                import os
                data = os.read(self.fd, 512)
                return data if data else None
            data = bytearray()
            while len(data) < 512:
                b = sys.stdin.buffer.read(1)
                if not b:
                    return bytes(data) if data else None
                data += b
                if not self.poller.poll(0):
                    break
            return bytes(data)
        except OSError:
            return None      # EIO: the pty's other side has gone


def make_writer():
    out = sys.stdout

    def write(line):
        out.write(line + "\n")
        if not MICROPYTHON:
            out.flush()
    return write


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    try:
        opts = parse_args(argv)
    except ValueError as exc:
        msg = str(exc)
        sys.stderr.write((msg + "\n" if msg else "") + USAGE + "\n")
        return 0 if not msg else 2
    cfg, errors = load_config(opts)
    if errors:
        # As the board does: the refused-config mode (ping, version answered, everything
        # else `err config ...`), and the exit status says the config was refused.
        sys.stderr.write("%s: %s\n" % (NAME, config.message(errors, opts.get(
            "config", "configuration"))))
    folder = opts.get("state", "")
    if folder:
        import os
        try:
            os.mkdir(folder)
        except OSError:
            pass
    pins = [Released() for _ in range(cfg["seats"] + 1)]
    write = make_writer()
    term = Terminal(sys.stdin.fileno())
    try:
        host = Input()
        if errors:
            app = Rejected(cfg, errors, CaptureStrip(cfg["leds"]), write, ticks_ms(),
                           opts.get("config", "configuration"))
        else:
            app = App(cfg, CaptureStrip(cfg["leds"]), pins, write,
                      filestore.Store(filestore.OsFs(folder)), now_ms=ticks_ms())
        stats = app.stats
        while True:
            data = host.read(POLL_MS)
            stats.start()
            if data is None:
                break
            if data:
                app.feed(data)
                if app.repl_requested:
                    return 2 if errors else 0   # `repl`: the board leaves its loop here
            now = ticks_ms()
            app.tick(now)
            stats.turn(app.last_frame == now)   # collects garbage after a frame if due
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.args and exc.args[0] == 32:    # EPIPE: the host stopped reading
            return 0
        raise
    finally:
        term.restore()
    return 2 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
