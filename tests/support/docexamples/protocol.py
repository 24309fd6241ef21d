"""Protocol sessions: a block after ``<!-- checked: OPTIONS -->``. The lines after ``> ``
are what the host sent to the emulator (``python -m dealerbutton.board.unix --state DIR
OPTIONS``, run from the top of the checkout), every other line what came back; it must be
exactly these lines, on the runtime the parser is made for (CPython or MicroPython).

The block after ``<!-- stats-sample -->`` (``> stats`` and its ``ok {...}``) must have the
fields the device sends, at every depth (the figures differ from run to run)."""

import json
import os
import re
import subprocess
import sys
import tempfile

from micropython_unix import FIRMWARE, micropython_exe
from sybil import Region

from docexamples import matching, pages

CHECKED = re.compile(r"<!-- checked: (.*?) -->\n```text\n(.*?)```", re.S)
STATS = re.compile(r"<!-- stats-sample -->\n```text\n> stats\nok (.*)\n```")


def emulate(runtime, options, sent):
    """The emulator's output (a completed process) for the lines sent, on a fresh table."""
    with tempfile.TemporaryDirectory(prefix="docexample-") as state:
        args = ["-m", "dealerbutton.board.unix", "--state", state] + options
        if runtime == "cpython":
            cmd, env = [sys.executable] + args, dict(os.environ, PYTHONPATH=str(FIRMWARE))
        else:
            cmd, env = [micropython_exe()] + args, dict(os.environ, MICROPYPATH=str(FIRMWARE))
        data = "".join(line + "\n" for line in sent)
        return subprocess.run(cmd, input=data, capture_output=True, text=True, env=env,
                              timeout=60, cwd=str(pages.ROOT))


def session(text):
    """(lines sent, lines expected) of a transcript."""
    sent, expected = [], []
    for line in text.splitlines():
        if line == ">" or line.startswith("> "):
            sent.append(line[2:])
        else:
            expected.append(line)
    return sent, expected


def shape(d):
    return {k: shape(v) if isinstance(v, dict) else None for k, v in d.items()}


class Parser:
    """The protocol sessions and the stats sample of a page, replayed on one runtime."""

    def __init__(self, runtime):
        self.runtime = runtime

    def evaluate_session(self, example):
        options, first, text = example.parsed
        sent, expected = session(text)
        proc = emulate(self.runtime, options, sent)
        if "Traceback" in proc.stderr:
            return proc.stderr
        got = proc.stdout.splitlines()
        if got == expected:
            return None
        where = [first + i for i, line in enumerate(text.splitlines())
                 if not (line == ">" or line.startswith("> "))]
        i, want, have = matching.first_difference(expected, got)
        return "line %d: the page says %r, the emulator said %r\nthe whole output:\n%s" % (
            where[min(i, len(where) - 1)] if where else first, want, have, "\n".join(got))

    def evaluate_stats(self, example):
        proc = emulate(self.runtime, ["--seats", "4"], ["stats"])
        reply = proc.stdout.splitlines()[-1]
        if not reply.startswith("ok {"):
            return proc.stdout + proc.stderr
        want, have = shape(json.loads(example.parsed)), shape(json.loads(reply[3:]))
        if want != have:
            return "the sample's fields %s, the device's %s" % (want, have)
        return None

    def __call__(self, document):
        for m in CHECKED.finditer(document.text):
            first = pages.first_line(document.text, m.start(2))
            yield Region(m.start(), m.end(), (m.group(1).split(), first, m.group(2)),
                         self.evaluate_session)
        for m in STATS.finditer(document.text):
            yield Region(m.start(), m.end(), m.group(1), self.evaluate_stats)

