"""Reliability campaign 2: protocol fuzzing (tests/support/reliability_protocol_campaign.py), in-process on CPython,
in-process under the real `micropython` (the same seeded stream must give the same counts),
and against the emulated board (`python -m dealerbutton.board.unix`, `micropython -m
dealerbutton.board.unix`) as a subprocess fed through a pipe in pieces of random size."""
import json
import os
import subprocess
import sys
import threading
import time

import pytest
import reliability_protocol_campaign
from micropython_unix import FIRMWARE, SUPPORT, micropython_exe, run_micropython
from reliability_campaign import Rand

SIZES = {
    # in-process lines x seeds on CPython, the same under micropython, emulator lines
    "quick": {"lines": 10000, "seeds": 6, "mp_lines": 5000, "mp_seeds": 3, "emu": 3000},
    "large": {"lines": 50000, "seeds": 30, "mp_lines": 50000, "mp_seeds": 5, "emu": 40000},
}


def test_fuzz_the_protocol_in_process(campaign):
    size = SIZES[campaign]
    total = {"lines": 0, "bytes": 0, "feeds": 0, "changed": 0}
    kinds = {}
    for seed in range(1, size["seeds"] + 1):
        c = reliability_protocol_campaign.run(size["lines"], 100 + seed)
        for k in total:
            total[k] += c[k]
        for k in c["kinds"]:
            kinds[k] = kinds.get(k, 0) + c["kinds"][k]
    print("\nprotocol fuzzing (CPython, in process): %d lines, %d bytes in %d reads (%s); "
          "each answered once, %d accepted commands changed the table, no other line did"
          % (total["lines"], total["bytes"], total["feeds"],
             ", ".join("%d %s" % (kinds[k], k) for k in sorted(kinds)), total["changed"]))
    assert kinds["valid"] and kinds["overflow"] and kinds["nonprint"] and kinds["unknown"]


def test_fuzz_the_protocol_under_micropython(campaign):
    size = SIZES[campaign]
    args = [str(size["mp_lines"]), str(size["mp_seeds"])]
    mp = run_micropython(path=SUPPORT / "reliability_protocol_campaign.py", args=args, timeout=1800)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIRMWARE), str(SUPPORT)]))
    cp = subprocess.run([sys.executable, str(SUPPORT / "reliability_protocol_campaign.py")] + args,
                        capture_output=True, text=True, env=env, timeout=1800)
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout, (mp.stdout, cp.stdout)
    print("\nprotocol fuzzing (micropython, in process; the same counts as CPython): "
          + mp.stdout.strip().splitlines()[-1])


def emulator(runtime, state, seats):
    args = ["-m", "dealerbutton.board.unix", "--state", str(state), "--seats", str(seats)]
    if runtime == "cpython":
        return [sys.executable] + args, dict(os.environ, PYTHONPATH=str(FIRMWARE))
    return [micropython_exe()] + args, dict(os.environ, MICROPYPATH=str(FIRMWARE))


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_fuzz_the_emulated_board_through_a_pipe(runtime, campaign, tmp_path):
    """Every fuzz line is followed by `state`: a line that is not an accepted valid command
    must leave the state as it was."""
    rand = Rand(9 if runtime == "cpython" else 10)
    seats = 6
    items = []
    while len(items) < SIZES[campaign]["emu"]:
        for body, kind, end in reliability_protocol_campaign.next_lines(rand, seats):
            items.append((body, kind, end))
            items.append((b"state", "state", b"\n"))
    data = b"".join(body + end for body, _, end in items)
    cmd, env = emulator(runtime, tmp_path / "table", seats)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    pieces = []

    def feed():
        i = 0
        while i < len(data):
            n = rand.weighted([(4, 1), (2, 2), (6, rand.between(3, 40)),
                               (2, rand.between(40, 700)), (1, 4096)])
            proc.stdin.write(data[i:i + n])
            proc.stdin.flush()
            pieces.append(n)
            i += n
            if rand.chance(5):
                time.sleep(0.002)         # let the board read a part of a line
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    out = proc.stdout.read()
    writer.join()
    proc.wait(timeout=60)
    stderr = proc.stderr.read().decode()
    assert proc.returncode == 0, stderr
    lines = out.decode().splitlines()
    assert lines[0].startswith("* info "), lines[:3]
    for x in lines:
        assert x.startswith("* ") or x == "ok" or x.startswith(("ok ", "err ")), x
    replies = [x for x in lines if not x.startswith("* ")]
    assert len(replies) == len(items), (len(replies), len(items))
    state = None
    changed = 0
    last_body, last_kind, last_reply = b"", "", ""
    for (body, kind, _), reply in zip(items, replies, strict=True):
        assert not reply.startswith("err internal"), (body, reply)
        if kind == "state":
            assert reply.startswith("ok {"), reply
            now = json.loads(reply[3:])
            if state is not None and now != state:
                assert last_kind == "valid" and last_reply.startswith("ok"), (
                    last_body, last_kind, last_reply)
                changed += 1
            state = now
        else:
            reliability_protocol_campaign.check_reply(kind, reply, body)
            last_body, last_kind, last_reply = body, kind, reply
    fuzz = len(items) // 2
    print("\nprotocol fuzzing (%s -m dealerbutton.board.unix, a pipe): %d fuzz lines and %d state "
          "lines, %d bytes in %d writes; every line answered once, %d accepted commands "
          "changed the state, no other line did"
          % (runtime, fuzz, fuzz, len(data), len(pieces), changed))
