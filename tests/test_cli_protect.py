"""`baccarat-odds protect`: Jacobson's seven published figures at their printed precision."""

import json
import tomllib
from fractions import Fraction
from math import floor
from pathlib import Path

import pytest

PUBLISHED = Path(__file__).resolve().parent.parent / "exact_odds" / "data" / "published.toml"
JACOBSON = [figure for figure in tomllib.loads(PUBLISHED.read_text())["figure"]
            if figure["measure"] == "information_gain" and figure["author"] == "Eliot Jacobson"]


def rounded(value: Fraction, places: int) -> str:
    """``value`` to ``places`` decimals, half up (the figures are positive)."""
    digits = str(floor(value * 10**places + Fraction(1, 2))).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}"


def record(run, *args: str) -> dict:
    code, out, err = run("protect", *args, "--format", "json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_the_seven_published_figures_are_nine_records():
    """Cards 1 and 3 (and 2 and 4) are one printed figure each, and a record each."""
    assert (len(JACOBSON), len({figure["printed_as"] for figure in JACOBSON})) == (9, 7)


@pytest.mark.parametrize("figure", JACOBSON, ids=[figure["id"] for figure in JACOBSON])
def test_a_published_figure_comes_out_of_protect(run, figure):
    """Each of Jacobson's figures (the verify record's value, not the code's) at its printed precision."""
    args = ["--decks", str(figure["decks"]), "--bets", figure["bet"].replace(" ", "")]
    if "known" in figure:
        args += ["--known", str(figure["known"])]
    elif figure.get("best_sort"):
        args += ["--best-sort", "--sorted", str(figure["sorted"]), "--over", "values"]
    else:
        args += ["--sorted", str(figure["sorted"]), "--groups", figure["groups"]]
    found = record(run, *args)
    if figure.get("best_sort"):
        (search,) = found["searches"]
        gain = Fraction(search["best"]["gain"])
        assert sorted(figure["groups"].split(",")) in search["best"]["information"]["groups"].values()
        assert gain == max(Fraction(split["gain"]) for split in search["every_split"])
    else:
        gain = Fraction(found["gain"])
    printed = figure["value"].rstrip("%")
    assert rounded(gain * 100, len(printed.split(".")[1])) == printed
