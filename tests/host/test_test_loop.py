"""The test loop itself: `pytest -n` as the README and CI run it keeps the tests that share a
module-wide fixture in one process, so the fixture (a board bench, a booted board, a
browser) is made once, not once a process."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SHARED = '''
import os
from pathlib import Path

import pytest

OUT = Path(__file__).parent / "ran"


@pytest.fixture(scope="module")
def board():
    with open(OUT / "made", "a") as f:
        f.write("%d\\n" % os.getpid())
    return os.getpid()


@pytest.mark.parametrize("n", range(6))
def test_shares_the_board(board, n):
    (OUT / ("shared-%d" % n)).write_text("%d" % os.getpid())


@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    (OUT / ("alone-%d" % n)).write_text("%d" % os.getpid())


@pytest.mark.xdist_group("own")
@pytest.mark.parametrize("n", range(2))
def test_in_a_group_of_its_own(board, n):
    (OUT / ("own-%d" % n)).write_text("%d" % os.getpid())
'''


def test_tests_sharing_a_module_fixture_run_in_one_process(tmp_path):
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_shared.py").write_text(SHARED)
    (tmp_path / "ran").mkdir()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p",
                           "no:cacheprovider", "-c", str(ROOT / "pyproject.toml"),
                           "--rootdir", str(tmp_path), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ran = tmp_path / "ran"
    shared = {(ran / ("shared-%d" % n)).read_text() for n in range(6)}
    alone = {(ran / ("alone-%d" % n)).read_text() for n in range(6)}
    own = {(ran / ("own-%d" % n)).read_text() for n in range(2)}
    made = (ran / "made").read_text().split()
    assert len(shared) == 1, shared       # one process ran every test of the fixture
    assert len(own) == 1, own             # and one the tests of a group of their own
    assert sorted(made) == sorted(shared | own), made   # each made the fixture once
    assert len(shared | alone) == 2, (shared, alone)   # the others spread over both
