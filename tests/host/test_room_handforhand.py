"""Hand-for-hand in the room without a broker: the state machine (the mode to every online
tournament table, the deal to all of them once every hand is over, offline tables left
out, resends, the mode off), the level that starts at the next deal, the Floor's topics,
the page's POST /handforhand and the terminal's lines."""

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from dealerbutton_host.room import handforhand, view
from dealerbutton_host.room.handforhand import Floor, HandForHand
from test_room import model_with, table_state

CLOCK = {"level": 5, "sb": 150, "bb": 300, "ante": 300, "ms_left": 600000, "running": True}


def state(name, h4h=None, hands=None, clock=CLOCK, seated=(1, 2, 3)):
    """A tournament table's state as its bridge publishes it, in hand-for-hand as h4h says
    ("playing", "waiting", None: not in it)."""
    data = json.loads(table_state(list(seated), name=name, clock=clock))
    if h4h:
        data["handforhand"] = h4h
    if hands is not None:
        data["hands"] = hands
    return json.dumps(data)


def room(*tables):
    """A model of tables (name, h4h, online), each at its first hand."""
    return model_with(*[(name, state(name, h4h), "1" if online else "0")
                        for name, h4h, online in tables])


def put(m, name, h4h, hands=1, clock=CLOCK):
    m.handle("dealerbutton/club/%s/state" % name, state(name, h4h, hands, clock).encode())


def tables(m):
    return m.summary()["tables"]


def test_nothing_is_sent_until_the_floor_chooses():
    m, _ = room(("1", "waiting", True), ("2", "waiting", True))
    assert HandForHand().update(tables(m), 0) == []


def test_the_mode_goes_to_every_online_tournament_table_and_again_if_not_taken():
    m, _ = room(("1", None, True), ("2", None, True), ("3", None, False))
    m.handle("dealerbutton/club/cash/state", table_state([1, 2], name="cash").encode())
    m.handle("dealerbutton/club/cash/online", b"1")
    h = HandForHand(True)
    assert h.update(tables(m), 100.0) == [("1", "handforhand on"), ("2", "handforhand on")]
    assert h.update(tables(m), 101.0) == []          # on its way: not sent twice
    put(m, "1", "playing")
    assert h.update(tables(m), 100.0 + handforhand.MODE_AGAIN_S) == [("2", "handforhand on")]
    assert h.summary(tables(m))["switching"] == ["2"]


def test_every_hand_over_deals_every_table_at_once():
    m, _ = room(("1", "playing", True), ("2", "playing", True), ("3", "playing", True))
    h = HandForHand(True)
    assert h.update(tables(m), 0) == []
    put(m, "1", "waiting")
    put(m, "2", "waiting")
    assert h.update(tables(m), 1) == []               # table 3 still plays its hand
    assert h.summary(tables(m))["playing"] == ["3"]
    put(m, "3", "waiting")
    assert h.update(tables(m), 2) == [("1", "deal"), ("2", "deal"), ("3", "deal")]
    assert h.update(tables(m), 3) == []               # their new states are on their way
    assert h.deals == 1
    for name in "123":
        put(m, name, "playing", hands=2)
    assert h.update(tables(m), 4) == []
    for name in "123":
        put(m, name, "waiting", hands=2)
    assert h.update(tables(m), 5) == [("1", "deal"), ("2", "deal"), ("3", "deal")]
    assert h.deals == 2


def test_a_table_going_offline_is_left_out_and_gets_the_mode_when_back():
    m, _ = room(("1", "waiting", True), ("2", "waiting", True), ("3", "playing", True))
    h = HandForHand(True)
    assert h.update(tables(m), 0) == []
    m.handle("dealerbutton/club/3/online", b"0")
    assert h.update(tables(m), 1) == [("1", "deal"), ("2", "deal")]
    assert h.summary(tables(m))["offline"] == ["3"]
    put(m, "3", None)                                 # back, restarted: not in the mode
    m.handle("dealerbutton/club/3/online", b"1")
    assert h.update(tables(m), 2) == [("3", "handforhand on")]
    assert "3" in h.summary(tables(m))["playing"]   # counts as still playing


def test_a_deal_not_taken_is_sent_again_later():
    m, _ = room(("1", "waiting", True), ("2", "waiting", True))
    h = HandForHand(True)
    assert len(h.update(tables(m), 0)) == 2
    assert h.update(tables(m), handforhand.DEAL_AGAIN_S - 1) == []
    assert h.update(tables(m), handforhand.DEAL_AGAIN_S) == [("1", "deal"), ("2", "deal")]


def test_the_mode_off_goes_to_the_tables_in_it_and_nothing_is_dealt():
    m, _ = room(("1", "waiting", True), ("2", None, True))
    h = HandForHand(True)
    h.switch(False)
    assert h.update(tables(m), 0) == [("1", "handforhand off")]
    assert h.summary(tables(m))["mode"] == "off"


def test_a_level_that_starts_at_the_next_deal():
    m, _ = room(("1", "playing", True))
    assert "level_next" not in tables(m)[0]
    put(m, "1", "playing", clock=dict(CLOCK, level=6))    # the clock moved on mid-hand
    assert tables(m)[0]["level_next"] == 6
    assert HandForHand(True).summary(tables(m))["level_next"] == [{"table": "1", "level": 6}]
    put(m, "1", "playing", hands=2, clock=dict(CLOCK, level=6))   # dealt: played now
    assert "level_next" not in tables(m)[0]
    put(m, "1", "playing", hands=2, clock=dict(CLOCK, level=6, **{"break": True}))
    assert "level_next" not in tables(m)[0]


def test_clocks_on_different_levels_are_shown():
    m, _ = room(("1", "playing", True), ("2", "playing", True), ("3", "playing", True))
    h = HandForHand(True)
    assert h.summary(tables(m))["levels_differ"] == []
    put(m, "2", "playing", clock=dict(CLOCK, level=6))
    assert h.summary(tables(m))["levels_differ"] == [{"level": 5, "tables": ["1", "3"]},
                                                     {"level": 6, "tables": ["2"]}]


def test_the_floor_publishes_the_tables_commands():
    m, _ = room(("1", "waiting", True), ("2", "waiting", True))
    sent = []
    floor = Floor(m, lambda table, line: sent.append((table, line)), now=lambda: 0.0)
    floor.step()
    assert sent == []
    floor.switch(True)
    assert sent == [("1", "deal"), ("2", "deal")]


def post(url, body, kind="application/json", origin=None):
    req = urllib.request.Request(url + "/handforhand", data=body, method="POST",
                                 headers={"Content-Type": kind})
    if origin:
        req.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_the_page_switches_it_with_a_json_post_from_itself(served):
    m, _ = room(("1", None, True))
    sent = []
    floor = Floor(m, lambda table, line: sent.append(line))
    url = served(m, floor=floor)
    with urllib.request.urlopen(url + "/room.json", timeout=5) as r:
        summary = json.loads(r.read())
    assert summary["handforhand"]["mode"] is None and summary["control"] is True
    assert post(url, b'{"on": true}', origin="http://evil.example")[0] == 403
    assert post(url, b'{"on": true}', kind="text/plain")[0] == 415
    assert post(url, b'{"on": "yes"}')[0] == 400
    assert sent == []
    status, answer = post(url, b'{"on": true}', origin=url)
    assert status == 200 and answer["handforhand"]["mode"] == "on"
    assert sent == ["handforhand on"]
    assert post(url, b'{"on": false}')[1]["handforhand"]["mode"] == "off"


def test_a_read_only_room_switches_nothing(served):
    m, _ = room(("1", None, True))
    sent = []
    url = served(m, floor=Floor(m, lambda table, line: sent.append(line)), control=False)
    assert post(url, b'{"on": true}')[0] == 403 and sent == []


def test_without_a_floor_there_is_no_button(served):
    m, _ = room(("1", None, True))
    url = served(m, floor=None)
    assert post(url, b'{"on": true}')[0] == 404
    with urllib.request.urlopen(url + "/room.json", timeout=5) as r:
        assert "handforhand" not in json.loads(r.read())


def test_the_terminal_lists_the_tables_still_playing():
    m, _ = room(("1", "waiting", True), ("2", "playing", True), ("3", None, False))
    put(m, "2", "playing", clock=dict(CLOCK, level=6))
    floor = Floor(m, lambda table, line: None, mode=True)
    summary = m.summary()
    summary["handforhand"] = floor.summary(summary["tables"])
    lines = view.render_text(summary, glyphs={"active": "#", "away": "a", "waiting": "w",
                                              "empty": "."})
    at = lines.index("Hand-for-hand: on, 0 deal(s) together so far")
    assert lines[at:at + 6] == ["Hand-for-hand: on, 0 deal(s) together so far",
                          "  still playing their hand: 2",
                          "  hand over, waiting: 1",
                          "  offline, left out: 3",
                          "  table 2: level 6 from the next deal",
                          "  the clocks differ: level 5 at 1; level 6 at 2"], lines
    assert lines[3].startswith("T1       [#] #  #  .  .  .  .  .  .   6 open, hand over, ")
    assert "   6 open, playing its hand, level 6 from the next deal, " in lines[4]


@pytest.mark.parametrize("option, why", [("--once", "needs a running room"),
                                         ("--read-only", "needs a room that may send")])
def test_hand_for_hand_needs_a_running_room_that_sends(option, why):
    r = subprocess.run([sys.executable, "-m", "dealerbutton_host.cli", "room", "--broker",
                        "mqtt://127.0.0.1:1", "--room", "club", option,
                        "--hand-for-hand", "on"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "--hand-for-hand " + why in r.stderr
