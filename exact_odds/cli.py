"""The `baccarat-odds` command: parse, call the library, print. No maths here."""

import contextlib
import sys
from fractions import Fraction

import click

from . import report
from .errors import InputError

SHOE_HELP = {
    "decks": "Number of 52-card decks in the shoe (default 8), or inf: cards drawn with replacement.",
    "shoe": "Explicit composition, e.g. A=32,2=32,...,K=32 or per card 9h=7 (unnamed ranks count 0).",
    "remove": "Cards taken out of the shoe, e.g. \"5 5 K 9h\".",
}


class DeckCount(click.ParamType):
    """A positive whole number of decks, or ``inf`` for the infinite deck."""

    name = "N"

    def convert(self, value, param, ctx):
        text = str(value).strip().lower()
        if text in ("inf", "infinite"):
            return "inf"
        if not text.isdigit() or int(text) < 1:
            self.fail(f"--decks must be a positive whole number of decks (or inf), not {value!r}", param, ctx)
        return int(text)


def shoe_options(function):
    """The options that name a shoe: --decks, --shoe, --remove."""
    function = click.option("--remove", metavar="CARDS", help=SHOE_HELP["remove"])(function)
    function = click.option("--shoe", "shoe_spec", metavar="COUNTS", help=SHOE_HELP["shoe"])(function)
    return click.option("--decks", type=DeckCount(), help=SHOE_HELP["decks"])(function)


def make_shoe(decks, shoe_spec, remove):
    from .shoe import shoe_from_options

    return shoe_from_options(decks, shoe_spec, remove)


def available_bets(bets_file, commission, tie_pays):
    from .bets import bets_file as load_file
    from .bets import catalog, main_bet_variants

    bets = catalog()
    bets.update(main_bet_variants(commission, tie_pays))
    if bets_file:
        bets.update(load_file(bets_file))
    return bets


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@shoe_options
@click.option("--bets", "bet_names", metavar="NAMES", help="Bets to analyse: names separated by commas, or all (default banker,player,tie).")
@click.option("--bets-file", type=click.Path(dir_okay=False), help="A TOML file of your own bets (same format as the catalog).")
@click.option("--commission", default="5", show_default=True, metavar="PCT", help="Commission on a winning banker bet, in percent.")
@click.option("--tie-pays", default="8", show_default=True, metavar="N", help="What the tie bet pays, to one.")
@click.option("--format", "fmt", type=click.Choice(report.FORMATS), default="table", show_default=True)
@click.option("--returns", is_flag=True, help="Print the return table of every bet (json and csv always hold them).")
@click.option("--engine", type=click.Choice(["fast", "enumerate"]), default="fast", show_default=True,
              help="fast: the compiled evaluator; enumerate: the plain recursive enumerator (for cross-checks).")
@click.pass_context
def cli(ctx, decks, shoe_spec, remove, bet_names, bets_file, commission, tie_pays, fmt, returns, engine):
    """Exact Player / Banker / Tie odds and house edges for a finite baccarat shoe.

    With no command: the outcome table of the shoe (combinations counted as ordered 6-card
    sequences, exact fractions, decimals) and the exact expectation and house edge of each bet.
    """
    if ctx.invoked_subcommand is not None:
        return
    from .analysis import ENGINES, analyze
    from .bets import select_bets

    shoe = make_shoe(decks, shoe_spec, remove)
    bets, notes = select_bets(available_bets(bets_file, commission, tie_pays), bet_names, shoe.knows_suits)
    click.echo(report.render(analyze(shoe, bets, engine=ENGINES[engine]()), fmt, notes, returns), nl=False)


@cli.command()
def rules():
    """Print the drawing rules: the player's rule and the banker's tableau (S stands, D draws)."""
    from tabulate import tabulate

    from .rules import PUNTO_BANCO, tableau_grid

    player = ", ".join(f"{total}: {'draw' if PUNTO_BANCO.player_draws(total) else 'stand'}" for total in range(8))
    stood = ", ".join(f"{total}: {'draw' if PUNTO_BANCO.banker_draws(total, None) else 'stand'}" for total in range(8))
    click.echo(f"{PUNTO_BANCO.name}. A two-card 8 or 9 (a natural) in either hand: both hands stand.")
    click.echo(f"Player, by two-card total: {player}.")
    click.echo(f"Banker, when the player stood: {stood}.")
    click.echo("Banker, when the player drew: banker's two-card total (rows) against the player's third-card value (columns):")
    click.echo(tabulate(tableau_grid(), ["banker"] + [str(value) for value in range(10)], tablefmt="simple", disable_numparse=True))


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--stake", default="100", show_default=True, help="Stake on each bet.")
@click.option("--bets", "bet_names", metavar="NAMES", help="Bets to settle (default banker,player,tie).")
@shoe_options
def deal(cards, stake, bet_names, decks, shoe_spec, remove):
    """Play one coup from CARDS in shoe order (1st and 3rd to the player, 2nd and 4th to the banker).

    Shows each draw decision with the rule that made it, the totals, the winner and what the stake
    on each bet returns. Given fewer cards than the coup needs, prints the exact probability of each
    outcome given the cards seen, drawn from the shoe named by --decks/--shoe/--remove less those cards.
    """
    from .cards import parse_cards
    from .dealing import deal_report

    amount = parse_fraction(stake, "--stake")
    shoe = make_shoe(decks, shoe_spec, remove)
    bets = available_bets(None, "5", "8")
    click.echo(deal_report(parse_cards(list(cards)), shoe, bets, bet_names, amount), nl=False)


@cli.command(name="bets")
@click.option("--bets-file", type=click.Path(dir_okay=False), help="Also list the bets of this TOML file.")
def list_bets(bets_file):
    """List the bet catalog: name, rules in words and pay table."""
    from .bets import describe_bets

    click.echo(describe_bets(available_bets(bets_file, "5", "8")), nl=False)


def progress_bar(label: str):
    """A progress bar on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        return None
    return lambda items: click.progressbar(items, label=label, file=sys.stderr)


@cli.command()
@click.option("--data", "data_file", type=click.Path(dir_okay=False), help="A published-figures TOML file (default: the shipped one).")
@click.option("--source", "source_text", metavar="TEXT", help="Only figures whose source or URL contains TEXT.")
@click.option("--bet", "bet_name", metavar="NAME", help="Only figures about this bet (banker, player, tie are the outcomes too).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def verify(data_file, source_text, bet_name, fmt):
    """Check every published figure exactly, at the precision it was printed.

    Verdicts: ok, mismatch, known-wrong (the record says why), stale mark (marked wrong, yet it
    matches). Exit status 0 when every figure not marked known-wrong matches, 1 otherwise.
    """
    from .export import iterate
    from .verify import Calculator, check, published_figures, verify_report

    figures = published_figures(data_file)
    if source_text:
        figures = [figure for figure in figures if source_text.lower() in (figure.source + " " + figure.url).lower()]
    if bet_name:
        figures = [figure for figure in figures if figure.bet == bet_name.lower()]
    if not figures:
        raise InputError("no published figure matches the filters")
    calculator = Calculator(available_bets(None, "5", "8"))
    bar = progress_bar("verifying")
    checks = [check(figure, calculator) for figure in iterate(bar, figures)]
    click.echo(verify_report(checks, fmt), nl=False)
    sys.exit(1 if any(result.failed for result in checks) else 0)


@cli.command()
@click.option("--out", default="results", show_default=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--decks", "deck_text", default="1-8", show_default=True, metavar="LIST", help="Deck counts: 1-8, 1,2,6, inf...")
@click.option("--formulas/--no-formulas", default=True, show_default=True, help="Also write the closed forms in d (JSON and LaTeX).")
def export(out, deck_text, formulas):
    """Write exact tables (CSV, JSON, Markdown) for each deck count, a summary, closed forms and an index."""
    from .bets import catalog
    from .export import export as write_tables
    from .export import parse_deck_list

    written = write_tables(out, parse_deck_list(deck_text), list(catalog().values()), progress_bar("exporting"), formulas)
    click.echo(f"wrote {len(written) + 1} files to {out}")


@cli.command()
@click.option("--bet", "bet_names", metavar="NAMES", help="Bets (names separated by commas, or all); default banker,player,tie.")
@click.option("--format", "fmt", type=click.Choice(["text", "latex", "json"]), default="text", show_default=True)
@click.option("--solve", is_flag=True, help="Also say for which deck counts each house edge is largest and smallest.")
@click.option("--above", metavar="PCT", help="With --solve: the deck counts where the house edge is above PCT percent.")
@click.option("--below", metavar="PCT", help="With --solve: the deck counts where the house edge is below PCT percent.")
def formula(bet_names, fmt, solve, above, below):
    """Probabilities and house edges as exact rational functions of the number of decks d.

    Each is factored, with its value as d -> oo (the infinite deck). sympy is imported here only.
    """
    import json

    from .bets import select_bets
    from .formulas import (
        expectation_formulas,
        formulas_record,
        formulas_text,
        house_edge,
        outcome_formulas,
        solve_lines,
    )

    bets, _ = select_bets(available_bets(None, "5", "8"), bet_names, suits_known=True)
    thresholds = {name: parse_fraction(value, f"--{name}") / 100 if value is not None else None for name, value in (("above", above), ("below", below))}
    outcomes = outcome_formulas()
    expectations = expectation_formulas(bets)
    if fmt == "json":
        record = formulas_record(outcomes, expectations)
        click.echo(json.dumps(record, indent=2))
    else:
        click.echo(formulas_text(outcomes, expectations, fmt), nl=False)
    if solve or above or below:
        for expectation in expectations:
            click.echo("\n".join(solve_lines(house_edge(expectation), thresholds["above"], thresholds["below"])))


@cli.command()
@shoe_options
@click.option("--bets", "bet_names", metavar="NAMES", help="Bets (names separated by commas, or all); default banker,player,tie.")
@click.option("--format", "fmt", type=click.Choice(report.FORMATS), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the effects as bars into this PNG (needs matplotlib).")
def eor(decks, shoe_spec, remove, bet_names, fmt, plot_path):
    """Effects of removal: the exact change in each bet's expectation when one card of each rank is
    removed, the sum checks, and balanced level-1 and level-2 counts with their betting correlation."""
    from .bets import select_bets
    from .removal import removal_effects, removal_report

    shoe = make_shoe(decks, shoe_spec, remove)
    bets, _ = select_bets(available_bets(None, "5", "8"), bet_names, suits_known=False)
    results = removal_effects(shoe, bets)
    click.echo(removal_report(results, shoe, fmt), nl=False)
    if plot_path:
        from .simulate import plot_removal

        plot_removal(results, plot_path)


@cli.command()
@click.option("--decks", type=DeckCount(), default=8, show_default=True, help="Decks in each shoe.")
@click.option("--shoes", type=click.IntRange(min=1), default=1000, show_default=True, help="Shoes to shuffle and deal.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same result.")
@click.option("--penetration", default="14/16", show_default=True, help="Where the cut card lies, as a share of the shoe.")
@click.option("--burn", is_flag=True, help="Burn cards at the start of each shoe (turn one, burn its value; tens burn 10).")
@click.option("--count", "tags", metavar="TAGS", help="Count tags: 13 integers A..K, or RANK=TAG entries (5=1,6=-1,...).")
@click.option("--bets", "bet_names", metavar="NAMES", help="Bets (names separated by commas, or all); default banker,player,tie.")
@click.option("--bets-file", type=click.Path(dir_okay=False), help="A TOML file of your own bets.")
@click.option("--workers", type=click.IntRange(min=1), help="Local worker processes (default: every core).")
@click.option("--scheduler", metavar="ADDRESS", help="A dask.distributed scheduler, tcp://host:port (pip install 'exact_odds[cluster]').")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw exact EV against true count into this PNG.")
def simulate(decks, shoes, seed, penetration, burn, tags, bet_names, bets_file, workers, scheduler, fmt, plot_path):
    """Deal real shuffled shoes to the cut card (finish the coup in which it appears, play one more)
    with the exact expectation of every bet at every coup; report the distribution of exact EV, the
    gain of betting only when EV > 0, and a count's gains by true count."""
    import json
    import os
    from pathlib import Path

    from .bets import select_bets
    from .simulate import (
        Settings,
        parse_penetration,
        parse_tags,
        plot_simulation,
        pyplot,
        run,
        summary,
        summary_text,
    )

    if decks == "inf":
        raise InputError("simulate deals real shoes: give a whole number of decks")
    bets_text = None
    if bets_file:
        try:
            bets_text = Path(bets_file).read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot read bets file {bets_file!r}: {error.strerror}") from None
    bets, notes = select_bets(available_bets(bets_file, "5", "8"), bet_names, suits_known=False)
    settings = Settings(decks, shoes, seed, parse_penetration(penetration), burn, parse_tags(tags) if tags else None,
                        tuple(bet.name for bet in bets), bets_text)
    if plot_path:
        pyplot()  # fail now, not after the run, when matplotlib is missing
    bar = click.progressbar(length=shoes, label="shoes", file=sys.stderr) if sys.stderr.isatty() else contextlib.nullcontext()
    with bar as progress:
        simulation = run(settings, workers or os.cpu_count() or 1, scheduler, progress.update if progress else None)
    record = summary(simulation)
    record["notes"] = notes
    if fmt == "json":
        click.echo(json.dumps(record, indent=2))
    else:
        click.echo(summary_text(record) + "".join(f"Note: {note}\n" for note in notes), nl=False)
    if plot_path and simulation.results:
        plot_simulation(simulation, plot_path)
    if simulation.interrupted:
        sys.exit(130)


def parse_fraction(text: str, option: str) -> Fraction:
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{option} must be an exact number such as 100, 2.5 or 5/2, not {text!r}") from None
    if value <= 0:
        raise InputError(f"{option} must be positive, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> None:
    """Entry point: every input error is one line on stderr and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="baccarat-odds", standalone_mode=False)
    except click.ClickException as error:
        click.echo(f"baccarat-odds: error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("baccarat-odds: interrupted", err=True)
        sys.exit(130)
    except InputError as error:
        click.echo(f"baccarat-odds: error: {error}", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
