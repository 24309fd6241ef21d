"""The benchmark in its quick mode: it runs, prints every figure and writes well-formed JSON.

Timings are not asserted (machines here are noisy); only the allocation and size figures
that are deterministic, where their targets are met."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from dealerbutton_host import bench, bench_device, web
from mpy import ROOT


def _missing(why):
    # CI installs Node and the WebAssembly port (.ci/run: npm ci): there, a missing one fails.
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def _need_heap32():
    if shutil.which("node") is None:
        _missing("no `node` on PATH: the 32-bit heap is not measured")
    if not (web.runtime_dir() / "micropython.mjs").is_file():
        _missing("MicroPython's WebAssembly runtime is missing: run `npm ci`")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench")
    out = tmp / "results.json"
    proc = subprocess.run([sys.executable, "-m", "dealerbutton_host.bench", "--quick",
                           "--json", str(out)], cwd=tmp, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc, json.loads(out.read_text()), tmp


def test_every_figure_is_in_the_table_and_the_json(run):
    proc, result, _ = run
    assert result["quick"] is True and result["runs"] == 1
    assert set(result["figures"]) == {f[0] for f in bench.FIGURES}
    lines = proc.stdout.splitlines()
    for key, label, _unit, _kind in bench.FIGURES:
        row = [line for line in lines if line.startswith(label + " ")]
        assert len(row) == 1, (label, proc.stdout)
        f = result["figures"][key]
        assert f["label"] == label
        assert f["status"] in ("-", "met", "missed", "n/a"), f
        assert f["status"] in row[0], (row[0], f)
        if f["status"] != "-":
            assert f["target"] and f["target"] in row[0]
    assert "written" in lines[-1]


def test_timings_show_the_unix_figure_the_rp2_estimate_and_its_ratio(run):
    proc, result, _ = run
    lines = proc.stdout.splitlines()
    t = result["timings"]
    for key, label, _where, ratio, target in bench.TIMINGS:
        row = [line for line in lines if line.startswith(label + " ")]
        assert len(row) == 1, (label, proc.stdout)
        f = t[key]
        unix = f["unix"][0]
        assert 0 < unix["median_us"] <= unix["p95_us"], (key, unix)
        # The rp2 figure is the unix port's p95 times the ratio the row names.
        assert f["rp2_p95_ms"][0] == unix["p95_us"] * bench.RATIOS[ratio] / 1000
        assert "%dx" % bench.RATIOS[ratio] in row[0]
        # Timing verdicts are per run on this host, never met/missed.
        assert " met" not in row[0] and "missed" not in row[0]
        speed = t["host_speed"]["per_run"][0]
        assert f["rp2_p95_ms_calibrated"][0] == f["rp2_p95_ms"][0] * speed
        if target:
            assert row[0].rstrip().endswith("%d; %d of 1" % (f["runs_within"],
                                                             f["runs_within_calibrated"]))
    assert bench.RATIOS == {"frame": 125, "deal": 119, "idle_tick": 91, "gc": 64}
    for _key, label, _unit, _target in bench.LOOP:
        row = [line for line in lines if line.startswith(label + " ")]
        assert len(row) == 1 and "(modelled)" in row[0], (label, proc.stdout)
    detail = result["detail"]["micropython"]
    # The old renderer drew the very frames the new one drew (the bench checks), and its
    # time here gives this host's speed against the one the ratios were measured on.
    assert detail["frame"]["reference_render"]["n"] > 0
    assert speed == bench_device.REFERENCE_RENDER_RP2_US / 125 / detail["frame"][
        "reference_render"]["median_us"]
    assert detail["loop_calibrated"]["speed"] == pytest.approx(speed)
    loop = detail["loop"]
    assert loop["speed"] == 1.0
    assert loop["press_seat"]["n"] > 0 and loop["press_next"]["n"] > 0
    # A press cannot show before the release wait is over.
    assert loop["press_seat"]["median_us"] >= loop["release_ms"] * 1000
    assert 0 < loop["idle_per_mille"] < 1000
    assert "frame 125x, deal 119x, idle tick 91x, gc 64x" in proc.stdout


def test_progress_goes_to_stderr(run):
    proc, _, _ = run
    assert "bench[micropython]:" in proc.stderr and "bench[cpython]:" in proc.stderr
    assert "bench[" not in proc.stdout


def test_heap_per_call_is_counted_on_micropython_only(run):
    _, result, _ = run
    for key, _label, _unit, kind in bench.FIGURES:
        if kind != "heap":
            continue
        f = result["figures"][key]
        assert f["cpython"] is None
        h = f["micropython"]
        assert h["n"] > 0 and 0 <= h["median_b"] <= h["max_b"], (key, h)
    figures = result["figures"]
    # A table event writes its undo snapshot into a ring made with the table: it allocates
    # nothing. A deal builds its hand: not free.
    assert figures["event_heap"]["micropython"]["max_b"] == 0
    assert figures["deal_heap"]["micropython"]["median_b"] > 0
    # Deterministic targets that are met: the frame and the button poll allocate nothing.
    assert figures["frame_heap"]["micropython"]["max_b"] == 0
    # With the tournament clock running, through its four signals on the ring.
    assert figures["frame_clock_heap"]["micropython"]["max_b"] == 0
    assert result["detail"]["micropython"]["frame_clock"]["signal_at_end"] == 3  # the break
    assert figures["idle_tick_heap"]["micropython"]["max_b"] == 0

def test_heap_with_a_network_block_and_with_a_tournament(run):
    _, result, _ = run
    hi = result["detail"]["micropython"]["heap_in_use"]
    # A Pico W's board keeps net.py and its Net as well: more than the plain table.
    assert hi["wifi_b"] > hi["app_b"], hi
    # A tournament table: measured when this firmware takes the "tournament" block.
    cmd = [sys.executable, "-c", "from dealerbutton import config; from dealerbutton_host."
           "bench_device import TOURNAMENT; print(not config.validate({'tournament': "
           "TOURNAMENT})[1])"]
    takes = subprocess.run(cmd, capture_output=True, text=True, check=True,
                           env={"PYTHONPATH": "%s:%s" % (ROOT / "firmware",
                                                         ROOT / "host")}).stdout.strip()
    if takes == "True":
        assert hi["tournament_b"] > 0
    else:
        assert hi["tournament_b"] is None


def test_board_heap_is_measured_at_32_bits(run):
    proc, result, _ = run
    h = result["detail"]["webassembly_32bit"]
    if "missing" in h:
        _missing(h["missing"])
    assert "error" not in h, h
    assert h["runtime"] == "micropython" and h["platform"] == "webassembly"
    assert h["word_bits"] == 32
    # The bytecode files deploy sends (a Pico W's net.py too), none of the host's; the viper
    # module only counted, at the size of its armv6m .mpy.
    assert "app.mpy" in h["copied"] and "net.mpy" in h["copied"]
    assert not {"unix.mpy", "capture.mpy", "strip_cp.mpy", "board_cp.mpy"} & set(h["copied"])
    assert h["native"] == {"fastloops.mpy": result["mpy_files"]["dealerbutton/fastloops.mpy"]}
    assert h["loaded_from"] == "/lib/dealerbutton/rules.mpy"
    # The plain table loads neither the network nor the tournament clock.
    assert "dealerbutton.app" in h["modules"]
    assert "dealerbutton.net" not in h["modules"] and "dealerbutton.clock" not in h["modules"]
    # More of the firmware at work takes more room.
    assert 0 < h["import_b"] < h["app_b"] <= h["played_b"]
    assert h["app_b"] < h["tournament_b"] < h["wifi_tournament_b"]
    assert h["app_b"] < h["wifi_b"] < h["wifi_tournament_b"]
    # A 32-bit heap is smaller than the unix port's 64-bit one for the same .mpy files.
    unix = result["detail"]["micropython_mpy"]["heap_in_use"]
    assert h["app_b"] < unix["app_b"]
    f = result["figures"]
    lines = proc.stdout.splitlines()
    native_b = h["native"]["fastloops.mpy"]
    for key, src in (("heap32_import", "import_b"), ("heap32_app", "app_b"),
                     ("heap32_played", "played_b"), ("heap32_tournament", "tournament_b"),
                     ("heap32_wifi", "wifi_b"), ("heap32_wifi_tournament", "wifi_tournament_b")):
        v = f[key]["micropython"]
        assert v == {"wasm_b": h[src], "native_b": native_b, "board_b": h[src] + native_b,
                     "spare_b": 64 * 1024 - h[src] - native_b}, key
        assert f[key]["limit_b"] == 64 * 1024
        assert f[key]["status"] == ("met" if v["board_b"] <= 64 * 1024 else "missed")
        row = [line for line in lines if line.startswith(f[key]["label"] + " ")][0]
        assert ("%.1f KB (%.1f KB %s)" % (v["board_b"] / 1024, abs(v["spare_b"]) / 1024,
                                          "spare" if v["spare_b"] >= 0 else "over")) in row
    notes = [line for line in lines if line.startswith("board heap (32-bit): gc.mem_alloc()")]
    assert len(notes) == 1
    assert "MicroPython %s (webassembly port, 32-bit)" % h["version"] in notes[0]
    assert "fastloops.mpy %d B" % native_b in notes[0]
    assert "605a236" in notes[0] and "26.6 KB" in notes[0]
    assert result["board_heap_32bit"]["runtime"].startswith("MicroPython " + h["version"])


def _heap32(*args):
    return subprocess.run(["node", str(bench.HEAP32_SCRIPT)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def mpy32(tmp_path_factory):
    """The firmware's .mpy files as deploy makes them, sorted as the bench gives them to
    heap32.mjs."""
    _need_heap32()
    tmp = tmp_path_factory.mktemp("heap32")
    bench.compile_mpy(ROOT / "firmware", tmp / "board")
    bench.heap32_files(tmp / "board", tmp / "heap32")
    return tmp / "heap32"


def test_a_smaller_table_weighs_less_on_the_32_bit_port(mpy32, tmp_path):
    """The same firmware driven by a device script with 6 seats and 24 LEDs: the same
    import, a smaller App."""
    script = (ROOT / "host" / "dealerbutton_host" / "bench_device.py").read_text()
    small = re.sub(r"^SEATS = 12$", "SEATS = 6", script, flags=re.M)
    small = re.sub(r"^LEDS = 60$", "LEDS = 24", small, flags=re.M)
    assert small.count("SEATS = 6") == 1 and small.count("LEDS = 24") == 1
    (tmp_path / "bench_device.py").write_text(small)
    rt = web.runtime_dir()
    big = _heap32(mpy32, rt)
    little = _heap32(mpy32, rt, tmp_path / "bench_device.py")
    assert big.returncode == 0 and little.returncode == 0, big.stderr + little.stderr
    big, little = json.loads(big.stdout), json.loads(little.stdout)
    assert big["import_b"] == little["import_b"] > 0
    assert 0 < little["app_b"] - little["import_b"] < big["app_b"] - big["import_b"]
    # The same run twice gives the same bytes: nothing else shares that heap.
    assert json.loads(_heap32(mpy32, rt).stdout) == big


def test_heap32_refuses_what_it_cannot_measure(mpy32, tmp_path):
    rt = web.runtime_dir()
    cases = [((tmp_path / "nowhere", rt), "is not a folder"),
             ((tmp_path, rt), "has no dealerbutton/app.mpy"),
             ((mpy32, tmp_path), "run `npm ci`"),
             ((mpy32,), "usage: node heap32.mjs")]
    for args, why in cases:
        proc = _heap32(*args)
        assert proc.returncode == 2 and proc.stdout == "", (args, proc)
        assert proc.stderr.startswith("heap32: ") and why in proc.stderr, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1, proc.stderr


def test_without_node_or_the_npm_package_the_bench_says_so_in_one_line(tmp_path, monkeypatch):
    (tmp_path / "dealerbutton").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path))
    got = bench.run_heap32(tmp_path)
    assert got == {"missing": "no `node` on PATH: install Node.js, then `npm ci` in %s"
                              % web.CHECKOUT}
    monkeypatch.undo()
    if shutil.which("node"):
        got = bench.run_heap32(tmp_path, runtime=tmp_path)
        assert "missing" in got and "run `npm ci`" in got["missing"], got
    note = bench.heap32_notes(got)
    assert note.startswith("board heap (32-bit): not measured: ") and "\n" not in note


def test_the_bench_prints_everything_else_without_the_32_bit_port(tmp_path, monkeypatch,
                                                                   capsys):
    monkeypatch.setattr(bench, "runtime_dir", lambda: tmp_path / "no-runtime")
    assert bench.main(["--quick", "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines()
             if line.startswith("board heap (32-bit): not measured: ")]
    assert len(notes) == 1 and "`npm ci`" in notes[0], out
    result = json.loads((tmp_path / "r.json").read_text())
    for key in ("heap32_import", "heap32_app", "heap32_wifi"):
        assert result["figures"][key]["status"] == "n/a"
    assert result["figures"]["heap_app"]["status"] == "met"
    assert "state file, full table, debts" in out and "frame, 60 LEDs 12 seats" in out


def test_board_heap_and_native_code():
    assert bench.board_heap(60000, 1200) == {"wasm_b": 60000, "native_b": 1200,
                                             "board_b": 61200, "spare_b": 65536 - 61200}
    assert bench.board_heap(70000, 0)["spare_b"] == -4464
    # mpy v6.3's third byte: the architecture << 2, then the sub-version (3).
    assert bench.native_arch(b"M\x06\x03\x1f") == 0  # bytecode only
    assert bench.native_arch(b"M\x06\x13\x1f") == 4  # armv6m
    assert bench.native_arch(b"") == 0


def test_heap_in_use_and_sizes(run):
    _, result, _ = run
    f = result["figures"]
    for key in ("heap_import", "heap_app", "heap_app_mpy", "heap_played"):
        assert isinstance(f[key]["micropython"], int) and f[key]["micropython"] > 0, key
        assert f[key]["cpython"] is None
    assert f["heap_import"]["micropython"] < f["heap_app"]["micropython"]
    detail = result["detail"]
    assert detail["micropython"]["heap_in_use"]["loaded_from"].endswith("rules.py")
    assert detail["micropython_mpy"]["heap_in_use"]["loaded_from"].endswith("rules.mpy")
    # One .mpy per firmware module, all of them counted; the board's share is smaller.
    sources = sorted(p.relative_to(ROOT / "firmware").with_suffix(".mpy").as_posix()
                     for p in (ROOT / "firmware").rglob("*.py") if "__pycache__" not in p.parts)
    assert sorted(result["mpy_files"]) == sources
    assert f["mpy_total"]["micropython"] == sum(result["mpy_files"].values())
    assert 0 < f["mpy_board"]["micropython"] < f["mpy_total"]["micropython"]
    # The saved state: the same bytes on both runtimes, inside littlefs's inline limit.
    for key in ("state_file", "state_file_widest"):
        assert f[key]["micropython"] == f[key]["cpython"]
        assert 0 < f[key]["micropython"] <= 512
    assert f["state_file"]["micropython"] < f["state_file_widest"]["micropython"]
    for runtime in ("micropython", "cpython"):
        st = detail[runtime]["state"]
        assert st["round_trip"] is True
        assert st["seats_taken"] == 12 and st["players_owing"] >= 1


def test_json_describes_the_run(run):
    _, result, _ = run
    assert result["micropython_version"] and result["cpython_version"]
    assert result["seconds"] > 0
    assert result["rp2_ratios"] == bench.RATIOS
    assert result["detail"]["micropython"]["runtime"] == "micropython"
    assert result["detail"]["cpython"]["runtime"] == "cpython"


def test_default_json_file_in_the_current_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert bench.main(["--quick"]) == 0
    assert "bench-results.json written" in capsys.readouterr().out
    assert set(json.loads((tmp_path / "bench-results.json").read_text())["figures"]) == {
        f[0] for f in bench.FIGURES}


def test_bad_firmware_folder_is_refused(tmp_path, capsys):
    assert bench.main(["--quick", "--firmware", str(tmp_path)]) == 2
    assert "no dealerbutton/app.py" in capsys.readouterr().err
