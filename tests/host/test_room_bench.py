"""The card-room benchmark runs end to end at a small size: every deal reaches the room
view, and a room view started last sees every table from the retained states; the
hand-for-hand measurement deals every table together. (Its figures are printed, not
asserted: the manual has them.)"""

import os
import re
import subprocess
import sys

import pytest
from mqtt_rig import MOSQUITTO

pytestmark = pytest.mark.skipif(not os.path.exists(MOSQUITTO) and not os.environ.get("CI"),
                                reason="mosquitto not installed (under CI: a failure)")


def test_benchmark_small_run():
    r = subprocess.run([sys.executable, "-m", "dealerbutton_host.room.bench", "--tables", "4",
                        "--seconds", "2", "--period", "0.5"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    row = r.stdout.splitlines()[-1].split()
    assert row[0] == "4" and int(row[1]) >= 4, r.stdout  # deals made by button presses
    assert re.search(r" 4 in \d+\.\d\d s$", r.stdout.splitlines()[-1]), r.stdout
    assert "never seen" not in r.stdout


def test_hand_for_hand_run():
    """Three emulated tables behind their bridges: every hand is dealt at every table, and
    the spread of their deals is printed with its target."""
    r = subprocess.run([sys.executable, "-m", "dealerbutton_host.room.bench", "--hand-for-hand",
                        "--tables", "3", "--hands", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [line.split()[0] for line in lines[3:5]] == ["2", "3"], r.stdout
    assert re.match(r"spread between the first and the last table's deal: median \d+\.\d ms, "
                    r"worst \d+\.\d ms \(target <= 100 ms\)$", lines[-1]), r.stdout
