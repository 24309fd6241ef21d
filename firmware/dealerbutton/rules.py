"""Table rules: where the button and the blinds go, hand after hand (RULES.md, S1..E4).

Pure and integer-only: the board and the host run this same file.  Seats are 1..N;
sets of seats are kept as bit masks (bit s = seat s), each seat's player as one byte.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Per-seat byte: the status in the low two bits, then flags.
_EMPTY = const(0)
_ACTIVE = const(1)
_AWAY = const(2)
_WAITING = const(3)
_STATUS = const(3)
_WAIT = const(4)      # a waiting player chose to wait for the big blind (else: post)
_NEW = const(8)       # a new player, never dealt in yet (M3a: never misses blinds)
_MBB = const(16)      # missed the big blind while away
_MSB = const(32)      # missed the small blind while away
_CARRY = const(64)    # moving: owes a made-up small blind carried from the last hand (MB2)
_PAIDBB = const(128)  # paid a big blind as a blind last hand (due the small blind, MB2)

UNDO_DEPTH = const(40)
# An undo record after the seats' bytes: the numbers of the last hand (these attributes, of
# _SIZES bytes each), then the count of its posts and the posts: 15 + 1 + seats bytes at most.
_RECORD = ("_hands", "_button", "_sbpos", "_sb", "_bb", "_dealt", "_gone", "_passed", "_orbit")
_SIZES = b"\x04\x01\x01\x01\x01\x02\x02\x02\x01"
FORMAT = const(1)

STATUSES = ("empty", "active", "away", "waiting")
RULE_SETS = ("dead", "moving", "simple")


class RuleError(ValueError):
    """An event the rules refuse; the table is left unchanged."""


def _count(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


class Hand:
    """One dealt hand: where the button and blinds are, who is dealt in, who posts what."""

    def __init__(self, n, button, sb, bb, dealt, posts, first_to_act):
        self.n = n
        self.button = button
        self.sb = sb
        self.bb = bb
        self.dealt = dealt
        self.posts = posts
        self.first_to_act = first_to_act

    def __repr__(self):
        return "Hand(n=%d, button=%d, sb=%s, bb=%d, dealt=%r, first_to_act=%d)" % (
            self.n, self.button, self.sb, self.bb, self.dealt, self.first_to_act)


class Table:
    """A poker table's seats, hand after hand, under one rule set ("dead", "moving", "simple")."""

    def __init__(self, seats=9, rules="dead", stakes=(10, 20)):
        if type(seats) is not int or not 2 <= seats <= 12:
            raise RuleError("a table has 2 to 12 seats, not %r" % (seats,))
        if rules not in RULE_SETS:
            raise RuleError("rules must be dead, moving or simple, not %r" % (rules,))
        try:
            small, big = stakes
        except (TypeError, ValueError):
            raise RuleError("stakes must be two whole numbers (small, big), not %r"
                            % (stakes,)) from None
        if type(small) is not int or type(big) is not int or not 0 < small <= big:
            raise RuleError("stakes must be whole numbers with 0 < small <= big, not %r"
                            % (stakes,))
        self.seats = seats
        self.rules = rules
        self.stakes = (small, big)
        self._f = bytearray(seats + 1)  # index = seat; index 0 unused
        self._hands = 0
        # The last hand: button, SB position, SB poster (0: none), BB, seats dealt in,
        # and its posts as bytes (seat * 16 + code each, see deal).
        self._button = 0
        self._sbpos = 0
        self._sb = 0
        self._bb = 0
        self._dealt = 0
        self._posts = b""
        self._code = bytearray(seats + 1)  # scratch for deal(): what each seat posts
        self._gone = 0     # seats whose player, dealt into the last hand, has left since
        self._passed = 0   # seats a blind has passed since the first hand (S2)
        self._orbit = 0    # how far the button has travelled since the first hand (max N)
        # Undo history (E3): the states before the last UNDO_DEPTH events, one record of
        # 2 * seats + 16 bytes each (see _push) in a ring made once.
        self._undo = bytearray(UNDO_DEPTH * (2 * seats + 16))
        self._undos = 0   # records held
        self._top = 0     # the record the next event writes
        self._hand = None

    # ---- reading the table -------------------------------------------------------------

    @property
    def hands(self):
        """How many hands have been dealt so far."""
        return self._hands

    @property
    def hand(self):
        """The last hand dealt, or None before the first one."""
        if self._hand is None and self._hands:
            self._hand = self._make_hand()
        return self._hand

    def status(self, seat):
        """"empty", "active", "away" or "waiting"."""
        self._check_seat(seat)
        return STATUSES[self._f[seat] & _STATUS]

    def choice(self, seat):
        """A waiting player's choice, "post" or "wait"; None for anybody else."""
        self._check_seat(seat)
        x = self._f[seat]
        if x & _STATUS != _WAITING:
            return None
        return "wait" if x & _WAIT else "post"

    def owes(self, seat):
        """(live, dead): what this player must post to be dealt in before the BB reaches him."""
        self._check_seat(seat)
        small, big = self.stakes
        x = self._f[seat]
        status = x & _STATUS
        if status == _EMPTY:
            return (0, 0)
        if status == _ACTIVE:
            return (0, small) if x & _CARRY else (0, 0)
        if x & _NEW:
            return (0, 0) if self._free(seat, self._passed, self._orbit) else (big, 0)
        return (big if x & _MBB else 0, small if x & _MSB else 0)

    def can_undo(self):
        return self._undos > 0

    # ---- events --------------------------------------------------------------------------

    def sit(self, seat, post=False):
        """A new player sits at an empty seat: waits for the BB, or posts if post=True."""
        self._check_seat(seat)
        if self._f[seat] & _STATUS:
            raise RuleError("seat %d is taken: the player there must leave first" % seat)
        self._push()
        if self._hands == 0:
            self._f[seat] = _ACTIVE  # S1: drew for the button
        else:
            self._f[seat] = _WAITING | _NEW | (0 if post else _WAIT)

    def away(self, seat):
        """The player sits out from the next hand on."""
        self._check_seat(seat)
        x = self._f[seat]
        status = x & _STATUS
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to send away" % seat)
        if status == _AWAY:
            raise RuleError("seat %d is already away" % seat)
        self._push()
        if x & _CARRY:  # a made-up SB not yet paid becomes a missed SB
            x = (x & ~_CARRY) | _MSB
        self._f[seat] = (x & ~(_STATUS | _WAIT)) | _AWAY

    def back(self, seat, wait=False):
        """An away player returns: active if he owes nothing, else waiting (post or wait)."""
        self._check_seat(seat)
        x = self._f[seat]
        status = x & _STATUS
        if status == _EMPTY:
            raise RuleError("seat %d is empty: nobody to bring back" % seat)
        if status != _AWAY:
            raise RuleError("seat %d is %s, not away: nobody to bring back"
                            % (seat, STATUSES[status]))
        self._push()
        x &= ~_STATUS
        if x & (_NEW | _MBB | _MSB):
            self._f[seat] = x | _WAITING | (_WAIT if wait else 0)
        else:
            self._f[seat] = x | _ACTIVE  # M3: owes nothing, active at once

    def choose(self, seat, choice):
        """A waiting player changes his mind: "post" or "wait" (for the big blind)."""
        self._check_seat(seat)
        if choice != "post" and choice != "wait":
            raise RuleError("seat %d: the choice is post or wait, not %r" % (seat, choice))
        x = self._f[seat]
        status = x & _STATUS
        if status != _WAITING:
            raise RuleError("seat %d is %s, not waiting: nothing to choose"
                            % (seat, STATUSES[status]))
        if (choice == "wait") == bool(x & _WAIT):
            raise RuleError("seat %d already chose to %s" % (seat, choice))
        self._push()
        self._f[seat] = x ^ _WAIT

    def leave(self, seat):
        """The player busts or leaves; he takes his debts with him (M5)."""
        self._check_seat(seat)
        if not self._f[seat] & _STATUS:
            raise RuleError("seat %d is empty: nobody to leave" % seat)
        self._push()
        if self._dealt >> seat & 1:
            self._gone |= 1 << seat
        self._f[seat] = 0

    def undo(self):
        """Revert the last successful event (at least 32 deep)."""
        if not self._undos:
            raise RuleError("nothing to undo")
        self._undos -= 1
        self._top = (self._top - 1) % UNDO_DEPTH
        self._restore(self._top * (2 * self.seats + 16))

    def deal(self, button=None):
        """Deal the next hand (the first one with the seat that won the draw for the button)."""
        f = self._f
        act = self._mask(_ACTIVE)
        first = self._hands == 0
        if not first and button is not None:
            raise RuleError("seat %r: the button is placed only for the first hand" % (button,))
        pres = act | self._mask(_WAITING)
        if _count(pres) < 2:
            raise RuleError("cannot deal: %d player(s) present, at least two are needed"
                            % _count(pres))
        if first:
            if button is None:
                raise RuleError("the first hand needs the button seat (who won the draw)")
            self._check_seat(button)
            if not act >> button & 1:
                raise RuleError("seat %d has no active player: the first button goes to a player"
                                " who drew for it" % button)
        self._push()
        n = self.seats
        btn, sbpos, bb, sbpass, bbpass, passed, orbit, own = self._plan(button)
        dealt = own | 1 << bb
        k = _count(dealt)
        if k < 2 or (k == 2 and not first and not own >> bb & 1
                     and self._next(self._bb, dealt) != bb):
            # D5: fewer than two could be dealt in (heads-up, H2 may take the BB from a
            # waiting player who would have come in only on it): the last two or more
            # present players just play, owing nothing.
            for s in range(1, n + 1):
                if pres >> s & 1:
                    f[s] = _ACTIVE | (f[s] & _PAIDBB)
            btn, sbpos, bb, sbpass, bbpass, passed, orbit, own = self._plan(button)
            dealt = own | 1 << bb
        act = self._mask(_ACTIVE)
        headsup = _count(dealt) == 2
        if headsup:  # H1, H2: the BB keeps moving; the other player has the button and SB
            if first:
                bb = self._next(btn, dealt & ~(1 << btn))
            else:
                bb = self._next(self._bb, dealt)
            btn = self._next(bb, dealt & ~(1 << bb))
            sb = btn
        elif act >> sbpos & 1 and sbpos != btn:
            sb = sbpos
        else:
            sb = 0
        # M1, M2: seated players not dealt in (not new ones, M3a) miss the blinds that pass
        # them; a missed blind stays marked until it is paid.
        for s in range(1, n + 1):
            x = f[s]
            if x & _STATUS >= _AWAY and not x & _NEW and not dealt >> s & 1:
                if bbpass >> s & 1:
                    x |= _MBB
                if sbpass >> s & 1:
                    x |= _MSB
                f[s] = x
        # What each player dealt in posts, as a code per seat: live * 4 + dead, where live
        # is 0, 1 (a small blind) or 2 (a big blind) and dead 0, 1 or 2 small blinds.
        code = self._code
        for s in range(1, n + 1):
            x = f[s]
            c = 0
            if not dealt >> s & 1:
                pass
            elif s == bb:
                c = 8  # M4: a big blind and nothing extra
            else:
                if x & _STATUS == _WAITING:
                    if x & _NEW:
                        if not self._free(s, passed, orbit):
                            c = 8
                    else:
                        c = (8 if x & _MBB else 0) | (1 if x & _MSB else 0)
                if s == sb:
                    # the small blind on top: live up to one big blind, the rest dead
                    c = c + 1 if c >= 8 else c | 4
            code[s] = c
        paid = 1 << bb  # seats paying a big blind as a blind this hand
        carry = 0
        if self.rules == "moving" and not first and not headsup:
            sb, paid, carry = self._make_up(act, sb, bb, paid)
        for s in range(1, n + 1):
            x = f[s] & ~(_CARRY | _PAIDBB)
            if dealt >> s & 1:
                x = _ACTIVE
            if paid >> s & 1:
                x |= _PAIDBB
            if carry >> s & 1:
                x |= _CARRY
            f[s] = x
        self._hands += 1
        self._button = btn
        self._sbpos = btn if headsup else sbpos
        self._sb = sb
        self._bb = bb
        self._dealt = dealt
        # The posts as bytes, one per posting seat: seat * 16 + code, clockwise from the first
        # seat after the button.
        k = 0
        for s in range(1, n + 1):
            if code[s]:
                k += 1
        b = bytearray(k)
        k = 0
        s = btn
        for _ in range(n):
            s = s % n + 1
            if code[s]:
                b[k] = s * 16 + code[s]
                k += 1
        self._posts = bytes(b)
        self._gone = 0
        self._passed = passed
        self._orbit = orbit
        self._hand = self._make_hand()
        return self._hand

    # ---- state ---------------------------------------------------------------------------

    def to_dict(self):
        """The whole table as plain JSON-compatible data (short keys, lists)."""
        return {
            "v": FORMAT, "n": self.seats, "r": self.rules, "k": list(self.stakes),
            "h": self._hands, "f": list(self._f[1:]),
            "p": [self._button, self._sbpos, self._sb, self._bb, self._dealt, self._gone,
                  self._passed, self._orbit],
            "q": list(self._posts),
        }

    @classmethod
    def from_dict(cls, d):
        """A table from to_dict() data. Data that is incomplete, malformed or inconsistent
        (a damaged state file) raises RuleError rather than giving a table that misbehaves."""
        try:
            if d["v"] != FORMAT:
                raise RuleError("table data format %r is not %d" % (d["v"], FORMAT))
            t = cls(d["n"], d["r"], tuple(d["k"]))
            n = t.seats
            flags = d["f"]
            hands = d["h"]
            p = d["p"]
            q = d["q"]
            ok = (len(flags) == n and type(hands) is int and hands >= 0 and len(p) == 8
                  and len(q) <= n)
            for x in flags:
                ok = ok and type(x) is int and 0 <= x <= 255
            for x in p + q:
                ok = ok and type(x) is int and x >= 0
        except (KeyError, TypeError, IndexError):
            raise RuleError("table data is incomplete or malformed") from None
        every_seat = (2 << n) - 2
        if ok and hands:
            ok = (1 <= p[0] <= n and 1 <= p[1] <= n and p[2] <= n and 1 <= p[3] <= n
                  and p[4] >> p[3] & 1 and not (p[4] | p[5] | p[6]) & ~every_seat
                  and p[7] <= n)
        elif ok:
            # Before the first hand nobody waits (S1: whoever sits down is in) and nothing
            # was posted.
            ok = not any(p) and not q and all(x & _STATUS != _WAITING for x in flags)
        for c in q:
            ok = ok and 1 <= c >> 4 <= n and c >> 2 & 3 <= 2 and c & 3 <= 2 and c & 15
        if not ok:
            raise RuleError("table data is inconsistent")
        t._f = bytearray(1) + bytearray(flags)
        t._hands = hands
        (t._button, t._sbpos, t._sb, t._bb, t._dealt, t._gone, t._passed,
         t._orbit) = p
        t._posts = bytes(q)
        return t

    # ---- insides -------------------------------------------------------------------------

    def _check_seat(self, seat):
        if type(seat) is not int or not 1 <= seat <= self.seats:
            raise RuleError("seat %r does not exist: the seats are 1 to %d" % (seat, self.seats))

    def _push(self):
        """Keep the state before an event for undo, in the next record of the ring (E3):
        the seats' bytes, the last hand's numbers (_RECORD), the posts and their count."""
        n = self.seats
        f = self._f
        b = self._undo
        p = self._top * (2 * n + 16)
        for s in range(1, n + 1):
            b[p + s - 1] = f[s]
        p += n
        for j in range(len(_RECORD)):
            v = getattr(self, _RECORD[j])
            for k in range(_SIZES[j] - 1, -1, -1):  # big-endian
                b[p + k] = v & 255
                v >>= 8
            p += _SIZES[j]
        q = self._posts
        b[p] = len(q)
        for i in range(len(q)):
            b[p + 1 + i] = q[i]
        self._top = (self._top + 1) % UNDO_DEPTH
        if self._undos < UNDO_DEPTH:
            self._undos += 1

    def _restore(self, p):
        """The state kept in the undo record at offset p."""
        n = self.seats
        f = self._f
        b = self._undo
        for s in range(1, n + 1):
            f[s] = b[p + s - 1]
        p += n
        for j in range(len(_RECORD)):
            v = 0
            for k in range(_SIZES[j]):
                v = v << 8 | b[p + k]
            setattr(self, _RECORD[j], v)
            p += _SIZES[j]
        self._posts = bytes(b[p + 1:p + 1 + b[p]])
        self._hand = None

    def _mask(self, status):
        f = self._f
        m = 0
        for s in range(1, self.seats + 1):
            if f[s] & _STATUS == status:
                m |= 1 << s
        return m

    def _next(self, s, m, back=False):
        """The first seat after s (clockwise; back: before s, counter-clockwise), s itself
        last, in the mask m, or 0."""
        n = self.seats
        for _ in range(n):
            s = (s - 2) % n + 1 if back else s % n + 1
            if m >> s & 1:
                return s
        return 0

    def _span(self, a, b):
        """Seats after a up to and including b, clockwise (none if a == b; every seat if b
        is no seat at all, rather than going round for ever on damaged data)."""
        n = self.seats
        m = 0
        for _ in range(n):
            if a == b:
                break
            a = a % n + 1
            m |= 1 << a
        return m

    def _free(self, seat, passed, orbit):
        """S2: a new player in the first orbit whose seat no blind has passed yet."""
        return self._hands > 0 and orbit < self.seats and not passed >> seat & 1

    def _positions(self, button):
        """Button, SB position and BB of the next hand by the rule set (before H1)."""
        n = self.seats
        act = self._mask(_ACTIVE)
        pres = act | self._mask(_WAITING)
        if not self._hands:  # S1
            m = act & ~(1 << button)  # the others
            if _count(act) == 2:
                return button, button, self._next(button, m)
            sbpos = self._next(button, m)
            return button, sbpos, self._next(sbpos, m & ~(1 << sbpos))
        if self.rules == "dead":
            bb = self._next(self._bb, pres)  # DB1
            # The rotation: seats in play or that held a position last hand, but the new BB.
            m = (act | 1 << self._button | 1 << self._sbpos | 1 << self._bb | self._dealt) \
                & ~(1 << bb)
            if act >> self._bb & 1 and not self._gone >> self._bb & 1:
                sbpos = self._bb  # DB2: big blind, then small blind
            else:
                sbpos = self._next(bb, m, True)
            btn = 0
            s = sbpos
            for _ in range(n):  # DB3: the rotation seat before the SB, not past the BB
                s = (s - 2) % n + 1
                if s == bb:
                    break
                if m >> s & 1:
                    btn = s
                    break
            if not btn:
                btn = (sbpos - 2) % n + 1
                if btn == bb:
                    btn = sbpos
            return btn, sbpos, bb
        # MB1 / SM1
        btn = self._next(self._button, act) or self._button
        sbpos = self._next(btn, act & ~(1 << btn)) or btn
        bb = 0
        s = sbpos
        for _ in range(n):
            s = s % n + 1
            if s == btn:
                break
            if pres >> s & 1:
                bb = s
                break
        if not bb:  # two active players and nobody waiting from the SB to the button
            bb = sbpos
        return btn, sbpos, bb

    def _plan(self, button):
        """Positions, the seats the blinds pass, and who is dealt in on his own, the BB
        aside (D1..D3, S2)."""
        n = self.seats
        f = self._f
        btn, sbpos, bb = self._positions(button)
        if self._hands:
            sbpass = self._span(self._sbpos, sbpos)
            bbpass = self._span(self._bb, bb)
            passed = self._passed | sbpass | bbpass
            orbit = min(n, self._orbit + (btn - self._button) % n)
        else:
            sbpass = self._span(btn, sbpos)
            bbpass = self._span(sbpos, bb)
            passed = sbpass | bbpass
            orbit = 0
        m = ((1 << btn) | self._span(btn, bb)) & ~(1 << bb)  # D2: the dead zone
        dealt = 0
        for s in range(1, n + 1):
            x = f[s]
            status = x & _STATUS
            if status == _ACTIVE:
                dealt |= 1 << s
            elif status == _WAITING and not m >> s & 1:
                if not x & _WAIT or (x & _NEW and self._free(s, passed, orbit)):
                    dealt |= 1 << s
        return btn, sbpos, bb, sbpass, bbpass, passed, orbit, dealt

    def _make_up(self, act, sb, bb, paid):
        """MB2: blinds skipped because players left are made up; one blind per player per
        hand, biggest first, the rest carried.  Returns (sb, paid, carry)."""
        f = self._f
        code = self._code
        n = self.seats
        act &= ~self._gone  # the players who stay
        due_bb = 0
        due_sb = 0
        if self._gone and _count(self._dealt) >= 3:
            s = self._next(self._bb, act & self._dealt)
            if s and not self._span(self._bb, s) >> bb & 1:
                due_bb = 1 << s
            for s in range(1, n + 1):
                if act >> s & 1 and f[s] & _PAIDBB and s != sb:
                    due_sb |= 1 << s
        for s in range(1, n + 1):
            if act >> s & 1 and f[s] & _CARRY and s != sb:
                due_sb |= 1 << s
        carry = 0
        for s in range(1, n + 1):
            if not (due_bb | due_sb) >> s & 1:
                continue
            if due_bb >> s & 1 or s == bb:
                code[s] = 8  # a live big blind
                paid |= 1 << s
                if s == sb or due_sb >> s & 1:
                    carry |= 1 << s  # the small blind waits for the next hand
                if s == sb:
                    sb = 0  # he posts a big blind instead of the small one
            else:
                code[s] = 1  # a dead small blind
        return sb, paid, carry

    def _make_hand(self):
        n = self.seats
        dealt = []
        s = self._button
        for _ in range(n):
            s = s % n + 1
            if self._dealt >> s & 1:
                dealt.append(s)
        small, big = self.stakes
        posts = {}
        for c in self._posts:
            posts[c >> 4] = ((0, small, big)[c >> 2 & 3], (c & 3) * small)
        if len(dealt) == 2:
            first = self._button
        else:
            first = self._next(self._bb, self._dealt & ~(1 << self._bb))
        return Hand(self._hands, self._button, self._sb or None, self._bb, tuple(dealt),
                    posts, first)
