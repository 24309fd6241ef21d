"""What a Pico W's publishing costs the board's loop: dealerbutton.net's tick and state
message under the `micropython` unix port, with the board's estimate by the measured
unix-port-to-Pico ratios (idle tick 91x, deal 119x).

    python -m dealerbutton_host.bench.net

The client is one that returns at once (the time on the Wi-Fi chip and the air is not the
loop's own and cannot be had here): the figures are Net's part of a loop turn.
  idle tick      connected, nothing due (most turns)
  offline tick   the Wi-Fi down: the link check only
  state message  building the retained state of a 9-seat table after a hand
Times are the best of five runs; allocation is the heap's growth per call (gc.mem_alloc,
the collector off), on the unix port.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from ..device.emulator import EmulatorError, firmware_dir, micropython_exe

IDLE_RATIO = 91
DEAL_RATIO = 119

SCRIPT = r"""
import gc, json, time
from dealerbutton import net
from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store.config import validate

class Pin:
    def value(self):
        return 1

class Quiet:
    def set_last_will(self, *a): pass
    def set_callback(self, f): pass
    def connect(self, *a): pass
    def subscribe(self, *a): pass
    def publish(self, *a): pass
    def check_msg(self): pass
    def ping(self): pass
    def disconnect(self): pass

N = %d
cfg = validate({"seats": 9})[0]
app = App(cfg, CaptureStrip(24), [Pin() for _ in range(10)], lambda line: None, now_ms=0)
for s in range(1, 10):
    app.command("sit %%d" %% s)
app.command("deal 1")
link = [True]
n = net.Net(app, {"room": "club", "table": "7"}, lambda cid: Quiet(), 0, lambda: link[0])
n.tick(0)
out = {}

def measure(name, f, calls):
    f()
    best = None
    for run in range(5):  # the best of five: a machine shared with others only slows a run
        gc.collect()
        gc.disable()  # the heap's growth is then what the calls allocated
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        for i in range(calls):
            f()
        took = time.ticks_diff(time.ticks_us(), t0)
        grew = gc.mem_alloc() - before
        gc.enable()
        if best is None or took < best:
            best = took
    out[name] = [best / calls, grew / calls]

now = [1]
def idle():
    n.tick(now[0])  # less than CHECK_MS apart: nothing due
measure("idle tick", idle, N)
link[0] = False
n.client = None
measure("offline tick", idle, N)
measure("state message", n.state_text, N // 20)
print(json.dumps(out))
"""


def run(n: int) -> dict:
    env = dict(os.environ, MICROPYPATH=str(firmware_dir()))
    proc = subprocess.run([micropython_exe(), "-X", "heapsize=16M", "-c", SCRIPT % n], capture_output=True,
                          text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise SystemExit("netbench: micropython failed: " + proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dealerbutton_host.bench.net",
                                description="What a Pico W's publishing costs the board's loop.")
    p.add_argument("--calls", type=int, default=20000, help="calls per figure (20000)")
    args = p.parse_args(argv)
    try:
        micropython_exe()   # before anything: what the bench runs on
    except EmulatorError as exc:
        sys.stderr.write("netbench: %s\n" % exc)
        return 1
    figures = run(args.calls)
    print("Pico W publishing, micropython unix port (best of 5 x %d ticks, %d state "
          "messages); Pico by the ratios" % (args.calls, args.calls // 20))
    print("%-14s %12s %14s %14s" % ("", "unix us", "bytes/call", "Pico (est.)"))
    for name, ratio in (("idle tick", IDLE_RATIO), ("offline tick", IDLE_RATIO),
                        ("state message", DEAL_RATIO)):
        us, grew = figures[name]
        pico = us * ratio
        print("%-14s %12.2f %14.0f %11.2f ms  (%dx)" % (name, us, grew, pico / 1000, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
