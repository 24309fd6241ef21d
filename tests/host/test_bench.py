"""The unix-port benchmark in its quick mode: it runs, prints every figure and writes
well-formed JSON.

Timings are not asserted (machines here are noisy), only that each is there and well formed;
the allocation and size figures that do not depend on timing are held to their targets."""

import json
import subprocess
import sys

import pytest
from dealerbutton_host.bench import local
from micropython_unix import ROOT


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench")
    out = tmp / "results.json"
    proc = subprocess.run([sys.executable, "-m", "dealerbutton_host.bench", "--quick",
                           "--json", str(out)], cwd=tmp, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc, json.loads(out.read_text()), tmp


def _row(stdout, label):
    rows = [line for line in stdout.splitlines() if line.startswith(label + " ")]
    assert len(rows) == 1, (label, stdout)
    return rows[0]


def test_every_figure_is_in_the_table_and_the_json(run):
    proc, result, _ = run
    assert result["quick"] is True and result["runs"] == 1
    assert set(result["figures"]) == set(local.FIGURE_KEYS)
    for key, label, _unit, _kind in local.FIGURES:
        row = _row(proc.stdout, label)
        f = result["figures"][key]
        assert f["label"] == label
        assert f["status"] in ("-", "met", "missed"), f
        assert row.endswith(" " + f["status"]), (row, f)
        if f["status"] != "-":
            assert f["target"] and f["target"] in row
    assert proc.stdout.splitlines()[-1].endswith("results.json written (%.1f s)"
                                                 % result["seconds"])


def test_each_time_per_call_of_the_unix_port_and_of_cpython(run):
    proc, result, _ = run
    t = result["timings"]
    assert set(t) == set(local.TIMING_KEYS)
    for key, label, _where in local.TIMINGS:
        row = _row(proc.stdout, label)
        f = t[key]
        assert f["label"] == label
        (unix,) = f["unix"]  # one run in the quick mode
        for runtime in (unix, f["cpython"]):
            assert runtime["n"] > 0 and 0 <= runtime["median_us"] <= runtime["p95_us"], (key, f)
        # One run: no range; the unix port's ticks are whole microseconds.
        assert "  %d / %d  " % (unix["median_us"], unix["p95_us"]) in row, row
        assert row.endswith("  " + local.fmt_value("time", f["cpython"])), row


def test_several_runs_are_shown_as_ranges():
    def run_of(median, p95):
        return {"median_us": median, "p95_us": p95, "n": 10}

    timings = {key: {"label": label, "unix": [run_of(7, 21), run_of(9, 19), run_of(8, 21)],
                     "cpython": run_of(6.5, 120.4)} for key, label, _ in local.TIMINGS}
    timings["gc_time"]["unix"] = [run_of(62, 70), run_of(62, 70)]  # the same in both
    timings["event_time"]["unix"] = [None, run_of(5, 6)]  # a run without samples
    out = local.timing_table(timings)
    lines = out.splitlines()
    assert lines[0].startswith("time per call ") and len(lines) == 2 + len(local.TIMINGS)
    assert lines[2].startswith("frame, 60 LEDs 12 seats  ")
    assert "  7-9 / 19-21  " in lines[2] and lines[2].endswith("  6.5 / 120")
    assert "  62 / 70  " in _row(out, "gc.collect()")
    assert "  5 / 6  " in _row(out, "seat event")


def test_only_what_is_measured_here_and_where_the_board_figures_are(run):
    proc, result, _ = run
    out = proc.stdout
    for gone in ("rp2", " ratio", "host speed", "modelled", "32-bit", "board heap", "est."):
        assert gone not in out, gone
        assert gone not in json.dumps(result["timings"]) + json.dumps(result["figures"]), gone
    # One line says where the board's figures come from, and the docstring says it too.
    assert out.splitlines().count(local.BOARD_NOTE) == 1
    assert "dealerbutton bench --board" in local.BOARD_NOTE
    assert "dealerbutton bench --board" in " ".join((local.__doc__ or "").split())
    # Every heap-in-use row says whose heap it is.
    labels = [label for _k, label, _u, _kind in local.FIGURES if label.startswith("heap in use")]
    assert len(labels) == 6
    assert all(label.startswith("heap in use (64-bit unix port): ") for label in labels)


def test_progress_goes_to_stderr(run):
    proc, _, _ = run
    assert "bench[micropython]:" in proc.stderr and "bench[cpython]:" in proc.stderr
    assert "bench[" not in proc.stdout


def test_heap_per_call_is_counted_on_micropython_only(run):
    _, result, _ = run
    for key, _label, _unit, kind in local.FIGURES:
        if kind != "heap":
            continue
        f = result["figures"][key]
        assert f["cpython"] is None
        h = f["micropython"]
        assert h["n"] > 0 and 0 <= h["median_b"] <= h["max_b"], (key, h)
    figures = result["figures"]
    # A table event keeps a snapshot of the table for undo; a deal works the hand out and
    # builds it: neither is free, both within their targets (64-bit objects here).
    assert 0 < figures["event_heap"]["micropython"]["max_b"] <= 2048
    assert 0 < figures["deal_heap"]["micropython"]["median_b"]
    assert figures["deal_heap"]["micropython"]["max_b"] <= 12 * 1024
    # The frame and the button poll allocate nothing.
    assert figures["frame_heap"]["micropython"]["max_b"] == 0
    # With the tournament clock running, through its four signals on the ring.
    assert figures["frame_clock_heap"]["micropython"]["max_b"] == 0
    assert result["detail"]["micropython"]["frame_clock"]["signal_at_end"] == 3  # the break
    assert figures["idle_tick_heap"]["micropython"]["max_b"] == 0
    for key in ("deal_heap", "event_heap", "frame_heap", "frame_clock_heap", "idle_tick_heap"):
        assert figures[key]["status"] == "met", key


def test_heap_with_a_network_block_and_with_a_tournament(run):
    _, result, _ = run
    f = result["figures"]
    hi = result["detail"]["micropython"]["heap_in_use"]
    assert f["heap_wifi"]["micropython"] == hi["wifi_b"]
    assert f["heap_tournament"]["micropython"] == hi["tournament_b"]
    # A Pico W's board keeps net.py and its Net as well: more than the plain table.
    assert hi["wifi_b"] > hi["app_b"], hi
    # A tournament table: measured when this firmware takes the "tournament" block.
    cmd = [sys.executable, "-c", "from dealerbutton.store import config; from dealerbutton_host.bench."
           "local_probe import TOURNAMENT; print(not config.validate({'tournament': "
           "TOURNAMENT})[1])"]
    takes = subprocess.run(cmd, capture_output=True, text=True, check=True,
                           env={"PYTHONPATH": "%s:%s" % (ROOT / "firmware",
                                                         ROOT / "host")}).stdout.strip()
    if takes == "True":
        assert hi["tournament_b"] > hi["app_b"]
    else:
        assert hi["tournament_b"] is None


def test_heap_in_use_and_sizes(run):
    _, result, _ = run
    f = result["figures"]
    for key in ("heap_import", "heap_app", "heap_app_mpy", "heap_played"):
        assert isinstance(f[key]["micropython"], int) and f[key]["micropython"] > 0, key
        assert f[key]["cpython"] is None
        # The unix port's own heap: no target, no verdict (the board's is not measured here).
        assert f[key]["target"] is None and f[key]["status"] == "-"
    assert f["heap_import"]["micropython"] < f["heap_app"]["micropython"]
    detail = result["detail"]
    assert detail["micropython"]["heap_in_use"]["loaded_from"].endswith("rules/table.py")
    assert detail["micropython_mpy"]["heap_in_use"]["loaded_from"].endswith("rules/table.mpy")
    # One .mpy per firmware module, all of them counted; the board's share is smaller.
    sources = sorted(p.relative_to(ROOT / "firmware").with_suffix(".mpy").as_posix()
                     for p in (ROOT / "firmware").rglob("*.py") if "__pycache__" not in p.parts)
    assert sorted(result["mpy_files"]) == sources
    assert f["mpy_total"]["micropython"] == sum(result["mpy_files"].values())
    assert 0 < f["mpy_board"]["micropython"] < f["mpy_total"]["micropython"]
    # The saved state: the same size on both runtimes, the widest inside store.READ_LIMIT.
    for key, limit in (("state_file", 2048), ("state_file_widest", 4096)):
        assert f[key]["micropython"] == f[key]["cpython"]
        assert 0 < f[key]["micropython"] <= limit and f[key]["status"] == "met"
    assert f["state_file"]["micropython"] < f["state_file_widest"]["micropython"]
    for runtime in ("micropython", "cpython"):
        st = detail[runtime]["state"]
        assert st["round_trip"] is True
        assert st["seats_taken"] == 12 and st["players_owing"] >= 1


def test_json_describes_the_run(run):
    _, result, _ = run
    assert set(result) == {"quick", "runs", "seconds", "machine", "micropython_version",
                           "cpython_version", "micropython_heapsize", "timings", "figures",
                           "mpy_files", "detail"}
    assert result["micropython_version"] and result["cpython_version"]
    assert result["seconds"] > 0
    assert result["detail"]["micropython"]["runtime"] == "micropython"
    assert result["detail"]["cpython"]["runtime"] == "cpython"
    assert result["detail"]["micropython_runs"] == []


def test_default_json_file_in_the_current_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert local.main(["--quick"]) == 0
    assert "bench-results.json written" in capsys.readouterr().out
    assert set(json.loads((tmp_path / "bench-results.json").read_text())["figures"]) == set(
        local.FIGURE_KEYS)


def test_bad_firmware_folder_and_runs_are_refused(tmp_path, capsys):
    assert local.main(["--quick", "--firmware", str(tmp_path)]) == 2
    assert "no dealerbutton/app.py" in capsys.readouterr().err
    assert local.main(["--quick", "--runs", "0"]) == 2
    assert "--runs 0 is not in 1..20" in capsys.readouterr().err


def test_a_kit_named_by_its_own_scratch_copy_is_used_as_it_is(tmp_path):
    """$DEALERBUTTON_RP2SIM set to build/rp2sim (the copy the bench made): nothing is copied
    onto itself (which deleted the kit first); without its Node modules, it says so."""
    from dealerbutton_host.bench.rp2sim import Kit, KitMissing

    kit_dir = tmp_path / "rp2sim"
    (kit_dir / "node_modules" / "rp2040js").mkdir(parents=True)
    (kit_dir / "run.mjs").write_text("// the kit\n")
    kit = Kit(kit_dir, scratch=kit_dir)
    kit._copy(lambda line: None)
    assert (kit_dir / "run.mjs").read_text() == "// the kit\n"
    (kit_dir / "node_modules" / "rp2040js").rmdir()
    with pytest.raises(KitMissing, match="no Node modules: run `npm ci` there"):
        Kit(kit_dir, scratch=kit_dir)._copy(lambda line: None)
    assert (kit_dir / "run.mjs").exists()
