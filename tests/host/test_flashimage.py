"""bench/flashimage.py: a MicroPython board's flash written and read on this computer (the
board bench boots every setup from such a copy: tests/board)."""

from dealerbutton_host.bench import flashimage
from littlefs import LittleFS


def blank(path, blocks=16):
    fs = LittleFS(block_size=flashimage.BLOCK_SIZE, block_count=blocks,
                  read_size=flashimage.READ_SIZE, prog_size=flashimage.PROG_SIZE,
                  cache_size=flashimage.PROG_SIZE, lookahead_size=flashimage.LOOKAHEAD)
    with fs.open("main.py", "wb") as f:
        f.write(b"import dealerbutton\n")
    path.write_bytes(bytes(fs.context.buffer))


def test_files_written_in_are_read_back_and_the_others_kept(tmp_path):
    image = tmp_path / "flash.img"
    blank(image)
    out = tmp_path / "copy.img"
    flashimage.with_files(image, {"config.json": b'{"seats": 6}',
                                  "dealerbutton/net.mpy": b"M\x06"}, out)
    assert flashimage.files(out) == {"main.py": b"import dealerbutton\n",
                                     "config.json": b'{"seats": 6}',
                                     "dealerbutton/net.mpy": b"M\x06"}
    assert flashimage.files(image) == {"main.py": b"import dealerbutton\n"}   # untouched
    flashimage.with_files(out, {"config.json": b"{}"}, out)
    assert flashimage.files(out)["config.json"] == b"{}"


def test_a_blank_region_is_the_port_s_size_and_empty(tmp_path):
    image = tmp_path / "blank.img"
    flashimage.blank(image)
    assert image.stat().st_size == 352 * 4096
    assert flashimage.files(image) == {}
