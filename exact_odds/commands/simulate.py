"""The `simulate` command: real shuffled shoes dealt to the cut card with the exact expectation of
every bet at every coup; the distribution of exact EV, the gain of betting only when EV > 0, and a
count's gains by true count."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.numbers import shown
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Paragraph, Table, table
from ..records import versioned
from ..studies.dealer import Settings, parse_penetration, parse_tags
from .setup import Setup

MAX_SIMULATED_CARDS = 52_000
"""simulate deals shoes of at most this many cards (1,000 decks)."""


@dataclass(frozen=True, kw_only=True)
class SimulateRequest:
    """Real shuffled shoes to deal: the setup's shoe (a finite one of at most
    :data:`MAX_SIMULATED_CARDS` cards), rules and bets; ``shoes`` of them from ``seed``, to the cut
    card at ``penetration`` (a share of the shoe, as text), with the ``burn``, counted by ``tags``
    (13 integers A..K or RANK=TAG entries, as text); run on ``workers`` local processes or the
    workers of a dask ``scheduler`` (one of them); ``plot``: a plot of EV by true count is asked
    for (it needs ``tags``). Derived: ``settings`` (what the dealer reads) and ``notes`` (about
    the bets chosen).

    >>> SimulateRequest(setup=Setup(decks="inf"))
    Traceback (most recent call last):
    exact_odds.errors.InputError: simulate deals real shoes: give a whole number of decks or a shoe
    """

    setup: Setup
    shoes: int = 1000
    seed: int = 1
    penetration: str = "14/16"
    burn: bool = True
    tags: str | None = None
    workers: int | None = None
    scheduler: str | None = None
    plot: bool = False
    settings: Settings = field(init=False)
    notes: list[str] = field(init=False)

    def __post_init__(self) -> None:
        from ..studies.parallel import check_address, check_workers

        shoe = self.setup.starting_shoe()
        if shoe.with_replacement:
            raise InputError("simulate deals real shoes: give a whole number of decks or a shoe", parameter="shoe", mentions=("shoe",))
        if shoe.size > MAX_SIMULATED_CARDS:
            raise InputError(f"simulate shuffles at most {MAX_SIMULATED_CARDS:,} cards ({MAX_SIMULATED_CARDS // 52:,} decks); this shoe holds {shoe.size:,}",
                             parameter="shoe")
        check_workers(self.workers)
        if self.scheduler:
            check_address(self.scheduler)
            if self.workers is not None:
                raise InputError("workers sets local worker processes, and scheduler runs the shoes on the cluster's workers: give one",
                                 parameter="workers", mentions=("scheduler",))
        if self.tags is not None and not str(self.tags).strip():
            raise InputError("count is empty: give count tags (13 integers A..K, or RANK=TAG entries), or leave it out", parameter="count")
        if self.plot and self.tags is None:
            raise InputError("plot draws each coup's exact EV against its true count: give count TAGS to count the cards", parameter="plot",
                             mentions=("count TAGS",))
        bets, notes = self.setup.chosen_bets(suits_known=shoe.knows_suits)
        settings = Settings(shoe, self.shoes, self.seed, parse_penetration(self.penetration), self.burn, parse_tags(self.tags) if self.tags else None,
                            tuple(bets), self.setup.decisions(shoe))
        object.__setattr__(self, "settings", settings)
        object.__setattr__(self, "notes", notes)


def _plus_minus(error: float | None, scale: float, spec: str, unit: str) -> str:
    """A standard error as the table shows it (n/a over one shoe)."""
    return "n/a" if error is None else f"{scale * error:{spec}}{unit}"


def _count_lines(record: dict[str, Any]) -> list[str]:
    """Each bet's best true-count threshold and its gain (a count given), a line each."""
    lines = []
    for name, entry in record["bets"].items():
        best = max(entry["by_true_count"].items(), key=lambda item: item[1]["gain_per_100_coups"])
        if best[1]["gain_per_100_coups"] > 0:
            error = best[1]["gain_per_100_coups_standard_error"]
            lines.append(f"{name}: betting at true count >= {best[0]} (on {100 * best[1]['bet_share']:.3f}% of coups) "
                         f"gains {best[1]['gain_per_100_coups']:.5f}" + ("" if error is None else f" ± {error:.5f}") + " units per 100 coups")
        else:
            lines.append(f"{name}: no true-count threshold from {min(entry['by_true_count'], key=int)} to {max(entry['by_true_count'], key=int)} gains")
    return lines


def _with_blank_line(block: Table) -> Table:
    """``block`` followed in plain text by an empty line, as the summary has always ended when no line
    follows its tables (kept byte for byte): an empty last row."""
    return Table(block.headers, (*block.rows, ("",) * len(block.headers)), block.align)


def document(record: dict[str, Any], notes: Sequence[str] = ()) -> Document:
    """The simulation's summary (:func:`exact_odds.studies.simulate.summary`) as tables, each bet's
    best true-count threshold where a count was given, and ``notes``; its record for JSON."""
    settings = record["settings"]
    header = (f"{record['shoes_completed']:,} shoes of {settings['shoe']}, {settings['rules']}"
              + (f" ({settings['policy']})" if settings["policy"] else "") + f" (seed {settings['seed']}, penetration "
              f"{settings['penetration']}, burn {'on' if settings['burn'] else 'off'}), {record['coups']:,} coups"
              + (" (interrupted: the shoes completed in order)" if record["interrupted"] else ""))
    tail = "\n".join((_count_lines(record) if record["coups"] and settings["count_tags"] else []) + [f"Note: {note}" for note in notes])
    data = Data(versioned("simulate", record))
    if not record["coups"]:
        return Document((Paragraph(header if tail else header + "\n"), *([Paragraph(tail)] if tail else [])), data)
    outcomes = [[name, f"{entry['observed']:.6f}", f"{entry['exact_mean']:.6f}", f"{entry['standard_error']:.6f}", f"{entry['z']:+.2f}"]
                for name, entry in record["outcomes"].items()]
    rows = []
    for name, entry in record["bets"].items():
        quantiles = [f"{100 * entry['quantiles'][q]:.4f}%" if entry["quantiles"] else "n/a" for q in ("0.01", "0.5", "0.99")]
        rows.append([name, f"{100 * entry['mean_ev']:.4f}%", _plus_minus(entry["mean_ev_standard_error"], 100, ".4f", "%"), *quantiles,
                     f"{100 * entry['positive_share']:.3f}%", f"{entry['perfect_information_gain_per_100_coups']:.5f}",
                     _plus_minus(entry["perfect_information_gain_per_100_coups_standard_error"], 1, ".5f", "")]
                    + ([f"{entry['count_correlation']:.3f}"] if "count_correlation" in entry else []))
    headers = ["bet", "mean EV", "± s.e.", "EV 1%", "EV median", "EV 99%", "coups EV > 0", "gain /100 coups (EV > 0)", "± s.e."]
    headers += ["count corr."] if settings["count_tags"] else []
    bets = table(headers, rows)
    blocks: list[Block] = [Paragraph(header), table(["outcome", "observed", "exact (mean over coups)", "std error", "z"], outcomes)]
    blocks += [bets, Paragraph(tail)] if tail else [_with_blank_line(bets)]
    return Document(tuple(blocks), data)
