# test_board.py imports the fakes of machine and neopixel (tests/fakes), which must not
# shadow the real adafruit neopixel in pytest's own process: tests/test_micropython.py runs
# it on CPython and on MicroPython, each in a process of its own with the fakes on its path.
collect_ignore = ["test_board.py"]
