"""Effects of removal: how each bet's exact expectation moves when one card of a rank leaves the shoe,
and the balanced point count derived from them.

The effect of removal of rank r is EOR_r = EV(shoe less one r) - EV(shoe), exact. What holds exactly:
the effects weighted by the counts in the shoe sum to zero, sum_r c_r EOR_r = 0, for any shoe, because
removing an unseen card drawn at random leaves the expectation unchanged on average. For a shoe of
whole decks that is the familiar "the effects over one deck sum to zero", exactly rather than to first
order. The approximation lies elsewhere: predicting the EV of a depleted shoe by adding effects
linearly. Removing a whole deck is predicted to change nothing (4 sum_r EOR_r = 0), while the exact
change EV(shoe less one deck) - EV(shoe) is the second- and higher-order term; the report prints both.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

from ..engine.analysis import analyze_checked
from ..bets.bets import Bet
from ..core.cards import RANKS, Card
from ..errors import InputError
from ..core.policy import Decisions
from ..core.shoe import Shoe

DECK = tuple(Card(rank, suit) for rank in RANKS for suit in "SHDC")


@dataclass(frozen=True)
class RemovalEffects:
    """Exact effects of removal of one bet on one shoe."""

    bet: Bet
    expected_value: Fraction
    effects: tuple[Fraction | None, ...]  # by rank, A..K; None for a rank the shoe does not hold
    deck_removed: Fraction | None  # EV(shoe less one deck) - EV(shoe), when the shoe holds a deck

    counts: tuple[int, ...]  # the shoe's rank counts

    @property
    def weighted_sum(self) -> Fraction:
        """sum_r c_r EOR_r: exactly zero (see the module docstring)."""
        return sum((count * effect for count, effect in zip(self.counts, self.effects) if effect is not None), Fraction(0))

    @property
    def deck_prediction(self) -> Fraction:
        """The linear prediction for removing one deck: 4 sum_r EOR_r."""
        return 4 * sum((effect for effect in self.effects if effect is not None), Fraction(0))


def removal_effects(shoe: Shoe, bets: list[Bet], decisions: Decisions) -> list[RemovalEffects]:
    """The effect of removing one card of each rank on each bet. For bets on suits or colours the
    shoe must know its suits, and the card removed is one of the rank's cards at random (each suit
    in proportion to its count); a rank the shoe does not hold has no effect (None)."""
    suited = any(bet.needs_suits for bet in bets)
    if suited and not shoe.knows_suits:
        raise InputError(f"bets on suits or colours need a shoe with per-card counts; {shoe.description} is given by rank")
    if shoe.with_replacement:
        raise InputError("the infinite deck has no effect of removal (every card drawn is put back)")
    if shoe.size <= 6:
        raise InputError(f"{shoe} cannot lose a card and still deal a coup: effects of removal need at least 7 cards")
    base_shoe = shoe if suited else Shoe(shoe.rank_counts, None, shoe.description)
    base = analyze_checked(base_shoe, bets, decisions).bets

    def after_removing(rank: int) -> list[Fraction] | None:
        held = shoe.rank_counts[rank]
        if held == 0:
            return None
        if not suited:
            return [result.expected_value for result in analyze_checked(base_shoe.remove((Card(RANKS[rank]),)), bets, decisions).bets]
        assert shoe.card_counts is not None
        average = [Fraction(0)] * len(bets)
        for suit, count in enumerate(shoe.card_counts[rank * 4 : rank * 4 + 4]):
            if count:
                results = analyze_checked(shoe.remove((Card(RANKS[rank], "SHDC"[suit]),)), bets, decisions).bets
                average = [total + Fraction(count, held) * result.expected_value for total, result in zip(average, results)]
        return average

    removed = [after_removing(rank) for rank in range(13)]
    deck = DECK if suited else tuple(Card(card.rank) for card in DECK)
    holds_deck = shoe.size >= 58 and (all(count >= 1 for count in shoe.card_counts or ()) if suited else all(count >= 4 for count in shoe.rank_counts))
    less_deck = analyze_checked(base_shoe.remove(deck), bets, decisions).bets if holds_deck else None
    return [
        RemovalEffects(
            bet,
            base[index].expected_value,
            tuple(None if after is None else after[index] - base[index].expected_value for after in removed),
            less_deck[index].expected_value - base[index].expected_value if less_deck else None,
            shoe.rank_counts,
        )
        for index, bet in enumerate(bets)
    ]


def balanced_tags(effects: tuple[Fraction | None, ...], level: int) -> tuple[int, ...]:
    """Integer tags from -level to +level that follow the effects, balanced over a deck.

    A card whose removal helps the bet gets a tag of 0 or more (seeing it raises the count), one
    whose removal hurts it 0 or less; ranks with equal effects get equal tags, and a rank without
    an effect (the shoe holds none) or with a zero effect is tagged 0. Balanced: four of each rank
    in a deck, so the tags sum to zero. Of such tags, those most nearly proportional to the effects:
    the largest betting correlation (:func:`betting_correlation`), then the largest tags.
    """
    ranks_by_effect: dict[Fraction, list[int]] = {}
    for rank, effect in enumerate(effects):
        ranks_by_effect.setdefault(effect or Fraction(0), []).append(rank)
    # Tags summing to zero correlate with the effects as sum(effect x tag) / sqrt(sum(tag^2)), up to
    # a factor of the effects alone: for each (sum of tags, sum of squared tags), the tags of the
    # largest sum(effect x tag), one effect at a time.
    best: dict[tuple[int, int], tuple[Fraction, tuple[int, ...]]] = {(0, 0): (Fraction(0), (0,) * 13)}
    for effect, ranks in ranks_by_effect.items():
        reached: dict[tuple[int, int], tuple[Fraction, tuple[int, ...]]] = {}
        for (total, squares), (gain, tags) in best.items():
            for tag in range(level + 1) if effect > 0 else range(-level, 1) if effect < 0 else (0,):
                key = (total + len(ranks) * tag, squares + len(ranks) * tag * tag)
                candidate = (gain + len(ranks) * tag * effect, tuple(tag if rank in ranks else old for rank, old in enumerate(tags)))
                if key not in reached or candidate > reached[key]:
                    reached[key] = candidate
        best = reached
    balanced = [(gain * gain / squares, squares, tags) for (total, squares), (gain, tags) in best.items() if total == 0 and squares]
    return max(balanced)[2] if balanced else (0,) * 13


def betting_correlation(effects: tuple[Fraction | None, ...], tags: tuple[int, ...]) -> float:
    """Correlation, over the 52 cards of a deck, between the effects of removal and the tags
    (ranks without an effect left out)."""
    pairs = [(effect, tag) for effect, tag in zip(effects, tags) if effect is not None]
    held, held_tags = tuple(effect for effect, _ in pairs), tuple(tag for _, tag in pairs)
    mean_effect = sum(held, Fraction(0)) / len(held)
    mean_tag = Fraction(sum(held_tags), len(held_tags))
    covariance = sum((effect - mean_effect) * (tag - mean_tag) for effect, tag in zip(held, held_tags))
    spread = sum((effect - mean_effect) ** 2 for effect in held) * sum((tag - mean_tag) ** 2 for tag in held_tags)
    return float(covariance) / math.sqrt(spread) if spread else 0.0
