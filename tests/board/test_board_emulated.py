"""The firmware on the emulated Pico: MicroPython 1.28's own RPI_PICO firmware on rp2040js
(the rp2sim kit, ../shared/rp2sim beside the checkout, or $DEALERBUTTON_RP2SIM), deployed
with `dealerbutton deploy`, driven through its USB serial (a pty), its buttons and its ring
(the kit's control port). Time is the emulated board's (cycle-counted at 125 MHz), so the
figures asserted here do not depend on how busy this machine is.

Without the kit (or node, npm, socat) these tests are skipped, saying what is missing; under
CI (CI=true) they fail instead."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dealerbutton_host.bench import board as boardbench
from dealerbutton_host.bench.board import RingView, Setup, Table, press
from dealerbutton_host.bench.rp2sim import Kit, KitMissing
from dealerbutton_host.device.client import CommandError

BIN = Path(sys.executable).parent


def the_kit():
    try:
        kit = Kit.find()
        missing = Kit.missing_programs()
        if missing:
            raise KitMissing("the emulated Pico needs %s on PATH" % ", ".join(missing))
        return kit.prepare()
    except KitMissing as exc:
        if os.environ.get("CI") == "true":
            pytest.fail("CI: %s" % exc)
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def kit():
    return the_kit()


@pytest.fixture(scope="module")
def bench(kit, tmp_path_factory):
    """`dealerbutton bench --board --quick --profile`, run once: its table and its JSON."""
    out = tmp_path_factory.mktemp("bench") / "board.json"
    proc = subprocess.run([str(BIN / "dealerbutton"), "bench", "--board", "--quick",
                           "--profile", "--json", str(out)], capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout, json.loads(out.read_text()), proc.stderr


QUIET = lambda line: None  # noqa: E731


def running(kit, runtime="micropython"):
    """A board with the shipped config.json (9 seats, 24 LEDs), deployed, the app running;
    closed when the generator ends (a fixture's yield)."""
    t = Table(kit, Setup(runtime, runtime, {}), QUIET, runtime)
    t.start()
    yield t
    t.close()


@pytest.fixture(scope="module")
def table(kit):
    yield from running(kit)


# -- the board bench and the targets --------------------------------------------------------

def test_the_board_bench_prints_every_figure(bench):
    text, res, err = bench
    for row in ("idle CPU: empty table", "idle CPU: cash game, 9 seats",
                "idle CPU: cash game, 12 seats, 60 LEDs", "idle CPU: tournament",
                "idle CPU: network block", "heap in use after 20 hands",
                "release -> LED: button", "release -> LED: SB", "release -> LED: BB",
                "release -> LED: first to act", "release -> LED: away",
                "release -> LED: empty", "'let go' flash", "frame (render + send): 24 LEDs",
                "frame (render + send): 60 LEDs", "deal()", "seat event",
                "bytes allocated per frame", "bytes allocated per idle loop turn",
                "bytes allocated per seat event", "deploy, first", "deploy, up to date",
                "profile: idle cash game"):
        assert row in text, row
    assert "bench --board: cash: hand 1 of 20" in err   # progress, on stderr
    assert set(res["setups"]) == {"empty", "cash", "cash60", "away60", "tournament", "network"}
    assert "release -> LED: cash game, 12 seats, 60 LEDs on 4 A, 4 players away" in text


def test_the_targets_hold_on_the_board(bench):
    _, res, _ = bench
    setups = res["setups"]
    for key, f in setups.items():
        assert f["idle_cpu"] <= boardbench.IDLE_TARGET, (key, f["idle_cpu"])
        if "heap_b" in f:
            assert f["heap_b"] <= boardbench.HEAP_BUDGET, (key, f["heap_b"])
        probe = f["probe"]
        # Nothing allocated in a frame or an idle turn: the collector never runs inside a
        # frame (MicroPython collects only when an allocation finds the heap full; the loop
        # runs it after a frame). A table event may allocate (plain code; undo keeps what
        # it changed).
        assert probe["bytes"]["frame"] == 0, key
        assert probe["bytes"]["idle_turn"] == 0, key
    presses = setups["cash"]["presses"]
    assert not presses["not_seen"], presses["not_seen"]
    assert set(presses["roles"]) >= {"button", "SB", "BB", "first to act", "away", "empty",
                                     "next hand (deal)"}
    for role, v in presses["roles"].items():
        assert v["max_ms"] <= boardbench.PRESS_TARGET_MS, (role, v)
    assert presses["let_go_ms"]["max_ms"] <= boardbench.PRESS_TARGET_MS
    away = setups["away60"]
    assert away["probe"]["away"] == 4 and not away["presses"]["not_seen"]
    assert away["presses"]["all"]["max_ms"] <= boardbench.PRESS_TARGET_MS, away["presses"]
    assert setups["cash60"]["probe"]["leds"] == 60
    assert setups["cash60"]["probe"]["frame"]["p95_us"] <= boardbench.FRAME60_TARGET_US
    # The board's own stats count the whole turn: their load agrees with the emulator's
    # cycle count (the busy share) within a few points.
    prof = res["profile"]
    assert prof["top"] and prof["busy_pct"] < 100 * boardbench.IDLE_TARGET, prof
    # No call on the frame path makes its frame on the heap (MicroPython does for a call of
    # more than 11 words, and frees it on return: the byte counts above miss it). With the
    # heap full of the holes the start-only modules leave, gc_alloc was the idle table's
    # first function (21.7 % of its busy cycles).
    allocating = [f for f in prof["top"] if f["function"] == "gc_alloc"]
    assert not allocating or allocating[0]["busy_pct"] < 2, allocating


# -- the board itself --------------------------------------------------------------------------

def test_deploy_boots_the_app_and_the_protocol_answers_lines_ended_by_cr(table):
    assert table.figures["deploy_first_s"] > 0
    board = table.board
    # A serial terminal ends its lines with CR alone.
    assert table.client.send("ping", end=b"\r").line == "ok pong"
    assert table.client.send("version", end=b"\r\n").line.startswith("ok 0.")
    assert table.call("sit 1") == ""
    assert table.call("sit 2") == ""
    state = json.loads(table.call("state"))
    assert [s["status"] for s in state["seats"][:3]] == ["active", "active", "empty"]
    # What the device says it sends to the ring is what the ring shows (nothing moves yet).
    board.run_for(100)
    assert table.call("leds").split() == board.leds()
    hand = json.loads(table.call("deal 1"))
    assert (hand["button"], hand["sb"], hand["bb"]) == (1, 1, 2)   # heads-up: the button is SB
    with pytest.raises(Exception) as err:
        table.call("sit 99")
    assert "err seat" in str(err.value)


def test_a_game_started_with_the_buttons_alone(table):
    buttons_alone(table)


def buttons_alone(t):
    """From a new table, with the buttons only: four players sit, the next-hand button
    starts the draw for the button, a seat press gives it to seat 3, the next hand moves
    it on."""
    undone = 0
    while json.loads(t.call("state"))["hands"] or undone == 0:   # back to a new table
        try:
            t.call("undo")
        except CommandError:   # (nothing to undo: a board just started)
            break
        undone += 1
    for s in range(1, 10):
        if json.loads(t.call("state"))["seats"][s - 1]["status"] != "empty":
            t.call("leave %d" % s)
    view = RingView(t.cfg)
    for seat in (1, 2, 3, 4):
        r = press(t, view, seat, 120)
        assert r["release_ms"] is not None and r["release_ms"] <= 30, r
    assert [s["status"] for s in json.loads(t.call("state"))["seats"][:5]] == [
        "active", "active", "active", "active", "empty"]
    hands = json.loads(t.call("state"))["hands"]
    press(t, view, 0, 120)   # next hand: the draw for the button (the chase)
    press(t, view, 3, 120)   # seat 3 won the draw: the first hand
    state = json.loads(t.call("state"))
    assert state["hands"] == hands + 1
    assert json.loads(t.call("hand"))["button"] == 3
    press(t, view, 0, 120)   # and the next one
    assert json.loads(t.call("hand"))["button"] == 4


def test_a_kill_marked_with_the_buttons_blinks_its_colour_and_is_spent_by_the_deal(table):
    """Next hand held, a seat pressed and let go: a kill on that seat (F3), its arc blinking
    the kill's colour as the firmware's ring draws it; the deal spends it."""
    t = table
    buttons_alone(t)   # four players, two hands dealt (button on seat 4)
    board = t.board
    view = RingView(t.cfg)
    kill_seat = 2
    next_gpio = boardbench.gpio_of(t.cfg, 0)
    board.press(next_gpio)          # held ...
    board.run_for(500)
    board.press(boardbench.gpio_of(t.cfg, kill_seat), 120)   # ... the seat pressed, let go
    board.run_for(300)
    board.release(next_gpio)
    board.run_for(300)
    state = json.loads(t.call("state"))
    assert state["seats"][kill_seat - 1].get("kill") == "full", state
    assert state["hands"] == 2   # no deal, no undo from the held next-hand button
    # The arc as the firmware's ring draws a kill there (the blink's on half), in a frame.
    ring = view.ring
    for s in range(1, ring.seats + 1):
        ring.status[s] = 1 if state["seats"][s - 1]["status"] == "active" else 0
    hand = json.loads(t.call("hand"))
    ring.button, ring.sb, ring.bb = hand["button"], hand["sb"] or 0, hand["bb"]
    ring.first_to_act = 0
    ring.kill = kill_seat
    buf = ring.render(0)
    want = ["%02X%02X%02X" % (buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])
            for i in view.arc(kill_seat)]
    first = board.frame_count()
    board.run_for(1500)   # an unchanged frame goes out at least once a second
    seen = [[f["leds"][i] for i in view.arc(kill_seat)]
            for f in board.frames(since=first - 1) if len(f["leds"]) > max(view.arc(kill_seat))]
    assert want in seen, (want, seen[-3:])
    hand = json.loads(t.call("deal"))
    assert hand["kill"] == kill_seat and hand["posts"][str(kill_seat)][0] == 2 * 20, hand
    assert "kill" not in json.loads(t.call("state"))["seats"][kill_seat - 1]
    assert "kill" not in json.loads(t.call("deal"))   # spent


def test_a_move_with_the_buttons_alone_is_undone_and_its_wait_survives_a_power_cycle(table):
    """Seat 3's button held, seat 6's pressed and let go: the player moves (C1), away from
    the big blind, so he waits a deal at his new seat (C3). The next-hand button held undoes
    the move; made again, the move and its wait survive a power cycle."""
    t = table
    buttons_alone(t)   # four players, two hands dealt: button 4, SB 1, BB 2
    view = RingView(t.cfg)
    before = json.loads(t.call("state"))
    assert [s["status"] for s in before["seats"][:6]] == [
        "active", "active", "active", "active", "empty", "empty"]
    move_with_the_buttons(t, 3, 6)
    moved = json.loads(t.call("state"))
    assert moved["seats"][2]["status"] == "empty", moved
    assert moved["seats"][5]["status"] == "waiting" and moved["seats"][5]["wait"] == 1, moved
    assert moved["hands"] == before["hands"]   # no deal, no undo, no sit, no leave
    r = press(t, view, 0, 1500)   # the next-hand button held: undo
    assert r["release_ms"] is not None, r
    t.board.run_for(500)
    assert json.loads(t.call("state")) == before
    move_with_the_buttons(t, 3, 6)
    assert json.loads(t.call("state")) == moved
    power_cycle_keeps(t)   # in the middle of the mover's wait
    assert json.loads(t.call("state")) == moved


def move_with_the_buttons(t, old, new):
    """The old seat's button held, the new seat's pressed and let go, then the old one."""
    board = t.board
    old_gpio = boardbench.gpio_of(t.cfg, old)
    board.press(old_gpio)
    board.run_for(500)
    board.press(boardbench.gpio_of(t.cfg, new), 120)
    board.run_for(300)
    board.release(old_gpio)
    board.run_for(500)


def test_a_power_cycle_keeps_the_table(table):
    power_cycle_keeps(table)


def power_cycle_keeps(t):
    before = t.call("state")
    t.client.close()
    t.board.reset()
    t.connect()
    assert t.call("state") == before


def a_save(t, tmp_path, settle_ms=300):
    """`sit 5` on the board: (state before, state after, the flash before, the number of
    flash operations its save took)."""
    board = t.board
    board.run_for(settle_ms)
    before = t.call("state")
    image = tmp_path / "before.img"
    board.savefs(str(image))
    n0 = board.flashops()
    t.call("sit 5")
    board.run_for(settle_ms)
    ops = board.flashops() - n0
    after = t.call("state")
    assert ops >= 2 and after != before, (ops, after)
    return before, after, image, ops


def save_after_boot(kit, image, tmp_path):
    """A board booted from image, as cut_after boots it: `sit 5` and its save, uncut. Returns
    (state before, state after, the save's flash operations, the flash after it). The cuts
    replay this very save: littlefs picks the blocks it writes from where its allocator
    stands, which a board's history since power-up moves, so the save of a board that has
    run a while is not the one a board booted from its flash makes."""
    ref = Table(kit, Setup("ref", "ref", {}), QUIET, "micropython")
    try:
        ref.boot(image)
        before = ref.call("state")
        n0 = ref.board.flashops()
        ref.call("sit 5")
        ref.board.run_for(300)
        ops = ref.board.flashops() - n0
        after = ref.call("state")
        assert ops >= 2 and after != before, (ops, after)
        log = ref.board.ctl("flashops", last=ops)["log"]
        after_image = tmp_path / "after.img"
        ref.board.savefs(str(after_image))
        ref.board.wait_for_file(str(after_image))
    finally:
        ref.close()
    return before, after, log, after_image


def cut_after(kit, image, k, cut_image, runtime="micropython"):
    """A board booted from image: `sit 5`, and the power cut right after the k-th flash
    operation of its save; what the flash then holds goes to cut_image."""
    cut = Table(kit, Setup("cut", "cut", {}), QUIET, runtime)
    try:
        cut.boot(image)
        before = cut.call("state")
        cut.board.armcut(k, str(cut_image))
        cut.client.link.write(b"sit 5\n")
        cut.board.wait_for_file(str(cut_image), timeout=600)
    finally:
        cut.close()
    return before


def host_load(files, folder):
    """The table a board would restore from a flash's files: the firmware's own Store, on
    this computer, over a folder holding them."""
    from dealerbutton.store import filestore

    folder.mkdir()
    for name, data in files.items():
        if "/" not in name:
            (folder / name).write_bytes(data)
    d, _, message = filestore.Store(filestore.OsFs(str(folder))).load()
    return d, message


def cuts_of_a_save(kit, image, after_image, log, tmp_path, runtime="micropython"):
    """The flash after each operation of a save in turn (the power cut right after it), as
    image files: worked out from the flash before and after the save and the save's log of
    operations (flashcut.py), a board cut where that cannot tell. The flash worked out for
    the whole log must be the flash after the save (no write the log missed), and a board
    cut right after an erase (a blank sector) must hold what was worked out for it."""
    import flashcut

    worked = flashcut.after_each(image.read_bytes(), after_image.read_bytes(), log, runtime)
    if worked[-1] is not None:
        assert worked[-1] == after_image.read_bytes()   # every byte the save changed
    erases = [k for k, op in enumerate(log, 1) if op["kind"] == "erase"
              and worked[k - 1] is not None]
    check = erases[-1] if erases else next(k for k, w in enumerate(worked, 1) if w is not None)
    paths = []
    for k, data in enumerate(worked, 1):
        path = tmp_path / ("cut%d.img" % k)
        if data is None or k == check:
            cut_after(kit, image, k, path, runtime)
            if data is not None:
                assert path.read_bytes() == data, (k, log[k - 1])
        else:
            path.write_bytes(data)
        paths.append(path)
    return paths


def booted_cuts(kit, seen, image, after_image, runtime="micropython"):
    """{kind: the `state` text of a board booted from a cut of that kind}, seen being {kind:
    [cut images]}: the first cut of each kind whose flash is neither the flash before the
    save nor after it (booting those is a plain power cycle:
    test_a_power_cycle_keeps_the_table); a kind with no other cut is left out."""
    plain = (image.read_bytes(), after_image.read_bytes())
    states = {}
    for which, cut_images in seen.items():
        cut_image = next((c for c in cut_images if c.read_bytes() not in plain), None)
        if cut_image is None:
            continue
        again = Table(kit, Setup("again", "again", {}), QUIET, runtime)
        try:
            again.boot(cut_image)
            states[which] = again.call("state")
        finally:
            again.close()
    return states


def test_a_power_cut_after_any_flash_operation_of_a_save_loses_nothing(kit, table, tmp_path):
    """The table before `sit 5`; each flash operation of its save in turn is the last the
    board completes (the power goes right after it; cuts_of_a_save). What the flash then
    holds mounts (read here with littlefs's own code), every file but the table's as it was,
    and the firmware's loader finds the table of before or of after, never a clean start; a
    board booted from a cut of each kind has that table."""
    from dealerbutton import rules
    from dealerbutton_host.bench.flashimage import files as files_of

    # At least one table saved before (the tests before this one may have saved none): a
    # cut in the save can then only give that table or the new one.
    if json.loads(table.call("state"))["seats"][4]["status"] == "empty":
        table.call("sit 5")
    table.call("leave 5")
    table.board.run_for(300)
    image = tmp_path / "before.img"
    table.board.savefs(str(image))
    table.board.wait_for_file(str(image))
    before, after, log, after_image = save_after_boot(kit, image, tmp_path)
    files_before = files_of(image)
    saved = {"before": host_load(files_before, tmp_path / "before")[0],
             "after": host_load(files_of(after_image), tmp_path / "after")[0]}
    assert saved["before"] != saved["after"], saved
    assert rules.Table.from_dict(saved["after"]).status(5) != "empty", saved
    seen = {}
    for k, cut_image in enumerate(cuts_of_a_save(kit, image, after_image, log, tmp_path), 1):
        files = files_of(cut_image)
        for name, data in files_before.items():
            if not name.startswith("state.json"):
                assert files.get(name) == data, (k, name)
        d, message = host_load(files, tmp_path / ("cut%d" % k))
        assert d is not None, (k, message)   # never a clean start
        got = next((which for which, table_dict in saved.items() if d == table_dict), None)
        assert got is not None, (k, d)       # the whole table of before or of after
        seen.setdefault(got, []).append(cut_image)
    assert set(seen) == {"before", "after"}, seen   # the cut points span the save's commit
    states = booted_cuts(kit, seen, image, after_image)
    assert states, seen                      # a cut no power cycle gives is booted
    for which, got in states.items():        # and the board agrees
        assert got == (after if which == "after" else before), (which, got)
