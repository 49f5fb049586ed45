"""The tracker page in a real browser (Playwright driving Debian's chromium, on a phone-sized
window) against `baccarat-odds serve`: the burn and the four worked example coups of
rules-sources/002 entered from the keyboard, an undo, and every figure on the page equal to the
CLI's exact JSON for the same shoe (formatted here, independently, from the CLI's fractions); the
"what to bet now" panel showing the library's Kelly stake, and "no bet"."""

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from math import floor
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
from test_serve_sessions import call, free_port, serve  # noqa: E402

from exact_odds.core.shoe import Shoe  # noqa: E402
from exact_odds.studies.sizing import size  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
EXAMPLES = ["9S 5D 9H 2C", "3H 2S 8D KC QH 6S", "4C AD KS 2H 8C", "7S 3D KH 4C"]


def percent(value: Fraction, places: int = 4, times: int = 100) -> str:
    """``value`` (times ``times``: a percentage) to ``places`` decimals, half away from zero."""
    scaled = floor(abs(value) * times * 10**places + Fraction(1, 2))
    digits = str(scaled).rjust(places + 1, "0")
    return ("-" if value < 0 and scaled else "") + digits[:-places] + "." + digits[-places:]


@contextmanager
def phone_page(tmp_path) -> Iterator[tuple[int, Any]]:
    """`baccarat-odds serve` and a phone-sized page of chromium: (port, page); no script error on it."""
    port = free_port()
    server = serve(str(tmp_path / "sessions.sqlite"), port)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(str(error)))
            yield port, page
            assert problems == []
            browser.close()
    finally:
        server.terminate()
        server.communicate(timeout=10)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian's chromium package; no browser is downloaded)")
def test_a_shoe_tracked_in_the_page_shows_the_cli_figures(tmp_path, run):
    with phone_page(tmp_path) as (port, page):
        page.goto(f"http://127.0.0.1:{port}/")
        page.check("#entersuits")
        page.click("#create")
        page.wait_for_selector("body[data-events='0']")
        page.click("#coups-panel summary")  # the coups and every bet's edge: one tap away
        page.click("#all-bets summary")
        events = 0

        def key(*keys: str) -> None:
            nonlocal events
            for name in keys:
                page.keyboard.press(name)
            events += 1
            page.wait_for_selector(f"body[data-events='{events}']")

        key("5", "H")  # the burn: 5H turned face up (the first card of the shoe), 5 burned face down
        for coup in EXAMPLES:
            for card in coup.split():
                key(card[0], card[1])
            key("Enter")
        assert page.locator("#history tbody tr").all_inner_texts() == [
            "4\t7S KH (7)\t3D 4C (7)\tT",
            "3\t4C KS 8C (2)\tAD 2H (3)\tB", "2\t3H 8D QH (1)\t2S KC 6S (8)\tB", "1\t9S 9H (8)\t5D 2C (7)\tP natural"]
        events -= 2
        page.keyboard.press("u")
        page.keyboard.press("u")  # the close of the last coup, then its last card
        page.wait_for_selector(f"body[data-events='{events}']")
        assert page.locator("#history tbody tr").count() == 3
        assert page.inner_text("#progress").startswith("Player 7S KH (7) · Banker 3D (3)")
        seen = ["5H", *" ".join(EXAMPLES).split()[:-1]]
        code, out, err = run("--format", "json", "--decks", "8", "--remove", " ".join(seen), "--bets", "all")
        assert code == 0, err
        expected = json.loads(out)
        for name in ("banker", "player", "tie"):
            assert page.inner_text(f"#p-{name}") == percent(Fraction(expected["outcomes"][name]["probability"])) + "%"
        rows = page.locator("#bets-table tbody tr")
        shown = {row.get_attribute("data-bet"): row.locator("td").nth(1).inner_text() for row in rows.all()}
        assert shown == {name: percent(Fraction(bet["house_edge"])) for name, bet in expected["bets"].items()}
        positive = {row.get_attribute("data-bet") for row in page.locator("#bets-table tbody tr.positive").all()}
        assert positive == {name for name, bet in expected["bets"].items() if Fraction(bet["expected_value"]) > 0}
        page.click("#bets-table tr[data-bet='dragon_7']")
        exact = expected["bets"]["dragon_7"]
        assert page.inner_text("[data-exact='dragon_7']") == f"house edge {exact['house_edge']} (EV {exact['expected_value']})"
        assert page.inner_text("#cutinfo") == f"{416 - 14 - len(seen) - 5} cards to the cut card."
        assert page.inner_text("#shoeinfo") == (f"Shoe 1: 416 cards = {416 - len(seen) - 5} in the shoe + {len(seen) - 1} dealt + 1 burned face up "
                                                f"+ 5 burned face down. {416 - len(seen)} not seen: the figures count every card seen (a card burned "
                                                "face down changes no probability).")
        assert page.inner_text("#rank-3 small") == "30"
        events -= 1
        page.click("#progress button:text-is('3D')")  # a card entered that was not dealt: removed
        page.click("#remove")
        page.wait_for_selector(f"body[data-events='{events}']")
        assert page.inner_text("#progress").startswith("Player 7S (7) · Banker KH (0)")  # the cards left, in shoe order
        assert page.inner_text("#rank-3 small") == "31"
        page.screenshot(path=str(tmp_path / "tracker.png"), full_page=True)


SEVENS = ",".join(f"{rank}={8 if rank == '7' else 4}" for rank in "A 2 3 4 5 6 7 8 9 T J Q K".split())
"""One deck with four more 7s: Dragon 7 has the player's edge, and loses it when a 7 is dealt."""


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian's chromium package; no browser is downloaded)")
def test_the_panel_shows_what_to_bet_now(tmp_path):
    with phone_page(tmp_path) as (port, page):
        session = call(port, "POST", "/api/v1/sessions", {"shoe": SEVENS, "bets": "banker,player,tie,dragon_7", "burn": "none"})["id"]
        page.goto(f"http://127.0.0.1:{port}/#s={session}")
        page.wait_for_selector("body[data-events='0']")
        page.fill("#bankroll", "1000")
        page.select_option("#kelly", "1/2")
        page.click("#size-set")
        cell = page.wait_for_selector("#stakes tr[data-bet='dragon_7'] td.amount")
        (stake,) = size(Shoe.parse(SEVENS), "dragon_7", 1000, kelly="1/2").stakes
        assert (cell.get_attribute("title"), cell.inner_text()) == (str(stake.amount), percent(stake.amount, 2, 1))
        assert page.locator("#stakes tbody tr").count() == 1 and page.locator("#nobet").is_hidden()
        page.keyboard.press("7")
        page.wait_for_selector("body[data-events='1']")
        assert page.locator("#nobet").is_visible() and page.locator("#stakes").is_hidden()
        assert page.input_value("#bankroll") == "1000"


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian's chromium package; no browser is downloaded)")
def test_entries_a_player_gets_wrong_are_put_right(tmp_path):
    """A middle card corrected in its seat; keys with a field focused go to the field; a burn armed
    before a reload is still armed after it, and a refused burn disarms it; a stale tab is told."""
    with phone_page(tmp_path) as (port, page):
        session = call(port, "POST", "/api/v1/sessions", {"decks": 8, "burn": "none"})["id"]
        page.goto(f"http://127.0.0.1:{port}/#s={session}")
        page.wait_for_selector("body[data-version='0']")
        other = page.context.browser.new_page(viewport={"width": 390, "height": 844})  # a second tab on the same session
        other.route("**/api/v1/sessions/*/events", lambda route: route.abort())  # whose event stream is cut: it goes stale
        other.goto(f"http://127.0.0.1:{port}/#s={session}")
        other.wait_for_selector("body[data-version='0']")
        version = 0

        def typed(*keys: str, on: Any = page) -> None:
            nonlocal version
            for name in keys:
                on.keyboard.press(name)
            version += 1
            on.wait_for_selector(f"body[data-version='{version}']")

        for card in "2 3 K 5".split():
            typed(card)
        page.click("#progress button[data-seat='player_2']")
        expect(page.locator("#mode")).to_have_text("(next card: in place of K, the player's second card)")
        typed("4")
        expect(page.locator("#progress")).to_have_text("Player 2 4 (6) · Banker 3 5 (8) · banker wins: close the coup")
        typed("Enter")
        page.click("#coups-panel summary")
        expect(page.locator("#history tbody tr")).to_have_text(["1\t2 4 (6)\t3 5 (8)\tB natural"], use_inner_text=True)
        assert call(port, "GET", f"/api/v1/sessions/{session}")["shoe"]["seen"] == ["2", "3", "4", "5"]

        page.fill("#bankroll", "10000")
        page.keyboard.press("7")  # the field has the key, and no card is entered
        expect(page.locator("#bankroll")).to_have_value("100007")
        expect(page.locator("#mode")).to_have_text("(keys type into bankroll: Esc for card keys)")
        page.keyboard.press("Escape")
        expect(page.locator("#mode")).to_have_text("")
        typed("7")
        assert call(port, "GET", f"/api/v1/sessions/{session}")["coup_in_progress"]["cards"] == ["7"]
        typed("u")

        page.keyboard.press("b")
        page.reload()
        page.wait_for_selector(f"body[data-version='{version}']")
        expect(page.locator("#mode")).to_have_text("(next card: burn, face up)")
        expect(page.locator("#burnseen")).to_have_class(re.compile(r"\barmed\b"))
        typed("9")  # burned face up, not dealt
        state = call(port, "GET", f"/api/v1/sessions/{session}")
        assert (state["burn"]["seen"], state["coup_in_progress"]) == (["9"], None)
        expect(page.locator("#mode")).to_have_text("")
        typed("8")
        page.keyboard.press("b")
        page.keyboard.press("6")  # a burn inside a coup: refused
        page.wait_for_selector("#error.on")
        expect(page.locator("#error")).to_have_text("burn card 6 was refused: a burn comes between coups: close the coup in progress "
                                                    "(or undo its cards) first")
        expect(page.locator("#mode")).to_have_text("")
        expect(page.locator("#burnseen")).not_to_have_class(re.compile(r"\barmed\b"))

        other.keyboard.press("4")  # the other tab still shows the empty shoe: refused, and told
        other.wait_for_selector("#pending:not([hidden])")
        expect(other.locator("#pending-text")).to_have_text(
            "Not recorded yet: card 4. This session was changed in another tab or device since this page showed it: the page now shows "
            "the session as it is. Check these against the table before you enter them.")
        expect(other.locator("body")).to_have_attribute("data-version", str(version))
        other.click("#coups-panel summary")
        expect(other.locator("#history tbody tr")).to_have_text(["1\t2 4 (6)\t3 5 (8)\tB natural"], use_inner_text=True)
        told = other.inner_text("#pending-text")
        other.reload()  # the entry is kept across a reload, and still made on the state the tab showed: refused again
        other.wait_for_selector("#pending:not([hidden])")
        expect(other.locator("#pending-text")).to_have_text(told)
        assert call(port, "GET", f"/api/v1/sessions/{session}")["version"] == version
        other.click("#pending-send")  # checked against the table: entered now, on the state shown
        other.wait_for_selector(f"body[data-version='{version + 1}'][data-pending='0']")
        assert other.locator("#pending").is_hidden()
        assert call(port, "GET", f"/api/v1/sessions/{session}")["coup_in_progress"]["cards"] == ["8", "4"]


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (Debian's chromium package; no browser is downloaded)")
def test_cards_typed_while_the_server_is_down_are_entered_once_in_order(tmp_path):
    db, port = str(tmp_path / "sessions.sqlite"), free_port()
    server = serve(db, port)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            session = call(port, "POST", "/api/v1/sessions", {"decks": 8, "burn": "none"})["id"]
            page.goto(f"http://127.0.0.1:{port}/#s={session}")
            page.wait_for_selector("body[data-version='0']")
            page.keyboard.press("9")
            page.wait_for_selector("body[data-version='1']")
            server.terminate()
            server.communicate(timeout=10)
            for key in "5 9 2".split():
                page.keyboard.press(key)
            page.wait_for_selector("#pending:not([hidden])")
            assert page.inner_text("#pending-text") == (
                "Not recorded yet: card 5, card 9, card 2. The server does not answer: retrying every few seconds.")
            server = serve(db, port)
            page.wait_for_selector("body[data-version='4'][data-pending='0']", timeout=20_000)
            assert page.locator("#pending").is_hidden()
            state = call(port, "GET", f"/api/v1/sessions/{session}")
            assert (state["shoe"]["seen"], state["version"]) == (["9", "5", "9", "2"], 4)
            assert page.inner_text("#progress") == "Player 9 9 (8) · Banker 5 2 (7) · player wins: close the coup"
            browser.close()
    finally:
        server.terminate()
        server.communicate(timeout=10)
