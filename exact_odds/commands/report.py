"""The math report of a bet: what a game designer submits to a regulator, one document per bet.

Each page is a submission (:mod:`exact_odds.output.report_pages`): a cover (title, game, submitter,
rules version, program version, date), a table of contents, and sections built as blocks
(:mod:`exact_odds.output.blocks`, in :mod:`.report_sections`) from the exact analysis: the rules of play with each condition in
words, example coups of every pay line dealt from the enumeration, the pay schedule, the
combinations table, the edges, hit frequency, standard deviation, volatility index and the
confidence intervals of the hold, the maximum payout, the edge for each deck count asked with its
closed form typeset, the effects of removal and a seeded counting simulation, and the provenance
(the command, the program version, every input's text and SHA-256). It is written as a
self-contained HTML page (inline CSS, plots as inline SVG, formulas in MathML, print styling),
as Markdown (plots as SVG files beside it) and, on request, as a PDF printed by chromium.
"""

import dataclasses
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any

from ..bets.bets import Bet
from ..core.numbers import percent, shown
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.analysis import analyze_checked
from ..errors import InputError
from ..records import versioned
from ..studies.par import BetFigures, Digest, bet_figures
from .analyze import standard_deviation
from .setup import Setup
from .simulate import MAX_SIMULATED_CARDS
from ..output.blocks import Block, Document, Heading, Link, Paragraph, Plot
from ..output.render import json_text, render_html, render_markdown
from ..output.report_pages import Formula, Section, Submission, render_submission_html, render_submission_markdown
from .report_sections import (DEFAULT_DECKS, PHASES, Progress, ReportSettings, bet_definition, decks_section, edges_section, examples_section,
                              hit_frequency, payout_section, provenance_section, removal_section, returns_section, rules_section,
                              rules_version, simulation_section, table)


@dataclass(frozen=True, kw_only=True)
class ReportRequest:
    """A report asked for: the setup's rules, pays and bets (default: its bets file's, else the main
    bets) on its shoe, else on the largest finite deck count of ``decks`` (the edge-by-decks table's
    list, as text; default 1-8 and inf); the cover's ``title``, ``game`` and ``submitter`` (one line of
    printable text each); the counting simulation's ``shoes`` (0: none, else at least 2) and its
    ``seed``, ``penetration`` and ``burn`` (None: not given; given, they need a simulation); the
    table's view of the mix ``table`` (NAME=X,...) at ``per_hour``, within ``min``, ``max``,
    ``total_max`` and ``unit``, with a ``differential`` (see :class:`~exact_odds.commands.table.TableRequest`).
    Derived: ``deck_counts``, ``scope`` (the setup on the report's shoe and bets), ``shoe``, ``bets``,
    ``notes`` and ``view`` (the table's view, or None).

    >>> ReportRequest(setup=Setup(), decks="6", shoes=0, seed=2)
    Traceback (most recent call last):
    exact_odds.errors.InputError: seed set the counting simulation, and shoes 0 leaves the simulation out
    """

    setup: Setup
    decks: str | None = None
    title: str | None = None
    game: str | None = None
    submitter: str | None = None
    shoes: int = 500
    seed: int | None = None
    penetration: str | None = None
    burn: bool | None = None
    table: str | None = None
    per_hour: str | None = None
    min: str | None = None
    max: str | None = None
    total_max: Fraction | None = None
    unit: Fraction | None = None
    differential: str | None = None
    deck_counts: tuple[int | str, ...] = field(init=False)
    scope: Setup = field(init=False)
    shoe: Shoe = field(init=False)
    bets: list[Bet] = field(init=False)
    notes: list[str] = field(init=False)
    view: Any = field(init=False)

    def __post_init__(self) -> None:
        from .export import parse_deck_list

        for name in ("title", "game", "submitter"):
            text = getattr(self, name)
            if text is not None and (not text.strip() or not text.isprintable()):
                raise InputError(f"{name} must be one line of printable text, not {shown(text)}", parameter=name)
        decks = tuple(parse_deck_list(self.decks)) if self.decks is not None else DEFAULT_DECKS
        finite = [count for count in decks if count != "inf"]
        scope = self.setup
        if scope.shoe is None:
            scope = dataclasses.replace(scope, decks=max(finite, key=int) if finite else "inf")
        if scope.bets_file and not scope.bets:
            scope = dataclasses.replace(scope, bets=",".join(scope.own_bets or ()))
        shoe = scope.starting_shoe()
        bets, notes = scope.chosen_bets(suits_known=shoe.knows_suits)
        for name, value in (("deck_counts", decks), ("scope", scope), ("shoe", shoe), ("bets", bets), ("notes", notes)):
            object.__setattr__(self, name, value)
        self._check_simulation()
        object.__setattr__(self, "view", self._table_view())

    def _check_simulation(self) -> None:
        if self.shoes and self.shoe.size > MAX_SIMULATED_CARDS:
            raise InputError(f"the report's simulation shuffles at most {MAX_SIMULATED_CARDS:,} cards; this shoe holds {self.shoe.size:,} (or give shoes 0)",
                             parameter="shoes", mentions=("shoes 0",))
        if self.shoes == 1:
            raise InputError("shoes 1: the report's estimates carry standard errors, which need at least 2 shoes (or shoes 0: no simulation)",
                             parameter="shoes", mentions=("shoes 0",))
        given = [name for name in ("seed", "penetration", "burn") if getattr(self, name) is not None]
        if given and (not self.shoes or self.shoe.with_replacement):
            why = "shoes 0 leaves the simulation out" if not self.shoes else "the infinite deck has no simulation"
            raise InputError(f"{', '.join(given)} set the counting simulation, and {why}", parameter=given[0],
                             mentions=(*given[1:], *(("shoes 0",) if not self.shoes else ())))

    def _table_view(self) -> Any:
        from ..studies.sizing import Limits, per_bet
        from .table import DEFAULT_PACE, TableRequest, parse_mix, run

        options = ("per_hour", "min", "max", "total_max", "unit", "differential")
        if self.table is None:
            stray = [name for name in options if getattr(self, name) is not None]
            if stray:
                raise InputError(f"{', '.join(stray)}: for the table's view, which table MIX asks for (e.g. table banker=100,player=100); give it, "
                                 "or leave them out", parameter=stray[0], mentions=(*stray[1:], "table MIX", "table banker=100,player=100"))
            return None
        mix = parse_mix(self.table, "table", parameter="table")
        amounts = {name: per_bet(text, name, list(mix), parameter=name) if text is not None else {} for name, text in (("min", self.min), ("max", self.max))}
        limits = Limits(amounts["min"], amounts["max"], self.total_max, self.unit)
        try:
            return run(TableRequest(shoe=self.shoe, decisions=self.scope.decisions(self.shoe), mix=mix,
                                    pace=DEFAULT_PACE if self.per_hour is None else self.per_hour, limits=limits, differential=self.differential))
        except InputError as error:
            if error.parameter == "amounts":  # the mix is the report's table
                raise InputError("table" + str(error).removeprefix("amounts"), parameter="table") from None
            raise


@dataclass(frozen=True)
class Page:
    name: str
    submission: Submission
    plots: tuple[Plot, ...]
    summary: tuple[str, str]
    """The bet's house edge and standard deviation, for the index."""
    figures: BetFigures
    """The bet's PAR figures (the report's JSON; the workbook's, exactly)."""

def report_date(environment: dict[str, str] | None = None) -> datetime:
    """Now (UTC), or the time of ``SOURCE_DATE_EPOCH`` (seconds since 1970, the reproducible-builds convention)."""
    text = (os.environ if environment is None else environment).get("SOURCE_DATE_EPOCH")
    if text is None:
        return datetime.now(timezone.utc).replace(microsecond=0)
    if not re.fullmatch(r"[0-9]{1,11}", text.strip(), flags=re.ASCII):
        raise InputError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970, not {shown(text)}")
    return datetime.fromtimestamp(int(text), timezone.utc)

def bet_page(bet: Bet, shoe: Shoe, decisions: Decisions, settings: ReportSettings, progress: Progress | None = None, several: bool = False) -> Page:
    """One bet's submission, as data."""
    from ..studies.removal import removal_effects

    def phase(name: str) -> None:
        if progress:
            progress.phase(f"{bet.name}: {name}")

    phase(PHASES[0])
    result = analyze_checked(shoe, [bet], decisions).bets[0]
    par = bet_figures(result)
    summary = Paragraph(f"On {shoe}: house edge {percent(result.house_edge)} per bet made, hit frequency {percent(hit_frequency(result))}, "
                        f"standard deviation {standard_deviation(result)} units per unit bet, maximum payout "
                        f"{max(row.pays.net for row in result.rows)} to 1.")
    sections = [Section("summary", "Summary", (summary,)),
                Section("rules", "Rules of play and pay schedule", tuple(rules_section(result, shoe, decisions)), new_page=True)]
    phase(PHASES[1])
    sections.append(Section("examples", "Example coups", tuple(examples_section(result, shoe, decisions)), new_page=True))
    sections += [Section("combinations", "Combinations and returns", tuple(returns_section(result, par))),
                 Section("edges", "House edge, element of risk, hit frequency, standard deviation and volatility", tuple(edges_section(result, par))),
                 Section("payout", "Maximum payout and exposure", tuple(payout_section(result)))]
    phase(PHASES[2])
    sections.append(Section("decks", "House edge by number of decks", tuple(decks_section(bet, decisions, settings.decks, progress)), new_page=True))
    if shoe.with_replacement:
        sections.append(Section("removal", "Effect of removal and counting",
                                (Paragraph("The infinite deck has no effect of removal and cannot be counted: every card drawn is put back."),)))
    else:
        phase(PHASES[4])
        removal, tags = removal_section(removal_effects(shoe, [bet], decisions)[0], shoe)
        sections.append(Section("removal", "Effect of removal and derived counts", tuple(removal), new_page=True))
        if settings.shoes:
            phase(PHASES[5])
            sections.append(Section("simulation", "Counting simulation",
                                    tuple(simulation_section(bet, shoe, decisions, tags if any(tags) else None, settings, progress))))
    sections.append(Section("provenance", "Provenance", tuple(provenance_section(bet, decisions, settings)), new_page=True))
    title = settings.title or f"{bet.name}: mathematical report"
    if settings.title and several:
        title = f"{settings.title}: {bet.name}"
    cover = (("bet", f"{bet.name}: {bet.description}" if bet.description else bet.name),
             ("game", settings.game or decisions.rules.name),
             ("submitter", settings.submitter or "not given"),
             ("shoe", str(shoe)),
             ("rules version", rules_version(decisions) + (f", with the choices {decisions.policy.summary()}" if decisions.policy else "")),
             ("program version", f"exact_odds {settings.version}" + (f" ({settings.program})" if settings.program else "")),
             ("date", f"{settings.date.strftime('%Y-%m-%d %H:%M:%S')} UTC"))
    plots = tuple(part for section in sections for part in section.parts if isinstance(part, Plot))
    return Page(bet.name, Submission(title, cover, tuple(sections)), plots, (percent(result.house_edge), standard_deviation(result)), par)


def index_page(pages: Sequence[Page], settings: ReportSettings, table_blocks: Sequence[Block] = (),
               linked: Sequence[tuple[str, str]] = ()) -> Document:
    """The index: each bet's page with its edge, the table's view where asked, then the other pages
    of the report (``linked``: name, title)."""
    rows = [(Link(page.name, page.name, page=True), page.summary[0], page.summary[1]) for page in pages]
    blocks: list[Block] = [Paragraph("One document per bet (HTML, Markdown with its plots as SVG files, and PDF where asked)."),
                           table(("bet", "house edge", "standard deviation"), rows, (False, True, True))]
    if table_blocks:
        blocks += [Heading(2, "The table's view"), *table_blocks]
    blocks += [Paragraph(("Also: ", Link(title, name, page=True), f" ({name}.json holds its figures).")) for name, title in linked]
    blocks += [part for part in provenance_section(None, None, settings) if not isinstance(part, Formula)]
    return Document(tuple(blocks), title=settings.title or "Mathematical report")


def report_record(pages: Sequence[Page], shoe: Shoe, settings: ReportSettings, table_record: object = None) -> dict[str, object]:
    """The report's JSON (``report.json``): every bet's exact PAR figures, and the table's view where asked."""
    return versioned("report", {
        "title": settings.title, "shoe": str(shoe), "date": settings.date.strftime("%Y-%m-%d %H:%M:%S UTC"),
        "program": f"exact_odds {settings.version}" + (f" ({settings.program})" if settings.program else ""), "command": settings.command,
        "bets": {page.name: page.figures.to_dict() for page in pages},
        "table": table_record,
    })


def report_files(pages: Sequence[Page], shoe: Shoe, settings: ReportSettings, table_blocks: Sequence[Block] = (),
                 table_record: object = None, linked: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
    """Every file of the report folder: per bet an HTML page, a Markdown page and its plots; an index
    of each, with the table's view where asked (linking to the pages ``linked`` too: name, title);
    the JSON of every figure."""
    files: dict[str, str] = {}
    for page in pages:
        files[f"{page.name}.html"] = render_submission_html(page.submission)
        files[f"{page.name}.md"] = render_submission_markdown(page.submission)
        files.update({f"{block.name}.svg": block.svg for block in page.plots})
    index = index_page(pages, settings, table_blocks, linked)
    files["index.html"] = render_html(index)
    files["index.md"] = render_markdown(index)
    files[RECORD] = json_text(report_record(pages, shoe, settings, table_record))
    return files


WORKBOOK, RECORD = "par.xlsx", "report.json"
"""The report's PAR workbook (``--xlsx``) and its JSON, named in its manifest like every page."""


def report_workbook(bets: Sequence[Bet], shoe: Shoe, decisions: Decisions, settings: ReportSettings, table: Any = None) -> bytes:
    """The PAR workbook of ``bets`` (:mod:`exact_odds.output.workbook`): the report's shoe, deck
    counts, cover and inputs, so that its figures are the pages', and the ``table`` view (a
    :class:`~exact_odds.studies.exposure.TableView`) where asked (needs openpyxl)."""
    from ..studies.par import par_sheet
    from ..output.workbook import workbook_bytes

    inputs = list(settings.inputs)
    if decisions.policy:
        inputs.append(Digest.of_text("policy", "--policy", decisions.policy.summary() + "\n"))
    inputs += [Digest.of_text("bet as analysed", f"{bet.name}, as a bets file writes it", bet_definition(bet)) for bet in bets]
    program = f"exact_odds {settings.version}" + (f" ({settings.program})" if settings.program else "")
    sheet = par_sheet(shoe, bets, decisions, decks=settings.decks, title=settings.title or "", game=settings.game or "",
                      submitter=settings.submitter or "", version=program, date=f"{settings.date.strftime('%Y-%m-%d %H:%M:%S')} UTC",
                      command=settings.command, inputs=inputs, table=table)
    return workbook_bytes(sheet, settings.date)


def build(bets: Sequence[Bet], shoe: Shoe, decisions: Decisions, settings: ReportSettings, progress: Progress | None = None,
          table_blocks: Sequence[Block] = (), table_record: object = None, linked: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
    """The report folder's files for ``bets`` on ``shoe`` (see :func:`report_files`)."""
    names = [bet.name for bet in bets]
    for page in ("index", *(name for name, _ in linked)):
        if page in names:
            raise InputError(f"a bet named {page} would overwrite the report's {page} page: give it another name")
    return report_files([bet_page(bet, shoe, decisions, settings, progress, len(bets) > 1) for bet in bets], shoe, settings, table_blocks,
                        table_record, linked)
