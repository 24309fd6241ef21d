"""A MicroPython board's filesystem as the emulated Pico saves it (Board.savefs: the rp2
port's littlefs2 region), read and written on this computer with littlefs-python
(littlefs's own C code), in the geometry the port mounts it with."""

from pathlib import Path
from typing import Dict

from littlefs import LittleFS

BLOCK_SIZE = 4096
READ_SIZE = 32      # MicroPython's VfsLfs2 default
PROG_SIZE = 256     # the rp2 port's _boot.py: VfsLfs2(bdev, progsize=256)
LOOKAHEAD = 32      # MicroPython's VfsLfs2 default
REGION_BYTES = 1408 * 1024   # the rp2 port's filesystem on a 2 MB Pico (352 blocks)


def _unmounted(data: bytearray) -> LittleFS:
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=len(data) // BLOCK_SIZE,
                  read_size=READ_SIZE, prog_size=PROG_SIZE, cache_size=PROG_SIZE,
                  lookahead_size=LOOKAHEAD, mount=False)
    fs.context.buffer = data
    return fs


def mounted(data: bytearray) -> LittleFS:
    """The filesystem in data, mounted (a LittleFSError when it does not mount); writes
    go into data."""
    fs = _unmounted(data)
    fs.mount()
    return fs


def blank(out: Path, size: int = REGION_BYTES) -> None:
    """An empty filesystem region in out: erased flash, formatted as the port formats it
    at a board's first start."""
    data = bytearray(b"\xff" * size)
    fs = _unmounted(data)
    fs.format()
    Path(out).write_bytes(bytes(data))


def files(image: Path) -> Dict[str, bytes]:
    """{path: bytes} of every file in the image (paths without the leading /)."""
    fs = mounted(bytearray(Path(image).read_bytes()))
    out = {}
    for root, _, names in fs.walk("/"):
        for name in names:
            path = root.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path.lstrip("/")] = f.read()
    fs.unmount()
    return out


def with_files(image: Path, new: Dict[str, bytes], out: Path) -> None:
    """A copy of image in out with each of new's files (path: bytes, folders made as
    needed) written over; every other file as it was."""
    data = bytearray(Path(image).read_bytes())
    fs = mounted(data)
    for path, content in sorted(new.items()):
        folder = path.rpartition("/")[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(content)
    fs.unmount()
    Path(out).write_bytes(bytes(data))
