"""drivestore.py: CircuitPython's saved table, in two copies written in place on the drive.
Real files in a scratch folder (CPython and the MicroPython unix port); what a power cut
between a flash erase and its program does on the board is tested on the emulated Pico
(tests/test_board_emulated_cp.py)."""
import os

import mptest
from dealerbutton import drivestore, store

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


def fresh():
    """An empty scratch drive."""
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    for name in drivestore.COPIES + ("state-9seats-dead-10-20.json",):
        _rm(ROOT + "/state/" + name)
    for name in ("state.json", "state.json.tmp"):
        _rm(ROOT + "/" + name)
    try:
        os.rmdir(ROOT + "/state")
    except OSError:
        pass


def copy(k):
    with open(ROOT + "/state/" + drivestore.COPIES[k], "rb") as f:
        return f.read()


def loaded():
    s = drivestore.DriveStore(ROOT)
    return s, s.load()


def test_the_first_start_makes_two_blank_copies():
    fresh()
    s, (d, seq, message) = loaded()
    assert d is None and seq == 0 and not s.problem
    assert message == ("no saved state (made state/table-a.json and table-b.json, the "
                       "table's two copies): clean start"), message
    for k in (0, 1):
        assert copy(k) == b" " * drivestore.SIZE
    s, (d, seq, message) = loaded()
    assert message == "no saved state: clean start", message


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
    old = store.Store(store.OsFs(ROOT))
    old.save(OLD)
    old.save(NEW, {"level": 3})
    s, (d, seq, message) = loaded()
    assert (d, seq) == (NEW, 2) and s.clock == {"level": 3}
    assert message == ("state restored (save 2, from state.json of earlier firmware, now "
                       "in state/)"), message
    assert not old.fs.exists("state.json")
    s.save(OLD)
    s2, (d, seq, message) = loaded()
    assert (d, seq, message) == (OLD, 3, "state restored (save 3)")


def test_a_table_kept_aside_and_taken_back():
    fresh()
    s, _ = loaded()
    s.save(OLD)
    s.save(NEW)
    name = "state-9seats-dead-10-20.json"
    s.keep_aside(name)
    assert copy(0).strip() == b"" and copy(1).strip() == b""
    kept, seq, why = s.read(name)
    assert (kept, seq, why) == (NEW, 2, None)
    s2, (d, seq, message) = loaded()
    assert d is None and message == "no saved state: clean start", message
    s2.take_back(name, 2)
    assert not s2.fs.exists(name)
    assert loaded()[1] == (NEW, 2, "state restored (save 2)")


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
    mptest.run_all(globals())
