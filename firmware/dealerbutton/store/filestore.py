"""The saved table: one file replaced atomically, with a format version, a sequence number
and a CRC32, so that a power cut loses at most the event in flight; and read back at
power-up: the newest intact copy, checked strictly (header, CRC32, JSON) before anything
trusts it, with the tournament clock saved beside the table, or a clean start that says
why. What the App then starts with (the saved table if it fits config.json, a table kept
aside by a configuration change) is startup.py's."""

import binascii
import json

FORMAT = 1
NAME = "state.json"
READ_LIMIT = 4096      # a state file is a few hundred bytes; never read a huge corrupt one


class OsFs:
    """The real filesystem (MicroPython's os or CPython's), under one folder."""

    def __init__(self, root=""):
        self.root = root

    def path(self, name):
        if not self.root or not name:
            return self.root or name
        if self.root.endswith("/"):
            return self.root + name
        return self.root + "/" + name

    def open(self, name, mode, buffering=-1):
        return open(self.path(name), mode, buffering)

    def rename(self, old, new):
        import os
        os.rename(self.path(old), self.path(new))

    def remove(self, name):
        import os
        os.remove(self.path(name))

    def mkdir(self, name=""):
        import os
        os.mkdir(self.path(name))

    def exists(self, name):
        import os
        try:
            os.stat(self.path(name))
            return True
        except OSError:
            return False


class Store:
    """save(table_dict, clock_dict=None) writes NAME.tmp, then renames it over NAME (atomic on
    littlefs and POSIX); load() picks the newest intact copy. The file is JSON:
    {"v":1,"seq":N,"crc":C,"table":{...}} or, at a tournament table,
    {"v":1,"seq":N,"crc":C,"table":{...},"clock":{...}}, with C the CRC32 of "1 N " and of
    everything after "table": as written (see checksum): the clock is saved and checked with
    the table. After load(), `clock` is the saved clock's dict, or None."""

    def __init__(self, fs, name=NAME):
        self.fs = fs
        self.name = name
        self.tmp = name + ".tmp"
        self.seq = 0
        self.problem = False     # the last load found something wrong (reported as an error)
        self.clock = None        # the clock the last load found beside the table
        self.buf = bytearray(512)   # the table's JSON is written here (grows if ever short)
        self.read_clock = None

    def _payload(self, table_dict, clock_dict=None):
        """The table's JSON in self.buf, then `,"clock":` and the clock's: its length."""
        text = json.dumps(table_dict, separators=(",", ":"))
        if clock_dict is not None:
            text += ',"clock":' + json.dumps(clock_dict, separators=(",", ":"))
        data = text.encode()
        if len(data) > len(self.buf):
            self.buf = bytearray((len(data) + 255) // 256 * 256)
        self.buf[:len(data)] = data
        return len(data)

    def encode(self, table_dict, seq, clock_dict=None):
        """(head, payload) bytes of the file for this table and sequence number, without the
        closing brace."""
        n = self._payload(table_dict, clock_dict)   # (first: it may make self.buf larger)
        payload = bytes(self.buf[:n])
        return _head(seq, payload), payload

    def save(self, table_dict, clock_dict=None):
        """Write the table (and the clock beside it); returns the file size. Raises OSError
        when the flash fails (the old state is then still there)."""
        seq = self.seq + 1
        n = self._payload(table_dict, clock_dict)   # (first: it may make self.buf larger)
        payload = memoryview(self.buf)[:n]
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

    def keep_aside(self, name):
        """The saved table moved to the file `name` (startup.py: a table of another
        configuration): one rename, so that it is in one place or the other. Returns ""
        (nothing else made way for it)."""
        self.fs.rename(self.name, name)
        self.seq = 0
        return ""

    def take_back(self, name, seq):
        """The table kept aside in `name` (checked by the caller, save `seq`) made the
        saved one again: one rename."""
        self.fs.rename(name, self.name)
        self.seq = seq

    def load(self):
        """The newest intact saved table: (table_dict or None, seq, message), the clock saved
        beside it in self.clock. Never raises on a bad file: a missing or corrupt one gives
        a clean start (None) and says why."""
        main, main_seq, main_bad = self.read(self.name)
        main_clock = self.read_clock
        tmp, tmp_seq, tmp_bad = self.read(self.tmp)
        self.problem = False
        self.clock = None
        if tmp_bad is None and (main_bad is not None or tmp_seq > main_seq):
            self.clock = self.read_clock
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
            self.clock = main_clock
            return main, main_seq, "state restored (save %d)%s" % (
                main_seq, "" if tmp_bad == "missing" else "; an unfinished save was discarded")
        self.seq = 0
        if main_bad == "missing":
            if tmp_bad == "missing":
                return None, 0, "no saved state: clean start"
            # Cut during the very first save: there was nothing before it.
            return None, 0, "no saved state (an unfinished first save was discarded): clean start"
        self.problem = True
        return None, 0, "saved state unusable (%s %s): clean start" % (self.name, main_bad)

    def read(self, name):
        """(table_dict, seq, problem) of the state file `name`: problem is None for an intact
        file, "missing", or why the file is unusable. The clock saved with it is then in
        self.read_clock."""
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
        table, seq, problem = parse(data)
        self.read_clock = _clock_of(data) if problem is None else None
        return table, seq, problem


def _head(seq, payload):
    return b'{"v":%d,"seq":%d,"crc":%d,"table":' % (FORMAT, seq, checksum(FORMAT, seq, payload))


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


def _clock_of(data):
    """The clock saved in an intact state file (its bytes), or None."""
    try:
        d = json.loads(data.decode())
    except (ValueError, UnicodeError):
        return None
    return d.get("clock") if isinstance(d, dict) else None


def parse(data):
    """Check and decode the bytes of a state file: (table_dict, seq, problem). The CRC
    covers the table and the clock saved after it."""
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
        table = json.loads(data.decode())["table"]
    except (ValueError, UnicodeError, KeyError, TypeError):
        return None, 0, "bad JSON"
    if not isinstance(table, dict):
        return None, 0, "bad JSON"
    return table, seq, None
