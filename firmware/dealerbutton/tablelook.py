"""What the ring shows of a table: each seat's status (or the floor's mark on it, while it
holds), the seat of each role in the hand, and the kill; an empty seat shows no role but a
dead button."""

from dealerbutton import ring as ringmod
from dealerbutton.floormarks import RESERVED


def show(ring, table, marks):
    """Set the ring's seats and roles (ring.status, .button, .sb, .bb, .first_to_act, .kill)
    from the table and the floor's marks (floormarks.FloorMarks)."""
    status = ring.status
    for s in range(1, table.seats + 1):
        st = table.status(s)
        mark = marks.holds(s, st)
        if mark:
            status[s] = ringmod.RESERVED if mark == RESERVED else ringmod.MOVING
        elif st == "waiting":
            choice = table.choice(s)
            if choice is None:
                choice = "wait" if table.owes(s) == (0, 0) else "post"
            status[s] = ringmod.WAIT_POST if choice == "post" else ringmod.WAIT_BB
        elif st == "active":
            status[s] = ringmod.ACTIVE
        else:
            status[s] = ringmod.AWAY if st == "away" else ringmod.EMPTY
    h = table.hand
    if h is None:
        ring.button = ring.sb = ring.bb = ring.first_to_act = 0
    else:
        # The button stays where it is (dead on a seat left empty); the hand's other roles
        # go with a player who leaves or moves.
        ring.button = h.button
        ring.sb = _seated(table, h.sb or 0)   # (None: no small blind this hand)
        ring.bb = _seated(table, h.bb)
        ring.first_to_act = _seated(table, h.first_to_act or 0)
    # The kill marked for the next hand, else the one posted in this hand.
    kill = table.kill_mark
    if kill is not None:
        ring.kill = kill[0]
    else:
        ring.kill = _seated(table, h.kill or 0) if h is not None else 0


def _seated(table, seat):
    """seat, when a player sits there; else 0 (an empty seat shows no role but the button)."""
    return seat if seat and table.status(seat) != "empty" else 0
