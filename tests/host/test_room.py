"""The room view's model: what tables publish, what is refused, the summary, the
tournament balancing, the terminal's text; and `dealerbutton room --terminal --once`
against a real Mosquitto holding retained states."""

import json
import logging
import os
import subprocess
import sys

import pytest
from dealerbutton_host.room import model, view
from dealerbutton_host.room.bridge import TableBridge
from dealerbutton_host.sim.table import SimTable
from mqtt_rig import MOSQUITTO, Mosquitto, Recorder

GLYPHS = {"active": "#", "away": "a", "waiting": "w", "empty": "."}


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def table_state(seated, seats=9, name="1", clock=None, deal=True, away=()):
    """A state as a bridge publishes it, from a real firmware table."""
    out = []
    tb = TableBridge("club", name, lambda sub, p, r: out.append((sub, p)))
    t = SimTable(seats, on_event=tb.event)
    for s in seated:
        t.send("sit %d" % s)
    if deal:
        t.send("deal %d" % seated[0])
    for s in away:
        t.send("away %d" % s)
    send = t.send
    if clock:
        def send(line):
            return "ok " + json.dumps(clock) if line == "clock" else t.send(line)
    tb.attach(send)
    return [p for sub, p in out if sub == "state"][-1]


def model_with(*tables):
    clock = Clock()
    m = model.RoomModel("club", now=clock)
    for name, state, online in tables:
        if state is not None:
            m.handle("dealerbutton/club/%s/state" % name, state.encode())
        m.handle("dealerbutton/club/%s/online" % name, online.encode())
    return m, clock


def test_summary_counts_seats():
    m, _ = model_with(("2", table_state([1, 2, 3, 5], away=[5]), "1"),
                      ("10", table_state([1, 2], seats=6, deal=False), "0"),
                      ("1", None, "1"))
    s = m.summary()
    assert [t["name"] for t in s["tables"]] == ["1", "2", "10"]  # natural order
    t1, t2, t10 = s["tables"]
    assert t1["state"] is False and t1["online"] is True
    assert (t2["players"], t2["open"], t2["away"], t2["waiting"]) == (4, 5, 1, 0)
    assert t2["button"] == 1 and t2["bb"] == 3 and t2["next_bb"] == 5
    assert t10["online"] is False and t10["open"] == 4
    assert s["players"] == 6 and s["open"] == 5  # open seats of tables online only
    assert "tournament" not in s


def test_waiting_players_and_their_post():
    state = json.loads(table_state([1, 2, 3]))
    state["seats"][4] = {"seat": 5, "status": "waiting", "owes": [20, 0], "choice": "post"}
    state["seats"][5] = {"seat": 6, "status": "waiting", "owes": [20, 0], "choice": "wait"}
    m, _ = model_with(("1", json.dumps(state), "1"))
    t = m.summary()["tables"][0]
    assert t["waiting"] == 2
    assert [s["post"] for s in t["seats"]][4:6] == [True, False]


def test_a_mover_in_his_wait_and_a_kill_hand_reach_the_room():
    state = json.loads(table_state([1, 2, 3]))
    state["seats"][5] = {"seat": 6, "status": "waiting", "owes": [20, 0], "choice": "wait",
                         "wait": 2}
    state["seats"][1]["kill"] = "full"
    state["hand"]["kill"] = 2
    m, _ = model_with(("1", json.dumps(state), "1"))
    t = m.summary()["tables"][0]
    assert t["moved"] == 1 and t["kill"] == 2
    assert t["seats"][5]["wait"] == 2 and t["seats"][1]["kill"] == "full"


def test_the_clock_counts_down_between_messages():
    clock = {"level": 3, "sb": 50, "bb": 100, "ante": 100, "ms_left": 90000, "running": True}
    m, now = model_with(("1", table_state([1, 2, 3], clock=clock), "1"))
    now.t += 30
    c = m.summary()["tables"][0]["clock"]
    assert (c["level"], c["ms_left"], c["running"]) == (3, 60000, True)
    paused = dict(clock, running=False)
    m.handle("dealerbutton/club/1/state", table_state([1, 2, 3], clock=paused).encode())
    now.t += 30
    assert m.summary()["tables"][0]["clock"]["ms_left"] == 90000
    lines = view.render_text(m.summary(), GLYPHS)
    assert "L3 50/100 ante 100 1:30 paused" in lines[3]


def test_the_room_clock_is_the_latest_state_of_an_online_table():
    """The room's clock is the clock of the online table whose state came last: a level moved
    by hand at one table is the room's at once; an offline table's clock is not taken."""
    def clock(level):
        return {"level": level, "sb": 50, "bb": 100, "ante": 0, "ms_left": 600000,
                "running": True}

    m, _ = model_with(("1", table_state([1, 2, 3], clock=clock(3), name="1"), "1"),
                      ("2", table_state([1, 2, 3], clock=clock(3), name="2"), "1"),
                      ("cash", table_state([1, 2]), "1"))
    assert (m.summary()["clock"]["table"], m.summary()["clock"]["level"]) == ("2", 3)
    m.handle("dealerbutton/club/1/state",
             table_state([1, 2, 3], clock=clock(4), name="1").encode())
    c = m.summary()["clock"]
    assert (c["table"], c["level"], c["sb"], c["bb"], c["ms_left"]) == ("1", 4, 50, 100, 600000)
    m.handle("dealerbutton/club/1/online", b"0")
    assert m.summary()["clock"]["table"] == "2"
    m.handle("dealerbutton/club/cash/state", table_state([1, 2, 3]).encode())
    assert m.summary()["clock"]["table"] == "2"  # a table without a clock is never the room's
    m.handle("dealerbutton/club/2/online", b"0")
    assert m.summary()["clock"] is None


def test_what_comes_next_reaches_the_room_as_the_device_says_it():
    base = {"level": 3, "sb": 50, "bb": 100, "ante": 100, "ms_left": 1000, "running": True}
    for nxt, shown in [({"level": 4, "sb": 75, "bb": 150, "ante": 150, "minutes": 20},
                        {"level": 4, "sb": 75, "bb": 150, "ante": 150, "minutes": 20}),
                       ({"break": 10}, {"break": 10}),
                       (None, None),
                       ({"level": "<b>4</b>", "sb": 75, "bb": 150}, None),
                       ("soon", None)]:
        c = model.clock_summary(dict(base, next=nxt), 0)
        assert c["next"] == shown, nxt
    assert "next" not in model.clock_summary(base, 0)  # a device that does not say
    assert model.clock_summary(dict(base, ante_kind="bb"), 0)["ante_kind"] == "bb"
    assert "ante_kind" not in model.clock_summary(dict(base, ante_kind="<i>"), 0)


def sizes(*players, seats=9):
    """Tournament tables with these many players (seats 1.. taken, button on 1)."""
    out = []
    for i, n in enumerate(players, 1):
        st = json.loads(table_state(list(range(1, n + 1)), seats=seats, name=str(i))) \
            if n >= 2 else None
        if st is None:
            st = {"seats": [{"seat": s, "status": "active" if s <= n else "empty",
                             "owes": [0, 0]} for s in range(1, seats + 1)], "hand": None}
        st["tournament"] = True
        out.append(model.table_summary(str(i), st, True, 0, []))
    return out


def test_balanced_tables_need_no_move():
    b = model.balance(sizes(9, 8, 8))
    assert b["moves"] == [] and b["break"] is None and b["players"] == 25


def test_the_longest_gives_its_next_big_blind_to_the_shortest():
    b = model.balance(sizes(9, 9, 6))
    # hand 1 had the button on 1, blinds 2 and 3: seat 4 is the next big blind
    assert b["moves"] == [{"from": "1", "to": "3", "seat": 4},
                          {"from": "2", "to": "3", "seat": 4}]
    assert b["break"] is None


def test_a_table_breaks_when_the_players_fit_at_one_fewer():
    b = model.balance(sizes(8, 7, 3))  # 18 players fit at two tables of nine
    assert b["break"] == "3"
    moves = b["moves"]
    assert [m["to"] for m in moves] == ["2", "1", "2"]
    assert all(m["from"] == "3" for m in moves)
    assert [m["seat"] for m in moves] == [1, 2, 3]  # from hand 1's next big blind on (seat 1)
    assert [m["to"] for m in moves].count("1") == 1  # 8 + 1 and 7 + 2: nine at each


def test_balancing_never_overfills_a_table():
    nine, six, five = sizes(9)[0], sizes(6, seats=6)[0], sizes(5)[0]
    nine["name"], six["name"], five["name"] = "A", "B", "C"
    b = model.balance([nine, six, five])
    # B is full (6 of 6): it gets nobody however short it is of A
    assert b["moves"] == [{"from": "A", "to": "C", "seat": 4},
                          {"from": "A", "to": "C", "seat": 5}]


def test_a_tournament_in_the_summary_and_the_terminal():
    clock = {"level": 4, "sb": 100, "bb": 200, "ante": 200, "ms_left": 754000, "running": True}
    m, _ = model_with(("1", table_state(list(range(1, 10)), clock=clock, name="1"), "1"),
                      ("2", table_state(list(range(1, 9)), clock=clock, name="2"), "1"),
                      ("3", table_state([1, 2, 3], seats=6, clock=clock, name="3"), "1"),
                      ("cash", table_state([1, 2]), "1"))
    s = m.summary()
    assert [x["name"] for x in s["tournament"]["sizes"]] == ["1", "2", "3"]
    text = "\n".join(view.render_text(s, GLYPHS))
    assert "Tournament: 20 players at 3 tables (1:9 2:8 3:3)" in text
    assert "move seat 4 from table 1 to table 3" in text
    assert "T1       [#] #  #  #  #  #  #  #  #   0 open, -- hands/h, 10/20, " \
           "L4 100/200 ante 200 12:34" in text


HOSTILE = [
    ("dealerbutton/club/1/state", b"{not json", "not JSON"),
    ("dealerbutton/club/1/state", b"[]", "not a JSON object"),
    ("dealerbutton/club/1/state", b'{"seats": 5}', "no list of 2..12 seats"),
    ("dealerbutton/club/1/state",
     b'{"seats":[{"seat":1,"status":"active"},{"seat":2,"status":"<script>"}]}', "seat 2"),
    ("dealerbutton/club/1/state",
     b'{"seats":[{"seat":1,"status":"active"},{"seat":2,"status":"empty"}],"hands":-1}',
     "hands is not a count"),
    ("dealerbutton/club/1/state",
     b'{"seats":[{"seat":1,"status":"active"},{"seat":2,"status":"empty"}],"hand":{"button":99}}',
     "hand is not a hand"),
    ("dealerbutton/club/1/state", b"\xff\xfe", "not UTF-8"),
    ("dealerbutton/club/1/state", b"{" + b" " * 20000 + b"}", "more than a table sends"),
    ("dealerbutton/club/1/online", b"yes", "online is 1 or 0"),
    ("dealerbutton/club/1/event", b"rm -rf /", "not an event line"),
    ("dealerbutton/club/1/event", b"* seat 1 \x1b[2J", "not an event line"),
    ("dealerbutton/club/a b/state", b"{}", "not a table name"),
    ("dealerbutton/club/1/x/state", b"{}", "not a table topic"),
    ("dealerbutton/other/1/state", b"{}", "not this room"),
]


def test_hostile_messages_are_refused_logged_and_change_nothing(caplog):
    m, _ = model_with(("1", table_state([1, 2, 3]), "1"))
    before = m.summary()
    with caplog.at_level(logging.WARNING, logger="dealerbutton.room"):
        for topic, payload, _ in HOSTILE:
            m.handle(topic, payload)
    assert m.summary() == before
    assert m.refused == len(HOSTILE)
    messages = [r.getMessage() for r in caplog.records]
    for (_, _, why), msg in zip(HOSTILE, messages, strict=True):
        assert why in msg and "\n" not in msg


def test_an_emptied_retained_state_removes_the_table():
    m, _ = model_with(("1", table_state([1, 2, 3]), "1"), ("2", table_state([1, 2]), "1"))
    m.handle("dealerbutton/club/1/state", b"")
    assert [t["name"] for t in m.summary()["tables"]] == ["2"]


def test_no_more_than_a_thousand_tables(caplog):
    m = model.RoomModel("club")
    with caplog.at_level(logging.WARNING, logger="dealerbutton.room"):
        for i in range(model.MAX_TABLES + 5):
            m.handle("dealerbutton/club/t%d/online" % i, b"1")
    assert len(m.tables) == model.MAX_TABLES and m.refused == 5


@pytest.mark.skipif(not os.path.exists(MOSQUITTO) and not os.environ.get("CI"),
                                reason="mosquitto not installed (under CI: a failure)")
def test_room_command_sees_every_table_from_retained_state(tmp_path):
    broker = Mosquitto(tmp_path / "broker")
    rec = Recorder(broker)
    try:
        for name, seated in (("1", [1, 2, 3, 4]), ("2", [2, 5]), ("3", [1, 2, 3])):
            rec.publish("dealerbutton/club/%s/state" % name, table_state(seated, name=name),
                        retain=True)
            rec.publish("dealerbutton/club/%s/online" % name, "0" if name == "3" else "1",
                        retain=True)
        rec.publish("dealerbutton/club/9/state", "garbage", retain=True)
        r = subprocess.run([sys.executable, "-m", "dealerbutton_host.cli", "room", "--broker",
                            broker.url, "--room", "club", "--terminal", "--once"],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONIOENCODING="ascii"))
    finally:
        rec.close()
        broker.stop()
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Room club: 3 table(s), 2 online, 9 players, 12 open seats"
    assert lines[3].startswith("T1       [#] #  #  #  .  .  .  .  .   5 open")
    assert lines[4].startswith("T2        . [#] .  .  #  .  .  .  .   7 open")
    assert lines[5].endswith("OFFLINE")
    assert "refused a message on 'dealerbutton/club/9/state': not JSON" in r.stderr


def test_the_firmware_clock_reaches_the_room():
    """A device answering `clock` with dealerbutton.clock.schedule's JSON: the bridge carries
    it, the room shows its level, blinds and time left (counting down), and a break."""
    from dealerbutton.clock.schedule import Clock as TournamentClock

    tc = TournamentClock({"ante_kind": "bb", "levels": [
        {"sb": 25, "bb": 50, "ante": 50, "minutes": 20}, {"break": 10},
        {"sb": 50, "bb": 100, "ante": 100, "minutes": 20}]}, now_ms=0)
    tc.resume(0)
    m, now = model_with(("1", table_state([1, 2, 3], clock=json.loads(tc.json(5 * 60000))),
                         "1"))
    now.t += 60
    c = m.summary()["tables"][0]["clock"]
    assert (c["level"], c["sb"], c["bb"], c["ante"], c["break"], c["running"]) == \
        (1, 25, 50, 50, False, True)
    assert c["ms_left"] == 14 * 60000  # 15 min left when sent, a minute ago
    assert c["next"] == {"break": 10} and c["ante_kind"] == "bb"
    tc.tick(21 * 60000)
    m.handle("dealerbutton/club/1/state",
             table_state([1, 2, 3], clock=json.loads(tc.json(21 * 60000))).encode())
    c = m.summary()["tables"][0]["clock"]
    assert c["break"] and c["ms_left"] == 9 * 60000
    assert c["next"] == {"level": 2, "sb": 50, "bb": 100, "ante": 100, "minutes": 20}
    assert m.summary()["clock"] == dict(c, table="1")
    assert "break 9:00" in view.render_text(m.summary(), GLYPHS)[3]
