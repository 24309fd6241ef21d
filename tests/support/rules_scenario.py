"""Helpers for rules tests, on both runtimes: build tables, describe hands, check invariants.

``check_deal``, ``check_table`` and ``check_debts_kept`` are the invariants of the rules
core (one BB, always dealt in; heads-up the button posts the SB; nobody owes more than
one SB and one BB; what a player away or held out owes never shrinks; in ``dead`` the
last BB posts the SB; antes are dead money at the level the hand was dealt at; at a
tournament table everybody seated is dealt in but a newcomer on the button or the SB
position, and nobody owes or chooses anything ...); the example tests, the hypothesis
properties and the exhaustive walk all use them.
"""

from dealerbutton.rules import RuleError, Table

NAMES = ("Alice", "Bob", "Carol", "David", "Ellen", "Frank", "Gina", "Hal", "Ivy", "Jack",
         "Kim", "Lee")


# The levels the random walks switch between: none with antes, antes each, a big-blind ante.
LEVELS = ((10, 20, 0, "each"), (25, 50, 5, "each"), (50, 100, 100, "bb"))


def table(seats=9, players=(1, 2, 3, 4, 5, 6, 7), button=None, rules="dead", stakes=(10, 20),
          tournament=False):
    """A table with these players seated before the first hand; dealt once if button given."""
    t = Table(seats=seats, rules=rules, stakes=stakes, tournament=tournament)
    for s in players:
        t.sit(s)
    if button is not None:
        t.deal(button=button)
    return t


def seed000(rules="dead"):
    """Seed 000's five players (Alice..Ellen on seats 1..5) plus Frank and Gina on 6 and 7,
    nine seats; the first button on Gina's seat 7, so Alice posted the SB, Bob the BB, and
    Carol is due the BB next."""
    return table(9, (1, 2, 3, 4, 5, 6, 7), button=7, rules=rules)


def session(text):
    """A table after a session written as `T(4,dead); sit 4; sit 3 post; deal 4; away 3;
    deal` (T(seats,rules), stakes 10/20; see play)."""
    head, _, events = text.partition(";")
    seats, rules = head.strip()[2:-1].split(",")
    t = Table(int(seats), rules.strip(), (10, 20))
    play(t, events)
    return t


def play(t, events):
    """Play events on table t: `sit 3`, `sit 3 post`, `away 3`, `back 3`, `back 3 wait`,
    `choose 3 post`, `leave 3`, `deal 4` (the first hand: the draw on seat 4), `deal`,
    `undo`, `level 200 400 50 bb` (set_level), `move 5 9`, `take 6`, `kill 5`, `kill 5 half`,
    separated by `;`. Every event must be accepted."""
    for part in events.split(";"):
        words = part.split()
        if not words:
            continue
        event, args = words[0], words[1:]
        if event == "sit":
            t.sit(int(args[0]), post=args[1:] == ["post"])
        elif event == "back":
            t.back(int(args[0]), wait=args[1:] == ["wait"])
        elif event == "choose":
            t.choose(int(args[0]), args[1])
        elif event == "deal":
            t.deal(button=int(args[0])) if args else t.deal()
        elif event == "away" or event == "leave":
            getattr(t, event)(int(args[0]))
        elif event == "undo":
            t.undo()
        elif event == "level":
            t.set_level(int(args[0]), int(args[1]), int(args[2]), args[3])
        elif event == "move":
            t.move(int(args[0]), int(args[1]))
        elif event == "take":
            t.take(int(args[0]))
        elif event == "kill":
            t.kill(int(args[0]), half=args[1:] == ["half"])
        else:
            raise ValueError("unknown event %r" % part)


def hand_is(h, button, sb, bb, posts, first=None, dealt=None):
    """Hand h has these positions and posts (and first to act, seats dealt in if given)."""
    assert h.button == button, describe(h)
    assert h.sb == sb, describe(h)
    assert h.bb == bb, describe(h)
    assert h.posts == posts, describe(h)
    if first is not None:
        assert h.first_to_act == first, describe(h)
    if dealt is not None:
        assert h.dealt == dealt, describe(h)


def posts_text(posts):
    return " ".join("%d:%d/%d" % (s, posts[s][0], posts[s][1]) for s in sorted(posts))


def describe(h):
    """A hand as one deterministic line."""
    return "#%d button %d sb %s bb %d first %d dealt %s posts %s" % (
        h.n, h.button, "-" if h.sb is None else h.sb, h.bb, h.first_to_act,
        ",".join("%d" % s for s in h.dealt), posts_text(h.posts))


def statuses(t):
    """Every seat as one deterministic string: e.g. 'a a w:post . x'."""
    out = []
    for s in range(1, t.seats + 1):
        st = t.status(s)
        if st == "empty":
            out.append(".")
        elif st == "waiting":
            out.append("w:" + t.choice(s) if t.choice(s) else "w")  # none in a tournament
        else:
            out.append(st[0] if st == "active" else "x")
    return " ".join(out)


def state_key(t):
    """A canonical text of to_dict(), independent of dict order."""
    d = t.to_dict()
    return repr(sorted((k, d[k]) for k in d))


def hand_key(h):
    return None if h is None else describe(h)


def refused(fn, *args, **kw):
    """Call an event that must be refused; return its message."""
    try:
        fn(*args, **kw)
    except RuleError as e:
        return str(e)
    raise AssertionError("%s%r was not refused" % (getattr(fn, "__name__", fn), args))


def refuses_every_table_data(bad):
    """Table.from_dict must refuse each of these saved forms with a ValueError and a message."""
    for d in bad:
        try:
            Table.from_dict(d)
        except ValueError as e:
            assert str(e)
        else:
            raise AssertionError("accepted %r" % (d,))


def _after(t, bb, dealt):
    n = t.seats
    s = bb
    for _ in range(n):
        s = s % n + 1
        if s in dealt:
            return s
    return None


def check_table(t):
    """Invariants that hold between events."""
    small, big = t.stakes
    assert t.level[:2] == t.stakes and t.level[3] in ("each", "bb"), t.level
    for s in range(1, t.seats + 1):
        st = t.status(s)
        live, dead = t.owes(s)
        assert live in (0, big) and dead in (0, small), (s, live, dead)  # M2: one set
        if st in ("empty",):
            assert (live, dead) == (0, 0), s
        if st == "active" and t.rules != "moving":
            assert (live, dead) == (0, 0), s  # only MB2 makes an active player post more
        if t.tournament:  # T1: nobody owes, nobody chooses
            assert (live, dead) == (0, 0) and t.choice(s) is None, s
        else:
            assert (t.choice(s) is not None) == (st == "waiting"), s
    h = t.hand
    assert (h is None) == (t.hands == 0)
    if h is not None:
        assert h.n == t.hands


def before_event(t):
    """What check_deal needs to know of the table before a deal."""
    return seat_statuses(t), t.hand, t.level


def ante_of(h, s):
    """The ante seat s posts in hand h (T5): every seat dealt in, or the big blind only."""
    ante, kind = h.level[2], h.level[3]
    if s in h.dealt and (kind == "each" or s == h.bb):
        return ante
    return 0


def blinds_of(h, s):
    """What seat s posts in hand h, its ante aside: (live, dead)."""
    live, dead = h.posts.get(s, (0, 0))
    return live, dead - ante_of(h, s)


def check_deal(t, before, h):
    """Invariants of one deal; `before` is before_event(t) before it."""
    st_before, prev, level = before
    assert h.level == level, (h.level, level)  # T4: the level in force when dealt
    small, big, ante, kind = level
    dealt = h.dealt
    assert len(dealt) >= 2, dealt
    assert len(set(dealt)) == len(dealt)
    # dealt clockwise from the first seat after the button
    n = t.seats
    order = [(s - h.button - 1) % n for s in dealt]
    assert order == sorted(order), (h.button, dealt)
    if t.tournament:
        check_tournament_deal(t, st_before, h)
    else:
        # D4: nobody away is dealt in; D1: every active player is.
        present = [s for s in range(1, n + 1) if st_before[s] in ("active", "waiting")]
        for s in dealt:
            assert st_before[s] in ("active", "waiting"), (s, st_before[s])
            assert t.status(s) == "active", s
        for s in range(1, n + 1):
            if st_before[s] == "active":
                assert s in dealt, ("active player not dealt in", s)
            if st_before[s] in ("away", "empty"):
                assert t.status(s) == st_before[s], s
        assert len(present) >= 2
    # T5: antes are dead money, posted by every seat dealt in or by the big blind alone
    for s in range(1, n + 1):
        live, dead = h.posts.get(s, (0, 0))
        assert dead >= ante_of(h, s), (s, h.posts, h.level)
        if ante and (kind == "each" or s == h.bb) and s in dealt:
            assert s in h.posts, ("no ante from", s, h.posts)
    antes = sum([ante_of(h, s) for s in dealt])
    assert antes == (ante * len(dealt) if kind == "each" else ante), (antes, h.level)
    # exactly one BB, dealt in, posting one live big blind and nothing more (M4)
    assert h.bb in dealt
    assert blinds_of(h, h.bb) == (big, 0), h.posts
    for s in h.posts:
        assert s in dealt, ("post from a seat not dealt in", s)
        live, dead = blinds_of(h, s)
        assert 0 <= live <= big and dead >= 0, (s, live, dead)
        assert live + dead > 0 or ante_of(h, s), (s, live, dead)
        assert dead <= 2 * small, (s, dead)
    if h.sb is not None:
        assert h.sb in dealt and h.sb != h.bb
        assert sum(blinds_of(h, h.sb)) >= small
    if len(dealt) == 2:  # H1
        assert h.sb == h.button and h.button in dealt, describe(h)
        assert h.first_to_act == h.button
        assert blinds_of(h, h.button)[0] >= small
    else:
        assert h.button != h.bb, describe(h)
        assert h.first_to_act == _after(t, h.bb, dealt), describe(h)
        if (t.rules == "dead" and prev is not None and st_before[prev.bb] == "active"
                and (prev.bb in dealt or not t.tournament)):
            # DB2: a player who paid the BB pays the SB next hand (at a tournament table a
            # newcomer who sat where he busted is active too, but held out there: T2)
            assert h.sb == prev.bb, (describe(prev), describe(h))
            assert blinds_of(h, h.sb) == (small, 0)
    if t.rules != "moving" or t.tournament:  # one big blind only, except MB2 make-ups
        for s in h.posts:
            if s != h.bb and blinds_of(h, s) != (0, 0):
                assert st_before[s] == "waiting" or blinds_of(h, s) == (small, 0), (s, h.posts)
    if prev is not None:
        assert h.n == prev.n + 1
    else:
        assert h.n == 1


def check_tournament_deal(t, st_before, h):
    """T1..T3: everybody seated is dealt in, away players too (and still shown away), but a
    newcomer held out on the button or SB position, who then waits one hand; the blinds of
    the positions and the antes are the only posts."""
    n = t.seats
    seated = [s for s in range(1, n + 1) if st_before[s] != "empty"]
    assert len(seated) >= 2
    for s in range(1, n + 1):
        after = t.status(s)
        if st_before[s] == "empty":
            assert after == "empty" and s not in h.dealt, s
        elif s in h.dealt:
            assert after == ("away" if st_before[s] == "away" else "active"), (s, after)
        else:  # T2: only a newcomer, never two hands running, on the button or SB position
            assert st_before[s] in ("active", "away"), ("skipped", s, st_before[s])
            assert after == ("away" if st_before[s] == "away" else "waiting"), (s, after)
            assert s == h.button or h.sb is None or len(h.dealt) == 2, (s, describe(h))
    for s in h.dealt:
        want = h.level[1] if s == h.bb else h.level[0] if s == h.sb else 0
        assert blinds_of(h, s) == (want, 0), (s, h.posts)


def seat_statuses(t):
    return [None] + [t.status(s) for s in range(1, t.seats + 1)]


def seat_debts(t):
    """Per seat (index 0 unused): what its player owes and the markers he holds."""
    return [None] + [(t.owes(s), t.markers(s)) for s in range(1, t.seats + 1)]


def check_debts_kept(t, statuses_before, debts_before):
    """M1, M2: across an event (undo aside), a player who stays away keeps every marker he
    held (a missed blind stays marked until paid), and a player with markers owes at least
    what he owed (a blind: in chips at the level in force, which may have changed), unless
    his return would now make the next deal a new game, which clears them (M6b, D5, MS2):
    then a copy of the table where he comes back deals him in for his position's blinds
    alone. (A new player's figure and a waiting player's follow the next deal, M6.)"""
    for s in range(1, t.seats + 1):
        st = statuses_before[s]
        if st == "away" and t.status(s) == st:
            (was_live, was_dead), was_markers = debts_before[s]
            markers = t.markers(s)
            for m in was_markers:
                assert m in markers, ("seat %d away lost his marker %s" % (s, m), markers)
            if not was_markers:
                continue
            live, dead = t.owes(s)
            if (live or not was_live) and (dead or not was_dead):
                continue
            assert (live, dead) == (0, 0), (
                "seat %d %s owed %d/%d, now %d/%d" % (s, st, was_live, was_dead, live, dead))
            twin = Table.from_dict(t.to_dict())
            twin.back(s)
            h = twin.deal()
            position = h.level[1] if s == h.bb else h.level[0] if s == h.sb else 0
            assert s in h.dealt and blinds_of(h, s) == (position, 0), (
                "seat %d owed %d/%d, now nothing, yet back he posts %r in %s" % (
                    s, was_live, was_dead, h.posts.get(s), describe(h)))


EVENTS = ("sit", "sitpost", "away", "back", "backwait", "post", "wait", "leave", "deal", "level",
          "undo")


def apply(t, ev, seat):
    """Apply one event by name (see EVENTS); raises RuleError when refused."""
    if ev == "sit":
        t.sit(seat)
    elif ev == "sitpost":
        t.sit(seat, post=True)
    elif ev == "away":
        t.away(seat)
    elif ev == "back":
        t.back(seat)
    elif ev == "backwait":
        t.back(seat, wait=True)
    elif ev == "post":
        t.choose(seat, "post")
    elif ev == "wait":
        t.choose(seat, "wait")
    elif ev == "leave":
        t.leave(seat)
    elif ev == "deal":
        return t.deal(button=seat) if t.hands == 0 else t.deal()
    elif ev == "level":  # one of the other two LEVELS, by the seat's parity
        now = LEVELS.index(t.level)
        assert t.set_level(*LEVELS[(now + 1 + seat % 2) % len(LEVELS)])
    elif ev == "undo":
        t.undo()
    else:
        raise ValueError(ev)
    return None


def step(t, ev, seat):
    """Apply an event with every invariant checked: refused ones change nothing, successful
    ones undo exactly; returns True if the event was accepted."""
    key = state_key(t)
    hk = hand_key(t.hand)
    could_undo = t.can_undo()
    before = before_event(t)
    debts = seat_debts(t)
    try:
        h = apply(t, ev, seat)
    except RuleError as e:
        msg = str(e)
        assert msg, ev
        if ev != "undo" and ev != "deal":
            assert ("seat %d" % seat) in msg or ("seat %r" % (seat,)) in msg, msg
        assert state_key(t) == key, ("refused event changed the table", ev, seat)
        assert hand_key(t.hand) == hk
        assert t.can_undo() == could_undo
        return False
    if h is not None:
        check_deal(t, before, h)
        assert hand_key(t.hand) == hand_key(h)
    check_table(t)
    if ev != "undo":
        assert t.can_undo()
        check_debts_kept(t, before[0], debts)
    return True
