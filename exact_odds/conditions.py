"""The condition language of pay tables, parsed (never evaluated as Python) into a :class:`Condition`.

A condition compares features of a coup (``winner``, totals, cards, naturals, the card slots'
value, rank, suit and colour), counts the cards dealt that satisfy a predicate (``count``,
``player_count``, ``banker_count``), does integer arithmetic (``+ - * %``) and joins with ``and``,
``or``, ``not`` and parentheses. Orderings (``< <= > >=``) apply to numbers only.

Each comparison of one card slot with literals is tabulated over the 52 cards, so a condition
reads each slot at the coarsest granularity that decides it (``player_card1_rank == 9`` needs the
point value only; ``player_card1_rank == K`` the rank; ``player_card1_suit in [H, D]`` the colour).

>>> condition = parse_condition("winner == banker and banker_cards == 3 and banker_total == 7")
>>> sorted(condition.features)
['banker_cards', 'banker_total', 'winner']
>>> parse_condition("player_card1_rank == K").requirements()
(False, {'player_card1': <Granularity.RANK: 3>})
>>> parse_condition("count(card_rank == 9) >= 2").requirements()  # a count, decided by point values
(True, {'counted:0000f00000000': <Granularity.VALUE: 0>})
>>> parse_condition("winner == bunker")
Traceback (most recent call last):
exact_odds.errors.InputError: 'bunker' is not a value of winner (expected banker, player, tie) in condition 'winner == bunker'
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .cards import POINT_VALUES, RANKS, SUITS, rank_index
from .errors import InputError
from .features import (
    CARD_ATTRIBUTES,
    CARD_FEATURES,
    COLORS,
    COUNTED,
    COUP_FEATURES,
    OUTCOMES,
    SIDES,
    SLOTS,
    SUIT_COLOR,
    THIRD_CARDS,
    Array,
    Columns,
    Granularity,
    Levels,
    coarsest_granularity,
    counted_key,
    merge_levels,
)
from .parsing import shown

MAX_LENGTH = 10_000
"""A condition has at most this many characters."""
MAX_DEPTH = 40
"""Parentheses and aggregates nest at most this deep."""
AGGREGATES = {"count": SLOTS, "player_count": SLOTS[0::2], "banker_count": SLOTS[1::2]}
"""Aggregates and the slots they count over (the cards the coup dealt, or one hand's)."""
CARD_WORDS = {f"card_{attribute}": (kind, level) for attribute, (kind, level) in CARD_ATTRIBUTES.items()}
"""Inside an aggregate, the card being counted: card_value, card_rank, card_color, card_suit."""
ORDERINGS = ("<", "<=", ">", ">=")
Values = Array | np.generic
"""What an expression gives over feature columns: a column, or one numpy scalar for every row (a constant)."""
COMPARE: dict[str, Callable[[Values, Values | int], Values]] = {
    "==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}
TOKEN = re.compile(r"\s*(?:(==|!=|<=|>=|<|>|\(|\)|\[|\]|,|\+|-|\*|%)|([A-Za-z_][A-Za-z0-9_]*|[0-9]+))", re.ASCII)
DECK = Columns({f"card_{name}": values for name, values in {
    "value": np.asarray(POINT_VALUES)[np.arange(52) // 4],
    "rank": np.arange(52) // 4,
    "suit": np.arange(52) % 4,
    "color": np.asarray(SUIT_COLOR)[np.arange(52) % 4],
}.items()})
"""The 52 cards as columns: an aggregate's predicate is tabulated over them."""

Evaluator = Callable[[Columns], Values]


FEATURE_LARGEST = 9
"""No number a coup feature takes is larger than 9 in magnitude (totals, values, margins, counts)."""
ARITHMETIC_LARGEST = 2**62
"""The largest magnitude arithmetic in a condition may reach (int64 holds it with room)."""


@dataclass(frozen=True)
class Expr:
    """A parsed expression: its kind (bool, int, winner, rank, suit, color, or literal for a bare
    word or number), how to evaluate it, the features and card slots it reads."""

    kind: str
    evaluate: Evaluator | None = None
    text: str = ""
    features: frozenset[str] = frozenset()
    slots: Levels = field(default_factory=dict)
    card: int | None = None
    """For a plain card-slot feature: the slot's index (it may be tabulated over the 52 cards)."""
    symmetric: bool = False
    """Built from constants and ==, != between the same attribute of two card slots only: then it
    depends on the cards only through which of them are alike (see :mod:`exact_odds.patterns`)."""
    largest: int = FEATURE_LARGEST
    """For a number: a bound on its magnitude (a feature's is at most 9), so that arithmetic that
    could leave int64 is refused rather than wrapped."""
    dealt: Evaluator | None = None
    """For what reads a third-card slot: where every slot it reads holds a card. Elsewhere it has
    no value, and a comparison of it is false, except != (true)."""


@dataclass(frozen=True, eq=False)
class Condition:
    """A parsed condition: its text, the features it reads, the card slots with their granularity,
    and its evaluator over feature columns."""

    text: str
    features: frozenset[str]
    slots: Levels
    evaluate: Evaluator
    symmetric: bool = False
    """See :attr:`Expr.symmetric`."""

    @property
    def faces(self) -> frozenset[str]:
        """The card slots whose face (point value or rank) it reads; any other slot it reads, it
        reads by suit or colour alone (a comparison of one slot with literals reads the features it
        names: ``player_card1_rank == 9`` reads the face)."""
        return frozenset(CARD_FEATURES[name][0] for name in self.features if name in CARD_FEATURES and CARD_FEATURES[name][1] in ("int", "rank"))

    def requirements(self) -> tuple[bool, Levels]:
        """Whether it needs the whole coup (a coup feature, a third card, which exists only when the
        coup draws it, a count of the cards dealt, or nothing at all), and the card slots it reads
        with their granularity (:data:`~exact_odds.features.COUNTED` for counts)."""
        coup_feature = any(name in COUP_FEATURES for name in self.features)
        needs_coup = coup_feature or any(slot in THIRD_CARDS or slot.startswith(COUNTED) for slot in self.slots) or not self.slots
        return needs_coup, dict(self.slots)

    def __call__(self, columns: Columns) -> Array:
        rows = len(next(iter(columns.values())))
        result: Array = np.broadcast_to(self.evaluate(columns), (rows,))
        return result


def literal_code(kind: str, feature: str, text: str) -> int:
    """The integer code of a literal compared with a feature of ``kind``."""
    lowered = text.lower()
    if kind == "winner" and lowered in OUTCOMES:
        return OUTCOMES.index(lowered)
    if kind == "rank":
        try:
            return rank_index(text)
        except InputError:
            pass
    if kind == "suit" and text.upper() in SUITS:
        return SUITS.index(text.upper())
    if kind == "color" and lowered in COLORS:
        return COLORS.index(lowered)
    if kind == "bool" and lowered in ("true", "false"):
        return int(lowered == "true")
    if kind == "int" and re.fullmatch(r"-?[0-9]{1,18}", text):
        return int(text)
    expected = {"winner": ", ".join(OUTCOMES), "rank": " ".join(RANKS), "suit": " ".join(SUITS), "color": ", ".join(COLORS),
                "bool": "true, false", "int": "an integer"}[kind]
    raise InputError(f"{shown(text)} is not a value of {feature} (expected {expected})")


def _constant(value: np.generic) -> Evaluator:
    """A number or truth value, the same for every row."""
    return lambda columns: value


def _slot_column(slot: str, attribute: str, level: Granularity) -> Evaluator:
    """A card slot's attribute, read from a table whose slot is tracked finely enough."""
    name = f"{slot}_{attribute}"

    def read(columns: Columns) -> Array:
        held = columns.levels.get(slot)
        if held is None or not held.covers(level):
            raise MissingDetail(slot, attribute)
        return columns[name]

    return read


def _tabulated(slot: str, truth: Array, absent: bool = False) -> tuple[Evaluator, Granularity]:
    """A test of one card slot given by its truth over the 52 cards, read through the slot's
    representative card; ``absent`` where the slot holds no card (true for !=, else false)."""
    level = coarsest_granularity(truth)
    table = np.append(truth, absent)
    name = f"{slot}_card"

    def test(columns: Columns) -> Array:
        held = columns.levels.get(slot)
        if held is None or not held.covers(level):
            raise MissingDetail(slot, "card")
        looked_up: Array = table[columns[name]]
        return looked_up

    return test, level


def _both_dealt(first: Expr, second: Expr) -> Evaluator | None:
    """Where both hold a card in every third-card slot they read (None: they read none)."""
    one, two = first.dealt, second.dealt
    if one is None or two is None:
        return one or two
    return lambda columns: np.logical_and(one(columns), two(columns))


def _where_dealt(test: Evaluator, dealt: Evaluator | None, operator: str) -> Evaluator:
    """A comparison that reads third-card slots: where one holds no card, false (true for !=)."""
    if dealt is None:
        return test
    if operator == "!=":
        return lambda columns: np.logical_or(test(columns), np.logical_not(dealt(columns)))
    return lambda columns: np.logical_and(test(columns), dealt(columns))


class MissingDetail(InputError):
    """A condition reads more of a card than the table (or the cards given) shows."""

    def __init__(self, slot: str, attribute: str):
        super().__init__(f"the condition reads {slot}'s {attribute}, which the cards given do not show (give suits, e.g. 9h)")


class _Parser:
    def __init__(self, text: str, card_context: bool = False):
        if len(text) > MAX_LENGTH:
            raise InputError(f"condition of {len(text):,} characters: at most {MAX_LENGTH:,}")
        self.text = text
        self.card_context = card_context
        self.tokens: list[str] = []
        position = 0
        while position < len(text.rstrip()):
            match = TOKEN.match(text, position)
            if not match:
                raise self.error(f"unexpected {shown(text[position:].strip()[:20])}")
            self.tokens.append(match.group(1) or match.group(2))
            position = match.end()
        self.index = 0
        self.depth = 0

    def error(self, message: str) -> InputError:
        return InputError(f"{message} in condition {shown(self.text, 80)}")

    def unknown(self, word: str) -> InputError:
        context = " (inside count(...) the card is card_value, card_rank, card_suit, card_color)" if self.card_context else ""
        return self.error(f"unknown feature {shown(word)}{context}")

    def peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def peek_word(self) -> str:
        return (self.peek() or "").lower()

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token.lower() != expected):
            found = "the end" if token is None else shown(token)
            raise self.error(f"expected {expected or 'more'} but found {found}")
        self.index += 1
        return token

    def parse(self) -> Expr:
        if not self.tokens:
            raise InputError("empty condition")
        expression = self.disjunction()
        if self.peek() is not None:
            raise self.error(f"unexpected {shown(self.peek())}")
        return self.boolean(expression)

    def boolean(self, expression: Expr) -> Expr:
        if expression.kind == "literal" and expression.text.lower() in ("true", "false"):
            value = expression.text.lower() == "true"
            return Expr("bool", lambda columns: np.bool_(value), symmetric=True)
        if expression.kind == "literal":
            raise self.unknown(expression.text)
        if expression.kind != "bool":
            name = expression.text or "this expression"
            raise self.error(f"{name} is not true/false; compare it with a value")
        return expression

    def disjunction(self) -> Expr:
        return self.joined("or", self.conjunction, np.logical_or)

    def conjunction(self) -> Expr:
        return self.joined("and", self.negation, np.logical_and)

    def joined(self, word: str, part: Callable[[], Expr], join: Callable[..., Array]) -> Expr:
        parts = [part()]
        while self.peek_word() == word:
            self.take()
            parts.append(part())
        if len(parts) == 1:
            return parts[0]
        booleans = [self.boolean(expression) for expression in parts]
        evaluators = [expression.evaluate for expression in booleans if expression.evaluate]

        def joined(columns: Columns) -> Values:
            result = evaluators[0](columns)
            for evaluate in evaluators[1:]:
                result = join(result, evaluate(columns))
            return result

        return Expr("bool", joined,
                    features=frozenset().union(*(expression.features for expression in booleans)),
                    slots=merge_levels(*(expression.slots for expression in booleans)),
                    symmetric=all(expression.symmetric for expression in booleans))

    def negation(self) -> Expr:
        negations = 0
        while self.peek_word() == "not":
            self.take()
            negations += 1
        expression = self.comparison()
        if not negations:
            return expression
        inner = self.boolean(expression)
        evaluate = inner.evaluate
        assert evaluate is not None
        if negations % 2 == 0:
            return inner
        return Expr("bool", lambda columns: np.logical_not(evaluate(columns)), features=inner.features, slots=inner.slots,
                    symmetric=inner.symmetric)

    def comparison(self) -> Expr:
        left = self.sum()
        operator = self.peek_word()
        if operator not in COMPARE and operator != "in":
            return left
        self.take()
        if operator == "in":
            self.take("[")
            items = [self.item()]
            while self.peek() == ",":
                self.take()
                items.append(self.item())
            self.take("]")
            return self.compare_literals(left, "in", items)
        right = self.sum()
        if right.kind == "literal" and left.kind != "literal":
            return self.compare_literals(left, operator, [right.text])
        if left.kind == "literal" and right.kind != "literal":
            flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(operator, operator)
            return self.compare_literals(right, flipped, [left.text])
        if left.kind == "literal":
            raise self.unknown(right.text if re.fullmatch(r"[0-9]+|true|false", left.text.lower()) else left.text)
        if left.kind != right.kind:
            raise self.error(f"cannot compare {left.text or left.kind} ({left.kind}) with {right.text or right.kind} ({right.kind})")
        if operator in ORDERINGS and left.kind != "int":
            raise self.error(f"{left.text or left.kind} has no order: use == or != (or in [...])")
        function, first, second = COMPARE[operator], left.evaluate, right.evaluate
        assert first is not None and second is not None
        alike = left.card is not None and right.card is not None and operator in ("==", "!=") and \
            left.text[len(SLOTS[left.card]) :] == right.text[len(SLOTS[right.card]) :]
        return Expr("bool", _where_dealt(lambda columns: function(first(columns), second(columns)), _both_dealt(left, right), operator),
                    features=left.features | right.features, slots=merge_levels(left.slots, right.slots), symmetric=alike)

    def item(self) -> str:
        """One value of a list: a word or a number, which may be negative (-1: a hand that stood)."""
        token = self.take()
        return "-" + self.take() if token == "-" else token

    def compare_literals(self, feature: Expr, operator: str, items: list[str]) -> Expr:
        if feature.kind == "literal" or (feature.kind == "bool" and not feature.features):
            raise self.error(f"{shown(feature.text or 'this expression')} is not a feature to compare")
        if operator in ORDERINGS and feature.kind != "int":
            raise self.error(f"{feature.text} has no order: use == or != (or in [...])")
        try:
            codes = [literal_code(feature.kind, feature.text, item) for item in items]
        except InputError as error:
            raise self.error(str(error)) from None
        function = COMPARE.get(operator)

        def compare(values: Values) -> Values:
            if operator == "in":
                result: Array = np.isin(values, codes)
                return result
            assert function is not None
            return function(values, codes[0])

        evaluate = feature.evaluate
        assert evaluate is not None
        if feature.card is not None and not self.card_context:
            slot = SLOTS[feature.card]
            attribute = feature.text[len(slot) + 1 :]
            truth = np.asarray(compare(DECK[f"card_{attribute}"]))
            test, level = _tabulated(slot, truth, operator == "!=")
            return Expr("bool", test, features=feature.features, slots={slot: level}, symmetric=bool(truth.all() or not truth.any()))
        return Expr("bool", _where_dealt(lambda columns: compare(evaluate(columns)), feature.dealt, operator), features=feature.features,
                    slots=feature.slots)

    def sum(self) -> Expr:
        expression = self.product()
        while self.peek() in ("+", "-"):
            operator = self.take()
            expression = self.arithmetic(expression, operator, self.product())
        return expression

    def product(self) -> Expr:
        expression = self.unary()
        while self.peek() in ("*", "%"):
            operator = self.take()
            expression = self.arithmetic(expression, operator, self.unary())
        return expression

    def unary(self) -> Expr:
        if self.peek() == "-":
            self.take()
            return self.arithmetic(Expr("literal", text="0"), "-", self.unary_depth())
        return self.atom()

    def unary_depth(self) -> Expr:
        self.enter()
        try:
            return self.unary()
        finally:
            self.depth -= 1

    def arithmetic(self, left: Expr, operator: str, right: Expr) -> Expr:
        operands = []
        for operand in (left, right):
            if operand.kind == "literal":
                if not re.fullmatch(r"[0-9]+", operand.text):
                    raise self.unknown(operand.text)
                if len(operand.text) > 18:
                    raise self.error(f"{shown(operand.text)} is too large a number (at most 18 digits)")
                number = int(operand.text)
                operands.append(Expr("int", _constant(np.int64(number)), text=operand.text, largest=number))
            elif operand.kind != "int":
                raise self.error(f"{operand.text or operand.kind} ({operand.kind}) is not a number")
            else:
                operands.append(operand)
        first, second = operands
        if operator == "%" and (right.kind != "literal" or int(right.text) == 0):
            raise self.error("% takes a positive whole number on its right, e.g. % 10")
        largest = {"+": first.largest + second.largest, "-": first.largest + second.largest, "*": first.largest * second.largest,
                   "%": second.largest - 1}[operator]
        if largest > ARITHMETIC_LARGEST:
            raise self.error(f"{left.text} {operator} {right.text} may reach {largest:.3g}, beyond exact whole-number arithmetic (at most 2^62)")
        functions = {"+": np.add, "-": np.subtract, "*": np.multiply, "%": np.mod}
        function, one, two = functions[operator], first.evaluate, second.evaluate
        assert one is not None and two is not None
        return Expr("int", lambda columns: function(np.asarray(one(columns), dtype=np.int64), np.asarray(two(columns), dtype=np.int64)), text=f"{left.text} {operator} {right.text}",
                    features=first.features | second.features, slots=merge_levels(first.slots, second.slots), largest=largest,
                    dealt=_both_dealt(first, second))

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"nesting deeper than {MAX_DEPTH}")

    def atom(self) -> Expr:
        token = self.take()
        if token == "(":
            self.enter()
            inner = self.disjunction()
            self.take(")")
            self.depth -= 1
            return inner
        word = token.lower()
        if word in AGGREGATES and self.peek() == "(":
            return self.aggregate(word)
        if re.fullmatch(r"[0-9]+", token) or word in ("true", "false") or not re.fullmatch(r"[a-z_][a-z0-9_]*", word):
            return Expr("literal", text=token)
        return self.feature(token)

    def feature(self, token: str) -> Expr:
        name = token.lower()
        if self.card_context:
            if name in CARD_WORDS:
                kind, _ = CARD_WORDS[name]
                return Expr(kind, lambda columns: columns[name], text=name)
            if name in COUP_FEATURES or name in CARD_FEATURES or name in AGGREGATES:
                raise self.error(f"inside count(...) only the card is read (card_value, card_rank, card_suit, card_color), not {name}")
            return Expr("literal", text=token)
        if name in COUP_FEATURES:
            kind = COUP_FEATURES[name]
            read = (lambda columns: columns[name] != 0) if kind == "bool" else (lambda columns: columns[name])
            return Expr(kind, read, text=name, features=frozenset({name}))
        if name in CARD_FEATURES:
            slot, kind, level = CARD_FEATURES[name]
            read = _slot_column(slot, name[len(slot) + 1 :], level)
            dealt = (lambda columns: np.asarray(read(columns)) >= 0) if slot in THIRD_CARDS else None  # -1: no card dealt
            return Expr(kind, read, text=name, features=frozenset({name}), slots={slot: level}, card=SLOTS.index(slot), dealt=dealt)
        if name in CARD_WORDS:
            raise self.error(f"{name} is the card inside count(...), player_count(...) or banker_count(...)")
        return Expr("literal", text=token)

    def aggregate(self, word: str) -> Expr:
        if self.card_context:
            raise self.error(f"{word}(...) cannot be nested")
        self.take("(")
        self.enter()
        start = self.index
        depth = 1
        while depth:
            token = self.take()
            depth += {"(": 1, ")": -1}.get(token, 0)
        self.depth -= 1
        inner = " ".join(self.tokens[start : self.index - 1])
        predicate = _Parser(inner, card_context=True).parse()
        assert predicate.evaluate is not None
        truth = np.broadcast_to(predicate.evaluate(DECK), (52,)).astype(bool)
        key = counted_key(truth)
        sides = [side for side in SIDES if word in ("count", f"{side}_count")]
        tests = [_tabulated(slot, truth)[0] for slot in AGGREGATES[word]]

        def count(columns: Columns) -> Values:
            if key in columns.levels:
                return sum((columns[f"{key}:{side}"] for side in sides), np.int64(0))
            return sum((test(columns).astype(np.int64) for test in tests), np.int64(0))

        return Expr("int", count, text=f"{word}({inner})", features=frozenset({word}), slots={key: coarsest_granularity(truth)})


def parse_condition(text: str) -> Condition:
    """Parse a pay-table condition (see the module docstring); errors name the offending token."""
    expression = _Parser(text).parse()
    assert expression.evaluate is not None
    return Condition(text, expression.features - set(AGGREGATES), expression.slots, expression.evaluate, expression.symmetric)
