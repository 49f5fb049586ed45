"""Results in a notebook (issue 21): an analysis and a bet's analysis show as HTML tables of their
records, every value escaped, the exact values as they are, with no import beyond the standard library."""

import subprocess
import sys
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

from oracles import brute_force_expectations, brute_force_outcomes

from exact_odds import Shoe, analyze, load_bets
from exact_odds.core.cards import Card

SMALL = {Card("A", "S"): 1, Card("5", "H"): 1, Card("9", "D"): 1, Card("K", "C"): 1, Card("3", "S"): 1, Card("7", "H"): 2}
"""Seven cards: 7!/1! = 5040 orderings of six, few enough to deal every one (both sevens told apart)."""


class Cells(HTMLParser):
    """The text of every cell of a page, and its tags checked to close in order."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.cells: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.open.append(tag)
        if tag in ("td", "th"):
            self.cells.append("")

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"</{tag}> closes {self.open}"

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] in ("td", "th"):
            self.cells[-1] += data


def cells(page: str) -> Counter:
    parser = Cells()
    parser.feed(page)
    parser.close()
    assert parser.open == []
    return Counter(parser.cells)


def small_shoe() -> Shoe:
    return Shoe.parse(",".join(f"{card.rank}{card.suit}={count}" for card, count in SMALL.items()))


def test_an_analysis_shows_its_outcomes_and_bets_exactly():
    result = analyze(small_shoe(), "banker, tie")
    page = cells(result._repr_html_())
    outcomes = brute_force_outcomes(SMALL)
    total = sum(outcomes.values())
    for name in ("banker", "player", "tie"):
        assert page[str(Fraction(outcomes[name], total))] >= 1, name
        assert page[str(outcomes[name])] >= 1, name
    expected = brute_force_expectations([result["banker"].bet, result["tie"].bet], SMALL)
    for name in ("banker", "tie"):
        assert page[str(-expected[name])] >= 1  # the house edge
        assert page[repr(float(-expected[name] * 100))] == 1  # in percent, as a number
    assert page["returns"] == 0 and page["format"] == 0  # the return tables are the bets' own


def test_a_bet_shows_its_return_table():
    bet = analyze(small_shoe(), "tie")["tie"]
    page = cells(bet._repr_html_())
    expected = brute_force_expectations([bet.bet], SMALL)["tie"]
    assert page["tie"] >= 2 and page["any other result"] == 1  # the bet's name, then its two events
    assert page[str(expected)] == 1 and page["returns"] == 1


def test_every_value_is_escaped():
    text = '[[bet]]\nname = "odd"\ndescription = "<script>alert(1)</script> & more"\npays = [{ when = "winner == tie", pays = "8" }]\n'
    bet = load_bets(text, "odd.toml")["odd"]
    page = analyze(small_shoe(), [bet])._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
    assert cells(page)["<script>alert(1)</script> & more"] == 1


def test_the_html_needs_no_import_beyond_the_standard_library():
    code = ("import sys; from exact_odds.records import record_html; record_html({'a': [{'b': 1}]}); "
            "print(sorted(name for name in sys.modules if name.split('.')[0] in ('numpy', 'pandas', 'sympy')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


def test_many_shoes_show_their_first_expectations_exactly():
    from exact_odds import batch_expectations, catalog
    from exact_odds.engine.analysis import PlainEngine
    from exact_odds.engine.batch import SHOWN_SHOES

    bets = [catalog()["banker"], catalog()["tie"]]
    shoes = [[4] * 13, [4] * 9 + [0] * 4] * SHOWN_SHOES  # one deck, and one deck without ten-valued cards
    many = batch_expectations(shoes, bets)
    assert repr(many) == f"<BatchExpectations of {2 * SHOWN_SHOES} shoes: banker, tie>"
    page = many._repr_html_()
    shown = cells(page)
    for counts, times in ((shoes[0], SHOWN_SHOES // 2), (shoes[1], SHOWN_SHOES // 2)):
        plain = analyze(Shoe(tuple(counts), None, "test shoe"), bets, engine=PlainEngine())  # the plain enumerator, not the kernel
        for result in plain.bets:
            assert shown[str(result.expected_value)] == times
    assert shown["shoe 19"] == 1 and shown["shoe 20"] == 0 and page.endswith(f"<p>and {SHOWN_SHOES} more shoes</p>")
