"""The page in a real browser (Debian's chromium, driven by Playwright): the firmware runs
in MicroPython's WebAssembly port; the test clicks and types like a player and compares
the ring the page draws with the firmware's own frame, computed here on CPython."""

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import page_text
import pytest
from dealerbutton.app import App
from dealerbutton.board.capture import CaptureStrip
from dealerbutton.store import config as fwconfig
from dealerbutton_host.device.view import shown
from dealerbutton_host.web import server as web

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
CLICK_MS = 150  # held at least this long: the buttons debounce for 50 ms


def _missing(why):
    # CI installs chromium and the runtime (.ci/run): there, a missing one is a failure.
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        _missing("Debian's chromium is not installed (apt-get install chromium)")
    if not (web.runtime_dir() / "micropython.wasm").is_file():
        _missing("MicroPython's WebAssembly runtime is missing: run `npm ci`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def url():
    server = web.make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    yield pg
    context.close()
    assert errors == []


def log(page):
    return page.inner_text("#log")


def wait_log(page, text, timeout=10.0):
    end = time.monotonic() + timeout
    while text not in log(page):
        assert time.monotonic() < end, "%r not in the log:\n%s" % (text, log(page))
        page.wait_for_timeout(50)


def seat_rows(page):
    return [row.split("\t") for row in page.inner_text("#seat-table tbody").splitlines()]


def drawn(page):
    """The ring as drawn: (the frame's colour, the fill shown) per LED."""
    return page.eval_on_selector_all(
        ".led", "els => els.map(e => [e.dataset.rgb, e.getAttribute('fill')])")


class Pin:
    down = False

    def value(self):
        return 0 if self.down else 1


def firmware_frames(presses, seats=9, leds=24):
    """The firmware's frames on CPython after these presses, sampled over 4 s: a list of
    frames, each a list of "RRGGBB"."""
    cfg, errors = fwconfig.validate({"seats": seats, "leds": leds})
    assert errors == []
    strip = CaptureStrip(leds)
    pins = [Pin() for _ in range(seats + 1)]
    app = App(cfg, strip, pins, lambda line: None, now_ms=0)
    t = 0
    for i in presses:
        for down in (True, False):
            pins[i].down = down
            for _ in range(40):
                t += 5
                app.tick(t)
    frames = []
    for _ in range(120):
        t += 37
        app.tick(t)
        frames.append(["%02X%02X%02X" % tuple(strip.frame[3 * j:3 * j + 3])
                       for j in range(leds)])
    return frames


def steady(frames):
    """LED index -> colour for the LEDs that do not change (the first to act breathes)."""
    return {j: frames[0][j] for j in range(len(frames[0]))
            if all(f[j] == frames[0][j] for f in frames)}


def check_ring(page, expected):
    page.wait_for_timeout(600)  # the flash of the last press is over (events still served)
    ring = drawn(page)
    assert len(ring) == len(expected[0])
    fixed = steady(expected)
    lit = [j for j in fixed if fixed[j] != "000000"]
    assert len(lit) >= 6, "too few steady lit LEDs to compare"
    for j, colour in fixed.items():
        assert ring[j][0] == colour, "LED %d: drawn %s, the firmware's %s" % (j, ring[j][0],
                                                                            colour)
    for rgb, fill in ring:
        v = int(rgb, 16)
        assert fill == "#%02X%02X%02X" % shown((v >> 16, v >> 8 & 255, v & 255), 128)


def test_seat_four_deal_and_reload(page):
    assert "Emulated board" in page.inner_text("#mode")
    wait_log(page, "* info no saved state: clean start")
    assert len(drawn(page)) == 24
    for s in (1, 2, 3, 4):
        page.click("#seat-%d" % s, delay=CLICK_MS)
        wait_log(page, "* seat %d active" % s)
    page.click("#next", delay=CLICK_MS)   # the draw for the button: a chase
    page.click("#seat-3", delay=CLICK_MS)  # seat 3 won it: the first hand is dealt
    wait_log(page, "* hand 1: D 3  SB 4  BB 1  first to act 2")
    page.wait_for_function("document.getElementById('hand').textContent.startsWith('hand 1')")
    hand = page.inner_text("#hand")
    assert hand.splitlines() == ["hand 1: D 3  SB 4  BB 1  first to act 2", "dealt 4 1 2 3",
                                 "posts 1: 20, 4: 10"]
    rows = seat_rows(page)
    assert [r[:2] for r in rows[:5]] == [["1", "active"], ["2", "active"], ["3", "active"],
                                         ["4", "active"], ["5", "empty"]]
    assert page.inner_text("#seat-3 .roles") == "D"
    expected = firmware_frames([1, 2, 3, 4, 0, 3])
    check_ring(page, expected)

    page.reload()   # a power cycle: the table comes back from the browser's storage
    page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    wait_log(page, "* info state restored")
    page.wait_for_function("document.getElementById('hand').textContent.startsWith('hand 1')")
    assert page.inner_text("#hand") == hand
    assert seat_rows(page) == rows
    check_ring(page, expected)


def command(page, line):
    page.fill("#command", line)
    page.press("#command", "Enter")
    wait_log(page, "> " + line + "\n  ok")


@pytest.mark.parametrize("size", sorted(page_text.SIZES))
def test_what_players_owe_in_words_the_legend_and_readable_text(browser, url, size):
    """At a laptop's 1366x768 and a phone's 390x844: a player away who missed both blinds,
    a new one waiting for the big blind, one who will post; said as at a table, with the
    ring's legend beside them, every text at WCAG AA contrast and no label split."""
    width, height = page_text.SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(url)
        pg.wait_for_selector("body[data-ready=emulated]", timeout=20000)
        for line in ("sit 1", "sit 2", "sit 3", "sit 4"):
            command(pg, line)
        command(pg, "deal 1")
        command(pg, "away 4")
        for _ in range(4):
            command(pg, "deal")
        command(pg, "sit 6")
        command(pg, "sit 7 post")
        pg.wait_for_function("document.getElementById('row-7')?.textContent.includes('post')")
        rows = {r[0]: r for r in seat_rows(pg)}
        assert rows["4"][1:3] == ["away", "BB 20 + SB 10 (dead)"], rows["4"]
        assert rows["6"][1:3] == ["waiting for the big blind", "the big blind (20)"], rows["6"]
        assert rows["7"][1:3] == ["will post, then play", "the big blind (20)"], rows["7"]
        assert pg.inner_text("#seat-6 .status") == "waiting for the big blind"
        table = pg.inner_text("#seat-table")
        assert "+0" not in table and "0+" not in table and "(wait)" not in table
        legend = pg.locator("#legend li")
        from dealerbutton_host.web import ringsvg
        assert legend.count() == len(ringsvg.legend_rows()) == 18
        assert legend.first.inner_text() == "Dealer button"
        assert legend.first.locator(".leds span").count() == 8
        assert page_text.problems(pg) == []
    finally:
        context.close()
    assert errors == []


def test_keys_and_commands(page):
    page.keyboard.down("Digit2")
    time.sleep(CLICK_MS / 1000)
    page.keyboard.up("Digit2")
    wait_log(page, "* seat 2 active")
    page.keyboard.press("Shift+Digit2")  # a long press: the player busts out
    wait_log(page, "* seat 2 empty")
    page.fill("#command", "sit 5")
    page.press("#command", "Enter")
    wait_log(page, "> sit 5\n  ok")
    page.fill("#command", "leave 6")
    page.press("#command", "Enter")
    wait_log(page, "> leave 6\n  err rule seat 6 is empty: nobody to leave")
    page.wait_for_function("document.getElementById('row-5').textContent.includes('active')")


def test_config_checked_by_the_firmware_and_kept(page):
    page.fill("#config", '{"seats": 13, "leds": 30}')
    page.click("#apply")
    assert page.inner_text("#config-error") == ("config.json rejected (1 problem): seats: 13 "
                                                "is out of range 2..12")
    assert page.input_value("#config") == '{"seats": 13, "leds": 30}'  # nothing lost
    assert page.locator(".seat").count() == 9
    page.fill("#config", '{"seats": 6, "leds": 30, "brightness": 255}')
    page.click("#apply")
    page.wait_for_function("document.querySelectorAll('.led').length === 30")
    assert page.locator(".seat").count() == 6
    assert page.inner_text("#config-error") == ""
    page.click("#seat-6", delay=CLICK_MS)
    wait_log(page, "* seat 6 active")
    page.reload()
    page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    page.wait_for_function("document.querySelectorAll('.led').length === 30")
    assert page.locator(".seat").count() == 6
    assert page.input_value("#config") == '{"seats": 6, "leds": 30, "brightness": 255}'
    page.wait_for_function("document.getElementById('row-6')?.textContent.includes('active')")
    page.click("#defaults")
    page.wait_for_function("document.querySelectorAll('.led').length === 24")
    wait_log(page, "has 6 seats, config.json 9: kept as state-6seats-dead-10-20.json")
    # The 6-seat table comes back with its configuration.
    page.fill("#config", '{"seats": 6, "leds": 30, "brightness": 255}')
    page.click("#apply")
    wait_log(page, "from state-6seats-dead-10-20.json)")
    page.wait_for_function("document.getElementById('row-6')?.textContent.includes('active')")


# -- Web Serial, with the emulator behind it --------------------------------------------
# Chromium's Web Serial cannot open a pseudo-terminal, so navigator.serial is replaced by
# a port whose streams are the emulator's pipes (through two functions the test exposes);
# everything above it, the page's SerialBoard, its client and its views, is the page's.
FAKE_SERIAL = """
(() => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const port = {
    async open(options) {
      window.__serialOptions = options;
      this.readable = new ReadableStream({
        async pull(ctrl) {
          for (;;) {
            const text = await window.__serialRead();
            if (text === null) { ctrl.close(); return; }
            if (text) { ctrl.enqueue(new TextEncoder().encode(text)); return; }
            await sleep(15);
          }
        },
      });
      this.writable = new WritableStream({
        write(chunk) { return window.__serialWrite(new TextDecoder().decode(chunk)); },
      });
    },
    async close() {},
  };
  Object.defineProperty(Navigator.prototype, "serial", {
    get: () => ({ requestPort: async () => port }),
  });
})();
"""


def start_emulator(tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=str(Path(web.__file__).resolve().parents[3] / "firmware"))
    proc = subprocess.Popen([sys.executable, "-m", "dealerbutton.board.unix", "--state",
                             str(tmp_path)] + list(args), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env)
    chunks = queue.Queue()

    def pump():
        assert proc.stdout is not None
        while True:
            data = proc.stdout.read1(4096)
            if not data:
                chunks.put(None)
                return
            chunks.put(data)

    threading.Thread(target=pump, daemon=True).start()
    return proc, chunks


def stop_emulator(proc):
    if proc.stdin:
        proc.stdin.close()
    proc.wait(10)


@pytest.fixture
def emulator(tmp_path):
    proc, chunks = start_emulator(tmp_path)
    yield proc, chunks
    stop_emulator(proc)


def serial_page(browser, url, proc, chunks, sent):
    """A page connected over (fake) Web Serial to the emulator proc; sent collects what the
    page wrote. Returns (context, page, errors)."""
    def write(text):
        sent.append(text)
        proc.stdin.write(text.encode())
        proc.stdin.flush()

    def read():
        out = b""
        while not chunks.empty():
            data = chunks.get()
            if data is None:
                return None
            out += data
        return out.decode()

    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(FAKE_SERIAL)
    context.expose_function("__serialWrite", write)
    context.expose_function("__serialRead", read)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    page.click("#connect")
    page.wait_for_selector("body[data-ready=serial]", timeout=10000)
    return context, page, errors


def test_web_serial_drives_a_board(browser, url, emulator):
    proc, chunks = emulator
    sent = []
    context, page, errors = serial_page(browser, url, proc, chunks, sent)
    assert page.evaluate("window.__serialOptions.baudRate") == 115200
    assert page.inner_text("#mode").startswith("Board on USB")
    assert page.is_disabled("#apply") and page.is_hidden("#connect")
    for s in (1, 2, 3):
        page.click("#seat-%d" % s, delay=CLICK_MS)
    page.wait_for_function("document.getElementById('log').textContent.includes('* seat 3 active')")
    page.fill("#command", "deal 1")
    page.press("#command", "Enter")
    page.wait_for_function("document.getElementById('hand').textContent.startsWith('hand 1: D 1')")
    assert [r[:2] for r in seat_rows(page)[:4]] == [["1", "active"], ["2", "active"],
                                                    ["3", "active"], ["4", "empty"]]
    check_ring(page, firmware_frames([1, 2, 3, 0, 1]))   # the ring from the board's leds
    box = page.locator("#seat-2").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(1200)
    page.mouse.up()    # held over a second: hold 2, the player busts out
    page.wait_for_function("document.getElementById('log').textContent.includes('* seat 2 empty')")
    assert "press 1\n" in sent and "deal 1\n" in sent and "hold 2\n" in sent
    assert "leds\n" in sent and "state\n" in sent
    page.click("#emulate")
    page.wait_for_selector("body[data-ready=emulated]", timeout=10000)
    assert "Emulated board" in page.inner_text("#mode")
    context.close()
    assert errors == []


# -- a tournament --------------------------------------------------------------------------
TOURNAMENT = ('{"seats": 9, "leds": 24, "tournament": {"ante_kind": "bb", "levels": ['
              '{"sb": 25, "bb": 50, "minutes": 1}, {"sb": 50, "bb": 100, "ante": 100, '
              '"minutes": 1}, {"break": 1}, {"sb": 100, "bb": 200, "ante": 200, "minutes": 2}'
              ']}}')


def clock_panel(page):
    return {k: page.inner_text("#clock-" + k) for k in ("level", "left", "state", "next")}


def wait_panel(page, field, text, timeout=10000):
    page.wait_for_function("([f, t]) => document.getElementById('clock-' + f)"
                           ".textContent.includes(t)", arg=[field, text], timeout=timeout)


def hold(page, selector, ms):
    page.locator(selector).scroll_into_view_if_needed()   # (the mouse is where it is seen)
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def drag(page, source, target):
    """The mouse presses a button and lets it go over another (a chord on the board)."""
    centre = {}
    for name in (source, target):
        page.locator(name).scroll_into_view_if_needed()
        box = page.locator(name).bounding_box()
        centre[name] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*centre[source])
    page.mouse.down()
    page.wait_for_timeout(400)
    page.mouse.move(*centre[target], steps=5)
    page.mouse.up()


def three_players_and_a_hand(page):
    """Seats 1 to 3 taken with clicks, and hand 1 dealt, the button on seat 1."""
    wait_log(page, "* info no saved state: clean start")
    for s in (1, 2, 3):
        page.click("#seat-%d" % s, delay=CLICK_MS)
        wait_log(page, "* seat %d active" % s)
    page.click("#next", delay=CLICK_MS)
    page.click("#seat-1", delay=CLICK_MS)
    wait_log(page, "* hand 1:")


def test_a_seat_dragged_onto_an_empty_one_moves_its_player(page):
    three_players_and_a_hand(page)
    drag(page, "#seat-2", "#seat-6")
    wait_log(page, "* seat 6 ")
    wait_log(page, "* seat 2 empty")
    # (the log shows the events as they come; the table follows with the next state)
    end = time.monotonic() + 10
    rows = seat_rows(page)
    while not (rows[1][1] == "empty" and rows[5][1] != "empty") and time.monotonic() < end:
        page.wait_for_timeout(50)
        rows = seat_rows(page)
    assert rows[1][1] == "empty" and rows[5][1] != "empty", rows


def test_kills_and_take_overs_as_moves_are(page):
    """The next-hand button dragged onto a seat is the board's kill chord (again: a half
    kill); the keys play the terminal emulator's sequences: k, t and m with seats."""
    three_players_and_a_hand(page)
    drag(page, "#next", "#seat-2")
    wait_log(page, "* kill 2")
    page.wait_for_timeout(1200)   # the state read again: seat 2 marked for a full kill
    drag(page, "#next", "#seat-2")
    wait_log(page, "* kill 2 half")
    page.wait_for_timeout(600)           # the chord's next-hand button let go too
    page.keyboard.press("Shift+Digit3")  # seat 3 leaves ...
    wait_log(page, "* seat 3 empty")
    page.keyboard.press("KeyT")          # ... and a new player takes over his place
    page.keyboard.press("Digit3")
    wait_log(page, "> take 3\n  ok")
    page.keyboard.press("KeyK")          # a kill from the keys, on seat 1
    page.keyboard.press("Digit1")
    wait_log(page, "> kill 1\n  ok")
    for key in ("KeyM", "Digit1", "Digit5"):  # a seat change from the keys
        page.keyboard.press(key)
    wait_log(page, "> move 1 5\n  ok")
    assert "* seat 1 empty" in page.inner_text("#log")


def test_tournament_clock(page):
    assert page.is_hidden("#clock-box")   # a cash game: no clock
    page.fill("#config", TOURNAMENT)
    page.click("#apply")
    page.wait_for_selector("#clock-box", state="visible")
    wait_log(page, "* level 1 25/50 ante 0")
    wait_log(page, "* clock paused")
    assert clock_panel(page) == {"level": "Level 1 · 25/50 · ante 0", "left": "1:00",
                                 "state": "PAUSED",
                                 "next": "next: level 2 · 50/100 · ante 100 (1 min)"}
    assert page.inner_text("#next-hold") == "hold: undo, 5 s: clock"
    hold(page, "#next", 5300)   # the next-hand button held 5 s: the clock starts
    wait_log(page, "* clock running")
    wait_panel(page, "state", "running")
    assert "* undo" not in log(page)
    first = clock_panel(page)["left"]
    page.wait_for_timeout(2200)
    later = clock_panel(page)["left"]
    assert first > later, (first, later)   # counting down ("0:58" > "0:55")
    page.fill("#command", "clock set 0:02")
    page.press("#command", "Enter")
    wait_log(page, "* level 2 50/100 ante 100")   # the time ran out: the next level
    wait_panel(page, "level", "Level 2")
    panel = clock_panel(page)
    assert panel["level"] == "Level 2 · 50/100 · ante 100 (big-blind ante)"
    assert panel["next"] == "next: a break of 1 min"
    page.click("#clock-toggle")   # pause
    wait_log(page, "> clock pause\n  ok")
    wait_panel(page, "state", "paused")
    stopped = clock_panel(page)["left"]
    page.wait_for_timeout(1500)
    assert clock_panel(page)["left"] == stopped
    page.click("#clock-toggle")   # resume
    wait_panel(page, "state", "running")
    page.click("#clock-skip")
    wait_log(page, "* break 1:00")
    wait_panel(page, "level", "BREAK")
    assert clock_panel(page)["next"] == "next: level 3 · 100/200 · ante 200 (2 min)"
    page.click("#clock-prev")
    wait_panel(page, "level", "Level 2")
    assert clock_panel(page)["left"] in ("1:00", "0:59")

    page.reload()   # a power cut: the clock comes back paused where it was, and says so
    page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    wait_log(page, "* clock paused (restored: level 2, ")
    page.wait_for_selector("#clock-box", state="visible")
    wait_panel(page, "state", "paused")
    assert clock_panel(page)["level"] == "Level 2 · 50/100 · ante 100 (big-blind ante)"
    assert page.input_value("#config") == TOURNAMENT
    touch_hold(page, "#next", 5300)   # and a finger on the next-hand button, 5 s
    wait_log(page, "* clock running")
    wait_panel(page, "state", "running")


def touch_hold(page, selector, ms):
    """A finger held on the element (Chromium's touch input, through the DevTools
    protocol: Playwright's own touchscreen only taps)."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_web_serial_tournament_clock(browser, url, tmp_path):
    """A board with a tournament: the panel from its `clock` replies and events; the
    next-hand button held 5 s (space, here) becomes `clock resume` / `clock pause`."""
    config = tmp_path / "config.json"
    config.write_text(TOURNAMENT)
    proc, chunks = start_emulator(tmp_path / "state", "--config", str(config))
    sent = []
    try:
        context, page, errors = serial_page(browser, url, proc, chunks, sent)
        page.wait_for_selector("#clock-box", state="visible")
        assert clock_panel(page)["level"] == "Level 1 · 25/50 · ante 0"
        assert clock_panel(page)["left"] == "1:00"
        wait_panel(page, "state", "paused")
        shown = page.input_value("#config")   # the board's config: one level a line
        assert ('  "tournament": {\n    "ante_kind": "bb",\n    "levels": [\n'
                '      {"sb": 25, "bb": 50, "ante": 0, "minutes": 1},\n') in shown
        assert '      {"break": 1},\n' in shown and json.loads(shown)["seats"] == 9
        page.evaluate("document.activeElement.blur()")  # space would press a focused button
        page.keyboard.down("Space")
        page.wait_for_timeout(5200)
        page.keyboard.up("Space")
        page.wait_for_function("document.getElementById('log').textContent"
                               ".includes('* clock running')")
        wait_panel(page, "state", "running")
        assert "clock resume\n" in sent and "hold 0\n" not in sent
        page.click("#clock-skip")
        wait_panel(page, "level", "Level 2")
        page.click("#clock-toggle")
        wait_panel(page, "state", "paused")
        assert "clock next\n" in sent and "clock pause\n" in sent
        context.close()
        assert errors == []
    finally:
        stop_emulator(proc)
