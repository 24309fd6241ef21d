"""filestore.py: atomic saves with version, sequence number and CRC; a power cut at any point
of a save leaves the old or the new state; damaged files give a clean start, never a crash."""
import json

import two_runtimes
from dealerbutton.store import filestore
from fake_flash import FakeFlash, PowerCut

OLD = {"seats": 9, "rules": "dead", "hands": 3, "players": [1, 2, 3], "hand": None}
NEW = {"seats": 9, "rules": "dead", "hands": 4, "players": [1, 2, 3, 5], "hand": {"b": 2}}


def saved(*tables):
    fs = FakeFlash()
    s = filestore.Store(fs)
    for t in tables:
        s.save(t)
    return fs, s


def test_the_saved_json_is_compact_and_reads_back_the_same():
    fs = FakeFlash()
    s = filestore.Store(fs)
    d = {"b": [1, None, True], "a": {"y": "x\"", "x": False}}
    s.save(d)
    data = fs.files["state.json"]
    assert b" " not in data and filestore.parse(data)[0] == d


def test_save_then_load_round_trips_with_the_sequence_number():
    fs, s = saved(OLD, NEW)
    assert sorted(fs.files) == ["state.json"]
    d, seq, msg = filestore.Store(fs).load()
    assert d == NEW and seq == 2, (d, seq)
    assert msg == "state restored (save 2)", msg


def test_file_layout():
    fs, s = saved(OLD)
    data = fs.files["state.json"]
    assert data.startswith(b'{"v":1,"seq":1,"crc":'), data
    assert b',"table":{' in data and filestore.parse(data)[0] == OLD
    assert b" " not in data


def test_missing_file_is_a_clean_start():
    s = filestore.Store(FakeFlash())
    d, seq, msg = s.load()
    assert d is None and seq == 0 and msg == "no saved state: clean start"
    assert not s.problem


def check_corrupt(data, why):
    fs = FakeFlash({"state.json": data})
    s = filestore.Store(fs)
    d, seq, msg = s.load()
    assert d is None and seq == 0, (data, d)
    assert s.problem
    assert msg.startswith("saved state unusable (state.json ") and msg.endswith(": clean start")
    if why:
        assert why in msg, msg


def test_bad_crc():
    fs, s = saved(OLD)
    data = fs.files["state.json"].replace(b'"hands":3', b'"hands":4')
    check_corrupt(data, "bad CRC")


def test_every_truncation():
    fs, s = saved(NEW)
    data = fs.files["state.json"]
    for n in range(len(data)):
        check_corrupt(data[:n], None)


def test_every_single_bit_flip():
    fs, s = saved(NEW)
    data = fs.files["state.json"]
    for i in range(len(data)):
        for bit in range(8):
            b = bytearray(data)
            b[i] ^= 1 << bit
            check_corrupt(bytes(b), None)


def test_garbage_and_wrong_version():
    check_corrupt(b"", None)
    check_corrupt(b"\xff" * 100, None)
    check_corrupt(b"x" * 10000, "too big")
    fs, s = saved(OLD)
    data = fs.files["state.json"].replace(b'{"v":1,', b'{"v":2,')
    check_corrupt(data, "format 2")
    # valid CRC, payload not an object
    head, payload = filestore.Store(FakeFlash()).encode([1, 2], 1)
    check_corrupt(head + payload + b"}", "bad JSON")


def test_sequence_continues_after_a_load():
    fs, s = saved(OLD, OLD, OLD)
    s2 = filestore.Store(fs)
    s2.load()
    s2.save(NEW)
    d, seq, msg = filestore.Store(fs).load()
    assert seq == 4 and d == NEW


def test_the_clock_is_saved_beside_the_table_under_the_same_crc():
    fs = FakeFlash()
    s = filestore.Store(fs)
    s.save(OLD)
    s.save(NEW, {"entry": 2, "ms_left": 599000})
    data = fs.files["state.json"]
    assert data.endswith(b'},"clock":{"entry":2,"ms_left":599000}}') or data.endswith(
        b'},"clock":{"ms_left":599000,"entry":2}}'), data
    r = filestore.Store(fs)
    d, seq, msg = r.load()
    assert d == NEW and seq == 2 and r.clock == {"entry": 2, "ms_left": 599000}, (d, r.clock)
    # One digit of the clock changed: the whole file is refused (the old copy is gone).
    fs.files["state.json"] = data.replace(b"599000", b"599001")
    d, seq, msg = r.load()
    assert d is None and r.clock is None and msg.endswith("(state.json bad CRC): clean start")
    # A file without a clock (a cash game, or saved before the clock existed): None.
    fs, s = saved(OLD)
    r = filestore.Store(fs)
    assert r.load()[0] == OLD and r.clock is None
    # An interrupted save finished at power-up brings its clock.
    fs, s = saved(OLD)
    head, payload = s.encode(NEW, 2, {"entry": 1, "ms_left": 5})
    fs.files["state.json.tmp"] = head + payload + b"}"
    r = filestore.Store(fs)
    assert r.load()[0] == NEW and r.clock == {"entry": 1, "ms_left": 5}


def test_leftover_complete_temp_file_is_newer_and_finishes_the_save():
    fs, s = saved(OLD)
    head, payload = s.encode(NEW, 2)
    fs.files["state.json.tmp"] = head + payload + b"}"
    s2 = filestore.Store(fs)
    d, seq, msg = s2.load()
    assert d == NEW and seq == 2
    assert "interrupted save" in msg and not s2.problem
    assert sorted(fs.files) == ["state.json"]


def test_leftover_partial_temp_file_is_discarded():
    fs, s = saved(OLD)
    fs.files["state.json.tmp"] = b'{"v":1,"seq":2,"cr'
    s2 = filestore.Store(fs)
    d, seq, msg = s2.load()
    assert d == OLD and seq == 1 and not s2.problem
    assert msg == "state restored (save 1); an unfinished save was discarded", msg
    assert sorted(fs.files) == ["state.json"]


def cut_everywhere(torn):
    """Save NEW over OLD with the power cut at op 1, 2, 3, ... until a save completes."""
    outcomes = []
    cut = 1
    while True:
        fs, s = saved(OLD)
        fs.cut_at = fs.ops + cut
        try:
            s.save(NEW)
            finished = True
        except PowerCut:
            finished = False
        after = fs.reboot()
        s2 = filestore.Store(after)
        d, seq, msg = s2.load()
        assert (d, seq) in ((OLD, 1), (NEW, 2)), (cut, d, seq, msg)
        assert not s2.problem, msg
        # and the store keeps working after the reboot
        s2.save({"after": cut})
        assert filestore.Store(after).load()[0] == {"after": cut}
        outcomes.append(seq)
        if finished:
            return outcomes
        cut += 1


def test_power_cut_at_every_step_of_a_save_keeps_old_or_new():
    outcomes = cut_everywhere(torn=False)
    assert len(outcomes) >= 6, outcomes
    assert outcomes[0] == 1 and outcomes[-1] == 2


def test_power_cut_with_torn_writes_keeps_old_or_new():
    outcomes = []
    cut = 1
    while True:
        fs, s = saved(OLD)
        fs.torn = True
        fs.cut_at = fs.ops + cut
        try:
            s.save(NEW)
            finished = True
        except PowerCut:
            finished = False
        d, seq, msg = filestore.Store(fs.reboot()).load()
        assert (d, seq) in ((OLD, 1), (NEW, 2)), (cut, d, seq, msg)
        outcomes.append(seq)
        if finished:
            break
        cut += 1
    assert 1 in outcomes and 2 in outcomes


def test_power_cut_during_the_first_save_is_a_clean_start():
    for cut in range(1, 4):
        fs = FakeFlash(cut_at=cut, torn=True)
        try:
            filestore.Store(fs).save(OLD)
        except PowerCut:
            pass
        s = filestore.Store(fs.reboot())
        d, seq, msg = s.load()
        assert d is None and not s.problem, msg
        assert msg.startswith("no saved state"), msg


def test_flash_error_leaves_the_old_state():
    fs, s = saved(OLD)

    def broken(name, mode):
        raise OSError(28, "ENOSPC")
    fs.open = broken
    try:
        s.save(NEW)
        raised = False
    except OSError:
        raised = True
    assert raised and s.seq == 1


def test_os_fs_real_files():
    import os
    root = "store_test_tmp"
    try:
        os.mkdir(root)
    except OSError:
        pass
    fs = filestore.OsFs(root)
    s = filestore.Store(fs)
    for name in ("state.json", "state.json.tmp"):
        try:
            os.remove(root + "/" + name)
        except OSError:
            pass
    assert s.load()[0] is None
    s.save(OLD)
    s.save(NEW)
    assert not fs.exists("state.json.tmp") and fs.exists("state.json")
    assert filestore.Store(filestore.OsFs(root + "/")).load()[:2] == (NEW, 2)
    os.remove(root + "/state.json")
    os.rmdir(root)


def test_a_table_bigger_than_the_buffer_is_saved_whole():
    # The JSON is written into Store.buf, made larger when it is short: the file must hold
    # all of it, not the first buffer's worth.
    big = {"players": list(range(400)), "name": "x" * 300}
    fs = FakeFlash()
    s = filestore.Store(fs)
    size = s.save(big)
    assert size == len(fs.files["state.json"]) and size > 1500
    assert filestore.Store(fs).load()[0] == big


def _data_folder():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/../support/data/format2"


def test_encode_gives_a_table_bigger_than_the_buffer_whole():
    big = {"players": list(range(400)), "name": "x" * 300}
    s = filestore.Store(FakeFlash())
    head, payload = s.encode(big, 3)
    assert json.loads(payload) == big and len(payload) > 1500
    assert filestore.parse(head + payload + b"}")[:2] == (big, 3)


def test_tables_saved_by_the_firmware_before_format_3_come_back():
    # State files the firmware wrote before the saved form had words (format 2: one-letter
    # keys), and what each table was then (statuses, owes, choices, the next hand).
    import json

    from dealerbutton.rules import Table
    folder = _data_folder()
    with open(folder + "/expected.json") as f:
        expected = json.load(f)
    for name in sorted(expected):
        want = expected[name]
        st = filestore.Store(filestore.OsFs(folder), name=name)
        d, seq, message = st.load()
        assert message == "state restored (save %d)" % want["seq"], message
        assert d["v"] == 2
        t = Table.from_dict(d)
        assert t.hands == want["hands"]
        seats = [[t.status(s), list(t.owes(s)), t.choice(s)] for s in range(1, t.seats + 1)]
        assert seats == want["seats"], (name, seats)
        # Saved again: in words, and the same table.
        words = t.to_dict()
        assert words["format"] == Table.from_dict(words).to_dict()["format"] == 4
        again = Table.from_dict(json.loads(json.dumps(words)))
        h = t.deal()
        h2 = again.deal()
        assert [h.button, h.sb, h.bb, list(h.dealt)] == want["next_hand"], name
        assert [h2.button, h2.sb, h2.bb, list(h2.dealt)] == want["next_hand"], name


if __name__ == "__main__":
    two_runtimes.run_all(globals())
