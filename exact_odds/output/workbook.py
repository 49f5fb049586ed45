"""The PAR workbook: an .xlsx whose cells recompute, as a test lab or a casino works in one.

A sheet per bet: the pay table with each line's pay as an input cell under a defined name
(``<bet>_pay_<row>``), each line's exact count of card sequences and its probability as a formula,
and, as formulas over those cells, each line's return, "1 in N", true odds against, fair pay and
GLI-11 check (section 4.8.2), and the bet's house edge (``<bet>_house_edge``), edge per bet
resolved, hit and push frequencies, variance, standard deviation, volatility indices and element of
risk; then the counts on each deck count with the edge they give. Change a pay and every figure
follows. A summary sheet: the cover, every wager's true odds, payout odds and house advantage
(COMAR 36.05.03.20), the GLI-11 check of every line, the bets' figures side by side and their house
edges by number of decks, all referring to the bets' sheets. A sheet of inputs: the program, the
command and every input with its SHA-256 and full text.

A spreadsheet's number is a double, exact for integers below 2^53 (:data:`EXACT_LIMIT`): 8 decks'
ordered 6-card counts stay under it. A count of a larger total is carried as its probability in
lowest terms (numerator and denominator, each exact), and the sheet says so; a fraction whose parts
pass 2^53 too is written as text beside its nearest double, and the sheet says that as well.

Every text is written as a string, never a formula: a title or an event beginning with ``=``,
``+``, ``-`` or ``@`` is also marked as text for a spreadsheet that edits it (spreadsheet
injection). The writer takes plain data (the shapes below; :func:`exact_odds.studies.par.par_sheet`
builds them) and imports openpyxl only when it writes (``pip install 'exact_odds[xlsx]'``).
"""

import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Protocol

from ..errors import InputError

EXACT_LIMIT = 2**53
"""Integers below this are exact in a spreadsheet (a double's 53-bit significand)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
"""A text beginning with one of these would be read as a formula by a spreadsheet that edits it."""
SUMMARY, INPUTS, TABLE = "PAR summary", "Inputs", "Table view"
"""The summary's, the inputs' and the table view's sheets (a space or a capital in each: no bet is named so)."""
NAME = re.compile(r"[a-z][a-z0-9_]{0,59}")
"""A bet's name, as a bets file allows it: a defined name's prefix, and a sheet's name."""
CONFIDENCE = (("90", "1.645"), ("95", "1.96"))
"""The volatility index's confidence levels and two-sided normal quantiles."""
GLI_GAMES = 100_000_000
"""GLI-11 (section 4.8.2): an advertised award occurs at least once in this many games, or its odds are displayed."""
FIRST_LINE = 6
"""The row of a bet sheet's first pay line (below the title, the shoe, the counting note and the header)."""
HEADER = ("line", "event", "pays (as written)", "pays (net, per unit): input", "combinations", "of", "probability", "return",
          "1 in N", "true odds against (to 1)", "fair pay (house edge 0)", "GLI-11 4.8.2", "condition")
"""The columns A to M of a bet sheet's pay table; the deck counts follow from column N."""
PERCENT, DECIMAL, WHOLE = "0.0000%", "0.000000", "#,##0"


class LineData(Protocol):
    @property
    def row(self) -> int | None: ...
    @property
    def event(self) -> str: ...
    @property
    def when(self) -> str: ...
    @property
    def pays(self) -> str: ...
    @property
    def net(self) -> Fraction: ...
    @property
    def combinations(self) -> int: ...


class DeckData(Protocol):
    @property
    def decks(self) -> str: ...
    @property
    def combinations(self) -> Sequence[int]: ...
    @property
    def total(self) -> int: ...


class BetData(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def lines(self) -> Sequence[LineData]: ...
    @property
    def total(self) -> int: ...
    @property
    def decks(self) -> Sequence[DeckData]: ...


class InputData(Protocol):
    @property
    def role(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def sha256(self) -> str: ...


class ResultData(Protocol):
    @property
    def amount(self) -> Fraction: ...
    @property
    def combinations(self) -> int: ...


class MixData(Protocol):
    @property
    def amounts(self) -> Sequence[tuple[str, Fraction]]: ...
    @property
    def results(self) -> Sequence[ResultData]: ...
    @property
    def total(self) -> int: ...
    @property
    def pace(self) -> int: ...
    @property
    def worst_events(self) -> Sequence[tuple[str, str]]: ...


class TableData(Protocol):
    @property
    def offered(self) -> MixData: ...
    @property
    def differential(self) -> Fraction | None: ...
    @property
    def capped(self) -> MixData | None: ...


class SheetData(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def submitter(self) -> str: ...
    @property
    def shoe(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def date(self) -> str: ...
    @property
    def command(self) -> str: ...
    @property
    def bets(self) -> Sequence[BetData]: ...
    @property
    def inputs(self) -> Sequence[InputData]: ...
    @property
    def table(self) -> TableData | None: ...


@dataclass(frozen=True)
class Placed:
    """Where a bet's sheet put what the summary refers to."""

    bet: BetData
    sheet: str
    deck_edges: tuple[str, ...]
    """The cell of the house edge on each deck count."""

    def at(self, cell: str) -> str:
        return f"'{self.sheet}'!{cell}"


def text(cell: Any, value: str) -> None:
    """``value`` as a string, never a formula (and marked as text where it begins like one)."""
    cell.value = value
    cell.data_type = "s"
    if value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True


def formula(cell: Any, expression: str, number_format: str | None = None) -> None:
    cell.value = "=" + expression
    if number_format:
        cell.number_format = number_format


def number(cell: Any, value: int | float, number_format: str | None = None) -> None:
    assert not isinstance(value, int) or abs(value) < EXACT_LIMIT, "an integer a spreadsheet cannot hold exactly"
    cell.value = value
    if number_format:
        cell.number_format = number_format


def put(sheet: Any, row: int, values: Sequence[object], bold: bool = False) -> None:
    """A row of texts and numbers from column A."""
    from openpyxl.styles import Font

    for column, value in enumerate(values, 1):
        cell = sheet.cell(row=row, column=column)
        if isinstance(value, str):
            text(cell, value)
        elif isinstance(value, (int, float)):
            number(cell, value)
        if bold:
            cell.font = Font(bold=True)


def column(index: int) -> str:
    """The letters of the ``index``-th column (1: A)."""
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(index))


def exact_probability(cell: Any, numerator: int, denominator: int) -> bool:
    """The probability numerator / denominator as ``=n/d`` in lowest terms (exact parts), or where
    even those pass 2^53 its nearest double; whether it is exact."""
    reduced = Fraction(numerator, denominator)
    if max(abs(reduced.numerator), reduced.denominator) < EXACT_LIMIT:
        formula(cell, f"{reduced.numerator}/{reduced.denominator}")
        return True
    nearest(cell, reduced)
    return False


def nearest(cell: Any, value: Fraction) -> None:
    """The double nearest ``value``, as a formula of its shortest exact decimal (a number cell keeps 16 digits, not all 17)."""
    formula(cell, repr(float(value)), "0.000000000000")


def add_name(book: Any, name: str, sheet: str, cell: str) -> None:
    from openpyxl.workbook.defined_name import DefinedName

    book.defined_names[name] = DefinedName(name, attr_text=f"'{sheet}'!{absolute(cell)}")


def absolute(cell: str) -> str:
    """``B7`` as ``$B$7``."""
    match = re.fullmatch(r"([A-Z]+)([0-9]+)", cell)
    assert match is not None
    return f"${match[1]}${match[2]}"


def write_lines(sheet: Any, bet: BetData, counted: bool) -> list[str]:
    """The pay table (columns A to M), one row per line; the lines that are not exact in a spreadsheet."""
    last = FIRST_LINE + len(bet.lines) - 1
    edge = f"{bet.name}_house_edge"
    inexact = []
    for row, line in enumerate(bet.lines, FIRST_LINE):
        put(sheet, row, ("other" if line.row is None else line.row, line.event, line.pays))
        number(sheet[f"D{row}"], float(line.net))
        if counted:
            number(sheet[f"E{row}"], line.combinations, WHOLE)
            number(sheet[f"F{row}"], bet.total, WHOLE)
        else:
            reduced = Fraction(line.combinations, bet.total)
            if max(abs(reduced.numerator), reduced.denominator) < EXACT_LIMIT:
                number(sheet[f"E{row}"], reduced.numerator, WHOLE)
                number(sheet[f"F{row}"], reduced.denominator, WHOLE)
            else:
                text(sheet[f"E{row}"], str(reduced))
                inexact.append(line.event)
        if sheet[f"F{row}"].value is not None:
            formula(sheet[f"G{row}"], f"E{row}/F{row}", "0.000000000000")
        else:
            nearest(sheet[f"G{row}"], Fraction(line.combinations, bet.total))
        formula(sheet[f"H{row}"], f"D{row}*G{row}", "0.000000000000")
        formula(sheet[f"I{row}"], f'IF(G{row}=0,"never",1/G{row})', "#,##0.00")
        formula(sheet[f"J{row}"], f'IF(G{row}=0,"never",(1-G{row})/G{row})', "#,##0.0000")
        if line.row is not None:
            formula(sheet[f"K{row}"], f'IF(G{row}=0,"never",D{row}+{edge}/G{row})', "#,##0.0000")
        formula(sheet[f"L{row}"], f'IF(D{row}<=0,"not an award",IF(G{row}*{GLI_GAMES}>=1,"passes",'
                                   f'IF(G{row}=0,"never occurs: display that it cannot be won","display the odds: 1 in "&FIXED(1/G{row},0))))')
        text(sheet[f"M{row}"], line.when)
    put(sheet, last + 1, ("total",), bold=True)
    if counted:
        formula(sheet[f"E{last + 1}"], f"SUM(E{FIRST_LINE}:E{last})", WHOLE)
    formula(sheet[f"G{last + 1}"], f"SUM(G{FIRST_LINE}:G{last})", "0.000000000000")
    formula(sheet[f"H{last + 1}"], f"SUM(H{FIRST_LINE}:H{last})", "0.000000000000")
    return inexact


def write_measures(book: Any, sheet: Any, name: str, bet: BetData, first: int) -> None:
    """The bet's figures as named formulas over its pay table, from row ``first``."""
    last = FIRST_LINE + len(bet.lines) - 1
    pays, chances = f"$D${FIRST_LINE}:$D${last}", f"$G${FIRST_LINE}:$G${last}"
    n = bet.name
    measures = [
        ("expected_value", "expected value per unit bet (the player's)", f"SUMPRODUCT({pays},{chances})", PERCENT),
        ("house_edge", "house edge per bet made", f"-{n}_expected_value", PERCENT),
        ("push_frequency", "push frequency", f"SUMIF({pays},0,{chances})", PERCENT),
        ("edge_resolved", "house edge per bet resolved (pushes excluded)", f'IF({n}_push_frequency>=1,"never resolves",{n}_house_edge/(1-{n}_push_frequency))', PERCENT),
        ("hit_frequency", "hit frequency (the bet wins)", f'SUMIF({pays},">0",{chances})', PERCENT),
        ("variance", "variance per unit bet", f"SUMPRODUCT({pays},{pays},{chances})-{n}_expected_value^2", DECIMAL),
        ("standard_deviation", "standard deviation per unit bet", f"SQRT(MAX(0,{n}_variance))", DECIMAL),
        *((f"volatility_index_{level}", f"volatility index at {level}% confidence ({z} x standard deviation)", f"{z}*{n}_standard_deviation", DECIMAL)
          for level, z in CONFIDENCE),
        ("amount_wagered", "amount wagered per unit bet (a baccarat bet is never raised)", "", DECIMAL),
        ("element_of_risk", "element of risk (expected loss over the amount wagered)", f"{n}_house_edge/{n}_amount_wagered", PERCENT),
        ("maximum_payout", "maximum payout per unit bet", f"MAX({pays})", DECIMAL),
        ("maximum_payout_probability", "probability of the maximum payout", f"SUMIF({pays},{n}_maximum_payout,{chances})", "0.000000000000"),
    ]
    for row, (key, label, expression, number_format) in enumerate(measures, first):
        text(sheet[f"A{row}"], label)
        if expression:
            formula(sheet[f"D{row}"], expression, number_format)
        else:
            number(sheet[f"D{row}"], 1, number_format)
        add_name(book, f"{n}_{key}", name, f"D{row}")


def deck_label(decks: str) -> str:
    """``"1 deck"``, ``"8 decks"``, ``"infinite deck"``."""
    return "infinite deck" if decks == "inf" else f"{decks} deck{'' if decks == '1' else 's'}"


def write_decks(sheet: Any, bet: BetData) -> tuple[tuple[str, ...], list[str]]:
    """Each deck count's counts of the lines (from column N), their total and the edge at the sheet's
    pays; the cells of the edges, and the deck counts with a probability not exact in a spreadsheet."""
    last = FIRST_LINE + len(bet.lines) - 1
    edges, inexact = [], []
    for index, deck in enumerate(bet.decks):
        letter = column(14 + index)
        text(sheet[f"{letter}{FIRST_LINE - 1}"], f"{deck_label(deck.decks)}: combinations")
        counted = deck.total < EXACT_LIMIT
        for row, count in enumerate(deck.combinations, FIRST_LINE):
            if counted:
                number(sheet[f"{letter}{row}"], count, WHOLE)
            elif not exact_probability(sheet[f"{letter}{row}"], count, deck.total):
                inexact.append(deck_label(deck.decks))
        number(sheet[f"{letter}{last + 1}"], deck.total if counted else 1, WHOLE if counted else None)
        formula(sheet[f"{letter}{last + 2}"], f"-SUMPRODUCT($D${FIRST_LINE}:$D${last},{letter}{FIRST_LINE}:{letter}{last})/{letter}{last + 1}", PERCENT)
        edges.append(f"{letter}{last + 2}")
    if bet.decks:
        text(sheet[f"M{last + 1}"], "total (1: the counts are probabilities)")
        text(sheet[f"M{last + 2}"], "house edge at these pays")
    return tuple(edges), list(dict.fromkeys(inexact))


def write_bet(book: Any, name: str, bet: BetData) -> Placed:
    """One bet's sheet (see the module docstring)."""
    sheet = book.create_sheet(name)
    counted = bet.total < EXACT_LIMIT
    put(sheet, 1, (bet.name, bet.description), bold=True)
    put(sheet, 2, ("total",))
    if counted:
        text(sheet["C2"], "card sequences counted, each line's count an exact integer (below 2^53)")
        number(sheet["B2"], bet.total, WHOLE)
    else:
        text(sheet["B2"], str(bet.total))
        text(sheet["C2"], "sequences counted: past 2^53, beyond a spreadsheet's exact integers; each line carries its probability "
                          "in lowest terms instead (numerator and denominator)")
    put(sheet, FIRST_LINE - 1, HEADER, bold=True)
    if not counted:
        text(sheet["E5"], "probability: numerator")
        text(sheet["F5"], "denominator")
    inexact = write_lines(sheet, bet, counted)
    for row, line in enumerate(bet.lines, FIRST_LINE):
        if line.row is not None:
            add_name(book, f"{bet.name}_pay_{line.row}", name, f"D{row}")
    edges, inexact_decks = write_decks(sheet, bet)
    text(sheet["A3"], "Pays in column D are inputs: change one and every figure follows.")
    if inexact or inexact_decks:
        text(sheet["C3"], "not exact in a spreadsheet (a part of the probability in lowest terms passes 2^53), its nearest double instead: "
                          + ", ".join(inexact + inexact_decks))
    write_measures(book, sheet, name, bet, FIRST_LINE + len(bet.lines) + 3)
    sheet.column_dimensions["A"].width = 44
    sheet.column_dimensions["B"].width = 34
    return Placed(bet, name, edges)


def summary_cover(sheet: Any, data: SheetData, row: int) -> int:
    """The cover's fields from ``row``; the row after them."""
    cover = (("title", data.title), ("game", data.game), ("submitter", data.submitter), ("shoe", data.shoe), ("rules version", data.rules),
             ("program version", data.version), ("date", data.date))
    for row, (label, value) in enumerate(cover, row):
        put(sheet, row, (label, value))
    return row + 1


def summary_wagers(sheet: Any, placed: Sequence[Placed], row: int) -> int:
    """Every pay line's true odds, payout odds and its wager's house advantage (COMAR 36.05.03.20) and GLI-11 check."""
    put(sheet, row, ("True odds, payout odds and house advantage of each wager (COMAR 36.05.03.20); GLI-11 section 4.8.2: an advertised award "
                     f"occurs at least once in {GLI_GAMES:,} games, or its odds are displayed",), bold=True)
    put(sheet, row + 1, ("bet", "line", "event", "true odds against (to 1)", "payout odds (to 1)", "house advantage of the wager", "1 in N",
                         "GLI-11 4.8.2"), bold=True)
    row += 2
    for bet in placed:
        for line_row, line in enumerate(bet.bet.lines, FIRST_LINE):
            if line.row is None:
                continue
            put(sheet, row, (bet.bet.name, line.row, line.event))
            formula(sheet[f"D{row}"], bet.at(f"J{line_row}"), "#,##0.0000")
            pay = bet.at(f"D{line_row}")
            formula(sheet[f"E{row}"], f'IF({pay}>0,{pay},IF({pay}=0,"push","loses "&-{pay}))')
            formula(sheet[f"F{row}"], f"{bet.bet.name}_house_edge", PERCENT)
            formula(sheet[f"G{row}"], bet.at(f"I{line_row}"), "#,##0.00")
            formula(sheet[f"H{row}"], bet.at(f"L{line_row}"))
            row += 1
    return row


SUMMARY_FIGURES = (("house edge", "house_edge", PERCENT), ("per bet resolved", "edge_resolved", PERCENT), ("hit frequency", "hit_frequency", PERCENT),
                   ("standard deviation", "standard_deviation", DECIMAL),
                   *((f"volatility index {level}%", f"volatility_index_{level}", DECIMAL) for level, _ in CONFIDENCE),
                   ("element of risk", "element_of_risk", PERCENT), ("maximum payout", "maximum_payout", DECIMAL))
"""The bets' figures the summary sets side by side: a heading, the key of the bet's named cell, a number format."""


def summary_figures(sheet: Any, placed: Sequence[Placed], row: int) -> int:
    put(sheet, row, ("The bets' figures (per unit bet, at the pays of their sheets)",), bold=True)
    put(sheet, row + 1, ("bet", *(label for label, _, _ in SUMMARY_FIGURES)), bold=True)
    for row, bet in enumerate(placed, row + 2):
        put(sheet, row, (bet.bet.name,))
        for index, (_, key, number_format) in enumerate(SUMMARY_FIGURES, 2):
            formula(sheet.cell(row=row, column=index), f"{bet.bet.name}_{key}", number_format)
    return row + 1


def summary_decks(sheet: Any, placed: Sequence[Placed], row: int) -> int:
    put(sheet, row, ("House edge by number of decks (at the pays of the bets' sheets)",), bold=True)
    put(sheet, row + 1, ("bet", *(deck_label(deck.decks) for deck in placed[0].bet.decks)), bold=True)
    for row, bet in enumerate(placed, row + 2):
        put(sheet, row, (bet.bet.name,))
        for index, cell in enumerate(bet.deck_edges, 2):
            formula(sheet.cell(row=row, column=index), bet.at(cell), PERCENT)
    return row + 1


def summary_provenance(sheet: Any, data: SheetData, row: int) -> int:
    put(sheet, row, (f"Provenance (every input's full text: the sheet {INPUTS})",), bold=True)
    put(sheet, row + 1, ("command", data.command))
    put(sheet, row + 2, ("input", "file", "SHA-256"), bold=True)
    for row, item in enumerate(data.inputs, row + 3):
        put(sheet, row, (item.role, item.name, item.sha256))
    return row + 1


def write_summary(sheet: Any, data: SheetData, placed: Sequence[Placed]) -> None:
    """The cover, the COMAR and GLI-11 lines, the bets' figures, their edges by number of decks and the provenance."""
    row = summary_cover(sheet, data, 1)
    row = summary_wagers(sheet, placed, row + 1)
    row = summary_figures(sheet, placed, row + 1)
    if placed[0].bet.decks:
        row = summary_decks(sheet, placed, row + 1)
    summary_provenance(sheet, data, row + 1)
    sheet.column_dimensions["A"].width = 24
    sheet.column_dimensions["C"].width = 40


def write_inputs(sheet: Any, data: SheetData) -> None:
    """The program, the command, and every input: its SHA-256 and its text, a line a row."""
    put(sheet, 1, ("program", data.version))
    put(sheet, 2, ("command", data.command))
    put(sheet, 3, ("date", data.date))
    put(sheet, 5, ("input", "file", "SHA-256"), bold=True)
    row = 6
    for item in data.inputs:
        put(sheet, row, (item.role, item.name, item.sha256))
        row += 1
    for item in data.inputs:
        row += 1
        put(sheet, row, (f"{item.role}: {item.name}", f"SHA-256 {item.sha256}"), bold=True)
        for line in item.text.splitlines():
            row += 1
            put(sheet, row, ("", line))
    sheet.column_dimensions["A"].width = 30
    sheet.column_dimensions["B"].width = 80


def amount_cell(cell: Any, value: Fraction) -> bool:
    """An amount of money: a number where a double holds it exactly, else its nearest double; whether exact."""
    if Fraction(float(value)) == value:
        number(cell, int(value) if value.denominator == 1 and abs(value) < EXACT_LIMIT else float(value), "#,##0.00")
        return True
    nearest(cell, value)
    cell.number_format = "#,##0.00"
    return False


def write_mix(book: Any, sheet: Any, mix: MixData, heading: str, prefix: str, row: int) -> int:
    """One bet mix from ``row``: its amounts, the distribution of the house's result on a coup and,
    as named formulas (``<prefix>_hold``, ...), what follows from it; the row after it."""
    put(sheet, row, (heading,), bold=True)
    put(sheet, row + 1, ("bet", "amount"), bold=True)
    first = row + 2
    for row, (name, amount) in enumerate(mix.amounts, first):
        put(sheet, row, (name,))
        amount_cell(sheet[f"B{row}"], amount)
    put(sheet, row + 1, ("amount bet per coup",))
    formula(sheet[f"B{row + 1}"], f"SUM(B{first}:B{row})", "#,##0.00")
    add_name(book, f"{prefix}_handle", TABLE, f"B{row + 1}")
    counted = mix.total < EXACT_LIMIT
    put(sheet, row + 3, ("house's result (its win; negative: it pays)", *(("combinations", "of", "probability") if counted else
                         ("", "", "probability (in lowest terms; past 2^53, its nearest double)"))), bold=True)
    start = row + 4
    for row, result in enumerate(mix.results, start):
        amount_cell(sheet[f"A{row}"], result.amount)
        if counted:
            number(sheet[f"B{row}"], result.combinations, WHOLE)
            number(sheet[f"C{row}"], mix.total, WHOLE)
            formula(sheet[f"D{row}"], f"B{row}/C{row}", "0.000000000000")
        else:
            exact_probability(sheet[f"D{row}"], result.combinations, mix.total)
    results, chances = f"$A${start}:$A${row}", f"$D${start}:$D${row}"
    measures = [
        ("expected_win", "house's expected win per coup", f"SUMPRODUCT({results},{chances})", "#,##0.0000"),
        ("hold", "hold (expected win over the amount bet)", f"{prefix}_expected_win/{prefix}_handle", PERCENT),
        ("variance_of_win", "variance of the house's result per coup", f"SUMPRODUCT({results},{results},{chances})-{prefix}_expected_win^2", "#,##0.00"),
        ("deviation_of_win", "standard deviation per coup", f"SQRT(MAX(0,{prefix}_variance_of_win))", "#,##0.0000"),
        ("pace", "pace: decisions an hour (input)", "", WHOLE),
        ("win_per_hour", "theoretical win per hour", f"{prefix}_expected_win*{prefix}_pace", "#,##0.00"),
        ("deviation_per_hour", "standard deviation per hour", f"SQRT(MAX(0,{prefix}_variance_of_win*{prefix}_pace))", "#,##0.00"),
        ("exposure", "worst coup: the most the house pays (maximum exposure)", f"MAX(0,-MIN({results}))", "#,##0.00"),
        ("worst_probability", "probability of the worst coup", f"D{start}", "0.000000000000"),
    ]
    for row, (key, label, expression, number_format) in enumerate(measures, row + 2):
        put(sheet, row, (label,))
        if expression:
            formula(sheet[f"B{row}"], expression, number_format)
        else:
            number(sheet[f"B{row}"], mix.pace, number_format)
        add_name(book, f"{prefix}_{key}", TABLE, f"B{row}")
    put(sheet, row + 1, ("the worst coup's lines", ", ".join(f"{name}: {event}" for name, event in mix.worst_events)))
    return row + 3


def write_table(book: Any, table: TableData, shoe: str) -> None:
    """The table's view (:mod:`exact_odds.studies.exposure`): the mix as offered and, where a table
    differential is set, the mix it lets stand."""
    sheet = book.create_sheet(TABLE)
    put(sheet, 1, ("The table's view: a bet mix at a table", shoe), bold=True)
    put(sheet, 2, ("The house's results come from the amounts as given (exactly, over the joint distribution of the bets' lines); "
                   "the pace is an input: change it and the win per hour follows.",))
    row = write_mix(book, sheet, table.offered, "The mix as offered", "table", 4)
    if table.differential is not None and table.capped is not None and table.capped is not table.offered:
        write_mix(book, sheet, table.capped, f"The mix the table differential of {table.differential} lets stand", "table_capped", row)
    sheet.column_dimensions["A"].width = 52
    sheet.column_dimensions["B"].width = 24


def sheet_names(bets: Sequence[BetData]) -> list[str]:
    """A sheet name per bet: its name, refused unless a bets file's (lower-case letters, digits and
    _), cut to 31 characters (a spreadsheet's longest) and numbered where two would be alike."""
    names: list[str] = []
    for index, bet in enumerate(bets, 1):
        if not NAME.fullmatch(bet.name):
            raise InputError(f"bet name {bet.name!r} cannot name a sheet: lower-case letters, digits and _ (at most 60)", parameter="bets")
        name = bet.name[:31]
        if name in names:
            name = f"{bet.name[:24]}~{index}"
        names.append(name)
    if len({bet.name for bet in bets}) < len(bets):
        raise InputError("two bets share a name: a workbook names its cells after the bets", parameter="bets")
    return names


def require_openpyxl() -> None:
    """Refuse in one line, naming the extra, where openpyxl is not installed (checked before any work)."""
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        raise InputError("the workbook needs openpyxl: pip install 'exact_odds[xlsx]' (or openpyxl)") from None


def workbook_bytes(data: SheetData, stamp: datetime | None = None) -> bytes:
    """The PAR workbook of ``data`` as the bytes of an .xlsx file; given ``stamp`` (the report's
    date), the same data gives the same bytes."""
    require_openpyxl()
    import openpyxl

    if not data.bets:
        raise InputError("a workbook needs at least one bet", parameter="bets")
    book = openpyxl.Workbook()
    summary = book.active
    summary.title = SUMMARY
    placed = [write_bet(book, name, bet) for name, bet in zip(sheet_names(data.bets), data.bets)]
    write_summary(summary, data, placed)
    if data.table is not None:
        write_table(book, data.table, data.shoe)
    write_inputs(book.create_sheet(INPUTS), data)
    book.calculation.fullCalcOnLoad = True  # no value is cached: a spreadsheet computes every formula on opening
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue() if stamp is None else reproducible(buffer.getvalue(), stamp)


def reproducible(data: bytes, stamp: datetime) -> bytes:
    """The .xlsx ``data`` with its document dates set to ``stamp`` and its members' times fixed."""
    moment = stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            content = source.read(member.filename)
            if member.filename == "docProps/core.xml":
                content = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", lambda found: found[1] + moment.encode(), content)
            target.writestr(zipfile.ZipInfo(member.filename, (1980, 1, 1, 0, 0, 0)), content, zipfile.ZIP_DEFLATED)
    return out.getvalue()
