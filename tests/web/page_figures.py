"""Figures of the page in headless Chromium: time from navigation to the table running
(five fresh loads), and the share of a CPU the page takes with a hand dealt (the board
loop every 5 ms, the ring drawn on animation frames), from Chromium's own task time.

    .venv/bin/python tests/web/page_figures.py
"""

import threading

from dealerbutton_host.web import server as web
from playwright.sync_api import sync_playwright

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SECONDS = 10


def task_seconds(cdp):
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def main():
    server = web.make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        starts = []
        for _ in range(5):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
            starts.append(int(page.get_attribute("body", "data-start-ms") or 0))
            context.close()
        print("navigation to table running: %s ms" % ", ".join(map(str, starts)))
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready=emulated]", timeout=20000)
        for s in (1, 2, 3, 4, 0, 1):
            page.click("#next" if s == 0 else "#seat-%d" % s, delay=150)
        page.wait_for_function("document.getElementById('hand').textContent.startsWith('hand 1')")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        before = task_seconds(cdp)
        page.wait_for_timeout(SECONDS * 1000)
        busy = task_seconds(cdp) - before
        print("a hand dealt, %d s: the page busy %.2f s, %.1f%% of a CPU"
              % (SECONDS, busy, 100 * busy / SECONDS))
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
