"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

VERSION = "0.1.0"


def transient(name):
    """dealerbutton.<name>, imported for the caller alone and not kept: it is left out of
    sys.modules and of this package's attributes, so its code and data go with the next
    garbage collection once the caller drops it. For code the board runs rarely (at boot,
    for one command, to word an error): it takes RAM only while it runs. CPython (the host)
    keeps it: RAM is no concern there, and importing it anew for every call is slow."""
    import sys
    full = "dealerbutton." + name
    try:
        return __import__(full, None, None, (name,))
    finally:
        if sys.implementation.name == "micropython":
            sys.modules.pop(full, None)
            globals().pop(name, None)


def text(n, *args):
    """Message n of texts.py with its blanks filled in from args: the wording of refusals and
    errors, which takes RAM only while one is being written (texts.py is transient). The
    callers quote the message in a comment."""
    return transient("texts").TEXTS[n] % args
