"""Every two-runtime test module (one that imports two_runtimes, in tests/rules or
tests/device) runs under the real MicroPython unix port too, and must print exactly what it
prints under CPython."""

import re
import subprocess
import sys

import pytest
from micropython_unix import FAKES, ROOT, SUPPORT, TESTS, run_micropython

TWO_RUNTIMES = re.compile(r"^(import two_runtimes|from two_runtimes import)\b", re.M)
MODULES = sorted(p for p in TESTS.glob("*/test_*.py")
                 if p.parent != SUPPORT and TWO_RUNTIMES.search(p.read_text()))


def run_cpython(path):
    env_path = [str(ROOT / "firmware"), str(FAKES), str(SUPPORT), str(path.parent)]
    code = "import sys; sys.path[:0] = %r; import runpy; runpy.run_path(%r, run_name='__main__')" % (
        env_path, str(path))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)


def test_there_are_two_runtime_modules():
    assert MODULES, "no tests/*/test_*.py imports two_runtimes"


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_module_passes_identically_on_micropython(path):
    mp = run_micropython(path=path, extra_paths=[path.parent], check=False, timeout=900)
    cp = run_cpython(path)
    assert cp.returncode == 0, cp.stderr
    assert mp.returncode == 0, "micropython crashed:\n" + mp.stdout[-3000:] + mp.stderr[-3000:]
    assert "FAIL" not in mp.stdout, mp.stdout
    last = mp.stdout.strip().splitlines()[-1]
    assert last.endswith(" 0 failed"), last
    assert mp.stdout == cp.stdout, "outputs differ between MicroPython and CPython"


def test_runtime_is_really_micropython():
    out = run_micropython("import sys; print(sys.implementation.name)").stdout.strip()
    assert out == "micropython"
