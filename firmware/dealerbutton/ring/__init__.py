"""The LED ring: the seats' statuses and roles in, one frame out; Ring (renderer.py) is what
the app talks to, and these are the names its users take from the ring.

The renderer draws with the palette (palette.py: a colour for each role, config.json's
"palette" over the default one) on the canvas (canvas.py: the LEDs' layout and painting),
each seat as seatlook.py says, the steady picture drawn once per change (steady.py) and
what moves over it (overlays.py); its long loops are viper code in fastloops.py where
MicroPython has it, the same loops in plainloops.py elsewhere."""

from dealerbutton.ring.overlays import (  # noqa: F401  (the ring's names, for its users)
    CLOCK_BREAK,
    CLOCK_COMING,
    CLOCK_NEW,
    CLOCK_NONE,
)
from dealerbutton.ring.palette import (  # noqa: F401
    DEFAULT_PALETTE,
    ROLE_ACTIVE,
    ROLE_AWAY,
    ROLE_BB,
    ROLE_BUTTON,
    ROLE_DRAW,
    ROLE_ERROR,
    ROLE_FIRST,
    ROLE_KILL,
    ROLE_OK,
    ROLE_REFUSED,
    ROLE_SB,
    ROLE_WAIT_BB,
    ROLE_WAIT_POST,
    ROLES,
    is_colour,
    palette_bytes,
)
from dealerbutton.ring.renderer import DRAW, ERROR, NORMAL, WAITING, Ring, estimate_ma  # noqa: F401
from dealerbutton.ring.seatlook import (  # noqa: F401
    ACTIVE,
    AWAY,
    EMPTY,
    MOVING,
    RESERVED,
    WAIT_BB,
    WAIT_POST,
)
