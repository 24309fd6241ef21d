"""The saved table: one file replaced atomically, with a format version, a sequence number
and a CRC32, so that a power cut loses at most the event in flight."""

import binascii
import json

FORMAT = 1
NAME = "state.json"
READ_LIMIT = 4096      # a state file is a few hundred bytes; never read a huge corrupt one


def dumps(obj):
    """Canonical compact JSON: no whitespace, object keys sorted, so the same data gives the
    same bytes (and the same CRC) on CPython and on MicroPython."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, (int, float)):
        return str(obj)
    if isinstance(obj, str):
        return json.dumps(obj)
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join([dumps(v) for v in obj]) + "]"
    if isinstance(obj, dict):
        keys = sorted([str(k) for k in obj])
        by_str = {}
        for k in obj:
            by_str[str(k)] = obj[k]
        return "{" + ",".join([json.dumps(k) + ":" + dumps(by_str[k]) for k in keys]) + "}"
    raise ValueError("cannot save a %s" % type(obj).__name__)


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
    """save(table_dict) writes NAME.tmp, then renames it over NAME (atomic on littlefs and
    POSIX); load() picks the newest intact copy. The file is JSON:
    {"v":1,"seq":N,"crc":C,"table":{...}} with C the CRC32 of "1 N " and the table's bytes as
    written (see checksum)."""

    def __init__(self, fs, name=NAME):
        self.fs = fs
        self.name = name
        self.tmp = name + ".tmp"
        self.seq = 0
        self.problem = False     # the last load found something wrong (reported as an error)

    def encode(self, table_dict, seq):
        payload = dumps(table_dict).encode()
        crc = checksum(FORMAT, seq, payload)
        head = ('{"v":%d,"seq":%d,"crc":%d,"table":' % (FORMAT, seq, crc)).encode()
        return head, payload

    def save(self, table_dict):
        """Write the table; returns the file size. Raises OSError when the flash fails (the
        old state is then still there)."""
        seq = self.seq + 1
        head, payload = self.encode(table_dict, seq)
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
        """(table_dict, seq, problem): problem is None for an intact file, "missing", or why
        the file is unusable."""
        try:
            f = self.fs.open(name, "rb")
        except OSError:
            return None, 0, "missing"
        try:
            data = f.read(READ_LIMIT + 1)
        except OSError as exc:
            return None, 0, "unreadable (%s)" % exc
        finally:
            f.close()
        return parse(data)

    def load(self):
        """The newest intact saved table: (table_dict or None, seq, message). Never raises on
        a bad file: a missing or corrupt one gives a clean start (None) and says why."""
        main, main_seq, main_bad = self.read(self.name)
        tmp, tmp_seq, tmp_bad = self.read(self.tmp)
        self.problem = False
        if tmp_bad is None and (main_bad is not None or tmp_seq > main_seq):
            # The power went between writing the new copy and renaming it: finish the job.
            try:
                self.fs.rename(self.tmp, self.name)
            except OSError:
                pass
            self.seq = tmp_seq
            return tmp, tmp_seq, "state restored (save %d, from an interrupted save)" % tmp_seq
        if tmp_bad != "missing":
            try:
                self.fs.remove(self.tmp)
            except OSError:
                pass
        if main_bad is None:
            self.seq = main_seq
            note = "" if tmp_bad == "missing" else "; an unfinished save was discarded"
            return main, main_seq, "state restored (save %d)%s" % (main_seq, note)
        self.seq = 0
        if main_bad == "missing":
            if tmp_bad == "missing":
                return None, 0, "no saved state: clean start"
            # Cut during the very first save: there was nothing before it.
            return None, 0, "no saved state (an unfinished first save was discarded): clean start"
        self.problem = True
        return None, 0, "saved state unusable (%s %s): clean start" % (self.name, main_bad)


def checksum(version, seq, payload):
    """CRC32 of the table's bytes, chained after the version and sequence number so that a
    flipped digit in the header is caught too."""
    return binascii.crc32(payload, binascii.crc32(b"%d %d " % (version, seq))) & 0xFFFFFFFF


def _number(data, i, end):
    """The decimal number in data[i:] up to the marker end: (value, index after end) or
    (None, 0). Strict: digits only (MicroPython's json would take 1. or 01)."""
    j = data.find(end, i)
    if j <= i or j - i > 10:
        return None, 0
    value = 0
    for k in range(i, j):
        c = data[k]
        if c < 48 or c > 57:
            return None, 0
        value = value * 10 + c - 48
    if data[i] == 48 and j - i > 1:
        return None, 0
    return value, j + len(end)


def parse(data):
    """Check and decode the bytes of a state file: (table_dict, seq, problem)."""
    if len(data) > READ_LIMIT:
        return None, 0, "too big"
    if not data.startswith(b'{"v":') or not data.endswith(b"}"):
        return None, 0, "truncated or not a state file"
    version, i = _number(data, 5, b',"seq":')
    if version is None:
        return None, 0, "damaged header"
    if version != FORMAT:
        return None, 0, "format %d, this firmware reads %d" % (version, FORMAT)
    seq, i = _number(data, i, b',"crc":')
    if seq is None:
        return None, 0, "damaged header"
    crc, i = _number(data, i, b',"table":')
    if crc is None:
        return None, 0, "damaged header"
    payload = data[i:-1]
    if checksum(version, seq, payload) != crc:
        return None, 0, "bad CRC"
    try:
        table = json.loads(payload.decode())
    except (ValueError, UnicodeError):
        return None, 0, "bad JSON"
    if not isinstance(table, dict):
        return None, 0, "bad JSON"
    return table, seq, None
