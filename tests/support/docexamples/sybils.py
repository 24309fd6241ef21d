"""The Sybil collections of the manual's examples: on CPython every kind, on MicroPython
the protocol sessions and the worked examples of RULES.md again. Each page has a scratch
folder of its own (``/tmp/demo`` of its shell sessions), made before its first example
and removed after its last."""

import shutil
import tempfile

from sybil import Sybil

from docexamples import pages, protocol, pyprints, rulestables, shell


def setup(namespace):
    namespace["scratch"] = tempfile.mkdtemp(prefix="docexample-page-")


def teardown(namespace):
    shutil.rmtree(namespace.pop("scratch"), ignore_errors=True)


CPYTHON = Sybil(parsers=[pyprints.parse, shell.parse, protocol.Parser("cpython"),
                         rulestables.Parser("cpython")],
                path=str(pages.ROOT), patterns=["*.md"], setup=setup, teardown=teardown,
                name="cpython")
MICROPYTHON = Sybil(parsers=[protocol.Parser("micropython"), rulestables.Parser("micropython")],
                    path=str(pages.ROOT), patterns=["*.md"], name="micropython")
EXAMPLES = CPYTHON + MICROPYTHON
