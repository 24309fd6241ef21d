"""The next hand as the rules would deal it now, worked out from the table's state without
changing it: dealing.py commits it, charges.py says what it charges (M6).

work_out() goes in this order: the positions by the rule set (S1 for the first hand; DB1..DB3
or MB1), who is dealt in (D1..D3, S2; T1, T2), heads-up (H1, H2) when two are, a new game
(D5, MS2) when fewer than two could be, then the seats the blinds pass as really posted (M1,
H1, S2) and what each seat posts (charges.py). Sets of seats are Python sets."""

from dealerbutton.rules import charges
from dealerbutton.rules.words import ACTIVE, WAITING


class NextHand:
    """The next hand: its positions, who is dealt in, what each seat posts. One per table,
    worked out again when the table has changed (`ready` while it matches the table)."""

    def __init__(self, seats):
        self.ready = False
        self.can_deal = False    # two or more players present
        self.new_game = False    # D5, MS2: every present player plays, owing nothing
        self.heads_up = False    # exactly two dealt in (H1)
        self.button = 0          # the positions really played
        self.sb_seat = 0
        self.sb_player = 0       # 0: no small blind
        self.bb = 0
        self.dealt = set()       # the seats dealt in
        self.free = set()        # S2: seats where a new player is dealt in free
        self.sb_passes = set()   # the seats each blind passes at this deal (M1, H1)
        self.bb_passes = set()
        self.passed = set()      # S2: the seats passed since the first hand, this deal's too
        self.travel = 0          # S2: the button's travel since the first hand (max N)
        # What it charges (charges.py): who pays a big blind as a blind and who carries a
        # small blind on (MB2, F4), who misses a made-up small blind, the kill ...
        self.paid_bb = set()
        self.carries_sb = set()
        self.carries_live_sb = set()
        self.misses_made_up_sb = set()
        self.due_dead_sb = set()
        self.killer = 0
        self.killed_blind = 0
        # ... and what each seat posts, as TableState's POST_FACTS (a byte per seat).
        self.posted_blind = bytearray(seats + 1)
        self.posted_button_blind = bytearray(seats + 1)
        self.posted_kill = bytearray(seats + 1)
        self.posted_dead_sb = bytearray(seats + 1)
        self.posted_dead_ante = bytearray(seats + 1)
        self.posted_dead_button_blind = bytearray(seats + 1)

    def work_out(self, state, draw=None):
        """The next hand of this table (the first one with the seat that won the draw for
        the button); returns self."""
        if self.ready and state.hands:
            return self
        active = state.seats_with(ACTIVE)
        present = active | state.seats_with(WAITING)
        self.ready = True
        self.can_deal = len(present) >= 2
        self.new_game = False
        self.free = set()
        if not self.can_deal:
            return self
        if not state.hands:
            self._first_hand(state, draw, active)
        elif (state.rules != "dead" and not state.tournament and len(active) < 2
              or not self._deal_in(state, active, present)):
            self._new_game(state, present)
        self._passes(state, draw)
        charges.charge(self, state)
        return self

    # ---- positions ---------------------------------------------------------------------

    def _first_hand(self, state, draw, active):
        """S1: the button on the seat that won the draw (dead if its player is away), the SB
        and the BB on the next two active players; heads-up the button's player posts the
        SB (if the draw went to an away player, the SB player has the button: H1)."""
        others = active - {draw}
        if len(active) == 2 and draw in active:
            sb_seat = draw
        else:
            sb_seat = state.next_seat(draw, others)
        self.bb = state.next_seat(sb_seat, others - {sb_seat})
        self.dealt = set(active)
        self.heads_up = len(active) == 2
        self.button = sb_seat if self.heads_up else draw
        self.sb_seat = sb_seat

    def _positions(self, state, active, present):
        """The button, SB position and BB by the rule set (DB1..DB3, MB1), with these players
        active, before heads-up places them again. True when DB3 finds no rotation seat
        between the BB and the SB position: then only the SB and BB players play, and the
        SB player has the button."""
        if state.rules == "dead":
            bb = state.next_seat(state.bb, present)  # DB1
            # The rotation: seats in play or that held a position last hand, but the new BB.
            rotation = (active | {state.button, state.sb_seat, state.bb}
                        | state.seats_where(state.dealt)) - {bb}
            if state.bb in active and not state.left[state.bb]:
                sb_seat = state.bb  # DB2: big blind, then small blind
            else:
                sb_seat = state.next_seat(bb, rotation, True)
            # DB3: the rotation seat before the SB position, searched back no further than
            # the BB.
            button = state.next_seat(sb_seat, rotation | {bb}, True)
            self.sb_seat = sb_seat
            self.bb = bb
            self.button = sb_seat if button == bb else button
            return button == bb
        # MB1: the button, then the SB to the next active players; the BB to the next
        # player after the SB, active or waiting, up to the button (not past it).
        button = state.next_seat(state.button, active) or state.button
        sb_seat = state.next_seat(button, active - {button}) or button
        between = present - state.seats_after(button, sb_seat) - {button}
        self.button = button
        self.sb_seat = sb_seat
        self.bb = state.next_seat(sb_seat, between) or sb_seat  # none: heads-up (H1)
        return False

    def _deal_in(self, state, active, present):
        """Positions by the rule set and who is dealt in: active players, the BB, waiting
        players who post (or S2 deals in free) outside the D2 zone; at a tournament table
        everybody seated but a newcomer on the button or SB position (T1, T2). Heads-up the
        BB keeps moving and the other player has the button (H1, H2). False when fewer than
        two could be dealt in (D5), a waiting player on the heads-up button included (D2)."""
        only_the_blinds = self._positions(state, active, present)
        self.free = self._free_seats(state, only_the_blinds)
        # D2: waiting players on the button or after it, before the BB, wait for the button
        # to pass; T2: a newcomer on the button or the SB position waits one hand.
        if state.tournament:
            zone = {self.button, self.sb_seat} - {self.bb}
        else:
            zone = ({self.button} | state.seats_after(self.button, self.bb)) - {self.bb}
        if only_the_blinds:  # DB3: the SB and BB players alone
            eligible = active & {self.sb_seat}
        elif state.tournament:  # T1: everybody seated (all "active"), T2 but a newcomer in the zone
            eligible = active - (state.seats_where(state.new) & zone)
        else:  # the active players; waiting ones outside the zone who post or play free
            eligible = set(active)
            for seat in present - active - zone:
                if not state.waits_for_bb[seat] or state.new[seat] and seat in self.free:
                    eligible.add(seat)
        self.dealt = eligible | {self.bb}
        self.heads_up = len(self.dealt) == 2
        if self.heads_up:
            self._heads_up(state)
            if not state.tournament and state.status[self.button] == WAITING:
                return False  # D2 holds him out ("never a debt on the SB"): one player left
        return len(self.dealt) >= 2

    def _heads_up(self, state):
        """H1, H2: of the two dealt in, the next one after the last BB has the BB; the other
        has the button and posts the SB."""
        self.bb = state.next_seat(state.bb, self.dealt)
        self.button = self.sb_seat = state.next_seat(self.bb, self.dealt - {self.bb})

    def _new_game(self, state, present):
        """D5, MS2: every present player plays, owing nothing. Under moving and simple (MS2)
        the button goes to the next present player after the last button and the blinds
        follow it; under dead (and at a tournament table) the rule set places them as if
        every present player were active. Heads-up as H1 (H2 but for MS2)."""
        self.new_game = True
        self.dealt = set(present)
        self.heads_up = len(present) == 2
        if state.rules == "dead" or state.tournament:
            self._positions(state, present, present)
            if self.heads_up:
                self._heads_up(state)
            return
        button = state.next_seat(state.button, present)
        others = present - {button}
        self.button = button
        self.sb_seat = button if self.heads_up else state.next_seat(button, others)
        self.bb = state.next_seat(self.sb_seat, others - {self.sb_seat})

    # ---- the seats the blinds pass -------------------------------------------------------

    def _sb_passes(self, state, heads_up):
        """The seats the SB position passes from the last hand's to this one's. Heads-up (H1)
        an SB that is not between its last position and the new BB has moved back: it
        passes nobody."""
        last = state.sb_seat
        if heads_up and last != self.bb and self.sb_seat not in state.seats_after(last, self.bb):
            return set()
        return state.seats_after(last, self.sb_seat)

    def _free_seats(self, state, heads_up):
        """S2: the seats where a new player is dealt in free at this deal, by the positions
        of the rule set: the button's travel is under one orbit, and no blind has passed the
        seat, this deal's blinds included."""
        n = state.seats
        if state.travel + (self.button - state.button) % n >= n:
            return set()
        passed = (state.seats_where(state.passed) | self._sb_passes(state, heads_up)
                  | state.seats_after(state.bb, self.bb))
        return set(state.all_seats()) - passed

    def _passes(self, state, draw):
        """The seats the blinds pass as really posted (M1, H1), the seats passed since the
        first hand and the button's travel (S2). The first hand's SB comes from the seat that
        won the draw and its BB from the SB (S1, S2)."""
        n = state.seats
        if not state.hands:
            self.sb_passes = state.seats_after(draw, self.sb_seat)
            self.bb_passes = state.seats_after(self.sb_seat, self.bb)
            self.passed = self.sb_passes | self.bb_passes
            self.travel = 0
            return
        self.sb_passes = self._sb_passes(state, self.heads_up)
        self.bb_passes = state.seats_after(state.bb, self.bb)
        self.passed = state.seats_where(state.passed) | self.sb_passes | self.bb_passes
        self.travel = min(n, state.travel + (self.button - state.button) % n)
