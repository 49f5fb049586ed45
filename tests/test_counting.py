"""Published counting results, checked by seeded simulations (statistically: within 3 standard errors of
ours), and the simulation's per-shoe estimates checked against exact expectations coup by coup."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from exact_odds import analyze
from exact_odds.bets.bets import catalog
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.studies.dealer import Settings, deal_shoe, parse_tags
from exact_odds.studies.simulate import estimates, run
from exact_odds.studies.figures import published_figures
from exact_odds.studies.verify import Calculator, check

PUNTO = resolve(PUNTO_BANCO)
SIMULATED = [figure for figure in published_figures() if figure.simulated]
DRAGON_TAGS = parse_tags("4=-1,5=-1,6=-1,7=-1,8=2,9=2")


@pytest.fixture(scope="module")
def calculator():
    return Calculator(workers=2)


@pytest.mark.parametrize("figure", SIMULATED, ids=[figure.id for figure in SIMULATED])
def test_published_counting_result(figure, calculator):
    result = check(figure, calculator)
    expected = "known-wrong" if figure.known_wrong else "ok"
    assert result.estimate is not None and result.exact is None
    assert result.verdict == expected, f"{figure.value} vs {result.estimate} ({figure.source})"


def test_the_counting_records_are_broad():
    assert len(SIMULATED) >= 15
    assert {figure.measure for figure in SIMULATED} >= {"count_gain_per_shoe", "count_bet_share", "count_edge_when_betting",
                                                        "count_bets_per_shoe", "count_gain_per_100_coups", "perfect_gain_per_shoe",
                                                        "coups_per_shoe"}
    assert {figure.count for figure in SIMULATED} == {"true", "running"}
    assert len({figure.author for figure in SIMULATED}) >= 3
    assert all(figure.shoes <= 5000 for figure in SIMULATED)  # the suite stays fast


def test_estimates_agree_with_exact_expectations_coup_by_coup():
    """The per-shoe moments of the batch run against exact Fractions from the plain analysis of each coup."""
    settings = Settings(Shoe.decks(2), 30, 7, Fraction(3, 4), True, DRAGON_TAGS, ("dragon_7",), PUNTO, thresholds=(0, 2))
    simulation = run(settings, workers=1)
    bet = catalog()["dragon_7"]
    per_shoe: dict[int | None, list[tuple[Fraction, int, int]]] = {None: [], 0: [], 2: []}
    for shoe in range(settings.shoes):
        compositions, _, true_counts = deal_shoe(settings, shoe)
        values = [analyze(Shoe(tuple(int(c) for c in counts), None, "left"), [bet], PUNTO).bets[0].expected_value for counts in compositions]
        assert all(type(value) is Fraction for value in values)
        for threshold in per_shoe:
            chosen = [value for value, count in zip(values, true_counts) if (value > 0 if threshold is None else count >= threshold)]
            per_shoe[threshold].append((sum(chosen, Fraction(0)), len(chosen), len(values)))
    for threshold, shoes in per_shoe.items():
        estimate = estimates(simulation, "dragon_7", threshold)
        gains = np.array([float(gain) for gain, _, _ in shoes])
        made = sum(count for _, count, _ in shoes)
        coups = sum(total for _, _, total in shoes)
        assert estimate["gain_per_shoe"].value == pytest.approx(float(sum(gain for gain, _, _ in shoes) / len(shoes)), abs=1e-12)
        assert estimate["gain_per_shoe"].standard_error == pytest.approx(gains.std(ddof=1) / math.sqrt(len(shoes)), rel=1e-9)
        assert estimate["bets_per_shoe"].value == pytest.approx(made / len(shoes), abs=1e-12)
        assert estimate["coups_per_shoe"].value == pytest.approx(coups / len(shoes), abs=1e-12)
        assert estimate["bet_share"].value == pytest.approx(made / coups, abs=1e-12)
        assert estimate["edge_when_betting"].value == pytest.approx(float(sum(gain for gain, _, _ in shoes) / made), abs=1e-12)


def test_running_count_and_the_end_of_the_shoe():
    """A running count is the sum of the tags seen; with no coup after the cut card, the shoe ends with
    the coup in which it appears."""
    common = dict(shoe=Shoe.decks(1), shoes=1, seed=4, penetration=Fraction(3, 4), burn=False, tags=DRAGON_TAGS,
                  bets=("dragon_7",), decisions=PUNTO)
    compositions, _, true_counts = deal_shoe(Settings(**common), 0)
    running = deal_shoe(Settings(**common, running_count=True), 0)[2]
    tags = np.asarray(DRAGON_TAGS)
    assert running.tolist() == [float((tags * (4 - counts)).sum()) for counts in compositions]
    assert true_counts.tolist() == [52 * value / counts.sum() for value, counts in zip(running.tolist(), compositions)]
    one_more = deal_shoe(Settings(**common), 0)[0]
    none_more = deal_shoe(Settings(**common, coups_after_cut=0), 0)[0]
    assert len(none_more) == len(one_more) - 1
    cards_left = 52 - none_more.sum(axis=1)
    assert cards_left[-1] <= 39 < 52 - one_more.sum(axis=1)[-1]  # the last coup starts at or before the cut (card 39)


def test_verify_skips_simulations_unless_asked(run):
    code, _, err = run("verify", "--source", "Stephen How")
    assert code == 2 and "(4 simulation records: give --simulate)" in err
    code, out, _ = run("verify", "--bet", "dragon_7")
    simulations = sum("shoes" in record for record in shipped_records() if record.get("bet") == "dragon_7")
    assert simulations == 3
    assert code == 0 and f"{simulations} simulation records not run (--simulate runs them)" in out.splitlines()


def shipped_records() -> list[dict]:
    """The shipped published-figures file, read as plain TOML."""
    import tomllib
    from importlib import resources

    return tomllib.loads(resources.files("exact_odds").joinpath("data/published.toml").read_text(encoding="utf-8"))["figure"]


RECORD = ('[[figure]]\nid = "x"\nmeasure = "count_bets_per_shoe"\nbet = "dragon_7"\ndecks = 8\ntags = "4=-1,5=-1,6=-1,7=-1,8=2,9=2"\n'
          'threshold = 4\npenetration = "7/8"\nburn = true\nshoes = 200\nseed = 2\nsource = "s"\nurl = "u"\n')


def test_verify_runs_a_simulation_record(run, tmp_path):
    """The record's estimate is that of the plain `simulate` with its settings (bets per shoe at a
    true count of 4 or more); 5 lies within 3 standard errors of it, 50 does not."""
    code, out, err = run("simulate", "--decks", "8", "--shoes", "200", "--seed", "2", "--penetration", "7/8", "--burn",
                         "--count", "4=-1,5=-1,6=-1,7=-1,8=2,9=2", "--bets", "dragon_7", "--workers", "1", "--format", "json")
    assert code == 0, err
    bets_per_shoe = json.loads(out)["bets"]["dragon_7"]["by_true_count"]["4"]["bets_per_shoe"]
    path = tmp_path / "figures.toml"
    path.write_text(RECORD + 'value = "5"\n')
    code, out, _ = run("verify", "--simulate", "--data", str(path))
    rows = [line.split() for line in out.splitlines()]
    assert code == 0 and "simulated, 200 shoes, seed 2" in [line.strip() for line in out.splitlines()]
    [row] = [row for row in rows if row[:1] == ["x"]]
    assert row[:4] == ["x", "5", f"{bets_per_shoe}", "±"] and row[5:] == ["ok"] and abs(5 - bets_per_shoe) <= 3 * float(row[4])
    path.write_text(RECORD + 'value = "50"\n')
    code, out, _ = run("verify", "--simulate", "--data", str(path), "--format", "json")
    [record] = json.loads(out)["figures"]
    simulated = record["simulated"]
    assert code == 1 and record["verdict"] == "mismatch"
    assert (simulated["value"], simulated["shoes"], simulated["seed"]) == (bets_per_shoe, 200, 2)
    assert abs(50 - bets_per_shoe) > 3 * simulated["standard_error"]


def test_perfect_information_ignores_a_count_threshold():
    """A perfect-information record may share a count's run (its tags and threshold): it still reads the bets made when EV > 0."""
    from exact_odds.studies.figures import load_figures

    text = RECORD.replace('measure = "count_bets_per_shoe"', 'measure = "perfect_gain_per_shoe"') + 'value = "0.3"\n'
    counted, perfect = load_figures(RECORD + 'value = "5"\n' + text.replace('id = "x"', 'id = "y"'), "test")
    calculator = Calculator()
    assert calculator.simulation_settings(counted) == calculator.simulation_settings(perfect)
    simulation = run(calculator.simulation_settings(perfect))
    assert calculator.simulated(perfect) == estimates(simulation, "dragon_7", None)["gain_per_shoe"]
    assert calculator.simulated(counted) == estimates(simulation, "dragon_7", 4)["bets_per_shoe"]


@pytest.mark.parametrize("change,message", [
    (("penetration = \"7/8\"\n", ""), "needs `penetration`"),
    (("threshold = 4\n", ""), "needs `threshold`"),
    (("shoes = 200\n", "shoes = 0\n"), "shoes must be a whole number from 2"),
    (("shoes = 200\n", "shoes = \"200\"\n"), "shoes must be a whole number"),
    (("burn = true\n", "burn = 1\n"), "burn must be true or false"),
    (("threshold = 4\n", "threshold = \"+4\"\n"), "threshold must be a whole number"),
    (("decks = 8\n", "decks = \"inf\"\n"), "real shoes"),
    (("penetration = \"7/8\"\n", "penetration = \"1\"\n"), "strictly between 0 and 1"),
    (("tags = \"4=-1,5=-1,6=-1,7=-1,8=2,9=2\"\n", "tags = \"hi-lo\"\n"), "unknown count tags"),
    (("seed = 2\n", "seed = 2\ncount = \"false\"\n"), "count must be"),
    (("measure = \"count_bets_per_shoe\"\n", "measure = \"house_edge\"\n"), "belongs to simulation measures"),
])
def test_bad_simulation_records_are_one_line(run, tmp_path, change, message):
    path = tmp_path / "figures.toml"
    path.write_text((RECORD + 'value = "5"\n').replace(*change))
    code, out, err = run("verify", "--simulate", "--data", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err
