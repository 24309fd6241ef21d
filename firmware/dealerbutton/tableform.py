"""The table as earlier firmware saved it (Table.to_dict), turned into today's form (format
4, in words) for Table.from_dict: a table saved before an update comes back after it.
Loaded only when such a table is read.

Format 3 (the firmware before format 4) had "players", a byte a seat (the status, 0 empty,
1 active, 2 away, 3 waiting, plus 4 waits for the BB, 8 new, 16 missed BB, 32 missed SB,
64 carries SB, 128 paid BB) and "posts", a number a post (seat * 16 + live * 4 + dead, live
0 none, 1 SB, 2 BB, dead in small blinds), in the order of the seats from the button on; the
other keys as format 4's. Format 2 had one-letter keys: n seats, r rules, t tournament
(0/1), k level, l the last hand's level, h hands, f the players' bytes, p [button, small
blind's seat, the player who posted it, big blind, dealt, left, passed (masks of seats),
travel], q posts. Format 1 (before tournaments) had no t and no l, and a level of two
blinds."""

from dealerbutton.rules import LIVE_BLINDS, STATUSES

# Format 3's flag bits of a player's byte, and the names format 4 gives them.
_FLAG_BITS = ((4, "waits_for_bb"), (8, "new"), (16, "missed_bb"), (32, "missed_sb"),
              (64, "carries_sb"), (128, "paid_bb"))


def upgrade(d):
    """Format 1, 2 or 3 data as format 4. ValueError, KeyError, TypeError or IndexError for
    data that is none of them."""
    if "v" in d:
        d = _as_format_3(d)
    return _as_format_4(d)


def _as_format_4(d):
    """Format 3 data as format 4: each player's byte as the lists of seats of his status and
    of his flags, each post's number as [seat, live blind, dead small blinds]. ValueError,
    KeyError, TypeError or IndexError for data that is not format 3."""
    players = d["players"]
    if len(players) != d["seats"]:
        raise ValueError("a player's byte for each seat")
    for x in players:
        if type(x) is not int or not 0 <= x <= 255:
            raise ValueError("a player's byte: %r" % (x,))
    for x in d["posts"]:
        if type(x) is not int or x < 0:
            raise ValueError("a post: %r" % (x,))
    words = {}
    for key in d:
        if key != "players":
            words[key] = d[key]
    words["format"] = 4
    for status in (1, 2, 3):
        words[STATUSES[status]] = [s for s in range(1, len(players) + 1)
                                   if players[s - 1] & 3 == status]
    for bit, name in _FLAG_BITS:
        seats = [s for s in range(1, len(players) + 1) if players[s - 1] & bit]
        if seats:
            words[name] = seats
    posts = []
    for seat in range(1, len(players) + 1):  # by seat (format 3: from the button on)
        for x in d["posts"]:
            if x >> 4 == seat:
                posts.append([seat, LIVE_BLINDS[x >> 2 & 3], x & 3])
    if len(posts) != len(d["posts"]):
        raise ValueError("a post of no seat")
    words["posts"] = posts
    return words


def _as_format_3(d):
    """Format 1 or 2 data as format 3. ValueError, KeyError, TypeError or IndexError for
    data that is neither."""
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
        raise ValueError("table data format %r is not 1 to 4" % (version,))
    last = d["p"]
    if len(last) != 8 or tournament not in (0, 1) or type(tournament) is not int:
        raise ValueError("table data of format %d is malformed" % version)
    return {"format": 3, "seats": d["n"], "rules": d["r"], "tournament": tournament == 1,
            "level": level, "hand_level": hand_level, "hands": d["h"], "players": d["f"],
            "button": last[0], "small_blind": last[1], "small_blind_player": last[2],
            "big_blind": last[3], "dealt": _seats(last[4]), "left": _seats(last[5]),
            "passed": _seats(last[6]), "travel": last[7], "posts": d["q"]}


def _seats(mask):
    """The seats of a format 2 mask."""
    if type(mask) is not int or mask < 0 or mask >> 14 or mask & 1:
        raise ValueError("not a mask of seats: %r" % (mask,))
    return [seat for seat in range(1, 14) if mask >> seat & 1]
