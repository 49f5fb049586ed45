"""Brute-force references: every ordering of the physical cards of a small shoe.

Independent of the enumerator: cards are distinct objects, sequences come from
``itertools.permutations``, coups are played card by card by :func:`exact_odds.coup.play_coup`,
and the features of a coup are read from the played hands.
"""

from collections import Counter
from fractions import Fraction
from itertools import permutations

import numpy as np

from exact_odds.cards import RANKS, SUITS, Card
from exact_odds.coup import play_coup
from exact_odds.distribution import OUTCOMES

WINNER_CODE = {name: index for index, name in enumerate(OUTCOMES)}


def physical_cards(counts: dict[Card, int]) -> list[tuple[int, Card]]:
    """Each copy of each card as a distinct object (an index and the card)."""
    cards = [card for card, count in sorted(counts.items()) for _ in range(count)]
    return list(enumerate(cards))


def coup_features(player, banker) -> dict[str, int]:
    """Every feature a pay table may read, straight from the dealt hands."""
    def total(hand):
        return sum(card.value for card in hand) % 10

    player_total, banker_total = total(player), total(banker)
    winner = "player" if player_total > banker_total else "banker" if banker_total > player_total else "tie"
    player_natural = len(player) == 2 and player_total in (8, 9)
    banker_natural = len(banker) == 2 and banker_total in (8, 9)
    features = {
        "winner": WINNER_CODE[winner],
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": total(player[:2]),
        "banker_two_card_total": total(banker[:2]),
        "player_third_card": player[2].value if len(player) == 3 else -1,
        "banker_third_card": banker[2].value if len(banker) == 3 else -1,
        "player_cards": len(player),
        "banker_cards": len(banker),
        "total_cards": len(player) + len(banker),
        "player_natural": int(player_natural),
        "banker_natural": int(banker_natural),
        "natural": int(player_natural or banker_natural),
        "margin": abs(player_total - banker_total),
    }
    for side, hand in (("player", player), ("banker", banker)):
        for position in range(3):
            features.update(card_features(f"{side}_card{position + 1}", hand[position] if position < len(hand) else None))
    return features


def card_features(slot: str, card: Card | None) -> dict[str, int]:
    if card is None:
        return {f"{slot}_value": -1, f"{slot}_rank": -1, f"{slot}_suit": -1}
    suit = SUITS.index(card.suit) if card.suit else -1
    return {f"{slot}_value": card.value, f"{slot}_rank": RANKS.index(card.rank), f"{slot}_suit": suit}


def brute_force_outcomes(counts: dict[Card, int]) -> Counter:
    """Ordered 6-card sequences of distinct physical cards, by winner."""
    tally = Counter()
    for sequence in permutations(physical_cards(counts), 6):
        coup = play_coup([card for _, card in sequence])
        tally[coup.winner] += 1
    return tally


def settle(bet, features: dict[str, int]) -> Fraction:
    columns = {name: np.array([value]) for name, value in features.items()}
    for row in bet.rows:
        if row.condition(columns)[0]:
            return row.pays.net
    return Fraction(-1)


def feature_tally(counts: dict[Card, int], coup: bool) -> Counter:
    """How many orderings give each combination of features: 6-card orderings played as coups, or
    ordered draws of the first four cards (P1, B1, P2, B2) for bets that read only those."""
    tally = Counter()
    for sequence in permutations(physical_cards(counts), 6 if coup else 4):
        cards = [card for _, card in sequence]
        if coup:
            played = play_coup(cards)
            features = coup_features(played.player, played.banker)
        else:
            features = {}
            for slot, card in zip(("player_card1", "banker_card1", "player_card2", "banker_card2"), cards):
                features.update(card_features(slot, card))
        tally[tuple(sorted(features.items()))] += 1
    return tally


def brute_force_expectations(bets, counts: dict[Card, int]) -> dict[str, Fraction]:
    """Expected net win of each bet, averaged over every ordering of the physical cards."""
    tallies = {coup: feature_tally(counts, coup) for coup in {bet.needs_coup for bet in bets}}
    expectations = {}
    for bet in bets:
        tally = tallies[bet.needs_coup]
        total = sum(tally.values())
        expectations[bet.name] = Fraction(sum(settle(bet, dict(key)) * count for key, count in tally.items()), total)
    return expectations
