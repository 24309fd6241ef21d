"""The board's own MQTT publishing (dealerbutton.net) with a fake umqtt client: topics,
retained state, last will, commands from the floor, a lost network with backoff, events
counted while offline, the table never stopped (CPython and MicroPython)."""
import two_runtimes
from dealerbutton import net
from dealerbutton.store import config
from device_rig import Rig

SETTINGS = {"ssid": "club", "broker": "10.0.0.2", "room": "club", "table": "7"}
BASE = "dealerbutton/club/7/"


class Down(Exception):
    pass


class FakeClient:
    """umqtt.simple's MQTTClient as Net uses it; `broker` decides whether it works."""

    def __init__(self, broker, client_id):
        self.broker = broker
        self.client_id = client_id
        self.will = None
        self.cb = None

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (topic, msg, retain, qos)

    def set_callback(self, f):
        self.cb = f

    def _up(self):
        if not self.broker.up:
            raise Down("ECONNRESET")

    def connect(self, clean_session=True):
        self.broker.connects += 1
        self._up()
        self.broker.client = self

    def subscribe(self, topic, qos=0):
        self._up()
        self.broker.subs.append(topic)

    def publish(self, topic, msg, retain=False, qos=0):
        self._up()
        self.broker.sent.append((topic, msg, retain))

    def check_msg(self):
        self._up()
        while self.broker.inbox:
            self.cb(self.broker.subs[-1].encode(), self.broker.inbox.pop(0))

    def ping(self):
        self._up()
        self.broker.pings += 1

    def disconnect(self):
        self.broker.disconnects += 1


class FakeBroker:
    def __init__(self):
        self.up = True
        self.sent = []
        self.subs = []
        self.inbox = []
        self.connects = 0
        self.disconnects = 0
        self.pings = 0
        self.client = None

    def make(self, client_id):
        return FakeClient(self, client_id)

    def of(self, sub):
        return [m for t, m, r in self.sent if t == BASE + sub]


def rig_net(broker=None):
    rig = Rig(cfg={"seats": 6, "leds": 24})
    broker = broker or FakeBroker()
    n = net.Net(rig.app, SETTINGS, broker.make, rig.now)

    def tee(line):
        rig.out.append(line)
        n.line(line)

    rig.app.write = tee
    return rig, n, broker


def step(rig, n, ms=10):
    rig.tick(ms)
    n.tick(rig.now)


def test_connects_with_last_will_online_and_retained_state():
    rig, n, b = rig_net()
    step(rig, n)
    assert b.client.will == (BASE + "online", "0", True, 1)
    assert b.subs == [BASE + "cmd"]
    assert b.sent[0] == (BASE + "online", "1", True)
    topic, state, retain = b.sent[1]
    assert topic == BASE + "state" and retain
    assert state.startswith('{"room":"club","table":"7","rules":"dead","stakes":[10,20],')
    assert state.endswith('"hand":null,"per_hour":null,"missed":0}')


def test_presses_publish_events_and_state():
    rig, n, b = rig_net()
    step(rig, n)
    for s in (1, 2, 3):
        rig.press(s)
        n.tick(rig.now)
    assert b.of("event") == ["* seat 1 active", "* seat 2 active", "* seat 3 active"]
    assert '{"seat":3,"status":"active","owes":[0,0]}' in b.of("state")[-1]
    rig.reply("deal 1")
    step(rig, n)
    assert b.of("event")[-1].startswith('* hand {"n":1,"button":1')
    assert '"hand":{"n":1,"button":1,"sb":2,"bb":3' in b.of("state")[-1]


def test_commands_from_the_floor_with_their_replies():
    rig, n, b = rig_net()
    step(rig, n)
    b.inbox += [b"sit 4", b"config", b"sit 44", b"\x03", b'sit "1"']
    step(rig, n, 200)
    assert b.of("reply") == [
        '{"cmd":"sit 4","reply":"ok"}',
        '{"cmd":"config","reply":"err refused not a table command"}',
        '{"cmd":"sit 44","reply":"err seat seat 44 is not on this table (1..6)"}',
        '{"cmd":"?","reply":"err refused not printable ASCII"}',
        '{"cmd":"sit \\"1\\"","reply":"err refused not a seat number, post/wait/half, on/off or a clock word"}']
    assert rig.table.status(4) == "active"
    assert n.refused == 3


def test_the_floor_s_marks_from_the_cmd_topic_reach_the_state():
    rig, n, b = rig_net()
    step(rig, n)
    b.inbox += [b"sit 1", b"reserve 1", b"reserve 5", b"release 6"]
    step(rig, n, 200)
    step(rig, n)   # (the events go out at the next tick)
    assert b.of("reply")[1:] == [
        '{"cmd":"reserve 1","reply":"ok"}', '{"cmd":"reserve 5","reply":"ok"}',
        '{"cmd":"release 6","reply":"err rule seat 6 has no mark: nothing to release"}']
    assert b.of("event")[-2:] == ["* seat 1 moving", "* seat 5 reserved"]
    state = b.of("state")[-1]
    assert '{"seat":1,"status":"active","owes":[0,0],"mark":"moving"}' in state
    assert '{"seat":5,"status":"empty","owes":[0,0],"mark":"reserved"}' in state


def test_commands_are_rate_limited():
    rig, n, b = rig_net()
    step(rig, n)
    for _ in range(3):
        b.inbox += [b"ping"] * 5
        step(rig, n, 100)
    assert len(b.of("reply")) == 5  # the burst; then one per 500 ms (only 200 ms passed)
    assert n.refused == 10
    step(rig, n, 1000)
    b.inbox += [b"ping"] * 5
    step(rig, n, 100)
    assert len(b.of("reply")) == 5 + 2  # 1.3 s of credit


def test_a_lost_broker_never_stops_the_table_and_is_retried_with_backoff():
    rig, n, b = rig_net()
    step(rig, n)
    b.up = False
    rig.press(1)  # the event is queued ...
    n.tick(rig.now)  # ... and publishing it fails: offline
    assert n.client is None and n.missed == 1
    rig.press(2)
    rig.press(3)
    assert rig.table.status(3) == "active"  # the table plays on
    assert n.missed == 3
    tries = []
    for _ in range(400):  # 40 s
        before = b.connects
        step(rig, n, 100)
        if b.connects > before:
            tries.append(rig.now)
    gaps = [tries[i + 1] - tries[i] for i in range(len(tries) - 1)]
    assert gaps == [2000, 4000, 8000, 16000], gaps
    b.up = True
    for _ in range(400):
        step(rig, n, 100)
        if n.client is not None:
            break
    assert n.client is not None
    online = [m for t, m, r in b.sent if t == BASE + "online"]
    assert online == ["1", "1"]
    state = b.of("state")[-1]
    assert '"missed":3}' in state and '{"seat":3,"status":"active"' in state


def test_backoff_stops_growing_at_a_minute():
    rig, n, b = rig_net()
    b.up = False
    for _ in range(12):
        n.tick(n.next_try)
    assert n.backoff == net.BACKOFF_MAX_MS
    assert b.connects == 12


def test_a_burst_of_events_is_bounded():
    rig, n, b = rig_net()
    step(rig, n)
    for _ in range(net.QUEUE + 5):
        n.line("* seat 1 away")
    assert len(n.queue) == net.QUEUE and n.missed == 5
    step(rig, n)
    assert len(b.of("event")) == net.QUEUE


def test_keepalive_pings():
    rig, n, b = rig_net()
    step(rig, n)
    for _ in range(61):
        step(rig, n, 1000)
    assert b.pings == 4


def test_hands_per_hour():
    rig, n, b = rig_net()
    step(rig, n)
    for s in (1, 2, 3):
        rig.reply("sit %d" % s)
    assert n.per_hour() is None
    for i in range(6):
        n.now = rig.now
        assert rig.reply("deal 1" if i == 0 else "deal").startswith("ok {")
        rig.run(20000, 1000)  # a hand every 20 s: 180 an hour
    n.tick(rig.now)
    assert n.per_hour() == 180, n.per_hour()


def test_nothing_is_tried_while_the_wifi_is_down():
    rig = Rig(cfg={"seats": 6, "leds": 24})
    b = FakeBroker()
    wifi = [False]
    n = net.Net(rig.app, SETTINGS, b.make, rig.now, lambda: wifi[0])
    for _ in range(50):
        step(rig, n, 100)
    assert b.connects == 0 and n.failures == 0 and n.error == "no Wi-Fi"
    wifi[0] = True
    step(rig, n)
    assert b.connects == 1 and n.client is not None  # at once, no backoff to wait out


def test_the_watchdog_is_fed_before_every_network_call():
    rig = Rig(cfg={"seats": 6, "leds": 24})
    b = FakeBroker()
    calls = []

    class Logged(FakeClient):
        def connect(self, clean_session=True):
            calls.append("connect")
            FakeClient.connect(self, clean_session)

        def subscribe(self, topic, qos=0):
            calls.append("subscribe")
            FakeClient.subscribe(self, topic, qos)

        def publish(self, topic, msg, retain=False, qos=0):
            calls.append("publish")
            FakeClient.publish(self, topic, msg, retain, qos)

        def check_msg(self):
            calls.append("check_msg")
            FakeClient.check_msg(self)

        def ping(self):
            calls.append("ping")
            FakeClient.ping(self)

    n = net.Net(rig.app, SETTINGS, lambda cid: Logged(b, cid), rig.now, None,
                lambda: calls.append("feed"))
    rig.app.write = n.line
    step(rig, n)
    rig.press(1)
    n.tick(rig.now)
    b.inbox.append(b"ping")
    for _ in range(16):
        step(rig, n, 1000)
    assert "ping" in calls and "check_msg" in calls
    assert calls[0] == "feed"
    for i in range(1, len(calls)):
        if calls[i] != "feed":
            assert calls[i - 1] == "feed", (i, calls[i - 1:i + 1])


def test_settings_are_checked():
    assert config.check_network(None) == []
    assert config.check_network(SETTINGS) == []
    assert config.check_network([]) == ["network: must be an object"]
    assert config.check_network({"ssid": "", "broker": "b", "room": "a/b", "table": "7",
                                 "port": 70000, "tls": "yes", "colour": 1}) == [
        "network.ssid: required, a text",
        "network.room: 1 to 40 letters, digits, '_', '.' or '-'",
        "network.port: a number 0..65535 (0: 1883, or 8883 with tls)",
        "network.tls: true or false",
        "network.colour: unknown field"]
    ok = {"ssid": "s", "broker": "b", "room": "r", "table": "7"}
    for tls in (1, 0, "true", None):
        ok["tls"] = tls
        assert config.check_network(ok) == ["network.tls: true or false"], tls
    for tls in (True, False):
        ok["tls"] = tls
        assert config.check_network(ok) == [], tls


def test_config_json_network_block():
    cfg, errors = config.validate({"seats": 6, "network": SETTINGS})
    assert errors == [] and cfg["network"] == SETTINGS
    assert "network" not in config.to_json(cfg)  # the `config` command never shows it
    cfg, errors = config.validate({"seats": 6})
    assert errors == [] and "network" not in cfg
    cfg, errors = config.validate({"seats": 99, "network": {"ssid": "club", "broker": 7,
                                                            "room": "club", "table": "7",
                                                            "password": 1234}})
    assert errors == ["network.broker: required, a text", "network.password: a text",
                      "seats: 99 is out of range 2..12"], errors
    assert "network" not in cfg
    assert config.message(config.validate({"network": "wifi"})[1]) == (
        "config.json rejected (1 problem): network: must be an object")
    errors = config.validate({"netwrok": {}})[1]
    assert errors == ["netwrok: unknown field (known: " + ", ".join(config.FIELDS)
                      + ", network)"], errors


def test_check_command():
    assert net.check_command(b"SIT 3 Post") == ("sit 3 post", None)
    assert net.check_command(b"")[1] == "empty"
    assert net.check_command(b"leds")[1] == "not a table command"
    assert net.check_command(b"sit 1 2 3")[1] == "too many words"
    assert net.check_command(b"x" * 121)[1] == "longer than 120 bytes"
    assert net.check_command(b"sit 1\nconfig")[1] == "not printable ASCII"
    assert net.check_command(b"Clock SET 5:00") == ("clock set 5:00", None)
    assert net.check_command(b"clock resume") == ("clock resume", None)
    assert net.check_command(b"clock set 5:0")[1].startswith("not a seat number")
    assert net.check_command(b"repl")[1] == "not a table command"


if __name__ == "__main__":
    raise SystemExit(two_runtimes.run_all(globals()))
