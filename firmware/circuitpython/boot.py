"""CircuitPython boot script (copy to the CIRCUITPY drive's root; runs once at power-up):
makes the drive writable to the board, so the table is saved, unless the next-hand button
is held; then the drive stays writable to the computer (to edit config.json or update the
firmware). If this script fails, the drive also stays the computer's: safe either way."""

from dealerbutton.board import circuitpython

circuitpython.boot()
