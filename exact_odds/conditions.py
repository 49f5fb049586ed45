"""The condition language of pay tables: comparisons of coup features, joined by and/or/not.

Parsed by a small recursive-descent parser (never ``eval``) into a :class:`Condition` that
evaluates over the feature columns of a :class:`~exact_odds.distribution.Distribution`.

>>> condition = parse_condition("winner == banker and banker_cards == 3 and banker_total == 7")
>>> sorted(condition.features)
['banker_cards', 'banker_total', 'winner']
>>> parse_condition("player_card1_rank == K").requirements()
(False, {'player_card1': <Granularity.RANK: 3>})
>>> parse_condition("winner == bunker")
Traceback (most recent call last):
exact_odds.errors.InputError: 'bunker' is not a value of winner (expected banker, player, tie)
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .cards import RANKS, SUITS, rank_index
from .errors import InputError
from .features import CARD_FEATURES, COLORS, COUP_FEATURES, OUTCOMES, THIRD_CARDS, Array, Levels, feature_kind, merge_levels


def literal_code(kind: str, feature: str, text: str) -> int:
    """The integer code of a literal compared with a feature of ``kind``."""
    lowered = text.lower()
    if kind == "winner":
        if lowered in OUTCOMES:
            return OUTCOMES.index(lowered)
        expected = ", ".join(OUTCOMES)
    elif kind == "rank":
        try:
            return rank_index(text)
        except InputError:
            expected = " ".join(RANKS)
    elif kind == "suit":
        if text.upper() in SUITS:
            return SUITS.index(text.upper())
        expected = " ".join(SUITS)
    elif kind == "color":
        if lowered in COLORS:
            return COLORS.index(lowered)
        expected = ", ".join(COLORS)
    elif kind == "bool":
        if lowered in ("true", "false"):
            return int(lowered == "true")
        expected = "true, false"
    else:
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        expected = "an integer"
    raise InputError(f"{text!r} is not a value of {feature} (expected {expected})")


TOKEN = re.compile(r"\s*(?:(==|!=|<=|>=|<|>|\(|\)|\[|\]|,)|([A-Za-z_][A-Za-z0-9_]*|-?\d+))")
COMPARE = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its text, the features it reads and its evaluator."""

    text: str
    features: frozenset[str]
    evaluate: Callable[[dict[str, np.ndarray]], np.ndarray]

    def requirements(self) -> tuple[bool, Levels]:
        """Whether it needs the whole coup (a coup feature, or a third card, which exists only when
        the coup draws it), and the card slots it reads with their granularity."""
        cards = [CARD_FEATURES[name] for name in self.features if name in CARD_FEATURES]
        needs_coup = any(name in COUP_FEATURES for name in self.features) or any(slot in THIRD_CARDS for slot, _, _ in cards)
        return needs_coup, merge_levels(*({slot: level} for slot, _, level in cards))

    def __call__(self, columns: dict[str, np.ndarray]) -> np.ndarray:
        rows = len(next(iter(columns.values())))
        return np.broadcast_to(self.evaluate(columns), (rows,))


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = []
        position = 0
        while position < len(text.rstrip()):
            match = TOKEN.match(text, position)
            if not match:
                raise InputError(f"unexpected {text[position:].strip()[:20]!r} in condition {text!r}")
            self.tokens.append(match.group(1) or match.group(2))
            position = match.end()
        self.index = 0
        self.features: set[str] = set()

    def peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token.lower() != expected):
            found = "the end" if token is None else repr(token)
            raise InputError(f"expected {expected or 'more'} but found {found} in condition {self.text!r}")
        self.index += 1
        return token

    def parse(self) -> Condition:
        if not self.tokens:
            raise InputError("empty condition")
        evaluate = self.disjunction()
        if self.peek() is not None:
            raise InputError(f"unexpected {self.peek()!r} in condition {self.text!r}")
        return Condition(self.text, frozenset(self.features), evaluate)

    def disjunction(self):
        parts = [self.conjunction()]
        while (self.peek() or "").lower() == "or":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else lambda columns: np.logical_or.reduce([part(columns) for part in parts])

    def conjunction(self):
        parts = [self.negation()]
        while (self.peek() or "").lower() == "and":
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else lambda columns: np.logical_and.reduce([part(columns) for part in parts])

    def negation(self):
        if (self.peek() or "").lower() == "not":
            self.take()
            inner = self.negation()
            return lambda columns: np.logical_not(inner(columns))
        return self.comparison()

    def comparison(self):
        if self.peek() == "(":
            self.take()
            inner = self.disjunction()
            self.take(")")
            return inner
        left = self.take()
        operator = (self.peek() or "").lower()
        if operator not in COMPARE and operator != "in":
            return self.truth(left)
        self.take()
        if operator == "in":
            self.take("[")
            items = [self.take()]
            while self.peek() == ",":
                self.take()
                items.append(self.take())
            self.take("]")
            feature, kind = self.feature(left)
            codes = [literal_code(kind, feature, item) for item in items]
            return lambda columns: np.isin(columns[feature], codes)
        return self.compare(left, operator, self.take())

    def truth(self, token: str):
        if token.lower() in ("true", "false"):
            value = token.lower() == "true"
            return lambda columns: np.bool_(value)
        feature, kind = self.feature(token)
        if kind != "bool":
            raise InputError(f"{feature} is not true/false; compare it with a value in condition {self.text!r}")
        return lambda columns: columns[feature] != 0

    def feature(self, token: str) -> tuple[str, str]:
        kind = feature_kind(token.lower())
        if kind is None:
            raise InputError(f"unknown feature {token!r} in condition {self.text!r}")
        self.features.add(token.lower())
        return token.lower(), kind

    def compare(self, left: str, operator: str, right: str):
        left_kind, right_kind = feature_kind(left.lower()), feature_kind(right.lower())
        function = COMPARE[operator]
        if left_kind is None and right_kind is None:
            self.feature(left)
        if left_kind is not None and right_kind is not None:
            (first, first_kind), (second, second_kind) = self.feature(left), self.feature(right)
            if first_kind != second_kind:
                raise InputError(f"cannot compare {first} ({first_kind}) with {second} ({second_kind}) in condition {self.text!r}")
            return lambda columns: function(columns[first], columns[second])
        if left_kind is None:
            left, right, function = right, left, COMPARE[{"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(operator, operator)]
        feature, kind = self.feature(left)
        code = literal_code(kind, feature, right)
        return lambda columns: function(columns[feature], code)


def parse_condition(text: str) -> Condition:
    """Parse a pay-table condition (see the module docstring); errors name the offending token."""
    return _Parser(text).parse()
