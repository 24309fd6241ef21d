"""The floor's moves between tables (room/moves.py), against real firmware tables (the App,
as SimTable) behind the bridge's TableBridge, with the cmd topic a queue: the seat chosen,
the marks sent and re-sent, the move done when the player sits, cancelled, refused; tables
going away and coming back; the terminal's keys and the page's POSTs."""

import json
import urllib.error
import urllib.request

import pytest
from dealerbutton_host.room import moves as M
from dealerbutton_host.room import view
from dealerbutton_host.room.bridge import TableBridge
from dealerbutton_host.room.model import RoomModel
from dealerbutton_host.sim.table import SimTable
from test_room import GLYPHS, Clock

CLOCK = {"level": 1, "sb": 10, "bb": 20, "ante": 0, "ms_left": 600000, "running": True}


class Room:
    """Tables (name -> players in seats 1..n, a first hand dealt with the button on 1) of a
    tournament, each a SimTable behind a TableBridge whose messages reach the RoomModel at
    once; the room's commands wait in `queue` until pump() delivers them (to the tables
    online: the cmd topic keeps nothing for a table that is away)."""

    def __init__(self, **tables):
        self.clock = Clock()
        self.model = RoomModel("club", now=self.clock)
        self.queue = []
        self.delivered = []
        self.model.moves.publish = lambda table, line: self.queue.append((table, line))
        self.tables = {}
        self.bridges = {}
        for name, players in tables.items():
            self.add(name.lstrip("t"), players)

    def add(self, name, players, seats=9):
        tb = TableBridge("club", name, self._to_room(name), rate=100, burst=100,
                         now=self.clock)
        t = SimTable(seats, on_event=tb.event)
        for s in range(1, players + 1):
            t.send("sit %d" % s)
        t.send("deal 1")
        self.tables[name] = t
        self.bridges[name] = tb
        tb.attach(self._device(t))

    def _to_room(self, name):
        def publish(sub, payload, retain):
            if sub in ("state", "online", "event"):
                self.model.handle("dealerbutton/club/%s/%s" % (name, sub), payload.encode())
        return publish

    def _device(self, t):
        def send(line):
            return "ok " + json.dumps(CLOCK) if line == "clock" else t.send(line)
        return send

    def pump(self):
        """Deliver the room's commands, then let the room check its moves."""
        while self.queue:
            table, line = self.queue.pop(0)
            tb = self.bridges[table]
            if tb.send is None:
                continue   # away: the message is lost
            self.delivered.append((table, line))
            tb.command(line.encode())
            tb.refresh()
        self.model.moves.check()
        if self.queue:
            self.pump()

    def press(self, name, seat):
        self.tables[name].press(seat)
        self.bridges[name].refresh()
        self.pump()

    def away(self, name):
        """The table's bridge loses its device (a power cut, a cable)."""
        self.bridges[name].detach()

    def back(self, name, power_cut=True):
        """The device is back; after a power cut it has forgotten its marks."""
        t = self.tables[name]
        if power_cut:
            for s in range(len(t.app.marks)):
                t.app.marks[s] = 0
            t.app.show_table()
        self.bridges[name].attach(self._device(t))
        self.pump()

    def seat(self, name, seat):
        """(status, mark) of a seat in the room's state of the table."""
        state = self.model.tables[name].state
        s = state["seats"][seat - 1]
        return s["status"], s.get("mark")

    def proposals(self):
        return [(m["from"], m["seat"], m["to"])
                for m in self.model.summary()["tournament"]["moves"]]


def test_the_kept_seat_is_the_one_the_big_blind_reaches_first():
    seats = [{"seat": s, "status": "active" if s in (1, 2, 3, 6) else "empty"}
             for s in range(1, 10)]
    assert M.target_seat(seats, 3) == 4          # right after the last big blind
    assert M.target_seat(seats, 6) == 7
    assert M.target_seat(seats, 3, kept=[4]) == 5
    seats[3]["mark"] = "reserved"                # kept by someone else already
    assert M.target_seat(seats, 3) == 5
    assert M.target_seat(seats, None) == 5       # no hand yet: from seat 1 on
    full = [{"seat": s, "status": "active"} for s in range(1, 7)]
    assert M.target_seat(full, 2) is None


def test_a_move_lights_both_seats_and_ends_when_the_player_sits_down():
    room = Room(t1=9, t2=9, t3=6)
    assert room.proposals() == [("1", 4, "3"), ("2", 4, "3")]
    move = room.model.moves.start("1", 4, "3")
    assert move == {"id": 1, "from": "1", "seat": 4, "to": "3", "target": 7,
                    "phase": "moving", "state": "in progress"}
    room.pump()
    assert room.delivered == [("3", "reserve 7"), ("1", "reserve 4")]
    assert room.seat("3", 7) == ("empty", "reserved")
    assert room.seat("1", 4) == ("active", "moving")
    assert room.proposals() == [("2", 4, "3")]   # the move started counts as made
    summary = room.model.summary()
    assert summary["moves"][0]["state"] == "in progress"
    assert summary["tables"][2]["seats"][6]["mark"] == "reserved"
    room.press("3", 7)                            # the player sits down at the kept seat
    assert room.delivered[-1] == ("1", "leave 4")
    assert room.seat("3", 7) == ("waiting", None)  # (SimTable's rules: a cash game's)
    assert room.seat("1", 4) == ("empty", None)
    assert room.model.moves.summary()[0]["state"] == "done"
    assert room.proposals() == [("2", 4, "3")]


def test_a_cancel_releases_both_seats():
    room = Room(t1=9, t2=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    out = room.model.moves.cancel(1)
    assert out["state"] == "cancelled"
    room.pump()
    assert room.delivered[-2:] == [("3", "release 7"), ("1", "release 4")]
    assert room.seat("3", 7) == ("empty", None) and room.seat("1", 4) == ("active", None)
    assert room.model.moves.summary() == []
    assert room.proposals() == [("1", 4, "3"), ("2", 4, "3")]
    for _ in range(3):                              # nothing more goes out
        room.clock.t += 10
        room.pump()
    assert len(room.delivered) == 4


def test_a_second_move_gets_another_seat_and_the_same_player_is_refused():
    room = Room(t1=9, t2=9, t3=6)
    room.model.moves.start("1", 4, "3")
    second = room.model.moves.start("2", 4, "3")
    assert second["target"] == 8                   # 7 is kept for the first one
    room.pump()
    assert room.seat("3", 8) == ("empty", "reserved")
    with pytest.raises(M.MoveRefused, match="seat 4 of table 1 is moving already"):
        room.model.moves.start("1", 4, "3")


@pytest.mark.parametrize("args, why", [
    (("1", 4, "1"), "a move goes to another table"),
    (("1", 4, "9"), "table 9 is not in the room"),
    (("1", 8, "2"), "seat 8 of table 1 is empty: nobody to move"),
    (("1", 12, "2"), "table 1 has no seat 12"),
    (("1", True, "2"), "table 1 has no seat True"),
    (("1", 1, "3"), "table 3 has no open seat"),
])
def test_moves_the_room_refuses(args, why):
    room = Room(t1=7, t2=6, t3=9)
    with pytest.raises(M.MoveRefused) as e:
        room.model.moves.start(*args)
    assert str(e.value) == why
    room.pump()
    assert room.delivered == [] and room.model.moves.summary() == []


def test_no_move_to_or_from_a_table_that_is_offline():
    room = Room(t1=9, t3=6)
    room.away("3")
    with pytest.raises(M.MoveRefused, match="table 3 is offline"):
        room.model.moves.start("1", 4, "3")


def test_a_kept_seat_taken_before_the_cancel_cannot_be_cancelled():
    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    room.away("1")                                 # the source is away when he sits
    room.press("3", 7)
    assert room.model.moves.summary()[0]["phase"] == "seated"
    with pytest.raises(M.MoveRefused, match="the player sits at table 3 already"):
        room.model.moves.cancel(1)
    with pytest.raises(M.MoveRefused, match="no move 7"):
        room.model.moves.cancel(7)
    room.back("1", power_cut=True)                 # back: the leave goes now
    assert room.delivered[-1] == ("1", "leave 4")
    assert room.seat("1", 4) == ("empty", None)
    assert room.model.moves.summary()[0]["state"] == "done"


def test_a_power_cut_mid_move_the_marks_go_again_and_the_move_completes():
    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    for name in ("1", "3"):
        room.away(name)
        assert room.model.moves.summary()[0]["state"] == "in progress"
        room.back(name)                            # forgot its mark: sent again at once
        assert room.delivered[-1] == ((name, "reserve 7") if name == "3"
                                      else (name, "reserve 4"))
    assert room.seat("3", 7) == ("empty", "reserved")
    assert room.seat("1", 4) == ("active", "moving")
    room.press("3", 7)
    assert room.model.moves.summary()[0]["state"] == "done"
    assert room.seat("1", 4) == ("empty", None)


def test_what_a_state_lacks_is_sent_again_but_not_more_often_than_every_5_s():
    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.queue.clear()                             # both commands lost on the way
    room.pump()
    assert room.delivered == []                    # sent just now: not yet again
    room.clock.t += M.RESEND_S
    room.pump()
    assert sorted(room.delivered) == [("1", "reserve 4"), ("3", "reserve 7")]
    room.clock.t += 60
    room.pump()
    assert len(room.delivered) == 2                # the states show both marks now


def test_a_release_lost_on_the_way_goes_again_when_the_table_is_back():
    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    room.away("3")                                 # the bridge lost the device, which runs on
    room.model.moves.cancel(1)
    room.pump()
    assert room.delivered[-1] == ("1", "release 4")
    room.back("3", power_cut=False)                # it still has the mark
    assert room.delivered[-1] == ("3", "release 7")
    assert room.seat("3", 7) == ("empty", None)


def test_the_player_leaving_on_his_own_leaves_nothing_to_do_at_his_old_table():
    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    room.tables["1"].send("leave 4")
    room.bridges["1"].refresh()
    room.press("3", 7)
    assert ("1", "leave 4") not in room.delivered
    assert room.model.moves.summary()[0]["state"] == "done"


def test_another_room_view_sees_the_moves_under_way_by_their_marks():
    """A view that did not start the move (a second page, `room --once`) counts it as made
    from the marks the tables show, and draws the marked seats."""
    room = Room(t1=9, t2=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    other = RoomModel("club")
    for name in ("1", "2", "3"):
        other.handle("dealerbutton/club/%s/state" % name,
                     json.dumps(room.model.tables[name].state).encode())
        other.handle("dealerbutton/club/%s/online" % name, b"1")
    summary = other.summary()
    assert summary["moves"] == []
    assert [(m["from"], m["seat"], m["to"]) for m in summary["tournament"]["moves"]] == \
        [("2", 4, "3")]
    lines = view.render_text(summary, dict(GLYPHS, reserved="r", moving="m"))
    assert lines[1].endswith("  r kept for a player moving in  m moving out")
    assert lines[3].startswith("T1       [#] #  #  m  #  #  #  #  # ")
    assert lines[5].startswith("T3       [#] #  #  #  #  #  r  .  . ")


def test_the_terminal_numbers_the_moves_and_its_keys_start_and_cancel_them():
    room = Room(t1=9, t2=9, t3=6)
    model = room.model
    summary = model.summary()
    text = "\n".join(view.render_text(summary, GLYPHS, keys=True))
    assert "  [1] move seat 4 from table 1 to table 3" in text
    assert "keys: 1-9 start that move, a-z cancel that one, q quit" in text
    assert view.press_key(model, summary, "1") == \
        "started: seat 4 of table 1 -> seat 7 of table 3: in progress, the seat is kept for him"
    room.pump()
    summary = model.summary()
    lines = view.render_text(summary, GLYPHS, keys=True)
    assert "Moves:" in lines
    assert "  [a] seat 4 of table 1 -> seat 7 of table 3: in progress, the seat is kept " \
           "for him" in lines
    assert view.press_key(model, summary, "5") == "no suggested move 5"
    assert view.press_key(model, summary, "b") == "no move in progress b"
    assert view.press_key(model, summary, "a") == \
        "cancelled: seat 4 of table 1 stays; seat 7 of table 3 is released"
    room.pump()
    assert room.seat("3", 7) == ("empty", None)
    plain = view.render_text(model.summary(), GLYPHS)
    assert "  move seat 4 from table 1 to table 3" in plain and not any(
        "keys:" in line for line in plain)


def post(url, body, kind="application/json", origin=None):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"Content-Type": kind})
    if origin:
        req.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def test_the_page_starts_and_cancels_moves(served):
    room = Room(t1=9, t2=9, t3=6)
    url = served(room.model)
    with urllib.request.urlopen(url + "/room.json", timeout=5) as r:
        assert json.loads(r.read())["control"] is True
    status, out = post(url + "/moves/start", {"from": "1", "seat": 4, "to": "3"})
    assert (status, out["move"]["target"]) == (200, 7)
    room.pump()
    assert room.seat("3", 7) == ("empty", "reserved")
    assert post(url + "/moves/start", {"from": "1", "seat": 4, "to": "3"}) == \
        (409, {"error": "seat 4 of table 1 is moving already (move 1)"})
    assert post(url + "/moves/start", {"from": "1"})[0] == 400
    assert post(url + "/moves/start", b"not json")[0] == 400
    assert post(url + "/moves/start", {"from": "1", "seat": 5, "to": "3"},
                kind="text/plain")[0] == 415
    assert post(url + "/moves/start", {"from": "1", "seat": 5, "to": "3"},
                origin="http://evil.example")[0] == 403
    status, out = post(url + "/moves/cancel", {"id": 1})
    assert (status, out["move"]["state"]) == (200, "cancelled")
    room.pump()
    assert room.seat("3", 7) == ("empty", None)


def test_a_read_only_page_moves_nobody(served):
    room = Room(t1=9, t3=6)
    url = served(room.model, control=False)
    with urllib.request.urlopen(url + "/room.json", timeout=5) as r:
        assert json.loads(r.read())["control"] is False
    assert post(url + "/moves/start", {"from": "1", "seat": 4, "to": "3"})[0] == 403
    assert room.model.moves.summary() == []
