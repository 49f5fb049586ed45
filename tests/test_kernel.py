"""The compiled kernel against the numpy fallback and plain Python integers, in every exact mode
(float64, int64, int128, Python integers), on weighings drawn at random and on real shoes; and the
simulation byte for byte with and without the kernel."""

import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.engine import kernel
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.engine.batch import batch_expectations
from exact_odds.bets.bets import catalog
from exact_odds.cli.commands import main
from exact_odds.engine.compiled import FastEngine
from exact_odds.engine.distribution import FLOAT_EXACT
from exact_odds.engine.kernel import INT64_BOUND, INT128_BOUND, Entries, weigh
from exact_odds.core.shoe import Shoe
from oracles import by_python

CATALOG = catalog()
RANK_BETS = [bet for bet in CATALOG.values() if not bet.needs_suits]
compiled_only = pytest.mark.skipif(kernel._kernel is None, reason="the C extension was not built (no compiler at install time)")


@contextmanager
def numpy_path():
    """The fallback path for the duration (hypothesis tests cannot take monkeypatch)."""
    previous = os.environ.get("EXACT_ODDS_KERNEL")
    os.environ["EXACT_ODDS_KERNEL"] = "numpy"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["EXACT_ODDS_KERNEL"]
        else:
            os.environ["EXACT_ODDS_KERNEL"] = previous



def test_the_kernel_is_built_where_a_compiler_is():
    """The tests import exact_odds from the checkout: installed in place (pip install -e), the
    kernel is built there. Without a compiler the numpy path serves, and this test says so."""
    if not any(shutil.which(name) for name in (os.environ.get("CC", "cc"), "gcc", "clang")):
        pytest.skip("no C compiler: the numpy path is used")
    assert kernel._kernel is not None, f"a C compiler is here but {kernel.__file__} has no built kernel beside it: pip install -e '.[test]'"


@st.composite
def weighings(draw, largest: int) -> tuple[Entries, np.ndarray, int]:
    """Random entries and factor vectors whose values stay below ``largest``, with the exact bound."""
    depth, width = draw(st.integers(1, 6)), draw(st.integers(1, 12))
    multisets, targets = draw(st.integers(1, 30)), draw(st.integers(1, 8))
    factors = np.array(draw(st.lists(st.lists(st.integers(0, width - 1), min_size=depth, max_size=depth), min_size=multisets, max_size=multisets)), dtype=np.int64)
    size = draw(st.integers(0, 80))
    entry_multiset = np.array(draw(st.lists(st.integers(0, multisets - 1), min_size=size, max_size=size)), dtype=np.int64)
    entry_target = np.array(draw(st.lists(st.integers(0, targets - 1), min_size=size, max_size=size)), dtype=np.int64)
    entry_weight = np.array(draw(st.lists(st.integers(1, 1000), min_size=size, max_size=size)), dtype=np.int64)
    factor_top = max(1, int(round(largest ** (1 / (depth + 1)) / 4)))
    shoes = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(st.integers(0, factor_top), min_size=width, max_size=width), min_size=shoes, max_size=shoes))
    vectors = np.array(rows, dtype=np.int64 if factor_top < 2**62 else object)
    entries = Entries(factors, entry_multiset, entry_target, entry_weight, targets)
    # every product and every partial sum is at most the sum of |weight| * product over all entries
    bound = max(1, max(sum(row) for row in by_python(entries, vectors)))
    return entries, vectors, bound


@compiled_only
@settings(max_examples=60)
@given(st.sampled_from([FLOAT_EXACT, INT64_BOUND, INT128_BOUND, 2**160]).flatmap(weighings))
def test_kernel_equals_numpy_equals_python(weighing):
    entries, vectors, bound = weighing
    expected = by_python(entries, vectors)
    fast = weigh(entries, vectors, bound)
    with numpy_path():
        fallback = weigh(entries, vectors, bound)
    assert fast.tolist() == fallback.tolist() == expected


@compiled_only
@pytest.mark.parametrize("shoes, targets", [(16, 5), (70, 84), (37, 257), (100, 1200)])
def test_blocks_of_shoes_equal_numpy_and_python(shoes, targets):
    """The blocked loops (64 shoes; 32 in float64 past 256 targets), with a last block cut short."""
    rng = np.random.default_rng(shoes * targets)
    width, depth, multisets, size = 10, 6, 400, 3000
    entries = Entries(rng.integers(0, width, (multisets, depth)), rng.integers(0, multisets, size), rng.integers(0, targets, size),
                      rng.integers(1, 153, size), targets)
    for top, mode_bound in ((20, FLOAT_EXACT), (200, INT64_BOUND)):  # float64 sums, then int64 sums
        vectors = rng.integers(0, top, (shoes, width))
        expected = by_python(entries, vectors)
        bound = max(max(row) for row in expected)
        assert FLOAT_EXACT <= bound < INT64_BOUND if mode_bound == INT64_BOUND else bound < FLOAT_EXACT
        fast = weigh(entries, vectors, bound)
        with numpy_path():
            fallback = weigh(entries, vectors, bound)
        assert fast.tolist() == fallback.tolist() == expected


@compiled_only
@pytest.mark.parametrize("bound, dtype", [(FLOAT_EXACT - 1, np.int64), (INT64_BOUND - 1, np.int64), (INT128_BOUND - 1, object)])
def test_each_mode_at_the_edge_of_its_bound(monkeypatch, bound, dtype):
    """A single product right at the bound of each mode is weighed exactly."""
    root = int(round(bound ** (1 / 3)))
    while root**3 > bound:
        root -= 1
    vectors = np.array([[root] * 3], dtype=np.int64) if root < 2**62 else np.array([[root] * 3], dtype=object)
    entries = Entries(np.array([[0, 1, 2]], dtype=np.int64), np.array([0], dtype=np.int64), np.array([0], dtype=np.int64), np.array([1], dtype=np.int64), 1)
    result = weigh(entries, vectors, bound)
    assert int(result[0, 0]) == root**3
    monkeypatch.setenv("EXACT_ODDS_KERNEL", "numpy")
    assert int(weigh(entries, vectors, bound)[0, 0]) == root**3


compositions = st.one_of(
    st.lists(st.integers(0, 3), min_size=13, max_size=13),  # tiny
    st.lists(st.sampled_from([0, 0, 1, 40]), min_size=13, max_size=13),  # lopsided, ranks missing
    st.integers(1, 50).map(lambda decks: [4 * decks] * 13),  # 1 to 50 decks
    st.integers(60, 400).map(lambda decks: [4 * decks] * 13),  # past the float64 bound, past int64
).filter(lambda counts: sum(counts) >= 6)


@settings(max_examples=15)
@given(compositions)
def test_kernel_numpy_and_enumerator_agree_on_shoes(counts):
    shoe = Shoe(tuple(counts), None, "drawn")
    bets = RANK_BETS if shoe.size < 1000 else [CATALOG["banker"], CATALOG["tie"], CATALOG["dragon_7"], CATALOG["either_pair"]]
    fast = analyze(shoe, bets, engine=FastEngine())
    with numpy_path():
        fallback = analyze(shoe, bets, engine=FastEngine())
    plain = analyze(shoe, bets, engine=PlainEngine())
    assert fast.outcomes == fallback.outcomes == plain.outcomes
    for one, two, three in zip(fast.bets, fallback.bets, plain.bets):
        assert one.rows == two.rows == three.rows, one.bet.name


def test_batch_through_both_paths(monkeypatch):
    """Depleted shoes of 1 to 400 decks in one batch: the kernel's modes and the fallback agree."""
    rng = np.random.default_rng(5)
    decks = np.array([1, 2, 8, 8, 8, 20, 50, 120, 400])
    shoes = np.maximum(0, 4 * decks[:, None] - rng.integers(0, 20, (len(decks), 13)))
    shoes[1] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 1]
    fast = batch_expectations(shoes, RANK_BETS)
    monkeypatch.setenv("EXACT_ODDS_KERNEL", "numpy")
    fallback = batch_expectations(shoes, RANK_BETS)
    assert fast.numerators.tolist() == fallback.numerators.tolist()


def test_simulation_is_byte_identical_without_the_kernel(monkeypatch, capsys):
    args = ["simulate", "--decks", "8", "--shoes", "12", "--seed", "4", "--workers", "1", "--count",
            "2=1,3=1,4=1,5=1,6=1,T=-1,J=-1,Q=-1,K=-1,A=-1", "--format", "json",
            "--bets", "banker,player,tie,dragon_7,panda_8,player_pair,either_pair,perfect_pair,perfect_pair_v2,dragon_bonus_player"]
    outputs = []
    for setting in ("", "numpy"):
        monkeypatch.setenv("EXACT_ODDS_KERNEL", setting)
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        assert exit_info.value.code == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["shoes_completed"] == 12


def test_the_source_folder_without_its_kernel_warns_once(tmp_path):
    """Python started in a clone after a plain `pip install .` imports the folder, which has no built
    kernel: a warning says so (once), and --version names the numpy path."""
    source = Path(kernel.__file__).parent.parent
    shutil.copytree(source, tmp_path / "exact_odds", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copy(source.parent / "pyproject.toml", tmp_path / "pyproject.toml")
    code = "import exact_odds.engine.kernel as k; print(k.kernel_info())"
    environment = {key: value for key, value in os.environ.items() if key != "EXACT_ODDS_KERNEL"}
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, cwd=tmp_path, env=environment)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("RuntimeWarning: exact_odds is imported from") == 1
    assert f"imported from {tmp_path} without its compiled kernel" in done.stderr
    assert done.stdout.startswith("numpy path (the C extension was not built")
    (tmp_path / "pyproject.toml").unlink()  # an install without a compiler (site-packages): --version says so, no warning on every run
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, cwd=tmp_path, env=environment)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("numpy path (the C extension was not built")
