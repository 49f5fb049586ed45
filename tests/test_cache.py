"""The table kept on disk: read back identical, ignored when damaged or forged, never required."""

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from exact_odds.engine import store as cache

from exact_odds.engine import tables
from exact_odds.core.policy import Policy, pure_policies, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.engine.tables import table_arrays

DECISIONS = resolve(PUNTO_BANCO)


def build_fresh():
    tables.build_coup_table.cache_clear()
    return tables.build_coup_table(DECISIONS, (), None)


def assert_same(left, right):
    for name, array in table_arrays(left).items():
        assert np.array_equal(array, table_arrays(right)[name]), name
    assert np.array_equal(left.factors, right.factors)
    for name in left.columns:
        assert np.array_equal(left.columns[name], right.columns[name]), name


def test_a_kept_table_reads_back_identical(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    built = cache.cached_table(DECISIONS, build_fresh)
    (kept,) = tmp_path.glob(f"coup-table-*{cache.SUFFIX}")
    read = cache.cached_table(DECISIONS, lambda: pytest.fail("a sound table was rebuilt"))
    assert_same(read, built)
    assert kept.name == f"coup-table-{cache.key(DECISIONS)}{cache.SUFFIX}"


def test_rules_and_policies_have_their_own_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    decisions = [resolve(PUNTO_BANCO), resolve(PUNTO_BANCO.with_pays(None, Fraction(9)))]
    decisions += [resolve(BACCARAT_GOLD, policy) for policy in pure_policies(BACCARAT_GOLD)]
    decisions.append(resolve(BACCARAT_GOLD, Policy.parse("player_on_5=1/2")))
    assert len({cache.key(each) for each in decisions}) == len(decisions) == 5


def forge(path, change):
    arrays = {name: array.copy() for name, array in cache._decode(path.read_bytes())[0].items()}
    change(arrays)
    path.write_bytes(cache._encode(arrays))


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "garbled header", "longer", "wrong weights, digest redone", "wrong row, digest redone",
                                    "float weights, digest redone"])
def test_a_damaged_or_forged_table_is_ignored_and_rebuilt(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    built = cache.cached_table(DECISIONS, build_fresh)
    (kept,) = tmp_path.glob(f"coup-table-*{cache.SUFFIX}")
    if damage == "truncated":
        kept.write_bytes(kept.read_bytes()[:1000])
    elif damage == "flipped byte":
        data = bytearray(kept.read_bytes())
        data[len(data) // 2] ^= 0xFF
        kept.write_bytes(bytes(data))
    elif damage == "garbled header":
        kept.write_bytes(kept.read_bytes().replace(b"entry_row <i2", b"entry_row |O", 1))
    elif damage == "longer":
        kept.write_bytes(kept.read_bytes() + b"\0")
    elif damage == "wrong weights, digest redone":
        forge(kept, lambda arrays: arrays["entry_weight"].__setitem__(0, arrays["entry_weight"][0] + 1))
    elif damage == "wrong row, digest redone":
        forge(kept, lambda arrays: arrays["entry_row"].__setitem__(0, arrays["keys"].shape[1] + 5))
    else:
        forge(kept, lambda arrays: arrays.__setitem__("entry_weight", arrays["entry_weight"].astype(np.float64)))
    rebuilt = []
    read = cache.cached_table(DECISIONS, lambda: rebuilt.append(1) or build_fresh())
    assert rebuilt == [1]
    assert_same(read, built)


def test_off_keeps_nothing_and_an_unwritable_folder_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", "off")
    assert cache.folder() is None
    cache.cached_table(DECISIONS, build_fresh)
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(blocked / "tables"))
    assert_same(cache.cached_table(DECISIONS, build_fresh), build_fresh())
    assert list(tmp_path.iterdir()) == [blocked]


def test_at_most_a_few_tables_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    for index in range(cache.KEPT + 3):
        (tmp_path / f"coup-table-old{index:02d}{cache.SUFFIX}").write_bytes(b"")
        os.utime(tmp_path / f"coup-table-old{index:02d}{cache.SUFFIX}", (index, index))
    cache.cached_table(DECISIONS, build_fresh)
    kept = sorted(path.name for path in tmp_path.iterdir())
    assert len(kept) == cache.KEPT and f"coup-table-{cache.key(DECISIONS)}{cache.SUFFIX}" in kept
    assert f"coup-table-old00{cache.SUFFIX}" not in kept and not [name for name in kept if name.startswith(".")]


def test_the_command_prints_the_same_from_a_kept_table(tmp_path):
    environment = {**os.environ, "EXACT_ODDS_CACHE": str(tmp_path)}
    command = [sys.executable, "-m", "exact_odds", "--decks", "6"]
    first = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    assert list(tmp_path.glob(f"coup-table-*{cache.SUFFIX}"))
    second = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    without = subprocess.run(command, env={**environment, "EXACT_ODDS_CACHE": "off"}, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout == without.stdout
