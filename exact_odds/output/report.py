"""The math report of a bet: what a game designer hands a regulator, one page per bet.

The content of each page is built once, as blocks (headings, paragraphs, tables, plots:
:mod:`exact_odds.output.blocks`), from the exact analysis, the edge by number of decks with its
closed form, the effects of removal, the derived counts and a seeded counting simulation;
:mod:`exact_odds.output.render` writes it as a self-contained HTML page (inline CSS, plots as inline
SVG) and as Markdown (plots as SVG files beside it, which is how GitHub and most Markdown viewers
show images: they do not display SVG data URIs).
"""

import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any

from ..engine.analysis import BetAnalysis, analyze
from ..bets.bets import Bet
from ..core.cards import RANKS
from ..errors import InputError
from ..core.numbers import shown
from ..core.policy import Decisions
from ..core.numbers import fixed, percent
from .analysis_tables import settles_on, standard_deviation
from .blocks import Block, Document, Heading, Items, Link, Paragraph, Plot, Preformatted, Table
from .blocks import table as cells_table
from .render import render_html, render_markdown
from ..core.shoe import Shoe

COUNT_THRESHOLDS = tuple(range(-4, 21))
"""True counts at or above which the report's counting simulation may bet."""
THRESHOLDS_AROUND = 4
"""The report's table of thresholds shows the best one and this many either side."""
COUNT_LEVEL = 2
"""The report simulates the balanced level-2 count derived from the effects of removal."""


@dataclass(frozen=True)
class Page:
    name: str
    document: Document
    """The page: its title and blocks."""
    summary: tuple[str, str]
    """The bet's house edge and standard deviation, for the index."""


@dataclass(frozen=True)
class ReportSettings:
    """How the report was made: the simulation's conditions and the provenance printed on every page."""

    shoes: int
    seed: int
    penetration: Fraction
    burn: bool
    command: str
    date: datetime
    version: str
    workers: int = 1


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


def in_words(net: Fraction) -> str:
    """What a pay does to one unit staked.

    >>> in_words(Fraction(19, 20)), in_words(Fraction(0)), in_words(Fraction(-1, 2))
    ('pays 19/20 to 1', 'pushes', 'loses 1/2 of the stake')
    """
    if net > 0:
        return f"pays {net} to 1"
    return "pushes" if net == 0 else "loses" if net == -1 else f"loses {-net} of the stake"


def rules_section(result: BetAnalysis, shoe: Shoe, decisions: Decisions) -> list[Block]:
    from ..core.rules import rules_text

    bet = result.bet
    rows = [f"{row.event}: {in_words(row.pays.net)} (when {row.condition.text})" for row in bet.rows]
    policy = f", with the choices {decisions.policy.summary()}" if decisions.policy else ""
    weighted = f" Under this mixed policy each sequence counts {result.scale} times (the choices' weights)." if result.scale > 1 else ""
    return [Heading(2, "The bet"), Paragraph(bet.description or bet.name),
            Paragraph("The first line whose condition holds settles the bet; any other result loses."),
            Items(tuple(rows) + ("any other result: loses",)),
            Paragraph(f"Shoe: {shoe}. The bet settles on {settles_on(result)}.{weighted} The game is played by the rules below{policy}."),
            Preformatted(rules_text(decisions.rules).rstrip())]


def hit_frequency(result: BetAnalysis) -> Fraction:
    """The probability that the bet wins."""
    return sum((row.probability for row in result.rows if row.pays.net > 0), Fraction(0))


def returns_section(result: BetAnalysis) -> list[Block]:
    rows = [(row.event, row.pays.text, f"{row.combinations:,}", str(row.probability), fixed(row.probability, 10), fixed(row.expected_return, 10))
            for row in result.rows]
    rows.append(("total", "", f"{result.total:,}", "1", fixed(Fraction(1), 10), fixed(result.expected_value, 10)))
    hit = hit_frequency(result)
    resolved = result.house_edge_excluding_pushes
    figures = [
        ("house edge per bet made", str(result.house_edge), percent(result.house_edge)),
        ("house edge per bet resolved (pushes excluded)", "n/a" if resolved is None else str(resolved), "never resolves" if resolved is None else percent(resolved)),
        ("hit frequency (the bet wins)", str(hit), percent(hit)),
        ("push frequency", str(result.push_probability), percent(result.push_probability)),
        ("variance per unit bet", str(result.variance), fixed(result.variance, 6)),
        ("standard deviation per unit bet", "", standard_deviation(result, 6)),
    ]
    return [Heading(2, "Return table"), table(("event", "pays", "combinations", "probability", "decimal", "return"), rows, (False, False, True, True, True, True)),
            Heading(2, "House edge, hit frequency and standard deviation"), table(("measure", "exact", "decimal"), figures, (False, True, True))]


def decks_section(bet: Bet, decisions: Decisions) -> list[Block]:
    """The edge for 1 to 8 decks and the infinite deck, its closed form in d, and a plot."""
    import sympy

    from ..studies.formulas import expectation_formulas, house_edge
    from .plots import edge_by_decks_figure

    decks = range(1, 9)
    edges = [analyze(Shoe.decks(count), [bet], decisions).bets[0].house_edge for count in decks]
    infinite = analyze(Shoe.infinite(), [bet], decisions).bets[0].house_edge
    formula = house_edge(expectation_formulas([bet], decisions)[0])
    rows = [(str(count), str(edge), percent(edge)) for count, edge in zip(decks, edges)] + [("infinite", str(infinite), percent(infinite))]
    figure = edge_by_decks_figure(bet.name, list(decks), [float(edge) for edge in edges], float(infinite))
    return [Heading(2, "House edge by number of decks"), table(("decks", "house edge (exact)", "house edge"), rows, (True, True, True)),
            Paragraph(f"Closed form in the number of decks d (exact for every d >= 1; the numerator is a polynomial of degree "
                      f"{formula.cards}, found from exact counts and checked at further deck counts):"),
            Preformatted(f"house edge(d) = {sympy.sstr(formula.expression)}\nas d -> oo: {formula.limit} ({percent(formula.limit)}), the infinite deck", wrap=True),
            plot(f"{bet.name}-edge-by-decks", figure, f"{bet.name}: house edge by number of decks")]


def removal_section(result: Any, shoe: Shoe) -> tuple[list[Block], tuple[int, ...]]:
    """The effects of removal with the derived counts, and the tags the simulation uses."""
    from .plots import removal_figure
    from ..studies.removal import balanced_tags, betting_correlation

    levels = {level: balanced_tags(result.effects, level) for level in (1, 2)}
    rows = [(rank, "none held" if effect is None else str(effect), "" if effect is None else percent(effect, 5), *(str(levels[level][index]) for level in levels))
            for index, (rank, effect) in enumerate(zip(RANKS, result.effects))]
    deck = "n/a (the shoe holds less than a deck)" if result.deck_removed is None else percent(result.deck_removed, 6)
    counts = [f"level {level}: {', '.join(f'{rank}={tag}' for rank, tag in zip(RANKS, tags))}; betting correlation "
              f"{betting_correlation(result.effects, tags):.3f}" for level, tags in levels.items()]
    return [Heading(2, "Effect of removal"),
            Paragraph(f"The exact change in the bet's expectation (per unit) when one card of each rank leaves the {shoe}. "
                      f"Weighted by the counts in the shoe the effects sum to exactly {result.weighted_sum}. Removing one whole deck: "
                      f"linear prediction {percent(result.deck_prediction, 6)}, exact {deck}."),
            table(("rank", "effect (exact)", "effect", "level 1", "level 2"), rows, (False, True, True, True, True)),
            plot(f"{result.bet.name}-removal", removal_figure([result], "svg"), f"{result.bet.name}: effect of removing one card"),
            Heading(2, "Derived counts"),
            Paragraph("Balanced integer tags following the effects of removal, equal for equal effects (a card whose removal helps the bet "
                      "counts +); the betting correlation is that of the tags with the effects over the cards of a deck."),
            Items(tuple(counts))], levels[COUNT_LEVEL]


def estimate_cell(estimate: Any, places: int, scale: float = 1.0, suffix: str = "") -> str:
    """An estimate with its standard error, or n/a (a ratio over no bets)."""
    if math.isnan(estimate.value):
        return "n/a"
    return f"{estimate.value * scale:.{places}f}{suffix} ± {estimate.standard_error * scale:.{places}f}{suffix}"


def simulation_section(bet: Bet, shoe: Shoe, decisions: Decisions, tags: tuple[int, ...] | None, settings: ReportSettings,
                       progress: Callable[[int], None] | None) -> list[Block]:
    """A seeded simulation: perfect information and the level-2 count at each threshold, the best one named."""
    from .plots import count_figure
    from ..studies.simulate import Settings, estimates, run

    run_settings = Settings(shoe, settings.shoes, settings.seed, settings.penetration, settings.burn, tags, (bet,), decisions, COUNT_THRESHOLDS)
    simulation = run(run_settings, settings.workers, None, progress)
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
    blocks: list[Block] = [Heading(2, "Counting simulation"), Paragraph(conditions)]
    if tags is None:
        blocks += [Paragraph(f"No balanced level-{COUNT_LEVEL} count follows these effects of removal (equal effects share a tag): "
                             "only perfect information is simulated."),
                   table(headers, rows, numeric)]
        return blocks
    by_threshold = {threshold: estimates(simulation, bet.name, threshold) for threshold in COUNT_THRESHOLDS}
    best = max(COUNT_THRESHOLDS, key=lambda threshold: by_threshold[threshold]["gain_per_shoe"].value)
    rows.append(row(f"level-{COUNT_LEVEL} count: true count at or above {best:+d} (the best threshold)", by_threshold[best]))
    shown_thresholds = [threshold for threshold in COUNT_THRESHOLDS if abs(threshold - best) <= THRESHOLDS_AROUND]
    plotted = [threshold for threshold in COUNT_THRESHOLDS if threshold >= shown_thresholds[0] and by_threshold[threshold]["bets_per_shoe"].value > 0]
    count = ", ".join(f"{rank}={tag}" for rank, tag in zip(RANKS, tags))
    blocks += [Paragraph(f"The count: the level-{COUNT_LEVEL} tags derived above ({count}); the true count is the running count of "
                         "the cards seen (burned cards are not seen) over the decks not yet seen."),
               Paragraph(f"Perfect information bets on {100 * perfect['bet_share'].value:.3f}% of coups (those with a positive edge). "
                         f"The best count threshold wins {estimate_cell(by_threshold[best]['gain_per_shoe'], 4)} units per shoe."),
               table(headers, rows, numeric),
               Paragraph(f"By threshold, from {shown_thresholds[0]:+d} to {shown_thresholds[-1]:+d} (the best and {THRESHOLDS_AROUND} either side):"),
               table(("true count at or above",) + headers[1:], [row(f"{threshold:+d}", by_threshold[threshold]) for threshold in shown_thresholds], (True,) * 6),
               plot(f"{bet.name}-count", count_figure(bet.name, plotted, [by_threshold[t]["gain_per_shoe"].value for t in plotted],
                                                      [by_threshold[t]["gain_per_shoe"].standard_error for t in plotted]),
                    f"{bet.name}: win per shoe betting at each true count, with one standard error")]
    return blocks


def bet_page(bet: Bet, shoe: Shoe, decisions: Decisions, settings: ReportSettings, progress: Callable[[int], None] | None = None) -> Page:
    """One bet's report, as data."""
    from ..studies.removal import removal_effects

    result = analyze(shoe, [bet], decisions).bets[0]
    key = Paragraph(f"On {shoe}: house edge {percent(result.house_edge)} per bet made, hit frequency {percent(hit_frequency(result))}, "
                    f"standard deviation {standard_deviation(result)} units per unit bet.")
    blocks: list[Block] = [key] + rules_section(result, shoe, decisions) + returns_section(result) + decks_section(bet, decisions)
    if shoe.with_replacement:
        blocks.append(Paragraph("The infinite deck has no effect of removal and cannot be counted: every card drawn is put back."))
    else:
        removal, tags = removal_section(removal_effects(shoe, [bet], decisions)[0], shoe)
        blocks += removal
        if settings.shoes:
            blocks += simulation_section(bet, shoe, decisions, tags if any(tags) else None, settings, progress)
    blocks += provenance(settings)
    return Page(bet.name, Document(tuple(blocks), title=f"{bet.name}: mathematical report"), (percent(result.house_edge), standard_deviation(result)))


def provenance(settings: ReportSettings) -> list[Block]:
    return [Heading(2, "Provenance"),
            Items((f"Made {settings.date.strftime('%Y-%m-%d %H:%M:%S')} UTC by exact_odds {settings.version}.", f"Command: {settings.command}",
                   "Every figure is exact (integer counts of card sequences, exact fractions) except the simulation's, which carry standard errors."))]


def index_page(pages: Sequence[Page], settings: ReportSettings) -> Page:
    rows = [(Link(page.name, page.name, page=True), page.summary[0], page.summary[1]) for page in pages]
    return Page("index", Document((Paragraph("One page per bet (HTML, and Markdown with its plots as SVG files)."),
                                   table(("bet", "house edge", "standard deviation"), rows, (False, True, True)),
                                   *provenance(settings)), title="Mathematical report"), ("", ""))


def report_files(pages: Sequence[Page], settings: ReportSettings) -> dict[str, str]:
    """Every file of the report folder: per bet an HTML page, a Markdown page and its plots; an index of each."""
    files: dict[str, str] = {}
    for page in pages:
        files[f"{page.name}.html"] = render_html(page.document)
        files[f"{page.name}.md"] = render_markdown(page.document)
        files.update({f"{block.name}.svg": block.svg for block in page.document.blocks if isinstance(block, Plot)})
    index = index_page(pages, settings).document
    files["index.html"] = render_html(index)
    files["index.md"] = render_markdown(index)
    return files


def build(bets: Sequence[Bet], shoe: Shoe, decisions: Decisions, settings: ReportSettings,
          progress: Callable[[int], None] | None = None) -> dict[str, str]:
    """The report folder's files for ``bets`` on ``shoe`` (see :func:`report_files`)."""
    names = [bet.name for bet in bets]
    if "index" in names:
        raise InputError("a bet named index would overwrite the report's index page: give it another name")
    return report_files([bet_page(bet, shoe, decisions, settings, progress) for bet in bets], settings)
