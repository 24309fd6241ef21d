"""What the board keeps on its flash: the saved table (filestore.py: one file replaced
atomically, on MicroPython's flash and the emulator's folder; drivestore.py: on
CircuitPython's CIRCUITPY drive), config.json and its checks (config.py, strictjson.py),
and what the app starts with (startup.py: the saved table if it fits config.json, a table
kept aside and brought back). config.py, strictjson.py and startup.py only the start needs:
the board then unloads them (dealerbutton.unload)."""
