"""The table as earlier firmware saved it (Table.to_dict), turned into today's form (format
3, in words) for Table.from_dict: a table saved before an update comes back after it.

Format 2 had one-letter keys: n seats, r rules, t tournament (0/1), k level, l the last
hand's level, h hands, f the players' flag bytes, p [button, small blind's seat, the player
who posted it, big blind, dealt, left, passed (masks of seats), travel], q posts. Format 1
(before tournaments) had no t and no l, and a level of two blinds."""


def upgrade(d):
    """Format 1 or 2 data as format 3. ValueError, KeyError, TypeError or IndexError for
    data that is neither (from_dict refuses it)."""
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
        raise ValueError("table data format %r is not 1, 2 or 3" % (version,))
    last = d["p"]
    if len(last) != 8 or tournament not in (0, 1) or type(tournament) is not int:
        raise ValueError("table data of format %d is malformed" % version)
    return {"format": 3, "seats": d["n"], "rules": d["r"], "tournament": tournament == 1,
            "level": level, "hand_level": hand_level, "hands": d["h"], "players": d["f"],
            "button": last[0], "small_blind": last[1], "small_blind_player": last[2],
            "big_blind": last[3], "dealt": _seats(last[4]), "left": _seats(last[5]),
            "passed": _seats(last[6]), "travel": last[7], "posts": d["q"]}


def _seats(mask):
    if type(mask) is not int or mask < 0 or mask >> 14 or mask & 1:
        raise ValueError("not a mask of seats: %r" % (mask,))
    return [seat for seat in range(1, 14) if mask >> seat & 1]
