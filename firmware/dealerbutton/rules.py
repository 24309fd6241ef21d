"""Table rules: where the button and the blinds go, hand after hand (RULES.md, S1..E4, and
T1..T5 for a tournament table).

Pure and integer-only: the board and the host run this same file.  Seats are 1..N;
sets of seats are kept as bit masks (bit s = seat s), each seat's player as one byte.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A seat's player byte: the status in the low two bits, then flags.
_EMPTY = const(0)
_ACTIVE = const(1)
_AWAY = const(2)
_WAITING = const(3)
_STATUS = const(3)
_WAITS_FOR_BB = const(4)  # a waiting player chose to wait for the big blind (else: post)
_NEW = const(8)           # a new player, never dealt in yet (M3a: never misses blinds; T2)
_MISSED_BB = const(16)    # the "missed BB" marker (M1, M2)
_MISSED_SB = const(32)    # the "missed SB" marker
_CARRIES_SB = const(64)   # moving: owes a made-up small blind carried from the last hand
_PAID_BB = const(128)     # paid a big blind as a blind last hand (due the small blind, MB2)

# What a seat posts in a hand, as one number: live * 4 + dead, where live is 0, 1 (a small
# blind) or 2 (a big blind) and dead 0, 1 or 2 small blinds.
_LIVE_SB = const(4)
_LIVE_BB = const(8)
_DEAD_SB = const(1)

UNDO_DEPTH = const(40)
# An undo record after the seats' bytes: the numbers of the last hand (these attributes, of
# _SIZES bytes each), then the count of its posts and the posts: 15 + 1 + seats bytes at most.
# The two levels of the record are kept beside it, in a list (see _save_for_undo).
_RECORD = ("_hands", "_button", "_sb_seat", "_sb_player", "_bb", "_dealt", "_left",
           "_passed", "_travel")
_SIZES = b"\x04\x01\x01\x01\x01\x02\x02\x02\x01"
FORMAT = const(2)
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
        self._players = bytearray(seats + 1)  # each seat's player byte; index 0 unused
        self._hands = 0
        # The last hand: its button seat, SB position, SB player (0: none), BB player,
        # the seats dealt in, and its posts as bytes (seat * 16 + what he posted each).
        self._button = 0
        self._sb_seat = 0
        self._sb_player = 0
        self._bb = 0
        self._dealt = 0
        self._posts = b""
        self._posting = bytearray(seats + 1)  # deal()'s scratch: what each seat posts
        self._left = 0     # seats whose player, dealt into the last hand, has left since
        self._passed = 0   # seats a blind has passed since the first hand (S2)
        self._travel = 0   # how far the button has travelled since the first hand (max N)
        # Undo history (E3): the states before the last UNDO_DEPTH events, one record of
        # 2 * seats + 16 bytes each (see _save_for_undo) in a ring made once, and the two
        # levels of each record.
        self._undo = bytearray(UNDO_DEPTH * (2 * seats + 16))
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
        return STATUSES[self._players[seat] & _STATUS]

    def choice(self, seat):
        """A waiting player's choice, "post" or "wait"; None for anybody else (and for
        everybody at a tournament table: T1)."""
        self._check_seat(seat)
        player = self._players[seat]
        if player & _STATUS != _WAITING or self.tournament:
            return None
        return "wait" if player & _WAITS_FOR_BB else "post"

    def owes(self, seat):
        """(live, dead): what this player must post to be dealt in before the BB reaches him."""
        self._check_seat(seat)
        small = self._level[0]
        big = self._level[1]
        player = self._players[seat]
        status = player & _STATUS
        if status == _EMPTY or self.tournament:  # T1: nobody owes anything
            return (0, 0)
        if status == _ACTIVE:
            return (0, small) if player & _CARRIES_SB else (0, 0)
        if player & _NEW:
            return (0, 0) if self._plays_free(seat, self._passed, self._travel) else (big, 0)
        return (big if player & _MISSED_BB else 0, small if player & _MISSED_SB else 0)

    def can_undo(self):
        return self._undos > 0

    # ---- events --------------------------------------------------------------------------

    def sit(self, seat, post=False):
        """A new player sits at an empty seat: waits for the BB, or posts if post=True.
        At a tournament table he is dealt in from the next hand (T2), and post is refused."""
        self._check_seat(seat)
        if self._players[seat] & _STATUS:
            raise RuleError("seat %d is taken: the player there must leave first" % seat)
        if post:
            self._no_choice(seat)
        self._save_for_undo()
        if self._hands == 0:
            self._players[seat] = _ACTIVE  # S1: drew for the button
        elif self.tournament:
            self._players[seat] = _ACTIVE | _NEW  # T2: checked at the next deal
        else:
            self._players[seat] = _WAITING | _NEW | (0 if post else _WAITS_FOR_BB)

    def away(self, seat):
        """The player sits out from the next hand on."""
        self._check_seat(seat)
        player = self._players[seat]
        status = player & _STATUS
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to send away" % seat)
        if status == _AWAY:
            raise RuleError("seat %d is already away" % seat)
        self._save_for_undo()
        if player & _CARRIES_SB:  # a made-up SB not yet paid becomes a missed SB
            player = (player & ~_CARRIES_SB) | _MISSED_SB
        self._players[seat] = (player & ~(_STATUS | _WAITS_FOR_BB)) | _AWAY

    def back(self, seat, wait=False):
        """An away player returns: active if he owes nothing, else waiting (post or wait)."""
        self._check_seat(seat)
        player = self._players[seat]
        status = player & _STATUS
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to bring back" % seat)
        if status != _AWAY:
            raise RuleError("seat %d is %s, not away: nobody to bring back"
                            % (seat, STATUSES[status]))
        if wait:
            self._no_choice(seat)
        self._save_for_undo()
        player &= ~_STATUS
        if self.tournament:
            self._players[seat] = player | _ACTIVE  # T1: he was dealt in all along
        elif player & (_NEW | _MISSED_BB | _MISSED_SB):
            self._players[seat] = player | _WAITING | (_WAITS_FOR_BB if wait else 0)
        else:
            self._players[seat] = player | _ACTIVE  # M3: owes nothing, active at once

    def choose(self, seat, choice):
        """A waiting player changes his mind: "post" or "wait" (for the big blind)."""
        self._check_seat(seat)
        self._no_choice(seat)
        if choice != "post" and choice != "wait":
            raise RuleError("seat %d: the choice is post or wait, not %r" % (seat, choice))
        player = self._players[seat]
        status = player & _STATUS
        if status != _WAITING:
            raise RuleError("seat %d is %s, not waiting: nothing to choose"
                            % (seat, STATUSES[status]))
        if (choice == "wait") == bool(player & _WAITS_FOR_BB):
            raise RuleError("seat %d already chose to %s" % (seat, choice))
        self._save_for_undo()
        self._players[seat] = player ^ _WAITS_FOR_BB

    def leave(self, seat):
        """The player busts or leaves; he takes his debts with him (M5)."""
        self._check_seat(seat)
        if not self._players[seat] & _STATUS:
            raise RuleError("seat %d is empty: nobody to leave" % seat)
        self._save_for_undo()
        if self._dealt >> seat & 1:
            self._left |= 1 << seat
        self._players[seat] = 0

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
            if not active >> button & 1:
                return ("seat %d has no active player: the first button goes to a player"
                        " who drew for it" % button)
        return None

    def deal(self, button=None):
        """Deal the next hand (the first one with the seat that won the draw for the button)."""
        why = self.deal_refusal(button)
        if why:
            raise RuleError(why)
        players = self._players
        tournament = self.tournament
        first = self._hands == 0
        self._save_for_undo()
        n = self.seats
        (button_seat, sb_seat, bb, sb_passes, bb_passes, passed, travel,
         eligible) = self._plan(button)
        dealt = eligible | 1 << bb
        k = _count(dealt)
        if k < 2 or (k == 2 and not first and not eligible >> bb & 1
                     and self._next_seat(self._bb, dealt) != bb):
            # D5: fewer than two could be dealt in (heads-up, H2 may take the BB from a
            # waiting player who would have come in only on it): the last two or more
            # present players just play, owing nothing.
            present = self._seats_with(_ACTIVE) | self._seats_with(_WAITING)
            for seat in range(1, n + 1):
                if tournament:
                    players[seat] &= ~_NEW  # nobody held out (T2)
                elif present >> seat & 1:
                    players[seat] = _ACTIVE | (players[seat] & _PAID_BB)
            (button_seat, sb_seat, bb, sb_passes, bb_passes, passed, travel,
             eligible) = self._plan(button)
            dealt = eligible | 1 << bb
        active = self._seats_with(_ACTIVE) & dealt
        heads_up = _count(dealt) == 2
        if heads_up:  # H1, H2: the BB keeps moving; the other player has the button and SB
            if first:
                bb = self._next_seat(button_seat, dealt & ~(1 << button_seat))
            else:
                bb = self._next_seat(self._bb, dealt)
            button_seat = self._next_seat(bb, dealt & ~(1 << bb))
            sb_player = button_seat
        elif active >> sb_seat & 1 and sb_seat != button_seat:
            sb_player = sb_seat
        else:
            sb_player = 0
        # M1, M2: seated players not dealt in (not new ones, M3a) miss the blinds that pass
        # them; a missed blind stays marked until it is paid. (T1: at a tournament table
        # only a new player may be held out.)
        for seat in range(1, n + 1):
            player = players[seat]
            if player & _STATUS >= _AWAY and not player & _NEW and not dealt >> seat & 1:
                if bb_passes >> seat & 1:
                    player |= _MISSED_BB
                if sb_passes >> seat & 1:
                    player |= _MISSED_SB
                players[seat] = player
        posting = self._posting
        for seat in range(1, n + 1):
            player = players[seat]
            post = 0
            if not dealt >> seat & 1:
                pass
            elif seat == bb:
                post = _LIVE_BB  # M4: a big blind and nothing extra
            else:  # (T1: at a tournament table nobody waiting owes, nobody new posts)
                if player & _STATUS == _WAITING:
                    if player & _NEW:
                        if not self._plays_free(seat, passed, travel):
                            post = _LIVE_BB
                    else:
                        post = ((_LIVE_BB if player & _MISSED_BB else 0)
                                | (_DEAD_SB if player & _MISSED_SB else 0))
                if seat == sb_player:
                    # the small blind on top: live up to one big blind, the rest dead
                    post = post + _DEAD_SB if post >= _LIVE_BB else post | _LIVE_SB
            posting[seat] = post
        paid_bb = 1 << bb  # seats paying a big blind as a blind this hand
        carries_sb = 0
        if self.rules == "moving" and not first and not heads_up and not tournament:
            sb_player, paid_bb, carries_sb = self._make_up(active, sb_player, bb, paid_bb)
        for seat in range(1, n + 1):
            player = players[seat] & ~(_CARRIES_SB | _PAID_BB)
            if tournament and player:
                # T1: away is only shown; T2: a newcomer held out waits for one hand
                player = (_AWAY if player & _STATUS == _AWAY
                          else _ACTIVE if dealt >> seat & 1 else _WAITING)
            elif dealt >> seat & 1:
                player = _ACTIVE
            if paid_bb >> seat & 1:
                player |= _PAID_BB
            if carries_sb >> seat & 1:
                player |= _CARRIES_SB
            players[seat] = player
        self._hands += 1
        self._button = button_seat
        self._sb_seat = button_seat if heads_up else sb_seat
        self._sb_player = sb_player
        self._bb = bb
        self._dealt = dealt
        self._hand_level = self._level
        # The posts as bytes, one per posting seat: seat * 16 + what he posts, clockwise from
        # the first seat after the button.
        posts = bytearray()
        seat = button_seat
        for _ in range(n):
            seat = seat % n + 1
            if posting[seat]:
                posts.append(seat * 16 + posting[seat])
        self._posts = bytes(posts)
        self._left = 0
        self._passed = passed
        self._travel = travel
        self._hand = self._make_hand()
        return self._hand

    # ---- state ---------------------------------------------------------------------------

    def to_dict(self):
        """The whole table as plain JSON-compatible data (short keys, lists)."""
        return {
            "v": FORMAT, "n": self.seats, "r": self.rules, "t": 1 if self.tournament else 0,
            "k": list(self._level), "l": list(self._hand_level),
            "h": self._hands, "f": list(self._players[1:]),
            "p": [self._button, self._sb_seat, self._sb_player, self._bb, self._dealt,
                  self._left, self._passed, self._travel],
            "q": list(self._posts),
        }

    @classmethod
    def from_dict(cls, d):
        """A table from to_dict() data. Data that is incomplete, malformed or inconsistent
        (a damaged state file) raises RuleError rather than giving a table that misbehaves.
        Format 1 (before levels and tournaments) is read as a cash game without antes."""
        try:
            version = d["v"]
            level = d["k"]
            if version == 1:
                level = hand_level = level + [0, "each"]
                tournament = 0
            elif version == FORMAT:
                hand_level = d["l"]
                tournament = d["t"]
            else:
                raise RuleError("table data format %r is not %d" % (version, FORMAT))
            t = cls(d["n"], d["r"], level[:2], tournament == 1)
            _check_level(*level)
            _check_level(*hand_level)
            t._level = tuple(level)
            t._hand_level = tuple(hand_level)
            n = t.seats
            players = d["f"]
            hands = d["h"]
            last = d["p"]
            posts = d["q"]
            ok = (len(players) == n and type(hands) is int and hands >= 0 and len(last) == 8
                  and len(posts) <= n and type(tournament) is int and 0 <= tournament <= 1)
            for x in players:
                ok = ok and type(x) is int and 0 <= x <= 255
            for x in last + posts:
                ok = ok and type(x) is int and x >= 0
        except (KeyError, TypeError, IndexError):
            raise RuleError("table data is incomplete or malformed") from None
        every_seat = (2 << n) - 2
        if ok and hands:
            button, sb_seat, sb_player, bb, dealt, left, passed, travel = last
            ok = (1 <= button <= n and 1 <= sb_seat <= n and sb_player <= n and 1 <= bb <= n
                  and dealt >> bb & 1 and not (dealt | left | passed) & ~every_seat
                  and travel <= n)
        elif ok:
            # Before the first hand nobody waits (S1: whoever sits down is in) and nothing
            # was posted.
            ok = not any(last) and not posts and all(x & _STATUS != _WAITING for x in players)
        for post in posts:
            ok = (ok and 1 <= post >> 4 <= n and post >> 2 & 3 <= 2 and post & 3 <= 2
                  and post & 15)
        if not ok:
            raise RuleError("table data is inconsistent")
        t._players = bytearray(1) + bytearray(players)
        t._hands = hands
        (t._button, t._sb_seat, t._sb_player, t._bb, t._dealt, t._left, t._passed,
         t._travel) = last
        t._posts = bytes(posts)
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
        the seats' bytes, the last hand's numbers (_RECORD), the posts and their count;
        beside it, in _undo_levels, the two levels (references: nothing allocated)."""
        n = self.seats
        players = self._players
        ring = self._undo
        top = self._top
        at = top * (2 * n + 16)
        for seat in range(1, n + 1):
            ring[at + seat - 1] = players[seat]
        at += n
        for j in range(len(_RECORD)):
            v = getattr(self, _RECORD[j])
            size = _SIZES[j]
            for k in range(size - 1, -1, -1):  # big-endian
                ring[at + k] = v & 255
                v >>= 8
            at += size
        posts = self._posts
        ring[at] = len(posts)
        for i in range(len(posts)):
            ring[at + 1 + i] = posts[i]
        self._undo_levels[2 * top] = self._level  # references to tuples: nothing allocated
        self._undo_levels[2 * top + 1] = self._hand_level
        self._top = (top + 1) % UNDO_DEPTH
        if self._undos < UNDO_DEPTH:
            self._undos += 1

    def _restore_from_undo(self, top):
        """The state kept in the undo record number `top`."""
        n = self.seats
        players = self._players
        ring = self._undo
        self._level = self._undo_levels[2 * top]
        self._hand_level = self._undo_levels[2 * top + 1]
        at = top * (2 * n + 16)
        for seat in range(1, n + 1):
            players[seat] = ring[at + seat - 1]
        at += n
        for j in range(len(_RECORD)):
            size = _SIZES[j]
            v = ring[at]
            for k in range(1, size):
                v = v << 8 | ring[at + k]
            setattr(self, _RECORD[j], v)
            at += size
        self._posts = bytes(ring[at + 1:at + 1 + ring[at]])
        self._hand = None

    def _no_choice(self, seat):
        if self.tournament:
            raise RuleError("seat %d: a tournament has no post or wait, all are dealt in" % seat)

    def _seats_with(self, status):
        """The seats whose player has this status, as a mask; _ACTIVE at a tournament table:
        every seated player, who counts as active (T1)."""
        players = self._players
        everybody = status == _ACTIVE and self.tournament
        seats = 0
        for seat in range(1, self.seats + 1):
            if players[seat] & _STATUS == status or everybody and players[seat]:
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

    def _positions(self, button):
        """Button seat, SB position and BB of the next hand by the rule set (before H1)."""
        n = self.seats
        active = self._seats_with(_ACTIVE)
        present = active | self._seats_with(_WAITING)
        if not self._hands:  # S1
            others = active & ~(1 << button)
            if _count(active) == 2:
                return button, button, self._next_seat(button, others)
            sb_seat = self._next_seat(button, others)
            return button, sb_seat, self._next_seat(sb_seat, others & ~(1 << sb_seat))
        if self.rules == "dead":
            bb = self._next_seat(self._bb, present)  # DB1
            # The rotation: seats in play or that held a position last hand, but the new BB.
            rotation = (active | 1 << self._button | 1 << self._sb_seat | 1 << self._bb
                        | self._dealt) & ~(1 << bb)
            if active >> self._bb & 1 and not self._left >> self._bb & 1:
                sb_seat = self._bb  # DB2: big blind, then small blind
            else:
                sb_seat = self._next_seat(bb, rotation, True)
            button_seat = 0
            seat = sb_seat
            for _ in range(n):  # DB3: the rotation seat before the SB, not past the BB
                seat = (seat - 2) % n + 1
                if seat == bb:
                    break
                if rotation >> seat & 1:
                    button_seat = seat
                    break
            if not button_seat:
                button_seat = (sb_seat - 2) % n + 1
                if button_seat == bb:
                    button_seat = sb_seat
            return button_seat, sb_seat, bb
        # MB1 / SM1
        button_seat = self._next_seat(self._button, active) or self._button
        sb_seat = self._next_seat(button_seat, active & ~(1 << button_seat)) or button_seat
        bb = 0
        seat = sb_seat
        for _ in range(n):
            seat = seat % n + 1
            if seat == button_seat:
                break
            if present >> seat & 1:
                bb = seat
                break
        if not bb:  # two active players and nobody waiting from the SB to the button
            bb = sb_seat
        return button_seat, sb_seat, bb

    def _plan(self, button):
        """Positions, the seats the blinds pass, the seats passed and the button's travel
        so far, and who is eligible to be dealt in on his own, the BB aside (D1..D3, S2)."""
        n = self.seats
        players = self._players
        button_seat, sb_seat, bb = self._positions(button)
        if self._hands:
            sb_passes = self._seats_after(self._sb_seat, sb_seat)
            bb_passes = self._seats_after(self._bb, bb)
            passed = self._passed | sb_passes | bb_passes
            travel = min(n, self._travel + (button_seat - self._button) % n)
        else:  # S2: the first hand's blinds passed the seats after its button up to its BB
            sb_passes = self._seats_after(button_seat, sb_seat)
            bb_passes = self._seats_after(sb_seat, bb)
            passed = sb_passes | bb_passes
            travel = 0
        # D2: a waiting player on the button or after it, before the BB, waits for it to
        # pass; T2: at a tournament table, a newcomer on the button or SB position waits
        tournament = self.tournament
        zone = ((1 << button_seat) | (1 << sb_seat if tournament
                                      else self._seats_after(button_seat, bb))) & ~(1 << bb)
        eligible = 0
        for seat in range(1, n + 1):
            player = players[seat]
            status = player & _STATUS
            if tournament:  # T1: everybody seated
                if player and not (player & _NEW and zone >> seat & 1):
                    eligible |= 1 << seat
            elif status == _ACTIVE:
                eligible |= 1 << seat
            elif status == _WAITING and not zone >> seat & 1:
                if not player & _WAITS_FOR_BB or (player & _NEW
                                                  and self._plays_free(seat, passed, travel)):
                    eligible |= 1 << seat
        return button_seat, sb_seat, bb, sb_passes, bb_passes, passed, travel, eligible

    def _make_up(self, active, sb_player, bb, paid_bb):
        """MB2: blinds skipped because players left are made up; one blind per player per
        hand, biggest first, the rest carried.  Returns (sb_player, paid_bb, carries_sb)."""
        players = self._players
        posting = self._posting
        n = self.seats
        active &= ~self._left  # the players who stay
        due_bb = 0
        due_sb = 0
        if self._left and _count(self._dealt) >= 3:
            # Due the BB: the first player after the last BB who was dealt into the last
            # hand, unless this hand's BB is already on his seat or before it.
            seat = self._next_seat(self._bb, active & self._dealt)
            if seat and not self._seats_after(self._bb, seat) >> bb & 1:
                due_bb = 1 << seat
            for seat in range(1, n + 1):
                if active >> seat & 1 and players[seat] & _PAID_BB and seat != sb_player:
                    due_sb |= 1 << seat
        for seat in range(1, n + 1):
            if active >> seat & 1 and players[seat] & _CARRIES_SB and seat != sb_player:
                due_sb |= 1 << seat
        carries_sb = 0
        for seat in range(1, n + 1):
            if not (due_bb | due_sb) >> seat & 1:
                continue
            if due_bb >> seat & 1 or seat == bb:
                posting[seat] = _LIVE_BB
                paid_bb |= 1 << seat
                if seat == sb_player or due_sb >> seat & 1:
                    carries_sb |= 1 << seat  # the small blind waits for the next hand
                if seat == sb_player:
                    sb_player = 0  # he posts a big blind instead of the small one
            else:
                posting[seat] = _DEAD_SB
        return sb_player, paid_bb, carries_sb

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
        for post in self._posts:
            posts[post >> 4] = ((0, small, big)[post >> 2 & 3], (post & 3) * small)
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
