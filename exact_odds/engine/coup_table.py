"""The coup table and the table of first cards, built from the coup walk (see
:mod:`exact_odds.engine.tables` for what a table holds).
"""

from functools import lru_cache

import numpy as np

from ..core.cards import POINT_VALUES
from ..core.features import (
    COUNTED,
    FIRST_CARDS,
    POSITIONS_OF,
    LATE_POSITIONS,
    Array,
    Columns,
    Granularity,
    Partition,
    add_counted,
    card_columns,
    card_labels,
    class_columns,
    class_values,
    coup_class,
    relabel,
    split_counted,
)
from ..core.coup import NOT_DEALT
from ..core.policy import Decisions
from ..errors import InputError
from .counted import counted_table
from .distribution import INT64_SAFE
from .sequences import label_of, read_positions, shoe_sequences
from .tables import (ABSENT, MAX_CARDS, MAX_ORDERINGS, MAX_SEQUENCES, Support, Table, Tracked, collect, pack,
                     present_classes, tracked_key)


def _refine(cards: Array, weights: Array, read: Array, fine: Granularity, support: Support = None) -> tuple[Array, Array, Array, Array]:
    """Each sequence (cards in shoe order) once per way to give the cards it tracks (``read``:
    positions x sequences) a class at ``fine`` (of the support): the cards, the fine labels of the
    tracked cards (-1 elsewhere), the weights, and the sequence each came from."""
    labels = np.full(cards.shape, NOT_DEALT, dtype=np.int64)
    origin = np.arange(len(weights))
    present = present_classes(card_labels(fine), fine.classes, support)
    by_value = [np.flatnonzero((np.asarray(class_values(fine)) == value) & present) for value in range(10)]
    widths = np.array([len(classes) for classes in by_value] + [1])
    table = np.full((11, widths.max()), NOT_DEALT)
    for value, classes in enumerate(by_value):
        table[value, : len(classes)] = classes
    for position in range(MAX_CARDS):
        if not read[position].any():
            continue
        repeats = np.where(read[position], widths[cards[position]], 1)
        if repeats.sum() > MAX_SEQUENCES:
            raise InputError(f"the bets read the card slots too finely to tabulate every coup ({int(repeats.sum()):,} sequences): read fewer "
                             "slots, or ranks or colours instead of suits (counting cards with count() is cheap alone, but beside a card "
                             "slot every slot is read)")
        copies = np.repeat(np.arange(len(repeats)), repeats)
        within = np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        cards, labels, weights, read, origin = cards[:, copies], labels[:, copies], weights[copies], read[:, copies], origin[copies]
        labels[position] = np.where(read[position], table[cards[position], within], NOT_DEALT)
    return cards, labels, weights, origin


@lru_cache(maxsize=8)
def build_coup_table(decisions: Decisions, tracked: Tracked = (), support: Support = None) -> Table:
    """Every coup of the rules, by coup class (two-card totals and third cards) and the tracked
    slots' classes, and by multiset of cards used (refined for tracked slots); with a support, only
    the coups it can deal. Counts of the cards (:data:`~exact_odds.core.features.COUNTED`) alone are
    tabulated by :func:`counted_table` (for every shoe: a class no card of a shoe falls in weighs
    nothing); with other slots, every slot is tracked at its granularity and the counts follow from
    them. Built once per process; :func:`exact_odds.engine.store.coup_table` keeps tables on disk."""
    counted = tuple((key, level) for key, level in tracked if key.startswith(COUNTED))
    if counted and len(counted) == len(tracked):
        return counted_table(decisions, counted)
    if counted:
        tracked = tracked_key(split_counted(dict(tracked))[0])
    keys = [key for key, _ in tracked]
    narrow, shoe_cards, weights = shoe_sequences(decisions, tuple(POSITIONS_OF[key][0] for key in keys if key in LATE_POSITIONS))
    values, cards = narrow.astype(np.int64), shoe_cards.astype(np.int64)
    if decisions.scale**2 * MAX_ORDERINGS >= INT64_SAFE:  # the sums of a multiset's orderings: Python integers
        weights = weights.astype(object)
    if support is not None:
        held = present_classes(np.asarray(POINT_VALUES)[np.arange(52) // 4], 10, support)
        keep = np.all(held[cards] | (cards < 0), axis=0)
        values, cards, weights = values[:, keep], cards[:, keep], weights[keep]
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    refined = fine.classes if tracked else 0
    cards, labels, weights, origin = _refine(cards, weights, read_positions(keys, values), fine, support)
    values = values[:, origin]
    row_code = coup_class(values)
    for key, level in tracked:
        row_code = row_code * 64 + relabel(label_of(key, labels, values[4], values[5]), fine, level) + 1
    ids = np.where(labels >= 0, labels, np.where(cards >= 0, cards + refined, ABSENT))  # class ids (module docstring)
    rows, row_index = np.unique(row_code, return_inverse=True)
    codes = rows.copy()
    key_labels = []
    for key, level in reversed(tracked):
        key_labels.append((key, level, codes % 64 - 1))
        codes //= 64
    columns = class_columns(codes, decisions.rules.naturals)
    for key, level, key_label in reversed(key_labels):
        columns.levels[key] = level
        columns.update(card_columns(key, level, key_label))
    if counted:
        add_counted(columns, counted)
    return collect(Partition.of(fine), refined, MAX_CARDS, decisions.scale**2, columns, row_index, pack(ids), weights)


def card_partition_of(tracked: Tracked) -> Partition:
    """The classes of the tracked slots' granularity (the finest of them): what a table of first-card
    draws tells apart when nothing narrower is known."""
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    return Partition.of(fine)


@lru_cache(maxsize=8)
def card_table(tracked: Tracked, partition: Partition | None = None) -> Table:
    """Every ordered draw of the cards in the tracked slots (the first cards of a coup), one row per
    sequence of classes of ``partition`` (else of the slots' granularity: :func:`card_partition_of`).
    A partition coarser than the granularity must decide everything read of the slots (as
    :func:`~exact_odds.engine.patterns.card_partition` does for a set of bets); each row's cards are
    one card of each class (the lowest), read at the slots' own levels."""
    if any(slot not in FIRST_CARDS for slot, _ in tracked):
        raise ValueError("a third card is dealt only when the coup draws it: count it (and cards 5 and 6) through the coup")
    partition = partition or card_partition_of(tracked)
    classes = partition.classes
    sequences = classes ** len(tracked)
    if sequences > MAX_SEQUENCES:
        raise InputError(f"the bets read {', '.join(slot for slot, _ in tracked)} too finely to tabulate ({sequences:,} sequences)")
    labels = np.indices((classes,) * len(tracked), dtype=np.int16).reshape(len(tracked), -1)
    ids = np.vstack([labels, np.full((MAX_CARDS - len(tracked), labels.shape[1]), ABSENT, dtype=np.int16)]).astype(np.int64)  # every card refined
    cards = np.full(classes, 52, dtype=np.int64)
    np.minimum.at(cards, np.asarray(partition.labels), np.arange(52))
    columns = Columns(levels=dict(tracked))
    for (slot, _), label in zip(tracked, labels):
        columns.update(card_columns(slot, Granularity.CARD, cards[label]))
    if not tracked:
        columns["rows"] = np.zeros(1, dtype=np.int64)
    return collect(partition, classes, len(tracked), 1, columns, np.arange(labels.shape[1]), pack(ids), np.ones(labels.shape[1], dtype=np.int64))
