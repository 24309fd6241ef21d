"""Benchmark: responsiveness and memory of the firmware on the board's budget.

    python -m dealerbutton_host.bench [--quick] [--json FILE]

Runs bench_device.py under the `micropython` unix port (the figures that matter: time, heap
per call, heap in use) and under CPython (reference times), loads the .mpy files mpy-cross
makes for the Pico to weigh them and the heap they take, then prints a table of every figure
with its target and writes the same as JSON (default bench-results.json). Progress on stderr.

Times are of the unix port on this computer, not of the Pico: see the README for the factor
assumed between the two. Targets marked "(est.)" are the Pico's budget divided by that
factor at its pessimistic end (100x): an estimate, not a measurement.
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
from typing import Any, Dict, List, Optional

from .deploy import HOST_ONLY, NETWORK_ONLY, mpy_cross_exe
from .device import EmulatorError, firmware_dir, micropython_exe

HERE = Path(__file__).resolve().parent
DEVICE_SCRIPT = HERE / "bench_device.py"
MARCH = "armv6m"  # the RP2040's Cortex-M0+
# The Pico has about 190 KB of heap; objects on this 64-bit unix port are about twice as big.
HEAPSIZE = "384K"
PICO_FACTOR = (30, 100)  # assumed slowdown of the Pico against the unix port here (README)
FRAME_MS = 25  # the app renders at 40 frames a second
# Sending 60 LEDs down the wire (24 bits of 1.25 us each, then a 50 us latch) is done by C on
# the board and takes the same time there as anywhere: it comes off the frame budget.
WIRE_US = 60 * 24 * 1.25 + 50
PRESS_MS = 50  # press to frame on the Pico: with the 50 ms debounce, 100 ms in all feels instant
KB = 1024

# Every figure, in the order of the table: key, label, unit, kind.
FIGURES = [
    ("deal_time", "deal(), 12 seats with churn", "us", "time"),
    ("event_time", "seat event (sit/away/back/choose/leave)", "us", "time"),
    ("frame_time", "rendered frame (60 LEDs, 12 seats)", "us", "time"),
    ("press_time", "button press to frame", "us", "time"),
    ("idle_tick_time", "idle tick (poll 13 buttons)", "us", "time"),
    ("save_time", "save after an event (no flash write)", "us", "time"),
    ("gc_time", "gc.collect() pause", "us", "time"),
    ("deal_heap", "heap per deal()", "B", "heap"),
    ("event_heap", "heap per seat event", "B", "heap"),
    ("frame_heap", "heap per rendered frame", "B", "heap"),
    ("idle_tick_heap", "heap per idle tick", "B", "heap"),
    ("press_heap", "heap per button press (tick)", "B", "heap"),
    ("save_heap", "heap per save (to_dict, JSON, CRC)", "B", "heap"),
    ("heap_import", "heap in use: firmware imported", "B", "size"),
    ("heap_app", "heap in use: App built (12 seats, 60 LEDs)", "B", "size"),
    ("heap_app_mpy", "heap in use: App built, from .mpy files", "B", "size"),
    ("heap_played", "heap in use: after 200 hands of play", "B", "size"),
    ("heap_app_pico", "heap in use: Pico est., App built", "B", "range"),
    ("heap_played_pico", "heap in use: Pico est., after play", "B", "range"),
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
    """Run bench_device.py; its progress goes straight to our stderr, its stdout is JSON."""
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

def compile_mpy(firmware: Path, out: Path) -> Dict[str, int]:
    """mpy-cross -march=armv6m of every firmware module into out/ (same layout, so the
    unix port can import them); {relative .mpy path: size}."""
    exe = mpy_cross_exe()
    sizes = {}
    for src in sorted(firmware.rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        rel = src.relative_to(firmware)
        dest = out / rel.with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([exe, "-march=" + MARCH, "-s", rel.as_posix(), "-o", str(dest),
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


def pico_heap_range(unix_b: int, byte_data_b: int) -> Dict[str, int]:
    """The heap the same objects take on the Pico (32-bit words, 16-byte GC blocks) from the
    64-bit unix port's figure: at least half of it (everything word-sized), at most the byte
    data (bytecode, qstr text: bounded by the .mpy size) plus half of the rest."""
    low = unix_b // 2
    high = byte_data_b + (unix_b - byte_data_b) // 2
    return {"low_b": low, "high_b": max(low, high)}


def build_figures(mp: Dict[str, Any], cp: Dict[str, Any], mpy_heap: Dict[str, Any],
                  mpy: Dict[str, int], board_mpy_b: int) -> Dict[str, Dict[str, Any]]:
    fig: Dict[str, Dict[str, Any]] = {}
    hi = mp.get("heap_in_use") or {}
    hi_mpy = mpy_heap.get("heap_in_use") or {}
    frame_limit = (FRAME_MS * 1000 - WIRE_US) / PICO_FACTOR[1]
    press_limit = PRESS_MS * 1000 / PICO_FACTOR[1]

    def timing(key, src, limit=None, target=None):
        m = _time(mp[src]["time"])
        fig[key] = {"micropython": m, "cpython": _time(cp[src]["time"]),
                    "target": target, "limit_us": limit,
                    "status": _status(m["p95_us"] if m else None, limit)}

    timing("deal_time", "deal")
    timing("event_time", "event")
    timing("frame_time", "frame", frame_limit,
           "p95 <= %d us (est.: (%d ms - %.2f ms wire) / %dx)"
           % (frame_limit, FRAME_MS, WIRE_US / 1000, PICO_FACTOR[1]))
    timing("press_time", "press", press_limit,
           "p95 <= %d us (est.: %d ms / %dx)" % (press_limit, PRESS_MS, PICO_FACTOR[1]))
    timing("idle_tick_time", "idle_tick")
    timing("save_time", "save")
    timing("gc_time", "gc_collect")

    def heap(key, src, limit=None, target=None):
        m = _heap(mp[src].get("heap"))
        fig[key] = {"micropython": m, "cpython": None, "target": target, "limit_b": limit,
                    "status": _status(m["max_b"] if m else None, limit)}

    heap("deal_heap", "deal", 2 * KB, "max <= 2048 B")
    heap("event_heap", "event")
    heap("frame_heap", "frame", 0, "0 B")
    heap("idle_tick_heap", "idle_tick", 0, "0 B (poll path)")
    heap("press_heap", "press")
    heap("save_heap", "save")

    def size(key, value, limit=None, target=None, cpython=None):
        fig[key] = {"micropython": value, "cpython": cpython, "target": target, "limit_b": limit,
                    "status": _status(value, limit)}

    heap_target = "<= 40 KB"
    size("heap_import", hi.get("import_b"))
    size("heap_app", hi.get("app_b"), 40 * KB, heap_target)
    size("heap_app_mpy", hi_mpy.get("app_b"), 40 * KB, heap_target)
    size("heap_played", hi.get("played_b"), 40 * KB, heap_target)
    for key, src in (("heap_app_pico", hi_mpy.get("app_b")),
                     ("heap_played_pico", hi_mpy.get("played_b"))):
        if src is None:
            fig[key] = {"micropython": None, "cpython": None, "target": heap_target,
                        "limit_b": 40 * KB, "status": "n/a"}
            continue
        if mpy_heap.get("word_bits") == 32:  # a 32-bit build: the Pico's own object sizes
            r = {"low_b": src, "high_b": src}
        else:
            r = pico_heap_range(src, board_mpy_b)
        if r["high_b"] <= 40 * KB:
            status = "met (est.)"
        elif r["low_b"] > 40 * KB:
            status = "missed (est.)"
        else:
            status = "at risk (est.)"
        fig[key] = {"micropython": r, "cpython": None, "target": heap_target,
                    "limit_b": 40 * KB, "status": status}
    # The target is what a board gets: the emulator's and the CircuitPython board's
    # modules are compiled (and listed) too, but never sent to a MicroPython board.
    size("mpy_total", sum(mpy.values()))
    size("mpy_board", board_mpy_b, 40 * KB, "<= 40 KB")
    st = mp["state"]
    size("state_file", st["bytes"], 512, "<= 512 B (littlefs inline)",
         cpython=cp["state"]["bytes"])
    size("state_file_widest", st["worst_bytes"], 512, "<= 512 B (littlefs inline)",
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
    if kind == "range":
        return "%.1f-%.1f KB" % (v["low_b"] / KB, v["high_b"] / KB)
    if v >= 10 * KB:
        return "%d (%.1f KB)" % (v, v / KB)
    return "%d" % v


def table(figures: Dict[str, Dict[str, Any]]) -> str:
    rows = [("figure", "unit", "micropython", "cpython", "target", "status")]
    for key, label, unit, kind in FIGURES:
        f = figures[key]
        u = {"time": "us med/p95", "heap": "B med/max"}.get(kind, unit)
        rows.append((label, u, fmt_value(kind, f["micropython"]),
                     fmt_value(kind, f["cpython"]) if f["cpython"] is not None else "n/a",
                     f["target"] or "-", f["status"]))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


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


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealerbutton_host.bench",
                                 description="Time and weigh the firmware under the "
                                             "micropython unix port (CPython for reference).")
    ap.add_argument("--quick", action="store_true", help="few iterations (a few seconds)")
    ap.add_argument("--json", default="bench-results.json", metavar="FILE",
                    help="where to write the results (default: %(default)s)")
    ap.add_argument("--firmware", metavar="DIR", type=Path,
                    help="the firmware folder to measure (default: the installed one, %s)"
                    % firmware_dir())
    args = ap.parse_args(argv)
    started = time.monotonic()
    firmware = (args.firmware or firmware_dir()).resolve()
    if not (firmware / "dealerbutton" / "app.py").exists():
        sys.stderr.write("bench: %s has no dealerbutton/app.py\n" % firmware)
        return 2
    mode = ["--quick"] if args.quick else []
    timeout = 120 if args.quick else 600
    try:
        progress("micropython unix port (-X heapsize=%s)" % HEAPSIZE)
        mp = run_micropython([firmware, HERE], mode, timeout)
        progress("CPython %s (reference)" % platform.python_version())
        cp = run_cpython(firmware, mode, timeout)
        with tempfile.TemporaryDirectory(prefix="dealerbutton-bench-") as tmp:
            progress("mpy-cross -march=%s of every firmware module" % MARCH)
            mpy = compile_mpy(firmware, Path(tmp))
            board_mpy_b = sum(v for k, v in mpy.items() if k.startswith("dealerbutton/")
                              and k.split("/")[-1][:-4] + ".py" not in HOST_ONLY + NETWORK_ONLY)
            progress("heap in use with the .mpy files")
            mpy_heap = run_micropython([Path(tmp), HERE], mode + ["--heap-only"], timeout)
    except (BenchError, EmulatorError, subprocess.TimeoutExpired, OSError) as exc:
        sys.stderr.write("bench: %s\n" % exc)
        return 1
    figures = build_figures(mp, cp, mpy_heap, mpy, board_mpy_b)
    seconds = round(time.monotonic() - started, 1)
    result = {
        "quick": args.quick,
        "seconds": seconds,
        "machine": machine_info(),
        "micropython_version": mp["version"],
        "cpython_version": cp["version"],
        "micropython_heapsize": HEAPSIZE,
        "pico_factor_assumed": list(PICO_FACTOR),
        "figures": {k: dict(figures[k], label=label, unit=unit, kind=kind)
                    for k, label, unit, kind in FIGURES},
        "mpy_files": mpy,
        "detail": {"micropython": mp, "cpython": cp, "micropython_mpy": mpy_heap},
    }
    m = result["machine"]
    print("dealerbutton bench%s: micropython %s (unix port, %s-bit) and CPython %s on %s"
          " (%s cores%s)" % (" --quick" if args.quick else "", mp["version"],
                             mp.get("word_bits", "?"), cp["version"], m["cpu"], m["cores"],
                             ", %s MHz" % m["mhz"] if m["mhz"] else ""))
    print(table(figures))
    missed = [FIGURES[FIGURE_KEYS.index(k)][1].strip() for k in FIGURE_KEYS
              if figures[k]["status"].startswith(("missed", "at risk"))]
    print("time: median / 95th percentile in microseconds; heap per call: median / max bytes "
          "(gc.mem_alloc, collector off). (est.) = assumes the Pico %d-%dx slower than this "
          "unix port." % PICO_FACTOR)
    print("missed or at risk: %s" % (", ".join(missed) if missed else "none"))
    Path(args.json).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print("%s written (%.1f s)" % (args.json, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
