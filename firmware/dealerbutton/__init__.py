"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

import sys

VERSION = "0.1.0"

# The modules only the start needs: config.json's checks and the restoring of the saved table.
START_MODULES = ("store.config", "store.strictjson", "store.startup")


def unload(names=START_MODULES):
    """Forget the package's modules `names` ("store.config"): once nothing else holds them,
    their code leaves the heap, and the collector has that much less to scan at every pause.
    A later import loads them again."""
    for name in names:
        parent, _, leaf = (__name__ + "." + name).rpartition(".")
        sys.modules.pop(parent + "." + leaf, None)
        package = sys.modules.get(parent)
        if hasattr(package, leaf):
            delattr(package, leaf)   # (an imported submodule is an attribute of its package)
