"""`dealerbutton bench --board`: the firmware measured on the emulated Pico, in emulated time.

The firmware is deployed with the project's own deploy onto MicroPython's own RPI_PICO
firmware running in rp2040js (the rp2sim kit, see rp2sim.py), one emulated board per table
configuration. Buttons are pressed through the kit's control port, the ring is read back from
its WS2812 decoder, the table is driven with the line protocol on the USB serial, and the
figures are read off the emulated clock (125 MHz, cycle-counted):

- idle CPU: cycles executed / cycles elapsed while nobody presses anything;
- release -> LED: from the emulated moment a button is let go to the end of the first frame
  that shows the press (its flash), for seats in every role, and the long press's "let go"
  flash after the 1 s mark;
- heap in use after 200 hands (the device's `stats`);
- on the board itself, through the REPL after the app hands it over (board_probe.py): frame
  time (render + send, each frame a frame period after the last, as the loop draws them),
  deal() and seat events, the bytes each allocates, a save;
- deploy time (wall time: the emulator runs the board about 5x slower than a Pico while it
  is busy, and mpremote's round trips are wall time too).
"""

from __future__ import annotations

import concurrent.futures
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..device.client import Client, DeviceError
from . import flashimage
from .rp2sim import NS_PER_MS, Board, BoardError, Kit, KitMissing

HERE = Path(__file__).resolve().parent
# Targets (docs/benchmarks.md).
IDLE_TARGET = 0.10        # CPU share, every configuration
PRESS_TARGET_MS = 30.0    # release -> LED, every press
FIRST_LIGHT_TARGET_MS = 10.0   # press -> first light on the held seat's arc, every seat
FRAME60_TARGET_US = 2500  # 60-LED frame, p95
HEAP_BUDGET = 128 * 1024  # heap in use, every configuration
COLLECT_TARGET_US = 20000  # the collector's pause
HANDS = 200

# A tournament of 20 entries (17 levels, 3 breaks), as a card room runs one.
TOURNAMENT = {"ante_kind": "bb", "levels": [
    {"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "minutes": 20},
    {"sb": 75, "bb": 150, "minutes": 20}, {"sb": 100, "bb": 200, "ante": 200, "minutes": 20},
    {"break": 10},
    {"sb": 150, "bb": 300, "ante": 300, "minutes": 20},
    {"sb": 200, "bb": 400, "ante": 400, "minutes": 20},
    {"sb": 300, "bb": 600, "ante": 600, "minutes": 20},
    {"sb": 400, "bb": 800, "ante": 800, "minutes": 20},
    {"break": 10},
    {"sb": 500, "bb": 1000, "ante": 1000, "minutes": 20},
    {"sb": 600, "bb": 1200, "ante": 1200, "minutes": 20},
    {"sb": 800, "bb": 1600, "ante": 1600, "minutes": 20},
    {"sb": 1000, "bb": 2000, "ante": 2000, "minutes": 20},
    {"sb": 1500, "bb": 3000, "ante": 3000, "minutes": 20},
    {"break": 15},
    {"sb": 2000, "bb": 4000, "ante": 4000, "minutes": 20},
    {"sb": 3000, "bb": 6000, "ante": 6000, "minutes": 20},
    {"sb": 4000, "bb": 8000, "ante": 8000, "minutes": 20},
    {"sb": 5000, "bb": 10000, "ante": 10000, "minutes": 20}]}
NETWORK = {"ssid": "club", "wifi_password": "secret", "broker": "192.168.1.10",
           "room": "club", "table": "t1"}


class Setup:
    """One configuration of the table on the board: its config.json fields, and what the
    bench does before measuring (players, markers, the clock)."""

    def __init__(self, key: str, label: str, fields: Dict[str, Any], players: int = 0,
                 away: Tuple[int, ...] = (), post: Tuple[int, ...] = (),
                 wait: Tuple[int, ...] = (), clock: bool = False, presses: bool = False,
                 hands: bool = True, frame_row: Optional[str] = None):
        self.key = key
        self.label = label
        self.fields = fields
        self.players = players
        self.away = away      # seats that step away after the hands (owe blinds: blue)
        self.post = post      # seats taken at the end, posting (blinking yellow)
        self.wait = wait      # seats taken at the end, waiting for the big blind
        self.clock = clock
        self.presses = presses
        self.hands = hands
        self.frame_row = frame_row  # the frame time's row in the table, or None

    def config(self) -> Dict[str, Any]:
        from dealerbutton.store import config

        d = dict(self.fields)
        cfg, errors = config.validate(d)
        if errors:
            raise ValueError("bench config %s refused: %s" % (self.key, errors))
        return cfg


SETUPS = [
    Setup("empty", "empty table, 9 seats, 24 LEDs", {}, hands=False),
    Setup("cash", "cash game, 9 seats, 24 LEDs", {}, players=9, presses=True,
          frame_row="9 seats, a hand on"),
    Setup("cash60", "cash game, 12 seats, 60 LEDs, away and owes markers",
          {"seats": 12, "leds": 60}, players=9, away=(3, 7), post=(10, 11), wait=(12,),
          frame_row="12 seats, away and owes markers"),
    # (a 60-LED ring on its own 4 A supply, budget_ma at 80 % of it: hardware/README.md)
    Setup("away60", "cash game, 12 seats, 60 LEDs on 4 A, 4 players away with markers",
          {"seats": 12, "leds": 60, "budget_ma": 3200}, players=9, away=(2, 4, 6, 8),
          presses=True),
    Setup("tournament", "tournament, 20-entry schedule, clock running",
          {"tournament": TOURNAMENT}, players=9, clock=True, frame_row="tournament clock"),
    Setup("network", "network block (a Pico: no radio)", {"network": NETWORK}, players=9),
]


def progress(msg: str) -> None:
    sys.stderr.write("bench --board: %s\n" % msg)
    sys.stderr.flush()


def _pct(values: List[float], p: float) -> Optional[float]:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


RUNTIMES = ("micropython", "circuitpython")
RUNTIME_NAMES = {"micropython": "MicroPython 1.28", "circuitpython": "CircuitPython 10.2.1"}
# Emulated time from power-on to the app's first answer: MicroPython loads the deployed
# .mpy files; CircuitPython compiles the .py files on the board (about 7 s on the Pico).
START_MS = {"micropython": 1500, "circuitpython": 6500}
# After a press, until the next one: its flash, events and save are over. CircuitPython's
# save (a new file renamed over the old on FAT) holds the CPU about 370 ms; a press that
# starts meanwhile is seen only after it, shortened by as much.
SETTLE_MS = {"micropython": 400, "circuitpython": 800}


class Table:
    """A board running one Setup: deployed, its protocol client connected. On CircuitPython
    the drive is written by `deploy --drive` into a folder and booted as a CIRCUITPY image."""

    def __init__(self, kit: Kit, setup: Setup, say: Callable[[str], None],
                 runtime: str = "micropython"):
        if runtime not in RUNTIMES:
            raise ValueError("runtime: %r is not one of %s" % (runtime, ", ".join(RUNTIMES)))
        self.runtime = runtime
        self.setup = setup
        self.say = say
        self.cfg = setup.config()
        self.board: Optional[Board] = None
        self.client: Optional[Client] = None
        self.figures: Dict[str, Any] = {"label": setup.label}
        self.kit = kit
        self.tmp = Path(tempfile.mkdtemp(prefix="dealerbutton-bench-"))

    # -- start ----------------------------------------------------------------------
    def start(self, deployed: Optional[Path] = None) -> None:
        """A new board: boot it, deploy the firmware and this setup's config.json (timed:
        the first deploy, then one with nothing to copy). With deployed (a copy of the
        flash of a board the firmware was deployed onto, deployed_image(), or a blank
        one, flashimage.blank()), the board starts from a copy of it that holds what
        deploy would change for this setup (deployed_copy)."""
        path = self.tmp / "config.json"
        path.write_text(json.dumps(self.setup.fields))
        if self.runtime == "circuitpython":
            drive = self.tmp / "CIRCUITPY"
            drive.mkdir(exist_ok=True)
            self.figures["deploy_first_s"] = self.deploy_drive(drive, path)
            self.figures["deploy_again_s"] = self.deploy_drive(drive, path)
            self.boot(self.kit.drive_image(drive, self.tmp / "circuitpy.img"))
            return
        if deployed is not None:
            self.boot(self.deployed_copy(deployed, path))
            return
        self.board = self.kit.board(leds=self.cfg["leds"])
        self.figures["deploy_first_s"] = self.deploy(path)
        self.figures["deploy_again_s"] = self.deploy(path)
        self.connect()

    def deployed_copy(self, deployed: Path, config: Path) -> Path:
        """A copy of deployed with the files deploy would write for config written into
        it on this computer (flashimage.py): config.json, and a module its blocks need
        (net.py for a network block)."""
        from ..device.deploy import DeployError, build

        try:
            items = build(str(config), "/", lambda line: None)
        except DeployError as exc:
            raise BoardError("deploy failed: %s" % exc) from None
        have = flashimage.files(deployed)
        new = {i.remote.lstrip("/"): i.data for i in items
               if have.get(i.remote.lstrip("/")) != i.data}
        image = self.tmp / "flash.img"
        flashimage.with_files(deployed, new, image)
        return image

    def boot(self, image: Path, connect: bool = True) -> None:
        """A new board booted from a copy of a board's flash (Board.savefs; on
        CircuitPython a CIRCUITPY image): the app starts from it as after a power cycle."""
        self.board = self.kit.board(runtime=self.runtime, fs=image, leds=self.cfg["leds"])
        if connect:
            self.connect()

    def deploy_drive(self, drive: Path, config: Path) -> float:
        """`dealerbutton deploy --drive` into a folder (wall time)."""
        from ..device.deploy import DeployError
        from ..device.drive import deploy_drive

        t0 = time.monotonic()
        try:
            deploy_drive(str(drive), config=str(config), out=lambda line: None)
        except DeployError as exc:
            raise BoardError("deploy --drive failed: %s" % exc) from None
        return round(time.monotonic() - t0, 2)

    def deploy(self, config: Path) -> float:
        from ..device.deploy import DeployError, deploy

        assert self.board is not None
        lines: List[str] = []
        t0 = time.monotonic()
        try:
            rc = deploy(port=self.board.pty, config=str(config), out=lines.append)
        except DeployError as exc:
            raise BoardError("deploy failed: %s" % exc) from None
        if rc:
            raise BoardError("deploy failed: %s" % "; ".join(lines[-3:]))
        return round(time.monotonic() - t0, 2)

    def connect(self) -> None:
        assert self.board is not None
        start = START_MS[self.runtime]   # the app's start-up
        self.board.wait_until(self.board.nanos + start * NS_PER_MS, timeout=60 + start / 10)
        # Wall time: on a machine busy with other work the emulator runs many times slower.
        deadline = time.monotonic() + 300
        unanswered = False
        while True:
            try:
                self.client = Client.serial(self.board.pty, timeout=30)
                self.client.sync()
                if unanswered:
                    self.drop_late_pongs()
                return
            except DeviceError:
                unanswered = True
                if self.client:
                    self.client.close()
                if time.monotonic() > deadline:
                    raise BoardError("the app on the emulated Pico does not answer") from None
                time.sleep(0.5)

    def drop_late_pongs(self) -> None:
        """After a try whose `ping` went unanswered in time (the app still starting on a
        busy machine), its `ok pong` may come yet, and would pass for the reply to the next
        command, and every reply after it for the one before: a command only this call
        sends (an unknown one: its answer names it) and every line up to its answer
        dropped."""
        assert self.client is not None
        client = self.client
        marker = "resync%d" % (time.monotonic_ns() % 10 ** 8)
        lines: List[str] = []
        client.on_other = lines.append
        client.link.write(marker.encode() + b"\n")
        deadline = time.monotonic() + 30
        try:
            while not any(x.startswith("err unknown command " + marker) for x in lines):
                if time.monotonic() > deadline:
                    raise BoardError("the app on the emulated Pico does not answer %r"
                                     % marker)
                client.poll(0.5)
        finally:
            client.on_other = None

    def call(self, line: str) -> str:
        assert self.client is not None
        return self.client.call(line)

    def close(self) -> None:
        """The client and the board closed, and the table's temporary folder (its config,
        drive, flash images) removed."""
        if self.client:
            self.client.close()
        if self.board:
            self.board.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # -- the game ---------------------------------------------------------------------
    def seat_players(self) -> None:
        for s in range(1, self.setup.players + 1):
            self.call("sit %d" % s)
        if self.setup.players >= 2:
            self.call("deal 1")

    def play_hands(self, hands: int) -> None:
        """hands deals, a seat going away and coming back now and then (debts, markers)."""
        seats = self.setup.players
        for i in range(hands):
            s = 1 + i % seats
            if i % 5 == 1:
                self.call("away %d" % s)
            elif i % 5 == 3:
                self.call("back %d" % (1 + (i - 2) % seats))
            self.call("deal")
            if i % 25 == 0:
                self.say("%s: hand %d of %d" % (self.setup.key, i + 1, hands))

    def markers(self) -> None:
        for s in self.setup.away:
            if json.loads(self.call("state"))["seats"][s - 1]["status"] == "active":
                self.call("away %d" % s)
        self.call("deal")
        self.call("deal")
        for s in self.setup.post:
            self.call("sit %d post" % s)
        for s in self.setup.wait:
            self.call("sit %d wait" % s)

    def stats(self) -> Dict[str, Any]:
        """The device's `stats`. A reply that is not one (a late answer to an earlier
        command, on a machine too busy for the serial line's pace) is reported, the line
        brought into step again and the question asked once more."""
        assert self.client is not None
        st = self.client.json("stats")
        if "heap_used" not in st:
            self.say("%s: `stats` was answered %.80r: asking again" % (self.setup.key, st))
            self.client.sync()
            st = self.client.json("stats")
            if "heap_used" not in st:
                raise BoardError("`stats` answered %.200r" % (st,))
        return st

    # -- measures ---------------------------------------------------------------------
    def idle(self, key: str, ms: int = 3000) -> float:
        assert self.board is not None
        self.board.run_for(500)   # the last command's save and flash are over
        share = self.board.busy_share(ms)
        self.figures[key] = round(share, 4)
        return share


# -- the ring, as the firmware draws it (for reading presses off the decoded frames) ---------

class RingView:
    """Which strip LEDs a seat's arc covers and the colour of an accepted press's flash there,
    from the firmware's own ring (dealerbutton.ring) on this computer."""

    def __init__(self, cfg: Dict[str, Any]):
        from dealerbutton.app import make_ring

        self.ring = make_ring(cfg)

    def arc(self, seat: int) -> List[int]:
        return self.ring.arc(seat)

    def flash_colour(self, seat: int, ok: bool = True) -> List[str]:
        """The colours of seat's arc in the first frame of a press's answer: an accepted
        press's flash, or (ok False) a refused one's first blink."""
        ring = self.ring
        for s in range(len(ring.status)):
            ring.status[s] = 0
        ring.button = ring.sb = ring.bb = ring.first_to_act = 0
        ring.flash(seat, ok, 0)
        buf = ring.render(0)
        colours = ["%02X%02X%02X" % (buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])
                   for i in self.arc(seat)]
        ring.render(1000)  # (a bench copy: its flash is over by then)
        return colours

    def held_colour(self, seat: int) -> List[str]:
        """What seat's arc shows while its button is held (ring.Ring.hold)."""
        ring = self.ring
        for s in range(len(ring.status)):
            ring.status[s] = 0
        ring.button = ring.sb = ring.bb = ring.first_to_act = 0
        ring.hold(seat, True)
        buf = ring.render(0)
        ring.hold(seat, False)
        return ["%02X%02X%02X" % (buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])
                for i in self.arc(seat)]

    def shows_flash(self, frame_leds: List[str], seat: int, colour: List[str],
                    but_the_gap: bool = False) -> bool:
        """Whether a decoded frame shows colour on seat's arc (a frame cut short by the
        decoder, fewer LEDs than the ring, shows nothing); but_the_gap: on every LED of it
        but the last of an arc of 4 or more, which the seat's own colours leave dark."""
        arc = self.arc(seat)
        n = len(arc) - 1 if but_the_gap and len(arc) >= 4 else len(arc)
        return (len(frame_leds) > max(arc)
                and [frame_leds[i] for i in arc[:n]] == colour[:n])


def gpio_of(cfg: Dict[str, Any], seat: int) -> int:
    return cfg["pins"]["next"] if seat == 0 else cfg["pins"]["seats"][seat - 1]


def press(table: Table, view: RingView, seat: int, hold_ms: int) -> Dict[str, Any]:
    """Press seat's button (0: next hand) for hold_ms emulated ms; the release -> flash latency
    (ms), and for a long press (>= 1 s) the "let go" flash's lateness after the 1 s mark."""
    board = table.board
    assert board is not None
    colour = view.flash_colour(seat)
    refused = view.flash_colour(seat, ok=False)   # (a press the rules refuse blinks)
    first = board.frame_count()
    down = board.press(gpio_of(table.cfg, seat), hold_ms)
    up = down + hold_ms * NS_PER_MS
    board.wait_until(up + SETTLE_MS[table.runtime] * NS_PER_MS)
    frames = board.frames(since=first - 1)
    before = [f for f in frames if f["endNs"] and f["endNs"] < down]
    if before and view.shows_flash(before[-1]["leds"], seat, colour, but_the_gap=True):
        colour = ["000000"] * len(colour)   # an arc all white already flashes dark
    r: Dict[str, Any] = {"seat": seat, "hold_ms": hold_ms, "release_ms": None}
    for f in frames:
        if f["endNs"] and f["endNs"] > up and (view.shows_flash(f["leds"], seat, colour)
                                               or view.shows_flash(f["leds"], seat, refused)):
            r["release_ms"] = round((f["endNs"] - up) / NS_PER_MS, 2)
            break
    if seat:
        r["first_light_ms"] = None
        held = view.held_colour(seat)
        for f in frames:
            if f["endNs"] and down < f["endNs"] < up and view.shows_flash(f["leds"], seat, held):
                r["first_light_ms"] = round((f["endNs"] - down) / NS_PER_MS, 2)
                break
    if hold_ms >= 1000:
        mark = down + 1000 * NS_PER_MS
        r["let_go_ms"] = None
        for f in frames:
            if f["endNs"] and mark <= f["endNs"] < up and view.shows_flash(f["leds"], seat, colour):
                r["let_go_ms"] = round((f["endNs"] - mark) / NS_PER_MS, 2)
                break
    assert table.client is not None
    table.client.poll(0.2)
    return r


def hand_roles(table: Table) -> Dict[str, int]:
    hand = json.loads(table.call("hand"))
    roles = {"button": hand["button"], "BB": hand["bb"]}
    if hand.get("sb"):
        roles["SB"] = hand["sb"]
    if hand.get("first_to_act"):
        roles["first to act"] = hand["first_to_act"]
    return roles


def measure_presses(table: Table, rounds: int) -> Dict[str, Any]:
    """Short presses on seats in every role (each sends the player away: the press again,
    on an away player, brings him back), an empty seat, the next-hand button (a deal), and
    long presses (a seat leaves, the next-hand button undoes it)."""
    view = RingView(table.cfg)
    by_role: Dict[str, List[float]] = {}
    missing: List[str] = []
    let_go: List[float] = []
    first_light: List[float] = []

    def note(role: str, r: Dict[str, Any]) -> None:
        if r["release_ms"] is None:
            missing.append(role)
        else:
            by_role.setdefault(role, []).append(r["release_ms"])
        if "first_light_ms" in r:
            if r["first_light_ms"] is None:
                missing.append(role + " (first light)")
            else:
                first_light.append(r["first_light_ms"])

    def settle() -> None:
        """The board idle again after a host command (its reply, its save): a press's
        figures are the buttons', not a command's that happens to run at the same time."""
        assert table.board is not None
        table.board.run_for(SETTLE_MS[table.runtime])

    for n in range(rounds):
        table.say("presses, round %d of %d" % (n + 1, rounds))
        roles = hand_roles(table)
        settle()
        for role, seat in sorted(roles.items()):
            note(role, press(table, view, seat, 100 + 7 * n))
            note("away", press(table, view, seat, 100 + 11 * n))
        table.call("leave 9")
        settle()
        note("empty", press(table, view, 9, 120 + 5 * n))
        note("next hand (deal)", press(table, view, 0, 100 + 13 * n))
        r = press(table, view, 9, 1500)
        note("long (leave)", r)
        if r.get("let_go_ms") is not None:
            let_go.append(r["let_go_ms"])
        r = press(table, view, 0, 1500)
        note("long (undo)", r)
        if r.get("let_go_ms") is not None:
            let_go.append(r["let_go_ms"])
    every = [v for vs in by_role.values() for v in vs]
    return {
        "roles": {k: {"n": len(v), "median_ms": statistics.median(v), "max_ms": max(v)}
                  for k, v in sorted(by_role.items())},
        "all": {"n": len(every), "median_ms": statistics.median(every) if every else None,
                "max_ms": max(every) if every else None},
        "not_seen": missing,
        "let_go_ms": {"n": len(let_go), "median_ms": statistics.median(let_go) if let_go else None,
                      "max_ms": max(let_go) if let_go else None},
        "first_light_ms": {"n": len(first_light),
                           "median_ms": statistics.median(first_light) if first_light else None,
                           "max_ms": max(first_light) if first_light else None},
    }


# -- on the board itself: board_probe.py through the REPL --------------------------------------

def run_probe(table: Table) -> Dict[str, Any]:
    """Hand the serial line to the REPL (`repl`) and run board_probe.py there: the App built
    as board.run() builds it, on the table the bench left in /state.json."""
    from ..device.deploy import Board as Repl

    assert table.board is not None and table.client is not None
    table.client.close()
    table.client = None
    repl = Repl(table.board.pty, lambda s: None)
    try:
        out = repl.run((HERE / "board_probe.py").read_text(), timeout=600)
    finally:
        repl.close()
    for line in reversed(out.decode(errors="replace").splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise BoardError("board_probe.py printed no figures: %r" % out[-300:])


# -- one configuration, start to end -----------------------------------------------------------

def deployed_image(kit: Kit, folder: Path, say: Callable[[str], None]
                   ) -> Tuple[Path, Dict[str, Any]]:
    """A MicroPython board the firmware is deployed onto with the shipped config.json: a copy
    of its flash in folder, for every setup to start from, and the two deploy times (first,
    then up to date)."""
    t = Table(kit, Setup("deploy", "deploy", {}), say)
    try:
        say("booting an emulated Pico, deploying the firmware (once, for every setup)")
        t.start()
        assert t.board is not None
        image = folder / "deployed.img"
        t.board.savefs(str(image))
        t.board.wait_for_file(str(image))
        return image, {k: t.figures[k] for k in ("deploy_first_s", "deploy_again_s")}
    finally:
        t.close()


def run_setup(kit: Kit, setup: Setup, hands: int, rounds: int, probe: bool,
              say: Callable[[str], None], want_profile: bool = False,
              runtime: str = "micropython", deployed: Optional[Path] = None
              ) -> Dict[str, Any]:
    t = Table(kit, setup, say, runtime)
    try:
        say("%s: booting the emulated Pico%s" % (
            setup.key, ", deploying" if deployed is None else " (its config.json written in)"))
        t.start(deployed)
        f = t.figures
        if setup.key == "empty":
            t.idle("idle_cpu")
            f["heap_start_b"] = t.stats()["heap_used"]
        else:
            t.seat_players()
            if setup.clock:
                t.call("clock resume")
            if setup.hands:
                t.play_hands(hands)
            t.markers()
            f["heap_b"] = t.stats()["heap_used"]
            f["hands"] = hands
            t.idle("idle_cpu")
            if setup.presses:
                f["presses"] = measure_presses(t, rounds)
        st = t.stats()
        f["device_stats"] = st
        if want_profile and setup.presses:
            say("%s: profile (the kit's PC profiler, on a copy of the board's flash)"
                % setup.key)
            assert t.board is not None
            image = t.tmp / "flash.img"
            t.board.savefs(str(image))
            f["profile"] = profile(kit, image)
        if probe:
            say("%s: on the board itself (board_probe.py over the REPL)" % setup.key)
            f["probe"] = run_probe(t)
        return f
    finally:
        t.close()


def setups_for(runtime: str) -> List[Setup]:
    """The setups a runtime is measured in: CircuitPython has no network block (the card
    room's link runs on a Pico W's MicroPython; deploy --drive refuses the block)."""
    if runtime == "circuitpython":
        return [s for s in SETUPS if s.key != "network"]
    return list(SETUPS)


def run_all(kit: Kit, setups: List[Setup], hands: int, rounds: int, jobs: int,
            probe: bool, want_profile: bool = False, runtime: str = "micropython",
            deployed: Optional[Path] = None) -> Tuple[Dict[str, Any], Dict[str, str]]:
    """Every setup on a board of its own (started from deployed, if given: see
    Table.start), `jobs` at a time, each in a process of its own (mpremote, which a deploy
    onto a board uses, redirects the process's stdout while it connects): the figures of
    the setups measured, and why each of the others stopped. A setup that stops is run once more,
    alone, after the others (on a machine busy with other work the emulated board's serial
    line can miss a wall-time deadline)."""
    results: Dict[str, Any] = {}
    errors: Dict[str, str] = {}
    todo = list(setups)
    for attempt, workers in ((1, jobs), (2, 1)):
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(run_setup, kit, s, hands, rounds, probe, progress,
                                   want_profile, runtime, deployed): s for s in todo}
            for fut in concurrent.futures.as_completed(futures):
                s = futures[fut]
                try:
                    results[s.key] = fut.result()
                except Exception as exc:   # any failure of one board: the others go on
                    errors[s.key] = ("%s" if isinstance(exc, (BoardError, DeviceError,
                                                              KitMissing))
                                     else type(exc).__name__ + ": %s") % exc
                    progress("%s: stopped (%s, attempt %d): %s"
                             % (s.key, runtime, attempt, errors[s.key]))
                    continue
                errors.pop(s.key, None)
                progress("%s: done (%s)" % (s.key, runtime))
        todo = [s for s in setups if s.key in errors]
        if not todo:
            break
    return results, errors


# -- the profile: where the busy cycles go (the kit's PC profiler) ---------------------------

def profile(kit: Kit, image: Path, top: int = 15) -> Dict[str, Any]:
    """measure/prof.mjs on the flash image of a table: it boots it (the app restores the
    table), lets it settle, then counts CPU cycles per firmware function (symbols from the
    kit's firmware.elf through arm-none-eabi-nm) over 3 emulated seconds."""
    import subprocess

    if shutil.which("arm-none-eabi-nm") is None:
        return {"missing": "arm-none-eabi-nm is not installed (Debian: binutils-arm-none-eabi)"}
    proc = subprocess.run(["node", "measure/prof.mjs", "--fs", str(image), "--settle", "6",
                           "--window", "3", "--top", str(top)], cwd=kit.scratch,
                          capture_output=True, text=True, timeout=600)
    lines = proc.stdout.splitlines()
    if proc.returncode or not lines:
        return {"error": (proc.stderr.strip().splitlines() or ["prof.mjs failed"])[-1]}
    head = json.loads(lines[0])
    rows = []
    for line in lines[2:2 + top]:
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].endswith("%"):
            rows.append({"all_pct": float(parts[0][:-1]), "busy_pct": float(parts[1][:-1]),
                         "function": parts[2]})
    return {"busy_pct": head["busy_pct"], "window_s": head["window_emulated_s"], "top": rows}


# -- the report ---------------------------------------------------------------------------

Row = Tuple[str, str, str, str]   # (figure, on the board, target, verdict)


def _ms(v: Optional[float]) -> str:
    return "-" if v is None else "%.1f ms" % v


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _press_summary(f: Dict[str, Any]) -> List[Row]:
    """A setup's presses in two rows (every press's release -> LED, its first light), and
    what its `state` reply costs on the board when players are away (M6b)."""
    presses = f["presses"]
    out: List[Row] = []
    fl = presses.get("first_light_ms") or {}
    if fl.get("n"):
        out.append(("press -> first light: %s (%d)" % (f["label"], fl["n"]),
                    "median %s, max %s" % (_ms(fl["median_ms"]), _ms(fl["max_ms"])),
                    "<= 10 ms", _verdict(fl["max_ms"] <= FIRST_LIGHT_TARGET_MS)))
    every = presses["all"]
    if every["n"]:
        seen = not presses["not_seen"]
        out.append(("release -> LED: %s (%d)" % (f["label"], every["n"]),
                    "median %s, max %s" % (_ms(every["median_ms"]), _ms(every["max_ms"]))
                    + ("" if seen else "; never showed: " + ", ".join(presses["not_seen"])),
                    "<= 30 ms", _verdict(seen and every["max_ms"] <= PRESS_TARGET_MS)))
    state = (f.get("probe") or {}).get("state")
    if state and f["probe"].get("away"):
        out.append(("`state` reply, %d players away (what each owes back now: M6b)"
                    % f["probe"]["away"], "p50 %.1f ms, max %.1f ms"
                    % (state["p50_us"] / 1000, state["max_us"] / 1000), "-", ""))
    return out


def rows(res: Dict[str, Any]) -> List[Row]:
    """(figure, on the board, target, verdict) for every figure of a run."""
    # In the order of SETUPS, whatever the order of the dict (a JSON file's is sorted).
    order = [s.key for s in SETUPS if s.key in res["setups"]]
    setups = {k: res["setups"][k] for k in order + sorted(set(res["setups"]) - set(order))}
    out = _idle_and_heap_rows(setups) + _cash_press_rows(setups.get("cash", {}))
    for key, f in setups.items():
        if key != "cash" and f.get("presses"):
            out += _press_summary(f)
    out += _frame_rows(setups)
    out += _cash_cost_rows(setups.get("cash", {}).get("probe"))
    out += _collector_rows(setups)
    # Deployed once for every setup (run["deploy"]), or onto each (CircuitPython, and
    # the JSON of earlier runs).
    return out + _deploy_rows([res["deploy"]] if "deploy" in res else list(setups.values()))


def _idle_and_heap_rows(setups: Dict[str, Any]) -> List[Row]:
    """Each setup's idle CPU, then each one's heap in use after its hands."""
    out: List[Row] = []
    for f in setups.values():
        out.append(("idle CPU: %s" % f["label"], "%.1f %%" % (100 * f["idle_cpu"]),
                    "<= 10 %", _verdict(f["idle_cpu"] <= IDLE_TARGET)))
    for f in setups.values():
        if "heap_b" in f:
            free = f.get("device_stats", {}).get("heap_free")
            out.append(("heap in use after %d hands: %s" % (f["hands"], f["label"]),
                        "%.1f KB" % (f["heap_b"] / 1024)
                        + (" (%.1f KB free)" % (free / 1024) if free else ""), "<= 128 KB",
                        _verdict(f["heap_b"] <= HEAP_BUDGET)))
    return out


def _cash_press_rows(cash: Dict[str, Any]) -> List[Row]:
    """The cash game's presses: first light, release -> LED by role, the long press."""
    presses = cash.get("presses")
    if not presses:
        return []
    out: List[Row] = []
    fl = presses.get("first_light_ms") or {}
    if fl.get("n"):
        out.append(("press -> first light: every seat (%d)" % fl["n"],
                    "median %s, max %s" % (_ms(fl["median_ms"]), _ms(fl["max_ms"])),
                    "<= 10 ms", _verdict(fl["max_ms"] <= FIRST_LIGHT_TARGET_MS)))
    for role, v in presses["roles"].items():
        out.append(("release -> LED: %s (%d)" % (role, v["n"]),
                    "median %s, max %s" % (_ms(v["median_ms"]), _ms(v["max_ms"])),
                    "<= 30 ms", _verdict(v["max_ms"] <= PRESS_TARGET_MS)))
    if presses["not_seen"]:
        out.append(("presses whose flash never showed", ", ".join(presses["not_seen"]),
                    "none", "MISSED"))
    lg = presses["let_go_ms"]
    out.append(("long press: 'let go' flash after the 1 s mark",
                "median %s, max %s" % (_ms(lg["median_ms"]), _ms(lg["max_ms"])), "-", ""))
    return out


def _frame_rows(setups: Dict[str, Any]) -> List[Row]:
    """A frame's time (render + send) in each setup that has a frame row."""
    out: List[Row] = []
    for f in setups.values():
        pr = f.get("probe")
        if pr and f.get("frame_row"):
            fr = pr["frame"]
            big = pr["leds"] >= 60
            out.append(("frame (render + send): %d LEDs, %s" % (pr["leds"], f["frame_row"]),
                        "p50 %.2f ms, p95 %.2f ms" % (fr["p50_us"] / 1000, fr["p95_us"] / 1000),
                        "p95 <= 2.5 ms" if big else "-",
                        _verdict(fr["p95_us"] <= FRAME60_TARGET_US) if big else ""))
    return out


def _cash_cost_rows(cash: Optional[Dict[str, Any]]) -> List[Row]:
    """What the cash game's deal, event, idle turn and save take, and what each allocates."""
    if not cash:
        return []
    out: List[Row] = []
    for name, label in (("deal", "deal(), 9 seats"), ("event", "seat event (away, back)"),
                        ("idle_turn", "idle loop turn (app.tick)")):
        v = cash[name]
        out.append((label, "p50 %.2f ms, p95 %.2f ms" % (v["p50_us"] / 1000,
                                                         v["p95_us"] / 1000), "-", ""))
    v = cash["save"]
    out.append(("save (state.json to the flash)", "p50 %.1f ms, max %.1f ms"
                % (v["p50_us"] / 1000, v["max_us"] / 1000), "-", ""))
    for name, label in (("frame", "frame"), ("idle_turn", "idle loop turn"),
                        ("event", "seat event"), ("deal", "deal()")):
        b = cash["bytes"][name]
        per_frame = name in ("frame", "idle_turn")   # (events and deals may allocate)
        out.append(("bytes allocated per %s" % label, "%d B" % b,
                    "0 B" if per_frame else "-", _verdict(b == 0) if per_frame else ""))
    return out


def _collector_rows(setups: Dict[str, Any]) -> List[Row]:
    """The collector's pauses as each setup's board counted them."""
    out: List[Row] = []
    for f in setups.values():
        collect = f.get("device_stats", {}).get("collect")
        if collect and collect["n"]:
            out.append(("the board's own stats: collector pause: %s" % f["label"],
                        "median %.1f ms, max %.1f ms"
                        % (collect["median_us"] / 1000, collect["max_us"] / 1000),
                        "<= 20 ms, between frames",
                        _verdict(collect["max_us"] <= COLLECT_TARGET_US)))
    return out


def _deploy_rows(runs: List[Dict[str, Any]]) -> List[Row]:
    """The deploy's wall time, first and up to date, over the deploys of `runs`."""
    out: List[Row] = []
    for key, label in (("deploy_first_s", "deploy, first"),
                       ("deploy_again_s", "deploy, up to date")):
        times = [f[key] for f in runs if key in f]
        if times:
            out.append(("%s (wall time)" % label, "%.1f-%.1f s" % (min(times), max(times))
                        if len(times) > 1 else "%.1f s" % times[0], "-", ""))
    return out


def table_data(res: Dict[str, Any]) -> Dict[str, Any]:
    """The figures as a table: a column per runtime measured (MicroPython's,
    CircuitPython's), a row per figure with its target and each runtime's value and
    verdict ("met", "MISSED" or ""), and the profile's rows. What the bench prints and what
    the Benchmarks page shows are both made from this (it is in the JSON)."""
    runs = res.get("runtimes") or {"micropython": res}
    names = [rt for rt in RUNTIMES if rt in runs]   # whatever the dict's order (JSON: sorted)
    columns = {rt: {r[0]: r for r in rows(runs[rt])} for rt in names}
    order: List[str] = []
    for rt in names:
        order += [k for k in columns[rt] if k not in order]
    out_rows = []
    for key in order:
        cells: Dict[str, Dict[str, str]] = {}
        target = "-"
        for rt in names:
            r = columns[rt].get(key)
            if r:
                cells[rt] = {"value": r[1], "verdict": r[3]}
                target = r[2]
        out_rows.append({"figure": key, "target": target, "cells": cells})
    return {"runtimes": [{"key": rt, "name": RUNTIME_NAMES[rt]} for rt in names],
            "rows": out_rows, "profile": res.get("profile")}


def table(res: Dict[str, Any]) -> List[str]:
    """The figures as the bench prints them: a column per runtime, the profile under them."""
    data = res.get("table") or table_data(res)
    names = [rt["key"] for rt in data["runtimes"]]
    head = ("figure (emulated Pico)",) + tuple(
        "on %s" % rt["name"] for rt in data["runtimes"]) + ("target",)
    body = []
    for row in data["rows"]:
        cells = tuple(("%s %s" % (row["cells"][rt]["value"], row["cells"][rt]["verdict"]))
                      .strip() if rt in row["cells"] else "" for rt in names)
        body.append((row["figure"],) + cells + (row["target"],))
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    lines = [(fmt % head).rstrip(), (fmt % tuple("-" * w for w in widths)).rstrip()]
    lines += [(fmt % r).rstrip() for r in body]
    prof = data.get("profile")
    if prof:
        lines.append("")
        if "top" in prof:
            lines.append("profile: idle cash game (9 seats, 24 LEDs), %.1f %% busy over %.0f "
                         "emulated s; share of the busy cycles by function:"
                         % (prof["busy_pct"], prof["window_s"]))
            lines += ["  %5.1f %%  %s" % (r["busy_pct"], r["function"]) for r in prof["top"]]
        else:
            lines.append("profile: not taken: %s" % (prof.get("missing") or prof.get("error")))
    return lines


def missing(kit_path: Optional[str], runtimes: List[str], want_profile: bool) -> List[str]:
    """What this machine lacks for a run (the kit, the programs, the packages), each
    said with where to get it; nothing when the run can go."""
    import importlib.util

    problems = []
    try:
        Kit.find(kit_path)
    except KitMissing as exc:
        problems.append(str(exc))
    programs = Kit.missing_programs()
    if programs:
        problems.append("the emulated Pico needs %s on PATH (Node.js >= 18 and its npm; "
                        "Debian: socat)" % ", ".join(programs))
    if "circuitpython" in runtimes and importlib.util.find_spec("fatfs") is None:
        problems.append("CircuitPython's drive image needs the fatfs-ng package "
                        "(pip install -e . brings it)")
    if want_profile and shutil.which("arm-none-eabi-nm") is None:
        problems.append("--profile needs arm-none-eabi-nm (Debian: binutils-arm-none-eabi)")
    return problems


def measure_runtime(kit: Kit, rt: str, hands: int, rounds: int, jobs: int,
                    want_profile: bool) -> Tuple[Optional[Dict[str, Any]], Dict[str, str]]:
    """Every setup of one runtime on emulated Picos: (its run: the setups' figures, the
    deploy's times, the profile if asked; None if no setup was measured), and why each setup
    that stopped did."""
    setups = setups_for(rt)
    progress("%s: %d setups on emulated Picos, %d at a time; %d hands each"
             % (RUNTIME_NAMES[rt], len(setups), jobs, hands))
    deploy_times: Dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="dealerbutton-bench-") as folder:
            deployed = None
            if rt == "micropython":   # (CircuitPython's deploy writes a folder: no board)
                deployed, deploy_times = deployed_image(kit, Path(folder), progress)
            done, failed = run_all(kit, setups, hands, rounds, jobs, probe=True,
                                   want_profile=want_profile, runtime=rt, deployed=deployed)
    except (BoardError, DeviceError, KitMissing, OSError) as exc:
        done, failed = {}, {"every setup": str(exc)}
    if not done:
        return None, failed
    run: Dict[str, Any] = {"setups": {s.key: done[s.key] for s in setups if s.key in done}}
    if deploy_times:
        run["deploy"] = deploy_times
    for s in setups:
        if s.key in done:
            run["setups"][s.key]["frame_row"] = s.frame_row
    if want_profile and "cash" in done:
        run["profile"] = done["cash"].pop("profile", None)
    return run, failed


def report_run(res: Dict[str, Any], errors: Dict[str, Dict[str, str]],
           json_path: Optional[str]) -> None:
    """Print the figures' table, say what was not measured, and write the JSON (with the
    errors, if any) when something was measured."""
    if res["runtimes"]:
        res["setups"] = next(iter(res["runtimes"].values()))["setups"]
        res["table"] = table_data(res)
        for line in table(res):
            print(line)
    print("(%.0f s of wall time; the figures are in emulated time, the same on any machine)"
          % res["seconds"])
    if errors:
        res["errors"] = errors
        for rt, failed in errors.items():
            for key, why in failed.items():
                sys.stderr.write("dealerbutton bench: %s, %s: not measured: %s\n"
                                 % (RUNTIME_NAMES[rt], key, why))
    if json_path and res["runtimes"]:
        Path(json_path).write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
        print("%s written%s" % (json_path, " (incomplete: see above)" if errors else ""))


def main(kit_path: Optional[str] = None, json_path: Optional[str] = None, quick: bool = False,
         want_profile: bool = False, jobs: int = 2, runtime: Optional[str] = None) -> int:
    """`dealerbutton bench --board`: every setup on each runtime asked for (micropython,
    circuitpython or both; MicroPython by default), the table, the JSON. The profile
    (MicroPython's firmware.elf) is taken on MicroPython only. What the run needs is checked
    before anything starts; a setup or a runtime that stops leaves the others' figures,
    printed and written as for a whole run (with what stopped), and the exit status 1."""
    started = time.monotonic()
    runtimes: List[str] = list(RUNTIMES) if runtime == "both" else [runtime or "micropython"]
    problems = missing(kit_path, runtimes, want_profile)
    if problems:
        sys.stderr.write("dealerbutton bench: %s\n" % "; ".join(problems))
        return 1
    try:
        kit = Kit.find(kit_path).prepare(progress)
    except KitMissing as exc:
        sys.stderr.write("dealerbutton bench: %s\n" % exc)
        return 1
    hands = 20 if quick else HANDS
    res: Dict[str, Any] = {"kit": str(kit.source), "hands": hands, "quick": quick,
                           "runtimes": {}}
    errors: Dict[str, Dict[str, str]] = {}
    for rt in runtimes:
        run, failed = measure_runtime(kit, rt, hands, 1 if quick else 3, jobs,
                                      want_profile and rt == "micropython")
        if failed:
            errors[rt] = failed
        if run is not None:
            if "profile" in run:
                res["profile"] = run.pop("profile")
            res["runtimes"][rt] = run
    res["seconds"] = round(time.monotonic() - started, 1)
    report_run(res, errors, json_path)
    return 1 if errors else 0
