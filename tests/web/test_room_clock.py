"""The room's clock page for a TV (/clock) in a real browser (Debian's Chromium driven by
Playwright): the level, blinds and ante, the time left, what comes next and the players
and tables left, readable at 1920x1080 and 1280x720 (nothing outside the screen or its
box, every text at WCAG AA contrast); the chime after a click, a minute before the end of a
level and at a new level; the page following a level moved by hand at a table."""

import json
import os
import threading
from pathlib import Path

import page_text
import pytest
from dealerbutton.clock.schedule import Clock
from dealerbutton_host.room.server import make_server
from test_room import model_with, table_state

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="chromium not installed (under CI: a failure)")

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = json.loads((ROOT / "docs" / "tournament-config.json").read_text())["tournament"]
TV_SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}

# Records what the page asks of Web Audio: every AudioContext made and every oscillator
# started (with its frequency), in window.audioCalls.
RECORD_AUDIO = """
window.audioCalls = [];
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...args) { super(...args); window.audioCalls.push("context"); }
};
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.audioCalls.push("start " + this.frequency.value);
  return realStart.apply(this, args);
};
"""

# Every element shown lies inside the viewport, its content inside its box (no scrolling
# and nothing clipped) and its text inside it; the page itself does not scroll.
OUTSIDE = """
() => {
  const out = [];
  const W = innerWidth, H = innerHeight, e0 = document.documentElement;
  if (e0.scrollWidth > W || e0.scrollHeight > H) out.push("the page scrolls");
  const inside = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
                             r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const screen = {left: 0, top: 0, right: W, bottom: H};
  for (const e of document.body.querySelectorAll("*")) {
    if (e.tagName === "SCRIPT" || !e.getClientRects().length) continue;
    const name = e.id || e.tagName.toLowerCase();
    const box = e.getBoundingClientRect();
    if (!inside(box, screen)) out.push("outside the viewport: " + name);
    if (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight) {
      out.push("overflows its box: " + name);
    }
    for (const n of e.childNodes) {
      if (n.nodeType !== Node.TEXT_NODE || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (!inside(r, box)) out.push("text outside its box: " + name);
      }
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def clock_page(browser):
    """open(model, size, init_script=None) -> (page, errors): the model's /clock, drawn."""
    servers = []

    def open_page(model, size=(1280, 720), init_script=None):
        server = make_server(model, "127.0.0.1:0")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        if init_script:
            page.add_init_script(init_script)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("http://127.0.0.1:%d/clock" % server.server_address[1])
        page.wait_for_function("document.getElementById('title').textContent.startsWith('Room')")
        return page, errors

    yield open_page
    for s in servers:
        s.shutdown()
        s.server_close()


def device_clock(*moves, left=None):
    """The JSON a tournament device's `clock` command answers: the schedule of
    docs/tournament-config.json, running, moved on `moves` times (1 "next", -1 "prev"),
    with `left` ("M:SS") left when given."""
    c = Clock(TOURNAMENT, now_ms=0)
    c.resume(0)
    for step in moves:
        c.move(step, 0)
    if left:
        c.set(left, 0)
    return json.loads(c.json(0))


def room(clocks, players=(9, 8, 3)):
    """A room of tournament tables 1, 2, 3..., each with its clock (the last one's state
    comes last), all online."""
    tables = []
    for i, (clock, n) in enumerate(zip(clocks, players, strict=True), 1):
        seats = 9 if n > 6 else 6
        tables.append((str(i), table_state(list(range(1, n + 1)), seats=seats, clock=clock,
                                           name=str(i)), "1"))
    return model_with(*tables)


def text(page, id_):
    return page.locator("#" + id_).inner_text()


@pytest.mark.parametrize("size", sorted(TV_SIZES))
def test_a_level_readable_across_the_room(clock_page, size):
    level6 = device_clock(1, 1, 1, 1, 1, left="14:32")   # level 5: 150/300, BB ante 300
    model, _ = room([level6, level6, level6])
    page, errors = clock_page(model, TV_SIZES[size])
    assert text(page, "level") == "Level 5"
    assert text(page, "blinds") == "Blinds 150/300 · BB ante 300"
    assert text(page, "time") in ("14:32", "14:31")
    assert text(page, "next") == "Next: Level 6 · 200/400 · BB ante 400 · 20 min"
    assert text(page, "counts") == "20 players left · 3 tables"
    assert text(page, "source") == "clock of table 3"
    assert page.locator("#chime").inner_text() == "Click to enable the chime"
    assert page.evaluate(OUTSIDE) == []
    assert page_text.problems(page) == []
    # Large: the time nearly a third of the screen's height, no text under 3% of it.
    sizes = page.evaluate("""() => [...document.querySelectorAll('h1, div, button')]
        .filter((e) => e.textContent.trim())
        .map((e) => [e.id, parseFloat(getComputedStyle(e).fontSize) / innerHeight])""")
    sizes = dict(sizes)
    assert sizes["time"] >= 0.3
    assert min(sizes.values()) >= 0.03, sizes
    assert errors == []


@pytest.mark.parametrize("size", sorted(TV_SIZES))
def test_a_paused_break_and_six_figure_blinds_fit(clock_page, size):
    """The longest texts a schedule gives (six-figure blinds, a 3-digit minute count) and a
    break, paused: still inside the screen, at AA contrast."""
    big = {"level": 38, "sb": 100000, "bb": 200000, "ante": 200000, "ante_kind": "bb",
           "break": False, "ms_left": 599 * 60000, "running": True,
           "next": {"level": 39, "sb": 150000, "bb": 300000, "ante": 300000, "minutes": 600}}
    pause = device_clock(1, 1, 1, 1)   # the break after level 4
    pause["running"] = False
    model, _ = room([big, pause], players=(9, 9))
    page, errors = clock_page(model, TV_SIZES[size])
    assert text(page, "level") == "Break · Paused"
    assert not page.locator("#blinds").is_visible()
    assert text(page, "time") == "10:00"
    assert text(page, "next") == "Next: Level 5 · 150/300 · BB ante 300 · 20 min"
    assert page.evaluate(OUTSIDE) == []
    assert page_text.problems(page) == []
    model.handle("dealerbutton/club/1/state",
                 table_state(list(range(1, 10)), clock=big, name="1").encode())
    page.wait_for_function("document.getElementById('level').textContent == 'Level 38'")
    assert text(page, "blinds") == "Blinds 100000/200000 · BB ante 200000"
    assert text(page, "time").startswith("598:5") or text(page, "time") == "599:00"
    assert text(page, "next") == \
        "Next: Level 39 · 150000/300000 · BB ante 300000 · 600 min"
    assert page.evaluate(OUTSIDE) == []
    assert page_text.problems(page) == []
    assert errors == []


def test_the_chime_after_a_click_a_minute_before_the_end_and_at_a_new_level(clock_page):
    model, now = room([device_clock(1, 1, left="1:02")], players=(9,))
    page, errors = clock_page(model, init_script=RECORD_AUDIO)
    now.t += 5   # the last minute begins before anyone clicked: not a sound
    page.wait_for_function("document.getElementById('time').textContent == '0:57'")
    page.wait_for_timeout(500)
    assert page.evaluate("window.audioCalls") == []

    page.click("#chime")
    assert not page.locator("#chime").is_visible()
    page.wait_for_function("window.audioCalls.length == 2")
    assert page.evaluate("window.audioCalls") == ["context", "start 660"]   # the chime is on

    model.handle("dealerbutton/club/1/state", table_state(
        list(range(1, 10)), clock=device_clock(1, 1, left="1:05"), name="1").encode())
    page.wait_for_function("document.getElementById('time').textContent.startsWith('1:0')")
    now.t += 10   # 0:55 left: the minute's chime
    page.wait_for_function("window.audioCalls.length >= 4")
    assert page.evaluate("window.audioCalls")[2:] == ["start 880", "start 880"]

    model.handle("dealerbutton/club/1/state", table_state(
        list(range(1, 10)), clock=device_clock(1, 1, 1), name="1").encode())
    page.wait_for_function("document.getElementById('level').textContent == 'Level 4'")
    page.wait_for_function("window.audioCalls.length >= 7")
    assert page.evaluate("window.audioCalls")[4:] == ["start 660", "start 880", "start 1100"]
    page.wait_for_timeout(1500)
    assert len(page.evaluate("window.audioCalls")) == 7   # once each
    assert errors == []


def test_the_page_follows_a_level_moved_by_hand(clock_page):
    """The director moves table 2's clock on, then back: the page shows what that table's
    device says, and then the room's latest state again."""
    model, now = room([device_clock(1, 1), device_clock(1, 1)], players=(9, 8))
    page, errors = clock_page(model)
    assert text(page, "level") == "Level 3"
    assert text(page, "blinds") == "Blinds 75/150 · BB ante 150"
    for moves, level, blinds in [((1, 1, 1), "Level 4", "Blinds 100/200 · BB ante 200"),
                                 ((1, 1, 1, 1), "Break", None),
                                 ((1, 1), "Level 3", "Blinds 75/150 · BB ante 150")]:
        model.handle("dealerbutton/club/2/state", table_state(
            list(range(1, 9)), clock=device_clock(*moves), name="2").encode())
        page.wait_for_function("document.getElementById('level').textContent == %r" % level)
        if blinds:
            assert text(page, "blinds") == blinds
        else:
            assert not page.locator("#blinds").is_visible()
        assert text(page, "time") in (("20:00", "19:59") if blinds else ("10:00", "9:59"))
        assert text(page, "source") == "clock of table 2"
    model.handle("dealerbutton/club/1/state", table_state(
        list(range(1, 10)), clock=device_clock(1, 1, 1, left="7:30"), name="1").encode())
    page.wait_for_function("document.getElementById('level').textContent == 'Level 4'")
    assert text(page, "source") == "clock of table 1"
    assert text(page, "time") in ("7:30", "7:29")
    assert errors == []


def test_no_clock_online(clock_page):
    model, _ = model_with(("1", table_state([1, 2, 3]), "1"))
    page, errors = clock_page(model)
    assert text(page, "level") == "No tournament clock"
    assert text(page, "time") == "--:--"
    assert text(page, "source") == "no table online reports a clock"
    assert text(page, "counts") == "3 players · 1 table"
    assert errors == []
