"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

import gc
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


def collect():
    """Run the collector from here, so that it finds the firmware's modules through this
    package and its packages rather than all at once.

    MicroPython's collector marks from a stack of 64 entries, and starts with the current
    globals (while this runs, this package's), then sys.modules. It pushes every unmarked
    object a block points to: from sys.modules' table, every loaded module at once. With
    too many there, the stack overflows, and the collector goes over the whole heap a
    second time. Reached from here first, the modules are marked a package at a time, and
    sys.modules' table finds them marked."""
    gc.collect()
