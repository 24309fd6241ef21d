"""The board's configuration (config.json): defaults, validation, and its JSON form.

The defaults, the checks and the JSON writer are in cfgcheck.py, which is imported for each
call and released: the board needs them at boot and for the `config` command only.
"""

from dealerbutton import transient

# The fields of config.json, in the order the `config` command prints them.
FIELDS = ("seats", "leds", "pins", "offset", "direction", "brightness", "budget_ma",
          "rules", "stakes", "palette", "color_order")


def defaults():
    """A fresh copy of the default configuration (pins as in hardware/pins.json)."""
    return transient("cfgcheck").defaults()


def __getattr__(name):
    """config.DEFAULTS: the default configuration (a fresh copy, made when asked for)."""
    if name == "DEFAULTS":
        return defaults()
    raise AttributeError(name)


def validate(d):
    """Check a parsed config.json. Returns (config, errors): config is complete (missing
    fields take their defaults, and so does every field found bad, so that the caller can
    still use the good ones, e.g. the LED pin to show the error), errors lists every
    problem as "field: problem"; the config is usable only when errors is empty."""
    return transient("cfgcheck").validate(d)


def load_text(text, name="config.json"):
    """Parse and validate the text of a config.json: (config, errors)."""
    return transient("cfgcheck").load_text(text, name)


def message(errors, name="config.json"):
    """Every problem in one line, for the serial console."""
    return "%s rejected (%d problem%s): %s" % (
        name, len(errors), "" if len(errors) == 1 else "s", "; ".join(errors))


def to_json(cfg):
    """The configuration as compact JSON with the keys in a fixed order."""
    return transient("cfgcheck").to_json(cfg)
