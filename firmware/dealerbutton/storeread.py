"""Reading the saved table back at power-up (store.Store.load): the newest intact copy of
the state file, checked strictly (header, CRC32, JSON) before anything trusts it, and the
tournament clock saved beside the table; and (restore) what the App starts with: the
saved table if it fits config.json. A sound table that does not fit is never thrown away:
it is kept aside, beside the state file, in a file named by its own configuration
(aside_name), and the one kept aside for this configuration comes back in its place.

Only power-up reads the state, so Store.load() and App.restore() load this module for
that one call and forget it after: heap that the table does not keep while it plays.
Writing is in store.py.
"""

import json

from dealerbutton.store import FORMAT, checksum

READ_LIMIT = 4096      # a state file is a few hundred bytes; never read a huge corrupt one
CLEAN = ": clean start"


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


# -- the table the App starts with ---------------------------------------------------------

def aside_name(seats, rules, stakes, tournament):
    """The file that keeps a table saved under another configuration, named by the table's
    own: state-9seats-dead-10-20.json (seats, rules, a cash game's stakes), or
    state-9seats-dead-tournament.json."""
    return "state-%dseats-%s-%s.json" % (
        seats, rules, "tournament" if tournament else "%d-%d" % (stakes[0], stakes[1]))


def differences(app, table):
    """How a saved table differs from the App's config.json: [(why it does not fit, what
    config.json must say again for it)], in the order they are told."""
    c = app.cfg
    out = []
    if table.seats != c["seats"]:
        out.append(("has %d seats, config.json %d" % (table.seats, c["seats"]),
                    "%d seats" % table.seats))
    if table.rules != c["rules"]:
        out.append(("plays rules %s, config.json %s" % (table.rules, c["rules"]),
                    "rules %s" % table.rules))
    if table.tournament != (app.tournament is not None):
        out.append(("is a %s table, config.json %s" % (
            "tournament" if table.tournament else "cash game",
            "has a tournament" if app.tournament else "a cash game"),
            "a tournament" if table.tournament else "a cash game"))
    if not table.tournament and tuple(table.stakes) != (c["stakes"][0], c["stakes"][1]):
        out.append(("has other stakes than config.json",
                    "stakes %d/%d" % (table.stakes[0], table.stakes[1])))
    return out


BAD_TABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError)


def restore(app):
    """The table the App starts with and the clock saved with it: (table or None for a new
    one, clock dict or None). What was found is written as `* info` / `* error` lines:
    the table restored, or a clean start and why; a table of another configuration kept
    aside (where, and what brings it back); the one of this configuration taken back."""
    from dealerbutton.rules import Table
    st = app.store
    d, seq, message = load(st)
    problem = st.problem
    clock = st.clock
    if message.endswith(CLEAN):
        message = message[:-len(CLEAN)]
    table = None
    free = d is None        # no sound table in the state file that a restore would replace
    kept = False            # ... because it was just kept aside
    if d is not None:
        try:
            table = Table.from_dict(d)
            diff = differences(app, table)
        except BAD_TABLE as exc:
            table = None
            free = problem = True
            message = "saved table (save %d) unusable (%s)" % (seq, exc)
        else:
            if diff:
                message = "saved table (save %d) %s" % (seq, diff[0][0])
                name = aside_name(table.seats, table.rules, table.stakes, table.tournament)
                try:
                    st.fs.rename(st.name, name)     # atomic: the table is here or there
                    st.seq = 0
                    free = kept = True
                    message += ": kept as %s (config.json back to %s resumes it)" % (
                        name, ", ".join([x[1] for x in diff]))
                except OSError as exc:
                    message += ", and could not be kept aside (%s)" % exc
                table = None
                problem = True
    if table is None and free:
        table, note = take_back(app, Table)
        if note and (d is not None or problem):   # first what became of the state file
            app.write(("* info " if kept or (table is not None and not problem)
                       else "* error ") + message)
        if table is not None:
            clock = st.read_clock
            problem = False
            message = note
        elif note:                                # one kept for this config, but unusable
            problem = True
            message = note
    if table is None:
        message += CLEAN
    app.write(("* error " if problem else "* info ") + message)
    return table, clock


def take_back(app, Table):
    """The table kept aside for the App's configuration made the saved one again: (table,
    "state restored ..."), (None, why it is unusable: it stays where it is), or (None, "")
    when there is none. It is checked before the one rename that brings it back."""
    st = app.store
    c = app.cfg
    name = aside_name(c["seats"], c["rules"], c["stakes"], app.tournament is not None)
    d, seq, why = read(st, name)
    if why == "missing":
        return None, ""
    if why is None:
        try:
            table = Table.from_dict(d)
            if differences(app, table):
                raise ValueError("a table of another configuration")
            st.fs.rename(name, st.name)
            st.seq = seq
            return table, "state restored (save %d, from %s)" % (seq, name)
        except BAD_TABLE + (OSError,) as exc:
            return None, "saved table in %s unusable (%s)" % (name, exc)
    return None, "saved state unusable (%s %s)" % (name, why)
