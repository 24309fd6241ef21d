"""The printed parts, built once for every test of tests/hardware/ (hardware_rig.build_all:
`dealerbutton hardware build` into a folder of this process's own). The modules of this
folder are one xdist group, so the build is made once in `pytest -n`."""

import pytest
from hardware_rig import build_all


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("hardware"))
