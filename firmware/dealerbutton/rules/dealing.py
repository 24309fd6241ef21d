"""The deal: the next hand as worked out (nexthand.py, charges.py) becomes the table's last
hand, and every player's status, markers and waits follow from it."""

from dealerbutton.rules.state import POST_FACTS
from dealerbutton.rules.words import ACTIVE, AWAY, WAITING


def deal_into(plan, state, draw=None):
    """Commit the next hand (plan, a nexthand.NextHand) to the state: the hand is dealt."""
    plan.work_out(state, draw)
    dealt = plan.dealt
    if state.tournament:
        # T1: away is only shown; T2: a newcomer held out waits; nobody owes anything.
        for seat in state.all_seats():
            status = state.status[seat]
            if status and status != AWAY:
                state.status[seat] = ACTIVE if seat in dealt else WAITING
            for fact in (state.waits_for_bb, state.new, state.missed_bb, state.missed_sb,
                         state.missed_ante, state.missed_button_blind):
                fact[seat] = 0
    else:
        _mark_missed(plan, state)
        # Those dealt in are active: their debts are paid or cleared (M3, M4, DB1, D5, C3).
        for seat in dealt:
            state.status[seat] = ACTIVE
            state.waits_for_bb[seat] = state.new[seat] = state.mover_wait[seat] = 0
        _count_mover_waits(state, dealt)
    state.hands += 1
    state.button = plan.button
    state.sb_seat = plan.sb_seat
    state.sb_player = plan.sb_player
    state.bb = plan.bb
    state.hand_level = state.level
    state.travel = plan.travel
    for seat in state.all_seats():
        state.paid_bb[seat] = seat in plan.paid_bb
        state.carries_sb[seat] = seat in plan.carries_sb
        if seat in dealt:
            state.carries_live_sb[seat] = seat in plan.carries_live_sb
        state.kill[seat] = 0   # F3: the deal spends the kill, dealt in or not
        state.moved_in[seat] = 0
        state.dealt[seat] = seat in dealt
        state.passed[seat] = seat in plan.passed
        state.left[seat] = state.left_active[seat] = 0
        state.left_earlier[seat] = state.leaver_dealt[seat] = state.moved_dealt[seat] = 0
        for name in POST_FACTS:
            getattr(state, name)[seat] = getattr(plan, name)[seat]
    plan.ready = False


def _mark_missed(plan, state):
    """M1: a seated player not dealt in (not a new one, M3a, nor a mover waiting out his
    wait, C3) misses the BB when it passes his seat and the SB when its position passes or
    lands on it (heads-up it is the button's seat, which is dealt in); F1, F2: the dealer
    ante and the button blind when a dead button lies on his seat; MB2: a made-up small
    blind he was due. M2: a marker stays until it is paid; those dealt in have paid or
    cleared theirs."""
    sb_misses = plan.sb_passes if plan.heads_up else plan.sb_passes | {plan.sb_seat}
    small, big, ante, ante_kind = state.level
    for seat in state.all_seats():
        if seat in plan.dealt:
            state.missed_bb[seat] = state.missed_sb[seat] = 0
            state.missed_ante[seat] = state.missed_button_blind[seat] = 0
            continue
        status = state.status[seat]
        if (status != AWAY and status != WAITING or state.new[seat]
                or status == WAITING and state.mover_wait[seat]):
            continue
        if seat in plan.bb_passes:
            state.missed_bb[seat] = 1
        if seat in sb_misses or seat in plan.misses_made_up_sb:
            state.missed_sb[seat] = 1
        if seat == plan.button:   # a dead button on his seat
            if ante_kind == "button" and ante:
                state.missed_ante[seat] = 1
            if state.button_blind and not plan.heads_up:
                state.missed_button_blind[seat] = 1


def _count_mover_waits(state, dealt):
    """C3: a mover's wait counts deals, whatever he does meanwhile; once it is over, a
    waiting mover who owes nothing else is active again."""
    for seat in state.all_seats():
        if not state.mover_wait[seat] or seat in dealt:
            continue
        state.mover_wait[seat] -= 1
        if (not state.mover_wait[seat] and state.status[seat] == WAITING
                and not state.has_markers(seat) and not state.new[seat]):
            state.status[seat] = ACTIVE
            state.waits_for_bb[seat] = 0
