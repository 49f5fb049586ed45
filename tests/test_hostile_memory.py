"""Issue 18, class 7 (memory): conditions that compare card slots, counted by the pattern of the
slots' point values and split into classes (exact_odds.engine.slots.slot_distribution), against every
ordering of the physical cards of small suited shoes."""

from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from oracles import brute_force_expectations, coup_features, deal_physically, feature_tally, physical_cards, settle

from exact_odds.engine import slots, tables
from exact_odds.engine.coup_table import build_coup_table
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine, by_feature
from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.cards import SUITS, parse_card
from exact_odds.bets.conditions import parse_condition
from exact_odds.core.features import SLOTS, Columns, Granularity
from exact_odds.core.policy import Policy, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe

CONDITIONS = [  # slots compared by suit, colour or rank, third cards (which may not be dealt) among them
    "player_card1_suit == banker_card3_suit",
    "banker_card1_suit != player_card3_suit",
    "player_card2_suit == banker_card2_suit and winner == player",
    "player_card3_color == banker_card3_color",
    "player_card1_rank == banker_card3_rank",
    "player_card1_suit == banker_card1_suit and player_card1_rank == K",
    "banker_card3_suit == H and player_card2_value + banker_card2_value >= 9",
    "player_card3_rank != banker_card2_rank or banker_card3_color != player_card1_color",
    "player_card1_color == red and banker_card3_suit in [S, C] and banker_total > player_total",
]
SHOES = ["AS=1,AH=1,9D=1,9C=1,KS=1,KH=1,5D=1", "2S=1,3H=1,4D=1,6C=1,7S=1,TH=1,QD=1", "9H=2,KS=2,5D=2,AC=1"]


def bets_of(conditions: list[str]) -> list:
    text = "\n".join(f'[[bet]]\nname = "c{index}"\npays = [{{ when = "{condition}", pays = "{index + 2}" }}]\n'
                     for index, condition in enumerate(conditions))
    return list(load_bets(text, "test").values())


def card_counts(text: str) -> dict:
    return {parse_card(card): int(count) for card, count in (part.split("=") for part in text.split(","))}


@pytest.mark.parametrize("shoe_text", SHOES)
def test_slot_comparisons_equal_brute_force(shoe_text):
    bets = bets_of(CONDITIONS)
    expected = brute_force_expectations(bets, card_counts(shoe_text))
    assert {result.bet.name: result.expected_value for result in analyze(Shoe.parse(shoe_text), bets).bets} == expected


def test_bets_sharing_their_slots_equal_brute_force():
    """Several bets on the same slots are settled on one distribution (one reads a face, so that
    slot is split by value there, the others' slots by suit alone)."""
    bets = bets_of(["player_card1_suit == banker_card3_suit", "player_card1_suit != banker_card3_suit and winner == tie",
                    "player_card1_value == 9 and banker_card3_color == black"])
    counts = card_counts(SHOES[0])
    expected = brute_force_expectations(bets, counts)
    assert {result.bet.name: result.expected_value for result in analyze(Shoe.parse(SHOES[0]), bets).bets} == expected


def test_a_mixed_policy_equals_brute_force():
    policy = Policy.parse("player_on_5=1/3")
    bets = bets_of(CONDITIONS[:3] + CONDITIONS[5:6])
    expected = brute_force_expectations(bets, card_counts(SHOES[1]), BACCARAT_GOLD, policy)
    results = analyze(Shoe.parse(SHOES[1]), bets, BACCARAT_GOLD, policy="player_on_5=1/3").bets
    assert {result.bet.name: result.expected_value for result in results} == expected


def test_the_products_and_the_plain_split_agree(monkeypatch):
    """Where the sums over a slot's values would take too large products, the slots are split by
    value instead: the same counts."""
    monkeypatch.setattr(slots, "MAX_CELLS", 0)
    bets = bets_of(CONDITIONS)
    expected = brute_force_expectations(bets, card_counts(SHOES[2]))
    assert {result.bet.name: result.expected_value for result in analyze(Shoe.parse(SHOES[2]), bets).bets} == expected


@pytest.mark.parametrize("given", ["player_card1_suit == banker_card3_suit", "player_card3_color != banker_card1_color",
                                   "player_card2_rank == banker_card3_rank"])
def test_given_a_comparison_of_slots_equals_brute_force(given):
    """--given: the outcome counts and expectations where the condition holds, against the coups of
    every ordering where it holds."""
    counts = card_counts(SHOES[0])
    holds = parse_condition(given)
    tally = {key: weight for key, weight in feature_tally(counts, coup=True).items() if _holds(holds, dict(key))}
    bets = [catalog()["banker"], *bets_of(["banker_card1_suit == player_card3_suit"])]
    result = analyze(Shoe.parse(SHOES[0]), bets, given=given)
    winners = Counter()
    for key, weight in tally.items():
        winners[dict(key)["winner"]] += weight
    assert [result.outcomes[name] for name in ("banker", "player", "tie")] == [winners[index] for index in range(3)]
    weight = sum(tally.values())
    for analysis in result.bets:
        assert analysis.expected_value == sum((settle(analysis.bet, dict(key)) * count for key, count in tally.items()), Fraction(0)) / weight


def _holds(condition, features: dict) -> bool:
    columns = Columns({name: np.array([value]) for name, value in features.items()}, dict.fromkeys(SLOTS, Granularity.CARD))
    return bool(condition(columns)[0])


def test_drawn_with_replacement_equals_every_sequence():
    """Drawn with replacement (as the infinite deck is) from a few cards: every one of the n^6
    sequences of those cards."""
    counts = card_counts("AS=1,9H=1,KD=2,5C=1")
    by_card = [0] * 52
    for card, count in counts.items():
        by_card[card.rank_index * 4 + SUITS.index(card.suit)] = count
    shoe = Shoe(tuple(sum(by_card[rank * 4 : rank * 4 + 4]) for rank in range(13)), tuple(by_card), "five cards", with_replacement=True)
    cards = [card for _, card in physical_cards(counts)]
    tally: Counter = Counter()
    for sequence in product(cards, repeat=6):
        ((_, player, banker),) = deal_physically(list(sequence))
        tally[tuple(sorted(coup_features(player, banker).items()))] += 1
    bets = bets_of(CONDITIONS)
    expected = {bet.name: sum((settle(bet, dict(key)) * count for key, count in tally.items()), Fraction(0)) / len(cards) ** 6 for bet in bets}
    assert {result.bet.name: result.expected_value for result in analyze(shoe, bets).bets} == expected


def test_suits_of_two_slots_on_eight_decks_by_hand():
    """Regression (8-10 s and 1.5 GB before): P(the player's first card and the banker's third share
    a suit) on 8 decks, from the coups by those two cards' point values (the compiled table of point
    values): given the values, two cards of different values share a suit with probability 1/4, two
    of one value v with n_v cards (n_v / 4 of each suit) with probability (n_v / 4 - 1) / (n_v - 1)."""
    shoe = Shoe.decks(8)
    by_value = build_coup_table(resolve(PUNTO_BANCO), tables.tracked_key(dict.fromkeys(("player_card1", "banker_card3"), Granularity.VALUE))).distribution(shoe)
    first, third = (by_value.columns[f"{slot}_value"].tolist() for slot in ("player_card1", "banker_card3"))
    cards = shoe.value_counts
    share = sum((count * (Fraction(1, 4) if one != other else Fraction(cards[one] // 4 - 1, cards[one] - 1))
                 for one, other, count in zip(first, third, by_value.counts.tolist()) if other >= 0), Fraction(0))
    result = analyze(shoe, [catalog()["banker"]], given="player_card1_suit == banker_card3_suit")
    assert result.given is not None and result.given.probability == share / by_value.total


@pytest.mark.parametrize("feature", ["player_card1_suit", "banker_card3_color"])
def test_by_a_slot_read_by_its_mark_equals_the_plain_enumerator(feature):
    """--by a suit or colour: each value's conditional analysis is counted with the slot read by its
    mark alone; the plain enumerator tracks it at value and suit."""
    shoe = Shoe.parse(SHOES[2])
    bets = bets_of(CONDITIONS[:3])
    fast = by_feature(shoe, bets, resolve(PUNTO_BANCO), feature)
    plain = by_feature(shoe, bets, resolve(PUNTO_BANCO), feature, PlainEngine())
    assert [value for value, _ in fast] == [value for value, _ in plain]
    for (_, left), (_, right) in zip(fast, plain):
        assert left.outcomes == right.outcomes and left.given == right.given
        assert [bet.rows for bet in left.bets] == [bet.rows for bet in right.bets]
