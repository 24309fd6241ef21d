"""The room's web page in a real browser (Debian's Chromium driven by Playwright): every
table as a ring of seats, open seats, away/waiting, hands per hour, the tournament clock
and balancing; the page follows changes and shows a table going offline; its
hand-for-hand button and the tables still playing their hand."""

import json
import os
import threading

import page_text
import pytest
from dealerbutton_host.room.server import make_server
from test_room import model_with, table_state

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="chromium not installed (under CI: a failure)")


@pytest.fixture
def page_of():
    servers = []
    pw_box = []

    def open_page(model, size=(1280, 800), control=True, floor=None):
        from playwright.sync_api import sync_playwright

        server = make_server(model, "127.0.0.1:0", control=control, floor=floor)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        pw_box.append((pw, browser))
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("http://127.0.0.1:%d/" % server.server_address[1])
        page.wait_for_selector(".table")
        return page, errors

    yield open_page
    for pw, browser in pw_box:
        browser.close()
        pw.stop()
    for s in servers:
        s.shutdown()
        s.server_close()


def test_tables_rings_and_counts(page_of):
    state = json.loads(table_state([1, 2, 3, 5], away=[5]))
    state["seats"][6] = {"seat": 7, "status": "waiting", "owes": [20, 0], "choice": "post"}
    model, _ = model_with(("2", json.dumps(state), "1"),
                          ("10", table_state([1, 2], seats=6, deal=False), "0"))
    page, errors = page_of(model)
    assert page.inner_text("#totals") == "2 tables · 1 online · 7 players · 4 open seats"
    cards = page.locator(".table")
    assert cards.count() == 2
    t2 = page.locator('[data-table="2"]')
    assert t2.locator("h2").inner_text().split("\n") == ["Table 2", "4 open"]
    statuses = t2.locator("circle[data-seat]").evaluate_all(
        "cs => cs.map(c => c.getAttribute('class'))")
    assert statuses == ["active", "active", "active", "empty", "away", "empty", "post",
                        "empty", "empty"]
    assert t2.locator("circle.button").count() == 1
    assert "1 away · 1 waiting · -- hands/h · 10/20" in t2.inner_text()
    t10 = page.locator('[data-table="10"]')
    assert "offline" in t10.get_attribute("class") and "OFFLINE" in t10.inner_text()
    assert t10.locator("circle[data-seat]").count() == 6
    assert errors == []


def test_the_page_follows_the_room(page_of):
    model, _ = model_with(("1", table_state([1, 2, 3]), "1"))
    page, errors = page_of(model)
    t1 = page.locator('[data-table="1"]')
    assert "6 open" in t1.inner_text()
    model.handle("dealerbutton/club/1/state", table_state([1, 2, 3, 4]).encode())
    page.wait_for_function("document.querySelector('[data-table=\"1\"] .open')"
                           ".textContent == '5 open'", timeout=5000)
    model.handle("dealerbutton/club/1/online", b"0")
    page.wait_for_selector('[data-table="1"].offline', timeout=5000)
    model.handle("dealerbutton/club/7/online", b"1")
    page.wait_for_selector('[data-table="7"]', timeout=5000)
    assert "online, no state yet" in page.locator('[data-table="7"]').inner_text()
    assert errors == []


def test_tournament_clock_and_balancing(page_of):
    clock = {"level": 4, "sb": 100, "bb": 200, "ante": 200, "ms_left": 754000, "running": True}
    model, _ = model_with(("1", table_state(list(range(1, 10)), clock=clock, name="1"), "1"),
                          ("2", table_state(list(range(1, 9)), clock=clock, name="2"), "1"),
                          ("3", table_state([1, 2, 3], seats=6, clock=clock, name="3"), "1"))
    page, errors = page_of(model)
    text = page.locator('[data-table="1"] .clock').inner_text()
    assert text.startswith("Level 4 · 100/200 ante 200 · 12:3")
    tour = page.locator("#tournament")
    assert tour.is_visible()
    assert "Tournament: 20 players at 3 tables" in tour.inner_text()
    assert "Table 1: 9 · Table 2: 8 · Table 3: 3" in tour.inner_text()
    moves = tour.locator(".move").all_inner_texts()
    assert moves == ["Move seat 4 from table 1 to table 3",
                     "Move seat 5 from table 1 to table 3",
                     "Move seat 4 from table 2 to table 3"]
    assert errors == []


def test_a_room_without_a_tournament_hides_its_panel(page_of):
    model, _ = model_with(("1", table_state([1, 2, 3]), "1"))
    page, errors = page_of(model)
    assert not page.locator("#tournament").is_visible()
    assert errors == []


@pytest.mark.parametrize("size", sorted(page_text.SIZES))
def test_every_text_readable_and_no_label_split_from_its_value(page_of, size):
    """At a laptop's 1366x768 and a phone's 390x844: an online table, an offline one, a
    tournament clock; every text at WCAG AA contrast (4.5:1), nothing like "Table / 7"."""
    clock = {"level": 12, "sb": 1000, "bb": 2000, "ante": 2000, "ms_left": 754000,
             "running": False}
    model, _ = model_with(("7", table_state([1, 2, 3, 5], away=[5], clock=clock, name="7"), "1"),
                          ("10", table_state([1, 2], seats=6, deal=False, name="10"), "0"),
                          ("main-hall", table_state([1, 2, 4], clock=clock, name="main-hall"),
                           "1"))
    page, errors = page_of(model, page_text.SIZES[size])
    assert page_text.problems(page) == []
    t10 = page.locator('[data-table="10"]')
    assert "OFFLINE" in t10.inner_text()
    assert t10.locator("h2").inner_text().split("\n") == ["Table 10", "4 open"]
    assert errors == []


def test_one_table_is_one_table(page_of):
    model, _ = model_with(("1", table_state([1, 2, 3]), "1"))
    page, errors = page_of(model)
    assert page.inner_text("#totals") == "1 table · 1 online · 3 players · 6 open seats"
    assert errors == []


def test_a_move_started_and_cancelled_by_a_click(page_of):
    """A suggested move's Start button: the room sends both marks, the tables' rings on the
    page show the kept seat and the player going, the move is listed in progress; its
    Cancel button releases both; a refusal is said on the page."""
    from test_room_moves import Room

    room = Room(t1=9, t2=9, t3=6)
    page, errors = page_of(room.model)
    tour = page.locator("#tournament")
    assert tour.locator(".proposal .move").all_inner_texts() == [
        "Move seat 4 from table 1 to table 3", "Move seat 4 from table 2 to table 3"]
    tour.locator("button.start").first.click()
    page.wait_for_selector("#tournament .moving.going", timeout=5000)
    room.pump()   # the broker delivers the marks; the tables' states come back with them
    page.wait_for_selector('[data-table="3"] circle.reserved[data-seat="7"]', timeout=5000)
    page.wait_for_selector('[data-table="1"] circle.moving[data-seat="4"]', timeout=5000)
    assert room.delivered == [("3", "reserve 7"), ("1", "reserve 4")]
    going = tour.locator(".moving.going")
    assert going.locator(".way").inner_text() == "Seat 4 of table 1 \u2192 seat 7 of table 3"
    assert going.locator(".phase").inner_text() == "in progress: the seat is kept for him"
    assert tour.locator(".proposal .move").all_inner_texts() == [
        "Move seat 4 from table 2 to table 3"]
    # The same player again, from another page (or a stale one): refused, and said.
    page.evaluate("ask('moves/start', {from: '1', seat: 4, to: '3'})")
    page.wait_for_function("document.getElementById('moves-note').textContent.includes("
                           "'moving already')", timeout=5000)
    assert page_text.problems(page) == []
    going.locator("button.cancel").click()
    page.wait_for_function("!document.querySelector('#tournament .moving')", timeout=5000)
    room.pump()
    page.wait_for_function("!document.querySelector('circle.reserved, circle.moving')",
                           timeout=5000)
    assert room.delivered[2:] == [("3", "release 7"), ("1", "release 4")]
    assert errors == []


def test_a_read_only_page_has_no_move_buttons(page_of):
    from test_room_moves import Room

    room = Room(t1=9, t3=6)
    room.model.moves.start("1", 4, "3")
    room.pump()
    page, errors = page_of(room.model, control=False)
    page.wait_for_selector("#tournament .moving.going")
    assert page.locator("#tournament button").count() == 0


def test_the_hand_for_hand_button_and_the_tables_still_playing(page_of):
    from dealerbutton_host.room.handforhand import Floor
    from test_room_handforhand import put, room

    model, _ = room(("1", "playing", True), ("2", "playing", True), ("3", None, False))
    sent = []
    floor = Floor(model, lambda table, line: sent.append((table, line)))
    page, errors = page_of(model, floor=floor)
    button = page.locator("#h4h-button")
    assert button.inner_text() == "Start hand-for-hand"
    assert button.get_attribute("aria-pressed") == "false"
    assert not page.locator("#handforhand").is_visible()
    button.click()
    page.wait_for_selector('#h4h-button[aria-pressed="true"]', timeout=5000)
    assert button.inner_text() == "Stop hand-for-hand"
    put(model, "1", "waiting")
    put(model, "2", "playing", clock={"level": 6, "sb": 200, "bb": 400, "ante": 400,
                                      "ms_left": 900000, "running": True})
    page.wait_for_function("document.querySelector('#handforhand .waiting')?.textContent"
                           " == 'Hand over: Table 1'", timeout=5000)
    panel = page.locator("#handforhand").inner_text()
    assert "Still playing their hand: Table 2" in panel
    assert "Offline, left out: Table 3" in panel
    assert "Table 2: level 6 from the next deal" in panel
    assert "The clocks differ: level 5 at Table 1; level 6 at Table 2" in panel
    assert "Hand over: waiting" in page.locator('[data-table="1"]').inner_text()
    assert "Level 6 from the next deal" in page.locator('[data-table="2"]').inner_text()
    assert page_text.problems(page) == []
    put(model, "2", "waiting")
    floor.step()   # (the room does it at every message)
    assert sent[-2:] == [("1", "deal"), ("2", "deal")]
    button.click()
    page.wait_for_selector('#h4h-button[aria-pressed="false"]', timeout=5000)
    assert not page.locator("#handforhand").is_visible()
    assert sent[-2:] == [("1", "handforhand off"), ("2", "handforhand off")]
    assert errors == []
