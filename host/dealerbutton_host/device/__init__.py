"""A table's device from this computer: the line-protocol client, the emulated board, deploy
(MicroPython) and deploy --drive (CircuitPython), and the terminal views of monitor and clock."""
