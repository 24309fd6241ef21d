"""`dealerbutton web`: the table page that runs the firmware in the browser (server.py, with
its files in page/), and the ring's legend drawn from the firmware's renderer (ringsvg.py)."""
