"""A fake flash for the power-loss campaign: FakeFlash (tests/support/fake_flash.py) whose every
operation is traced, and whose power cut also remembers the bytes in flight, so that the
campaign can try every contents a cut may leave in the file being written (any prefix of
what was handed to write(), optionally followed by erased bytes), not just one."""
from fake_flash import FakeFlash


class TornFlash(FakeFlash):
    """FakeFlash with a trace of (operation, file, bytes handed to write() so far) and, after
    a cut in the middle of writing a file, torn = (file, those bytes). Creating or
    truncating a file is committed at once, a rename is atomic (littlefs), data written is
    durable after flush() or close(); outcomes() lists what else a cut may leave."""

    def __init__(self, files=None, cut_at=None):
        FakeFlash.__init__(self, files, cut_at)
        self.trace = []
        self.torn = None

    def note(self, what, name, size=0):
        if not self.dead:
            self.trace.append((what, name, size))

    def reboot(self, cut_at=None):
        return TornFlash(self.files, cut_at)

    def open(self, name, mode):
        if "r" in mode:
            self.note("read", name)
            return FakeFlash.open(self, name, mode)
        self.note("open", name)
        self.op("open")
        self.files[name] = b""
        return TornWriter(self, name)

    def rename(self, old, new):
        self.note("rename", old)
        return FakeFlash.rename(self, old, new)

    def remove(self, name):
        self.note("remove", name)
        return FakeFlash.remove(self, name)

    def outcomes(self, every_byte=False):
        """The flash contents a power-up may find after the cut: the files as they are
        (nothing in flight reached the flash) and, when a file was being written, that file
        holding a prefix of the bytes handed to write() -- every length when every_byte,
        else the edges and a few in between -- or half of them followed by erased (0xFF)
        or zeroed bytes."""
        out = [dict(self.files)]
        if self.torn is None:
            return out
        name, data = self.torn
        n = len(data)
        if every_byte:
            keeps = list(range(n + 1))
        else:
            keeps = sorted(set([k for k in (0, 1, n // 3, n // 2, n - 1, n) if 0 <= k <= n]))
        for k in keeps:
            files = dict(self.files)
            files[name] = data[:k]
            out.append(files)
        for tail in (b"\xff" * 32, b"\x00" * 8):
            files = dict(self.files)
            files[name] = data[:n // 2] + tail
            out.append(files)
        return out


class TornWriter:
    def __init__(self, fs, name):
        self.fs = fs
        self.name = name
        self.pending = b""

    def _in_flight(self, data):
        self.fs.torn = (self.name, data)

    def write(self, data):
        data = bytes(data)
        whole = self.pending + data
        self.fs.note("write", self.name, len(whole))
        self.fs.op("write", lambda: self._in_flight(whole))
        self.pending = whole
        return len(data)

    def flush(self):
        self.fs.note("flush", self.name, len(self.pending))
        self.fs.op("flush", lambda: self._in_flight(self.pending))
        self.fs.files[self.name] = self.pending

    def close(self):
        self.fs.note("close", self.name, len(self.pending))
        self.fs.op("close", lambda: self._in_flight(self.pending))
        self.fs.files[self.name] = self.pending
