"""The `hardware` subcommand of `dealerbutton`: `hardware build` writes the printed parts,
their pictures and the bill of materials."""

from __future__ import annotations

import sys
from pathlib import Path

from ..options import number
from . import INSTALL, missing
from .dimensions import TableSize

OUT = Path("build") / "hardware"


HELP = ("the printed parts: the centre unit and the seat button pods as STL and STEP, with "
        "pictures and a bill of materials")


def options(h) -> None:
    """The `hardware` command's description and its `build` subcommand's options."""
    h.description = ("The centre unit (a puck for the LED ring and the Pico, its diffusing "
                     "top) and the seat button pods, made by code from one table of "
                     "dimensions and hardware/pins.json (needs the hardware extra: %s)."
                     % INSTALL)
    hsub = h.add_subparsers(dest="hardware_command", metavar="COMMAND", required=True)
    b = hsub.add_parser("build", help="write every part (STL, STEP, PNG) and the bill of "
                        "materials (CSV)",
                        description="Write each printed part as STL and STEP with a picture "
                        "(PNG), a picture of each assembly, and a bill of materials for each "
                        "ring (bom-24.csv, bom-60.csv) with the cable for each seat cut to the "
                        "table's size. A line for each file as it is made.")
    b.add_argument("--out", metavar="DIR", default=str(OUT),
                   help="the folder to write into (default: %(default)s)")
    b.add_argument("--ring", choices=("24", "60", "all"), default="all",
                   help="the ring to build the centre unit for (default: both)")
    b.add_argument("--config", metavar="FILE",
                   help="the config.json whose seats, offset and direction the puck's "
                   "marks and the cables follow (default: firmware/config.json)")
    b.add_argument("--table-length", type=number(above=0), default=TableSize().length,
                   metavar="M",
                   help="the table's length in metres, for the cables (default: %(default)s)")
    b.add_argument("--table-width", type=number(above=0), default=TableSize().width,
                   metavar="M",
                   help="the table's width in metres (default: %(default)s)")
    b.add_argument("--button", choices=("tact", "arcade"), default="tact",
                   help="the seat buttons the bill of materials counts pods for (both pods "
                   "are built; default: %(default)s)")
    b.add_argument("--manual", action="store_true",
                   help="also write the manual's Build one page (docs/build-one.md's tables) "
                   "and its pictures (docs/parts/) from this build; with the defaults only")


def run(args, say=None) -> int:
    """Run `hardware build`; a problem is one line on stderr and exit status 2 (a bad value
    or a missing extra) or 1 (a folder that cannot be written)."""
    say = say or (lambda text: print(text, flush=True))
    try:
        return _build(args, say)
    except ValueError as e:
        _error(str(e))
        return 2
    except OSError as e:
        _error("%s: %s" % (e.filename or args.out, e.strerror))
        return 1


def _error(text: str) -> None:
    print("dealerbutton hardware: %s" % text, file=sys.stderr)


def _build(args, say) -> int:
    from ..bench.rp2sim import checkout_root
    from .dimensions import RINGS
    from .seats import check_table

    gone = missing()
    if gone:
        raise ValueError("the printed parts need the hardware extra (%s not installed): %s"
                         % (", ".join(gone), INSTALL))
    root = checkout_root()
    if not (root / "hardware" / "pins.json").is_file():
        raise ValueError("hardware/pins.json is not beside this package: run it from a "
                         "checkout installed with pip install -e .")
    default = TableSize()
    changed = [o for o, v in (("--ring", args.ring != "all"), ("--config", args.config),
                              ("--table-length", args.table_length != default.length),
                              ("--table-width", args.table_width != default.width),
                              ("--button", args.button != "tact")) if v]
    if args.manual and changed:
        raise ValueError("--manual writes the manual's page from the default build: leave "
                         "out %s" % changed[0])
    table = TableSize(length=args.table_length, width=args.table_width)
    check_table(table)
    from . import model
    from .build import Request, run

    setup = model.read_setup(Path(args.config) if args.config else
                             root / "firmware" / "config.json")
    rings = list(RINGS) if args.ring == "all" else [args.ring]
    request = Request(rings, setup, table, args.button)
    say("dealerbutton hardware: building %s into %s" % (
        ", ".join("the %s-LED ring's centre unit" % r for r in rings) + " and the pods",
        args.out))
    result = run(request, Path(args.out), root, say)
    if args.manual:
        from . import page

        for path in page.write(root, request, result):
            say("%-16s written" % path.relative_to(root))
    say("dealerbutton hardware: %d parts, %d pictures, %d bills of materials in %s"
        % (len(result.parts), len(result.pictures), len(result.boms), args.out))
    return 0
