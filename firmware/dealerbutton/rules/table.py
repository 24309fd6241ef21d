"""Table rules: where the button and the blinds go, hand after hand (RULES.md, S1..E4, and
T1..T5 for a tournament table).

Table takes the table's events and answers what the table shows. Its state is plain data
(state.py); the next hand is worked out in nexthand.py, undo keeps copies of the state
(undo.py) and the saved form is savedform.py's. Pure and integer-only: the board and the
host run these same files."""

from dealerbutton.rules import dealing, savedform, seatchange
from dealerbutton.rules.hand import last_hand
from dealerbutton.rules.state import FULL_KILL, HALF_KILL, RuleError, TableState, check_level
from dealerbutton.rules.view import TableView
from dealerbutton.rules.words import (
    ACTIVE,
    AWAY,
    EMPTY,
    MAKEUPS,
    MAX_SEATS,
    MIN_SEATS,
    RULE_SETS,
    STATUSES,
    WAITING,
)

FORMAT = savedform.FORMAT


class Table(TableView):
    """A poker table's seats, hand after hand, under one rule set ("dead", "moving",
    "simple"), as a cash game or (tournament=True) a tournament table (T1..T5)."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20), tournament=False,
                 button_blind=0, makeup="together"):
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            raise RuleError("a table has %d to %d seats, not %r" % (MIN_SEATS, MAX_SEATS, seats))
        if rules not in RULE_SETS:
            raise RuleError("rules must be %s, not %r" % (", ".join(RULE_SETS), rules))
        try:
            small, big = stakes
        except (TypeError, ValueError):
            raise RuleError("stakes must be two whole numbers (small, big), not %r"
                            % (stakes,)) from None
        check_level(small, big, 0, "each")
        if makeup not in MAKEUPS:
            raise RuleError("makeup must be %s, not %r" % (" or ".join(MAKEUPS), makeup))
        check_level(1, 1, button_blind, "each")
        if button_blind and tournament is True:
            raise RuleError("a tournament has no button blind (F2: cash games only)")
        if makeup != "together" and tournament is True:
            raise RuleError("a tournament makes up no missed blinds (F4: cash games only)")
        TableView.__init__(self, TableState(seats, rules, (small, big, 0, "each"),
                                            tournament is True, button_blind, makeup))

    # ---- events --------------------------------------------------------------------------

    def sit(self, seat, post=False):
        """A new player sits at an empty seat: waits for the BB, or posts if post=True.
        At a tournament table he is dealt in from the next hand (T2), and post is refused."""
        self._check_seat(seat)
        state = self.state
        if state.status[seat]:
            raise RuleError("seat %d is taken: the player there must leave first" % seat)
        if post:
            self._no_choice(seat)
        self._before_event()
        if not state.hands:
            state.status[seat] = ACTIVE  # S1: drew for the button
            return
        state.new[seat] = 1
        if state.tournament:
            state.status[seat] = ACTIVE  # T2: checked at the next deal
        else:
            state.status[seat] = WAITING
            state.waits_for_bb[seat] = not post

    def away(self, seat):
        """The player sits out from the next hand on."""
        self._check_seat(seat)
        state = self.state
        status = state.status[seat]
        if status == EMPTY:
            raise RuleError("seat %d is empty: nobody to send away" % seat)
        if status == AWAY:
            raise RuleError("seat %d is already away" % seat)
        self._before_event()
        if state.carries_sb[seat] or state.carries_live_sb[seat]:
            # A small blind carried, not yet paid, becomes a missed SB (MB2, F5).
            state.carries_sb[seat] = state.carries_live_sb[seat] = 0
            state.missed_sb[seat] = 1
        state.waits_for_bb[seat] = 0
        state.status[seat] = AWAY

    def back(self, seat, wait=False):
        """An away player returns: active if he owes nothing, else waiting (post or wait)."""
        self._check_seat(seat)
        state = self.state
        status = state.status[seat]
        if status == EMPTY:
            raise RuleError("seat %d is empty: nobody to bring back" % seat)
        if status != AWAY:
            raise RuleError("seat %d is %s, not away: nobody to bring back"
                            % (seat, STATUSES[status]))
        if wait:
            self._no_choice(seat)
        self._before_event()
        state.come_back(seat, wait)

    def choose(self, seat, choice):
        """A waiting player changes his mind: "post" or "wait" (for the big blind)."""
        self._check_seat(seat)
        self._no_choice(seat)
        if choice != "post" and choice != "wait":
            raise RuleError("seat %d: the choice is post or wait, not %r" % (seat, choice))
        state = self.state
        status = state.status[seat]
        if status != WAITING:
            raise RuleError("seat %d is %s, not waiting: nothing to choose"
                            % (seat, STATUSES[status]))
        if (choice == "wait") == bool(state.waits_for_bb[seat]):
            raise RuleError("seat %d already chose to %s" % (seat, choice))
        self._before_event()
        state.waits_for_bb[seat] = choice == "wait"

    def leave(self, seat):
        """The player busts or leaves; he takes his debts with him (M5)."""
        self._check_seat(seat)
        state = self.state
        if not state.status[seat]:
            raise RuleError("seat %d is empty: nobody to leave" % seat)
        self._before_event()
        seatchange.leave_seat(state, seat)

    def move(self, a, b):
        """The player in seat a moves to the empty seat b between hands (C1-C5)."""
        self._check_seat(a)
        self._check_seat(b)
        state = self.state
        if a == b:
            raise RuleError("seat %d: a move needs two different seats" % a)
        if not state.status[a]:
            raise RuleError("seat %d is empty: nobody to move" % a)
        if state.status[b]:
            raise RuleError("seat %d is taken: a player moves only to an empty seat" % b)
        self._before_event()
        seatchange.move_player(state, a, b)

    def take(self, seat):
        """A new player takes over the seat its active player left since the last deal, as
        if he had never left (C6; cash games)."""
        self._check_seat(seat)
        state = self.state
        if state.tournament:
            raise RuleError("seat %d: a tournament has no take-over (C6: cash games only)" % seat)
        if state.status[seat]:
            raise RuleError("seat %d is taken: the player there must leave first" % seat)
        if not state.left_active[seat]:
            raise RuleError("seat %d: no active player has left it since the last deal,"
                            " nobody to take over from (sit down instead)" % seat)
        self._before_event()
        seatchange.take_over(state, seat)

    def kill(self, seat, half=False):
        """Mark an active player for a kill blind at the next deal (F3; cash games): a full
        kill, twice the big blind, or half=True, one and a half times it. Marking another
        seat moves the mark."""
        self._check_seat(seat)
        state = self.state
        if state.tournament:
            raise RuleError("seat %d: a tournament has no kill blind (F3: cash games only)" % seat)
        if state.status[seat] != ACTIVE:
            raise RuleError("seat %d is %s: only an active player can be marked for a kill"
                            % (seat, STATUSES[state.status[seat]]))
        self._before_event()
        for s in state.all_seats():
            state.kill[s] = 0
        state.kill[seat] = HALF_KILL if half else FULL_KILL

    def set_level(self, sb, bb, ante=0, ante_kind="each"):
        """The stakes from the next deal on (T4): small blind, big blind, ante and its kind,
        "each" (every player dealt in posts it), "bb" (the big blind posts one for the
        table) or "button" (the player on the button posts one for the table, F1). An
        event, like a seat event, and True; the level already in force changes nothing and
        is no event: False."""
        check_level(sb, bb, ante, ante_kind)
        level = (sb, bb, ante, ante_kind)
        if level == self.state.level:
            return False
        self._before_event()
        self.state.level = level
        return True

    def undo(self):
        """Revert the last successful event (at least 32 deep)."""
        if not self.history.can_undo():
            raise RuleError("nothing to undo")
        self.history.undo(self.state)
        self._changed()

    def deal_refusal(self, button=None):
        """Why deal(button) would be refused (the message of its RuleError), or None: then
        deal(button) deals. Changes nothing."""
        state = self.state
        first = state.hands == 0
        if not first and button is not None:
            return "seat %r: the button is placed only for the first hand" % (button,)
        present = len(state.present())
        if present < 2:
            return "cannot deal: %d player(s) present, at least two are needed" % present
        if first:
            if button is None:
                return "the first hand needs the button seat (who won the draw)"
            why = self._seat_refusal(button)
            if why:
                return why
            if not state.status[button]:  # S1: an away player may win the draw
                return ("seat %d is empty: the first button goes to a player who drew for it"
                        % button)
        return None

    def deal(self, button=None):
        """Deal the next hand (the first one with the seat that won the draw for the button)."""
        why = self.deal_refusal(button)
        if why:
            raise RuleError(why)
        self._before_event()
        dealing.deal_into(self.next, self.state, button)
        self._hand = last_hand(self.state)
        return self._hand

    # ---- the saved form ------------------------------------------------------------------

    def to_dict(self):
        """The whole table as plain JSON-compatible data, in words: what the state file
        keeps (savedform.py)."""
        return savedform.to_dict(self.state)

    @classmethod
    def from_dict(cls, d):
        """A table from to_dict() data, or from what earlier firmware saved. Data that is
        incomplete, malformed or inconsistent (a damaged state file) raises RuleError
        rather than giving a table that misbehaves."""
        state = savedform.from_dict(d)
        table = cls(state.seats, state.rules, state.level[:2], state.tournament)
        TableView.__init__(table, state)   # (its button blind and make-ups with it)
        return table

    def compact_history(self):
        """The undo history works out what it keeps of the events so far: time an event
        would otherwise take before its light (the device calls this when it saves)."""
        self.history.compact()

    # ---- insides -------------------------------------------------------------------------

    def _before_event(self):
        """Every event calls this just before it changes the table: undo keeps the state
        as it was, and the next hand must be worked out again."""
        self.history.keep(self.state)
        self._changed()

    def _no_choice(self, seat):
        if self.state.tournament:
            raise RuleError("seat %d: a tournament has no post or wait, all are dealt in" % seat)
