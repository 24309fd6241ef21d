"""The table on an MQTT broker, from a board with Wi-Fi (Pico W), by itself: the same
topics as `dealerbutton bridge` (PROTOCOL.md, "MQTT topics").

    net = Net(app, settings, make_client, now_ms, link_up, feed)  # settings: "network"
    write = lambda line: (usb(line), net.line(line))  # every line the App writes
    loop: app.tick(now); net.tick(now)

On the board, start() does all of that with the Pico W's Wi-Fi (Wifi) and umqtt.simple
(client_maker); this module is on the board only when config.json has a "network" block
(checked by config.check_network at power-up).

make_client(client_id) returns an umqtt.simple MQTTClient (micropython-lib, umqtt.simple
1.6.0: connect(), set_last_will(), set_callback(), subscribe(), publish(), check_msg(),
ping(), disconnect()); the tests give a fake one. link_up() (optional) says whether the
Wi-Fi is up: no connection is tried while it is down. feed() (optional, the watchdog's)
is called before every call that may block on the network, so that each blocking call has
the whole watchdog period (the client's socket timeout bounds each one). Nothing here may
stop the table: every network call is guarded, a failure means "offline", and connecting
is tried again with a growing pause (1 s doubling to 60 s). Event lines while offline are
counted, not kept.
On connecting: online 1 (with 0 as the last will), the state again (retained), and the
count of events missed in the state's "missed".
"""

from dealerbutton import protocol
from dealerbutton.ticks import ticks_add, ticks_diff

UMQTT = "umqtt.simple@1.6.0"  # what deploy installs with mip
TABLE_COMMANDS = ("sit", "away", "back", "choose", "leave", "move", "take", "kill", "deal",
                  "undo", "press", "hold", "state", "hand", "ping", "clock", "reserve",
                  "release", "handforhand")
# The words a table command may take besides seat numbers (and a clock's M:SS).
COMMAND_WORDS = ("post", "wait", "half", "pause", "resume", "next", "prev", "set", "on",
                 "off")
QUEUE = 8  # event lines kept between two ticks (more in one tick: counted as missed)
DEALS = 64  # deal times kept for hands per hour
HOUR_MS = 3600000
BACKOFF_MIN_MS = 1000
BACKOFF_MAX_MS = 60000
CHECK_MS = 100  # the cmd topic is looked at this often
RATE_MS = 500  # one command per half second on average ...
BURST = 5  # ... and five at once
PREFIX = "dealerbutton"
NET_TIMEOUT_S = 2      # each blocking socket call of the MQTT client (connect, TLS, reads)
KEEPALIVE_S = 30       # the broker publishes the last will ~1.5 keepalives after a silence
WIFI_RETRY_MS = 15000  # a Wi-Fi join that failed (or was lost) is started again this often


def check_command(payload):
    """(command line, None) for a table command, else (None, why refused)."""
    if len(payload) > 120:
        return None, "longer than 120 bytes"
    for b in payload:
        if b < 32 or b > 126:
            return None, "not printable ASCII"
    words = str(payload, "ascii").split()
    if not words:
        return None, "empty"
    cmd = words[0].lower()
    if cmd not in TABLE_COMMANDS:
        return None, "not a table command"
    if len(words) > 3:
        return None, "too many words"
    for w in words[1:]:
        if not command_word(w):
            return None, "not a seat number, post/wait/half, on/off or a clock word"
    return " ".join([cmd] + [w.lower() for w in words[1:]]), None


def command_word(w):
    """A word a table command may take: a seat number, post/wait/half, on/off, a clock word
    or M:SS."""
    if w.isdigit():
        return len(w) <= 3
    if w.lower() in COMMAND_WORDS:
        return True
    minutes, colon, seconds = w.partition(":")
    return (colon == ":" and minutes.isdigit() and len(minutes) <= 3 and seconds.isdigit()
            and len(seconds) == 2)


def json_text(s):
    """s as a JSON string (printable ASCII in, so only \\ and " need escaping)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _nothing():
    pass


class Net:
    def __init__(self, app, settings, make_client, now_ms, link_up=None, feed=None):
        self.app = app
        self.make_client = make_client
        self.link_up = link_up
        self.feed = feed or _nothing
        room = settings["room"]
        table = settings["table"]
        self.base = "%s/%s/%s/" % (PREFIX, room, table)
        self.head = '{"room":%s,"table":%s,' % (json_text(room), json_text(table))
        self.cmd_topic = self.base + "cmd"
        self.client = None
        self.queue = []
        self.missed = 0  # events that could not be published (offline, or a burst)
        self.state_due = True
        self.next_try = now_ms
        self.backoff = BACKOFF_MIN_MS
        self.last_check = now_ms
        self.last_ping = now_ms
        self.keepalive_ms = KEEPALIVE_S * 1000
        self.deals = [0] * DEALS
        self.ndeals = 0
        self.since = now_ms
        self.now = now_ms
        self.tokens = BURST * RATE_MS  # the rate limit, in ms of credit
        self.token_at = now_ms
        self.refused = 0
        self.failures = 0
        self.error = ""  # why the last connection failed or was lost
        self.pending = []  # commands received during check_msg, run after it

    # -- from the App ------------------------------------------------------------------
    def line(self, line):
        """Every line the App writes; event lines are published at the next tick."""
        if not line.startswith("* "):
            return
        if line.startswith("* hand "):
            self.deals[self.ndeals % DEALS] = self.now
            self.ndeals += 1
        self.state_due = True
        if self.client is not None and len(self.queue) < QUEUE:
            self.queue.append(line)
        else:
            self.missed += 1

    # -- the loop ----------------------------------------------------------------------
    def tick(self, now_ms):
        """Call often (every loop); does nothing costly unless something is due."""
        self.now = now_ms
        if self.client is None:
            if ticks_diff(now_ms, self.next_try) >= 0:
                if self.link_up is None or self.link_up():
                    self.connect(now_ms)
                else:
                    self.error = "no Wi-Fi"  # not a failure: tried again once it is up
            return
        feed = self.feed
        try:
            while self.queue:
                feed()
                self.client.publish(self.base + "event", self.queue[0])
                self.queue.pop(0)  # only once sent: a failed one is counted as missed
            if ticks_diff(now_ms, self.last_check) >= CHECK_MS:
                self.last_check = now_ms
                feed()
                self.client.check_msg()
                while self.pending:
                    self.command(self.pending.pop(0))
            if self.state_due:
                self.publish_state()
            if ticks_diff(now_ms, self.last_ping) >= self.keepalive_ms // 2:
                self.last_ping = now_ms
                feed()
                self.client.ping()
        except Exception as exc:  # noqa: BLE001 - a lost network never stops the table
            self.lost(now_ms, exc)

    def connect(self, now_ms):
        c = None
        feed = self.feed
        try:
            c = self.make_client(self.base)
            c.set_last_will(self.base + "online", "0", True, 1)
            c.set_callback(self.on_message)
            feed()
            c.connect()
            feed()
            c.subscribe(self.cmd_topic, 1)
            self.client = c
            feed()
            c.publish(self.base + "online", "1", True, 1)
            self.state_due = True
            self.publish_state()
        except Exception as exc:  # noqa: BLE001 - no Wi-Fi, no broker, refused: later
            self.client = c
            self.lost(now_ms, exc)
            return False
        self.backoff = BACKOFF_MIN_MS
        self.last_ping = now_ms
        self.last_check = now_ms
        return True

    def lost(self, now_ms, exc):
        self.failures += 1
        self.error = "%s: %s" % (type(exc).__name__, exc)
        c = self.client
        self.client = None
        self.missed += len(self.queue)
        self.queue = []
        self.state_due = True  # the state goes out again on reconnecting
        if c is not None:
            try:
                self.feed()
                c.disconnect()
            except Exception:  # noqa: BLE001 - the socket is already gone
                pass
        self.next_try = ticks_add(now_ms, self.backoff)
        self.backoff = min(BACKOFF_MAX_MS, self.backoff * 2)

    def per_hour(self):
        """Hands dealt in the last hour, per hour (None for the first minute)."""
        span = ticks_diff(self.now, self.since)
        if span < 60000:
            return None
        if span > HOUR_MS:
            span = HOUR_MS
        k = 0
        for i in range(min(self.ndeals, DEALS)):
            if ticks_diff(self.now, self.deals[i]) <= HOUR_MS:
                k += 1
        return (k * HOUR_MS + span // 2) // span

    def state_text(self):
        app = self.app
        t = app.table
        hand = "null" if t.hand is None else protocol.hand_json(t.hand)
        ph = self.per_hour()
        state = protocol.state_json(t, app.marks, app.hand_for_hand)
        return "%s%s,\"hand\":%s,\"per_hour\":%s,\"missed\":%d}" % (
            self.head, state[1:-1], hand, "null" if ph is None else ph, self.missed)

    def publish_state(self):
        c = self.client
        if c is not None:
            self.feed()
            c.publish(self.base + "state", self.state_text(), True, 1)
            self.state_due = False

    # -- the floor's commands -----------------------------------------------------------
    def on_message(self, topic, msg):
        """umqtt's callback (inside check_msg): kept, run after check_msg returns."""
        if len(self.pending) < BURST:
            self.pending.append(bytes(msg))
        else:
            self.refused += 1

    def take(self):
        """The rate limit: True if a command may run now."""
        credit = self.tokens + ticks_diff(self.now, self.token_at)
        if credit > BURST * RATE_MS:
            credit = BURST * RATE_MS
        self.token_at = self.now
        if credit >= RATE_MS:
            self.tokens = credit - RATE_MS
            return True
        self.tokens = credit
        return False

    def command(self, payload):
        c = self.client
        if c is None or not self.take():
            self.refused += 1
            return
        line, why = check_command(payload)
        if line is None:
            self.refused += 1
            shown = ""
            for b in payload[:40]:
                shown += chr(b) if 32 <= b <= 126 else "?"
            reply = "err refused %s" % why
        else:
            shown = line
            reply = self.app.command(line)
        self.feed()
        c.publish(self.base + "reply", '{"cmd":%s,"reply":%s}' % (
            json_text(shown), json_text(reply)))


# -- on the board: the Wi-Fi and umqtt.simple -------------------------------------------
class Wifi:
    """The Pico W's Wi-Fi station, joined without blocking: WLAN.connect() returns at once
    and the chip joins in the background. up() (the Net's link check) says whether it has
    joined; while it has not, it starts a join again every WIFI_RETRY_MS unless one is
    under way (a wrong password, a network out of reach, a lost link all end up here)."""

    def __init__(self, network, ssid, password, now_ms):
        self.now_ms = now_ms
        self.wlan = network.WLAN(network.STA_IF)
        self.ssid = ssid
        self.password = password or None  # None: an open network
        self.busy = (getattr(network, "STAT_CONNECTING", 1), 2)  # 2: joined, no address yet
        self.next_join = now_ms()
        self.joins = 0
        self.wlan.active(True)

    def up(self):
        if self.wlan.isconnected():
            return True
        now = self.now_ms()
        if ticks_diff(now, self.next_join) >= 0:
            self.next_join = ticks_add(now, WIFI_RETRY_MS)
            try:
                if self.wlan.status() not in self.busy:
                    self.joins += 1
                    self.wlan.connect(self.ssid, self.password)
            except OSError:
                pass  # the chip refused: the next join in WIFI_RETRY_MS
        return False


class Tls:
    """What umqtt.simple gets as ssl=: TLS with the broker's name sent (SNI), without a
    certificate check (the board has no CA store). It keeps the plain socket under the TLS
    one, whose timeout check_msg takes away (see make_client)."""

    def __init__(self, ssl):
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        self.ctx.verify_mode = ssl.CERT_NONE
        self.raw = None

    def wrap_socket(self, sock, server_hostname=None):
        self.raw = sock
        return self.ctx.wrap_socket(sock, server_hostname=server_hostname)


def client_maker(simple, settings, ssl_module=None):
    """make_client(client_id) for Net: umqtt.simple's MQTTClient with the settings, whose
    connect() has the socket timeout, and whose wait_msg() (under check_msg, and waiting for
    an acknowledgement in publish and subscribe) puts the timeout back: umqtt leaves the
    socket blocking for good after reading. So no call waits on a dead link for longer than
    NET_TIMEOUT_S at a time."""

    class Client(simple.MQTTClient):
        def connect(self, clean_session=True, timeout=None):
            return simple.MQTTClient.connect(self, clean_session, NET_TIMEOUT_S)

        def wait_msg(self):
            try:
                return simple.MQTTClient.wait_msg(self)
            finally:
                raw = self.ssl.raw if self.ssl else self.sock
                raw.settimeout(NET_TIMEOUT_S)

    tls = settings.get("tls", False)
    port = settings.get("port", 0) or (8883 if tls else 1883)

    def make_client(client_id):
        ssl = None
        if tls:
            ssl = Tls(ssl_module or __import__("ssl"))
        return Client(client_id, settings["broker"], port, settings.get("user") or None,
                      settings.get("password") or "", keepalive=KEEPALIVE_S, ssl=ssl)

    return make_client


def start(app, settings, feed, write, now_ms):
    """The Net of config.json's network block on the board (board.start calls it): the
    Wi-Fi, umqtt.simple's client, every line the app writes going to the Net too. feed: the
    watchdog's; write: the serial line's; now_ms: the board's clock. None (said on the
    serial line; the table runs on) without umqtt.simple. (board.start_network calls it on
    a board with Wi-Fi only.)"""
    import network  # pyright: ignore[reportMissingImports]  (a Pico W's; not a Pico's)
    try:
        from umqtt import simple  # pyright: ignore[reportMissingImports]  (put there by deploy)
    except ImportError:
        write("dealerbutton: network: umqtt.simple is missing (dealerbutton deploy installs "
              "it); the table runs without the broker")
        return None
    wifi = Wifi(network, settings["ssid"], settings.get("wifi_password"), now_ms)
    net = Net(app, settings, client_maker(simple, settings), now_ms(), wifi.up, feed)
    app_write = app.write

    def tee(line):
        app_write(line)
        net.line(line)

    app.write = tee
    write("dealerbutton: network: table %s of room %s, Wi-Fi %s, broker %s"
          % (settings["table"], settings["room"], settings["ssid"], settings["broker"]))
    return net
