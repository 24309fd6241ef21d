"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

import sys

VERSION = "0.1.0"

# The modules only the start needs: config.json's checks and the restoring of the saved table.
START_MODULES = ("config", "strictjson", "startup")


def unload(names=START_MODULES):
    """Forget the package's modules `names`: once nothing else holds them, their code leaves
    the heap, and the collector has that much less to scan at every pause. A later import
    loads them again."""
    package = globals()
    for name in names:
        sys.modules.pop(__name__ + "." + name, None)
        package.pop(name, None)   # (an imported submodule is an attribute of its package)
