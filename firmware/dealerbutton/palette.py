"""The ring's palette: role names, default colours, overrides from config.json (behind
ring.ROLES, ring.DEFAULT_PALETTE, ring.palette_errors and Ring.set_palette, which turns it
into the ring's R, G, B bytes per role once, when the ring is made).
"""

ROLES = ("button", "sb", "bb", "first", "active", "away", "wait_bb", "wait_post",
         "ok", "refused", "draw", "error")
# Okabe-Ito hues (safe for the common colour-blindnesses) plus white; no meaning
# rests on hue alone: brightness and animation differ too (see the README).
DEFAULT_PALETTE = ("FFFFFF", "56B4E9", "E69F00", "009E73", "FFFFFF", "0072B2", "CC79A7",
                   "F0E442", "FFFFFF", "D55E00", "009E73", "D55E00")


def is_colour(v):
    """A colour "RRGGBB" in hex."""
    if not isinstance(v, str) or len(v) != 6:
        return False
    for c in v:
        if c not in "0123456789abcdefABCDEF":
            return False
    return True


def errors(palette):
    """Problems with a palette override (dict role -> "RRGGBB"), as "palette.role: problem"
    strings in a fixed order; empty when it is fine."""
    if palette is None:
        return []
    if not isinstance(palette, dict):
        return ["palette: must be an object of role -> \"RRGGBB\""]
    problems = []
    for role in sorted(palette):
        value = palette[role]
        if role not in ROLES:
            problems.append("palette.%s: unknown role (known: %s)" % (role, ", ".join(ROLES)))
        elif not is_colour(value):
            problems.append("palette.%s: %r is not a colour \"RRGGBB\"" % (role, value))
    return problems


def rgb(palette):
    """The default palette overridden per role by palette (dict role -> "RRGGBB"), as
    R, G, B bytes per role in the order of ROLES; a bad palette raises ValueError."""
    problems = errors(palette)
    if problems:
        raise ValueError("; ".join(problems))
    out = bytearray(3 * len(ROLES))
    for i in range(len(ROLES)):
        value = DEFAULT_PALETTE[i]
        if palette and ROLES[i] in palette:
            value = palette[ROLES[i]]
        c = int(value, 16)
        out[3 * i] = c >> 16
        out[3 * i + 1] = (c >> 8) & 0xFF
        out[3 * i + 2] = c & 0xFF
    return out
