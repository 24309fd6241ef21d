"""flashcut.py, the power cuts the board campaigns work out instead of booting a board
for each: on small made-up regions."""

import flashcut
import pytest

BASE = flashcut.REGION_OFFSET["micropython"]


def op(kind, start, length):
    return {"kind": kind, "addr": hex(BASE + start), "len": length}


def test_an_erase_blanks_and_a_program_writes_what_the_flash_after_holds():
    before = bytes([1] * 8)
    after = bytes([1, 1, 7, 7, 1, 1, 1, 1])
    cuts = flashcut.after_each(before, after, [op("erase", 0, 4), op("program", 0, 4)],
                               "micropython")
    assert cuts == [bytes([255] * 4 + [1] * 4), bytes([1, 1, 7, 7, 1, 1, 1, 1])]


def test_a_program_written_over_later_is_not_known_from_then_on():
    before = bytes(8)
    after = bytes([5] * 4 + [0] * 4)
    log = [op("program", 0, 2), op("program", 4, 2), op("erase", 0, 4), op("program", 0, 4)]
    cuts = flashcut.after_each(before, after, log, "micropython")
    assert cuts[0] is None and cuts[1:] == [None, None, None]


def test_an_operation_outside_the_region_is_refused():
    with pytest.raises(ValueError, match="outside the region"):
        flashcut.after_each(bytes(8), bytes(8), [op("erase", 4, 8)], "micropython")


def test_a_torn_erase_blanks_only_its_first_bytes():
    cut = flashcut.erase_torn(bytes(8), op("erase", 0, 8), 3, "micropython")
    assert cut == bytes([255] * 3 + [0] * 5)
    with pytest.raises(ValueError):
        flashcut.erase_torn(bytes(8), op("program", 0, 8), 3, "micropython")
