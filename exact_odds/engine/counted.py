"""Coups by the counts of predicates: how many cards of each hand a counted predicate holds for
(what ``count()``, ``player_count()`` and ``banker_count()`` read), tabulated by multiset of the
classes the predicates tell apart (see :func:`counted_table`).
"""

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.cards import POINT_VALUES
from ..core.features import (COUP_CLASSES, SIDES, Array, Columns, Partition, class_parts, code_values, counted_truth, coup_class, coup_columns,
                             value_code)
from ..core.policy import Decisions
from ..errors import InputError
from .distribution import DENSE_KEYS, FLOAT_EXACT, INT64_SAFE, sums_at, sums_by_key
from .sequences import value_sequences
from .tables import FACTORS, MAX_CARDS, MAX_ORDERINGS, MAX_SEQUENCES, Table, Tracked, factor_indices


def counted_partition(counted: Tracked) -> Partition:
    """The classes of cards the counted predicates tell apart: each point value split by which of
    them hold (no finer)."""
    signature = np.stack([np.asarray(POINT_VALUES)[np.arange(52) // 4]] + [counted_truth(key) for key, _ in counted], axis=1)
    _, labels = np.unique(signature, axis=0, return_inverse=True)
    return Partition(tuple(labels.ravel().tolist()))


@lru_cache(maxsize=64)
def _compositions(total: int, parts: int) -> tuple[Array, Array]:
    """Every way to put ``total`` cards into ``parts`` classes (rows of class counts) and the
    orderings of each (total! / prod of its counts!), in one fixed order."""
    if not parts:
        return np.zeros((1 if total == 0 else 0, 0), dtype=np.int64), np.ones(1 if total == 0 else 0, dtype=np.int64)
    ways = np.array([np.bincount(np.asarray(chosen, dtype=np.int64), minlength=parts)
                     for chosen in itertools.combinations_with_replacement(range(parts), total)], dtype=np.int64).reshape(-1, parts)
    factorials = np.cumprod(np.concatenate([[1], np.arange(1, MAX_CARDS + 1)]))
    return ways, factorials[total] // np.prod(factorials[ways], axis=1)


def _code(counts: Array, radix: int) -> Array:
    """Rows of small counts as integers (digits in base ``radix``)."""
    code: Array = counts @ (radix ** np.arange(counts.shape[1], dtype=np.int64))
    return code


@dataclass(frozen=True)
class _Splits:
    """For one point value of :func:`counted_table`: its classes, and for every (player, banker)
    number of its cards, each way to give those cards classes: the index of the joint split among
    the splits of all of them, what it adds to each hand's packed count of the predicates, and in
    how many orders the hands' positions hold it."""

    classes: Array
    starts: Array  # (4, 4) first option of each (player, banker) number of cards; then the end
    sizes: Array  # (4, 4)
    joint: Array  # (options,) index among _compositions(p + b, classes)
    player: Array
    banker: Array
    ways: Array

    @classmethod
    def of(cls, classes: Array, codes: Array) -> "_Splits":
        parts: list[list[Array]] = [[], [], [], []]
        sizes = np.zeros((4, 4), dtype=np.int64)
        for player in range(4):
            for banker in range(4):
                left, left_ways = _compositions(player, len(classes))
                right, right_ways = _compositions(banker, len(classes))
                both = np.repeat(np.arange(len(left)), len(right)), np.tile(np.arange(len(right)), len(left))
                joint, _ = _compositions(player + banker, len(classes))
                order = np.argsort(_code(joint, FACTORS))
                index = order[np.searchsorted(_code(joint, FACTORS)[order], _code(left[both[0]] + right[both[1]], FACTORS))]
                for place, part in enumerate((index, left[both[0]] @ codes, right[both[1]] @ codes, left_ways[both[0]] * right_ways[both[1]])):
                    parts[place].append(part)
                sizes[player, banker] = len(index)
        starts = np.concatenate([[0], np.cumsum(sizes.ravel())])[:-1].reshape(4, 4)
        joint, player_codes, banker_codes, ways = (np.concatenate(part).astype(np.int64) for part in parts)
        return cls(classes, starts, sizes, joint, player_codes, banker_codes, ways)


Labeller = Callable[[Columns], Array]
"""Rows (given as columns) to labels: two rows with equal labels may be merged (the bets settle them alike)."""


def counted_table(decisions: Decisions, counted: Tracked, alike: Labeller | None = None) -> Table:
    """Every coup by coup class and, for each counted predicate, how many cards of each hand it
    holds for (what count(), player_count() and banker_count() read), by multiset of the classes
    the predicates tell apart (:func:`counted_partition`); with ``alike``, rows it labels alike
    merged into one (the rows the bets and the winner tell apart: a few instead of thousands).

    A coup's sequences of classes depend on its point values only through how many cards of each
    value each hand holds, and each value's cards split into classes independently: for p player
    and b banker cards of a value, each split (a_s, b_s) over its classes s occurs in
    p!/prod a_s! * b!/prod b_s! orders and adds sum a_s to the player's counts of the predicates
    holding for s. So the coups are grouped by coup class and the values of each hand (the coup
    classes that settle alike at every count merged first), and each group is split value by value;
    a split's multiset of classes, and so its weight, is indexed by arithmetic, never sorted. A
    group that falls in one event whatever the counts (with Super Tie, every coup but a six-card
    tie) is not split at all: its cards stay point values (by Vandermonde's identity, the sum of
    its splits), so the table holds tens of thousands of entries, not millions."""
    partition = counted_partition(counted)
    truths = np.zeros((len(counted), partition.classes), dtype=np.int64)
    for index, (key, _) in enumerate(counted):
        truths[index, list(partition.labels)] = counted_truth(key)
    codes = (4 ** np.arange(len(counted), dtype=np.int64)) @ truths  # a class's packed truths: counts of up to 3 cards never carry
    splits = [_Splits.of(np.flatnonzero(partition.values == value), codes[partition.values == value]) for value in range(10)]
    narrow, weights = value_sequences(decisions)
    values = narrow.astype(np.int64)
    if decisions.scale**2 * MAX_ORDERINGS * MAX_ORDERINGS >= INT64_SAFE:  # weights times orderings: Python integers
        weights = weights.astype(object)
    klass = coup_class(values)
    present = np.zeros(COUP_CLASSES, dtype=bool)  # coup classes by code: a dense map, not a sort
    present[klass] = True
    coups = np.flatnonzero(present)
    coup_of = np.cumsum(present)[klass] - 1
    keys = np.stack(class_parts(coups))
    cards = np.stack([2 + (keys[2] >= 0), 2 + (keys[3] >= 0)])  # (sides, coups)
    columns, reach, widths, sizes = _candidate_rows(keys, cards, codes, counted, decisions.rules.naturals)
    if alike is None:
        events = int(sizes.sum())
        representatives, row_event = np.arange(events), np.arange(events)
    else:
        found, representatives, row_event = np.unique(alike(columns), axis=0, return_index=True, return_inverse=True)
        events, row_event = len(found), row_event.ravel()
    merged_of, group_start, group_shape, merged_event = _merged_classes(cards[0] * 4 + cards[1], sizes, row_event)
    hands = [value_code(np.sort(values[list(positions)], axis=0)[::-1]) for positions in ((0, 2, 4), (1, 3, 5))]  # each hand's values
    groups, group_of = np.unique((merged_of[coup_of] * 11**3 + hands[0]) * 11**3 + hands[1], return_inverse=True)
    group_weight = sums_at(group_of.ravel(), weights, len(groups))
    del narrow, values, weights, klass, coup_of, hands, group_of  # a million entries each: freed before the splits
    held = np.zeros((2, len(groups), 10), dtype=np.int64)  # each group's cards of each value, by hand
    for hand, code in enumerate((groups // 11**3 % 11**3, groups % 11**3)):
        for value in code_values(code, 3):
            dealt = np.flatnonzero(value >= 0)
            held[hand, dealt, value[dealt]] += 1
    group_merged = groups // 11**6
    # a group whose coup class falls in one event at every count needs no split: its cards stay point values
    whole = merged_event[group_merged]
    whole_groups = np.flatnonzero(whole >= 0)
    _, whole_of = np.unique(_code((held[0] + held[1])[whole_groups], FACTORS), return_inverse=True)
    whole_counts = (held[0] + held[1])[whole_groups][np.unique(whole_of.ravel(), return_index=True)[1]]
    split_groups = np.flatnonzero(whole < 0)
    held = held[:, split_groups]
    values_held = held[0] + held[1]
    _, set_of = np.unique(_code(values_held, FACTORS), return_inverse=True)
    set_of = set_of.ravel()
    set_counts = values_held[np.unique(set_of, return_index=True)[1]]
    choices = np.stack([np.asarray([len(_compositions(count, len(splits[value].classes))[0]) for count in range(MAX_CARDS + 1)])
                        for value in range(10)])  # (values, cards): splits of that many cards of the value
    set_sizes = np.prod(choices[np.arange(10), set_counts], axis=1)
    set_start = np.cumsum(set_sizes) - set_sizes
    split_multisets = _class_multisets(splits, set_counts, choices, partition.classes)
    by_value = np.zeros((len(whole_counts), partition.classes + 10), dtype=np.int8)
    by_value[:, partition.classes :] = whole_counts
    multisets = np.concatenate([split_multisets, by_value])
    # each group's values split one after the other: the options of each value (all values' options
    # in one list, then one that adds nothing), where its split of the joint cards counts in the
    # multiset's index, and which values branch (those with one option are added up front)
    firsts = np.cumsum([0] + [len(split.joint) for split in splits])
    option_joint, option_player, option_banker, option_ways = (np.concatenate([getattr(split, name) for split in splits] + [np.array([fill])])
                                                               for name, fill in (("joint", 0), ("player", 0), ("banker", 0), ("ways", 1)))
    start = np.stack([firsts[value] + split.starts[held[0][:, value], held[1][:, value]] for value, split in enumerate(splits)], axis=1)
    size = np.stack([split.sizes[held[0][:, value], held[1][:, value]] for value, split in enumerate(splits)], axis=1)
    width = choices[np.arange(10), values_held]
    radix = np.cumprod(np.concatenate([np.ones((len(split_groups), 1), dtype=np.int64), width[:, :-1]], axis=1), axis=1)
    single = size == 1
    player_fixed = np.where(single, option_player[start], 0).sum(axis=1)
    banker_fixed = np.where(single, option_banker[start], 0).sum(axis=1)
    ways_fixed = np.prod(np.where(single, option_ways[start], 1), axis=1)
    order = np.argsort(single, axis=1, kind="stable")  # the branching values first
    slots = int((~single).sum(axis=1).max(initial=0))
    branching = ~np.take_along_axis(single, order, axis=1)[:, :slots]
    slot_start = np.where(branching, np.take_along_axis(start, order, axis=1)[:, :slots], len(option_joint) - 1)
    slot_size = np.where(branching, np.take_along_axis(size, order, axis=1)[:, :slots], 1)
    slot_radix = np.take_along_axis(radix, order, axis=1)[:, :slots]
    expanded = np.prod(size, axis=1)
    if int(expanded.sum()) > MAX_SEQUENCES:
        raise InputError(f"the counts tell {partition.classes} classes of cards apart, too many to tabulate ({int(expanded.sum()):,} splits)")
    possible = events * len(multisets)
    whole_keys = whole[whole_groups] * len(multisets) + len(split_multisets) + whole_of.ravel()
    largest = max(len(split.classes) for split in splits) ** MAX_CARDS  # no split of a coup has more orders than this
    dense = possible <= DENSE_KEYS and group_weight.dtype != object and float(group_weight.sum(dtype=np.float64)) * largest < FLOAT_EXACT / 2
    whole_weight = group_weight[whole_groups]
    group_weight, group_merged = group_weight[split_groups], group_merged[split_groups]
    summed = np.zeros(possible if dense else 0)  # float64, exact: every partial sum is below 2^53
    if dense and len(whole_keys):
        summed += np.bincount(whole_keys, whole_weight, minlength=possible)
    found_keys, found_weights = [whole_keys], [whole_weight]
    bounds = np.searchsorted(np.cumsum(expanded), np.arange(CHUNK, int(expanded.sum()) + CHUNK, CHUNK), side="right")
    for first, last in zip(np.concatenate([[0], bounds[:-1]]), bounds):
        if first == last:
            continue
        origin = np.arange(first, last)
        local, player, banker = np.zeros(len(origin), dtype=np.int64), player_fixed[origin], banker_fixed[origin]
        ways = group_weight[origin] * ways_fixed[origin]
        for slot in range(slots):
            repeats = slot_size[origin, slot]
            copies = np.repeat(np.arange(len(origin)), repeats)
            option = slot_start[origin, slot][copies] + np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
            origin, local, player, banker, ways = origin[copies], local[copies], player[copies], banker[copies], ways[copies]
            local += option_joint[option] * slot_radix[origin, slot]
            player += option_player[option]
            banker += option_banker[option]
            ways *= option_ways[option]
        kind = group_shape[group_merged[origin]]
        row = group_start[group_merged[origin]] + _position(reach, kind // 4, player) * widths[kind % 4] + _position(reach, kind % 4, banker)
        keys = row_event[row] * len(multisets) + set_start[set_of[origin]] + local
        if dense:
            summed += np.bincount(keys, ways, minlength=possible)
            continue
        keys, ways = sums_by_key(keys, ways, possible)
        found_keys.append(keys)
        found_weights.append(ways)
    if dense:
        entry_keys = np.flatnonzero(summed)
        entry_weight = summed[entry_keys].astype(np.int64)
    else:
        entry_keys, entry_weight = sums_by_key(np.concatenate(found_keys), np.concatenate(found_weights), possible)
    entry_event, entry_multiset = np.divmod(entry_keys, len(multisets))
    held_events, entry_row = np.unique(entry_event, return_inverse=True)  # rows no coup reaches left out
    representatives = representatives[held_events]
    event_columns = Columns({name: column[representatives] for name, column in columns.items()}, columns.levels)
    return Table(partition, partition.classes, MAX_CARDS, decisions.scale**2, event_columns, multisets,
                 factor_indices(multisets, partition, partition.classes, MAX_CARDS), entry_multiset, entry_row.ravel(), entry_weight)


def _candidate_rows(keys: Array, cards: Array, codes: Array, counted: Tracked, naturals: Iterable[int]) -> tuple[Columns, list[Array], Array, Array]:
    """The candidate rows: each coup class (``keys``: its class parts; ``cards``: each hand's cards)
    with every pair of counts its hands can hold, as columns (the coup's features, then each counted
    predicate's count by hand); the packed counts (``codes``: a class's packed truths) n cards of a
    hand can hold, n from 0 to 3, how many of them, and the candidate rows of each coup class."""
    reach = [np.zeros(1, dtype=np.int64)]  # the packed counts n cards of a hand can hold
    for _ in range(3):
        reach.append(np.unique(reach[-1][:, None] + codes[None, :]))
    widths = np.array([len(part) for part in reach])
    padded = np.zeros((4, int(widths.max())), dtype=np.int64)
    for count, part in enumerate(reach):
        padded[count, : len(part)] = part
    sizes = widths[cards[0]] * widths[cards[1]]  # the candidate rows: each coup class with every pair of counts its hands can hold
    row_coup = np.repeat(np.arange(len(keys[0])), sizes)
    within = np.arange(len(row_coup)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    banker_width = widths[cards[1]][row_coup]
    side_codes = (padded[cards[0][row_coup], within // banker_width], padded[cards[1][row_coup], within % banker_width])
    columns = coup_columns(keys[0][row_coup], keys[1][row_coup], keys[2][row_coup], keys[3][row_coup], naturals)
    for index, (key, _) in enumerate(counted):
        for side, code in zip(SIDES, side_codes):
            columns[f"{key}:{side}"] = (code // 4**index % 4).astype(np.int8)
    columns.levels.update(counted)
    return columns, reach, widths, sizes


def _merged_classes(shape: Array, sizes: Array, row_event: Array) -> tuple[Array, Array, Array, Array]:
    """Coup classes whose candidate rows (``sizes`` of them each, in order) fall in the same events,
    count for count, merged (all of them kept apart where every row is its own event): each class's
    merged class, and of each merged class its first row, its ``shape`` (each hand's cards, as
    player * 4 + banker) and its event at every count (-1: not one event)."""
    starts = np.cumsum(sizes) - sizes
    merged_of = np.zeros(len(shape), dtype=np.int64)
    merged_start, merged_shape, merged_event, merged = [], [], [], 0
    for kind in np.unique(shape):
        chosen = np.flatnonzero(shape == kind)
        pattern = row_event[starts[chosen][:, None] + np.arange(sizes[chosen[0]])]
        distinct, leading, alike_of = np.unique(pattern, axis=0, return_index=True, return_inverse=True)
        merged_of[chosen] = merged + alike_of.ravel()
        merged_start.extend(starts[chosen[leading]].tolist())
        merged_shape.extend([kind] * len(distinct))
        merged_event.extend(np.where((distinct == distinct[:, :1]).all(axis=1), distinct[:, 0], -1).tolist())  # one event at every count, or -1
        merged += len(distinct)
    return merged_of, np.asarray(merged_start, dtype=np.int64), np.asarray(merged_shape, dtype=np.int64), np.asarray(merged_event, dtype=np.int64)


def _position(reach: list[Array], cards: Array, code: Array) -> Array:
    """Where each packed count ``code`` of a hand of ``cards`` cards lies among those it can hold."""
    position = np.zeros(len(code), dtype=np.int64)
    for count in (2, 3):  # a hand holds two or three cards
        chosen = cards == count
        position[chosen] = np.searchsorted(reach[count], code[chosen])
    return position


CHUNK = 1 << 19
"""Splits of coups expanded at once (their arrays take a few tens of megabytes)."""
def _class_multisets(splits: list[_Splits], value_sets: Array, choices: Array, classes: int) -> Array:
    """Every multiset of classes of each set of values (rows of ``value_sets``: cards of each value),
    in the order :func:`counted_table` indexes them: the split of each value's cards a digit, the
    first value's the fastest (then the ten value counts of the table's layout, all 0)."""
    sizes = np.prod(choices[np.arange(10), value_sets], axis=1)
    origin = np.repeat(np.arange(len(value_sets)), sizes)
    local = np.arange(len(origin)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    multisets = np.zeros((len(origin), classes + 10), dtype=np.int8)
    for value, split in enumerate(splits):
        if not len(split.classes):
            continue
        counts = value_sets[origin, value]
        width = choices[value][counts]
        table = np.zeros((MAX_CARDS + 1, int(choices[value].max()), len(split.classes)), dtype=np.int8)  # each count's splits
        for count in range(MAX_CARDS + 1):
            ways, _ = _compositions(count, len(split.classes))
            table[count, : len(ways)] = ways
        multisets[:, split.classes] = table[counts, local % width]
        local //= width
    return multisets
