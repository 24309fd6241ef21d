"""The table's saved form (E4): a TableState as plain JSON data in words, and back.

Format 4, written today: the table (seats, rules, tournament, button blind, make-up, the two
levels, hands dealt, the button's travel), each seated player by name of his status and what
he holds, the last hand's positions and each seat's posts in words, and the seats the last
hand dealt in, that were left or passed:

    {"format": 4, "seats": 9, "rules": "dead", "tournament": false, "button_blind": 0,
     "makeup": "together", "level": [10, 20, 0, "each"], "hand_level": [10, 20, 0, "each"],
     "hands": 12, "travel": 9,
     "players": [{"seat": 1, "status": "active"},
                 {"seat": 4, "status": "waiting", "choice": "post", "missed": ["bb", "sb"]},
                 {"seat": 6, "status": "waiting", "choice": "wait", "new": true}, ...],
     "button": 3, "small_blind": 4, "small_blind_player": 4, "big_blind": 5,
     "dealt": [1, 2, 3, 4, 5], "left": [], "left_active": [], "passed": [1, 2, 3, 4, 5],
     "posts": [{"seat": 4, "live": ["sb"], "dead": []}, {"seat": 5, "live": ["bb"], "dead": []}]}

Formats 1 to 3, written by earlier firmware, are read too: each player was a byte of flags
and each post a number (format 3), the keys were letters (formats 1 and 2)."""

from dealerbutton.rules.state import (
    BB,
    FULL_KILL,
    HALF_KILL,
    KILLS,
    POST_FACTS,
    RuleError,
    TableState,
    check_level,
)
from dealerbutton.rules.words import (
    MAKEUPS,
    MARKERS,
    MAX_CHIPS,
    MAX_SEATS,
    MIN_SEATS,
    RULE_SETS,
    STATUSES,
    WAITING,
)

FORMAT = 4

# A player's facts that the saved form writes as a flag when set: key -> per-seat fact.
_FLAGS = (("new", "new"), ("carries_sb", "carries_sb"), ("carries_live_sb", "carries_live_sb"),
          ("paid_bb", "paid_bb"), ("moved_in", "moved_in"), ("moved_dealt", "moved_dealt"))
_PLAYER_KEYS = ("seat", "status", "choice", "missed", "mover_wait", "kill") + tuple(
    [key for key, _ in _FLAGS])
# The missed-blind markers (words.MARKERS, in order) and their per-seat facts.
_MARKER_FACTS = ("missed_bb", "missed_sb", "missed_ante", "missed_button_blind")
# The seats' own facts saved as lists of seats; the last two are written only when they hold
# a seat (a take-over's facts, C6: firmware before them wrote none).
_SEAT_LISTS = ("dealt", "left", "left_active", "passed", "left_earlier", "leaver_dealt")
_SEAT_LISTS_WHEN_SET = ("left_earlier", "leaver_dealt")
_LIVE_BLINDS = ("", "sb", "bb")   # posted_blind: NO_BLIND, SB, BB


def to_dict(state):
    """The whole table as JSON-compatible data in words (format 4)."""
    players = []
    for seat in state.all_seats():
        if state.status[seat]:
            players.append(_player(state, seat))
    d = {
        "format": FORMAT, "seats": state.seats, "rules": state.rules,
        "tournament": state.tournament, "button_blind": state.button_blind,
        "makeup": state.makeup, "level": list(state.level),
        "hand_level": list(state.hand_level), "hands": state.hands, "travel": state.travel,
        "players": players, "button": state.button, "small_blind": state.sb_seat,
        "small_blind_player": state.sb_player, "big_blind": state.bb,
        "posts": _posts(state), "dealt": _seat_list(state, state.dealt),
        "left": _seat_list(state, state.left), "left_active": _seat_list(state, state.left_active),
        "passed": _seat_list(state, state.passed),
    }
    for name in _SEAT_LISTS_WHEN_SET:
        seats = _seat_list(state, getattr(state, name))
        if seats:
            d[name] = seats
    return d


def _seat_list(state, fact):
    """The seats whose fact (a per-seat view) is set, in increasing order."""
    return [seat for seat in state.all_seats() if fact[seat]]


def _player(state, seat):
    """One seated player in words."""
    status = state.status[seat]
    p = {"seat": seat, "status": STATUSES[status]}
    if status == WAITING and not state.tournament:
        p["choice"] = "wait" if state.waits_for_bb[seat] else "post"
    for key, fact in _FLAGS:
        if getattr(state, fact)[seat]:
            p[key] = True
    missed = [MARKERS[i] for i in range(len(MARKERS)) if getattr(state, _MARKER_FACTS[i])[seat]]
    if missed:
        p["missed"] = missed
    if state.mover_wait[seat]:
        p["mover_wait"] = state.mover_wait[seat]
    if state.kill[seat]:
        p["kill"] = KILLS[state.kill[seat]]
    return p


def _posts(state):
    """The last hand's posts, clockwise from the seat after the button: each seat's live
    and dead posts in words (its antes are the hand level's)."""
    posts = []
    seat = state.button
    for _ in state.all_seats():
        seat = seat % state.seats + 1
        live = []
        if state.posted_kill[seat]:
            live.append("kill" if state.posted_kill[seat] == FULL_KILL else "half_kill")
        if state.posted_blind[seat]:
            live.append(_LIVE_BLINDS[state.posted_blind[seat]])
        if state.posted_button_blind[seat]:
            live.append("button_blind")
        dead = ["sb"] * state.posted_dead_sb[seat]
        if state.posted_dead_ante[seat]:
            dead.append("ante")
        if state.posted_dead_button_blind[seat]:
            dead.append("button_blind")
        if live or dead:
            posts.append({"seat": seat, "live": live, "dead": dead})
    return posts


# ---- reading -------------------------------------------------------------------------------

def from_dict(d):
    """A TableState from saved data of any format. RuleError for data that is incomplete,
    malformed or inconsistent (a damaged state file)."""
    try:
        if "v" in d:
            d = _format_3_of(d)
        if d["format"] == 3:
            d = _format_4_of(d)
        if d["format"] != FORMAT:
            raise RuleError("table data format %r is not 1 to %d" % (d["format"], FORMAT))
        state = _new_state(d)
        _read_players(state, d["players"])
        _read_last_hand(state, d)
    except RuleError:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError):
        raise RuleError("table data is incomplete or malformed") from None
    if not _consistent(state) or _posts(state) != d["posts"]:
        raise RuleError("table data is inconsistent")
    return state


def _new_state(d):
    seats = d["seats"]
    tournament = d["tournament"]
    if (type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS
            or d["rules"] not in RULE_SETS or not _is_bool(tournament)
            or d["makeup"] not in MAKEUPS or not _chips(d["button_blind"])):
        raise ValueError
    level = tuple(d["level"])
    hand_level = tuple(d["hand_level"])
    check_level(*level)
    check_level(*hand_level)
    state = TableState(seats, d["rules"], level, tournament, d["button_blind"], d["makeup"])
    state.hand_level = hand_level
    return state


def _read_players(state, players):
    last = 0
    for p in players:
        seat = p["seat"]
        if type(seat) is not int or not last < seat <= state.seats:
            raise ValueError   # seats in order, each once
        last = seat
        for key in p:
            if key not in _PLAYER_KEYS:
                raise ValueError
        status = STATUSES.index(p["status"])
        if not status:
            raise ValueError
        state.status[seat] = status
        choice = p.get("choice")
        if status == WAITING and not state.tournament:
            if choice != "post" and choice != "wait":
                raise ValueError   # a waiting player has made his choice
        elif choice is not None:
            raise ValueError       # ... and nobody else has one
        state.waits_for_bb[seat] = choice == "wait"
        for key, fact in _FLAGS:
            flag = p.get(key, False)
            if not _is_bool(flag) or key in p and not flag:
                raise ValueError
            getattr(state, fact)[seat] = flag
        for marker in p.get("missed", []):
            getattr(state, _MARKER_FACTS[MARKERS.index(marker)])[seat] = 1
        wait = p.get("mover_wait", 0)
        if type(wait) is not int or not 0 <= wait <= 255:
            raise ValueError
        state.mover_wait[seat] = wait
        state.kill[seat] = KILLS.index(p.get("kill", ""))


def _read_last_hand(state, d):
    hands = d["hands"]
    travel = d["travel"]
    positions = (d["button"], d["small_blind"], d["small_blind_player"], d["big_blind"])
    for x in positions + (hands, travel):
        if type(x) is not int or x < 0:
            raise ValueError
    state.hands = hands
    state.travel = travel
    state.button, state.sb_seat, state.sb_player, state.bb = positions
    for name in _SEAT_LISTS:
        fact = getattr(state, name)
        last = 0
        for seat in d.get(name, []) if name in _SEAT_LISTS_WHEN_SET else d[name]:
            if type(seat) is not int or not last < seat <= state.seats:
                raise ValueError
            fact[seat] = 1
            last = seat
    for post in d["posts"]:
        seat = post["seat"]
        if type(seat) is not int or not 1 <= seat <= state.seats or len(post) != 3:
            raise ValueError
        for word in post["live"]:
            if word == "kill" or word == "half_kill":
                state.posted_kill[seat] = FULL_KILL if word == "kill" else HALF_KILL
            elif word == "button_blind":
                state.posted_button_blind[seat] = 1
            elif word == "sb" or word == "bb":
                state.posted_blind[seat] = _LIVE_BLINDS.index(word)
            else:
                raise ValueError
        for word in post["dead"]:
            if word == "sb":
                state.posted_dead_sb[seat] += 1
            elif word == "ante":
                state.posted_dead_ante[seat] = 1
            elif word == "button_blind":
                state.posted_dead_button_blind[seat] = 1
            else:
                raise ValueError


def _consistent(state):
    """The facts hang together as the rules leave them."""
    n = state.seats
    if not state.hands:
        # Before the first hand nobody waits (S1: whoever sits down is in) and no hand has
        # dealt, passed or charged any seat.
        for name in _SEAT_LISTS + POST_FACTS:
            if state.seats_where(getattr(state, name)):
                return False
        return (not (state.button or state.sb_seat or state.sb_player or state.bb
                     or state.travel) and not state.seats_with(WAITING))
    for seat in state.all_seats():
        if state.posted_dead_sb[seat] > 2:
            return False
    return (1 <= state.button <= n and 1 <= state.sb_seat <= n and state.sb_player <= n
            and 1 <= state.bb <= n and state.dealt[state.bb] and state.travel <= n)


def _is_bool(v):
    """true or false in JSON (not 1 or 0, which MicroPython takes for them in `in`)."""
    return v is True or v is False


def _chips(v):
    return type(v) is int and 0 <= v <= MAX_CHIPS


# ---- earlier formats -----------------------------------------------------------------------

def _format_4_of(d):
    """Format 3 data (players as bytes of flags, posts as numbers) as format 4."""
    players = []
    raw = d["players"]
    if len(raw) != d["seats"]:
        raise ValueError
    for i in range(len(raw)):
        byte = raw[i]
        if type(byte) is not int or not 0 <= byte <= 255:
            raise ValueError
        status = byte & 3
        if not status:
            if byte:
                raise ValueError
            continue
        p = {"seat": i + 1, "status": STATUSES[status]}
        if status == WAITING and not d["tournament"]:
            p["choice"] = "wait" if byte & 4 else "post"
        for bit, key in ((8, "new"), (64, "carries_sb"), (128, "paid_bb")):
            if byte & bit:
                p[key] = True
        missed = [m for bit, m in ((16, "bb"), (32, "sb")) if byte & bit]
        if missed:
            p["missed"] = missed
        players.append(p)
    posts = []
    for post in d["posts"]:
        if type(post) is not int or post < 0:
            raise ValueError
        seat, live, dead = post >> 4, post >> 2 & 3, post & 3
        if live > BB or dead > 2 or not (live or dead):
            raise RuleError("table data is inconsistent")   # (no such post was ever saved)
        posts.append({"seat": seat, "live": [_LIVE_BLINDS[live]] if live else [],
                      "dead": ["sb"] * dead})
    new = dict(d)
    new.update({"format": FORMAT, "button_blind": 0, "makeup": "together",
                "players": players, "posts": posts, "left_active": []})
    return new


def _format_3_of(d):
    """Format 1 or 2 data (one-letter keys: n seats, r rules, t tournament (0/1), k level,
    l the last hand's level, h hands, f the players' flag bytes, p [button, small blind's
    seat, the player who posted it, big blind, dealt, left, passed (masks of seats),
    travel], q posts; format 1, before tournaments, had no t and no l, and a level of two
    blinds) as format 3."""
    version = d["v"]
    level = d["k"]
    if version == 1:
        level = level + [0, "each"]
        hand_level = level
        tournament = 0
    elif version == 2:
        hand_level = d["l"]
        tournament = d["t"]
    else:
        raise RuleError("table data format %r is not 1 to %d" % (version, FORMAT))
    last = d["p"]
    if len(last) != 8 or tournament not in (0, 1) or type(tournament) is not int:
        raise ValueError
    return {"format": 3, "seats": d["n"], "rules": d["r"], "tournament": tournament == 1,
            "level": level, "hand_level": hand_level, "hands": d["h"], "players": d["f"],
            "button": last[0], "small_blind": last[1], "small_blind_player": last[2],
            "big_blind": last[3], "dealt": _seats_of_mask(last[4]),
            "left": _seats_of_mask(last[5]), "passed": _seats_of_mask(last[6]),
            "travel": last[7], "posts": d["q"]}


def _seats_of_mask(mask):
    """The seats of a number whose bit s stands for seat s (formats 1 and 2)."""
    if type(mask) is not int or mask < 0 or mask >> 14 or mask & 1:
        raise ValueError
    return [seat for seat in range(1, 14) if mask >> seat & 1]
