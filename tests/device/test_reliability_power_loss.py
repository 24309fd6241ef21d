"""Reliability campaign 1: power loss during a save, and damaged state files.

Long random sessions run through the real App (commands and button presses through the
pins, the real Store on a fake flash). Before every event the whole device is copied; for
every flash operation of the event's save (open, each write, flush, close, rename) a copy
replays the event with the power cut at that operation, and every contents the cut may
leave in the file being written (TornFlash.outcomes) is powered up again -- also with a
second cut at every operation of that power-up's recovery. The restored table must be the
table before or after the interrupted event, nothing else; the sequence number must never
go backwards, and the next save must go forward. A second part lets the cuts happen along
one timeline that goes on after each restart. A third flips bits in and truncates real
saved files: every damage is detected (CRC) and gives a clean start with a message. A fourth
changes the configuration under a saved table: the table is kept aside and the other
configuration's comes back, and a cut at every flash operation of those power-ups (and of
the power-ups after them) loses neither table.
"""
import copy
import copyreg
import ctypes

from dealerbutton.rules import Table
from fake_flash import PowerCut
from reliability_campaign import Device, Rand, do, make_config, random_event
from torn_flash import TornFlash

# A device is forked with copy.deepcopy: a memoryview (the ring's and the strip's views of
# their own buffers, the table's views of its one bytearray of per-seat facts) is made again
# over the same bytes of the copy of the buffer it views.


def _view(obj, start, end, fmt):
    m = memoryview(obj)[start:end]
    return m if fmt == "B" else m.cast(fmt)


def _reduce_view(m):
    start = 0
    if m.nbytes:
        base = ctypes.addressof(ctypes.c_char.from_buffer(m.obj))
        start = ctypes.addressof(ctypes.c_char.from_buffer(m)) - base
    return _view, (m.obj, start, start + m.nbytes, m.format)


copyreg.pickle(memoryview, _reduce_view)

SIZES = {
    # sessions, events per session, every byte length of a torn write, saved files damaged,
    # power-ups cut again and again after a configuration change (depth)
    "quick": {"sessions": 6, "events": 60, "every_byte": False, "damaged": 6, "chain": 300,
              "depth": 1},
    "large": {"sessions": 12, "events": 120, "every_byte": True, "damaged": 60, "chain": 5000,
              "depth": 2},
}
RULES = ("dead", "moving", "simple")


def session_config(rand):
    return make_config(seats=rand.between(2, 12), rules=rand.pick(RULES))


def power_up(cfg, files, now, cut_at=None):
    """A device powered up on these flash contents (maybe with a cut during the power-up)."""
    return Device(cfg, TornFlash(files, cut_at), now=now)


class Counts:
    def __init__(self):
        self.events = 0             # events played
        self.saves = 0              # events that saved
        self.cut_points = 0         # flash operations cut during a save
        self.outcomes = 0           # flash contents powered up after those cuts
        self.recovery_cuts = 0      # second cuts during the power-up's recovery
        self.recovery_outcomes = 0  # flash contents powered up after a second cut
        self.restored_before = 0    # outcomes (first cuts) restored as before the event
        self.restored_after = 0     # ... as after it


def check_power_up(cfg, files, pre, post, pre_seq, now, counts, nested=True):
    """Power up on files left by a cut of the save of pre -> post (seq pre_seq + 1): the table
    is pre or post with the matching sequence number, the message is not an error, a save
    goes forward. With nested, also cut at every flash operation of this power-up."""
    dev = power_up(cfg, files, now)
    lines = dev.take()
    assert len(lines) == 1 and lines[0].startswith("* info "), lines
    boot_ops = len(dev.flash.trace)
    got = dev.table.to_dict()
    seq = dev.store.seq
    assert got == pre or got == post, (got, pre, post)
    if pre != post:
        assert seq == (pre_seq + 1 if got == post else pre_seq), (seq, pre_seq, lines)
    else:
        assert seq in (pre_seq, pre_seq + 1), (seq, pre_seq)
    assert sorted(dev.flash.files) == (["state.json"] if seq else []), sorted(dev.flash.files)
    # The next save goes forward and is what the next power-up finds.
    dev.app.save()
    assert dev.store.seq == seq + 1
    again = power_up(cfg, dev.flash.files, now)
    assert again.table.to_dict() == got and again.store.seq == seq + 1
    if not nested:
        return got
    # A second cut at every flash operation of the power-up (reads, finishing the rename,
    # removing a torn temporary file), then a power-up again.
    for j in range(1, boot_ops + 1):
        cut = TornFlash(files, cut_at=j)
        try:
            Device(cfg, cut, now=now)
            raise AssertionError("the power-up did not reach flash operation %d" % j)
        except PowerCut:
            pass
        counts.recovery_cuts += 1
        for left in cut.outcomes():
            counts.recovery_outcomes += 1
            second = check_power_up(cfg, left, pre, post, pre_seq, now, counts, nested=False)
            # Once a power-up could have shown the new state, none may go back to the old.
            if got == post and pre != post:
                assert second == post
    return got


def test_power_cut_at_every_flash_operation_of_every_save(campaign):
    size = SIZES[campaign]
    counts = Counts()
    for n in range(size["sessions"]):
        rand = Rand(1000 + n)
        cfg = session_config(rand)
        live = Device(cfg, TornFlash(), now=rand.bits(30), seed=n)
        live.take()
        for _ in range(size["events"]):
            ev = random_event(rand, live.table)
            snap = copy.deepcopy(live)          # the device just before the event
            pre = live.table.to_dict()
            pre_seq = live.store.seq
            pre_files = dict(live.flash.files)
            live.flash.trace = []
            do(live, ev)
            counts.events += 1
            post = live.table.to_dict()
            trace = [t for t in live.flash.trace]
            if post != pre:                     # every change is saved at once
                assert live.store.seq == pre_seq + 1, (ev, live.store.seq, pre_seq)
            if not trace:
                assert post == pre, ev
                continue
            counts.saves += 1
            kinds = [t[0] for t in trace]
            assert kinds == ["open", "write", "write", "write", "flush", "close", "rename"], kinds
            for k in range(1, len(trace) + 1):
                fork = copy.deepcopy(snap)
                fork.flash = TornFlash(pre_files, cut_at=k)
                fork.store.fs = fork.flash
                lines = do(fork, ev)
                assert fork.flash.dead, (ev, k)
                # The device itself keeps going: the event is done, the failure reported.
                assert fork.table.to_dict() == post, (ev, k)
                assert [x for x in lines if x.startswith("* error save failed: ")], lines
                counts.cut_points += 1
                # Second cuts during the power-up after the edge cases of a torn file; the
                # other prefix lengths (every_byte) take the same recovery path.
                edges = fork.flash.outcomes()
                more = []
                if size["every_byte"]:
                    more = [f for f in fork.flash.outcomes(True) if f not in edges]
                for i, files in enumerate(edges + more):
                    counts.outcomes += 1
                    got = check_power_up(cfg, files, pre, post, pre_seq, fork.now, counts,
                                         nested=i < len(edges))
                    if got == post and pre != post:
                        counts.restored_after += 1
                    else:
                        counts.restored_before += 1
        # Nothing lost: the live session's last state is what a power-up finds.
        end = power_up(cfg, live.flash.files, live.now)
        assert end.table.to_dict() == live.table.to_dict()
        assert end.store.seq == live.store.seq
    print("\npower loss: %d sessions, %d events replayed, %d saves, %d cut points, "
          "%d flash contents powered up (%d as before the event, %d as after), "
          "%d second cuts during those power-ups and %d power-ups after them; "
          "nothing else restored, sequence never back"
          % (size["sessions"], counts.events, counts.saves, counts.cut_points, counts.outcomes,
             counts.restored_before, counts.restored_after, counts.recovery_cuts,
             counts.recovery_outcomes))
    assert counts.saves > size["sessions"] * size["events"] // 4
    assert counts.restored_before and counts.restored_after


def test_power_cuts_along_one_timeline(campaign):
    """One long game where the power goes now and then in the middle of a save; after each
    restart the game goes on from what the flash kept."""
    total = SIZES[campaign]["chain"]
    rand = Rand(77)
    cfg = make_config(seats=9, rules="dead")
    dev = Device(cfg, TornFlash(), now=(1 << 30) - 200000)   # the clock wraps on the way
    dev.take()
    cuts = 0
    restored_after = 0
    last_seq = 0
    events = 0
    for _ in range(total):
        ev = random_event(rand, dev.table)
        pre = dev.table.to_dict()
        pre_seq = dev.store.seq
        if rand.chance(15):
            dev.flash.cut_at = dev.flash.ops + rand.between(1, 7)
        do(dev, ev)
        events += 1
        post = dev.table.to_dict()
        if dev.flash.dead:
            cuts += 1
            files = rand.pick(dev.flash.outcomes())
            dev = Device(cfg, TornFlash(files), now=dev.now + rand.between(100, 100000))
            lines = dev.take()
            assert len(lines) == 1 and lines[0].startswith("* info "), lines
            got = dev.table.to_dict()
            assert got == pre or got == post, (ev, got)
            if got == post and pre != post:
                restored_after += 1
            assert dev.store.seq in (pre_seq, pre_seq + 1)
        else:
            dev.flash.cut_at = None
        assert dev.store.seq >= last_seq, (dev.store.seq, last_seq)
        last_seq = dev.store.seq
    end = Device(cfg, dev.flash.reboot(), now=dev.now)
    assert end.table.to_dict() == dev.table.to_dict() and end.store.seq == dev.store.seq
    print("\npower loss along one timeline: %d events, %d power cuts in a save "
          "(%d restarts found the new state), %d saves in all, the game went on each time"
          % (events, cuts, restored_after, dev.store.seq))
    assert cuts > total // 20


SCHEDULE = {"ante_kind": "bb", "levels": [{"sb": 25, "bb": 50, "minutes": 20},
                                         {"sb": 50, "bb": 100, "ante": 100, "minutes": 20}]}


def other_config(rand, cfg):
    """A configuration that the tables of cfg do not fit: other seats, rules, stakes, or a
    tournament instead of a cash game (or the other way round)."""
    d = {"seats": cfg["seats"], "rules": cfg["rules"], "stakes": list(cfg["stakes"])}
    if "tournament" in cfg:
        d["tournament"] = cfg["tournament"]
    what = rand.pick(("seats", "rules", "stakes", "tournament"))
    if what == "seats":
        d["seats"] = rand.pick([n for n in range(2, 13) if n != cfg["seats"]])
    elif what == "rules":
        d["rules"] = rand.pick([r for r in RULES if r != cfg["rules"]])
    elif what == "stakes" and "tournament" not in d:
        d["stakes"] = [cfg["stakes"][0] * 5, cfg["stakes"][1] * 5]
    elif "tournament" in d:
        del d["tournament"]
    else:
        d["tournament"] = SCHEDULE
    return make_config(**d)


class Kept:
    """The tables a configuration change must never lose: per configuration, the table
    (and sequence number) a power-up under it must give."""

    def __init__(self):
        self.want = []              # (cfg, table dict, seq)
        self.power_ups = 0
        self.cuts = 0

    def check(self, files, now, depth):
        """Power up on files under every configuration: each gives its own table; then the
        others still give theirs. With depth, also cut the power at every flash operation
        of each power-up and check again from what the flash kept."""
        for cfg, table, seq in self.want:
            dev = power_up(cfg, files, now)
            self.power_ups += 1
            assert dev.table.to_dict() == table and dev.store.seq == seq, (
                dev.take(), sorted(files))
            for cfg2, table2, seq2 in self.want:
                again = power_up(cfg2, dev.flash.files, now)
                self.power_ups += 1
                assert again.table.to_dict() == table2 and again.store.seq == seq2, (
                    again.take(), sorted(dev.flash.files))
            if not depth:
                continue
            for j in range(1, len(dev.flash.trace) + 1):
                cut = TornFlash(files, cut_at=j)
                try:
                    Device(cfg, cut, now=now)   # a failed save is reported, not raised
                except PowerCut:
                    pass
                assert cut.dead, "the power-up did not reach flash operation %d" % j
                self.cuts += 1
                for left in cut.outcomes():
                    self.check(left, now, depth - 1)


def test_power_cut_at_every_flash_operation_of_a_configuration_change(campaign):
    """A table saved under one configuration, powered up under another: it is kept aside and
    the other configuration's table (kept aside earlier, or a new one) comes back; going
    back restores the first. A cut at any flash operation of those power-ups (and again
    during the power-up after it) loses neither table."""
    size = SIZES[campaign]
    kept = Kept()
    moves = 0
    for n in range(size["sessions"]):
        rand = Rand(3000 + n)
        cfg_a = session_config(rand)
        if rand.chance(25):
            cfg_a = make_config(seats=cfg_a["seats"], rules=cfg_a["rules"], tournament=SCHEDULE)
        cfg_b = other_config(rand, cfg_a)
        flash = TornFlash()
        now = rand.bits(30)
        played_b = rand.chance(50)       # B's table exists (kept aside when A came), or not
        order = (cfg_b, cfg_a) if played_b else (cfg_a,)
        for cfg in order:
            dev = Device(cfg, flash.reboot(), now=now, seed=n)
            for _ in range(rand.between(3, size["events"] // 2)):
                do(dev, random_event(rand, dev.table))
            flash, now = dev.flash, dev.now
            if cfg is cfg_b:
                b = (dev.table.to_dict(), dev.store.seq)
        a = (dev.table.to_dict(), dev.store.seq)
        if not played_b:                 # a new table (a tournament's is saved at once)
            fresh = power_up(cfg_b, {}, now)
            b = (fresh.table.to_dict(), fresh.store.seq)
        kept.want = [(cfg_a, a[0], a[1]), (cfg_b, b[0], b[1])]
        kept.check(dict(flash.files), now, size["depth"])
        moves += 1
        # Play on under B, then back to A, and check again from there.
        dev = Device(cfg_b, flash.reboot(), now=now, seed=n)
        lines = dev.take()
        assert "kept as state-" in lines[0], lines
        for _ in range(rand.between(3, size["events"] // 2)):
            do(dev, random_event(rand, dev.table))
        kept.want = [(cfg_a, a[0], a[1]), (cfg_b, dev.table.to_dict(), dev.store.seq)]
        kept.check(dict(dev.flash.files), dev.now, size["depth"])
        moves += 1
    print("\nconfiguration changes: %d sessions, %d moves of a table aside and back, %d "
          "power-ups under one configuration or the other, %d power cuts during them; "
          "every table came back whole under its own configuration"
          % (size["sessions"], moves, kept.power_ups, kept.cuts))
    assert kept.cuts > size["sessions"] * 4


def damaged_copies(data, rand, count):
    """Every truncation, every single-bit flip, and `count` random multi-byte damages."""
    for n in range(len(data)):
        yield "truncated", data[:n]
    for i in range(len(data)):
        for bit in range(8):
            b = bytearray(data)
            b[i] ^= 1 << bit
            yield "bit flip", bytes(b)
    for _ in range(count):
        b = bytearray(data)
        places = []
        flips = rand.between(2, 8)
        while len(places) < flips:
            i = rand.below(len(b))
            if i not in places:
                places.append(i)
                b[i] ^= 1 << rand.below(8)
        yield "bits flipped", bytes(b)
        b = bytearray(data)
        i = rand.below(len(b))
        b[i:i + rand.between(1, 16)] = bytes([0xFF] * rand.between(1, 16))
        yield "erased bytes", bytes(b)


def test_damaged_state_files_give_a_clean_start_with_a_message(campaign):
    size = SIZES[campaign]
    rand = Rand(5)
    files_tried = 0
    damages = {}
    for n in range(size["damaged"]):
        cfg = session_config(rand)
        dev = Device(cfg, TornFlash(), now=1000, seed=n)
        for _ in range(rand.between(5, 80)):
            do(dev, random_event(rand, dev.table))
        if "state.json" not in dev.flash.files:
            continue
        data = dev.flash.files["state.json"]
        files_tried += 1
        fresh = Table(cfg["seats"], cfg["rules"], tuple(cfg["stakes"])).to_dict()
        for kind, bad in damaged_copies(data, rand, 200):
            assert bad != data
            damages[kind] = damages.get(kind, 0) + 1
            d2 = power_up(cfg, {"state.json": bad}, 5000)
            lines = d2.take()
            assert len(lines) == 1, lines
            assert lines[0].startswith("* error saved state unusable (state.json "), (kind, lines)
            assert lines[0].endswith("): clean start"), lines
            assert d2.table.to_dict() == fresh and d2.store.seq == 0
            # and the device plays on: the first event is save 1
            assert d2.feed(b"sit 1\n")[-1] == "ok"
            assert d2.store.seq == 1
    total = sum(damages.values())
    print("\ndamaged state files: %d saved files, %d damaged copies (%s), every one "
          "detected and a clean start with a message"
          % (files_tried, total, ", ".join("%d %s" % (damages[k], k) for k in sorted(damages))))
    assert files_tried >= size["damaged"] // 2


class Hang(BaseException):
    """An event ran for seconds (BaseException: the protocol's handler must not catch it)."""


def _alarm(signum, frame):
    raise Hang()


def mutate_table(rand, d, seats):
    """A copy of to_dict() data with 1..3 numbers changed in the seats' flags, the last
    hand's positions, seat lists or posts, or the hand count: what a firmware bug or a
    hand-edited file could leave behind a valid CRC."""
    d = copy.deepcopy(d)
    for _ in range(rand.between(1, 3)):
        key = rand.pick(("players", "players", "posts", "posts", "hands", "button",
                         "small_blind", "small_blind_player", "big_blind", "travel",
                         "dealt", "left", "passed"))
        v = d[key]
        if isinstance(v, list) and v and rand.chance(80):
            v[rand.below(len(v))] = rand.pick((0, 1, 2, 3, 4, 8, 11, seats, seats + 1,
                                               rand.below(256), rand.below(1 << 13)))
        elif isinstance(v, list):
            v.append(rand.pick((0, 1, seats, seats + 1, rand.below(256))))
        else:
            d[key] = rand.pick((0, 1, seats, seats + 1, rand.between(2, 1000)))
    return d


def test_saved_tables_with_a_valid_crc_but_inconsistent_content(campaign):
    """The CRC cannot catch a table that was wrong when it was written. Power-up must refuse
    it with a message or take it as written, and the game must go on: no event may raise,
    hang (2 s) or fail to save."""
    import signal
    size = {"quick": (20, 60), "large": (100, 300)}[campaign]
    rand = Rand(11)
    tried = refused = accepted = events = 0
    problems = []
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for n in range(size[0]):
            cfg = session_config(rand)
            dev = Device(cfg, TornFlash(), seed=n)
            for _ in range(rand.between(5, 60)):
                do(dev, random_event(rand, dev.table, pins=False))
            base = dev.table.to_dict()
            for _ in range(size[1]):
                d = mutate_table(rand, base, cfg["seats"])
                head, payload = dev.store.encode(d, 7)
                tried += 1
                boot = Device(cfg, TornFlash({"state.json": head + payload + b"}"}), seed=1)
                line = boot.take()[0]
                if line.startswith("* error saved table (save 7) "):
                    refused += 1
                    continue
                assert line == "* info state restored (save 7)", line
                accepted += 1
                if boot.table.to_dict() != d:
                    problems.append(("restored otherwise than saved", d))
                    continue
                for _ in range(10):
                    ev = random_event(rand, boot.table, pins=False)
                    signal.alarm(2)
                    try:
                        lines = do(boot, ev)
                    except Hang:
                        problems.append(("%s hangs" % ev[1], d))
                        break
                    except Exception as exc:  # noqa: BLE001
                        problems.append(("%s raises %r" % (ev[1], exc), d))
                        break
                    finally:
                        signal.alarm(0)
                    events += 1
                    bad = [x for x in lines if x.startswith(("err internal", "* error"))]
                    if bad:
                        problems.append(("%s: %s" % (ev[1], bad[0]), d))
                        break
    finally:
        signal.signal(signal.SIGALRM, old)
    print("\nCRC-valid but inconsistent tables: %d tried, %d refused at power-up, %d taken "
          "(%d events played on them), %d problems"
          % (tried, refused, accepted, events, len(problems)))
    for p in problems[:5]:
        print("  ", p[0], p[1])
    assert not problems, problems[:5]
