"""Policies: what a hand does at each option point of a rule set, resolved into the decision
weights the coup walk reads.

A policy gives each option point a probability of drawing: ``draw`` (1), ``stand`` (0) or an exact
probability (``9/11``). A key names a two-card total (``player_on_5``, every hand of that total) or,
where the rules show a hand its cards, one composition (``player_on_1+4``); the banker's keys add the
player's third card (``banker_on_3_vs_8``, ``banker_on_2+1_vs_stood``). A *base* as an entry,
``punto_banco`` (the Punto Banco tableau) or ``optimal`` (the solution of chemin de fer,
:mod:`exact_odds.games.chemin`, for its rule sets), plays every option point that no key names; a key
overrides the base at the points it names, wherever it stands in the list. Each option point gets
one choice: two keys naming one point (a total key and a cards key of the same hand, where the rules
show the cards) and two bases are refused, so the order of the entries never matters.

Decisions are integer weights out of a common ``scale`` (the least common denominator of the
probabilities), so counts stay integers: a coup is weighted by both hands' decisions, and the totals
are the ordered sequences times ``scale ** 2``.

>>> from exact_odds.core.rules import BACCARAT_GOLD
>>> gold = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=9/11"))
>>> gold.scale, gold.player_weight(2, 3), gold.player_weight(2, 2)
(11, 9, 11)
>>> str(Policy.parse("player_on_5=draw, banker_on_3_vs_8=stand"))
'player_on_5=draw,banker_on_3_vs_8=stand'
"""

import re
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import lcm

from ..errors import InputError
from .numbers import exact_value, parse_probability, shown, text_of
from .rules import CHOICE, DRAW, PUNTO_BANCO, STAND, DrawRules, OptionPoint, as_rules
from .values import Value

KEY = r"(player)_on_([0-9](?:\+[0-9])?)|(banker)_on_([0-9](?:\+[0-9])?)_vs_([0-9]|stood)"  # compiled when first used
BASES = ("punto_banco", "optimal")
MAX_PURE_PROFILES = 16
"""Without a policy, the analysis shows each pure choice when there are at most this many."""


class Policy(Value):
    """Probabilities of drawing at option points, by key (see the module docstring).

    >>> str(Policy.parse("player_on_5 = 9/11")), Policy.parse("punto_banco").base
    ('player_on_5=9/11', 'punto_banco')
    """

    __slots__ = ("entries", "base")
    entries: tuple[tuple[str, Fraction], ...]
    base: str | None

    def __init__(self, entries: tuple[tuple[str, Fraction], ...] = (), base: str | None = None) -> None:
        """Refuse what no policy holds: an entry that is not a (key, probability) pair with a key of
        the policy language and an exact probability from 0 to 1, a key twice, or another base."""
        if base is not None and base not in BASES:
            raise InputError(f"policy base must be one of {', '.join(BASES)} or None, not {shown(base)}", parameter="policy")
        if isinstance(entries, (str, bytes)) or not isinstance(entries, (tuple, list)):
            raise InputError(f"policy entries must be (key, probability) pairs, not {shown(entries)}", parameter="policy")
        for entry in entries:
            if not isinstance(entry, tuple) or len(entry) != 2 or not isinstance(entry[0], str) or not re.fullmatch(KEY, entry[0]):
                raise InputError(f"policy entry {shown(entry)}: expected a pair of a key (player_on_T, banker_on_T_vs_X ...) and a probability",
                                 parameter="policy")
            probability = exact_value(entry[1], f"policy {entry[0]}", parameter="policy")
            if not 0 <= probability <= 1:
                raise InputError(f"policy {entry[0]} must be a probability from 0 to 1, not {probability}", parameter="policy")
        keys = [key for key, _ in entries]
        if len(set(keys)) < len(keys):
            raise InputError(f"policy names {next(key for index, key in enumerate(keys) if key in keys[:index])} twice", parameter="policy")
        self._set(tuple((key, Fraction(probability)) for key, probability in entries), base)

    @classmethod
    def parse(cls, text: str) -> "Policy":
        """Entries ``KEY=draw|stand|P`` and at most one base (``punto_banco``, ``optimal``), separated by commas."""
        text_of(text, "policy", parameter="policy")
        entries: dict[str, Fraction] = {}
        base = None
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            key, equals, value = (piece.strip() for piece in item.partition("="))
            if not equals:
                if key.lower() not in BASES:
                    raise InputError(f"policy entry {shown(item)}: expected KEY=draw, KEY=stand, KEY=P (a probability) or {', '.join(BASES)}", parameter="policy")
                if base is not None:
                    raise InputError(f"policy names two bases, {base} and {key.lower()}: give one (keys override it where they name a point)", parameter="policy")
                base = key.lower()
                continue
            key = key.lower()
            if not re.fullmatch(KEY, key):
                raise InputError(f"policy key {shown(key)}: expected player_on_T, player_on_A+B, banker_on_T_vs_X or "
                                 "banker_on_A+B_vs_X (T a total, A+B two card values, X a third card 0-9 or stood)", parameter="policy")
            if key in entries:
                raise InputError(f"policy names {key} twice", parameter="policy")
            words = value.lower()
            entries[key] = Fraction(1) if words == "draw" else Fraction(0) if words == "stand" else parse_probability(value, f"policy {key}", parameter="policy")
        return cls(tuple(entries.items()), base)

    def __str__(self) -> str:
        parts = ([self.base] if self.base else []) + [f"{key}={_word(probability)}" for key, probability in self.entries]
        return ",".join(parts)

    def __bool__(self) -> bool:
        return bool(self.entries or self.base)

    def summary(self, limit: int = 160) -> str:
        """The policy as text, cut short when longer than ``limit`` (at least 80) characters (the
        number of choices it names is then given)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 80:
            raise InputError(f"limit must be a whole number of characters from 80, not {shown(limit)}", parameter="limit")
        text = str(self)
        if len(text) <= limit:
            return text
        return text[: limit - 40].rsplit(",", 1)[0] + f",... ({len(self.entries)} choices)"


def _word(probability: Fraction) -> str:
    return "draw" if probability == 1 else "stand" if probability == 0 else str(probability)


def _key_point(key: str) -> OptionPoint:
    match = re.fullmatch(KEY, key)
    assert match is not None
    side = match.group(1) or match.group(3)
    seen = match.group(2) or match.group(4)
    cards = tuple(sorted(int(value) for value in seen.split("+"))) if "+" in seen else None
    total = sum(cards) % 10 if cards else int(seen)
    third_text = match.group(5)
    third = None if third_text in (None, "stood") else int(third_text)
    return OptionPoint(side, total, (cards[0], cards[1]) if cards else None, third)


def _covers(key: OptionPoint, point: OptionPoint) -> bool:
    return (key.side, key.total, key.third) == (point.side, point.total, point.third) and key.cards in (None, point.cards)


def _named_points(rules: DrawRules, entries: tuple[tuple[str, Fraction], ...]) -> dict[OptionPoint, tuple[str, Fraction]]:
    """The option points of ``rules`` that ``entries`` name, each with the one entry naming it; an
    entry that names no option point, or a point named by two entries, is an error."""
    points = rules.option_points()
    named: dict[OptionPoint, tuple[str, Fraction]] = {}
    for key, probability in entries:
        spelled = _key_point(key)
        sees = rules.player_sees if spelled.side == "player" else rules.banker_sees
        if spelled.cards is not None and sees == "total":
            raise InputError(f"policy {key}: under {rules.name} the {spelled.side} sees only his total "
                             f"(say {OptionPoint(spelled.side, spelled.total, None, spelled.third).name})", parameter="policy")
        covered = [point for point in points if _covers(spelled, point)]
        if not covered:
            mark = rules.mark(spelled.side, spelled.total, spelled.third)
            fixed = {DRAW: "always draws", STAND: "always stands"}.get(mark, "never decides (a natural)")
            raise InputError(f"policy {key}: not a choice under {rules.name} (there the {spelled.side} {fixed})", parameter="policy")
        for point in covered:
            if point in named:
                other = named[point][0]
                if other == key:
                    raise InputError(f"policy names {key} twice", parameter="policy")
                raise InputError(f"policy {other} and {key} both name {point.name}: give one choice for each option point", parameter="policy")
            named[point] = (key, probability)
    return named


def choices(rules: DrawRules, policy: Policy) -> dict[OptionPoint, Fraction]:
    """The probability of drawing at every option point of ``rules`` under ``policy``, in the order
    of :meth:`~exact_odds.core.rules.DrawRules.option_points`: the entry naming it (one at most, see
    :func:`_named_points`), else the base; a point left open is an error."""
    if policy.base == "optimal":
        raise InputError(f"policy optimal is the solution of chemin de fer on one shoe: solve it with exact_odds.games.chemin.with_optimal(rules, policy, shoe) "
                         f"(the commands on one shoe do), not here for {rules.name}", parameter="policy")
    points = rules.option_points()
    named = _named_points(rules, policy.entries)
    chosen: dict[OptionPoint, Fraction] = {}
    for point in points:
        if point in named:
            chosen[point] = named[point][1]
        elif policy.base == "punto_banco":
            mark = PUNTO_BANCO.mark(point.side, point.total, point.third)
            if mark not in (DRAW, STAND):
                raise InputError(f"policy punto_banco: Punto Banco has no decision at {point.name} (a natural there)", parameter="policy")
            chosen[point] = Fraction(int(mark == DRAW))
    open_points = [point.name for point in points if point not in chosen]
    if open_points:
        listed = ", ".join(open_points[:3]) + (f" and {len(open_points) - 3} more" if len(open_points) > 3 else "")
        raise InputError(f"{rules.name} leaves a choice open at {listed}: give a policy, e.g. {open_points[0]}=draw, =stand or =P (a probability such as 9/11)")
    return chosen


def with_base(rules: DrawRules, policy: Policy, base: Policy) -> Policy:
    """``policy`` with its base replaced by the choices of ``base`` (a policy of ``rules`` in full):
    ``policy``'s own entries where they name a point, ``base``'s at every other point."""
    named = _named_points(rules, policy.entries)
    filled = choices(rules, base)
    return Policy(policy.entries + tuple((point.name, probability) for point, probability in filled.items() if point not in named))


def policy_text(rules: DrawRules, policy: Policy) -> str:
    """The choice ``policy`` makes at each option point of ``rules``, one ``KEY=choice`` a line."""
    return "".join(f"{point.name}={_word(probability)}\n" for point, probability in choices(rules, policy).items())


def _values(**values: object) -> None:
    """Refuse any of ``values`` (by parameter) that is not a card's point value 0-9 (an int, not a bool)."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
            raise InputError(f"{name} must be a card's point value 0-9, not {shown(value)}", parameter=name)


class Decisions(Value):
    """A rule set with every choice fixed: integer weights of drawing, out of ``scale``, by the
    hand's two cards (and, for the banker, the player's third card; index 0 when the player stood)."""

    __slots__ = ("rules", "policy", "scale", "player", "banker")
    rules: DrawRules
    policy: Policy
    scale: int
    player: tuple[int, ...]  # [first * 10 + second]
    banker: tuple[int, ...]  # [(first * 10 + second) * 11 + third + 1]

    def __init__(self, rules: DrawRules, policy: Policy, scale: int, player: tuple[int, ...], banker: tuple[int, ...]) -> None:
        self._set(rules, policy, scale, player, banker)

    def __hash__(self) -> int:
        """Of the rules and the policy alone, which fix every weight: decisions key the caches of
        tables, so the 1,200 weights are not hashed on every lookup."""
        return hash((self.rules, self.policy))

    def player_weight(self, first: int, second: int) -> int:
        """The player's weight of drawing (out of :attr:`scale`) on his two cards' values 0-9."""
        _values(first=first, second=second)
        return self.player[first * 10 + second]

    def banker_weight(self, first: int, second: int, player_third: int | None) -> int:
        """The banker's weight of drawing (out of :attr:`scale`) on his two cards' values 0-9
        against the player's third card's (None: the player stood)."""
        _values(first=first, second=second, **({} if player_third is None else {"player_third": player_third}))
        return self.banker[(first * 10 + second) * 11 + (0 if player_third is None else player_third + 1)]

    @property
    def pure(self) -> bool:
        return self.scale == 1


def resolve(rules: "DrawRules | str", policy: "Policy | str" = Policy()) -> Decisions:
    """The decision weights of ``rules`` (a :class:`~exact_odds.core.rules.DrawRules`, or as
    :func:`~exact_odds.core.rules.as_rules` reads them) under ``policy`` (a :class:`Policy` or its
    text; see :func:`choices`).

    >>> from exact_odds.core.rules import BACCARAT_GOLD
    >>> decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=9/11"))
    >>> decisions.scale, decisions.player_weight(1, 4)  # the player on 1+4 draws 9 times in 11
    (11, 9)
    """
    rules = as_rules(rules)
    if isinstance(policy, str):
        policy = Policy.parse(policy)
    if not isinstance(policy, Policy):
        raise InputError(f"policy must be a Policy or its text (\"player_on_5=draw\"), not {shown(policy)}", parameter="policy")
    return _resolved(rules, policy)


@lru_cache(maxsize=64)
def _resolved(rules: DrawRules, policy: Policy) -> Decisions:
    chosen = choices(rules, policy)
    scale = lcm(*(probability.denominator for probability in chosen.values())) if chosen else 1

    marks = {(side, total, third): rules.mark(side, total, third) for side, thirds in (("player", (None,)), ("banker", (None, *range(10))))
             for total in range(10) for third in thirds}  # read once each, not once per pair of cards

    def weight(side: str, first: int, second: int, third: int | None) -> int:
        total = (first + second) % 10
        mark = marks[side, total, third]
        if mark == CHOICE:
            sees = rules.player_sees if side == "player" else rules.banker_sees
            cards = (min(first, second), max(first, second)) if sees == "cards" else None
            return int(chosen[OptionPoint(side, total, cards, third)] * scale)
        return scale if mark == DRAW else 0

    player = tuple(weight("player", first, second, None) for first, second in product(range(10), repeat=2))
    banker = tuple(weight("banker", first, second, third) for first, second in product(range(10), repeat=2) for third in (None, *range(10)))
    return Decisions(rules, policy, scale, player, banker)


def decisions_of(rules: DrawRules | Decisions, policy: Policy | str | None = None) -> Decisions:
    """A rule set with its choices fixed by ``policy`` (a :class:`Policy`, or its text), or decisions already resolved."""
    if isinstance(rules, Decisions):
        if policy:
            raise InputError("give the policy either inside the decisions or as policy=, not both")
        return rules
    return resolve(rules, Policy() if policy is None else policy)


def pure_policies(rules: DrawRules) -> list[Policy]:
    """Every pure policy of a rule set with a few option points (each point: draw or stand)."""
    points = rules.option_points()
    if 2 ** len(points) > MAX_PURE_PROFILES:
        raise InputError(f"{rules.name} has {len(points)} option points ({2 ** len(points):,} pure policies): give a policy")
    return [Policy(tuple((point.name, Fraction(draw)) for point, draw in zip(points, draws))) for draws in product((1, 0), repeat=len(points))]
