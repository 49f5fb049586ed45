"""Every published figure of exact_odds/data/published.toml, through the code path of `verify`."""

from collections import Counter

import pytest

from exact_odds.cli import main
from exact_odds.verify import (
    Calculator,
    check,
    matches,
    parse_printed,
    published_figures,
)

FIGURES = [figure for figure in published_figures() if not figure.simulated]
"""The exact figures (the simulation records are checked in test_counting.py)."""


@pytest.fixture(scope="module")
def calculator():
    return Calculator()


@pytest.mark.parametrize("figure", FIGURES, ids=[figure.id for figure in FIGURES])
def test_published_figure(figure, calculator):
    result = check(figure, calculator)
    expected = "known-wrong" if figure.known_wrong else "ok"
    assert result.verdict == expected, f"{figure.value} vs {result.exact} ({figure.source})"


def test_the_collection_is_broad():
    assert len(FIGURES) >= 150
    assert len({figure.bet for figure in FIGURES if figure.bet}) >= 15
    assert len({figure.decks for figure in FIGURES}) >= 5
    assert len({figure.id for figure in FIGURES}) == len(FIGURES)


@pytest.mark.parametrize("text,exact,expected", [
    ("1.06%", "0.010579", True),
    ("1.06%", "0.010649", True),
    ("1.06%", "0.01065001", False),
    ("1.06 per cent", "0.0106", True),
    ("~10.1%", "0.10139", True),
    ("2,292,252,566,437,888", "2292252566437888", True),
    ("2,292,252,566,437,890", "2292252566437888", False),
    ("-0.026517", "-0.0265168", True),
])
def test_printed_precision(text, exact, expected):
    from fractions import Fraction

    assert matches(parse_printed(text), Fraction(exact)) is expected


def test_verify_exits_1_when_a_published_value_is_altered(tmp_path, capsys):
    from importlib import resources

    text = resources.files("exact_odds").joinpath("data/published.toml").read_text()
    altered = text.replace('value = "2,292,252,566,437,888"', 'value = "2,292,252,566,437,889"', 1)
    assert altered != text
    path = tmp_path / "published.toml"
    path.write_text(altered)
    with pytest.raises(SystemExit) as exit_info:
        main(["verify", "--data", str(path), "--source", "casinoexploit"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 1
    assert "mismatch" in out


def test_verify_filters_and_passes(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["verify", "--bet", "dragon_7", "--format", "json"])
    assert exit_info.value.code == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert Counter(record["verdict"] for record in data["figures"]) == Counter({"ok": 7, "known-wrong": 2})


def test_a_stale_known_wrong_mark_is_reported(tmp_path, capsys):
    path = tmp_path / "published.toml"
    path.write_text('[[figure]]\nid = "x"\nmeasure = "house_edge"\nbet = "banker"\ndecks = 8\nvalue = "1.06%"\n'
                    'source = "s"\nurl = "u"\nknown_wrong = "thought wrong"\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["verify", "--data", str(path)])
    assert exit_info.value.code == 0
    assert "stale mark: matches" in capsys.readouterr().out


@pytest.mark.parametrize("size", ["2 x 2^483", "2^5 x 2^484", "1 x 2^484", "2 x 2^485"])
def test_a_wrong_matrix_size_is_a_mismatch(tmp_path, capsys, size):
    """Model B2 is a 2 x 2^484 game (Ethier and Gamez 2013): any other size is reported."""
    path = tmp_path / "published.toml"
    path.write_text(f'[[figure]]\nid = "x"\nmeasure = "matrix_size"\nrules = "chemin_de_fer_b2"\ndecks = "any"\nvalue = "{size}"\n'
                    'source = "s"\nurl = "u"\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["verify", "--data", str(path), "--format", "json"])
    import json

    data = json.loads(capsys.readouterr().out)
    assert exit_info.value.code == 1
    assert [(record["verdict"], record["published"], record["computed"]) for record in data["figures"]] == [("mismatch", size, "2 x 2^484")]


def test_the_chemin_de_fer_sizes_are_recorded():
    sizes = {(figure.rules, figure.value) for figure in FIGURES if figure.measure == "matrix_size"}
    assert sizes == {("chemin_de_fer_a", "2 x 2^88"), ("chemin_de_fer_b2", "2 x 2^484"), ("chemin_de_fer_b3", "2^5 x 2^484")}
