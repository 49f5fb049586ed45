"""The blocked batch kernel (32 shoes in SIMD lanes, each copy of its loops this CPU runs) against
the numpy fallback, plain Python integers and the plain enumerator: blocks cut short, no shoe, a
shoe that lacks a rank, counts at the edge of each number type, suited shoes and every catalog bet."""

import os
from fractions import Fraction
from math import prod

import numpy as np
import pytest

from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.engine import events, kernel
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.engine.batch import MAX_COUNT, _projection, batch_expectations, projected
from exact_odds.engine.distribution import FLOAT_EXACT
from exact_odds.engine.kernel import INT64_BOUND, INT128_BOUND, Entries, Pays, weigh, weigh_counts
from exact_odds.engine.store import coup_table
from exact_odds.engine.coup_table import card_table
from exact_odds.engine.tables import factor_counts, tracked_key
from exact_odds.errors import InputError
from oracles import by_python

CATALOG = catalog()
RANK_BETS = [bet for bet in CATALOG.values() if not bet.needs_suits]
RUNS = tuple(kernel._kernel.variants()) if kernel._kernel is not None else ()
"""The copies of the blocked loops this CPU runs (none without the C extension)."""
SETTINGS = RUNS + ("numpy",)
compiled_only = pytest.mark.skipif(kernel._kernel is None, reason="the C extension was not built (no compiler at install time)")
SUITED_BETS = """
[[bet]]
name = "same_suit"
pays = [{ when = "player_card1_suit == banker_card1_suit", pays = "3" }]

[[bet]]
name = "red_banker"
pays = [{ when = "winner == banker and player_card1_color == red", pays = "2" }]
"""



def each_setting(monkeypatch, compute):
    """``compute()`` under each copy of the loops and the numpy path, as lists."""
    results = {}
    for setting in SETTINGS:
        monkeypatch.setenv("EXACT_ODDS_KERNEL", setting)
        result = compute()
        results[setting] = result.tolist() if isinstance(result, np.ndarray) else result
    monkeypatch.delenv("EXACT_ODDS_KERNEL")
    return results


def drawn_entries(seed: int, targets: int) -> Entries:
    rng = np.random.default_rng(seed)
    width, depth, multisets, size = 10, 6, 300, 2000
    return Entries(rng.integers(0, width, (multisets, depth)), rng.integers(0, multisets, size), rng.integers(0, targets, size),
                   rng.integers(1, 153, size), targets)


@compiled_only
@pytest.mark.parametrize("shoes", [0, 1, 7, 8, 31, 32, 33, 70])
def test_blocks_cut_short(monkeypatch, shoes):
    """Shoes in blocks of 32 (the last cut short), one at a time below 8, none at all; in float64
    and in int64; with pays folded in too (a column of each sign, one of zeros)."""
    entries = drawn_entries(shoes, 12)
    rng = np.random.default_rng(shoes + 1)
    pays = rng.integers(-40, 41, (12, 4))
    pays[:, 3] = 0
    for top in (20, 200):  # float64 sums, then int64 sums
        vectors = rng.integers(0, top, (shoes, 10))
        expected = by_python(entries, vectors)
        bound = max([max(row) for row in expected], default=1)
        assert (bound < FLOAT_EXACT) == (top == 20 or not shoes) and bound < INT64_BOUND
        results = each_setting(monkeypatch, lambda: weigh(entries, vectors, bound))
        assert all(result == expected for result in results.values()), [name for name, result in results.items() if result != expected]
        paid = each_setting(monkeypatch, lambda: weigh_counts(entries, vectors, (np.arange(10), np.zeros(10, dtype=np.int64)), bound, pays=Pays(pays)))
        want = (np.array(expected, dtype=object).reshape(shoes, 12) @ pays.astype(object)).tolist()
        assert all(result == want for result in paid.values())


@compiled_only
@pytest.mark.parametrize("bound", [FLOAT_EXACT - 1, FLOAT_EXACT, INT64_BOUND - 1, INT64_BOUND, INT128_BOUND - 1, INT128_BOUND])
def test_counts_at_the_edge_of_each_number_type(monkeypatch, bound):
    """Nine shoes (a block) whose largest count is right at or just past the bound of float64,
    int64 or int128: each weighed exactly, by the mode the bound calls for or by Python integers."""
    root = round(bound ** (1 / 3))
    while root**3 > bound:
        root -= 1
    rows = [[root - shift] * 3 for shift in range(9)]
    vectors = np.array(rows, dtype=np.int64 if root < 2**62 else object)
    entries = Entries(np.array([[0, 1, 2], [0, 0, 1]]), np.array([0, 1, 1]), np.array([0, 1, 0]), np.array([1, 1, 0]), 2)
    expected = [[(root - shift) ** 3, (root - shift) ** 3] for shift in range(9)]
    assert expected[0][0] <= bound < (root + 1) ** 3
    results = each_setting(monkeypatch, lambda: [[int(count) for count in row] for row in weigh(entries, vectors, bound).tolist()])
    assert all(result == expected for result in results.values())


@compiled_only
def test_many_targets_take_longer_chunks(monkeypatch):
    """Entries of more targets than kernel.MANY_TARGETS are chunked four times as long: the same counts."""
    entries = drawn_entries(5, kernel.MANY_TARGETS + 40)
    vectors = np.random.default_rng(6).integers(0, 20, (40, 10))
    expected = by_python(entries, vectors)
    results = each_setting(monkeypatch, lambda: weigh(entries, vectors, max(max(row) for row in expected)))
    assert all(result == expected for result in results.values())


@compiled_only
@pytest.mark.parametrize("shoes, everyone", [(8, False), (33, False), (9, True)])
def test_shared_factors_are_applied_once_per_target(monkeypatch, shoes, everyone):
    """Factors named shared (as the unused cards' N - n - i) are taken out of the multisets and
    multiply each target's sums once: the same counts and paid sums as Python integers give, with
    multisets that differ only in their shared factors, one made of shared factors alone, one
    without entries, and (``everyone``) every multiset holding one; and the same where a shoe has a
    shared factor of 0 (then nothing is taken out)."""
    rng = np.random.default_rng(shoes)
    factors = rng.integers(0, 10, (200, 6))
    factors[:40, 4:] = [7, 8]  # many multisets share their last two factors
    factors[40:60, 5] = 9
    factors[60] = [7, 8, 9, 7, 8, 9]
    factors[61] = factors[0]
    factors[61, 4:] = [9, 9]  # the same first factors as multiset 0, other shared ones
    if everyone:
        factors[:, 0] = 7
    multiset = np.r_[np.arange(199), rng.integers(0, 199, 300)]  # multiset 199 has no entry
    entries = Entries(factors, multiset, rng.integers(0, 7, len(multiset)), rng.integers(1, 40, len(multiset)), 7)
    pays = rng.integers(-30, 31, (7, 3))
    layout = (np.arange(10), np.zeros(10, dtype=np.int64))
    for lowest in (1, 0):
        vectors = rng.integers(1, 30, (shoes, 10))
        vectors[-1, 8] = lowest
        expected = by_python(entries, vectors)
        bound = max(max(row) for row in expected)
        counts = each_setting(monkeypatch, lambda: weigh_counts(entries, vectors, layout, bound, shared=(7, 8, 9)))
        assert all(result == expected for result in counts.values())
        paid = each_setting(monkeypatch, lambda: weigh_counts(entries, vectors, layout, bound, pays=Pays(pays), shared=(7, 8, 9)))
        want = (np.array(expected, dtype=object) @ pays.astype(object)).tolist()
        assert all(result == want for result in paid.values())
    plan = entries.plan((7, 8, 9))
    assert len(plan.layer_start) - 1 == len({tuple(row[np.isin(row, (7, 8, 9))]) for row in factors[:199]})
    assert plan.arrays[0].size < entries.plan(()).arrays[0].size  # fewer products


def drawn_shoes(count: int, decks: int, dealt: int, suited: bool, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    columns, each = (52, decks) if suited else (13, 4 * decks)
    return np.full((count, columns), each) - rng.multivariate_hypergeometric([each] * columns, dealt, size=count)


def plain_expectations(counts: np.ndarray, bets: list) -> list[Fraction]:
    """Each bet's exact expectation on one shoe by the plain recursive enumerator."""
    suited = len(counts) == 52
    ranks = tuple(int(counts[rank * 4 : rank * 4 + 4].sum()) for rank in range(13)) if suited else tuple(int(count) for count in counts)
    shoe = Shoe(ranks, tuple(int(count) for count in counts) if suited else None, "drawn")
    return [result.expected_value for result in analyze(shoe, bets, engine=PlainEngine()).bets]


def test_every_rank_level_bet_by_each_copy_and_the_enumerator(monkeypatch):
    """37 depleted one-deck shoes (a block and 5), one lacking its aces and another its tens: every
    copy of the loops and the numpy path agree, and they agree with the plain enumerator."""
    shoes = drawn_shoes(37, 1, 24, False, 7)
    shoes[3, 0] = 0
    shoes[30, 9] = 0
    results = each_setting(monkeypatch, lambda: batch_expectations(shoes, RANK_BETS, outcomes=True))
    numerators = {name: (result.numerators.tolist(), result.outcomes.tolist()) for name, result in results.items()}
    assert all(value == numerators["numpy"] for value in numerators.values())
    many = results[SETTINGS[0]]
    for shoe in (3, 30, 36):
        assert [many.expected_value(shoe, bet.name) for bet in RANK_BETS] == plain_expectations(shoes[shoe], RANK_BETS)


NAIVE_EIGHT_DECKS = {"banker": 2292252566437888, "player": 2230518282592256, "tie": 475627426473216}
"""Ordered 6-card sequences of a full 8-deck shoe each outcome wins, by benchmarks/naive_enumerator.c."""


def test_eight_decks_by_each_copy(monkeypatch):
    """Depleted 8-deck shoes (the counting studies' case) and full 8-deck shoes (the largest counts
    of the float64 mode): every copy agrees with the numpy path, and on the full shoe with the
    naive C enumerator's counts."""
    shoes = np.vstack([drawn_shoes(40, 8, 200, False, 8), np.full((9, 13), 32)])
    results = each_setting(monkeypatch, lambda: batch_expectations(shoes, RANK_BETS, outcomes=True))
    assert len({str((result.numerators.tolist(), result.outcomes.tolist())) for result in results.values()}) == 1
    many = results[SETTINGS[0]]
    total = sum(NAIVE_EIGHT_DECKS.values())
    assert total == prod(range(411, 417))
    for outcome, count in NAIVE_EIGHT_DECKS.items():
        assert many.outcome_probability(48, outcome) == Fraction(count, total)
    assert many.expected_value(45, "banker") == Fraction(19 * NAIVE_EIGHT_DECKS["banker"] - 20 * NAIVE_EIGHT_DECKS["player"], 20 * total)


def test_suited_shoes_by_each_copy_and_the_enumerator(monkeypatch):
    """Per-card shoes of 18 cards (and nine more, a block), bets on suits and colours of the first
    cards and of the coup: every copy and the numpy path agree with the plain enumerator."""
    bets = list(load_bets(SUITED_BETS, "test").values()) + [CATALOG["perfect_pair"], CATALOG["lucky_nines"], CATALOG["banker"]]
    shoes = np.zeros((10, 52), dtype=np.int64)
    rng = np.random.default_rng(9)
    for row in shoes:
        row[rng.choice(52, 18, replace=False)] = 1
    results = each_setting(monkeypatch, lambda: batch_expectations(shoes, bets))
    assert all(result.numerators.tolist() == results["numpy"].numerators.tolist() for result in results.values())
    many = results[SETTINGS[0]]
    for shoe in (0, 9):
        assert [many.expected_value(shoe, bet.name) for bet in bets] == plain_expectations(shoes[shoe], bets)


def test_counted_bets_by_each_copy_and_the_enumerator(monkeypatch):
    """Super Tie counts the colours of all six cards: on 12-card shoes (nine of them, a block) every
    copy and the numpy path agree with the plain enumerator."""
    bet = CATALOG["super_tie"]
    shoes = np.zeros((9, 52), dtype=np.int64)
    rng = np.random.default_rng(10)
    for row in shoes:
        row[rng.choice(52, 12, replace=False)] = 1
    results = each_setting(monkeypatch, lambda: batch_expectations(shoes, [bet]))
    assert all(result.numerators.tolist() == results["numpy"].numerators.tolist() for result in results.values())
    assert [results[SETTINGS[0]].expected_value(0, bet.name)] == plain_expectations(shoes[0], [bet])


@pytest.mark.parametrize("name", ["super_tie", "lucky_nines"])
def test_merged_classes_weigh_as_the_table_does(monkeypatch, name):
    """The event basis merges the classes of a point value where the events do not tell them apart
    (Super Tie's colours outside its six-card ties, Lucky Nines' suits of other cards than nines):
    far fewer entries, and on depleted 8-deck per-card shoes the same counts as the table's own."""
    bet = CATALOG[name]
    table = coup_table(resolve(PUNTO_BANCO), tracked_key(bet.card_slots)) if bet.needs_coup else card_table(tracked_key(bet.card_slots))
    merged = events.event_basis(table, (bet,)).entries
    monkeypatch.setattr(events, "coarsened", lambda table, entries: entries)
    whole = events.event_basis(table, (bet,)).entries
    assert len(merged.multiset) * 10 < len(whole.multiset)
    shoes = drawn_shoes(9, 8, 150, True, 13)
    known = factor_counts(table.partition.class_counts(shoes), table.partition, bool(table.refined))
    bound = table.bound(416)
    counts = each_setting(monkeypatch, lambda: weigh_counts(merged, known, table.factor_layout, bound))
    monkeypatch.setenv("EXACT_ODDS_KERNEL", "numpy")
    assert all(result == weigh_counts(whole, known, table.factor_layout, bound).tolist() for result in counts.values())


@pytest.mark.parametrize("suited", [False, True])
@pytest.mark.parametrize("bet", ["banker", "either_pair", "super_tie", "lucky_nines"])
def test_the_batch_reads_the_factors_the_table_lays_out(bet, suited):
    """The counts the batch hands the kernel (projected from the shoes' rows), read through the
    table's layout, are the table's own factor vectors of the shoes' class counts, on rank or
    per-card shoes, up to counts just below the batch's limit."""
    chosen = CATALOG[bet]
    if chosen.needs_suits and not suited:
        pytest.skip("bets on suits need per-card shoes")
    slots = tracked_key(chosen.card_slots)
    table = coup_table(resolve(PUNTO_BANCO), slots) if chosen.needs_coup else card_table(slots)
    shoes = np.concatenate([drawn_shoes(5, 8, 100, suited, 11), np.full((1, 52 if suited else 13), MAX_COUNT - 1)])
    rows = np.concatenate([shoes, np.ones((len(shoes), 1), dtype=np.int64)], axis=1).astype(np.float64)
    classes = table.partition.class_counts(shoes)
    source, offset = table.factor_layout
    known = projected(rows, _projection(table.partition, shoes.shape[1], bool(table.refined)))
    assert (known[:, source] - offset).tolist() == table.factor_vectors(classes).tolist()
    assert known.tolist() == factor_counts(classes, table.partition, bool(table.refined)).tolist()


@compiled_only
def test_the_variant_in_use_is_named_and_a_setting_that_cannot_take_effect_is_refused(monkeypatch):
    shoes = drawn_shoes(9, 8, 100, False, 12)
    for name in RUNS:
        monkeypatch.setenv("EXACT_ODDS_KERNEL", name)
        assert str(kernel.kernel_info()) == f"compiled kernel ({name})"
    monkeypatch.setenv("EXACT_ODDS_KERNEL", "avx1024")
    with pytest.raises(InputError, match="^EXACT_ODDS_KERNEL='avx1024': expected numpy, avx512, avx2, generic or nothing$"):
        batch_expectations(shoes, [CATALOG["banker"]])
    for name in set(kernel.VARIANTS) - set(RUNS):
        monkeypatch.setenv("EXACT_ODDS_KERNEL", name)
        with pytest.raises(InputError, match=f"^EXACT_ODDS_KERNEL={name}: this CPU runs only the "):
            batch_expectations(shoes, [CATALOG["banker"]])
    monkeypatch.delenv("EXACT_ODDS_KERNEL")
    assert kernel.kernel_info().instruction_set == RUNS[0] == kernel._kernel.instruction_set()
    assert os.environ.get("EXACT_ODDS_KERNEL") is None


def test_the_largest_event_is_weighed_as_the_total(monkeypatch):
    """The batch weighs the event of most entries as every sequence of six cards less the others
    (one entry instead of thousands): the same numerators as without that, on every copy and the
    numpy path, and the plain enumerator's expectations on a shoe that lacks its tens."""
    from exact_odds.engine import batch

    bets = [bet for bet in RANK_BETS if bet.needs_coup]
    table = coup_table(resolve(PUNTO_BANCO))
    basis = events.cached_basis(table, tuple(bets))
    entries = basis.entries
    largest = int(np.bincount(entries.target).argmax())
    reduced, shifted = batch.folded(table, entries, Pays(np.eye(entries.targets, dtype=np.int64)))
    assert len(reduced.target) == len(entries.target) - int((entries.target == largest).sum()) + 1
    assert shifted.dense[largest].tolist() == [int(target == largest) for target in range(entries.targets)]
    shoes = drawn_shoes(33, 1, 20, False, 11)
    shoes[5, 9] = 0
    results = each_setting(monkeypatch, lambda: batch_expectations(shoes, bets).numerators)
    many = batch_expectations(shoes, bets)
    assert [many.expected_value(5, bet.name) for bet in bets] == plain_expectations(shoes[5], bets)
    monkeypatch.setattr(batch, "folded", lambda table, entries, pays: (entries, pays))
    basis.kept.pop("folded")
    try:
        assert all(result == batch_expectations(shoes, bets).numerators.tolist() for result in results.values())
    finally:
        basis.kept.pop("folded", None)


def test_outcome_columns_as_many_as_the_bets(monkeypatch):
    """One coup bet and three on the first cards with the outcomes asked for: the coup table's pays
    then have as many columns as there are bets, and each bet still gets its own expectation."""
    bets = [CATALOG[name] for name in ("banker", "player_pair", "banker_pair", "either_pair")]
    shoes = drawn_shoes(9, 1, 22, False, 12)
    many = batch_expectations(shoes, bets, outcomes=True)
    assert [many.expected_value(2, bet.name) for bet in bets] == plain_expectations(shoes[2], bets)


def test_pays_too_large_to_fold_are_weighed_as_they_are():
    """A pay of 2^32 on a one-deck shoe leaves the sums in int64 but not with room for the folded
    event's doubled pays: the batch weighs the events as they are, exactly."""
    bets = list(load_bets('[[bet]]\nname = "huge_tie"\npays = [{ when = "winner == tie", pays = "4294967296" }]\n', "test").values())
    shoes = drawn_shoes(10, 1, 24, False, 13)
    many = batch_expectations(shoes, bets)
    assert "folded" not in events.cached_basis(coup_table(resolve(PUNTO_BANCO)), tuple(bets)).kept
    assert [many.expected_value(4, "huge_tie")] == plain_expectations(shoes[4], bets)
