"""The `shoe` command: a whole shoe dealt to the cut card (:mod:`exact_odds.studies.shoe`), exactly
where its dealt-card states can be counted, else simulated in ranges of shoes (by seed) on local
workers or a dask cluster, resumable from a results folder (:mod:`exact_odds.studies.ranges`).

>>> from exact_odds.core.shoe import Shoe
>>> request = ShoeRequest(study=ShoeStudy(shoe=Shoe.parse("9=2,K=8"), cut_card=4, after_cut=0, burn=False), auto=True)
>>> request.chosen.method, run(request)["tie"].perfect_play.exact
('exact', Fraction(34, 15))
"""

import dataclasses
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction  # noqa: F401 (the doctests read it)
from typing import Any

from .. import __version__
from ..core.numbers import shown
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Paragraph, Table, table
from ..studies.shoe import ShoeOdds, ShoeStudy

RANGE_SHOES = 1000
"""Shoes per range of a simulation (a task; a file of its results folder)."""
FORMAT = 1
"""The layout of a results folder's files (a folder of another layout is another run's)."""


@dataclass(frozen=True, kw_only=True)
class ShoeRequest:
    """A shoe study and how it runs. With ``auto``, the study's own method is set aside: exact where
    the exact method can count the shoe (the study says so), simulated otherwise, and ``reason``
    says which and why. ``workers`` (None: as many as the cores and the ranges allow),
    ``scheduler`` and ``resume`` (a results folder) run a simulation, and are refused beside the exact method."""

    study: ShoeStudy
    auto: bool = False
    shoes: int | None = None
    """The shoes a simulation deals (None: the study's); refused beside the exact method, as ``seed`` is."""
    seed: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    resume: str | os.PathLike[str] | None = None
    chosen: ShoeStudy = field(init=False)
    """The study that runs (the method chosen)."""
    reason: str = field(init=False)

    def __post_init__(self) -> None:
        from ..studies.parallel import check_address, check_workers

        if not isinstance(self.study, ShoeStudy):
            raise InputError(f"study must be a ShoeStudy, not {shown(self.study)}", parameter="study")
        chosen, reason = self.study, ""
        if self.auto:
            try:
                chosen = dataclasses.replace(self.study, method="exact")
                reason = "auto chose exact: the exact method counts this shoe"
            except InputError as refusal:
                chosen = dataclasses.replace(self.study, method="simulated")
                reason = f"auto chose simulated, as the exact method refuses: {refusal}"
        object.__setattr__(self, "chosen", chosen)
        object.__setattr__(self, "reason", reason)
        check_workers(self.workers)
        if self.scheduler is not None:
            check_address(self.scheduler)
            if self.workers is not None:
                raise InputError("workers sets local worker processes, and scheduler runs the shoes on the cluster's workers: give one",
                                 parameter="workers", mentions=("scheduler",))
        if self.resume is not None and not str(self.resume).strip():
            raise InputError("resume is empty: name a results folder", parameter="resume")
        given = [name for name in ("workers", "scheduler", "resume") if getattr(self, name) is not None]
        if chosen.method == "exact" and given:
            why = " (chosen by auto: give method simulated to simulate)" if self.auto else ""
            raise InputError(f"{given[0]} runs the simulated method in ranges of shoes; the exact method{why} counts in this process",
                             parameter=given[0])
        simulation = {name: getattr(self, name) for name in ("shoes", "seed") if getattr(self, name) is not None}
        if chosen.method == "exact" and simulation:
            why = " (chosen by method auto: give method simulated to simulate)" if self.auto else ""
            raise InputError(f"{next(iter(simulation))} sets the simulation; the exact method{why} deals no shoes", parameter=next(iter(simulation)),
                             mentions=("method auto", "method simulated") if self.auto else ())
        if simulation:
            object.__setattr__(self, "chosen", dataclasses.replace(chosen, **simulation))

    def ranges(self) -> list[tuple[int, int]]:
        """The simulation's ranges of shoes, by seed index."""
        from ..studies.shoe_simulated import chunk_ranges

        return chunk_ranges(self.chosen.shoes, RANGE_SHOES)

    def parameters(self) -> dict[str, Any]:
        """What defines a simulation's results (for its results folder): everything but the number of
        shoes, so that a run resumed with more shoes keeps the ranges it has."""
        from ..studies.ranges import digest

        study = self.chosen
        decisions = study.decisions
        return {"shoe": list(study.full_counts()), "rules": decisions.rules.name,
                "decisions": digest([sorted(decisions.rules.naturals), decisions.scale, list(decisions.player), list(decisions.banker)]),
                "bets": [[bet.name, digest([[row.condition.text, str(row.pays.net), row.event] for row in bet.rows])] for bet in study.bets],
                "cut_card": study.cut_card, "after_cut": study.after_cut, "burn": study.burn, "seed": study.seed,
                "range": RANGE_SHOES, "format": FORMAT, "version": __version__}


def weigh_shoes(study: ShoeStudy, first: int, last: int) -> dict[str, Any]:
    """One task: shoes first .. last - 1 dealt and weighed, as JSON-ready data."""
    from ..studies.shoe import simulated_range

    return simulated_range(study, first, last).to_record()


def run(request: ShoeRequest, progress: Callable[[Any], None] | None = None) -> ShoeOdds:
    """The figures of the chosen study (``progress`` hears a :class:`~exact_odds.studies.ranges.Progress`
    after each step of the exact count or each range of shoes). A simulation interrupted (Ctrl-C)
    gives the figures of the ranges finished in order from the first, marked interrupted (with a
    results folder, those are kept to resume from)."""
    from ..studies.shoe import exact_shoe

    study = request.chosen
    if study.method == "exact":
        return exact_shoe(study, _steps(study, progress) if progress else None)
    return _simulated(request, progress)


def _steps(study: ShoeStudy, progress: Callable[[Any], None]) -> Callable[[int], None]:
    """The exact count's steps told as progress."""
    from ..studies.ranges import Progress
    from ..studies.shoe_exact import steps

    total = steps(study.counts, study.cut_card, study.after_cut, study.burn, study.bets, study.decisions)
    started, done = time.monotonic(), 0

    def step(count: int) -> None:
        nonlocal done
        done += count
        progress(Progress(done, total, time.monotonic() - started, "exact", done))

    return step


def _simulated(request: ShoeRequest, progress: Callable[[Any], None] | None) -> ShoeOdds:
    from ..studies.parallel import cores
    from ..studies.ranges import ResultsFolder, Task, executor_for, run_tasks
    from ..studies.shoe import simulated_odds
    from ..studies.shoe_simulated import ShoePartial

    study, ranges = request.chosen, request.ranges()
    tasks = [Task(f"shoes-{first}-{last}", (study, first, last), last - first, (first, last)) for first, last in ranges]
    folder = ResultsFolder(request.resume, "shoe", request.parameters()) if request.resume is not None else None
    workers = request.workers if request.workers is not None else max(1, min(cores(), len(ranges)))
    total = ShoePartial()

    def merge(task: Task, record: dict[str, Any]) -> None:
        nonlocal total
        total = total + ShoePartial.from_record(record)

    interrupted = False
    try:
        with executor_for(1 if request.scheduler else workers, request.scheduler) as pool:
            run_tasks(weigh_shoes, tasks, merge, pool=pool, folder=folder, progress=progress, label="simulated")
    except KeyboardInterrupt:
        if not total.shoes:
            raise
        interrupted = True
    return simulated_odds(study, total, interrupted)


def _shown(figure: Any, percent: bool) -> str:
    """A figure as the table shows it, in percent or in units: exact to 4 places (percent) or 6
    significant digits (units); simulated, to the place of its standard error's second significant digit.

    >>> from exact_odds.studies.shoe import Figure
    >>> _shown(Figure(None, -0.0105818, 0.00000071), True), _shown(Figure(None, 2.204, 0.0593), False), _shown(Figure.of(Fraction(5, 3)), False)
    ('-1.058180% ± 0.000071%', '2.204 ± 0.059', '1.66667')
    """
    scale, unit = (100, "%") if percent else (1, "")
    value, error = scale * figure.value, None if figure.standard_error is None else scale * figure.standard_error
    if error is None:
        return f"{value:.4f}{unit}" if percent else f"{value:.6g}"
    places = max(4 if percent else 2, 1 - math.floor(math.log10(error))) if error > 0 else (4 if percent else 2)
    return f"{value:.{places}f}{unit} ± {error:.{places}f}{unit}"


def _heading(odds: ShoeOdds, reason: str) -> str:
    study = odds.study
    policy = str(study.decisions.policy)
    how = (f"exact: {odds.states:,} multisets of cards seen weighed" if odds.method == "exact" else
           f"simulated: {odds.shoes:,} shoes (seed {study.seed}), each coup's exact expectation on the cards seen summed; ± one standard error")
    return (f"A shoe dealt to the cut card: {study.shoe.description} ({study.shoe.size} cards), {study.decisions.rules.name}"
            + (f" ({policy})" if policy else "") + f"; cut card behind card {study.cut_card}, {study.after_cut} coup"
            + ("" if study.after_cut == 1 else "s") + f" after its coup, burn {'on' if study.burn else 'off'}.\n"
            f"Method {how}." + (f"\n{reason[0].upper()}{reason[1:]}." if reason else "")
            + (" Interrupted: the shoes of the ranges finished in order." if odds.interrupted else ""))


def document(odds: ShoeOdds, reason: str = "") -> Document:
    """The figures as a table per bet (percent per coup; perfect play in units per shoe), the best
    bet's perfect play and the expected coups; the record (``exact_odds.shoe``) for JSON and CSV."""
    headers = ["bet", "off the top", "hold per coup", "cut-card effect", "perfect play (units per shoe)"]
    rows: list[list[object]] = [[entry.bet.name, _shown(entry.off_the_top, True), _shown(entry.hold_per_coup, True),
                                 _shown(entry.cut_card_effect, True), _shown(entry.perfect_play, False)] for entry in odds.bets]
    rows.append(["best", "", "", "", _shown(odds.best_perfect_play, False)])
    blocks: list[Block] = [Paragraph(_heading(odds, reason)), Paragraph(f"Expected coups: {_shown(odds.expected_coups, False)}"),
                           table(headers, rows, ["left", "right", "right", "right", "right"], stub=1),
                           Paragraph("hold per coup: E[the bet's results over the shoe] / E[coups]; cut-card effect: hold per coup less "
                                     "off the top; perfect play: E[sum over the coups of max(0, the bet's EV given every card seen)]; "
                                     "best: the best of the bets at each coup, if positive.")]
    record = {**odds.to_dict(), "method_reason": reason or None}
    return Document(tuple(blocks), Data(record, _flat(odds)))


def _flat(odds: ShoeOdds) -> Table:
    """The CSV: a row per figure (bet, figure, exact fraction or empty, decimal, standard error or empty)."""
    rows: list[list[object]] = []
    for name, figures in [("", [("expected_coups", odds.expected_coups)])] + [
            (entry.bet.name, [("off_the_top", entry.off_the_top), ("hold_per_coup", entry.hold_per_coup), ("cut_card_effect", entry.cut_card_effect),
                              ("perfect_play", entry.perfect_play)]) for entry in odds.bets] + [("best", [("perfect_play", odds.best_perfect_play)])]:
        for figure_name, figure in figures:
            rows.append([name, figure_name, "" if figure.exact is None else figure.exact, repr(figure.value),
                         "" if figure.standard_error is None else repr(figure.standard_error)])
    return table(["bet", "figure", "exact", "decimal", "standard_error"], rows)
