"""store/drivestore.py: CircuitPython's saved table, in two copies and three slots that deploy
made, written in place on the drive.
Real files in a scratch folder (CPython and the MicroPython unix port); what a power cut
between a flash erase and its program does on the board is tested on the emulated Pico
(tests/board/test_board_emulated_cp.py)."""
import os

import two_runtimes
from dealerbutton.store import drivestore, filestore

OLD = {"seats": 9, "rules": "dead", "hands": 3, "players": [1, 2, 3], "hand": None}
NEW = {"seats": 9, "rules": "dead", "hands": 4, "players": [1, 2, 3, 5], "hand": {"b": 2}}
# A folder of this test process's own (tests/conftest.py; /tmp when run by hand): both
# runtimes run on Linux here.
ROOT = (os.getenv("DEALERBUTTON_SCRATCH") or "/tmp") + "/dealerbutton-drivestore-test"


def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass


def fresh(files=None):
    """A scratch drive as `dealerbutton deploy --drive` leaves it: state/ and its files,
    blank at their full size (files: only these)."""
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    for name in drivestore.FILES + ("state-9seats-dead-10-20.json",):
        _rm(ROOT + "/state/" + name)
    for name in ("state.json", "state.json.tmp"):
        _rm(ROOT + "/" + name)
    try:
        os.rmdir(ROOT + "/state")
    except OSError:
        pass
    if files == ():
        return
    os.mkdir(ROOT + "/state")
    for name in drivestore.FILES if files is None else files:
        with open(ROOT + "/state/" + name, "wb") as f:
            f.write(b" " * drivestore.SIZE)


def copy(k):
    with open(ROOT + "/state/" + drivestore.FILES[k], "rb") as f:
        return f.read()


def loaded():
    s = drivestore.DriveStore(ROOT)
    return s, s.load()


def test_a_freshly_deployed_drive_is_a_clean_start_and_nothing_is_written():
    fresh()
    s, (d, seq, message) = loaded()
    assert d is None and seq == 0 and not s.problem
    assert message == "no saved state: clean start", message
    for k in range(len(drivestore.FILES)):
        assert copy(k) == b" " * drivestore.SIZE


def test_a_drive_without_its_files_says_which_and_how_to_make_them_and_is_never_written():
    fresh(())
    s, (d, seq, message) = loaded()
    assert d is None and s.problem
    assert message.startswith("the CIRCUITPY drive lacks the files the table is saved in "
                              "(state/table-a.json missing; state/table-b.json missing; "), message
    assert message.endswith(drivestore.RECOVERY), message
    assert "dealerbutton deploy --drive" in message
    try:
        s.save(OLD)
        raise AssertionError("saved")
    except OSError as exc:
        assert str(exc) == message, exc
    try:
        os.stat(ROOT + "/state")
        raise AssertionError("made state/")
    except OSError:
        pass


def test_a_copy_cut_short_while_it_was_made_is_reported_never_written_into():
    fresh()
    open(ROOT + "/state/table-a.json", "wb").close()   # 0 bytes: FAT writes the size only
    #                                                    when the file is closed
    s, (d, seq, message) = loaded()
    assert d is None and s.problem
    assert "(state/table-a.json 0 bytes, not 12288): " in message, message
    try:
        s.save(OLD)
        raise AssertionError("saved")
    except OSError:
        pass
    assert copy(0) == b"" and copy(1) == b" " * drivestore.SIZE
    fresh(drivestore.COPIES)     # a drive deployed before the slots
    s, (d, seq, message) = loaded()
    assert d is None and s.problem
    assert "state/aside-1.json missing; state/aside-2.json missing; state/aside-3.json " \
        "missing" in message, message


def test_saves_alternate_between_the_copies_in_place_and_the_newest_comes_back():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    s.save(NEW)
    a, b = copy(0), copy(1)
    assert len(a) == len(b) == drivestore.SIZE        # never grown: written in place
    assert a[:drivestore.START] == b" " * drivestore.START
    assert a[drivestore.START:].startswith(b'{"v":1,"seq":1,')
    assert b[drivestore.START:].startswith(b'{"v":1,"seq":2,')
    s2, (d, seq, message) = loaded()
    assert (d, seq, message) == (NEW, 2, "state restored (save 2)")
    s2.save(OLD)                                       # over the older copy: a
    assert copy(0)[drivestore.START:].startswith(b'{"v":1,"seq":3,')
    assert loaded()[1][:2] == (OLD, 3)


def test_a_copy_is_plain_json_text_padded_with_spaces():
    import json
    fresh()
    s, _ = loaded()
    s.save(NEW, {"level": 2})
    d = json.loads(copy(0).decode())
    assert d["table"] == NEW and d["clock"] == {"level": 2} and d["seq"] == 1


def test_a_shorter_table_blanks_what_the_longer_one_left():
    fresh()
    s, _ = loaded()
    big = {"players": list(range(200))}
    s.save(big)
    s.save(OLD)
    s.save(OLD)         # copy a again: the big table's later blocks are spaces now
    assert loaded()[1][:2] == (OLD, 3)
    a = copy(0)[drivestore.START:]
    assert a.rstrip(b" ").endswith(b"}") and a.count(b"}") == a.rstrip(b" ").count(b"}")
    s2, _ = loaded()
    assert s2.blocks[0] == 1


def test_a_copy_cut_short_gives_the_other_one():
    """A power cut in a save loses at most the copy being written: every cut point (the
    table's bytes up to k written, the rest erased flash or the older table) gives the
    table of before or the new one, never a clean start."""
    fresh()
    s, _ = loaded()
    s.save(OLD)
    s.save(OLD)          # a: save 1, b: save 2
    s.save(NEW)          # a: save 3
    whole = copy(0)
    older = None
    for erased in (b"\xff", b"\x00"):
        for k in range(drivestore.START, drivestore.START + 700, 37):
            torn = whole[:k] + erased * (len(whole) - k)
            with open(ROOT + "/state/" + drivestore.COPIES[0], "wb") as f:
                f.write(torn)
            s2, (d, seq, message) = loaded()
            assert d is not None, (k, message)
            assert (d, seq) in ((OLD, 2), (NEW, 3)), (k, seq)
            if seq == 2:
                older = message
    assert older == "state restored (save 2); an unfinished save was discarded", older


def test_damaged_copies_are_a_clean_start_that_says_why():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    s.save(NEW)
    for k in (0, 1):
        data = bytearray(copy(k))
        data[drivestore.START + 30] ^= 1
        with open(ROOT + "/state/" + drivestore.COPIES[k], "wb") as f:
            f.write(data)
    s2, (d, seq, message) = loaded()
    assert d is None and s2.problem
    assert message.startswith("saved state unusable (state/table-a.json "), message
    assert "; state/table-b.json " in message and message.endswith(": clean start"), message


def test_the_state_json_of_earlier_firmware_moves_into_the_copies():
    fresh()
    old = filestore.Store(filestore.OsFs(ROOT))
    old.save(OLD)
    old.save(NEW, {"level": 3})
    s, (d, seq, message) = loaded()
    assert (d, seq) == (NEW, 2) and s.clock == {"level": 3}
    assert message == ("state restored (save 2, from state.json of earlier firmware, now "
                       "in state/)"), message
    assert old.fs.exists("state.json")      # no folder written: the copies come first now
    assert loaded()[1] == (NEW, 2, "state restored (save 2)")
    s.save(OLD)
    s2, (d, seq, message) = loaded()
    assert (d, seq, message) == (OLD, 3, "state restored (save 3)")


def slot(k):
    """(name, table file bytes) of slot k (0, 1, 2)."""
    data = copy(2 + k)[drivestore.START:].rstrip(b" ")
    if not data:
        return None
    name, table = data.split(b"\n", 1)
    return name.decode(), table


def test_a_table_kept_aside_goes_to_a_slot_and_comes_back_as_the_newest_copy():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    s.save(NEW)
    a, b = copy(0), copy(1)
    name = "state-9seats-dead-10-20.json"
    assert s.keep_aside(name) == ""
    assert (copy(0), copy(1)) == (a, b)          # the copies stay: NEW still the newest
    assert slot(0) == (name, b[drivestore.START:].rstrip(b" "))
    kept, seq, why = s.read(name)
    assert (kept, seq, why) == (NEW, 2, None)
    slots = [copy(2 + k) for k in range(3)]
    s2, (d, seq, message) = loaded()              # a power-up that keeps it aside again
    assert (d, seq) == (NEW, 2)
    assert s2.keep_aside(name) == ""
    assert [copy(2 + k) for k in range(3)] == slots   # already there: not written again
    s2.save(OLD)                                  # another configuration's table: a, save 3
    s2.read(name)
    s2.take_back(name, 2)                         # into the older copy (b), save 4
    assert s2.seq == 4
    assert loaded()[1] == (NEW, 4, "state restored (save 4)")
    assert loaded()[0].read(name)[:2] == (NEW, 2)   # the slot keeps it until written over


def test_the_slots_hold_three_configurations_and_the_oldest_makes_way():
    fresh()
    s, _ = loaded()
    names = ["state-%dseats-dead-10-20.json" % n for n in (4, 5, 6, 7)]
    notes = []
    for name in names:
        s.save({"name": name})
        notes.append(s.keep_aside(name))
    assert notes[:3] == ["", "", ""], notes
    assert notes[3] == ("; it took the place of the table kept as %s (save 1), now gone"
                        % names[0]), notes
    assert [slot(k)[0] for k in range(3)] == [names[3], names[1], names[2]]
    for name in names[1:]:
        assert s.read(name)[0] == {"name": name}
    assert s.read(names[0])[2] == "missing"


def test_a_torn_slot_is_free_and_the_table_is_kept_again_from_the_copies():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    name = "state-9seats-dead-10-20.json"
    s.keep_aside(name)
    whole = copy(2)
    for k in (drivestore.START + 3, drivestore.START + 60):
        with open(ROOT + "/state/" + drivestore.FILES[2], "wb") as f:
            end = drivestore.START + drivestore.BLOCK   # the block it was written in
            f.write(whole[:k] + b"\xff" * (end - k) + whole[end:])
        s2, (d, seq, _) = loaded()
        assert (d, seq) == (OLD, 1)               # the copy still holds it
        assert s2.read(name)[2] != None           # noqa: E711 (not intact)
        s2.keep_aside(name)
        assert copy(2) == whole and s2.read(name)[:2] == (OLD, 1)


def test_a_table_kept_aside_by_earlier_firmware_is_taken_back_and_its_file_stays():
    fresh()
    old = filestore.Store(filestore.OsFs(ROOT + "/state"), "state-9seats-dead-10-20.json")
    old.save(NEW)
    old.save(NEW)
    s, _ = loaded()
    d, seq, why = s.read("state-9seats-dead-10-20.json")
    assert (d, seq, why) == (NEW, 2, None)
    s.take_back("state-9seats-dead-10-20.json", seq)
    assert loaded()[1] == (NEW, 1, "state restored (save 1)")
    assert os.stat(ROOT + "/state/state-9seats-dead-10-20.json")


class Cut(Exception):
    """The power went in the middle of a write."""


class Torn(drivestore.DriveStore):
    """A DriveStore whose cut_at-th write is torn: the sector it erases holds only the
    first `keep` bytes of the new blocks, the rest erased (0xff), and the power is gone."""

    cut_at = 0
    keep = 0
    writes = 0

    def _write(self, k, size):
        self.writes += 1
        if self.writes != self.cut_at:
            return drivestore.DriveStore._write(self, k, size)
        blocks = (size + drivestore.BLOCK - 1) // drivestore.BLOCK
        new = bytes(self.block_buf[:size]) + b" " * (blocks * drivestore.BLOCK - size)
        with open(ROOT + "/state/" + drivestore.FILES[k], "r+b") as f:
            f.seek(drivestore.START)
            f.write(new[:self.keep] + b"\xff" * (4096 - min(self.keep, len(new))))
        raise Cut()


def power_up(seats, cut_at=0, keep=0):
    """store/startup.py's moves on the drive for a config of `seats`: the table it starts with
    (a dict, or None for a new one); Cut when the power goes at write cut_at."""
    s = Torn(ROOT)
    s.cut_at, s.keep = cut_at, keep
    d, _, _ = s.load()
    if d is not None and d["seats"] == seats:
        return d
    if d is not None:
        s.keep_aside("t%d" % d["seats"])
    d, seq, why = s.read("t%d" % seats)
    if why is not None:
        return None
    s.take_back("t%d" % seats, seq)
    return d


def played(seats, n):
    """n saves of a table of `seats` seats onto the drive as it is."""
    s, (d, _, _) = loaded()
    for i in range(n):
        d = {"seats": seats, "hands": i}
        s.save(d)
    return d


def test_a_power_cut_in_any_write_of_keeping_aside_or_taking_back_loses_no_table():
    """Every write of the power-ups after config.json changed (9 seats to 6: the 9-seat
    table kept aside; back to 9: the 6-seat one kept aside, the 9-seat one taken back), torn
    after 0, 1, 300, 511 bytes or all of its first block: the power-up after it, and the
    one after a change back, each start with their own table, whole."""
    cases = 0
    for keep in (0, 1, 300, 511, 4096):
        for cut_at in (1, 2, 3):
            # keeping aside, cut
            fresh()
            t9 = played(9, 3)
            try:
                power_up(6, cut_at, keep)
                assert cut_at > 1, "write %d not reached" % cut_at
            except Cut:
                cases += 1
                assert power_up(6) is None                   # a new 6-seat table
                assert power_up(9) == t9
            # taking back, cut
            fresh()
            t9 = played(9, 3)
            assert power_up(6) is None
            t6 = played(6, 2)
            try:
                assert power_up(9, cut_at, keep) == t9
                assert cut_at > 2, "write %d not reached" % cut_at
                continue
            except Cut:
                cases += 1
            assert power_up(9) == t9 and power_up(9) == t9
            assert power_up(6) == t6 and power_up(9) == t9
    assert cases == 15, cases


def test_a_table_too_big_for_a_copy_is_refused_and_the_copies_stay():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    try:
        s.save({"players": list(range(2000))})
        raise AssertionError("saved")
    except OSError as exc:
        assert "too big to save" in str(exc), exc
    assert loaded()[1][:2] == (OLD, 1)


if __name__ == "__main__":
    two_runtimes.run_all(globals())
