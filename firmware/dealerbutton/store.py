"""The saved table: one file replaced atomically, with a format version, a sequence number
and a CRC32, so that a power cut loses at most the event in flight."""

import binascii
import json

from dealerbutton import transient

FORMAT = 1
NAME = "state.json"
READ_LIMIT = 4096      # a state file is a few hundred bytes; never read a huge corrupt one


def dumps(obj):
    """Canonical compact JSON: no whitespace, object keys sorted, so the same data gives the
    same bytes (and the same CRC) on CPython and on MicroPython."""
    b = bytearray(256)
    while True:
        try:
            return bytes(b[:_json(b, 0, obj)]).decode()
        except IndexError:
            b = bytearray(2 * len(b))


def _json(b, i, v):
    """Write v as dumps() does into the bytearray b from index i; returns the index after
    it, or raises IndexError when b is too short. Numbers, plain strings, lists and tuples
    allocate nothing; a dict only the sorted list of its keys."""
    if v is None or v is True or v is False:
        return _text(b, i, "null" if v is None else "true" if v else "false")
    if isinstance(v, int):
        if v < 0:
            b[i] = 45  # -
            i += 1
            v = -v
        j = i
        while True:
            b[j] = 48 + v % 10
            j += 1
            v //= 10
            if not v:
                break
        k = j - 1
        while i < k:  # the digits went in backwards
            b[i], b[k] = b[k], b[i]
            i += 1
            k -= 1
        return j
    if isinstance(v, float):
        return _text(b, i, str(v))
    if isinstance(v, str):
        for k in range(len(v)):
            c = ord(v[k])
            if c < 32 or c > 126 or c == 34 or c == 92:
                e = json.dumps(v).encode()  # escapes and UTF-8 as json.dumps writes them
                for k in range(len(e)):
                    b[i + k] = e[k]
                return i + len(e)
        b[i] = 34
        i = _text(b, i + 1, v)
        b[i] = 34
        return i + 1
    if isinstance(v, list) or isinstance(v, tuple):  # (no tuple built per call)
        b[i] = 91  # [
        i += 1
        for k in range(len(v)):
            if k:
                b[i] = 44
                i += 1
            i = _json(b, i, v[k])
        b[i] = 93
        return i + 1
    if isinstance(v, dict):
        for k in v:
            if not isinstance(k, str):  # other keys are written as strings, sorted as such
                v = _str_keys(v)
                break
        keys = sorted(v)
        b[i] = 123  # {
        i += 1
        for k in range(len(keys)):
            if k:
                b[i] = 44
                i += 1
            i = _json(b, i, keys[k])
            b[i] = 58  # :
            i = _json(b, i + 1, v[keys[k]])
        b[i] = 125
        return i + 1
    raise ValueError("cannot save a %s" % type(v).__name__)


def _str_keys(d):
    # Not inline in _json: a comprehension there would make obj a cell, allocated per call.
    return dict([(str(k), d[k]) for k in d])


def _text(b, i, s):
    """The characters of s (ASCII) into b from i; returns the index after them."""
    for k in range(len(s)):
        b[i + k] = ord(s[k])
    return i + len(s)


class OsFs:
    """The real filesystem (MicroPython's os or CPython's), under one folder."""

    def __init__(self, root=""):
        self.root = root

    def path(self, name):
        if not self.root:
            return name
        if self.root.endswith("/"):
            return self.root + name
        return self.root + "/" + name

    def open(self, name, mode):
        return open(self.path(name), mode)

    def rename(self, old, new):
        import os
        os.rename(self.path(old), self.path(new))

    def remove(self, name):
        import os
        os.remove(self.path(name))

    def exists(self, name):
        import os
        try:
            os.stat(self.path(name))
            return True
        except OSError:
            return False


class Store:
    """save(table) writes NAME.tmp, then renames it over NAME (atomic on littlefs and
    POSIX); load() picks the newest intact copy. The file is JSON:
    {"v":1,"seq":N,"crc":C,"table":{...}} with C the CRC32 of "1 N " and the table's bytes as
    written (see checksum). Reading the files back (load, read, parse) is in loadstate.py,
    imported for the call and released: the board does it once, at power-up."""

    def __init__(self, fs, name=NAME):
        self.fs = fs
        self.name = name
        self.tmp = name + ".tmp"
        self.seq = 0
        self.problem = False     # the last load found something wrong (reported as an error)
        self.buf = bytearray(256)   # the table's JSON is written here (grows if ever short)

    def _payload(self, table):
        """The table's JSON in self.buf: its length."""
        while True:
            try:
                return _json(self.buf, 0, table)
            except IndexError:
                self.buf = bytearray(2 * len(self.buf))

    def encode(self, table, seq):
        """(head, payload) bytes of the file for this table and sequence number, without the
        closing brace."""
        payload = bytes(self.buf[:self._payload(table)])
        return _head(seq, payload), payload

    def save(self, table):
        """Write the table; returns the file size. Raises OSError when the flash fails (the
        old state is then still there). Its garbage is a few small objects: the JSON goes
        into self.buf and straight from there to the file."""
        seq = self.seq + 1
        payload = memoryview(self.buf)[:self._payload(table)]
        head = _head(seq, payload)
        f = self.fs.open(self.tmp, "wb")
        try:
            f.write(head)
            f.write(payload)
            f.write(b"}")
            f.flush()
        finally:
            f.close()
        self.fs.rename(self.tmp, self.name)
        self.seq = seq
        return len(head) + len(payload) + 1

    def read(self, name):
        """(table, seq, problem): problem is None for an intact file, "missing", or why
        the file is unusable."""
        return transient("loadstate").read(self, name)

    def load(self):
        """The newest intact saved table: (table or None, seq, message). Never raises on
        a bad file: a missing or corrupt one gives a clean start (None) and says why."""
        return transient("loadstate").load(self)


def _head(seq, payload):
    return b'{"v":%d,"seq":%d,"crc":%d,"table":' % (FORMAT, seq, checksum(FORMAT, seq, payload))


def checksum(version, seq, payload):
    """CRC32 of the table's bytes, chained after the version and sequence number so that a
    flipped digit in the header is caught too."""
    return binascii.crc32(payload, binascii.crc32(b"%d %d " % (version, seq))) & 0xFFFFFFFF


def parse(data):
    """Check and decode the bytes of a state file: (table, seq, problem)."""
    return transient("loadstate").parse(data)
