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
    FIRST_CARDS,
    POSITIONS_OF,
    TRACKED_CARDS,
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
    """The granularity each of the six deal positions is drawn at: that of every slot or position
    whose card may lie there (the fifth card is the player's third card or, when the player stood,
    the banker's)."""
    levels = [Granularity.VALUE] * 6
    for key, level in tracked.items():
        for position in POSITIONS_OF[key]:
            levels[position] = levels[position].join(level)
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

    ``tracked`` maps slots (and the fifth and sixth positions in the shoe) to the granularity their
    class is recorded at. The cards of a shoe are exchangeable, so the positions of tracked slots
    are drawn first, finely, and the coup is then walked over point values with those cards in
    place (a position drawn and not dealt is one of the sequence's unused cards). ``hand`` is a coup in progress (point values
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
    early = sorted({position for key in tracked for position in POSITIONS_OF[key]})
    fine = Granularity.VALUE
    for position in early:
        fine = fine.join(levels[position])
    keys = [key for key in TRACKED_CARDS if key in tracked]
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
        if keys:
            player_stood = hand[4] < 0
            position_of = (0, 1, 2, 3, 4, 4 if player_stood else 5, 4, 5)  # slots, then the positions 5 and 6 (always drawn)
            key += tuple(placed[position_of[index]] if index >= 6 or hand[index] >= 0 else NOT_DEALT
                         for index in (TRACKED_CARDS.index(name) for name in keys))
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
    distribution = _coup_distribution(rows, keys, tracked, fine, draws(size, 6 - dealt, replace) * scale**2, 6 - dealt, decisions, scale**2)
    add_counted(distribution.columns, counted.items())
    return distribution


def _coup_distribution(rows: dict[tuple[int, ...], int], keys: list[str], tracked: Levels, fine: Granularity,
                       total: int, cards: int, decisions: Decisions, scale: int) -> Distribution:
    found = list(rows)
    table = np.array(found, dtype=np.int64).reshape(len(found), 4 + len(keys))
    columns = coup_columns(table[:, 0], table[:, 1], table[:, 2], table[:, 3], decisions.rules.naturals)
    columns.levels.update(tracked)
    for index, key in enumerate(keys):
        columns.update(card_columns(key, tracked[key], relabel(table[:, 4 + index], fine, tracked[key])))
    return Distribution(columns, count_array([rows[key] for key in found], total), total, cards, scale)


def enumerate_cards(shoe: Shoe, tracked: Levels) -> Distribution:
    """Every ordered sequence of the cards in the ``tracked`` slots alone (bets settled on the first
    cards, which every coup deals).

    The other cards of the coup are summed out, so ``total`` is the number of ordered draws of
    ``len(tracked)`` cards. The count of a sequence of classes is the product, over classes, of the
    falling factorial of its count in the shoe (its power, for the infinite deck).
    """
    if any(key not in FIRST_CARDS for key in tracked):
        raise ValueError("a third card is dealt only when the coup draws it: count it (and cards 5 and 6) through the coup")
    slots = [slot for slot in FIRST_CARDS if slot in tracked]
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
