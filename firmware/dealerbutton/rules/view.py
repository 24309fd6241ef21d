"""What a table shows: its seats, each player's status and debts, the level and the last
hand. Read-only: table.Table adds the events."""

from dealerbutton.rules import charges
from dealerbutton.rules.hand import last_hand
from dealerbutton.rules.nexthand import NextHand
from dealerbutton.rules.state import HALF_KILL, RuleError, TableState
from dealerbutton.rules.undo import UndoHistory
from dealerbutton.rules.words import AWAY, MARKERS, STATUSES, WAITING

# The markers (words.MARKERS) as the state keeps them.
_MARKER_FACTS = ("missed_bb", "missed_sb", "missed_ante", "missed_button_blind")


class TableView:
    """A table's state (state.TableState), its next hand (nexthand.NextHand) and its
    undo history (undo.UndoHistory), as the rules read them."""

    def __init__(self, state):
        self.state = state
        self.next = NextHand(state.seats)   # the next hand, worked out when asked for
        self.history = UndoHistory()
        self._hand = None                   # the last hand, made when asked for
        self._if_back = None                # M6b: (a copy of the state, its next hand) ...
        self._away_owes = [None] * (state.seats + 1)   # ... and each away player's figure

    # ---- reading the table -------------------------------------------------------------

    @property
    def seats(self):
        return self.state.seats

    @property
    def rules(self):
        return self.state.rules

    @property
    def tournament(self):
        return self.state.tournament

    @property
    def button_blind(self):
        """The button blind in chips (F2; 0: none)."""
        return self.state.button_blind

    @property
    def makeup(self):
        """How missed blinds are made up (F4): "together" or "one_per_hand"."""
        return self.state.makeup

    @property
    def hands(self):
        """How many hands have been dealt so far."""
        return self.state.hands

    @property
    def stakes(self):
        """(small blind, big blind) of the next deal."""
        return self.state.level[:2]

    @property
    def level(self):
        """(small blind, big blind, ante, ante kind) of the next deal (T4)."""
        return self.state.level

    @property
    def hand(self):
        """The last hand dealt, or None before the first one."""
        if self._hand is None and self.state.hands:
            self._hand = last_hand(self.state)
        return self._hand

    def status(self, seat):
        """"empty", "active", "away" or "waiting"."""
        self._check_seat(seat)
        return STATUSES[self.state.status[seat]]

    def choice(self, seat):
        """A waiting player's choice, "post" or "wait"; None for anybody else (and for
        everybody at a tournament table: T1)."""
        self._check_seat(seat)
        if self.state.status[seat] != WAITING or self.state.tournament:
            return None
        return "wait" if self.state.waits_for_bb[seat] else "post"

    def owes(self, seat):
        """(live, dead): what this player would post to be dealt in at the next deal, beyond
        the blind of his position, as that deal would charge it (M6); a player away: what
        he would if he came back now (M6b)."""
        self._check_seat(seat)
        state = self.state
        if state.status[seat] != AWAY or state.tournament or not state.hands:
            return charges.owes(self.next, state, seat)
        owed = self._away_owes[seat]
        if owed is None:
            owed = self._away_owes[seat] = self._owes_if_back(seat)
        return owed

    def _owes_if_back(self, seat):
        """M6b: what the away player in seat would owe at a copy of the table where he has
        pressed his button (back, post), worked out on its own next hand."""
        state = self.state
        if self._if_back is None:
            self._if_back = (TableState(state.seats, state.rules, state.level,
                                        state.tournament, state.button_blind, state.makeup),
                             NextHand(state.seats))
        copy, plan = self._if_back
        copy.restore(state.snapshot())
        copy.come_back(seat, False)
        plan.ready = False
        return charges.owes(plan, copy, seat)

    def _changed(self):
        """The table has changed: its next hand, its last hand and what its players away
        owe must be worked out again when asked for."""
        self.next.ready = False
        self._hand = None
        owes = self._away_owes
        for seat in range(len(owes)):
            owes[seat] = None

    def can_undo(self):
        return self.history.can_undo()

    def mover_wait(self, seat):
        """The deals left in the player's mover's wait (C3); 0: none."""
        self._check_seat(seat)
        return self.state.mover_wait[seat]

    def markers(self, seat):
        """The missed-blind markers the player holds, in the order of words.MARKERS."""
        self._check_seat(seat)
        return tuple([MARKERS[i] for i in range(len(MARKERS))
                      if getattr(self.state, _MARKER_FACTS[i])[seat]])

    @property
    def kill_mark(self):
        """(seat, half) of the player marked for a kill at the next deal (F3), or None."""
        for seat in self.state.all_seats():
            if self.state.kill[seat]:
                return (seat, self.state.kill[seat] == HALF_KILL)
        return None

    def _check_seat(self, seat):
        why = self._seat_refusal(seat)
        if why:
            raise RuleError(why)

    def _seat_refusal(self, seat):
        if type(seat) is not int or not 1 <= seat <= self.state.seats:
            return "seat %r does not exist: the seats are 1 to %d" % (seat, self.state.seats)
        return None
