"""The plain enumerator against published combination counts and brute force over small shoes."""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_outcomes

from exact_odds.core.cards import RANKS, SUITS, Card
from exact_odds.engine.distribution import falling
from exact_odds.engine.enumerator import enumerate_cards, enumerate_coups
from exact_odds.core.features import Granularity
from exact_odds.core.shoe import Shoe

# Ordered 6-card sequences, as published by the Wizard of Odds (copied at casinoexploit.com,
# "Probabilities in 8deck / 6deck / 4deck Baccarat"): banker, player, tie.
PUBLISHED_COUNTS = {
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288),
}
PUBLISHED_TOTAL_8_DECKS = 4_998_398_275_503_360  # Wizard of Odds, total combinations (8 decks)
# 4 decks, casinoexploit.com "Probabilities in 4deck Baccarat" (banker, player).
PUBLISHED_4_DECKS = (34_543_624_867_840, 33_608_344_225_792)
# 1 deck: no count table was found published; VegasTrip "Mini Baccarat" prints the probabilities.
PUBLISHED_1_DECK_PERCENT = {"banker": "45.9624", "player": "44.6760", "tie": "9.3615"}


@pytest.mark.parametrize("decks", sorted(PUBLISHED_COUNTS))
def test_published_combination_counts(decks):
    counts = enumerate_coups(Shoe.decks(decks)).outcome_counts()
    assert (counts["banker"], counts["player"], counts["tie"]) == PUBLISHED_COUNTS[decks]


def test_published_total_and_four_decks():
    assert enumerate_coups(Shoe.decks(8)).total == PUBLISHED_TOTAL_8_DECKS
    counts = enumerate_coups(Shoe.decks(4)).outcome_counts()
    assert (counts["banker"], counts["player"]) == PUBLISHED_4_DECKS


def test_one_deck_matches_published_probabilities_at_their_precision():
    distribution = enumerate_coups(Shoe.decks(1))
    for outcome, published in PUBLISHED_1_DECK_PERCENT.items():
        exact = Fraction(distribution.outcome_counts()[outcome] * 100, distribution.total)
        assert round(exact, 4) == Fraction(published)
    assert distribution.total == falling(52, 6)


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
small_shoes = st.lists(cards, min_size=6, max_size=7).map(Counter)
"""Six or seven cards: every ordering of a coup that takes up to six, and one card left over (the
nine-card shoe below has three)."""


def suited_shoe(counts: Counter) -> Shoe:
    return Shoe.parse(",".join(f"{card.rank}{card.suit}={count}" for card, count in counts.items()))


@given(small_shoes)
def test_enumerator_equals_brute_force_over_every_ordering(counts):
    distribution = enumerate_coups(suited_shoe(counts))
    assert distribution.outcome_counts() == {name: brute_force_outcomes(counts)[name] for name in ("banker", "player", "tie")}


def test_enumerator_equals_brute_force_on_a_nine_card_shoe():
    counts = Counter({Card("9", "S"): 2, Card("5", "D"): 1, Card("K", "H"): 2, Card("3", "C"): 2, Card("7", "H"): 2})
    assert enumerate_coups(suited_shoe(counts)).outcome_counts() == {
        name: brute_force_outcomes(counts)[name] for name in ("banker", "player", "tie")
    }


rank_counts = st.lists(st.integers(0, 12), min_size=13, max_size=13).filter(lambda counts: sum(counts) >= 6)


@settings(max_examples=10)
@given(rank_counts)
def test_probabilities_add_to_exactly_one(counts):
    shoe = Shoe(tuple(counts), None, "drawn")
    distribution = enumerate_coups(shoe)
    assert sum(distribution.outcome_counts().values()) == distribution.total == falling(shoe.size, 6)
    assert sum(Fraction(count, distribution.total) for count in distribution.outcome_counts().values()) == 1


@settings(max_examples=10)
@given(rank_counts)
def test_each_hand_sees_the_same_two_card_totals(counts):
    """Exchangeability: the player's first two cards and the banker's are alike in law."""
    distribution = enumerate_coups(Shoe(tuple(counts), None, "drawn"))
    columns = distribution.columns
    for total in range(10):
        assert distribution.count_where(columns["player_two_card_total"] == total) == distribution.count_where(
            columns["banker_two_card_total"] == total
        )


def test_suits_do_not_change_value_level_results():
    by_card = enumerate_coups(Shoe.decks(2)).outcome_counts()
    by_rank = enumerate_coups(Shoe((8,) * 13, None, "2 decks by rank")).outcome_counts()
    assert by_card == by_rank


def test_tracking_ranks_does_not_change_outcomes():
    plain = enumerate_coups(Shoe.decks(1)).outcome_counts()
    tracked = enumerate_coups(Shoe.decks(1), tracked={"player_card1": Granularity.RANK, "player_card2": Granularity.RANK})
    assert tracked.outcome_counts() == plain


def test_pair_counts_on_two_cards():
    # 8 decks: 13 ranks x 32 x 31 ordered pairs out of 416 x 415 (Wizard of Odds pair bet).
    distribution = enumerate_cards(Shoe.decks(8), {"player_card1": Granularity.RANK, "player_card2": Granularity.RANK})
    pair = distribution.columns["player_card1_rank"] == distribution.columns["player_card2_rank"]
    assert distribution.total == 416 * 415
    assert distribution.count_where(pair) == 13 * 32 * 31


def test_suited_pair_counts_on_two_cards():
    distribution = enumerate_cards(Shoe.decks(8), {"player_card1": Granularity.CARD, "player_card2": Granularity.CARD})
    columns = distribution.columns
    same_card = (columns["player_card1_rank"] == columns["player_card2_rank"]) & (columns["player_card1_suit"] == columns["player_card2_suit"])
    assert distribution.count_where(same_card) == 52 * 8 * 7


def test_completing_a_coup_from_seen_cards():
    """Given the first cards, the completions are the full enumeration restricted to that prefix."""
    shoe = Shoe.decks(1)
    seen = (9, 5)
    partial = enumerate_coups(shoe.remove(tuple(Card(rank) for rank in ("9", "5"))), hand=seen + (-1,) * 4)
    assert partial.total == falling(50, 4)
    full = enumerate_coups(shoe, tracked={"player_card1": Granularity.VALUE, "banker_card1": Granularity.VALUE})
    columns = full.columns
    prefix = (columns["player_card1_value"] == 9) & (columns["banker_card1_value"] == 5)
    for index, outcome in enumerate(("banker", "player", "tie")):
        # 4 nines and 4 fives in one deck: the prefix is drawn 4 x 4 ways.
        assert partial.outcome_counts()[outcome] * 16 == full.count_where(prefix & (columns["winner"] == index))
