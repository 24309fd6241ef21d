"""A tiny test runner that works the same on CPython and on the MicroPython unix port.

The two-runtime test modules (in tests/rules and tests/device: those that import this
one) are plain ``test_*`` functions with ``assert``; pytest collects them on CPython, and
``run_all(globals())`` at the bottom of each module runs them under ``micropython`` (see
tests/device/test_micropython.py).  Every line it prints is deterministic, so the output of
both runtimes can be compared.
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


def canonical_json(obj):
    """Compact JSON with object keys sorted (as strings): the same text on CPython and on
    MicroPython, whose dicts keep no order, so that tests may print and compare it."""
    import json
    if isinstance(obj, dict):
        by_name = {}
        for k in obj:
            by_name[str(k)] = obj[k]
        return "{%s}" % ",".join(["%s:%s" % (json.dumps(k), canonical_json(by_name[k]))
                                  for k in sorted(by_name)])
    if isinstance(obj, list) or isinstance(obj, tuple):
        return "[%s]" % ",".join([canonical_json(x) for x in obj])
    return json.dumps(obj)
