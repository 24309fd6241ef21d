"""The undo history (E3): the table's state before each of its last events, newest last."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

DEPTH = const(40)   # events that can be undone in a row (RULES.md E3: at least 32)


class UndoHistory:
    """Snapshots of a TableState (tablestate.py), kept before each event: undo() puts the
    newest back. The oldest goes once DEPTH are kept."""

    def __init__(self):
        self.snapshots = []

    def keep(self, state):
        """Remember the state as it is, before an event changes it."""
        if len(self.snapshots) == DEPTH:
            self.snapshots.pop(0)
        self.snapshots.append(state.snapshot())

    def can_undo(self):
        return len(self.snapshots) > 0

    def undo(self, state):
        """Put the state back as it was before the last event kept."""
        state.restore(self.snapshots.pop())
