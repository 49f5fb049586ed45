"""The infinite deck: cards drawn with replacement, exact with denominators powers of 13."""

from fractions import Fraction

from conftest import assert_exact

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import catalog
from exact_odds.core.cards import RANKS, Card
from exact_odds.core.coup import play_coup
from exact_odds.core.shoe import Shoe

# Published (issue 6; Yui-Bin Chen's figures to 4 decimals): banker, player, tie.
INFINITE_DECK = {"banker": Fraction(2212744, 4826809), "player": Fraction(2153464, 4826809), "tie": Fraction(460601, 4826809)}


def with_replacement_outcomes() -> dict[str, Fraction]:
    """Independent reference: deal ranks one at a time, each of probability 1/13, until
    :func:`play_coup` says the coup is settled."""
    tally = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}
    ways = {value: sum(1 for rank in RANKS if Card(rank).value == value) for value in range(10)}
    stack = [((), Fraction(1))]
    while stack:
        cards, probability = stack.pop()
        coup = play_coup(cards)
        if coup.complete:
            tally[coup.winner] += probability
            continue
        for value, count in ways.items():
            stack.append((cards + (Card(RANKS[value - 1] if value else "T"),), probability * Fraction(count, 13)))
    return tally


def test_infinite_deck_main_outcomes():
    result = analyze(Shoe.infinite(), [catalog()["banker"]])
    assert_exact(result)
    assert {name: result.probability(name) for name in INFINITE_DECK} == INFINITE_DECK
    assert result.total == 13**6


def test_infinite_deck_equals_drawing_with_replacement():
    result = analyze(Shoe.infinite(), "tie", engine=PlainEngine())
    assert {name: result.probability(name) for name in INFINITE_DECK} == with_replacement_outcomes()


def test_both_engines_agree_on_the_infinite_deck():
    """Every catalog bet but those counting colours over six cards (the plain enumerator would walk
    20^6 coups; they are checked against brute force on small shoes)."""
    bets = [bet for bet in catalog().values() if not any(slot.startswith("counted:") for slot in bet.card_slots)]
    fast = analyze(Shoe.infinite(), bets)
    plain = analyze(Shoe.infinite(), bets, engine=PlainEngine())
    assert_exact(fast)
    assert_exact(plain)
    assert [result.expected_value for result in fast.bets] == [result.expected_value for result in plain.bets]
    pair = next(result for result in fast.bets if result.bet.name == "player_pair")
    assert pair.expected_value == Fraction(12, 13) - 1
