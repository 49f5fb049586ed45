"""A bet's record (``BetAnalysis.to_dict``, written from integer counts) against the same record
computed here the plain way, from the return table's Fractions (the expectation as the sum of each
line's probability times its net pay, the variance as the second moment less its square, the
standard deviation from an exact square root), field by field and as JSON text, for shoes by rank
and with suits, a table's bets, a mixed policy, a condition given, counts by hands, the infinite
deck and shoes of a few cards."""

import json
import math
from fractions import Fraction

import pytest

from exact_odds import analyze
from exact_odds.commands.session import session_settings, table_of
from exact_odds.core.shoe import Shoe
from exact_odds.engine.analysis import BetAnalysis
from exact_odds.serve.tables import TABLES


def plain_root(value: Fraction) -> float:
    """The square root of ``value`` to 20 decimals, rounded half up, as a float: by bisection on exact squares."""
    low, high = 0, 10**20 * (math.isqrt(value.numerator // value.denominator) + 1)
    while low < high:  # the largest root r with (r / 10^20)^2 <= value
        middle = (low + high + 1) // 2
        low, high = (middle, high) if Fraction(middle, 10**20) ** 2 <= value else (low, middle - 1)
    return float(Fraction(low + (Fraction(2 * low + 1, 2 * 10**20) ** 2 <= value), 10**20))


def plain_record(result: BetAnalysis) -> dict[str, object]:
    """The record of docs/json-format.md from the return table's Fractions."""
    probabilities = [Fraction(row.combinations, result.total) for row in result.rows]
    nets = [row.pays.net for row in result.rows]
    mean = sum((probability * net for probability, net in zip(probabilities, nets)), Fraction(0))
    variance = sum((probability * net * net for probability, net in zip(probabilities, nets)), Fraction(0)) - mean * mean
    pushes = sum((probability for probability, net in zip(probabilities, nets) if net == 0), Fraction(0))
    return {
        "description": result.bet.description,
        "expected_value": str(mean),
        "house_edge": str(-mean),
        "house_edge_percent": float(-mean * 100),
        "house_edge_excluding_pushes": None if pushes == 1 else str(-mean / (1 - pushes)),
        "variance": str(variance),
        "standard_deviation": plain_root(variance),
        "settles_on_cards": result.cards,
        "total_combinations": result.total,
        "returns": [{"event": row.event, "pays": row.pays.text, "net": str(net), "combinations": row.combinations,
                     "probability": str(probability), "return": str(probability * net)}
                    for row, probability, net in zip(result.rows, probabilities, nets)],
    }


EZ = table_of(session_settings(TABLES["ez_baccarat"], suits=False))
CASES = {
    "8 decks, every bet by rank": lambda: analyze(Shoe.decks(8).remove("9 5 K 2 7 7 A 3"), "all"),
    "suits, every bet": lambda: analyze(Shoe.parse("As=7,Ah=7,Ad=7,Ac=7,9h=5,9s=5,Ks=20,Kh=20,5c=9,3d=9,2h=9"), "all"),
    "a table's bets": lambda: analyze(EZ.start.remove("8 8 2 4 T"), list(EZ.bets), EZ.decisions),
    "a mixed policy": lambda: analyze(Shoe.decks(1), "banker, player, tie, dragon_7, panda_8", rules="baccarat_gold", policy="player_on_5=1/3"),
    "a condition given": lambda: analyze(Shoe.decks(2), "banker, tie, player_pair, dragon_7", given="player_total >= 6"),
    "counted by hands": lambda: analyze(Shoe.decks(6), "player_pair, perfect_pair, either_pair", unordered="hands"),
    "the infinite deck": lambda: analyze(Shoe.infinite(), "banker, player, tie, dragon_7"),
    "six cards left": lambda: analyze("A=2,5=1,9=2,K=1", "all"),
    "seven cards of one rank and one other": lambda: analyze("9=6,K=1", "all"),
}


@pytest.mark.filterwarnings("ignore:left out")  # the bets on suits, on shoes by rank
@pytest.mark.parametrize("case", CASES)
def test_a_bets_record_is_the_plain_record_of_its_fractions(case):
    analysis = CASES[case]()
    assert analysis.bets
    for result in analysis.bets:
        got, wanted = result.to_dict(), plain_record(result)
        for name in wanted:
            assert got[name] == wanted[name], (result.bet.name, name)
            assert type(got[name]) is type(wanted[name]), (result.bet.name, name)
        assert json.dumps(got) == json.dumps(wanted)  # byte for byte, the order of the fields and the floats too
    whole = analysis.to_dict()
    assert whole["bets"] == {result.bet.name: plain_record(result) for result in analysis.bets}


def test_the_plain_root_is_the_root_to_20_decimals():
    assert plain_root(Fraction(2)) == 1.4142135623730951 and plain_root(Fraction(0)) == 0.0
    assert plain_root(Fraction(1, 4)) == 0.5 and plain_root(Fraction(10**6)) == 1000.0
