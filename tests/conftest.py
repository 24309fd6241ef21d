import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# tests/ for the helpers, tests/mp for the two-runtime test modules.  The fakes of
# `machine` and `neopixel` (tests/fakes) are put on the path only by the tests that
# want them, so that the real adafruit `neopixel` stays importable on CPython.
for p in (HERE, HERE / "mp"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
