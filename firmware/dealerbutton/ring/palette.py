"""The ring's palette: one colour for each role the ring shows, the default one overridden
per role by config.json's "palette"."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Okabe-Ito hues (safe for the common colour-blindnesses) plus white; no meaning rests on
# hue alone: brightness and animation differ too (see the README).
ROLES = ("button", "sb", "bb", "first", "active", "away", "wait_bb", "wait_post",
         "ok", "refused", "draw", "error", "kill", "reserved", "moving")
DEFAULT_PALETTE = ("FFFFFF", "56B4E9", "E69F00", "009E73", "FFFFFF", "0072B2", "CC79A7",
                   "F0E442", "FFFFFF", "D55E00", "009E73", "D55E00", "D55E00", "009E73",
                   "E69F00")
# Each role by name: where its R, G, B sit in the palette bytes, in the order of ROLES (a
# test checks the two agree).
ROLE_BUTTON = const(0)
ROLE_SB = const(1)
ROLE_BB = const(2)
ROLE_FIRST = const(3)
ROLE_ACTIVE = const(4)
ROLE_AWAY = const(5)
ROLE_WAIT_BB = const(6)
ROLE_WAIT_POST = const(7)
ROLE_OK = const(8)  # an accepted press
ROLE_REFUSED = const(9)  # a refused press
ROLE_DRAW = const(10)  # the chase of the draw for the button
ROLE_ERROR = const(11)  # the pattern of a refused configuration
ROLE_KILL = const(12)  # the seat of a kill (blinks: the steady vermilion is the clock's)
# The floor's marks during a move between tables: each swaps places with white every half
# second, a look no other role has (bluish green: the seat kept for a player coming; orange:
# the player about to go).
ROLE_RESERVED = const(13)
ROLE_MOVING = const(14)


def palette_bytes(palette=None, order="RGB"):
    """The palette as 3 bytes per role in the order of ROLES, each role's R, G and B placed
    as order says ("GRB": G first): the default, overridden per role by a dict of role ->
    "RRGGBB"; an unknown role or a colour that is not "RRGGBB" raises ValueError."""
    if not is_colour_order(order):
        raise ValueError("order: %r is not an order of R, G and B" % (order,))
    pal = bytearray(3 * len(ROLES))
    for i in range(len(ROLES)):
        _put_colour(pal, i, DEFAULT_PALETTE[i], order)
    if palette:
        for role in sorted(palette):
            colour = palette[role]
            if role not in ROLES:
                raise ValueError("palette.%s: unknown role" % role)
            if not is_colour(colour):
                raise ValueError('palette.%s: %r is not a colour "RRGGBB"' % (role, colour))
            _put_colour(pal, ROLES.index(role), colour, order)
    return pal


def is_colour_order(order):
    """order is "RGB", "GRB" or another order of the three letters."""
    return isinstance(order, str) and len(order) == 3 and "".join(sorted(order)) == "BGR"


def _put_colour(pal, i, colour, order):
    """Role i's bytes in pal from "RRGGBB", R, G and B where order puts them."""
    c = int(colour, 16)
    pal[3 * i + order.index("R")] = c >> 16
    pal[3 * i + order.index("G")] = (c >> 8) & 0xFF
    pal[3 * i + order.index("B")] = c & 0xFF


def is_colour(v):
    """A colour "RRGGBB" in hex."""
    if not isinstance(v, str) or len(v) != 6:
        return False
    for c in v:
        if c not in "0123456789abcdefABCDEF":
            return False
    return True
