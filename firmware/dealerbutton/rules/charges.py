"""What each seat posts at the next hand, and what a player owes to be dealt in (M3-M6, MB2,
C3, F1-F5).

A seat dealt in posts the blind of its position (the small or the big blind), what its
player owes beyond it (his debts: a new player's big blind, a returning player's markers, a
mover's big blind, the blinds made up under MB2 and F4), and the hand's forced bets beyond
the two blinds (the button blind, a kill blind; the antes follow from the level and are
not kept). `owes` shows a player's debts in chips, never the forced bets."""

from dealerbutton.rules.state import BB, NO_BLIND, POST_FACTS, SB, blind_chips
from dealerbutton.rules.words import ACTIVE, AWAY, EMPTY, WAITING

# A player's debts at a deal: (live blind, dead small blinds, dead ante, dead button blind).
NO_DEBTS = (NO_BLIND, 0, 0, 0)


def charge(plan, state):
    """What each seat dealt in posts at the hand `plan` (nexthand.NextHand) has worked out,
    into its posted_* arrays; who pays a big blind and who carries a small blind on."""
    if plan.heads_up:
        plan.sb_player = plan.button
    elif plan.sb_seat in plan.dealt and plan.sb_seat != plan.button:
        plan.sb_player = plan.sb_seat
    else:
        plan.sb_player = 0  # a dead small blind
    for name in POST_FACTS:
        posts = getattr(plan, name)
        for seat in state.all_seats():
            posts[seat] = 0
    plan.paid_bb = {plan.bb}      # the seats paying a big blind as a blind this hand
    plan.carries_sb = set()       # MB2: made-up small blinds carried to the next hand
    plan.carries_live_sb = set()  # F4: missed small blinds carried to the next hand
    plan.misses_made_up_sb = set()   # MB2: players due a made-up SB, not dealt in
    plan.due_dead_sb = set()         # MB2: players dealt in due a made-up SB, dead
    plan.killer = 0
    plan.killed_blind = NO_BLIND  # the live blind the kill replaced
    only_blinds = plan.new_game or state.tournament
    for seat in plan.dealt:
        if seat == plan.bb:
            plan.posted_blind[seat] = BB   # and nothing more (M4)
        elif seat == plan.sb_player:
            plan.posted_blind[seat] = SB
        elif state.status[seat] == WAITING and not only_blinds:
            _post(plan, seat, debts(plan, state, seat))
    if state.rules == "moving" and state.hands and not only_blinds and not plan.heads_up:
        _make_up(plan, state)
    if state.button_blind and not plan.heads_up and plan.button in plan.dealt:
        plan.posted_button_blind[plan.button] = 1   # F2 (a dead button posts none)
    if state.makeup == "one_per_hand" and not only_blinds:
        _carried_small_blinds(plan, state)
    _kill(plan, state)


def debts(plan, state, seat):
    """A waiting player's debts to be dealt in at this deal, beyond his position's blind
    (M3, M3a, C3, F4; in chips at the level of the deal): NO_DEBTS when he owes nothing."""
    if state.new[seat]:   # one big blind, unless S2 deals him in free
        if seat in plan.free and seat in plan.dealt:
            return NO_DEBTS
        return (BB, 0, 0, 0)
    return marker_debts(state, seat)


def marker_debts(state, seat):
    """What a player who is not new posts for his markers and a mover's wait: a mover one
    big blind (C3), a missed big blind live (M3); a missed small blind dead beside it, or
    under F4 live on its own, after the big blind; a missed ante or button blind dead."""
    dead = (state.missed_sb[seat], state.missed_ante[seat], state.missed_button_blind[seat])
    big = state.mover_wait[seat] or state.missed_bb[seat]
    if state.makeup == "one_per_hand":   # F4: the big blind first, then the small one, live
        if big:
            return (BB, 0) + dead[1:]
        return (SB if state.missed_sb[seat] else NO_BLIND, 0) + dead[1:]
    return (BB if big else NO_BLIND,) + dead   # M3: what he missed


def _post(plan, seat, owed):
    """A seat's debts into its posts."""
    plan.posted_blind[seat], plan.posted_dead_sb[seat], plan.posted_dead_ante[seat], \
        plan.posted_dead_button_blind[seat] = owed


def _make_up(plan, state):
    """MB2: blinds skipped because players left are made up; one blind per player per hand,
    biggest first, the rest carried. Nobody who came to his seat since the last deal makes
    up anything (C1, C6). A player due a made-up small blind who is not dealt in misses it."""
    bb = plan.bb
    last_dealt = state.seats_where(state.dealt)
    stay = (state.seats_with(ACTIVE) & plan.dealt) - state.seats_where(state.left)
    due_bb = set()
    due_sb = set()
    plan.misses_made_up_sb = set()
    if state.seats_where(state.left) and len(last_dealt) >= 3:
        # Due the BB: the first player after the last BB who was dealt into the last hand
        # (a mover too) and is still active, never the last BB himself, unless this hand's
        # BB is on a seat from the last BB up to his.
        played = {seat for seat in state.seats_with(ACTIVE) & plan.dealt
                  if seat != state.bb and state.played_last_hand(seat)}
        seat = state.next_seat(state.bb, played)
        if seat and bb not in state.seats_after(state.bb, seat) | {state.bb}:
            due_bb = {seat}
        due_sb = state.seats_where(state.paid_bb)  # who paid the BB last hand
        plan.misses_made_up_sb = {seat for seat in due_sb if seat not in plan.dealt
                                  and state.status[seat] in (AWAY, WAITING)}
    due_sb = ((due_sb | state.seats_where(state.carries_sb)) & stay) - {plan.sb_player}
    plan.due_dead_sb = due_sb
    for seat in state.all_seats():
        if state.moved_in[seat]:
            continue
        if seat in due_bb or seat in due_sb and seat == bb:
            plan.posted_blind[seat] = BB
            plan.posted_dead_sb[seat] = 0
            plan.paid_bb.add(seat)
            if seat == plan.sb_player or seat in due_sb:
                plan.carries_sb.add(seat)  # the small blind waits for the next hand
            if seat == plan.sb_player:
                plan.sb_player = 0  # he posts a big blind instead of the small one
        elif seat in due_sb:
            plan.posted_blind[seat] = NO_BLIND
            plan.posted_dead_sb[seat] = 1  # the small blind he owes, dead


def _carried_small_blinds(plan, state):
    """F4: a returning player who posts his missed big blind carries his missed small blind
    to the next hand he is dealt in, and posts it then, live, unless a blind of his own falls
    on that hand (his position's, the button blind, an MB2 make-up): then he carries it on.
    The big blind reaching his seat clears it (M4)."""
    for seat in plan.dealt:
        if seat == plan.bb:
            continue
        if state.status[seat] == WAITING:
            if debts(plan, state, seat)[0] == BB and state.missed_sb[seat]:
                plan.carries_live_sb.add(seat)   # the big blind now, the small one next
        elif state.carries_live_sb[seat]:
            if (seat == plan.sb_player or plan.posted_blind[seat] or plan.posted_dead_sb[seat]
                    or plan.posted_button_blind[seat]):
                plan.carries_live_sb.add(seat)   # a blind of his own this hand
            else:
                plan.posted_blind[seat] = SB


def _kill(plan, state):
    """F3: the player marked for a kill, dealt in, posts the kill blind in place of every
    live blind he is due this hand, one he would carry on included (each counts as paid);
    his dead posts, and a dead small blind he carries on, stand (F5)."""
    if state.tournament:
        return
    for seat in plan.dealt:
        if state.kill[seat]:
            plan.killer = seat
            plan.killed_blind = plan.posted_blind[seat]
            plan.posted_kill[seat] = state.kill[seat]
            if plan.posted_blind[seat] == BB:
                plan.paid_bb.add(seat)
            plan.posted_blind[seat] = NO_BLIND
            plan.posted_button_blind[seat] = 0
            if seat not in plan.due_dead_sb:   # (a dead SB he is due is carried as before)
                plan.carries_sb.discard(seat)
            plan.carries_live_sb.discard(seat)


# ---- what a player owes ------------------------------------------------------------------

def owes(plan, state, seat):
    """(live, dead) chips: what the present player in `seat` would post to be dealt in at
    the next deal, beyond the blind of his position and the hand's forced bets, as that deal
    would charge it (M6a, M6c). An away player's figure is this one's at the table after
    he comes back (M6b: TableView.owes)."""
    status = state.status[seat]
    if status == EMPTY or state.tournament or not state.hands:
        return (0, 0)  # T1: nobody owes anything; S1: everybody drew for the button
    plan.work_out(state)
    if not plan.can_deal:
        owed = _so_far(state, seat)
    elif status == ACTIVE:
        owed = _active_debts(plan, state, seat)
    elif plan.new_game:
        owed = NO_DEBTS   # D5, MS2: a new game charges only its positions' blinds
    else:
        owed = debts(plan, state, seat)
    return chips(state, owed)


def _so_far(state, seat):
    """What a present player owes while no hand can be dealt (M6c): an active player the
    small blind he carries, a new player one big blind unless S2 would still deal him in
    free, anybody else his markers and a mover's big blind."""
    if state.status[seat] == ACTIVE:
        return (SB if state.carries_live_sb[seat] else NO_BLIND, state.carries_sb[seat], 0, 0)
    if state.new[seat]:
        return NO_DEBTS if plays_free(state, seat) else (BB, 0, 0, 0)
    return marker_debts(state, seat)


def _active_debts(plan, state, seat):
    """What an active player dealt in at the next hand posts beyond his position's blind,
    the kill aside: MB2's make-ups, an F4 small blind carried from the last hand."""
    if seat not in plan.dealt:
        return NO_DEBTS
    blind = plan.killed_blind if seat == plan.killer else plan.posted_blind[seat]
    if seat == plan.bb or seat == plan.sb_player:
        blind = NO_BLIND
    return (blind, plan.posted_dead_sb[seat], 0, 0)


def chips(state, owed):
    """Debts in chips at the level in force: (live, dead)."""
    blind, dead_sb, dead_ante, dead_button_blind = owed
    level = state.level
    return (blind_chips(blind, level),
            dead_sb * level[0] + dead_ante * level[2] + dead_button_blind * state.button_blind)


def plays_free(state, seat):
    """S2 so far: a new player in the first orbit whose seat no blind has passed yet."""
    return state.hands > 0 and state.travel < state.seats and not state.passed[seat]
