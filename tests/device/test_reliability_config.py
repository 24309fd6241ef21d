"""Reliability campaign 4: config.json (tests/support/reliability_config_campaign.py) on CPython, under the real
`micropython` (which parses config.json on the board), through the board's start-up
(pico.run with the fake machine) and the emulated board's --config."""
import os
import subprocess
import sys

import pytest
import reliability_config_campaign
from micropython_unix import FIRMWARE, SUPPORT, micropython_exe, run_micropython
from reliability_campaign import Rand

SIZES = {"quick": 3000, "large": 60000}
MP_SIZES = {"quick": 3000, "large": 20000}      # micropython runs it about 20 times slower


def test_config_cases_and_random_mutations_on_cpython(campaign):
    n = SIZES[campaign]
    seen = []
    total, fails = reliability_config_campaign.check_systematic(seen.append)
    counts, rfails = reliability_config_campaign.check_random(Rand(1), n, seen.append)
    print("\nconfig (CPython): %d systematic cases (malformed JSON, every truncation, wrong "
          "types, out of range, every pair of pins used twice, every seats > LEDs) each refused "
          "naming exactly its fields; %d random mutations: %d accepted (sane, and the App ran "
          "within its budget), %d refused naming the fields touched, %d crashed"
          % (total, n, counts["ok"], counts["refused"], counts["CRASH"]))
    assert not fails, fails[:10]
    assert not rfails, rfails[:10]


@pytest.fixture(scope="module")
def on_micropython(campaign):
    """The same campaign under micropython and on CPython, as printed verdicts."""
    args = [str(MP_SIZES[campaign]), "1"]
    mp = run_micropython(path=SUPPORT / "reliability_config_campaign.py", args=args, timeout=1800,
                         extra_paths=[], check=False)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIRMWARE), str(SUPPORT)]))
    cp = subprocess.run([sys.executable, str(SUPPORT / "reliability_config_campaign.py")] + args,
                        capture_output=True, text=True, env=env, timeout=1800)
    assert cp.returncode == 0, cp.stderr
    assert mp.returncode == 0, mp.stdout[-3000:] + mp.stderr[-3000:]
    return mp.stdout.splitlines(), cp.stdout.splitlines()


def test_config_never_crashes_under_micropython(on_micropython):
    mp, _ = on_micropython
    crashes = [x for x in mp if x.startswith("FAIL") and "'CRASH'" in x]
    crashes += [x for x in mp if x.startswith("case") and " CRASH " in x]
    counts = [x for x in mp if x and not x.startswith(("case", "FAIL"))]
    print("\nconfig (micropython): " + "; ".join(counts))
    assert not crashes, "\n".join(crashes[:10])


def test_malformed_json_is_refused_under_micropython(on_micropython):
    """The board parses config.json with MicroPython's json, which takes a good deal of
    malformed text (trailing commas, missing commas and colons, a value left out, 09)."""
    mp, _ = on_micropython
    fails = [x for x in mp if x.startswith("FAIL") and "'CRASH'" not in x]
    assert not fails, "%d malformed texts not refused as such:\n%s" % (len(fails),
                                                                      "\n".join(fails))


def test_every_config_gets_the_same_verdict_on_both_runtimes(on_micropython):
    """What the host's tools decide about a config.json (CPython) is what the board decides
    (MicroPython): the same verdict and the same fields named, for valid JSON with changed
    values and for edited text alike (MicroPython's own json reader is lenient)."""
    mp, cp = on_micropython
    mp_cases = [x for x in mp if x.startswith("case ")]
    cp_cases = [x for x in cp if x.startswith("case ")]
    assert len(mp_cases) == len(cp_cases) > 0
    differ = [(a, b) for a, b in zip(mp_cases, cp_cases, strict=True) if a != b]
    values = len([x for x in cp_cases if x.startswith("case value ")])
    texts = len([x for x in cp_cases if x.startswith("case text ")])
    malformed = len([x for x in cp_cases if x.startswith("case text ") and "config.json" in x])
    print("\nconfig: %d systematic cases, %d value mutations and %d text edits (%d of them "
          "malformed JSON): %d verdicts differ between the runtimes"
          % (len(cp_cases) - values - texts, values, texts, malformed, len(differ)))
    assert not differ, differ[:10]


# -- the board's start-up and the emulated board's --config ---------------------------------

BOARD = """
import machine
import neopixel
from dealerbutton.board import pico
pico.CONFIG_PATH = %(config)r
pico.STATE_DIR = %(state)r
pico.run(loops=3)
print("wdt", len(machine.watchdogs))
"""

BAD_FILES = {
    "not UTF-8": b'{"seats": 9, "rules": "d\xffead"}',
    "a number as a key": b'{"seats": 9, 5: 1}',
    "a number as a pin name": b'{"pins": {"led": 16, 1: 2}}',
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_board_start_up_refuses_a_bad_config_file_with_a_message(name, tmp_path):
    """pico.run must refuse it (the message, the error pattern, every command answered
    `err config`), never stop with a traceback."""
    cfg = tmp_path / "config.json"
    cfg.write_bytes(BAD_FILES[name])
    script = BOARD % {"config": str(cfg), "state": str(tmp_path)}
    p = run_micropython(script, stdin="ping\nstate\n", check=False, timeout=60)
    out = p.stdout.splitlines()
    assert p.returncode == 0 and "Traceback" not in p.stderr, (name, p.stdout, p.stderr)
    assert out and out[0].startswith("dealerbutton: config.json rejected"), out
    assert "ok pong" in out and "wdt 0" in out, out


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_emulated_board_refuses_a_bad_config_file_with_a_message(runtime, name, tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_bytes(BAD_FILES[name])
    args = ["-m", "dealerbutton.board.unix", "--config", str(cfg), "--state", str(tmp_path)]
    if runtime == "cpython":
        cmd, env = [sys.executable] + args, dict(os.environ, PYTHONPATH=str(FIRMWARE))
    else:
        cmd, env = [micropython_exe()] + args, dict(os.environ, MICROPYPATH=str(FIRMWARE))
    p = subprocess.run(cmd, input="", capture_output=True, text=True, env=env, timeout=60)
    if runtime == "cpython" and name != "not UTF-8":
        # CPython's json refuses these texts: a plain malformed-JSON refusal.
        assert p.returncode == 2 and "malformed JSON" in p.stderr, p.stderr
        return
    assert p.returncode == 2 and "Traceback" not in p.stderr, (name, p.stderr)
    assert "rejected" in p.stderr or "cannot read" in p.stderr, p.stderr
