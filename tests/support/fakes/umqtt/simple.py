"""A fake `umqtt.simple` (micropython-lib's, 1.6.0) for tests of the board code: the same
MQTTClient constructor and methods, talking to the module's `broker` instead of a socket.
Like the real one, wait_msg() (under check_msg(), and after a QoS 1 publish or a subscribe)
takes one message and leaves the socket blocking without a timeout."""


class MQTTException(Exception):
    pass


class Broker:
    def __init__(self):
        self.clear()

    def clear(self):
        self.up = True
        self.sent = []        # (topic, message, retain) in order
        self.inbox = []       # messages waiting on the command topic
        self.subs = []
        self.connects = []    # (client_id, server, port, user, password, keepalive, timeout)
        self.pings = 0
        self.client = None

    def of(self, topic):
        return [m for t, m, r in self.sent if t == topic]


broker = Broker()


class Sock:
    def __init__(self):
        self.timeout = None
        self.timeouts = []

    def settimeout(self, t):
        self.timeout = t
        self.timeouts.append(t)

    def setblocking(self, flag):
        self.timeout = None if flag else 0

    def close(self):
        pass


class MQTTClient:
    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0,
                 ssl=None, ssl_params=None):
        if port == 0:
            port = 8883 if ssl else 1883
        self.client_id = client_id
        self.server = server
        self.port = port
        self.user = user
        self.pswd = password
        self.keepalive = keepalive
        self.ssl = ssl
        self.sock = None
        self.cb = None
        self.lw = None

    def _up(self):
        if not broker.up:
            raise OSError(104)  # ECONNRESET

    def set_callback(self, f):
        self.cb = f

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.lw = (topic, msg, retain, qos)

    def connect(self, clean_session=True, timeout=None):
        self.sock = Sock()
        self.sock.settimeout(timeout)
        broker.connects.append((self.client_id, self.server, self.port, self.user, self.pswd,
                                self.keepalive, timeout))
        if not broker.up:
            raise OSError(113)  # EHOSTUNREACH
        broker.client = self
        return 0

    def disconnect(self):
        self.sock = None

    def ping(self):
        self._up()
        broker.pings += 1

    def publish(self, topic, msg, retain=False, qos=0):
        self._up()
        broker.sent.append((topic, msg, retain))
        if qos == 1:
            self.wait_msg()  # the acknowledgement (any command waiting is taken first)

    def subscribe(self, topic, qos=0):
        self._up()
        broker.subs.append(topic)
        self.wait_msg()

    def wait_msg(self):
        """One message from the broker: a command from the inbox goes to the callback."""
        self._up()
        self.sock.setblocking(True)  # as the real one does after its first read
        if broker.inbox:
            self.cb(broker.subs[-1].encode(), broker.inbox.pop(0))
            return 0x30
        return None

    def check_msg(self):
        self.sock.setblocking(False)
        return self.wait_msg()
