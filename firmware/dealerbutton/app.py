"""The device application: table, ring, buttons, saved state and serial protocol tied together.

Hardware comes in as small objects (pins with value(), a strip with show(buf)), time as
now_ms, host bytes through feed(), replies and events out through write(line); board.py
and unix.py supply the real or emulated pieces.

Press mapping (seat buttons 1..N, next-hand button 0):
    seat, short   empty: sit (waits for the BB) | waiting, will wait: post instead |
                  waiting, will post: wait for the BB instead | active: away |
                  away: back (posts what he owes as soon as allowed; press again: wait)
    seat, long    leave (bust out); refused on an empty seat
    next, short   deal the next hand; before the first hand: choose the button (DRAW)
    next, long    undo the last event
A long press (held 1 s) flashes once to say "let go", and acts when let go (buttons.py
gives LONG at the release); a button held 30 s is stuck: reported, ignored until
released, and never acts.
    in DRAW mode  seat short: the button goes there and the first hand is dealt;
                  next short: the button is drawn at random among the seated players
                  present and the hand dealt; next long: cancel
At a tournament table (config.json's "tournament" block) the next-hand button held 5 s
pauses or starts the clock: a second flash at 5 s says "let go now" (a shorter hold is
still undo; in a cash game any hold is undo). During a break no hand is dealt.

The tournament clock (clock.py) runs on now_ms: its events go out as it ticks, the table
plays its level (set_level, from the next deal), and it is saved with the table at every
clock event and at least every 30 s while it runs; after a power cut it is back paused.
"""

from dealerbutton import VERSION, config, protocol, startup
from dealerbutton import ring as ringmod
from dealerbutton.buttons import LONG, RELEASED, SHORT, STUCK
from dealerbutton.history import History
from dealerbutton.panel import Panel
from dealerbutton.rules import Table
from dealerbutton.stats import Stats
from dealerbutton.ticks import ticks_add, ticks_diff

_HEX = b"0123456789ABCDEF"
CLOCK_HOLD_MS = 5000   # the next-hand button held this long: pause or start the clock
# A press in the loop (press()'s defer_save): its events written and the table saved after
# the frame that shows it. Its flash covers the pressed seat's LEDs, so a seat event's mark
# waits for that frame too; HIDDEN: a press of the next-hand button, whose flash covers the
# whole ring, so that a deal and the marks wait for that frame (see tick()).
AFTER_FRAME = 1
HIDDEN = 2
SEAT_EVENTS = ("sit", "away", "back", "choose", "leave")  # each changes its seat's mark only
NEW_LEVEL_MS = 10000   # the ring shows a level that has just started this long


def _default_rng(n):
    import random
    return random.getrandbits(16) % n


def make_ring(cfg):
    return ringmod.Ring(cfg["leds"], cfg["seats"], offset=cfg["offset"],
                        reverse=cfg["direction"] == "ccw", brightness=cfg["brightness"],
                        budget_ma=cfg["budget_ma"], palette=cfg["palette"] or None)


class Later:
    """What a press in the loop leaves for after the frame that shows it (App.show_press):
    the deal, the ring's marks, the events. Its own small object: the App's attribute table
    stays small (on MicroPython every lookup of a method in an instance first probes the
    instance's table, the longer the fuller it is)."""

    def __init__(self):
        self.report = False     # the events of the change (`* seat`, and these two:)
        self.hand = False       # ... `* hand`, after them
        self.undo = False       # ... `* undo <what>`, before them
        self.deal = False       # the deal itself
        self.button = None      # ... its button seat (a `deal N`), or None
        self.marks = False      # the ring's marks, hidden until then by the flash of
        self.flash = 0          # ... a seat, or 0: the next-hand button's (the whole ring)


class App:
    frame_ms = 25          # render at 40 frames a second (and at once after a press)
    clock = None           # the tournament clock (restore() makes it); None: a cash game
    repl_requested = False  # the host sent `repl`: the loop ends and the REPL gets the line

    def __init__(self, cfg, strip, pins, write, store=None, rng=None, now_ms=0, bank=None):
        """cfg: a validated config; pins[0] the next-hand button, pins[s] seat s (value() == 0
        while pressed); write(line) sends one line; store: a store.Store or None; rng(n) ->
        0..n-1 for the draw for the button; bank: what reads the pins at rest all at once
        (pressed() -> a bit per pin; default: Pins, one pin after the other)."""
        self.cfg = cfg
        self.version = VERSION
        self.strip = strip
        self.write = write
        self.store = store
        self.rng = rng or _default_rng
        self.now = now_ms
        self.stats = Stats()
        seats = cfg["seats"]
        if len(pins) < seats + 1:
            raise ValueError("pins: %d given for %d seats and the next-hand button"
                             % (len(pins), seats))
        self.ring = make_ring(cfg)
        self.history = History()   # what each undoable event was (`* undo sit 3`)
        self.long_at = 0          # when the next-hand button's hold became a long press
        self.clock_armed = False  # ... and reached CLOCK_HOLD_MS: its release is the clock
        self.tournament = cfg.get("tournament")
        self.panel = Panel(pins if len(pins) == seats + 1 else pins[:seats + 1], self, now_ms,
                           bank)
        self.table = self.restore()
        self.statuses = [None] + [self.table.status(s) for s in range(1, seats + 1)]
        self.protocol = protocol.Protocol(self.command, write)
        self.save_due = False
        # What the loop writes exists from the start (their meaning is with their defaults
        # under "the loop"), so that no tick grows the App's attribute table: 0 bytes a tick.
        self.next_frame = 0
        self.later = Later()
        if self.clock is not None:
            for line in self.clock.boot_lines():
                write(line)
            if self.sync_level():
                self.save()
        self.update_marks()
        self.frame(now_ms)

    # -- state ---------------------------------------------------------------------
    def restore(self):
        """The saved table if there is a usable one that fits config.json (reported as
        `* info`), else a new one (a problem reported as `* error`); a table saved under
        another configuration is kept aside, and the one kept for this configuration comes
        back (startup.restore)."""
        if self.store is None:
            self.clock = self.new_clock(None)
            return self.new_table()
        table, saved_clock = startup.restore(self)
        self.clock = self.new_clock(saved_clock if table is not None else None)
        return table if table is not None else self.new_table()

    def new_clock(self, saved):
        """The tournament's clock: the saved one (paused), else a new one at level 1; None
        in a cash game."""
        if self.tournament is None:
            return None
        from dealerbutton import clock as clockmod  # (a cash game never loads it)
        if saved is not None:
            try:
                return clockmod.Clock.from_dict(self.tournament, saved, self.now)
            except ValueError as exc:
                self.write("* error %s: the clock starts again at level 1" % exc)
        return clockmod.Clock(self.tournament, self.now)

    def new_table(self):
        c = self.cfg
        if self.clock is not None:   # a tournament: the stakes are the clock's level
            return Table(seats=c["seats"], rules=c["rules"],
                         stakes=(self.clock.sb, self.clock.bb), tournament=True)
        return Table(seats=c["seats"], rules=c["rules"], stakes=(c["stakes"][0], c["stakes"][1]))

    def save(self):
        self.save_due = False
        self.stats.dirty = True   # (what allocates: the collector runs after the next frame)
        c = self.clock
        if c is not None:
            c.saved(self.now)
        if self.store is None:
            return
        try:
            self.store.save(self.table.to_dict(), c.to_dict(self.now) if c is not None else None)
            self.stats.saves += 1
        except Exception as exc:  # noqa: BLE001 - a full or failing flash must not stop play
            self.write("* error save failed: %s" % exc)

    # -- host input ------------------------------------------------------------------
    def feed(self, data):
        """Bytes from the host: every complete line is answered."""
        self.stats.dirty = True
        self.protocol.feed(data)

    def command(self, line):
        return protocol.command(self, line)

    def leds(self):
        """The frame on the ring, "RRGGBB" per LED, space separated: written straight into
        one buffer (the monitor asks ten times a second)."""
        if self.render_due:
            self.frame(self.now)    # the frame of the last event goes out first
        b = self.ring.buf
        out = bytearray(len(b) // 3 * 7 - 1)
        j = 0
        for i in range(len(b)):
            if i and i % 3 == 0:
                out[j] = 32
                j += 1
            out[j] = _HEX[b[i] >> 4]
            out[j + 1] = _HEX[b[i] & 15]
            j += 2
        return str(out, "ascii")

    def hand_over(self):
        """The `repl` command: the board's loop ends after this reply and leaves the serial
        line to the REPL (Ctrl-C on again, watchdog off)."""
        self.repl_requested = True
        self.protocol.paused = True
        return "ok repl"

    def config_json(self):
        """The `config` command."""
        return config.to_json(self.cfg)

    # -- table events ------------------------------------------------------------------
    def run(self, cmd, seat, option, defer_save=False):
        """One table event; emits the events it causes and saves. Returns the reply."""
        e = self.event(cmd, seat, option, defer_save)
        if e:
            return e
        if cmd == "deal":
            return "ok " + protocol.hand_json(self.table.hand)
        return "ok"

    def event(self, cmd, seat, option, defer_save):
        """run() but the reply of an accepted event (a press has its own): None, or the
        reply that refuses the event. defer_save (a press in the loop): the ring shows the
        event first; its events are written and the table saved after that frame
        (tick() does it). HIDDEN: a deal, once known to be accepted, happens after that
        frame too."""
        self.catch_up()   # an earlier press's deal and marks go first, then its events
        if self.later.report:
            self.report()
        if cmd == "deal":
            if self.clock is not None:
                why = self.clock.deal_refusal(self.now)
                if why:
                    return "err rule " + why
            if defer_save == HIDDEN:
                why = self.table.deal_refusal(seat)
                if why:
                    return "err rule " + why
                self.later.deal = True
                self.later.button = seat
                return None
        return self.apply(cmd, seat, option, defer_save)

    def catch_up(self):
        """What a press left for after its frame: the deal (event(): HIDDEN, accepted and
        shown), the ring's marks."""
        if self.later.deal:
            self.later.deal = False
            self.apply("deal", self.later.button, None, AFTER_FRAME)
        if self.later.marks:
            self.later.marks = False
            self.update_marks()

    def apply(self, cmd, seat, option, defer_save):
        """The table event, refused or done (the rest of event())."""
        t = self.table
        if cmd == "deal" and self.sync_level():
            self.save_due = True   # (the level was undone: the clock's is in force)
        try:
            if cmd == "sit":
                t.sit(seat, post=option == "post")
            elif cmd == "away":
                t.away(seat)
            elif cmd == "back":
                t.back(seat, wait=option == "wait")
            elif cmd == "choose":
                t.choose(seat, option)
            elif cmd == "leave":
                t.leave(seat)
            elif cmd == "deal":
                t.deal(button=seat)
            elif cmd == "undo":
                t.undo()
            else:
                raise ValueError("no such event: %s" % cmd)
        except ValueError as exc:
            return "err rule %s" % exc
        if cmd == "undo":
            if defer_save:
                self.later.undo = True   # (written with the other events)
            else:
                self.write("* undo " + self.history.undone(t.hands))
        else:
            self.history.remember(cmd, seat, option)
        if defer_save == HIDDEN:
            hidden = 0
        elif defer_save == AFTER_FRAME and cmd in SEAT_EVENTS:
            hidden = seat
        else:
            hidden = -1
        self.changed(cmd == "deal", defer_save, hidden)
        if defer_save:
            self.save_due = True
        else:
            self.save()
        return None

    # -- the tournament clock ------------------------------------------------------------
    def sync_level(self):
        """The table plays the clock's level (from its next deal): an event when it was
        another one. True if the table's level changed."""
        c = self.clock
        if c is None or not self.table.set_level(c.sb, c.bb, c.ante, c.ante_kind):
            return False
        self.history.remember("level", c.level, None)
        return True

    new_level = False   # a level started less than NEW_LEVEL_MS ago, at level_at
    level_at = 0

    def ring_clock(self, c, now_ms):
        """What the ring shows of the clock (ring.py: CLOCK_*), every loop turn: no
        allocation."""
        r = self.ring
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

    def clock_lines(self, lines):
        """Send the clock's events; the table follows its level; saved between frames."""
        for line in lines:
            self.write(line)
            if line.startswith("* level"):
                self.new_level = True
                self.level_at = self.now
        self.sync_level()
        self.save_due = True
        self.render_due = True

    def clock_command(self, args):
        """`clock` (its JSON) and `clock pause|resume|next|prev|set M:SS`."""
        c = self.clock
        if c is None:
            return 'err clock no tournament: a cash game (config.json has no "tournament")'
        now = self.now
        if not args:
            return "ok " + c.json(now)
        word = args[0].lower()
        try:
            if word == "set" and len(args) == 2:
                lines = c.set(args[1], now)
            elif len(args) != 1:
                return "err usage " + protocol.USAGE["clock"]
            elif word == "pause":
                lines = c.pause(now)
            elif word == "resume":
                lines = c.resume(now)
            elif word == "next":
                lines = c.next(now)
            elif word == "prev":
                lines = c.prev(now)
            else:
                return "err usage " + protocol.USAGE["clock"]
        except ValueError as exc:
            return "err clock %s" % exc
        self.clock_lines(lines)
        self.save()
        return "ok"

    def clock_toggle(self):
        """The next-hand button held 5 s: the clock pauses, or starts."""
        c = self.clock
        if c is not None:
            self.clock_lines(c.pause(self.now) if c.running else c.resume(self.now))
        return "ok clock"

    def changed(self, dealt, deferred=0, hidden=-1):
        """The table changed: the ring's marks now (or, hidden by the flash of seat `hidden`
        (0: the whole ring), after the next frame), the events now or (deferred: a press in
        the loop) once the frame that shows the change is out."""
        self.render_due = True
        if dealt:
            self.ring.mode = ringmod.NORMAL
        if hidden >= 0:
            self.later.marks = True
            self.later.flash = hidden
        else:
            self.update_marks()
        if dealt:
            self.later.hand = True
        if deferred:
            self.later.report = True
        else:
            self.report()

    def report(self):
        """The events of what changed: `* undo ...` after an undo, `* seat N status` for
        each seat that changed, then `* hand` after a deal."""
        t = self.table
        self.later.report = False
        if self.later.undo:
            self.later.undo = False
            self.write("* undo " + self.history.undone(self.table.hands))
        for s in range(1, t.seats + 1):
            status = t.status(s)
            if status != self.statuses[s]:
                self.statuses[s] = status
                self.write("* seat %d %s" % (s, status))
        if self.later.hand:
            self.later.hand = False
            self.write("* hand " + protocol.hand_json(t.hand))

    def update_marks(self):
        """The ring's marks from the table: each seat's status, the seat of each role."""
        t = self.table
        ring = self.ring
        status = ring.status
        for s in range(1, t.seats + 1):
            st = t.status(s)
            if st == "waiting":
                choice = t.choice(s)
                if choice is None:
                    choice = "wait" if t.owes(s) == (0, 0) else "post"
                status[s] = ringmod.WAIT_POST if choice == "post" else ringmod.WAIT_BB
            elif st == "active":
                status[s] = ringmod.ACTIVE
            else:
                status[s] = ringmod.AWAY if st == "away" else ringmod.EMPTY
        h = t.hand
        if h is None:
            ring.button = ring.sb = ring.bb = ring.first_to_act = 0
        else:
            ring.button = h.button
            ring.sb = h.sb or 0   # (None: no small blind this hand)
            ring.bb = h.bb
            ring.first_to_act = h.first_to_act or 0

    # -- presses -------------------------------------------------------------------------
    def press(self, seat, long, defer_save=False):
        """A short or long press of seat's button (0: next-hand), as mapped in the module
        doc; flashes the ring (accepted or refused) and returns the reply line. defer_save:
        a press in the loop (see event())."""
        if defer_save:
            defer_save = HIDDEN if seat == 0 else AFTER_FRAME
        alone = self.ring.shows_button_alone(seat)   # (the flash answers what the player saw)
        reply = self.press_action(seat, long, defer_save)
        self.ring.flash(seat, reply.startswith("ok"), self.now, alone)
        self.render_due = True
        return reply

    def press_action(self, seat, long, defer_save):
        t = self.table
        if seat == 0:
            if self.ring.mode == ringmod.DRAW:
                if long:
                    self.ring.mode = ringmod.NORMAL
                    self.update_marks()
                    return "ok cancel"
                present = [s for s in range(1, t.seats + 1)
                           if t.status(s) in ("active", "waiting")]
                if len(present) < 2:
                    return "err rule the draw for the button needs two players seated"
                return self.act("draw", "deal", present[self.rng(len(present))], defer_save)
            if long:
                return self.act("undo", "undo", None, defer_save)
            if t.hand is None:
                self.ring.mode = ringmod.DRAW
                return "ok draw"
            return self.act("deal", "deal", None, defer_save)
        status = t.status(seat)
        if long:
            if status == "empty":
                return "err rule seat %d is empty: nobody to leave" % seat
            return self.act("leave", "leave", seat, defer_save)
        if self.ring.mode == ringmod.DRAW:
            if status == "empty":
                return "err rule seat %d is empty: the button goes to a seated player" % seat
            # The draw may go to a player who is away (S1): the first button is dead there.
            return self.act("button", "deal", seat, defer_save)
        if status == "empty":
            return self.act("sit", "sit", seat, defer_save)
        if status == "active":
            return self.act("away", "away", seat, defer_save)
        if status == "away":
            return self.act("back", "back", seat, defer_save)
        if t.choice(seat) == "post":
            return self.act("wait", "choose", seat, defer_save, "wait")
        return self.act("post", "choose", seat, defer_save, "post")

    def act(self, name, cmd, seat, defer_save, option=None):
        return self.event(cmd, seat, option, defer_save) or "ok " + name

    # -- the loop ------------------------------------------------------------------------
    render_due = True
    last_frame = 0
    next_frame = 0   # when the next frame of the steady 40 fps is due

    def tick(self, now_ms):
        """Poll the buttons, handle their presses, render and show a frame when one is due,
        then write the events of the presses and save if an event happened (between
        frames). Returns how long the loop may sleep before its next turn (ms): the panel's
        quick_ms while a button is down, else until the next frame (see doze())."""
        self.now = now_ms
        self.panel.poll(now_ms)   # (its presses come back as button_event, held_long)
        if self.later.deal or self.later.marks:
            self.show_press(now_ms)
        if self.clock is not None:
            self.tick_clock(now_ms)
        late = ticks_diff(now_ms, self.next_frame)
        if self.render_due or late >= 0 or late < -self.frame_ms:
            self.frame_if_due(now_ms)
        if self.later.report:
            self.report()   # after the frame: a press shows before its events are written
        if self.save_due:
            self.save()
        self.stats.pressing = self.panel.quick   # (no collector pause before its flash)
        if self.panel.quick:
            return self.panel.quick_ms
        late = ticks_diff(self.next_frame, now_ms)   # (now: how long until the next frame)
        return late if late > 0 else 1

    def doze(self, ms, sleep_ms):
        """The loop's sleep between two turns: the panel's (it wakes for a press)."""
        self.panel.doze(ms, sleep_ms)

    # (tick() keeps to a few local names: a function with more than about 11 locals and
    # stack slots gets its frame from the heap on every call on MicroPython, 50-100 us on
    # the board.)

    def tick_clock(self, now_ms):
        c = self.clock
        if c is None:
            return
        lines = c.tick(now_ms)
        if lines:
            self.clock_lines(lines)
        elif c.should_save(now_ms):
            self.save_due = True
        self.ring_clock(c, now_ms)

    def held_long(self, i, now_ms, first):
        """Button i is held long enough for a long press (the panel asks every poll; first:
        the first time): one flash says "let go now" (LONG comes at the release). At a
        tournament table the next-hand button held 5 s flashes again: letting go now pauses
        or starts the clock."""
        if first:
            self.ring.flash(i, True, now_ms)
            self.render_due = True
            if i == 0:
                self.long_at = now_ms
        elif (i == 0 and self.clock is not None and not self.clock_armed
              and ticks_diff(now_ms, self.long_at) >= CLOCK_HOLD_MS - self.panel.buttons[0].long_ms):
            self.clock_armed = True
            self.ring.flash(0, True, now_ms)
            self.render_due = True

    def show_press(self, now_ms):
        """The frame of a press that left its deal or the marks for later (event(),
        changed()), then those."""
        if self.ring.flash_hides(0 if self.later.deal else self.later.flash):
            # Its flash covers every LED the event changes (a seat's mark under its own
            # flash; a deal, an undo under the next-hand button's, over the whole ring):
            # the frame is the same before the change as after, so it goes out first. The
            # table deals and the marks follow before anything else happens (the clock,
            # the host's next byte).
            self.frame_if_due(now_ms)
            self.catch_up()
            self.render_due = False
        else:
            self.catch_up()   # another flash took over: the change shows at once

    def frame_if_due(self, now_ms):
        """A frame when one is due: something changed, or the next one of the grid."""
        late = ticks_diff(now_ms, self.next_frame)
        if late < -self.frame_ms:
            late = self.frame_ms  # no grid yet (or the clock jumped back): start one now
        if self.render_due or late >= 0:
            self.frame(now_ms)
            if late >= 0:
                # Frames on a 25 ms grid, whatever the loop's own rhythm; one that fell a
                # whole frame behind starts the grid again from now.
                self.next_frame = ticks_add(now_ms if late >= self.frame_ms
                                            else self.next_frame, self.frame_ms)

    def frame(self, now_ms):
        self.ring.render(now_ms)
        self.strip.show(self.ring.buf)
        self.last_frame = now_ms
        self.render_due = False

    def button_event(self, i, ev):
        self.stats.dirty = True
        if i == 0 and self.clock_armed:
            self.clock_armed = False
            if ev == LONG:
                self.ring.flash(0, True, self.now)
                self.clock_toggle()
                return
        if ev == SHORT or ev == LONG:
            self.press(i, ev == LONG, True)
        elif ev == STUCK:
            if i == 0:
                self.write("* error next-hand button stuck")
            else:
                self.write("* error seat %d button stuck" % i)
        elif ev == RELEASED:
            self.write("* info %s button released, working again"
                       % ("next-hand" if i == 0 else "seat %d" % i))
