"""The `dealerbutton` command: emulate a table, deploy to a board, monitor it, simulate."""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import time
from typing import Callable, Dict, List, NamedTuple, Optional, cast

from dealerbutton import VERSION

from .device.client import Client, DeviceError
from .device.deploy import DeployError
from .device.emulator import EmulatorError
from .device.view import NoTerminal
from .hardware import cli as hardware_cli
from .options import (
    Misuse,
    Parser,
    board_folder,
    command_line,
    drive_folder,
    new_file,
    number,
    port_number,
    serial_port,
    whole,
)
from .room import cli as room_cli
from .web.server import WebError

RULE_SETS = ("dead", "moving", "simple")
# What to use instead of the live view when there is no terminal to draw it in.
NO_VIEW = {
    "emulate": "use --stdio to speak the protocol on stdin/stdout, or --pty to put the "
               "device on a pseudo-terminal",
    "monitor": "use --command CMD or --script FILE to send commands without the view",
}


def _say(text: str) -> None:
    print(text, flush=True)


# -- emulate ------------------------------------------------------------------------------
def emulate_options(e: argparse.ArgumentParser) -> None:
    e.description = ("Run the real firmware application with emulated buttons and LED ring. "
                     "The table is kept in the state folder: quit and start again to resume "
                     "it, like a power cycle of the board.")
    e.add_argument("--micropython", action="store_true",
                   help="run the firmware under the MicroPython unix port instead of CPython")
    how = e.add_mutually_exclusive_group()
    how.add_argument("--stdio", action="store_true",
                     help="no view: the device speaks the protocol on stdin/stdout")
    how.add_argument("--pty", action="store_true",
                     help="no view: put the device on a pseudo-terminal and print its path")
    e.add_argument("--link", metavar="PATH",
                   help="with --pty: also make PATH a symlink to the pseudo-terminal")
    e.add_argument("--seats", type=int, help="seats at the table (2..12; default: 9, or "
                   "what the state folder remembers)")
    e.add_argument("--leds", type=int, help="LEDs on the ring (default: 24, or the seats if "
                   "more, or what the state folder remembers)")
    e.add_argument("--rules", choices=RULE_SETS, help="rule set for the button and blinds "
                   "(default: dead, or what the state folder remembers)")
    e.add_argument("--config", metavar="FILE", help="a config.json, as on the board (default: "
                   "none, the options above)")
    e.add_argument("--state", metavar="DIR",
                   help="folder of the saved table (default: a per-user data folder, "
                   "~/.local/share/dealerbutton/emulator on Linux); it remembers the options "
                   "above that were accepted")


def emulate(args) -> int:
    from .device import emulator, view

    if args.link and not args.pty:
        raise EmulatorError("--link PATH works only with --pty (PATH becomes a name for its "
                            "pseudo-terminal); %s has none"
                            % ("--stdio" if args.stdio else "the live view"))
    state = emulator.state_dir(args.state)
    given = {"seats": args.seats, "leds": args.leds, "rules": args.rules,
             "config": args.config}
    opts = emulator.remembered_options(state, given)
    refused = emulator.refused_options(opts, given)
    if refused:  # said here, and not remembered
        raise EmulatorError(refused)
    if not (args.stdio or args.pty):
        view.need_terminal()
    emulator.prepare_state_dir(state)
    emulator.remember_options(state, opts)
    argv, env = emulator.device_command(micropython=args.micropython, state=str(state), **opts)
    if args.stdio:
        sys.stdout.flush()
        os.execvpe(argv[0], argv, env)
    if args.pty:
        return emulate_pty(argv, env, args.link)
    return emulate_view(argv, env, args, state)


def emulate_pty(argv, env, link) -> int:
    from .device.emulator import PtyDevice

    dev = PtyDevice(argv, env, link=link)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with &
    try:
        where = dev.path + (" (and %s)" % link if link else "")
        print("device on %s — connect with: dealerbutton monitor --port %s"
              % (where, link or dev.path), flush=True)
        print("Ctrl-C stops it.", flush=True)
        rc = dev.proc.wait()
        print("the device exited with status %d" % rc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        dev.stop()


def emulate_view(argv, env, args, state) -> int:
    from .device import emulator, view

    procs = []

    def connect() -> Client:
        proc = emulator.start_piped(argv, env)
        procs.append(proc)
        client = Client.process(proc, timeout=5.0)
        client.sync(timeout=10.0)
        return client

    def drain_stderr(model):
        for proc in procs:
            err = proc.stderr
            if err is None:
                continue
            try:
                while select.select([err], [], [], 0)[0]:
                    data = os.read(err.fileno(), 4096)
                    if not data:
                        proc.stderr = None
                        break
                    for line in data.decode("utf-8", "replace").splitlines():
                        if line.strip():
                            model.note("! " + line)
            except (OSError, ValueError):
                proc.stderr = None

    runtime = "MicroPython" if args.micropython else "CPython"
    model = view.TableModel("dealerbutton emulator (%s)" % runtime)
    model.note("table saved in %s" % state)
    connector = view.Connector(connect, "the emulated board", reconnect=False,
                               extra_poll=drain_stderr)
    try:
        return view.run(connector, model, start_mode="keys")
    finally:
        for proc in procs:
            _stop_device(proc)


def _stop_device(proc) -> None:
    """End of stdin lets the device finish its save and exit by itself."""
    for f in (proc.stdin,):
        try:
            if f:
                f.close()
        except OSError:
            pass
    try:
        proc.wait(5)
    except Exception:
        proc.terminate()
        try:
            proc.wait(3)
        except Exception:
            proc.kill()


# -- deploy -------------------------------------------------------------------------------
def deploy_options(d: argparse.ArgumentParser) -> None:
    d.description = ("MicroPython: compile firmware/dealerbutton/*.py to .mpy (mpy-cross "
                     "-march=armv6m), copy those that changed plus main.py and the config to "
                     "the board with mpremote, then reset it. CircuitPython (--drive): copy "
                     "what changed onto the mounted CIRCUITPY drive.")
    where = d.add_mutually_exclusive_group()
    where.add_argument("--port", type=serial_port, help="MicroPython: serial port of the "
                       "board (default: the first USB one)")
    where.add_argument("--drive", metavar="PATH", type=drive_folder,
                       help="CircuitPython: the mounted CIRCUITPY drive (e.g. "
                       "/media/$USER/CIRCUITPY), or a folder to write the drive's files into")
    d.add_argument("--dry-run", action="store_true", help="list what would be done")
    d.add_argument("--config", metavar="FILE",
                   help="config.json to install (default: firmware/config.json)")
    d.add_argument("--target", default="/", metavar="DIR", type=board_folder,
                   help="folder on the board to install into (default: /)")
    d.add_argument("--no-reset", action="store_true",
                   help="leave the board at its REPL instead of resetting it")


def deploy(args) -> int:
    if args.drive:
        if args.target != "/" or args.no_reset:
            raise Misuse("--%s is for a MicroPython board (--port), not --drive"
                         % ("target" if args.target != "/" else "no-reset"))
        from .device.drive import deploy_drive

        return deploy_drive(args.drive, dry_run=args.dry_run, config=args.config, out=_say)
    from .device.deploy import deploy as deploy_board

    return deploy_board(port=args.port, dry_run=args.dry_run, config=args.config,
                        target=args.target, reset=not args.no_reset, out=_say)


# -- monitor and clock --------------------------------------------------------------------
def monitor_options(m: argparse.ArgumentParser) -> None:
    m.description = ("Connect to a board or to `dealerbutton emulate --pty`, show the table "
                     "live and send protocol commands. Reconnects when the board resets. "
                     "With --command/--script: send, print, exit.")
    m.add_argument("--port", type=serial_port,
                   help="serial port (default: the first USB board)")
    m.add_argument("--command", "-c", action="append", default=[], metavar="CMD",
                   dest="commands", type=command_line,
                   help="send CMD, print its reply (repeatable); no view")
    m.add_argument("--script", metavar="FILE",
                   help="send each line of FILE ('#' comments), print replies; no view")
    m.add_argument("--wait", type=number(least=0), default=0.3, metavar="S",
                   help="with --command/--script: seconds to keep printing events at the end "
                   "(default: %(default)s)")
    m.add_argument("--timeout", type=number(above=0), default=5.0, metavar="S",
                   help="seconds to wait for a reply (default: %(default)s)")


def _monitor_port(args) -> str:
    if args.port:
        return args.port
    from .device.deploy import find_board

    port = find_board()
    if port is None:
        raise DeviceError("no board found: no USB serial device is plugged in. Connect the "
                          "board or give --port PORT (e.g. the path `dealerbutton emulate "
                          "--pty` prints)")
    return port


def monitor(args) -> int:
    from .device import view

    if not (args.commands or args.script):
        view.need_terminal()
    port = _monitor_port(args)
    commands = list(args.commands)
    if args.script:
        try:
            with open(args.script) as f:
                for line in f:
                    line = line.rstrip("\r\n")
                    if line.strip() and not line.lstrip().startswith("#"):
                        commands.append(line.strip())
        except OSError as e:
            raise DeviceError("--script %s: cannot read the file: %s"
                              % (args.script, e.strerror)) from None
    if commands:
        return monitor_script(port, commands, args.wait, args.timeout)
    return monitor_view(port, args.timeout)


def monitor_script(port: str, commands: List[str], wait: float, timeout: float) -> int:
    client = Client.serial(port, timeout=timeout,
                           on_event=lambda line: print(line, flush=True),
                           on_other=lambda line: print("? " + line, flush=True))
    failed = 0
    try:
        client.sync()
        for command in commands:
            print("> " + command, flush=True)
            reply = client.send(command)
            print(reply.line, flush=True)
            if not reply.ok:
                failed += 1
        end = time.monotonic() + wait
        while time.monotonic() < end:
            client.poll(end - time.monotonic())
    finally:
        client.close()
    return 1 if failed else 0


def monitor_view(port: str, timeout: float) -> int:
    from .device import view

    def connect() -> Client:
        return Client.connect(port, timeout)

    model = view.TableModel("dealerbutton monitor %s" % port)
    connector = view.Connector(connect, port, reconnect=True)
    return view.run(connector, model, start_mode="command")


def clock_options(c: argparse.ArgumentParser) -> None:
    c.description = ("Show a board's tournament clock (or the emulator's, through its pty) "
                     "full screen: level, blinds, ante, time left, next level, breaks. "
                     "Reconnects when the board resets. q quits.")
    c.add_argument("--port", type=serial_port,
                   help="serial port (default: the first USB board)")


def clock(args) -> int:
    from .device.clockview import main as clock_main

    return clock_main(_monitor_port(args))


# -- simulate -----------------------------------------------------------------------------
def simulate_options(s: argparse.ArgumentParser) -> None:
    s.description = ("Play random sessions through the rules core (players sit down, step "
                     "away, come back, bust out; refused events and undos thrown in), check "
                     "every invariant on every hand, and print a fairness report per rule "
                     "set: who was dealt in, paid which blind, posted. The same seed gives "
                     "the same report; progress goes to stderr. Exit status 1 if an invariant "
                     "fails.")
    s.add_argument("--seed", type=int, default=1,
                   help="random seed: the same seed gives the same report (default: 1)")
    s.add_argument("--hands", type=whole(1), default=5000,
                   help="hands per rule set (default: 5000)")
    s.add_argument("--rules", choices=RULE_SETS + ("all",), default="all",
                   help="rule set to play, or all three one after the other (default: all)")
    s.add_argument("--seats", type=int, default=argparse.SUPPRESS,
                   help="seats at the table, 2..12; the referee plays every size from 2 to 12 "
                   "unless given (default: 9)")
    s.add_argument("--referee", action="store_true",
                   help="play every event on the independent referee too (referee.py) and "
                   "check every deal against what owes said before it")
    s.add_argument("--tournament", action="store_true",
                   help="play a tournament per rule set instead (--hands: at most); with "
                   "--referee, the random sessions at tournament tables")
    s.add_argument("--players", type=int, help="tournament: players at the start, 2 up to "
                   "the seats (default: as many as the seats)")
    s.add_argument("--minutes", type=whole(1), default=20,
                   help="tournament: minutes a level (default: 20)")
    s.add_argument("--pace", type=whole(1), default=30,
                   help="tournament: hands an hour (default: 30)")
    _simulate_forced_bet_options(s)
    s.add_argument("--json", metavar="FILE", type=new_file,
                   help="also write the figures as JSON to FILE (with what stopped the run, "
                   "if an invariant failed)")


def _simulate_forced_bet_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--ante-kind", choices=("bb", "each", "button"),
                   help="the ante: one paid by the big blind (bb), one from each player, or "
                   "one paid by the player on the button (button: the dealer ante, F1); a "
                   "tournament's comes from its schedule, the random sessions switch between "
                   "levels with it (default: bb in a tournament, no ante in the sessions)")
    s.add_argument("--button-blind", type=whole(1, 1000000), metavar="N",
                   help="the random sessions: the player on the button posts a button blind "
                   "of N chips too (F2; cash games)")
    s.add_argument("--kills", action="store_true",
                   help="the random sessions: the dealer marks kill blinds (F3; cash games)")
    s.add_argument("--makeup", choices=("together", "one_per_hand"), default="together",
                   help="the random sessions: a returning player posts his missed blinds "
                   "together (M3) or one a hand (F4; cash games) (default: together)")


def simulate(args) -> int:
    from .sim.simulate import Options, referee_main, tournament_main
    from .sim.simulate import main as simulate_main

    if args.players is not None and not args.tournament:
        raise Misuse("argument --players: the players of a tournament: give --tournament too")
    seats = getattr(args, "seats", None)
    cash_only = [o for o, on in (("--button-blind", args.button_blind),
                                 ("--kills", args.kills),
                                 ("--makeup", args.makeup != "together")) if on]
    if args.tournament and cash_only:
        raise Misuse("argument %s: cash games only, not with --tournament" % cash_only[0])
    options = Options(args.tournament and args.referee, args.ante_kind,
                      args.button_blind or 0, args.kills, args.makeup)
    if args.tournament and not args.referee:
        return tournament_main(args.seed, args.rules, seats or 9, args.players,
                               args.minutes, args.pace, args.ante_kind or "bb",
                               args.hands, args.json)
    if args.referee:
        return referee_main(args.seed, args.hands, args.rules, seats, args.json, options)
    return simulate_main(args.seed, args.hands, args.rules, seats or 9, args.json, options)


# -- web ----------------------------------------------------------------------------------
def web_options(w: argparse.ArgumentParser) -> None:
    w.description = ("Serve a page that runs the board's own firmware in MicroPython's "
                     "WebAssembly port (the ring, the buttons, the table; saved in the "
                     "browser), or drives a real board over Web Serial. --out writes the "
                     "page as a folder of static files instead.")
    w.add_argument("--host", default="127.0.0.1", help="address to serve on (default: 127.0.0.1)")
    w.add_argument("--port", type=port_number, default=8080,
                   help="port to serve on, 0: a free one (default: 8080)")
    w.add_argument("--out", metavar="DIR", help="write the page into DIR (to publish as is), "
                   "do not serve")


def web(args) -> int:
    from .web import server as webmod

    if args.out:
        n = webmod.build(args.out)
        print("dealerbutton web: %d files in %s (serve the folder as is)" % (n, args.out))
        return 0
    return webmod.serve(args.host, args.port, out=_say)


# -- bench --------------------------------------------------------------------------------
BENCH_BOARD_ONLY = ("kit", "profile", "quick", "json", "runtime")


def bench_options(b: argparse.ArgumentParser) -> None:
    b.description = ("--board: deploy the firmware onto emulated Picos (MicroPython's own "
                     "RPI_PICO firmware on rp2040js, from the rp2sim kit) and measure it there "
                     "in emulated time: idle CPU, release -> LED, frame time, heap, bytes "
                     "allocated, deploy time. --port: ask a running board (or the emulator's "
                     "pty) for its own figures (the stats command). Neither: time and weigh "
                     "the firmware on the MicroPython unix port of this computer (python -m "
                     "dealerbutton_host.bench --help).")
    where = b.add_mutually_exclusive_group()
    where.add_argument("--board", action="store_true",
                       help="measure on emulated Picos (a few minutes; progress on stderr)")
    where.add_argument("--port", type=serial_port,
                       help="serial port of the board (or the emulator's pty)")
    b.add_argument("--kit", metavar="DIR",
                   help="with --board: the rp2sim kit (default: $DEALERBUTTON_RP2SIM, else "
                   "../shared/rp2sim beside this checkout)")
    b.add_argument("--profile", action="store_true",
                   help="with --board: also where an idle cash game spends the CPU, by "
                   "function (needs arm-none-eabi-nm)")
    b.add_argument("--quick", action="store_true",
                   help="with --board: 20 hands a setup instead of 200, one round of presses")
    b.add_argument("--json", metavar="FILE", type=new_file,
                   help="with --board: the figures as JSON, to FILE")
    b.add_argument("--runtime", choices=("micropython", "circuitpython", "both"),
                   help="with --board: the Pico's MicroPython 1.28 (the default), "
                   "CircuitPython 10.2.1 (the drive written by deploy --drive), or both, "
                   "a column each")


def bench(args) -> int:
    board_only = [o for o in BENCH_BOARD_ONLY if getattr(args, o)]
    if board_only and not args.board:
        raise Misuse("--%s needs --board" % board_only[0])
    if args.board:
        from .bench.board import main as board_main

        return board_main(args.kit, args.json, args.quick, args.profile, runtime=args.runtime)
    if args.port:
        from .bench.port import main as stats_main

        return stats_main(args.port)
    from .bench.local import main as bench_main

    return bench_main([])


# -- version ------------------------------------------------------------------------------
def version_options(v: argparse.ArgumentParser) -> None:
    v.description = ("Print the version of the firmware this command deploys and emulates "
                     "(the board's own `version` command answers the same for the firmware "
                     "it runs).")


def version(args) -> int:
    print("dealerbutton", VERSION)
    return 0


# -- the commands -------------------------------------------------------------------------
class Command(NamedTuple):
    """One subcommand: its name, its line in `dealerbutton --help`, what adds its options
    (and its description) to its parser, and what runs it (returning the exit status)."""

    name: str
    help: str
    add_options: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# In the order `dealerbutton --help` lists them. A new command is one row here.
COMMANDS = (
    Command("emulate", "run the firmware with emulated hardware, in a terminal view (or on "
            "stdio, or on a pseudo-terminal)", emulate_options, emulate),
    Command("deploy", "compile the firmware and copy what changed to a board",
            deploy_options, deploy),
    Command("monitor", "live view of a board (or the emulator's pty), and a prompt for "
            "protocol commands", monitor_options, monitor),
    Command("clock", "the tournament clock full screen, in large digits, for a screen at the "
            "table", clock_options, clock),
    Command("simulate", "play random sessions through the rules core, check every "
            "invariant, print a fairness report", simulate_options, simulate),
    Command("web", "serve the page that runs the firmware in a browser (and drives a board "
            "over Web Serial)", web_options, web),
    Command("bench", "the firmware's figures: on the emulated Pico (--board), on a running "
            "board (--port), or on this computer's MicroPython", bench_options, bench),
    Command("bridge", "connect a board on USB (or the emulator's pty) to an MQTT broker, "
            "both ways", room_cli.bridge_options, room_cli.bridge),
    Command("room", "the room view: every table on the broker, as a web page for the wall "
            "or in the terminal", room_cli.room_options, room_cli.room),
    Command("hardware", hardware_cli.HELP, hardware_cli.options, hardware_cli.run),
    Command("version", "print the firmware version", version_options, version),
)


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="dealerbutton", description=__doc__)
    p.add_argument("--version", action="version", version="dealerbutton " + VERSION)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_options(sub.add_parser(command.name, help=command.help))
    return p


def _command_parser(p: argparse.ArgumentParser, name: Optional[str]) -> argparse.ArgumentParser:
    """The parser of the command `name` (the top level's when there is none), whose usage a
    mistake in its options shows."""
    commands = cast(Dict[str, argparse.ArgumentParser],
                    next(a for a in p._actions if a.dest == "command").choices)
    return commands.get(name, p) if name else p


def main(argv: Optional[List[str]] = None) -> int:
    p = parser()
    args, unknown = p.parse_known_args(argv)
    here = _command_parser(p, args.command)
    if unknown:  # the usage of the command they were given to, not the top level's
        here.error("unrecognized arguments: %s" % " ".join(unknown))
    try:
        if args.command is None:
            if sys.stdin.isatty() and sys.stdout.isatty():
                return main(["emulate"])
            p.print_help()
            return 0
        run = next(c.run for c in COMMANDS if c.name == args.command)
        return run(args)
    except Misuse as e:
        here.error(str(e))
    except (DeployError, EmulatorError, DeviceError, WebError) as e:
        print("dealerbutton %s: %s" % (args.command, e), file=sys.stderr)
        return getattr(e, "status", 2)  # 2: a bad value; 1: a failure (a port in use)
    except NoTerminal as e:
        print("dealerbutton %s: %s; %s" % (args.command, e, NO_VIEW[str(args.command)]),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`dealerbutton ... | head`): no traceback, and none either
        # when Python flushes stdout on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
