"""`dealerbutton bench --port PORT`: the figures a running device reports about itself
(the protocol's `stats` command), from a board on USB serial or the emulator's pty."""

from __future__ import annotations

from typing import Callable, List

from ..device.client import Client


def _us(v: int) -> str:
    return "%.2f ms" % (v / 1000) if v >= 1000 else "%d us" % v


def _histogram(h: dict, what: str) -> str:
    if not h["n"]:
        return "none yet"
    return "median %s, p95 %s, max %s over %d %s" % (
        _us(h["median_us"]), _us(h.get("p95_us", h["max_us"])), _us(h["max_us"]), h["n"], what)


def report(stats: dict, port: str) -> List[str]:
    """The lines printed for the reply of `stats`."""
    heap = "n/a (CPython)"
    if stats["heap_free"] is not None:
        heap = "%.1f KB in use, %.1f KB free" % (stats["heap_used"] / 1024,
                                                stats["heap_free"] / 1024)
    load = stats.get("load_permille")
    rows = [
        ("uptime", "%d s (started by: %s)" % (stats["uptime_s"], stats["reset_cause"])),
        ("load (busy share, last 10 s)", "%.1f %%" % (load / 10) if load is not None
         else "not yet (the first 10 s)"),
        ("heap", heap),
        ("frame (a loop turn that drew one)", _histogram(stats["frame"], "frames")),
        ("loop turn (without its pause)", _histogram(stats["loop"], "turns")),
        ("collector, between frames", _histogram(stats["collect"], "collections")),
        ("saves", "%d" % stats["saves"]),
    ]
    out = ["dealerbutton bench: what the device on %s reports (stats; medians and p95s are "
           "good to about 19%%)" % port]
    out += ["  %-34s %s" % row for row in rows]
    return out


def main(port: str, out: Callable[[str], None] = print) -> int:
    client = Client.serial(port)
    try:
        stats = client.json("stats")
    finally:
        client.close()
    for line in report(stats, port):
        out(line)
    return 0
