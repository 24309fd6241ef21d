"""The manual's figures come from the benches' JSON (docs/data/), through one command
(python -m dealerbutton_host.bench.report): the pages are what the data gives, a figure
changed by hand on either side is caught, the command checks what the benches need before
it starts one, and `dealerbutton bench --board` keeps what it measured when a later part
stops."""

import json
import shutil
from pathlib import Path

import pytest
from dealerbutton_host.bench import board, report

ROOT = Path(__file__).parents[2]


def copy_of_the_manual(tmp_path):
    """docs/ (pages and data) in a folder of its own, for the report to work on."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    return tmp_path


def test_every_figures_block_has_its_data_and_the_pages_agree_with_it():
    blocks = []
    for page in report.PAGES:
        text = (ROOT / page).read_text()
        blocks += [(str(page), m.group(2)) for m in report.BLOCK.finditer(text)]
        assert "No figures yet" not in text, page
    assert sorted(name for _, name in blocks) == sorted(report.BLOCKS), blocks
    for name in report.BLOCKS:
        data = report.load(ROOT, name)
        assert data is not None, "docs/data/%s.json is missing" % name
        assert data["source"]["command"] == report.BY_NAME[name].shown()
        assert not data.get("failed"), name
        for runtime, failed in (data.get("errors") or {}).items():   # said on the page
            for key in failed:
                assert "Not measured on %s, %s: " % (runtime, key) in "".join(
                    (ROOT / p).read_text() for p in report.PAGES), (name, runtime, key)
    assert report.differences(ROOT) == []


def test_a_figure_changed_by_hand_in_a_page_is_caught(tmp_path):
    root = copy_of_the_manual(tmp_path)
    page = root / "docs" / "benchmarks.md"
    text = page.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| idle CPU: cash game"))
    page.write_text(text.replace(row, row.replace(" %", "1 %", 1)))
    assert report.differences(root) == [str(report.PAGES[0])]
    report.write_pages(root)
    assert page.read_text() == text and report.differences(root) == []


def test_a_figure_changed_in_the_data_changes_the_page(tmp_path):
    root = copy_of_the_manual(tmp_path)
    path = root / "docs" / "data" / "referee.json"
    data = json.loads(path.read_text())
    data["rule_sets"]["dead"]["hands"] += 1
    path.write_text(json.dumps(data))
    assert report.differences(root) == [str(report.PAGES[1])]
    report.write_pages(root)
    assert str(data["rule_sets"]["dead"]["hands"]) in (root / report.PAGES[1]).read_text()


def test_the_board_table_in_the_data_is_made_from_its_figures():
    """The table the page shows is the bench's own reading of its figures (table_data), so
    the verdicts and the rows cannot drift from the measurements."""
    data = report.load(ROOT, "board")
    assert data is not None
    assert board.table_data(data) == data["table"]
    names = [rt["key"] for rt in data["table"]["runtimes"]]
    assert names == ["micropython", "circuitpython"]


def test_the_report_says_what_is_missing_before_it_runs_a_bench(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("DEALERBUTTON_RP2SIM", str(tmp_path / "no-kit"))
    monkeypatch.setattr(board.Kit, "missing_programs", staticmethod(lambda: ["socat"]))

    def take(root, bench):
        raise AssertionError("a bench was started")
    monkeypatch.setattr(report, "take", take)
    assert report.main(["--only", "board", "--only", "referee"]) == 1
    err = capsys.readouterr().err
    assert "no rp2sim kit at %s" % (tmp_path / "no-kit") in err
    assert "needs socat on PATH" in err


def test_bench_board_prints_and_writes_what_it_measured_when_a_runtime_stops(
        monkeypatch, capsys, tmp_path):
    """As a new user saw it: --runtime both, MicroPython measured for minutes, then
    CircuitPython stopped. MicroPython's figures are printed and written all the same."""
    measured = report.load(ROOT, "board")
    assert measured is not None
    setups = measured["runtimes"]["micropython"]["setups"]

    class FakeKit:
        source = "kit"

        def prepare(self, progress):
            return self

    monkeypatch.setattr(board, "missing", lambda *a: [])
    monkeypatch.setattr(board.Kit, "find", classmethod(lambda cls, path=None: FakeKit()))

    def deployed_image(kit, folder, say):   # (MicroPython's setups start from one deploy)
        return folder / "deployed.img", {"deploy_first_s": 12.34, "deploy_again_s": 3.21}

    def run_all(kit, todo, hands, rounds, jobs, probe, want_profile=False,
                runtime="micropython", deployed=None):
        assert (deployed is not None) == (runtime == "micropython")
        if runtime == "circuitpython":
            return {}, {"every setup": "the CIRCUITPY image needs the fatfs-ng package"}
        return {k: json.loads(json.dumps(v)) for k, v in setups.items()}, {}
    monkeypatch.setattr(board, "deployed_image", deployed_image)
    monkeypatch.setattr(board, "run_all", run_all)
    out = tmp_path / "board.json"
    assert board.main(json_path=str(out), runtime="both") == 1
    printed = capsys.readouterr()
    assert "idle CPU: cash game, 9 seats, 24 LEDs" in printed.out
    lines = printed.out.splitlines()
    assert any(line.startswith("deploy, first (wall time)") and " 12.3 s" in line
               for line in lines), lines
    assert any(line.startswith("deploy, up to date (wall time)") and " 3.2 s" in line
               for line in lines), lines
    assert "on MicroPython 1.28" in printed.out and "incomplete" in printed.out
    assert "CircuitPython 10.2.1, every setup: not measured: the CIRCUITPY image" in printed.err
    written = json.loads(out.read_text())
    assert list(written["runtimes"]) == ["micropython"]
    assert written["errors"] == {"circuitpython": {
        "every setup": "the CIRCUITPY image needs the fatfs-ng package"}}


@pytest.mark.parametrize("runtimes,profile,lacks,said", [
    (["circuitpython"], False, "fatfs", "fatfs-ng"),
    (["micropython"], True, "arm-none-eabi-nm", "binutils-arm-none-eabi"),
])
def test_bench_board_checks_what_a_run_needs_up_front(monkeypatch, runtimes, profile, lacks,
                                                      said):
    import importlib.util
    import shutil as sh

    real_which, real_spec = sh.which, importlib.util.find_spec
    monkeypatch.setattr(sh, "which", lambda p: None if p == lacks else real_which(p))
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda n, *a: None if n == lacks else real_spec(n, *a))
    problems = board.missing(None, runtimes, profile)
    assert any(said in p for p in problems), problems


def flaky_setup(kit, setup, hands, rounds, probe, say, want_profile=False,
                runtime="micropython", deployed=None):
    """A board that loses its serial line the first time `lost` is run (a marker file
    remembers it across the bench's processes), and never for `fine`."""
    import os

    marker = os.path.join(kit, setup.key)
    if setup.key == "lost" and not os.path.exists(marker):
        open(marker, "w").close()
        raise board.BoardError("the app on the emulated Pico does not answer")
    if setup.key == "broken":
        raise board.BoardError("deploy failed: always")
    return {"label": setup.label, "runtime": runtime}


def test_a_setup_that_stops_is_run_once_more(monkeypatch, tmp_path):
    monkeypatch.setattr(board, "run_setup", flaky_setup)
    setups = [board.Setup(k, k, {}) for k in ("fine", "lost", "broken")]
    done, failed = board.run_all(str(tmp_path), setups, 1, 1, 2, probe=False)
    assert sorted(done) == ["fine", "lost"]
    assert failed == {"broken": "deploy failed: always"}
