"""How the format 3 files here were made: tables played with the firmware of commit 937e7c0
(the last one whose rules core kept each seat's player as one byte of flags, and the posts
as bytes), each saved with Table.to_dict() as the store writes it (store.dumps), and what
that firmware then said of each table, in expected.json: every seat's status, debt and
choice, the last hand and the next three hands it dealt.

Run with that firmware on the path:
    git worktree add /tmp/f3 937e7c0
    PYTHONPATH=/tmp/f3/firmware python tests/support/data/format3/made_by.py
"""

import os
import sys

from dealerbutton import store
from dealerbutton.rules import FORMAT, Table

FOLDER = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(FOLDER, "..", ".."))
from rules_scenario import play  # noqa: E402  (the tests' own player of events)

assert FORMAT == 3, "this is the firmware of format %d, not 3" % FORMAT

# name: (seats, rules, stakes, tournament, events). Events as tests/support/rules_scenario.play
# plays them.
TABLES = {
    # Dead button, nine seats: two players away long enough to owe both blinds, one back
    # and waiting to post them, one back waiting for the big blind, two new players (one
    # posts, one waits), a player dealt into the last hand who has left since.
    "dead-away-and-waiting-9seats": (
        9, "dead", (10, 20), False,
        "sit 1; sit 2; sit 3; sit 4; sit 5; sit 6; sit 7; deal 7; away 3; deal; away 5; deal;"
        " deal; deal; deal; deal; deal; back 3; back 5 wait; deal; sit 8 post; sit 9;"
        " leave 6"),
    # Dead button: the last hand had a player back from away post a missed small blind
    # alone (dead).
    "dead-dead-small-blind-9seats": (
        9, "dead", (5, 10), False,
        "sit 1; sit 2; sit 3; sit 4; sit 5; sit 6; sit 8; sit 9; deal 2; away 4; deal; back 4;"
        " leave 3; deal; deal"),
    # Moving button, ten seats: players left after the hand, so the next one made blinds
    # up; a player who paid the big blind, one away with a missed small blind, a new one
    # waiting to post.
    "moving-made-up-10seats": (
        10, "moving", (5, 10), False,
        "sit 1; sit 2; sit 3; sit 4; sit 5; sit 6; sit 7; sit 8; deal 8; deal; deal; leave 3;"
        " leave 4; deal; away 7; deal; sit 4 post"),
    # Moving button: a player carries a made-up small blind to the next hand (he paid a
    # big blind in the last one), no small blind was posted live.
    "moving-carried-small-blind-9seats": (
        9, "moving", (5, 10), False,
        "sit 1; sit 2; sit 3; sit 4; sit 7; sit 8; deal 4; deal; sit 6 post; deal; leave 1;"
        " deal"),
    # Simple rules, six seats, in the first orbit: a new player dealt in free (S2) is still
    # to come, another posts, one back from away owes the big blind.
    "simple-first-orbit-6seats": (
        6, "simple", (25, 50), False,
        "sit 1; sit 2; sit 3; sit 5; deal 1; away 5; deal; back 5; sit 4; sit 6 post"),
    # Simple rules: a player back from away who missed the small blind only; two players
    # dealt into the last hand have left since.
    "simple-missed-small-blind-9seats": (
        9, "simple", (5, 10), False,
        "sit 1; sit 2; sit 3; sit 4; sit 6; sit 7; sit 8; sit 9; deal 2; leave 9; deal;"
        " away 6; deal; leave 3; leave 2; back 6"),
    # A tournament table at its third level (antes from the big blind) with the last hand
    # at the second: a newcomer in his first hand's wait, a player away.
    "tournament-8seats": (
        8, "dead", (100, 200), True,
        "sit 1; sit 2; sit 3; sit 4; sit 5; sit 6; deal 2; level 200 400 50 bb; deal; away 4;"
        " deal; deal; level 300 600 75 bb; sit 8"),
    # Heads-up after a new game: two players left, antes from each player.
    "headsup-4seats": (
        4, "dead", (10, 20), False,
        "sit 1; sit 2; sit 3; deal 1; level 10 20 5 each; deal; leave 3; deal; deal"),
    # Before the first hand: players seated, one away, no hand yet.
    "first-hand-12seats": (
        12, "moving", (1000, 2000), False, "sit 1; sit 4; sit 7; sit 12; away 7"),
}


def hand(h):
    """A hand as the lists expected.json keeps: n, button, sb (0: none), bb, the seats dealt
    in, the posts [[seat, live, dead], ...] by seat, first to act, the level."""
    return [h.n, h.button, h.sb or 0, h.bb, list(h.dealt),
            [[s, h.posts[s][0], h.posts[s][1]] for s in sorted(h.posts)], h.first_to_act,
            list(h.level)]


def seats(t):
    return [[t.status(s), list(t.owes(s)), t.choice(s)] for s in range(1, t.seats + 1)]


def main():
    expected = {}
    for name in sorted(TABLES):
        n, rules, stakes, tournament, events = TABLES[name]
        t = Table(n, rules, stakes, tournament)
        play(t, events)
        saved = t.to_dict()
        with open(os.path.join(FOLDER, name + ".json"), "w") as f:
            f.write(store.dumps(saved) + "\n")
        want = {"hands": t.hands, "seats": seats(t),
                "hand": hand(t.hand) if t.hand else None, "next": []}
        for _ in range(3):
            first = t.hands == 0
            h = t.deal(button=1) if first else t.deal()
            want["next"].append(hand(h))
        expected[name] = want
    # One line a table's key, the values compact.
    lines = []
    for name in sorted(expected):
        keys = sorted(expected[name])
        lines.append(' "%s": {\n%s\n }' % (name, ",\n".join(
            '  "%s": %s' % (k, store.dumps(expected[name][k])) for k in keys)))
    with open(os.path.join(FOLDER, "expected.json"), "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main()
