"""Card-room load benchmark: N simulated tables on a local Mosquitto, one room view.

    python -m dealerbutton_host.room.bench                # N = 10, 100, 300; 10 s each
    python -m dealerbutton_host.room.bench --tables 50 --seconds 5

Each table is the firmware's App with emulated buttons (sim.table.SimTable) behind the
bridge's own TableBridge and its own MQTT connection (with its last will), all in one
"bridges" process. Every table presses its next-hand button about every --period seconds
(a real table deals about once in two minutes: at 3 s this is 40 times faster). Printed for each N:
  latency   press of the button -> the room view holding that hand's state (median, p99)
  CPU       of the broker, of the bridges process (tables and bridges), of the room view,
            in % of one core over the run
  msgs/s    messages the room view received
  late view a room view started after the run: how long until it holds every table, all
            from the broker's retained states.

    python -m dealerbutton_host.room.bench --hand-for-hand              # 10 tables, 5 hands
    python -m dealerbutton_host.room.bench --hand-for-hand --tables 20 --hands 10

Hand-for-hand: N tournament tables, each `dealerbutton emulate` behind its own
`dealerbutton bridge` process, and the room's hand-for-hand (handforhand.Floor) in this
process. For each hand every table's next-hand button is pressed (`press 0` on its cmd
topic) in a random order over about a second; when the last hand is over the room sends
`deal` to every table. Printed for each hand: the spread between the first and the last
table's deal (their `* hand` events' arrival at the room) and the time from the room's
deal to the last of them; then the median and the worst spread, and the target.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import mqttconn
from .model import RoomModel

ROOM = "bench"
SPREAD_TARGET_MS = 100.0  # hand-for-hand: the first to the last table's deal
# A tournament table for the hand-for-hand run: one long level, so that no level or break
# changes during it.
H4H_CONFIG = {"seats": 9, "leds": 24, "tournament": {"levels": [
    {"sb": 1000, "bb": 2000, "ante": 2000, "minutes": 600}]}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(folder: Path):
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    port = _free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text("listener %d 127.0.0.1\npersistence false\nallow_anonymous true\n"
                    "max_queued_messages 10000\nset_tcp_nodelay true\nuser %s\n"
                    % (port, pwd.getpwuid(os.getuid()).pw_name))
    proc = subprocess.Popen([exe, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, port
        except OSError:
            if time.monotonic() > end:
                proc.kill()
                raise RuntimeError("mosquitto did not start") from None
            time.sleep(0.05)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the bridges process ------------------------------------------------------------------
def run_tables(port: int, n: int, seconds: float, period: float, out: str) -> None:
    """The bridges process: n tables, each behind its bridge and its own connection, a hand
    under way at each; their buttons pressed for `seconds`; the deals' press times, the CPU
    and the messages published written to `out` as JSON. It stays connected until a line
    comes on stdin."""
    tables, published = connect_tables(port, n)
    for _name, t, tb, _c in tables:
        for seat in range(1, 7):  # six players sit down by their buttons
            t.press(seat)
        t.press(0)  # the draw for the button ...
        t.press(0)  # ... and the first hand
        tb.attach(t.send)
    print("ready", flush=True)
    cpu0 = time.process_time()
    start = time.monotonic()
    stamps = press_buttons(tables, start, seconds, period)
    cpu = time.process_time() - cpu0
    with open(out, "w") as f:
        json.dump({"stamps": stamps, "cpu": cpu, "seconds": time.monotonic() - start,
                   "published": published[0]}, f)
    print("done", flush=True)
    sys.stdin.readline()  # stay connected until told (the late view reads retained state)
    for table in tables:
        c = table[3]
        c.disconnect()
        c.loop_stop()


def connect_tables(port: int, n: int):
    """n tables 1..n, each a SimTable behind a TableBridge with its own MQTT connection
    (and its last will), every one connected: ([(name, table, bridge, connection)],
    [messages published so far])."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from ..sim.table import SimTable
    from .bridge import TableBridge

    tables = []
    connected = threading.Semaphore(0)
    published = [0]
    for i in range(1, n + 1):
        name = str(i)
        c = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                        client_id="bench-%d" % i)
        c.will_set(mqttconn.topic(ROOM, name, "online"), "0", qos=1, retain=True)
        c.on_connect = lambda *a: connected.release()
        c.on_socket_open = mqttconn.no_delay
        c.max_queued_messages_set(1000)
        c.connect_async("127.0.0.1", port, keepalive=30)
        c.loop_start()

        def publish(sub, payload, retain, c=c, name=name):
            published[0] += 1
            c.publish(mqttconn.topic(ROOM, name, sub), payload, qos=0 if sub == "event" else 1,
                      retain=retain)

        tb = TableBridge(ROOM, name, publish)
        t = SimTable(9, on_event=tb.event, seed=i)
        tables.append((name, t, tb, c))
    for _ in range(n):
        if not connected.acquire(timeout=30):
            raise SystemExit("bridges: not every table could connect")
    return tables, published


def press_buttons(tables, start: float, seconds: float, period: float) -> list:
    """For `seconds` from `start`, each table's next-hand button about every `period`
    seconds (a seat's button one time in ten: somebody steps away or comes back), the
    tables in a random order: (table, hand, when its button was pressed) for each hand
    dealt."""
    rng = random.Random(7)
    stamps = []
    due = [(rng.uniform(0, period), k) for k in range(len(tables))]
    due.sort()
    end = start + seconds
    while True:
        now = time.monotonic()
        if now >= end:
            break
        at, k = due[0]
        if start + at > now:
            time.sleep(min(0.005, start + at - now))
            continue
        name, t, tb, c = tables[k]
        t0 = time.monotonic()
        if rng.random() < 0.1:
            t.press(rng.randint(1, 6))  # somebody steps away or comes back
        else:
            before = t.app.table.hands
            t.press(0)  # the next hand
            if t.app.table.hands > before:
                stamps.append((name, t.app.table.hands, t0))
        tb.refresh()
        due[0] = (at + period * rng.uniform(0.5, 1.5), k)
        due.sort()
    return stamps


# -- the room view and the report ---------------------------------------------------------
def room_client(port: int, model: RoomModel, counter=None, then=None, start=True):
    """A room view's client on the local broker; then(topic, payload, when), if given,
    after each message the model took; start: connect now (else the caller does)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    c = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2)

    def on_connect(client, userdata, flags, rc, properties=None):
        for t in model.topics():
            client.subscribe(t, qos=1)

    def on_message(client, userdata, msg):
        when = time.monotonic()
        if counter is not None:
            counter[0] += 1
        model.handle(msg.topic, bytes(msg.payload))
        if then is not None:
            then(msg.topic, bytes(msg.payload), when)

    c.on_connect = on_connect
    c.on_message = on_message
    c.on_socket_open = mqttconn.no_delay
    if start:
        c.connect("127.0.0.1", port)
        c.loop_start()
    return c


def one_run(n: int, seconds: float, period: float, folder: Path) -> dict:
    """A run of n tables for `seconds` on a broker of its own, the room view following them:
    the press -> room view latencies, the CPU of each process, the messages a second, and
    how long a room view started last takes to hold every table."""
    broker, port = start_broker(folder)
    seen = {}

    def on_state(name, data, t):
        key = (name, data.get("hands"))
        if key not in seen:
            seen[key] = t

    model = RoomModel(ROOM, on_state=on_state)
    counter = [0]
    room = room_client(port, model, counter)
    out = folder / ("tables%d.json" % n)
    sim = subprocess.Popen([sys.executable, "-m", "dealerbutton_host.room.bench", "--sim",
                            "--port", str(port), "--tables", str(n), "--seconds", str(seconds),
                            "--period", str(period), "--out", str(out)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert sim.stdout is not None and sim.stdin is not None
        if sim.stdout.readline().strip() != "ready":
            raise RuntimeError("the bridges process did not start")
        b0, r0, m0, t0 = cpu_seconds(broker.pid), time.process_time(), counter[0], \
            time.monotonic()
        if sim.stdout.readline().strip() != "done":
            raise RuntimeError("the bridges process failed")
        time.sleep(0.5)  # the last messages on their way
        wall = time.monotonic() - t0
        broker_cpu = cpu_seconds(broker.pid) - b0
        room_cpu = time.process_time() - r0
        msgs = counter[0] - m0
        result = json.loads(out.read_text())
        lat, missed = latencies(result["stamps"], seen)
        room.disconnect()
        room.loop_stop()
        late_s, late_n = late_view(port, n)
        sim.stdin.write("\n")
        sim.stdin.flush()
        sim.wait(30)
    finally:
        if sim.poll() is None:
            sim.kill()
        broker.terminate()
        broker.wait(10)
    return {"n": n, "deals": len(result["stamps"]), "missed": missed,
            "median": statistics.median(lat) if lat else None,
            "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else None,
            "broker": 100 * broker_cpu / wall, "bridges": 100 * result["cpu"] / result["seconds"],
            "room": 100 * room_cpu / wall, "msgs": msgs / wall,
            "published": result["published"] / result["seconds"],
            "late_s": late_s, "late_n": late_n}


def latencies(stamps, seen):
    """Each deal's time from its press to the room view holding its state, in ms, sorted;
    and how many deals the room view never held."""
    lat = []
    missed = 0
    for name, hands, stamp in stamps:
        t = seen.get((name, hands))
        if t is None:
            missed += 1
        else:
            lat.append((t - stamp) * 1000)
    lat.sort()
    return lat, missed


def late_view(port: int, n: int):
    """A room view started last, everything from the retained states: how long until it
    holds every one of the n tables online (at most 30 s), and how many it holds then."""
    late = RoomModel(ROOM)
    t_late = time.monotonic()
    c = room_client(port, late)
    while time.monotonic() - t_late < 30:
        if sum(1 for t in late.summary()["tables"] if t["state"] and t["online"]) == n:
            break
        time.sleep(0.005)
    late_s = time.monotonic() - t_late
    late_n = sum(1 for t in late.summary()["tables"] if t["state"] and t["online"])
    c.disconnect()
    c.loop_stop()
    return late_s, late_n


# -- hand-for-hand ------------------------------------------------------------------------
class HandForHandRoom:
    """N emulated tournament tables behind their bridges on the local broker, and the room's
    hand-for-hand: the `* hand` events' arrival times, per table, as the room hears them."""

    def __init__(self, port: int, n: int, folder: Path):
        from .handforhand import Floor

        self.port = port
        self.names = [str(i) for i in range(1, n + 1)]
        self.procs: list = []
        self.lock = threading.Lock()
        self.deals: dict = {}   # (table, hand number) -> when its `* hand` came
        self.dealt_at: list = []  # when the room sent each round's deals
        self.model = RoomModel(ROOM)
        self.client = room_client(port, self.model, then=self._heard, start=False)
        self.floor = Floor(self.model, self._publish, mode=True)
        config = folder / "h4h-config.json"
        config.write_text(json.dumps(H4H_CONFIG))
        cli = [sys.executable, "-m", "dealerbutton_host.cli"]
        for name in self.names:
            link = str(folder / ("tty" + name))
            emu = subprocess.Popen(cli + ["emulate", "--pty", "--link", link, "--state",
                                          str(folder / ("state" + name)), "--config",
                                          str(config)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.procs.append(emu)
            assert emu.stdout is not None
            if "device on" not in emu.stdout.readline():
                raise RuntimeError("table %s's emulator did not start" % name)
            self.procs.append(subprocess.Popen(
                cli + ["bridge", "--quiet", "--port", link, "--broker",
                       "mqtt://127.0.0.1:%d" % port, "--room", ROOM, "--table", name],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _publish(self, table: str, line: str) -> None:
        if line == "deal":
            with self.lock:
                if not self.dealt_at or time.monotonic() - self.dealt_at[-1] > 0.5:
                    self.dealt_at.append(time.monotonic())
        self.command(table, line)

    def _heard(self, topic: str, payload: bytes, when: float) -> None:
        if topic.endswith("/event") and payload.startswith(b"* hand "):
            hand = json.loads(payload[7:])
            name = topic.split("/")[2]
            with self.lock:
                self.deals.setdefault((name, hand["n"]), when)
        self.floor.step()

    def tables(self) -> list:
        return [t for t in self.model.summary()["tables"] if t["name"] in self.names]

    def wait(self, ready, what: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not ready(self.tables()):
            if time.monotonic() > end:
                raise RuntimeError("hand-for-hand bench: %s did not happen in %d s"
                                   % (what, timeout))
            time.sleep(0.02)

    def command(self, name: str, line: str) -> None:
        self.client.publish(mqttconn.topic(ROOM, name, "cmd"), line, qos=1)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def hand_for_hand_run(n: int, hands: int, folder: Path, out=print) -> dict:
    """The hand-for-hand measurement: prints a line per hand, returns the spreads (ms)."""
    broker, port = start_broker(folder)
    room = None
    try:
        room = HandForHandRoom(port, n, folder)
        everyone = len(room.names)
        room.wait(lambda ts: len(ts) == everyone and all(t["online"] and t["state"]
                                                         for t in ts), "every table online")
        for line in ["sit %d" % s for s in range(1, 7)] + ["deal 1"]:
            for name in room.names:  # six players, the first hand dealt
                room.command(name, line)
            time.sleep(0.55)  # (a bridge takes 2 commands a second after its first 5)
        room.wait(lambda ts: all(t["hands"] == 1 and t["handforhand"] == "playing"
                                 for t in ts), "the first hands, hand-for-hand on")
        rng = random.Random(11)
        spreads = []
        for k in range(2, hands + 2):
            order = list(room.names)
            rng.shuffle(order)
            for name in order:  # the hands end over about a second
                time.sleep(rng.uniform(0, 2.0 / len(order)))
                room.command(name, "press 0")
            room.wait(lambda ts, k=k: all(t["hands"] == k and t["handforhand"] == "playing"
                                          for t in ts), "hand %d dealt everywhere" % k)
            with room.lock:
                times = [room.deals[(name, k)] for name in room.names]
                sent = room.dealt_at[-1]
            spread = (max(times) - min(times)) * 1000
            spreads.append(spread)
            out("%4d %11.1f %14.1f" % (k, spread, (max(times) - sent) * 1000))
        return {"n": n, "spreads": spreads}
    finally:
        if room is not None:
            room.close()
        broker.terminate()
        broker.wait(10)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dealerbutton_host.room.bench",
                                description=(__doc__ or "").split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[10, 100, 300])
    p.add_argument("--seconds", type=float, default=10.0, help="seconds of play per run")
    p.add_argument("--period", type=float, default=3.0,
                   help="seconds between one table's presses, on average")
    p.add_argument("--hand-for-hand", action="store_true",
                   help="measure hand-for-hand instead: the spread of the tables' deals")
    p.add_argument("--hands", type=int, default=5,
                   help="hand-for-hand: hands dealt together (default: 5)")
    p.add_argument("--sim", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.sim:
        run_tables(args.port, args.tables[0], args.seconds, args.period, args.out)
        return 0
    if not (shutil.which("mosquitto") or os.path.exists("/usr/sbin/mosquitto")):
        sys.stderr.write("room bench: it runs a local Mosquitto, which is not installed "
                         "(Debian: apt-get install mosquitto)\n")
        return 1
    if args.hand_for_hand:
        return hand_for_hand_main(args.tables[0], args.hands)
    print("card room on a local Mosquitto: each table the firmware App with emulated buttons,")
    print("a press about every %g s per table, %g s per run" % (args.period, args.seconds))
    print("%6s %6s %11s %9s %8s %9s %6s %8s %14s" % (
        "tables", "deals", "median ms", "p99 ms", "broker", "bridges", "room", "msgs/s",
        "late view"))
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.tables:
            r = one_run(n, args.seconds, args.period, Path(tmp))
            print("%6d %6d %11.1f %9.1f %7.0f%% %8.0f%% %5.0f%% %8.0f %6d in %4.2f s%s" % (
                r["n"], r["deals"], r["median"] or 0, r["p99"] or 0, r["broker"],
                r["bridges"], r["room"], r["msgs"], r["late_n"], r["late_s"],
                "" if not r["missed"] else "  (%d deals never seen)" % r["missed"]),
                flush=True)
    return 0


def hand_for_hand_main(n: int, hands: int) -> int:
    print("hand-for-hand on a local Mosquitto: %d tables, each `dealerbutton emulate` behind "
          "`dealerbutton bridge`," % n)
    print("every next-hand button pressed within a second, %d hands dealt together" % hands)
    print("hand   spread ms   room -> last ms")
    with tempfile.TemporaryDirectory() as tmp:
        r = hand_for_hand_run(n, hands, Path(tmp), out=lambda line: print(line, flush=True))
    spreads = sorted(r["spreads"])
    print("spread between the first and the last table's deal: median %.1f ms, worst %.1f ms "
          "(target <= %d ms)" % (statistics.median(spreads), spreads[-1], SPREAD_TARGET_MS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
