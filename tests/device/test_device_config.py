"""The shipped firmware/config.json is the default configuration, and its pins agree with
the hardware pin map."""

import json

from dealerbutton.store import config
from micropython_unix import ROOT


def test_config_json_is_valid_and_equals_the_defaults():
    text = (ROOT / "firmware" / "config.json").read_text()
    cfg, errors = config.load_text(text)
    assert errors == []
    assert json.loads(text) == config.defaults()
    # The documented order; "tournament" is optional (none: a cash game).
    assert list(json.loads(text)) == [f for f in config.FIELDS if f != "tournament"]


def test_config_json_pins_agree_with_the_hardware_pin_map():
    pins = json.loads((ROOT / "firmware" / "config.json").read_text())["pins"]
    assert pins == {"led": 16, "next": 15, "seats": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]}
    pin_map = ROOT / "hardware" / "pins.json"
    if pin_map.exists():
        hw = json.loads(pin_map.read_text())
        assert hw["led"] == pins["led"] and hw["next"] == pins["next"], hw
        assert hw["seats"] == pins["seats"], hw


def test_config_command_output_matches_config_json():
    cfg = config.defaults()
    assert json.loads(config.to_json(cfg)) == json.loads(
        (ROOT / "firmware" / "config.json").read_text())
