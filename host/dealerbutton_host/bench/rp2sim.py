"""The emulated Pico: MicroPython's (or CircuitPython's) own Pico firmware on rp2040js, from
the rp2sim kit, driven from Python.

The kit is a folder (a checkout of rp2sim: firmware images, the runner `measure/run2.mjs`,
its package-lock.json). It is found by --kit, then $DEALERBUTTON_RP2SIM, then
`../shared/rp2sim` beside this checkout. It is treated as read-only: it is copied once into
a scratch folder (build/rp2sim in a checkout, the user's cache folder otherwise) and its
Node modules are installed there with `npm ci`. Emulated time is cycle-counted at 125 MHz,
so what is measured in it does not depend on how busy this machine is.

    kit = Kit.find()                       # raises KitMissing, saying what is missing
    with kit.board() as board:             # boots the firmware on a pty + a control port
        deploy(port=board.pty)             # the project's own deploy
        board.press(GPIO, ms=100)          # a button held 100 emulated ms
        board.busy_share(2000)             # CPU share over 2 emulated seconds
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

KIT_ENV = "DEALERBUTTON_RP2SIM"
MICROPYTHON_UF2 = "firmware/firmware.uf2"
CIRCUITPYTHON_UF2 = "firmware/circuitpython-10.2.1-raspberry_pi_pico.uf2"
CYCLES_PER_NS = 0.125  # 125 MHz
NS_PER_MS = 1_000_000


class KitMissing(Exception):
    """The kit, or a program it needs (node, npm, socat), is not on this machine."""


class BoardError(Exception):
    """The emulated board did not start or stopped answering."""


def checkout_root() -> Path:
    """The checkout this package runs from (host/dealerbutton_host/bench/ -> the repository)."""
    return Path(__file__).resolve().parents[3]


def default_kit() -> Path:
    return checkout_root().parent / "shared" / "rp2sim"


def _scratch_base() -> Path:
    root = checkout_root()
    if (root / "pyproject.toml").exists() and (root / "firmware").is_dir():
        return root / "build"
    import platformdirs

    return Path(platformdirs.user_cache_path("dealerbutton", appauthor=False))


def _stamp(src: Path) -> str:
    """What the scratch copy was made from: every file's path, size and mtime."""
    h = hashlib.sha256()
    for p in sorted(src.rglob("*")):
        if "node_modules" in p.parts or not p.is_file():
            continue
        st = p.stat()
        h.update(("%s %d %d\n" % (p.relative_to(src), st.st_size, int(st.st_mtime))).encode())
    return h.hexdigest()


class Kit:
    """An rp2sim kit, ready to boot boards from its scratch copy (prepare())."""

    def __init__(self, source: Path, scratch: Optional[Path] = None):
        self.source = source
        self.scratch = scratch or _scratch_base() / "rp2sim"
        self.ready = False

    @classmethod
    def find(cls, path: Optional[str] = None) -> "Kit":
        """The kit named by path, $DEALERBUTTON_RP2SIM or ../shared/rp2sim beside the
        checkout; KitMissing (naming where it looked) when there is none."""
        named = path or os.environ.get(KIT_ENV)
        where = Path(named).expanduser() if named else default_kit()
        how = "--kit" if path else ("$" + KIT_ENV if named else "the default place")
        if not (where / MICROPYTHON_UF2).is_file() or not (where / "measure" / "run2.mjs").is_file():
            raise KitMissing(
                "no rp2sim kit at %s (%s): the emulated Pico needs one; give its folder with "
                "--kit or $%s" % (where, how, KIT_ENV))
        return cls(where.resolve())

    @staticmethod
    def missing_programs() -> List[str]:
        return [p for p in ("node", "npm", "socat") if shutil.which(p) is None]

    def prepare(self, progress: Callable[[str], None] = lambda s: None) -> "Kit":
        """Copy the kit into its scratch folder (again when the kit changed) and install its
        Node modules there."""
        if self.ready:
            return self
        missing = self.missing_programs()
        if missing:
            raise KitMissing("the emulated Pico needs %s on PATH (Node.js >= 18, socat)"
                             % ", ".join(missing))
        self.scratch.parent.mkdir(parents=True, exist_ok=True)
        # Test processes running side by side (pytest -n) prepare it one at a time: the
        # first copies, the others find the copy made.
        with open(self.scratch.parent / ".rp2sim.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self._copy(progress)
        self.ready = True
        return self

    def _copy(self, progress: Callable[[str], None]) -> None:
        """The scratch copy and its Node modules, made again when the kit changed."""
        stamp_file = self.scratch / ".dealerbutton-stamp"
        modules = self.scratch / "node_modules" / "rp2040js"
        if self.source.resolve() == self.scratch.resolve():
            # The kit named is the scratch copy itself ($DEALERBUTTON_RP2SIM set to it): used
            # as it is, never copied onto itself (which would delete it first).
            if not modules.is_dir():
                raise KitMissing("%s has no Node modules: run `npm ci` there" % self.scratch)
            return
        stamp = _stamp(self.source)
        if not (stamp_file.exists() and stamp_file.read_text() == stamp and modules.is_dir()):
            progress("copying the rp2sim kit %s to %s" % (self.source, self.scratch))
            if self.scratch.exists():
                shutil.rmtree(self.scratch)
            shutil.copytree(self.source, self.scratch,
                            ignore=shutil.ignore_patterns("node_modules", "*.img"))
            for p in [self.scratch, *self.scratch.rglob("*")]:
                p.chmod(p.stat().st_mode | 0o200)   # the kit may be read-only
            progress("installing the kit's Node modules (npm ci)")
            r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"],
                               cwd=self.scratch, capture_output=True, text=True)
            if r.returncode:
                raise KitMissing("npm ci in %s failed: %s" % (self.scratch, (r.stderr or r.stdout)
                                                              .strip()[-500:]))
            stamp_file.write_text(stamp)

    def path(self, rel: str) -> Path:
        return self.scratch / rel

    def board(self, **kw) -> "Board":
        """A new emulated board (see Board), booted."""
        self.prepare()
        return Board(self, **kw).start()

    def drive_image(self, folder: Path, image: Path) -> Path:
        """A CIRCUITPY drive image holding folder's files (the kit's tools/fatimg.py, which
        needs the fatfs-ng package)."""
        import importlib.util
        import sys

        if importlib.util.find_spec("fatfs") is None:
            raise KitMissing("the CIRCUITPY image needs the fatfs-ng package (pip install -e . "
                             "brings it)")
        self.prepare()
        r = subprocess.run([sys.executable, "tools/fatimg.py", "mk", str(Path(image).resolve()),
                            str(Path(folder).resolve())], cwd=self.scratch, capture_output=True,
                           text=True)
        if r.returncode:
            raise BoardError("fatimg.py mk failed: %s" % (r.stderr or r.stdout).strip()[-500:])
        return image


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Board:
    """One emulated Pico, running measure/run2.mjs: its USB serial on a pty (`pty`), the
    control port for buttons, LEDs, time, power cycles and power cuts."""

    def __init__(self, kit: Kit, runtime: str = "micropython", fs: Optional[Path] = None,
                 flash_timing: Optional[str] = None, leds: Optional[int] = None):
        if runtime not in ("micropython", "circuitpython"):
            raise ValueError("runtime: %r is not micropython or circuitpython" % runtime)
        self.kit = kit
        self.runtime = runtime
        self.fs = fs
        self.flash_timing = flash_timing
        # The decoder ends a frame of a state machine that keeps running (MicroPython's
        # PIO) only every `leds` LEDs: it does not see the latch (the line held low).
        self.ws2812_leds = leds
        self.dir = Path(tempfile.mkdtemp(prefix="dealerbutton-board-"))
        self.pty = str(self.dir / "tty")
        self.port = 0
        self.proc: Optional[subprocess.Popen] = None
        self._sock: Optional[socket.socket] = None
        self._file: Any = None

    def argv(self) -> List[str]:
        argv = ["node", "measure/run2.mjs", "--pty", self.pty, "--control", str(self.port),
                "--quiet"]
        if self.runtime == "circuitpython":
            argv += ["--firmware", CIRCUITPYTHON_UF2]
            if self.fs:
                argv += ["--cpfs", str(Path(self.fs).resolve())]
        elif self.fs:
            argv += ["--fs", str(Path(self.fs).resolve())]
        if self.flash_timing:
            argv += ["--flash-timing", self.flash_timing]
        if self.ws2812_leds:
            argv += ["--ws2812-leds", str(self.ws2812_leds)]
        return argv

    def start(self, timeout: float = 30.0) -> "Board":
        self.port = _free_port()
        self.proc = subprocess.Popen(self.argv(), cwd=self.kit.scratch, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(self.dir / "runner.log", "wb"),
                                     start_new_session=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise BoardError("the emulated Pico's runner ended at start (exit %s): %s"
                                 % (self.proc.returncode, self.log()[-500:]))
            if os.path.exists(self.pty):
                try:
                    self._sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
                    self._file = self._sock.makefile("rw")
                    return self
                except OSError:
                    pass
            time.sleep(0.05)
        self.close()
        raise BoardError("the emulated Pico did not come up in %.0f s" % timeout)

    def log(self) -> str:
        try:
            return (self.dir / "runner.log").read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the control port -------------------------------------------------------------
    def ctl(self, op: str, **args) -> Dict[str, Any]:
        if self._file is None:
            raise BoardError("the emulated Pico is not running")
        self._file.write(json.dumps(dict(op=op, **args)) + "\n")
        self._file.flush()
        line = self._file.readline()
        if not line:
            raise BoardError("the emulated Pico's runner went away: %s" % self.log()[-500:])
        reply = json.loads(line)
        if not reply.get("ok"):
            raise BoardError("control op %s: %s" % (op, reply.get("error")))
        return reply

    def stats(self) -> Dict[str, Any]:
        return self.ctl("stats")

    @property
    def nanos(self) -> int:
        return self.stats()["nanos"]

    def press(self, gpio: int, ms: Optional[int] = None) -> int:
        """Drive the GPIO low (held ms emulated milliseconds, then released; without ms until
        release()); returns the emulated ns when it went low."""
        self.ctl("press", pin=gpio, **({"ms": ms} if ms else {}))
        log = self.ctl("inputs", last=4)["log"]
        return [e for e in log if e["op"] == "setInput" and e["pin"] == gpio][-1]["nanos"]

    def release(self, gpio: int) -> None:
        self.ctl("release", pin=gpio)

    def frames(self, since: int = 0) -> List[Dict[str, Any]]:
        """The decoded LED frames numbered above `since`: i, startNs, endNs, leds (a list of
        "RRGGBB")."""
        out = self.ctl("frames", since=since)["log"]
        for f in out:
            f["leds"] = f["leds"].split()
        return out

    def frame_count(self) -> int:
        """How many frames the LED decoder has seen. Asked through the frame log, which
        leaves a frame on the wire as it is: the `leds` op ends it where it stands, and a
        strip whose state machine runs on (board/strip_pio.py, strip_cp.PioStrip) would then be
        decoded a few LEDs out of step from there on."""
        return self.ctl("frames", since=1 << 52)["frames"]

    def leds(self) -> List[str]:
        """The last whole frame the decoder has seen ("RRGGBB" a LED), from the frame log
        (see frame_count); the `leds` op only while the log is empty."""
        n = self.frame_count()
        last = self.frames(since=n - 1) if n else []
        if last:
            return last[-1]["leds"]
        return ["%02X%02X%02X" % tuple(c) for c in self.ctl("leds")["leds"]]

    def flashops(self) -> int:
        """How many flash operations (erase, program) the board has done since power-on.
        (Asked with the log's last entry: the runner reads last=0 as the whole log.)"""
        return self.ctl("flashops", last=1)["count"]

    def armcut(self, after: int, path: str, keep: Optional[str] = None) -> None:
        """Cut the power right after the after-th further flash operation (with keep: in
        the middle of it, only that much of it done, as measure/flashops.mjs's cutInside
        reads keep: "1/2", bytes, ...); the flash as it then was goes to path."""
        if keep is None:
            self.ctl("armcut", after=after, path=path)
        else:
            self.ctl("armcut", after=after, path=path, keep=keep)

    def wait_for_file(self, path: str, timeout: float = 120.0) -> None:
        """Until path exists (a power cut's flash image: the chip has stopped, so emulated
        time stands still and only wall time tells)."""
        end = time.monotonic() + timeout
        while not os.path.exists(path):
            if time.monotonic() > end:
                raise BoardError("%s did not appear in %.0f s" % (path, timeout))
            time.sleep(0.05)

    def reset(self) -> None:
        """Power-cycle the chip, flash kept."""
        self.ctl("reset")

    def savefs(self, path: str) -> None:
        self.ctl("savefs", path=path)

    # -- emulated time ----------------------------------------------------------------
    def wait_until(self, nanos: int, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Until the board's clock reaches nanos (wall time: the emulator runs about 5x
        slower than a Pico while busy, and skips idle time); returns the last stats."""
        st = self.stats()
        if timeout is None:
            timeout = 60 + 20 * max(0, nanos - st["nanos"]) / 1e9
        end = time.monotonic() + timeout
        while st["nanos"] < nanos:
            if time.monotonic() > end:
                raise BoardError("the emulated clock stood at %.3f s, waiting for %.3f s"
                                 % (st["nanos"] / 1e9, nanos / 1e9))
            if self.proc is not None and self.proc.poll() is not None:
                raise BoardError("the emulated Pico's runner ended: %s" % self.log()[-500:])
            time.sleep(0.02)
            st = self.stats()
        return st

    def run_for(self, ms: float) -> Dict[str, Any]:
        return self.wait_until(self.nanos + int(ms * NS_PER_MS))

    def busy_share(self, ms: float) -> float:
        """The CPU's busy share (cycles executed / cycles elapsed, flash stalls counted as
        busy, as on a board) over the next ms emulated milliseconds."""
        a = self.stats()
        b = self.wait_until(a["nanos"] + int(ms * NS_PER_MS))
        return (b["cycles"] - a["cycles"]) / ((b["nanos"] - a["nanos"]) * CYCLES_PER_NS)


def main(argv: Optional[List[str]] = None) -> int:
    """`python -m dealerbutton_host.bench.rp2sim [KIT]`: find the kit, copy it to its scratch
    folder and install its Node modules there (what the board tests and the board bench do
    on first use)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        kit = Kit.find(args[0] if args else None).prepare(print)
    except KitMissing as exc:
        print("rp2sim: %s" % exc, file=sys.stderr)
        return 1
    print("rp2sim kit %s ready in %s" % (kit.source, kit.scratch))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
