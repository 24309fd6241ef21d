"""What the App starts with at power-up: the saved table if it fits config.json, else a new
one, and a tournament's clock. A sound table that does not fit is never thrown away: it is
kept aside under a name of its own configuration (aside_name: beside the state file on
MicroPython, in a slot on CircuitPython's drive), and the one kept aside for this
configuration comes back in its place. Reading and writing the files is the store's
(filestore.py, drivestore.py)."""

from dealerbutton.rules import Table

CLEAN = ": clean start"


def aside_name(seats, rules, stakes, tournament):
    """The file that keeps a table saved under another configuration, named by the table's
    own: state-9seats-dead-10-20.json (seats, rules, a cash game's stakes), or
    state-9seats-dead-tournament.json."""
    return "state-%dseats-%s-%s.json" % (
        seats, rules, "tournament" if tournament else "%d-%d" % (stakes[0], stakes[1]))


def table_and_clock(app):
    """(table, clock): the saved table if there is a usable one that fits config.json
    (reported as `* info`), else a new one (a problem reported as `* error`), and the
    tournament's clock saved with it (None in a cash game); a table saved under another
    configuration is kept aside, and the one kept for this configuration comes back."""
    table = saved_clock = None
    if app.store is not None:
        table, saved_clock = restore(app)
    clock = new_clock(app, saved_clock if table is not None else None)
    return (table if table is not None else new_table(app.cfg, clock)), clock


def new_clock(app, saved):
    """The tournament's clock: the saved one (paused), else a new one at level 1; None in a
    cash game."""
    if app.tournament is None:
        return None
    from dealerbutton.clock import schedule as clockmod  # (a cash game never loads it)
    if saved is not None:
        try:
            return clockmod.Clock.from_dict(app.tournament, saved, app.now)
        except ValueError as exc:
            app.write("* error %s: the clock starts again at level 1" % exc)
    return clockmod.Clock(app.tournament, app.now)


def new_table(cfg, clock):
    """A new table as config.json has it (a tournament's: at the clock's level)."""
    if clock is not None:
        return Table(seats=cfg["seats"], rules=cfg["rules"], stakes=(clock.sb, clock.bb),
                     tournament=True)
    return Table(seats=cfg["seats"], rules=cfg["rules"],
                 stakes=(cfg["stakes"][0], cfg["stakes"][1]),
                 button_blind=cfg["button_blind"], makeup=cfg["makeup"])


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
    if not table.tournament and table.button_blind != c["button_blind"]:
        out.append(("has a button blind of %d, config.json %d" % (
            table.button_blind, c["button_blind"]), "button_blind %d" % table.button_blind))
    if not table.tournament and table.makeup != c["makeup"]:
        out.append(("makes missed blinds up %s, config.json %s" % (table.makeup, c["makeup"]),
                    "makeup %s" % table.makeup))
    return out


BAD_TABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError)


def restore(app):
    """The table the App starts with and the clock saved with it: (table or None for a new
    one, clock dict or None). What was found is written as `* info` / `* error` lines:
    the table restored, or a clean start and why; a table of another configuration kept
    aside (where, and what brings it back); the one of this configuration taken back."""
    st = app.store
    d, seq, message = st.load()
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
                    note = st.keep_aside(name) or ""   # the table is here or there, never lost
                    free = kept = True
                    message += ": kept as %s (config.json back to %s resumes it)%s" % (
                        name, ", ".join([x[1] for x in diff]), note)
                except OSError as exc:
                    message += ", and could not be kept aside (%s)" % exc
                table = None
                problem = True
    if table is None and free:
        table, note = take_back(app)
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


def take_back(app):
    """The table kept aside for the App's configuration made the saved one again: (table,
    "state restored ..."), (None, why it is unusable: it stays where it is), or (None, "")
    when there is none. It is checked before the store brings it back (filestore.py: one
    rename; drivestore.py: written into the older copy)."""
    st = app.store
    c = app.cfg
    name = aside_name(c["seats"], c["rules"], c["stakes"], app.tournament is not None)
    d, seq, why = st.read(name)
    if why == "missing":
        return None, ""
    if why is None:
        try:
            table = Table.from_dict(d)
            if differences(app, table):
                raise ValueError("a table of another configuration")
            st.take_back(name, seq)
            return table, "state restored (save %d, from %s)" % (st.seq, name)
        except BAD_TABLE + (OSError,) as exc:
            return None, "saved table in %s unusable (%s)" % (name, exc)
    return None, "saved state unusable (%s %s)" % (name, why)
