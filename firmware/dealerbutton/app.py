"""The device application: table, ring, buttons, saved state and serial protocol tied together.

Hardware comes in as small objects (pins with value(), a strip with show(buf)), time as
now_ms, host bytes through feed(), replies and events out through write(line); the board's
shells (board/) supply the real or emulated pieces. What the buttons mean is
buttons/presses.py's; the tournament clock's side of the table is clock/table.py's.

A table event changes the table (rules/), then the ring shows it, its events go out
(`* seat N status`, `* hand ...`) and the table is saved. A host's command does all of that
before its reply (AT_ONCE). A press (AFTER_FLASH) is answered by its flash first: the frame
with the flash goes out, then what the flash covers changes under it, the events are
written and the table is saved, between frames (AfterFlash). A deal waits for that frame
too, once it is known to be allowed.

The floor's marks during a move between tables (`reserve N`, `release N`) are the device's,
not the table's: floormarks.py.
"""

from dealerbutton import VERSION, protocol, tablelook
from dealerbutton import ring as ringmod
from dealerbutton.buttons.panel import Panel
from dealerbutton.buttons.presses import AFTER_FLASH, AT_ONCE, Presses
from dealerbutton.floormarks import FloorMarks
from dealerbutton.history import History
from dealerbutton.rules.words import MARKS
from dealerbutton.stats import Stats
from dealerbutton.ticks import ticks_add, ticks_diff

# The table events, each a call on the Table with the event's seat and option.
TABLE_EVENTS = {
    "sit": lambda t, seat, option: t.sit(seat, post=option == "post"),
    "away": lambda t, seat, option: t.away(seat),
    "back": lambda t, seat, option: t.back(seat, wait=option == "wait"),
    "choose": lambda t, seat, option: t.choose(seat, option),
    "leave": lambda t, seat, option: t.leave(seat),
    "move": lambda t, seat, option: t.move(seat, option),      # option: the seat moved to
    "take": lambda t, seat, option: t.take(seat),
    "kill": lambda t, seat, option: t.kill(seat, half=option == "half"),
    "level": lambda t, seat, option: t.set_level(*option),     # option: (sb, bb, ante, kind)
    "deal": lambda t, seat, option: t.deal(button=seat),
    "undo": lambda t, seat, option: t.undo(),
}
SEAT_EVENTS = ("sit", "away", "back", "choose", "leave")  # each changes its own seat only


def _kill_text(mark):
    """A kill mark in the `* kill` event's words: `4`, `4 half`, or `none`."""
    if mark is None:
        return "none"
    return "%d%s" % (mark[0], " half" if mark[1] else "")


def make_ring(cfg, strip=None):
    """The ring config.json describes, drawing its frames in the byte order the strip takes
    (its frame_order; "RGB" by default)."""
    return ringmod.Ring(cfg["leds"], cfg["seats"], offset=cfg["offset"],
                        reverse=cfg["direction"] == "ccw", brightness=cfg["brightness"],
                        budget_ma=cfg["budget_ma"], palette=cfg["palette"] or None,
                        order=getattr(strip, "frame_order", "RGB"))


class AfterFlash:
    """What a press leaves for after the frame that shows its flash (App.after_frame)."""

    def __init__(self):
        self.seat = -1          # the pressed seat, whose flash must go out first (0: next-hand)
        self.deal = False       # the deal itself, allowed and waiting ...
        self.button = None      # ... with its button seat (a `deal N`), or None
        self.show = False       # the ring to show the table, hidden by the flash until then
        self.report = False     # the events of the change to write
        self.undo = False       # ... among them `* undo <what>`
        self.hand = False       # ... and `* hand`, after a deal


class App:
    frame_ms = 25          # render at 40 frames a second (and at once after a press)
    repl_requested = False  # the host sent `repl`: the loop ends and the REPL gets the line

    def __init__(self, cfg, strip, pins, write, store=None, rng=None, now_ms=0, bank=None):
        """cfg: a validated config; pins[0] the next-hand button, pins[s] seat s (value() == 0
        while pressed); write(line) sends one line; store: a store.Store or None; rng(n) ->
        0..n-1 for the draw for the button; bank: what reads the pins at rest all at once
        (pressed() -> a bit per pin; default: Pins, one pin after the other)."""
        # store/config.py and store/startup.py are needed only here, at the start (the board
        # unloads them then: dealerbutton.unload): the `config` command's reply is written now.
        from dealerbutton.store import config, startup
        self.cfg = cfg
        self.config_text = config.to_json(cfg)
        self.version = VERSION
        self.strip = strip
        self.write = write
        self.store = store
        self.now = now_ms
        self.stats = Stats()
        seats = cfg["seats"]
        if len(pins) < seats + 1:
            raise ValueError("pins: %d given for %d seats and the next-hand button"
                             % (len(pins), seats))
        self.ring = make_ring(cfg, strip)
        self.history = History()   # what each undoable event was (`* undo sit 3`)
        self.tournament = cfg.get("tournament")
        self.presses = Presses(self, rng)
        self.panel = Panel(pins[:seats + 1], self.presses, now_ms, bank)
        # The table, and the tournament's schedule.Clock (None: a cash game) tied to the table
        # by a clock.table.TableClock.
        self.table, self.clock = startup.table_and_clock(self)
        self.table_clock = None
        self.hand_for_hand = None   # a handforhand.HandForHand, from the first `handforhand`
        self.statuses = [None] + [self.table.status(s) for s in range(1, seats + 1)]
        self.marks = FloorMarks(seats)   # the floor's marks, in RAM only
        self.kill_shown = self.table.kill_mark   # the kill mark the events have told
        self.protocol = protocol.Protocol(self.command, write)
        self.save_due = False
        self.render_due = True
        self.last_frame = 0
        self.next_frame = 0        # when the next frame of the steady 40 fps is due
        self.after_flash = AfterFlash()
        if self.clock is not None:
            from dealerbutton.clock.table import TableClock
            self.table_clock = TableClock(self, self.clock)
            for line in self.clock.boot_lines():
                write(line)
            if self.table_clock.sync_level():
                self.save()
        self.show_table()
        self.frame(now_ms)

    # ---- the saved state -------------------------------------------------------------
    def save(self):
        """The table (and the clock) saved now; a failing flash is reported, never fatal."""
        self.save_due = False
        self.stats.dirty = True   # (a save allocates: the collector runs after the next frame)
        self.stats.collect_after_save = True
        c = self.clock
        if c is not None:
            c.saved(self.now)
        self.table.compact_history()
        if self.store is None:
            return
        try:
            self.store.save(self.table.to_dict(), c.to_dict(self.now) if c is not None else None)
            self.stats.saves += 1
        except Exception as exc:  # noqa: BLE001 - a full or failing flash must not stop play
            self.write("* error save failed: %s" % exc)

    # ---- the host ----------------------------------------------------------------------

    def feed(self, data):
        """Bytes from the host: every complete line is answered."""
        self.stats.dirty = True
        self.protocol.feed(data)

    def command(self, line):
        return protocol.command(self, line)

    def press(self, seat, long, when=AT_ONCE):
        """A press of seat's button (0: the next-hand button), as buttons/presses.py maps it."""
        return self.presses.press(seat, long, when)

    def leds(self):
        """The frame on the ring, after the frame of the last event has gone out."""
        if self.render_due:
            self.frame(self.now)
        return protocol.leds_text(self.ring.buf, self.ring.order)

    def hand_over(self):
        """The `repl` command: the board's loop ends after this reply and leaves the serial
        line to the REPL (Ctrl-C on again, watchdog off)."""
        self.repl_requested = True
        self.protocol.paused = True
        return "ok repl"

    def config_json(self):
        """The `config` command."""
        return self.config_text

    # ---- the floor's marks ---------------------------------------------------------------

    def mark(self, seat, reserve):
        """`reserve N` (reserve: True) or `release N`: the seat's mark set or cleared, its
        event written; the reply."""
        self.finish_press()
        refused, word = self.marks.change(seat, reserve, self.table.status(seat))
        if refused:
            return refused
        self.write("* seat %d %s" % (seat, word))
        self.show_table()
        self.render_due = True
        return "ok"

    # ---- table events ------------------------------------------------------------------

    def command_event(self, cmd, seat, option):
        """A table event a host command asked for, done at once: its reply."""
        refused = self.table_event(cmd, seat, option, AT_ONCE)
        if refused:
            return refused
        if cmd == "deal":
            return "ok " + protocol.hand_json(self.table.hand)
        return "ok"

    def table_event(self, cmd, seat, option, when):
        """Do one table event (see the module doc for `when`): None, or the reply that
        refuses it. A press's deal waits for the frame of its flash, once allowed."""
        if when == AT_ONCE:
            self.finish_press()
        if cmd == "deal":
            why = self.deal_refusal(seat)
            if why:
                return "err rule " + why
            if when == AFTER_FLASH and self.after_flash.seat == 0:
                self.after_flash.deal = True
                self.after_flash.button = seat
                return None
            if self.table_clock is not None and self.table_clock.sync_level():
                self.save_due = True   # (the level was undone: the clock's is in force)
        try:
            if TABLE_EVENTS[cmd](self.table, seat, option) is False:
                return None   # (a level already in force: nothing changed)
        except ValueError as exc:
            return "err rule %s" % exc
        if cmd == "undo":
            self.after_flash.undo = True   # (written with the other events)
        else:
            self.history.remember(cmd, seat, option)
        self.changed(cmd, seat, when)
        return None

    def finish_press(self):
        """What an earlier press left for after its flash (its deal, the ring, its events)
        is done now, before anything else changes the table."""
        self.after_frame()
        if self.after_flash.report:
            self.report()

    def deal_refusal(self, button):
        """Why a deal is refused now (by the clock: a break; by the rules), or None."""
        if self.table_clock is not None:
            why = self.table_clock.deal_refusal()
            if why:
                return why
        return self.table.deal_refusal(button)

    def changed(self, cmd, seat, when):
        """The table changed: shown, reported and saved now, or after the frame with the
        press's flash, where that flash covers the change (a seat's own event under its
        seat's flash, anything under the next-hand button's, which covers the whole ring)."""
        self.render_due = True
        if cmd == "deal":
            self.ring.mode = ringmod.NORMAL
            self.after_flash.hand = True
            if self.hand_for_hand is not None:
                self.hand_for_hand.dealt()
        pressed = self.after_flash.seat
        if when == AFTER_FLASH and (pressed == 0 or pressed == seat and cmd in SEAT_EVENTS):
            self.after_flash.show = True
        else:
            self.show_table()
        if when == AFTER_FLASH:
            self.after_flash.report = True
            self.save_due = True
        else:
            self.report()
            self.save()

    def report(self):
        """The events of what changed: `* undo ...` after an undo, `* seat N status` for
        each seat that changed (and `* seat N released` for a mark it made moot), then
        `* hand` after a deal."""
        t = self.table
        later = self.after_flash
        later.report = False
        if later.undo:
            later.undo = False
            self.write("* undo " + self.history.undone(t.hands))
        for s in range(1, t.seats + 1):
            status = t.status(s)
            if status != self.statuses[s]:
                self.statuses[s] = status
                self.write("* seat %d %s" % (s, status))
                if self.marks.drop_if_moot(s, status):
                    self.write("* seat %d %s" % (s, MARKS[0]))
        if t.kill_mark != self.kill_shown:
            self.kill_shown = t.kill_mark
            self.write("* kill %s" % _kill_text(t.kill_mark))
        if later.hand:
            later.hand = False
            self.write("* hand " + protocol.hand_json(t.hand))

    def show_table(self):
        """The ring shows the table (tablelook.py)."""
        tablelook.show(self.ring, self.table, self.marks)

    # ---- the loop ----------------------------------------------------------------------
    # (tick() keeps to a few local names: a function with more than about 11 locals and
    # stack slots gets its frame from the heap on every call on MicroPython.)

    def tick(self, now_ms):
        """Poll the buttons, handle their presses, render and show a frame when one is due,
        then write the events of the presses and save if an event happened (between
        frames). Returns how long the loop may sleep before its next turn (ms): the panel's
        quick_ms while a button is down, else until the next frame (see doze())."""
        self.now = now_ms
        self.panel.poll(now_ms)   # (its presses come back through self.presses)
        if self.after_flash.deal or self.after_flash.show:
            self.show_press(now_ms)
        if self.table_clock is not None:
            self.table_clock.tick(now_ms)
        late = ticks_diff(now_ms, self.next_frame)
        if self.render_due or late >= 0 or late < -self.frame_ms:
            self.frame_if_due(now_ms)
        if self.after_flash.report:
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

    def show_press(self, now_ms):
        """The frame of a press whose flash covers its change, then the change: its deal,
        the ring showing the table."""
        later = self.after_flash
        if self.ring.flash_hides(later.seat):
            # Its flash covers every LED the event changes: the frame is the same before the
            # change as after, so it goes out first. The table deals and the ring follows
            # before anything else happens (the clock, the host's next byte).
            self.frame_if_due(now_ms)
            self.after_frame()
            self.render_due = False
        else:
            self.after_frame()   # another flash took over: the change shows at once

    def after_frame(self):
        """What a press left for after the frame of its flash: the deal, the ring showing
        the table."""
        later = self.after_flash
        if later.deal:
            later.deal = False
            later.seat = -1   # (the deal's change shows at once, its events after the frame)
            self.table_event("deal", later.button, None, AFTER_FLASH)
        if later.show:
            later.show = False
            self.show_table()

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
