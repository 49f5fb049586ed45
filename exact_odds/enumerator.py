"""The plain recursive enumerator: every card sequence of a finite shoe, exact integer counts.

It deals the cards of a coup in shoe order (player, banker, player, banker, then third cards as
the rules require), multiplies the number of cards of each class left in the shoe, and counts
every coup as the ordered 6-card sequences it stands for (unused cards are summed out), so the
totals equal the published "combinations" tables.

Cards are drawn as classes at a granularity per slot: point value (10 classes), rank (13) or card
(rank and suit, 52). Slots that a bet reads are *tracked*: their class goes into the result.

>>> from exact_odds.shoe import Shoe
>>> enumerate_coups(Shoe.decks(8)).outcome_counts()["tie"]
475627426473216
"""

from collections import defaultdict

import numpy as np

from .cards import POINT_VALUES
from .distribution import (
    INT64_SAFE,
    Distribution,
    card_columns,
    count_array,
    coup_columns,
    draws,
)
from .errors import InputError
from .rules import PUNTO_BANCO, DrawRules
from .shoe import Shoe

VALUE, RANK, CARD = 0, 1, 2
SLOTS = ("player_card1", "banker_card1", "player_card2", "banker_card2", "player_card3", "banker_card3")
"""Card slots in deal order (the banker's third card follows the player's when both draw)."""

CLASS_VALUES = (tuple(range(10)), POINT_VALUES, tuple(POINT_VALUES[card // 4] for card in range(52)))
"""Point value of each class, by level."""


def shoe_counts(shoe: Shoe, level: int) -> list[int]:
    """The shoe's counts at a level of granularity."""
    if level == CARD:
        if shoe.card_counts is None:
            raise InputError(f"{shoe.description} is given by rank only; bets on suits need per-card counts (e.g. --shoe 9h=7,...)")
        return list(shoe.card_counts)
    return list(shoe.rank_counts) if level == RANK else list(shoe.value_counts)


def project(counts: list[int], source: int, target: int) -> list[int]:
    """Counts at a coarser level: card -> rank -> value."""
    if source == target:
        return counts
    if source == CARD:
        counts = [sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13)]
    if target == VALUE:
        values = [0] * 10
        for rank, count in enumerate(counts):
            values[POINT_VALUES[rank]] += count
        counts = values
    return counts


def merge_levels(*trackings: dict[str, int]) -> dict[str, int]:
    """Slots tracked by several readers together, each at the finest level any of them needs.

    >>> merge_levels({"player_card1": RANK}, {"player_card1": CARD, "banker_card1": VALUE})
    {'player_card1': 2, 'banker_card1': 0}
    """
    merged: dict[str, int] = {}
    for tracking in trackings:
        for slot, level in tracking.items():
            merged[slot] = max(merged.get(slot, VALUE), level)
    return merged


def effective_levels(tracked: dict[str, int]) -> list[int]:
    """Per slot, the level to draw at: never coarser than any later slot (fine before coarse)."""
    levels = [tracked.get(slot, VALUE) for slot in SLOTS]
    for position in range(len(SLOTS) - 2, -1, -1):
        levels[position] = max(levels[position], levels[position + 1])
    return levels


def two_card_total(values: tuple[int, ...], hand: int) -> int:
    """The two-card total of the player (hand 0) or the banker (hand 1) from values by slot."""
    return (values[hand] + values[hand + 2]) % 10


def with_slot(items: tuple[int, ...], slot: int, item: int) -> tuple[int, ...]:
    return items[:slot] + (item,) + items[slot + 1 :]


def enumerate_coups(shoe: Shoe, rules: DrawRules = PUNTO_BANCO, tracked: dict[str, int] | None = None, dealt: tuple[int, ...] = ()) -> Distribution:
    """Every coup dealt from ``shoe``, counted as ordered 6-card sequences.

    ``tracked`` maps slots to the level their class is recorded at. ``dealt`` holds the point
    values of cards already dealt (in shoe order, already removed from ``shoe``): the result then
    counts the ways to complete the coup, as ordered sequences of the remaining ``6 - len(dealt)``.
    """
    tracked = dict(tracked or {})
    if dealt and any(level != VALUE for level in tracked.values()):
        raise ValueError("a dealt prefix is given as point values; track slots at value level only")
    levels = effective_levels(tracked)
    key_slots = [position for position, slot in enumerate(SLOTS) if slot in tracked]
    rows: dict[tuple, int] = defaultdict(int)
    start = levels[0]
    counts = shoe_counts(shoe, start)
    size, replace = sum(counts), shoe.with_replacement
    taken = 0 if replace else 1
    unused = [draws(size - taken * (cards - len(dealt)), 6 - cards, replace) for cards in range(7)]

    # labels and values are 6-tuples by slot (player 1, banker 1, player 2, banker 2, player 3,
    # banker 3), -1 where no card was dealt; cards counts the cards dealt.
    def leaf(weight, labels, values, cards):
        key = (two_card_total(values, 0), two_card_total(values, 1), values[4], values[5])
        rows[key + tuple(labels[slot] for slot in key_slots)] += weight * unused[cards]

    def draw(slot, counts, level, weight, labels, values, cards, then):
        """Deal the card of ``slot`` (every class the shoe holds, or the card already seen), then ``then``."""
        if cards < len(dealt):
            seen = dealt[cards]
            then(counts, level, weight, with_slot(labels, slot, seen), with_slot(values, slot, seen), cards + 1)
            return
        target = levels[slot]
        counts = project(counts, level, target)
        class_values = CLASS_VALUES[target]
        for label, count in enumerate(counts):
            if count:
                counts[label] = count - taken
                then(counts, target, weight * count, with_slot(labels, slot, label), with_slot(values, slot, class_values[label]), cards + 1)
                counts[label] = count

    def settle(counts, level, weight, labels, values, cards):
        leaf(weight, labels, values, cards)

    def first_four(counts, level, weight, labels, values, cards):
        if cards < 4:
            draw(cards, counts, level, weight, labels, values, cards, first_four)
            return
        player, banker = two_card_total(values, 0), two_card_total(values, 1)
        if rules.is_natural(player) or rules.is_natural(banker):
            leaf(weight, labels, values, cards)
        elif rules.player_draws(player):
            draw(4, counts, level, weight, labels, values, cards, after_player_third)
        elif rules.banker_draws(banker, None):
            draw(5, counts, level, weight, labels, values, cards, settle)
        else:
            leaf(weight, labels, values, cards)

    def after_player_third(counts, level, weight, labels, values, cards):
        if rules.banker_draws(two_card_total(values, 1), values[4]):
            draw(5, counts, level, weight, labels, values, cards, settle)
        else:
            leaf(weight, labels, values, cards)

    empty = (-1,) * 6
    first_four(counts, start, 1, empty, empty, 0)
    return _coup_distribution(rows, key_slots, tracked, draws(size, 6 - len(dealt), replace), 6 - len(dealt))


def _coup_distribution(rows, key_slots, tracked, total, cards) -> Distribution:
    keys = list(rows)
    table = np.array(keys, dtype=np.int64).reshape(len(keys), 4 + len(key_slots))
    columns = coup_columns(table[:, 0], table[:, 1], table[:, 2], table[:, 3])
    levels = effective_levels(tracked)
    for index, position in enumerate(key_slots):
        slot = SLOTS[position]
        labels = relabel(table[:, 4 + index], levels[position], tracked[slot])
        columns.update(card_columns(slot, tracked[slot], labels))
    return Distribution(columns, count_array([rows[key] for key in keys], total), total, cards)


def relabel(labels: np.ndarray, source: int, target: int) -> np.ndarray:
    """Class labels at a coarser level: card -> rank -> value (keeping -1 for a slot not dealt)."""
    if source == target:
        return labels
    dealt = labels >= 0
    if source == CARD:
        labels = np.where(dealt, labels // 4, -1)
    if target == VALUE:
        labels = np.where(dealt, np.asarray(POINT_VALUES + (-1,))[np.where(dealt, labels, 13)], -1)
    return labels


def enumerate_cards(shoe: Shoe, tracked: dict[str, int]) -> Distribution:
    """Every ordered sequence of the cards in the ``tracked`` slots alone (bets settled on those cards).

    The other cards of the coup are summed out, so ``total`` is the number of ordered draws of
    ``len(tracked)`` cards. The count of a sequence of classes is the product, over classes, of the
    falling factorial of its count in the shoe (its power, for the infinite deck).
    """
    slots = [slot for slot in SLOTS if slot in tracked]
    level = max(tracked.values())
    counts = shoe_counts(shoe, level)
    total = draws(sum(counts), len(slots), shoe.with_replacement)
    dtype = np.int64 if total < INT64_SAFE else object
    counts = np.asarray(counts, dtype=dtype)
    present = np.flatnonzero(counts)
    grids = np.meshgrid(*([present.astype(np.int16)] * len(slots)), indexing="ij")
    labels = [grid.ravel() for grid in grids]
    weight = np.ones(len(labels[0]), dtype=dtype)
    for position, label in enumerate(labels):
        available = counts[label]
        for earlier in labels[:position] if not shoe.with_replacement else ():
            available = available - (earlier == label)
        weight = weight * available
    if not weight.all():
        keep = weight != 0
        weight, labels = weight[keep], [label[keep] for label in labels]
    columns = {}
    for slot, label in zip(slots, labels):
        columns.update(card_columns(slot, tracked[slot], relabel(label, level, tracked[slot])))
    return Distribution(columns, count_array(weight, total), total, len(slots))
