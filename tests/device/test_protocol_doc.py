"""firmware/dealerbutton/PROTOCOL.md's examples are what the emulator really says: each
checked transcript is replayed on CPython and on MicroPython, line for line."""

import json
import os
import re
import subprocess
import sys

import pytest
from micropython_unix import FIRMWARE, micropython_exe

DOC = FIRMWARE / "dealerbutton" / "PROTOCOL.md"
RUNTIMES = ["cpython", "micropython"]


def examples():
    """[(emulator options, commands sent, lines expected)] of every checked transcript."""
    text = DOC.read_text()
    found = []
    for m in re.finditer(r"<!-- checked: (.*?) -->\n```text\n(.*?)```", text, re.S):
        sent, expected = [], []
        for line in m.group(2).splitlines():
            if line == ">" or line.startswith("> "):
                sent.append(line[2:])
            else:
                expected.append(line)
        found.append((m.group(1).split(), sent, expected))
    return found


def emulate(runtime, options, sent, state):
    args = ["-m", "dealerbutton.unix", "--state", str(state)] + options
    if runtime == "cpython":
        cmd, env = [sys.executable] + args, dict(os.environ, PYTHONPATH=str(FIRMWARE))
    else:
        cmd, env = [micropython_exe()] + args, dict(os.environ, MICROPYPATH=str(FIRMWARE))
    data = "".join(line + "\n" for line in sent)
    return subprocess.run(cmd, input=data, capture_output=True, text=True, env=env, timeout=60,
                          cwd=str(FIRMWARE.parent))   # options name files from the top


def test_the_document_has_checked_examples():
    assert len(examples()) >= 4


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_every_example_is_what_the_emulator_says(runtime, tmp_path):
    for i, (options, sent, expected) in enumerate(examples()):
        proc = emulate(runtime, options, sent, tmp_path / ("state%d" % i))
        assert "Traceback" not in proc.stderr, proc.stderr
        assert proc.stdout.splitlines() == expected, (options, proc.stdout)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_stats_sample_has_the_fields_the_device_sends(runtime, tmp_path):
    text = DOC.read_text()
    sample = re.search(r"<!-- stats-sample -->\n```text\n> stats\nok (.*)\n```", text).group(1)
    proc = emulate(runtime, ["--seats", "4"], ["stats"], tmp_path)
    reply = proc.stdout.splitlines()[-1]
    assert reply.startswith("ok {"), proc.stdout

    def shape(d):
        return {k: shape(v) if isinstance(v, dict) else None for k, v in d.items()}
    assert shape(json.loads(reply[3:])) == shape(json.loads(sample))
