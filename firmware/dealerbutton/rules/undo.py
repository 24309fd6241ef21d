"""The undo history (E3): the table's state before each of its last events, newest last."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

DEPTH = const(40)   # events that can be undone in a row (RULES.md E3: at least 32)


class UndoHistory:
    """The TableState (state.py) before each of the last DEPTH events: undo() puts the
    newest back.

    The newest two are kept whole (state.snapshot()). Each older one is kept as what it has
    different from the one after it: its scalars, and the bytes of its per-seat facts that
    differ, as (index high, index low, value) triples. An event changes a few seats' facts,
    so 40 events cost a few kilobytes, not 40 copies of every fact. Working out those
    differences waits for compact(), which the device calls once the press's light is out,
    or for the next event."""

    def __init__(self):
        self.newest = None    # the state before the last event, whole: (facts, scalars)
        self.previous = None  # the state before the event before it, whole, until compact()
        self.older = []       # the ones before those, oldest first: (changed bytes, scalars)

    def keep(self, state):
        """Remember the state as it is, before an event changes it."""
        self.compact()
        if len(self.older) == DEPTH - 1:
            self.older.pop(0)   # (the oldest goes: two are kept whole now)
        self.previous = self.newest
        self.newest = state.snapshot()

    def compact(self):
        """The state before the newest kept as its differences from the newest."""
        previous, newest = self.previous, self.newest
        if previous is None or newest is None:   # (previous is only kept beside a newest)
            return
        self.older.append((_changes(previous[0], newest[0]), previous[1]))
        self.previous = None

    def can_undo(self):
        return self.newest is not None

    def undo(self, state):
        """Put the state back as it was before the last event kept."""
        snap = self.newest
        if snap is None:
            raise ValueError("nothing to undo")
        state.restore(snap)
        if self.previous is not None:
            self.newest = self.previous
            self.previous = None
        elif self.older:
            changes, scalars = self.older.pop()
            facts = bytearray(snap[0])
            for i in range(0, len(changes), 3):
                facts[changes[i] << 8 | changes[i + 1]] = changes[i + 2]
            self.newest = (bytes(facts), scalars)
        else:
            self.newest = None


def _changes(before, after):
    """The bytes of `before` that differ from `after`: (index high, index low, value)."""
    out = bytearray()
    for i in range(len(before)):
        if before[i] != after[i]:
            out.append(i >> 8)
            out.append(i & 0xFF)
            out.append(before[i])
    return bytes(out)
