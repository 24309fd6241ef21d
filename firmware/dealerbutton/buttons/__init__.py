"""The table's buttons: each one decoded (button.py: debounce, short and long press, stuck),
two held together (chords.py), all of them as the loop reads them (panel.py), and what
each press means at the table (presses.py)."""
