"""How a message names a value read from a JSON file (config.json, a saved clock): short,
in JSON's words, so that a person sees what was written."""


def is_int(v):
    """A whole number (JSON's true and false are not numbers here)."""
    return isinstance(v, int) and not isinstance(v, bool)


def show(v):
    """null, true, false, a string in quotes (its first 20 characters), a number, or what
    kind of thing it is ("a list", "an object")."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return '"%s"' % v if len(v) <= 20 else '"%s..."' % v[:20]
    if is_int(v):
        return str(v)
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return "a " + type(v).__name__
