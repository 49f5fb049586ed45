"""The `baccarat-odds` commands that write a folder: the exact tables of `export` and the math
report of `report`; each maps its flags onto a request, runs it and writes the folder whole
(registered on the group in :mod:`.commands`)."""

import os
import sys
from fractions import Fraction
from typing import Any

import click

from .. import __version__
from ..errors import InputError
from .params import Count
from .shared import BURN, SPANS_DECKS, emit, options, progress_bar, shared, table_options


@click.command()
@click.option("--out", default="results", show_default=True, help="Folder to write (a new or empty folder, or one export wrote).")
@click.option("--decks", "deck_text", metavar="LIST", help="Deck counts: 1-8 (default), 1,2,6, inf...")
@click.option("--formulas/--no-formulas", default=True, show_default=True, help="Also write the closed forms in d (JSON and LaTeX).")
@click.option("--chemin/--no-chemin", default=True, show_default=True,
              help="Also write chemin de fer solved (models A, B2, B3; each deck count and inf; no commission and --commission) in chemin-de-fer/.")
@click.option("--force", is_flag=True, help="Write into a folder that holds other files too (only export's own files are replaced).")
@shared("rules", "pays", "bets", "bets_file")
@click.pass_context
def export(ctx: click.Context, /, out: str, deck_text: str | None, formulas: bool, chemin: bool, force: bool, **local: Any) -> None:
    """Write exact tables (CSV, JSON, Markdown) for each deck count, a summary, closed forms, an index
    and a manifest (every catalog bet, or --bets; your --bets-file bets too); and chemin de fer
    solved as a game for each deck count and the infinite deck, as `chemin-de-fer --format json`
    prints it, with a summary. The folder is written whole or not at all."""
    from ..commands.export import export_files, export_steps, parse_deck_list
    from ..output.files import FolderTarget

    given_options = options(ctx, **local)
    before = ctx.find_root().params.get("decks")
    if before is not None and deck_text is not None:
        raise InputError("--decks is given both before and after `export`: give it once")
    decks = parse_deck_list(deck_text if deck_text is not None else str(before) if before is not None else "1-8")
    bets = given_options.chosen_bets(suits_known=True)[0] if given_options.bets else list(given_options.available().values())
    decisions = given_options.fixed_decisions(SPANS_DECKS.format(command="export"))
    tables = [f"decks-{count}.{kind}" for count in decks for kind in ("csv", "json", "md")]
    with FolderTarget(out, force, "export", expected=[*tables, "README.md"]) as target, \
            progress_bar("exporting", length=export_steps(decks, decisions, chemin)) as bar:
        files = export_files(decks, bets, decisions, bar.update if bar else None, formulas, chemin)
        target.write(files)
    emit(f"wrote {len(files) + 1} files to {out}\n")


@click.command(name="report")
@shared("shoe", "rules", "pays", "bets", "bets_file", without=("decks",))
@click.option("--decks", "deck_text", metavar="LIST", help="Deck counts of the edge-by-decks table: 1-8,inf (default), 6, 1,2,6... "
                                                           "The rest of the report is on the largest finite one (the infinite deck if it is the "
                                                           "only one), or on the shoe of --shoe.")
@click.option("--out", required=True, metavar="DIR", help="Folder to write (a new or empty folder, or one report wrote).")
@click.option("--force", is_flag=True, help="Write into a folder that holds other files too (only the report's own files are replaced).")
@click.option("--title", metavar="TEXT", help="The document's title (default: the bet's name).")
@click.option("--game", metavar="TEXT", help="The game's name on the cover (default: the rule set's).")
@click.option("--submitter", metavar="TEXT", help="Who submits the bet, on the cover.")
@click.option("--pdf", is_flag=True, help="Also print each page to PDF with Debian's chromium (headless).")
@click.option("--xlsx", is_flag=True, help="Also write the PAR workbook, par.xlsx, whose cells recompute (pip install 'exact_odds[xlsx]').")
@click.option("--table", "table_text", metavar="NAME=X,...", help="Also the table's view of this bet mix (see `table`), in the index, "
                                                             "report.json and the workbook; with the table options below.")
@table_options
@click.option("--protection", is_flag=True, help="Also a game-protection page (protection.html, .md, .json): for each bet, what each card "
                                                 "known and the best sort of 1 and 4 cards are worth to a player, ranked.")
@click.option("--shoes", type=Count(0, 10**7), default=500, show_default=True, help="Shoes the counting simulation deals (0: no simulation).")
@click.option("--seed", type=Count(0), default=1, show_default=True, help="The simulation's seed: the same seed gives the same report.")
@click.option("--penetration", default="14/16", show_default=True, help="Where the cut card lies, as a share of the shoe.")
@BURN
@click.pass_context
def report(ctx: click.Context, /, deck_text: str | None, out: str, force: bool, title: str | None, game: str | None, submitter: str | None,
           pdf: bool, xlsx: bool, table_text: str | None, per_hour: str | None, min_text: str | None, max_text: str | None,
           total_max: Fraction | None, unit: Fraction | None, differential: str | None, protection: bool, shoes: int, seed: int, penetration: str,
           burn: bool, **local: Any) -> None:
    """Write the math report of each bet (--bets; default: the bets of --bets-file, else banker,player,tie),
    a submission document per bet as a self-contained HTML page, a Markdown page and (--pdf) a PDF:
    a cover (title, game, submitter, rules and program versions, date) and contents; the rules of
    play with each condition in words; example coups of every pay line; the pay schedule and
    combinations; house edge per bet made and resolved, hit frequency, standard deviation, volatility
    index and the hold's confidence intervals; the maximum payout; the edge for each deck count
    with its closed form in MathML; the effects of removal, derived counts and a seeded counting
    simulation; the command, version and every input with its SHA-256 (SOURCE_DATE_EPOCH fixes the date).
    --xlsx also writes the PAR workbook (par.xlsx): a sheet per bet whose cells recompute when a pay changes;
    --table MIX the table's view of a bet mix (see `table`). Every figure is also in report.json."""
    import shlex

    from ..core.rules import PRESETS
    from ..engine.kernel import kernel_info
    from ..output.files import FolderTarget
    from ..output.plots import pyplot
    from ..studies.par import Digest
    from ..commands.report import RECORD, WORKBOOK, ReportRequest, build, report_date, report_workbook
    from ..commands.report_sections import PARALLEL_SHOES, PHASES, Progress, ReportSettings
    from ..output.report_pages import chromium, print_pdfs
    from ..studies.parallel import cores
    from ..studies.dealer import parse_penetration

    root = ctx.find_root().params
    if root.get("decks") is not None:
        if deck_text is not None:
            raise InputError("--decks is given both before and after `report`: give it once")
        deck_text, root["decks"] = str(root["decks"]), None  # read here, as the report's deck list
    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE

    request = ReportRequest(setup=options(ctx, **local), decks=deck_text, title=title, game=game, submitter=submitter, shoes=shoes,
                            seed=seed if given("seed") else None, penetration=penetration if given("penetration") else None,
                            burn=burn if given("burn") else None, table=table_text, per_hour=per_hour, min=min_text, max=max_text, total_max=total_max,
                            unit=unit, differential=differential)
    given_options, decks, shoe, bets, notes, view = request.scope, request.deck_counts, request.shoe, request.bets, request.notes, request.view
    arguments = sys.argv[1:]
    inputs = [Digest.read("bets file", given_options.bets_file)] if given_options.bets_file else []
    inputs += [Digest.read("rules file", value) for flag, value in zip(arguments, arguments[1:] + [""])
               if flag == "--rules" and value not in PRESETS and os.path.isfile(value)]
    inputs += [Digest.read("rules file", argument.split("=", 1)[1]) for argument in arguments
               if argument.startswith("--rules=") and argument.split("=", 1)[1] not in PRESETS and os.path.isfile(argument.split("=", 1)[1])]
    settings = ReportSettings(shoes, seed, parse_penetration(penetration), burn, shlex.join(["baccarat-odds", *arguments]),
                              report_date(), __version__, cores() if shoes >= PARALLEL_SHOES else 1, decks, title, game, submitter, tuple(inputs),
                              str(kernel_info()))
    decisions = given_options.fixed_decisions(SPANS_DECKS.format(command="report"))
    pyplot("report")  # matplotlib draws the plots: checked before any work
    browser = chromium() if pdf else None
    if xlsx:
        from ..output.workbook import require_openpyxl

        require_openpyxl()
    simulated = shoes * len(bets) if shoes and not shoe.with_replacement else 0
    phases = len(bets) * (len(PHASES) - (2 if shoe.with_replacement else 0 if shoes else 1) + int(protection)) + int(pdf) + int(xlsx)
    pages = [f"{name}.{kind}" for name in ["index", *(bet.name for bet in bets)] for kind in ("html", "md")]
    linked = []
    if protection:
        from ..commands.protection_page import NAME, TITLE, protection_files

        linked, pages = [(NAME, TITLE)], pages + [f"{NAME}.{kind}" for kind in ("html", "md", "json")]
    printed = [*(bet.name for bet in bets), *(name for name, _ in linked)] if pdf else []
    expected = pages + [RECORD] + [f"{name}.pdf" for name in printed] + [WORKBOOK] * xlsx
    with FolderTarget(out, force, "report", expected=expected) as target, \
            progress_bar("report", length=simulated + phases) as bar:
        def phase(text: str) -> None:
            bar.label = text
            bar.update(1)

        from ..commands.table import view_blocks

        files: dict[str, str | bytes] = dict(build(bets, shoe, decisions, settings, Progress(phase, bar.update) if bar else None,
                                                   view_blocks(view) if view else (), view.to_dict() if view else None, linked))
        if protection:
            files.update(protection_files(bets, shoe, decisions, settings, phase if bar else None))
        if browser is not None:
            if bar:
                phase("printing PDF")
            files.update(print_pdfs({name: str(files[f"{name}.html"]) for name in printed}, browser))
        if xlsx:
            if bar:
                phase("writing the workbook")
            files[WORKBOOK] = report_workbook(bets, shoe, decisions, settings, view)
        target.write(files)
    emit(f"wrote {len(files) + 1} files to {out}\n" + "".join(f"Note: {note}\n" for note in notes))
