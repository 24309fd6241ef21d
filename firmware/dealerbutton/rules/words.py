"""The table's words and limits, defined once: seat statuses, rule sets, ante kinds, ways of
making up missed blinds, the missed-blind markers, the floor's seat marks, and the largest
table and stake.

The rules core, config.json's checks, the protocol and the host tools all import them from
here."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A seat's status: its index in STATUSES (the rules core keeps one per seat).
EMPTY = const(0)
ACTIVE = const(1)     # dealt in every hand
AWAY = const(2)       # sitting out
WAITING = const(3)    # seated, not dealt in yet: new, back from away owing blinds, or moved
STATUSES = ("empty", "active", "away", "waiting")

RULE_SETS = ("dead", "moving", "simple")   # RULES.md: DB, MB, SM
# Who posts the ante (T4, F1): every player dealt in, the big blind for the table, or the
# player on the button for the table (the dealer ante).
ANTE_KINDS = ("each", "bb", "button")
# How a returning player makes up two missed blinds (M3, F4): both at once, or one a hand.
MAKEUPS = ("together", "one_per_hand")
# The markers a player can hold for blinds he missed (M2, F1, F2), in the order they are
# listed wherever they are shown.
MARKERS = ("bb", "sb", "ante", "button_blind")

# The floor's marks on a seat while it moves a player between tables (`reserve N`, `release
# N`), by their number: 1 an empty seat kept for a player moving in, 2 a seated player about
# to move out; 0 is none, and its word the event of a mark that goes (`* seat 4 released`).
# The app keeps them, not the rules.
MARKS = ("released", "reserved", "moving")

MIN_SEATS = const(2)
MAX_SEATS = const(12)
MAX_CHIPS = const(1000000)   # the largest blind, ante or button blind anywhere
