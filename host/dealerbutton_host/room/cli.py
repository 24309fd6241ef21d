"""The `bridge` and `room` subcommands of `dealerbutton` (a card room on an MQTT broker)."""

from __future__ import annotations

import logging
import signal
import sys

from ..options import host_port, number, serial_port, whole
from . import mqttconn


def _broker_options(p) -> None:
    p.add_argument("--broker", required=True, metavar="URL",
                   help="mqtt://HOST[:PORT], or mqtts://HOST[:PORT] for TLS; the port is 1883, "
                   "or 8883 with TLS, unless given")
    p.add_argument("--room", required=True, help="the room's name (a topic level)")
    p.add_argument("--credentials", metavar="FILE",
                   help="file with username=... and password=... lines (else the environment: "
                   "%s, %s)" % (mqttconn.ENV_USERNAME, mqttconn.ENV_PASSWORD))
    p.add_argument("--cafile", metavar="FILE",
                   help="with mqtts: the CA certificate(s) to trust (default: the system's)")
    p.add_argument("--certfile", metavar="FILE", help="with mqtts: a client certificate")
    p.add_argument("--keyfile", metavar="FILE", help="with mqtts: its private key")
    p.add_argument("--quiet", "-q", action="store_true", help="log only problems")


def bridge_options(b) -> None:
    b.description = ("Publish one table's state (retained), events and online/offline on "
                     "dealerbutton/ROOM/TABLE/..., and run the table commands sent on its cmd "
                     "topic. Survives the board or the broker going away.")
    b.add_argument("--port", required=True, type=serial_port,
                   help="serial port of the board, or the path `dealerbutton emulate --pty` "
                   "prints")
    _broker_options(b)
    b.add_argument("--table", required=True, help="the table's name or number")
    b.add_argument("--rate", type=number(above=0), default=2.0, metavar="N",
                   help="commands a second accepted from the cmd topic (default: 2)")
    b.add_argument("--burst", type=whole(1), default=5, metavar="N",
                   help="commands accepted at once before the rate applies (default: 5)")


def room_options(r) -> None:
    r.description = ("Follow every table of a room on the broker: seats open, away and "
                     "waiting, hands per hour, tournament level and time, and in a tournament "
                     "the moves that balance the tables, each started from the page (or a "
                     "key) and carried out by light on both tables' rings; play hand-for-hand "
                     "when the floor says so.")
    _broker_options(r)
    r.add_argument("--terminal", action="store_true", help="draw the room in this terminal "
                   "instead of serving the web page")
    r.add_argument("--http", default="127.0.0.1:8470", metavar="HOST:PORT", type=host_port,
                   help="where the web pages are served (the room at /, the tournament "
                   "clock for a TV at /clock); 0.0.0.0:8470 for every network "
                   "(default: 127.0.0.1:8470)")
    r.add_argument("--read-only", action="store_true",
                   help="show the floor's moves between tables, but start or cancel none (the "
                   "page has no buttons, the terminal takes no keys)")
    r.add_argument("--once", action="store_true",
                   help="print the room once in the terminal (after --wait seconds) and exit; "
                   "the exit status is 1 if the broker could not be reached")
    r.add_argument("--wait", type=number(least=0), default=1.0, metavar="S",
                   help="with --once: seconds to gather the retained states first "
                   "(default: 1)")
    r.add_argument("--hand-for-hand", choices=("on", "off"),
                   help="switch every online tournament table to hand-for-hand (on: the "
                   "room deals them all at once when every hand is over) or back (off); "
                   "without it the room changes nothing until the page's button is pressed")


def _setup_logging(quiet: bool, name: str) -> None:
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, stream=sys.stderr,
                        format="dealerbutton %s: %%(message)s" % name)


def bridge(args) -> int:
    """`dealerbutton bridge`: one table's board on the broker, until stopped."""
    return _on_broker(args, _bridge)


def room(args) -> int:
    """`dealerbutton room`: every table of the room, until stopped (or once)."""
    return _on_broker(args, _room)


def _on_broker(args, run) -> int:
    try:
        broker = mqttconn.broker_from_args(args.broker, args.credentials, args.cafile,
                                           args.certfile, args.keyfile)
        mqttconn.check_name("--room", args.room)
        return run(args, broker)
    except mqttconn.BrokerError as e:
        print("dealerbutton %s: %s" % (args.command, e), file=sys.stderr)
        return e.status


def _stop_on_term(stop) -> None:
    def handler(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def _bridge(args, broker) -> int:
    from .bridge import Runner

    mqttconn.check_name("--table", args.table)
    _setup_logging(args.quiet, "bridge")
    runner = Runner(args.port, broker, args.room, args.table, rate=args.rate, burst=args.burst)
    _stop_on_term(runner.stop)
    logging.getLogger("dealerbutton.bridge").info(
        "table %s of room %s: %s <-> %s", args.table, args.room, args.port, broker.describe())
    return runner.run()


def _room(args, broker) -> int:
    from . import view

    if args.once and args.hand_for_hand:
        raise mqttconn.BrokerError("--hand-for-hand needs a running room (it deals the "
                                   "tables): leave out --once")
    if args.read_only and args.hand_for_hand:
        raise mqttconn.BrokerError("--hand-for-hand needs a room that may send commands: "
                                   "leave out --read-only")
    _setup_logging(args.quiet, "room")
    return view.main(args, broker)
