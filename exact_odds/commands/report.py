"""The math report of a bet: what a game designer submits to a regulator, one document per bet.

Each page is a submission (:mod:`exact_odds.output.report_pages`): a cover (title, game, submitter,
rules version, program version, date), a table of contents, and sections built as blocks
(:mod:`exact_odds.output.blocks`) from the exact analysis: the rules of play with each condition in
words, example coups of every pay line dealt from the enumeration, the pay schedule, the
combinations table, the edges, hit frequency, standard deviation, volatility index and the
confidence intervals of the hold, the maximum payout, the edge for each deck count asked with its
closed form typeset, the effects of removal and a seeded counting simulation, and the provenance
(the command, the program version, every input's text and SHA-256). It is written as a
self-contained HTML page (inline CSS, plots as inline SVG, formulas in MathML, print styling),
as Markdown (plots as SVG files beside it) and, on request, as a PDF printed by chromium.
"""

import dataclasses
import hashlib
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

from ..bets.bets import Bet
from ..bets.words import in_words
from ..core.cards import RANKS
from ..core.numbers import fixed, percent, shown
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.analysis import BetAnalysis, analyze_checked
from ..errors import InputError
from ..records import versioned
from ..studies.par import BetFigures, Digest, bet_figures
from .analyze import settles_on, standard_deviation
from .setup import Setup
from .simulate import MAX_SIMULATED_CARDS
from ..output.blocks import Block, Document, Heading, Items, Link, Paragraph, Plot, Preformatted, Table
from ..output.blocks import table as cells_table
from ..output.render import json_text, render_html, render_markdown
from ..output.report_pages import Formula, Part, Section, Submission, render_submission_html, render_submission_markdown

COUNT_THRESHOLDS = tuple(range(-4, 21))
"""True counts at or above which the report's counting simulation may bet."""
THRESHOLDS_AROUND = 4
"""The report's table of thresholds shows the best one and this many either side."""
COUNT_LEVEL = 2
"""The report simulates the balanced level-2 count derived from the effects of removal."""
DEFAULT_DECKS: tuple[int | str, ...] = (*range(1, 9), "inf")
"""The deck counts of the edge-by-decks table unless --decks names others."""
CONFIDENCE = ((90, Fraction("1.645")), (95, Fraction("1.960")))
"""The confidence levels of the intervals of the hold, with their two-sided normal quantiles z."""
HANDS = (1_000, 10_000, 100_000)
"""The numbers of hands after which the report gives the interval of the hold."""
PARALLEL_SHOES = 5_000
"""From this many shoes the report's simulation runs across the cores; below, in process (a worker
process builds its own tables, which costs more than a few thousand shoes)."""
PHASES = ("exact analysis", "example coups", "edge by number of decks", "closed form", "effects of removal", "counting simulation")
"""The steps of one bet's page, as the progress display names them."""


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


@dataclass(frozen=True)
class ReportSettings:
    """How the report was made: the simulation's conditions, the cover's fields and the provenance."""

    shoes: int
    seed: int
    penetration: Fraction
    burn: bool
    command: str
    date: datetime
    version: str
    workers: int = 1
    decks: tuple[int | str, ...] = DEFAULT_DECKS
    title: str | None = None
    game: str | None = None
    submitter: str | None = None
    inputs: tuple[Digest, ...] = ()
    program: str = ""
    """The program as it ran: its version and the path that weighs the batches."""


@dataclass(frozen=True)
class Progress:
    """Where the report tells its progress: each phase as it starts, each shoe simulated."""

    phase: Callable[[str], None]
    shoes: Callable[[int], None]


def report_date(environment: dict[str, str] | None = None) -> datetime:
    """Now (UTC), or the time of ``SOURCE_DATE_EPOCH`` (seconds since 1970, the reproducible-builds convention)."""
    text = (os.environ if environment is None else environment).get("SOURCE_DATE_EPOCH")
    if text is None:
        return datetime.now(timezone.utc).replace(microsecond=0)
    if not re.fullmatch(r"[0-9]{1,11}", text.strip(), flags=re.ASCII):
        raise InputError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970, not {shown(text)}")
    return datetime.fromtimestamp(int(text), timezone.utc)


def table(headers: Sequence[object], rows: Sequence[Sequence[object]], numeric: Sequence[bool]) -> Table:
    """A table whose ``numeric`` columns are aligned right."""
    return cells_table(headers, rows, ["right" if right else "left" for right in numeric])


def plot(name: str, svg: bytes, caption: str) -> Plot:
    return Plot(name, svg.decode("utf-8"), caption)


def in_words_pay(net: Fraction) -> str:
    """What a pay does to one unit staked.

    >>> in_words_pay(Fraction(19, 20)), in_words_pay(Fraction(0)), in_words_pay(Fraction(-1, 2))
    ('pays 19/20 to 1', 'pushes', 'loses 1/2 of the stake')
    """
    if net > 0:
        return f"pays {net} to 1"
    return "pushes" if net == 0 else "loses" if net == -1 else f"loses {-net} of the stake"


def decimal(value: Fraction | Decimal, places: int) -> str:
    """A number rounded half up to ``places`` decimals (from 60 significant digits)."""
    with localcontext() as context:
        context.prec = 60
        exact = value if isinstance(value, Decimal) else Decimal(value.numerator) / Decimal(value.denominator)
        return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def volatility(variance: Fraction, z: Fraction) -> Decimal:
    """The volatility index z times the standard deviation per unit bet (60 significant digits)."""
    with localcontext() as context:
        context.prec = 60
        return Decimal(z.numerator) / Decimal(z.denominator) * (Decimal(variance.numerator) / Decimal(variance.denominator)).sqrt()


def hold_interval(edge: Fraction, variance: Fraction, z: Fraction, hands: int) -> tuple[Decimal, Decimal]:
    """The interval of the hold (the house's win per unit bet) after ``hands`` bets of one unit:
    edge -+ z sigma / sqrt(hands), the normal approximation at the confidence of ``z``."""
    with localcontext() as context:
        context.prec = 60
        half = volatility(variance, z) / Decimal(hands).sqrt()
        middle = Decimal(edge.numerator) / Decimal(edge.denominator)
        return middle - half, middle + half


def hit_frequency(result: BetAnalysis) -> Fraction:
    """The probability that the bet wins."""
    return sum((row.probability for row in result.rows if row.pays.net > 0), Fraction(0))


def rules_section(result: BetAnalysis, shoe: Shoe, decisions: Decisions) -> list[Part]:
    from .rules import rules_text

    bet = result.bet
    rows = [(str(number), row.event, row.pays.text, in_words_pay(row.pays.net), in_words(row.condition)) for number, row in enumerate(bet.rows, 1)]
    rows.append((str(len(bet.rows) + 1), "any other result", "lose", "loses", "no line above holds"))
    policy = f", with the choices {decisions.policy.summary()}" if decisions.policy else ""
    weighted = f" Under this mixed policy each sequence counts {result.scale} times (the choices' weights)." if result.scale > 1 else ""
    schedule = table(("line", "event", "pays", "to one unit staked", "when"), rows, (True, False, True, False, False))
    written = Items(tuple(f"line {number}: {row.condition.text}" for number, row in enumerate(bet.rows, 1)), lead="The conditions as written:")
    return [Paragraph(bet.description or bet.name),
            Paragraph("The pay schedule: the first line whose condition holds settles the bet; a coup no line matches loses the stake. "
                      "Each condition is said in words (generated from the parsed condition) and as written in the bets file."),
            schedule, written,
            Paragraph(f"Shoe: {shoe}. The bet settles on {settles_on(result)}.{weighted} The game is played by the rules below{policy}."),
            Preformatted(rules_text(decisions.rules).rstrip())]


def examples_section(result: BetAnalysis, shoe: Shoe, decisions: Decisions) -> list[Part]:
    """A coup of real cards for every pay line, dealt from the enumeration and settled again by hand."""
    from ..studies.examples import TRIES, example_coups

    bet = result.bet
    found = example_coups(bet, shoe, decisions)
    rows = []
    for number, (row, example, line) in enumerate(zip(bet.rows, found, result.rows), 1):
        if example is None and not line.combinations:
            rows.append((str(number), row.event, "none: the line never settles on this shoe", "", "", "", row.pays.text))
        elif example is None:
            why = " (or only past a choice the policy mixes, which no deal by hand passes)" if decisions.scale > 1 else ""
            rows.append((str(number), row.event, f"none found in {TRIES} deals of every sequence of values{why}", "", "", "", row.pays.text))
        else:
            coup = example.coup
            rows.append((str(number), row.event, " ".join(map(str, example.cards)), f"{' '.join(map(str, coup.player))} ({coup.player_total})",
                         f"{' '.join(map(str, coup.banker))} ({coup.banker_total})", str(coup.winner), row.pays.text))
    return [Paragraph(f"For each pay line, one coup dealt from the shoe ({shoe}) that the line settles: the cards in shoe order (the first and "
                      "third to the player, the second and fourth to the banker, then the third cards as the rules draw them). "
                      "Each is found among every sequence of point values the rules deal, given cards of the shoe at random (seed 1), "
                      "and checked by dealing it again by hand and settling the bet on that deal."),
            table(("line", "event", "cards in shoe order", "player (total)", "banker (total)", "result", "pays"), rows,
                  (True, False, False, False, False, False, True))]


def one_in(value: Fraction | None, places: int = 2) -> str:
    """N of "1 in N" (or never), to ``places`` decimals, as the workbook shows it."""
    return "never" if value is None else f"{Decimal(decimal(value, places)):,}"


def returns_section(result: BetAnalysis, figures: BetFigures) -> list[Part]:
    rows = [(row.event, row.pays.text, f"{row.combinations:,}", str(row.probability), fixed(row.probability, 10), fixed(row.expected_return, 10),
             one_in(line.one_in), one_in(line.true_odds, 4)) for row, line in zip(result.rows, figures.lines)]
    rows.append(("total", "", f"{result.total:,}", "1", fixed(Fraction(1), 10), fixed(result.expected_value, 10), "", ""))
    return [Paragraph(f"Combinations: the number of card sequences of the shoe ({settles_on(result)}) that settle on each line, "
                      "out of the total; probability and return per unit bet exact, and to 10 decimals; each line's \"1 in N\" "
                      "(N = 1 / probability: the line comes once in N bets on average) and the true odds against it, (1 - p) / p to 1."),
            table(("event", "pays", "combinations", "probability", "decimal", "return", "1 in N", "true odds against (to 1)"), rows,
                  (False, False, True, True, True, True, True, True))]


def edges_section(result: BetAnalysis, par: BetFigures) -> list[Part]:
    hit = hit_frequency(result)
    resolved = result.house_edge_excluding_pushes
    figures = [
        ("house edge per bet made", str(result.house_edge), percent(result.house_edge)),
        ("element of risk (expected loss over the amount wagered: a baccarat bet is never raised, so the house edge per bet made)",
         str(par.element_of_risk), percent(par.element_of_risk)),
        ("house edge per bet resolved (pushes excluded)", "n/a" if resolved is None else str(resolved), "never resolves" if resolved is None else percent(resolved)),
        ("hit frequency (the bet wins)", str(hit), percent(hit)),
        ("push frequency", str(result.push_probability), percent(result.push_probability)),
        ("variance per unit bet", str(result.variance), fixed(result.variance, 6)),
        ("standard deviation per unit bet (the square root of the variance)", "", standard_deviation(result, 6)),
    ]
    indices = [(f"volatility index at {level}% confidence ({decimal(z, 3)} x standard deviation)", "", decimal(volatility(result.variance, z), 4))
               for level, z in CONFIDENCE]
    rows = []
    for hands in HANDS:
        row = [f"{hands:,}"]
        for _, z in CONFIDENCE:
            low, high = hold_interval(result.house_edge, result.variance, z, hands)
            row.append(f"{decimal(low * 100, 4)}% to {decimal(high * 100, 4)}%")
        rows.append(tuple(row))
    return [table(("measure", "exact", "decimal"), figures + indices, (False, True, True)),
            Paragraph("The hold here is the house's win divided by the amount bet, over a number of hands of one unit each. Its expected "
                      "value is the house edge per bet made; after N hands it lies, by the normal approximation, within the edge plus or "
                      "minus the volatility index over the square root of N with the stated confidence. A casino's hold measured against "
                      "the drop (the cash changed for chips) also depends on how often chips are bet again, which is no property of the bet."),
            table(("hands", *(f"hold at {level}% confidence" for level, _ in CONFIDENCE)), rows, (True, True, True))]


def payout_section(result: BetAnalysis) -> list[Part]:
    """The largest win per unit staked, how often it comes, and the house's exposure on one coup."""
    largest = max(row.pays.net for row in result.rows)
    lines = [row for row in result.rows if row.pays.net == largest]
    chance = sum((row.probability for row in lines), Fraction(0))
    loss = -min(row.pays.net for row in result.rows)
    if largest <= 0:
        return [Paragraph(f"The bet never wins: at best it {in_words_pay(largest)}; the most a unit bet can lose is {loss}.")]
    once = "never on this shoe" if chance == 0 else f"once in {decimal(1 / chance, 1)} bets on average"
    rows = [("maximum payout per unit bet", f"{largest} to 1", ", ".join(row.event for row in lines)),
            ("probability of the maximum payout", str(chance), f"{percent(chance, 6)}, {once}"),
            ("maximum loss per unit bet", str(loss), "the stake" if loss == 1 else "part of the stake"),
            ("exposure per unit bet", f"{largest}", "the most the house pays on one coup to a bet of one unit: a bet of B units can cost "
                                                   f"the house {largest} x B on one coup")]
    return [table(("measure", "value", "note"), rows, (False, True, False))]


def shoe_of(decks: int | str) -> Shoe:
    return Shoe.infinite() if decks == "inf" else Shoe.decks(int(decks))


def decks_section(bet: Bet, decisions: Decisions, decks: Sequence[int | str], progress: Progress | None) -> list[Part]:
    """The edge for each deck count asked, its closed form in d typeset, and a plot."""
    import sympy
    from sympy.printing.mathml import mathml

    from ..studies.formulas import expectation_formulas, house_edge
    from ..output.plots import edge_by_decks_figure

    edges = {count: analyze_checked(shoe_of(count), [bet], decisions).bets[0].house_edge for count in decks}
    if progress:
        progress.phase(f"{bet.name}: {PHASES[3]}")
    formula = house_edge(expectation_formulas([bet], decisions)[0])
    for count, edge in edges.items():
        exact = formula.limit if count == "inf" else formula.at(int(count))
        if exact != edge:
            raise ArithmeticError(f"the closed form gives {exact} at {count} decks, the enumeration {edge}")
    rows = [("infinite" if count == "inf" else str(count), str(edge), percent(edge)) for count, edge in edges.items()]
    parts: list[Part] = [table(("decks", "house edge (exact)", "house edge"), rows, (True, True, True)),
                         Paragraph(f"Closed form in the number of decks d, exact for every d >= 1 (the numerator is a polynomial of degree "
                                   f"{formula.cards}, found from exact counts and checked at further deck counts; every row above equals it):"),
                         Formula(f"house edge(d) = {sympy.sstr(formula.expression)}", f"h(d) = {sympy.latex(formula.expression)}",
                                 f"<mrow><mi>h</mi><mo>(</mo><mi>d</mi><mo>)</mo><mo>=</mo>{mathml(formula.expression, printer='presentation')}</mrow>"),
                         Paragraph(f"As d grows without bound the edge tends to {formula.limit} ({percent(formula.limit)}), the infinite deck's.")]
    finite = [count for count in decks if count != "inf"]
    if finite:
        infinite = float(formula.limit)
        figure = edge_by_decks_figure(bet.name, [int(count) for count in finite], [float(edges[count]) for count in finite], infinite)
        parts.append(plot(f"{bet.name}-edge-by-decks", figure, f"{bet.name}: house edge by number of decks"))
    return parts


def removal_section(result: Any, shoe: Shoe) -> tuple[list[Part], tuple[int, ...]]:
    """The effects of removal with the derived counts, and the tags the simulation uses."""
    from ..output.plots import removal_figure
    from ..studies.removal import balanced_tags, betting_correlation

    levels = {level: balanced_tags(result.effects, level) for level in (1, 2)}
    rows = [(rank, "none held" if effect is None else str(effect), "" if effect is None else percent(effect, 5), *(str(levels[level][index]) for level in levels))
            for index, (rank, effect) in enumerate(zip(RANKS, result.effects))]
    deck = "n/a (the shoe holds less than a deck)" if result.deck_removed is None else percent(result.deck_removed, 6)
    counts = [f"level {level}: {', '.join(f'{rank}={tag}' for rank, tag in zip(RANKS, tags))}; betting correlation "
              f"{betting_correlation(result.effects, tags):.3f}" for level, tags in levels.items()]
    return [Paragraph(f"The exact change in the bet's expectation (per unit) when one card of each rank leaves the {shoe}. "
                      f"Weighted by the counts in the shoe the effects sum to exactly {result.weighted_sum}. Removing one whole deck: "
                      f"linear prediction {percent(result.deck_prediction, 6)}, exact {deck}."),
            table(("rank", "effect (exact)", "effect", "level 1", "level 2"), rows, (False, True, True, True, True)),
            plot(f"{result.bet.name}-removal", removal_figure([(result.bet.name, result.effects)], RANKS, "svg"), f"{result.bet.name}: effect of removing one card"),
            Paragraph("Derived counts: balanced integer tags following the effects of removal, equal for equal effects (a card whose "
                      "removal helps the bet counts +); the betting correlation is that of the tags with the effects over the cards of a deck."),
            Items(tuple(counts))], levels[COUNT_LEVEL]


def estimate_cell(estimate: Any, places: int, scale: float = 1.0, suffix: str = "") -> str:
    """An estimate with its standard error, or n/a (a ratio over no bets)."""
    if math.isnan(estimate.value):
        return "n/a"
    return f"{estimate.value * scale:.{places}f}{suffix} ± {estimate.standard_error * scale:.{places}f}{suffix}"


def simulation_section(bet: Bet, shoe: Shoe, decisions: Decisions, tags: tuple[int, ...] | None, settings: ReportSettings,
                       progress: Progress | None) -> list[Part]:
    """A seeded simulation: perfect information and the level-2 count at each threshold, the best one named."""
    from ..output.plots import count_figure
    from ..studies.dealer import Settings
    from ..studies.simulate import estimates, run

    run_settings = Settings(shoe, settings.shoes, settings.seed, settings.penetration, settings.burn, tags, (bet,), decisions, COUNT_THRESHOLDS)
    simulation = run(run_settings, settings.workers, None, progress.shoes if progress else None)
    if simulation.interrupted:
        raise KeyboardInterrupt
    perfect = estimates(simulation, bet.name, None)
    conditions = (f"{settings.shoes:,} shoes of {shoe}, seed {settings.seed}; the cut card at {settings.penetration} of the shoe "
                  f"({shoe.size - int(shoe.size * settings.penetration)} cards behind it): the coup in which it appears is finished and one "
                  f"more is played; burn {'on (one card turned, as many burned face down as its value, tens 10)' if settings.burn else 'off'}. "
                  "Each figure sums the exact expectation of every bet made (from the cards left in the shoe), so the standard errors "
                  "(±, over shoes) are those of the shoes dealt, not of the outcomes. One unit is bet whenever the rule says so.")

    def row(label: str, values: dict[str, Any]) -> tuple[str, ...]:
        return (label, estimate_cell(values["gain_per_shoe"], 4), estimate_cell(values["gain_per_100_coups"], 4),
                estimate_cell(values["bets_per_shoe"], 2), estimate_cell(values["bet_share"], 3, 100, "%"), estimate_cell(values["edge_when_betting"], 2, 100, "%"))

    headers = ("betting rule", "win per shoe", "win per 100 coups", "bets per shoe", "share of coups bet", "edge when betting")
    numeric = (False,) + (True,) * 5
    rows = [row("perfect information: whenever the exact edge is positive", perfect)]
    blocks: list[Part] = [Paragraph(conditions)]
    if tags is None:
        blocks += [Paragraph(f"No balanced level-{COUNT_LEVEL} count follows these effects of removal (equal effects share a tag): "
                             "only perfect information is simulated."),
                   table(headers, rows, numeric)]
        return blocks
    by_threshold = {threshold: estimates(simulation, bet.name, threshold) for threshold in COUNT_THRESHOLDS}
    best = max(COUNT_THRESHOLDS, key=lambda threshold: by_threshold[threshold]["gain_per_shoe"].value)
    rows.append(row(f"level-{COUNT_LEVEL} count: true count at or above {best:+d} (the best threshold)", by_threshold[best]))
    shown_thresholds = [threshold for threshold in COUNT_THRESHOLDS if abs(threshold - best) <= THRESHOLDS_AROUND]
    plotted = [threshold for threshold in shown_thresholds if by_threshold[threshold]["bets_per_shoe"].value > 0]
    count = ", ".join(f"{rank}={tag}" for rank, tag in zip(RANKS, tags))
    blocks += [Paragraph(f"The count: the level-{COUNT_LEVEL} tags derived above ({count}); the true count is the running count of "
                         "the cards seen (burned cards are not seen) over the decks not yet seen."),
               Paragraph(f"Perfect information bets on {100 * perfect['bet_share'].value:.3f}% of coups (those with a positive edge). "
                         f"The best count threshold wins {estimate_cell(by_threshold[best]['gain_per_shoe'], 4)} units per shoe."),
               table(headers, rows, numeric),
               Paragraph(f"By threshold, from {shown_thresholds[0]:+d} to {shown_thresholds[-1]:+d} (the best and {THRESHOLDS_AROUND} either side):"),
               table(("true count at or above",) + headers[1:], [row(f"{threshold:+d}", by_threshold[threshold]) for threshold in shown_thresholds], (True,) * 6),
               plot(f"{bet.name}-count", count_figure(bet.name, plotted, [by_threshold[t]["gain_per_shoe"].value for t in plotted],
                                                      [by_threshold[t]["gain_per_shoe"].standard_error for t in plotted],
                                                      (shown_thresholds[0], shown_thresholds[-1])),
                    f"{bet.name}: win per shoe betting at each true count of the table above, with one standard error")]
    return blocks


def bet_definition(bet: Bet) -> str:
    """The bet as a bets file writes it (what the report analysed)."""
    import json

    rows = "".join(f"  {{ when = {json.dumps(row.condition.text)}, pays = {json.dumps(row.pays.text)}, event = {json.dumps(row.event)} }},\n"
                   for row in bet.rows)
    return f"[[bet]]\nname = {json.dumps(bet.name)}\ndescription = {json.dumps(bet.description)}\npays = [\n{rows}]\n"


def provenance_section(bet: Bet | None, decisions: Decisions | None, settings: ReportSettings) -> list[Part]:
    """The command, the program, and every input with its SHA-256 and full text, so anyone can rerun and compare."""
    parts: list[Part] = [Items((f"Made {settings.date.strftime('%Y-%m-%d %H:%M:%S')} UTC by exact_odds {settings.version}"
                                + (f" ({settings.program})" if settings.program else "") + ".",
                                f"Command: {settings.command}",
                                "Every figure is exact (integer counts of card sequences, exact fractions) except the simulation's, "
                                "which carry standard errors, and the volatility figures, square roots rounded as shown."))]
    inputs = list(settings.inputs)
    if decisions is not None:
        from ..core.rules import rules_toml

        inputs.append(Digest.of_text("rules as analysed", "the rule set as a rules file (baccarat-odds rules --format toml)", rules_toml(decisions.rules)))
        if decisions.policy:
            inputs.append(Digest.of_text("policy", "--policy", decisions.policy.summary() + "\n"))
    if bet is not None:
        inputs.append(Digest.of_text("bet as analysed", f"{bet.name}, as a bets file writes it", bet_definition(bet)))
    rows = [(item.role, item.name, item.sha256) for item in inputs]
    if rows:  # the index names no input file of its own
        parts += [table(("input", "file", "SHA-256"), rows, (False, False, False))]
    for item in inputs:
        parts += [Paragraph(f"{item.role}: {item.name} (SHA-256 {item.sha256})"), Preformatted(item.text.rstrip("\n"))]
    return parts


def rules_version(decisions: Decisions) -> str:
    from ..core.rules import rules_toml

    return f"{decisions.rules.name}, rules file SHA-256 {hashlib.sha256(rules_toml(decisions.rules).encode('utf-8')).hexdigest()[:16]}"


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
