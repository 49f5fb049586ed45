"""Game protection: what a piece of information is worth to a player who bets the best of the bets
or nothing, exactly.

The information is about the coup's six-card sequence in shoe order (dealt or not): a *known* card
(one position, told as finely as the bets read cards: by value, rank or card), or a *sort* (the group
of each of the first K cards, seen on their backs: a split of the values, the ranks or the suits).
For each piece of information the player bets the bet of highest expectation above zero (the first
on a tie), or nothing; the figure is what that earns per coup, E[max(0, EV_1 | info, ...)], with
the share of coups in which the information changes the decision taken without it, and the
decision table. ``best_sort`` searches every two-way split of the values and of the ranks, for 1 to
6 sorted cards (:mod:`exact_odds.studies.splits` does it at once).

>>> result = protect(8, "banker, player", known=1)  # Jacobson, "Baccarat: The Known Card": 6.765%
>>> percent(result.gain, 3), [(row.information, result.chosen(row)) for row in result.table[5:8]]
('6.765%', [('5', 'banker'), ('6', 'player'), ('7', 'player')])

A request is checked whole before any work, each refusal one line naming its parameter:

>>> protect(8, known=7)
Traceback (most recent call last):
exact_odds.errors.InputError: known must be a shoe position from 1 to 6 (of the coup's six-card sequence), not 7
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import product
from typing import Any

import numpy as np

from ..bets.bets import Bet, as_bets
from ..core.cards import RANKS, SUITS
from ..core.features import (
    COLORS,
    COUNTED,
    FIRST_CARDS,
    FIRST_POSITIONS,
    POSITIONS,
    Array,
    Granularity,
    card_labels,
    label_map,
    merge_levels,
    representatives,
    shoe_counts,
)
from ..core.numbers import percent, shown  # noqa: F401 (percent: the module doctest)
from ..core.policy import Decisions, Policy, decisions_of
from ..core.rules import PUNTO_BANCO, DrawRules, as_rules
from ..core.shoe import Shoe, as_shoe
from ..engine.analysis import Engine, best_choice, default_engine
from ..engine.distribution import INT64_SAFE, Distribution
from ..engine.enumerator import enumerate_cards
from ..errors import InputError
from ..records import versioned
from .groups import GROUP_NAMES, KINDS, Groups, parse_groups
from .splits import CARDS, Sequences, direct_level, group_sums, known_sums

SEARCHED = ("values", "ranks", "both")
"""What ``best_sort`` may search (``over``): the two-way splits of the values, of the ranks, or both."""


def position_key(position: int) -> str:
    """What a table tracks for shoe position 1-6: the first four are the first four slots."""
    name = POSITIONS[position - 1]
    return FIRST_POSITIONS.get(name, name)


def _whole(value: object, name: str, low: int, high: int, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} must be {what} from {low} to {high} (of the coup's six-card sequence), not {shown(value)}", parameter=name)
    return value


@dataclass(frozen=True, kw_only=True)
class ProtectRequest:
    """What to value, checked whole on construction: the shoe, the rules and policy, the bets (the
    main bets by default; ``all`` the catalog), and one kind of information: ``known`` (a shoe
    position 1-6), ``sorted`` (1-6 cards) with ``groups`` (as :func:`parse_groups` reads them), or
    ``best_sort`` (with ``sorted``: for that many cards only; ``over``: the splits of the values or
    of the ranks alone, both by default)."""

    shoe: Shoe
    decisions: Decisions
    bets: tuple[Bet, ...]
    known: int | None = None
    sorted: int | None = None
    groups: Groups | None = None
    best_sort: bool = False
    over: str | None = None

    @classmethod
    def of(cls, shoe: "Shoe | int | str | Mapping[str, int]" = 8, bets: "str | Bet | Iterable[str | Bet] | None" = None,
           rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None, *, known: int | None = None,
           sorted: int | None = None, groups: str | None = None, best_sort: bool = False, over: str | None = None) -> "ProtectRequest":
        """A request from what people give (a number of decks, bet names, a rule set's name, groups as text)."""
        chosen_shoe = as_shoe(shoe)
        draw_rules = rules if isinstance(rules, Decisions) else as_rules(rules)
        chosen = as_bets(bets, draw_rules.rules if isinstance(draw_rules, Decisions) else draw_rules, chosen_shoe.knows_suits)
        parsed = None if groups is None else parse_groups(groups, chosen_shoe.knows_suits)
        return cls(shoe=chosen_shoe, decisions=decisions_of(draw_rules, policy), bets=tuple(chosen), known=known, sorted=sorted,
                   groups=parsed, best_sort=best_sort, over=over)

    def __post_init__(self) -> None:
        _whole(self.known, "known", 1, CARDS, "a shoe position")
        _whole(self.sorted, "sorted", 1, CARDS, "a number of cards")
        if not isinstance(self.best_sort, bool):
            raise InputError(f"best_sort must be true or false, not {shown(self.best_sort)}", parameter="best_sort")
        if self.over is not None and self.over not in SEARCHED:
            raise InputError(f"over must be {', '.join(SEARCHED)}, not {shown(self.over)}", parameter="over")
        if self.over is not None and not self.best_sort:
            raise InputError("over names the splits best_sort searches: give it with best_sort", parameter="over")
        if self.known is not None and (self.sorted is not None or self.groups is not None or self.best_sort):
            raise InputError("known is one kind of information, sorted (with groups) or best_sort another: give one", parameter="known")
        if self.groups is not None and self.best_sort:
            raise InputError("groups: best_sort searches the groups itself (give sorted alone, or nothing for 1 to 6 cards)", parameter="groups")
        if self.groups is not None and self.sorted is None:
            raise InputError("groups needs sorted: how many of the first cards are seen sorted (1-6)", parameter="groups")
        if self.sorted is not None and self.groups is None and not self.best_sort:
            raise InputError("sorted needs groups (the split the backs show, e.g. 6,7,8,9) or best_sort", parameter="sorted")
        if self.known is None and self.sorted is None and not self.best_sort:
            raise InputError("give the information to value: known (a shoe position 1-6), sorted with groups, or best_sort", parameter="known")
        if self.groups is not None and self.groups.kind == "suits" and not self.shoe.knows_suits:
            raise InputError("groups: the shoe has no suits (give the shoe by card, e.g. 9h=32, to sort by suit)", parameter="groups")
        if not self.bets:
            raise InputError("bets: give at least one bet to choose from", parameter="bets")
        for bet in self.bets:
            if bet.needs_suits and not self.shoe.knows_suits:
                raise InputError(f"bets: {bet.name} reads suits, and the shoe has none (give the shoe by card)", parameter="bets")
            if any(key.startswith(COUNTED) and level.mark for key, level in bet.card_slots.items()):
                raise InputError(f"bets: {bet.name} counts cards by colour or suit over the whole coup, which cannot be tabulated beside a "
                                 "card the player sees (leave it out)", parameter="bets")
            if self.best_sort and direct_level(bet) is None:
                raise InputError(f"bets: best_sort searches the splits for bets that read values or ranks, and {bet.name} reads suits, colours "
                                 "or the ranks of cards only the coup deals (value it with sorted and groups)", parameter="bets")
        self.shoe.checked(CARDS)


@dataclass(frozen=True)
class Decision:
    """One piece of information: its probability, each bet's expectation given it, and the choice."""

    information: str
    probability: Fraction
    expectations: tuple[Fraction, ...]

    @cached_property
    def choice(self) -> int | None:
        """The bet chosen (its index), or None: no bet."""
        return best_choice(self.expectations)

    @property
    def expected_value(self) -> Fraction:
        """What the choice earns per unit, given the information (0 for no bet)."""
        return Fraction(0) if self.choice is None else self.expectations[self.choice]


@dataclass(frozen=True)
class Protection:
    """What one piece of information is worth (see the module docstring)."""

    shoe: Shoe
    decisions: Decisions
    bets: tuple[Bet, ...]
    information: dict[str, Any]
    """What the player sees, as the record gives it (``known`` and ``detail``, or ``sorted`` and ``groups``)."""
    table: tuple[Decision, ...] = field(repr=False)
    """The decision table: each piece of information that occurs, in order."""

    @cached_property
    def expectations(self) -> tuple[Fraction, ...]:
        """Each bet's expectation without the information."""
        return tuple(sum((row.probability * row.expectations[index] for row in self.table), Fraction(0)) for index in range(len(self.bets)))

    @cached_property
    def uninformed(self) -> int | None:
        """The decision without the information (the bet's index; None: no bet)."""
        return best_choice(self.expectations)

    @cached_property
    def gain(self) -> Fraction:
        """What the informed player earns per coup: E[max(0, EV_1 | info, ...)] (not betting earns 0)."""
        return sum((row.probability * row.expected_value for row in self.table), Fraction(0))

    @property
    def gain_over_uninformed(self) -> Fraction:
        """The gain less what the best decision without the information earns (0 where it is no bet)."""
        return self.gain - (Fraction(0) if self.uninformed is None else self.expectations[self.uninformed])

    @cached_property
    def changed(self) -> Fraction:
        """The share of coups in which the information changes the decision taken without it."""
        return sum((row.probability for row in self.table if row.choice != self.uninformed), Fraction(0))

    def chosen(self, row: Decision) -> str | None:
        """The name of the bet chosen on ``row`` (None: no bet)."""
        return None if row.choice is None else self.bets[row.choice].name

    def to_dict(self) -> dict[str, object]:
        """The record (``exact_odds.protect``): exact values as fraction strings, percentages as numbers."""
        names = [bet.name for bet in self.bets]
        return versioned("protect", {
            "shoe": self.shoe.description,
            "rules": self.decisions.rules.name,
            "policy": str(self.decisions.policy) or None,
            "bets": names,
            "information": self.information,
            "gain": str(self.gain),
            "gain_percent": float(self.gain * 100),
            "gain_over_uninformed": str(self.gain_over_uninformed),
            "uninformed": None if self.uninformed is None else names[self.uninformed],
            "changed": str(self.changed),
            "changed_percent": float(self.changed * 100),
            "expected_values": dict(zip(names, map(str, self.expectations))),
            "decisions": [{"information": row.information, "probability": str(row.probability), "bet": self.chosen(row),
                           "expected_value": str(row.expected_value), "expected_values": dict(zip(names, map(str, row.expectations)))}
                          for row in self.table],
        })


LEVEL_WORDS = {Granularity.VALUE: "value", Granularity.VALUE_COLOR: "value and colour", Granularity.VALUE_SUIT: "value and suit",
               Granularity.RANK: "rank", Granularity.RANK_COLOR: "rank and colour", Granularity.CARD: "card"}


def class_name(level: Granularity, label: int) -> str:
    """A class of cards at ``level`` as a player names it: ``9``, ``K``, ``9 red``, ``KH``.

    >>> class_name(Granularity.RANK_COLOR, 17), class_name(Granularity.CARD, 37), class_name(Granularity.VALUE_SUIT, 1)
    ('9 black', 'TH', '0H')
    """
    face, mark = divmod(label, (1, 2, 4)[level.mark])
    text = str(face) if level.face == 0 else RANKS[face]
    return text if level.mark == 0 else f"{text} {COLORS[mark]}" if level.mark == 1 else text + SUITS[mark]


def _exact_sums(index: Array, values: Array, length: int) -> list[int]:
    """The sum of ``values`` at each index 0 .. length - 1, exactly: int64 values are bounded by
    :func:`_weights` so that every sum fits."""
    sums = np.zeros(length, dtype=values.dtype)
    np.add.at(sums, index, values)
    return [int(value) for value in sums]


def _weights(bet: Bet, distribution: Distribution) -> Array:
    """The bet's scaled net pay on each row times the row's count: int64 where every sum of them
    stays below 2^62, else Python integers."""
    nets = bet.scaled_pays[1]
    exact: Any = np.int64 if distribution.total * max(abs(net) for net in nets) < INT64_SAFE and distribution.counts.dtype != object else object
    weights: Array = np.asarray(nets, dtype=exact)[bet.settle(distribution.columns)] * distribution.counts.astype(exact)
    return weights


@dataclass(frozen=True)
class _Seen:
    """What the player sees, for the engine: the label (of ``radix``) of the card at each shoe
    position of ``positions`` (1-6), given for each of the 52 cards by ``label_of``, told apart at
    ``level``; ``faces``: whether the labels read the cards' values or ranks (else suits alone)."""

    positions: tuple[int, ...]
    label_of: Array
    radix: int
    level: Granularity
    faces: bool = True

    @property
    def infos(self) -> int:
        return int(self.radix ** len(self.positions))

    def code(self, labels: Sequence[Array]) -> Array:
        """The information's index from each position's labels (the first position's most significant)."""
        code = np.zeros(len(labels[0]), dtype=np.int64)
        for label in labels:
            code = code * self.radix + label
        return code


def _engine_contributions(request: ProtectRequest, bets: Sequence[Bet], seen: _Seen, engine: Engine) -> tuple[list[list[Fraction]], list[Fraction]]:
    """For each bet (one that :mod:`~exact_odds.studies.splits` does not tabulate), its expectation
    per coup on each piece of information, and the information's probabilities: bets on the coup
    through ``engine``, the positions tracked; bets on the first cards over the draws of those
    cards (:func:`_first_card_sums`)."""
    groups: dict[tuple[bool, object], list[Bet]] = {}
    for bet in bets:  # one distribution for the bets that read the same cards alike
        groups.setdefault((bet.needs_coup, tuple(sorted(bet.card_slots.items()))), []).append(bet)
    contributions: dict[Bet, list[Fraction]] = {}
    keys = [position_key(position) for position in seen.positions]
    for (needs_coup, _), members in groups.items():
        if not needs_coup:
            sums, counts, total = _first_card_sums(request.shoe, members, seen)
        else:
            levels = merge_levels(dict.fromkeys(keys, seen.level), *(bet.card_slots for bet in members))
            faces = frozenset(keys if seen.faces else ()).union(*(row.condition.faces for bet in members for row in bet.rows))
            try:
                coups = engine.coups(request.shoe, request.decisions, levels, faces=faces)
            except InputError as error:
                raise InputError(f"bets: {', '.join(bet.name for bet in members)} cannot be valued beside this information ({error}); "
                                 "leave it out", parameter="bets") from None
            index = seen.code([seen.label_of[np.asarray(coups.columns[f"{key}_card"])] for key in keys])
            weights = [_weights(bet, coups) for bet in members]
            sums, counts, total = [_exact_sums(index, weight, seen.infos) for weight in weights], _exact_sums(index, coups.counts, seen.infos), coups.total
        contributions.update((bet, [Fraction(value, total * bet.scaled_pays[0]) for value in found]) for bet, found in zip(members, sums))
    return [contributions[bet] for bet in bets], [Fraction(count, total) for count in counts]


def _first_card_sums(shoe: Shoe, bets: Sequence[Bet], seen: _Seen) -> tuple[list[list[int]], list[int], int]:
    """Bets on the first cards: over every draw of the four first cards the shoe holds (by the
    finest of the bets' and the information's granularity), each bet's scaled nets summed by the
    information, the draws by it, and what they are out of. A position beyond the fourth is a card
    of what the draw leaves: for the fifth or sixth card known, sum_c = n_c * all - sum over the four
    positions of those showing c; for a sort of five or six cards, a pattern's sum is that of its
    first four times (m_g - cards of group g before) for each card beyond."""
    level = seen.level
    for bet in bets:
        for read in bet.card_slots.values():
            level = level.join(read)
    draws = enumerate_cards(shoe, dict.fromkeys(FIRST_CARDS, level))
    labels = [seen.label_of[np.asarray(draws.columns[f"{slot}_card"])] for slot in FIRST_CARDS]
    inside = [position for position in seen.positions if position <= 4]
    beyond = len(seen.positions) - len(inside)
    weights = [_weights(bet, draws) for bet in bets] + [draws.counts]
    held = np.zeros(seen.radix, dtype=object)  # the shoe's cards of each label
    np.add.at(held, seen.label_of[representatives(level)], np.asarray(shoe_counts(shoe, level), dtype=object))
    size, replace = int(held.sum()), shoe.with_replacement
    if not beyond:
        found = [_exact_sums(seen.code([labels[position - 1] for position in inside]), weight, seen.infos) for weight in weights]
        return found[:-1], found[-1], draws.total
    if len(seen.positions) == 1:  # the fifth or sixth card known: one of those the four first cards leave
        found = []
        for weight in weights:
            summed = [held[label] * int(weight.sum()) for label in range(seen.radix)]
            for label in labels if not replace else ():
                summed = [total - part for total, part in zip(summed, _exact_sums(label, weight, seen.radix))]
            found.append([int(value) for value in summed])
        return found[:-1], found[-1], draws.total * (size if replace else size - 4)
    first = [_exact_sums(seen.code(labels), weight, seen.radix**4) for weight in weights]  # cards 1-4 all seen: beyond them, by pattern
    extend, out_of = [], 1
    for pattern in product(range(seen.radix), repeat=len(seen.positions)):
        ways = 1
        for place in range(4, len(pattern)):
            ways *= held[pattern[place]] - (0 if replace else pattern[:place].count(pattern[place]))
        extend.append((int(np.ravel_multi_index(pattern[:4], (seen.radix,) * 4)), int(ways)))
    for place in range(4, len(seen.positions)):
        out_of *= size if replace else size - place
    found = [[sums[index] * ways for index, ways in extend] for sums in first]
    return found[:-1], found[-1], draws.total * out_of


def _refined(contributions: list[Fraction], shoe: Shoe, coarse: Granularity, fine: Granularity) -> list[Fraction]:
    """Contributions by class at ``coarse`` split over the classes at ``fine`` in proportion to
    their cards: the bets read no finer than ``coarse``, so the cards of a class are alike to them."""
    if coarse == fine:
        return contributions
    counts, coarse_counts, mapping = shoe_counts(shoe, fine), shoe_counts(shoe, coarse), label_map(fine, coarse)
    return [contributions[outer] * Fraction(count, coarse_counts[outer]) if count else Fraction(0)
            for count, outer in zip(counts, mapping.tolist())]


def _read_level(bets: Sequence[Bet]) -> Granularity:
    level = Granularity.VALUE
    for bet in bets:
        for read in bet.card_slots.values():
            level = level.join(read)
    return level


def _alphabet(bets: Sequence[Bet], ranks: bool = False) -> Granularity:
    return Granularity.RANK if ranks or any(direct_level(bet) == Granularity.RANK for bet in bets) else Granularity.VALUE


def _known(request: ProtectRequest, engine: Engine) -> Protection:
    """A known card: by its class at the finest granularity the bets read (told more finely, it is
    worth no more)."""
    assert request.known is not None
    position, level = request.known, _read_level(request.bets)
    contributions: dict[Bet, list[Fraction]] = {}
    direct = [bet for bet in request.bets if direct_level(bet) is not None]
    if direct:
        sequences = Sequences.of(request.shoe, request.decisions, _alphabet(direct))
        for bet in direct:
            sums = np.zeros(sequences.alphabet.classes, dtype=object)
            sums[sequences.present] = known_sums(sequences.table(bet), position - 1)
            coarse = [Fraction(int(total), sequences.denominator(bet)) for total in sums]
            contributions[bet] = _refined(coarse, request.shoe, sequences.alphabet, level)
    others = [bet for bet in request.bets if bet not in contributions]
    if others:
        reading = _read_level(others)
        found, _ = _engine_contributions(request, others, _Seen((position,), card_labels(reading), reading.classes, reading), engine)
        contributions.update((bet, _refined(values, request.shoe, reading, level)) for bet, values in zip(others, found))
    counts = shoe_counts(request.shoe, level)
    table = tuple(Decision(class_name(level, label), Fraction(count, sum(counts)),
                           tuple(contributions[bet][label] / Fraction(count, sum(counts)) for bet in request.bets))
                  for label, count in enumerate(counts) if count)
    return Protection(request.shoe, request.decisions, request.bets, {"known": position, "detail": LEVEL_WORDS[level]}, table)


def _pattern_names(groups: int, cards: int) -> list[str]:
    """The patterns of ``cards`` sorted cards in index order (the first card's group most significant)."""
    return ["".join(pattern) for pattern in product(GROUP_NAMES[:groups], repeat=cards)]


def sorted_information(cards: int, groups: Groups) -> dict[str, Any]:
    return {"sorted": cards, "kind": groups.kind, "groups": {GROUP_NAMES[index]: list(members) for index, members in enumerate(groups.members)}}


def _sorted(request: ProtectRequest, engine: Engine, sequences: Sequences | None = None) -> Protection:
    """The first ``sorted`` cards seen sorted by ``groups``."""
    assert request.sorted is not None and request.groups is not None
    cards, groups = request.sorted, request.groups
    contributions: dict[Bet, list[Fraction]] = {}
    probabilities: list[Fraction] = []
    direct = [bet for bet in request.bets if direct_level(bet) is not None and groups.kind != "suits"]
    if direct:
        sequences = sequences or Sequences.of(request.shoe, request.decisions, _alphabet(direct, groups.kind == "ranks"))
        group_of, count = groups.group_of(sequences.alphabet)[sequences.present], len(groups.members)
        for bet in direct:
            sums = group_sums(sequences.table(bet), cards, group_of, count).ravel()
            contributions[bet] = [Fraction(int(total), sequences.denominator(bet)) for total in sums]
        probabilities = [Fraction(int(total), sequences.total) for total in group_sums(sequences.counts, cards, group_of, count).ravel()]
    others = [bet for bet in request.bets if bet not in contributions]
    if others:
        seen = _Seen(tuple(range(1, cards + 1)), groups.group_of(Granularity.CARD), len(groups.members), groups.granularity, groups.kind != "suits")
        found, probabilities = _engine_contributions(request, others, seen, engine)
        contributions.update(zip(others, found))
    table = tuple(Decision(name, probability, tuple(contributions[bet][index] / probability for bet in request.bets))
                  for index, (name, probability) in enumerate(zip(_pattern_names(len(groups.members), cards), probabilities)) if probability)
    return Protection(request.shoe, request.decisions, request.bets, sorted_information(cards, groups), table)


def protect(shoe: "Shoe | int | str | Mapping[str, int]" = 8, bets: "str | Bet | Iterable[str | Bet] | None" = None,
            rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None, *, known: int | None = None,
            sorted: int | None = None, groups: str | None = None, best_sort: bool = False, over: str | None = None,
            engine: Engine | None = None) -> "Protection | SortSearch":
    """What the information is worth (see the module docstring): ``known`` (a shoe position 1-6),
    ``sorted`` cards with ``groups``, or ``best_sort``; the bets (the main bets by default, ``all``
    the catalog) as :func:`exact_odds.analyze` takes them."""
    request = ProtectRequest.of(shoe, bets, rules, policy, known=known, sorted=sorted, groups=groups, best_sort=best_sort, over=over)
    return run(request, engine)


def run(request: ProtectRequest, engine: Engine | None = None) -> "Protection | SortSearch":
    """The request's figure: a :class:`Protection`, or for ``best_sort`` a :class:`SortSearch`.
    Bets that read suits or colours go through ``engine`` (the compiled evaluator by default)."""
    engine = engine or default_engine()
    if request.best_sort:
        return _best_sort(request)
    if request.known is not None:
        return _known(request, engine)
    return _sorted(request, engine)


@dataclass(frozen=True)
class Split:
    """A two-way split and what sorting the cards by it is worth."""

    groups: Groups
    gain: Fraction
    changed: Fraction


@dataclass(frozen=True)
class SortSearch:
    """Every two-way split of the values and of the ranks, for each number of sorted cards: what
    each is worth, best first, and the decision table of the best."""

    shoe: Shoe
    decisions: Decisions
    bets: tuple[Bet, ...]
    splits: dict[tuple[str, int], tuple[Split, ...]]
    """By kind (``values``, ``ranks``) and number of cards: every split, best first."""
    best: dict[tuple[str, int], Protection]

    def to_dict(self) -> dict[str, object]:
        """The record (``exact_odds.protect`` with ``best_sort``): for each kind and number of cards,
        the best split's record and every split's value."""
        searches = [{"kind": kind, "cards": cards, "splits": len(splits),
                     "best": {key: value for key, value in self.best[kind, cards].to_dict().items() if key not in ("format", "version", "shoe", "rules", "policy", "bets")},
                     "every_split": [{"groups": [list(group) for group in split.groups.members], "gain": str(split.gain),
                                      "gain_percent": float(split.gain * 100), "changed": str(split.changed)} for split in splits]}
                    for (kind, cards), splits in self.splits.items()]
        return versioned("protect", {"shoe": self.shoe.description, "rules": self.decisions.rules.name,
                                     "policy": str(self.decisions.policy) or None, "bets": [bet.name for bet in self.bets],
                                     "information": {"best_sort": True, "over": sorted({kind for kind, _ in self.splits}, reverse=True),
                                                     "cards": sorted({cards for _, cards in self.splits})},
                                     "searches": searches})


def _split_masks(kind: str) -> list[int]:
    """The masks over the thirteen ranks (bit r: rank r in the first group) of every two-way split
    of the values (the first group holds the ten-valued cards) or of the ranks (it holds the ace):
    511 and 4,095. (A split is a group and its complement: Roach's 1,023 sorts of the values are the
    511 twice and the sort that puts every value in one group, which tells nothing.)"""
    full = (1 << 13) - 1
    if kind == "ranks":
        return [mask for mask in range(1, full) if mask & 1]
    tens = sum(1 << rank for rank in range(9, 13))
    return [mask for mask in range(tens, full) if mask & tens == tens]


def _mask_groups(kind: str, mask: int) -> Groups:
    if kind == "ranks":
        members = [rank for index, rank in enumerate(RANKS) if mask >> index & 1]
    else:
        members = [str(value) for value in range(10) if mask >> (9 if value == 0 else value - 1) & 1]
    rest = [symbol for symbol in KINDS[kind] if symbol not in members]
    return Groups(kind, (tuple(members), tuple(rest)))


def _best_sort(request: ProtectRequest) -> SortSearch:
    """Every two-way split of the values and of the ranks, for 1 to 6 sorted cards (or ``sorted``)."""
    from .splits import search_splits

    cards = [request.sorted] if request.sorted is not None else list(range(1, CARDS + 1))
    sequences = Sequences.of(request.shoe, request.decisions, Granularity.RANK)
    expectations = []
    for bet in request.bets:
        expectations.append(Fraction(int(sequences.table(bet).sum()), sequences.denominator(bet)))
    values = search_splits(sequences, request.bets, cards, best_choice(expectations))
    held = sequences.present.tolist()
    splits: dict[tuple[str, int], tuple[Split, ...]] = {}
    for kind in ("values", "ranks") if request.over in (None, "both") else (request.over,):
        masks = _split_masks(kind)
        within = {mask: sum(1 << place for place, rank in enumerate(held) if mask >> rank & 1) for mask in masks}  # over the ranks held
        for found in values:
            gains = {mask: Fraction(found.gains[within[mask]], found.denominator) for mask in masks}
            ranked = sorted(masks, key=lambda mask: (-gains[mask], mask))
            splits[kind, found.cards] = tuple(Split(_mask_groups(kind, mask), gains[mask], Fraction(found.changed[within[mask]], found.total))
                                              for mask in ranked)
    best = {key: _sorted(ProtectRequest(shoe=request.shoe, decisions=request.decisions, bets=request.bets, sorted=key[1],
                                        groups=chosen[0].groups), default_engine(), sequences)
            for key, chosen in splits.items()}
    return SortSearch(request.shoe, request.decisions, request.bets, splits, best)
