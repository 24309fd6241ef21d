# pyright: reportAttributeAccessIssue=false
# Runs on the board, at its REPL (bench/board.py sends it through the raw REPL once the app
# has handed the serial line over): the App built as board/pico.py's run() (MicroPython) or
# board/circuitpython.py's run() (CircuitPython) builds it, on the table the bench left saved
# (its store). Times a frame, an idle loop turn, deal() and a seat event, weighs each with
# gc.mem_alloc (collector off), times a save to the flash. Prints one JSON line.
import gc
import json
import time
from array import array

from dealerbutton import protocol
from dealerbutton.app import App
from dealerbutton.store import filestore

try:
    from dealerbutton.board import pico as board
    us = time.ticks_us
    diff = time.ticks_diff
    ms = time.ticks_ms
    sleep_ms = time.sleep_ms
except ImportError:   # CircuitPython: board/circuitpython.py, and no ticks_us
    from dealerbutton.board import circuitpython as board

    def us():
        return time.monotonic_ns() // 1000

    def diff(a, b):
        return a - b

    def sleep_ms(n):
        time.sleep(n / 1000)

    ms = board.clock()


def summary(a):
    s = sorted(a)
    n = len(s)
    return {"n": n, "p50_us": s[n // 2], "p95_us": s[min(n - 1, n * 95 // 100)], "max_us": s[-1]}


def quiet(line):
    pass


cfg, errors = board.load_config()
pins = board.seat_pins(cfg)
if hasattr(board, "pin_bank"):
    bank = board.pin_bank(cfg, pins)
else:
    bank = board.Bank(pins) if hasattr(board, "Bank") else None
if hasattr(board, "FlashStore"):
    saved = board.make_store()
else:
    saved = filestore.Store(filestore.OsFs("/"))
app = App(cfg, board.make_strip(cfg), pins, quiet, saved,
          now_ms=ms(), bank=bank)
app.frame_ms = getattr(board, "FRAME_MS", app.frame_ms)
app.panel.rest_ms = getattr(board, "REST_MS", app.panel.rest_ms)
now = app.now
out = {"leds": cfg["leds"], "seats": cfg["seats"], "frame_ms": app.frame_ms}

clock = [now]


def a_frame():
    # (weighed back to back; timed one frame period apart: see between_frames)
    clock[0] += 25
    t0 = us()
    app.frame(clock[0])
    return diff(us(), t0)


def idle_turn():
    # A loop turn that draws no frame: the one 5 ms after a frame.
    clock[0] += 25
    app.tick(clock[0])
    t0 = us()
    app.tick(clock[0] + 5)
    return diff(us(), t0)


# deal() and seat events on the table (the rules core): a player steps away, then comes
# back, round the table, between the hands.
table = app.table
turn = [0]


def seat_event():
    turn[0] += 1
    s = 1 + turn[0] // 2 % table.seats
    st = table.status(s)
    table.compact_history()   # (as the device does when it saves, after the event's light)
    t0 = us()
    if st == "active":
        table.away(s)
    elif st == "away":
        table.back(s)
    elif st == "empty":
        table.sit(s)
    return diff(us(), t0)


def a_deal():
    t0 = us()
    table.deal()
    return diff(us(), t0)


def state_of():
    t0 = us()
    protocol.state_json(table, app.marks)
    return diff(us(), t0)


def a_save():
    t0 = us()
    app.save()
    return diff(us(), t0)


def between_frames():
    """A frame period's pause before each timed frame, as in the loop. Back to back, the
    RP2040's strip (board/strip_pio.py) would wait in write() for the last frame to leave the
    wire and latch (60 LEDs: 2.1 ms), a wait the loop, drawing every 25 ms, never has."""
    sleep_ms(app.frame_ms)


def timed(step, n, pause=None):
    a = array("L", [0] * n)
    for i in range(n):
        if pause is not None:
            pause()
        a[i] = step()
    return summary(a)


def _weigh(step, n):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(n):
        step()
    b = gc.mem_alloc()
    gc.enable()
    return (b - a) // n


def _clock_only():
    return diff(us(), us())


def weigh(step, n):
    """Bytes step() allocates, per call, over n calls (collector off), less what its two
    clock readings take (CircuitPython's time.monotonic_ns() makes a long int; MicroPython's
    ticks_us nothing)."""
    return _weigh(step, n) - _weigh(_clock_only, n)


out["frame"] = timed(a_frame, 300, between_frames)
out["idle_turn"] = timed(idle_turn, 100)
out["bytes"] = {"frame": weigh(a_frame, 100), "idle_turn": weigh(idle_turn, 50)}
# What the monitor and the room ask for: the whole table as the `state` reply gives it, each
# player away's figure worked out on a copy of the table where he has come back (M6b).
away = [s for s in range(1, table.seats + 1) if table.status(s) == "away"]
out["away"] = len(away)
out["state"] = timed(state_of, 10)
out["bytes"]["state"] = weigh(state_of, 1)   # (one call, the collector off: CircuitPython with 60 LEDs has little heap free)
# Everybody in (the table the bench left may have players away, seats empty).
for s in range(1, table.seats + 1):
    if table.status(s) == "empty":
        table.sit(s, True)
    elif table.status(s) == "away":
        table.back(s)
table.deal(1 if table.hand is None else None)
events = array("L", [0] * 100)
deals = array("L", [0] * 100)
for i in range(100):
    events[i] = seat_event()
    deals[i] = a_deal()
out["event"] = summary(events)
out["deal"] = summary(deals)
# (few calls: with the collector off they must fit in the free heap, CircuitPython's too)
out["bytes"]["event"] = weigh(seat_event, 10)
out["bytes"]["deal"] = weigh(a_deal, 5)
out["save"] = timed(a_save, 10)
gc.collect()
out["heap_used_b"] = gc.mem_alloc()
print(json.dumps(out))
