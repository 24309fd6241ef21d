"""CircuitPython entry point (copy to the CIRCUITPY drive's root): the dealer-button app,
unless the next-hand button is held down (safe boot: the app does not start and the REPL
stays free)."""

from dealerbutton.board import circuitpython

if circuitpython.safe_boot_requested():
    print("dealerbutton: safe boot (next-hand button held): app not started, the REPL is free")
else:
    circuitpython.run()
