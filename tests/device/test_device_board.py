"""board/pico.py and main.py under the real `micropython` command, with tests/support/fakes
standing in for machine and neopixel: pins, ring, watchdog, serial input, bad config, crash,
Ctrl-C, safe boot."""

import json

from micropython_unix import FIRMWARE, run_micropython

PRELUDE = """
import sys
import machine
import neopixel
from dealerbutton.board import pico
pico.CONFIG_PATH = %(config)r
pico.STATE_DIR = %(state)r
"""


def run_board(tmp_path, body, config=None, stdin="", check=True):
    cfg_path = tmp_path / "config.json"
    if config is not None:
        cfg_path.write_text(config if isinstance(config, str) else json.dumps(config))
    script = PRELUDE % {"config": str(cfg_path), "state": str(tmp_path)} + body
    return run_micropython(script, stdin=stdin, check=check, timeout=120)


def lines(proc):
    return proc.stdout.splitlines()


def test_board_runs_the_table_on_fake_pins(tmp_path):
    body = """
pico.run(loops=40)
print("pins", sorted([(g, p.mode, p.pull) for g, p in machine.pins.items()]))
wdt = machine.watchdogs[0]
print("wdt", len(machine.watchdogs), wdt.timeout, wdt.feeds)
"""
    p = run_board(tmp_path, body, config={"seats": 4},
                  stdin="ping\nsit 1\nsit 2\npress 0\npress 2\nstate\n")
    out = lines(p)
    assert out[0] == "* info no saved state: clean start", out
    assert "ok pong" in out and "ok draw" in out and "ok button" in out
    assert any(x.startswith('* hand {"n":1,"button":2,') for x in out), out
    pins = [x for x in out if x.startswith("pins ")][0]
    # next-hand 15 and seats 2..5 with the pull-up (IN=0, PULL_UP=1), the LED pin 16 out
    assert pins == "pins [(2, 0, 1), (3, 0, 1), (4, 0, 1), (5, 0, 1), (15, 0, 1), (16, 1, -1)]"
    assert "wdt 1 8000 40" in out
    saved = (tmp_path / "state.json").read_text()
    assert saved.startswith('{"v":1,"seq":3,')


def test_ring_frames_go_to_the_neopixel(tmp_path):
    body = """
made = neopixel.strips
pico.run(loops=10)
np = made[0]
print("np", np.pin.id, np.n, np.writes > 0, len(np.last))
print("grb", np.last[0], np.last[1], np.last[2])
"""
    p = run_board(tmp_path, body, config={"seats": 4, "palette": {"active": "ff0000"}},
                  stdin="sit 1\n")
    out = lines(p)
    assert "np 16 24 True 72" in out, out
    # seat 1 active: faint red, sent green first (GRB)
    grb = [x for x in out if x.startswith("grb ")][0].split()
    assert grb[1] == "0" and int(grb[2]) > 0 and grb[3] == "0", out


def test_state_is_restored_at_power_up(tmp_path):
    run_board(tmp_path, "pico.run(loops=5)\n", config={}, stdin="sit 3\nsit 4\n")
    p = run_board(tmp_path, "pico.run(loops=5)\n", config={}, stdin="state\n")
    out = lines(p)
    assert out[0] == "* info state restored (save 2)", out
    state = json.loads([x for x in out if x.startswith("ok ")][0][3:])
    assert [s["status"] for s in state["seats"]][2:4] == ["active", "active"]


def test_missing_config_runs_on_the_defaults(tmp_path):
    p = run_board(tmp_path, "pico.run(loops=3)\n", config=None, stdin="config\n")
    out = lines(p)
    assert out[0].startswith("dealerbutton: no ") and "running on the defaults" in out[0]
    cfg = json.loads([x for x in out if x.startswith("ok ")][0][3:])
    assert cfg["seats"] == 9 and cfg["pins"]["led"] == 16


def test_rejected_config_reports_every_problem_shows_the_error_and_does_not_run(tmp_path):
    body = """
pico.run(loops=5)
print("wdt", len(machine.watchdogs))
print("seat pins", sorted([g for g in machine.pins if g != 16]))
"""
    p = run_board(tmp_path, body, config={"seats": 15, "rules": "fast", "colour": 1},
                  stdin="ping\nsit 1\nstate\n")
    out = lines(p)
    msg = ("config.json rejected (3 problems): colour: unknown field (known: seats, leds, pins,"
           " offset, direction, brightness, budget_ma, rules, stakes, button_blind, makeup,"
           " palette, color_order, "
           "tournament, network); ")
    assert out[0].startswith("dealerbutton: " + msg), out
    assert "seats: 15 is out of range 2..12" in out[0] and "rules: must be one of" in out[0]
    assert out[1] == "* error " + out[0][len("dealerbutton: "):]
    assert out[2] == "ok pong"
    assert out[3] == out[4] == "err config " + out[0][len("dealerbutton: "):]
    assert "wdt 0" in out and "seat pins []" in out
    assert not (tmp_path / "state.json").exists()


def test_rejected_config_shows_the_error_pattern_on_the_ring(tmp_path):
    body = """
made = neopixel.strips
pico.run(loops=3)
print("np", len(made), made[0].writes > 0 if made else None, sum(made[0].last) > 0 if made else None)
"""
    p = run_board(tmp_path, body, config={"brightness": 999})
    assert "np 1 True True" in lines(p), p.stdout
    p = run_board(tmp_path, body, config={"pins": {"led": 99}})
    out = lines(p)
    assert "np 0 None None" in out, out
    assert out[0].startswith("dealerbutton: config.json rejected (1 problem): pins.led: 99")


def test_malformed_config(tmp_path):
    p = run_board(tmp_path, "pico.run(loops=2)\n", config='{"seats": 9')
    assert lines(p)[0].startswith("dealerbutton: config.json rejected (1 problem): "
                                  "config.json: malformed JSON")


def test_a_crash_prints_the_traceback_and_resets(tmp_path):
    body = """
from dealerbutton import app
def broken(self, now_ms):
    raise RuntimeError("ring on fire")
app.App.tick = broken
try:
    pico.run(loops=5)
except machine.Reset:
    print("RESET", len(machine.resets))
"""
    p = run_board(tmp_path, body, config={})
    out = p.stdout
    assert "dealerbutton: crashed, resetting" in out
    assert "Traceback" in out and "RuntimeError: ring on fire" in out
    assert out.strip().endswith("RESET 1"), out


def test_ctrl_c_stops_the_loop_and_frees_the_repl(tmp_path):
    body = """
from dealerbutton import app
def interrupted(self, now_ms):
    raise KeyboardInterrupt
app.App.tick = interrupted
pico.run(loops=5)
print("back at the REPL", len(machine.resets))
"""
    p = run_board(tmp_path, body, config={})
    out = lines(p)
    assert out[-2].startswith("dealerbutton: stopped by Ctrl-C; the REPL is free"), out
    assert out[-1] == "back at the REPL 0"


def test_ctrl_c_just_after_the_watchdog_started_stops_it(tmp_path):
    """A host deploying while the board boots sends Ctrl-C; if it lands after the watchdog
    started and before the app owns the line, the REPL must not be reset 8 s later."""
    body = """
stopped = []
pico.stop_watchdog = lambda: stopped.append(1) or True
class Interrupted(machine.WDT):
    def __init__(self, id=0, timeout=5000):
        super().__init__(id, timeout)
        raise KeyboardInterrupt
machine.WDT = Interrupted
pico.run(loops=5)
print("back at the REPL", len(machine.watchdogs), len(stopped), len(machine.resets))
"""
    p = run_board(tmp_path, body, config={})
    out = lines(p)
    assert out[-2] == "dealerbutton: stopped by Ctrl-C while starting; the REPL is free", out
    assert out[-1] == "back at the REPL 1 1 0", out


def test_stop_watchdog_writes_the_rp2040_register_only_on_rp2040(tmp_path):
    body = """
print("unix", pico.stop_watchdog(), machine.mem32.words)
sys.platform = "rp2"
class Impl:
    name = "micropython"
    _machine = "Raspberry Pi Pico with RP2040"
sys.implementation = Impl()
print("rp2", pico.stop_watchdog(), machine.mem32.words)
"""
    p = run_board(tmp_path, body, config={}, check=False)
    out = lines(p)
    assert out[0] == "unix False {}"
    # sys.platform may be read-only on some builds; when it can be set, check the write
    if len(out) > 1 and out[1].startswith("rp2"):
        assert out[1] == "rp2 True {1073721344: 1073741824}", out


def test_main_py_safe_boot_when_the_next_hand_button_is_held(tmp_path):
    body = """
sys.path.insert(0, %r)
machine.set_level(15, 0)
import main
print("wdt", len(machine.watchdogs), "neopixels", 16 in machine.pins)
""" % str(FIRMWARE)
    p = run_board(tmp_path, body, config={})
    out = lines(p)
    assert out[0].startswith("dealerbutton: safe boot (next-hand button held at power-up)")
    assert out[1] == "wdt 0 neopixels False"


def test_main_py_runs_the_board_otherwise(tmp_path):
    body = """
sys.path.insert(0, %r)
pico.max_loops = 10
import main
print("wdt", len(machine.watchdogs), machine.watchdogs[0].feeds)
""" % str(FIRMWARE)
    p = run_board(tmp_path, body, config={"seats": 3, "pins": {"next": 22}}, stdin="ping\n")
    out = lines(p)
    assert "ok pong" in out and out[-1] == "wdt 1 10", out
    assert "22" not in str(p.stderr)


def test_safe_boot_uses_the_configured_next_hand_pin(tmp_path):
    body = """
machine.set_level(15, 0)
print(pico.safe_boot_requested())
machine.set_level(22, 0)
print(pico.safe_boot_requested())
"""
    p = run_board(tmp_path, body, config={"pins": {"next": 22}})
    assert lines(p) == ["False", "True"]


NETWORK = {"ssid": "club", "wifi_password": "pw", "broker": "10.0.0.2", "room": "club",
           "table": "7"}


def test_a_pico_w_publishes_its_table_with_main_py(tmp_path):
    """main.py on a board with Wi-Fi (the fake network and umqtt.simple modules): the table
    is on the broker, and the serial line plays as without a network."""
    body = """
sys.path.insert(0, %r)
import network
from umqtt import simple
network.aps["club"] = "pw"
pico.max_loops = 60
import main
print("sent", simple.broker.sent[0])
print("state", simple.broker.of("dealerbutton/club/7/state")[-1])
print("wdt", machine.watchdogs[0].feeds > 60)
""" % str(FIRMWARE)
    p = run_board(tmp_path, body, config={"seats": 4, "network": NETWORK},
                  stdin="sit 1\nping\n")
    out = lines(p)
    assert out[1] == ("dealerbutton: network: table 7 of room club, Wi-Fi club, "
                      "broker 10.0.0.2"), out
    assert out[2:5] == ["* seat 1 active", "ok", "ok pong"], out
    assert out[-3] == "sent ('dealerbutton/club/7/online', '1', True)", out
    # seat 1 sat down before the Wi-Fi was joined: in the state, and counted as missed
    assert '{"seat":1,"status":"active"' in out[-2] and out[-2].endswith('"missed":1}')
    assert out[-1] == "wdt True"


def run_without(tmp_path, module, config):
    """The board under micropython with `module` missing (a stand-in that fails to import
    comes first on the path)."""
    gone = tmp_path / ("without-" + module)
    (gone / module.split(".")[0]).mkdir(parents=True)
    if "." in module:
        (gone / "umqtt" / "__init__.py").write_text("")
        (gone / "umqtt" / "simple.py").write_text("raise ImportError(\"no module named %s\")\n"
                                                   % module)
    else:
        (gone / module).rmdir()
        (gone / (module + ".py")).write_text("raise ImportError(\"no module named %s\")\n"
                                             % module)
    (tmp_path / "config.json").write_text(json.dumps(config))
    script = PRELUDE % {"config": str(tmp_path / "config.json"),
                        "state": str(tmp_path)} + "pico.run(loops=10)\n"
    return run_micropython(script, stdin="sit 2\n", extra_paths=[gone], timeout=120)


def test_a_board_without_wifi_or_umqtt_plays_on_and_says_why(tmp_path):
    config = {"seats": 4, "network": NETWORK}
    out = lines(run_without(tmp_path, "network", config))
    assert out[:4] == ["* info no saved state: clean start",
                       "dealerbutton: network: this board has no Wi-Fi (no network module); "
                       "the table runs without it", "* seat 2 active", "ok"], out
    (tmp_path / "state.json").unlink()
    out = lines(run_without(tmp_path, "umqtt.simple", config))
    assert out[:4] == ["* info no saved state: clean start",
                       "dealerbutton: network: umqtt.simple is missing (dealerbutton deploy "
                       "installs it); the table runs without the broker",
                       "* seat 2 active", "ok"], out


def test_a_bad_network_block_is_refused_like_any_other_field(tmp_path):
    p = run_board(tmp_path, "pico.run(loops=3)\nprint('wdt', len(machine.watchdogs))\n",
                  config={"seats": 4, "network": {"ssid": "club", "room": "club/7",
                                                  "table": "7", "port": "1883"}})
    out = lines(p)
    assert out[0] == ("dealerbutton: config.json rejected (3 problems): network.broker: "
                      "required, a text; network.room: 1 to 40 letters, digits, '_', '.' or "
                      "'-'; network.port: a number 0..65535 (0: 1883, or 8883 with tls)"), out
    assert out[-1] == "wdt 0"


def test_what_only_the_start_needs_leaves_the_heap_and_config_still_answers(tmp_path):
    # config.json's checks and the restoring of the table are not kept once the app runs:
    # the collector scans that much less at every pause.
    body = """
import gc
from dealerbutton import app as appmod
pico.run(loops=5)
print("gone", [m for m in ("config", "strictjson", "startup")
               if "dealerbutton.store." + m in sys.modules
               or hasattr(sys.modules["dealerbutton.store"], m)])
gc.collect()
after = gc.mem_alloc()
from dealerbutton.store import config, startup
gc.collect()
print("weight", gc.mem_alloc() - after)
"""
    p = run_board(tmp_path, body, config={"seats": 4, "stakes": [5, 10]},
                  stdin="sit 1\nconfig\n")
    out = lines(p)
    assert "gone []" in out, out
    assert any(x.startswith('ok {"seats":4,') and '"stakes":[5,10]' in x for x in out), out
    weight = int([x for x in out if x.startswith("weight ")][0].split()[1])
    assert weight > 8000, weight   # what their code weighs, freed
