"""The manual's pictures of the table's page (docs/web-table.png: 9 seats, hand 2 dealt, seat
5 back and owing a post) and of the room's page (docs/card-room.png: table 7 with its
button and an away player, table 8 offline; docs/card-room-moves.png: a tournament of
three tables, a move started by its Start button, both seats marked), in headless
Chromium. Run from the checkout: python tests/web/readme_shots.py [NAME.png ...] (needs
Debian's chromium, and `npm ci` for the table's page)."""

import sys
import threading
from pathlib import Path

from dealerbutton_host.room.server import make_server
from dealerbutton_host.web import server as web
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "host"), str(ROOT / "tests" / "support")]

from test_room import model_with, table_state  # noqa: E402 - tests/host is on the path now
from test_room_moves import Room  # noqa: E402


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/" % server.server_address[1]


def table_page(browser, out):
    server = web.make_server("127.0.0.1", 0)
    page = browser.new_page(viewport={"width": 1200, "height": 780})
    page.goto(serve(server))
    page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
    for line in ("sit 1", "sit 2", "sit 3", "sit 4", "sit 5", "sit 6", "deal 2", "away 5",
                 "deal", "back 5"):
        page.fill("#command", line)
        page.press("#command", "Enter")
        page.wait_for_timeout(200)
    page.wait_for_function("document.getElementById('row-5').textContent.includes('post')")
    page.wait_for_timeout(500)
    page.screenshot(path=str(out))
    server.shutdown()


def room_page(browser, out):
    model, _ = model_with(("7", table_state([2, 1, 4, 6], away=[4], name="7"), "1"),
                          ("8", table_state([1, 2, 3], seats=6, name="8"), "0"))
    server = make_server(model, "127.0.0.1:0")
    page = browser.new_page(viewport={"width": 900, "height": 420})
    page.goto(serve(server))
    page.wait_for_selector(".table")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out))
    server.shutdown()


def room_moves_page(browser, out):
    room = Room(t1=9, t2=9, t3=5)
    server = make_server(room.model, "127.0.0.1:0")
    page = browser.new_page(viewport={"width": 1100, "height": 560})
    page.goto(serve(server))
    page.locator("#tournament button.start").first.click()
    page.wait_for_selector("#tournament .moving.going")
    room.pump()   # the marks reach the tables, and their states come back
    page.wait_for_selector('[data-table="3"] circle.reserved', timeout=5000)
    page.wait_for_selector('[data-table="1"] circle.moving', timeout=5000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(out))
    server.shutdown()


PICTURES = {"web-table.png": table_page, "card-room.png": room_page,
            "card-room-moves.png": room_moves_page}


def main(names=None):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        for name in names or PICTURES:
            PICTURES[name](browser, ROOT / "docs" / name)
            print("docs/%s" % name)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
