"""Reliability campaign 4: config.json, on CPython and under `micropython` alike.

Systematic cases (malformed JSON, wrong types, out-of-range values, pins used twice, more
seats than LEDs) must each be refused with errors naming exactly the fields concerned.
Random mutations of the default config (values and text) must never crash: either
refused with every error naming a field that was touched (or one checked against it), or
accepted as written -- and then an independent check finds the config sane and the real
App runs on it within its current budget.

    micropython reliability_config_campaign.py [mutations] [seed]   prints one verdict per case, then
                                                      the counts
"""
import json

from dealerbutton import ring as ringmod
from dealerbutton.store import config
from fake_flash import FakeFlash
from reliability_campaign import Device, Rand
from two_runtimes import canonical_json

FIELDS = config.FIELDS
# A problem with the first field may be reported on the others (checked against it).
RELATED = {"seats": ("leds", "pins"), "leds": ("offset", "budget_ma")}
HEX = "0123456789abcdefABCDEF"


def root(field):
    """"pins.seats[3]" -> "pins"; "stakes[0]" -> "stakes"; "palette.bb" -> "palette"."""
    for sep in (".", "["):
        i = field.find(sep)
        if i >= 0:
            field = field[:i]
    return field


def fields(errors):
    """The field named by each error ("field: problem")."""
    out = []
    for e in errors:
        i = e.find(": ")
        out.append(e[:i] if i >= 0 else "?" + e)
    return out


def pretty(d):
    """A config.json text as people write it: one field a line, in the FIELDS order."""
    lines = []
    for k in FIELDS:
        if k in d:
            lines.append('  "%s": %s' % (k, canonical_json(d[k]).replace(",", ", ")))
    return "{\n" + ",\n".join(lines) + "\n}\n"


DEFAULT_TEXT = pretty(config.defaults())


# -- systematic cases: (name, text, the fields that must be named, exactly) -------------------

def with_(**changes):
    d = config.defaults()
    for k in changes:
        d[k] = changes[k]
    return d


def with_pins(**changes):
    d = config.defaults()
    for k in changes:
        d["pins"][k] = changes[k]
    return d


MALFORMED = [
    "", " ", "{", "}", "[", "{}}", "{{}", "[]]", "null x", "{'seats': 9}", "{seats: 9}",
    '{"seats": 9,}', '{"seats": 9 "leds": 24}', '{"seats" 9}', '{"seats": }', "{,}",
    '{"seats": 09}', '{"seats": 9.}', '{"seats": .5}', '{"seats": +9}', '{"seats": NaN}',
    '{"seats": Infinity}', '{"seats": 9, 5: 1}', '{"pins": {"led": 16, 1: 2}}',
    '{"palette": {"bb": "FFFFFF", 2: 1}}', '{"stakes": [10 20]}', '{"stakes": [10, 20,]}',
    '{"rules": "dead}', '{"rules": dead}', '{"seats": 9}}', '{"seats": 9} {"leds": 24}',
    '{"seats": 9, "leds": 24', '\x00', '{"seats": 9}\x00', "\ufeff{}",
]


# CPython's json reads NaN and Infinity as floats: refused as such.
LENIENT = {'{"seats": NaN}': ["seats"], '{"seats": Infinity}': ["seats"]}


def systematic():
    out = []
    for i in range(len(MALFORMED)):
        out.append(("malformed %d" % i, MALFORMED[i], ["config.json"]))
    n = len(DEFAULT_TEXT)
    for k in range(n):
        if DEFAULT_TEXT[:k].strip() != DEFAULT_TEXT.strip():
            out.append(("truncated at %d" % k, DEFAULT_TEXT[:k], ["config.json"]))
    wrong = [None, True, False, "9", 9.0, 1.5, [], [9], {}, {"x": 1}]
    for f in FIELDS:
        for v in wrong:
            if f == "palette" and v == {}:
                continue                      # an empty palette is the default
            if f == "pins" and v == {}:
                continue                      # no pins given: the default pins
            names = [f]
            if f in ("pins", "palette") and v == {"x": 1}:
                names = [f + ".x"]            # an unknown key inside
            elif f == "tournament" and isinstance(v, dict):
                # An object without its schedule (and maybe an unknown key).
                names = [f + ".x", f + ".levels"] if v else [f + ".levels"]
            out.append(("%s = %s" % (f, canonical_json(v)), canonical_json(with_(**{f: v})), names))
    for k, v in (("led", "16"), ("led", 16.0), ("next", None), ("next", True),
                 ("seats", "2,3"), ("seats", 2), ("seats", [2, 3, "4"]), ("seats", [2.0])):
        name = "pins." + k
        if k == "seats" and isinstance(v, list):
            name = "pins.seats[%d]" % (len(v) - 1)
        out.append(("pins.%s = %s" % (k, canonical_json(v)), canonical_json(with_pins(**{k: v})),
                    [name]))
    ranges = [("seats", (-1, 0, 1, 13, 100, 10 ** 20)), ("leds", (-1, 0, 1, 301, 10 ** 6)),
              ("offset", (-1, 24, 25, 1000)), ("brightness", (-1, 0, 256, 1000)),
              ("budget_ma", (-1, 0, 49, 5001, 10 ** 9))]
    for f, values in ranges:
        for v in values:
            out.append(("%s = %d" % (f, v), canonical_json(with_(**{f: v})), [f]))
    for stakes, name in (([0, 20], "stakes[0]"), ([10, 0], "stakes[1]"), ([-10, 20], "stakes[0]"),
                         ([10, 1000001], "stakes[1]"), ([30, 20], "stakes"), ([10], "stakes"),
                         ([10, 20, 40], "stakes"), ([10.0, 20], "stakes[0]")):
        out.append(("stakes = %s" % canonical_json(stakes), canonical_json(with_(stakes=stakes)),
                    [name]))
    for v in ("fast", "", "DEAD", 1):
        out.append(("rules = %s" % canonical_json(v), canonical_json(with_(rules=v)), ["rules"]))
    for v in ("left", "CW", 0):
        out.append(("direction = %s" % canonical_json(v), canonical_json(with_(direction=v)),
                    ["direction"]))
    for v in ("RGBW", "grb", "GGB", None):
        out.append(("color_order = %s" % canonical_json(v), canonical_json(with_(color_order=v)),
                    ["color_order"]))
    for pal, name in (({"bb": "FFF"}, "palette.bb"), ({"bb": "GGGGGG"}, "palette.bb"),
                      ({"bb": 0xFFFFFF}, "palette.bb"), ({"dealer": "FFFFFF"}, "palette.dealer"),
                      ({"bb": None}, "palette.bb")):
        out.append(("palette = %s" % canonical_json(pal), canonical_json(with_(palette=pal)), [name]))
    for v in (30, 31, -1, 100):
        out.append(("pins.led = %d" % v, canonical_json(with_pins(led=v)), ["pins.led"]))
        out.append(("pins.next = %d" % v, canonical_json(with_pins(next=v)), ["pins.next"]))
    out.append(("unknown field", '{"colour": 1}', ["colour"]))
    out.append(("unknown pin", '{"pins": {"buzzer": 3}}', ["pins.buzzer"]))
    # Pins used twice: every pair of the pins in use, for 2, 9 and 12 seats.
    for seats in (2, 9, 12):
        used = ["led", "next"] + ["seats[%d]" % i for i in range(seats)]
        for i in range(len(used)):
            for j in range(i + 1, len(used)):
                d = with_(seats=seats)
                gpio = _get_pin(d, used[i])
                _set_pin(d, used[j], gpio)
                a, b = "pins." + used[i], "pins." + used[j]
                out.append(("seats %d: %s = %s" % (seats, b, a), canonical_json(d), [b]))
    # Only the seat pins in use must differ.
    d = with_(seats=4)
    d["pins"]["seats"][10] = d["pins"]["seats"][11] = d["pins"]["seats"][0 + 3 + 1]
    out.append(("unused seat pins may repeat", canonical_json(d), []))
    d = with_(seats=6)
    d["pins"]["seats"] = d["pins"]["seats"][:5]
    out.append(("5 seat pins for 6 seats", canonical_json(d), ["pins.seats"]))
    # More seats than LEDs: every such pair.
    for seats in range(2, 13):
        for leds in range(2, seats):
            out.append(("seats %d, leds %d" % (seats, leds),
                        canonical_json(with_(seats=seats, leds=leds)), ["leds"]))
        out.append(("seats %d, leds %d" % (seats, seats),
                    canonical_json(with_(seats=seats, leds=seats)), []))
    out.append(("budget at the idle current", canonical_json(with_(leds=60, budget_ma=60)),
                ["budget_ma"]))
    out.append(("offset past a smaller ring", canonical_json(with_(leds=12, offset=12)),
                ["offset"]))
    return out


def _get_pin(d, name):
    if name.startswith("seats["):
        return d["pins"]["seats"][int(name[6:-1])]
    return d["pins"][name]


def _set_pin(d, name, v):
    if name.startswith("seats["):
        d["pins"]["seats"][int(name[6:-1])] = v
    else:
        d["pins"][name] = v


# -- random mutations --------------------------------------------------------------------------

def random_value(rand):
    kind = rand.below(9)
    if kind == 0:
        return rand.between(-5, 400)
    if kind == 1:
        return rand.pick((0, 1, 2, 12, 13, 29, 30, 50, 255, 256, 300, 301, 5000, 5001,
                          -1, 10 ** 12, -(10 ** 12)))
    if kind == 2:
        return rand.pick((1.5, 9.0, -0.0, 1e300, 0.1))
    if kind == 3:
        return rand.pick((True, False, None))
    if kind == 4:
        return rand.pick(("", "9", "dead", "moving", "simple", "cw", "ccw", "GRB", "BGR",
                          "FFFFFF", "00ff00", "x" * 40, "\u00e9"))
    if kind == 5:
        return [random_value(rand) for _ in range(rand.below(4))]
    if kind == 6:
        return rand.pick(({}, {"x": 1}, {"led": 3}, {"bb": "FF0000"}))
    if kind == 7:
        return rand.between(2, 12)
    return rand.between(0, 29)


def mutate(rand, d):
    """Apply one random change to a config dict; returns the root field touched."""
    what = rand.below(10)
    if what <= 2:
        f = rand.pick(FIELDS)
        d[f] = random_value(rand)
        return f
    if what == 3:
        f = rand.pick(FIELDS)
        if f in d:
            del d[f]
        return f
    if what == 4:
        name = rand.pick(("colour", "Seats", "seat", "led", "x", ""))
        d[name] = random_value(rand)
        return name
    pins = d.get("pins")
    if what <= 7 and isinstance(pins, dict):
        seats = pins.get("seats")
        names = [k for k in ("led", "next") if k in pins]
        if isinstance(seats, list):
            names += ["seats[%d]" % i for i in range(len(seats))]
        if not names:
            pins["led"] = random_value(rand)
            return "pins"
        a = rand.pick(names)
        b = rand.pick(names)
        if what == 5:
            _set_pin(d, a, _get_pin(d, b))               # a pin used twice (maybe)
        elif what == 6:
            _set_pin(d, a, random_value(rand) if rand.chance(30) else rand.between(0, 29))
        elif isinstance(seats, list) and seats and rand.chance(50):
            del seats[rand.below(len(seats))]
        else:
            pins[rand.pick(("led", "next", "seats", "buzzer"))] = random_value(rand)
        return "pins"
    if what == 8:
        d["seats"] = rand.between(2, 12)
        d["leds"] = rand.pick((rand.between(2, 30), 12, 16, 24, 35, 60))
        return "seats"
    st = d.get("stakes")
    if isinstance(st, list) and st and rand.chance(50):
        st[rand.below(len(st))] = random_value(rand)
        return "stakes"
    pal = d.get("palette")
    if isinstance(pal, dict):
        pal[rand.pick(ringmod.ROLES + ("dealer",))] = rand.pick(
            ("FFFFFF", "123abc", "FFF", "GG0000", 16777215, None))
    return "palette"


def text_mutation(rand, text):
    """One random edit of the text of a good config.json."""
    i = rand.below(len(text))
    what = rand.below(4)
    if what == 0:
        return text[:i] + text[i + 1:]
    if what == 1:
        return text[:i] + rand.pick('{}[],:" 0-.a\\') + text[i:]
    if what == 2:
        return text[:i] + rand.pick('{}[],:" 019-.ax') + text[i + 1:]
    return text[:i]


def sane(cfg):
    """An independent check of an accepted config: what the board needs to run."""
    def whole(v, lo, hi):
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
    bad = []
    if not whole(cfg["seats"], 2, 12):
        bad.append("seats")
    if not whole(cfg["leds"], max(2, cfg["seats"] if whole(cfg["seats"], 2, 12) else 2), 300):
        bad.append("leds")
    if not whole(cfg["offset"], 0, cfg["leds"] - 1):
        bad.append("offset")
    if not whole(cfg["brightness"], 1, 255):
        bad.append("brightness")
    if not whole(cfg["budget_ma"], max(50, cfg["leds"] + 1), 5000):
        bad.append("budget_ma")
    if cfg["rules"] not in ("dead", "moving", "simple"):
        bad.append("rules")
    if cfg["direction"] not in ("cw", "ccw"):
        bad.append("direction")
    if cfg["color_order"] not in ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR"):
        bad.append("color_order")
    s = cfg["stakes"]
    if not (isinstance(s, list) and len(s) == 2 and whole(s[0], 1, 10 ** 6)
            and whole(s[1], s[0], 10 ** 6)):
        bad.append("stakes")
    pal = cfg["palette"]
    for role in pal:
        v = pal[role]
        if role not in ringmod.ROLES or not isinstance(v, str) or len(v) != 6 or \
                [c for c in v if c not in HEX]:
            bad.append("palette")
    p = cfg["pins"]
    used = [p["led"], p["next"]] + list(p["seats"][:cfg["seats"]])
    if len(p["seats"]) < cfg["seats"] or [g for g in used if not whole(g, 0, 29)] or \
            len(set(used)) != len(used):
        bad.append("pins")
    return bad


def as_written(cfg, d):
    """The fields of an accepted config are the values written (pins: each one given)."""
    bad = []
    for k in d:
        if k == "pins":
            for p in d[k]:
                if cfg[k][p] != d[k][p]:
                    bad.append("pins.%s not as written" % p)
        elif cfg[k] != d[k]:
            bad.append("%s not as written" % k)
    return bad


def run_app(cfg):
    """The real App on an accepted config: a few events, a second of frames; returns the
    highest estimated current seen."""
    dev = Device(cfg, FakeFlash(), now=1000)
    for line in (b"sit 1\n", b"sit 2\n", b"away 2\n", b"back 2\n", b"deal 1\n", b"deal\n",
                 b"press 0\n", b"state\n", b"leds\n", b"config\n"):
        for x in dev.feed(line):
            assert not x.startswith("err internal"), (cfg, line, x)
    top = 0
    for _ in range(40):
        dev.tick(25)
        ma = ringmod.estimate_ma(dev.strip.frame)
        top = ma if ma > top else top
    assert top <= cfg["budget_ma"], (top, cfg)
    return top


def verdict(text):
    """("ok" | "refused" | "CRASH", [fields] or the exception)."""
    try:
        cfg, errors = config.load_text(text)
    except Exception as exc:  # noqa: BLE001 - a crash is what we look for
        return "CRASH", ["%s: %s" % (type(exc).__name__, exc)], None
    if errors:
        return "refused", fields(errors), cfg
    return "ok", [], cfg


def check_systematic(emit):
    """Run every systematic case; returns the failures (name, text, expected, got)."""
    fails = []
    cases = systematic()
    for name, text, expect in cases:
        v, got, cfg = verdict(text)
        ok = v != "CRASH" and sorted(set(got)) == sorted(expect)
        if text in LENIENT and v == "refused" and got == LENIENT[text]:
            ok = True
        if ok and v == "ok":
            try:
                bad = sane(cfg)
                run_app(cfg)
            except Exception as exc:  # noqa: BLE001
                bad = ["App: %s: %s" % (type(exc).__name__, exc)]
            ok = not bad
            got = bad
        emit("%s %s %s" % (name, v, ",".join(got)))
        if not ok:
            fails.append((name, text, expect, v, got))
    return len(cases), fails


def random_case(rand, i):
    """(text, touched roots or None for a text edit)."""
    if i % 3 == 2:
        return text_mutation(rand, DEFAULT_TEXT), None
    d = config.defaults()
    touched = []
    for _ in range(rand.between(1, 3)):
        touched.append(mutate(rand, d))
    return (pretty(d) if rand.chance(50) else canonical_json(d)), touched


def check_random(rand, n, emit):
    counts = {"ok": 0, "refused": 0, "CRASH": 0}
    fails = []
    for i in range(n):
        text, touched = random_case(rand, i)
        v, got, cfg = verdict(text)
        counts[v] += 1
        emit("%s %s %s" % ("text" if touched is None else "value", v, ",".join(got)))
        if v == "CRASH":
            fails.append((text, v, got))
            continue
        if v == "refused":
            # Every error is "field: problem"; after a change of values, the field is one
            # that was changed, or one checked against it.
            stray = [f for f in got if f.startswith("?")]
            if touched is not None:
                allowed = ["config"]
                for t in touched:
                    allowed.append(t)
                    if t in RELATED:
                        allowed.extend(RELATED[t])
                stray += [f for f in got if root(f) not in allowed and f not in touched]
            if stray or not got:
                fails.append((text, v, got))
            continue
        try:
            bad = sane(cfg)
            if touched is not None:
                bad += as_written(cfg, json.loads(text))
            run_app(cfg)
        except Exception as exc:  # noqa: BLE001
            bad = ["App: %s: %s" % (type(exc).__name__, exc)]
        if bad:
            fails.append((text, "accepted", bad))
    return counts, fails


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 1000
    seed = int(argv[2]) if len(argv) > 2 else 1

    def emit(line):
        # Field names come from edited text: control characters are shown, not printed.
        out = []
        for c in line:
            out.append(c if " " <= c <= "~" else "\\x%02x" % ord(c) if ord(c) < 256
                       else "\\u%04x" % ord(c))
        print("case", "".join(out))
    total, fails = check_systematic(emit)
    counts, rfails = check_random(Rand(seed), n, emit)
    for f in fails:
        print("FAIL systematic", repr(f))
    for f in rfails:
        print("FAIL random", repr(f))
    print("systematic: %d cases, %d failed" % (total, len(fails)))
    print("random mutations: %d (%d accepted and ran, %d refused, %d crashed), %d failed"
          % (n, counts["ok"], counts["refused"], counts["CRASH"], len(rfails)))


if __name__ == "__main__":
    import sys
    main(sys.argv)
