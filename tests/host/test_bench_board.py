"""The board bench's Table (host/dealerbutton_host/bench/board.py) on a fake board and a fake
serial line: its client stays in step with the app when a first `ping` goes unanswered
while the app is still starting (as on a busy machine)."""

import time

from dealerbutton_host.bench import board as bench
from dealerbutton_host.device.client import Client, Link


class StartingApp:
    """The app on the board's serial line: it reads nothing until it has started (wake()),
    then answers every line it was sent, in order, one every 50 ms (the emulated board
    runs slower than this computer)."""

    def __init__(self):
        self.awake = False
        self.next_answer = 0.0
        self.inbox = b""
        self.outbox = b""

    def wake(self):
        self.awake = True
        self.next_answer = time.monotonic() + 0.05

    def serve(self):
        if not self.awake:
            return
        while b"\n" in self.inbox and time.monotonic() >= self.next_answer:
            raw, self.inbox = self.inbox.split(b"\n", 1)
            line = raw.decode().strip()
            if line == "ping":
                self.outbox += b"ok pong\r\n"
            elif line == "state":
                self.outbox += b'ok {"seats":[]}\r\n'
            elif line:
                self.outbox += b"err unknown command %s (commands: ping state)\r\n" % (
                    line[:20].encode())
            if line:
                self.next_answer = time.monotonic() + 0.05


class Line(Link):
    """One opening of the board's serial line (the pty): what an earlier opening sent
    is still the app's to answer."""

    def __init__(self, app):
        self.app = app

    def write(self, data):
        self.app.inbox += data

    def read(self, timeout):
        self.app.serve()
        data, self.app.outbox = self.app.outbox, b""
        if not data:
            time.sleep(min(timeout, 0.01))
        return data


class Board:
    nanos = 0
    pty = "/dev/fake-pty"

    def wait_until(self, nanos, timeout=None):
        return {"nanos": nanos}


def test_a_ping_answered_late_is_not_taken_for_the_next_reply(monkeypatch):
    app = StartingApp()
    opened = []

    def serial(port, timeout):
        if opened:
            app.wake()                   # up by the second try: the first ping is late
        opened.append(port)
        return Client(Line(app), timeout=1.0)

    monkeypatch.setattr(bench.Client, "serial", staticmethod(serial))
    table = bench.Table.__new__(bench.Table)
    table.runtime = "circuitpython"
    table.board = Board()  # pyright: ignore[reportAttributeAccessIssue]
    table.client = None
    table.connect()
    assert len(opened) >= 2           # (a busy machine may take more tries)
    assert table.call("state") == '{"seats":[]}'
    assert table.call("ping") == "pong"
