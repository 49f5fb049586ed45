"""The `baccarat-odds` commands of the studies beyond one coup: the table's view of a bet mix,
game protection, baccara banque, the edge at every depth and a whole shoe; each maps its flags
onto a request, runs it, renders and emits (registered on the group in :mod:`.commands`)."""

import contextlib
import sys
from fractions import Fraction
from typing import Any

import click

from ..errors import InputError
from .params import Count, ExactNumber, Whole
from .shared import BURN, FORMATS, Interrupted, emit, fail, options, plot_target, reword, shared, table_options, table_request


@click.command(name="table")
@click.option("--mix", "mix_text", required=True, metavar="NAME=X,...", help="The bet mix: the amount on each bet, e.g. banker=5000,player=1000,tie=100.")
@table_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@shared("shoe", "rules", "pays")
@click.pass_context
def table_command(ctx: click.Context, /, mix_text: str, per_hour: str | None, min_text: str | None, max_text: str | None, total_max: Fraction | None,
                  unit: Fraction | None, differential: str | None, fmt: str, **local: Any) -> None:
    """The table's view of a bet mix (an amount on each bet of a table): the exact distribution of
    the house's result on a coup, the hold, its standard deviation, the theoretical win per hour at
    --per-hour decisions, the worst coup (maximum exposure) and, with --differential, the mix the
    table differential lets stand. A mix past the table's limits (--min, --max, --total-max,
    --unit) is refused."""
    from ..commands.table import document, run
    from ..output.render import render

    given_options = options(ctx, **local)
    shoe = given_options.starting_shoe()
    request = table_request(given_options, shoe, mix_text, "--mix", per_hour, min_text, max_text, total_max, unit, differential)
    emit(render(document(run(request)), fmt))


@click.command()
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--known", type=Count(0), metavar="K", help="The value of card K (1-6) of the coup's six-card sequence in shoe order, dealt or not "
                                                          "(told as finely as the bets read cards).")
@click.option("--sorted", "sorted", type=Count(0), metavar="K", help="The first K cards (1-6) seen sorted on their backs by --groups; with "
                                                                    "--best-sort, the search for K cards only.")
@click.option("--groups", metavar="GROUPS", help="The sort: one group of values or ranks (6,7,8,9: the rest is the other) or every group "
                                                 "separated by ';' (0,1,2;3,4,5;6,7,8,9); suits (H,D) on a shoe by card.")
@click.option("--best-sort", is_flag=True, help="Every two-way split of the values (511) and of the ranks (4,095), for 1 to 6 sorted cards "
                                                "(or --sorted K): each one's value, best first.")
@click.option("--over", type=click.Choice(["values", "ranks", "both"]), help="With --best-sort: the splits of the values, of the ranks, or both (default).")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json", "latex", "html"]), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the decision table as a heat map into this PNG (needs matplotlib).")
@click.pass_context
def protect(ctx: click.Context, /, known: int | None, sorted: int | None, groups: str | None, best_sort: bool, over: str | None, fmt: str,
            plot_path: str | None, **local: Any) -> None:
    """Game protection: what a piece of information is worth to a player who bets the best of the bets
    (default banker, player, tie; all: the catalog) or nothing, exactly: a known card (--known K), a
    sort of the first cards (--sorted K --groups ...) or the best sort (--best-sort). The gain per coup,
    the share of coups in which the information changes the decision, and the decision table."""
    from ..commands.protect import document, figure, protect_request, run
    from ..output.render import render

    request, notes = protect_request(options(ctx, **local), known=known, sorted=sorted, groups=groups, best_sort=best_sort, over=over)
    plot = plot_target(plot_path)
    result = run(request)
    emit(render(document(result, notes), fmt))
    if plot:
        plot.write(figure(result))


@click.command()
@click.option("--preset", metavar="NAME", help="The rule set (default banque_ethier_lee): player 2 choosing by "
              "his own total (Ethier and Lee's simplifying assumption), or reading player 1's third card (banque).")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False), help="A TOML file of banque rules instead of --preset.")
@click.option("--decks", "deck_text", metavar="N", help="1-8 decks, or inf (with replacement); default the preset's (inf, or 6 for banque). "
              "With --out a list (1-8, 1,2,6, inf; default 1-8 and inf).")
@click.option("--stake", type=ExactNumber(), metavar="THETA", help="The share of the stakes on player 1's hand, strictly between 0 and 1 (default 1/2).")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json", "latex", "html"]), help="Output format (default table).")
@click.option("--out", metavar="DIR", help="Write the folder of solutions instead (a JSON record for each preset, or --preset, and each deck count, and a README).")
@click.option("--force", is_flag=True, help="With --out: write into a folder that holds other files too (only banque's own files are replaced).")
@shared("commission", "shoe_spec")
@click.pass_context
def banque(ctx: click.Context, /, preset: str | None, rules_file: str | None, deck_text: str | None, stake: Fraction | None, fmt: str | None,
           out: str | None, force: bool, **local: Any) -> None:
    """Baccara banque solved exactly as the three-person game of Ethier and Lee (2015): a banker
    against two player hands, from 1-8 decks or the infinite deck. The players acting as one
    (correlated cooperative equilibrium) and every Nash equilibrium, each side's strategy and payoff,
    exact, with certificates anyone can recheck. docs/banque.md says what each model assumes."""
    from ..commands.banque import BanqueCommandRequest, Uncertified, banque_files, document, run, uncertified
    from ..output.files import FolderTarget
    from ..output.render import render

    if ctx.find_root().params.get("decks") is not None:
        raise InputError("--decks goes after `banque`, which reads its own: 1-8 or inf (a list with --out)")
    given_options = options(ctx, **local)
    request = BanqueCommandRequest(preset=preset, rules=rules_file, decks=deck_text, shoe=given_options.shoe,
                                   commission=given_options.commission_percent() or Fraction(0), stake=stake, format=fmt, out=out, force=force)
    if out is None:
        solution = run(request.requests[0])
        emit(render(document(solution), fmt or "table"))
        if uncertified(solution):
            fail(f"error: the certificate of {' and '.join(uncertified(solution))} does not hold (marked FAILS above): a defect, please report it", 1)
        return
    requests = list(request.requests)
    with FolderTarget(out, force, "banque") as target:
        try:
            files = banque_files(requests, progress=lambda text: click.echo(text, err=True))
        except Uncertified as error:
            fail(f"error: {error}", 1)
        target.write(files)
    emit(f"wrote {len(files) + 1} files to {out}\n")


@contextlib.contextmanager
def ranges_progress(what: str) -> Any:
    """A run in ranges told on stderr, one line rewritten, when it is a terminal: the share of the
    work done and the time left at the rate so far (a :class:`~exact_odds.studies.ranges.Progress`
    each time); None (nothing told) otherwise. The line is cleared at the end."""
    if not sys.stderr.isatty():
        yield None
        return

    def tell(progress: Any) -> None:
        eta = progress.eta
        left = "" if eta is None else f", {int(eta) // 3600}:{int(eta) % 3600 // 60:02d}:{int(eta) % 60:02d} left"
        share = progress.done / progress.total if progress.total else 1
        sys.stderr.write(f"\r{what} {progress.label}: {100 * share:.1f}% ({progress.done:,} of {progress.total:,}){left}\x1b[K")
        sys.stderr.flush()

    try:
        yield tell
    finally:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def workers_given(workers: int | None, scheduler: str | None) -> int | None:
    """--workers as given, capped at the cores (with a note); beside --scheduler as given, for the
    request to refuse."""
    from ..studies.parallel import cores

    if workers is not None and not scheduler and workers > cores():
        click.echo(f"baccarat-odds: note: --workers {workers} capped at the {cores()} cores of this machine", err=True)
        return cores()
    return workers


@click.command()
@click.option("--cards-left", "cards_text", required=True, metavar="N|A-B|LIST",
              help="Numbers of cards left: 18, a range 6-26, a list 18,26,34, or every k-th 18-50/8 (each from 6 to the shoe's size).")
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--workers", type=Count(1), help="Local worker processes (default: every core, as far as there are ranges to share).")
@click.option("--scheduler", metavar="ADDRESS", help="A dask.distributed scheduler, tcp://host:port (pip install 'exact_odds[cluster]').")
@click.option("--resume", metavar="DIR", help="A results folder: each finished range is kept there, and a run killed resumes where it stopped.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw P(EV > 0) and E[max(0, EV)] against the cards left into this PNG.")
@click.pass_context
def depth(ctx: click.Context, /, cards_text: str, workers: int | None, scheduler: str | None, resume: str | None, fmt: str, plot_path: str | None,
          **local: Any) -> None:
    """Every bet's exact edge distribution with n cards left: over every composition of the n
    cards (each weighted by how many n-subsets of the shoe hold it), the mean (the EV off the top,
    checked), P(EV > 0), E[max(0, EV)], quantiles of EV, and the same for the best of the bets."""
    from ..commands.depth import depth_request, document, run
    from ..output.render import render

    request, notes = depth_request(options(ctx, **local), cards_text, workers=workers_given(workers, scheduler), scheduler=scheduler, resume=resume)
    plot = plot_target(plot_path)
    with ranges_progress("depth") as progress:
        study = run(request, progress)
    emit(render(document(study), fmt) + "".join(f"Note: {note}\n" for note in notes if fmt == "table"))
    if plot:
        from ..output.plots import depth_figure

        plot.write(depth_figure(study.curves()))


@click.command()
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--cut-card", "cut_card", type=Whole(), required=True, metavar="C", help="Cards in front of the cut card: it comes out with card C + 1.")
@click.option("--after-cut", "after_cut", type=Whole(), default=1, show_default=True, metavar="K",
              help="Coups dealt after the one in which the cut card comes out.")
@BURN
@click.option("--method", type=click.Choice(["exact", "simulated", "auto"]), default="auto", show_default=True,
              help="exact: count every order of the shoe; simulated: deal --shoes shoes; auto: exact where it can count the shoe, else simulated.")
@click.option("--shoes", type=Count(1, 10**9), help="Shoes the simulation deals (default 100,000).")
@click.option("--seed", type=Count(0), help="The simulation's seed: shoe i is shuffled by (seed, i) (default 1).")
@click.option("--workers", type=Count(1), help="Local worker processes of a simulation (default: every core, as far as there are ranges).")
@click.option("--scheduler", metavar="ADDRESS", help="A dask.distributed scheduler for a simulation, tcp://host:port (pip install 'exact_odds[cluster]').")
@click.option("--resume", metavar="DIR", help="A results folder for a simulation: each finished range of shoes is kept there, and a run killed resumes where it stopped.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.pass_context
def shoe(ctx: click.Context, /, cut_card: int, after_cut: int, burn: bool, method: str, shoes: int | None, seed: int | None, workers: int | None,
         scheduler: str | None, resume: str | None, fmt: str, **local: Any) -> None:
    """A whole shoe dealt to the cut card: the expected coups, each bet's hold per coup beside its
    edge off the top (the cut-card effect), and what a player who sees every card and bets whenever
    a bet is positive wins per shoe (perfect play), exactly or simulated with standard errors."""
    from ..commands.shoe import ShoeRequest, document, run
    from ..output.render import render
    from ..studies.shoe import ShoeStudy

    given_options = options(ctx, **local)
    shoe_given = given_options.starting_shoe()
    bets, notes = given_options.chosen_bets(suits_known=shoe_given.knows_suits)
    study = ShoeStudy(shoe=shoe_given, cut_card=cut_card, bets=tuple(bets), decisions=given_options.decisions(shoe_given), after_cut=after_cut,
                      burn=burn, method="simulated" if method == "auto" else method)
    request = ShoeRequest(study=study, auto=method == "auto", shoes=shoes, seed=seed, workers=workers_given(workers, scheduler), scheduler=scheduler,
                          resume=resume)
    with ranges_progress("shoe") as progress:
        odds = run(request, progress)
    emit(render(document(odds, request.reason), fmt) + "".join(f"Note: {note}\n" for note in notes if fmt == "table"))
    if odds.interrupted:
        raise Interrupted


reword(banque, "commission", "Commission on the banker's wins, percent: 0 (the default) only, as the game of the literature is zero-sum.")
