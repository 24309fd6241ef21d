"""`dealerbutton deploy --drive PATH`: the firmware onto a CircuitPython board's CIRCUITPY
drive, mounted on this computer (or into a plain folder, from which a drive image is made).

CircuitPython's users copy files onto the drive; so does this, file by file, only those
that differ from the drive's copies, each written under a temporary name and renamed over
the old one: the dealerbutton/ package (as .py: CircuitPython 10 refuses MicroPython's
.mpy files, "MicroPython .mpy file; use CircuitPython mpy-cross", and its own mpy-cross is
not on PyPI), lib/neopixel.py from the installed adafruit-circuitpython-neopixel package,
config.json, boot.py, and code.py last (CircuitPython restarts code.py by itself once the
copying settles). The files the board saves the table in (store/drivestore.py: state/table-a.json
and table-b.json, the table's two copies, and state/aside-1.json to aside-3.json, for tables
kept aside when config.json changes the table) are made here, blank, at their full size:
the board only ever rewrites blocks inside them, never the FAT or a folder. Each is made
when the drive lacks it or has it at another size (cut short while it was made); the
others, and the tables in them, stay.

config.json on the drive is the user's: once there, it is replaced only by a config named
with --config, or when the user says yes (asked on a terminal). A drive's own config is
checked with the board's validation all the same.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import Callable, List, Optional, Tuple

from .deploy import DeployError, Item, _shown, check_config, has_network, package_files
from .emulator import firmware_dir, package_dir

# Modules of the firmware package (paths in it) that CircuitPython never imports:
# MicroPython's board, strips, viper loops and network, the emulator's.
MICROPYTHON_ONLY = ("board/pico.py", "board/strip.py", "board/strip_pio.py", "ring/fastloops.py",
                    "net.py", "board/unix.py", "board/capture.py")
NEOPIXEL = "adafruit-circuitpython-neopixel"
CONFIG = "config.json"


def modules() -> List[str]:
    return package_files(MICROPYTHON_ONLY)


def neopixel_py() -> Tuple[bytes, str]:
    """neopixel.py of the installed adafruit-circuitpython-neopixel, and its version."""
    from importlib import metadata

    try:
        dist = metadata.distribution(NEOPIXEL)
    except metadata.PackageNotFoundError:
        raise DeployError("%s is not installed: install dealerbutton again (pip install -e .)"
                          % NEOPIXEL) from None
    for f in dist.files or []:
        if str(f) == "neopixel.py":
            return Path(str(dist.locate_file(f))).read_bytes(), dist.version
    raise DeployError("%s %s has no neopixel.py" % (NEOPIXEL, dist.version))


def build(config: Optional[str], out: Callable[[str], None]) -> Tuple[List[Item], Item]:
    """The files for the drive in copy order (package, library, boot.py, code.py last) and
    config.json apart (it has its own rule)."""
    config_path = Path(config) if config else firmware_dir() / CONFIG
    config_bytes = check_config(config_path)
    if has_network(config_bytes):
        raise DeployError("config %s has a \"network\" block: the card room's link runs on "
                          "MicroPython (a Pico W), not on CircuitPython; remove the block for "
                          "this board" % _shown(config_path))
    out("config %s: valid" % _shown(config_path))
    items = [Item("dealerbutton/" + rel, "dealerbutton/" + rel,
                  (package_dir() / rel).read_bytes()) for rel in modules()]
    neo, version = neopixel_py()
    items.append(Item("neopixel.py (%s %s)" % (NEOPIXEL, version), "lib/neopixel.py", neo))
    cp = firmware_dir() / "circuitpython"
    items.append(Item("boot.py", "boot.py", (cp / "boot.py").read_bytes()))
    items.append(Item("code.py", "code.py", (cp / "code.py").read_bytes()))
    return items, Item(_shown(config_path), CONFIG, config_bytes)


def state_copies(drive: Path) -> List[Path]:
    """The files the board saves the table in (drivestore.FILES) that the drive lacks or has
    at another size: made blank by deploy, each written in one piece so that it lies in one
    piece on the drive."""
    from dealerbutton.store import drivestore

    folder = drive / drivestore.FOLDER
    todo = []
    for name in drivestore.FILES:
        path = folder / name
        try:
            if path.stat().st_size == drivestore.SIZE:
                continue
        except OSError:
            pass
        todo.append(path)
    return todo


def state_role(path: Path) -> str:
    from dealerbutton.store import drivestore

    return ("a copy of the saved table" if path.name in drivestore.COPIES
            else "a slot for a table kept aside")


def make_copy(drive: Path, path: Path) -> None:
    from dealerbutton.store import drivestore

    try:
        path.parent.mkdir(exist_ok=True)
        if path.exists():
            path.unlink()     # (another size: made again in one piece)
        with open(path, "wb") as f:
            f.write(b" " * drivestore.SIZE)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise drive_error(drive, e, "make %s" % path) from None


def read(path: Path) -> Optional[bytes]:
    try:
        return path.read_bytes()
    except OSError:
        return None


def circuitpython_version(drive: Path) -> Optional[str]:
    """The first line of the drive's boot_out.txt ("Adafruit CircuitPython 10.2.1 on ..."),
    or None (not a drive CircuitPython has booted from)."""
    text = read(drive / "boot_out.txt")
    if not text:
        return None
    return text.decode("utf-8", "replace").splitlines()[0].strip()


def stale(drive: Path, items: List[Item]) -> List[Path]:
    """Files in the drive's dealerbutton/ folder and its packages' that the firmware no
    longer has: modules of an older firmware (the flat package of earlier firmware among
    them) or of MicroPython's (a whole firmware/dealerbutton copied by hand), .mpy files, a
    write cut short (.new)."""
    folder = drive / "dealerbutton"
    if not folder.is_dir():
        return []
    ours = {i.remote for i in items if i.remote.startswith("dealerbutton/")}
    return sorted(p for p in folder.rglob("*") if p.is_file()
                  and p.relative_to(drive).as_posix() not in ours
                  and p.suffix in (".py", ".mpy", ".new"))


def write(drive: Path, item: Item) -> None:
    """item onto the drive: written to a temporary name, then renamed over the old file."""
    dest = drive / item.remote
    tmp = dest.with_name(dest.name + ".new")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(item.data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    except OSError as e:
        raise drive_error(drive, e, "write %s" % dest) from None


def drive_error(drive: Path, e: OSError, what: str) -> DeployError:
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return DeployError("cannot %s: the drive %s is read-only to this computer. The board "
                           "keeps CIRCUITPY for itself while it plays (boot.py, to save the "
                           "table): unplug it, hold the next-hand button while you plug it "
                           "in, and deploy again" % (what, drive))
    if e.errno == errno.ENOSPC:
        return DeployError("cannot %s: the drive %s is full" % (what, drive))
    return DeployError("cannot %s: %s" % (what, e.strerror or e))


def ask_yes(question: str) -> bool:
    """On a terminal: the user's answer (no by default); elsewhere no."""
    if not sys.stdin.isatty():
        return False
    try:
        return input(question + " [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def config_action(drive: Path, config: Item, named: bool, dry_run: bool,
                  out: Callable[[str], None], ask: Callable[[str], bool]) -> Optional[str]:
    """Why config.json is copied ("new", "changed"), or None when the drive's stays."""
    have = read(drive / CONFIG)
    if have is None:
        return "new"
    if have == config.data:
        return None
    if named:
        return "changed"
    from dealerbutton.store import config as device_config

    try:
        _, problems = device_config.load_text(have.decode("utf-8"), CONFIG)
    except UnicodeDecodeError:
        problems = ["not UTF-8 text"]
    verdict = ("valid" if not problems else "REFUSED by the board: "
               + device_config.message(problems, CONFIG))
    out("config.json on the drive differs from %s (edited on the board's drive?): %s"
        % (config.label, verdict))
    if not dry_run and ask("replace the drive's config.json with %s?" % config.label):
        return "changed"
    out("config.json on the drive kept; give --config FILE to put another one there")
    return None


def deploy_drive(drive: str, dry_run: bool = False, config: Optional[str] = None,
                 out: Callable[[str], None] = print,
                 ask: Callable[[str], bool] = ask_yes) -> int:
    """Copy what changed onto a CircuitPython board's CIRCUITPY drive (or into a folder),
    remove what is stale, make the saved table's blank copies; dry_run: say what would be
    done."""
    root = Path(drive)
    if not root.is_dir():
        raise DeployError("no drive at %s: give the folder where the CIRCUITPY drive is "
                          "mounted (e.g. /media/$USER/CIRCUITPY), or any folder to write the "
                          "files into" % drive)
    items, config_item = build(config, out)
    found = circuitpython_version(root)
    if found:
        out("CIRCUITPY drive %s: %s" % (drive, found))
    else:
        out("folder %s: no boot_out.txt, so not a drive CircuitPython has started from; "
            "writing a drive's files into it" % drive)
    todo, same = drive_todo(root, items, config_item, config is not None, dry_run, out, ask)
    gone = stale(root, items)
    copies = state_copies(root)
    if dry_run:
        for item, reason in todo:
            out("would copy %-32s -> %s (%s, %d bytes)" % (item.label, root / item.remote,
                                                          reason, len(item.data)))
        for path in gone:
            out("would remove %s" % path)
        for path in copies:
            out("would make %s (blank: %s)" % (path, state_role(path)))
        out("%d files up to date; would copy %d, remove %d" % (same, len(todo), len(gone)))
        return 0
    write_drive(root, todo, gone, copies, out)
    if todo or gone:
        out("%d %s copied, %d removed, %d up to date"
            % (len(todo), "file" if len(todo) == 1 else "files", len(gone), same))
    else:
        out("drive is up to date (%d files)" % same)
    if found and (todo or gone):
        out("CircuitPython restarts code.py by itself once the copy settles; eject the drive "
            "before unplugging the board")
        if any(item.remote == "boot.py" for item, _ in todo):
            out("boot.py changed: it runs at power-up only; press the board's reset button "
                "(or unplug it and plug it in) for it to take effect")
    return 0


def drive_todo(root: Path, items: List[Item], config_item: Item, named: bool, dry_run: bool,
               out: Callable[[str], None], ask: Callable[[str], bool]
               ) -> Tuple[List[Tuple[Item, str]], int]:
    """The files to copy onto the drive, each with why ("new", "changed"; config.json as
    config_action decides, before boot.py and code.py), and how many are up to date."""
    todo = []
    for item in items:
        have = read(root / item.remote)
        if have != item.data:
            todo.append((item, "new" if have is None else "changed"))
    why = config_action(root, config_item, named, dry_run, out, ask)
    if why:
        todo.insert(len(todo) - 2, (config_item, why))   # before boot.py and code.py
    total = len(items) + 1
    same = total - len(todo) - (1 if why is None and read(root / CONFIG) != config_item.data
                                else 0)
    return todo, same


def write_drive(root: Path, todo: List[Tuple[Item, str]], gone: List[Path], copies: List[Path],
                out: Callable[[str], None]) -> None:
    """Copy the files, remove the stale ones, make the blank copies, and flush the drive,
    saying each."""
    for n, (item, reason) in enumerate(todo, 1):
        write(root, item)
        out("[%d/%d] copied %s -> %s (%s, %d bytes)" % (n, len(todo), item.label,
                                                        root / item.remote, reason,
                                                        len(item.data)))
    for path in gone:
        try:
            path.unlink()
        except OSError as e:
            raise drive_error(root, e, "remove %s" % path) from None
        out("removed %s" % path)
    for path in copies:
        make_copy(root, path)
        out("made %s (blank: %s, written in place by the board)" % (path, state_role(path)))
    if hasattr(os, "sync"):
        os.sync()
