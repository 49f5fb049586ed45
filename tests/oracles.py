"""Brute-force references: every ordering of the physical cards of a small shoe.

Independent of the engines and of the coup walk: cards are distinct objects, sequences come from
``itertools.permutations``, and each coup is dealt here by plain code that reads the rule set's
marks and the policy's probabilities (:func:`exact_odds.core.policy.choices`), branching on a mixed
choice. Features are read from the dealt hands; bets are settled by their own pay tables.
"""

from collections import Counter
from fractions import Fraction
from itertools import permutations, product
from math import prod

import numpy as np

from exact_odds.core.cards import RANKS, SUITS, Card
from exact_odds.core.features import COLORS, OUTCOMES, SLOTS, Columns, Granularity
from exact_odds.core.policy import Policy, choices
from exact_odds.core.rules import PUNTO_BANCO, DrawRules, OptionPoint
from exact_odds.engine.kernel import Entries

WINNER_CODE = {name: index for index, name in enumerate(OUTCOMES)}


def physical_cards(counts: dict[Card, int]) -> list[tuple[int, Card]]:
    """Each copy of each card as a distinct object (an index and the card)."""
    cards = [card for card, count in sorted(counts.items()) for _ in range(count)]
    return list(enumerate(cards))


def total(hand) -> int:
    return sum(card.value for card in hand) % 10


def draw_probability(rules: DrawRules, chosen: dict, side: str, hand, player_third) -> Fraction:
    mark = rules.mark(side, total(hand[:2]), player_third)
    if mark != "C":
        return Fraction(int(mark == "D"))
    sees = rules.player_sees if side == "player" else rules.banker_sees
    cards = tuple(sorted(card.value for card in hand[:2])) if sees == "cards" else None
    return chosen[OptionPoint(side, total(hand[:2]), cards, player_third)]


def deal_physically(cards, rules: DrawRules = PUNTO_BANCO, chosen: dict | None = None):
    """Every way the coup of ``cards`` (in shoe order) can go: (probability, player hand, banker hand);
    ``chosen`` holds the policy's probability of drawing at each option point."""
    chosen = chosen or {}
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    if total(player) in rules.naturals or total(banker) in rules.naturals:
        return [(Fraction(1), player, banker)]
    ways = []
    player_draws = draw_probability(rules, chosen, "player", player, None)
    for drew, chance in ((True, player_draws), (False, 1 - player_draws)):
        if not chance:
            continue
        player_hand = player + [cards[4]] if drew else player
        third = cards[4].value if drew else None
        banker_draws = draw_probability(rules, chosen, "banker", banker, third)
        for banker_drew, banker_chance in ((True, banker_draws), (False, 1 - banker_draws)):
            if banker_chance:
                banker_hand = banker + [cards[4 + drew]] if banker_drew else banker
                ways.append((chance * banker_chance, player_hand, banker_hand))
    return ways


def coup_features(player, banker, naturals=frozenset({8, 9})) -> dict[str, int]:
    """Every feature a pay table may read, straight from the dealt hands."""
    player_total, banker_total = total(player), total(banker)
    winner = "player" if player_total > banker_total else "banker" if banker_total > player_total else "tie"
    player_natural = total(player[:2]) in naturals
    banker_natural = total(banker[:2]) in naturals
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
        return {f"{slot}_{name}": -1 for name in ("card", "value", "rank", "suit", "color")}
    suit = SUITS.index(card.suit)
    color = COLORS.index("red" if card.suit in "HD" else "black")
    rank = RANKS.index(card.rank)
    return {f"{slot}_card": rank * 4 + suit, f"{slot}_value": card.value, f"{slot}_rank": rank, f"{slot}_suit": suit, f"{slot}_color": color}


def brute_force_outcomes(counts: dict[Card, int], rules: DrawRules = PUNTO_BANCO, policy: Policy = Policy()) -> Counter:
    """Ordered 6-card sequences of distinct physical cards, by winner (weighted by the policy)."""
    tally: Counter = Counter()
    chosen = choices(rules, policy)
    for sequence in permutations(physical_cards(counts), 6):
        for chance, player, banker in deal_physically([card for _, card in sequence], rules, chosen):
            features = coup_features(player, banker, rules.naturals)
            tally[OUTCOMES[features["winner"]]] += chance
    return tally


def settle(bet, features: dict[str, int]) -> Fraction:
    """The bet's net pay on one coup whose every card is known (rank and suit)."""
    columns = Columns({name: np.array([value]) for name, value in features.items()}, dict.fromkeys(SLOTS, Granularity.CARD))
    line = int(bet.settle(columns)[0])
    return bet.rows[line].pays.net if line < len(bet.rows) else Fraction(-1)


def feature_tally(counts: dict[Card, int], coup: bool, rules: DrawRules = PUNTO_BANCO, policy: Policy = Policy()) -> Counter:
    """How often each combination of features occurs: 6-card orderings played as coups (weighted by
    the policy), or ordered draws of the first four cards (P1, B1, P2, B2) for bets that read only those."""
    tally: Counter = Counter()
    chosen = choices(rules, policy)
    for sequence in permutations(physical_cards(counts), 6 if coup else 4):
        cards = [card for _, card in sequence]
        if coup:
            for chance, player, banker in deal_physically(cards, rules, chosen):
                tally[tuple(sorted(coup_features(player, banker, rules.naturals).items()))] += chance
            continue
        features: dict[str, int] = {}
        for slot, card in zip(("player_card1", "banker_card1", "player_card2", "banker_card2"), cards):
            features.update(card_features(slot, card))
        tally[tuple(sorted(features.items()))] += 1
    return tally


def brute_force_expectations(bets, counts: dict[Card, int], rules: DrawRules = PUNTO_BANCO, policy: Policy = Policy()) -> dict[str, Fraction]:
    """Expected net win of each bet, averaged over every ordering of the physical cards."""
    tallies = {coup: feature_tally(counts, coup, rules, policy) for coup in {bet.needs_coup for bet in bets}}
    expectations = {}
    for bet in bets:
        tally = tallies[bet.needs_coup]
        weight = sum(tally.values())
        expectations[bet.name] = sum((settle(bet, dict(key)) * count for key, count in tally.items()), Fraction(0)) / weight
    return expectations


def values_left(seen: list[Card], decks: int = 1) -> dict[int, int]:
    """The cards of each value left in ``decks`` decks once ``seen`` are dealt (a value 0: tens and faces)."""
    left = {value: (16 if value == 0 else 4) * decks for value in range(10)}
    for card in seen:
        left[card.value] -= 1
    return left


def completion_totals(seen: list[Card], cards: int, left: dict[int, int] | None, rules: DrawRules = PUNTO_BANCO,
                      chosen: dict | None = None) -> Counter:
    """Mid-coup: the (player total, banker total) of every ordering of ``cards`` more cards after
    ``seen``, by value, weighted by its ways (and a mixed choice's chance, ``chosen`` as for
    :func:`deal_physically`): ``left`` holds the cards of each value left in the shoe (None: drawn
    with replacement, a value 0 weighing as its four ranks of 13)."""
    tally: Counter = Counter()
    for values in product(range(10), repeat=cards):
        ways, remaining = 1, dict(left) if left is not None else None
        for value in values:
            if remaining is None:
                ways *= 4 if value == 0 else 1
            else:
                ways *= remaining[value]
                remaining[value] -= 1
        if ways:
            hands = list(seen) + [Card(RANKS[value - 1] if value else "T") for value in values]
            for chance, player, banker in deal_physically(hands, rules, chosen):
                tally[total(player), total(banker)] += ways * chance
    return tally


def by_python(entries: Entries, vectors: np.ndarray) -> list[list[int]]:
    """What the kernel weighs (:func:`exact_odds.engine.kernel.weigh`), by its definition, in Python integers."""
    result = [[0] * entries.targets for _ in vectors]
    for shoe, vector in enumerate(vectors.tolist()):
        for multiset, target, weight in zip(entries.multiset.tolist(), entries.target.tolist(), entries.weight.tolist()):
            result[shoe][target] += weight * prod(vector[index] for index in entries.factors[multiset].tolist())
    return result
