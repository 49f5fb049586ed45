"""Closed forms in the number of decks against direct exact computation and the infinite deck."""

import subprocess
import sys
from fractions import Fraction

import pytest

from exact_odds import analyze
from exact_odds.bets.bets import catalog
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe

sympy = pytest.importorskip("sympy")
from exact_odds.studies.formulas import (  # noqa: E402
    d,
    expectation_formulas,
    extremes,
    house_edge,
    integer_ranges,
    outcome_formulas,
)

CATALOG = catalog()
PUNTO = resolve(PUNTO_BANCO)
COUP_BETS = [bet for bet in CATALOG.values() if bet.needs_coup]
CARD_BETS = [CATALOG[name] for name in ("player_pair", "either_pair", "perfect_pair")]


@pytest.fixture(scope="module")
def formulas():
    return {formula.name: formula for formula in expectation_formulas(COUP_BETS + CARD_BETS, PUNTO)}


def test_banker_count_is_the_published_polynomial():
    # Issue 6: 256 d^2 (35403904 d^4 - 10106280 d^3 + 1069054 d^2 - 50280 d + 917).
    banker = next(formula for formula in outcome_formulas(PUNTO) if formula.name == "banker")
    expected = 256 * d**2 * (35403904 * d**4 - 10106280 * d**3 + 1069054 * d**2 - 50280 * d + 917)
    assert sympy.expand(banker.numerator - expected) == 0


@pytest.mark.parametrize("decks", range(1, 11))
def test_every_formula_equals_the_direct_computation(formulas, decks):
    direct = analyze(Shoe.decks(decks), COUP_BETS + (CARD_BETS if decks <= 4 else CARD_BETS[:2]))
    for result in direct.bets:
        assert formulas[result.bet.name].at(decks) == result.expected_value, result.bet.name
    for formula in outcome_formulas(PUNTO):
        assert formula.at(decks) == direct.probability(formula.name)


def test_limits_are_the_infinite_deck(formulas):
    infinite = analyze(Shoe.infinite(), COUP_BETS + CARD_BETS)
    for result in infinite.bets:
        assert formulas[result.bet.name].limit == result.expected_value, result.bet.name
    assert {formula.name: formula.limit for formula in outcome_formulas(PUNTO)} == {
        "banker": Fraction(2212744, 4826809), "player": Fraction(2153464, 4826809), "tie": Fraction(460601, 4826809)
    }


def test_solving_for_deck_counts(formulas):
    edge = house_edge(formulas["banker"])
    threshold = sympy.Rational(105, 10000)
    ranges = integer_ranges(sympy.expand(edge.numerator - threshold * edge.denominator))
    assert ranges == [(4, None)]
    for decks in range(1, 12):
        direct = analyze(Shoe.decks(decks), [CATALOG["banker"]]).bets[0].house_edge
        assert (direct > Fraction(105, 10000)) == (decks >= 4)
    # Dragon 7 is cheapest at two decks (results/summary.md shows it too).
    assert extremes(house_edge(formulas["dragon_7"]))["min"][0] == 2


def test_the_main_command_does_not_import_sympy():
    code = "import sys; from exact_odds.cli.commands import main\ntry:\n    main(['--decks', '8'])\nexcept SystemExit:\n    pass\nprint('sympy' in sys.modules, file=sys.stderr)"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.stderr.strip() == "False"


def test_solve_answers_agree_with_each_deck_count_and_keep_json_valid(run):
    """Regression: --solve once printed its answers after the JSON (invalid JSON) and the LaTeX."""
    import json

    code, out, _ = run("formula", "--bets", "dragon_7", "--below", "7.6", "--format", "json")
    answers = json.loads(out)["solve"]["dragon_7"]
    assert code == 0 and answers[0] == "house edge of dragon_7 below 7.6000%: d = 1..4"
    edges = {decks: analyze(Shoe.decks(decks), [catalog()["dragon_7"]]).bets[0].house_edge for decks in range(1, 9)}
    assert [decks for decks, edge in edges.items() if edge < Fraction(76, 1000)] == [1, 2, 3, 4]
    assert min(edges, key=edges.__getitem__) == 2 and "smallest at d = 2" in answers[2]
    code, out, _ = run("formula", "--bets", "dragon_7", "--below", "7.6", "--format", "latex")
    assert code == 0 and out.rstrip().splitlines()[-3:] == [f"% {answer}" for answer in answers]
