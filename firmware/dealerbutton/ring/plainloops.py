"""The frame's long loops in plain Python: the same as fastloops.py's viper code, for where
that cannot load (CPython, a port without viper such as CircuitPython or the browser's,
.mpy files made for another CPU). A board with viper never imports this module. The tests
run both on MicroPython and hold them to the same results."""


def scale(buf, n, factor):
    """buf[i] * factor >> 8 for the first n bytes; returns their new sum."""
    for i in range(n):
        buf[i] = buf[i] * factor >> 8
    if n == len(buf):
        return sum(buf)   # (summed in C: the loop is the frame's longest on CircuitPython)
    total = 0
    for i in range(n):
        total += buf[i]
    return total


def colour(rgb, pal, role, level, brightness):
    """rgb[0:3]: the palette role's R, G, B (pal, 3 bytes per role) at a level (0..255),
    then the brightness (0..255), each rounded down."""
    p = 3 * role
    rgb[0] = pal[p] * level // 255 * brightness // 255
    rgb[1] = pal[p + 1] * level // 255 * brightness // 255
    rgb[2] = pal[p + 2] * level // 255 * brightness // 255


def paint(out, phys, start, end, rgb):
    """Logical LEDs start .. end (exclusive) in the colour rgb[0:3], at the strip positions
    phys[k]; returns the change in the sum of out's bytes."""
    r = rgb[0]
    g = rgb[1]
    b = rgb[2]
    delta = 0
    for k in range(start, end):
        p = 3 * phys[k]
        delta += r + g + b - out[p] - out[p + 1] - out[p + 2]
        out[p] = r
        out[p + 1] = g
        out[p + 2] = b
    return delta


def reorder(out, rgb, n, at, bpp):
    """out (the strip's bytes) from rgb (R, G, B per LED) for n LEDs of bpp bytes each:
    at[0], at[1], at[2] are where R, G and B go among an LED's bytes, at[3] where W goes
    (left dark), or 15: no W."""
    r = at[0]
    g = at[1]
    b = at[2]
    w = at[3]
    d = 0
    s = 0
    for _ in range(n):
        out[d + r] = rgb[s]
        out[d + g] = rgb[s + 1]
        out[d + b] = rgb[s + 2]
        if w != 15:
            out[d + w] = 0
        d += bpp
        s += 3
