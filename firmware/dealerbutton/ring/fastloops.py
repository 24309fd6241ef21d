"""The frame's long loops as MicroPython viper code (machine code, much faster on the
board than bytecode): scaling a frame to the current budget, a palette
colour at a level and brightness, and painting a run of LEDs (canvas.py), reordering a frame
into the strip's colour order (board/strip.py). The same loops in plain Python are
plainloops.py's, used wherever this module cannot load: CPython, a port without viper
(CircuitPython, the browser's), or .mpy files made for another CPU. The tests run both on
MicroPython and compare them.

colour(), paint() and reorder() take five arguments: MicroPython's viper functions have
taken more than four for years (the unix port, the Pico's 1.28 and mpy-cross for armv6m
all run them), though some of its documentation still says four.
"""

import sys

if sys.implementation.name != "micropython":  # CPython may have a micropython stub module
    raise ImportError("viper code runs on MicroPython only")

import micropython  # noqa: E402


@micropython.viper
def scale(buf: ptr8, n: int, factor: int) -> int:  # noqa: F821
    total = 0
    i = 0
    while i < n:
        v = (buf[i] * factor) >> 8
        buf[i] = v
        total += v
        i += 1
    return total


@micropython.viper
def colour(rgb: ptr8, pal: ptr8, role: int, level: int, brightness: int):  # noqa: F821
    p = 3 * role
    rgb[0] = pal[p] * level // 255 * brightness // 255
    rgb[1] = pal[p + 1] * level // 255 * brightness // 255
    rgb[2] = pal[p + 2] * level // 255 * brightness // 255


@micropython.viper
def paint(out: ptr8, phys: ptr16, start: int, end: int, rgb: ptr8) -> int:  # noqa: F821
    r = rgb[0]
    g = rgb[1]
    b = rgb[2]
    delta = 0
    k = start
    while k < end:
        p = 3 * phys[k]
        delta += r + g + b - out[p] - out[p + 1] - out[p + 2]
        out[p] = r
        out[p + 1] = g
        out[p + 2] = b
        k += 1
    return delta


@micropython.viper
def reorder(out: ptr8, rgb: ptr8, n: int, at: ptr8, bpp: int):  # noqa: F821
    r = at[0]
    g = at[1]
    b = at[2]
    w = at[3]
    d = 0
    s = 0
    end = 3 * n
    while s < end:
        out[d + r] = rgb[s]
        out[d + g] = rgb[s + 1]
        out[d + b] = rgb[s + 2]
        if w != 15:
            out[d + w] = 0
        d += bpp
        s += 3
