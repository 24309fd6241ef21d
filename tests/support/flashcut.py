"""What the flash region of an emulated board holds after each flash operation of a save:
the power cut right after that operation, worked out on this computer from the region
before the save, the region after it and the board's log of the save's operations (the
kit's `flashops`: kind, flash offset, length), instead of booting a board for every cut.

NOR flash: an erase sets its range to 0xff; a program leaves (old AND data), which is what
the region after the save holds at that range unless a later operation of the same save
touched it again. The kit's own cuts (measure/flashops.mjs, `armcut`) stop the board inside
those same two ROM routines, so both give the same flash."""

# Where the kit puts the saved region in the flash (rp2sim lib/pico.mjs: FS_OFFSET for
# MicroPython's littlefs, CP_FS_OFFSET for the CIRCUITPY drive).
REGION_OFFSET = {"micropython": 0xA0000, "circuitpython": 0x100000}


def spans(log, runtime):
    """[(kind, start, end)] of each logged operation, as offsets in the saved region."""
    base = REGION_OFFSET[runtime]
    out = []
    for op in log:
        if op["kind"] not in ("erase", "program"):
            raise ValueError("not a flash operation: %r" % (op,))
        start = int(op["addr"], 16) - base
        out.append((op["kind"], start, start + op["len"]))
    return out


def after_each(before, after, log, runtime):
    """[the region after operation 1, 2, ... n of log] (bytes), where before and after are
    the region before and after the whole save. None from the first program whose range a
    later operation of the save touches again: the region after the save no longer holds
    what it wrote (a board cut there is the only way to know)."""
    if len(before) != len(after):
        raise ValueError("regions of %d and %d bytes" % (len(before), len(after)))
    ops = spans(log, runtime)
    flash = bytearray(before)
    out = []
    known = True
    for i, (kind, start, end) in enumerate(ops):
        if not 0 <= start < end <= len(flash):
            raise ValueError("operation %d (%s at %d..%d) is outside the region"
                             % (i + 1, kind, start, end))
        if kind == "erase":
            flash[start:end] = b"\xff" * (end - start)
        else:
            if any(s < end and start < e for _, s, e in ops[i + 1:]):
                known = False
            flash[start:end] = after[start:end]
        out.append(bytes(flash) if known else None)
    return out


def erase_torn(region, op, keep, runtime):
    """The region with only the first keep bytes of the logged erase op done: the power cut
    in the middle of it (measure/flashops.mjs tears an erase the same way, `armcut` with
    `keep`)."""
    (kind, start, end), = spans([op], runtime)
    if kind != "erase" or not 0 <= keep <= end - start:
        raise ValueError("not an erase of at least %d bytes: %r" % (keep, op))
    flash = bytearray(region)
    flash[start:start + keep] = b"\xff" * keep
    return bytes(flash)
