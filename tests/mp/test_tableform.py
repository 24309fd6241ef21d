"""The saved table across firmware updates: state files of format 3, as the firmware before
format 4 wrote them (tests/data/format3, made by made_by.py there), read back into the same
tables: each seat's status, debt and choice, the last hand and the next three hands as that
firmware dealt them; saved again in format 4 as made_by.py worked it out from format 3's
bytes. On CPython and MicroPython alike."""
import json

import mptest
from dealerbutton.rules import Table
from rules_scenario import refuses_every_table_data


def _folder():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/../data/format3"


def _expected():
    with open(_folder() + "/expected.json") as f:
        return json.load(f)


def _saved(name):
    with open(_folder() + "/" + name + ".json") as f:
        return json.load(f)


def _hand(h):
    """A hand as expected.json keeps it (made_by.py's hand())."""
    return [h.n, h.button, h.sb or 0, h.bb, list(h.dealt),
            [[s, h.posts[s][0], h.posts[s][1]] for s in sorted(h.posts)], h.first_to_act,
            list(h.level)]


def _seats(t):
    return [[t.status(s), list(t.owes(s)), t.choice(s)] for s in range(1, t.seats + 1)]


def _deal_three(t):
    hands = []
    for _ in range(3):
        hands.append(_hand(t.deal(button=1) if t.hands == 0 else t.deal()))
    return hands


def test_format_3_tables_come_back_as_that_firmware_left_them():
    expected = _expected()
    assert len(expected) == 9
    for name in sorted(expected):
        want = expected[name]
        d = _saved(name)
        assert d["format"] == 3, name
        t = Table.from_dict(d)
        assert t.hands == want["hands"], name
        assert _seats(t) == want["seats"], (name, _seats(t))
        assert (_hand(t.hand) if t.hand else None) == want["hand"], name
        words = t.to_dict()
        assert words == want["format4"], (name, words)
        assert Table.from_dict(json.loads(json.dumps(words))).to_dict() == words, name
        assert _deal_three(t) == want["next"], name
        print(name, "ok")


def test_damaged_format_3_data_is_refused():
    # Each a format 3 table that no firmware wrote: a player's byte wrong, a post of no seat
    # or twice the same, flags on an empty seat.
    good = _saved("dead-away-and-waiting-9seats")
    assert Table.from_dict(good).hands == 9
    bad = []
    for k, v in (("players", [1, 2]), ("players", [300] * 9), ("players", [1.0] * 9),
                 ("players", [1, 1, 1, 1, 55, 4, 129, 11, 15]),    # waits for the BB: nobody
                 ("players", [1, 1, 1, 1, 55, 128, 129, 11, 15]),  # paid the BB: nobody
                 ("posts", [100, 120, 57, 57]), ("posts", [100, 120, 9]), ("posts", [12]),
                 ("posts", [100, 124]), ("posts", [100, 120, -1]), ("posts", [100, "120"]),
                 ("posts", [100, 120, 61]), ("posts", [100, 120, 88])):  # 88: seat 5, held out
        d = dict(good)
        d[k] = v
        bad.append(d)
    for k in ("players", "posts"):
        d = dict(good)
        del d[k]
        bad.append(d)
    refuses_every_table_data(bad)


if __name__ == "__main__":
    mptest.run_all(globals())
