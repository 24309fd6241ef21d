"""The manual's picture of the room's clock page on a 1280x720 TV (docs/card-room-clock.png):
three tables of the home-game schedule of docs/tournament-config.json at level 5 with
14:32 left (the room's time stands still: the picture is the same whenever it is taken),
the chime not yet clicked on. Run from the checkout:
python tests/web/clock_shot.py (needs Debian's chromium and `npm ci`)."""

import sys
import threading
from pathlib import Path

from dealerbutton_host.room.server import make_server
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "card-room-clock.png"
sys.path[:0] = [str(ROOT / "tests" / "web"), str(ROOT / "tests" / "host"),
                str(ROOT / "tests" / "support")]

from test_room_clock import device_clock, room  # noqa: E402 - tests/web is on the path now


def main():
    level5 = device_clock(1, 1, 1, 1, 1, left="14:32")
    model, _ = room([level5, level5, level5], players=(8, 7, 6))
    server = make_server(model, "127.0.0.1:0")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/clock" % server.server_address[1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_function("document.getElementById('time').textContent == '14:32'")
        page.screenshot(path=str(OUT))
        browser.close()
    server.shutdown()
    print("the room's clock page on a TV: %s" % OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
