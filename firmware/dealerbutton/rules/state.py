"""The table's state as plain data: each seat's facts, the last hand's positions, the levels.

The events (table.py) change it, the next hand (nexthand.py) is worked out from it, undo
(undo.py) keeps copies of it and the saved form (savedform.py) writes and reads it. Seats are
1..N; every per-seat fact is a byte per seat, index 0 unused."""

from dealerbutton.rules.words import ACTIVE, ANTE_KINDS, MAX_CHIPS, WAITING

# What a seat posted live as a blind: nothing, the small blind or the big blind.
NO_BLIND = 0
SB = 1
BB = 2
# A kill blind (F3): a full one (twice the big blind) or a half one (one and a half times).
NO_KILL = 0
FULL_KILL = 1
HALF_KILL = 2
KILLS = ("", "full", "half")


def blind_chips(blind, level):
    """The chips of a live blind (NO_BLIND, SB, BB) at a level."""
    if blind == BB:
        return level[1]
    return level[0] if blind == SB else 0


def kill_chips(kill, level):
    """The chips of a kill blind (F3): twice the big blind, or one and a half times it,
    rounded down."""
    if kill == FULL_KILL:
        return 2 * level[1]
    return 3 * level[1] // 2 if kill == HALF_KILL else 0



class RuleError(ValueError):
    """An event the rules refuse, or table data they cannot trust; the table is left
    unchanged."""


def check_level(sb, bb, ante, ante_kind):
    """Check a level (T4): small blind, big blind, ante, ante kind; RuleError if it is not
    one the rules can play."""
    for chips in (sb, bb, ante):
        if type(chips) is not int or not 0 <= chips <= MAX_CHIPS:
            break
    else:
        if 0 < sb <= bb and ante_kind in ANTE_KINDS:
            return
    raise RuleError("level %r/%r ante %r %r: blinds and ante are whole numbers up to %d,"
                    " 0 < sb <= bb, kind each, bb or button" % (sb, bb, ante, ante_kind,
                                                                 MAX_CHIPS))


# Each seat's facts, one byte per seat. What is the player's goes with him when he moves
# and is cleared when he leaves (M5):
PLAYER_FACTS = (
    "status",              # EMPTY, ACTIVE, AWAY or WAITING (words.py)
    "waits_for_bb",        # a waiting player chose to wait for the big blind (else: post)
    "new",                 # a new player, never dealt in yet (M3a, T2)
    "missed_bb",           # his markers: missed blinds to post when he comes back (M1, M2)
    "missed_sb",
    "missed_ante",         # ... a missed dealer ante (F1)
    "missed_button_blind",  # ... a missed button blind (F2)
    "carries_sb",          # a made-up small blind carried to the next hand, dead (MB2)
    "carries_live_sb",     # a missed small blind carried to the next hand, live (F4)
    "paid_bb",             # paid a big blind as a blind last hand (MB2: due the small blind)
    "mover_wait",          # deals left in a mover's wait (C3)
    "kill",                # marked for a kill blind at the next deal: FULL_KILL, HALF_KILL
    "moved_in",            # came to his seat since the last deal, by a move or a take-over:
                           # makes up no blind skipped by others leaving (C1, C6)
    "moved_dealt",         # ... having been dealt into the last hand (himself, or the player he
                           # took over from): MB2 counts him when it finds who is due the BB
)
# The seat's own, whoever sits there:
SEAT_ONLY_FACTS = (
    "dealt",               # dealt into the last hand
    "left",                # its player, dealt into the last hand, has left since
    "left_active",         # its player left it since the last deal, active: it may be taken over (C6)
    "left_earlier",        # ... and the seat was left already before he left it (C6 keeps that)
    "leaver_dealt",        # ... and he had been dealt into the last hand (C6: so has the taker)
    "passed",              # a blind has passed it since the first hand (S2)
)
# What the seat posted in the last hand (its antes follow from the hand's level):
POST_FACTS = (
    "posted_blind",        # NO_BLIND, SB or BB, live
    "posted_button_blind",  # the button blind, live (F2)
    "posted_kill",         # a kill blind, live, in place of every other live blind (F3)
    "posted_dead_sb",      # small blinds posted dead (a missed one, an MB2 make-up)
    "posted_dead_ante",    # a missed dealer ante made up, dead (F1)
    "posted_dead_button_blind",  # a missed button blind made up, dead (F2)
)
SEAT_FACTS = PLAYER_FACTS + SEAT_ONLY_FACTS + POST_FACTS


class TableState:
    """Everything the rules know of a table, and nothing else: what undo copies and the
    saved form keeps."""

    def __init__(self, seats, rules, level, tournament, button_blind, makeup):
        self.seats = seats
        self.rules = rules
        self.tournament = tournament
        self.button_blind = button_blind   # chips, 0: none (F2)
        self.makeup = makeup               # words.MAKEUPS
        # The level of the next deal and the one the last hand was dealt at: (small blind,
        # big blind, ante, ante kind). Replaced, never changed in place.
        self.level = level
        self.hand_level = level
        self.hands = 0          # hands dealt so far
        self.travel = 0         # how far the button has gone since the first hand (S2, max N)
        # The last hand's positions: button seat, small blind position and player (0: no
        # small blind), big blind.
        self.button = 0
        self.sb_seat = 0
        self.sb_player = 0
        self.bb = 0
        # Every per-seat fact lies in one bytearray, so that undo copies them all at once;
        # each is a view of its part of it (SEAT_FACTS), indexed by seat.
        self.facts = bytearray(len(SEAT_FACTS) * (seats + 1))
        self.status = self._view("status")
        self.waits_for_bb = self._view("waits_for_bb")
        self.new = self._view("new")
        self.missed_bb = self._view("missed_bb")
        self.missed_sb = self._view("missed_sb")
        self.missed_ante = self._view("missed_ante")
        self.missed_button_blind = self._view("missed_button_blind")
        self.carries_sb = self._view("carries_sb")
        self.carries_live_sb = self._view("carries_live_sb")
        self.paid_bb = self._view("paid_bb")
        self.mover_wait = self._view("mover_wait")
        self.kill = self._view("kill")
        self.moved_in = self._view("moved_in")
        self.moved_dealt = self._view("moved_dealt")
        self.dealt = self._view("dealt")
        self.left = self._view("left")
        self.left_active = self._view("left_active")
        self.left_earlier = self._view("left_earlier")
        self.leaver_dealt = self._view("leaver_dealt")
        self.passed = self._view("passed")
        self.posted_blind = self._view("posted_blind")
        self.posted_button_blind = self._view("posted_button_blind")
        self.posted_kill = self._view("posted_kill")
        self.posted_dead_sb = self._view("posted_dead_sb")
        self.posted_dead_ante = self._view("posted_dead_ante")
        self.posted_dead_button_blind = self._view("posted_dead_button_blind")

    def _view(self, name):
        """The part of facts that holds the per-seat fact `name`."""
        width = self.seats + 1
        start = SEAT_FACTS.index(name) * width
        return memoryview(self.facts)[start:start + width]

    def all_seats(self):
        """The seats, 1..N."""
        return range(1, self.seats + 1)

    def seats_where(self, fact):
        """The set of seats whose fact (one of the per-seat views) is not 0."""
        return {seat for seat in self.all_seats() if fact[seat]}

    def seats_with(self, status):
        """The set of seats whose player has this status. At a tournament table everybody
        seated counts as ACTIVE (T1): away is only shown."""
        statuses = self.status
        if status == ACTIVE and self.tournament:
            return {seat for seat in self.all_seats() if statuses[seat]}
        return {seat for seat in self.all_seats() if statuses[seat] == status}

    def present(self):
        """The seats of players who can be dealt in: active or waiting (at a tournament
        table, everybody seated)."""
        return self.seats_with(ACTIVE) | self.seats_with(WAITING)

    def has_markers(self, seat):
        """The player holds a missed-blind marker (M2, F1, F2)."""
        return bool(self.missed_bb[seat] or self.missed_sb[seat] or self.missed_ante[seat]
                    or self.missed_button_blind[seat])

    def played_last_hand(self, seat):
        """The player in `seat` was dealt into the last hand: in this seat, or in another one
        before he moved here (C1), or the player he took the seat over from was (C6)."""
        if self.moved_in[seat]:
            return bool(self.moved_dealt[seat])
        return bool(self.dealt[seat] and not self.left[seat])

    def come_back(self, seat, wait):
        """The away player in `seat` returns (M3): active at once if he owes nothing, else
        waiting, posting or (wait) waiting for the big blind. Markers all worth nothing at
        the level in force are nothing owed (F5): he is active and they are dropped. At a
        tournament table he was dealt in all along (T1)."""
        if self.tournament:
            self.status[seat] = ACTIVE
        elif self.new[seat] or self.mover_wait[seat] or self.owes_markers(seat):
            self.status[seat] = WAITING
            self.waits_for_bb[seat] = wait
        else:
            self.status[seat] = ACTIVE
            self.missed_ante[seat] = self.missed_button_blind[seat] = 0

    def owes_markers(self, seat):
        """The player holds a missed-blind marker worth something at the level in force (F5:
        a missed ante with no ante in force is worth nothing)."""
        return bool(self.missed_bb[seat] or self.missed_sb[seat]
                    or self.missed_ante[seat] and self.level[2]
                    or self.missed_button_blind[seat] and self.button_blind)

    # ---- walking round the table --------------------------------------------------------

    def next_seat(self, seat, among, backwards=False):
        """The first seat of the set `among` after `seat`, clockwise (backwards: before it),
        `seat` itself last; 0 when `among` holds none."""
        n = self.seats
        for _ in range(n):
            seat = (seat - 2) % n + 1 if backwards else seat % n + 1
            if seat in among:
                return seat
        return 0

    def seats_after(self, seat, up_to):
        """The set of seats after `seat` up to and including `up_to`, clockwise: none if they
        are the same seat, every seat if `up_to` is no seat (damaged data never loops)."""
        n = self.seats
        seats = set()
        for _ in range(n):
            if seat == up_to:
                break
            seat = seat % n + 1
            seats.add(seat)
        return seats

    def player_facts(self, seat):
        """What is the player's in `seat` (PLAYER_FACTS), for put_player()."""
        return bytes([getattr(self, name)[seat] for name in PLAYER_FACTS])

    def clear_player(self, seat):
        """Nobody in `seat` any more: what was the player's goes with him (M5)."""
        for name in PLAYER_FACTS:
            getattr(self, name)[seat] = 0

    def put_player(self, seat, facts):
        """Seat a player with these facts (player_facts(); all zero: nobody)."""
        for i in range(len(PLAYER_FACTS)):
            getattr(self, PLAYER_FACTS[i])[seat] = facts[i]

    # ---- undo ----------------------------------------------------------------------------

    def snapshot(self):
        """A copy of the whole state, for restore(): (the per-seat facts' bytes, the rest)."""
        return (bytes(self.facts), (self.level, self.hand_level, self.hands, self.travel,
                                    self.button, self.sb_seat, self.sb_player, self.bb))

    def restore(self, snapshot):
        """Back to the state of a snapshot()."""
        facts, scalars = snapshot
        (self.level, self.hand_level, self.hands, self.travel, self.button, self.sb_seat,
         self.sb_player, self.bb) = scalars
        self.facts[:] = facts
