"""The tracker a player takes to the table (issue 33), in a real browser (Playwright driving
Debian's chromium) against `baccarat-odds serve`, on a phone (390x844) and a desktop (1440x900):
a whole 8-deck EZ Baccarat shoe (shuffled here with a fixed seed, dealt coup by coup by the plain
tableau of tests/oracles.py) entered at the EZ table with a bankroll; at several coups the banner
says the library's Kelly stake within the table's limits in its chips (the bet chosen and the stake
computed here through the library, never through the page), WAIT when no stake grows the bankroll,
and SHOE ENDED after the cut card's last coup; the roads are the coups; every touch target is at
least 44 px. Two tabs (and another device, resuming from the list) stay in sync by the event stream,
and redo puts back what undo took.

With EXACT_ODDS_SCREENSHOTS=FOLDER, the screenshots at both sizes are written there (docs/)."""

import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from math import floor
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from oracles import deal_physically  # noqa: E402
from test_serve_sessions import call, free_port, serve  # noqa: E402

from exact_odds.bets.bets import catalog  # noqa: E402
from exact_odds.core.cards import RANKS, parse_cards  # noqa: E402
from exact_odds.core.shoe import shoe_from_options  # noqa: E402
from exact_odds import analyze  # noqa: E402
from exact_odds.studies.sizing import Limits, size  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian's chromium package; no browser is downloaded)")
EZ = ("ez_banker", "player", "tie", "dragon_7", "panda_8")
EZ_LIMITS = Limits(minimum={"ez_banker": 10, "player": 10, "tie": 5, "dragon_7": 5, "panda_8": 5},
                   maximum={"ez_banker": 3000, "player": 3000, "tie": 500, "dragon_7": 100, "panda_8": 100}, unit=5)
"""The ez_baccarat preset's limits and chip (data/tables.toml), written out."""
SEED, BANKROLL = 5, 10_000
"""A shoe of 81 coups in which a bankroll of 10,000 bets Dragon 7 after coups 51 to 76 (Panda 8 after
71, 73, 74 and 75), and waits after 50 and 77 to 80."""
CHECKED = (50, 51, 58, 71, 72, 77)
"""The coups after which the banner is checked (and the last, when the shoe has ended)."""
SHOWN = 71
"""The coup after which the screenshots are taken (BET panda_8)."""


def shoe(seed: int) -> tuple[str, list[list[str]]]:
    """An 8-deck shoe shuffled by ``seed``: the burn card and the coups dealt from it by the plain
    tableau, up to the coup that starts past the cut card (16 cards from the end: the shoe's last)."""
    cards = [rank for rank in RANKS for _ in range(32)]
    random.Random(seed).shuffle(cards)
    burned = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(cards[0]) or int(cards[0])
    place, coups = 1 + burned, []
    while not coups or place - len(coups[-1]) < 416 - 16:
        ((_, player, banker),) = deal_physically(parse_cards(" ".join(cards[place:place + 6])))
        used = len(player) + len(banker)
        coups.append(cards[place:place + used])
        place += used
    return cards[0], coups


def winner(coup: list[str]) -> str:
    ((_, player, banker),) = deal_physically(parse_cards(" ".join(coup)))
    totals = [sum(card.value for card in hand) % 10 for hand in (player, banker)]
    return "tie" if totals[0] == totals[1] else "player" if totals[0] > totals[1] else "banker"


def percent(value: Fraction, places: int = 4) -> str:
    scaled = floor(abs(value) * 100 * 10**places + Fraction(1, 2))
    digits = str(scaled).rjust(places + 1, "0")
    return ("-" if value < 0 and scaled else "") + digits[:-places] + "." + digits[-places:]


def second_order_growth(returns: list[dict]) -> Fraction:
    """EV^2 / 2 Var of a bet's return table: the growth of its Kelly stake alone, to second order."""
    mean = sum(Fraction(line["probability"]) * Fraction(line["net"]) for line in returns)
    variance = sum(Fraction(line["probability"]) * Fraction(line["net"]) ** 2 for line in returns) - mean**2
    return mean * mean / (2 * variance)


def expected_banner(seen: list[str]) -> tuple[str, str]:
    """The banner's line and edge after ``seen``, from the library: the positive bet whose Kelly stake
    grows the bankroll most, sized under the table's limits in its chips."""
    left = shoe_from_options(8, None, " ".join(seen))
    bets = analyze(left, [catalog()[name] for name in EZ]).to_dict(())["bets"]
    positive = [name for name in EZ if Fraction(bets[name]["expected_value"]) > 0]
    if not positive:
        return "WAIT", ""
    best = max(positive, key=lambda name: second_order_growth(bets[name]["returns"]))
    stakes = [stake for stake in size(left, [best], BANKROLL, EZ_LIMITS, table=EZ).stakes if stake.amount > 0]
    if not stakes:
        return "WAIT", ""
    (stake,) = stakes
    assert stake.amount.denominator == 1 and stake.amount % 5 == 0 and 5 <= stake.amount <= 100
    return f"BET {best} \u00d7 {stake.amount}", f"edge +{percent(Fraction(bets[best]['expected_value']))}%"


@contextmanager
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@contextmanager
def server(tmp_path) -> Iterator[int]:
    port = free_port()
    process = serve(str(tmp_path / "sessions.sqlite"), port)
    try:
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=10)


def small_targets(page: Any) -> list[str]:
    """The visible touch targets of the page smaller than 44 px either way."""
    return page.evaluate("""() => [...document.querySelectorAll('button, select, input, summary, a')]
        .filter((element) => element.offsetParent !== null && !element.closest('p.keys'))
        .map((element) => [element, element.getBoundingClientRect()])
        .filter(([element, box]) => box.width < 44 || box.height < 44)
        .map(([element, box]) => (element.id || element.textContent.trim()) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height))""")


@needs_chromium
@pytest.mark.parametrize("width, height, name, from_page", [(390, 844, "phone", 49), (1440, 900, "desktop", 70)])
def test_an_ez_shoe_at_the_table(tmp_path, width, height, name, from_page):
    """The session is made from the EZ table in the page; the first ``from_page`` coups are entered
    through the API (another device) while the page is away, then the page resumes the session from
    its link and enters the rest by its keys."""
    burn, coups = shoe(SEED)
    with server(tmp_path) as port, browser() as launched:
        page = launched.new_page(viewport={"width": width, "height": height})
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#table option[value='ez_baccarat']", state="attached")
        page.select_option("#table", "ez_baccarat")
        page.click("#create")
        page.wait_for_selector("body[data-version='0']")
        session = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('s')")
        assert page.inner_text("#title") == "EZ Baccarat with Dragon 7 and Panda 8 · chip 5"
        page.fill("#bankroll", str(BANKROLL))
        page.click("#size-set")
        page.wait_for_selector("body[data-version='1']")
        version = 1

        def keys(*names: str) -> None:
            nonlocal version
            for key in names:
                page.keyboard.press(key)
                version += 1
                page.wait_for_selector(f"body[data-version='{version}']")

        keys(burn)  # the shoe's first card: turned, and its value burned face down
        seen = [burn]
        page.goto("about:blank")  # meanwhile the coups are entered on another device
        for coup in coups[:from_page]:
            for card in coup:
                call(port, "POST", f"/api/v1/sessions/{session}/cards", {"card": card})
            call(port, "POST", f"/api/v1/sessions/{session}/coups")
            version += len(coup) + 1
            seen += coup
        page.goto(f"http://127.0.0.1:{port}/#s={session}")  # picked up again from its link
        page.wait_for_selector(f"body[data-version='{version}']")
        for number, coup in enumerate(coups[from_page:], from_page + 1):
            keys(*coup, "Enter")
            seen += coup
            if number in CHECKED:
                line, edge = expected_banner(seen)
                assert (page.inner_text("#banner-main"), page.inner_text("#banner-edge")) == (line, edge), number
                if number == SHOWN:
                    assert line.startswith("BET panda_8 ")
                    assert page.inner_text("#banner-why") == "full Kelly on a bankroll of 10000, in whole chips of 5 within the table's limits"
                    assert page.evaluate("document.documentElement.scrollWidth") == width  # nothing wider than the screen
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=os.path.join(os.environ.get("EXACT_ODDS_SCREENSHOTS", str(tmp_path)), f"serve-tracker-{name}.png"))
                    assert small_targets(page) == []
        assert page.inner_text("#banner-main") == "SHOE ENDED" and page.get_attribute("#banner", "data-action") == "ended"
        beads = page.locator("#bead-plate span").evaluate_all("(spans) => spans.map((s) => [+s.dataset.coup, +s.dataset.column, +s.dataset.row, s.dataset.winner])")
        assert beads == [[number, (number - 1) // 6, (number - 1) % 6, winner(coup)] for number, coup in enumerate(coups, 1)]
        winners = [winner(coup) for coup in coups]
        decisions = [(number, side) for number, side in enumerate(winners, 1) if side != "tie"]
        assert winners[0] != "tie"  # no tie before the first decision in this shoe
        marks = []
        for number, side in decisions:  # each decision with the ties dealt after it, before the next
            after = 0
            while number + after < len(winners) and winners[number + after] == "tie":
                after += 1
            marks.append([number, side, str(after) if after else ""])
        road = page.locator("#big-road span").evaluate_all("(spans) => spans.map((s) => [+s.dataset.coup, s.dataset.winner, s.textContent, +s.dataset.row])")
        assert [cell[:3] for cell in road] == marks
        assert all(cell[3] == 0 for index, cell in enumerate(road) if index == 0 or road[index - 1][1] != cell[1])  # a new streak: the top row
        assert problems == []


@needs_chromium
def test_two_tabs_and_another_device_stay_in_sync(tmp_path):
    with server(tmp_path) as port, browser() as launched:
        session = call(port, "POST", "/api/v1/sessions", {"table": "ez_baccarat"})["id"]
        first, second = (launched.new_page(viewport={"width": 390, "height": 844}) for _ in range(2))
        for page in (first, second):
            page.goto(f"http://127.0.0.1:{port}/#s={session}")
            page.wait_for_selector("body[data-version='0']")

        def both(version: int, progress: str) -> None:
            for page in (first, second):
                page.wait_for_selector(f"body[data-version='{version}']")
                assert page.inner_text("#progress") == progress

        first.keyboard.press("7")  # the burn card: 7 burned face down
        both(1, "-")
        assert second.inner_text("#burninfo") == "Burned face up: 7."
        first.keyboard.press("9")
        both(2, "Player 9 (9) · Banker (0)")
        second.keyboard.press("5")
        both(3, "Player 9 (9) · Banker 5 (5)")
        first.keyboard.press("u")
        both(4, "Player 9 (9) · Banker (0)")
        assert first.is_enabled("#redo") and not second.is_enabled("#redo")  # redo is the tab's own
        first.keyboard.press("r")
        both(5, "Player 9 (9) · Banker 5 (5)")
        assert not first.is_enabled("#redo")

        device = launched.new_context(viewport={"width": 1440, "height": 900}).new_page()  # no session kept: the setup and the list
        device.goto(f"http://127.0.0.1:{port}/")
        device.click(f"#sessions-list a[href='#s={session}']")
        device.wait_for_selector("body[data-version='5']")
        device.keyboard.press("9")
        both(6, "Player 9 9 (8) · Banker 5 (5)")
        assert device.inner_text("#progress") == "Player 9 9 (8) · Banker 5 (5)"
