"""The tournament clock at the table: the table plays the clock's level, the clock's events go
out and are saved, the `clock` command, and what the ring shows of the clock.

schedule.py keeps the time; this is the App's side of it (a cash game has none)."""

from dealerbutton import ring as ringmod
from dealerbutton.ticks import ticks_diff

NEW_LEVEL_MS = 10000   # the ring shows a level that has just started this long
CLOCK_USAGE = "clock [pause|resume|next|prev|set M:SS]"


class TableClock:
    """The App's tournament clock (schedule.Clock) tied to its table, ring and saves."""

    def __init__(self, app, clock):
        self.app = app
        self.clock = clock
        self.new_level = False   # a level started less than NEW_LEVEL_MS ago, at level_at
        self.level_at = 0

    def sync_level(self):
        """The table plays the clock's level (from its next deal): an event when it was
        another one. True if the table's level changed."""
        c = self.clock
        app = self.app
        if not app.table.set_level(c.sb, c.bb, c.ante, c.ante_kind):
            return False
        app.history.remember("level", c.level, None)
        return True

    def deal_refusal(self):
        """Why the clock refuses a deal now (a break), or None."""
        return self.clock.deal_refusal(self.app.now)

    def tick(self, now_ms):
        """A loop turn: the clock's events when it moves on, a save now and then while it
        runs, and the ring's clock signal (no allocation)."""
        c = self.clock
        lines = c.tick(now_ms)
        if lines:
            self.send(lines)
        elif c.should_save(now_ms):
            self.app.save_due = True
        self.show(now_ms)

    def show(self, now_ms):
        """What the ring shows of the clock (the ring's CLOCK_*)."""
        c = self.clock
        r = self.app.ring
        if self.new_level and ticks_diff(now_ms, self.level_at) >= NEW_LEVEL_MS:
            self.new_level = False
        if c.on_break:
            r.clock = ringmod.CLOCK_BREAK
            r.clock_parts = c.parts_left(now_ms, r.leds)
        elif self.new_level:
            r.clock = ringmod.CLOCK_NEW
        elif c.running and c.last_minute(now_ms):
            r.clock = ringmod.CLOCK_COMING
        else:
            r.clock = ringmod.CLOCK_NONE

    def send(self, lines):
        """Send the clock's events; the table follows its level; saved between frames."""
        app = self.app
        for line in lines:
            app.write(line)
            if line.startswith("* level"):
                self.new_level = True
                self.level_at = app.now
        self.sync_level()
        app.save_due = True
        app.render_due = True

    def command(self, args):
        """`clock` (its JSON) and `clock pause|resume|next|prev|set M:SS`: the reply."""
        c = self.clock
        now = self.app.now
        if not args:
            return "ok " + c.json(now)
        word = args[0].lower()
        try:
            if word == "set" and len(args) == 2:
                lines = c.set(args[1], now)
            elif len(args) != 1 or word not in ("pause", "resume", "next", "prev"):
                return "err usage " + CLOCK_USAGE
            else:
                lines = getattr(c, word)(now)
        except ValueError as exc:
            return "err clock %s" % exc
        self.send(lines)
        self.app.save()
        return "ok"

    def toggle(self):
        """The next-hand button held 5 s: the clock pauses, or starts."""
        c = self.clock
        now = self.app.now
        self.send(c.pause(now) if c.running else c.resume(now))
