# test_board.py and test_board_net.py import the fakes of machine and neopixel
# (tests/support/fakes), which must not shadow the real adafruit neopixel in pytest's own
# process: test_micropython.py runs them on CPython and on MicroPython, each in a process of
# its own with the fakes on its path.
collect_ignore = ["test_board.py", "test_board_net.py"]
