"""For one shoe, every coup by the classes of the card slots bets read, counted without a table:
the ways to draw the tracked cards (a few counts per pattern of their values) times the ways to
deal the others by value (:func:`slot_distribution`).
"""

from collections.abc import Collection
from typing import Any

import numpy as np

from ..core.coup import NOT_DEALT
from ..core.features import (
    COLORS,
    LATE_POSITIONS,
    POSITIONS_OF,
    SUIT_COLOR,
    TRACKED_CARDS,
    Array,
    Granularity,
    Levels,
    card_columns,
    class_columns,
    class_parts,
    class_values,
    code_values,
    coup_class,
    label_map,
    representatives,
    shoe_counts,
    value_code,
)
from ..core.policy import Decisions
from ..core.shoe import Shoe, gather
from ..errors import InputError
from .distribution import FLOAT_EXACT, INT64_SAFE, Distribution, draws
from .sequences import label_of, read_positions, shoe_sequences
from .tables import FACTORS, MAX_CARDS


MAX_SLOT_ROWS = 8_000_000
"""A distribution by the classes of tracked card slots with more rows than this is refused (it
would take a gigabyte)."""
MAX_CELLS = 4_000_000
MAX_GROUPS = 2_000
"""Coups are summed over the values of the slots read by their mark alone in dense products, one
per pattern of the other slots' values: at most this many, of at most ``MAX_CELLS`` cells each;
beyond, those slots are split by value too."""


def _too_fine(slots: list[str], rows: int) -> InputError:
    return InputError(f"the bets read the card slots {', '.join(slots)} too finely to count apart ({rows:,} rows): read fewer slots, "
                      "or colours instead of suits, or count the cards a predicate holds for (count(card_suit == H) == 6)")


def _mark_labels(fine: Granularity, level: Granularity) -> Array:
    """For each class at ``fine``, its class by the mark of ``level`` alone: suit, colour, or one class."""
    suits = representatives(fine) % 4
    labels: Array = (np.zeros_like(suits), np.asarray(SUIT_COLOR)[suits], suits)[level.mark]
    return labels


def _mark_columns(slot: str, level: Granularity, labels: Array) -> dict[str, Array]:
    """The features of a slot read by its mark alone, from its labels by :func:`_mark_labels`: a
    card of the mark (an ace), its suit and colour; no value or rank, which nothing reads."""
    suit_of = (np.zeros(1, dtype=np.int64), np.asarray([SUIT_COLOR.index(color) for color in range(len(COLORS))]), np.arange(4))[level.mark]
    cards = np.where(labels >= 0, suit_of[np.maximum(labels, 0)], NOT_DEALT)
    columns = card_columns(slot, Granularity.CARD, cards)
    del columns[f"{slot}_value"], columns[f"{slot}_rank"]
    return columns


def _slot_classes(shoe: Shoe, patterns: Array, slots: list[str], maps: list[Array], fine: Granularity) -> tuple[Array, Array, Array]:
    """For each pattern of point values of the tracked slots (rows of ``patterns``, -1: no card),
    every way to give those cards a class and how many ordered draws of distinct cards of ``shoe``
    fall in it: (pattern index, class labels (slots x ways), draws), sorted by pattern. The cards are
    drawn as classes at ``fine``; ``maps`` gives each slot's class of each of them."""
    counts = np.asarray(shoe_counts(shoe, fine), dtype=object)
    present = [np.flatnonzero((np.asarray(class_values(fine)) == value) & (counts > 0)) for value in range(10)]
    widths = np.array([len(classes) for classes in present] + [1])
    table = np.full((11, int(widths.max())), NOT_DEALT)
    for value, classes in enumerate(present):
        table[value, : len(classes)] = classes
    origin = np.arange(len(patterns))
    labels = np.zeros((0, len(patterns)), dtype=np.int64)
    for slot in range(patterns.shape[1]):
        repeats = widths[patterns[origin, slot]]  # a slot with no card (-1) reads the last row: one way
        if repeats.sum() > MAX_SLOT_ROWS:
            raise _too_fine(slots, int(repeats.sum()))
        copies = np.repeat(np.arange(len(origin)), repeats)
        within = np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        origin = origin[copies]
        labels = np.vstack([labels[:, copies], table[patterns[origin, slot], within]])
    ways = np.ones(len(origin), dtype=object)
    for slot, label in enumerate(labels):
        left = counts[np.maximum(label, 0)]
        if not shoe.with_replacement:
            left = left - (labels[:slot] == label).sum(axis=0)  # the cards of its class drawn before (no card equals none)
        ways = np.where(label >= 0, ways * left, ways)
    keep = ways != 0
    gathered = np.stack([np.where(label[keep] >= 0, mapping[np.maximum(label[keep], 0)], NOT_DEALT) for label, mapping in zip(labels, maps)])
    code = origin[keep]
    for label in gathered:
        code = code * (fine.classes + 1) + label + 1
    _, first, index = np.unique(code, return_index=True, return_inverse=True)
    summed = np.zeros(len(first), dtype=object)
    np.add.at(summed, index.ravel(), ways[keep])
    return origin[keep][first], gathered[:, first], summed


def _expanded(klass: Array, row_pattern: Array, row_counts: Array, pattern_of: Array, labels: Array, ways: Array,
              slots: list[str], pattern_count: int) -> tuple[Array, Array, Array]:
    """Each row of coups once per class of its pattern of tracked values: (coup class, labels, counts)."""
    starts = np.searchsorted(pattern_of, np.arange(pattern_count + 1))
    repeats = (starts[1:] - starts[:-1])[row_pattern]
    if repeats.sum() > MAX_SLOT_ROWS:
        raise _too_fine(slots, int(repeats.sum()))
    origin = np.repeat(np.arange(len(klass)), repeats)
    way = starts[row_pattern[origin]] + np.arange(len(origin)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    return klass[origin], labels[:, way], row_counts[origin] * ways[way]


def _summed_over_marks(klass: Array, row_pattern: Array, row_counts: Array, patterns: Array, marked: list[bool], pattern_of: Array,
                       labels: Array, ways: Array, exact: Any) -> tuple[Array, Array, Array] | None:
    """The rows of coups by coup class and the classes of the tracked slots, summed over the values
    of the slots read by their mark alone (``marked``): for each pattern of the other slots' values,
    the counts by coup class and pattern (a dense matrix) times the draws by pattern and classes,
    in ``exact`` arithmetic. None where that takes too many or too large products."""
    radix = 11 ** np.arange(patterns.shape[1])
    faces = (patterns + 1) @ np.where(marked, 0, radix)
    groups, group_of = np.unique(faces, return_inverse=True)
    if len(groups) > MAX_GROUPS:
        return None
    group_of = group_of.ravel()
    by_rows, by_ways = np.argsort(group_of[row_pattern], kind="stable"), np.argsort(group_of[pattern_of], kind="stable")
    row_starts = np.searchsorted(group_of[row_pattern][by_rows], np.arange(len(groups) + 1))
    way_starts = np.searchsorted(group_of[pattern_of][by_ways], np.arange(len(groups) + 1))
    out_klass, out_labels, out_counts = [np.zeros(0, dtype=np.int64)], [labels[:, :0]], [np.zeros(0, dtype=exact)]
    for group in range(len(groups)):
        rows, chosen = by_rows[row_starts[group] : row_starts[group + 1]], by_ways[way_starts[group] : way_starts[group + 1]]
        if not len(chosen):
            continue
        coups, coup_index = np.unique(klass[rows], return_inverse=True)
        held, pattern_index = np.unique(np.concatenate([row_pattern[rows], pattern_of[chosen]]), return_inverse=True)
        classes, first, class_index = np.unique(labels[:, chosen], axis=1, return_index=True, return_inverse=True)
        if max(len(coups), classes.shape[1]) * len(held) > MAX_CELLS or len(coups) * classes.shape[1] > MAX_CELLS:
            return None
        by_pattern = np.zeros((len(coups), len(held)), dtype=exact)
        by_pattern[coup_index.ravel(), pattern_index[: len(rows)]] = row_counts[rows]
        draws_of = np.zeros((len(held), classes.shape[1]), dtype=exact)
        draws_of[pattern_index[len(rows) :], class_index.ravel()] = ways[chosen]
        counts = by_pattern @ draws_of
        coup_at, class_at = np.nonzero(counts)
        out_klass.append(coups[coup_at])
        out_labels.append(labels[:, chosen[first[class_at]]])
        out_counts.append(counts[coup_at, class_at])
    return np.concatenate(out_klass), np.concatenate(out_labels, axis=1), np.concatenate(out_counts)


def _position_levels(keys: list[str], tracked: Levels, faces: Collection[str] | None) -> tuple[dict[int, Granularity], dict[int, bool]]:
    """The granularity each shoe position a tracked slot or position may read is drawn at (the
    finest of theirs), and whether it is read by its mark alone (by no slot of ``faces``; None:
    all). The banker's third card lies at the fifth or the sixth position: both alike."""
    levels: dict[int, Granularity] = {}
    marked: dict[int, bool] = {}
    for key in keys:
        for position in POSITIONS_OF[key]:
            levels[position] = levels.get(position, Granularity.VALUE).join(tracked[key])
            marked[position] = marked.get(position, True) and faces is not None and key not in faces
    if "banker_card3" in tracked:
        levels[4] = levels[5] = levels[4].join(levels[5])
        marked[4] = marked[5] = marked[4] and marked[5]
    return levels, marked


def slot_distribution(shoe: Shoe, decisions: Decisions, tracked: Levels, faces: Collection[str] | None = None) -> Distribution:
    """Every coup of ``shoe`` by coup class and the classes of the ``tracked`` card slots (and shoe
    positions 5 and 6), each at its own granularity (no counted predicates), as ordered 6-card
    sequences. A slot not in ``faces`` (None: all) is read by its suit or colour alone: its rows say
    only that.

    The cards of a shoe are exchangeable: the sequences of a coup whose tracked cards fall in given
    classes number the ordered draws of those cards into those classes times the ways to deal the
    coup's other cards, by point value, from the cards left, which depend on the tracked cards'
    values only. So each coup over point values (with the fifth and sixth cards given every value
    where tracked and not dealt) is weighed once for the pattern of the values at the shoe positions
    read, and each pattern is split into classes by a product of a few counts
    (:func:`_slot_classes`), never a table of every class of every card; a position read by its
    mark alone is then summed over its values (:func:`_summed_over_marks`)."""
    shoe = shoe.checked()
    keys = [key for key in TRACKED_CARDS if key in tracked]
    levels, marked = _position_levels(keys, tracked, faces)
    positions = sorted(levels)
    fine = Granularity.VALUE
    for level in levels.values():
        fine = fine.join(level)
    value_counts = gather(shoe_counts(shoe, fine), class_values(fine))
    size, replace, scale = sum(value_counts), shoe.with_replacement, decisions.scale**2
    total = draws(size, MAX_CARDS, replace) * scale
    kind: Any = np.int64 if size**MAX_CARDS * scale < INT64_SAFE else object  # bounds every count and every partial product below
    narrow, cards, weights = shoe_sequences(decisions, tuple(POSITIONS_OF[key][0] for key in keys if key in LATE_POSITIONS))
    holds = np.append(np.asarray(value_counts) > 0, True)  # (the last for no card)
    if not holds.all():  # only the coups the shoe's values can make
        possible = holds[cards].all(axis=0)
        narrow, cards, weights = narrow[:, possible], cards[:, possible], weights[possible]
    values = narrow.astype(np.int64)
    read = read_positions(keys, values)
    held = np.where(read, cards, np.int8(NOT_DEALT))[positions]  # the cards read, by position (in bytes: a million coups)
    rest = np.where(read, np.int8(NOT_DEALT), cards)
    available = np.asarray(value_counts, dtype=kind)
    completions = weights.astype(kind)
    for position in range(MAX_CARDS):  # each other card drawn by value from what is left
        value = rest[position]
        if not replace:
            before = (held == value).sum(axis=0, dtype=np.int64) + (rest[:position] == value).sum(axis=0, dtype=np.int64)
        left = available[np.maximum(value, 0)] - (0 if replace else before)
        completions = completions * np.where(value >= 0, np.maximum(left, 0), 1)
    dealt = (cards >= 0).sum(axis=0)
    unused = np.asarray([draws(size - (0 if replace else count), MAX_CARDS - count, replace) for count in range(FACTORS)], dtype=kind)
    completions = completions * unused[dealt]
    possible = completions != 0
    values, held, completions = values[:, possible], held[:, possible], completions[possible]
    radix = 11 ** len(positions)
    pattern = value_code(held)
    rows, row_index = np.unique(coup_class(values) * radix + pattern, return_inverse=True)
    row_counts = np.zeros(len(rows), dtype=kind)
    np.add.at(row_counts, row_index.ravel(), completions)
    rows, row_counts = rows[row_counts != 0], row_counts[row_counts != 0]
    pattern_codes, row_pattern = np.unique(rows % radix, return_inverse=True)
    patterns = code_values(pattern_codes, len(positions)).T
    marks = [marked[position] for position in positions]
    summed = None
    if any(marks):
        maps = [_mark_labels(fine, levels[position]) if mark else label_map(fine, levels[position]) for position, mark in zip(positions, marks)]
        exact: Any = np.float64 if total < FLOAT_EXACT and kind is np.int64 else kind  # float64: every sum is a count below 2^53, exact
        pattern_of, labels, ways = _slot_classes(shoe, patterns, keys, maps, fine)
        summed = _summed_over_marks(rows // radix, row_pattern.ravel(), row_counts.astype(exact), patterns, marks, pattern_of, labels, ways.astype(exact), exact)
    if summed is None:
        marks = [False] * len(positions)
        pattern_of, labels, ways = _slot_classes(shoe, patterns, keys, [label_map(fine, levels[position]) for position in positions], fine)
        summed = _expanded(rows // radix, row_pattern.ravel(), row_counts, pattern_of, labels, ways.astype(kind), keys, len(patterns))
    klass, labels, counts = summed
    columns = class_columns(klass, decisions.rules.naturals)
    _, _, player_third, banker_third = class_parts(klass)
    columns.levels.update(tracked)
    row_of = np.zeros(MAX_CARDS, dtype=np.int64)
    row_of[positions] = np.arange(len(positions))
    for key in keys:
        label = label_of(key, labels, player_third, banker_third, row_of)
        position = POSITIONS_OF[key][0]
        level, mark = levels[position], marks[positions.index(position)]
        columns.update(_mark_columns(key, level, label) if mark else card_columns(key, level, label))
    return Distribution(columns, counts.astype(np.int64 if total < INT64_SAFE else object), total, MAX_CARDS, scale)
