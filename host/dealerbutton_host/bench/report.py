"""The figures of the manual's Benchmarks and Reliability pages: taken again, and the pages
written from them.

    python -m dealerbutton_host.bench.report                # every bench, then the pages
    python -m dealerbutton_host.bench.report --only board   # one of them (repeatable)
    python -m dealerbutton_host.bench.report --pages        # the pages from the data as it is
    python -m dealerbutton_host.bench.report --check        # exit 1 if a page and its data differ

Each bench writes its own JSON (`--json`), kept in docs/data/: `board` is `dealerbutton
bench --board --runtime both --profile` (the emulated Pico, about 12 minutes of CPU),
`unix` is `python -m dealerbutton_host.bench` (the unix port on this computer), `referee`
is `dealerbutton simulate --referee` (the rules core against the independent referee).
The pages hold each table between `<!-- figures: NAME -->` and `<!-- /figures -->`; that
text is made from the JSON alone, so the page and the data agree (tests/host/test_bench_report.py
checks it). What every bench asked for needs is checked before the first one starts; a
bench that fails leaves its old data in place and the command's exit status 1, after the
others have run and the pages have been written from what there is.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from .rp2sim import checkout_root

DATA = Path("docs") / "data"
PAGES = [Path("docs") / "benchmarks.md", Path("docs") / "reliability.md"]
BLOCK = re.compile(r"(<!-- figures: ([\w-]+) -->\n)(.*?)(<!-- /figures -->)", re.S)


class Bench:
    """One bench: its name, the command that writes its JSON, what it needs first."""

    def __init__(self, name: str, args: List[str], about: str,
                 needs: Callable[[], List[str]]):
        self.name = name
        self.args = args        # after `python -m`, before `--json FILE`
        self.about = about
        self.needs = needs

    def command(self, out: Path) -> List[str]:
        return [sys.executable, "-m"] + self.args + ["--json", str(out)]

    def shown(self) -> str:
        """The command as a person types it."""
        words = list(self.args)
        if words[0] == "dealerbutton_host.cli":
            return "dealerbutton " + " ".join(words[1:])
        return "python -m " + " ".join(words)


def _board_needs() -> List[str]:
    from .board import missing

    return missing(None, ["micropython", "circuitpython"], want_profile=True)


def _unix_needs() -> List[str]:
    from ..device.deploy import DeployError, mpy_cross_exe
    from ..device.emulator import EmulatorError, micropython_exe

    problems = []
    try:
        micropython_exe()
    except EmulatorError as exc:
        problems.append(str(exc))
    try:
        mpy_cross_exe()
    except DeployError as exc:
        problems.append(str(exc))
    return problems


BENCHES = [
    Bench("board", ["dealerbutton_host.cli", "bench", "--board", "--runtime", "both",
                    "--profile"], "the firmware on the emulated Pico, MicroPython and "
          "CircuitPython (about 12 minutes of CPU)", _board_needs),
    Bench("unix", ["dealerbutton_host.bench"], "the firmware on the MicroPython unix port of "
          "this computer, CPython beside it", _unix_needs),
    Bench("referee", ["dealerbutton_host.cli", "simulate", "--referee", "--hands", "20000"],
          "the rules core against the independent referee, 2 to 12 seats", lambda: []),
]
BY_NAME = {b.name: b for b in BENCHES}


def say(text: str) -> None:
    sys.stderr.write("report: %s\n" % text)
    sys.stderr.flush()


# -- the data ---------------------------------------------------------------------------------

def load(root: Path, name: str) -> Optional[Dict[str, Any]]:
    path = root / DATA / ("%s.json" % name)
    if not path.exists():
        return None
    return json.loads(path.read_text())


def source(root: Path) -> Dict[str, Any]:
    """What was measured: the commit checked out, whether the tree differs from it, the day."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(root)] + list(args), capture_output=True,
                                  text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""
    changed = git("status", "--porcelain", "--", "firmware", "host")
    return {"commit": git("rev-parse", "--short=12", "HEAD") or None,
            "changed": bool(changed), "date": datetime.date.today().isoformat(),
            "load": round(os.getloadavg()[0], 1), "cores": os.cpu_count()}


def take(root: Path, bench: Bench) -> bool:
    """Run a bench into build/figures/, and on success move its JSON into docs/data/ with
    where it came from. False (the old data kept) when it failed."""
    scratch = root / "build" / "figures"
    scratch.mkdir(parents=True, exist_ok=True)
    out = scratch / ("%s.json" % bench.name)
    if out.exists():
        out.unlink()
    say("%s: %s" % (bench.name, bench.shown()))
    measured = source(root)   # the tree as the bench starts on it
    proc = subprocess.run(bench.command(out), cwd=str(root))
    if proc.returncode != 0 or not out.exists():
        say("%s: failed (exit %d)%s; docs/data/%s.json is left as it was"
            % (bench.name, proc.returncode, ", its partial figures are in %s" % out
               if out.exists() else "", bench.name))
        return False
    data = json.loads(out.read_text())
    data["source"] = dict(measured, command=bench.shown())
    (root / DATA).mkdir(parents=True, exist_ok=True)
    (root / DATA / ("%s.json" % bench.name)).write_text(
        json.dumps(data, indent=1, sort_keys=True) + "\n")
    out.unlink()
    say("%s: docs/data/%s.json written" % (bench.name, bench.name))
    return True


# -- the tables -------------------------------------------------------------------------------

def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|")


def md_table(head: List[str], rows: List[List[Any]]) -> List[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |",
           "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return out


def _taken(data: Dict[str, Any], extra: str = "") -> str:
    src = data.get("source") or {}
    commit = src.get("commit")
    where = ("commit `%s`%s" % (commit, " with changes not yet committed"
                                if src.get("changed") else "")) if commit else "this tree"
    load = (" (load average %.1f on %d cores as it started)" % (src["load"], src["cores"])
            if "load" in src else "")
    note = (" " + src["note"]) if src.get("note") else ""
    return "_Taken with `%s` on %s, %s%s%s._%s" % (src.get("command", "?"), where,
                                                  src.get("date", "?"), load, extra, note)


def none_yet(name: str) -> List[str]:
    return ["_No figures yet: `python -m dealerbutton_host.bench.report --only %s` takes "
            "them._" % name]


def board_block(data: Optional[Dict[str, Any]]) -> List[str]:
    """The emulated Pico's figures, a column per runtime, and the profile."""
    if data is None:
        return none_yet("board")
    from .board import table_data

    t = data.get("table") or table_data(data)
    names = [rt["key"] for rt in t["runtimes"]]
    out = [_taken(data, "; %.0f s of wall time, the figures in emulated time, the same on "
                  "any computer" % data.get("seconds", 0)), ""]

    def cell(c: Optional[Dict[str, str]]) -> str:
        if not c:
            return ""
        verdict = {"MISSED": " **missed**", "met": " met"}.get(c["verdict"], "")
        return c["value"] + verdict

    out += md_table(["figure (emulated Pico)"] + ["on %s" % rt["name"] for rt in t["runtimes"]]
                    + ["target"],
                    [[r["figure"]] + [cell(r["cells"].get(rt)) for rt in names] + [r["target"]]
                     for r in t["rows"]])
    for rt, failed in sorted((data.get("errors") or {}).items()):
        for key, why in sorted(failed.items()):
            out += ["", "Not measured on %s, %s: %s" % (rt, key, why)]
    prof = t.get("profile")
    if prof and "top" in prof:
        out += ["", "Where an idle cash game (9 seats, 24 LEDs) spends the CPU on MicroPython: "
                "%.1f %% busy over %.0f emulated s; the busiest functions' share of the busy "
                "cycles:" % (prof["busy_pct"], prof["window_s"]), ""]
        out += md_table(["share", "function"],
                        [["%.1f %%" % r["busy_pct"], "`%s`" % r["function"]]
                         for r in prof["top"]])
    elif prof:
        out += ["", "The profile was not taken: %s" % (prof.get("missing") or prof.get("error"))]
    return out


def unix_block(data: Optional[Dict[str, Any]]) -> List[str]:
    """The unix port's time per call and its memory and sizes."""
    if data is None:
        return none_yet("unix")
    from .local import FIGURES, TIMING_KEYS, fmt_value, span

    m = data.get("machine", {})
    out = [_taken(data, "; micropython %s (the unix port) and CPython %s on %s (%s cores), "
                  "%d timing runs" % (data.get("micropython_version"),
                                      data.get("cpython_version"), m.get("cpu"),
                                      m.get("cores"), data.get("runs", 1))), ""]
    rows = []
    for key in TIMING_KEYS:
        t = data["timings"].get(key)
        if not t:
            continue
        unix = [u for u in t["unix"] if u]
        rows.append([t["label"],
                     "%s / %s" % (span([u["median_us"] for u in unix]),
                                  span([u["p95_us"] for u in unix])) if unix else "n/a",
                     fmt_value("time", t["cpython"])])
    out += md_table(["time per call", "unix port median / p95 (us)",
                     "CPython median / p95 (us)"], rows)
    out += [""]
    rows = []
    for key, label, unit, kind in FIGURES:
        f = data["figures"].get(key)
        if not f:
            continue
        rows.append([label, {"heap": "B median / max"}.get(kind, unit),
                     fmt_value(kind, f["micropython"]),
                     fmt_value(kind, f["cpython"]) if f["cpython"] is not None else "n/a",
                     f["target"] or "-", {"missed": "**missed**"}.get(f["status"], f["status"])])
    out += md_table(["memory and sizes", "unit", "unix port", "CPython", "target", "status"],
                    rows)
    return out


def referee_block(data: Optional[Dict[str, Any]]) -> List[str]:
    """simulate --referee: every rule set's totals, and each table size's."""
    if data is None:
        return none_yet("referee")
    sets = data["rule_sets"]
    out = [_taken(data, "; seed %d, stakes %d/%d" % (data["seed"], data["stakes"][0],
                                                     data["stakes"][1])), ""]
    out += md_table(["rule set", "hands", "sessions", "events played on both",
                     "posts checked against owes", "disagreements"],
                    [[name, r["hands"], r["sessions"], r["events_on_both"], r["posts_checked"],
                      r["disagreements"]] for name, r in sets.items()])
    if data.get("failed"):
        out += ["", "**The run stopped**: %s" % data["failed"]]
    out += ["", "By table size (hands; heads-up hands, new games, dead buttons, hands without "
            "a small blind):", ""]
    sizes = sorted({s["seats"] for r in sets.values() for s in r["sizes"]})
    head = ["seats"] + list(sets)
    rows = []
    for n in sizes:
        row: List[Any] = [n]
        for r in sets.values():
            s = next((s for s in r["sizes"] if s["seats"] == n), None)
            row.append("%d (%d, %d, %d, %d)" % (s["hands"], s["heads_up"], s["new_games"],
                                                s["dead_buttons"], s["no_sb"]) if s else "")
        rows.append(row)
    out += md_table(head, rows)
    return out


BLOCKS: Dict[str, Callable[[Optional[Dict[str, Any]]], List[str]]] = {
    "board": board_block, "unix": unix_block, "referee": referee_block}


def render(root: Path, text: str) -> str:
    """A page with every figures block made again from the data."""
    def block(m: re.Match) -> str:
        name = m.group(2)
        if name not in BLOCKS:
            raise KeyError("figures block %r: no such data (%s)" % (name, ", ".join(BLOCKS)))
        # blank lines around the table: Markdown takes it for a table, not for the
        # comment's HTML
        return (m.group(1) + "\n" + "\n".join(BLOCKS[name](load(root, name))) + "\n\n"
                + m.group(4))
    return BLOCK.sub(block, text)


def differences(root: Path) -> List[str]:
    """The pages whose figures are not what their data gives."""
    return [str(p) for p in PAGES
            if render(root, (root / p).read_text()) != (root / p).read_text()]


def write_pages(root: Path) -> None:
    for p in PAGES:
        text = (root / p).read_text()
        new = render(root, text)
        if new != text:
            (root / p).write_text(new)
            say("%s written" % p)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m dealerbutton_host.bench.report",
        description="Take the figures of the Benchmarks and Reliability pages again (each "
        "bench's JSON into docs/data/) and write the pages' tables from them.",
        epilog="benches: " + "; ".join("%s: %s (%s)" % (b.name, b.about, b.shown())
                                        for b in BENCHES))
    ap.add_argument("--only", action="append", choices=list(BY_NAME), metavar="BENCH",
                    help="take only this bench's figures (repeatable): %s"
                    % ", ".join(BY_NAME))
    ap.add_argument("--pages", action="store_true",
                    help="take no figures: write the pages from docs/data/ as it is")
    ap.add_argument("--check", action="store_true",
                    help="take no figures, write nothing: exit 1 if a page's tables are not "
                    "what docs/data/ gives")
    args = ap.parse_args(argv)
    root = checkout_root()
    if not all((root / p).is_file() for p in PAGES):
        say("the pages (%s) are not here: run this from a checkout of the repository, "
            "installed with pip install -e ." % ", ".join(str(p) for p in PAGES))
        return 2
    if args.check:
        wrong = differences(root)
        for p in wrong:
            say("%s: its figures are not what docs/data/ gives (python -m "
                "dealerbutton_host.bench.report --pages writes them)" % p)
        return 1 if wrong else 0
    failed: List[str] = []
    if not args.pages:
        benches = [BY_NAME[n] for n in args.only] if args.only else BENCHES
        problems = ["%s: %s" % (b.name, p) for b in benches for p in b.needs()]
        if problems:
            for p in problems:
                say("cannot take the figures: %s" % p)
            return 1
        if shutil.which("git") is None:
            say("git is not on PATH: the data will not say which commit it measured")
        for b in benches:
            if not take(root, b):
                failed.append(b.name)
    write_pages(root)
    if failed:
        say("not taken again: %s (see above)" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
