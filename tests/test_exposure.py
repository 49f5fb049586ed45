"""Issue 34, item 2: the table's view of a bet mix, against every ordering of the physical cards of
small suited shoes (the house's result on each coup settled here by the bets' own pay tables), and
against each bet's own house edge (the expectation is linear in the amounts); the table differential
by hand; a mix past the table's limits refused in one line."""

from collections import Counter
from fractions import Fraction

import pytest
from oracles import feature_tally, settle

from exact_odds.bets.bets import catalog
from exact_odds.core.cards import parse_card
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.errors import InputError
from exact_odds.studies.exposure import table_view
from exact_odds.studies.sizing import Limits

SHOES = ["7S=1,7H=1,8D=1,KS=1,9H=1,AD=1,5C=1", "3S=2,4H=1,6D=1,KC=1,7H=1,8C=1"]
"""Seven cards each (5,040 orderings); among them Dragon 7 and Panda 8 win, and pairs (suited too) fall."""
MIX = {"banker": 100, "player": 30, "tie": 10, "dragon_7": 5, "panda_8": Fraction(5, 2), "player_pair": 5, "banker_pair": 4, "perfect_pair": 1}


def brute_force_results(text: str, mix: dict) -> dict[Fraction, Fraction]:
    """The house's result on every ordering of the shoe's physical cards, by value: its probability."""
    counts = {parse_card(card): int(count) for card, count in (part.split("=") for part in text.split(","))}
    bets = {name: catalog()[name] for name in mix}
    tally: Counter = Counter()
    for key, weight in feature_tally(counts, coup=True).items():
        features = dict(key)
        tally[-sum((Fraction(amount) * settle(bets[name], features) for name, amount in mix.items()), Fraction(0))] += weight
    everything = sum(tally.values())
    return {result: Fraction(count, everything) for result, count in tally.items()}


@pytest.mark.parametrize("text", SHOES)
def test_the_house_result_equals_every_ordering_of_a_small_suited_shoe(text):
    view = table_view(Shoe.parse(text), MIX, pace=80)
    expected = brute_force_results(text, MIX)
    offered = view.offered
    assert {result.amount: offered.probability(result) for result in offered.results} == expected
    mean = sum((result * chance for result, chance in expected.items()), Fraction(0))
    assert offered.expected_win == mean and type(offered.expected_win) is Fraction
    assert offered.variance == sum(((result - mean) ** 2 * chance for result, chance in expected.items()), Fraction(0))
    assert offered.hold == mean / sum(map(Fraction, MIX.values())) and offered.win_per_hour == 80 * mean
    assert offered.results[0].amount == min(expected) and offered.exposure == max(-min(expected), 0)
    assert view.capped is None


def test_the_hold_is_each_bets_edge_weighted_by_its_amount_on_eight_decks():
    mix = {"banker": 500, "player": 200, "tie": 25, "dragon_7": 10, "player_pair": 10}
    view = table_view(8, mix, pace=72)
    analysis = analyze(8, list(mix))
    expected = sum((amount * analysis[name].house_edge for name, amount in mix.items()), Fraction(0))
    assert view.offered.expected_win == expected and view.offered.hold == expected / 745
    assert view.offered.win_per_hour == 72 * expected
    # worst coup: a tie with a 3-card-7 banker cannot pay Dragon 7; the most the house pays is a banker win with a three-card 7 and a player pair
    assert view.offered.exposure == Fraction(95, 100) * 500 - 200 - 25 + 40 * 10 + 11 * 10
    assert dict(view.offered.worst_events) == {"banker": "banker wins", "player": "any other result", "tie": "any other result",
                                               "dragon_7": "banker wins with a three-card 7", "player_pair": "player pair"}


@pytest.mark.parametrize("mix, cap, unit, kept, exposure", [
    ({"banker": 5000, "player": 1000}, 2000, None, {"banker": 3000, "player": 1000}, Fraction(95, 100) * 3000 - 1000),
    ({"banker": 5000, "player": 1000}, 1990, 25, {"banker": 2975, "player": 1000}, Fraction(95, 100) * 2975 - 1000),
    ({"banker": 1000, "player": 4000, "tie": 50}, 500, None, {"banker": 1000, "player": 1500, "tie": 50}, 1500 - 1000 - 50),
    ({"banker": 1000, "player": 1200}, 500, None, {"banker": 1000, "player": 1200}, 200),
])
def test_the_table_differential_cuts_the_heavier_side_to_the_cap(mix, cap, unit, kept, exposure):
    view = table_view(8, mix, pace=70, differential=cap, limits=Limits(unit=None if unit is None else Fraction(unit)))
    assert view.capped is not None and dict(view.capped.amounts) == kept
    assert view.capped.exposure == exposure
    analysis = analyze(8, list(mix))
    assert view.capped.expected_win == sum((amount * analysis[name].house_edge for name, amount in kept.items()), Fraction(0))
    assert view.offered.amounts == tuple((name, Fraction(amount)) for name, amount in mix.items())
    record = view.to_dict()
    assert record["format"] == "exact_odds.table" and record["differential"]["cap"] == str(cap)
    assert sum(Fraction(item["probability"]) for item in record["offered"]["results"]) == 1
    assert record["differential"]["capped"]["hold"] == str(view.capped.hold)


@pytest.mark.parametrize("arguments, parameter, message", [
    ({"amounts": {"banker": 6000}, "limits": Limits(maximum={"banker": Fraction(5000)})}, "amounts", "6000 on banker is above the table's maximum of 5000"),
    ({"amounts": {"banker": 20}, "limits": Limits(minimum={"banker": Fraction(25)})}, "amounts", "20 on banker is below the table's minimum of 25"),
    ({"amounts": {"banker": 600, "player": 500}, "limits": Limits(total=Fraction(1000))}, "amounts", "1100 in all is above the table's limit of 1000"),
    ({"amounts": {"banker": "12.5"}, "limits": Limits(unit=Fraction(5))}, "amounts", "25/2 on banker is not a whole number of the table's unit 5"),
    ({"amounts": {"dragon_7": 5}, "limits": Limits(side_needs_main=True)}, "amounts", "a side bet needs a bet on a main bet"),
    ({"amounts": {"banker": 10, "dragon_7": 25}, "limits": Limits(side_ratio=Fraction(2))}, "amounts", "25 on side bets is above 2 times the 10"),
    ({"amounts": {"banker": 10}, "limits": Limits(maximum={"tie": Fraction(5)})}, "limits", "a maximum for 'tie', which is not a bet of this mix"),
    ({"amounts": {}}, "amounts", "at least one bet"),
    ({"amounts": {"banker": 0}}, "amounts", "the amount on banker must be positive"),
    ({"amounts": {"banker": 1.5}}, "amounts", "must be an exact number"),
    ({"amounts": {"banker": "lots"}}, "amounts", "must be an exact number such as"),
    ({"amounts": {"Banker": 1, "banker": 2}}, "amounts", "a bet is named twice"),
    ({"amounts": {"banker": 10}, "pace": 0}, "pace", "must be at least 1"),
    ({"amounts": {"banker": 10}, "pace": 10_001}, "pace", "must be at most 10,000"),
    ({"amounts": {"banker": 10}, "pace": 1.5}, "pace", "whole number of decisions an hour"),
    ({"amounts": {"banker": 10}, "differential": -5}, "differential", "must be positive"),
    ({"amounts": {"tie": 10}, "differential": 500}, "differential", "this mix has neither"),
    ({"amounts": {"banker": 3000, "player": 500}, "differential": 1000, "limits": Limits(minimum={"banker": Fraction(2000)})}, "differential",
     "the cap cuts banker to 1500, below the table's minimum of 2000"),
])
def test_a_mix_past_the_tables_limits_is_refused_in_one_line(arguments, parameter, message):
    arguments = {"pace": 60, **arguments}
    with pytest.raises(InputError, match=message) as error:
        table_view(8, **arguments)
    assert error.value.parameter == parameter and "\n" not in str(error.value)


def test_an_unknown_bet_is_refused():
    with pytest.raises(InputError, match="unknown bet 'bogus'"):
        table_view(8, {"bogus": 10}, pace=60)
