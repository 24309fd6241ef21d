"""A fake `machine` module for tests of the board code (CPython and MicroPython alike).

Pins keep a level that a test sets with set_level(gpio, level); a pin with a pull-up reads
1 until the test pulls it low (pressed). WDT records its feeds; reset() records the call
and raises Reset so the test regains control."""

levels = {}        # gpio -> level set by the test
pins = {}          # gpio -> the last Pin made for it
watchdogs = []     # every WDT made
resets = []        # one entry per reset() call


class Reset(Exception):
    """machine.reset() was called (a real board would restart here)."""


def set_level(gpio, level):
    levels[gpio] = 1 if level else 0


def clear():
    levels.clear()
    pins.clear()
    del watchdogs[:]
    del resets[:]


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        if value is not None:
            levels[id] = 1 if value else 0
        pins[id] = self

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        self.pull = pull

    def value(self, v=None):
        if v is not None:
            levels[self.id] = 1 if v else 0
            return None
        if self.id in levels:
            return levels[self.id]
        return 1 if self.pull == Pin.PULL_UP else 0

    def __call__(self, v=None):
        return self.value(v)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        watchdogs.append(self)

    def feed(self):
        self.feeds += 1


def reset():
    resets.append(1)
    raise Reset("machine.reset()")


def soft_reset():
    reset()


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\x00\x01\x02\x03\x04\x05\x06\x07"


class _Mem:
    def __init__(self):
        self.words = {}

    def __getitem__(self, addr):
        return self.words.get(addr, 0)

    def __setitem__(self, addr, value):
        self.words[addr] = value


mem32 = _Mem()


class Mem32:
    """machine.mem32, for the one register the board reads: the RP2040 SIO's GPIO_IN
    (0xD0000004), bit n the level of GPIO n as the Pins above read it."""

    def __init__(self):
        self.reads = 0

    def __getitem__(self, addr):
        if addr != 0xD0000004:
            raise ValueError("no such register in the fake: 0x%08X" % addr)
        self.reads += 1
        v = 0
        for gpio in range(30):
            p = pins.get(gpio)
            level = levels.get(gpio, 1 if p is not None and p.pull == Pin.PULL_UP else 0)
            v |= level << gpio
        return v

