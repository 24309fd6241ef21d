"""The tournament clock (RULES.md T6): a schedule of levels and breaks, run against now_ms.

Pure: time comes in as now_ms (wrap-safe ticks maths), nothing is printed; every change
returns the event lines to send. Integer maths only; tick() allocates nothing unless a
level or a break starts, so the ring can call it every frame.

    clock = Clock(tournament)            # config.json's "tournament" block, validated
    clock.resume(now)                    # -> ["* clock running"]
    clock.tick(now)                      # -> () or ["* level 2 50/100 ante 0"]
    clock.sb, clock.bb, clock.ante, clock.ante_kind   # the level in force for the next deal
    clock.on_break, clock.ms_left(now), clock.deal_refusal(now), clock.last_minute(now)

The `clock pause|resume|next|prev|set M:SS` commands are pause(), resume(), next(), prev()
and set("M:SS"); a refusal is a ValueError whose message says why.

Events: `* level N SB/BB ante A` when a level starts, `* break M:SS` when a break starts
(its length), `* clock paused` / `* clock running`. A clock restored after a power cut is
paused at the time last saved and says so: `* clock paused (restored: level 3, 12:34 left)`.
The levels are numbered without the breaks; during a break the level in force is the one
played before it (no hand is dealt during a break anyway).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from dealerbutton.ticks import ticks_add, ticks_diff
from dealerbutton.values import show

SAVE_EVERY_MS = const(30000)  # a running clock is saved at least this often
MINUTE_MS = const(60000)
MAX_MINUTES = const(600)      # a level, a break, or the time set: at most 10 hours
NOTHING = ()  # what tick() returns when nothing starts: shared, allocates nothing


def mss(ms):
    """ms as M:SS, rounded up to the second (a clock showing 0:00 has run out)."""
    s = (ms + 999) // 1000
    return "%d:%02d" % (s // 60, s % 60)


class Clock:
    """The schedule's position and time. `entry` indexes the schedule (levels and breaks);
    `level`, `sb`, `bb`, `ante` are the level in force; `length_ms` is the current entry's
    length (the time set may exceed it)."""

    def __init__(self, tournament, now_ms=0):
        self.ante_kind = tournament.get("ante_kind", "each")
        # The schedule as store/config.py checked it: a level {"sb", "bb", "ante", "minutes"},
        # a break {"break": minutes}. Not copied: the config keeps it anyway.
        self.schedule = tournament["levels"]
        n = len(self.schedule)
        # Per entry (at most 100, store/config.py): the number and the index of the level in force.
        self.numbers = bytearray(n)
        self.in_force = bytearray(n)
        level = 0
        last = 0
        for i in range(n):
            if "break" not in self.schedule[i]:
                level += 1
                last = i
            self.numbers[i] = level
            self.in_force[i] = last
        self.running = False
        self.restored = False
        self.dirty = False      # an event since the last save
        self.saved_at = now_ms
        self.go(0, now_ms)

    # -- where the clock is ----------------------------------------------------------------
    def go(self, i, start_ms, left_ms=-1):
        """Entry i starts at start_ms with left_ms (its whole length by default)."""
        e = self.schedule[i]
        self.entry = i
        self.on_break = "break" in e
        self.length_ms = (e["break"] if self.on_break else e["minutes"]) * MINUTE_MS
        self.left = self.length_ms if left_ms < 0 else left_ms
        self.end = ticks_add(start_ms, self.left)
        self.final = False  # the last level has run out (it stays in force)
        f = self.schedule[self.in_force[i]]
        self.sb = f["sb"]
        self.bb = f["bb"]
        self.ante = f.get("ante", 0)
        self.level = self.numbers[i]

    def ms_left(self, now_ms):
        if not self.running or self.final:
            return self.left
        d = ticks_diff(self.end, now_ms)
        return d if d > 0 else 0

    def last_minute(self, now_ms):
        """A level change (or the end of a break) comes within the minute."""
        return not self.final and self.entry + 1 < len(self.schedule) \
            and self.ms_left(now_ms) <= MINUTE_MS

    def parts_left(self, now_ms, n):
        """How many of n equal parts of the current entry are left (rounded up, at most n;
        n <= 256): for the ring to show a break running out, without big numbers."""
        step = self.length_ms // n
        left = (self.ms_left(now_ms) + step - 1) // step
        return left if left < n else n

    def deal_refusal(self, now_ms):
        """Why no hand may be dealt now (during a break), or None."""
        if self.on_break:
            return "no hand during the break: %s left" % mss(self.ms_left(now_ms))
        return None

    def entry_line(self):
        """The event that says the current entry has started."""
        if self.on_break:
            return "* break " + mss(self.length_ms)
        return "* level %d %d/%d ante %d" % (self.level, self.sb, self.bb, self.ante)

    # -- time passing ----------------------------------------------------------------------
    def tick(self, now_ms):
        """The lines of the levels and breaks that started by now_ms; () when none did.
        A late tick loses no time: the next entry starts when the last one ended."""
        if not self.running or self.final or ticks_diff(now_ms, self.end) < 0:
            return NOTHING
        lines = []
        while ticks_diff(now_ms, self.end) >= 0:
            if self.entry + 1 >= len(self.schedule):
                self.final = True
                self.left = 0
                break
            self.go(self.entry + 1, self.end)
            lines.append(self.entry_line())
        self.dirty = True
        return lines or NOTHING

    # -- the director's controls -----------------------------------------------------------
    def pause(self, now_ms):
        if not self.running:
            return NOTHING
        self.left = self.ms_left(now_ms)
        self.running = False
        self.dirty = True
        return ["* clock paused"]

    def resume(self, now_ms):
        self.restored = False
        if self.running:
            return NOTHING
        self.running = True
        self.end = ticks_add(now_ms, self.left)
        self.dirty = True
        return ["* clock running"]

    def next(self, now_ms):
        return self.move(1, now_ms)

    def prev(self, now_ms):
        return self.move(-1, now_ms)

    def move(self, step, now_ms):
        """The next (step 1) or previous (-1) entry starts now with its whole time."""
        i = self.entry + step
        if not 0 <= i < len(self.schedule):
            raise ValueError("no %s level" % ("next" if step > 0 else "previous"))
        self.go(i, now_ms)
        self.dirty = True
        return [self.entry_line()]

    def set(self, word, now_ms):
        """The current entry has "M:SS" left from now (0:00 to 600:00)."""
        i = word.find(":")
        m, s = word[:i], word[i + 1:]
        if (i < 1 or len(m) > 3 or len(s) != 2 or not m.isdigit() or not s.isdigit()
                or int(s) > 59 or int(m) * 60 + int(s) > MAX_MINUTES * 60):
            raise ValueError("the time left is M:SS, 0:00 to %d:00 (e.g. 12:30), not %s"
                             % (MAX_MINUTES, word[:20]))
        self.left = (int(m) * 60 + int(s)) * 1000
        self.end = ticks_add(now_ms, self.left)
        self.final = False
        self.dirty = True
        return NOTHING

    # -- JSON and saving ---------------------------------------------------------------------
    def json(self, now_ms):
        """{"level","sb","bb","ante","ante_kind","break","ms_left","running","next"}: next is
        the next level {"level","sb","bb","ante","minutes"}, a break {"break": minutes}, or
        null at the last level."""
        nxt = "null"
        if self.entry + 1 < len(self.schedule):
            e = self.schedule[self.entry + 1]
            if "break" in e:
                nxt = '{"break":%d}' % e["break"]
            else:
                nxt = '{"level":%d,"sb":%d,"bb":%d,"ante":%d,"minutes":%d}' % (
                    self.numbers[self.entry + 1], e["sb"], e["bb"], e.get("ante", 0),
                    e["minutes"])
        return ('{"level":%d,"sb":%d,"bb":%d,"ante":%d,"ante_kind":"%s","break":%s,'
                '"ms_left":%d,"running":%s,"next":%s}') % (
            self.level, self.sb, self.bb, self.ante, self.ante_kind,
            "true" if self.on_break else "false", self.ms_left(now_ms),
            "true" if self.running else "false", nxt)

    def should_save(self, now_ms):
        """True after every event, and every SAVE_EVERY_MS while the time runs."""
        if self.dirty:
            return True
        return self.running and not self.final \
            and ticks_diff(now_ms, self.saved_at) >= SAVE_EVERY_MS

    def saved(self, now_ms):
        self.dirty = False
        self.saved_at = now_ms

    def to_dict(self, now_ms):
        """Plain data to save with the table: where the clock is, and the time left."""
        return {"entry": self.entry, "ms_left": self.ms_left(now_ms)}

    @classmethod
    def from_dict(cls, tournament, d, now_ms=0):
        """A clock back from to_dict(): paused at the time saved, `restored` until resumed.
        ValueError (with what is wrong) for data that does not fit the schedule."""
        c = cls(tournament, now_ms)
        if not isinstance(d, dict):
            raise ValueError("saved clock: must be an object, not %s" % show(d))
        i = d.get("entry")
        ms = d.get("ms_left")
        if not (type(i) is int and type(ms) is int and 0 <= i < len(c.schedule)
                and 0 <= ms <= MAX_MINUTES * MINUTE_MS):
            raise ValueError("saved clock: entry %s with ms_left %s does not fit the schedule "
                             "(entries 0..%d)" % (show(i), show(ms), len(c.schedule) - 1))
        c.go(i, now_ms, ms)
        c.restored = True
        return c

    def boot_lines(self):
        """What to say at power-up: a restored clock says it is paused and where."""
        if self.restored:
            what = "break" if self.on_break else "level %d" % self.level
            return ["* clock paused (restored: %s, %s left)" % (what, mss(self.left))]
        return [self.entry_line(), "* clock paused"]
