"""Bringing the saved table back, behind store.Store.load, Store.read, store.parse,
rules.Table.from_dict and the App's start: imported for the call and released (the board
loads its state once, at power-up)."""

import json

from dealerbutton import rules
from dealerbutton.store import FORMAT, READ_LIMIT, checksum


def read(store, name):
    """(table_dict, seq, problem): problem is None for an intact file, "missing", or why
    the file is unusable."""
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
    return parse(data)


def load(store):
    """The newest intact saved table: (table_dict or None, seq, message). Never raises on
    a bad file: a missing or corrupt one gives a clean start (None) and says why."""
    main, main_seq, main_bad = read(store, store.name)
    tmp, tmp_seq, tmp_bad = read(store, store.tmp)
    store.problem = False
    if tmp_bad is None and (main_bad is not None or tmp_seq > main_seq):
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


def table_of(cls, d):
    """Table.from_dict: a table (of class cls) from to_dict() data; bad data raises
    RuleError."""
    try:
        if d["v"] != rules.FORMAT:
            raise rules.RuleError("table data format %r is not %d" % (d["v"], rules.FORMAT))
        t = cls(d["n"], d["r"], tuple(d["k"]))
        n = t.seats
        flags = d["f"]
        hands = d["h"]
        p = d["p"]
        q = d["q"]
        ok = (len(flags) == n and type(hands) is int and hands >= 0 and len(p) == 8
              and len(q) <= n)
        for x in flags:
            ok = ok and type(x) is int and 0 <= x <= 255
        for x in p + q:
            ok = ok and type(x) is int and x >= 0
    except (KeyError, TypeError, IndexError):
        raise rules.RuleError("table data is incomplete or malformed") from None
    full = (2 << n) - 2
    if ok and hands:
        ok = (1 <= p[0] <= n and 1 <= p[1] <= n and p[2] <= n and 1 <= p[3] <= n
              and p[4] >> p[3] & 1 and not (p[4] | p[5] | p[6]) & ~full and p[7] <= n)
    elif ok:
        # Before the first hand nobody waits (S1: whoever sits down is in) and nothing was
        # posted.
        ok = not any(p) and not q and all(x & 3 != 3 for x in flags)
    if not ok:
        raise rules.RuleError("table data is inconsistent")
    t._f = bytearray(1) + bytearray(flags)
    t._hands = hands
    (t._button, t._sbpos, t._sb, t._bb, t._dealt, t._gone, t._passed,
     t._orbit) = p
    for c in q:
        if not 1 <= c >> 4 <= n or c >> 2 & 3 > 2 or c & 3 > 2 or not c & 15:
            raise rules.RuleError("table data is inconsistent")
    t._posts = bytes(q)
    return t


def restore(app):
    """App.__init__: the saved table if there is a usable one (reported as `* info`), else a
    new one (a problem reported as `* error`)."""
    if app.store is None:
        return app.new_table()
    d, seq, message = load(app.store)
    problem = app.store.problem
    table = None
    if d is not None:
        try:
            table = table_of(rules.Table, d)
            why = mismatch(app, table)
            if why:
                table = None
                problem = True
                message = "saved table (save %d) %s: clean start" % (seq, why)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            table = None
            problem = True
            message = "saved table (save %d) unusable (%s): clean start" % (seq, exc)
    app.write(("* error " if problem else "* info ") + message)
    return table if table is not None else app.new_table()


def mismatch(app, table):
    """Why a saved table does not fit config.json, or None."""
    c = app.cfg
    if table.seats != c["seats"]:
        return "has %d seats, config.json %d" % (table.seats, c["seats"])
    if table.rules != c["rules"]:
        return "plays rules %s, config.json %s" % (table.rules, c["rules"])
    if tuple(table.stakes) != (c["stakes"][0], c["stakes"][1]):
        return "has other stakes than config.json"
    return None
