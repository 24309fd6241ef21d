"""The board's configuration (config.json): its fields, defaults, checks, messages and JSON
form.

    config.FIELDS      the fields, in the order the `config` command prints them
    config.DEFAULTS    the default configuration (config.defaults(): a fresh copy)
    config.validate(d) -> (config, errors)      config.load_text(text, name="config.json")
    config.parse(data, name) -> (object, errors): strict JSON from bytes or text
    config.message(errors, name="config.json")  config.to_json(cfg)
    config.check_tournament(block) -> (tournament, errors)
    config.check_network(block) -> errors

The optional "tournament" block (a schedule of levels and breaks, checked by
check_tournament, run by clock/schedule.py) makes the table a tournament table; without it (no
"tournament" key in the config) it is a cash game. The optional "network" block (a Pico W on
an MQTT broker, checked by check_network, used by net.py) puts the table on the broker.

Every check of config.json lives here, so that the rest of the firmware takes a config it
can trust: board.load_config reads the file at power-up, and the `config` command prints the
config in force (to_json).
"""

import json

from dealerbutton.ring import ROLES, is_colour
from dealerbutton.rules.words import ANTE_KINDS, MAKEUPS, MAX_CHIPS, RULE_SETS
from dealerbutton.store.strictjson import json_error
from dealerbutton.values import is_int, show

DIRECTIONS = ("cw", "ccw")
# Colour orders a WS2812-type strip may use (the order its bytes go down the wire).
ORDERS = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")
MAX_GPIO = 29        # rp2040: GP0..GP29
MAX_LEDS = 300
MAX_BUDGET_MA = 5000
MIN_BUDGET_MA = 50

# The fields of config.json, in the order the `config` command prints them.
FIELDS = ("seats", "leds", "pins", "offset", "direction", "brightness", "budget_ma",
          "rules", "stakes", "button_blind", "makeup", "palette", "color_order", "tournament")
PIN_FIELDS = ("led", "next", "seats")


def defaults():
    """A fresh copy of the default configuration (pins as in hardware/pins.json)."""
    return {
        "seats": 9,
        "leds": 24,
        "pins": {"led": 16, "next": 15, "seats": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]},
        "offset": 0,
        "direction": "cw",
        "brightness": 128,
        "budget_ma": 400,
        "rules": "dead",
        "stakes": [10, 20],
        "button_blind": 0,
        "makeup": "together",
        "palette": {},
        "color_order": "GRB",
    }


DEFAULTS = defaults()


def _int_in(errors, name, v, lo, hi):
    if not is_int(v):
        errors.append("%s: must be a whole number, not %s" % (name, show(v)))
        return False
    if v < lo or v > hi:
        errors.append("%s: %d is out of range %d..%d" % (name, v, lo, hi))
        return False
    return True


def _one_of(errors, name, v, allowed):
    if v in allowed and isinstance(v, str):
        return True
    errors.append("%s: must be one of %s, not %s" % (name, ", ".join(allowed), show(v)))
    return False


def _names(errors, where, v):
    """The keys of object v, sorted; a key that is not a string (MicroPython's JSON reader
    lets {5: 1} through) is reported instead of breaking the sort."""
    names = []
    for k in v:
        if isinstance(k, str):
            names.append(k)
        else:
            errors.append("%s: field names must be strings, not %s" % (where, show(k)))
    names.sort()
    return names


def _unknown_fields(errors, where, names, known):
    """An error for each of names not in known; True when there was one."""
    found = False
    for k in names:
        if k not in known:
            errors.append("%s.%s: unknown field (known: %s)" % (where, k, ", ".join(known)))
            found = True
    return found


def validate(d):
    """Check a parsed config.json. Returns (config, errors): config is complete (missing
    fields take their defaults, and so does every field found bad, so that the caller can
    still use the good ones, e.g. the LED pin to show the error), errors lists every
    problem as "field: problem"; the config is usable only when errors is empty."""
    cfg = defaults()
    errors = []
    if not isinstance(d, dict):
        errors.append("config: must be a JSON object {...}, not %s" % show(d))
        return cfg, errors
    for key in _names(errors, "config", d):
        if key not in FIELDS and key != "network":
            errors.append("%s: unknown field (known: %s)"
                          % (key, ", ".join(FIELDS + ("network",))))
    if "network" in d:
        _check_network(errors, d["network"], cfg)

    def take(name, ok):
        if name in d and ok:
            cfg[name] = d[name]

    take("seats", "seats" in d and _int_in(errors, "seats", d["seats"], 2, 12))
    take("leds", "leds" in d and _int_in(errors, "leds", d["leds"], 2, MAX_LEDS))
    if cfg["leds"] < cfg["seats"]:
        errors.append("leds: %d LEDs for %d seats: the ring needs at least one LED per seat"
                      % (cfg["leds"], cfg["seats"]))
    take("offset", "offset" in d and _int_in(errors, "offset", d["offset"], 0, cfg["leds"] - 1))
    if "direction" in d:
        take("direction", _one_of(errors, "direction", d["direction"], DIRECTIONS))
    take("brightness", "brightness" in d
         and _int_in(errors, "brightness", d["brightness"], 1, 255))
    take("budget_ma", "budget_ma" in d
         and _int_in(errors, "budget_ma", d["budget_ma"], MIN_BUDGET_MA, MAX_BUDGET_MA))
    if cfg["budget_ma"] <= cfg["leds"]:
        errors.append("budget_ma: %d mA is not even the idle current of %d LEDs (1 mA each)"
                      % (cfg["budget_ma"], cfg["leds"]))
    if "rules" in d:
        take("rules", _one_of(errors, "rules", d["rules"], RULE_SETS))
    if "color_order" in d:
        take("color_order", _one_of(errors, "color_order", d["color_order"], ORDERS))
    if "stakes" in d:
        take("stakes", _check_stakes(errors, d["stakes"]))
    _check_forced_bets(errors, d, cfg)
    if "palette" in d:
        take("palette", _check_palette(errors, d["palette"]))
    if "pins" in d:
        pins = _check_pins(errors, d["pins"], cfg["seats"])
        if pins is not None:
            cfg["pins"] = pins
    elif "seats" in d:
        _check_seat_pins(errors, cfg["pins"], cfg["seats"])
    if "tournament" in d:
        tournament, problems = check_tournament(d["tournament"])
        errors.extend(problems)
        if tournament is not None:
            cfg["tournament"] = tournament
    return cfg, errors


def _check_forced_bets(errors, d, cfg):
    """config.json's button_blind (F2) and makeup (F4) into cfg: both for cash games only."""
    if "button_blind" in d and _int_in(errors, "button_blind", d["button_blind"], 0,
                                       MAX_CHIPS):
        cfg["button_blind"] = d["button_blind"]
    if cfg["button_blind"] and "tournament" in d:
        errors.append("button_blind: %d: a tournament has no button blind (F2), set it to 0"
                      % cfg["button_blind"])
    if "makeup" in d and _one_of(errors, "makeup", d["makeup"], MAKEUPS):
        cfg["makeup"] = d["makeup"]
    if cfg["makeup"] != "together" and "tournament" in d:
        errors.append('makeup: "%s": a tournament makes up no missed blinds (F4: cash games'
                      ' only), set it to "together"' % cfg["makeup"])


# -- the "tournament" block ---------------------------------------------------------------------

TOURNAMENT_ENTRIES = 100    # levels and breaks in a schedule
LEVEL_FIELDS = ("ante", "bb", "minutes", "sb")


def check_tournament(block):
    """Check config.json's "tournament" block (a schedule of levels and breaks, run by
    clock/schedule.py). Returns (tournament, errors): errors lists every problem as
    "tournament.levels[2].bb: ..."; tournament is the block with its defaults filled in
    (ante_kind "each", ante 0), or None when errors is not empty."""
    errors = []
    if not isinstance(block, dict):
        errors.append('tournament: must be an object {"ante_kind": .., "levels": [..]}, not '
                      + show(block))
        return None, errors
    _unknown_fields(errors, "tournament", _names(errors, "tournament", block),
                    ("ante_kind", "levels"))
    kind = block.get("ante_kind", "each")
    _one_of(errors, "tournament.ante_kind", kind, ANTE_KINDS)
    schedule = block.get("levels")
    levels = []
    if not isinstance(schedule, list) or not 0 < len(schedule) <= TOURNAMENT_ENTRIES:
        errors.append("tournament.levels: must be a list of 1 to %d levels and breaks, not %s"
                      % (TOURNAMENT_ENTRIES, "%d of them" % len(schedule)
                         if isinstance(schedule, list) else show(schedule)))
    else:
        for i in range(len(schedule)):
            levels.append(_check_entry(errors, "tournament.levels[%d]" % i, schedule[i]))
        for i, end in ((0, "starts"), (len(levels) - 1, "ends")):
            if levels[i] is not None and "break" in levels[i]:
                errors.append("tournament.levels[%d]: the schedule %s with a level, not a "
                              "break" % (i, end))
    if errors:
        return None, errors
    return {"ante_kind": kind, "levels": levels}, errors


def _check_entry(errors, where, e):
    from dealerbutton.clock.schedule import MAX_MINUTES  # the clock's own limit (`clock set`)
    if not isinstance(e, dict):
        errors.append('%s: must be a level {"sb", "bb", "ante", "minutes"} or a break '
                      '{"break"}, not %s' % (where, show(e)))
        return None
    n = len(errors)
    if "break" in e:
        known = ("break",)
        checks = (("break", 1, MAX_MINUTES),)
        out = {}
    else:
        known = LEVEL_FIELDS
        checks = (("sb", 1, MAX_CHIPS), ("bb", 1, MAX_CHIPS), ("ante", 0, MAX_CHIPS),
                  ("minutes", 1, MAX_MINUTES))
        out = {"ante": 0}
    _unknown_fields(errors, where, _names(errors, where, e), known)
    for k, lo, hi in checks:
        if k in e:
            if _int_in(errors, where + "." + k, e[k], lo, hi):
                out[k] = e[k]
        elif k != "ante":
            errors.append("%s.%s: missing" % (where, k))
    if out.get("sb", 0) > out.get("bb", MAX_CHIPS):
        errors.append("%s: the small blind %d is bigger than the big blind %d"
                      % (where, out["sb"], out["bb"]))
    return out if len(errors) == n else None


def _check_network(errors, v, cfg):
    """config.json's optional "network" block (a Pico W on an MQTT broker), run by net.py,
    which is on the board only when deploy saw the block. Never printed by the `config`
    command (it holds passwords)."""
    if not _in_package("net"):
        errors.append("network: this board's firmware has no net module: deploy again "
                      "with this config.json")
        return
    problems = check_network(v)
    errors.extend(problems)
    if not problems:
        cfg["network"] = v


def _in_package(name):
    """Whether the dealerbutton package has module `name` (.mpy or .py) in its own folder,
    without loading it: a Pico without Wi-Fi never loads net.py."""
    import os

    import dealerbutton
    folder = dealerbutton.__file__.rsplit("/", 1)[0]
    for ext in (".mpy", ".py"):
        try:
            os.stat(folder + "/" + name + ext)
            return True
        except OSError:
            pass
    return False


NETWORK_FIELDS = ("ssid", "wifi_password", "broker", "port", "tls", "user", "password", "room",
                  "table")


def check_network(d):
    """The problems of config.json's "network" block, as "network.field: problem" lines
    (an empty list: usable). None or no block: no network."""
    errors = []
    if d is None:
        return errors
    if not isinstance(d, dict):
        return ["network: must be an object"]
    for key in ("ssid", "broker", "room", "table"):
        v = d.get(key)
        if not isinstance(v, str) or not v:
            errors.append("network.%s: required, a text" % key)
    for key in ("room", "table"):
        v = d.get(key)
        if isinstance(v, str) and v and not _topic_name(v):
            errors.append("network.%s: 1 to 40 letters, digits, '_', '.' or '-'" % key)
    for key in ("wifi_password", "user", "password"):
        v = d.get(key)
        if v is not None and not isinstance(v, str):
            errors.append("network.%s: a text" % key)
    port = d.get("port", 0)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        errors.append("network.port: a number 0..65535 (0: 1883, or 8883 with tls)")
    if not isinstance(d.get("tls", False), bool):
        errors.append("network.tls: true or false")
    for key in sorted(d):
        if key not in NETWORK_FIELDS:
            errors.append("network.%s: unknown field" % key)
    return errors


def _topic_name(s):
    """A room or table name, part of the MQTT topics: 1 to 40 of [A-Za-z0-9_.-]."""
    if len(s) > 40:
        return False
    for ch in s:
        if not (ch.isalpha() or ch.isdigit() or ch in "_.-") or ord(ch) > 126:
            return False
    return True


def _check_stakes(errors, v):
    if not isinstance(v, list) or len(v) != 2:
        errors.append("stakes: must be [small blind, big blind], e.g. [10, 20], not %s" % show(v))
        return False
    ok = _int_in(errors, "stakes[0]", v[0], 1, 1000000)
    ok = _int_in(errors, "stakes[1]", v[1], 1, 1000000) and ok
    if ok and v[0] > v[1]:
        errors.append("stakes: the small blind %d is bigger than the big blind %d" % (v[0], v[1]))
        ok = False
    return ok


def _check_palette(errors, v):
    if not isinstance(v, dict):
        errors.append('palette: must be an object {"role": "RRGGBB", ...}, not %s' % show(v))
        return False
    names = _names(errors, "palette", v)
    ok = len(names) == len(v)
    for role in names:
        if role not in ROLES:
            errors.append("palette.%s: unknown role (known: %s)" % (role, ", ".join(ROLES)))
            ok = False
        elif not is_colour(v[role]):
            errors.append('palette.%s: must be a colour "RRGGBB" in hex, not %s'
                          % (role, show(v[role])))
            ok = False
    return ok


def _check_pins(errors, v, seats):
    if not isinstance(v, dict):
        errors.append('pins: must be an object {"led": .., "next": .., "seats": [..]}, not %s'
                      % show(v))
        return None
    pins = defaults()["pins"]
    names = _names(errors, "pins", v)
    bad = _unknown_fields(errors, "pins", names, PIN_FIELDS) or len(names) != len(v)
    for key in ("led", "next"):
        if key in v:
            if _int_in(errors, "pins." + key, v[key], 0, MAX_GPIO):
                pins[key] = v[key]
            else:
                bad = True
    if "seats" in v:
        s = v["seats"]
        if not isinstance(s, list):
            errors.append("pins.seats: must be a list of GPIO numbers, not %s" % show(s))
            bad = True
        else:
            good = True
            for i in range(len(s)):
                if not _int_in(errors, "pins.seats[%d]" % i, s[i], 0, MAX_GPIO):
                    good = False
            if good:
                pins["seats"] = list(s)
            else:
                bad = True
    if not _check_seat_pins(errors, pins, seats):
        bad = True
    if bad:
        return None
    return pins


def _check_seat_pins(errors, pins, seats):
    """Enough seat pins, and no GPIO used twice among the pins in use."""
    ok = True
    if len(pins["seats"]) < seats:
        errors.append("pins.seats: %d pins for %d seats: one pin per seat is needed"
                      % (len(pins["seats"]), seats))
        ok = False
    used = [("pins.led", pins["led"]), ("pins.next", pins["next"])]
    for i in range(min(seats, len(pins["seats"]))):
        used.append(("pins.seats[%d]" % i, pins["seats"][i]))
    for i in range(len(used)):
        for j in range(i):
            if used[i][1] == used[j][1]:
                errors.append("%s: GPIO %d is already used by %s"
                              % (used[i][0], used[i][1], used[j][0]))
                ok = False
    return ok


def parse(data, name="config.json"):
    """(object, errors) from the bytes or text of a JSON file: not UTF-8, or not strict
    JSON, gives (None, [one message naming the file])."""
    if not isinstance(data, str):
        try:
            data = data.decode("utf-8")
        except UnicodeError:
            return None, ["%s: not UTF-8 text" % name]
    err = json_error(data)
    if err is None:
        try:
            return json.loads(data), []
        except ValueError as exc:
            err = str(exc)
    return None, ["%s: malformed JSON (%s)" % (name, err)]


def load_text(text, name="config.json"):
    """Parse and validate the text (or bytes) of a config.json: (config, errors)."""
    d, errors = parse(text, name)
    if errors:
        return defaults(), errors
    return validate(d)


def message(errors, name="config.json"):
    """Every problem in one line, for the serial console."""
    return "%s rejected (%d problem%s): %s" % (
        name, len(errors), "" if len(errors) == 1 else "s", "; ".join(errors))


def to_json(cfg):
    """The configuration as compact JSON with the keys in a fixed order."""
    parts = []
    for key in FIELDS:
        if key not in cfg:
            continue        # "tournament" in a cash game
        v = cfg[key]
        if key == "pins":
            s = '{"led":%d,"next":%d,"seats":[%s]}' % (
                v["led"], v["next"], ",".join([str(p) for p in v["seats"]]))
        elif key == "stakes":
            s = "[%d,%d]" % (v[0], v[1])
        elif key == "palette":
            s = "{%s}" % ",".join(['"%s":"%s"' % (r, v[r]) for r in sorted(v)])
        elif key == "tournament":
            s = _tournament_json(v)
        elif isinstance(v, str):
            s = '"%s"' % v
        else:
            s = str(v)
        parts.append('"%s":%s' % (key, s))
    return "{" + ",".join(parts) + "}"


def _tournament_json(t):
    levels = []
    for e in t["levels"]:
        if "break" in e:
            levels.append('{"break":%d}' % e["break"])
        else:
            levels.append('{"sb":%d,"bb":%d,"ante":%d,"minutes":%d}'
                          % (e["sb"], e["bb"], e["ante"], e["minutes"]))
    return '{"ante_kind":"%s","levels":[%s]}' % (t["ante_kind"], ",".join(levels))
