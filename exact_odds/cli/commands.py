"""The `baccarat-odds` command: its click commands, each mapping its flags onto a request, running
it, rendering and emitting; and main. No maths here, and no checks of the shared options
(:mod:`.shared`) or of a value's syntax (:mod:`.params`).
"""

import os
import signal
import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from types import FrameType
from typing import Any

import click

from .. import __version__
from ..errors import InputError
from ..importing import collector_off
from ..core.numbers import parse_exact
from .params import Count
from .shared import (BURN, FORMATS, SPANS_DECKS, Commands, Interrupted, OutputLost, emit, fail, in_cli_terms, options, plot_target, progress_bar,
                     reword, setup_of, shared)

def show_version(ctx: click.Context, _: click.Parameter, given: bool) -> None:
    """``--version``: the version, and the path that weighs batches (see :func:`~exact_odds.engine.kernel.kernel_info`)."""
    if not given or ctx.resilient_parsing:
        return
    from ..engine.kernel import kernel_info

    click.echo(f"baccarat-odds {__version__}, {kernel_info()}")
    ctx.exit()


@click.group(cls=Commands, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Output format (default table).")
@click.option("--returns", is_flag=True, help="Print the return table of every bet (json and csv always hold them).")
@click.option("--engine", type=click.Choice(["fast", "enumerate"]), help="fast: the compiled evaluator (default); enumerate: the plain recursive enumerator.")
@click.option("--given", metavar="COND", help="Conditional odds: every probability and expectation given this condition (the condition language of bets).")
@click.option("--by", "by_feature", metavar="FEATURE", help="One row per value of a feature: P(banker), P(player), P(tie) and each bet's expectation.")
@click.option("--unordered", type=click.Choice(["hands", "cards"]), help="Count bets on the first cards by hands (each hand's two cards in either order) or by sets of cards, as sources that count them so do.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=show_version,
              help="Show the version and whether the compiled kernel is in use, and exit.")
@click.pass_context
def cli(ctx: click.Context, /, fmt: str | None, returns: bool, engine: str | None, given: str | None, by_feature: str | None, unordered: str | None,
        **shared_values: Any) -> None:
    """Exact Player / Banker / Tie odds and house edges for a finite baccarat shoe.

    With no command: the outcome table of the shoe (combinations counted as ordered 6-card
    sequences, exact fractions, decimals) and the exact expectation and house edge of each bet.
    Under rules with a choice and no --policy: the table for each pure choice, and which is better
    for the player.
    """
    if ctx.invoked_subcommand is not None:
        return
    with collector_off():  # the analysis's modules, and those of the engine its request picks (see exact_odds.importing)
        from ..commands.analyze import AnalyzeRequest, run
        from ..output.render import render

        request = AnalyzeRequest(setup=setup_of(shared_values), given=given, by=by_feature, unordered=unordered, returns=returns, engine=engine)
    emit(render(run(request), fmt or "table"))


@cli.command(name="rules")
@shared("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "toml"]), default="text", show_default=True,
              help="text: in words with the tableau; toml: a rules file that --rules FILE reads back.")
@click.pass_context
def rules_command(ctx: click.Context, /, fmt: str, **local: Any) -> None:
    """Print a rule set: naturals, the player's rule, the banker's tableau (S stands, D draws,
    C is a choice), what each side sees at a choice, and the main bets' pays. With --policy (text
    only): the choice it makes at each option point."""
    from ..commands.rules import RulesRequest, run

    emit(run(RulesRequest(setup=options(ctx, **local), format=fmt)))


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--stake", metavar="X", help="Stake on each bet of a settled coup (default 100).")
@click.option("--given", metavar="COND", help="With a coup in progress: the odds given this condition on how it ends "
              "(coup features such as banker_total >= 6; not card slots).")
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.pass_context
def deal(ctx: click.Context, /, cards: tuple[str, ...], stake: str | None, given: str | None, **local: Any) -> None:
    """Play one coup from CARDS in shoe order (1st and 3rd to the player, 2nd and 4th to the banker).

    Shows each draw decision with the rule that made it, the totals, the winner and what the stake
    on each bet returns. The cards must be in the shoe. Given fewer cards than the coup needs,
    prints the exact probability of each outcome given the cards seen, drawn from the shoe named by
    --decks/--shoe/--remove less those cards (and, with --given, given how the coup ends).
    """
    from ..commands.deal import DealRequest, document, run
    from ..output.render import render

    request = DealRequest(setup=options(ctx, **local), cards=cards, stake=stake, given=given)
    emit(render(document(run(request), request.amount), "text"))


@cli.command(name="bets")
@shared("rules", "pays", "bets", "bets_file", without=("policy",))
@click.pass_context
def list_bets(ctx: click.Context, /, **local: Any) -> None:
    """List the bet catalog (and your --bets-file): name, description and pay table, each row's
    condition as written and in words."""
    from ..bets.words import described

    given_options = options(ctx, **local)
    available = given_options.available()
    if given_options.bets:
        chosen, _ = given_options.chosen_bets(suits_known=True)
        available = {bet.name: bet for bet in chosen}
    emit(described(available))


@cli.command()
@click.option("--data", "data_file", type=click.Path(dir_okay=False), help="A published-figures TOML file (default: the shipped one).")
@click.option("--source", "source_text", metavar="TEXT", help="Only figures whose source or URL contains TEXT.")
@click.option("--bet", "bet_name", metavar="NAME", help="Only figures about this bet (banker, player, tie are the outcomes too).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--simulate", "simulated", is_flag=True, help="Also run the simulation records (counting results), each with its seed and shoes.")
@shared("bets_file")
@click.pass_context
def verify(ctx: click.Context, /, data_file: str | None, source_text: str | None, bet_name: str | None, fmt: str, simulated: bool, **local: Any) -> None:
    """Check every published figure exactly, at the precision it was printed.

    A record may name its rule set and policy, and a bet from --bets-file. Verdicts: ok, mismatch,
    known-wrong (the record says why), stale mark (marked wrong, yet it matches). Simulation records
    (with --simulate) match when the printed figure lies within 3 standard errors of our seeded
    simulation. Exit status 0 when every figure not marked known-wrong matches, 1 otherwise.
    """
    from ..commands.verify import VerifyRequest, document, figures_of
    from ..output.render import render
    from ..studies.parallel import cores
    from ..studies.verify import Calculator, check

    request = VerifyRequest(setup=options(ctx, **local), data=data_file, source=source_text, bet=bet_name, simulate=simulated)
    figures, skipped = figures_of(request)
    calculator = Calculator(request.setup.own_bets, cores())
    with progress_bar("verifying", figures) as shown_figures:
        checks = [check(figure, calculator) for figure in shown_figures]
    emit(render(document(checks, skipped), fmt))
    sys.exit(1 if any(result.failed for result in checks) else 0)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "latex", "json"]), default="text", show_default=True)
@click.option("--solve", is_flag=True, help="Also say for which deck counts each house edge is largest and smallest.")
@click.option("--above", metavar="PCT", help="With --solve: the deck counts where the house edge is above PCT percent.")
@click.option("--below", metavar="PCT", help="With --solve: the deck counts where the house edge is below PCT percent.")
@shared("rules", "pays", "bets", "bets_file")
@click.pass_context
def formula(ctx: click.Context, /, fmt: str, solve: bool, above: str | None, below: str | None, **local: Any) -> None:
    """Probabilities and house edges as exact rational functions of the number of decks d.

    Each is factored, with its value as d -> oo (the infinite deck). sympy is imported here only.
    """
    from ..output.render import render
    from ..commands.formula import FormulaRequest, document, solve_lines
    from ..studies.formulas import expectation_formulas, house_edge, outcome_formulas

    request = FormulaRequest(setup=options(ctx, **local), solve=solve, above=above, below=below)
    given_options = request.setup
    bets, _ = given_options.chosen_bets(suits_known=True)
    decisions = given_options.fixed_decisions(SPANS_DECKS.format(command="formula"))
    outcomes = outcome_formulas(decisions)
    expectations = expectation_formulas(bets, decisions)
    answers = {expectation.name: solve_lines(house_edge(expectation), *request.shares) for expectation in expectations} if request.answers else {}
    emit(render(document(outcomes, expectations, answers), fmt))


@cli.command()
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the effects as bars into this PNG (needs matplotlib).")
@click.pass_context
def eor(ctx: click.Context, /, fmt: str, plot_path: str | None, **local: Any) -> None:
    """Effects of removal: the exact change in each bet's expectation when one card of each rank is
    removed, the sum checks, and balanced level-1 and level-2 counts with their betting correlation."""
    from ..commands.eor import document
    from ..output.render import render
    from ..studies.removal import removal_effects

    given_options = options(ctx, **local)
    shoe = given_options.starting_shoe()
    bets, _ = given_options.chosen_bets(suits_known=shoe.knows_suits)
    plot = plot_target(plot_path)
    results = removal_effects(shoe, bets, given_options.decisions(shoe))
    emit(render(document(results, shoe), fmt))
    if plot:
        from ..core.cards import RANKS
        from ..output.plots import removal_figure

        plot.write(removal_figure([(result.bet.name, result.effects) for result in results], RANKS))


@cli.command()
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.option("--shoes", type=Count(1, 10**9), default=1000, show_default=True, help="Shoes to shuffle and deal.")
@click.option("--seed", type=Count(0), default=1, show_default=True, help="Seed: the same seed gives the same result.")
@click.option("--penetration", default="14/16", show_default=True, help="Where the cut card lies, as a share of the shoe.")
@BURN
@click.option("--count", "tags", metavar="TAGS", help="Count tags: 13 integers A..K, or RANK=TAG entries (5=1,6=-1,...).")
@click.option("--workers", type=Count(1), help="Local worker processes (default: every core; at most the cores).")
@click.option("--scheduler", metavar="ADDRESS", help="A dask.distributed scheduler, tcp://host:port (pip install 'exact_odds[cluster]').")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw exact EV against true count into this PNG.")
@click.pass_context
def simulate(ctx: click.Context, /, shoes: int, seed: int, penetration: str, burn: bool, tags: str | None, workers: int | None,
             scheduler: str | None, fmt: str, plot_path: str | None, **local: Any) -> None:
    """Deal real shuffled shoes to the cut card (finish the coup in which it appears, play one more)
    with the exact expectation of every bet at every coup; report the distribution of exact EV, the
    gain of betting only when EV > 0, and a count's gains by true count."""
    from ..commands.simulate import SimulateRequest, document
    from ..output.render import render
    from ..studies.parallel import cores
    from ..studies.simulate import run, summary

    request = SimulateRequest(setup=options(ctx, **local), shoes=shoes, seed=seed, penetration=penetration, burn=burn, tags=tags, workers=workers,
                              scheduler=scheduler, plot=plot_path is not None)
    if workers is not None and workers > cores():
        click.echo(f"baccarat-odds: note: --workers {workers} capped at the {cores()} cores of this machine", err=True)
    settings, notes = request.settings, request.notes
    plot = plot_target(plot_path)
    with progress_bar("shoes", length=shoes) as progress:
        simulation = run(settings, min(workers or cores(), cores()), scheduler, progress.update if progress else None)
    record = summary(simulation)
    record["notes"] = notes
    emit(render(document(record, notes), fmt))
    if plot and simulation.results:
        from ..output.plots import simulation_figure

        plot.write(simulation_figure(simulation.expectations(), simulation.true_counts(), settings.bet_names))
    if simulation.interrupted:
        raise Interrupted


@cli.command(name="solve-pay")
@click.option("--bet", "bet_name", required=True, metavar="NAME", help="The bet (catalog or --bets-file).")
@click.option("--row", metavar="EVENT|N", help="The pay-table row to price, by its event or number (default: the row with the largest pay).")
@click.option("--edge", "edge_text", metavar="PCT", help="The house edge wanted, in percent: the exact pay that gives it.")
@click.option("--max-edge", "max_edge_text", metavar="PCT", help="The smallest whole pay whose house edge is at most PCT percent.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@shared("shoe", "rules", "pays", "bets_file")
@click.pass_context
def solve_pay(ctx: click.Context, /, bet_name: str, row: str | None, edge_text: str | None, max_edge_text: str | None, fmt: str, **local: Any) -> None:
    """The exact pay of one row of a bet that gives a stated house edge (per bet made), with the
    nearest whole and half-unit pays and their exact edges; or, with --max-edge, the smallest whole
    pay that keeps the edge at or below a value. The other rows keep their pays."""
    from ..commands.solve_pay import SolvePayRequest, document, run
    from ..output.render import render

    request = SolvePayRequest(setup=options(ctx, **local), bet=bet_name, row=row, edge=edge_text, max_edge=max_edge_text)
    emit(render(document(*run(request)), fmt))


@cli.command(name="size")
@click.option("--bankroll", required=True, metavar="B", help="The bankroll the stakes are a share of (money, exact).")
@click.option("--kelly", "kelly_text", metavar="F", help="Fractional Kelly, above 0 and at most 1 (default 1; 1/2: half Kelly): the Kelly stakes of F times the bankroll.")
@click.option("--min", "min_text", metavar="X|NAME=X,...", help="Table minimum: for every bet, or per bet (a bet is then 0 or at least it).")
@click.option("--max", "max_text", metavar="X|NAME=X,...", help="Table maximum: for every bet, or per bet.")
@click.option("--total-max", metavar="X", help="At most this much on the whole position.")
@click.option("--unit", metavar="X", help="Stakes in whole units of X (the smallest chip).")
@click.option("--side-needs-main", is_flag=True, help="A side bet only beside a main bet (California EZ tables); needs --min on the main bets or --unit.")
@click.option("--side-ratio", metavar="K", help="Each side bet at most K times the main bets staked.")
@click.option("--main", "main_text", metavar="NAMES", help="The main bets, comma-separated (default: banker, player and tie, and their variants).")
@click.option("--rebate", "rebate_text", metavar="PCT", help="Percent of each losing bet's loss returned (a rebate on losses; with --dead-chip, on each chip lost).")
@click.option("--dead-chip", is_flag=True, help="Also each bet played with dead (non-negotiable) chips: wagers per chip, cash and value per chip.")
@click.option("--session", "session_coups", type=Count(1, 500), metavar="N",
              help="Also the value of --rebate paid instead on the net loss of a session of N coups of one unit on each bet.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@shared("shoe", "rules", "pays", "bets", "bets_file")
@click.pass_context
def size_command(ctx: click.Context, /, bankroll: str, kelly_text: str | None, min_text: str | None, max_text: str | None,
                 total_max: str | None, unit: str | None, side_needs_main: bool, side_ratio: str | None, main_text: str | None,
                 rebate_text: str | None, dead_chip: bool, session_coups: int | None, fmt: str, **local: Any) -> None:
    """What to stake on the next coup: the Kelly position on --bets (default banker,player,tie)
    over the exact joint distribution of their settled lines, under table limits and a rebate on
    losses. Prints the stakes, the expected log growth of the bankroll per coup, the position's
    exact expected value, its standard deviation and the probability of losing all of it, and how
    the optimum was found; "no bet" where no stake grows the bankroll."""
    from ..engine.analysis import analyze_checked
    from ..output.render import render
    from ..commands.size import SizeRequest, sizing_document
    from ..studies.rebates import dead_chip as chip_of, session_rebate
    from ..studies.sizing import Limits, per_bet, size_joint
    from ..studies.joint import joint

    staking = SizeRequest(bankroll=bankroll, rebate=rebate_text, total_max=total_max, unit=unit, side_needs_main=side_needs_main, side_ratio=side_ratio,
                          main=main_text, session=session_coups)
    given_options = options(ctx, **local)
    shoe = given_options.starting_shoe()
    bets, notes = given_options.chosen_bets(shoe.knows_suits)
    names = [bet.name for bet in bets]
    kelly = parse_exact(kelly_text, "--kelly") if kelly_text is not None else Fraction(1)
    rebate = staking.rebate_share
    main = staking.mains()

    def exact(text: str | None) -> Fraction | None:
        return None if text is None else parse_exact(text, "amount")

    limits = Limits(per_bet(min_text, "--min", names) if min_text is not None else {}, per_bet(max_text, "--max", names) if max_text is not None else {},
                    exact(total_max), exact(unit), side_needs_main, exact(side_ratio), main)
    decisions = given_options.decisions(shoe)
    sizing = size_joint(joint(shoe, bets, decisions), parse_exact(bankroll, "bankroll"), limits, kelly, Fraction(0) if session_coups else rebate)
    results = analyze_checked(shoe, bets, decisions).bets if dead_chip or session_coups else ()
    chips = [chip_of(result, rebate) for result in results] if dead_chip else None
    sessions = [session_rebate(result, session_coups, rebate) for result in results] if session_coups else None
    if session_coups:
        notes.append("the rebate is paid on the session's net loss, which no coup settles alone: the stakes are sized without it")
    emit(render(sizing_document(sizing, chips, sessions, notes), fmt))


@cli.command(name="chemin-de-fer")
@click.option("--model", type=click.Choice(["A", "B2", "B3"], case_sensitive=False),
              help="A: each side sees its total (Kemeny-Snell); B2: the banker sees his two cards (Downton-Lockwood); B3: each side sees its two cards (Ethier-Gamez). Or give --rules.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown", "latex"]), default="table", show_default=True)
@shared("shoe", "commission", "rules", without=("policy",))
@click.pass_context
def chemin_de_fer(ctx: click.Context, /, model: str | None, fmt: str, **local: Any) -> None:
    """Chemin de fer solved exactly as a game between the player and the banker, each choosing
    where the rules leave a choice (in the models: the player on 5, the banker everywhere): the
    value, both optimal strategies and a certificate that anyone can check.

    Give --model, or --rules: a chemin de fer preset (the same as its model) or a TOML rules file
    whose option points (C) are the choices, at least one for each side. --commission PCT takes PCT
    percent of the banker's wins (default 0: the zero-sum game; a rule set's own commission is not
    read); the game is then bimatrix and the output is its Nash equilibrium. Model A is Kemeny and
    Snell's game with cards drawn with replacement: its --decks default is inf; the others default
    to 8 decks.
    """
    from ..commands.chemin import CheminRequest, render_solution, run

    emit(render_solution(run(CheminRequest(setup=options(ctx, **local), model=model)), fmt))


cli.lazy = {"export": "exact_odds.cli.folders.export", "report": "exact_odds.cli.folders.report", "serve": "exact_odds.cli.server.serve",
            **{name: f"exact_odds.cli.studies.{command}" for name, command in (("table", "table_command"), ("protect", "protect"), ("banque", "banque"),
                                                                              ("depth", "depth"), ("shoe", "shoe"))}}
reword(chemin_de_fer, "commission", "Commission on the banker's wins, percent (default 0: the zero-sum game).")
reword(chemin_de_fer, "rules", "A chemin de fer rule set instead of --model: a preset (chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3) "
                               "or a TOML rules file with option points (C) for both sides.")


def given_twice(args: Sequence[str]) -> str | None:
    """The first option given twice in one place (before the command, or after it), which click
    would silently take as its last value; None when there is none. Given before and after the
    command is caught by :func:`options`.

    >>> given_twice(["--remove", "AS", "--remove", "KS"]), given_twice(["--remove", "AS", "deal", "--remove", "KS"])
    ('--remove', None)
    """
    command: click.Command = cli
    context = click.Context(cli)
    seen: set[str] = set()
    arguments = iter(args)
    for token in arguments:
        if token == "--":
            break
        if not token.startswith("-") or token == "-":
            if command is cli and (named := cli.get_command(context, token)) is not None:
                command, seen = named, set()
            continue
        name, inline, _ = token.partition("=")
        option = next((param for param in command.params if isinstance(param, click.Option) and name in param.opts + param.secondary_opts), None)
        if option is None:
            continue
        if not option.multiple and not option.count:
            if option.name in seen:
                return name
            seen.add(option.name or name)
        if not option.is_flag and not inline:
            next(arguments, None)
    return None


def stop_at_first_interrupt(number: int, frame: FrameType | None) -> None:
    """Ctrl-C: stop the command, and ignore every Ctrl-C after it, so that the stop (workers ended,
    what finished printed, the exit) runs to its end whatever the timing of another."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: Iterable[str] | None = None) -> None:
    """Entry point: every input error is one line on stderr and exit status 2; Ctrl-C is one line
    and 130 (a terminal's ^C echo closed first); an output that cannot be written (a closed pipe, a
    full disk) is one line and status 1."""
    args = list(argv) if argv is not None else sys.argv[1:]
    try:
        previous = signal.signal(signal.SIGINT, stop_at_first_interrupt)
    except ValueError:  # not the main thread, to which signals go
        previous = None
    try:
        twice = given_twice(args)
        if twice:
            raise InputError(f"{twice}: that option is given already (only one value would count): give it once")
        code = cli.main(args=args, prog_name="baccarat-odds", standalone_mode=False)
    except click.ClickException as error:
        fail(f"error: {error.format_message()}", 2)
    except (click.Abort, KeyboardInterrupt, Interrupted):
        if sys.stderr.isatty():
            click.echo(err=True)
        fail("interrupted", 130)
    except InputError as error:
        fail(f"error: {in_cli_terms(error)}", 2)
    except OutputLost as error:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit does not fail to flush again
        fail(f"error: {error}", 1)
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        fail(f"error: {error.strerror or error}{where}", 1)
    finally:
        if previous is not None and signal.getsignal(signal.SIGINT) is stop_at_first_interrupt:
            # the command is done: as the program only the exit is left, which Ctrl-C would cut
            # short with a traceback; called with arguments, the caller's process goes on as it was
            signal.signal(signal.SIGINT, signal.SIG_IGN if argv is None else previous)
    sys.exit(code if isinstance(code, int) else 0)
