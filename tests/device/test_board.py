"""board/pico.py's serial line on both runtimes, through its seam (pico.Console with a recorded
kbd_intr and the host's bytes from a buffer): while the app runs every byte is the
protocol's, Ctrl-C included; `repl` hands the line to the REPL and gives Ctrl-C back."""
import os

import machine  # tests/support/fakes
import two_runtimes
from dealerbutton.board import pico

ROOT = "board_test_tmp"


class Line(pico.Console):
    """The USB serial line with the host's bytes in a buffer; kbd_intr calls recorded."""

    def __init__(self, data):
        self.calls = []
        pico.Console.__init__(self, self.calls.append)
        self.data = bytearray(data)

    def waiting(self):
        return len(self.data) > 0

    def read(self):
        b = bytes(self.data[:1])
        self.data = self.data[1:]
        return b


def power_up(config, data, loops=5):
    """A fresh board with config.json (text) and no saved state: (lines written, line)."""
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    for name in ("state.json", "state.json.tmp"):
        try:
            os.remove(ROOT + "/" + name)
        except OSError:
            pass
    with open(ROOT + "/config.json", "w") as f:
        f.write(config)
    machine.clear()
    out = []
    pico.CONFIG_PATH = ROOT + "/config.json"
    pico.STATE_DIR = ROOT
    pico._write = out.append
    clock = [0]

    def sleep_ms(ms):
        clock[0] += ms + 5

    pico.now_ms = lambda: clock[0]
    pico.sleep_ms = sleep_ms
    line = Line(data)
    pico.run(loops=loops, console=line)
    return out, line


def test_control_bytes_are_answered_like_any_non_printable_byte():
    out, line = power_up('{"seats": 4}', b"ping\nsit 1\x03\n\x04\n\x01x\n\x02\nsit 2\nping\n")
    assert out == ["* info no saved state: clean start", "ok pong",
                   "err usage non-printable byte 0x03 at column 6",
                   "err usage non-printable byte 0x04 at column 1",
                   "err usage non-printable byte 0x01 at column 1",
                   "err usage non-printable byte 0x02 at column 1",
                   "* seat 2 active", "ok", "ok pong"], out
    # the app owned the line while it ran, and gave Ctrl-C back when its loop ended
    assert line.calls == [-1, 3], line.calls
    assert len(machine.watchdogs) == 1 and machine.watchdogs[0].feeds == 5


def test_repl_hands_the_line_to_the_repl():
    out, line = power_up('{"seats": 4}', b"sit 1\nrepl\nprint('at the REPL')\n", loops=50)
    assert out == ["* info no saved state: clean start", "* seat 1 active", "ok", "ok repl",
                   "dealerbutton: the REPL is free (repl command); reset the board to start "
                   "the app again (the watchdog resets the board in 8 s)"], out
    assert line.calls == [-1, 3], line.calls
    # what follows `repl` is left for the REPL; the loop stopped at once (no more feeds)
    assert bytes(line.data) == b"print('at the REPL')\n"
    assert machine.watchdogs[0].feeds == 0


def test_repl_works_in_the_refused_config_mode():
    out, line = power_up('{"seats": 99}', b"state\nrepl\n")
    message = "config.json rejected (1 problem): seats: 99 is out of range 2..12"
    assert out == ["dealerbutton: " + message, "* error " + message, "err config " + message, "ok repl",
                   "dealerbutton: the REPL is free (repl command); reset the board to start "
                   "the app again"], out
    assert line.calls == [-1, 3]
    assert not machine.watchdogs


def test_the_config_command_answers_the_running_configuration():
    out, line = power_up('{"seats": 4, "leds": 20}', b"config\nsit 1\n")
    assert out[0] == "* info no saved state: clean start", out
    assert out[1].startswith('ok {"seats":4,"leds":20,'), out
    assert out[2:] == ["* seat 1 active", "ok"], out


def test_a_tournament_board_restored_after_a_power_cut():
    config = ('{"seats": 4, "tournament": {"levels": [{"sb": 25, "bb": 50, "minutes": 20}, '
              '{"sb": 50, "bb": 100, "minutes": 20}]}}')
    out, line = power_up(config, b"sit 1\nsit 2\ndeal\nclock resume\n", loops=10)
    assert "* clock running" in out, out
    # the power goes; the board starts again on the saved table and clock
    out = []
    pico._write = out.append
    pico.run(loops=3, console=Line(b"clock\n"))
    assert [x for x in out if x.startswith("* clock paused (restored")], out
    assert out[-1].startswith('ok {"'), out


def test_pin_bank_reads_every_button_at_once_or_pin_by_pin():
    machine.clear()
    cfg = {"seats": 4, "pins": {"led": 16, "next": 15, "seats": [2, 3, 4, 5, 6, 7]}}
    pins = pico.seat_pins(cfg)
    register = machine.Mem32()
    fast = pico.pin_bank(cfg, pins, register)
    plain = pico.pin_bank(cfg, pins)    # not the rp2 port: one pin after the other
    assert fast.gpios == [15, 2, 3, 4, 5] and plain.mem32 is None
    assert fast.pressed() == plain.pressed() == 0
    for gpio, bits in ((15, 1), (2, 2), (5, 16)):
        machine.set_level(gpio, 0)
        assert fast.pressed() == plain.pressed() == bits, (gpio, fast.pressed())
        machine.set_level(gpio, 1)
    machine.set_level(3, 0)
    machine.set_level(15, 0)
    machine.set_level(6, 0)   # a seat the config does not use: never seen
    assert fast.pressed() == plain.pressed() == 1 | 4
    assert register.reads == 5


def test_the_app_polls_its_buttons_through_the_bank():
    machine.clear()
    cfg = {"seats": 4, "pins": {"led": 16, "next": 15, "seats": [2, 3, 4, 5, 6, 7]}}
    pins = pico.seat_pins(cfg)
    register = machine.Mem32()
    from dealerbutton.store import config
    full, errors = config.validate(cfg)
    assert not errors, errors
    out = []
    from dealerbutton.app import App
    app = App(full, Strip(), pins, out.append, now_ms=0,
              bank=pico.pin_bank(full, pins, register))
    for now in range(0, 200, 5):
        app.tick(now)
    assert register.reads == 40   # an idle table: one register read a turn
    machine.set_level(3, 0)       # seat 2 pressed ...
    for now in range(200, 400, 5):
        app.tick(now)
    machine.set_level(3, 1)       # ... and let go
    for now in range(400, 500, 5):
        app.tick(now)
    assert out == ["* seat 2 active"], out


class Strip:
    def show(self, buf):
        pass


def test_zz_clean_up():
    for name in ("state.json", "state.json.tmp", "config.json"):
        try:
            os.remove(ROOT + "/" + name)
        except OSError:
            pass
    os.rmdir(ROOT)


two_runtimes.run_all(globals())
