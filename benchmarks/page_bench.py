"""The tracker page's latency in headless chromium (Debian's, driven by Playwright): key -> figures
painted (prints figures, asserts nothing).

    python benchmarks/page_bench.py [--quick]

A whole 8-deck shoe at the ez_baccarat table with a bankroll kept (shuffled with seed 5 and dealt by
the tableau up to the coup past the cut card), every card, close and burn typed on the page's keys,
at 390x844 and 1440x900. For each key: the milliseconds from the key down to the first frame
painted after the page shows the new state (its version), and beside it, the yardstick, the
server's own time for that request (its Server-Timing header); p50 and p95 over the first third of
the shoe and over the last (flat: the page's cost does not grow with the shoe). --quick: 20 coups.
"""

import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from statistics import quantiles

from playwright.sync_api import sync_playwright

from exact_odds.core.cards import RANKS, parse_cards
from exact_odds.core.coup import play_coup

WATCH = """() => {
  window.latencies = []; let down = null, shown = document.body.dataset.version;
  document.addEventListener("keydown", () => { down = performance.now(); }, true);
  new MutationObserver(() => {
    if (down === null || document.body.dataset.version === shown) return;  // a render of the same state
    shown = document.body.dataset.version;
    const start = down; down = null;
    requestAnimationFrame(() => setTimeout(() => window.latencies.push(performance.now() - start)));
  }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""
"""Key down -> the frame after the new version is rendered (requestAnimationFrame, then a task: painted)."""


def shoe(seed: int, coups_wanted: int | None) -> tuple[str, list[list[str]]]:
    cards = [rank for rank in RANKS for _ in range(32)]
    random.Random(seed).shuffle(cards)
    place = 1 + ({"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(cards[0]) or int(cards[0]))
    coups: list[list[str]] = []
    while (not coups or place - len(coups[-1]) < 416 - 16) and (coups_wanted is None or len(coups) < coups_wanted):
        used = next(count for count in range(4, 7) if play_coup(parse_cards(" ".join(cards[place:place + count]))).complete)
        coups.append(cards[place:place + used])
        place += used
    return cards[0], coups


def serve(port: int, db: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "exact_odds", "serve", "--port", str(port), "--db", db])
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=5)
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def p50_p95(values: list[float]) -> str:
    cuts = quantiles(values, n=20)
    return f"{cuts[9]:6.1f} {cuts[18]:6.1f}"


def run(width: int, height: int, port: int, browser: object, burn: str, coups: list[list[str]]) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    server_ms: list[float] = []
    page.on("response", lambda response: server_ms.append(float(response.headers.get("server-timing", "app;dur=0").split("=")[1]))
            if response.request.method == "POST" and "/api/v1/sessions/" in response.url else None)
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("#table option[value='ez_baccarat']", state="attached")
    page.select_option("#table", "ez_baccarat")
    page.click("#create")
    page.wait_for_selector("body[data-version='0']")
    page.fill("#bankroll", "10000")
    page.click("#size-set")
    page.wait_for_selector("body[data-version='1']")
    server_ms.clear()
    page.evaluate(WATCH)
    version = 1
    for key in [burn] + [key for coup in coups for key in [*coup, "Enter"]]:
        page.keyboard.press(key)
        version += 1
        page.wait_for_selector(f"body[data-version='{version}']")
        page.wait_for_function(f"window.latencies.length === {version - 1}")
    latencies = page.evaluate("window.latencies")
    third = len(latencies) // 3
    print(f"{width}x{height:<4} {len(latencies):4} keys   first third {p50_p95(latencies[:third])}   last third {p50_p95(latencies[-third:])}"
          f"   server first {p50_p95(server_ms[:third])}   last {p50_p95(server_ms[-third:])}")
    page.close()


def main() -> None:
    burn, coups = shoe(5, 20 if "--quick" in sys.argv else None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    folder = tempfile.mkdtemp()
    server = serve(port, folder + "/sessions.sqlite")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium")
            print(f"key -> figures painted, ms (p50 p95); an EZ shoe of {len(coups)} coups, a bankroll kept; beside it the server's own time")
            for width, height in ((390, 844), (1440, 900)):
                run(width, height, port, browser, burn, coups)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
