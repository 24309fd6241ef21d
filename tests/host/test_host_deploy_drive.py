"""`dealerbutton deploy --drive`: the files of a CircuitPython board written onto its drive
(here a folder; the board itself runs them in test_board_emulated_cp.py)."""

import errno
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from dealerbutton_host.device import drive
from dealerbutton_host.device.deploy import DeployError
from micropython_unix import FIRMWARE

BIN = Path(sys.executable).parent
PACKAGE = FIRMWARE / "dealerbutton"


def package_files(folder):
    """The .py files in a package folder and its packages', by path in it ("app.py",
    "rules/table.py"), sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


OURS = [rel for rel in package_files(PACKAGE) if rel.endswith(".py")
        and rel not in drive.MICROPYTHON_ONLY]


def run(*args):
    proc = subprocess.run([str(BIN / "dealerbutton"), "deploy", *args], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def neopixel_file():
    dist = metadata.distribution("adafruit-circuitpython-neopixel")
    f = [f for f in dist.files or [] if str(f) == "neopixel.py"][0]
    return Path(str(dist.locate_file(f))).read_bytes(), dist.version


def test_the_drive_gets_what_circuitpython_runs_and_only_what_changed(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    rc, out, err = run("--drive", str(d), "--dry-run")
    assert rc == 0, out + err
    assert "would copy %d, remove 0" % (len(OURS) + 4) in out
    assert not list(d.iterdir())
    rc, out, err = run("--drive", str(d))
    assert rc == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "config firmware/config.json: valid"
    assert lines[1] == ("folder %s: no boot_out.txt, so not a drive CircuitPython has started "
                        "from; writing a drive's files into it" % d)
    assert lines[-1] == "%d files copied, 0 removed, 0 up to date" % (len(OURS) + 4)
    # code.py last, config.json and boot.py before it, the package first
    copied = [line.split(" -> ")[1].split(" (")[0] for line in lines if "] copied " in line]
    assert copied[-3:] == [str(d / "config.json"), str(d / "boot.py"), str(d / "code.py")]
    assert package_files(d / "dealerbutton") == OURS
    assert "board/pico.py" not in OURS and "ring/fastloops.py" not in OURS
    assert "board/circuitpython.py" in OURS
    for name in ("code.py", "boot.py"):
        assert (d / name).read_bytes() == (FIRMWARE / "circuitpython" / name).read_bytes()
    assert (d / "config.json").read_bytes() == (FIRMWARE / "config.json").read_bytes()
    neo, version = neopixel_file()
    assert (d / "lib" / "neopixel.py").read_bytes() == neo
    assert "neopixel.py (adafruit-circuitpython-neopixel %s)" % version in out
    assert not list(d.rglob("*.new"))
    # The saved table's two copies, blank, made once (the board writes them in place).
    for name in ("table-a.json", "table-b.json"):
        assert (d / "state" / name).read_bytes() == b" " * 12288
        assert "made %s (blank: a copy of the saved table" % (d / "state" / name) in out
    with open(d / "state" / "table-a.json", "r+b") as f:
        f.seek(4096)
        f.write(b'{"v":1,"seq":7}')   # as if the board had saved a table there

    rc, out, err = run("--drive", str(d))
    assert rc == 0 and out.splitlines()[-1] == "drive is up to date (%d files)" % (len(OURS) + 4)
    assert "made" not in out
    assert b'"seq":7' in (d / "state" / "table-a.json").read_bytes()
    # The slots for tables kept aside too; a file cut short (0 bytes: a copy whose making
    # the power cut) or missing is made again, the others and their tables stay.
    for name in ("aside-1.json", "aside-2.json", "aside-3.json"):
        assert (d / "state" / name).read_bytes() == b" " * 12288
    (d / "state" / "table-b.json").write_bytes(b"")
    (d / "state" / "aside-2.json").unlink()
    rc, out, err = run("--drive", str(d))
    assert rc == 0, out + err
    assert [line for line in out.splitlines() if line.startswith("made ")] == [
        "made %s (blank: a copy of the saved table, written in place by the board)"
        % (d / "state" / "table-b.json"),
        "made %s (blank: a slot for a table kept aside, written in place by the board)"
        % (d / "state" / "aside-2.json")], out
    assert (d / "state" / "table-b.json").read_bytes() == b" " * 12288
    assert b'"seq":7' in (d / "state" / "table-a.json").read_bytes()

    # A module of an older firmware (the flat package's), MicroPython's board.py copied by
    # hand, a .mpy in a package, a changed module:
    (d / "dealerbutton" / "board.py").write_text("# MicroPython's\n")
    (d / "dealerbutton" / "tablestate.py").write_text("# the flat package's\n")
    (d / "dealerbutton" / "rules" / "palette.mpy").write_bytes(b"C\x06")
    (d / "dealerbutton" / "protocol.py").write_text("damaged\n")
    rc, out, err = run("--drive", str(d))
    assert rc == 0, out + err
    assert ("[1/1] copied dealerbutton/protocol.py -> %s (changed,"
            % (d / "dealerbutton" / "protocol.py")) in out
    for gone in ("board.py", "tablestate.py", "rules/palette.mpy"):
        assert "removed %s" % (d / "dealerbutton" / gone) in out
    assert package_files(d / "dealerbutton") == OURS


def test_the_drives_own_config_is_kept_unless_named_or_agreed(tmp_path, capsys):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1 on 2026-05-12; Raspberry Pi "
                                    "Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    edited = b'{"seats": 6, "brightness": 40}\n'
    (d / "config.json").write_bytes(edited)
    rc, out, err = run("--drive", str(d))
    assert rc == 0, out + err
    assert ("CIRCUITPY drive %s: Adafruit CircuitPython 10.2.1 on 2026-05-12; Raspberry Pi "
            "Pico with rp2040" % d) in out
    assert ("config.json on the drive differs from firmware/config.json (edited on the board's "
            "drive?): valid") in out
    assert "config.json on the drive kept; give --config FILE to put another one there" in out
    assert (d / "config.json").read_bytes() == edited
    assert "CircuitPython restarts code.py by itself once the copy settles" in out
    assert "boot.py changed: it runs at power-up only" in out

    # Asked (on a terminal), the user says no, then yes.
    (d / "config.json").write_bytes(b'{"seats": 99}')
    asked = []
    assert drive.deploy_drive(str(d), out=lambda s: None,
                              ask=lambda q: asked.append(q) or False) == 0
    assert (d / "config.json").read_bytes() == b'{"seats": 99}'
    assert asked and "replace the drive's config.json" in asked[0]
    said = []
    drive.deploy_drive(str(d), out=said.append, ask=lambda q: False)
    assert any("REFUSED by the board: config.json rejected (1 problem): seats: 99 is out of "
               "range 2..12" in s for s in said), said
    drive.deploy_drive(str(d), out=lambda s: None, ask=lambda q: True)
    assert (d / "config.json").read_bytes() == (FIRMWARE / "config.json").read_bytes()

    # --config names the one to put there: no question.
    six = tmp_path / "six.json"
    six.write_text('{"seats": 6}\n')
    rc, out, err = run("--drive", str(d), "--config", str(six))
    assert rc == 0, out + err
    assert "[1/1] copied %s -> %s (changed, 13 bytes)" % (six, d / "config.json") in out
    assert (d / "config.json").read_text() == six.read_text()


def test_what_the_drive_cannot_take_is_said(tmp_path, monkeypatch):
    rc, out, err = run("--drive", str(tmp_path / "nowhere"))
    assert rc == 2 and "no folder %s" % (tmp_path / "nowhere") in err
    rc, out, err = run("--drive", str(tmp_path), "--target", "/x")
    assert rc == 2 and "--target is for a MicroPython board (--port), not --drive" in err
    rc, out, err = run("--drive", str(tmp_path), "--port", "/dev/ttyACM0")
    assert rc == 2 and "not allowed with argument" in err
    net = tmp_path / "net.json"
    net.write_text(json.dumps({"network": {"ssid": "club", "wifi_password": "pw",
                                           "broker": "10.0.0.2", "room": "club",
                                           "table": "7"}}))
    rc, out, err = run("--drive", str(tmp_path), "--config", str(net))
    assert rc == 2 and "runs on MicroPython (a Pico W), not on CircuitPython" in err
    assert not (tmp_path / "code.py").exists()

    def refused(src, dst):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(drive.os, "replace", refused)
    with pytest.raises(DeployError) as e:
        drive.deploy_drive(str(tmp_path), out=lambda s: None)
    assert "is read-only to this computer" in str(e.value)
    assert "hold the next-hand button while you plug it in" in str(e.value)
