"""The firmware on CircuitPython 10.2.1's own Pico firmware in the emulated Pico (the rp2sim
kit, as in test_board_emulated.py): the CIRCUITPY drive holds what `dealerbutton deploy
--drive` wrote into a folder, made into a drive image by the kit's tools/fatimg.py; boot.py
and code.py run from it as on a board. The table is driven through the USB serial console
(a pty), the buttons and the ring (the kit's control port), in emulated time.

CircuitPython compiles the firmware's .py files at every start: about 7 s of the board's
time, a minute or two here, so these tests boot as few boards as they can.

Without the kit (or node, npm, socat, fatfs-ng) these tests are skipped, saying what is
missing; under CI (CI=true) they fail instead."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dealerbutton import rules
from dealerbutton_host.bench.board import RingView, Setup, Table, press
from dealerbutton_host.bench.rp2sim import KitMissing
from test_board_emulated import (
    QUIET,
    a_save,
    booted_cuts,
    buttons_alone,
    cuts_of_a_save,
    power_cycle_keeps,
    running,
    the_kit,
)

BIN = Path(sys.executable).parent
FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


@pytest.fixture(scope="module")
def kit():
    kit = the_kit()
    try:
        import fatfs  # noqa: F401  (the kit's fatimg.py)
    except ImportError:
        exc = KitMissing("the CIRCUITPY image needs fatfs-ng (pip install -e '.[test]')")
        if os.environ.get("CI") == "true":
            pytest.fail("CI: %s" % exc)
        pytest.skip(str(exc))
    return kit


@pytest.fixture(scope="module")
def cp(kit):
    """A CircuitPython board with the shipped config.json (9 seats, 24 LEDs): the drive
    written by deploy --drive, the app running."""
    yield from running(kit, "circuitpython")


@pytest.fixture(scope="module")
def mp(kit):
    """The same table on MicroPython: a board booted from a blank flash into which what
    deploy puts on a board was written on this computer (Table.start; deploy itself is
    tested in test_board_emulated.py)."""
    from dealerbutton_host.bench import flashimage

    t = Table(kit, Setup("micropython", "micropython", {}), QUIET)
    try:
        blank = t.tmp / "blank.img"
        flashimage.blank(blank)
        t.start(deployed=blank)
        yield t
    finally:
        t.close()


def drive_files(kit, board, tmp_path):
    """The CIRCUITPY drive as the board left it: {path: bytes}, read with fatimg.py."""
    image = tmp_path / "drive.img"
    board.savefs(str(image))
    out = tmp_path / "drive"
    subprocess.run([sys.executable, "tools/fatimg.py", "extract", str(image), str(out)],
                   cwd=kit.scratch, check=True, capture_output=True)
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_deploy_writes_the_drive_and_the_board_runs_boot_py_and_code_py(kit, cp, tmp_path):
    drive = cp.tmp / "CIRCUITPY"
    names = sorted(str(p.relative_to(drive)) for p in drive.rglob("*") if p.is_file())
    assert names[:4] == ["boot.py", "code.py", "config.json", "dealerbutton/__init__.py"]
    assert "lib/neopixel.py" in names and "dealerbutton/board/circuitpython.py" in names
    assert "dealerbutton/board/pico.py" not in names
    assert "dealerbutton/ring/fastloops.py" not in names
    assert cp.figures["deploy_again_s"] >= 0
    # code.py runs the app: it answers on the serial console.
    assert cp.client.send("ping", end=b"\r").line == "ok pong"
    # boot.py made the drive the board's: the table is saved on it.
    cp.call("sit 1")
    cp.board.run_for(1500)
    files = drive_files(kit, cp.board, tmp_path)
    assert files["boot_out.txt"].startswith(b"Adafruit CircuitPython 10.2.1"), files["boot_out.txt"]
    copies = [files["state/table-a.json"], files["state/table-b.json"]]
    assert [len(c) for c in copies] == [12288, 12288]
    assert [c[4096:].startswith(b'{"v":1,"seq":') for c in copies].count(True) >= 1
    for name in names:   # what deploy wrote is what the board has (but the table)
        if name.startswith("state/"):
            continue
        assert files[name] == (drive / name).read_bytes(), name
    cp.call("leave 1")


def test_protocol_round_trips_over_the_serial_console(cp):
    t = cp
    assert t.client.send("version", end=b"\r\n").line.startswith("ok 0.")
    assert t.call("sit 2") == ""
    assert t.call("sit 3") == ""
    state = json.loads(t.call("state"))
    assert [s["status"] for s in state["seats"][1:4]] == ["active", "active", "empty"]
    hand = json.loads(t.call("deal 2"))
    assert (hand["button"], hand["sb"], hand["bb"]) == (2, 2, 3)
    with pytest.raises(Exception) as err:
        t.call("sit 99")
    assert "err seat" in str(err.value)
    stats = json.loads(t.call("stats"))
    assert stats["heap_used"] > 0 and stats["heap_free"] > 0
    t.call("undo")   # the hand
    t.call("leave 2")
    t.call("leave 3")


def ring_after(t, steps):
    """The decoded ring once the steps (("press", seat) or ("cmd", line)) are done and
    shown, as "RRGGBB" per LED."""
    view = RingView(t.cfg)
    for kind, arg in steps:
        if kind == "press":
            press(t, view, arg, 120)
        else:
            t.call(arg)
    t.board.run_for(1200)   # the flashes are over; an unchanged frame is sent once a second
    return t.board.leds()   # (the last whole frame)


STATIC = [("press", 1), ("press", 2), ("press", 4), ("cmd", "sit 6 wait"), ("press", 2)]


def test_the_ring_shows_what_it_shows_on_micropython(cp, mp):
    """The same presses and commands on both runtimes, from a new table: the same colours
    on the ring, LED for LED (the ring's frames decoded from the data pin)."""
    for t in (cp, mp):
        for s in range(1, 10):
            if json.loads(t.call("state"))["seats"][s - 1]["status"] != "empty":
                t.call("leave %d" % s)
    a = ring_after(cp, STATIC)
    b = ring_after(mp, STATIC)
    assert a == b
    assert len(set(a)) >= 3, a   # players, one away, dark LEDs: not a blank ring
    # A hand: the button, the blinds; first to act breathes (its arc changes with time,
    # on each board at its own moment), so its LEDs are left out.
    a = ring_after(cp, [("cmd", "deal 1")])
    b = ring_after(mp, [("cmd", "deal 1")])
    first = json.loads(cp.call("hand"))["first_to_act"]
    assert first == json.loads(mp.call("hand"))["first_to_act"]
    breath = set(RingView(cp.cfg).arc(first))
    assert [c for i, c in enumerate(a) if i not in breath] == [
        c for i, c in enumerate(b) if i not in breath]


def test_a_game_started_with_the_buttons_alone(cp):
    buttons_alone(cp)


def test_a_power_cycle_keeps_the_table(cp):
    power_cycle_keeps(cp)


def extract(kit, image, tmp_path):
    """The files of a CIRCUITPY image, read with fatimg.py (ChaN's FatFs, as in
    CircuitPython): (folder, {path: bytes}); CalledProcessError when the drive cannot be
    read."""
    out = tmp_path / (Path(image).stem + "-files")
    subprocess.run([sys.executable, "tools/fatimg.py", "extract", str(image), str(out)],
                   cwd=kit.scratch, check=True, capture_output=True)
    return out, {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*")
                 if p.is_file()}


def host_load(folder):
    """The table a board would restore from the drive's files: the firmware's own loader
    (drivestore.DriveStore.load)."""
    from dealerbutton.store import drivestore

    d, seq, message = drivestore.DriveStore(str(folder)).load()
    return d, message


def save_ops(cp, tmp_path):
    """`sit 5` on the board: (before, after, the drive before, the drive after, the log of
    the flash operations of its save)."""
    # At least one table saved before (the tests before this one may have saved none): a
    # cut in the save can then only give that table or the new one.
    if json.loads(cp.call("state"))["seats"][4]["status"] == "empty":
        cp.call("sit 5")
    cp.call("leave 5")
    before, after, image, ops = a_save(cp, tmp_path, settle_ms=1500)
    log = cp.board.ctl("flashops", last=ops)["log"]
    after_image = tmp_path / "after.img"
    cp.board.savefs(str(after_image))
    cp.board.wait_for_file(str(after_image))
    return json.loads(before), json.loads(after), image, after_image, log


def test_a_power_cut_after_any_flash_operation_of_a_save_loses_nothing(kit, cp, tmp_path):
    """`sit 5` on the board. CircuitPython rewrites a 4 KiB flash sector of its drive as an
    erase, then a program: power lost between the two loses the whole sector. A save writes
    only the blocks of one of the table's two copies, in place (store/drivestore.py), so the power
    cut right after each flash operation in turn (cuts_of_a_save) leaves a drive that reads,
    every other file as it was, and the table of before or of after (the firmware's loader,
    on this computer), never a clean start; a board booted from such a drive restores it."""
    before, after, image, after_image, log = save_ops(cp, tmp_path)
    ops = [(op["kind"], op["addr"]) for op in log]
    kinds = [kind for kind, _ in ops]
    assert "erase" in kinds and "program" in kinds, ops
    drive_start = min(int(addr, 16) for _, addr in ops) // 0x100000 * 0x100000
    for _, addr in ops:   # never the drive's first sector: its FAT and root folder
        assert int(addr, 16) >= drive_start + 0x8000, ops
    _, files_before = extract(kit, image, tmp_path)
    seen = {}
    cuts = cuts_of_a_save(kit, image, after_image, log, tmp_path, "circuitpython")
    for k, cut_image in enumerate(cuts, 1):
        folder, files = extract(kit, cut_image, tmp_path)
        for name, data in files_before.items():
            if not name.startswith("state/"):
                assert files.get(name) == data, (k, ops[k - 1], name)
        d, message = host_load(folder)
        assert d is not None, (k, ops[k - 1], message)   # never a clean start
        got = "after" if rules.Table.from_dict(d).status(5) != "empty" else "before"
        seen.setdefault(got, []).append(cut_image)
    assert set(seen) == {"before", "after"}, seen   # the cut points span the save's commit
    states = booted_cuts(kit, seen, image, after_image, "circuitpython")
    assert states, seen                      # a cut no power cycle gives is booted
    for which, got in states.items():   # and the board agrees
        assert json.loads(got) == (after if which == "after" else before), (which, got)


def with_seats(kit, image, seats, tmp_path, name):
    """A copy of a CIRCUITPY image whose config.json says `seats` (the drive made again
    from its files, as deploy lays them out)."""
    folder, _ = extract(kit, image, tmp_path)
    cfg = json.loads((folder / "config.json").read_text())
    cfg["seats"] = seats
    (folder / "config.json").write_text(json.dumps(cfg))
    return kit.drive_image(folder, tmp_path / name)


def booted(kit, image):
    """A board booted from image: its `state` (a dict), the log of its flash operations
    and the drive after 1.5 s."""
    t = Table(kit, Setup("boot", "boot", {}), QUIET, runtime="circuitpython")
    try:
        t.boot(image)
        state = json.loads(t.call("state"))
        t.board.run_for(1500)
        log = t.board.ctl("flashops", last=t.board.flashops())["log"]
        after = image.with_name(image.stem + "-after.img")
        t.board.savefs(str(after))
        t.board.wait_for_file(str(after))
        return state, log, after
    finally:
        t.close()


def test_a_power_cut_while_a_table_is_kept_aside_at_power_up_loses_nothing(kit, cp, tmp_path):
    """config.json changed under a saved table: the power-up keeps the table aside by
    writing it into a slot that deploy made (store/drivestore.py), one erase and one program of
    that slot's 4 KiB, no FAT or folder. The power cut in the middle of that erase (half
    the sector erased) leaves a drive the app comes up on (6 seats), and config.json back
    to 9 seats brings the 9-seat table back exactly."""
    import flashcut
    from dealerbutton.store import drivestore

    for seat in (1, 2, 3):
        if json.loads(cp.call("state"))["seats"][seat - 1]["status"] == "empty":
            cp.call("sit %d" % seat)
    cp.board.run_for(1500)
    table9 = json.loads(cp.call("state"))
    image9 = tmp_path / "table9.img"
    cp.board.savefs(str(image9))
    cp.board.wait_for_file(str(image9))
    image6 = with_seats(kit, image9, 6, tmp_path, "config6.img")
    # The power-up that keeps it aside, uncut: an erase and a program of a sector of the
    # slot (two, in some runs of the whole suite), never the FAT or the root folder (the
    # drive's first 32 KiB), every other file as it was.
    state, log, after = booted(kit, image6)
    assert len(state["seats"]) == 6, state
    _, files6 = extract(kit, image6, tmp_path)
    ops = [(op["kind"], op["addr"]) for op in log]
    kinds = [kind for kind, _ in ops]
    assert kinds and kinds == ["erase", "program"] * (len(kinds) // 2), ops
    drive_start = min(int(addr, 16) for _, addr in ops) // 0x100000 * 0x100000
    assert all(int(addr, 16) >= drive_start + 0x8000 for _, addr in ops), ops
    _, files_after = extract(kit, after, tmp_path)
    for name, data in files6.items():
        if name != "state/aside-1.json":
            assert files_after.get(name) == data, (name, ops)
    # Cut half way through that erase (its first 2 KiB done: flashcut.py, as the kit's
    # torn cut), then powered up again on 6 seats, then on 9.
    cut = tmp_path / "cut.img"
    cut.write_bytes(flashcut.erase_torn(image6.read_bytes(), log[0], log[0]["len"] // 2,
                                        "circuitpython"))
    _, files = extract(kit, cut, tmp_path)
    for name, data in files6.items():       # the slot's sector was all that was touched
        if name != "state/aside-1.json":
            assert files.get(name) == data, name
    state, _, after = booted(kit, cut)
    assert len(state["seats"]) == 6, state
    kept = drivestore.DriveStore(str(extract(kit, after, tmp_path)[0]))
    _, _, why = kept.read("state-9seats-dead-10-20.json")
    assert why is None, why                  # kept aside again, whole
    state, _, _ = booted(kit, with_seats(kit, after, 9, tmp_path, "config9.img"))
    assert state == table9


def read_until(port, text, timeout=400.0):
    """The serial console's output until text shows (wall time: CircuitPython compiles the
    firmware at each start)."""
    import time

    import serial

    s = serial.Serial(port, 115200, timeout=0.2)
    out = b""
    try:
        end = time.monotonic() + timeout
        while text.encode() not in out and time.monotonic() < end:
            out += s.read(4096)
        return out.decode(errors="replace")
    finally:
        s.close()


# (a board of its own, and only the kit from the module: it may run beside the others)
@pytest.mark.xdist_group("test_board_emulated_cp_held_at_power_up")
def test_the_next_hand_button_held_at_power_up_keeps_the_drive_the_computers(kit, tmp_path):
    """Held at power-up: boot.py leaves CIRCUITPY to the computer, code.py does not start
    the app and the REPL is free; let go and reloaded (Ctrl-D), the app plays but cannot
    save, and says so on the console."""
    from dealerbutton_host.device.deploy import Board as Repl

    t = Table(kit, Setup("held", "held", {}), QUIET, runtime="circuitpython")
    try:
        drive = t.tmp / "CIRCUITPY"
        drive.mkdir()
        t.deploy_drive(drive, FIRMWARE / "config.json")
        t.boot(t.kit.drive_image(drive, t.tmp / "held.img"), connect=False)
        board = t.board
        nxt = t.cfg["pins"]["next"]
        board.press(nxt)                          # held from here on
        board.reset()                             # power-up with the button held
        said = read_until(board.pty, "the REPL is free")
        assert "dealerbutton: safe boot (next-hand button held)" in said, said
        board.release(nxt)
        repl = Repl(board.pty, QUIET)             # no app to hand the line over
        try:
            assert not repl.handed_over
            out = repl.run("import storage\nprint(storage.getmount('/').readonly)\n"
                           "print(open('/boot_out.txt').read())").decode()
            repl.t.exit_raw_repl()
        finally:
            repl.close()
        assert out.splitlines()[0].strip() == "True", out      # read-only to the board
        assert "next-hand button held at power-up: CIRCUITPY stays writable" in out, out
        import serial

        s = serial.Serial(board.pty, 115200, timeout=0.2)
        s.write(b"\x04")                          # Ctrl-D at the REPL: reload, code.py again
        s.close()
        said = read_until(board.pty, "the table is NOT saved")
        assert ("* error the CIRCUITPY drive is read-only to the board (next-hand button held "
                "at power-up, or no boot.py): the table is NOT saved") in said, said
        t.connect()
        assert t.call("sit 1") == ""
        assert json.loads(t.call("state"))["seats"][0]["status"] == "active"
        t.board.run_for(1500)
        files = drive_files(kit, t.board, tmp_path)
        assert "state.json" not in files          # nothing saved: the copies stay blank
        assert files["state/table-a.json"] == files["state/table-b.json"] == b" " * 12288
    finally:
        t.close()


def test_the_bench_prints_a_column_per_runtime():
    """`bench --board --runtime both`: the figures of each runtime side by side (the table
    alone, from figures of the shape a run gives; no board needed)."""
    from dealerbutton_host.bench import board as boardbench

    def run(idle):
        return {"setups": {"empty": {"label": "empty table", "idle_cpu": idle,
                                     "deploy_first_s": 1.0, "deploy_again_s": 0.5}}}
    lines = boardbench.table({"runtimes": {"micropython": run(0.031),
                                           "circuitpython": run(0.12)}})
    assert lines[0].split("  ")[0] == "figure (emulated Pico)"
    assert "on MicroPython 1.28" in lines[0] and "on CircuitPython 10.2.1" in lines[0]
    row = [line for line in lines if line.startswith("idle CPU: empty table")][0]
    assert "3.1 % met" in row and "12.0 % MISSED" in row and row.endswith("<= 10 %")
    assert row.index("3.1 %") < row.index("12.0 %")
