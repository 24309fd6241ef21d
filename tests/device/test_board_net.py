"""A Pico W on the broker through board/pico.py, on both runtimes, with tests/support/fakes
standing in for machine, neopixel, network (the Wi-Fi) and umqtt.simple: the Wi-Fi joined
without blocking, every line the app writes published, the loop never stopped by a Wi-Fi or
broker that is down, reconnecting with backoff, socket timeouts and watchdog feeds around
every call that may block."""
import os

import machine  # tests/support/fakes
import neopixel  # tests/support/fakes
import network  # tests/support/fakes
import two_runtimes
from dealerbutton import net
from dealerbutton.app import App
from dealerbutton.board import pico
from umqtt import simple  # tests/support/fakes

ROOT = "board_net_tmp"
TURN_MS = 50  # the fake clock's step per loop turn
NETWORK = {"ssid": "club", "wifi_password": "s3cret", "broker": "10.0.0.2", "room": "club",
           "table": "7"}
BASE = "dealerbutton/club/7/"
broker = simple.broker


class Script(pico.Console):
    """The USB serial line, with what happens at each loop turn: `plan[turn]` is bytes the
    host sends then, or a function to call (the Wi-Fi or the broker going away...)."""

    def __init__(self, plan):
        self.calls = []
        pico.Console.__init__(self, self.calls.append)
        self.plan = plan
        self.turn = 0
        self.data = b""
        self.frames = []  # the app's last frame time, at each turn
        self.connects = []  # the turns at which the board tried the broker

    def pump(self, app):
        self.turn += 1
        step = self.plan.get(self.turn)
        if isinstance(step, bytes):
            self.data += step
        elif step is not None:
            step()
        self.frames.append(app.last_frame)
        while len(self.connects) < len(broker.connects):
            self.connects.append(self.turn - 1)  # tried during the previous turn
        pico.Console.pump(self, app)

    def waiting(self):
        return len(self.data) > 0

    def read(self):
        b = self.data[:1]
        self.data = self.data[1:]
        return b


def run(plan, loops, in_reach=True, broker_up=True, network_block=NETWORK, seats=6):
    """Power up a board with a network block, with the Wi-Fi in reach or not and the broker
    up or not; (USB lines, script)."""
    try:
        os.mkdir(ROOT)
    except OSError:
        empty(ROOT)  # no saved state from the test before
    cfg = '{"seats": %d, "network": %s}' % (seats, _json(network_block))
    with open(ROOT + "/config.json", "w") as f:
        f.write(cfg)
    machine.clear()
    network.clear()
    broker.clear()
    broker.up = broker_up
    if in_reach:
        wifi_in_reach()
    del neopixel.strips[:]
    out = []
    clock = [0]
    pico.CONFIG_PATH = ROOT + "/config.json"
    pico.STATE_DIR = ROOT
    pico._write = out.append

    def sleep_ms(ms):
        clock[0] += TURN_MS

    pico.now_ms = lambda: clock[0]
    pico.sleep_ms = sleep_ms
    script = Script(plan)
    # One sleep a turn (a Pico W's loop turn modelled as 50 ms), not the App's doze, which
    # cuts a sleep into 10 ms reads of the buttons.
    doze = App.doze
    App.doze = one_sleep
    try:
        pico.run(loops=loops, console=script)
    finally:
        App.doze = doze
    return out, script


def one_sleep(app, ms, sleep_ms):
    sleep_ms(ms)


def _json(d):
    return "{" + ", ".join(['"%s": "%s"' % (k, d[k]) for k in sorted(d)]) + "}"


def published(topic):
    return broker.of(BASE + topic)


def stalls(script):
    """The loop turns after which the app drew no new frame (each turn is 50 ms, a frame
    is due every 25 ms)."""
    f = script.frames
    return [t for t in range(1, len(f) - 1) if f[t + 1] <= f[t]]


def wifi_in_reach():
    network.aps["club"] = "s3cret"


def test_joins_the_wifi_connects_and_publishes_every_event():
    out, s = run({10: b"sit 1\nsit 2\n", 12: b"state\n"}, 20)
    assert out[:2] == ["* info no saved state: clean start",
                       "dealerbutton: network: table 7 of room club, Wi-Fi club, broker 10.0.0.2"]
    assert out[2:5] == ["* seat 1 active", "ok", "* seat 2 active"], out
    assert network.joins == [("club", "s3cret")]
    assert broker.connects == [(BASE, "10.0.0.2", 1883, None, "", 30, 2)]
    assert published("online") == ["1"]
    assert published("event") == ["* seat 1 active", "* seat 2 active"]
    assert '{"seat":2,"status":"active","owes":[0,0]}' in published("state")[-1]
    # the USB line says exactly what it said without a network
    assert [x for x in out if x.startswith("ok {")] and "dealerbutton: network" not in out[-1]


def test_the_table_plays_while_the_wifi_is_out_of_reach_and_joins_when_it_comes():
    # no network in reach: joins are started every 15 s; the table plays, frames keep coming
    out, s = run({5: b"sit 1\n", 200: b"sit 2\n", 400: wifi_in_reach, 450: b"sit 3\n"}, 800,
                 in_reach=False)
    assert "* seat 1 active" in out and "* seat 2 active" in out and "* seat 3 active" in out
    assert stalls(s) == []
    # joined at power-up, then every 15 s (300 turns): at turns 1, 301 and 601
    assert network.joins == [("club", "s3cret")] * 3, network.joins
    assert len(broker.connects) == 1  # only once the Wi-Fi was up: turn 601
    assert published("online") == ["1"]
    state = published("state")[-1]
    assert '"missed":' in state and '{"seat":3,"status":"active"' in state
    # every turn fed the watchdog at least once; and before each network call
    assert machine.watchdogs[0].feeds > 800


def test_a_broker_that_is_down_is_retried_with_backoff_and_the_table_plays_on():
    def back():
        broker.up = True

    out, s = run({20: b"sit 1\n", 300: b"sit 2\n", 400: back}, 700, broker_up=False)
    gaps = [s.connects[i + 1] - s.connects[i] for i in range(len(s.connects) - 1)]
    assert "* seat 1 active" in out and "* seat 2 active" in out
    assert stalls(s) == []
    # 1, 2, 4, 8, 16 s apart (20 turns a second); the next try, 32 s on, finds it back
    assert gaps == [20, 40, 80, 160, 320], s.connects
    assert published("online") == ["1"]
    assert '"missed":2}' in published("state")[-1]  # the two events while it was down
    assert '{"seat":2,"status":"active"' in published("state")[-1]


def test_a_lost_broker_is_found_again_with_the_state_and_the_missed_events():
    def down():
        broker.up = False

    def up():
        broker.up = True

    out, s = run({10: b"sit 1\n", 20: down, 30: b"sit 2\nsit 3\n", 40: up, 50: b"sit 4\n"},
                 200)
    assert published("online") == ["1", "1"]
    assert published("event") == ["* seat 1 active", "* seat 4 active"]
    state = published("state")[-1]
    assert '"missed":2}' in state and '{"seat":3,"status":"active"' in state
    assert len(broker.connects) == 2


def test_a_wrong_wifi_password_is_tried_again_and_the_table_plays():
    def wrong():
        network.aps["club"] = "other"

    out, s = run({1: wrong, 100: b"sit 1\n"}, 700)
    assert network.joins == [("club", "s3cret")] * 3  # turns 1, 301, 601: 15 s apart
    assert network.wlans[0].status() == network.STAT_WRONG_PASSWORD
    assert broker.connects == [] and stalls(s) == [] and "* seat 1 active" in out


def test_a_lost_wifi_link_is_joined_again():
    def lost():
        network.drop()
        broker.up = False

    def back():
        broker.up = True

    # the drop is seen at the next look at the broker; joins are 15 s apart (turn 301)
    out, s = run({20: lost, 25: back, 30: b"sit 1\n", 380: b"sit 2\n"}, 400)
    assert len(network.joins) == 2, network.joins  # at power-up, then after the drop
    assert published("online") == ["1", "1"]
    assert published("event") == ["* seat 2 active"]
    assert '"missed":1}' in published("state")[-2]  # seat 1 sat while offline


def test_every_blocking_call_has_the_socket_timeout():
    out, s = run({}, 20)
    sock = broker.client.sock
    # connect() set it; check_msg() takes it away as umqtt.simple does, and it is put back
    assert sock.timeouts[0] == net.NET_TIMEOUT_S and len(sock.timeouts) > 1
    assert sock.timeout == net.NET_TIMEOUT_S


def test_commands_from_the_floor_reach_the_table():
    def floor():
        broker.inbox.extend([b"sit 5", b"config"])

    out, s = run({10: floor}, 20)
    assert published("reply") == ['{"cmd":"sit 5","reply":"ok"}',
                                  '{"cmd":"config","reply":"err refused not a table command"}']
    assert "* seat 5 active" in out  # the USB line sees the table change too


def test_tls_settings():
    class FakeSsl:
        PROTOCOL_TLS_CLIENT = 16
        CERT_NONE = 0

        class SSLContext:
            def __init__(self, protocol):
                self.protocol = protocol
                self.verify_mode = 2

            def wrap_socket(self, sock, server_hostname=None):
                return ("tls", sock, server_hostname)

    made = net.client_maker(simple, {"broker": "mqtt.club", "tls": True, "user": "t7",
                                       "password": "pw"}, FakeSsl)(BASE)
    assert (made.port, made.user, made.pswd, made.keepalive) == (8883, "t7", "pw", 30)
    assert made.ssl.ctx.verify_mode == FakeSsl.CERT_NONE
    tls = net.Tls(FakeSsl)
    assert tls.ctx.verify_mode == FakeSsl.CERT_NONE
    assert tls.wrap_socket("raw", server_hostname="mqtt.club") == ("tls", "raw", "mqtt.club")
    assert tls.raw == "raw"
    made = net.client_maker(simple, {"broker": "b", "port": 1884})(BASE)
    assert (made.port, made.user, made.ssl) == (1884, None, None)


def empty(folder):
    for name in os.listdir(folder):
        os.remove(folder + "/" + name)


def test_zz_clean_up():
    empty(ROOT)
    os.rmdir(ROOT)


two_runtimes.run_all(globals())
