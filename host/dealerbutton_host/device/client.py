"""A client for the device line protocol (PROTOCOL.md) over a pipe, a pty or a serial port.

One command out, exactly one reply line back; lines starting with ``* `` are events and
are collected separately (and handed to a callback as they arrive, in device order).

    client = Client.serial("/dev/ttyACM0")          # or Client.process(popen)
    client.sync()                                    # resync after connecting
    client.call("sit 3")                             # payload, or CommandError
    hand = client.json("deal 1")
    for line in client.take_events(): ...
"""

from __future__ import annotations

import collections
import errno
import json
import os
import select
import time
from typing import Callable, Deque, List, Optional

LINE_LIMIT = 120  # bytes per command line, as the device counts them


class DeviceError(Exception):
    """Talking to the device failed (timeout, lost connection, bad reply)."""


class DeviceTimeout(DeviceError):
    pass


class DeviceClosed(DeviceError):
    """The device went away: the process ended, the port vanished."""

    absent = False  # the port is not there (yet), as while a board resets


class CommandError(DeviceError):
    """The device answered ``err <code> <message>``."""

    def __init__(self, command: str, code: str, message: str):
        super().__init__("%s: err %s %s" % (command, code, message))
        self.command = command
        self.code = code
        self.message = message


class Reply:
    """One reply line: ``ok [payload]``, ``err <code> <message>``, or something else
    (``bad``: the device is not speaking the protocol, e.g. a board at its REPL)."""

    def __init__(self, line: str):
        self.line = line
        self.ok = False
        self.bad = False
        self.payload = ""
        self.code = ""
        self.message = ""
        if line == "ok" or line.startswith("ok "):
            self.ok = True
            self.payload = line[3:]
        elif line.startswith("err "):
            parts = line[4:].split(" ", 1)
            self.code = parts[0]
            self.message = parts[1] if len(parts) > 1 else ""
        else:
            self.bad = True
            self.code = "bad"
            self.message = line

    def __repr__(self):
        return "Reply(%r)" % self.line

    def json(self):
        return json.loads(self.payload)


class Link:
    """Bytes in and out; read() waits at most `timeout` seconds and returns b"" then.
    Raises DeviceClosed when the other end is gone."""

    name = "device"

    def read(self, timeout: float) -> bytes:
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class FdLink(Link):
    """A pair of file descriptors: a subprocess's pipes, or a pty master."""

    def __init__(self, rfd: int, wfd: int, name: str = "device", on_close=None):
        self.rfd = rfd
        self.wfd = wfd
        self.name = name
        self._on_close = on_close

    def read(self, timeout):
        try:
            ready, _, _ = select.select([self.rfd], [], [], max(0.0, timeout))
            if not ready:
                return b""
            data = os.read(self.rfd, 4096)
        except OSError as e:  # EIO: the other side of a pty closed
            raise DeviceClosed("%s: %s" % (self.name, e.strerror or e)) from None
        if not data:
            raise DeviceClosed("%s closed its output" % self.name)
        return data

    def write(self, data):
        try:
            view = memoryview(data)
            while view:
                n = os.write(self.wfd, view)
                view = view[n:]
        except OSError as e:
            raise DeviceClosed("%s: %s" % (self.name, e.strerror or e)) from None

    def close(self):
        if self._on_close:
            self._on_close()


class ProcessLink(FdLink):
    """The stdin/stdout pipes of a device subprocess (subprocess.Popen with PIPEs)."""

    def __init__(self, proc, name="emulator"):
        super().__init__(proc.stdout.fileno(), proc.stdin.fileno(), name)
        self.proc = proc

    def read(self, timeout):
        try:
            return super().read(timeout)
        except DeviceClosed:
            try:  # its output ended: it is exiting, give it a moment to say why
                rc = self.proc.wait(1.0)
            except Exception:
                raise DeviceClosed("%s closed its output" % self.name) from None
            raise DeviceClosed("%s exited with status %s%s"
                               % (self.name, rc, self._stderr_tail())) from None

    def _stderr_tail(self):
        err = self.proc.stderr
        if err is None:
            return ""
        try:
            if not select.select([err], [], [], 0)[0]:
                return ""
            text = os.read(err.fileno(), 4000).decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return (": " + text.splitlines()[-1]) if text else ""

    def close(self):
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass


class SerialLink(Link):
    """A serial port through pyserial: a board's USB serial, or a pseudo-terminal."""

    def __init__(self, port: str, baudrate: int = 115200):
        import serial  # pyserial

        self.name = port
        self._serial_mod = serial
        try:
            self.ser = serial.Serial(port, baudrate=baudrate, timeout=0, write_timeout=2,
                                     exclusive=True)
        except (serial.SerialException, OSError) as e:
            closed = DeviceClosed("cannot open %s: %s" % (port, _reason(e)))
            closed.absent = getattr(e, "errno", None) in (errno.ENOENT, errno.ENODEV,
                                                          errno.ENXIO, errno.EIO)
            raise closed from None

    def read(self, timeout):
        ser = self.ser
        try:
            waiting = ser.in_waiting
            if not waiting:
                ready, _, _ = select.select([ser.fileno()], [], [], max(0.0, timeout))
                if not ready:
                    return b""
                waiting = ser.in_waiting
            data = ser.read(max(1, waiting))
        except (self._serial_mod.SerialException, OSError) as e:
            raise DeviceClosed("%s: %s" % (self.name, _reason(e))) from None
        return data

    def write(self, data):
        try:
            self.ser.write(data)
            self.ser.flush()
        except (self._serial_mod.SerialException, OSError) as e:
            raise DeviceClosed("%s: %s" % (self.name, _reason(e))) from None

    def close(self):
        try:
            self.ser.close()
        except Exception:
            pass


def _reason(e):
    text = str(e)
    if isinstance(e, OSError) and e.strerror:
        text = e.strerror
    return text or type(e).__name__


class Client:
    """Send commands, read their replies, collect events.

    on_event(line) is called for every ``* `` line as it arrives; on_other(line) for any
    other line that is not the reply to a command (a boot banner, a late reply after a
    timeout, a traceback)."""

    def __init__(self, link: Link, timeout: float = 5.0,
                 on_event: Optional[Callable[[str], None]] = None,
                 on_other: Optional[Callable[[str], None]] = None):
        self.link = link
        self.timeout = timeout
        self.on_event = on_event
        self.on_other = on_other
        self.events: Deque[str] = collections.deque(maxlen=1000)
        self._buf = b""
        self._lines: Deque[str] = collections.deque()
        self._late = 0  # replies still owed to commands that timed out

    # -- constructors -------------------------------------------------------------
    @classmethod
    def process(cls, proc, **kw) -> "Client":
        return cls(ProcessLink(proc), **kw)

    @classmethod
    def serial(cls, port: str, **kw) -> "Client":
        return cls(SerialLink(port), **kw)

    @classmethod
    def connect(cls, port: str, timeout: float) -> "Client":
        """A client on the serial port, in step with the device (sync), or DeviceError."""
        client = cls.serial(port, timeout=timeout)
        try:
            client.sync()
        except DeviceError:
            client.close()
            raise
        return client

    @property
    def name(self):
        return self.link.name

    def close(self):
        self.link.close()

    # -- lines --------------------------------------------------------------------
    def _fill(self, timeout: float) -> bool:
        """Read what arrives within timeout into whole lines; True if any byte came."""
        data = self.link.read(timeout)
        if not data:
            return False
        self._buf += data
        while b"\n" in self._buf:
            raw, self._buf = self._buf.split(b"\n", 1)
            self._lines.append(raw.rstrip(b"\r").decode("ascii", "replace"))
        return True

    def _dispatch_unsolicited(self, line: str) -> None:
        if line.startswith("* "):
            self._event(line)
        elif self._late and (line.startswith("ok") or line.startswith("err ")):
            self._late -= 1  # the reply of a command we gave up waiting for
        elif line.strip():
            if self.on_other:
                self.on_other(line)

    def _event(self, line: str) -> None:
        self.events.append(line)
        if self.on_event:
            self.on_event(line)

    def poll(self, timeout: float = 0.0) -> int:
        """Read whatever the device sent (waiting at most timeout for the first byte);
        handle events and stray lines; return how many lines were handled."""
        n = 0
        deadline = time.monotonic() + timeout
        while True:
            got = self._fill(max(0.0, deadline - time.monotonic()))
            while self._lines:
                self._dispatch_unsolicited(self._lines.popleft())
                n += 1
            if not got:
                return n
            deadline = time.monotonic()  # more bytes may be queued: read without waiting

    def take_events(self) -> List[str]:
        out = list(self.events)
        self.events.clear()
        return out

    # -- commands -----------------------------------------------------------------
    def send(self, command: str, timeout: Optional[float] = None, end: bytes = b"\n") -> Reply:
        """Send one command line (ended by `end`: a serial terminal sends CR) and return its
        reply; events that arrive meanwhile are collected. Raises DeviceTimeout when no
        reply comes within the timeout."""
        if "\n" in command or "\r" in command:
            raise ValueError("one command per line: %r" % command)
        data = command.encode("ascii", "replace") + end
        self.poll(0)  # anything already waiting is not the reply to this command
        self.link.write(data)
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        while True:
            while self._lines:
                line = self._lines.popleft()
                if line.startswith("* "):
                    self._event(line)
                elif self._late and (line.startswith("ok") or line.startswith("err ")):
                    self._late -= 1
                elif line.strip() == "" and not command.strip() == "":
                    continue  # a blank line is never a reply
                else:
                    return Reply(line)
            left = deadline - time.monotonic()
            if left <= 0:
                self._late += 1
                raise DeviceTimeout("no reply to %r from %s within %.1f s"
                                    % (command, self.name, wait))
            self._fill(left)

    def call(self, command: str, timeout: Optional[float] = None) -> str:
        """The payload of an ``ok`` reply; CommandError for ``err``, DeviceError for a
        line that is not a reply at all."""
        reply = self.send(command, timeout)
        if reply.ok:
            return reply.payload
        if reply.bad:
            raise DeviceError("%s: not a protocol reply to %r: %r (is the app running?)"
                              % (self.name, command, reply.line))
        raise CommandError(command, reply.code, reply.message)

    def json(self, command: str, timeout: Optional[float] = None):
        payload = self.call(command, timeout)
        try:
            return json.loads(payload)
        except ValueError:
            raise DeviceError("%s: reply to %r is not JSON: %r"
                              % (self.name, command, payload)) from None

    def sync(self, timeout: Optional[float] = None) -> None:
        """Bring a fresh connection into step: end any half-sent line, then ``ping`` and
        drop everything up to its ``ok pong`` (the device answers in order, so whatever
        came before it, a backlog or the answer to the blank line, is stale)."""
        wait = self.timeout if timeout is None else timeout
        self.link.write(b"\nping\n")
        deadline = time.monotonic() + wait
        seen: List[str] = []
        while True:
            while self._lines:
                line = self._lines.popleft()
                if line.startswith("* "):
                    self._event(line)
                elif line == "ok pong":
                    self._late = 0
                    return
                elif line.strip():
                    seen.append(line)
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._fill(left)
        if seen:
            raise DeviceError("%s does not speak the dealerbutton protocol; it said: %s"
                              % (self.name, " | ".join(seen[-3:])))
        raise DeviceTimeout("%s did not answer ping within %.1f s" % (self.name, wait))
