"""The table's view as a command: a bet mix at a table (:mod:`exact_odds.studies.exposure`), its
request, run and document.

The request names the shoe, the rules as resolved, the mix (bet: amount), the pace (decisions an
hour), the table's limits and a table differential where one is set; :func:`run` gives the exact
:class:`~exact_odds.studies.exposure.TableView`, and :func:`document` the tables a person reads
(JSON: the view's record ``exact_odds.table``).

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> mix = parse_mix("banker=100, tie=10", "mix")
>>> mix
{'banker': '100', 'tie': '10'}
>>> view = run(TableRequest(shoe=Shoe.decks(8), decisions=resolve(PUNTO_BANCO), mix=mix, pace=70))
>>> view.offered.exposure, percent(view.offered.hold)
(Fraction(85, 1), '2.2672%')
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ..core.numbers import fixed, money, percent, square_root
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Heading, Paragraph, Table, table
from .size import amount_text
from ..studies.exposure import MixFigures, TableView, side_difference, table_view
from ..studies.sizing import Limits

DEFAULT_PACE = 70
"""Decisions an hour where no pace is given: a full baccarat table's usual pace."""


def parse_mix(text: str, option: str, parameter: str | None = None) -> dict[str, str]:
    """A bet mix as people write it: ``NAME=AMOUNT`` pairs separated by commas (the amounts are
    checked as exact numbers by :func:`~exact_odds.studies.exposure.table_view`); a refusal names
    ``option``, its ``parameter`` ``parameter``."""
    if not text.strip():
        raise InputError(f"{option} is empty: give NAME=AMOUNT pairs separated by commas, e.g. banker=100,tie=10", parameter=parameter)
    mix: dict[str, str] = {}
    for part in text.split(","):
        name, equals, amount = part.partition("=")
        name = name.strip().lower()
        if not equals or not name or not amount.strip():
            raise InputError(f"{option}: {part.strip()!r} is not NAME=AMOUNT (e.g. banker=100)", parameter=parameter)
        if name in mix:
            raise InputError(f"{option}: {name} is given twice", parameter=parameter)
        mix[name] = amount.strip()
    return mix


@dataclass(frozen=True, kw_only=True)
class TableRequest:
    """A bet mix at a table. Its amounts, pace, limits and differential are checked once, by
    :func:`~exact_odds.studies.exposure.table_view` (refused: an :class:`InputError` naming
    ``amounts``, ``pace``, ``limits`` or ``differential``), before anything is printed or written."""

    shoe: Shoe
    decisions: Decisions
    mix: Mapping[str, "Fraction | int | str"]
    pace: "int | str" = DEFAULT_PACE
    limits: Limits = field(default_factory=Limits)
    differential: "Fraction | int | str | None" = None


def run(request: TableRequest) -> TableView:
    """The table's view of the request's mix, exactly."""
    return table_view(request.shoe, request.mix, request.pace, request.decisions, limits=request.limits, differential=request.differential)


def mix_blocks(figures: MixFigures) -> list[Block]:
    """One mix: its amounts, its figures (exact and decimal) and the distribution of the house's result on a coup."""
    worst = figures.results[0]
    chance = figures.probability(worst)
    rows = [("amount bet per coup", str(figures.handle), amount_text(figures.handle)),
            ("house's expected win per coup", str(figures.expected_win), fixed(figures.expected_win, 4)),
            ("hold (expected win over the amount bet)", str(figures.hold), percent(figures.hold)),
            ("standard deviation per coup", "", square_root(figures.variance, 4)),
            (f"theoretical win per hour ({figures.pace} decisions)", str(figures.win_per_hour), fixed(figures.win_per_hour, 2)),
            ("standard deviation per hour", "", square_root(figures.variance * figures.pace, 2)),
            ("worst coup: the most the house pays (maximum exposure)", str(figures.exposure), amount_text(figures.exposure)),
            ("probability of the worst coup", str(chance), f"{percent(chance, 6)}, 1 in {fixed(1 / chance, 1)}")]
    lines = ", ".join(f"{name}: {event}" for name, event in figures.worst_events)
    distribution = [(amount_text(result.amount), f"{result.combinations:,}", str(figures.probability(result)), fixed(figures.probability(result), 10))
                    for result in figures.results]
    return [table(("bet", "amount"), [(name, amount_text(amount)) for name, amount in figures.amounts], ("left", "right")),
            table(("measure", "exact", "decimal"), rows, ("left", "right", "right")),
            Paragraph(f"The worst coup for the house: {lines}."),
            table(("house's result", "combinations", "probability", "decimal"), distribution, ("right", "right", "right", "right"))]


def view_blocks(view: TableView) -> list[Block]:
    """The view as blocks: the mix as offered and, where a differential is set, the mix it lets stand."""
    blocks: list[Block] = [Paragraph(f"Shoe: {view.joint.shoe}; rules {view.joint.decisions.rules.name}; {view.offered.pace} decisions an hour. "
                                     f"The house's result on a coup (its win; negative where it pays) from the exact joint distribution of "
                                     f"the bets' lines, over {view.joint.total:,} card sequences.")]
    blocks += [Heading(3, "The mix as offered"), *mix_blocks(view.offered)]
    if view.differential is not None and view.capped is not None:
        offered = side_difference(view.offered.amounts)
        if view.capped is view.offered:
            blocks.append(Paragraph(f"Table differential {money(view.differential)}: the banker side less the player side is "
                                    f"{amount_text(offered)}, within the cap; the mix stands as offered."))
        else:
            blocks += [Heading(3, f"The mix the table differential of {money(view.differential)} lets stand"),
                       Paragraph(f"The banker side less the player side is {amount_text(offered)} as offered; the heavier side's bets are "
                                 "cut pro rata until the difference is the cap."),
                       *mix_blocks(view.capped)]
    return blocks


def flat_table(view: TableView) -> Table:
    """Every mix's distribution of the house's result, one row a value (the CSV)."""
    mixes = [("offered", view.offered)] + ([("capped", view.capped)] if view.capped is not None and view.capped is not view.offered else [])
    return table(("mix", "house_result", "combinations", "probability"),
                 [(name, str(result.amount), str(result.combinations), str(figures.probability(result)))
                  for name, figures in mixes for result in figures.results])


def document(view: TableView) -> Document:
    """The view as a document (``--format``: table, markdown, csv, json)."""
    return Document(tuple(view_blocks(view)), Data(view.to_dict(), flat_table(view)), title="The table's view")
