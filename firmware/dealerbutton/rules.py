"""Table rules: where the button and the blinds go, hand after hand (RULES.md, S1..E4, and
T1..T5 for a tournament table).

Pure and integer-only: the board and the host run this same file.  Seats are 1..N;
sets of seats are kept as bit masks (bit s = seat s), each seat's status as one byte.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A seat's status (Table._status holds one per seat; STATUSES names them).
_EMPTY = const(0)
_ACTIVE = const(1)
_AWAY = const(2)
_WAITING = const(3)

# The blind a seat posts live in a hand (_Plan.live, Table._live); beside it, what he posts
# dead: a number of small blinds, 0 to 2 (_Plan.dead, Table._dead).
_LIVE_SB = const(1)
_LIVE_BB = const(2)

UNDO_DEPTH = const(40)
# An undo record (see _save_for_undo) holds the table's state as sets of seats and numbers,
# big-endian: first, 2 bytes each, the seats of each status, of each live blind and of each
# count of dead small blinds in the last hand (_BY_SEAT: which of the seats' bytes, of what
# value), then these attributes, of _SIZES bytes each: 41 bytes whatever the seats. The two
# levels of the record are kept beside it, in a list.
_BY_SEAT = (("_status", _ACTIVE), ("_status", _AWAY), ("_status", _WAITING),
            ("_live", _LIVE_SB), ("_live", _LIVE_BB), ("_dead", 1), ("_dead", 2))
_RECORD = ("_hands", "_button", "_sb_seat", "_sb_player", "_bb", "_dealt", "_left",
           "_passed", "_travel", "_waits_for_bb", "_new", "_missed_bb", "_missed_sb",
           "_carries_sb", "_paid_bb")
_SIZES = b"\x04\x01\x01\x01\x01\x02\x02\x02\x01\x02\x02\x02\x02\x02\x02"
_RECORD_BYTES = 2 * len(_BY_SEAT) + sum(_SIZES)  # 41 bytes
FORMAT = const(3)  # the saved form (to_dict): 3 in words; 1 and 2 in tableform.py
MAX_CHIPS = const(1000000000)  # the biggest blind or ante: a small int on the board

STATUSES = ("empty", "active", "away", "waiting")
RULE_SETS = ("dead", "moving", "simple")
ANTE_KINDS = ("each", "bb")  # every player dealt in posts the ante; the big blind posts one


class RuleError(ValueError):
    """An event the rules refuse; the table is left unchanged."""


def _check_level(sb, bb, ante, ante_kind):
    """Check a level (T4): small blind, big blind, ante, ante kind."""
    for x in (sb, bb, ante):
        if type(x) is not int or not 0 <= x <= MAX_CHIPS:
            break
    else:
        if 0 < sb <= bb and ante_kind in ANTE_KINDS:
            return
    raise RuleError("level %r/%r ante %r %r: blinds and ante are whole numbers up to %d,"
                    " 0 < sb <= bb, kind each or bb" % (sb, bb, ante, ante_kind, MAX_CHIPS))


def _seats_of(mask):
    """The seats of a mask, in order (the saved form)."""
    return [seat for seat in range(1, 14) if mask >> seat & 1]


def _mask_of(seats, n):
    """A mask of a list of seats 1..n in increasing order, each once (the saved form, so a
    file reads back as it was written); ValueError for anything else."""
    mask = 0
    last = 0
    for seat in seats:
        if type(seat) is not int or not last < seat <= n:
            raise ValueError("seat %r out of order or range" % (seat,))
        mask |= 1 << seat
        last = seat
    return mask


def _blind(live, level):
    """The chips of a live blind (0: none, _LIVE_SB, _LIVE_BB) at a level."""
    if live == _LIVE_BB:
        return level[1]
    return level[0] if live == _LIVE_SB else 0


def _count(seats):
    """How many seats a mask holds."""
    n = 0
    while seats:
        seats &= seats - 1
        n += 1
    return n


class Hand:
    """One dealt hand: where the button and blinds are, who is dealt in, who posts what, and
    the level it was dealt at: (small blind, big blind, ante, ante kind)."""

    def __init__(self, n, button, sb, bb, dealt, posts, first_to_act, level):
        self.n = n
        self.button = button
        self.sb = sb
        self.bb = bb
        self.dealt = dealt
        self.posts = posts
        self.first_to_act = first_to_act
        self.level = level

    def __repr__(self):
        return "Hand(n=%d, button=%d, sb=%s, bb=%d, dealt=%r, first_to_act=%d)" % (
            self.n, self.button, self.sb, self.bb, self.dealt, self.first_to_act)


class _Plan:
    """The next hand as the rules would deal it now, worked out without changing the table:
    deal() commits it, owes() reads what it would charge (M6). One per table, filled in
    place; `ready` while it matches the table."""

    def __init__(self, seats):
        self.ready = False
        self.can_deal = False   # two or more players present
        self.new_game = False   # D5, MS2: every present player plays, owing nothing
        self.heads_up = False   # exactly two dealt in (H1)
        self.button = 0         # the positions really played
        self.sb_seat = 0
        self.sb_player = 0      # 0: no small blind
        self.bb = 0
        self.dealt = 0          # the seats dealt in
        self.free = 0           # S2: seats where a new player is dealt in free
        self.sb_passes = 0      # the seats each blind passes at this deal (M1, H1)
        self.bb_passes = 0
        self.passed = 0         # S2: the seats passed since the first hand, this deal's too
        self.travel = 0         # S2: the button's travel since the first hand (max N)
        self.paid_bb = 0        # MB2: the seats paying a big blind as a blind
        self.carries_sb = 0     # MB2: the seats carrying a made-up small blind
        # What each seat posts (index 0 unused): its live blind (0, _LIVE_SB or _LIVE_BB)
        # and the small blinds it posts dead (0 to 2).
        self.live = bytearray(seats + 1)
        self.dead = bytearray(seats + 1)


class Table:
    """A poker table's seats, hand after hand, under one rule set ("dead", "moving", "simple"),
    as a cash game or (tournament=True) a tournament table (T1..T5)."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20), tournament=False):
        if type(seats) is not int or not 2 <= seats <= 12:
            raise RuleError("a table has 2 to 12 seats, not %r" % (seats,))
        if rules not in RULE_SETS:
            raise RuleError("rules must be dead, moving or simple, not %r" % (rules,))
        try:
            small, big = stakes
        except (TypeError, ValueError):
            raise RuleError("stakes must be two whole numbers (small, big), not %r"
                            % (stakes,)) from None
        _check_level(small, big, 0, "each")
        self.seats = seats
        self.rules = rules
        self.tournament = tournament is True
        # The level of the next deal (T4) and the one the last hand was dealt at: (small
        # blind, big blind, ante, ante kind), made by set_level, never changed.
        self._level = self._hand_level = (small, big, 0, "each")
        self._status = bytearray(seats + 1)  # each seat's status, _EMPTY..; index 0 unused
        # The players' flags, each a set of seats (a seat's flags go when its player leaves):
        self._waits_for_bb = 0  # waiting players who chose to wait for the BB (else: post)
        self._new = 0           # new players, never dealt in yet (M3a: never miss blinds; T2)
        self._missed_bb = 0     # players with the "missed BB" marker (M1, M2)
        self._missed_sb = 0     # players with the "missed SB" marker
        self._carries_sb = 0    # moving: players owing a made-up SB carried from the last hand
        self._paid_bb = 0       # players who paid a big blind as a blind last hand (MB2)
        self._hands = 0
        # The last hand: its button seat, SB position, SB player (0: none), BB player,
        # the seats dealt in, and what each seat posted (as _Plan.live and _Plan.dead).
        self._button = 0
        self._sb_seat = 0
        self._sb_player = 0
        self._bb = 0
        self._dealt = 0
        self._live = bytearray(seats + 1)
        self._dead = bytearray(seats + 1)
        self._next = _Plan(seats)  # the next hand, worked out when asked for (_planned)
        self._left = 0     # seats whose player, dealt into the last hand, has left since
        self._passed = 0   # seats a blind has passed since the first hand (S2)
        self._travel = 0   # how far the button has travelled since the first hand (max N)
        # Undo history (E3): the states before the last UNDO_DEPTH events, one record of
        # _RECORD_BYTES each (see _save_for_undo) in a ring made once, and the two levels of
        # each record.
        self._undo = bytearray(UNDO_DEPTH * _RECORD_BYTES)
        self._undo_levels = [None] * (2 * UNDO_DEPTH)  # type: list
        self._undos = 0   # records held
        self._top = 0     # the record the next event writes
        self._hand = None

    # ---- reading the table -------------------------------------------------------------

    @property
    def hands(self):
        """How many hands have been dealt so far."""
        return self._hands

    @property
    def stakes(self):
        """(small blind, big blind) of the next deal."""
        return self._level[:2]

    @property
    def level(self):
        """(small blind, big blind, ante, ante kind) of the next deal (T4)."""
        return self._level

    @property
    def hand(self):
        """The last hand dealt, or None before the first one."""
        if self._hand is None and self._hands:
            self._hand = self._make_hand()
        return self._hand

    def status(self, seat):
        """"empty", "active", "away" or "waiting"."""
        self._check_seat(seat)
        return STATUSES[self._status[seat]]

    def choice(self, seat):
        """A waiting player's choice, "post" or "wait"; None for anybody else (and for
        everybody at a tournament table: T1)."""
        self._check_seat(seat)
        if self._status[seat] != _WAITING or self.tournament:
            return None
        return "wait" if self._waits_for_bb >> seat & 1 else "post"

    def owes(self, seat):
        """(live, dead): what this player would post to be dealt in at the next deal, beyond
        the blind of his position, as that deal would charge it (M6)."""
        self._check_seat(seat)
        status = self._status[seat]
        if status == _EMPTY or self.tournament or not self._hands:
            return (0, 0)  # T1: nobody owes anything; S1: everybody drew for the button
        plan = self._planned()
        new = self._new >> seat & 1
        live = 0
        dead = 0
        if not plan.can_deal or status == _AWAY:
            # No hand can be dealt, or none to him: what he owes so far (an away player's
            # debt never shrinks while he is away, M2).
            if status == _ACTIVE:
                dead = self._carries_sb >> seat & 1
            elif new:
                if not self._plays_free(seat, self._passed, self._travel):
                    live = _LIVE_BB
            else:
                live = self._missed_live(seat)
                dead = self._missed_sb >> seat & 1
        elif status == _ACTIVE:  # dealt in: MB2's make-ups are all he posts beyond his blind
            live = plan.live[seat]
            dead = plan.dead[seat]
            if seat == plan.bb:
                live -= _LIVE_BB
            elif seat == plan.sb_player:
                live -= _LIVE_SB
        elif plan.new_game and (status == _WAITING or new):
            pass  # D5, MS2: a new game charges only its positions' blinds
        elif new:  # one big blind, unless S2 deals him in free
            if not plan.free >> seat & 1:
                live = _LIVE_BB
        else:  # M3: what he missed
            live = self._missed_live(seat)
            dead = self._missed_sb >> seat & 1
        return self._chips(live, dead)

    def can_undo(self):
        return self._undos > 0

    # ---- events --------------------------------------------------------------------------

    def sit(self, seat, post=False):
        """A new player sits at an empty seat: waits for the BB, or posts if post=True.
        At a tournament table he is dealt in from the next hand (T2), and post is refused."""
        self._check_seat(seat)
        if self._status[seat]:
            raise RuleError("seat %d is taken: the player there must leave first" % seat)
        if post:
            self._no_choice(seat)
        self._save_for_undo()
        if self._hands == 0:
            self._status[seat] = _ACTIVE  # S1: drew for the button
            return
        self._new |= 1 << seat
        if self.tournament:
            self._status[seat] = _ACTIVE  # T2: checked at the next deal
        else:
            self._status[seat] = _WAITING
            if not post:
                self._waits_for_bb |= 1 << seat

    def away(self, seat):
        """The player sits out from the next hand on."""
        self._check_seat(seat)
        status = self._status[seat]
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to send away" % seat)
        if status == _AWAY:
            raise RuleError("seat %d is already away" % seat)
        self._save_for_undo()
        if self._carries_sb >> seat & 1:  # a made-up SB not yet paid becomes a missed SB
            self._carries_sb &= ~(1 << seat)
            self._missed_sb |= 1 << seat
        self._waits_for_bb &= ~(1 << seat)
        self._status[seat] = _AWAY

    def back(self, seat, wait=False):
        """An away player returns: active if he owes nothing, else waiting (post or wait)."""
        self._check_seat(seat)
        status = self._status[seat]
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to bring back" % seat)
        if status != _AWAY:
            raise RuleError("seat %d is %s, not away: nobody to bring back"
                            % (seat, STATUSES[status]))
        if wait:
            self._no_choice(seat)
        self._save_for_undo()
        if self.tournament:
            self._status[seat] = _ACTIVE  # T1: he was dealt in all along
        elif (self._new | self._missed_bb | self._missed_sb) >> seat & 1:
            self._status[seat] = _WAITING
            if wait:
                self._waits_for_bb |= 1 << seat
        else:
            self._status[seat] = _ACTIVE  # M3: owes nothing, active at once

    def choose(self, seat, choice):
        """A waiting player changes his mind: "post" or "wait" (for the big blind)."""
        self._check_seat(seat)
        self._no_choice(seat)
        if choice != "post" and choice != "wait":
            raise RuleError("seat %d: the choice is post or wait, not %r" % (seat, choice))
        status = self._status[seat]
        if status != _WAITING:
            raise RuleError("seat %d is %s, not waiting: nothing to choose"
                            % (seat, STATUSES[status]))
        if (choice == "wait") == bool(self._waits_for_bb >> seat & 1):
            raise RuleError("seat %d already chose to %s" % (seat, choice))
        self._save_for_undo()
        self._waits_for_bb ^= 1 << seat

    def leave(self, seat):
        """The player busts or leaves; he takes his debts with him (M5)."""
        self._check_seat(seat)
        if not self._status[seat]:
            raise RuleError("seat %d is empty: nobody to leave" % seat)
        self._save_for_undo()
        if self._dealt >> seat & 1:
            self._left |= 1 << seat
        self._status[seat] = _EMPTY
        others = ~(1 << seat)  # his flags go with him
        self._waits_for_bb &= others
        self._new &= others
        self._missed_bb &= others
        self._missed_sb &= others
        self._carries_sb &= others
        self._paid_bb &= others

    def set_level(self, sb, bb, ante=0, ante_kind="each"):
        """The stakes from the next deal on (T4): small blind, big blind, ante and its kind,
        "each" (every player dealt in posts it) or "bb" (the big blind posts one for the
        table). An event, like a seat event, and True; the level already in force changes
        nothing and is no event: False."""
        _check_level(sb, bb, ante, ante_kind)
        level = (sb, bb, ante, ANTE_KINDS[ante_kind == "bb"])
        if level == self._level:
            return False
        self._save_for_undo()
        self._level = level
        return True

    def undo(self):
        """Revert the last successful event (at least 32 deep)."""
        if not self._undos:
            raise RuleError("nothing to undo")
        self._undos -= 1
        self._top = (self._top - 1) % UNDO_DEPTH
        self._restore_from_undo(self._top)
        self._next.ready = False

    def deal_refusal(self, button=None):
        """Why deal(button) would be refused (the message of its RuleError), or None: then
        deal(button) deals. Changes nothing."""
        active = self._seats_with(_ACTIVE)
        first = self._hands == 0
        if not first and button is not None:
            return "seat %r: the button is placed only for the first hand" % (button,)
        present = _count(active | self._seats_with(_WAITING))
        if present < 2:
            return "cannot deal: %d player(s) present, at least two are needed" % present
        if first:
            if button is None:
                return "the first hand needs the button seat (who won the draw)"
            why = self._seat_refusal(button)
            if why:
                return why
            if not self._status[button]:  # S1: an away player may win the draw
                return ("seat %d is empty: the first button goes to a player who drew for it"
                        % button)
        return None

    def deal(self, button=None):
        """Deal the next hand (the first one with the seat that won the draw for the button)."""
        why = self.deal_refusal(button)
        if why:
            raise RuleError(why)
        self._save_for_undo()
        plan = self._planned(button)
        statuses = self._status
        dealt = plan.dealt
        if self.tournament:
            # T1: away is only shown; T2: a newcomer held out waits; nobody owes anything.
            for seat in range(1, self.seats + 1):
                if statuses[seat]:
                    statuses[seat] = (_AWAY if statuses[seat] == _AWAY
                                      else _ACTIVE if dealt >> seat & 1 else _WAITING)
            self._waits_for_bb = self._new = self._missed_bb = self._missed_sb = 0
        else:
            # M1: a seated player not dealt in (not a new one, M3a) misses the BB when it
            # passes his seat and the SB when its position passes or lands on it (heads-up it
            # is the button's seat, which is dealt in); M2: a marker stays until it is paid.
            missing = ((self._seats_with(_AWAY) | self._seats_with(_WAITING))
                       & ~dealt & ~self._new)  # away or waiting, held out, not new
            sb_misses = plan.sb_passes | (0 if plan.heads_up else 1 << plan.sb_seat)
            self._missed_bb = (self._missed_bb & ~dealt) | (plan.bb_passes & missing)
            self._missed_sb = (self._missed_sb & ~dealt) | (sb_misses & missing)
            # Those dealt in are active: their debts are paid or cleared (M3, M4, DB1, D5).
            for seat in range(1, self.seats + 1):
                if dealt >> seat & 1:
                    statuses[seat] = _ACTIVE
            self._waits_for_bb &= ~dealt
            self._new &= ~dealt
        self._paid_bb = plan.paid_bb
        self._carries_sb = plan.carries_sb
        self._hands += 1
        self._button = plan.button
        self._sb_seat = plan.sb_seat
        self._sb_player = plan.sb_player
        self._bb = plan.bb
        self._dealt = dealt
        self._hand_level = self._level
        for seat in range(1, self.seats + 1):
            self._live[seat] = plan.live[seat]
            self._dead[seat] = plan.dead[seat]
        self._left = 0
        self._passed = plan.passed
        self._travel = plan.travel
        plan.ready = False
        self._hand = self._make_hand()
        return self._hand

    # ---- state ---------------------------------------------------------------------------

    def to_dict(self):
        """The whole table as plain JSON-compatible data, in words: what the state file
        keeps. `players` has a byte per seat: the status, then the flags 4 waits for the BB,
        8 new, 16 missed BB, 32 missed SB, 64 carries SB, 128 paid BB; `posts` one number
        per posting seat of the last hand (seat * 16 + live * 4 + dead); the others are
        named for what they are."""
        n = self.seats
        flags = ((4, self._waits_for_bb), (8, self._new), (16, self._missed_bb),
                 (32, self._missed_sb), (64, self._carries_sb), (128, self._paid_bb))
        players = []
        for seat in range(1, n + 1):
            byte = self._status[seat]
            for bit, seats in flags:
                if seats >> seat & 1:
                    byte |= bit
            players.append(byte)
        return {
            "format": FORMAT, "seats": self.seats, "rules": self.rules,
            "tournament": self.tournament, "level": list(self._level),
            "hand_level": list(self._hand_level), "hands": self._hands,
            "players": players, "button": self._button,
            "small_blind": self._sb_seat, "small_blind_player": self._sb_player,
            "big_blind": self._bb, "dealt": _seats_of(self._dealt),
            "left": _seats_of(self._left), "passed": _seats_of(self._passed),
            "travel": self._travel, "posts": self._saved_posts(),
        }

    def _saved_posts(self):
        """The last hand's posts as to_dict() saves them: one number per posting seat
        (seat * 16 + live * 4 + dead), clockwise from the seat after the button."""
        n = self.seats
        posts = []
        seat = self._button
        for _ in range(n):
            seat = seat % n + 1
            if self._live[seat] or self._dead[seat]:
                posts.append(seat * 16 + self._live[seat] * 4 + self._dead[seat])
        return posts

    @classmethod
    def from_dict(cls, d):
        """A table from to_dict() data. Data that is incomplete, malformed or inconsistent
        (a damaged state file) raises RuleError rather than giving a table that misbehaves.
        The forms of earlier firmware (one-letter keys) are read by tableform.py."""
        try:
            if "v" in d:
                from dealerbutton.tableform import upgrade
                d = upgrade(d)
            if d["format"] != FORMAT:
                raise RuleError("table data format %r is not %d" % (d["format"], FORMAT))
            level = d["level"]
            hand_level = d["hand_level"]
            tournament = d["tournament"]
            if tournament is not True and tournament is not False:
                raise TypeError
            t = cls(d["seats"], d["rules"], level[:2], tournament)
            _check_level(*level)
            _check_level(*hand_level)
            t._level = tuple(level)
            t._hand_level = tuple(hand_level)
            n = t.seats
            players = d["players"]
            hands = d["hands"]
            last = [d["button"], d["small_blind"], d["small_blind_player"], d["big_blind"],
                    _mask_of(d["dealt"], n), _mask_of(d["left"], n), _mask_of(d["passed"], n),
                    d["travel"]]
            posts = d["posts"]
            ok = (len(players) == n and type(hands) is int and hands >= 0 and len(posts) <= n)
            for x in players:
                ok = ok and type(x) is int and 0 <= x <= 255
            for x in last + posts:
                ok = ok and type(x) is int and x >= 0
        except (KeyError, TypeError, IndexError, ValueError):
            raise RuleError("table data is incomplete or malformed") from None
        if ok and hands:
            button, sb_seat, sb_player, bb, dealt, left, passed, travel = last
            ok = (1 <= button <= n and 1 <= sb_seat <= n and sb_player <= n and 1 <= bb <= n
                  and dealt >> bb & 1 and travel <= n)
        elif ok:
            # Before the first hand nobody waits (S1: whoever sits down is in) and nothing
            # was posted.
            ok = not any(last) and not posts and all(x & 3 != _WAITING for x in players)
        for post in posts:
            ok = (ok and 1 <= post >> 4 <= n and post >> 2 & 3 <= 2 and post & 3 <= 2
                  and post & 15)
        if not ok:
            raise RuleError("table data is inconsistent")
        for seat in range(1, n + 1):
            byte = players[seat - 1]
            t._status[seat] = byte & 3
            t._waits_for_bb |= (byte >> 2 & 1) << seat
            t._new |= (byte >> 3 & 1) << seat
            t._missed_bb |= (byte >> 4 & 1) << seat
            t._missed_sb |= (byte >> 5 & 1) << seat
            t._carries_sb |= (byte >> 6 & 1) << seat
            t._paid_bb |= (byte >> 7 & 1) << seat
        for post in posts:
            t._live[post >> 4] = post >> 2 & 3
            t._dead[post >> 4] = post & 3
        t._hands = hands
        (t._button, t._sb_seat, t._sb_player, t._bb, t._dealt, t._left, t._passed,
         t._travel) = last
        if t._saved_posts() != posts:  # a seat twice, or out of the order saved
            raise RuleError("table data is inconsistent")
        return t

    # ---- insides -------------------------------------------------------------------------

    def _check_seat(self, seat):
        if type(seat) is not int or not 1 <= seat <= self.seats:
            raise RuleError(self._seat_refusal(seat))

    def _seat_refusal(self, seat):
        if type(seat) is not int or not 1 <= seat <= self.seats:
            return "seat %r does not exist: the seats are 1 to %d" % (seat, self.seats)
        return None

    def _save_for_undo(self):
        """Keep the state before an event for undo, in the next record of the ring (E3):
        the sets of seats of the seats' bytes (_BY_SEAT), then the flags and the last hand's
        numbers (_RECORD); beside it, in _undo_levels, the two levels (references: nothing
        allocated). Every event calls it just before it changes the table: the next hand is
        planned again."""
        self._next.ready = False
        ring = self._undo
        top = self._top
        at = top * _RECORD_BYTES
        for name, value in _BY_SEAT:
            values = getattr(self, name)
            seats = 0
            for seat in range(1, self.seats + 1):
                if values[seat] == value:
                    seats |= 1 << seat
            ring[at] = seats >> 8
            ring[at + 1] = seats & 255
            at += 2
        for j in range(len(_RECORD)):
            v = getattr(self, _RECORD[j])
            size = _SIZES[j]
            for k in range(size - 1, -1, -1):  # big-endian
                ring[at + k] = v & 255
                v >>= 8
            at += size
        self._undo_levels[2 * top] = self._level  # references to tuples: nothing allocated
        self._undo_levels[2 * top + 1] = self._hand_level
        self._top = (top + 1) % UNDO_DEPTH
        if self._undos < UNDO_DEPTH:
            self._undos += 1

    def _restore_from_undo(self, top):
        """The state kept in the undo record number `top`."""
        n = self.seats
        ring = self._undo
        self._level = self._undo_levels[2 * top]
        self._hand_level = self._undo_levels[2 * top + 1]
        for seat in range(1, n + 1):  # (a seat in none of the sets: 0)
            self._status[seat] = self._live[seat] = self._dead[seat] = 0
        at = top * _RECORD_BYTES
        for name, value in _BY_SEAT:
            values = getattr(self, name)
            seats = ring[at] << 8 | ring[at + 1]
            for seat in range(1, n + 1):
                if seats >> seat & 1:
                    values[seat] = value
            at += 2
        for j in range(len(_RECORD)):
            size = _SIZES[j]
            v = ring[at]
            for k in range(1, size):
                v = v << 8 | ring[at + k]
            setattr(self, _RECORD[j], v)
            at += size
        self._hand = None

    def _no_choice(self, seat):
        if self.tournament:
            raise RuleError("seat %d: a tournament has no post or wait, all are dealt in" % seat)

    def _seats_with(self, status):
        """The seats whose player has this status, as a mask; _ACTIVE at a tournament table:
        every seated player, who counts as active (T1)."""
        statuses = self._status
        everybody = status == _ACTIVE and self.tournament
        seats = 0
        for seat in range(1, self.seats + 1):
            if statuses[seat] == status or everybody and statuses[seat]:
                seats |= 1 << seat
        return seats

    def _next_seat(self, seat, seats, backwards=False):
        """The first seat of the mask `seats` after `seat` (clockwise; backwards: before it,
        counter-clockwise), `seat` itself last, or 0."""
        n = self.seats
        for _ in range(n):
            seat = (seat - 2) % n + 1 if backwards else seat % n + 1
            if seats >> seat & 1:
                return seat
        return 0

    def _seats_after(self, seat, up_to):
        """The seats after `seat` up to and including `up_to`, clockwise, as a mask (none
        if they are the same seat; every seat if `up_to` is no seat at all, rather than
        going round for ever on damaged data)."""
        n = self.seats
        seats = 0
        for _ in range(n):
            if seat == up_to:
                break
            seat = seat % n + 1
            seats |= 1 << seat
        return seats

    def _plays_free(self, seat, passed, travel):
        """S2: a new player in the first orbit whose seat no blind has passed yet."""
        return self._hands > 0 and travel < self.seats and not passed >> seat & 1

    def _missed_live(self, seat):
        """The blind a player's "missed BB" marker makes him post live: the big blind (M2,
        M3). His "missed SB" marker makes him post one small blind dead."""
        return _LIVE_BB if self._missed_bb >> seat & 1 else 0

    def _chips(self, live, dead):
        """A post (its live blind, its dead small blinds) in chips at the level in force:
        (live, dead)."""
        return (_blind(live, self._level), dead * self._level[0])

    # ---- the next hand -------------------------------------------------------------------
    #
    # _planned() works the next hand out in self._next, in this order: the positions by the
    # rule set (S1 for the first hand; DB1..DB3 or MB1), who is dealt in (D1..D3, S2; T1,
    # T2), heads-up (H1, H2) when two are, a new game (D5, MS2) when fewer than two could
    # be, then the seats the blinds pass as really posted (M1, H1, S2) and what each seat
    # posts (M3, M4; MB2). Nothing in the table changes until deal() commits it.

    def _planned(self, button=None):
        """The next hand (the first one with the seat that won the draw for the button)."""
        plan = self._next
        if plan.ready and self._hands:
            return plan
        active = self._seats_with(_ACTIVE)
        present = active | self._seats_with(_WAITING)
        plan.ready = True
        plan.can_deal = _count(present) >= 2
        plan.new_game = False
        plan.free = 0
        if not plan.can_deal:
            return plan
        if not self._hands:
            self._first_hand(plan, button, active)
        elif (self.rules != "dead" and not self.tournament and _count(active) < 2
              or not self._deal_in(plan, active, present)):
            self._new_game(plan, present)
        self._passes(plan, button)
        self._charges(plan)
        return plan

    def _first_hand(self, plan, button, active):
        """S1: the button on the seat that won the draw (dead if its player is away), the SB
        and the BB on the next two active players; heads-up the button's player posts the
        SB (if the draw went to an away player, the SB player has the button: H1)."""
        others = active & ~(1 << button)
        if _count(active) == 2 and active >> button & 1:
            sb_seat = button
        else:
            sb_seat = self._next_seat(button, others)
        plan.bb = self._next_seat(sb_seat, others & ~(1 << sb_seat))
        plan.dealt = active
        plan.heads_up = _count(active) == 2
        plan.button = sb_seat if plan.heads_up else button
        plan.sb_seat = sb_seat

    def _positions(self, plan, active, present):
        """The button, SB position and BB by the rule set (DB1..DB3, MB1), with these players
        active, before heads-up places them again. True when DB3 finds no rotation seat
        between the BB and the SB position: then only the SB and BB players play, and the
        SB player has the button."""
        if self.rules == "dead":
            bb = self._next_seat(self._bb, present)  # DB1
            # The rotation: seats in play or that held a position last hand, but the new BB.
            rotation = (active | 1 << self._button | 1 << self._sb_seat | 1 << self._bb
                        | self._dealt) & ~(1 << bb)
            if active >> self._bb & 1 and not self._left >> self._bb & 1:
                sb_seat = self._bb  # DB2: big blind, then small blind
            else:
                sb_seat = self._next_seat(bb, rotation, True)
            # DB3: the rotation seat before the SB position, searched back no further than
            # the BB.
            button = self._next_seat(sb_seat, rotation | 1 << bb, True)
            plan.sb_seat = sb_seat
            plan.bb = bb
            plan.button = sb_seat if button == bb else button
            return button == bb
        # MB1: the button, then the SB to the next active players; the BB to the next
        # player after the SB, active or waiting, up to the button (not past it).
        button = self._next_seat(self._button, active) or self._button
        sb_seat = self._next_seat(button, active & ~(1 << button)) or button
        between = present & ~self._seats_after(button, sb_seat) & ~(1 << button)
        bb = self._next_seat(sb_seat, between) or sb_seat  # none: heads-up (H1)
        plan.button = button
        plan.sb_seat = sb_seat
        plan.bb = bb
        return False

    def _deal_in(self, plan, active, present):
        """Positions by the rule set and who is dealt in: active players, the BB, waiting
        players who post (or S2 deals in free) outside the D2 zone; at a tournament table
        everybody seated but a newcomer on the button or SB position (T1, T2). Heads-up the
        BB keeps moving and the other player has the button (H1, H2). False when fewer than
        two could be dealt in (D5), a waiting player on the heads-up button included (D2)."""
        tournament = self.tournament
        only_the_blinds = self._positions(plan, active, present)
        button = plan.button
        bb = plan.bb
        plan.free = self._free_seats(plan, only_the_blinds)
        # D2: waiting players on the button or after it, before the BB, wait for the button
        # to pass; T2: a newcomer on the button or the SB position waits one hand.
        zone = ((1 << button) | (1 << plan.sb_seat if tournament
                                 else self._seats_after(button, bb))) & ~(1 << bb)
        if only_the_blinds:  # DB3: the SB and BB players alone
            eligible = active & 1 << plan.sb_seat
        elif tournament:  # T1: everybody seated (all "active"), T2 but a newcomer in the zone
            eligible = active & ~(self._new & zone)
        else:  # the active players; waiting ones outside the zone who post or play free
            waiting = present & ~active
            eligible = active | (waiting & ~zone
                                 & (~self._waits_for_bb | self._new & plan.free))
        plan.dealt = eligible | 1 << bb
        plan.heads_up = _count(plan.dealt) == 2
        if plan.heads_up:
            self._heads_up(plan)
            if not tournament and self._status[plan.button] == _WAITING:
                return False  # D2 holds him out ("never a debt on the SB"): one player left
        return _count(plan.dealt) >= 2

    def _heads_up(self, plan):
        """H1, H2: of the two dealt in, the next one after the last BB has the BB; the other
        has the button and posts the SB."""
        plan.bb = self._next_seat(self._bb, plan.dealt)
        plan.button = plan.sb_seat = self._next_seat(plan.bb, plan.dealt & ~(1 << plan.bb))

    def _new_game(self, plan, present):
        """D5, MS2: every present player plays, owing nothing. Under moving and simple (MS2)
        the button goes to the next present player after the last button and the blinds
        follow it; under dead (and at a tournament table) the rule set places them as if
        every present player were active. Heads-up as H1 (H2 but for MS2)."""
        plan.new_game = True
        plan.dealt = present
        plan.heads_up = _count(present) == 2
        if self.rules == "dead" or self.tournament:
            self._positions(plan, present, present)
            if plan.heads_up:
                self._heads_up(plan)
            return
        button = self._next_seat(self._button, present)
        others = present & ~(1 << button)
        plan.button = button
        plan.sb_seat = button if plan.heads_up else self._next_seat(button, others)
        plan.bb = self._next_seat(plan.sb_seat, others & ~(1 << plan.sb_seat))

    def _sb_passes(self, sb_seat, bb, heads_up):
        """The seats the SB position passes from the last hand's to sb_seat. Heads-up (H1) an
        SB that is not between its last position and the new BB has moved back: it passes
        nobody."""
        last = self._sb_seat
        if heads_up and last != bb and not self._seats_after(last, bb) >> sb_seat & 1:
            return 0
        return self._seats_after(last, sb_seat)

    def _free_seats(self, plan, heads_up):
        """S2: the seats where a new player is dealt in free at this deal, by the positions
        of the rule set: the button's travel is under one orbit, and no blind has passed the
        seat, this deal's blinds included."""
        n = self.seats
        if self._travel + (plan.button - self._button) % n >= n:
            return 0
        passed = (self._passed | self._sb_passes(plan.sb_seat, plan.bb, heads_up)
                  | self._seats_after(self._bb, plan.bb))
        return ((2 << n) - 2) & ~passed

    def _passes(self, plan, draw):
        """The seats the blinds pass as really posted (M1, H1), the seats passed since the
        first hand and the button's travel (S2). The first hand's SB comes from the seat that
        won the draw and its BB from the SB (S1, S2)."""
        n = self.seats
        if not self._hands:
            plan.sb_passes = self._seats_after(draw, plan.sb_seat)
            plan.bb_passes = self._seats_after(plan.sb_seat, plan.bb)
            plan.passed = plan.sb_passes | plan.bb_passes
            plan.travel = 0
            return
        plan.sb_passes = self._sb_passes(plan.sb_seat, plan.bb, plan.heads_up)
        plan.bb_passes = self._seats_after(self._bb, plan.bb)
        plan.passed = self._passed | plan.sb_passes | plan.bb_passes
        plan.travel = min(n, self._travel + (plan.button - self._button) % n)

    def _charges(self, plan):
        """The SB player and what each seat dealt in posts: the BB one big blind and nothing
        more (M4); the SB player the small blind; a waiting player what he owes (a new one:
        one BB, or nothing if S2 frees him; one back from away: his markers, M3), never on
        the SB; in a new game (D5, MS2) and at a tournament table only the positions' blinds.
        Under moving, then MB2's make-ups."""
        statuses = self._status
        if plan.heads_up:
            plan.sb_player = plan.button
        elif plan.dealt >> plan.sb_seat & 1 and plan.sb_seat != plan.button:
            plan.sb_player = plan.sb_seat
        else:
            plan.sb_player = 0  # a dead small blind
        only_blinds = plan.new_game or self.tournament
        for seat in range(1, self.seats + 1):
            live = 0
            dead = 0
            if not plan.dealt >> seat & 1:
                pass
            elif seat == plan.bb:
                live = _LIVE_BB
            elif seat == plan.sb_player:
                live = _LIVE_SB
            elif only_blinds or statuses[seat] != _WAITING:
                pass
            elif self._new >> seat & 1:
                if not plan.free >> seat & 1:
                    live = _LIVE_BB
            else:
                live = self._missed_live(seat)
                dead = self._missed_sb >> seat & 1
            plan.live[seat] = live
            plan.dead[seat] = dead
        plan.paid_bb = 1 << plan.bb  # seats paying a big blind as a blind this hand
        plan.carries_sb = 0
        if (self.rules == "moving" and self._hands and not self.tournament
                and not plan.heads_up and not plan.new_game):
            self._make_up(plan)

    def _make_up(self, plan):
        """MB2: blinds skipped because players left are made up; one blind per player per
        hand, biggest first, the rest carried."""
        n = self.seats
        bb = plan.bb
        stay = self._seats_with(_ACTIVE) & plan.dealt & ~self._left  # the players who stay
        due_bb = 0
        due_sb = 0
        if self._left and _count(self._dealt) >= 3:
            # Due the BB: the first player after the last BB who was dealt into the last
            # hand, unless this hand's BB is on a seat from the last BB up to his.
            seat = self._next_seat(self._bb, stay & self._dealt)
            if seat and not (self._seats_after(self._bb, seat) | 1 << self._bb) >> bb & 1:
                due_bb = 1 << seat
            due_sb = self._paid_bb  # who paid the BB last hand is due the SB
        due_sb = (due_sb | self._carries_sb) & stay & ~(1 << plan.sb_player)
        for seat in range(1, n + 1):
            if not (due_bb | due_sb) >> seat & 1:
                continue
            if due_bb >> seat & 1 or seat == bb:
                plan.live[seat] = _LIVE_BB
                plan.dead[seat] = 0
                plan.paid_bb |= 1 << seat
                if seat == plan.sb_player or due_sb >> seat & 1:
                    plan.carries_sb |= 1 << seat  # the small blind waits for the next hand
                if seat == plan.sb_player:
                    plan.sb_player = 0  # he posts a big blind instead of the small one
            else:
                plan.live[seat] = 0
                plan.dead[seat] = 1  # the small blind he owes, dead

    def _make_hand(self):
        n = self.seats
        dealt = []
        seat = self._button
        for _ in range(n):
            seat = seat % n + 1
            if self._dealt >> seat & 1:
                dealt.append(seat)
        level = self._hand_level
        small, big, ante, kind = level
        posts = {}
        for seat in dealt:  # clockwise from the first seat after the button
            if self._live[seat] or self._dead[seat]:
                posts[seat] = (_blind(self._live[seat], level), self._dead[seat] * small)
        if ante:  # T5: dead money, added to the dead part of the post
            for seat in dealt:
                if kind == "each" or seat == self._bb:
                    live, dead = posts.get(seat, (0, 0))
                    posts[seat] = (live, dead + ante)
        if len(dealt) == 2:
            first = self._button
        else:
            first = self._next_seat(self._bb, self._dealt & ~(1 << self._bb))
        return Hand(self._hands, self._button, self._sb_player or None, self._bb,
                    tuple(dealt), posts, first, level)
