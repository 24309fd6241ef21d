"""The board's configuration (config.json): defaults, validation, and its JSON form.

    config.FIELDS      the fields, in the order the `config` command prints them
    config.DEFAULTS    the default configuration (config.defaults(): a fresh copy)
    config.validate(d) -> (config, errors)      config.load_text(text, name="config.json")
    config.parse(data, name) -> (object, errors): strict JSON from bytes or text
    config.message(errors, name="config.json")  config.to_json(cfg)

They are cfgcheck.py's, imported at each use and released: the board needs them at boot and
for the `config` command only, so none of it stays in RAM.
"""

from dealerbutton import transient


def __getattr__(name):
    return getattr(transient("cfgcheck"), name)
