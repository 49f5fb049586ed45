"""Issue 23, item 1: the exact joint distribution of several bets' settled lines on one coup, against
every ordering of the physical cards of small suited shoes (tests/oracles.py), and against each
bet's own return table."""

from collections import Counter
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from conftest import assert_exact
from oracles import feature_tally

from exact_odds.bets.bets import catalog
from exact_odds.core.cards import parse_card
from exact_odds.core.features import SLOTS, Columns, Granularity
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.errors import InputError
from exact_odds.studies.joint import MAX_BETS, joint

SHOES = ["7S=1,7H=1,8D=1,KS=1,9H=1,AD=1,5C=1", "3S=2,4H=1,6D=1,KC=1,7H=1,8C=1", "KS=2,7H=1,8D=1,AC=1,2S=1,2H=1"]
"""Seven cards each (5,040 orderings); among them Dragon 7 and Panda 8 win, and pairs (suited too) fall."""
BETS = ["banker", "player", "tie", "dragon_7", "panda_8", "player_pair", "banker_pair", "perfect_pair"]


def card_counts(text: str) -> dict:
    return {parse_card(card): int(count) for card, count in (part.split("=") for part in text.split(","))}


def line(bet, features: dict[str, int]) -> int:
    """The pay-table line a coup whose every card is known settles the bet on."""
    columns = Columns({name: np.array([value]) for name, value in features.items()}, dict.fromkeys(SLOTS, Granularity.CARD))
    return int(bet.settle(columns)[0])


@lru_cache(maxsize=None)
def brute_force_joint(names: tuple[str, ...], text: str) -> dict[tuple[int, ...], Fraction]:
    bets = [catalog()[name] for name in names]
    tally: Counter = Counter()
    for key, count in feature_tally(card_counts(text), coup=True).items():
        features = dict(key)
        tally[tuple(line(bet, features) for bet in bets)] += count
    everything = sum(tally.values())
    return {lines: Fraction(count, everything) for lines, count in tally.items()}


@pytest.mark.parametrize("text", SHOES)
@pytest.mark.parametrize("engine", [None, PlainEngine()], ids=["fast", "enumerate"])
def test_joint_equals_every_ordering_of_a_small_suited_shoe(text, engine):
    distribution = joint(Shoe.parse(text), BETS, engine=engine)
    assert {combination.lines: distribution.probability(combination) for combination in distribution.combinations} == brute_force_joint(tuple(BETS), text)
    assert distribution.total == sum(combination.combinations for combination in distribution.combinations)
    assert_exact(distribution)


def test_marginals_equal_each_bets_own_return_table():
    """The pairs are counted through the coup here, on their 2 cards alone in the analysis."""
    names = ["banker", "dragon_7", "player_pair", "lucky_6"]
    distribution = joint(Shoe.decks(8), names)
    analysis = analyze(Shoe.decks(8), names)
    for name in names:
        rows = {row.event: row.probability for row in analysis[name].rows}
        marginal = distribution.marginal(name)
        events = catalog()[name].events if name != "banker" else analysis[name].bet.events
        shown = {event: Fraction(count, distribution.total) for event, count in zip(events, marginal) if count}
        assert shown == rows, name


def test_dragon_7_and_panda_8_never_both_win_and_a_pair_is_not_independent_of_the_banker():
    distribution = joint(Shoe.decks(8), "banker, dragon_7, panda_8, banker_pair")
    assert distribution.probability_of({"dragon_7": 0, "panda_8": 0}) == 0
    banker_wins = distribution.probability_of({"banker": 0})
    pair = distribution.probability_of({"banker_pair": 0})
    assert distribution.probability_of({"banker": 0, "banker_pair": 0}) != banker_wins * pair
    assert pair == Fraction(31, 415)  # 8 decks: (32 - 1) / 415 of a rank's 32 cards among 415 left


def test_to_dict_holds_every_combination_exactly():
    record = joint(Shoe.decks(8), "banker, dragon_7").to_dict()
    combinations = record["combinations"]
    assert sum(Fraction(item["probability"]) for item in combinations) == 1
    assert {tuple(item["events"].values()) for item in combinations} == {
        ("banker wins", "banker wins with a three-card 7"), ("banker wins", "any other result"), ("tie", "any other result"),
        ("any other result", "any other result")}


@pytest.mark.parametrize("bets, message", [
    ([], "bets is empty \\(give names separated by commas, or all\\)"),
    ("bogus", "unknown bet 'bogus'"),
    (["banker"] + [name for name in catalog() if name.startswith("egalite")], f"at most {MAX_BETS} bets"),
])
def test_hostile_bets_are_refused_in_one_line(bets, message):
    with pytest.raises(InputError, match=message) as error:
        joint(Shoe.decks(8), bets)
    assert "\n" not in str(error.value)
