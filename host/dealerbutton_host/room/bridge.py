"""One table's device on an MQTT broker: `dealerbutton bridge`.

    dealerbutton bridge --port /dev/ttyACM0 --broker mqtt://floor-pi --room club --table 7

TableBridge is the part that does not care how the device or the broker are reached: it
turns the device's event lines into ``event`` messages and a retained ``state``, and the
``cmd`` messages into protocol commands (only the table's commands, limited in rate), each
published back on ``reply`` with its answer. run() ties it to a serial port (a board, or
`dealerbutton emulate --pty`) and to paho-mqtt, and keeps both connected: a device that
goes away is waited for, the broker is reconnected by paho, and either coming back gets
the table's state published again.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from typing import Callable, Deque, Optional

from dealerbutton import net

from ..device.client import Client, DeviceClosed, DeviceError
from . import mqttconn

log = logging.getLogger("dealerbutton.bridge")

# The protocol's table commands a floor may send (the same list as a Pico W's own);
# never config, leds or anything that reaches the board's REPL.
TABLE_COMMANDS = net.TABLE_COMMANDS
CMD_LIMIT = 120  # bytes, as the device's line limit
STATE_EVERY_S = 2.0  # the state is re-read this often (published only when it changed)
CLOCK_EVERY_S = 30.0  # a running clock alone is republished this often
HOUR_S = 3600.0


def check_command(payload: bytes):
    """(command line, None) for an acceptable table command, else (None, why refused)."""
    if len(payload) > CMD_LIMIT:
        return None, "longer than %d bytes" % CMD_LIMIT
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError:
        return None, "not ASCII"
    if any(not 32 <= ord(ch) <= 126 for ch in text):
        return None, "control characters (one command, one line)"
    words = text.split()
    if not words:
        return None, "empty"
    cmd = words[0].lower()
    if cmd not in TABLE_COMMANDS:
        return None, "%s is not a table command (allowed: %s)" % (
            _shown(words[0], 20), " ".join(TABLE_COMMANDS))
    if len(words) > 3:
        return None, "too many words"
    for w in words[1:]:
        if not net.command_word(w):
            return None, "argument %s is neither a seat number, post/wait/half, on/off nor a " \
                "clock word (pause, resume, next, prev, set M:SS)" % _shown(w, 20)
    return " ".join([cmd] + [w.lower() for w in words[1:]]), None


def _shown(text, limit):
    """A piece of untrusted text, safe to log: printable, escaped, cut."""
    r = repr(text[:limit])
    return r + ("..." if len(text) > limit else "")


class RateLimit:
    """A token bucket: `burst` commands at once, then `rate` a second."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.now = now
        self.tokens = float(burst)
        self.at = now()

    def take(self) -> bool:
        t = self.now()
        self.tokens = min(self.burst, self.tokens + (t - self.at) * self.rate)
        self.at = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def hands_per_hour(deals, now: float, since: float) -> Optional[int]:
    """Hands dealt in the last hour, per hour: `deals` are the times of the deals seen,
    `since` when watching began; None until a minute has been watched."""
    span = min(HOUR_S, now - since)
    if span < 60:
        return None
    k = sum(1 for t in deals if now - t <= HOUR_S)
    return int(k * HOUR_S / span + 0.5)


def compose_state(room: str, table: str, state: dict, hand, per_hour, clock) -> str:
    """The retained ``state`` message: the device's state reply, its last hand, hands per
    hour and its tournament clock when it has one; keys in a fixed order."""
    out: dict = {"room": room, "table": table}
    for k in ("rules", "stakes", "hands", "seats"):
        out[k] = state.get(k)
    for k in state:  # whatever else a newer device reports (a tournament, ...)
        if k not in out:
            out[k] = state[k]
    out["hand"] = hand
    out["per_hour"] = per_hour
    if clock is not None:
        out["clock"] = clock
    return json.dumps(out, separators=(",", ":"))


class TableBridge:
    """The broker side of one table. `publish(sub, payload, retain)` sends on
    dealerbutton/<room>/<table>/<sub>; the device is a callable send(line) -> reply line
    (raising DeviceError when it is gone), given by attach()."""

    def __init__(self, room: str, table: str, publish: Callable[[str, str, bool], None],
                 rate: float = 2.0, burst: int = 5, now: Callable[[], float] = time.monotonic):
        self.room = room
        self.table = table
        self.publish = publish
        self.now = now
        self.limit = RateLimit(rate, burst, now)
        self.send: Optional[Callable[[str], str]] = None
        self.deals: Deque[float] = deque(maxlen=400)
        self.since = now()
        self.last_state: Optional[str] = None
        self.last_core: Optional[str] = None
        self.last_publish = 0.0
        self.last_read = -1e9
        self.dirty = True
        self.has_clock = True  # until the device says it has no `clock` command
        self.dropped = 0  # commands over the rate limit since the last log line
        self.dropped_logged = 0.0
        self.refused = 0

    # -- the device ------------------------------------------------------------------
    def attach(self, send: Callable[[str], str]) -> None:
        self.send = send
        self.has_clock = True
        self.dirty = True
        self.publish("online", "1", True)
        self.refresh(force=True)

    def detach(self) -> None:
        self.send = None
        self.publish("online", "0", True)

    def offline_again(self) -> None:
        """The broker is back but the device is not (a restarted broker may have lost
        what was retained): offline, with the last state known."""
        self.publish("online", "0", True)
        if self.last_state is not None:
            self.publish("state", self.last_state, True)

    def event(self, line: str) -> None:
        """An event line from the device."""
        self.publish("event", line, False)
        if line.startswith("* hand "):
            self.deals.append(self.now())
        self.dirty = True

    def _ask(self, command: str):
        """The JSON payload of the device's reply, or None for an ``err`` reply."""
        assert self.send is not None
        line = self.send(command)
        if line.startswith("ok "):
            try:
                return json.loads(line[3:])
            except ValueError:
                raise DeviceError("reply to %s is not JSON: %s" % (command, line[:80])) from None
        if line.startswith("err "):
            return None
        raise DeviceError("not a protocol reply to %s: %s" % (command, line[:80]))

    def refresh(self, force: bool = False) -> None:
        """Read the table's state and publish it (retained) if anything changed."""
        self.log_dropped()
        if self.send is None:
            return
        now = self.now()
        if not (force or self.dirty or now - self.last_read >= STATE_EVERY_S):
            return
        self.last_read = now
        self.dirty = False
        state = self._ask("state")
        if not isinstance(state, dict):
            raise DeviceError("the device's state is not a JSON object")
        hand = self._ask("hand")
        clock = None
        if self.has_clock:
            line = self.send("clock")
            if line.startswith("ok "):
                try:
                    clock = json.loads(line[3:])
                except ValueError:
                    clock = None
            else:
                self.has_clock = False  # an older device: `err unknown command clock`
        per_hour = hands_per_hour(self.deals, now, self.since)
        # The clock's time left changes all the time: alone it is republished every 30 s.
        core = compose_state(self.room, self.table, state, hand, per_hour,
                             _clock_core(clock))
        if (force or core != self.last_core
                or (clock is not None and now - self.last_publish >= CLOCK_EVERY_S)):
            text = compose_state(self.room, self.table, state, hand, per_hour, clock)
            self.publish("state", text, True)
            self.last_state = text
            self.last_core = core
            self.last_publish = now

    # -- the floor's commands ---------------------------------------------------------
    def command(self, payload: bytes) -> None:
        """A message on the cmd topic: run it if it is an allowed table command within the
        rate, publish it back with its reply; refuse anything else (logged)."""
        if not self.limit.take():
            self.dropped += 1
            self.log_dropped()
            return
        line, why = check_command(payload)
        if line is None:
            self.refused += 1
            text = payload[:60].decode("ascii", "backslashreplace")
            log.warning("refused command %s: %s", _shown(text, 40), why)
            # Shown back escaped: what the floor sent, never a control character.
            self._reply(text.encode("unicode_escape").decode("ascii")[:60],
                        "err refused %s" % why)
            return
        if self.send is None:
            self._reply(line, "err offline the device is not connected")
            return
        reply = self.send(line)
        log.info("command %s: %s", line, reply[:80])
        self._reply(line, reply)
        self.dirty = True

    def log_dropped(self) -> None:
        """Commands over the rate: one log line a second at most, with their count."""
        now = self.now()
        if self.dropped and now - self.dropped_logged >= 1.0:
            log.warning("refused %d command(s): more than %g a second", self.dropped,
                        self.limit.rate)
            self.dropped = 0
            self.dropped_logged = now

    def _reply(self, cmd: str, reply: str) -> None:
        self.publish("reply", json.dumps({"cmd": cmd, "reply": reply}, separators=(",", ":")),
                     False)


def _clock_core(clock):
    """The clock without its time left (what makes a change worth publishing at once)."""
    if not isinstance(clock, dict):
        return clock
    return {k: v for k, v in clock.items() if "ms" not in k and "left" not in k}


# -- a serial device and paho-mqtt --------------------------------------------------------
class Runner:
    """`dealerbutton bridge`: keeps a serial device and the broker connected to one
    TableBridge until stop is set."""

    def __init__(self, port: str, broker: mqttconn.Broker, room: str, table: str,
                 rate: float = 2.0, burst: int = 5, timeout: float = 5.0,
                 open_client: Optional[Callable[[], Client]] = None):
        self.port = port
        self.broker = broker
        self.room = room
        self.table = table
        self.timeout = timeout
        self.stop = threading.Event()
        self.commands: "queue.Queue[bytes]" = queue.Queue(maxsize=1000)
        self.connected = threading.Event()
        self._new_connection = threading.Event()
        self.client: Optional[Client] = None
        self.events: Deque[str] = deque()
        self.unpublished = 0
        self.open_client = open_client or self._open_serial
        self.mqtt = mqttconn.make_client(broker, client_id="dealerbutton-%s-%s" % (room, table))
        self.mqtt.will_set(mqttconn.topic(room, table, "online"), "0", qos=1, retain=True)
        self.mqtt.on_connect = self._on_connect
        self.mqtt.on_disconnect = self._on_disconnect
        self.mqtt.on_message = self._on_message
        self.tb = TableBridge(room, table, self._publish, rate=rate, burst=burst)

    # paho's thread ---------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, rc, properties=None):
        if rc.is_failure:
            log.warning("broker %s refused the connection: %s", self.broker.describe(),
                        mqttconn.reason_text(rc))
            return
        log.info("connected to %s", self.broker.describe())
        client.subscribe(mqttconn.topic(self.room, self.table, "cmd"), qos=1)
        self.connected.set()
        self._new_connection.set()

    def _on_disconnect(self, client, userdata, flags, rc, properties=None):
        if self.connected.is_set() and not self.stop.is_set():
            log.warning("lost the broker %s (%s); reconnecting", self.broker.describe(),
                        mqttconn.reason_text(rc))
        self.connected.clear()

    def _on_message(self, client, userdata, msg):
        try:
            self.commands.put_nowait(bytes(msg.payload))
        except queue.Full:
            pass  # a flood: the rate limit would refuse these anyway

    # the main thread -------------------------------------------------------------------
    def _publish(self, sub: str, payload: str, retain: bool) -> None:
        if not self.connected.is_set():
            if sub == "event":
                self.unpublished += 1  # counted; the state sent on reconnecting has the truth
            return
        qos = 0 if sub == "event" else 1
        self.mqtt.publish(mqttconn.topic(self.room, self.table, sub), payload, qos=qos,
                          retain=retain)

    def _open_serial(self) -> Client:
        return Client.serial(self.port, timeout=self.timeout)

    def _connect_device(self) -> None:
        client = self.open_client()
        try:
            client.sync()
        except DeviceError:
            client.close()
            raise
        client.on_event = self.events.append
        client.on_other = lambda line: log.info("device said: %s", line[:120])
        self.client = client
        log.info("device %s connected", self.port)
        if self.connected.is_set():
            self._new_connection.clear()  # attached now: no need to again
        self.tb.attach(self._device_send)

    def _device_send(self, line: str) -> str:
        assert self.client is not None
        return self.client.send(line).line

    def _lose_device(self, why: str) -> None:
        log.warning("lost the device %s: %s; waiting for it", self.port, why)
        if self.client is not None:
            self.client.close()
        self.client = None
        self.tb.detach()

    def run(self) -> int:
        mqttconn.start(self.mqtt, self.broker, log)
        backoff = 0.25
        last_error = None
        try:
            while not self.stop.is_set():
                if self._new_connection.is_set() and self.client is None:
                    self._new_connection.clear()
                    self.tb.offline_again()
                if self.client is None:
                    try:
                        self._connect_device()
                        backoff = 0.25
                        last_error = None
                    except DeviceError as e:
                        if str(e) != last_error:
                            log.warning("device %s: %s; trying again", self.port, e)
                            last_error = str(e)
                        self._drain_commands()
                        self.stop.wait(backoff)
                        backoff = min(5.0, backoff * 2)
                        continue
                try:
                    self._step()
                except DeviceClosed as e:
                    self._lose_device(str(e))
                except DeviceError as e:
                    log.warning("device %s: %s", self.port, e)
                    self._lose_device(str(e))
        finally:
            if self.connected.is_set():
                info = self.mqtt.publish(mqttconn.topic(self.room, self.table, "online"), "0",
                                         qos=1, retain=True)
                try:
                    info.wait_for_publish(2.0)
                except (RuntimeError, ValueError):
                    pass
            self.mqtt.disconnect()
            self.mqtt.loop_stop()
            if self.client is not None:
                self.client.close()
        return 0

    def _drain_commands(self) -> None:
        """While the device is away: commands are answered as such."""
        while True:
            try:
                payload = self.commands.get_nowait()
            except queue.Empty:
                return
            self.tb.command(payload)

    def _step(self) -> None:
        assert self.client is not None
        if self._new_connection.is_set():
            self._new_connection.clear()
            if self.unpublished:
                log.info("%d event(s) came while the broker was away; the state is "
                         "published again", self.unpublished)
                self.unpublished = 0
            self.tb.attach(self._device_send)  # online 1 and the state, retained
        self.client.poll(0.05)
        while self.events:
            self.tb.event(self.events.popleft())
        handled = 0
        while handled < 20:
            try:
                payload = self.commands.get_nowait()
            except queue.Empty:
                break
            self.tb.command(payload)
            handled += 1
            while self.events:
                self.tb.event(self.events.popleft())
        self.tb.refresh()
