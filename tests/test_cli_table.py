"""Issue 34, item 2 through the command: `baccarat-odds table`, its JSON against every ordering of the
physical cards of a small suited shoe (settled here by the bets' own pay tables), the table
differential by hand, the text a person reads, and a mix past the table's limits refused in one line."""

import json
from collections import Counter
from fractions import Fraction

import pytest
from oracles import feature_tally, settle

from exact_odds.bets.bets import catalog
from exact_odds.core.cards import parse_card

SHOE = "7S=1,7H=1,8D=1,KS=1,9H=1,AD=1,5C=1"
"""Seven cards (5,040 orderings): Dragon 7 and Panda 8 both win on some of them."""
MIX = {"banker": Fraction(100), "player": Fraction(30), "tie": Fraction(10), "dragon_7": Fraction(5), "panda_8": Fraction(5, 2)}


def every_ordering(text: str, mix: dict[str, Fraction]) -> dict[Fraction, Fraction]:
    """The house's result on every ordering of the shoe's physical cards: each value's probability."""
    counts = {parse_card(card): int(count) for card, count in (part.split("=") for part in text.split(","))}
    tally: Counter = Counter()
    for key, weight in feature_tally(counts, coup=True).items():
        features = dict(key)
        tally[-sum((amount * settle(catalog()[name], features) for name, amount in mix.items()), Fraction(0))] += weight
    everything = sum(tally.values())
    return {result: Fraction(count, everything) for result, count in tally.items()}


def test_the_json_equals_every_ordering_of_a_small_suited_shoe(run):
    code, out, err = run("table", "--shoe", SHOE, "--mix", "banker=100,player=30,tie=10,dragon_7=5,panda_8=2.5", "--per-hour", "80",
                         "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert (record["format"], record["differential"]) == ("exact_odds.table", None)
    offered = record["offered"]
    expected = every_ordering(SHOE, MIX)
    assert {Fraction(row["house_result"]): Fraction(row["probability"]) for row in offered["results"]} == expected
    mean = sum((result * chance for result, chance in expected.items()), Fraction(0))
    assert Fraction(offered["expected_win"]) == mean and Fraction(offered["hold"]) == mean / Fraction(295, 2)
    assert Fraction(offered["variance"]) == sum(((result - mean) ** 2 * chance for result, chance in expected.items()), Fraction(0))
    assert Fraction(offered["win_per_hour"]) == 80 * mean and offered["pace"] == 80
    assert Fraction(offered["worst_coup"]["exposure"]) == max(-min(expected), 0)
    assert Fraction(offered["worst_coup"]["probability"]) == expected[min(expected)]


def test_the_differential_cuts_the_heavier_side_as_by_hand(run):
    code, out, _ = run("table", "--mix", "banker=5000,player=1000,tie=100", "--differential", "2000", "--max", "banker=10000",
                       "--unit", "25", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["differential"]["cap"] == "2000" and record["differential"]["offered"] == "4000"
    capped = record["differential"]["capped"]
    assert capped["amounts"] == {"banker": "3000", "player": "1000", "tie": "100"}  # 5000 cut to 3000: banker less player is the cap
    offered = record["offered"]
    # the worst coup for the house: the banker wins (95% of the amount on it, less the player's and the tie's)
    assert (offered["worst_coup"]["exposure"], capped["worst_coup"]["exposure"]) == ("3650", "1750")


def test_the_text_shows_the_exact_figures_and_the_distribution(run):
    code, out, _ = run("table", "--shoe", SHOE, "--mix", "banker=100,tie=10")
    expected = every_ordering(SHOE, {"banker": Fraction(100), "tie": Fraction(10)})
    mean = sum((result * chance for result, chance in expected.items()), Fraction(0))
    assert code == 0 and "70 decisions an hour" in out  # the default pace
    hold = next(line for line in out.splitlines() if line.startswith("hold (expected win over the amount bet)"))
    assert hold.split()[-2:] == [str(mean / 110), f"{float(mean / 110) * 100:.4f}%"]
    rows = {line.split()[0]: line.split()[2] for line in out.splitlines() if line.strip() and line.split()[0].lstrip("-").isdigit()}
    assert {Fraction(value): Fraction(chance) for value, chance in rows.items()} == expected


def test_csv_holds_every_result(run):
    code, out, _ = run("table", "--mix", "banker=10,player=10", "--differential", "5", "--format", "csv")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "mix,house_result,combinations,probability"
    assert {line.split(",")[0] for line in lines[1:]} == {"offered"}  # 10 less 10 is within the cap: the mix stands


@pytest.mark.parametrize("args, message", [
    (["--mix", "banker=20000", "--max", "10000"], "--mix: 20000 on banker is above the table's maximum of 10000 for it"),
    (["--mix", "banker=5,tie=5", "--min", "banker=10"], "--mix: 5 on banker is below the table's minimum of 10 for it"),
    (["--mix", "banker=600,tie=500", "--total-max", "1000"], "--mix: 1100 in all is above the table's limit of 1000 a coup"),
    (["--mix", "banker=30", "--unit", "25"], "--mix: 30 on banker is not a whole number of the table's unit 25"),
    (["--mix", "banker=5", "--min", "tie=5"], "--min: 'tie' is not a bet of this position (banker)"),
    (["--mix", "banker=x"], "--mix: the amount on banker must be an exact number"),
    (["--mix", "banker=-5"], "--mix: the amount on banker must be positive, not -5"),
    (["--mix", "banker=0.1e5"], "--mix: the amount on banker must be an exact number"),
    (["--mix", "banker"], "--mix: 'banker' is not NAME=AMOUNT (e.g. banker=100)"),
    (["--mix", "banker=5,Banker=6"], "--mix: banker is given twice"),
    (["--mix", " "], "--mix is empty"),
    (["--mix", "nope=5"], "unknown bet 'nope'"),
    (["--mix", "banker=5", "--per-hour", "0"], "--per-hour (decisions an hour) must be at least 1, not '0'"),
    (["--mix", "banker=5", "--per-hour", "70.5"], "--per-hour (decisions an hour) must be a whole number"),
    (["--mix", "tie=5", "--differential", "100"], "--differential: the cap is on the banker and player bets, and this mix has neither"),
    (["--mix", "banker=5", "--differential", "0"], "--differential (the cap on banker less player) must be positive, not 0"),
    (["--mix", "banker=100,player=10", "--differential", "10", "--min", "banker=50"], "--differential: the cap cuts banker to 20"),
    (["--bets", "tie", "--mix", "tie=5"], "No such option '--bets'"),
])
def test_a_mix_past_the_table_s_limits_is_one_line(run, args, message):
    code, out, err = run("table", *args)
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and message in err, err
