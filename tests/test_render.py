"""One renderer (issue 19): commands build blocks, exact_odds.output.render writes every format.

The expected texts below are written by hand from the format rules in render.py's docstring; the
pinned outputs (test_pinned_output.py), results/ (test_export.py) and the docs' examples check that
the commands print, byte for byte, what they printed before the renderer.
"""

import ast
import csv
import json
import re
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path

import pytest

from exact_odds.errors import InputError
from exact_odds.output.blocks import (
    Comment,
    Data,
    Document,
    Equation,
    Equations,
    Exact,
    Group,
    Heading,
    Items,
    Link,
    Paragraph,
    Strong,
    Table,
    table,
)
from exact_odds.output.render import render

PACKAGE = Path(__file__).parent.parent / "exact_odds"

DOCUMENT = Document(
    (Group((Heading(2, "Shoe: 1 deck"), Paragraph("Rules: Punto Banco"))),
     table(["bet", "edge"], [["tie_bet", "14.4%"], [Link("a|b", "a", page=True), Strong("M")]], ("left", "right")),
     Items(("first", "second"), lead="Summary", label="Note: ")),
    Data({"edge": "1/7"}, table(["bet", "edge"], [["a,b", Fraction(1, 7)]])),
    (Comment(("typeset",)), Paragraph(("Value: ", Exact(Fraction(-9, 11), "-0.82"), ".")),
     Equations((Equation("house edge of tie_bet", "HE", "tie_bet", "d", "1/d", r"\frac{1}{d}"),))),
)


def test_plain_text_separates_blocks_by_a_blank_line_and_a_group_by_none() -> None:
    assert render(DOCUMENT, "table") == render(DOCUMENT, "text") == (
        "Shoe: 1 deck\nRules: Punto Banco\n\n"
        "bet        edge\n"
        "-------  ------\n"
        "tie_bet   14.4%\n"
        "a|b           M\n\n"
        "Summary\nNote: first\nNote: second\n")


def test_markdown_escapes_cells_links_pages_and_bolds() -> None:
    assert render(DOCUMENT, "markdown") == (
        "## Shoe: 1 deck\nRules: Punto Banco\n\n"
        "| bet          |   edge |\n"
        "|--------------|--------|\n"
        "| tie_bet      |  14.4% |\n"
        "| [a\\|b](a.md) |  **M** |\n\n"
        "**Summary**\n\n- first\n- second\n")


def test_latex_writes_the_typeset_blocks() -> None:
    assert render(DOCUMENT, "latex") == (
        "% typeset\n"
        "Value: $-\\frac{9}{11} \\approx -0.82$.\\\\\n"
        "\\begin{align*}\n\\mathrm{HE}_{\\text{tie\\_bet}}(d) &= \\frac{1}{d}\n\\end{align*}\n")
    assert render(Document(DOCUMENT.blocks), "latex").splitlines()[2:7] == [
        "\\begin{tabular}{lr}", "bet & edge \\\\ \\hline", "tie\\_bet & 14.4\\% \\\\", "\\href{a}{a|b} & \\textbf{M} \\\\", "\\end{tabular}\\\\"]


def test_json_and_csv_write_the_data() -> None:
    assert json.loads(render(DOCUMENT, "json")) == {"edge": "1/7"}
    assert render(DOCUMENT, "json") == '{\n  "edge": "1/7"\n}\n'
    assert render(DOCUMENT, "csv") == 'bet,edge\n"a,b",1/7\n'


def test_html_is_one_page_with_links_to_sibling_pages() -> None:
    page = render(Document(DOCUMENT.blocks, title="A <page>"), "html")
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</body>\n</html>\n")
    assert "<title>A &lt;page&gt;</title>" in page and "<h1>A &lt;page&gt;</h1>" in page
    assert '<tr><td><a href="a.html">a|b</a></td><td class="n"><strong>M</strong></td></tr>' in page
    assert "<p><strong>Summary</strong></p><ul><li>first</li><li>second</li></ul>" in page


def test_a_format_the_document_cannot_take_is_refused() -> None:
    with pytest.raises(InputError, match="unknown format 'yaml'"):
        render(DOCUMENT, "yaml")
    with pytest.raises(InputError, match="no CSV form"):
        render(Document(DOCUMENT.blocks, Data({})), "csv")
    with pytest.raises(InputError, match="no JSON form"):
        render(Document(DOCUMENT.blocks), "json")


def test_a_table_with_details_indents_and_wraps_them_under_each_row() -> None:
    figures = Table(("figure", "verdict"), (("a", "ok"), ("b", "ok")), indent=2, details=(("one two three four",), ()), width=12)
    assert render(Document((figures,)), "table") == ("  figure    verdict\n  --------  ---------\n  a         ok\n"
                                                       "    one two\n    three\n    four\n  b         ok\n")


def test_library_code_does_not_branch_on_the_output_format() -> None:
    """Only the command line names formats; a comparison with ``fmt`` elsewhere is a format chosen
    outside the renderer."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent.name in ("cli", "serve") or path.name == "plots.py":  # the front doors: the command line and the HTTP API
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(isinstance(side, ast.Name) and side.id in ("fmt", "format") for side in [node.left, *node.comparators]):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


# --- defects of the renderers before (issue 19) ------------------------------------------------------


def test_csv_of_the_pure_choices_quotes_a_policy_of_several_points(run, tmp_path) -> None:
    """A rule set with two option points: each policy names both, with a comma; unquoted, it was
    two fields (12 under 11 headers)."""
    code, toml, _ = run("rules", "--rules", "baccarat_gold", "--format", "toml")
    assert code == 0
    rules = tmp_path / "two.toml"
    rules.write_text(toml.replace("4   S S S D D D D D S S", "4   S S S D D D D D S C"), encoding="utf-8")
    code, out, err = run("--rules", str(rules), "--decks", "1", "--bets", "banker", "--format", "csv")
    assert (code, err) == (0, "")
    header, *rows = list(csv.reader(out.splitlines()))
    assert header[0] == "policy" and {len(row) for row in rows} == {len(header)}
    policies = {f"player_on_5={player},banker_on_4_vs_9={banker}" for player in ("draw", "stand") for banker in ("draw", "stand")}
    assert {row[0] for row in rows} == policies


def test_markdown_cells_escape_a_bar(run, tmp_path) -> None:
    """An event named with a "|": unescaped, it split its row into one column more than the header."""
    bets = tmp_path / "bets.toml"
    bets.write_text('[[bet]]\nname = "pipe"\ndescription = "Banker"\npays = [\n  { when = "winner == banker", pays = "1", event = "banker | natural" },\n]\n',
                    encoding="utf-8")
    code, out, err = run("--decks", "1", "--bets-file", str(bets), "--bets", "pipe", "--format", "markdown", "--returns")
    assert (code, err) == (0, "")
    tables = [part.splitlines() for part in out.split("\n\n") if part.startswith("|")]
    assert len(tables) == 3
    for lines in tables:
        assert len({len(re.findall(r"(?<!\\)\|", line)) for line in lines}) == 1, lines
    assert tables[2][2].startswith("| banker \\| natural ")


def test_the_report_index_links_only_its_pages() -> None:
    """A bet named "bet": the Markdown index linked the column heading "bet" to its page too."""
    from exact_odds.commands.report import Page, index_page
    from exact_odds.commands.report_sections import ReportSettings
    from exact_odds.output.render import render_markdown

    settings = ReportSettings(0, 1, Fraction(7, 8), True, "baccarat-odds report", datetime(2024, 1, 1, tzinfo=timezone.utc), "0")
    index = render_markdown(index_page([Page("bet", None, (), ("1.0000%", "0.9000"), None)], settings))  # the index reads a page's name and summary only
    assert index.splitlines()[4:7] == ["| bet           |   house edge |   standard deviation |",
                                       "|---------------|--------------|----------------------|",
                                       "| [bet](bet.md) |      1.0000% |               0.9000 |"]
