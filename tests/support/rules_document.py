"""Replays a worked example of firmware/dealerbutton/rules/RULES.md, on either runtime
(tests/support/docexamples/rulestables.py gives it the examples Sybil finds).

An example is a fenced block whose info string is ``table``. Its first line sets the
table up (``dead, 5 seats, 10/20``, or ``dead tournament, 9 seats, 10/20``); every other
line is an event, in the words of the device's commands, or a question, and the indented
lines after it are what it must give:

    sit 1 2 3 4 5           players sit down (``sit 6 post``: a newcomer who posts)
    away 4 5 / leave 1 2    one or more players step away, or leave
    back 4 / back 4 wait / choose 4 post / choose 4 wait / undo
    move 5 9 / take 6       a player moves to an empty seat; a new player takes over
    kill 5 / kill 5 half    a kill blind marked on a player for the next deal
    deal 1                  the first hand, with the seat that won the draw for the button
    deal                    every later hand: prints the hand (with a kill: who posted it
                            and who acts first)
      hand 2: button 2, SB 3, BB 5; dealt 3 5 1 2; posts 3: 10, 5: 20
    seat 4                  a seat: its player's status (and choice), the deals left in a
                            mover's wait, and what he owes
      seat 4: away, owes 20 + 10 dead
    level 25/50 ante 5      the level from the next deal on (``ante 100 bb``: a big-blind
                            ante, ``ante 5 button``: a dealer ante); ``level`` alone: the
                            level in force
      level: 25/50 ante 5

The first line may name more of the table after the stakes: ``button blind 10`` (F2),
``one per hand`` (make-ups one a hand, F4).

``dealt`` lists the seats dealt in clockwise from the one after the button (so the last
one acts last after the flop); the posts are live chips, then dead ones. A refused event
prints ``refused: <the message>``. Text after ``#`` on an event line is a comment.
"""

from dealerbutton.rules import RuleError, Table


def amount(live, dead):
    if live and dead:
        return "%d + %d dead" % (live, dead)
    if dead:
        return "%d dead" % dead
    return "%d" % live


def hand_line(h):
    posts = []
    for s in h.dealt:
        if s in h.posts:
            posts.append("%d: %s" % (s, amount(h.posts[s][0], h.posts[s][1])))
    line = "hand %d: button %d, %s, BB %d; dealt %s; posts %s" % (
        h.n, h.button, "no SB" if h.sb is None else "SB %d" % h.sb, h.bb,
        " ".join([str(s) for s in h.dealt]), ", ".join(posts))
    if h.kill:
        line += "; kill %d, first to act %d" % (h.kill, h.first_to_act)
    return line


def seat_line(t, s):
    status = t.status(s)
    if status == "empty":
        return "seat %d: empty" % s
    if status == "waiting" and t.choice(s) is not None:
        status = "waiting (%s)" % t.choice(s)
    if t.mover_wait(s):
        status += ", %d deal%s to wait" % (t.mover_wait(s), "s" if t.mover_wait(s) > 1 else "")
    live, dead = t.owes(s)
    return "seat %d: %s, owes %s" % (s, status, amount(live, dead) if live or dead
                                     else "nothing")


def level_line(t):
    small, big, ante, kind = t.level
    text = "level: %d/%d" % (small, big)
    if ante:
        text += " ante %d" % ante + ("" if kind == "each" else " " + kind)
    return text


def setup(line):
    """'dead, 5 seats, 10/20' (or 'dead tournament, ...', and options after the stakes:
    'button blind 10', 'one per hand') -> Table."""
    parts = [p.strip() for p in line.split(",")]
    if len(parts) < 3 or not parts[1].endswith(" seats"):
        raise ValueError("first line must read like 'dead, 5 seats, 10/20': %r" % line)
    small, big = parts[2].split("/")
    kind = parts[0].split()
    button_blind = 0
    makeup = "together"
    for option in parts[3:]:
        if option.startswith("button blind "):
            button_blind = int(option.split()[2])
        elif option == "one per hand":
            makeup = "one_per_hand"
        else:
            raise ValueError("unknown table option %r" % option)
    return Table(int(parts[1].split()[0]), kind[0], (int(small), int(big)),
                 tournament=kind[1:] == ["tournament"], button_blind=button_blind,
                 makeup=makeup)


def set_level(t, args):
    """'25/50', '25/50 ante 5', '50/100 ante 100 bb'"""
    small, big = args[0].split("/")
    ante = int(args[2]) if len(args) > 2 else 0
    t.set_level(int(small), int(big), ante, args[3] if len(args) > 3 else "each")


def event(t, words):
    """One event or question; returns what it prints (a list of lines)."""
    name = words[0]
    args = words[1:]
    if name == "seat":
        return [seat_line(t, int(a)) for a in args]
    if name == "level" and not args:
        return [level_line(t)]
    try:
        if name == "sit":
            post = args[-1] == "post"
            for a in args[:len(args) - 1] if post else args:
                t.sit(int(a), post=post)
        elif name == "away":
            for a in args:
                t.away(int(a))
        elif name == "back":
            t.back(int(args[0]), wait=args[1:] == ["wait"])
        elif name == "leave":
            for a in args:
                t.leave(int(a))
        elif name == "choose":
            t.choose(int(args[0]), args[1])
        elif name == "move":
            t.move(int(args[0]), int(args[1]))
        elif name == "take":
            t.take(int(args[0]))
        elif name == "kill":
            t.kill(int(args[0]), half=args[1:] == ["half"])
        elif name == "undo":
            t.undo()
        elif name == "level":
            set_level(t, args)
        elif name == "deal":
            return [hand_line(t.deal(button=int(args[0])) if args else t.deal())]
        else:
            raise ValueError("unknown event %r" % name)
    except RuleError as e:
        return ["refused: %s" % e]
    return []


def run(lines):
    """Replay an example; returns its lines with every indented line recomputed, so the
    result equals the lines exactly when the example is right."""
    out = [lines[0]]
    t = setup(lines[0])
    for line in lines[1:]:
        if line.startswith(" "):
            continue  # an expected answer: recomputed below
        out.append(line)
        words = line.split("#")[0].split()
        if words:
            for answer in event(t, words):
                out.append("  " + answer)
    return out
