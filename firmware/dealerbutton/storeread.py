"""Reading the saved table back at power-up (store.Store.load): the newest intact copy of
the state file, checked strictly (header, CRC32, JSON) before anything trusts it, and the
tournament clock saved beside the table.

Only power-up reads the state, so Store.load() loads this module for that one call and
forgets it after: 2.8 KB of heap on the unix port, about 2 KB on the board, that the
table does not keep while it plays. Writing is in store.py.
"""

import json

from dealerbutton.store import FORMAT, checksum

READ_LIMIT = 4096      # a state file is a few hundred bytes; never read a huge corrupt one


def read(store, name):
    """(table_dict, seq, problem): problem is None for an intact file, "missing", or why
    the file is unusable. The clock saved with it is in store.read_clock."""
    try:
        f = store.fs.open(name, "rb")
    except OSError:
        return None, 0, "missing"
    try:
        data = f.read(READ_LIMIT + 1)
    except OSError as exc:
        return None, 0, "unreadable (%s)" % exc
    finally:
        f.close()
    table, seq, problem = parse(data)
    store.read_clock = _clock_of(data) if problem is None else None
    return table, seq, problem


def load(store):
    """The newest intact saved table: (table_dict or None, seq, message). Never raises on
    a bad file: a missing or corrupt one gives a clean start (None) and says why."""
    main, main_seq, main_bad = read(store, store.name)
    main_clock = store.read_clock
    tmp, tmp_seq, tmp_bad = read(store, store.tmp)
    store.problem = False
    store.clock = None
    if tmp_bad is None and (main_bad is not None or tmp_seq > main_seq):
        store.clock = store.read_clock
        # The power went between writing the new copy and renaming it: finish the job.
        try:
            store.fs.rename(store.tmp, store.name)
        except OSError:
            pass
        store.seq = tmp_seq
        return tmp, tmp_seq, "state restored (save %d, from an interrupted save)" % tmp_seq
    if tmp_bad != "missing":
        try:
            store.fs.remove(store.tmp)
        except OSError:
            pass
    if main_bad is None:
        store.seq = main_seq
        store.clock = main_clock
        return main, main_seq, "state restored (save %d)%s" % (
            main_seq, "" if tmp_bad == "missing" else "; an unfinished save was discarded")
    store.seq = 0
    if main_bad == "missing":
        if tmp_bad == "missing":
            return None, 0, "no saved state: clean start"
        # Cut during the very first save: there was nothing before it.
        return None, 0, "no saved state (an unfinished first save was discarded): clean start"
    store.problem = True
    return None, 0, "saved state unusable (%s %s): clean start" % (store.name, main_bad)


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
