"""Shoe simulation: reproducible for any number of workers (and on a dask cluster), honest statistics."""

import json
from fractions import Fraction

import numpy as np
import pytest

from exact_odds.studies import simulate
from exact_odds import analyze
from exact_odds.bets.bets import catalog
from exact_odds.cli.commands import main
from exact_odds.errors import InputError
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.studies.dealer import Settings, deal_shoe, deal_shoes, parse_tags, play_values
from exact_odds.commands.simulate import document
from exact_odds.output.render import render
from exact_odds.studies.simulate import estimates, run, summary

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
    (["--scheduler", "tcp://127.0.0.1:9"], "no dask scheduler answers at tcp://127.0.0.1:9 (no connection within 1 s)"),
    (["--shoe", "A=32,K=32", "--bets", "perfect_pair"], "per-card counts"),
])
def test_bad_input(capsys, monkeypatch, args, message):
    monkeypatch.setattr("exact_odds.studies.parallel.CONNECT_SECONDS", 1)  # nothing listens: no need to wait dask's 5 s
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
    code, _, err = run_cli(capsys, "simulate", "--shoes", "2", "--count", HI_LO, "--plot", "x.png")
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


def shuffled_values(seed, shoe, decks=1):
    """The point values of shoe ``shoe`` as :func:`deal_shoe` shuffles it (rank counts, no suits)."""
    cards = np.repeat(np.arange(13), 4 * decks)
    np.random.default_rng([seed, shoe]).shuffle(cards)
    return [(rank + 1) % 10 if rank < 9 else 0 for rank in cards.tolist()]


@pytest.mark.parametrize("after", [0, 1, 3])
def test_the_cut_card_appears_when_the_cards_pass_it_burned_or_dealt(after):
    """The cut card lies before card 5 (index 5 of 52). A burn that passes it (one card turned and 5 or
    more burned) shows it before the first coup: the shoe deals only the coups after the cut. Otherwise
    it appears in a coup, which is finished, and then ``after`` more are dealt."""
    settings = Settings(Shoe.decks(1), 40, 2, Fraction(5, 52), True, None, ("banker",), PUNTO, coups_after_cut=after)
    cut, burned_past = 5, 0
    for shoe in range(settings.shoes):
        compositions, _, _ = deal_shoe(settings, shoe)
        values = shuffled_values(2, shoe)
        first = 1 + (values[0] or 10)
        starts = (52 - compositions.sum(axis=1)).tolist()
        ends = [start + play_values(PUNTO, values, start, np.random.default_rng())[0] for start in starts]
        assert starts == ([first] + ends)[: len(starts)]  # the first coup after the burn, then one after another
        if first > cut:
            burned_past += 1
            assert len(starts) == after
        else:
            appeared = [index for index, (start, end) in enumerate(zip(starts, ends)) if start <= cut < end]
            assert appeared == [len(starts) - 1 - after]
    assert 0 < burned_past < settings.shoes


@pytest.mark.parametrize("burn", [True, False])
def test_shoes_dealt_together_are_each_shoe_walked_alone(burn):
    """A chunk of shoes dealt at once (different burns, cut card met in different coups) gives, shoe
    after shoe, the coups of a plain walk of that shoe: the first card of each coup from the walk, the
    ranks left before it, the winner, and the hi-lo true count by hand over the cards turned face up."""
    tags = parse_tags(HI_LO)
    settings = Settings(Shoe.decks(1), 12, 4, Fraction(3, 4), burn, tags, ("banker",), PUNTO)
    compositions, winners, true_counts, coups_per_shoe = deal_shoes(settings, 3, 12)
    expected_compositions, expected_winners, expected_counts, expected_coups = [], [], [], []
    for shoe in range(3, 12):
        values = shuffled_values(4, shoe)
        cards = np.repeat(np.arange(13), 4)
        np.random.default_rng([4, shoe]).shuffle(cards)
        start = 1 + (values[0] or 10) if burn else 0
        face_down = set(range(1, start))
        coups, left = 0, 1 if start > 39 else None  # coups still to deal once the cut card (card 39) has appeared
        while start + 6 <= 52 and left != 0:
            used, winner = play_values(PUNTO, values, start, np.random.default_rng())
            expected_compositions.append([4 - int((cards[:start] == rank).sum()) for rank in range(13)])
            expected_winners.append(winner)
            running = sum(tags[cards[index]] for index in range(start) if index not in face_down)
            expected_counts.append(52 * running / (52 - (start - len(face_down))))
            coups += 1
            start += used
            if left is not None:
                left -= 1
            elif start > 39:
                left = 1
        expected_coups.append(coups)
    assert coups_per_shoe.tolist() == expected_coups and len(set(expected_coups)) > 1
    assert compositions.tolist() == expected_compositions
    assert winners.tolist() == expected_winners
    assert true_counts.tolist() == expected_counts


def test_a_cut_card_burned_ends_the_shoe_after_one_coup(run):
    """The cut card before the second card: the burn always passes it (one coup per shoe); without a burn
    it appears in the first coup, and one more is played."""
    args = ("simulate", "--decks", "8", "--shoes", "5", "--penetration", "1/416", "--bets", "banker", "--format", "json", "--workers", "1")
    code, out, _ = run(*args, "--burn")
    assert code == 0 and json.loads(out)["coups"] == 5
    code, out, _ = run(*args, "--no-burn")
    assert code == 0 and json.loads(out)["coups"] == 10


SMALL_SHOE = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,K=4")
"""Sixteen cards: a turned king burns ten and leaves too few for a coup."""


def test_shoes_without_a_coup_count_as_shoes_with_nothing_bet():
    """Per-shoe figures divide by every shoe (those with no coup add zeros); per-coup figures read the
    coups dealt. Checked against the exact expectation of every coup dealt."""
    settings = Settings(SMALL_SHOE, 20, 4, Fraction(7, 8), True, parse_tags(HI_LO), ("banker", "player", "tie"), PUNTO)
    dealt = [deal_shoe(settings, shoe) for shoe in range(settings.shoes)]
    coups = [len(winners) for _, winners, _ in dealt]
    assert coups[0] == 0 and coups.count(0) == 5 and sum(coups) == 22
    simulation = run(settings)
    record = summary(simulation)
    assert record["coups"] == record["quantiles_from_coups"] == 22
    winners = np.concatenate([winners for _, winners, _ in dealt])
    assert simulation.total("outcome_counts").tolist() == np.bincount(winners, minlength=3).tolist()
    true_counts = np.concatenate([counts for _, _, counts in dealt])
    for threshold, entry in record["bets"]["banker"]["by_true_count"].items():
        assert entry["bets_per_shoe"] == round(int((true_counts >= int(threshold)).sum()) / 20, 4)
    for index, name in enumerate(settings.bet_names):
        shoes = [[analyze(Shoe(tuple(int(count) for count in counts), None, "left"), [catalog()[name]], PUNTO).bets[0].expected_value
                  for counts in compositions] for compositions, _, _ in dealt]
        gains = [sum((value for value in values if value > 0), Fraction(0)) for values in shoes]
        made = sum(value > 0 for values in shoes for value in values)
        assert made > 0
        estimate = estimates(simulation, name, None)
        assert estimate["coups_per_shoe"].value == 22 / 20 and estimate["bets_per_shoe"].value == made / 20
        assert estimate["gain_per_shoe"].value == pytest.approx(float(sum(gains) / 20), abs=1e-12)
        assert estimate["gain_per_shoe"].standard_error == pytest.approx(np.std([float(gain) for gain in gains], ddof=1) / np.sqrt(20), rel=1e-9)
        assert record["bets"][name]["positive_share"] == round(made / 22, 6)
        assert record["bets"][name]["perfect_information"]["bets_per_shoe"] == round(made / 20, 4)


def test_quantiles_of_a_sample_without_coups_are_not_given(monkeypatch):
    monkeypatch.setattr(simulate, "SAMPLED_SHOES", 1)  # only shoe 0 is sampled, and it deals no coup
    record = summary(run(Settings(SMALL_SHOE, 20, 4, Fraction(7, 8), True, None, ("banker",), PUNTO)))
    assert record["coups"] == 22 and record["quantiles_from_coups"] == 0 and record["bets"]["banker"]["quantiles"] is None
    assert "n/a" in render(document(record), "text")


NO_COUP = "no shoe dealt a coup"


@pytest.mark.parametrize("shoes", ["1", "150"])
def test_a_run_without_a_coup_is_refused(run, shoes):
    code, out, err = run("simulate", "--shoe", "K=7", "--shoes", shoes, "--burn", "--workers", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and NO_COUP in err


def test_a_report_whose_simulation_deals_no_coup_is_refused(run, tmp_path):
    pytest.importorskip("matplotlib")
    code, out, err = run("report", "--shoe", "K=7", "--bets", "banker", "--shoes", "2", "--out", str(tmp_path / "report"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and NO_COUP in err
    simulation = simulate.run(Settings(Shoe.parse("K=7"), 2, 1, Fraction(7, 8), True, None, ("banker",), PUNTO))
    with pytest.raises(InputError, match=NO_COUP):
        estimates(simulation, "banker", None)


def standard_errors(record):
    """Every per-shoe standard error of a simulate record."""
    entries = [entry for bet in record["bets"].values() for entry in [bet["perfect_information"], *bet["by_true_count"].values()]]
    return [entry["gain_per_shoe_standard_error"] for entry in entries]


def test_one_shoe_has_no_standard_error(run):
    """Over one shoe a standard error is undefined: null in strict JSON (no NaN), a number from two shoes."""
    args = ("simulate", "--count", HI_LO, "--bets", "banker", "--format", "json", "--workers", "1")
    strict = {"parse_constant": lambda constant: pytest.fail(f"{constant} in JSON")}
    code, out, _ = run(*args, "--shoes", "1")
    assert code == 0 and set(standard_errors(json.loads(out, **strict))) == {None}
    code, out, _ = run(*args, "--shoes", "2")
    assert code == 0 and all(isinstance(error, float) for error in standard_errors(json.loads(out, **strict)))


def test_every_figure_has_its_standard_error_from_the_shoes():
    """mean EV is a ratio of sums over shoes (EV summed over a shoe's coups, over its coups): its
    standard error by the delta method on the per-shoe pairs; the bets made per shoe and the share of
    coups bet have theirs too. Checked against the exact expectation of every coup dealt, per shoe."""
    settings = Settings(SMALL_SHOE, 20, 4, Fraction(7, 8), True, parse_tags(HI_LO), ("banker", "tie"), PUNTO)
    record = summary(run(settings))
    dealt = [deal_shoe(settings, shoe) for shoe in range(settings.shoes)]
    coups = np.array([len(winners) for _, winners, _ in dealt], dtype=float)
    for name in settings.bet_names:
        values = [[float(analyze(Shoe(tuple(int(count) for count in counts), None, "left"), [catalog()[name]], PUNTO).bets[0].expected_value)
                   for counts in compositions] for compositions, _, _ in dealt]
        sums = np.array([sum(shoe) for shoe in values])
        ratio = sums.sum() / coups.sum()
        error = np.std(sums - ratio * coups, ddof=1) / np.sqrt(20) / coups.mean()
        entry = record["bets"][name]
        assert entry["mean_ev"] == round(ratio, 8) and entry["mean_ev_standard_error"] == pytest.approx(error, rel=1e-6)
        made = np.array([sum(value > 0 for value in shoe) for shoe in values], dtype=float)
        assert entry["perfect_information"]["bets_per_shoe_standard_error"] == round(np.std(made, ddof=1) / np.sqrt(20), 4)
        share = made.sum() / coups.sum()
        assert entry["positive_share_standard_error"] == pytest.approx(np.std(made - share * coups, ddof=1) / np.sqrt(20) / coups.mean(), abs=1e-6)
        above = np.array([sum(count >= 0 for count in counts) for _, _, counts in dealt], dtype=float)
        zero = entry["by_true_count"]["0"]
        assert zero["bets_per_shoe_standard_error"] == round(np.std(above, ddof=1) / np.sqrt(20), 4)
        share = above.sum() / coups.sum()
        assert zero["bet_share_standard_error"] == pytest.approx(np.std(above - share * coups, ddof=1) / np.sqrt(20) / coups.mean(), abs=1e-6)
        assert entry["mean_ev_standard_error"] > 0 and zero["bet_share_standard_error"] > 0


def test_one_shoe_has_no_standard_error_of_mean_ev(run):
    code, out, _ = run("simulate", "--bets", "banker", "--format", "json", "--workers", "1", "--shoes", "1")
    entry = json.loads(out)["bets"]["banker"]
    assert code == 0 and entry["mean_ev_standard_error"] is None and entry["positive_share_standard_error"] is None
