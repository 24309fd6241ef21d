"""The bridge's parts without a broker: which commands pass, the rate limit, hands per
hour, the state message, and TableBridge against the real firmware App."""

import json
import logging

import pytest
from dealerbutton_host.device.client import DeviceError
from dealerbutton_host.room import bridge, mqttconn
from dealerbutton_host.sim.table import SimTable


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.mark.parametrize("payload, line", [
    (b"sit 3", "sit 3"), (b"SIT 3 POST", "sit 3 post"), (b"  deal  ", "deal"),
    (b"press 0", "press 0"), (b"choose 2 wait", "choose 2 wait"), (b"undo", "undo"),
    (b"state", "state"), (b"hold 12", "hold 12"), (b"clock", "clock"),
    (b"CLOCK Pause", "clock pause"), (b"clock set 12:30", "clock set 12:30"),
    (b"move 5 9", "move 5 9"), (b"take 4", "take 4"), (b"kill 3", "kill 3"),
    (b"KILL 3 Half", "kill 3 half"),
    (b"handforhand on", "handforhand on"), (b"HandForHand OFF", "handforhand off"),
])
def test_table_commands_pass(payload, line):
    assert bridge.check_command(payload) == (line, None)


@pytest.mark.parametrize("payload, why", [
    (b"config", "not a table command"), (b"leds", "not a table command"),
    (b"version", "not a table command"), (b"import os", "not a table command"),
    (b"\x03", "control characters"), (b"\x04", "control characters"),
    (b"sit 1\nconfig", "control characters"), (b"sit 1\rdeal", "control characters"),
    (b"sit 3 \xff", "not ASCII"), ("sit \u0663".encode(), "not ASCII"),
    (b"", "empty"), (b"   ", "empty"), (b"sit " + b"1" * 200, "longer than 120"),
    (b"sit 1234", "neither a seat number"), (b"sit -1", "neither a seat number"),
    (b"sit 1 post now", "too many words"), (b"sit 1 rm", "neither a seat number"),
    (b"clock set 12:3", "neither a seat number"), (b"clock set :30", "neither a seat number"),
    (b"clock set 1:30:00", "neither a seat number"), (b"repl", "not a table command"),
    (b"move 5 9 10", "too many words"), (b"kill 3 double", "neither a seat number"),
    (b"level 10/20", "not a table command"),
    (b"handforhand maybe", "neither a seat number"), (b"handforhand on 3 4", "too many words"),
])
def test_everything_else_is_refused(payload, why):
    line, reason = bridge.check_command(payload)
    assert line is None and why in reason


def test_rate_limit_burst_then_rate():
    clock = Clock()
    limit = bridge.RateLimit(rate=2.0, burst=3, now=clock)
    assert [limit.take() for _ in range(4)] == [True, True, True, False]
    clock.t += 0.5  # one token back
    assert [limit.take(), limit.take()] == [True, False]
    clock.t += 100  # never more than the burst
    assert sum(limit.take() for _ in range(10)) == 3


def test_hands_per_hour():
    assert bridge.hands_per_hour([], 1030, 1000) is None  # half a minute: too soon
    assert bridge.hands_per_hour([], 1100, 1000) == 0
    # 5 hands in the first 10 minutes: 30 an hour
    assert bridge.hands_per_hour([1100, 1200, 1300, 1400, 1500], 1600, 1000) == 30
    # after two hours, only the last hour counts
    deals = [1000 + 60 * i for i in range(60)] + [4600 + 120 * i for i in range(30)]
    assert bridge.hands_per_hour(deals, 8200, 1000) == 30


def test_state_message_order_and_extras():
    state = {"seats": [], "hands": 3, "level": {"n": 2}, "rules": "dead", "stakes": [1, 2]}
    text = bridge.compose_state("club", "7", state, None, 20, {"level": 2, "ms_left": 5})
    assert list(json.loads(text)) == ["room", "table", "rules", "stakes", "hands", "seats",
                                      "level", "hand", "per_hour", "clock"]
    assert " " not in text


class Published:
    def __init__(self):
        self.messages = []

    def __call__(self, sub, payload, retain):
        self.messages.append((sub, payload, retain))

    def of(self, sub):
        return [p for s, p, _ in self.messages if s == sub]


def rig(**kw):
    pub = Published()
    clock = Clock()
    tb = bridge.TableBridge("club", "7", pub, now=clock, **kw)
    table = SimTable(6, on_event=tb.event)
    return pub, clock, tb, table


def test_attach_publishes_online_and_state():
    pub, clock, tb, table = rig()
    tb.attach(table.send)
    assert pub.messages[0] == ("online", "1", True)
    sub, text, retain = pub.messages[1]
    state = json.loads(text)
    assert (sub, retain) == ("state", True)
    assert state["room"] == "club" and state["table"] == "7" and state["hand"] is None
    assert [s["status"] for s in state["seats"]] == ["empty"] * 6
    assert "clock" not in state  # this device has no clock: asked once, not again
    assert not tb.has_clock


def test_button_presses_become_events_and_state():
    pub, clock, tb, table = rig()
    tb.attach(table.send)
    for seat in (1, 2, 3):
        table.press(seat)
    table.press(0)  # before the first hand: the draw for the button
    table.press(0)  # draw, deal
    clock.t += 90
    tb.refresh()
    assert pub.of("event")[:3] == ["* seat 1 active", "* seat 2 active", "* seat 3 active"]
    assert pub.of("event")[3].startswith("* hand {")
    state = json.loads(pub.of("state")[-1])
    assert state["hands"] == 1 and state["hand"]["n"] == 1
    assert state["per_hour"] == 40  # one hand in 90 s
    n = len(pub.of("state"))
    tb.refresh()  # nothing changed, nothing due: nothing published
    assert len(pub.of("state")) == n
    clock.t += bridge.STATE_EVERY_S
    tb.refresh()  # read again: only the rate moved (one hand in 92 s)
    assert len(pub.of("state")) == n + 1
    assert json.loads(pub.of("state")[-1]) == dict(state, per_hour=39)


def test_commands_are_published_back_with_their_replies():
    pub, clock, tb, table = rig()
    tb.attach(table.send)
    tb.command(b"sit 2")
    tb.command(b"sit 9")
    tb.refresh()
    replies = [json.loads(r) for r in pub.of("reply")]
    assert replies[0] == {"cmd": "sit 2", "reply": "ok"}
    assert replies[1]["cmd"] == "sit 9" and replies[1]["reply"].startswith("err seat")
    assert table.status(2) == "active"
    assert json.loads(pub.of("state")[-1])["seats"][1]["status"] == "active"


def test_hostile_commands_are_refused_logged_and_change_nothing(caplog):
    pub, clock, tb, table = rig(rate=1000, burst=1000)
    tb.attach(table.send)
    before = table.send("state")
    leds = table.send("leds")
    hostile = [b"config", b"\x03\x03", b"\x04", b"sit 1\nconfig {}", b"\xff\xfe", b"A" * 5000,
               b"import machine; machine.reset()", b"leds", b"sit 1 2 3", b"deal 1; undo"]
    with caplog.at_level(logging.WARNING, logger="dealerbutton.bridge"):
        for p in hostile:
            tb.command(p)
    assert table.send("state") == before and table.send("leds") == leds
    refusals = [r for r in caplog.records if "refused command" in r.getMessage()]
    assert len(refusals) == len(hostile)
    for r in refusals:  # one line each, nothing unprintable
        assert "\n" not in r.getMessage() and "\x03" not in r.getMessage()
    replies = [json.loads(r) for r in pub.of("reply")]
    assert len(replies) == len(hostile)
    assert all(r["reply"].startswith("err refused ") for r in replies)
    assert all(ch.isprintable() for r in replies for ch in r["cmd"])


def test_commands_over_the_rate_are_dropped_and_counted(caplog):
    pub, clock, tb, table = rig(rate=2, burst=3)
    tb.attach(table.send)
    with caplog.at_level(logging.WARNING, logger="dealerbutton.bridge"):
        for _ in range(50):
            tb.command(b"ping")
        clock.t += 1.0
        tb.refresh()
    assert len(pub.of("reply")) == 3
    counts = [r.getMessage() for r in caplog.records if "more than" in r.getMessage()]
    assert counts == ["refused 1 command(s): more than 2 a second",
                      "refused 46 command(s): more than 2 a second"]
    clock.t += 1.0  # two tokens back
    tb.command(b"ping")
    tb.command(b"ping")
    assert len(pub.of("reply")) == 5


def test_device_gone_offline_and_back():
    pub, clock, tb, table = rig()
    tb.attach(table.send)
    tb.detach()
    assert pub.messages[-1] == ("online", "0", True)
    tb.command(b"sit 1")
    assert json.loads(pub.of("reply")[-1])["reply"].startswith("err offline")
    tb.offline_again()  # a broker that came back meanwhile gets the last state again
    assert pub.messages[-2:] == [("online", "0", True), ("state", tb.last_state, True)]
    table.closed = True
    with pytest.raises(DeviceError):
        tb.attach(table.send)


def test_a_tournament_clock_is_carried_and_republished_every_30_s():
    pub, clock, tb, table = rig()
    left = [600000]

    def send(line):
        if line == "clock":
            return 'ok {"level":3,"sb":100,"bb":200,"ante":200,"ms_left":%d,"running":true}' \
                % left[0]
        return table.send(line)

    tb.attach(send)
    assert json.loads(pub.of("state")[-1])["clock"]["level"] == 3
    n = len(pub.of("state"))
    for _ in range(10):  # the time left alone changes: not worth a message every 2 s
        clock.t += bridge.STATE_EVERY_S
        left[0] -= 2000
        tb.refresh()
    assert len(pub.of("state")) == n
    clock.t += bridge.CLOCK_EVERY_S
    tb.refresh()
    assert len(pub.of("state")) == n + 1


# -- broker settings ------------------------------------------------------------------
def test_broker_urls():
    assert mqttconn.parse_url("mqtt://floor") == ("floor", 1883, False)
    assert mqttconn.parse_url("mqtts://floor") == ("floor", 8883, True)
    assert mqttconn.parse_url("mqtt://10.0.0.5:1884") == ("10.0.0.5", 1884, False)
    for bad, why in [("http://floor", "mqtt://HOST"), ("floor:1883", "mqtt://HOST"),
                     ("mqtt://bob:secret@floor", "do not belong on the command line"),
                     ("mqtt://floor:99999", "out of range"), ("mqtt://floor/x", "no path"),
                     ("mqtt://:1883", "no host")]:
        with pytest.raises(mqttconn.BrokerError, match=why) as e:
            mqttconn.parse_url(bad)
        assert "secret" not in str(e.value)


def test_credentials_from_file_or_environment(tmp_path, caplog):
    f = tmp_path / "creds"
    f.write_text("# the floor's broker\nusername = floor\npassword = s3cr=t\n")
    f.chmod(0o600)
    assert mqttconn.read_credentials(str(f), {}) == ("floor", "s3cr=t")
    f.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="dealerbutton"):
        assert mqttconn.read_credentials(str(f), {}) == ("floor", "s3cr=t")
    assert caplog.messages == ["the credentials file %s can be read by other users "
                               "(chmod 600 it)" % f]
    env = {mqttconn.ENV_USERNAME: "bob", mqttconn.ENV_PASSWORD: "pw"}
    assert mqttconn.read_credentials(None, env) == ("bob", "pw")
    assert mqttconn.read_credentials(None, {}) == (None, None)
    with pytest.raises(mqttconn.BrokerError, match="is not"):
        mqttconn.read_credentials(None, {mqttconn.ENV_PASSWORD: "pw"})
    f.write_text("username=floor\nhunter2\n")
    with pytest.raises(mqttconn.BrokerError, match="line 2") as e:
        mqttconn.read_credentials(str(f), {})
    assert "hunter2" not in str(e.value)
    with pytest.raises(mqttconn.BrokerError, match="cannot read"):
        mqttconn.read_credentials(str(tmp_path / "none"), {})
    b = mqttconn.broker_from_args("mqtt://h", env=env)
    assert "pw" not in repr(b) and "pw" not in b.describe() and "bob" in b.describe()


def test_tls_options_need_mqtts(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("x")
    with pytest.raises(mqttconn.BrokerError, match="need TLS"):
        mqttconn.broker_from_args("mqtt://h", cafile=str(ca), env={})
    with pytest.raises(mqttconn.BrokerError, match="no such file"):
        mqttconn.broker_from_args("mqtts://h", cafile=str(tmp_path / "no"), env={})


@pytest.mark.parametrize("name", ["7", "club_1", "Main.Room", "a-b"])
def test_names(name):
    assert mqttconn.check_name("table", name) == name


@pytest.mark.parametrize("name", ["", "a/b", "#", "+", "x" * 41, "tab le", "\u00e9"])
def test_bad_names(name):
    with pytest.raises(mqttconn.BrokerError, match="topic"):
        mqttconn.check_name("table", name)
