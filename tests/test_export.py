"""results/ is what `baccarat-odds export` writes, byte for byte.

The chemin de fer solutions (results/chemin-de-fer/, about 17 s to solve) are compared at the end of
tests/test_chemin.py, from the solutions certified there; the drift test of the rest takes them as
committed, so that the two together check the whole folder, index and manifest included.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from test_chemin import solved
from exact_odds.commands import export
from exact_odds.games import chemin as chemin_games
from exact_odds.cli.commands import main
from exact_odds.errors import InputError
from exact_odds.commands.export import CHEMIN, chemin_files, parse_deck_list

RESULTS = Path(__file__).resolve().parent.parent / "results"
BANQUE = "banque"
"""results/banque/ is written by `baccarat-odds banque --out results/banque`, not by export;
tests/test_banque.py rechecks its certificates."""


def files_under(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``, by its path relative to it ("/" between parts)."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_results_folder_has_not_drifted(tmp_path, monkeypatch):
    """Tables, summaries, closed forms, index and manifest; the chemin de fer files as committed."""
    committed = {name: text.decode("utf-8") for name, text in files_under(RESULTS).items() if name.startswith(f"{CHEMIN}/")}
    assert committed, "results/chemin-de-fer/ is missing: run baccarat-odds export"

    def as_committed(deck_list, commission, progress=None):
        assert (deck_list, commission) == (list(range(1, 9)), Fraction(5))
        return committed

    monkeypatch.setattr(export, "chemin_files", as_committed)
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "--out", str(tmp_path)])
    assert exit_info.value.code == 0
    fresh = files_under(tmp_path)
    kept = {name: data for name, data in files_under(RESULTS).items() if not name.startswith(f"{BANQUE}/")}
    assert sorted(fresh) == sorted(kept)
    for name in fresh:
        assert fresh[name] == kept[name], f"results/{name} is stale: run baccarat-odds export"


def test_export_writes_chemin_de_fer_in_a_folder_it_can_write_again(tmp_path, run, monkeypatch):
    """The chemin de fer files sit in a subfolder that the manifest lists and a second export
    replaces without --force; with --no-chemin they are gone again. The commission is the rule set's.
    The second export writes the games the first solved (one `solve` per game)."""
    monkeypatch.setattr(chemin_games, "solve", solved)
    out = tmp_path / "out"
    args = ["export", "--decks", "inf", "--bets", "banker", "--no-formulas", "--commission", "2.5", "--out", str(out)]
    assert run(*args)[0] == 0
    names = sorted(files_under(out))
    assert [name for name in names if name.startswith(f"{CHEMIN}/")] == sorted(
        [f"{CHEMIN}/{model}-decks-inf{commission}.json" for model in ("A", "B2", "B3") for commission in ("", "-commission-2.5")]
        + [f"{CHEMIN}/README.md"])
    manifest = json.loads((out / "manifest.json").read_text())["files"]
    assert sorted(manifest) == [name for name in names if name != "manifest.json"]
    record = json.loads((out / CHEMIN / "A-decks-inf.json").read_text())
    assert (record["commission"], record["player"]) == ("0", {"5": "9/11"})  # Kemeny and Snell's 9/11
    assert json.loads((out / CHEMIN / "A-decks-inf-commission-2.5.json").read_text())["commission"] == "1/40"
    assert run(*args)[0] == 0
    assert sorted(files_under(out)) == names
    assert run(*args, "--no-chemin")[0] == 0
    assert not (out / CHEMIN).exists()
    assert "chemin" not in (out / "README.md").read_text()


def test_without_commission_only_the_zero_sum_games():
    expected = [f"{CHEMIN}/{model}-decks-{decks}.json" for model in ("A", "B2", "B3") for decks in (1, "inf")] + [f"{CHEMIN}/README.md"]
    assert sorted(chemin_files([1], Fraction(0))) == sorted(expected)


def test_deck_lists():
    assert parse_deck_list("1-8") == list(range(1, 9))
    assert parse_deck_list("8,6,inf") == [8, 6, "inf"]
    for bad, said in (("0-3", "at least 1, not '0'"), ("5-2", "bad deck range '5-2'"), ("x", "a whole number .* not 'x'"),
                      ("1.5", "a whole number .* not '1.5'")):
        with pytest.raises(InputError, match=said):
            parse_deck_list(bad)
