"""The printed parts' tests' rig: `dealerbutton hardware build` run into a folder, its
files read back (the STEP files as solids, the STL files as meshes), and the hardware extra
asked for (a skip without it, a failure under CI)."""

import contextlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[2]


def need_extra():
    from dealerbutton_host.hardware import INSTALL, missing

    gone = missing()
    if gone:
        why = "the hardware extra is not installed (%s): %s" % (", ".join(gone), INSTALL)
        if os.environ.get("CI") == "true":
            pytest.fail("CI: " + why)
        pytest.skip(why)


@dataclass
class Built:
    """What the command wrote: the folder, its output lines, each part's solid (read from
    its STEP) and mesh (its STL), and the seconds each part took to build."""

    out: Path
    lines: List[str]
    solids: Dict[str, object]
    meshes: Dict[str, object]
    seconds: Dict[str, float]


def build_all(out: Path) -> Built:
    """Run the command into `out` and read back what it wrote."""
    need_extra()
    import trimesh
    from build123d import import_step
    from dealerbutton_host.cli import main

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["hardware", "build", "--out", str(out)]) == 0
    lines = text.getvalue().splitlines()
    seconds = {m.group(1): float(m.group(2)) for m in
               (re.match(r"(\S+) +built in ([\d.]+) s", line) for line in lines) if m}
    solids = {name: import_step(str(out / (name + ".step"))) for name in seconds}
    meshes = {name: trimesh.load(str(out / (name + ".stl")), force="mesh") for name in seconds}
    return Built(out, lines, solids, meshes, seconds)


def as_result(built):
    """The command's build as the page writer takes it (hardware.build.Result), from the
    files it wrote."""
    from dealerbutton_host.hardware import build, model, page

    request = page.default_request(ROOT)
    result = build.Result(built.out)
    for spec in model.specs(request.rings, request.setup):
        result.parts[spec.name] = build.Made(spec, built.solids[spec.name],
                                             built.meshes[spec.name], built.seconds[spec.name])
    return request, result
