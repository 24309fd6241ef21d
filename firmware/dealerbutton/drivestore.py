"""The saved table on CircuitPython's CIRCUITPY drive.

The drive is FAT on the Pico's flash, and CircuitPython rewrites that flash 4 KiB at a
time: an erase, then a program. Power lost between the two loses the whole 4 KiB; when it
held the FAT or a folder, the drive can no longer be read, and CircuitPython makes a new,
empty one at the next start (the firmware, config.json and the table gone with it).

So a save here never creates, grows, renames, removes or closes a file. It writes whole
512-byte blocks in place, into one of two copies of the table made once:

    state/table-a.json    12 KiB: 4 KiB of spaces, the table (store.py's form), spaces
    state/table-b.json    the same

A save goes to the copy that does not hold the newest table; at power-up the newest intact
copy is restored (its header and CRC checked as store.py does for state.json). The table
starts 4 KiB into its file and ends at least 4 KiB before the file's end, so that every
4 KiB of flash a save erases belongs to that file alone, as long as the file lies in one
piece on the drive: `dealerbutton deploy --drive` makes both files, or the firmware at its
first start with the drive its own. Each copy stays open while the app runs: FAT writes a
file's folder entry when the file is closed, and that then happens only when code.py ends.

Rare moves at power-up may write the FAT: the state.json of earlier firmware moved into the
copies, the copies made, a table kept aside for another configuration (a file in state/)
or taken back."""

from dealerbutton import store

FOLDER = "state"
COPIES = ("table-a.json", "table-b.json")
START = 4096              # where the table starts in its copy
SIZE = 12288              # a copy's size: START, then store.READ_LIMIT, then 4 KiB
BLOCK = 512               # the drive's block: only whole blocks are written
ENOENT = 2


class DriveStore(store.Store):
    """store.Store's save() and load() on the two copies in `root`/state/; a table kept
    aside is a file beside them. `legacy` reads the state.json of earlier firmware."""

    def __init__(self, root="/"):
        root = root.rstrip("/")
        store.Store.__init__(self, store.OsFs(root + "/" + FOLDER), COPIES[0])
        self.legacy = store.Store(store.OsFs(root or "/"))
        self.files = [None, None]          # each copy, open for writing once saved to
        self.seqs = [0, 0]                 # the save each copy holds (0: none intact)
        self.block_buf = bytearray(2 * BLOCK)   # a table's blocks, as written (grows)
        self.blank = b" " * BLOCK          # a block of spaces: over what a table left
        n = store.READ_LIMIT // BLOCK
        self.blocks = [n, n]               # blocks its table may fill (read: fewer)
        self.readonly = False              # the drive is not the board's: nothing written

    # ---- saving --------------------------------------------------------------------------

    def save(self, table_dict, clock_dict=None):
        """Write the table (and the clock beside it) into the copy that does not hold the
        newest one; returns its size. OSError when the flash fails or the table does not
        fit a copy (the newest copy is then still there)."""
        seq = self.seq + 1
        n = self._payload(table_dict, clock_dict)
        payload = memoryview(self.buf)[:n]
        head = store._head(seq, payload)
        size = len(head) + n + 1
        if size > store.READ_LIMIT:
            raise OSError("the table is too big to save (%d bytes, at most %d)"
                          % (size, store.READ_LIMIT))
        if size > len(self.block_buf):
            self.block_buf = bytearray((size + BLOCK - 1) // BLOCK * BLOCK)
        b = self.block_buf
        b[:len(head)] = head
        b[len(head):len(head) + n] = payload
        b[size - 1] = 125   # }
        k = 1 if self.seqs[0] > self.seqs[1] else 0
        self._write(k, size)
        self.seqs[k] = seq
        self.seq = seq
        return size

    def _write(self, k, size):
        """block_buf[:size] into copy k, padded with spaces to whole blocks, and over what
        is left of a longer table the copy held."""
        b = self.block_buf
        blocks = (size + BLOCK - 1) // BLOCK
        for i in range(size, blocks * BLOCK):
            b[i] = 32
        f = self.files[k]
        if f is None:
            # Unbuffered where the runtime buffers (CPython: the emulator, the tests); on the
            # board each write goes to FAT as it is, and a flush would write the folder.
            f = self.files[k] = self.fs.open(COPIES[k], "r+b", 0)
        f.seek(START)
        f.write(memoryview(b)[:blocks * BLOCK])   # whole blocks: FAT passes them on at once
        for _ in range(blocks, self.blocks[k]):
            f.write(self.blank)
        self.blocks[k] = blocks
        self.sync()

    def sync(self):
        """The blocks written to the flash now: board_cp's (CircuitPython holds the last
        4 KiB written in RAM for up to a second)."""

    # ---- reading -------------------------------------------------------------------------

    def read_copy(self, k):
        """(table_dict, seq, problem) of copy k: problem None for an intact table, "missing"
        for no file or a blank one; the clock saved with it in self.read_clock."""
        try:
            data = self.table_bytes(k)
        except OSError as exc:
            if exc.args and exc.args[0] == ENOENT:
                return None, 0, "missing"
            return None, 0, "unreadable (%s)" % exc
        self.blocks[k] = (len(data) + BLOCK - 1) // BLOCK
        if not data:
            return None, 0, "missing"
        table, seq, problem = store.parse(data)
        self.read_clock = store._clock_of(data) if problem is None else None
        return table, seq, problem

    def table_bytes(self, k):
        """What copy k holds, without the spaces around it."""
        f = self.fs.open(COPIES[k], "rb")
        try:
            f.seek(START)
            data = f.read(store.READ_LIMIT)
        finally:
            f.close()
        end = len(data)
        while end and data[end - 1] == 32:
            end -= 1
        return data[:end]

    def load(self):
        """The newest intact copy: (table_dict or None, seq, message), the clock saved beside
        it in self.clock. Makes the copies when the drive has none; takes over the
        state.json of earlier firmware. Never raises on a bad copy."""
        found = []
        clocks = []
        for k in (0, 1):
            found.append(self.read_copy(k))
            clocks.append(self.read_clock)
        self.problem = False
        self.clock = None
        self.seqs = [seq if why is None else 0 for _, seq, why in found]
        best = 0 if self.seqs[0] > self.seqs[1] else 1
        d, seq, why = found[best]
        other = found[1 - best][2]
        if why is None:
            self.seq = seq
            self.clock = clocks[best]
            return d, seq, "state restored (save %d)%s" % (
                seq, "" if other is None or other == "missing"
                else "; an unfinished save was discarded")
        self.seq = 0
        if found[0][2] == "missing" and found[1][2] == "missing":
            made = self.make()
            d, seq, message = self.take_over()
            if d is not None or "unusable" in message:
                return d, seq, message
            if made:
                return None, 0, "no saved state (made %s/table-a.json and table-b.json, the "\
                    "table's two copies): clean start" % FOLDER
            return None, 0, "no saved state: clean start"
        self.problem = True
        return None, 0, "saved state unusable (%s): clean start" % "; ".join(
            ["%s/%s %s" % (FOLDER, COPIES[k], found[k][2]) for k in (0, 1)
             if found[k][2] != "missing"])

    # ---- the rare moves ------------------------------------------------------------------

    def make(self):
        """Make state/ and whichever copy is missing, blank (spaces): True when it made one.
        Written in whole blocks, so that FAT gives each copy its clusters in a row."""
        made = False
        if self.readonly:
            return made
        try:
            if not self.fs.exists(""):
                self.fs.mkdir()
            for k in (0, 1):
                if self.fs.exists(COPIES[k]):
                    continue
                f = self.fs.open(COPIES[k], "wb")
                try:
                    for _ in range(SIZE // BLOCK):
                        f.write(self.blank)
                finally:
                    f.close()
                self.blocks[k] = 0
                made = True
        except OSError:
            return made     # a read-only drive: saving says so
        return made

    def take_over(self):
        """The state.json of earlier firmware, moved into the copies: (table_dict, seq,
        message) as load() gives them, or (None, 0, "") when there is none."""
        d, seq, message = self.legacy.load()
        if d is None:
            if self.legacy.problem:
                self.problem = True
                return None, 0, message
            return None, 0, ""
        self.clock = self.legacy.clock
        if self.readonly:
            self.seq = seq
            return d, seq, "state restored (save %d, from %s of earlier firmware)" % (
                seq, self.legacy.name)
        self.seq = seq - 1
        try:
            self.save(d, self.clock)
            for name in (self.legacy.name, self.legacy.tmp):
                try:
                    self.legacy.fs.remove(name)
                except OSError:
                    pass
            where = "now in %s/" % FOLDER
        except OSError as exc:
            self.seq = seq
            where = "not moved: %s" % exc
        return d, seq, "state restored (save %d, from %s of earlier firmware, %s)" % (
            seq, self.legacy.name, where)

    def keep_aside(self, name):
        """The newest table into the file `name` beside the copies, which are then blank."""
        newest = 0 if self.seqs[0] > self.seqs[1] else 1
        data = self.table_bytes(newest)
        out = self.fs.open(name, "wb")
        try:
            out.write(data)
        finally:
            out.close()
        for k in (1 - newest, newest):   # the older first: cut in between, it is still here
            self._write(k, 0)
            self.seqs[k] = 0
        self.seq = 0

    def take_back(self, name, seq):
        """The table kept aside in `name` (checked by the caller) made the saved one."""
        f = self.fs.open(name, "rb")
        try:
            data = f.read(store.READ_LIMIT)
        finally:
            f.close()
        if len(data) > len(self.block_buf):
            self.block_buf = bytearray((len(data) + BLOCK - 1) // BLOCK * BLOCK)
        self.block_buf[:len(data)] = data
        k = 1 if self.seqs[0] > self.seqs[1] else 0
        self._write(k, len(data))
        self.seqs[k] = seq
        self.seq = seq
        self.fs.remove(name)
