"""Edge distributions at every depth of the shoe, counted exactly (issue 31).

With n cards left unseen, the cards are a uniformly random n-subset of the shoe, so each
composition of them (how many of each point value, or each rank) has an exact weight, the number
of n-subsets that hold it (:mod:`exact_odds.engine.compositions`). Every bet's expectation on the
next coup is exact for each composition, and so is its distribution over them: the chance that
the bet is positive, E[max(0, EV)], the quantiles of EV (the EV of the composition at which the
weight below reaches each level), and the same two figures for the best of the bets at each
composition. The weights must add up to C(N, n), and each bet's mean over the compositions must be
its expectation off the top: both are checked at every n.

The compositions are weighed range by range (:mod:`exact_odds.studies.ranges`: local workers or a
dask cluster, a results folder that resumes) by the walker (:mod:`exact_odds.engine.walk`). The
quantiles take more than one pass: the first sums the weight in each bucket of a grid of
thresholds (chosen from a sample of compositions), and each further pass either refines the bucket
a level falls in or collects its compositions, until each quantile is one composition's EV:
:mod:`exact_odds.studies.levels`.

>>> study = run_depth(DepthSettings(shoe=Shoe.parse("A=2,2=1,3=1,5=1,8=1,9=1,T=2"), cards_left=(6,), bets=("banker",)))
>>> at = study.depths[0]
>>> at.compositions, at.bets["banker"].p_positive, at.bets["banker"].mean == study.off_the_top["banker"]
(47, Fraction(2, 7), True)
"""

import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np

from .. import __version__
from ..bets.bets import Bet, as_bets
from ..core.features import COUNTED, Array, counted_truth
from ..core.numbers import shown
from ..core.policy import Decisions, decisions_of
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import CARD_VALUES, CARDS_PER_COUP, Shoe
from ..engine.compositions import Compositions
from ..engine.distribution import falling
from ..engine.polynomial import evaluate, multi_indices, newton
from ..engine.walk import RangeSums, Walk, walk
from ..errors import InputError
from ..records import versioned
from .levels import PILOT, PILOT_SEED, Level, locate, open_work, pilot_grids, reaches, refine
from .ranges import Progress, ResultsFolder, Task, digest, executor_for, run_tasks

QUANTILES = (Fraction(1, 100), Fraction(5, 100), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(95, 100), Fraction(99, 100))
RANGE = 1 << 25
"""Compositions per range (a task of the first pass): a few seconds of the compiled walker."""
LATER_RANGES = 8
"""Ranges a task of a later pass weighs."""
MOST_RANGES = 1 << 16
"""Ranges per number of cards left at most (larger ranges beyond): what a run keeps per range stays small."""
MOST_COMPOSITIONS = 1 << 62
"""Compositions per number of cards left at most: a range's ranks are 64-bit integers on the walker."""
CHECKED_POINTS = 16
"""Compositions (random, tens split among their ranks at random) at which each n's polynomials are
checked against the batch path."""
VALUE_RANK = (9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
"""A rank of each point value, to weigh a composition by value on the batch path: tens on T."""
FORMAT = 1
"""The layout of a results folder's files (a folder of another layout is another run's)."""


def _value_classes(bet: Bet) -> str | None:
    """How finely the compositions must tell cards apart for ``bet``: ``value``, ``rank``, or
    None where neither will do (suits, colours, or a count of cards that splits a rank)."""
    if bet.needs_suits:
        return None
    faces = {level.face for key, level in bet.card_slots.items() if not key.startswith(COUNTED)}
    needs = "rank" if 1 in faces else "value"
    for key in (key for key in bet.card_slots if key.startswith(COUNTED)):
        truth = counted_truth(key)
        if all(len(set(truth[np.asarray(CARD_VALUES) == value].tolist())) == 1 for value in range(10)):
            continue
        if all(len(set(truth[rank * 4 : rank * 4 + 4].tolist())) == 1 for rank in range(13)):
            needs = "rank"
            continue
        return None
    return needs


@dataclass(frozen=True, kw_only=True)
class DepthSettings:
    """What a depth study counts, checked once (each refusal names its parameter): the shoe, the
    numbers of cards left (each from 6, a coup, to the shoe's size), the bets (names or bets; those
    on values and ranks: a bet on suits or colours cannot be counted by compositions of values or
    ranks), the rules and the quantile levels."""

    shoe: Shoe
    cards_left: tuple[int, ...]
    bets: tuple[Bet | str, ...] = ("banker", "player", "tie")
    decisions: Decisions = field(default_factory=lambda: decisions_of(PUNTO_BANCO))
    """The rules with every choice fixed (rules with none to make may be given as they are)."""
    quantiles: tuple[Fraction, ...] = QUANTILES

    def __post_init__(self) -> None:
        if not isinstance(self.shoe, Shoe) or self.shoe.with_replacement:
            raise InputError("shoe: depth counts the cards left in a real shoe, not the infinite deck", parameter="shoe")
        if isinstance(self.decisions, DrawRules):  # rules whose every choice the rules make
            object.__setattr__(self, "decisions", decisions_of(self.decisions))
        if not isinstance(self.decisions, Decisions):
            raise InputError(f"decisions must be the rules with their choices fixed, not {shown(self.decisions)}", parameter="decisions")
        object.__setattr__(self, "cards_left", _cards_left(self.cards_left, self.shoe))
        try:
            bets = tuple(as_bets(list(self.bets) if not isinstance(self.bets, (str, Bet)) else self.bets, self.decisions.rules, True))
        except InputError as error:
            raise InputError(str(error) if error.parameter else f"bets: {error}", parameter="bets") from None
        if not bets:
            raise InputError("bets: name at least one bet", parameter="bets")
        classes = {bet.name: _value_classes(bet) for bet in bets}
        refused = next((name for name, need in classes.items() if need is None), None)
        if refused:
            raise InputError(f"bets: {refused} reads suits or colours; depth counts compositions by value or rank, so bets on suits "
                             "cannot be counted exactly", parameter="bets")
        object.__setattr__(self, "bets", bets)
        levels = tuple(self.quantiles)
        if not all(isinstance(level, Fraction) and 0 < level < 1 for level in levels) or len(set(levels)) != len(levels):
            raise InputError(f"quantiles must be distinct fractions strictly between 0 and 1, not {shown(list(map(str, levels)))}", parameter="quantiles")
        object.__setattr__(self, "quantiles", tuple(sorted(levels)))
        for cards in self.cards_left:
            count = walk_order(self, cards).count
            if count >= MOST_COMPOSITIONS:
                raise InputError(f"cards_left {cards}: {float(count):.3g} compositions by {self.classes}, beyond the 2^62 a run can weigh",
                                 parameter="cards_left")

    @property
    def chosen(self) -> tuple[Bet, ...]:
        return tuple(bet for bet in self.bets if isinstance(bet, Bet))

    @property
    def classes(self) -> str:
        """``value`` when every bet reads point values only, else ``rank``."""
        return "rank" if any(_value_classes(bet) == "rank" for bet in self.chosen) else "value"

    def parameters(self) -> dict[str, Any]:
        """What defines a run, for its results folder."""
        decisions = self.decisions
        return {"shoe": list(self.shoe.rank_counts), "rules": decisions.rules.name,
                "decisions": digest([sorted(decisions.rules.naturals), decisions.scale, list(decisions.player), list(decisions.banker)]),
                "bets": [[bet.name, digest([[row.condition.text, str(row.pays.net), row.event] for row in bet.rows])] for bet in self.chosen],
                "cards_left": list(self.cards_left),
                "quantiles": [str(level) for level in self.quantiles], "pilot": PILOT, "range": RANGE, "ranges": MOST_RANGES,
                "later": LATER_RANGES, "format": FORMAT,
                "version": __version__}


def _cards_left(cards: Any, shoe: Shoe) -> tuple[int, ...]:
    """Numbers of cards left, each a whole number from a coup's 6 to the shoe's size: sorted, once each."""
    values = (cards,) if isinstance(cards, int) else tuple(cards) if isinstance(cards, (tuple, list, range)) else None
    if not values:
        raise InputError(f"cards_left must be one or more numbers of cards, not {shown(cards)}", parameter="cards_left")
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(f"cards_left must be whole numbers, not {shown(value)}", parameter="cards_left")
        if value < CARDS_PER_COUP:
            raise InputError(f"cards_left {value}: a coup needs at least {CARDS_PER_COUP} cards", parameter="cards_left")
        if value > shoe.size:
            raise InputError(f"cards_left {value} is past the shoe: {shoe.description} holds {shoe.size} cards", parameter="cards_left")
    return tuple(sorted(set(values)))


def parse_cards_left(text: str) -> tuple[int, ...]:
    """``6-26`` (a range), ``18,26,34`` (a list) or both, ``18-50/8`` (every 8th): the numbers of cards left.

    >>> parse_cards_left("6-9"), parse_cards_left("18,26, 34"), parse_cards_left("18-50/8")
    ((6, 7, 8, 9), (18, 26, 34), (18, 26, 34, 42, 50))
    """
    values: list[int] = []
    for part in (part.strip() for part in str(text).split(",")):
        bounds, _, step = part.partition("/")
        first, dash, last = bounds.partition("-")
        numbers = [first.strip(), last.strip() if dash else first.strip(), step.strip() or "1"]
        if not all(re.fullmatch(r"[0-9]{1,6}", number) for number in numbers) or int(numbers[2]) < 1:
            raise InputError(f"cards_left {shown(text)}: expected numbers, ranges or ranges with a step, such as 6-26, 18,26,34 or 18-50/8",
                             parameter="cards_left")
        low, high, every = map(int, numbers)
        if high < low:
            raise InputError(f"cards_left {shown(part)}: a range runs from the smaller number to the larger", parameter="cards_left")
        values.extend(range(low, high + 1, every))
    return tuple(sorted(set(values)))


@dataclass(frozen=True)
class BetAtDepth:
    """One bet's distribution of EV over the compositions of n cards left (exact)."""

    mean: Fraction
    p_positive: Fraction
    expected_positive: Fraction
    lowest: Fraction
    highest: Fraction
    quantiles: tuple[tuple[Fraction, Fraction], ...]
    """(level, EV) for each level: the EV of the composition at which the weight below reaches it."""

    def to_dict(self) -> dict[str, object]:
        return {**_exact("mean", self.mean), **_exact("p_positive", self.p_positive), **_exact("expected_positive", self.expected_positive),
                **_exact("lowest", self.lowest), **_exact("highest", self.highest),
                "quantiles": {level_name(level): _exact("ev", value) for level, value in self.quantiles}}


def _exact(name: str, value: Fraction) -> dict[str, object]:
    return {name: str(value), f"{name}_percent": float(value * 100)}


def level_name(level: Fraction) -> str:
    """A quantile level as a key: a decimal where it is one, else the fraction.

    >>> level_name(Fraction(1, 100)), level_name(Fraction(1, 3))
    ('0.01', '1/3')
    """
    denominator = level.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return str(level)
    digits = 0
    while (level * 10**digits).denominator != 1:
        digits += 1
    return f"{float(level):.{digits}f}"


@dataclass(frozen=True)
class Depth:
    """Every bet's distribution at one number of cards left, and the best of them."""

    cards_left: int
    compositions: int
    total_weight: int
    bets: dict[str, BetAtDepth]
    best_p_positive: Fraction
    best_expected_positive: Fraction

    def to_dict(self) -> dict[str, object]:
        return {"cards_left": self.cards_left, "compositions": self.compositions, "total_weight": self.total_weight,
                "bets": {name: bet.to_dict() for name, bet in self.bets.items()},
                "best": {**_exact("p_positive", self.best_p_positive), **_exact("expected_positive", self.best_expected_positive)}}


@dataclass(frozen=True)
class DepthStudy:
    """A depth study's result: per number of cards left, every bet's exact distribution of EV."""

    settings: DepthSettings
    depths: tuple[Depth, ...]
    off_the_top: dict[str, Fraction]
    ranges_computed: int = 0
    """Ranges weighed by this run (the rest were read from its results folder); not in the record."""
    ranges_read: int = 0

    def to_dict(self) -> dict[str, object]:
        """The record ``baccarat-odds depth --format json`` prints (``exact_odds.depth``)."""
        shoe = self.settings.shoe
        return versioned("depth", {
            "shoe": {"description": shoe.description, "cards": shoe.size},
            "rules": self.settings.decisions.rules.name,
            "policy": str(self.settings.decisions.policy) or None,
            "bets": [bet.name for bet in self.settings.chosen],
            "counted_by": self.settings.classes,
            "off_the_top": {name: _exact("ev", value) for name, value in self.off_the_top.items()},
            "depths": [depth.to_dict() for depth in self.depths],
        })

    def curves(self) -> dict[str, tuple[list[int], list[float], list[float]]]:
        """For a plot: per bet, and ``best``, the cards left, P(EV > 0) and E[max(0, EV)] (floats)."""
        cards = [depth.cards_left for depth in self.depths]
        curves = {name: (cards, [float(depth.bets[name].p_positive) for depth in self.depths],
                         [float(depth.bets[name].expected_positive) for depth in self.depths]) for name in self.depths[0].bets}
        curves["best"] = (cards, [float(depth.best_p_positive) for depth in self.depths], [float(depth.best_expected_positive) for depth in self.depths])
        return curves

    def table(self) -> tuple[list[str], list[list[object]]]:
        """For a table: a row per number of cards left and bet (and the best), exact values as fractions."""
        headers = ["cards left", "bet", "P(EV > 0)", "E[max(0, EV)]", "mean", "median"]
        rows: list[list[object]] = []
        for depth in self.depths:
            for name, bet in depth.bets.items():
                median = dict(bet.quantiles).get(Fraction(1, 2))
                rows.append([depth.cards_left, name, bet.p_positive, bet.expected_positive, bet.mean, median])
            rows.append([depth.cards_left, "best", depth.best_p_positive, depth.best_expected_positive, None, None])
        return headers, rows


def walk_order(settings: DepthSettings, cards: int) -> Compositions:
    """The compositions of ``cards`` cards left by value (or by rank), the most numerous class first."""
    by_rank = settings.classes == "rank"
    counts = list(settings.shoe.rank_counts) if by_rank else list(settings.shoe.value_counts)
    ranks = list(range(13)) if by_rank else list(VALUE_RANK)
    order = sorted((index for index, count in enumerate(counts) if count), key=lambda index: (-counts[index], index))
    return Compositions(tuple(counts[index] for index in order), tuple(ranks[index] for index in order), cards)


def plan(settings: DepthSettings, cards: int) -> Walk:
    """The walk of the compositions of ``cards`` cards left: the classes in walk order, and each
    bet's numerator as a polynomial (from the batch path's numerators at the points of the simplex)."""
    from ..engine.batch import batch_expectations

    shoe = walk_order(settings, cards)
    bets = list(settings.chosen)
    probe = batch_expectations([settings.shoe.rank_counts], bets, settings.decisions)
    degree = max(probe.depths)
    points = multi_indices(shoe.free, degree)
    numerators = batch_expectations([shoe.rank_counts(point) for point in points.tolist()], bets, settings.decisions).numerators
    denominators = [scale * falling(cards, depth) for scale, depth in zip(probe.scales, probe.depths)]
    common = lcm(*denominators)
    return Walk(shoe, tuple(bets), settings.decisions, newton(numerators, shoe.free, degree), degree,
                tuple(common // denominator for denominator in denominators), common)


def check_plan(settings: DepthSettings, walk_plan: Walk) -> None:
    """The polynomials against the batch path at a few random compositions, the tens spread at
    random over T, J, Q and K (a bet that read ranks where values are counted would differ)."""
    from ..engine.batch import batch_expectations

    shoe = walk_plan.compositions
    generator = np.random.Generator(np.random.PCG64([PILOT_SEED, shoe.cards, 1]))
    drawn = generator.multivariate_hypergeometric(list(shoe.counts), shoe.cards, size=CHECKED_POINTS)
    tens = [settings.shoe.rank_counts[index] for index in range(9, 13)]
    rows = []
    for full in drawn.tolist():
        counts = [0] * 13
        for rank, held in zip(shoe.ranks, full):
            if settings.classes == "value" and rank == VALUE_RANK[0]:
                for offset, part in enumerate(generator.multivariate_hypergeometric(tens, held).tolist()):
                    counts[9 + offset] += part
            else:
                counts[rank] += held
        rows.append(counts)
    exact = batch_expectations(rows, list(walk_plan.bets), settings.decisions).numerators.tolist()
    if evaluate(walk_plan.coefficients, drawn[:, :-1]) != [[int(value) for value in row] for row in exact]:
        raise RuntimeError(f"depth: the polynomials of {shoe.cards} cards left disagree with the batch path")


def pilot(settings: DepthSettings, walk_plan: Walk) -> tuple[Array, ...]:
    """The first pass's grids: thresholds at the numerators of :data:`PILOT` compositions drawn by weight near each level."""
    from ..engine.batch import batch_expectations

    shoe = walk_plan.compositions
    generator = np.random.Generator(np.random.PCG64([PILOT_SEED, shoe.cards]))
    drawn = generator.multivariate_hypergeometric(list(shoe.counts), shoe.cards, size=PILOT)
    values = batch_expectations([shoe.rank_counts(row[:-1]) for row in drawn.tolist()], list(walk_plan.bets), settings.decisions).numerators
    return pilot_grids(np.asarray(values), settings.quantiles)


def weigh_range(walk_plan: Walk, start: int, stop: int) -> dict[str, Any]:
    """One task: the sums over the compositions of ranks start .. stop - 1, as JSON-ready data."""
    return walk(walk_plan, start, stop).to_record()


@dataclass
class _Cards:
    """What a run knows of one number of cards left as its passes go: the walk, its ranges, their
    numerators' extremes per bet (from the first pass), the first pass's sums and the levels."""

    plan: Walk
    ranges: list[tuple[int, int]]
    extremes: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)
    total: RangeSums | None = None
    levels: list[Level] = field(default_factory=list)


def _tasks(passes: int, known: dict[int, "_Cards"], work: dict[int, tuple[tuple[Array, ...], tuple[Array, ...]]]) -> dict[Task, tuple[int, int]]:
    """The ranges a pass weighs, each task with its number of cards left and its first range: in
    the first pass every range, a task each; in a later one :data:`LATER_RANGES` ranges a task,
    where one of them reaches an open level (walking the others adds nothing)."""
    tasks = {}
    for cards, (grids, brackets) in sorted(work.items()):
        state = known[cards]
        walk_plan = state.plan.given(grids, brackets, summing=passes == 1, bounded=passes > 1)
        identity = ([grid.tolist() for grid in grids], [bracket.tolist() for bracket in brackets])
        step = 1 if passes == 1 else LATER_RANGES
        for first in range(0, len(state.ranges), step):
            block = range(first, min(first + step, len(state.ranges)))
            if passes == 1 or any(reaches(state.levels, *state.extremes[index]) for index in block):
                start, stop = state.ranges[block[0]][0], state.ranges[block[-1]][1]
                tasks[Task(f"p{passes}-n{cards}-r{first}", (walk_plan, start, stop), stop - start, (cards, start, stop, identity))] = (cards, first)
    return tasks


def run_depth(settings: DepthSettings, *, workers: int = 1, scheduler: str | None = None, resume: str | os.PathLike[str] | None = None,
              progress: Callable[[Progress], None] | None = None) -> DepthStudy:
    """Count every bet's distribution of EV at each number of cards left (see the module docstring),
    in this process, on ``workers`` local processes or on the dask scheduler at ``scheduler``,
    keeping each finished range in the folder ``resume`` (made if missing; a folder of this run is
    resumed, one of another run refused). ``progress`` hears after every range."""
    from .parallel import check_workers

    check_workers(workers)
    folder = ResultsFolder(resume, "depth", settings.parameters()) if resume is not None else None
    with executor_for(workers, scheduler) as pool:
        return _run(settings, pool, folder, progress)


def _run(settings: DepthSettings, pool: Any, folder: ResultsFolder | None, progress: Callable[[Progress], None] | None) -> DepthStudy:
    from ..engine.batch import batch_expectations

    top = batch_expectations([settings.shoe.rank_counts], list(settings.chosen), settings.decisions)
    off_the_top = {bet.name: top.expected_value(0, bet.name) for bet in settings.chosen}
    known: dict[int, _Cards] = {}
    work: dict[int, tuple[tuple[Array, ...], tuple[Array, ...]]] = {}
    for cards in settings.cards_left:
        walk_plan = plan(settings, cards)
        check_plan(settings, walk_plan)
        count = walk_plan.compositions.count
        size = max(RANGE, -(-count // MOST_RANGES))
        known[cards] = _Cards(walk_plan, [(start, min(start + size, count)) for start in range(0, count, size)])
        work[cards] = (pilot(settings, walk_plan), ())
    computed = read = passes = 0
    while work:
        passes += 1
        tasks = _tasks(passes, known, work)
        groups = {cards: [task for task, (owner, _) in tasks.items() if owner == cards] for cards in work}
        sums = {cards: RangeSums.empty([len(grid) + 1 for grid in grids]) for cards, (grids, _) in work.items()}
        waiting = Counter(cards for cards, _ in tasks.values())
        following = {}

        def finish(cards: int, restored: bool = False) -> None:
            """Once every range of ``cards`` has come in: (in a folder) their sums kept as one file
            in place of theirs, its levels located, its sums let go."""
            total = sums.pop(cards)
            if folder and not restored:
                folder.save(_group(passes, cards), _digest(groups[cards]), _summary(total, known[cards], passes))
                folder.discard(task.key for task in groups[cards])
            step = _advance(settings, known[cards], passes, work[cards][0], total, off_the_top)
            if step is not None:
                following[cards] = step

        def merge(task: Task, record: dict[str, Any]) -> None:
            cards, index = tasks[task]
            sums[cards].add(record)
            if passes == 1:
                known[cards].extremes[index] = (record["lowest"], record["highest"])
            waiting[cards] -= 1
            if not waiting[cards]:
                finish(cards)

        for cards in list(work):
            summary = folder.saved(_group(passes, cards), _digest(groups[cards])) if folder else None
            if folder and summary is not None:  # summed before a kill: its ranges are not weighed again
                sums[cards].add(summary["sums"])
                known[cards].extremes.update({index: (lowest, highest) for index, lowest, highest in summary["extremes"]})
                read += len(groups[cards])
                folder.discard(task.key for task in groups[cards])  # left by a kill between the summary and their removal
                for task in groups[cards]:
                    del tasks[task]
                finish(cards, restored=True)
            elif not waiting[cards]:
                finish(cards)
        ran = run_tasks(weigh_range, list(tasks), merge, pool=pool, folder=folder, progress=progress, label=f"pass {passes}", ordered=False)
        computed, read = computed + ran.computed, read + ran.read
        work = following
    return DepthStudy(settings, tuple(_depth(known[cards]) for cards in settings.cards_left), off_the_top, computed, read)


def _group(passes: int, cards: int) -> str:
    return f"p{passes}-n{cards}"


def _digest(group: list[Task]) -> str:
    """What tells a pass's ranges of one number of cards left apart: their identities."""
    return digest([task.identity for task in group])


def _summary(total: RangeSums, state: "_Cards", passes: int) -> dict[str, Any]:
    """A pass's sums over one number of cards left, as one record (and, from the first pass, each range's extremes)."""
    return {"sums": total.to_record(), "extremes": [[index, *state.extremes[index]] for index in sorted(state.extremes)] if passes == 1 else []}


def _advance(settings: DepthSettings, state: _Cards, passes: int, grids: tuple[Array, ...], total: RangeSums,
             off_the_top: dict[str, Fraction]) -> tuple[tuple[Array, ...], tuple[Array, ...]] | None:
    """After a pass over one number of cards left: (the first) its sums checked and its levels
    located in the grids' buckets, (later) its open levels refined or settled; the next pass's work."""
    if passes == 1:
        state.total = total
        _check(state, off_the_top)
        state.levels = [Level(bet, level) for bet in range(len(state.plan.bets)) for level in settings.quantiles]
        for bet, grid in enumerate(grids):
            locate([level for level in state.levels if level.bet == bet], grid, total.bucket_weights[bet], total.bucket_counts[bet],
                   0, total.weight, total.lowest[bet] - 1, total.highest[bet])
        total.bucket_weights, total.bucket_counts, total.collected = [], [], []
    else:
        refine(state.levels, grids, total.bucket_weights, total.bucket_counts, total.collected, state.plan.compositions.total_weight)
    return open_work(state.levels, len(state.plan.bets))


def _check(state: _Cards, off_the_top: dict[str, Fraction]) -> None:
    """The sums over every composition: the weights add up to C(N, n), every bet's mean is its EV off the top."""
    shoe, total, walk_plan = state.plan.compositions, state.total, state.plan
    assert total is not None
    if total.compositions != shoe.count or total.weight != shoe.total_weight:
        raise RuntimeError(f"depth: {shoe.cards} cards left: {total.compositions} compositions of weight {total.weight}, "
                           f"not {shoe.count} of weight C(N, n) = {shoe.total_weight}")
    for bet, value_sum, multiplier in zip(walk_plan.bets, total.value_sum, walk_plan.multipliers):
        mean = Fraction(value_sum * multiplier, total.weight * walk_plan.denominator)
        if mean != off_the_top[bet.name]:
            raise RuntimeError(f"depth: {shoe.cards} cards left: {bet.name}'s mean over the compositions is {mean}, not its EV off the top {off_the_top[bet.name]}")


def _depth(state: _Cards) -> Depth:
    """The figures of one number of cards left, from its sums and levels."""
    total, walk_plan = state.total, state.plan
    assert total is not None
    weight, common = total.weight, walk_plan.denominator
    bets = {}
    for index, bet in enumerate(walk_plan.bets):
        multiplier = walk_plan.multipliers[index]
        quantiles = sorted((level.level, level.value) for level in state.levels if level.bet == index)
        bets[bet.name] = BetAtDepth(
            mean=Fraction(total.value_sum[index] * multiplier, common * weight), p_positive=Fraction(total.positive[index], weight),
            expected_positive=Fraction(total.positive_sum[index] * multiplier, common * weight),
            lowest=Fraction(total.lowest[index] * multiplier, common), highest=Fraction(total.highest[index] * multiplier, common),
            quantiles=tuple((level, Fraction(value * multiplier, common)) for level, value in quantiles if value is not None))
    best = sum(value * multiplier for value, multiplier in zip(total.best_sum, walk_plan.multipliers))
    return Depth(walk_plan.compositions.cards, walk_plan.compositions.count, weight, bets, Fraction(total.best_positive, weight),
                 Fraction(best, common * weight))
