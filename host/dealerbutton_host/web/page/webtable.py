"""The board in a web page: the firmware's App with pins the page presses, a strip the page
draws, and the saved table kept in a dict the page stores in the browser.

It runs in MicroPython's WebAssembly port (the page's table.mjs drives it) and, for the
tests, on CPython and the MicroPython unix port. Everything it hands the page is a str or
an int: a JS proxy of a Python list or bytearray cannot be read cheaply from JS.

    board = Board(config_text, saved_text, now_ms)    # a power-up
    board.pin(i, 1) ... board.pin(i, 0)               # hold button i (0: next hand)
    board.tick(now_ms); board.feed("state\\n")
    board.step(now_ms) -> tick, then 1 if lines wait for take() + 2 if saved() has news
    board.take()     -> the lines the device wrote since the last take, "\\n" between them
    board.frame()    -> the last frame, "RRGGBB..." (one hex string), or "" if unchanged
    board.saved()    -> the saved files as JSON text, or "" if unchanged since last asked
    check(config_text) -> "" or the firmware's one-line message about what is wrong
"""

import binascii
import io
import json

from dealerbutton import app as appmod
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store import config
from dealerbutton.store.filestore import Store

CONFIG_NAME = "config.json"


class Pin:
    """A button pin held by the page: value() is 0 while pressed (the pull-up's logic)."""

    def __init__(self):
        self.down = 0

    def value(self):
        return 0 if self.down else 1


class Strip(CaptureStrip):
    """The capture strip, remembering whether a frame came since the page last drew."""

    def __init__(self, n):
        CaptureStrip.__init__(self, n)
        self.fresh = True

    def show(self, rgb_buf):
        CaptureStrip.show(self, rgb_buf)
        self.fresh = True


class _Writer:
    def __init__(self, fs, name):
        self.fs = fs
        self.name = name
        self.parts = []

    def write(self, data):
        self.parts.append(bytes(data))
        return len(data)

    def flush(self):
        pass

    def close(self):
        self.fs.files[self.name] = b"".join(self.parts)
        self.fs.changes += 1


class MemFs:
    """The board's flash as a dict of name -> bytes (what Store needs: open, rename, remove,
    exists); changes counts the writes, so the page knows when to store it."""

    def __init__(self, files=None):
        self.files = files if files is not None else {}
        self.changes = 0

    def open(self, name, mode):
        if "r" in mode:
            if name not in self.files:
                raise OSError(2, "no such file: " + name)
            return io.BytesIO(self.files[name])
        return _Writer(self, name)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2, "no such file: " + old)
        self.files[new] = self.files.pop(old)
        self.changes += 1

    def remove(self, name):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        del self.files[name]
        self.changes += 1

    def exists(self, name):
        return name in self.files

    def dump(self):
        """The files as JSON text: {name: hex of the bytes}."""
        out = {}
        for name in self.files:
            out[name] = binascii.hexlify(self.files[name]).decode()
        return json.dumps(out)


def load_files(text):
    """(files, problem) from dump()'s text: problem is None, or why the text is unusable
    (then there are no files: a blank flash, and the firmware starts a clean table)."""
    files = {}
    if not text:
        return files, None
    try:
        d = json.loads(text)
        for name in d:
            files[str(name)] = binascii.unhexlify(d[name])
    except (ValueError, TypeError, AttributeError):
        return {}, "not the JSON of the saved files"
    return files, None


def load_config(text):
    """(config, errors) for the text of a config.json, by the firmware's own checks; empty
    text is no file: the defaults."""
    if not text or not text.strip():
        return config.validate({})
    d, errors = config.parse(text, CONFIG_NAME)
    if errors:
        return config.defaults(), errors
    return config.validate(d)


def check(text):
    """"" when the firmware accepts this config.json, else its one-line message."""
    cfg, errors = load_config(text)
    if errors:
        return config.message(errors, CONFIG_NAME)
    return ""


class Board:
    """One power-up of the emulated board."""

    def __init__(self, config_text, saved_text, now_ms, rng=None):
        self.out = []
        files, problem = load_files(saved_text)
        if problem:
            self.out.append("* error the browser's copy of the flash is unreadable: %s" % problem)
        self.fs = MemFs(files)
        self.stored = self.fs.changes
        cfg, errors = load_config(config_text)
        self.cfg = cfg
        self.refused = bool(errors)
        self.pins = [Pin() for _ in range(cfg["seats"] + 1)]
        self.strip = Strip(cfg["leds"])
        if errors:
            from dealerbutton.rejected import Rejected
            self.app = Rejected(cfg, errors, self.strip, self.out.append, now_ms)
        else:
            self.app = appmod.App(cfg, self.strip, self.pins, self.out.append,
                                  store=Store(self.fs), rng=rng, now_ms=now_ms)

    def pin(self, i, down):
        if 0 <= i < len(self.pins):
            self.pins[i].down = 1 if down else 0

    def tick(self, now_ms):
        self.app.tick(now_ms)

    def step(self, now_ms):
        """tick(), then what is waiting, in one call from JS (each call costs): 1 when lines
        wait for take(), + 2 when saved() has something new."""
        self.app.tick(now_ms)
        return (1 if self.out else 0) | (2 if self.fs.changes != self.stored else 0)

    def feed(self, text):
        self.app.feed(text.encode())

    def take(self):
        if not self.out:
            return ""
        text = "\n".join(self.out)
        self.out.clear()
        return text

    def frame(self):
        if not self.strip.fresh:
            return ""
        self.strip.fresh = False
        return binascii.hexlify(self.strip.frame).decode()

    def saved(self):
        if self.fs.changes == self.stored:
            return ""
        self.stored = self.fs.changes
        return self.fs.dump()
