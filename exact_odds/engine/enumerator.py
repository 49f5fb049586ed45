"""The plain recursive enumerator: every card sequence of a finite shoe, exact integer counts.

It follows the coup walk (:func:`~exact_odds.core.coup.next_card`): at each slot it deals every class of
card the shoe holds, multiplies the number of cards of that class left, and at a choice branches on
both decisions with their weights. Every coup is counted as the ordered 6-card sequences it stands
for (unused cards are summed out), so the totals equal the published "combinations" tables.

Cards are drawn as classes at a granularity per slot (:class:`~exact_odds.core.features.Granularity`).
Slots that a bet reads are *tracked*: their class goes into the result.

>>> from exact_odds.core.shoe import Shoe
>>> enumerate_coups(Shoe.decks(8)).outcome_counts()["tie"]
475627426473216
"""

from collections import defaultdict

import numpy as np

from ..core.coup import EMPTY_HAND, NOT_DEALT, STOOD, Hand, coup_key, decisions_behind, next_card
from .distribution import INT64_SAFE, Distribution, count_array, draws
from ..errors import InputError
from ..core.features import (
    SLOTS,
    Columns,
    Granularity,
    Levels,
    add_counted,
    card_columns,
    class_values,
    coup_columns,
    label_map,
    relabel,
    shoe_counts,
    split_counted,
)
from ..core.policy import Decisions, decisions_of
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import Shoe, gather


MAX_LEAVES = 20_000_000
"""The plain enumerator refuses a coup table estimated to need more leaves than this (minutes)."""


def position_levels(tracked: Levels) -> list[Granularity]:
    """The granularity each of the six deal positions is drawn at: a slot's own, and for the fifth
    card, which is the player's third card or, when the player stood, the banker's, both."""
    levels = [tracked.get(slot, Granularity.VALUE) for slot in SLOTS]
    levels[4] = levels[4].join(levels[5])
    return levels


def estimated_leaves(shoe: Shoe, tracked: Levels) -> int:
    """At most how many leaves :func:`enumerate_coups` visits: the classes the shoe holds at each
    position's granularity, multiplied over the six positions."""
    leaves = 1
    for level in position_levels(tracked):
        leaves *= max(1, sum(1 for count in shoe_counts(shoe, level) if count))
    return leaves


def enumerate_coups(shoe: Shoe, rules: DrawRules | Decisions = PUNTO_BANCO, tracked: Levels | None = None, hand: Hand = EMPTY_HAND) -> Distribution:
    """Every coup dealt from ``shoe``, counted as ordered 6-card sequences (times the decisions' scale
    squared: see :mod:`exact_odds.core.policy`).

    ``tracked`` maps slots to the granularity their class is recorded at. The cards of a shoe are
    exchangeable, so the positions of tracked slots are drawn first, finely, and the coup is then
    walked over point values with those cards in place. ``hand`` is a coup in progress (point values
    by slot, see :mod:`exact_odds.core.coup`) whose cards were already taken out of ``shoe``: the result
    then counts the ways to complete it, as ordered sequences of the remaining ``6 - cards dealt``,
    weighted by the decisions still ahead; those the hand has taken are given (each counts
    ``scale`` times, as a certain one), so the counts still sum to ``total``.
    """
    decisions = decisions_of(rules)
    tracked, counted = split_counted(dict(tracked or {}))
    dealt = sum(value >= 0 for value in hand)
    behind = decisions_behind(decisions, hand)
    if dealt and tracked:
        raise InputError("a coup in progress is known by point values: bets on card ranks or suits cannot be priced mid-coup")
    if estimated_leaves(shoe, tracked) > MAX_LEAVES:
        raise InputError(f"the bets read the card slots {', '.join(tracked)} too finely to enumerate every coup "
                         f"(about {estimated_leaves(shoe, tracked):,} leaves): read fewer slots, or ranks or colours instead of suits")
    levels = position_levels(tracked)
    early = sorted({SLOTS.index(slot) for slot in tracked} | ({4} if "banker_card3" in tracked else set()))
    fine = Granularity.VALUE
    for position in early:
        fine = fine.join(levels[position])
    key_slots = [position for position, slot in enumerate(SLOTS) if slot in tracked]
    rows: dict[tuple[int, ...], int] = defaultdict(int)
    replace = shoe.with_replacement
    taken = 0 if replace else 1
    counts = shoe_counts(shoe.checked(6 - dealt), fine)
    size = sum(counts)
    scale = decisions.scale
    unused = [draws(size - taken * (cards - dealt), 6 - cards, replace) for cards in range(7)]
    normalise = [scale ** (2 - decided) for decided in range(3)]
    to_value = label_map(fine, Granularity.VALUE).tolist()
    fine_values = class_values(fine)

    def leaf(weight: int, hand: Hand, drawn: int, decided: int, placed: dict[int, int]) -> None:
        key: tuple[int, ...] = coup_key(hand)
        if key_slots:
            player_stood = hand[4] < 0
            position_of = (0, 1, 2, 3, 4, 4 if player_stood else 5)
            key += tuple(placed[position_of[slot]] if hand[slot] >= 0 else NOT_DEALT for slot in key_slots)
        rows[key] += weight * unused[drawn] * normalise[decided]

    def walk(counts: list[int], weight: int, hand: Hand, drawn: int, decided: int, placed: dict[int, int]) -> None:
        move = next_card(decisions, hand)
        if move is None:
            leaf(weight, hand, drawn, decided, placed)
            return
        slot, draw, stand = move
        now = decided + (slot >= 4)
        if stand:
            walk(counts, weight * stand, hand[:slot] + (STOOD,) + hand[slot + 1 :], drawn, now, placed)
        if not draw:
            return
        position = 5 if slot == 5 and hand[4] >= 0 else min(slot, 4)
        if position in placed:
            walk(counts, weight * draw, hand[:slot] + (fine_values[placed[position]],) + hand[slot + 1 :], drawn, now, placed)
            return
        for value, count in enumerate(counts):
            if count:
                counts[value] = count - taken
                walk(counts, weight * draw * count, hand[:slot] + (value,) + hand[slot + 1 :], drawn + 1, now, placed)
                counts[value] = count

    def place(index: int, counts: list[int], weight: int, placed: dict[int, int]) -> None:
        if index == len(early):
            walk(gather(counts, to_value), weight * scale**behind, hand, dealt + len(early), behind, placed)
            return
        for label, count in enumerate(counts):
            if count:
                counts[label] = count - taken
                place(index + 1, counts, weight * count, {**placed, early[index]: label})
                counts[label] = count

    place(0, counts, 1, {})
    distribution = _coup_distribution(rows, key_slots, tracked, fine, draws(size, 6 - dealt, replace) * scale**2, 6 - dealt, decisions, scale**2)
    add_counted(distribution.columns, counted.items())
    return distribution


def _coup_distribution(rows: dict[tuple[int, ...], int], key_slots: list[int], tracked: Levels, fine: Granularity,
                       total: int, cards: int, decisions: Decisions, scale: int) -> Distribution:
    keys = list(rows)
    table = np.array(keys, dtype=np.int64).reshape(len(keys), 4 + len(key_slots))
    columns = coup_columns(table[:, 0], table[:, 1], table[:, 2], table[:, 3], decisions.rules.naturals)
    columns.levels.update(tracked)
    for index, position in enumerate(key_slots):
        slot = SLOTS[position]
        columns.update(card_columns(slot, tracked[slot], relabel(table[:, 4 + index], fine, tracked[slot])))
    return Distribution(columns, count_array([rows[key] for key in keys], total), total, cards, scale)


def enumerate_cards(shoe: Shoe, tracked: Levels) -> Distribution:
    """Every ordered sequence of the cards in the ``tracked`` slots alone (bets settled on the first
    cards, which every coup deals).

    The other cards of the coup are summed out, so ``total`` is the number of ordered draws of
    ``len(tracked)`` cards. The count of a sequence of classes is the product, over classes, of the
    falling factorial of its count in the shoe (its power, for the infinite deck).
    """
    slots = [slot for slot in SLOTS if slot in tracked]
    if any(SLOTS.index(slot) >= 4 for slot in slots):
        raise ValueError("a third card is dealt only when the coup draws it: count it through the coup")
    level = Granularity.VALUE
    for slot in slots:
        level = level.join(tracked[slot])
    counts = shoe_counts(shoe.checked(len(slots)), level)
    total = draws(sum(counts), len(slots), shoe.with_replacement)
    dtype = np.int64 if total < INT64_SAFE else object
    count_vector = np.asarray(counts, dtype=dtype)
    present = np.flatnonzero(count_vector)
    grids = np.meshgrid(*([present.astype(np.int16)] * len(slots)), indexing="ij")
    labels = [grid.ravel() for grid in grids]
    weight = np.ones(len(labels[0]), dtype=dtype)
    for position, label in enumerate(labels):
        available = count_vector[label]
        for earlier in labels[:position] if not shoe.with_replacement else ():
            available = available - (earlier == label)
        weight = weight * available
    if not weight.all():
        keep = weight != 0
        weight, labels = weight[keep], [label[keep] for label in labels]
    columns = Columns(levels=tracked)
    for slot, label in zip(slots, labels):
        columns.update(card_columns(slot, tracked[slot], relabel(label.astype(np.int64), level, tracked[slot])))
    return Distribution(columns, count_array(weight, total), total, len(slots))
