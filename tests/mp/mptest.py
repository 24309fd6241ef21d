"""A tiny test runner that works the same on CPython and on the MicroPython unix port.

Test modules in this folder are plain ``test_*`` functions with ``assert``; pytest
collects them on CPython, and ``run_all(globals())`` at the bottom of each module
runs them under ``micropython`` (see tests/test_micropython.py).  Every line it
prints is deterministic, so the output of both runtimes can be compared.
"""


def allocated(work):
    """The bytes the heap grew by while work() ran, with the collector off; None on a
    runtime without a heap of its own to count (CPython)."""
    import gc
    if not hasattr(gc, "mem_alloc"):
        return None
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()  # type: ignore[attr-defined]
        work()
        return gc.mem_alloc() - before  # type: ignore[attr-defined]
    finally:
        gc.enable()


def run_all(namespace):
    names = sorted(n for n in namespace if n.startswith("test_"))
    failed = 0
    for name in names:
        try:
            namespace[name]()
            print("ok", name)
        except Exception as exc:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print("FAIL", name, type(exc).__name__, exc)
    print("%d passed, %d failed" % (len(names) - failed, failed))
    return failed
