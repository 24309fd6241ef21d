"""The saved table on CircuitPython's CIRCUITPY drive, where the board never writes the FAT
or a folder: a power cut at any moment loses at most the save in flight.

The drive is FAT on the Pico's flash, and CircuitPython rewrites that flash 4 KiB at a
time: an erase, then a program. Power lost between the two loses the whole 4 KiB; when it
held the FAT, the root folder or state/, the drive can no longer be read (CircuitPython then
makes a new, empty one) or loses files. So the board never creates, grows, renames, removes
or closes a file: `dealerbutton deploy --drive` (the computer) makes every file the board
will ever write, each SIZE bytes of spaces, and the board rewrites whole 512-byte blocks
inside them:

    state/table-a.json    the table (filestore.py's form) START bytes in, spaces around it
    state/table-b.json    the same: a save goes to the copy that does not hold the newest
    state/aside-1.json    a table kept aside for another configuration: a line with its
    state/aside-2.json      name (startup.aside_name), then the table as in a copy
    state/aside-3.json

The table lies START bytes into its file and ends at least 4 KiB before the file's end, so
that every 4 KiB of flash a write erases belongs to that file alone (FAT gives a file
written in one piece its clusters in a row). Keeping a table aside and taking it back are
such writes too: the table into a slot, then into the older copy with the next sequence
number, so that the newest copy is the table in play and everything else stays readable
until it has been written again elsewhere. A written file stays open while the app runs:
FAT writes a file's folder entry when the file is closed, which then happens only when
code.py ends.

A drive without these files, or with one of another size (a copy cut short while it was
made, a file copied by hand), is reported at power-up (check()) and never written: the
board says which file and the one command that makes them again."""

from dealerbutton.store import filestore

FOLDER = "state"
COPIES = ("table-a.json", "table-b.json")
SLOTS = ("aside-1.json", "aside-2.json", "aside-3.json")
FILES = COPIES + SLOTS
START = 4096              # where the table starts in its file
SIZE = 12288              # each file's size: START, then filestore.READ_LIMIT, then 4 KiB
BLOCK = 512               # the drive's block: only whole blocks are written
NAME_LIMIT = 80           # a slot's first line: the name of the table kept there
RECOVERY = ("make them again (the tables in the others are kept): dealerbutton deploy "
            "--drive <the CIRCUITPY drive> (hold the next-hand button while you plug the "
            "board in if the computer cannot write to it)")


class ReadOnlyFs(filestore.OsFs):
    """A folder read as it is: the legacy store's rename and remove (finishing or dropping
    an interrupted save of earlier firmware) would write the folder, so they do nothing."""

    def rename(self, old, new):
        raise OSError("not on the drive")

    def remove(self, name):
        raise OSError("not on the drive")


class DriveStore(filestore.Store):
    """filestore.Store's save(), load(), read(), keep_aside() and take_back() on the files
    deploy made in `root`/state/ (FILES: two copies, then the slots). `legacy` reads the
    state.json of earlier firmware."""

    def __init__(self, root="/"):
        root = root.rstrip("/")
        filestore.Store.__init__(self, filestore.OsFs(root + "/" + FOLDER), COPIES[0])
        self.legacy = filestore.Store(ReadOnlyFs(root or "/"))
        self.files = [None] * len(FILES)   # each file, open for writing once written to
        self.seqs = [0, 0]                 # the save each copy holds (0: none intact)
        self.block_buf = bytearray(2 * BLOCK)   # a table's blocks, as written (grows)
        self.blank = b" " * BLOCK          # a block of spaces: over what a table left
        n = filestore.READ_LIMIT // BLOCK
        self.blocks = [n] * len(FILES)     # blocks its table may fill (read: fewer)
        self.readonly = False              # the drive is not the board's: nothing written
        self.damage = None                 # what check() found wrong (then nothing written)
        self.aside_data = b""              # the table file read() found for a name

    # ---- the files deploy made -----------------------------------------------------------

    def check(self):
        """None when every file in FILES is there at SIZE bytes; else one line that says
        which are not and how to make them again (then the store never writes)."""
        import os

        bad = []
        for name in FILES:
            try:
                size = os.stat(self.fs.path(name))[6]
            except OSError:
                bad.append("%s/%s missing" % (FOLDER, name))
                continue
            if size != SIZE:
                bad.append("%s/%s %d bytes, not %d" % (FOLDER, name, size, SIZE))
        if not bad:
            self.damage = None
            return None
        self.damage = ("the CIRCUITPY drive lacks the files the table is saved in (%s): "
                       "%s" % ("; ".join(bad), RECOVERY))
        return self.damage

    # ---- saving --------------------------------------------------------------------------

    def save(self, table_dict, clock_dict=None):
        """Write the table (and the clock beside it) into the copy that does not hold the
        newest one; returns its size. OSError when the flash fails, the drive lacks its
        files or the table does not fit a copy (the newest copy is then still there)."""
        seq = self.seq + 1
        n = self._payload(table_dict, clock_dict)
        self._put(0, seq, memoryview(self.buf)[:n])
        k = self._older()
        self._write(k, self.size)
        self.seqs[k] = seq
        self.seq = seq
        return self.size

    def _older(self):
        return 1 if self.seqs[0] > self.seqs[1] else 0

    def _put(self, at, seq, payload):
        """The table file of payload (a table's JSON, and its clock) at save seq into
        block_buf[at:]; self.size is then where it ends."""
        head = filestore._head(seq, payload)
        size = len(head) + len(payload) + 1
        if size > filestore.READ_LIMIT:
            raise OSError("the table is too big to save (%d bytes, at most %d)"
                          % (size, filestore.READ_LIMIT))
        size += at
        if size > len(self.block_buf):
            old = self.block_buf
            self.block_buf = bytearray((size + BLOCK - 1) // BLOCK * BLOCK)
            self.block_buf[:at] = old[:at]
        b = self.block_buf
        b[at:at + len(head)] = head
        b[at + len(head):size - 1] = payload
        b[size - 1] = 125   # }
        self.size = size

    def _write(self, k, size):
        """block_buf[:size] into file k, padded with spaces to whole blocks, and over what
        is left of a longer table the file held."""
        if self.damage is not None:
            raise OSError(self.damage)
        if self.readonly:
            raise OSError("the drive is read-only to the board")
        b = self.block_buf
        blocks = (size + BLOCK - 1) // BLOCK
        for i in range(size, blocks * BLOCK):
            b[i] = 32
        f = self.files[k]
        if f is None:
            # Unbuffered where the runtime buffers (CPython: the emulator, the tests); on the
            # board each write goes to FAT as it is, and a flush would write the folder.
            f = self.files[k] = self.fs.open(FILES[k], "r+b", 0)
        f.seek(START)
        f.write(memoryview(b)[:blocks * BLOCK])   # whole blocks: FAT passes them on at once
        for _ in range(blocks, self.blocks[k]):
            f.write(self.blank)
        self.blocks[k] = blocks
        self.sync()

    def sync(self):
        """The blocks written to the flash now: board/circuitpython.py's (CircuitPython holds
        the last 4 KiB written in RAM for up to a second)."""

    # ---- reading -------------------------------------------------------------------------

    def file_bytes(self, k):
        """What file k holds from START, without the spaces after it."""
        f = self.fs.open(FILES[k], "rb")
        try:
            f.seek(START)
            data = f.read(filestore.READ_LIMIT)
        finally:
            f.close()
        end = len(data)
        while end and data[end - 1] == 32:
            end -= 1
        self.blocks[k] = (end + BLOCK - 1) // BLOCK
        return data[:end]

    def read_copy(self, k):
        """(table_dict, seq, problem) of copy k: problem None for an intact table, "missing"
        for a blank copy; the clock saved with it in self.read_clock."""
        try:
            data = self.file_bytes(k)
        except OSError as exc:
            return None, 0, "unreadable (%s)" % exc
        if not data:
            return None, 0, "missing"
        table, seq, problem = filestore.parse(data)
        self.read_clock = filestore._clock_of(data) if problem is None else None
        return table, seq, problem

    def read_slot(self, k):
        """(name, table file bytes) of slot k (index in FILES), or (None, b"") for a blank,
        unreadable or damaged one."""
        try:
            data = self.file_bytes(k)
        except OSError:
            return None, b""
        i = data.find(b"\n")
        if i < 0 or i > NAME_LIMIT:
            return None, b""
        try:
            return data[:i].decode(), data[i + 1:]
        except UnicodeError:
            return None, b""

    def load(self):
        """The newest intact copy: (table_dict or None, seq, message), the clock saved beside
        it in self.clock. A drive without its files (check()) is a clean start that says
        why; copies both blank take over the state.json of earlier firmware. Never raises
        on a bad copy; never writes but to take over state.json."""
        self.problem = False
        self.clock = None
        self.seq = 0
        if self.check() is not None:
            self.problem = True
            return None, 0, self.damage
        found = []
        clocks = []
        for k in (0, 1):
            found.append(self.read_copy(k))
            clocks.append(self.read_clock)
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
        if found[0][2] == "missing" and found[1][2] == "missing":
            d, seq, message = self.take_over()
            if d is not None or message:
                return d, seq, message
            return None, 0, "no saved state: clean start"
        self.problem = True
        return None, 0, "saved state unusable (%s): clean start" % "; ".join(
            ["%s/%s %s" % (FOLDER, COPIES[k], found[k][2]) for k in (0, 1)
             if found[k][2] != "missing"])

    # ---- the rare moves ------------------------------------------------------------------

    def take_over(self):
        """The state.json of earlier firmware, saved into a copy (the file stays: the copies
        come first from then on): (table_dict, seq, message) as load() gives them, or
        (None, 0, "") when there is none."""
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
            where = "now in %s/" % FOLDER
        except OSError as exc:
            self.seq = seq
            where = "not moved: %s" % exc
        return d, seq, "state restored (save %d, from %s of earlier firmware, %s)" % (
            seq, self.legacy.name, where)

    def read(self, name):
        """(table_dict, seq, problem) of the table kept aside as `name`: in the slot that
        names it, else in the file state/`name` of earlier firmware (read only); problem
        "missing" when there is none. Its bytes are then in self.aside_data."""
        self.aside_data = b""
        for k in range(2, len(FILES)):
            got, data = self.read_slot(k)
            if got == name:
                table, seq, problem = filestore.parse(data)
                self.read_clock = filestore._clock_of(data) if problem is None else None
                if problem is None:
                    self.aside_data = data
                return table, seq, problem
        table, seq, problem = filestore.Store.read(self, name)
        if problem is None:
            f = self.fs.open(name, "rb")
            try:
                self.aside_data = f.read(filestore.READ_LIMIT)
            finally:
                f.close()
        return table, seq, problem

    def keep_aside(self, name):
        """The newest copy's table into the slot for `name` (the one that names it, else a
        blank or unusable one, else the one with the oldest table): a line with the name,
        then the table. The copies stay as they are, the newest still the table kept, until
        a save or take_back() writes over the older one. Returns "" or what made way."""
        newest = 1 - self._older()
        data = self.file_bytes(newest)
        want = name.encode() + b"\n" + data
        if len(want) > filestore.READ_LIMIT:
            raise OSError("the table is too big to keep aside (%d bytes, at most %d)"
                          % (len(want), filestore.READ_LIMIT))
        pick = -1
        free = -1
        note = ""
        old_k = old_seq = -1      # the slot with the oldest table, and its save
        old_name = ""
        for k in range(2, len(FILES)):
            got, held = self.read_slot(k)
            if got == name:
                pick = k
                break
            if got is None:
                if free < 0:
                    free = k
                continue
            _, seq, problem = filestore.parse(held)
            seq = seq if problem is None else 0
            if old_k < 0 or seq < old_seq:
                old_k, old_seq, old_name = k, seq, got
        if pick < 0:
            pick = free
        if pick < 0:
            pick = old_k
            note = "; it took the place of the table kept as %s (save %d), now gone" % (
                old_name, old_seq)
        if self.file_bytes(pick) == want:
            return note                       # kept there at an earlier power-up
        if len(want) > len(self.block_buf):
            self.block_buf = bytearray((len(want) + BLOCK - 1) // BLOCK * BLOCK)
        self.block_buf[:len(want)] = want
        self._write(pick, len(want))
        return note

    def take_back(self, name, seq):
        """The table kept aside as `name` (read() just found it intact) made the saved one:
        written into the older copy with the next sequence number (self.seq then)."""
        data = self.aside_data
        i = data.find(b',"table":')
        self._put(0, self.seq + 1, data[i + 9:-1])
        k = self._older()
        self._write(k, self.size)
        self.seq += 1
        self.seqs[k] = self.seq
