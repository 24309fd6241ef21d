"""config.json: defaults, and every kind of bad config refused with the field named."""
import json

import two_runtimes
from dealerbutton.store import config
from device_rig import Rig


def errors_of(d):
    cfg, errors = config.validate(d)
    return errors


def fields(errors):
    return [e.split(":")[0] for e in errors]


def test_defaults_are_valid_and_match_the_pin_map():
    cfg, errors = config.validate({})
    assert errors == [], errors
    assert cfg["seats"] == 9 and cfg["leds"] == 24
    assert cfg["pins"] == {"led": 16, "next": 15,
                           "seats": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]}
    assert cfg["budget_ma"] == 400 and cfg["rules"] == "dead" and cfg["stakes"] == [10, 20]
    assert cfg["direction"] == "cw" and cfg["offset"] == 0 and cfg["palette"] == {}
    assert cfg["color_order"] == "GRB"


def test_defaults_are_a_fresh_copy():
    a = config.defaults()
    a["pins"]["seats"].append(99)
    assert len(config.defaults()["pins"]["seats"]) == 12
    assert len(config.DEFAULTS["pins"]["seats"]) == 12


def test_partial_config_takes_defaults_for_the_rest():
    cfg, errors = config.validate({"seats": 6, "rules": "moving", "stakes": [25, 50]})
    assert errors == []
    assert cfg["seats"] == 6 and cfg["rules"] == "moving" and cfg["stakes"] == [25, 50]
    assert cfg["leds"] == 24


def test_malformed_json_is_refused():
    cfg, errors = config.load_text('{"seats": 9,')
    assert len(errors) == 1
    assert errors[0].startswith("config.json: malformed JSON"), errors
    assert cfg == config.defaults()


def test_malformed_json_says_what_and_where_by_line_and_column():
    text = '{\n  "seats": 9,\n  "leds": 24,\n}\n'
    assert config.load_text(text)[1] == [
        "config.json: malformed JSON (expected a field name in quotes at line 4, column 1)"]
    for bad, why in (('{"seats": 09}', "bad number at line 1, column 11"),
                     ('{"seats" 9}', "expected ':' at line 1, column 10"),
                     ('{"rules": "de\\ad"}', "bad escape at line 1, column 15"),
                     ('[1, 2', "expected ',' or ']' at line 1, column 6"),
                     ('{"seats": 9} x', "unexpected 'x' after the end at line 1, column 14")):
        assert config.load_text(bad)[1] == ["config.json: malformed JSON (%s)" % why], bad


def test_button_blind_and_makeup_are_checked_by_name_and_reach_the_table():
    cfg, errors = config.validate({"button_blind": 20, "makeup": "one_per_hand"})
    assert errors == [] and cfg["button_blind"] == 20 and cfg["makeup"] == "one_per_hand"
    assert errors_of({"button_blind": -1}) == ["button_blind: -1 is out of range 0..1000000"]
    assert errors_of({"button_blind": True}) == [
        "button_blind: must be a whole number, not true"]
    assert errors_of({"makeup": "later"}) == [
        'makeup: must be one of together, one_per_hand, not "later"']
    assert errors_of({"button_blind": 20, "tournament": {"levels": [
        {"sb": 25, "bb": 50, "minutes": 20}]}}) == [
        "button_blind: 20: a tournament has no button blind (F2), set it to 0"]
    assert errors_of({"makeup": "one_per_hand", "tournament": {"levels": [
        {"sb": 25, "bb": 50, "minutes": 20}]}}) == [
        'makeup: "one_per_hand": a tournament makes up no missed blinds (F4: cash games only),'
        ' set it to "together"']
    assert '"stakes":[10,20],"button_blind":0,"makeup":"together",' in config.to_json(
        config.defaults())
    rig = Rig({"seats": 4, "button_blind": 20, "makeup": "one_per_hand"})
    for s in (1, 2, 3):
        rig.send("sit %d" % s)
    hand = json.loads(rig.reply("deal 1")[3:])
    assert hand["button_blind"] == 1 and hand["posts"]["1"] == [20, 0], hand
    assert rig.table.makeup == "one_per_hand"


def test_not_an_object():
    assert fields(errors_of([1, 2])) == ["config"]
    assert fields(config.load_text("42")[1]) == ["config"]


def test_wrong_types_name_the_field():
    errs = errors_of({"seats": "9", "leds": 24.0, "offset": True, "direction": 1,
                      "brightness": None, "budget_ma": [400], "rules": 3, "stakes": "10/20",
                      "palette": [], "color_order": 0})
    assert sorted(fields(errs)) == sorted(["seats", "leds", "offset", "direction", "brightness",
                                           "budget_ma", "rules", "stakes", "palette",
                                           "color_order"]), errs


def test_out_of_range():
    assert fields(errors_of({"seats": 1})) == ["seats"]
    assert fields(errors_of({"seats": 13})) == ["seats"]
    assert fields(errors_of({"leds": 1})) == ["leds"]
    assert fields(errors_of({"offset": 24})) == ["offset"]
    assert fields(errors_of({"offset": -1})) == ["offset"]
    assert fields(errors_of({"brightness": 256})) == ["brightness"]
    assert fields(errors_of({"budget_ma": 10})) == ["budget_ma"]
    assert fields(errors_of({"stakes": [20, 10]})) == ["stakes"]
    assert fields(errors_of({"stakes": [0, 10]})) == ["stakes[0]"]
    assert fields(errors_of({"pins": {"led": 30}})) == ["pins.led"]
    assert "out of range" in errors_of({"seats": 13})[0]


def test_bad_choices():
    assert fields(errors_of({"rules": "fast"})) == ["rules"]
    assert fields(errors_of({"direction": "left"})) == ["direction"]
    assert fields(errors_of({"color_order": "GRBX"})) == ["color_order"]
    assert "dead, moving, simple" in errors_of({"rules": "fast"})[0]


def test_more_seats_than_leds():
    errs = errors_of({"seats": 12, "leds": 10})
    assert fields(errs) == ["leds"], errs
    assert "12 seats" in errs[0]


def test_budget_below_the_idle_current():
    errs = errors_of({"leds": 120, "budget_ma": 100})
    assert fields(errs) == ["budget_ma"], errs


def test_pins_used_twice():
    errs = errors_of({"pins": {"led": 16, "next": 2}})
    assert fields(errs) == ["pins.seats[0]"], errs
    assert "GPIO 2" in errs[0] and "pins.next" in errs[0]
    errs = errors_of({"pins": {"seats": [2, 3, 2, 5, 6, 7, 8, 9, 10]}})
    assert fields(errs) == ["pins.seats[2]"], errs


def test_only_the_seats_in_use_need_distinct_pins():
    # seat pins past `seats` are not used: a clash there is fine
    cfg, errors = config.validate({"seats": 2, "pins": {"seats": [2, 3, 16, 16]}})
    assert errors == [], errors


def test_too_few_seat_pins():
    errs = errors_of({"seats": 10, "pins": {"seats": [2, 3, 4]}})
    assert fields(errs) == ["pins.seats"], errs
    errs = errors_of({"pins": {"seats": [2, "x", 4, 5, 6, 7, 8, 9, 10]}})
    assert fields(errs) == ["pins.seats[1]"], errs


def test_unknown_keys():
    errs = errors_of({"seat": 9, "pins": {"led": 16, "button": 3}})
    assert sorted(fields(errs)) == ["pins.button", "seat"], errs


def test_palette():
    cfg, errors = config.validate({"palette": {"button": "ffffff", "bb": "E69F00"}})
    assert errors == []
    assert cfg["palette"]["bb"] == "E69F00"
    errs = errors_of({"palette": {"dealer": "ffffff", "sb": "blue", "bb": "12345"}})
    assert fields(errs) == ["palette.bb", "palette.dealer", "palette.sb"], errs


def test_every_problem_is_reported_at_once():
    errs = errors_of({"seats": 0, "rules": "x", "brightness": 999, "extra": 1})
    assert sorted(fields(errs)) == ["brightness", "extra", "rules", "seats"], errs
    msg = config.message(errs)
    assert msg.startswith("config.json rejected (4 problems): ")
    for f in ("brightness", "extra", "rules", "seats"):
        assert f in msg


def test_bad_fields_fall_back_to_defaults_so_good_ones_stay_usable():
    cfg, errors = config.validate({"seats": 99, "pins": {"led": 22}, "leds": 60})
    assert fields(errors) == ["seats"]
    assert cfg["seats"] == 9 and cfg["pins"]["led"] == 22 and cfg["leds"] == 60


def test_to_json_fixed_order_round_trips():
    cfg, errors = config.validate({"seats": 6, "palette": {"sb": "0000ff", "bb": "ff0000"}})
    text = config.to_json(cfg)
    assert text.startswith('{"seats":6,"leds":24,"pins":{"led":16,"next":15,"seats":[2,3,')
    assert '"palette":{"bb":"ff0000","sb":"0000ff"}' in text
    assert " " not in text
    assert json.loads(text) == cfg
    cfg2, errors2 = config.load_text(text)
    assert errors2 == [] and cfg2 == cfg


if __name__ == "__main__":
    two_runtimes.run_all(globals())
