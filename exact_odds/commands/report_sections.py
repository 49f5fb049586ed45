"""The sections of a bet's page in the math report (:mod:`.report`): the rules in words, example
coups, returns, edges, the pay schedule, the edge by number of decks, the effects of removal, the
counting simulation and the provenance, as the renderer's blocks; and the settings they are made under."""

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any
from ..bets.bets import Bet
from ..bets.words import in_words
from ..core.cards import RANKS
from ..core.numbers import fixed, percent
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.analysis import BetAnalysis, analyze_checked
from ..studies.par import BetFigures, Digest
from .analyze import settles_on, standard_deviation
from ..output.blocks import Items, Paragraph, Plot, Preformatted, Table
from ..output.blocks import table as cells_table
from ..output.report_pages import Formula, Part

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
