"""The board's shells, each the loop that runs the app on its hardware: the Raspberry Pi Pico
under MicroPython (pico.py, started by main.py), under CircuitPython (circuitpython.py,
started by code.py and boot.py), and the emulated board on this computer (unix.py:
`python -m dealerbutton.board.unix`); with the LED strips they drive (strip.py and
strip_pio.py on MicroPython, strip_cp.py on CircuitPython, capture.py for the tests and the
emulator). Only these modules import the boards' own modules (machine, neopixel, board,
digitalio, ...), but net.py the Pico W's Wi-Fi (network)."""
