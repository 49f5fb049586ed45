"""The plain table kept on disk: read back identical, ignored when damaged or forged, never required."""

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from exact_odds.engine import store as cache

from exact_odds.engine import coup_table
from exact_odds.core.policy import Policy, pure_policies, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.engine.tables import table_arrays

DECISIONS = resolve(PUNTO_BANCO)


FRESH = coup_table.build_coup_table.__wrapped__  # held before any test counts the builder's calls


def fresh():
    return FRESH(DECISIONS, (), None)


def kept(monkeypatch, built=None):
    """The plain table through the store, in a fresh process's state; ``built`` counts the builds."""
    cache._coup_table.cache_clear()
    if built is not None:
        monkeypatch.setattr(coup_table, "build_coup_table", lambda *arguments: built.append(1) or fresh())
    return cache.coup_table(DECISIONS)


def assert_same(left, right):
    for name, array in table_arrays(left).items():
        assert np.array_equal(array, table_arrays(right)[name]), name
    assert np.array_equal(left.factors, right.factors)
    for name in left.columns:
        assert np.array_equal(left.columns[name], right.columns[name]), name
    assert left.columns.levels == right.columns.levels


def the_file(folder):
    (path,) = folder.glob(f"coup-*{cache.SUFFIX}")
    return path


def test_a_kept_table_reads_back_identical(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    built = []
    first = kept(monkeypatch, built)
    read = kept(monkeypatch, built)
    assert built == [1]
    assert_same(read, fresh())
    assert_same(first, fresh())
    assert the_file(tmp_path).name == cache.key("coup", (cache.decisions_key(DECISIONS), (), None, None))


def test_rules_and_policies_have_their_own_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    decisions = [resolve(PUNTO_BANCO), resolve(PUNTO_BANCO.with_pays(None, Fraction(9)))]
    decisions += [resolve(BACCARAT_GOLD, policy) for policy in pure_policies(BACCARAT_GOLD)]
    decisions.append(resolve(BACCARAT_GOLD, Policy.parse("player_on_5=1/2")))
    assert len({cache.key("coup", cache.decisions_key(each)) for each in decisions}) == len(decisions) == 5


def forge(path, change):
    arrays = {name: array.copy() for name, array in cache._decode(path.read_bytes())[0].items()}
    change(arrays)
    path.write_bytes(cache._encode(arrays))


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "garbled header", "longer", "wrong weights, digest redone", "wrong row, digest redone",
                                    "float weights, digest redone", "a column dropped, digest redone"])
def test_a_damaged_or_forged_table_is_ignored_and_rebuilt(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    kept(monkeypatch, [])
    path = the_file(tmp_path)
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    elif damage == "flipped byte":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    elif damage == "garbled header":
        path.write_bytes(path.read_bytes().replace(b"entry_row <i2", b"entry_row |O", 1))
    elif damage == "longer":
        path.write_bytes(path.read_bytes() + b"\0")
    elif damage == "wrong weights, digest redone":
        forge(path, lambda arrays: arrays["entry_weight"].__setitem__(0, arrays["entry_weight"][0] + 1))
    elif damage == "wrong row, digest redone":
        forge(path, lambda arrays: arrays["entry_row"].__setitem__(0, len(arrays["column:winner"]) + 5))
    elif damage == "float weights, digest redone":
        forge(path, lambda arrays: arrays.__setitem__("entry_weight", arrays["entry_weight"].astype(np.float64)))
    else:
        forge(path, lambda arrays: arrays.__setitem__("column:winner", arrays["column:winner"][:-1]))
    built = []
    read = kept(monkeypatch, built)
    assert built == [1]
    assert_same(read, fresh())


def test_off_keeps_nothing_and_an_unwritable_folder_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home cache"))
    assert cache.folder() is None
    assert_same(kept(monkeypatch), fresh())
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(blocked / "tables"))
    assert_same(kept(monkeypatch), fresh())
    assert list(tmp_path.iterdir()) == [blocked]


def test_at_most_a_few_tables_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_ODDS_CACHE", str(tmp_path))
    for index in range(cache.KEPT + 3):
        (tmp_path / f"coup-old{index:02d}{cache.SUFFIX}").write_bytes(b"")
        os.utime(tmp_path / f"coup-old{index:02d}{cache.SUFFIX}", (index, index))
    kept(monkeypatch)
    names = sorted(path.name for path in tmp_path.iterdir())
    assert len(names) == cache.KEPT and the_file_name() in names
    assert f"coup-old00{cache.SUFFIX}" not in names and not [name for name in names if name.startswith(".")]


def the_file_name():
    return cache.key("coup", (cache.decisions_key(DECISIONS), (), None, None))


def test_the_command_prints_the_same_from_a_kept_table(tmp_path):
    environment = {**os.environ, "EXACT_ODDS_CACHE": str(tmp_path)}
    command = [sys.executable, "-m", "exact_odds", "--decks", "6"]
    first = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    assert list(tmp_path.glob(f"coup-*{cache.SUFFIX}"))
    second = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    without = subprocess.run(command, env={**environment, "EXACT_ODDS_CACHE": "off"}, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout == without.stdout
