"""The page's glue (web/page/webtable.py) around the firmware's App: the same transcript on
CPython and on the MicroPython unix port (the page runs it in MicroPython's WebAssembly
port, built from the same sources)."""

import subprocess
import sys

from micropython_unix import FIRMWARE, ROOT, run_micropython

WEBPAGE = ROOT / "host" / "dealerbutton_host" / "web" / "page"

SCENARIO = r'''
import webtable

T = [1000]


def run(board, ms):
    end = T[0] + ms
    while T[0] < end:
        T[0] += 5
        board.tick(T[0])


def click(board, i, ms=100):
    board.pin(i, 1)
    run(board, ms)
    board.pin(i, 0)
    run(board, 100)


def show(label, text):
    print(label + ":", text.replace("\n", " | "))


b = webtable.Board("", "", T[0])
show("power-up", b.take())
for s in (1, 2, 3, 4):
    click(b, s)
show("seated", b.take())
click(b, 2, 30)
show("a 30 ms click", b.take() or "(nothing)")
click(b, 0)
click(b, 1)
show("dealt", b.take())
run(b, 1000)
frame = b.frame()
b.feed("leds\n")
reply = b.take()
print("frame is the leds reply:", reply == "ok " + " ".join(
    [frame[i:i + 6].upper() for i in range(0, len(frame), 6)]))
print("no new frame without a tick:", repr(b.frame()))
saved = b.saved()
print("saved once:", saved.startswith("{") and "state.json" in saved, repr(b.saved()))
b.feed("state\n")
state = b.take()

b2 = webtable.Board("", saved, T[0])
show("power cycle", b2.take())
b2.feed("state\n")
print("same table:", b2.take() == state)
b2.feed("hand\n")
show("hand", b2.take())

b3 = webtable.Board("", "not json", T[0])
show("damaged storage", b3.take())

print("check good:", repr(webtable.check('{"seats": 6, "leds": 30}')))
print("check bad:", webtable.check('{"seats": 13, "rules": "nope"}'))
print("check not json:", webtable.check('{"seats": 6,}'))
r = webtable.Board('{"seats": 13}', saved, T[0])
show("refused config", r.take())
r.feed("state\n")
show("state when refused", r.take())
run(r, 100)
print("refused ring shows a frame:", len(r.frame()) == 6 * 24)
six = webtable.Board('{"seats": 6, "leds": 30}', saved, T[0])
show("other seats", six.take())
print("six seats, 30 LEDs:", len(six.pins), len(six.frame()) // 6)
moved = six.saved()
print("kept aside in the browser:", sorted(webtable.load_files(moved)[0]))
show("back to the defaults", webtable.Board("", moved, T[0]).take())
T[0] += 5
print("step, nothing waiting:", b.step(T[0]))
b.feed("sit 7\n")
T[0] += 5
print("step after sit 7:", b.step(T[0]), b.take().split("\n"), b.step(T[0] + 5))

TOURNAMENT = ('{"seats": 6, "leds": 24, "tournament": {"levels": [{"sb": 25, "bb": 50, '
              '"minutes": 1}, {"break": 2}, {"sb": 50, "bb": 100, "ante": 10, "minutes": 1}]}}')
print("check tournament:", repr(webtable.check(TOURNAMENT)))
print("check bad schedule:", webtable.check(TOURNAMENT.replace('"sb": 50', '"sb": 500')))
t = webtable.Board(TOURNAMENT, "", T[0])
show("tournament power-up", t.take())
click(t, 0, 5200)  # the next-hand button held 5 s: the clock starts
show("held 5 s", t.take())
run(t, 2000)
t.feed("clock\n")
show("clock", t.take())
t.feed("clock next\n")
show("clock next", t.take())
t.feed("deal\n")
show("deal in the break", t.take())
run(t, 1500)
t2 = webtable.Board(TOURNAMENT, t.saved(), T[0])
show("tournament power cycle", t2.take())
t2.feed("clock\n")
show("clock restored", t2.take())
'''


def run_cpython():
    code = "import sys; sys.path[:0] = %r\n" % [str(WEBPAGE), str(FIRMWARE)] + SCENARIO
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)


def test_glue_transcript_on_cpython():
    cp = run_cpython()
    assert cp.returncode == 0, cp.stderr
    out = cp.stdout
    print(out)
    for line in EXPECTED:
        assert line in out


EXPECTED = (
    "power-up: * info no saved state: clean start",
    "seated: * seat 1 active | * seat 2 active | * seat 3 active | * seat 4 active",
    "a 30 ms click: (nothing)",  # shorter than the 50 ms debounce: lost
    'dealt: * hand {"n":1,"button":1,"sb":2,"bb":3,',
    "frame is the leds reply: True",
    "no new frame without a tick: ''",
    "saved once: True ''",
    "power cycle: * info state restored",
    "same table: True",
    'hand: ok {"n":1,"button":1',
    "damaged storage: * error the browser's copy of the flash is unreadable: not the JSON of "
    "the saved files | * info no saved state: clean start",
    "check good: ''",
    "check bad: config.json rejected (2 problems): ",
    "seats: 13 is out of range 2..12",
    "check not json: config.json rejected (1 problem): config.json",
    "refused config: * error config.json rejected (1 problem)",
    "state when refused: err config config.json rejected",
    "refused ring shows a frame: True",
    "other seats: * error saved table (save ",
    "has 9 seats, config.json 6: kept as state-9seats-dead-10-20.json (config.json back to 9 "
    "seats resumes it): clean start",
    "kept aside in the browser: ['state-9seats-dead-10-20.json']",
    "back to the defaults: * info state restored (save ",
    ", from state-9seats-dead-10-20.json)",
    "six seats, 30 LEDs: 7 30",
    "step, nothing waiting: 0",
    "step after sit 7: 3 ['* seat 7 waiting', 'ok'] 2",
    "check tournament: ''",
    "check bad schedule: config.json rejected (1 problem): tournament.levels[2]: the small "
    "blind 500 is bigger than the big blind 100",
    "tournament power-up: * info no saved state: clean start | * level 1 25/50 ante 0 | "
    "* clock paused",
    "held 5 s: * clock running",
    'clock: ok {"level":1,"sb":25,"bb":50,"ante":0,"ante_kind":"each","break":false,'
    '"ms_left":57',
    '"running":true,"next":{"break":2}}',
    "clock next: * break 2:00 | ok",
    "deal in the break: err rule no hand during the break: 2:00 left",
    "tournament power cycle: * info state restored (save 2) | * clock paused (restored: "
    "break, 2:00 left)",
    'clock restored: ok {"level":1,"sb":25,"bb":50,"ante":0,"ante_kind":"each","break":true,'
    '"ms_left":120000,"running":false,"next":{"level":2,"sb":50,"bb":100,"ante":10,'
    '"minutes":1}}',
)


def test_glue_same_on_micropython():
    mp = run_micropython(SCENARIO, extra_paths=[WEBPAGE])
    cp = run_cpython()
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout


