"""Seat changes (RULES.md C1-C6): a player moving to another seat, a new player taking over
a seat just left. The Table (table.py) checks the event; these change its state."""

from dealerbutton.rules.words import ACTIVE, WAITING


def move_player(state, a, b):
    """C1-C5: the player in seat a moves to the empty seat b, taking what is his; seat a is
    left as by a leave. Returns the deals of the mover's wait it adds (C3)."""
    wait = mover_wait(state, a, b)
    played = state.played_last_hand(a)
    player = state.player_facts(a)
    if state.dealt[a]:
        state.left[a] = 1
    # (no take-over of a seat a move emptied)
    state.left_active[a] = state.left_earlier[a] = state.leaver_dealt[a] = 0
    state.clear_player(a)
    state.put_player(b, player)
    # A blind he carried is dropped, and he makes up nothing (C1, C3, F5); MB2 still counts
    # him among the players dealt into the last hand.
    state.carries_sb[b] = state.carries_live_sb[b] = state.paid_bb[b] = 0
    state.moved_in[b] = 1
    state.moved_dealt[b] = played
    if state.tournament:
        state.new[b] = 1   # C5: dealt in as T2 says for seat b
    elif wait:
        state.mover_wait[b] += wait
        if state.status[b] == ACTIVE:
            state.status[b] = WAITING
            state.waits_for_bb[b] = 1
    return wait


def mover_wait(state, a, b):
    """C2, C3: the deals a player moving from a to b is not dealt in; 0 before the first
    hand, in the first orbit onto a seat no blind has passed yet, towards the big blind,
    for a new or owing player (C4) and at a tournament table (C5)."""
    if not state.hands or state.tournament or state.new[a] or state.has_markers(a):
        return 0
    if state.status[a] == WAITING and not state.mover_wait[a]:
        return 0
    if state.travel < state.seats and not state.passed[b]:
        return 0   # C2: the first orbit, and no blind has passed seat b yet
    return max(0, hands_before_big_blind(state, b, a) - hands_before_big_blind(state, a, a))


def hands_before_big_blind(state, seat, mover):
    """C3's k(seat): 1 + the players, active or waiting, in the seats strictly after the
    last hand's big blind and before `seat`, clockwise, the mover not counted (every other
    one when `seat` is the last big blind's)."""
    n = state.seats
    k = 1
    s = state.bb
    for _ in range(n - 1):
        s = s % n + 1
        if s == seat:
            break
        if s != mover and state.status[s] in (ACTIVE, WAITING):
            k += 1
    return k


def leave_seat(state, seat):
    """The player in `seat` busts or leaves, taking his debts with him (M5). What a take-over
    of the seat would need is kept while it may come (C6): whether the seat had been left
    already, and whether he had been dealt into the last hand."""
    left_active = state.hands > 0 and state.status[seat] == ACTIVE
    state.left_active[seat] = left_active
    state.left_earlier[seat] = left_active and state.left[seat]
    state.leaver_dealt[seat] = left_active and state.played_last_hand(seat)
    if state.dealt[seat]:
        state.left[seat] = 1
    state.clear_player(seat)


def take_over(state, seat):
    """C6: a new player takes over the seat its active player left since the last deal:
    play goes on as if that player had never left (the seat is left only if it was before
    him); he posts only his position's blinds and makes up nothing."""
    state.status[seat] = ACTIVE
    state.left[seat] = state.left_earlier[seat]
    state.moved_in[seat] = 1
    state.moved_dealt[seat] = state.leaver_dealt[seat]
    state.left_active[seat] = state.left_earlier[seat] = state.leaver_dealt[seat] = 0
