"""grid.py lays tables out as tabulate does ("simple", and "github" for markdown), byte for byte:
on the project's own tables (every call of ``grid`` while a command runs is recorded with its
input, and tabulate renders that input again) and on tables drawn at random."""

import importlib.util
import pkgutil
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tabulate import tabulate

import exact_odds
from exact_odds.output import grid as grid_module

ORIGINAL = grid_module.grid


def tabulated(rows, headers, align=None, markdown=False) -> str:
    """The table as tabulate lays it out, numbers left as written."""
    return tabulate(rows, list(headers), tablefmt="github" if markdown else "simple", colalign=align, disable_numparse=True)


@pytest.fixture
def recorded(monkeypatch):
    """Every call of ``grid`` from here on, in whichever module bound the name: (arguments, text).
    Each module that names grid is imported first, so that the name is bound before it is replaced."""
    for module in pkgutil.walk_packages(exact_odds.__path__, "exact_odds."):
        spec = importlib.util.find_spec(module.name)
        if spec and spec.origin and spec.origin.endswith(".py") and "grid" in Path(spec.origin).read_text(encoding="utf-8"):
            importlib.import_module(module.name)
    calls: list[tuple[tuple, str]] = []

    def recording(rows, headers, align=None, markdown=False):
        rows = [list(row) for row in rows]
        text = ORIGINAL(rows, headers, align, markdown)
        calls.append(((rows, list(headers), None if align is None else list(align), markdown), text))
        return text

    for name, module in list(sys.modules.items()):
        if name.startswith("exact_odds") and getattr(module, "grid", None) is ORIGINAL:
            monkeypatch.setattr(module, "grid", recording)
    return calls


def assert_laid_out_as_tabulate(calls, out: str | None = None, markdown: bool | None = None) -> None:
    assert calls, "the command drew no table"
    for (rows, headers, align, as_markdown), text in calls:
        assert rows, f"a table of no rows under {headers}"  # the project's tables have rows
        assert text == tabulated(rows, headers, align, as_markdown), f"{headers}:\n{text}"
        if markdown is not None:
            assert as_markdown == markdown
        if out is not None:
            assert shown_in(text, out), f"the table recorded is not the one printed:\n{text}"


def shown_in(text: str, out: str) -> bool:
    """The table's lines are consecutive lines of ``out``, indented alike (verify indents its tables)."""
    lines, shown = text.splitlines(), out.splitlines()
    for start, first in enumerate(shown):
        indent = first[: len(first) - len(first.lstrip(" "))]
        if [indent + line for line in lines] == shown[start : start + len(lines)]:
            return True
    return False


def test_the_analysis_and_return_tables(run, recorded):
    """`--decks 8 --bets all --returns`: the outcome table, the bet table and one return table per
    bet, as text and as markdown (the second run reads the tables the first one built)."""
    for fmt in ("table", "markdown"):
        recorded.clear()
        code, out, err = run("--decks", "8", "--bets", "all", "--returns", "--format", fmt)
        assert code == 0, err
        assert len(recorded) >= 3
        assert_laid_out_as_tabulate(recorded, out, markdown=fmt == "markdown")


@pytest.mark.parametrize("args", [
    ("deal", "9S", "5D", "9H", "2C", "--bets", "banker,player,tie,player_pair"),
    ("deal", "4C", "AD", "KS", "--decks", "1"),
    ("eor", "--decks", "8", "--bets", "banker,player,tie,dragon_7"),
    ("eor", "--decks", "8", "--bets", "banker,tie", "--format", "markdown"),
    ("verify", "--source", "Wizard of Odds", "--bet", "tie"),
    ("--decks", "2", "--by", "player_total", "--bets", "banker,player,tie"),
    ("--decks", "2", "--by", "winner", "--bets", "banker", "--format", "markdown"),
    ("rules",),
    ("rules", "--rules", "chemin_de_fer_b2"),
    ("simulate", "--decks", "8", "--shoes", "40", "--seed", "7", "--bets", "banker,player,tie,dragon_7", "--workers", "1"),
    ("chemin-de-fer", "--decks", "1", "--model", "a"),
    ("chemin-de-fer", "--decks", "1", "--model", "a", "--format", "markdown"),
], ids=lambda args: " ".join(args))
def test_the_tables_of_each_command(run, recorded, args):
    code, out, err = run(*args)
    assert code == 0, err
    assert_laid_out_as_tabulate(recorded, out)


def test_the_tables_export_writes(run, recorded, tmp_path):
    code, out, err = run("export", "--decks", "1,2", "--no-formulas", "--no-chemin", "--bets", "banker,tie,dragon_7",
                         "--out", str(tmp_path / "results"))
    assert code == 0, err
    written = "".join(path.read_text(encoding="utf-8") for path in sorted((tmp_path / "results").glob("*.md")))
    assert_laid_out_as_tabulate(recorded, written, markdown=True)


def test_the_tables_of_the_math_report(run, recorded, tmp_path):
    code, out, err = run("report", "--bets", "tie", "--decks", "1", "--shoes", "0", "--out", str(tmp_path / "report"))
    assert code == 0, err
    written = "".join(path.read_text(encoding="utf-8") for path in sorted((tmp_path / "report").glob("*.md")))
    assert_laid_out_as_tabulate(recorded, written)  # markdown tables, and the banker's tableau as text


CELL_CHARACTERS = list("0123456789abcXYZ/-.,%:() ±−×é")
cells = st.text(st.sampled_from(CELL_CHARACTERS), max_size=14)
"""Digits, letters, fractions, minus signs, spaces within and around, empty cells."""


@st.composite
def tables(draw):
    columns = draw(st.integers(1, 6))
    headers = draw(st.lists(st.text(st.sampled_from(list("abcEVP()_ -")), max_size=12).map(str.strip), min_size=columns, max_size=columns))
    rows = draw(st.lists(st.lists(cells, min_size=columns, max_size=columns), max_size=7))
    align = draw(st.none() | st.lists(st.sampled_from(["left", "right"]), min_size=columns, max_size=columns))
    return rows, headers, align, draw(st.booleans())


@given(tables())
def test_random_tables_equal_tabulate(table):
    rows, headers, align, markdown = table
    assert ORIGINAL(rows, headers, align, markdown) == tabulated(rows, headers, align, markdown)


def test_cells_that_are_not_text_are_written_as_str_would():
    rows = [[1, -2], [10**20, "3/4"]]
    assert ORIGINAL(rows, ["n", "x"], ("right", "left")) == tabulated([[str(cell) for cell in row] for row in rows], ["n", "x"], ("right", "left"))
