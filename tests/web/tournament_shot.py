"""The manual's picture of the page at a tournament table (docs/web-tournament.png): the
home-game schedule of docs/tournament-config.json, six players, the clock started and
moved on to level 3, a hand dealt. Run from the checkout: python tests/web/tournament_shot.py
(needs Debian's chromium and `npm ci`)."""

import sys
import threading
from pathlib import Path

from dealerbutton_host.web import server as web
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "web-tournament.png"


def main():
    server = web.make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    config = (ROOT / "docs" / "tournament-config.json").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1200, "height": 780})
        page.goto(url)
        page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
        page.fill("#config", config)
        page.click("#apply")
        page.wait_for_selector("#clock-box", state="visible")
        for s in (1, 2, 3, 4, 5, 6):
            page.click("#seat-%d" % s, delay=150)
        for line in ("deal 2", "clock next", "clock next", "clock set 14:32", "clock resume",
                     "deal"):
            page.fill("#command", line)
            page.press("#command", "Enter")
            page.wait_for_timeout(300)
        page.wait_for_function("document.getElementById('hand').textContent"
                               ".startsWith('hand 2')")
        page.wait_for_timeout(1500)
        page.screenshot(path=str(OUT))
        browser.close()
    server.shutdown()
    print("dealerbutton page at a tournament table: %s" % OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
