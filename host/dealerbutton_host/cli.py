"""The `dealerbutton` command."""

import argparse
import sys

from dealerbutton import VERSION


def main(argv=None):
    parser = argparse.ArgumentParser(prog="dealerbutton", description=__doc__)
    parser.add_argument("--version", action="version", version="dealerbutton " + VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("version", help="print the firmware version")
    args = parser.parse_args(argv)
    if args.command in (None, "version"):
        print("dealerbutton", VERSION)
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
