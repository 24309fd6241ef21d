"""The printed parts of a table's device: the centre unit (a puck for the LED ring and the
Pico, with its diffusing top) and the seat button pods, made by code from one table of
dimensions (dimensions.py) and the project's pin map, with their pictures and bill of
materials (`dealerbutton hardware build`).

The solids need the `hardware` extra (build123d on OpenCASCADE, trimesh with Embree, matplotlib);
`missing()` says which of its modules are not installed, before anything is imported."""

from __future__ import annotations

import importlib.util
from typing import List

# The extra's modules, as pyproject.toml's `hardware` extra installs them.
EXTRA_MODULES = ("build123d", "OCP", "trimesh", "embreex", "matplotlib")
INSTALL = "pip install -e '.[hardware]'"


def missing() -> List[str]:
    """The modules of the hardware extra that cannot be imported here."""
    return [m for m in EXTRA_MODULES if importlib.util.find_spec(m) is None]
