"""The command line's parser and the kinds of value its options take.

A bad value is refused by argparse in one line that names the option (`dealerbutton web:
error: argument --port: 99999 is out of range 0..65535`) and exit status 2; other mistakes
(an unknown option, a missing one) show the usage of the subcommand they were made in.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from typing import Optional


class Refused(Exception):
    """A command that cannot go on, in one line; status: its exit status, 2 for a bad value
    (the default), 1 for a failure such as a port in use or a folder that cannot be
    written."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


class Misuse(Exception):
    """Options that do not go together, found by the command that runs them: said in one
    line by its parser's `error` (with its usage, unless it names an `argument `)."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        if message.startswith("argument "):  # a bad value: the option and what is wrong
            self.exit(2, "%s: error: %s\n" % (self.prog, message))
        super().error(message)


def whole(lo: int, hi: Optional[int] = None):
    """A whole number lo..hi (no upper end when hi is None)."""

    def check(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
        if n < lo or (hi is not None and n > hi):
            if hi is None:
                raise argparse.ArgumentTypeError("must be at least %d, not %d" % (lo, n))
            raise argparse.ArgumentTypeError("%d is out of range %d..%d" % (n, lo, hi))
        return n

    return check


def number(above: Optional[float] = None, least: Optional[float] = None):
    """A finite decimal number, above `above` (or at least `least`)."""

    def check(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number" % text) from None
        if not math.isfinite(x):
            raise argparse.ArgumentTypeError("%r is not a finite number" % text)
        if above is not None and x <= above:
            raise argparse.ArgumentTypeError("must be above %g, not %s" % (above, text))
        if least is not None and x < least:
            raise argparse.ArgumentTypeError("must be at least %g, not %s" % (least, text))
        return x

    return check


port_number = whole(0, 65535)


def host_port(text: str) -> str:
    """HOST:PORT, the port 0..65535 (an empty HOST is 127.0.0.1)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError("%r: give HOST:PORT, e.g. 127.0.0.1:8470" % text)
    if int(port) > 65535:
        raise argparse.ArgumentTypeError("%r: the port %s is out of range 0..65535"
                                         % (text, port))
    return text


def serial_port(text: str) -> str:
    """A serial port: a path that is a character device (a USB serial port, a pseudo-
    terminal), or not there yet (a board that is being plugged in or reset)."""
    if not text:
        raise argparse.ArgumentTypeError("give the serial port's path, e.g. /dev/ttyACM0")
    try:
        mode = os.stat(text).st_mode
    except OSError:
        return text  # not there (yet): said when it is opened, or waited for
    if not stat.S_ISCHR(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "a file" if stat.S_ISREG(mode) else \
            "not a device"
        raise argparse.ArgumentTypeError("%s is not a serial port (%s)" % (text, what))
    return text


def new_file(text: str) -> str:
    """A file to write (its folder must be there): checked before any long work."""
    folder = os.path.dirname(os.path.abspath(text))
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a folder, not a file" % text)
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("cannot write %s: no folder %s" % (text, folder))
    if not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError("cannot write %s: the folder is not writable" % text)
    return text


def drive_folder(text: str) -> str:
    """A mounted CIRCUITPY drive, or any folder to write the drive's files into: it must be
    there (a drive that is not mounted is not made as an empty folder)."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(
            "no folder %s: give the folder where the CIRCUITPY drive is mounted (e.g. "
            "/media/$USER/CIRCUITPY), or a folder to write the drive's files into" % text)
    return text


def board_folder(text: str) -> str:
    """A folder on the board, from its root: /, /app, /lib/x."""
    if not re.fullmatch(r"/[A-Za-z0-9_./-]*", text) or ".." in text.split("/"):
        raise argparse.ArgumentTypeError("give a folder on the board from its root (/, /app), "
                                         "not %r" % text)
    return text


def command_line(text: str) -> str:
    """One protocol command: printable ASCII, at most 120 bytes (the device's limit)."""
    if not all(" " <= c <= "~" for c in text):
        raise argparse.ArgumentTypeError("one protocol command of printable characters, "
                                         "not %r" % text)
    if len(text) > 120:
        raise argparse.ArgumentTypeError("a command is at most 120 characters, not %d"
                                         % len(text))
    return text
