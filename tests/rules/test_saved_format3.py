"""The saved table across firmware updates: state files of format 3 as the firmware wrote
them when its rules core kept each player as one byte of flags (tests/support/data/format3, made by
made_by.py there), read back into the same tables: each seat's status, debt and choice, the
last hand and the next three hands as that firmware dealt them, and saved back byte for
byte. On CPython and MicroPython alike."""
import json

import two_runtimes
from dealerbutton.rules import Table


def _folder():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/../support/data/format3"


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
        assert words["format"] == 4, name
        again = Table.from_dict(json.loads(json.dumps(words)))
        assert again.to_dict() == words and _seats(again) == want["seats"], name
        assert _deal_three(t) == want["next"], name
        assert _deal_three(again) == want["next"], name
        print(name, "ok")


def test_posts_that_would_not_save_back_the_same_are_refused():
    d = _saved("dead-away-and-waiting-9seats")
    assert len(d["posts"]) == 3
    for posts in (d["posts"][::-1], d["posts"] + d["posts"][:1]):
        bad = dict(d)
        bad["posts"] = posts
        try:
            Table.from_dict(bad)
        except ValueError as exc:
            assert str(exc) == "table data is inconsistent", exc
        else:
            raise AssertionError("accepted: %r" % (posts,))


if __name__ == "__main__":
    two_runtimes.run_all(globals())
