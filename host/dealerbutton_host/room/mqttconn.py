"""Reaching an MQTT broker: the broker URL, credentials, TLS, the topic names.

Topics of one table (PROTOCOL.md, "MQTT topics"), under ``dealerbutton/<room>/<table>/``:
``state`` (retained JSON), ``event`` (each event line), ``online`` (retained ``1``/``0``,
``0`` also as the last will), ``cmd`` (a protocol command from the floor) and ``reply``.

Credentials never come from the command line (every user of the machine can read a
process's arguments): from a file given with --credentials, or from the environment
(DEALERBUTTON_MQTT_USERNAME, DEALERBUTTON_MQTT_PASSWORD). They are never logged.
"""

from __future__ import annotations

import os
import re
import ssl
import stat
from dataclasses import dataclass
from typing import Mapping, Optional
from urllib.parse import urlsplit

from ..options import Refused

PREFIX = "dealerbutton"
ENV_USERNAME = "DEALERBUTTON_MQTT_USERNAME"
ENV_PASSWORD = "DEALERBUTTON_MQTT_PASSWORD"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
SUBTOPICS = ("state", "event", "online", "cmd", "reply")


class BrokerError(Refused):
    """The broker settings are unusable (bad URL, unreadable credentials, TLS files)."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool = False
    cafile: Optional[str] = None
    certfile: Optional[str] = None
    keyfile: Optional[str] = None
    username: Optional[str] = None
    password: Optional[str] = None

    def __repr__(self):  # never the password, whoever prints this
        return "Broker(%s)" % self.describe()

    def describe(self) -> str:
        """host:port and how, for messages and logs: no secret in it."""
        how = "mqtts" if self.tls else "mqtt"
        who = (" as %s" % self.username) if self.username else ""
        return "%s://%s:%d%s" % (how, self.host, self.port, who)


def check_name(what: str, name: str) -> str:
    """A room or table name (`what`: the option that gives it) is one topic level: letters,
    digits, _ . - (1..40)."""
    if not NAME_RE.match(name or ""):
        raise BrokerError("%s %r: use 1 to 40 letters, digits, '_', '.' or '-' (it is a part "
                          "of the MQTT topic)" % (what, name))
    return name


def topic(room: str, table: str, sub: str) -> str:
    return "%s/%s/%s/%s" % (PREFIX, room, table, sub)


def parse_url(url: str) -> tuple:
    """mqtt://HOST[:PORT] or mqtts://HOST[:PORT] -> (host, port, tls)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise BrokerError("--broker %r: %s" % (url, e)) from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BrokerError("--broker %r: give mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS)"
                          % url)
    if parts.username is not None or parts.password is not None:
        raise BrokerError("--broker: credentials do not belong on the command line (any "
                          "user can read it): use --credentials FILE or the environment "
                          "(%s, %s)" % (ENV_USERNAME, ENV_PASSWORD))
    if not parts.hostname:
        raise BrokerError("--broker %r: no host name" % url)
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BrokerError("--broker %r: only mqtt://HOST[:PORT], no path" % url)
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls


def read_credentials(path: Optional[str], env: Mapping[str, str]) -> tuple:
    """(username, password) from a file of ``username=...`` and ``password=...`` lines
    ('#' comments), else from the environment; (None, None) when neither gives any."""
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            mode = os.stat(path).st_mode
        except (OSError, UnicodeDecodeError) as e:
            raise BrokerError("--credentials %s: cannot read the file: %s"
                              % (path, getattr(e, "strerror", None) or e)) from None
        found = {}
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, value = line.partition("=")
            key = key.strip().lower()
            if not sep or key not in ("username", "password"):
                # The line itself may hold the secret: say where, never what.
                raise BrokerError("--credentials %s, line %d: expected username=... or "
                                  "password=..." % (path, n))
            found[key] = value.strip()
        if "username" not in found:
            raise BrokerError("--credentials %s: no username=... line" % path)
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            import logging

            logging.getLogger("dealerbutton").warning(
                "the credentials file %s can be read by other users (chmod 600 it)", path)
        return found["username"], found.get("password")
    user = env.get(ENV_USERNAME)
    if user:
        return user, env.get(ENV_PASSWORD)
    if env.get(ENV_PASSWORD):
        raise BrokerError("%s is set but %s is not" % (ENV_PASSWORD, ENV_USERNAME))
    return None, None


def broker_from_args(url: str, credentials: Optional[str] = None, cafile: Optional[str] = None,
                     certfile: Optional[str] = None, keyfile: Optional[str] = None,
                     env: Optional[Mapping[str, str]] = None) -> Broker:
    host, port, tls = parse_url(url)
    if (cafile or certfile or keyfile) and not tls:
        raise BrokerError("--cafile/--certfile/--keyfile need TLS: give mqtts://%s:PORT" % host)
    for what, path in (("--cafile", cafile), ("--certfile", certfile), ("--keyfile", keyfile)):
        if path and not os.path.isfile(path):
            raise BrokerError("%s %s: no such file" % (what, path))
        if path and not os.access(path, os.R_OK):
            raise BrokerError("%s %s: cannot read the file" % (what, path))
    if keyfile and not certfile:
        raise BrokerError("--keyfile needs --certfile")
    username, password = read_credentials(credentials, os.environ if env is None else env)
    return Broker(host, port, tls, cafile, certfile, keyfile, username, password)


def make_client(broker: Broker, client_id: str = ""):
    """A paho-mqtt client set up for this broker (not connected yet)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    c = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                    client_id=client_id, protocol=mqtt.MQTTv311)
    if broker.username:
        c.username_pw_set(broker.username, broker.password)
    if broker.tls:
        try:
            c.tls_set(ca_certs=broker.cafile, certfile=broker.certfile, keyfile=broker.keyfile,
                      cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        except (ssl.SSLError, OSError, ValueError) as e:
            raise BrokerError("TLS setup: %s" % e) from None
    c.on_socket_open = no_delay
    c.reconnect_delay_set(min_delay=1, max_delay=10)
    c.max_queued_messages_set(200)  # while the broker is away, bounded
    return c


def no_delay(client, userdata, sock) -> None:
    """paho's on_socket_open: small messages go out at once. Without it, a state right
    after an event waits for the broker's delayed ACK (~40 ms each time)."""
    import socket

    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass  # TLS sockets pass it on; anything else: only slower


def reason_text(rc) -> str:
    """A paho reason code as words."""
    text = str(rc)
    known = {"Not authorized": "not authorized (check the credentials)",
             "Bad user name or password": "bad user name or password"}
    return known.get(text, text)


def reason_of(e: Exception) -> str:
    """Why connecting failed, in words (an ssl error's reason, an OSError's text)."""
    return str(getattr(e, "reason", None) or getattr(e, "strerror", None) or e)


KEEPALIVE_S = 15  # a table whose link dies is shown offline (its last will) within ~23 s


def start(client, broker: Broker, log) -> None:
    """Connect in the background and keep connected (paho retries with backoff). A first
    attempt is made here so that its reason (refused, certificate, name) can be logged;
    later failures are logged once until a connection succeeds."""
    failing = [False]

    def on_connect_fail(c, userdata):
        if not failing[0]:
            log.warning("cannot reach the broker %s; trying again", broker.describe())
            failing[0] = True

    previous = client.on_connect

    def on_connect(c, userdata, flags, rc, properties=None):
        failing[0] = False
        if previous:
            previous(c, userdata, flags, rc, properties)

    client.on_connect_fail = on_connect_fail
    client.on_connect = on_connect
    try:
        client.connect(broker.host, broker.port, keepalive=KEEPALIVE_S)
    except (OSError, ValueError) as e:  # ssl errors are OSErrors
        log.warning("cannot reach the broker %s: %s; trying again", broker.describe(),
                    reason_of(e))
        failing[0] = True
        client.connect_async(broker.host, broker.port, keepalive=KEEPALIVE_S)
    client.loop_start()
