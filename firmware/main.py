"""Board entry point (runs at power-up): the dealer-button app, unless the next-hand button
is held down (safe boot: the app does not start and the REPL stays free)."""

from dealerbutton.board import pico

if pico.safe_boot_requested():
    print("dealerbutton: safe boot (next-hand button held at power-up): app not started, "
          "the REPL is free")
else:
    pico.run()
