import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# The test modules by concern: the rules core, the firmware on a device but the rules, the
# emulated Pico, the host tools, the browser pages, the printed parts.  The two-runtime
# modules (they import two_runtimes) are in rules/ and device/.
CONCERNS = ("rules", "device", "board", "host", "web", "hardware")
# tests/support for the shared helpers, and the folder of every concern, since a test module
# may use another's (tests/host/test_host_clockview.py the firmware clock's tests in
# tests/device).  The fakes of `machine` and `neopixel` (tests/support/fakes) are put on the
# path only by the tests that want them, so that the real adafruit `neopixel` stays
# importable on CPython.
for p in [HERE / "support"] + [HERE / concern for concern in CONCERNS]:
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


# The reliability campaigns (tests/device/test_reliability_*.py) run at their quick size in the
# normal test command; `pytest --campaign=large` runs them at their large size.
def pytest_addoption(parser):
    parser.addoption("--campaign", action="store", default="quick", choices=("quick", "large"),
                     help="size of the reliability campaigns (default: quick)")


@pytest.fixture(scope="session")
def campaign(request):
    """The size of the reliability campaigns: "quick" or "large"."""
    return request.config.getoption("--campaign")


# The quick subset (pytest -m "not slow") leaves out the modules whose tests boot emulated
# Picos, drive Chromium, start a Mosquitto broker or build the printed parts: marked here, by
# module, so no test file carries the mark. A new module of that kind goes into this table.
SLOW_MODULES = {
    "test_board_emulated": "boots emulated Picos (MicroPython)",
    "test_board_emulated_cp": "boots emulated Picos (CircuitPython)",
    "test_web_browser": "drives Chromium",
    "test_room_page": "drives Chromium",
    "test_room_clock": "drives Chromium",
    "test_bridge_broker": "starts Mosquitto",
    "test_room": "starts Mosquitto",
    "test_room_bench": "starts Mosquitto",
    "test_room_handforhand_broker": "starts Mosquitto",
    "test_room_moves_broker": "starts Mosquitto",
    "test_hardware_bom": "builds the printed parts with a CAD kernel",
    "test_hardware_command": "builds the printed parts with a CAD kernel",
    "test_hardware_parts": "builds the printed parts with a CAD kernel",
}


def pytest_configure(config):
    """A scratch folder of this test process's own, for the two-runtime tests that need a
    fixed path (MicroPython has no tempfile): $DEALERBUTTON_SCRATCH. Each process
    of `pytest -n` runs this, so two never share one."""
    os.environ["DEALERBUTTON_SCRATCH"] = tempfile.mkdtemp(prefix="dealerbutton-scratch-")


def pytest_unconfigure(config):
    folder = os.environ.pop("DEALERBUTTON_SCRATCH", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    """Marks the slow modules' tests `slow`; keeps the tests that share a module-wide fixture
    (a board bench run, a browser, a campaign's MicroPython run) in one process of
    `pytest -n` (`--dist loadgroup`), so the fixture is made once, and a page's examples
    in one process too, in their order. A test marked with a
    group of its own (`pytest.mark.xdist_group`) keeps it: a long one whose module-wide
    fixtures are cheap to make again may then run beside its module's."""
    for item in items:
        if getattr(item, "example", None) is not None:
            # an example of the manual (conftest.py at the top): a page's examples share
            # its namespace and scratch folder, and run in order in one process
            item.add_marker(pytest.mark.xdist_group("page " + str(item.path)))
            continue
        module = item.module.__name__.rpartition(".")[2] if item.module else ""
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("xdist_group"):
            continue
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        if any(d.scope == "module" for ds in defs.values() for d in ds):
            item.add_marker(pytest.mark.xdist_group(module))
