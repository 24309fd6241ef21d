"""A dealt hand as the table shows it: positions, who is dealt in, who posts what, in chips."""

from dealerbutton.rules.state import blind_chips, kill_chips


class Hand:
    """One dealt hand: its number, the button seat, the small blind player (None: no small
    blind) and the big blind, the seats dealt in (clockwise from the seat after the
    button), the posts {seat: (live, dead)} in chips (antes included), who acts first, the
    level it was dealt at (small blind, big blind, ante, ante kind), and the seats that
    posted a kill blind and the button blind (None: nobody)."""

    def __init__(self, n, button, sb, bb, dealt, posts, first_to_act, level, kill=None,
                 button_blind=None):
        self.n = n
        self.button = button
        self.sb = sb
        self.bb = bb
        self.dealt = dealt
        self.posts = posts
        self.first_to_act = first_to_act
        self.level = level
        self.kill = kill
        self.button_blind = button_blind

    def __repr__(self):
        return "Hand(n=%d, button=%d, sb=%s, bb=%d, dealt=%r, first_to_act=%d)" % (
            self.n, self.button, self.sb, self.bb, self.dealt, self.first_to_act)


def last_hand(state):
    """The last hand the table dealt, from its state (after the first deal)."""
    n = state.seats
    dealt = []
    seat = state.button
    for _ in range(n):
        seat = seat % n + 1
        if state.dealt[seat]:
            dealt.append(seat)
    level = state.hand_level
    small, big, ante, ante_kind = level
    posts = {}
    killer = None
    button_blind = None
    for seat in dealt:
        if state.posted_kill[seat]:
            killer = seat
            live = kill_chips(state.posted_kill[seat], level)
        else:
            live = blind_chips(state.posted_blind[seat], level)
        if state.posted_button_blind[seat]:
            button_blind = seat
            live += state.button_blind
        dead = (state.posted_dead_sb[seat] * small + state.posted_dead_ante[seat] * ante
                + state.posted_dead_button_blind[seat] * state.button_blind)
        # T5, F1: antes are dead money, added to the dead part of the post.
        if (ante_kind == "each" or ante_kind == "bb" and seat == state.bb
                or ante_kind == "button" and seat == state.button):
            dead += ante
        if live or dead:
            posts[seat] = (live, dead)
    return Hand(state.hands, state.button, state.sb_player or None, state.bb, tuple(dealt),
                posts, _first_to_act(state, dealt, killer), level, killer, button_blind)


def _first_to_act(state, dealt, killer):
    """Heads-up the button (H1), else the first player dealt in after the big blind; a
    killer acts last (F3): heads-up the other player, else the next one after him."""
    if len(dealt) == 2:
        if killer == state.button:
            return dealt[0] if dealt[1] == killer else dealt[1]
        return state.button
    i = dealt.index(state.bb)
    for k in range(1, len(dealt)):
        seat = dealt[(i + k) % len(dealt)]
        if seat != killer:
            return seat
    return 0
