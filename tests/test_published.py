"""Every published figure of exact_odds/data/published.toml, through the code path of `verify`."""

from collections import Counter

import pytest

from exact_odds.cli.commands import main
from exact_odds.studies.figures import load_figures, matches, parse_printed, published_figures
from exact_odds.studies.verify import Calculator, check

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
    rows = [line.split() for line in out.splitlines()]
    # The published count (CasinoExploit, copying the Wizard of Odds) against the altered one; no other row fails.
    assert [row for row in rows if row[-1:] == ["mismatch"]] == [
        ["casinoexploit-banker-combinations-8d", "2,292,252,566,437,889", "2,292,252,566,437,888", "mismatch"]]


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


RECORD = 'id = "a"\nsource = "S1"\nurl = "http://x"\ndecks = 8\n'


@pytest.mark.parametrize("fields,field,measure", [
    ('measure = "probability"\nwhen = "winner == banker"\nvalue = "45.86%"\nscale = "2"\n', "scale", "probability"),
    ('measure = "house_edge"\nbet = "banker"\nvalue = "105.79%"\nscale = "100"\n', "scale", "house_edge"),
    ('measure = "combinations"\nwhen = "winner == tie"\nvalue = "1"\nscale = "2"\n', "scale", "combinations"),
    ('measure = "house_edge"\nbet = "banker"\nvalue = "1.06%"\nwhen = "winner == tie"\n', "when", "house_edge"),
    ('measure = "expected_value"\nbet = "banker"\nvalue = "-0.0106"\ngiven = "winner != tie"\n', "given", "expected_value"),
    ('measure = "house_edge"\nbet = "banker"\nvalue = "1.06%"\nremoved = 3\n', "removed", "house_edge"),
    ('measure = "combinations"\nwhen = "winner == tie"\nvalue = "1"\nremoved = 5\n', "removed", "combinations"),
    ('measure = "house_edge"\nbet = "player_pair"\nvalue = "10.36%"\nunordered = "hands"\n', "unordered", "house_edge"),
    ('measure = "house_edge"\nbet = "player_pair"\nvalue = "10.36%"\nhand_pairs = true\n', "hand_pairs", "house_edge"),
    ('measure = "probability"\nwhen = "player_card1_rank == player_card2_rank"\nvalue = "7.47%"\nhand_pairs = true\n', "hand_pairs", "probability"),
    ('measure = "probability"\nwhen = "player_card1_rank == player_card2_rank"\nvalue = "7.47%"\nunordered = "cards"\n', "unordered", "probability"),
    ('measure = "effect_of_removal"\nbet = "banker"\nrank = "5"\nvalue = "-0.008%"\nhand_pairs = false\n', "hand_pairs", "effect_of_removal"),
    ('measure = "count_gain_per_shoe"\nbet = "dragon_7"\nvalue = "1"\nunordered = "hands"\n', "unordered", "count_gain_per_shoe"),
    ('measure = "perfect_gain_per_shoe"\nbet = "dragon_7"\nvalue = "1"\ngiven = "winner == tie"\n', "given", "perfect_gain_per_shoe"),
])
def test_a_field_the_measure_does_not_read_is_refused(run, tmp_path, fields, field, measure):
    path = tmp_path / "figures.toml"
    path.write_text("[[figure]]\n" + RECORD + fields)
    code, out, err = run("verify", "--data", str(path))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"baccarat-odds: error: {path}: figure 'a': field {field!r} means nothing to measure {measure}"]


def exact_value(fields: str):
    (figure,) = load_figures("[[figure]]\n" + RECORD + fields, "test")
    return Calculator().exact(figure)


@pytest.mark.parametrize("fields,line", [
    ('measure = "probability"\nwhen = "winner == banker"\nvalue = "1%"\n', 'given = "winner != tie"\n'),
    ('measure = "combinations"\nwhen = "player_card1_rank == player_card2_rank"\nvalue = "1"\n', 'hand_pairs = true\n'),
    ('measure = "combinations"\nwhen = "player_card1_rank == player_card2_rank"\nvalue = "1"\n', 'unordered = "hands"\n'),
    ('measure = "effect_of_removal"\nbet = "banker"\nrank = "5"\nvalue = "1"\n', 'removed = 2\n'),
    ('measure = "effect_of_removal"\nbet = "banker"\nrank = "5"\nvalue = "1"\n', 'scale = "100"\n'),
    ('measure = "effect_of_removal"\nbet = "tie"\nrank = "5"\nvalue = "1"\n', 'when = "winner == tie and banker_total == 0"\n'),
])
def test_a_field_the_measure_reads_takes_effect(fields, line):
    assert exact_value(fields + line) != exact_value(fields)


def test_scale_multiplies_exactly():
    removal = 'measure = "effect_of_removal"\nbet = "banker"\nrank = "5"\nvalue = "1"\n'
    assert exact_value(removal + 'scale = "100"\n') == 100 * exact_value(removal)


def test_a_game_size_with_removed_cards_is_one_line(run, tmp_path):
    """A matrix size holds for any shoe: removed is refused (it was compared with 4 x "any", a traceback)."""
    path = tmp_path / "figures.toml"
    path.write_text('[[figure]]\nid = "a"\nmeasure = "matrix_size"\nrules = "chemin_de_fer_a"\ndecks = "any"\nvalue = "2 x 2^88"\n'
                    'removed = 2\nsource = "s"\nurl = "u"\n')
    code, out, err = run("verify", "--data", str(path))
    assert (code, out, err.strip().splitlines()) == (2, "", [f"baccarat-odds: error: {path}: figure 'a': matrix_size takes no `removed`"])


@pytest.mark.parametrize("flag,text", [("--source", ""), ("--source", "  "), ("--bet", ""), ("--bet", " ")])
def test_an_empty_filter_is_refused(run, flag, text):
    """An empty --source or --bet once filtered nothing and checked every figure."""
    code, out, err = run("verify", flag, text)
    assert (code, out, err.strip().splitlines()) == (2, "", [f"baccarat-odds: error: {flag} is empty: give the text to match, or leave {flag} out"])
