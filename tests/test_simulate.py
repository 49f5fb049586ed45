"""Shoe simulation: reproducible for any number of workers (and on a dask cluster), honest statistics."""

import json
from fractions import Fraction

import numpy as np
import pytest

from exact_odds import simulate
from exact_odds.cli import main
from exact_odds.policy import resolve
from exact_odds.rules import PUNTO_BANCO
from exact_odds.shoe import Shoe
from exact_odds.simulate import (
    Settings,
    deal_shoe,
    parse_tags,
    play_values,
    run,
    summary,
)

PUNTO = resolve(PUNTO_BANCO)
HI_LO = "2=1,3=1,4=1,5=1,6=1,T=-1,J=-1,Q=-1,K=-1,A=-1"
ARGS = ["simulate", "--decks", "8", "--shoes", "60", "--seed", "11", "--burn", "--count", HI_LO,
        "--bets", "banker,player,tie,dragon_7,player_pair", "--format", "json"]


def run_cli(capsys, *args):
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def test_same_seed_same_bytes_with_one_and_two_workers(capsys):
    code_one, one, _ = run_cli(capsys, *ARGS, "--workers", "1")
    code_two, two, _ = run_cli(capsys, *ARGS, "--workers", "2")
    assert code_one == code_two == 0
    assert one == two
    assert json.loads(one)["shoes_completed"] == 60


def test_suited_bets_are_dealt_from_real_cards(capsys):
    """Perfect pairs need suits: the shoe is dealt card by card, and the result is the same
    whatever the number of workers."""
    args = ["simulate", "--decks", "2", "--shoes", "30", "--seed", "3", "--bets", "perfect_pair,player_pair", "--format", "json"]
    code_one, one, _ = run_cli(capsys, *args, "--workers", "1")
    code_two, two, _ = run_cli(capsys, *args, "--workers", "2")
    assert code_one == code_two == 0 and one == two
    assert json.loads(one)["bets"]["perfect_pair"]["positive_share"] > 0


def test_same_bytes_through_a_dask_cluster(capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        code, clustered, _ = run_cli(capsys, *ARGS, "--scheduler", cluster.scheduler_address)
    _, local, _ = run_cli(capsys, *ARGS, "--workers", "1")
    assert code == 0 and clustered == local


def test_simulated_frequencies_agree_with_exact_probabilities():
    """Fixed seed; each outcome's frequency is within 4 standard errors of the mean exact probability."""
    settings = Settings(Shoe.decks(8), 150, 2026, Fraction(7, 8), True, None, ("banker",), PUNTO)
    record = summary(run(settings))
    for name, entry in record["outcomes"].items():
        assert abs(entry["z"]) < 4, (name, entry)
    assert record["coups"] > 10000


def test_cut_card_ends_the_shoe_one_coup_later():
    settings = Settings(Shoe.decks(1), 1, 5, Fraction(3, 4), False, None, ("banker",), PUNTO)
    compositions, winners, _ = deal_shoe(settings, 0)
    seen = 52 - compositions.sum(axis=1)
    starts = seen.tolist()
    rng = np.random.default_rng([5, 0])
    cards = np.repeat(np.arange(13), 4)
    rng.shuffle(cards)
    values = [(rank + 1) % 10 if rank < 9 else 0 for rank in cards.tolist()]
    cut = 39
    appeared = [index for index, start in enumerate(starts) if start <= cut < start + play_values(PUNTO, values, start, rng)[0]]
    assert appeared == [len(starts) - 2]
    assert [play_values(PUNTO, values, start, rng)[1] for start in starts] == winners.tolist()


def test_interrupt_keeps_the_completed_shoes(monkeypatch):
    real = simulate.run_chunk
    calls = []

    def interrupted(settings, first, last):
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(settings, first, last)

    monkeypatch.setattr(simulate, "run_chunk", interrupted)
    settings = Settings(Shoe.decks(8), 4 * simulate.CHUNK_SHOES, 1, Fraction(7, 8), False, None, ("banker",), PUNTO)
    result = run(settings, workers=1)
    assert result.interrupted and sum(chunk.shoes for chunk in result.results) == 2 * simulate.CHUNK_SHOES
    assert summary(result)["interrupted"] is True


def test_tags():
    assert parse_tags(HI_LO) == (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1)
    assert parse_tags(",".join(["0"] * 13)) == (0,) * 13


@pytest.mark.parametrize("args,message", [
    (["--penetration", "1.2"], "strictly between 0 and 1"),
    (["--penetration", "0"], "strictly between 0 and 1"),
    (["--penetration", "abc"], "--penetration must be an exact number"),
    (["--count", "hi-lo"], "unknown count tags"),
    (["--count", "1,2,3"], "unknown count tags"),
    (["--scheduler", "tcp://127.0.0.1:9"], "cannot reach the dask scheduler"),
    (["--shoe", "A=32,K=32", "--bets", "perfect_pair"], "per-card counts"),
])
def test_bad_input(capsys, args, message):
    code, _, err = run_cli(capsys, "simulate", "--shoes", "2", *args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err


def test_plots_are_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "ev.png"
    code, _, _ = run_cli(capsys, "simulate", "--shoes", "3", "--workers", "1", "--count", HI_LO, "--plot", str(path))
    assert code == 0 and path.read_bytes().startswith(b"\x89PNG")
    path = tmp_path / "eor.png"
    code, _, _ = run_cli(capsys, "eor", "--bets", "banker,dragon_7", "--plot", str(path))
    assert code == 0 and path.read_bytes().startswith(b"\x89PNG")


def test_plot_without_matplotlib_is_one_line(without_matplotlib, capsys):
    code, _, err = run_cli(capsys, "simulate", "--shoes", "2", "--plot", "x.png")
    assert code == 2 and "pip install 'exact_odds[plot]'" in err and len(err.strip().splitlines()) == 1


def test_burned_cards_leave_the_shoe_but_not_the_count():
    settings = Settings(Shoe.decks(8), 1, 9, Fraction(7, 8), True, (1,) * 13, ("banker",), PUNTO)
    compositions, _, true_counts = deal_shoe(settings, 0)
    rng = np.random.default_rng([9, 0])
    cards = np.repeat(np.arange(13), 32)
    rng.shuffle(cards)
    burned = (cards[0] + 1) % 10 if cards[0] < 9 else 10
    assert compositions[0].sum() == 416 - 1 - burned
    # Only the turned card is seen before the first coup: a count of 1 over 415 unseen cards.
    assert true_counts[0] == 1 / (415 / 52)
