"""A real Mosquitto for the tests: started on a free port of 127.0.0.1 with a config file
written here (anonymous, a password file, or TLS with a self-signed certificate made by
openssl), stopped at the end; and a subscriber that records what the broker delivers."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("mosquitto did not listen on %d" % port)


def make_cert(folder: Path) -> tuple:
    """A self-signed certificate for 127.0.0.1 (and localhost): (cert, key)."""
    cert, key = folder / "broker.crt", folder / "broker.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


class Mosquitto:
    def __init__(self, folder: Path, users=None, tls: bool = False, port: int = 0):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.tls = tls
        # Started as root, mosquitto would become the user `mosquitto`, who cannot read
        # the test's private folder: it stays whoever we are.
        lines = ["listener %d 127.0.0.1" % self.port, "persistence false",
                 "user %s" % pwd.getpwuid(os.getuid()).pw_name]
        if users:
            pw = self.folder / "passwd"
            pw.write_text("")
            for user, password in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", str(pw), user, password], check=True,
                               capture_output=True)
            os.chmod(pw, 0o600)
            lines += ["allow_anonymous false", "password_file %s" % pw]
        else:
            lines.append("allow_anonymous true")
        if tls:
            self.cert, self.key = make_cert(self.folder)
            lines += ["certfile %s" % self.cert, "keyfile %s" % self.key]
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.log = self.folder / "mosquitto.log"
        self.proc = None
        self.start()

    @property
    def url(self) -> str:
        return "%s://127.0.0.1:%d" % ("mqtts" if self.tls else "mqtt", self.port)

    def start(self) -> None:
        self._logf = open(self.log, "ab")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=self._logf,
                                     stderr=subprocess.STDOUT)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            self._logf.close()


class Recorder:
    """A paho subscriber keeping every message: [(topic, payload str, retain)]."""

    def __init__(self, broker, topics=("dealerbutton/#",), username=None, password=None):
        import paho.mqtt.client as mqtt

        self.messages = []
        self.lock = threading.RLock()
        self.ready = threading.Event()
        c = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2)
        if username:
            c.username_pw_set(username, password)
        if broker.tls:
            c.tls_set(ca_certs=str(broker.cert))

        def on_connect(client, userdata, flags, rc, properties=None):
            for t in topics:
                client.subscribe(t, qos=1)
            self.ready.set()

        def on_message(client, userdata, msg):
            with self.lock:
                self.messages.append((msg.topic, msg.payload.decode("utf-8", "replace"),
                                      bool(msg.retain)))

        c.on_connect = on_connect
        c.on_message = on_message
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        assert self.ready.wait(5), "the recorder could not subscribe"
        time.sleep(0.1)

    def publish(self, topic, payload, retain=False):
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def of(self, topic):
        with self.lock:
            return [p for t, p, _ in self.messages if t == topic]

    def wait_for(self, predicate, timeout=10.0, what="a message"):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                found = [m for m in self.messages if predicate(m)]
            if found:
                return found[-1]
            time.sleep(0.02)
        with self.lock:
            tail = self.messages[-8:]
        raise AssertionError("no %s within %.0f s; last messages: %r" % (what, timeout, tail))

    def last_state(self, topic):
        states = self.of(topic)
        return json.loads(states[-1]) if states else None

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
