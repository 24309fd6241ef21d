"""The line protocol: framing (limits, overflow, garbage) and every command, one reply line
per command line, JSON with a fixed key order."""
import json

import two_runtimes
from dealerbutton import protocol
from dealerbutton.rules.hand import Hand
from device_rig import Rig


class Echo:
    """A Protocol with a handler that records the lines it gets."""

    def __init__(self):
        self.lines = []
        self.out = []
        self.p = protocol.Protocol(self.handle, self.out.append)

    def handle(self, line):
        self.lines.append(line)
        return "ok got %d" % len(line)


def test_lines_and_crlf():
    e = Echo()
    e.p.feed(b"ping\nstate\r\n\n")
    assert e.lines == ["ping", "state", ""]
    assert e.out == ["ok got 4", "ok got 5", "ok got 0"]


def test_cr_lf_and_crlf_each_end_a_line():
    e = Echo()
    e.p.feed(b"ping\r")                     # a serial terminal's Enter: answered at once
    assert e.out == ["ok got 4"]
    e.p.feed(b"\nstate\rhand\nleds\r\nx\n\r")   # CRLF is one line end; LF CR is two
    assert e.lines == ["ping", "state", "hand", "leds", "x", ""], e.lines
    e.p.feed(b"\r\r\n\n")                  # CR, CRLF, LF: three empty lines
    assert e.lines[6:] == ["", "", ""], e.lines
    e.p.feed(b"a\r")
    e.p.feed(b"\n")                          # a CRLF split across two feeds is still one
    e.p.feed(b"b\n")
    assert e.lines[9:] == ["a", "b"], e.lines


def test_line_split_across_feeds():
    e = Echo()
    for b in b"sit 3":
        e.p.feed(bytes([b]))
    assert e.out == []
    e.p.feed(b"\r")
    assert e.lines == ["sit 3"] and e.out == ["ok got 5"]
    e.p.feed(b"\nx")
    assert e.lines == ["sit 3"] and e.out == ["ok got 5"]


def test_120_bytes_is_the_limit():
    e = Echo()
    e.p.feed(b"a" * 120 + b"\r\n")
    e.p.feed(b"b" * 120 + b"\n")
    assert e.out == ["ok got 120", "ok got 120"]
    e.p.feed(b"c" * 121 + b"\n")
    e.p.feed(b"d" * 5000 + b"\r\n")
    e.p.feed(b"e" * 121 + b"\r\n")
    assert e.out[2:] == ["err overflow line longer than 120 bytes, thrown away"] * 3, e.out
    assert len(e.lines) == 2
    e.p.feed(b"after\n")
    assert e.lines[-1] == "after" and e.out[-1] == "ok got 5"


def test_overflow_is_thrown_away_to_the_end_of_the_line_only():
    e = Echo()
    e.p.feed(b"x" * 200)
    e.p.feed(b"y" * 200 + b"\nping\n")
    assert e.out == ["err overflow line longer than 120 bytes, thrown away", "ok got 4"]


def test_non_printable_bytes():
    e = Echo()
    e.p.feed(b"pi\x00ng\n")
    e.p.feed(b"\xffping\n")
    e.p.feed(b"tab\there\n")
    for c in (3, 4, 1, 2, 0x1B, 0x7F):        # Ctrl-C, Ctrl-D, Ctrl-A, Ctrl-B, ESC, DEL
        e.p.feed(b"ab" + bytes([c]) + b"\r")
    assert e.out == ["err usage non-printable byte 0x00 at column 3",
                     "err usage non-printable byte 0xff at column 1",
                     "err usage non-printable byte 0x09 at column 4",
                     "err usage non-printable byte 0x03 at column 3",
                     "err usage non-printable byte 0x04 at column 3",
                     "err usage non-printable byte 0x01 at column 3",
                     "err usage non-printable byte 0x02 at column 3",
                     "err usage non-printable byte 0x1b at column 3",
                     "err usage non-printable byte 0x7f at column 3"], e.out
    assert e.lines == []


def test_a_crashing_handler_still_gives_one_reply():
    out = []

    def bad(line):
        raise KeyError("boom")
    p = protocol.Protocol(bad, out.append)
    p.feed(b"x\n")
    assert len(out) == 1 and out[0].startswith("err internal KeyError"), out


def lcg(seed):
    state = [seed]

    def nxt():
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return state[0] >> 8
    return nxt


def test_garbage_gets_exactly_one_reply_per_line_and_changes_nothing():
    rig = Rig()
    rig.send("sit 1")
    rig.send("sit 2")
    before = rig.table.to_dict()
    rnd = lcg(7)
    words = [b"sit", b"away", b"deal", b"undo", b"leave", b"press", b"hold", b"9", b"0",
             b"-1", b"x", b"post", b"wait", b"\xff", b"\x00", b" ", b"  ", b"\x03", b"99999"]
    lines = 0
    for _ in range(300):
        n = rnd() % 6
        parts = []
        for _ in range(n):
            if rnd() % 3 == 0:
                part = bytes([rnd() % 256 for _ in range(rnd() % 8)])
                parts.append(part.replace(b"\n", b"").replace(b"\r", b""))  # no line ends
            else:
                parts.append(words[rnd() % len(words)])
        line = b" ".join(parts)
        # never a valid command: put a letter in front of the command word
        line = b"z" + line
        out = []
        rig.take()
        rig.app.feed(line + b"\n")
        out = rig.take()
        replies = [x for x in out if not x.startswith("* ")]
        assert len(replies) == 1, (line, out)
        assert replies[0].startswith("err "), (line, out)
        lines += 1
    assert rig.table.to_dict() == before
    assert lines == 300


def test_ping_version_and_unknown():
    rig = Rig()
    assert rig.send("ping") == ["ok pong"]
    assert rig.send("PING") == ["ok pong"]
    assert rig.send("version") == ["ok 0.1.0"]
    assert rig.send("") == ["ok"]
    assert rig.send("   ") == ["ok"]
    r = rig.send("dance")
    assert len(r) == 1 and r[0].startswith("err unknown command dance"), r


def test_usage_errors():
    rig = Rig()
    for line in ("sit", "sit x", "sit 1 2 3", "sit 1 later", "back 1 post", "choose 1",
                 "choose 1 maybe", "away 1 now", "leave", "ping 1", "deal 1 2", "press",
                 "hold x", "press 1 2", "undo 1", "state x", "deal -1", "sit 1.5",
                 "level 10/20 ante 5 sideways", "level 10/20 5", "level 10"):
        r = rig.send(line)
        assert len(r) == 1 and r[0].startswith("err usage "), (line, r)
    assert rig.send("level 10/20 ante 5 sideways") == [
        "err usage level [SB/BB [ante A [each|bb|button]]]"]


def test_seat_out_of_range():
    rig = Rig()
    assert rig.send("sit 10") == ["err seat seat 10 is not on this table (1..9)"]
    assert rig.send("sit 0") == ["err seat seat 0 is not on this table (1..9)"]
    assert rig.send("press 10") == ["err seat seat 10 is not on this table (0..9)"]
    assert rig.send("deal 12") == ["err seat seat 12 is not on this table (1..9)"]


def test_a_seat_that_is_not_a_number_is_answered_with_the_seats_allowed():
    rig = Rig()
    assert rig.send("sit -1") == ["err usage seat must be 1..9, not -1"]
    assert rig.send("away x") == ["err usage seat must be 1..9, not x"]
    assert rig.send("deal 1.5") == ["err usage seat must be 1..9, not 1.5"]
    assert rig.send("press -1") == ["err usage seat must be 0..9 (0: next-hand button), not -1"]
    assert Rig({"seats": 4}).send("sit one") == ["err usage seat must be 1..4, not one"]


def test_table_events_and_their_events():
    rig = Rig()
    assert rig.send("sit 1") == ["* seat 1 active", "ok"]
    assert rig.send("sit 1")[0].startswith("err rule seat 1 is taken")
    assert rig.send("sit 4 post") == ["* seat 4 active", "ok"]
    assert rig.send("away 2")[0].startswith("err rule seat 2 is empty")
    assert rig.send("sit 6") == ["* seat 6 active", "ok"]
    r = rig.send("deal 4")
    assert r[0] == r[1].replace("ok ", "* hand ", 1), r
    h = json.loads(r[1][3:])
    assert h["button"] == 4 and h["n"] == 1
    assert rig.send("away 6") == ["* seat 6 away", "ok"]
    assert rig.send("back 6 wait")[-1] == "ok"
    assert rig.send("leave 1") == ["* seat 1 empty", "ok"]
    assert rig.send("undo") == ["* undo leave 1", "* seat 1 active", "ok"]
    assert rig.send("sit 8") == ["* seat 8 waiting", "ok"]
    assert rig.send("choose 8 post") == ["ok"]
    assert rig.table.choice(8) == "post"
    assert rig.send("choose 8 post")[0].startswith("err rule seat 8 already chose")


def test_undo_with_nothing_to_undo():
    rig = Rig()
    assert rig.send("undo") == ["err rule nothing to undo"]


def test_undo_says_what_it_undid():
    rig = Rig({"seats": 6})
    for line in ("sit 1", "sit 2", "sit 3 post", "deal 2", "sit 5 wait", "away 1", "back 1",
                 "choose 5 post", "deal"):
        assert rig.send(line)[-1].startswith("ok"), line
    undone = []
    while True:
        lines = rig.send("undo")
        if lines[-1] != "ok":
            break
        assert lines[0].startswith("* undo "), lines
        undone.append(lines[0][7:])
    assert lines == ["err rule nothing to undo"]
    assert undone == ["deal (hand 2)", "choose 5 post", "back 1", "away 1", "sit 5 wait",
                      "deal 2 (hand 1)", "sit 3 post", "sit 2", "sit 1"], undone
    assert rig.table.hands == 0


def test_undo_history_is_as_deep_as_the_tables():
    rig = Rig({"seats": 2})
    for i in range(60):
        rig.send("sit 1" if i % 2 == 0 else "leave 1")
    undone = []
    while rig.send("undo")[-1] == "ok":
        undone.append(1)
    assert len(undone) == 40      # the table's undo depth: no event named that it did not undo


def test_sit_wait_is_accepted():
    rig = Rig()
    rig.send("sit 1")
    rig.send("sit 2")
    rig.send("deal 1")
    assert rig.send("sit 3 wait") == ["* seat 3 waiting", "ok"]
    assert rig.table.choice(3) == "wait"
    assert rig.send("sit 4 post") == ["* seat 4 waiting", "ok"]
    assert rig.table.choice(4) == "post"
    assert rig.send("sit 5 later") == ["err usage sit N [post|wait]"]


def test_presses_refused_by_a_rule_answer_err_rule():
    rig = Rig()
    rig.send("sit 1")
    rig.send("sit 2")
    assert rig.send("hold 5") == ["err rule seat 5 is empty: nobody to leave"]
    assert rig.send("press 0") == ["ok draw"]
    assert rig.send("press 5") == ["err rule seat 5 is empty: the button goes to a seated player"]
    assert rig.send("press 10")[0].startswith("err seat seat 10 is not on this table")


def test_hand_json():
    rig = Rig()
    assert rig.send("hand") == ["err nohand no hand has been dealt yet"]
    for s in (1, 3, 5, 7):
        rig.send("sit %d" % s)
    rig.send("deal 7")
    r = rig.reply("hand")
    assert r == ('ok {"n":1,"button":7,"sb":1,"bb":3,"dealt":[1,3,5,7],'
                 '"posts":{"1":[10,0],"3":[20,0]},"first_to_act":5}'), r


def test_hand_json_heads_up_and_null_sb():
    h = Hand(3, 2, None, 5, (5, 6, 2), {6: (20, 10), 5: (20, 0)}, 6, (10, 20, 0, "each"))
    assert protocol.hand_json(h) == (
        '{"n":3,"button":2,"sb":null,"bb":5,"dealt":[5,6,2],'
        '"posts":{"5":[20,0],"6":[20,10]},"first_to_act":6}')


def test_hand_json_names_the_kill_and_button_blind_seats_after_the_rest():
    h = Hand(7, 2, 3, 4, (3, 4, 1, 2), {3: (10, 0), 4: (20, 0), 1: (40, 0), 2: (20, 0)}, 2,
             (10, 20, 0, "button"), kill=1, button_blind=2)
    assert protocol.hand_json(h) == (
        '{"n":7,"button":2,"sb":3,"bb":4,"dealt":[3,4,1,2],'
        '"posts":{"3":[10,0],"4":[20,0],"1":[40,0],"2":[20,0]},"first_to_act":2,'
        '"kill":1,"button_blind":2}')


def test_state_json():
    rig = Rig({"seats": 3, "stakes": [5, 10], "rules": "simple"})
    rig.send("sit 2")
    r = rig.reply("state")
    assert r == ('ok {"rules":"simple","stakes":[5,10],"hands":0,"seats":['
                 '{"seat":1,"status":"empty","owes":[0,0]},'
                 '{"seat":2,"status":"active","owes":[0,0]},'
                 '{"seat":3,"status":"empty","owes":[0,0]}]}'), r
    json.loads(r[3:])
    # A waiting player's choice is there too.
    rig.send("sit 1")
    rig.send("sit 3")
    rig.send("deal 1")
    rig.send("leave 1")
    rig.send("sit 1 post")  # the next BB lands on the first button's seat: a BB (M6)
    r = rig.reply("state")
    assert '{"seat":1,"status":"waiting","owes":[10,0],"choice":"post"}' in r, r
    rig.send("choose 1 wait")
    r = rig.reply("state")
    assert '{"seat":1,"status":"waiting","owes":[10,0],"choice":"wait"}' in r, r
    json.loads(r[3:])


def test_press_and_hold_commands_run_the_button_mapping():
    rig = Rig()
    assert rig.send("press 2") == ["* seat 2 active", "ok sit"]
    assert rig.send("press 3") == ["* seat 3 active", "ok sit"]
    assert rig.send("press 0") == ["ok draw"]
    lines = rig.send("press 3")
    assert lines[-1] == "ok button" and lines[0].startswith('* hand {"n":1,"button":3,')
    assert rig.send("press 2") == ["* seat 2 away", "ok away"]
    assert rig.send("hold 0") == ["* undo away 2", "* seat 2 active", "ok undo"]
    assert rig.send("hold 4") == ["err rule seat 4 is empty: nobody to leave"]
    assert rig.send("hold 3") == ["* seat 3 empty", "ok leave"]
    lines = rig.send("press 0")
    assert lines[-1].startswith("err rule cannot deal"), lines


def test_leds_reports_the_last_frame():
    rig = Rig()
    r = rig.reply("leds")
    assert r == "ok " + " ".join(["000000"] * 24), r
    rig.send("sit 1")
    r = rig.reply("leds")
    colours = r[3:].split(" ")
    assert len(colours) == 24
    assert colours[0] != "000000" and colours[4] == "000000", colours
    assert colours == [rig.strip.colour(i) for i in range(24)]


def test_config_command():
    rig = Rig({"seats": 4, "palette": {"bb": "ff8800"}})
    r = rig.reply("config")
    assert r.startswith('ok {"seats":4,"leds":24,"pins":{"led":16,"next":15,"seats":[2,3,4,'), r
    assert json.loads(r[3:])["palette"] == {"bb": "ff8800"}


if __name__ == "__main__":
    two_runtimes.run_all(globals())
