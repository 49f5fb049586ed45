"""results/ is what `baccarat-odds export` writes, byte for byte."""

from pathlib import Path

import pytest

from exact_odds.cli import main
from exact_odds.errors import InputError
from exact_odds.export import parse_deck_list

RESULTS = Path(__file__).resolve().parent.parent / "results"


def test_results_folder_has_not_drifted(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "--out", str(tmp_path)])
    assert exit_info.value.code == 0
    fresh = sorted(path.name for path in tmp_path.iterdir())
    assert fresh == sorted(path.name for path in RESULTS.iterdir())
    for name in fresh:
        assert (tmp_path / name).read_bytes() == (RESULTS / name).read_bytes(), f"results/{name} is stale: run baccarat-odds export"


def test_deck_lists():
    assert parse_deck_list("1-8") == list(range(1, 9))
    assert parse_deck_list("8,6,inf") == [8, 6, "inf"]
    for bad in ("0-3", "5-2", "x", "1.5"):
        with pytest.raises(InputError):
            parse_deck_list(bad)
