"""Wrap-safe millisecond tick maths, the same as MicroPython's time.ticks_diff/ticks_add.

Ticks count modulo 2**30 (TICKS_PERIOD).  Every intermediate value stays inside
MicroPython's small-int range on a 32-bit board (-2**30 .. 2**30 - 1), so these
functions never allocate.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

TICKS_MAX = const(0x3FFFFFFF)  # 2**30 - 1, the largest tick value
TICKS_HALF = const(0x20000000)  # 2**29
# 2**30 itself is not a small int on a 32-bit MicroPython, so the period is
# written as TICKS_MAX + 1 only where Python's big ints are harmless (tests).
TICKS_PERIOD = TICKS_MAX + 1


def ticks_diff(new, old):
    """Signed difference new - old, in -2**29 .. 2**29 - 1, correct across a wrap."""
    d = (new - old) & TICKS_MAX
    if d >= TICKS_HALF:
        d -= TICKS_HALF
        d -= TICKS_HALF
    return d


def ticks_add(t, delta):
    """t + delta modulo 2**30, for |delta| < 2**29."""
    if delta >= 0:
        # t + delta may pass 2**30: subtract the period first, in two small steps.
        r = t - TICKS_MAX + delta - 1
        if r >= 0:
            return r
        return r + TICKS_MAX + 1
    return (t + delta) & TICKS_MAX
