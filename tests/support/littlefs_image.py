"""The files of a MicroPython board's flash image (Board.savefs: the rp2 port's littlefs2
region, 4 KiB blocks), read on this computer with littlefs-python (littlefs's own C code)."""

from littlefs import LittleFS

BLOCK = 4096


def files(image):
    """{path: bytes} of every file in the image (paths without the leading /). A littlefs
    error (LittleFSError) when the image does not mount."""
    data = bytearray(open(image, "rb").read())
    fs = LittleFS(block_size=BLOCK, block_count=len(data) // BLOCK, mount=False)
    fs.context.buffer = data
    fs.mount()
    out = {}
    for root, _, names in fs.walk("/"):
        for name in names:
            path = root.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path.lstrip("/")] = f.read()
    fs.unmount()
    return out
