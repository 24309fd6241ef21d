"""A fake flash filesystem whose power can be cut at any write, flush, close, rename or
remove, for the tests of store/filestore.py. After a cut, reboot() gives the filesystem as the next
power-up would find it."""


class PowerCut(Exception):
    pass


class FakeFlash:
    def __init__(self, files=None, cut_at=None, torn=False):
        self.files = dict(files or {})   # what survives a power cut
        self.ops = 0
        self.cut_at = cut_at             # the op number at which the power goes
        self.torn = torn                 # a cut leaves half-written data (else: unsynced lost)
        self.dead = False

    def op(self, what, on_cut=None):
        if self.dead:
            raise PowerCut("no power")
        self.ops += 1
        if self.cut_at is not None and self.ops >= self.cut_at:
            self.dead = True
            if on_cut is not None:
                on_cut()
            raise PowerCut("power cut at %s (op %d)" % (what, self.ops))

    def reboot(self):
        return FakeFlash(self.files)

    def open(self, name, mode):
        if "r" in mode:
            self.op("open")
            if name not in self.files:
                raise OSError(2, "ENOENT")
            return _Reader(self.files[name])
        self.op("open")
        self.files[name] = b""     # creating / truncating is committed at once
        return _Writer(self, name)

    def rename(self, old, new):
        self.op("rename")
        if old not in self.files:
            raise OSError(2, "ENOENT")
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        self.op("remove")
        if name not in self.files:
            raise OSError(2, "ENOENT")
        del self.files[name]

    def exists(self, name):
        return name in self.files


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def read(self, n=-1):
        if n is None or n < 0:
            n = len(self.data) - self.pos
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, name):
        self.fs = fs
        self.name = name
        self.pending = b""

    def _tear(self, extra=b""):
        if self.fs.torn:
            data = self.pending + extra
            self.fs.files[self.name] = data[:len(data) // 2]

    def write(self, data):
        self.fs.op("write", lambda: self._tear(data))
        self.pending += data
        return len(data)

    def flush(self):
        self.fs.op("flush", self._tear)
        self.fs.files[self.name] = self.pending

    def close(self):
        self.fs.op("close", self._tear)
        self.fs.files[self.name] = self.pending
