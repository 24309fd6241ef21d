"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

import sys

VERSION = "0.1.0"


def forget(name):
    """Let the collector take back module dealerbutton.<name> once its work is done (the next
    import loads it again). Only for a large module needed at a few moments, never while the
    table plays: see where it is called for the module and its figure."""
    sys.modules.pop("dealerbutton." + name, None)
    globals().pop(name, None)
