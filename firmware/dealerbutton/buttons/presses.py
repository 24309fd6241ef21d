"""What the table's buttons mean: each press turned into a table event, answered on the ring.

Press mapping (seat buttons 1..N, next-hand button 0):
    seat, short   empty: sit (waits for the BB) | waiting, will wait: post instead |
                  waiting, will post: wait for the BB instead | active: away |
                  away: back (posts what he owes as soon as allowed; press again: wait)
    seat, long    leave (bust out); refused on an empty seat
    next, short   deal the next hand; before the first hand: choose the button (DRAW)
    next, long    undo the last event
    seat A held, seat B pressed     move A's player to the empty seat B (C1)
    next held, seat pressed         a kill blind on that seat's player; again: a half kill
Two buttons held together give no press of their own (chords.py): a seat held at least
0.3 s, then the other pressed and let go while the first is still held. The held one let
go first, the chord is refused (both seats blink). Two buttons pressed within 0.3 s of
each other are two presses (two players sitting down at once), each acting on release.
A seat's arc lights as soon as its button is pressed, and while it is held.
A long press (held 1 s) flashes once to say "let go", and acts when let go (button.py
gives LONG at the release); a button held 30 s is stuck: reported, ignored until
released, and never acts.
    in DRAW mode  seat short: the button goes there and the first hand is dealt;
                  next short: the button is drawn at random among the seated players
                  present and the hand dealt; next long: cancel
    hand-for-hand next short: the hand is over, the table waits for the room's deal
                  (handforhand.py; again: nothing more); next long while it waits: not
                  over after all (nothing undone). Before the first hand: the draw.
At a tournament table the next-hand button held 5 s pauses or starts the clock: a second
flash at 5 s says "let go now" (a shorter hold is still undo; in a cash game any hold is
undo). During a break no hand is dealt.
"""

from dealerbutton import ring as ringmod
from dealerbutton.buttons.button import LONG, RELEASED, SHORT, STUCK
from dealerbutton.ticks import ticks_diff

CLOCK_HOLD_MS = 5000   # the next-hand button held this long: pause or start the clock

# When a table event shows on the ring, goes out as events and is saved (App.table_event):
AT_ONCE = 0       # a host's command: all of it before the reply
AFTER_FLASH = 1   # a press: the frame with its flash goes out first, then the rest


def _default_rng(n):
    import random
    return random.getrandbits(16) % n


class Presses:
    """The buttons' meaning for an App: the panel (panel.py) reports each button's presses
    here; each press becomes a table event, and the ring flashes its answer."""

    def __init__(self, app, rng=None):
        self.app = app
        self.rng = rng or _default_rng   # rng(n) -> 0..n-1: the draw for the button
        self.long_at = 0          # when the next-hand button's hold became a long press
        self.clock_armed = False  # ... and reached CLOCK_HOLD_MS: its release is the clock

    # ---- what the panel reports ----------------------------------------------------------

    def button_event(self, i, ev):
        """Button i (0: next-hand) was pressed short or long, got stuck or was released."""
        app = self.app
        app.stats.dirty = True
        if i == 0 and self.clock_armed:
            self.clock_armed = False
            if ev == LONG:
                app.ring.flash(0, True, app.now)
                app.table_clock.toggle()
                return
        if ev == SHORT or ev == LONG:
            self.press(i, ev == LONG, AFTER_FLASH)
        elif ev == STUCK:
            app.write("* error %s button stuck" % _button_name(i))
        elif ev == RELEASED:
            app.write("* info %s button released, working again" % _button_name(i))

    def button_touched(self, i, on):
        """Button i reads pressed (on), or has been let go: a seat's arc shows it is held
        from the first moment (the next frame goes out at once)."""
        if i:
            self.app.ring.hold(i, on)
            self.app.render_due = True

    def chord(self, first, second, ok):
        """Two buttons held together (chords.py): a seat held and another pressed moves its
        player there (C1); the next-hand button held and a seat pressed marks a kill on
        that seat, a half kill if it is marked already (F3). Both seats flash the answer."""
        app = self.app
        app.stats.dirty = True
        app.finish_press()
        app.after_flash.seat = -1   # (its change shows at once, its events after the frame)
        if not ok:
            reply = "err rule two buttons pressed together: hold one, then press the other"
        elif first == 0:
            mark = app.table.kill_mark
            half = mark is not None and mark == (second, False)
            reply = self.event("half kill" if half else "kill", "kill", second,
                               "half" if half else None, AFTER_FLASH)
        else:
            reply = self.event("move", "move", first, second, AFTER_FLASH)
        app.ring.flash(second, reply.startswith("ok"), app.now, also=first)
        app.render_due = True
        return reply

    def held_long(self, i, now_ms, first):
        """Button i is held long enough for a long press (the panel asks every poll; first:
        the first time): one flash says "let go now" (LONG comes at the release). At a
        tournament table the next-hand button held 5 s flashes again: letting go now pauses
        or starts the clock."""
        app = self.app
        if first:
            app.ring.flash(i, True, now_ms)
            app.render_due = True
            if i == 0:
                self.long_at = now_ms
        elif (i == 0 and app.table_clock is not None and not self.clock_armed
              and ticks_diff(now_ms, self.long_at)
              >= CLOCK_HOLD_MS - app.panel.buttons[0].long_ms):
            self.clock_armed = True
            app.ring.flash(0, True, now_ms)
            app.render_due = True

    # ---- a press ------------------------------------------------------------------------

    def press(self, seat, long, when=AT_ONCE):
        """A short or long press of seat's button (0: the next-hand button): its event done
        (or refused), the ring's flash answering it; returns the reply line."""
        app = self.app
        if when == AFTER_FLASH:
            app.finish_press()
            app.after_flash.seat = seat
        alone = app.ring.shows_button_alone(seat)   # (the flash answers what the player saw)
        reply = self.press_event(seat, long, when)
        app.ring.flash(seat, reply.startswith("ok"), app.now, alone)
        app.render_due = True
        return reply

    def press_event(self, seat, long, when):
        """The event a press stands for, done: "ok <what it did>" or the refusal."""
        app = self.app
        t = app.table
        draw = app.ring.mode == ringmod.DRAW
        if seat == 0:
            if draw and long:
                app.ring.mode = ringmod.NORMAL
                app.show_table()
                return "ok cancel"
            if draw:
                return self.draw(when)
            h4h = app.hand_for_hand
            if long and h4h is not None and h4h.waiting:
                return h4h.cancel()
            if long:
                return self.event("undo", "undo", None, None, when)
            if t.hand is None:
                app.ring.mode = ringmod.DRAW
                return "ok draw"
            if h4h is not None and h4h.on:
                return h4h.hand_over()
            return self.event("deal", "deal", None, None, when)
        status = t.status(seat)
        if long:
            if status == "empty":
                return "err rule seat %d is empty: nobody to leave" % seat
            return self.event("leave", "leave", seat, None, when)
        if draw:
            if status == "empty":
                return "err rule seat %d is empty: the button goes to a seated player" % seat
            # The draw may go to a player who is away (S1): the first button is dead there.
            return self.event("button", "deal", seat, None, when)
        if status == "empty":
            return self.event("sit", "sit", seat, None, when)
        if status == "active":
            return self.event("away", "away", seat, None, when)
        if status == "away":
            return self.event("back", "back", seat, None, when)
        if t.choice(seat) == "post":
            return self.event("wait", "choose", seat, "wait", when)
        return self.event("post", "choose", seat, "post", when)

    def draw(self, when):
        """The next-hand button in DRAW mode: the button drawn at random among the players
        present, and the first hand dealt."""
        t = self.app.table
        present = [s for s in range(1, t.seats + 1) if t.status(s) in ("active", "waiting")]
        if len(present) < 2:
            return "err rule the draw for the button needs two players seated"
        return self.event("draw", "deal", present[self.rng(len(present))], None, when)

    def event(self, name, cmd, seat, option, when):
        """The table event `cmd`: "ok <name>", or its refusal."""
        return self.app.table_event(cmd, seat, option, when) or "ok " + name


def _button_name(i):
    return "next-hand" if i == 0 else "seat %d" % i
