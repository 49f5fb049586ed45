"""Every kind of compiled table kept on disk: read back it counts exactly what a fresh build does;
damaged, forged or built by other source it is rebuilt, never served; off keeps nothing, an
unwritable folder is no error, and the folder stays within its bounds."""

import numpy as np
import pytest

from exact_odds.bets.bets import bet_from_record, catalog
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.engine import counted, coup_table, events, patterns, store
from exact_odds.engine.kernel import weigh
from exact_odds.engine.tables import table_arrays, tracked_key

DECISIONS = resolve(PUNTO_BANCO)
CATALOG = catalog()
KINGS = bet_from_record({"name": "kings", "pays": [{"when": "count(card_rank == K) >= 2 and winner == banker", "pays": "4"},
                                                   {"when": "player_count(card_rank == K) == 2", "pays": "3"}]}, "test")
COUNTED = tracked_key(KINGS.card_slots)
LUCKY = (CATALOG["lucky_nines"],)
LUCKY_KEY = tracked_key(LUCKY[0].card_slots)
PAIRS = (CATALOG["perfect_pair"],)
PAIRS_KEY = tracked_key(PAIRS[0].card_slots)
SHOE = Shoe.decks(2).remove("Kh Ks 9d 9d 3c 5h")


FRESH_CARDS = coup_table.card_table.__wrapped__
FRESH_COUNTED = counted.counted_table  # the expected tables, built by the builders before any test counts their calls


def alike(columns):
    return np.stack([KINGS.settle(columns), columns["winner"]], axis=1)


KINDS = {
    "counted by row": (lambda: store.coup_table(DECISIONS, COUNTED), lambda: FRESH_COUNTED(DECISIONS, COUNTED), (coup_table, "build_coup_table")),
    "counted by event": (lambda: store.coup_table(DECISIONS, COUNTED, None, (KINGS,)), lambda: FRESH_COUNTED(DECISIONS, COUNTED, alike),
                         (counted, "counted_table")),
    "first cards": (lambda: store.card_table(LUCKY_KEY, patterns.card_partition(LUCKY_KEY, LUCKY)),
                    lambda: FRESH_CARDS(LUCKY_KEY, patterns.card_partition(LUCKY_KEY, LUCKY)), (coup_table, "card_table")),
}


MEMORY = (store._coup_table, store.card_table, coup_table.card_table, coup_table.build_coup_table, patterns.pattern_form)


def forget():
    """A new process's state: nothing built in memory."""
    for cached in MEMORY:
        cached.cache_clear()


def counting(monkeypatch, kind):
    """The kind's builder, counting its calls."""
    module, name = KINDS[kind][2]
    built, original = [], getattr(module, name)
    monkeypatch.setattr(module, name, lambda *arguments, **keywords: built.append(1) or original(*arguments, **keywords))
    return built


def read(kind):
    forget()
    return KINDS[kind][0]()


def assert_same(left, right):
    left_arrays, right_arrays = table_arrays(left), table_arrays(right)
    assert left_arrays.keys() == right_arrays.keys()
    for name, array in left_arrays.items():
        assert np.array_equal(array, right_arrays[name]), name
    assert np.array_equal(left.factors, right.factors)
    assert left.columns.levels == right.columns.levels
    assert left.distribution(SHOE).counts.tolist() == right.distribution(SHOE).counts.tolist()


def the_file(folder, kind):
    prefix = "cards" if kind == "first cards" else "coup"
    (path,) = folder.glob(f"{prefix}-*{store.SUFFIX}")
    return path


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    yield tmp_path
    forget()


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_read_back_counts_exactly_what_a_fresh_build_does(folder, monkeypatch, kind):
    built = counting(monkeypatch, kind)
    first = read(kind)
    again = read(kind)
    assert built == [1]
    assert_same(again, KINDS[kind][1]())
    assert_same(first, again)


def flip(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def wrong_digest(path):
    data = path.read_bytes()
    at = data.index(b"digest ") + len(b"digest ")
    path.write_bytes(data[:at] + (b"0" if data[at : at + 1] != b"0" else b"1") + data[at + 1 :])


def forged(path):
    arrays = {name: array.copy() for name, array in store._decode(path.read_bytes())[0].items()}
    arrays["entry_weight"][-1] += 1
    path.write_bytes(store._encode(arrays))


DAMAGE = {
    "corrupted": flip,
    "truncated": lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) * 2 // 3]),
    "wrong digest": wrong_digest,
    "forged weights, digest redone": forged,
    "emptied": lambda path: path.write_bytes(b""),
}


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_table_is_rebuilt_never_served(folder, monkeypatch, kind, damage):
    read(kind)
    DAMAGE[damage](the_file(folder, kind))
    built = counting(monkeypatch, kind)
    table = read(kind)
    assert built == [1]
    assert_same(table, KINDS[kind][1]())
    store._decode(the_file(folder, kind).read_bytes())  # written again, whole


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_built_by_other_source_is_rebuilt(folder, monkeypatch, kind):
    read(kind)
    monkeypatch.setattr(store, "source_digest", lambda: b"the builders edited")
    built = counting(monkeypatch, kind)
    assert_same(read(kind), KINDS[kind][1]())
    assert built == [1]


def test_the_source_digest_reads_every_builder(tmp_path, monkeypatch):
    builder = tmp_path / "builder.py"
    builder.write_text("TABLE = 1\n")
    monkeypatch.setattr(store, "BUILDERS", store.BUILDERS + (str(builder),))
    store.source_digest.cache_clear()
    before = store.source_digest()
    builder.write_text("TABLE = 2\n")
    store.source_digest.cache_clear()
    assert store.source_digest() != before
    monkeypatch.undo()
    store.source_digest.cache_clear()


def test_patterns_are_kept_and_forged_ones_refused(folder, monkeypatch):
    calls = []
    original = patterns._settled_patterns
    monkeypatch.setattr(patterns, "_settled_patterns", lambda *arguments: calls.append(1) or original(*arguments))
    forget()
    first = patterns.pattern_form(PAIRS_KEY, PAIRS)
    forget()
    assert patterns.pattern_form(PAIRS_KEY, PAIRS).patterns == first.patterns and calls == [1]
    (path,) = folder.glob(f"patterns-*{store.SUFFIX}")
    arrays = {name: array.copy() for name, array in store._decode(path.read_bytes())[0].items()}
    arrays["patterns"][0] = [0, 2, 2, 2]  # no pattern numbers its blocks so
    path.write_bytes(store._encode(arrays))
    forget()
    assert patterns.pattern_form(PAIRS_KEY, PAIRS).patterns == first.patterns and calls == [1, 1]


MIXED = (bet_from_record({"name": "mixed", "pays": [{"when": "player_card2_value != banker_card1_value", "pays": "2"},
                                                   {"when": "banker_card2_rank == banker_card1_rank", "pays": "0.54"}]}, "test"),)
MIXED_KEY = tracked_key(MIXED[0].card_slots)


def test_no_pattern_form_is_kept_as_none_and_a_forged_one_refused(folder, monkeypatch):
    """Bets with no pattern form (issue 29: keeping "none" crashed) are found to have none once;
    a file that says the form applies with no patterns, or with patterns of other slots, is rebuilt."""
    calls = []
    original = patterns._settled_patterns
    monkeypatch.setattr(patterns, "_settled_patterns", lambda *arguments: calls.append(1) or original(*arguments))
    forget()
    assert patterns.pattern_form(MIXED_KEY, MIXED) is None
    forget()
    assert patterns.pattern_form(MIXED_KEY, MIXED) is None and calls == [1]
    (path,) = folder.glob(f"patterns-*{store.SUFFIX}")
    assert store._decode(path.read_bytes())[0]["patterns"].shape == (0, len(MIXED_KEY))
    for forged in ({"applies": np.array([1]), "patterns": np.zeros((0, len(MIXED_KEY)), dtype=np.int8)},
                   {"applies": np.array([1]), "patterns": np.zeros((1, len(MIXED_KEY) + 1), dtype=np.int8)}):
        path.write_bytes(store._encode(forged))
        forget()
        assert patterns.pattern_form(MIXED_KEY, MIXED) is None
    assert calls == [1, 1, 1]


@pytest.mark.parametrize("kind", KINDS)
def test_off_keeps_nothing_and_an_unwritable_folder_is_no_error(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("EXACT_ODDS_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert_same(read(kind), KINDS[kind][1]())
    assert list(tmp_path.iterdir()) == []
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(blocked / "tables"))
    assert_same(read(kind), KINDS[kind][1]())
    assert list(tmp_path.iterdir()) == [blocked]
    forget()


def test_the_folder_keeps_the_newest_within_its_byte_budget(folder, monkeypatch):
    read("first cards")
    (kept_first,) = folder.glob(f"cards-*{store.SUFFIX}")
    monkeypatch.setattr(store, "KEPT_BYTES", kept_first.stat().st_size + 1)
    read("counted by event")
    names = [path.name for path in folder.iterdir()]
    assert len(names) == 1 and names[0].startswith("coup-")  # the newest stays even beyond the budget; the older went


def test_a_shoe_that_runs_out_of_a_card_keeps_its_counted_table(monkeypatch):
    """A counted table is the same for every shoe: a shoe that holds no more 5D (a live session near
    the end of a shoe) settles Super Tie from the table in memory, with no read, no build and the
    same event basis; its answer is the one a fresh process gives."""
    from exact_odds import analyze

    full = Shoe.parse(",".join(f"{rank}{suit}=2" for rank in "A23456789TJQK" for suit in "SHDC"))
    depleted = full.remove("5d 5d")
    forget()
    fresh = analyze(depleted, "super_tie")["super_tie"]
    forget()
    analyze(full, "super_tie")
    monkeypatch.setattr(store, "kept", lambda *arguments: pytest.fail("a counted table was looked up again for a shoe short of a card"))
    assert analyze(depleted, "super_tie")["super_tie"].rows == fresh.rows


BASIS_BETS = {
    "the coup's": (lambda: store.coup_table(DECISIONS), tuple(bet for bet in CATALOG.values() if bet.needs_coup and not bet.needs_suits)),
    "counted": (lambda: store.coup_table(DECISIONS, COUNTED, None, (KINGS,)), (KINGS,)),
}


def basis_of(kind):
    """The kind's event basis as a new process finds it (nothing in memory), and its table."""
    forget()
    make, bets = BASIS_BETS[kind]
    table = make()
    return events.cached_basis(table, bets, winner=True), table


def assert_same_basis(left, right, table):
    assert np.array_equal(left.lines, right.lines) and np.array_equal(left.row_event, right.row_event)
    assert np.array_equal(left.representatives, right.representatives)
    for name in ("factors", "multiset", "target", "weight"):
        assert np.array_equal(getattr(left.entries, name), getattr(right.entries, name)), name
    vectors = table.factor_vectors(np.random.default_rng(3).integers(0, 30, size=(4, table.partition.classes if table.refined else 10)))
    assert weigh(left.entries, vectors, table.bound(2000)).tolist() == weigh(right.entries, vectors, table.bound(2000)).tolist()


def forged_basis(name, change):
    def damage(path):
        arrays = {key: array.copy() for key, array in store._decode(path.read_bytes())[0].items()}
        change(arrays[name])
        path.write_bytes(store._encode(arrays))
    return damage


def raise_last(array):
    array[-1] += 1


BASIS_DAMAGE = {
    "corrupted": flip,
    "truncated": DAMAGE["truncated"],
    "forged weights, digest redone": forged_basis("weight", raise_last),
    "forged lines, digest redone": forged_basis("lines", lambda lines: lines.__setitem__((0, 0), lines[0, 0] + 1)),
    "forged events, digest redone": forged_basis("target", lambda target: target.__setitem__(0, (target[0] + 1) % (target.max() + 1))),
}


@pytest.mark.parametrize("damage", [None, *BASIS_DAMAGE])
@pytest.mark.parametrize("kind", BASIS_BETS)
def test_an_event_basis_is_kept_beside_its_table_and_a_damaged_one_rebuilt(folder, monkeypatch, kind, damage):
    """The event basis of a table and bets is kept on disk: a new process reads it back, the same
    as the one built; damaged, forged (its digest redone) or built by other source, it is rebuilt."""
    built, original = [], events.event_basis
    monkeypatch.setattr(events, "event_basis", lambda *arguments, **keywords: built.append(1) or original(*arguments, **keywords))
    first, table = basis_of(kind)
    (path,) = folder.glob(f"basis-*{store.SUFFIX}")
    if damage is not None:
        BASIS_DAMAGE[damage](path)
    again, table = basis_of(kind)
    assert built == [1] if damage is None else built == [1, 1]
    assert_same_basis(first, again, table)
    fresh = original(table, BASIS_BETS[kind][1], True)
    assert_same_basis(fresh, again, table)
    monkeypatch.setattr(store, "source_digest", lambda: b"the builders edited")
    basis_of(kind)
    assert len(built) == (2 if damage is None else 3)
