"""The `dealerbutton` command line itself: every option of every subcommand that takes a
value, given a bad one, ends in one line on stderr that names the option and a non-zero
exit (2 for a bad value, 1 for a failure such as an unwritable path or a port in use),
never a traceback; every subcommand's help gives each default once, in words; an unknown
option shows the usage of the subcommand it was given to."""

import json
import re
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from dealerbutton_host import cli

BIN = Path(sys.executable).parent
BROKER = ["--broker", "mqtt://127.0.0.1:9", "--room", "club"]  # nothing listens on port 9
NOT_A_PORT = "/etc/passwd"      # exists, and is no serial port
UNWRITABLE = "/proc/none/x"     # no folder can be made there


def subcommands():
    sub = next(a for a in cli.parser()._actions if a.dest == "command")
    return sub.choices


def value_options(parser):
    """The options of a parser that take a value: their first long name."""
    out = []
    for action in parser._actions:
        if action.option_strings and action.nargs != 0:
            out.append(next(o for o in action.option_strings if o.startswith("--")))
    return out


def bad_values(tmp):
    """(command, option) -> [(argv after the command, exit status)], every case giving the
    option a bad value (and whatever else the command needs to get to it)."""
    bad_json = tmp / "bad.json"
    bad_json.write_text('{"seats": 40}')
    a_file = tmp / "a-file"
    a_file.write_text("x")
    state = ["--state", str(tmp / "state")]
    return {
        ("emulate", "--link"): [(["--pty", "--link", UNWRITABLE] + state, 1)],
        ("emulate", "--seats"): [(["--seats", "x"], 2), (["--seats", "13"], 2),
                                 (["--seats", "1", "--stdio"] + state, 2)],
        ("emulate", "--leds"): [(["--leds", "100000", "--stdio"] + state, 2),
                                (["--leds", "-3", "--stdio"] + state, 2),
                                (["--leds", "x"], 2)],
        ("emulate", "--rules"): [(["--rules", "fair"], 2)],
        ("emulate", "--config"): [(["--config", str(tmp / "none.json"), "--stdio"] + state, 2),
                                  (["--config", str(bad_json), "--stdio"] + state, 2)],
        ("emulate", "--state"): [(["--stdio", "--state", UNWRITABLE], 1),
                                 (["--stdio", "--state", str(a_file)], 2)],
        ("deploy", "--port"): [(["--port", NOT_A_PORT], 2), (["--port", ""], 2)],
        ("deploy", "--drive"): [(["--drive", str(tmp / "none")], 2),
                                (["--drive", str(a_file)], 2)],
        ("deploy", "--config"): [(["--dry-run", "--config", str(tmp / "none.json")], 2),
                                 (["--dry-run", "--config", str(bad_json)], 2)],
        ("deploy", "--target"): [(["--dry-run", "--target", "relative/dir"], 2),
                                 (["--dry-run", "--target", "/a/../b"], 2)],
        ("monitor", "--port"): [(["--port", NOT_A_PORT, "-c", "ping"], 2)],
        ("monitor", "--command"): [(["--port", NOT_A_PORT + "x", "-c", "sit 1\nrepl"], 2),
                                   (["--port", NOT_A_PORT + "x", "-c", "x" * 121], 2)],
        ("monitor", "--script"): [(["--port", "/dev/ttyNOSUCH", "--script",
                                    str(tmp / "none.txt")], 2)],
        ("monitor", "--wait"): [(["--port", "/dev/ttyNOSUCH", "-c", "ping", "--wait", "-1"], 2),
                                (["--wait", "soon"], 2), (["--wait", "nan"], 2)],
        ("monitor", "--timeout"): [(["-c", "ping", "--timeout", "0"], 2),
                                   (["--timeout", "x"], 2), (["--timeout", "inf"], 2)],
        ("clock", "--port"): [(["--port", NOT_A_PORT], 2), (["--port", str(tmp)], 2)],
        ("simulate", "--seed"): [(["--seed", "x"], 2)],
        ("simulate", "--hands"): [(["--hands", "0"], 2), (["--hands", "x"], 2)],
        ("simulate", "--rules"): [(["--rules", "fair"], 2)],
        ("simulate", "--seats"): [(["--seats", "13"], 2), (["--seats", "x"], 2)],
        ("simulate", "--players"): [(["--tournament", "--players", "1"], 2),
                                    (["--tournament", "--players", "50"], 2),
                                    (["--players", "4"], 2)],
        ("simulate", "--minutes"): [(["--minutes", "0"], 2)],
        ("simulate", "--pace"): [(["--pace", "-5"], 2)],
        ("simulate", "--ante-kind"): [(["--ante-kind", "big"], 2)],
        ("simulate", "--button-blind"): [(["--button-blind", "0"], 2),
                                         (["--button-blind", "x"], 2),
                                         (["--tournament", "--button-blind", "20"], 2)],
        ("simulate", "--makeup"): [(["--makeup", "later"], 2),
                                   (["--tournament", "--makeup", "one_per_hand"], 2)],
        ("simulate", "--json"): [(["--json", str(tmp / "no" / "r.json")], 2),
                                 (["--json", str(tmp)], 2)],
        ("web", "--host"): [(["--host", "no.such.host.invalid", "--port", "0"], 1)],
        ("web", "--port"): [(["--port", "99999"], 2), (["--port", "-1"], 2),
                            (["--port", "x"], 2)],
        ("web", "--out"): [(["--out", UNWRITABLE], 1), (["--out", str(a_file)], 2)],
        ("bench", "--port"): [(["--port", NOT_A_PORT], 2)],
        ("bench", "--kit"): [(["--board", "--kit", str(tmp / "no-kit")], 1)],
        ("bench", "--json"): [(["--board", "--json", str(tmp / "no" / "r.json")], 2),
                              (["--board", "--json", str(tmp)], 2)],
        ("bench", "--runtime"): [(["--board", "--runtime", "pypy"], 2)],
        ("bridge", "--port"): [(["--port", NOT_A_PORT, "--table", "1"] + BROKER, 2)],
        ("bridge", "--broker"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--room", "club",
                                   "--broker", "http://floor"], 2),
                                 (["--port", "/dev/ttyNOSUCH", "--table", "1", "--room", "club",
                                   "--broker", "mqtt://floor:99999"], 2)],
        ("bridge", "--room"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--broker",
                                 "mqtt://floor", "--room", "a/b"], 2)],
        ("bridge", "--credentials"): [(["--port", "/dev/ttyNOSUCH", "--table", "1",
                                        "--credentials", str(tmp / "none")] + BROKER, 2)],
        ("bridge", "--cafile"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--room", "club",
                                   "--broker", "mqtts://floor", "--cafile",
                                   str(tmp / "none")], 2)],
        ("bridge", "--certfile"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--room",
                                     "club", "--broker", "mqtts://floor", "--certfile",
                                     str(tmp / "none")], 2)],
        ("bridge", "--keyfile"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--room", "club",
                                    "--broker", "mqtts://floor", "--keyfile",
                                    str(tmp / "none")], 2)],
        ("bridge", "--table"): [(["--port", "/dev/ttyNOSUCH", "--table", "7 b"] + BROKER, 2)],
        ("bridge", "--rate"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--rate", "0"]
                                + BROKER, 2)],
        ("bridge", "--burst"): [(["--port", "/dev/ttyNOSUCH", "--table", "1", "--burst", "0"]
                                 + BROKER, 2)],
        ("room", "--broker"): [(["--room", "club", "--broker", "mqtt://"], 2)],
        ("room", "--room"): [(["--broker", "mqtt://floor", "--room", ""], 2)],
        ("room", "--credentials"): [(["--credentials", str(tmp)] + BROKER, 2)],
        ("room", "--cafile"): [(["--cafile", str(a_file)] + BROKER, 2)],
        ("room", "--certfile"): [(["--certfile", str(a_file)] + BROKER, 2)],
        ("room", "--keyfile"): [(["--room", "club", "--broker", "mqtts://floor", "--keyfile",
                                  str(a_file)], 2)],
        ("room", "--http"): [(["--http", "127.0.0.1:99999"] + BROKER, 2),
                             (["--http", "127.0.0.1:-1"] + BROKER, 2),
                             (["--http", "nohost"] + BROKER, 2)],
        ("room", "--wait"): [(["--terminal", "--once", "--wait", "-3"] + BROKER, 2),
                             (["--wait", "x"] + BROKER, 2)],
        ("room", "--hand-for-hand"): [(["--hand-for-hand", "maybe"] + BROKER, 2),
                                      (["--once", "--hand-for-hand", "on"] + BROKER, 2)],
    }


def run(argv, timeout=60):
    return subprocess.run([str(BIN / "dealerbutton")] + argv, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def test_every_option_that_takes_a_value_refuses_a_bad_one_in_one_line(tmp_path):
    cases = bad_values(tmp_path)
    walked = []
    for name, parser in subcommands().items():
        for option in value_options(parser):
            assert (name, option) in cases, "no bad value tried for %s %s" % (name, option)
            walked.append((name, option))
    assert sorted(walked) == sorted(cases), set(cases) - set(walked)
    runs = [(name, option, argv, status) for (name, option) in walked
            for argv, status in cases[(name, option)]]
    with ThreadPoolExecutor(4) as pool:
        procs = list(pool.map(lambda r: run([r[0]] + r[2]), runs))
    problems = []
    for (name, option, argv, status), proc in zip(runs, procs, strict=True):
        lines = proc.stderr.splitlines()
        ok = (proc.returncode == status and len(lines) == 1 and option in lines[0]
              and lines[0].startswith("dealerbutton %s: " % name)
              and "Traceback" not in proc.stderr)
        if not ok:
            problems.append("dealerbutton %s %s: exit %s (want %d), stderr %r"
                            % (name, " ".join(argv), proc.returncode, status, proc.stderr))
    assert not problems, "\n".join(problems)
    assert not Path(UNWRITABLE).exists()


def test_a_port_in_use_is_a_failure_naming_the_option():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        for argv in (["web", "--port", str(port)],
                     ["room", "--http", "127.0.0.1:%d" % port] + BROKER + ["-q"]):
            proc = run(argv, timeout=30)
            assert proc.returncode == 1, (argv, proc.stderr)
            lines = proc.stderr.splitlines()
            assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
            assert ("--port %d" % port if argv[0] == "web" else "--http") in lines[0], lines
            assert "in use" in lines[0], lines


def test_a_refused_emulator_option_is_not_remembered(tmp_path):
    state = tmp_path / "state"
    proc = run(["emulate", "--stdio", "--state", str(state), "--seats", "6"])
    assert proc.returncode == 0, proc.stderr
    remembered = json.loads((state / "emulate.json").read_text())
    proc = run(["emulate", "--stdio", "--state", str(state), "--leds", "100000"])
    assert proc.returncode == 2
    assert proc.stderr == ("dealerbutton emulate: --leds 100000 (and --seats 6, remembered) "
                           "refused: leds: 100000 is out of range 2..300\n")
    assert json.loads((state / "emulate.json").read_text()) == remembered
    proc = run(["emulate", "--stdio", "--state", str(state)], timeout=30)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout == "* info no saved state: clean start\n"


def test_an_unknown_option_shows_the_usage_of_its_command():
    for name, parser in subcommands().items():
        proc = run([name, "--bogus"])
        assert proc.returncode == 2
        lines = proc.stderr.splitlines()
        assert lines[0].startswith("usage: dealerbutton %s " % name), (name, proc.stderr)
        if any(a.required for a in parser._actions):   # (said first, by argparse)
            assert lines[-1].startswith("dealerbutton %s: error: the following arguments are "
                                        "required: " % name), lines
        else:
            assert lines[-1] == "dealerbutton %s: error: unrecognized arguments: --bogus" % name
    proc = run(["--bogus"])
    assert proc.returncode == 2 and proc.stderr.startswith("usage: dealerbutton [-h]")


@pytest.mark.parametrize("name", [None] + list(subcommands()))
def test_help_gives_each_default_once_in_words(name):
    proc = run(([name] if name else []) + ["--help"])
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for bad in ("(default: None)", "(default: False)", "(default: True)", "(default: [])"):
        assert bad not in text, (name, bad)
    # One option's help after another (an entry begins "  -"): none says its default twice.
    for entry in re.split(r"\n(?=  -)", proc.stdout):
        assert entry.count("default") <= 1, (name, entry)
    # An option with a default (other than none, off or an empty list) says what it is.
    if name:
        parser = subcommands()[name]
        for action in parser._actions:
            if action.option_strings and action.default not in (None, False, [], "==SUPPRESS=="):
                assert "default" in (action.help or ""), (name, action.option_strings)


def test_every_emulator_option_with_a_value_says_its_default():
    """--seats, --rules and the rest default to what the state folder remembers: no
    argparse default to show, so each says it in words."""
    parser = subcommands()["emulate"]
    valued = [a for a in parser._actions if a.option_strings and a.nargs != 0
              and a.option_strings != ["--link"]]   # (--link: only with --pty, no default)
    assert len(valued) == 5
    for action in valued:
        assert "default: " in (action.help or ""), action.option_strings


def test_the_state_folder_named_in_the_help_and_the_readme_is_the_emulator_s(monkeypatch):
    from dealerbutton_host.device.emulator import default_state_dir

    monkeypatch.setenv("HOME", "/home/user")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    shown = "~/" + str(default_state_dir().relative_to("/home/user"))
    assert shown in " ".join(run(["emulate", "--help"]).stdout.split())
    assert shown in (Path(__file__).parents[2] / "README.md").read_text()


@pytest.mark.parametrize("name", list(subcommands()))
def test_every_command_describes_itself(name):
    text = run([name, "--help"]).stdout.split("\n\n")
    assert len(text) >= 3 and not text[1].startswith(("options:", "positional")), (name, text)


def test_the_bench_tool_help_gives_each_default_once():
    proc = subprocess.run([sys.executable, "-m", "dealerbutton_host.bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for bad in ("(default: None)", "(default: False)"):
        assert bad not in text


def test_room_once_without_a_broker_fails_naming_it():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = "mqtt://127.0.0.1:%d" % port
    for extra in ([], ["--terminal"]):
        proc = run(["room", "--once", "--broker", url, "--room", "club"] + extra, timeout=30)
        assert proc.returncode == 1, proc
        assert proc.stdout == ""
        assert proc.stderr == ("dealerbutton room: cannot reach the broker %s: Connection "
                               "refused\n" % url)
