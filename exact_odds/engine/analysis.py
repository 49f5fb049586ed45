"""Expectations, house edges and return tables of bets, exactly.

>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.bets.bets import catalog
>>> from exact_odds.core.policy import resolve
>>> result = analyze_checked(Shoe.decks(8), [catalog()["player_pair"]], resolve("punto_banco"))
>>> result.bets[0].expected_value
Fraction(-43, 415)
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial, gcd, isqrt, lcm
from functools import cached_property, lru_cache
from typing import Any, Protocol

import numpy as np

from ..bets.bets import Bet, Payout, one_hot_lines, settlement
from ..bets.conditions import Comparison, Condition, Feature, Literals, Not, parse_condition
from ..errors import InputError, UnknownName
from .distribution import FLOAT_EXACT, Distribution
from .enumerator import enumerate_cards, enumerate_coups
from ..core.features import CARD_FEATURES, OUTCOMES, FIRST_CARDS, NOT_DEALT, Array, Columns, Levels, feature_column, merge_levels
from .tables import Tracked, tracked_key
from ..core.policy import Decisions
from ..core.numbers import fixed, percent, shown, square_root
from ..core.shoe import Shoe
from ..records import versioned


def float_root(value: Fraction) -> float:
    """The square root of a non-negative fraction as a float (for display: a standard deviation)."""
    return float(square_root(value, 20))


@dataclass(frozen=True)
class ReturnRow:
    """One line of a return table: the event, what it pays, and how many of ``total`` sequences."""

    event: str
    pays: Payout
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total)

    @property
    def expected_return(self) -> Fraction:
        return self.pays.net * self.probability


@dataclass(frozen=True)
class BetAnalysis:
    """A bet's return table on one shoe, with its exact moments."""

    bet: Bet
    rows: tuple[ReturnRow, ...]
    total: int
    cards: int
    expected_value: Fraction
    """Expected net win per unit staked."""
    scale: int = 1
    """Each sequence counts ``scale`` times in ``total`` and the combinations (a mixed policy)."""
    unordered: str = ""
    """How the combinations are counted when not as ordered draws: ``hands`` or ``cards`` (see :data:`UNORDERED`)."""

    def _second_moment(self) -> Fraction:
        scale = lcm(*(row.pays.net.denominator for row in self.rows))
        return Fraction(sum((row.pays.net.numerator * (scale // row.pays.net.denominator)) ** 2 * row.combinations for row in self.rows),
                        scale**2 * self.total)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per unit staked (per bet made)."""
        return -self.expected_value

    @property
    def push_probability(self) -> Fraction:
        return Fraction(sum(row.combinations for row in self.rows if row.pays.net == 0), self.total)

    @property
    def house_edge_excluding_pushes(self) -> Fraction | None:
        """House edge per bet resolved (ties excluded for banker and player); None if it never resolves."""
        resolved = 1 - self.push_probability
        return self.house_edge / resolved if resolved else None

    @cached_property
    def variance(self) -> Fraction:
        return self._second_moment() - self.expected_value**2

    def __repr__(self) -> str:
        return f"<BetAnalysis {self.bet.name}: house edge {percent(self.house_edge)} ({self.house_edge})>"

    def _repr_html_(self) -> str:
        """The bet's record as an HTML table (for notebooks)."""
        from ..records import record_html

        return record_html({"bet": self.bet.name, **self.to_dict()})

    def to_dict(self) -> dict[str, object]:
        """The bet's record in the JSON that ``baccarat-odds --format json`` prints: exact values as
        fraction strings, decimals as numbers (docs/json-format.md). Written from the integer counts
        (each fraction's text by one gcd; a bet's pays' texts once per bet: see :func:`_line_texts`),
        as the Fractions of the properties above would print.

        >>> from exact_odds.bets.bets import catalog
        >>> from exact_odds.core.policy import resolve
        >>> record = analyze_checked(Shoe.decks(8), [catalog()["tie"]], resolve("punto_banco"))["tie"].to_dict()
        >>> record["house_edge"], record["house_edge_percent"]
        ('103841353768/723147898655', 14.359628778723827)
        """
        numerator, denominator = self.expected_value.numerator, self.expected_value.denominator
        total, rows = self.total, self.rows
        lines = _line_texts(self.bet)
        returns, nets, pushes, scale = [], [], 0, 1
        for index, row in enumerate(rows):
            line = lines[index] if index < len(lines) and lines[index][0] is row.pays and lines[index][1] == row.event else _line_text(row.event, row.pays)
            _, event, pays, net, net_numerator, net_denominator = line
            count = row.combinations
            if not net_numerator:
                pushes += count
            scale = lcm(scale, net_denominator)
            nets.append((net_numerator, net_denominator, count))
            returns.append({"event": event, "pays": pays, "net": net, "combinations": count, "probability": _ratio(count, total),
                            "return": _ratio(net_numerator * count, net_denominator * total)})
        moment = sum((net_numerator * (scale // net_denominator)) ** 2 * count for net_numerator, net_denominator, count in nets)
        # the variance, the second moment less the square of the expectation: (moment / scale^2 total) - (numerator / denominator)^2
        variance = (moment * denominator**2 - numerator**2 * scale**2 * total, scale**2 * total * denominator**2)
        resolved = total - pushes
        return {
            "description": self.bet.description,
            "expected_value": _ratio(numerator, denominator),
            "house_edge": _ratio(-numerator, denominator),
            "house_edge_percent": -numerator * 100 / denominator,
            "house_edge_excluding_pushes": _ratio(-numerator * total, denominator * resolved) if resolved else None,
            "variance": _ratio(*variance),
            "standard_deviation": _float_root(*variance),
            "settles_on_cards": self.cards,
            "total_combinations": total,
            "returns": returns,
        }


LineText = tuple[Payout, str, str, str, int, int]
"""A pay-table line as a bet's record writes it: its pay, event, pay's text, net pay's text, and the net pay's numerator and denominator."""


def _line_text(event: str, pays: Payout) -> LineText:
    return pays, event, pays.text, str(pays.net), pays.net.numerator, pays.net.denominator


@lru_cache(maxsize=1024)
def _line_texts(bet: Bet) -> tuple[LineText, ...]:
    """Each line of ``bet``'s pay table as its record writes it (once per bet: the same for every shoe)."""
    return tuple(_line_text(event, pays) for event, pays in zip(bet.events, bet.payouts))


def _ratio(numerator: int, denominator: int) -> str:
    """The text of ``Fraction(numerator, denominator)`` (``denominator`` > 0), without making it.

    >>> _ratio(6, 4), _ratio(-6, 3), _ratio(0, 7), str(Fraction(6, 4))
    ('3/2', '-2', '0', '3/2')
    """
    divisor = gcd(numerator, denominator)
    if divisor != 1:
        numerator, denominator = numerator // divisor, denominator // divisor
    return f"{numerator}/{denominator}" if denominator != 1 else str(numerator)


def _float_root(numerator: int, denominator: int) -> float:
    """:func:`float_root` of ``numerator / denominator`` (not negative; ``denominator`` > 0) from
    the integers: the root to 20 decimals, rounded half up, as a float (one correctly rounded
    division, as reading its decimals is)."""
    scaled = numerator * 10**40
    root = isqrt(scaled // denominator)
    if (2 * root + 1) ** 2 * denominator <= 4 * scaled:
        root += 1
    return root / 10**20


@dataclass(frozen=True)
class Analysis:
    """The outcome table of a shoe and the analysis of each chosen bet."""

    shoe: Shoe
    decisions: Decisions
    outcomes: dict[str, int]
    total: int
    bets: tuple[BetAnalysis, ...]
    given: "Given | None" = None
    """The condition the analysis is conditional on (None: the whole shoe)."""
    notes: tuple[str, ...] = ()
    """What was said of the bets chosen (the bets on suits that ``all`` leaves out on a shoe by rank)."""

    @property
    def scale(self) -> int:
        """Each sequence counts ``scale`` times (a mixed policy's weights, see :mod:`exact_odds.core.policy`)."""
        return self.decisions.scale**2

    def probability(self, outcome: str) -> Fraction:
        """The probability that ``outcome`` (banker, player or tie) wins a coup."""
        if not isinstance(outcome, str) or outcome not in OUTCOMES:
            raise InputError(f"outcome must be one of {', '.join(OUTCOMES)}, not {shown(outcome)}", parameter="outcome")
        return Fraction(self.outcomes[outcome], self.total)

    def __getitem__(self, name: str) -> BetAnalysis:
        """The analysis of the bet named ``name``.

        >>> from exact_odds.bets.bets import catalog
        >>> from exact_odds.core.policy import resolve
        >>> analyze_checked(Shoe.decks(8), [catalog()["banker"], catalog()["dragon_7"]], resolve("punto_banco"))["dragon_7"].house_edge
        Fraction(64613588827, 848912750595)
        """
        for result in self.bets:
            if result.bet.name == name:
                return result
        raise UnknownName(f"no bet {shown(name)} in this analysis (it has {', '.join(result.bet.name for result in self.bets)})", parameter="name")

    def __contains__(self, name: object) -> bool:
        """Whether a bet named ``name`` was analysed (``"banker" in analysis``)."""
        return any(result.bet.name == name for result in self.bets)

    def __iter__(self) -> Iterator[str]:
        """The names of the bets analysed, in order (so ``list(analysis)``, as of a mapping)."""
        return (result.bet.name for result in self.bets)

    def __repr__(self) -> str:
        odds = ", ".join(f"{name} {fixed(self.probability(name), 4)}" for name in OUTCOMES)
        return f"<Analysis of {self.shoe}: {odds}; bets {', '.join(result.bet.name for result in self.bets)}>"

    def to_frame(self) -> Any:
        """A pandas DataFrame of the bets, one row per bet (indexed by name): the exact columns as
        ``Fraction`` (``expected_value``, ``house_edge``, ``house_edge_excluding_pushes``,
        ``variance``), and ``house_edge_percent`` and ``standard_deviation`` as floats for plotting.
        Needs pandas (``pip install 'exact_odds[frame]'``)."""
        try:
            import pandas
        except ImportError:
            raise InputError("to_frame needs pandas: pip install 'exact_odds[frame]' (or pandas)") from None
        rows = [{
            "bet": result.bet.name,
            "expected_value": result.expected_value,
            "house_edge": result.house_edge,
            "house_edge_excluding_pushes": result.house_edge_excluding_pushes,
            "variance": result.variance,
            "house_edge_percent": float(result.house_edge * 100),
            "standard_deviation": float_root(result.variance),
        } for result in self.bets]
        columns = ["bet", "expected_value", "house_edge", "house_edge_excluding_pushes", "variance", "house_edge_percent", "standard_deviation"]
        return pandas.DataFrame(rows, columns=columns).set_index("bet")

    def _repr_html_(self) -> str:
        """The analysis as HTML tables (for notebooks): its record without the header, each bet's
        return table left out (shown by the bet's own, ``analysis[name]``)."""
        from ..records import record_html

        record = self.to_dict()
        fields = {key: value for key, value in record.items() if key not in ("format", "version", "notes")}
        bets = {result.bet.name: {key: value for key, value in result.to_dict().items() if key != "returns"} for result in self.bets}
        return record_html({**fields, "bets": bets})

    def to_dict(self, notes: Sequence[str] = ()) -> dict[str, object]:
        """Exactly the JSON object ``baccarat-odds --format json`` prints for this analysis
        (docs/json-format.md): the command builds it here, its :attr:`notes` included, and
        ``notes`` adds those of a choice of bets made before the analysis (the command's own).

        >>> from exact_odds.bets.bets import catalog
        >>> from exact_odds.core.policy import resolve
        >>> record = analyze_checked(Shoe.decks(8), [catalog()["banker"]], resolve("punto_banco")).to_dict(["a note"])
        >>> record["format"], record["version"], record["outcomes"]["tie"]["probability"], record["notes"]
        ('exact_odds.analysis', 2, '619306544887/6508331087895', ['a note'])
        """
        return versioned("analysis", {
            "shoe": {
                "description": self.shoe.description,
                "cards": None if self.shoe.with_replacement else self.shoe.size,
                "with_replacement": self.shoe.with_replacement,
            },
            "rules": self.decisions.rules.name,
            "policy": str(self.decisions.policy) or None,
            "weight": self.scale,
            "given": None if self.given is None else {
                "condition": self.given.text,
                "combinations": self.given.combinations,
                "probability": str(self.given.probability),
            },
            "total_combinations": self.total,
            "outcomes": {name: {"combinations": self.outcomes[name], "probability": str(self.probability(name))} for name in OUTCOMES},
            "bets": {result.bet.name: result.to_dict() for result in self.bets},
            "notes": [*self.notes, *_notes(notes)],
        })


def _notes(notes: object) -> list[str]:
    """Notes as given to :meth:`Analysis.to_dict`: a sequence of sentences (text), else refused."""
    if isinstance(notes, (str, bytes)) or not isinstance(notes, Sequence) or not all(isinstance(note, str) for note in notes):
        raise InputError(f"notes must be a list of sentences (text), not {shown(notes)}", parameter="notes")
    return list(notes)


class Engine(Protocol):
    """Where distributions come from: the plain enumerator, or the compiled evaluator."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels, bets: tuple[Bet, ...] | None = None,
              faces: frozenset[str] | None = None) -> Distribution:
        """The coups of ``shoe`` by row; given ``bets`` (even none), the rows may be merged where
        those bets and the winner agree (every other feature is then only that of one row of each).
        Given ``faces`` (else those the bets read, else all), a tracked slot not in it may be told
        apart by its suit or colour alone (its value and rank are then not columns)."""
        ...

    def cards(self, shoe: Shoe, tracked: Levels, bets: tuple[Bet, ...] = ()) -> Distribution: ...


class PlainEngine:
    """Distributions from the plain recursive enumerator (the oracle every fast path is checked against)."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels, bets: tuple[Bet, ...] | None = None,
              faces: frozenset[str] | None = None) -> Distribution:
        return enumerate_coups(shoe, decisions, tracked)

    def cards(self, shoe: Shoe, tracked: Levels, bets: tuple[Bet, ...] = ()) -> Distribution:
        return enumerate_cards(shoe, tracked)


def default_engine() -> Engine:
    """The compiled evaluator (``--engine fast``)."""
    from .compiled import FastEngine

    return FastEngine()


ENGINES = {"fast": default_engine, "enumerate": PlainEngine}


def line_counts(bets: Sequence[Bet], distribution: Distribution) -> list[list[int]]:
    """The sequences each pay-table line of each bet settles (then the rest, which loses). Where
    the rows are laid out alike for every shoe and the total is below 2^53: one float64 product of
    the counts with the rows' lines one-hot, exact (each partial sum counts sequences)."""
    lengths = [len(bet.payouts) for bet in bets]
    cache, counts = distribution.settlements, distribution.counts
    if len(bets) > 1 and cache is not None and counts.dtype != object and distribution.total < FLOAT_EXACT:
        one_hot = one_hot_lines(bets, distribution.columns, len(counts), cache)
        if one_hot is not None:
            sums = (counts.astype(np.float64) @ one_hot).astype(np.int64).tolist()
            offsets = np.cumsum([0] + lengths).tolist()
            return [sums[start:end] for start, end in zip(offsets, offsets[1:])]
    return [distribution.sums_by(settlement(bet, distribution.columns, cache), length) for bet, length in zip(bets, lengths)]


def return_table(bet: Bet, distribution: Distribution, combinations: list[int] | None = None) -> "BetAnalysis":
    """Settle ``bet`` on every row of ``distribution`` (whose counts by its lines may be given)."""
    combinations = line_counts((bet,), distribution)[0] if combinations is None else combinations
    scale, nets = bet.scaled_pays
    expected_value = Fraction(sum(net * count for net, count in zip(nets, combinations)), scale * distribution.total)
    rows = [ReturnRow(event, pays, count, distribution.total) for event, pays, count in zip(bet.events, bet.payouts, combinations)]
    if not combinations[-1]:  # no coup is left to the loss of no row: the table has no line for it
        rows.pop()
    return BetAnalysis(bet, tuple(rows), distribution.total, distribution.cards, expected_value, distribution.scale)


def analyze_checked(shoe: Shoe, bets: Sequence[Bet], decisions: Decisions, engine: Engine | None = None,
                    given: Condition | None = None, unordered: str = "") -> Analysis:
    """The outcome table of ``shoe`` and the return table of each bet, under ``decisions`` (and,
    with ``given``, conditional on that condition), from objects already checked: the public
    :func:`exact_odds.analyze` checks what it is given as the command's request
    (:class:`~exact_odds.commands.analyze.AnalyzeRequest`) and calls this.

    Bets that read the coup at the same card slots and granularities (none, for most) share one
    enumeration of it; a bet that reads only the first cards (the pair bets) settles on those
    cards alone, counted as ordered draws of those cards (``unordered``: by hands or by sets of
    cards, as sources that count them so do). Given a condition, every bet is settled on the coups
    where it holds (counted as 6-card sequences).

    >>> from exact_odds.bets.bets import catalog
    >>> from exact_odds.core.policy import resolve
    >>> result = analyze_checked(Shoe.decks(8), [catalog()["tie"]], resolve("punto_banco"))
    >>> result.outcomes["tie"], result.total  # ordered 6-card sequences
    (475627426473216, 4998398275503360)
    """
    engine = engine or default_engine()
    if given is not None:
        return _conditional(shoe, list(bets), decisions, engine, given)
    coup_members: dict[Tracked, list[Bet]] = {(): []}
    card_members: dict[Tracked, list[Bet]] = {}
    keys = [tracked_key(bet.card_slots) for bet in bets]
    for bet, key in zip(bets, keys):
        (coup_members if bet.needs_coup else card_members).setdefault(key, []).append(bet)
    results: dict[int, BetAnalysis] = {}
    for on_coup, members_by_key in ((True, coup_members), (False, card_members)):
        for key, members in members_by_key.items():  # one distribution at a time, each dropped once its bets are settled
            distribution = engine.coups(shoe, decisions, dict(key), tuple(members)) if on_coup else engine.cards(shoe, dict(key), tuple(members))
            if on_coup and not key:
                outcomes, total = distribution.outcome_counts(), distribution.total
            if unordered and not on_coup:
                results.update((id(bet), unordered_table(bet, distribution, unordered, shoe.with_replacement)) for bet in members)
            else:
                results.update((id(bet), return_table(bet, distribution, lines)) for bet, lines in zip(members, line_counts(members, distribution)))
            del distribution
    return Analysis(shoe, decisions, outcomes, total, tuple(results[id(bet)] for bet in bets))


HANDS = (("player_card1", "player_card2"), ("banker_card1", "banker_card2"))
UNORDERED = ("hands", "cards")
"""How first-card draws may be counted instead of in order: by hands (each hand's two cards in
either order) or by sets of cards (the cards a bet reads in any order)."""
UNORDERED_WITH_REPLACEMENT = ("counting by hands or sets of cards has no meaning when cards are drawn with replacement (the infinite "
                              "deck): two equal cards are one ordered draw, two different cards two; count the draws in order")
"""Why nothing drawn with replacement is counted by hands or sets: an ordered count over the orders
of distinct cards is a whole number only when no card can be drawn twice."""


def check_unordered(unordered: object, with_replacement: bool) -> None:
    """Refuse a way of counting that is not one of :data:`UNORDERED` ("" for ordered draws), or any
    but ordered draws with replacement (:data:`UNORDERED_WITH_REPLACEMENT`)."""
    if not isinstance(unordered, str) or unordered not in ("", *UNORDERED):
        raise InputError(f"unordered must be one of {', '.join(UNORDERED)} (or \"\" for ordered draws), not {shown(unordered)}", parameter="unordered")
    if unordered and with_replacement:
        raise InputError(UNORDERED_WITH_REPLACEMENT, parameter="unordered")


def unordered_divisor(columns: Columns, unordered: str, settle: Callable[[Columns], Array], name: str, with_replacement: bool) -> int:
    """How many orders count as one: 2 per hand whose two cards are read (``hands``), or k! for the
    k cards read (``cards``). What is counted must come out alike in every such order: checked on
    every row, exactly, for each swap that generates them. Without replacement each order of k
    distinct cards is one of k! (of 2 in a hand), so the counts divide exactly; with replacement
    they would not, and are refused."""
    check_unordered(unordered, with_replacement)
    slots = [slot for slot in FIRST_CARDS if slot in columns.levels]
    swaps = [pair for pair in HANDS if pair[0] in columns.levels and pair[1] in columns.levels] if unordered == "hands" else list(zip(slots, slots[1:]))
    if unordered == "cards" and len({columns.levels[slot] for slot in slots}) > 1:
        raise InputError(f"{name} reads its cards at different granularities: they cannot be counted as a set")
    for first, second in swaps:
        swapped = Columns({_swap(column, first, second): values for column, values in columns.items()},
                          {_swap(slot, first, second): level for slot, level in columns.levels.items()})
        if columns.levels[first] != columns.levels[second] or not (settle(swapped) == settle(columns)).all():
            order = "the two orders of a hand's cards" if unordered == "hands" else "its cards in different orders"
            raise InputError(f"{name} settles {order} differently: it cannot be counted by {unordered}")
    return 2 ** len(swaps) if unordered == "hands" else factorial(len(slots))


def unordered_table(bet: Bet, distribution: Distribution, unordered: str, with_replacement: bool) -> "BetAnalysis":
    """The return table of a bet on the first cards counted by hands or by sets (see
    :func:`unordered_divisor`)."""
    divisor = unordered_divisor(distribution.columns, unordered, bet.settle, f"bet {bet.name!r}", with_replacement)
    ordered = return_table(bet, distribution)
    rows = tuple(ReturnRow(row.event, row.pays, row.combinations // divisor, row.total // divisor) for row in ordered.rows)
    return BetAnalysis(bet, rows, ordered.total // divisor, ordered.cards, ordered.expected_value, ordered.scale, unordered)


def _swap(name: str, first: str, second: str) -> str:
    return second + name[len(first) :] if name.startswith(first) else first + name[len(second) :] if name.startswith(second) else name


def checked_engine(engine: object) -> Engine:
    """``engine``, or the compiled evaluator for None; anything but an engine refused."""
    if engine is None:
        return default_engine()
    if not all(callable(getattr(engine, method, None)) for method in ("coups", "cards")):
        raise InputError(f"engine must be an engine (PlainEngine(), or None for the compiled evaluator), not {shown(engine)}", parameter="engine")
    return engine  # type: ignore[return-value]


def _conditional(shoe: Shoe, bets: list[Bet], decisions: Decisions, engine: Engine, given: Condition, coups: Distribution | None = None) -> Analysis:
    """The analysis restricted to the coups where ``given`` holds (of ``coups``, where they are
    given: a distribution that tells apart what ``given`` and the bets read)."""
    if coups is None:
        faces = given.faces.union(*(row.condition.faces for bet in bets for row in bet.rows))
        coups = engine.coups(shoe, decisions, merge_levels(given.slots, *(bet.card_slots for bet in bets)), faces=faces)
    restricted = coups.where(given(coups.columns))
    if restricted.total == 0:
        raise InputError(f"the condition given never holds in {shoe}: {given.text}")
    results = tuple(return_table(bet, restricted) for bet in bets)
    return Analysis(shoe, decisions, restricted.outcome_counts(), restricted.total, results, Given(given.text, restricted.total, coups.total))


@dataclass(frozen=True)
class Given:
    """The condition an analysis is conditional on, and how often it holds."""

    text: str
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total)


def by_feature(shoe: Shoe, bets: list[Bet], decisions: Decisions, feature: str, engine: Engine | None = None) -> list[tuple[int, Analysis]]:
    """One conditional analysis per value the feature takes (value codes as in the condition
    language: winner 0 banker, 1 player, 2 tie; ranks 0 = A ...; -1 for a card not dealt)."""
    engine = engine or default_engine()
    probe = parse_condition(f"{feature} == {feature}")
    faces = probe.faces.union(*(row.condition.faces for bet in bets for row in bet.rows))
    coups = engine.coups(shoe, decisions, merge_levels(probe.slots, *(bet.card_slots for bet in bets)), faces=faces)
    column = np.asarray(coups.columns[feature_column(feature)])
    values = sorted({int(value) for value in column.tolist()})
    return [(value, _conditional(shoe, bets, decisions, engine, _equals(feature, value), coups)) for value in values if coups.count_where(column == value)]


def best_choice(expectations: Sequence[Fraction]) -> int | None:
    """The bet a player who may also not bet chooses: the index of the highest expectation above
    zero (the first on a tie), or None where none is above zero.

    >>> best_choice([Fraction(-1, 9), Fraction(1, 20), Fraction(1, 20)]), best_choice([Fraction(0)])
    (1, None)
    """
    best = max(range(len(expectations)), key=lambda index: (expectations[index], -index), default=None)
    return best if best is not None and expectations[best] > 0 else None


@dataclass(frozen=True)
class BestOf:
    """What knowing a feature is worth to a player who bets the best of the bets or nothing: the
    expectation per coup, and the bet chosen at each value (None: no bet)."""

    expected_value: Fraction
    choices: tuple[tuple[int, str | None], ...]


def best_of(rows: Sequence[tuple[int, Analysis]]) -> BestOf:
    """The expectation per coup of the best of the bets or no bet, chosen knowing the value of the
    feature that :func:`by_feature` split the coups by (each value weighed by its probability).

    >>> from exact_odds.bets.bets import catalog
    >>> from exact_odds.core.policy import resolve
    >>> rows = by_feature(Shoe.decks(8), [catalog()["banker"], catalog()["player"]], resolve("punto_banco"), "shoe_card1_value")
    >>> best = best_of(rows)
    >>> fixed(best.expected_value * 100, 3), best.choices[:2]  # Jacobson, "Baccarat: The Known Card": card 1, 6.765%
    ('6.765', ((0, 'banker'), (1, 'banker')))
    """
    total, choices = Fraction(0), []
    for value, analysis in rows:
        chosen = best_choice([result.expected_value for result in analysis.bets])
        choices.append((value, None if chosen is None else analysis.bets[chosen].bet.name))
        if chosen is not None:
            total += analysis.bets[chosen].expected_value * (analysis.given.probability if analysis.given else 1)
    return BestOf(total, tuple(choices))


def _equals(feature: str, value: int) -> Condition:
    """The condition feature == value, by value code (:data:`~exact_odds.core.features.NOT_DEALT`
    for a card slot: where it holds no card, which a card's feature never equals)."""
    read = Feature(feature)
    tree = Not(Comparison("==", read, read)) if value == NOT_DEALT and feature in CARD_FEATURES else Literals("==", read, (value,))
    return Condition(f"{feature} = {value}", tree)
