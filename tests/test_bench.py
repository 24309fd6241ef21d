"""The benchmark in its quick mode: it runs, prints every figure and writes well-formed JSON.

Timings are not asserted (machines here are noisy); only the allocation and size figures
that are deterministic, where their targets are met."""

import json
import subprocess
import sys

import pytest
from dealerbutton_host import bench, bench_device
from mpy import ROOT


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
        assert f["status"] in ("-", "met", "missed", "n/a", "met (est.)", "missed (est.)",
                               "at risk (est.)"), f
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
    # The board's heap budget, 64 KB: the status follows the estimated range.
    pico = figures["heap_app_pico"]
    assert pico["limit_b"] == 64 * 1024
    r = pico["micropython"]
    assert pico["status"] == ("met (est.)" if r["high_b"] <= 64 * 1024 else "missed (est.)"
                              if r["low_b"] > 64 * 1024 else "at risk (est.)")

    # The verdict on the board's heap: the unix port's figure times the calibration, against
    # the budget less its margin.
    board = figures["heap_app_board"]
    v = board["micropython"]
    assert v["unix_b"] == figures["heap_app"]["micropython"]
    assert v["board_b"] == int(v["unix_b"] * bench.CALIBRATION) < v["peak_b"]
    assert board["limit_b"] == 56 * 1024
    assert board["status"] == ("met" if v["board_b"] <= 56 * 1024 else "missed")



def test_heap_with_a_network_block_and_with_a_tournament(run):
    _, result, _ = run
    hi = result["detail"]["micropython"]["heap_in_use"]
    f = result["figures"]
    # A Pico W's board keeps net.py and its Net as well: more than the plain table.
    assert hi["wifi_b"] > hi["app_b"], hi
    assert f["heap_wifi_board"]["micropython"]["unix_b"] == hi["wifi_b"]
    # A tournament table: measured when this firmware takes the "tournament" block.
    cmd = [sys.executable, "-c", "from dealerbutton import config; from dealerbutton_host."
           "bench_device import TOURNAMENT; print(not config.validate({'tournament': "
           "TOURNAMENT})[1])"]
    takes = subprocess.run(cmd, capture_output=True, text=True, check=True,
                           env={"PYTHONPATH": "%s:%s" % (ROOT / "firmware",
                                                         ROOT / "host")}).stdout.strip()
    if takes == "True":
        assert hi["tournament_b"] > 0 and f["heap_tournament_board"]["status"] != "n/a"
    else:
        assert hi["tournament_b"] is None and f["heap_tournament_board"]["status"] == "n/a"


def test_board_heap_calibration_is_the_board_measurement():
    assert bench.CALIBRATION == pytest.approx(33.5 / 45.4)
    assert bench.board_heap(45400) == {"unix_b": 45400, "board_b": 33500, "peak_b": 38800}


def test_heap_in_use_and_sizes(run):
    _, result, _ = run
    f = result["figures"]
    for key in ("heap_import", "heap_app", "heap_app_mpy", "heap_played"):
        assert isinstance(f[key]["micropython"], int) and f[key]["micropython"] > 0, key
        assert f[key]["cpython"] is None
    assert f["heap_import"]["micropython"] < f["heap_app"]["micropython"]
    for key in ("heap_app_pico", "heap_played_pico"):
        r = f[key]["micropython"]
        assert 0 < r["low_b"] <= r["high_b"], (key, r)
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


def test_pico_heap_range():
    # All word-sized: exactly half; all bytes: unchanged at the top of the range.
    assert bench.pico_heap_range(64000, 0) == {"low_b": 32000, "high_b": 32000}
    assert bench.pico_heap_range(64000, 64000) == {"low_b": 32000, "high_b": 64000}
    assert bench.pico_heap_range(60000, 20000) == {"low_b": 30000, "high_b": 40000}
