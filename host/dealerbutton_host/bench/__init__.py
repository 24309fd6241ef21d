"""`dealerbutton bench` and the other benchmarks: the firmware on this computer (local.py,
running local_probe.py), on the emulated Pico (board.py, sending board_probe.py to it; the
kit that runs it: rp2sim.py), a running board's own figures (port.py), and what a Pico W's
publishing costs (net.py)."""
