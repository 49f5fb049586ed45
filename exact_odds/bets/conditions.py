"""The condition language of pay tables, parsed (never evaluated as Python) into a :class:`Condition`.

A condition compares features of a coup (``winner``, totals, cards, naturals, the card slots'
value, rank, suit and colour), counts the cards dealt that satisfy a predicate (``count``,
``player_count``, ``banker_count``), does integer arithmetic (``+ - * %``) and joins with ``and``,
``or``, ``not`` and parentheses. Orderings (``< <= > >=``) apply to numbers only.

A parsed condition is a plain tree of immutable values (a :data:`Node`): compared by value,
picklable, its ``repr`` the Python that builds it and its ``str`` the condition again, in one
canonical spelling. It is compiled into an evaluator over feature columns in a second step, once,
when first evaluated. Each comparison of one card slot with literals is tabulated over the 52
cards, so a condition reads each slot at the coarsest granularity that decides it
(``player_card1_rank == 9`` needs the point value only; ``player_card1_rank == K`` the rank;
``player_card1_suit in [H, D]`` the colour).

>>> condition = parse_condition("winner == banker and banker_cards == 3 and banker_total == 7")
>>> sorted(condition.features)
['banker_cards', 'banker_total', 'winner']
>>> parse_condition("Winner==Banker").tree
Literals(operator='==', operand=Feature(name='winner'), codes=(0,))
>>> str(parse_condition("not (9 <= player_total or player_card1_rank in [k, 10])").tree)
'not (player_total >= 9 or player_card1_rank in [K, T])'
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
from functools import cached_property
from typing import cast

import numpy as np

from ..core.cards import POINT_VALUES, RANKS, SUITS, rank_index
from ..errors import InputError
from ..core.features import (
    CARD_ATTRIBUTES,
    CARD_FEATURES,
    COLORS,
    LATE_POSITIONS,
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
    card_attribute,
    coarsest_granularity,
    counted_key,
    merge_levels,
)
from ..core.numbers import shown
from ..core.values import Value

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
ARITHMETIC: dict[str, Callable[[Array, Array], Values]] = {"+": np.add, "-": np.subtract, "*": np.multiply, "%": np.mod}
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


class _Spelled(Value):
    """A node's ``str``: the condition it is, in canonical spelling (parsed again, the same tree)."""

    __slots__ = ()

    def __str__(self) -> str:
        return _spelled(cast(Node, self))


class Feature(_Spelled):
    """A feature of the coup (``winner``, ``banker_total``) or of a card slot (``player_card1_rank``)."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._set(name)


class CardAttribute(_Spelled):
    """Inside an aggregate, the card counted: ``card_value``, ``card_rank``, ``card_suit`` or ``card_color``."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._set(name)


class Number(_Spelled):
    """A whole number from 0 in arithmetic (``-`` before a number is arithmetic: 0 minus it)."""

    __slots__ = ("value",)
    value: int

    def __init__(self, value: int) -> None:
        self._set(value)


class Truth(_Spelled):
    """``true`` or ``false``."""

    __slots__ = ("value",)
    value: bool

    def __init__(self, value: bool) -> None:
        self._set(value)


class Arithmetic(_Spelled):
    """Numbers joined left to right by operators of one precedence: ``+`` and ``-``, or ``*`` and ``%``."""

    __slots__ = ("first", "steps")
    first: "Node"
    steps: tuple[tuple[str, "Node"], ...]

    def __init__(self, first: "Node", steps: tuple[tuple[str, "Node"], ...]) -> None:
        self._set(first, steps)


class Count(_Spelled):
    """An aggregate (``count``, ``player_count``, ``banker_count``) of the cards its predicate holds for."""

    __slots__ = ("aggregate", "predicate")
    aggregate: str
    predicate: "Node"

    def __init__(self, aggregate: str, predicate: "Node") -> None:
        self._set(aggregate, predicate)


class Comparison(_Spelled):
    """Two expressions of one kind compared (``player_total > banker_total``)."""

    __slots__ = ("operator", "left", "right")
    operator: str
    left: "Node"
    right: "Node"

    def __init__(self, operator: str, left: "Node", right: "Node") -> None:
        self._set(operator, left, right)


class Literals(_Spelled):
    """An expression compared with literal values, by their codes (see :func:`literal_code`): with
    ``== != < <= > >=`` one code, with ``in`` a list."""

    __slots__ = ("operator", "operand", "codes")
    operator: str
    operand: "Node"
    codes: tuple[int, ...]

    def __init__(self, operator: str, operand: "Node", codes: tuple[int, ...]) -> None:
        self._set(operator, operand, codes)


class Not(_Spelled):
    __slots__ = ("operand",)
    operand: "Node"

    def __init__(self, operand: "Node") -> None:
        self._set(operand)


class And(_Spelled):
    __slots__ = ("parts",)
    parts: tuple["Node", ...]

    def __init__(self, parts: tuple["Node", ...]) -> None:
        self._set(parts)


class Or(_Spelled):
    __slots__ = ("parts",)
    parts: tuple["Node", ...]

    def __init__(self, parts: tuple["Node", ...]) -> None:
        self._set(parts)


Node = Feature | CardAttribute | Number | Truth | Arithmetic | Count | Comparison | Literals | Not | And | Or
"""A parsed condition, or a part of one."""


def _children(node: Node) -> tuple[Node, ...]:
    """The nodes directly under ``node`` (an aggregate's predicate, which reads the card counted, apart)."""
    if isinstance(node, Arithmetic):
        return (node.first, *(operand for _, operand in node.steps))
    if isinstance(node, Comparison):
        return node.left, node.right
    if isinstance(node, (Literals, Not)):
        return (node.operand,)
    if isinstance(node, (And, Or)):
        return node.parts
    return ()


def kind_of(node: Node) -> str:
    """What a node gives: bool, int, or the values of a feature (winner, rank, suit, color)."""
    if isinstance(node, Feature):
        return COUP_FEATURES[node.name] if node.name in COUP_FEATURES else CARD_FEATURES[node.name][1]
    if isinstance(node, CardAttribute):
        return CARD_WORDS[node.name][0]
    return "int" if isinstance(node, (Number, Arithmetic, Count)) else "bool"


def _card_slot(node: Node) -> str | None:
    """For a card slot's feature, the slot (a comparison of it with literals is tabulated over the 52 cards)."""
    return CARD_FEATURES[node.name][0] if isinstance(node, Feature) and node.name in CARD_FEATURES else None


def features_of(node: Node) -> frozenset[str]:
    """The features a node reads, and the aggregates it counts with."""
    if isinstance(node, Feature):
        return frozenset({node.name})
    if isinstance(node, Count):
        return frozenset({node.aggregate})
    return frozenset().union(*(features_of(child) for child in _children(node)))


def _deck_truth(node: Literals) -> Array:
    """A comparison of a card slot's feature with literals, over the 52 cards."""
    assert isinstance(node.operand, Feature)
    truth: Array = np.asarray(_compared(node)(DECK[f"card_{card_attribute(node.operand.name)}"]))
    return truth


def _count_truth(node: Count) -> Array:
    """An aggregate's predicate over the 52 cards."""
    truth: Array = np.broadcast_to(_compiled(node.predicate)(DECK), (52,)).astype(bool)
    return truth


def card_readings(node: Node) -> list[Array]:
    """Every way a node reads the cards, each as a labelling of the 52 cards: a comparison of one
    slot with literals by its truth, any other use of a slot's attribute by that attribute, a count
    by its predicate. Cards labelled alike by all of them are alike to the node, in every slot."""
    if isinstance(node, Feature) and _card_slot(node) is not None:
        return [np.asarray(DECK[f"card_{card_attribute(node.name)}"])]
    if isinstance(node, Literals) and _card_slot(node.operand) is not None:
        return [_deck_truth(node)]
    if isinstance(node, Count):
        return [_count_truth(node)]
    return [reading for child in _children(node) for reading in card_readings(child)]


def slots_of(node: Node) -> Levels:
    """The card slots a node reads (and the cards it counts, as :data:`~exact_odds.core.features.COUNTED`
    pseudo-slots), each at the coarsest granularity that decides it."""
    if isinstance(node, Feature):
        return {CARD_FEATURES[node.name][0]: CARD_FEATURES[node.name][2]} if node.name in CARD_FEATURES else {}
    if isinstance(node, Literals) and (slot := _card_slot(node.operand)) is not None:
        return {slot: coarsest_granularity(_deck_truth(node))}
    if isinstance(node, Count):
        truth = _count_truth(node)
        return {counted_key(truth): coarsest_granularity(truth)}
    return merge_levels(*(slots_of(child) for child in _children(node)))


def is_symmetric(node: Node) -> bool:
    """Whether a node is built from constants and ==, != between the same attribute of two card
    slots only: then it depends on the cards only through which of them are alike (see
    :mod:`exact_odds.engine.patterns`)."""
    if isinstance(node, Truth):
        return True
    if isinstance(node, (And, Or)):
        return all(is_symmetric(part) for part in node.parts)
    if isinstance(node, Not):
        return is_symmetric(node.operand)
    if isinstance(node, Comparison):
        left, right = _card_slot(node.left), _card_slot(node.right)
        if left is None or right is None or node.operator not in ("==", "!="):
            return False
        return card_attribute(str(node.left)) == card_attribute(str(node.right))  # the same attribute of two slots
    if isinstance(node, Literals) and _card_slot(node.operand) is not None:
        truth = _deck_truth(node)
        return bool(truth.all() or not truth.any())
    return False


PRECEDENCE: dict[type, int] = {Or: 1, And: 2, Not: 3, Comparison: 4, Literals: 4}
"""How tightly each construct binds (arithmetic: 5 for ``+ -``, 6 for ``* %``; a single value: 7)."""


def _precedence(node: Node) -> int:
    if isinstance(node, Arithmetic):
        return 5 if node.steps[0][0] in "+-" else 6
    return PRECEDENCE.get(type(node), 7)


def literal_text(kind: str, code: int) -> str:
    """The canonical spelling of a literal's code (the inverse of :func:`literal_code`)."""
    names = {"winner": OUTCOMES, "rank": RANKS, "suit": SUITS, "color": COLORS, "bool": ("false", "true")}.get(kind)
    return str(code) if names is None else names[code]


def _spelled(node: Node, within: int = 0) -> str:
    """A node as condition text; in parentheses where it binds no tighter than ``within``."""
    own = _precedence(node)
    if isinstance(node, (Feature, CardAttribute)):
        text = node.name
    elif isinstance(node, Number):
        text = str(node.value)
    elif isinstance(node, Truth):
        text = "true" if node.value else "false"
    elif isinstance(node, Arithmetic):
        text = _spelled(node.first, own - 1) + "".join(f" {operator} {_spelled(operand, own)}" for operator, operand in node.steps)
    elif isinstance(node, Count):
        text = f"{node.aggregate}({_spelled(node.predicate)})"
    elif isinstance(node, Comparison):  # a bare true compared would be a literal (Literals): not not true is the constant
        left, right = (f"(not not {operand})" if isinstance(operand, Truth) else _spelled(operand, own) for operand in (node.left, node.right))
        text = f"{left} {node.operator} {right}"
    elif isinstance(node, Literals):
        values = [literal_text(kind_of(node.operand), code) for code in node.codes]
        listed = f"[{', '.join(values)}]" if node.operator == "in" else values[0]
        text = f"{_spelled(node.operand, own)} {node.operator} {listed}"
    elif isinstance(node, Not):
        text = f"not {_spelled(node.operand, own)}"
    else:
        assert isinstance(node, (And, Or))
        text = f" {'and' if isinstance(node, And) else 'or'} ".join(_spelled(part, own) for part in node.parts)
    return f"({text})" if own <= within else text


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


def _tabulated(slot: str, truth: Array, absent: bool = False) -> Evaluator:
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

    return test


def _both(one: Evaluator | None, two: Evaluator | None) -> Evaluator | None:
    """Where both hold (None: no test)."""
    if one is None or two is None:
        return one or two
    return lambda columns: np.logical_and(one(columns), two(columns))


def _dealt(node: Node) -> Evaluator | None:
    """For a number that reads third-card slots: where every slot it reads holds a card. Elsewhere it
    has no value, and a comparison of it is false, except != (true). None: it reads none."""
    if isinstance(node, Feature) and node.name in CARD_FEATURES and CARD_FEATURES[node.name][0] in THIRD_CARDS:
        read = _compiled(node)
        return lambda columns: np.asarray(read(columns)) >= 0  # -1: no card dealt
    if isinstance(node, Arithmetic):
        dealt = None
        for child in _children(node):
            dealt = _both(dealt, _dealt(child))
        return dealt
    return None


def _where_dealt(test: Evaluator, dealt: Evaluator | None, operator: str) -> Evaluator:
    """A comparison that reads third-card slots: where one holds no card, false (true for !=)."""
    if dealt is None:
        return test
    if operator == "!=":
        return lambda columns: np.logical_or(test(columns), np.logical_not(dealt(columns)))
    return lambda columns: np.logical_and(test(columns), dealt(columns))


def _compared(node: Literals) -> Callable[[Values], Values]:
    """A comparison with literals, applied to values."""
    operator, codes = node.operator, list(node.codes)
    function = COMPARE.get(operator)

    def compare(values: Values) -> Values:
        if operator == "in":
            result: Array = np.isin(values, codes)
            return result
        assert function is not None
        return function(values, codes[0])

    return compare


def _compiled(node: Node) -> Evaluator:
    """The evaluator of a node over feature columns."""
    if isinstance(node, Feature):
        name = node.name
        if name in COUP_FEATURES:
            return (lambda columns: columns[name] != 0) if COUP_FEATURES[name] == "bool" else (lambda columns: columns[name])
        slot, _, level = CARD_FEATURES[name]
        return _slot_column(slot, card_attribute(name), level)
    if isinstance(node, CardAttribute):
        word = node.name
        return lambda columns: columns[word]
    if isinstance(node, Number):
        return _constant(np.int64(node.value))
    if isinstance(node, Truth):
        return _constant(np.bool_(node.value))
    if isinstance(node, Arithmetic):
        first = _compiled(node.first)
        steps = [(ARITHMETIC[operator], _compiled(operand)) for operator, operand in node.steps]

        def arithmetic(columns: Columns) -> Values:
            result = first(columns)
            for function, operand in steps:
                result = function(np.asarray(result, dtype=np.int64), np.asarray(operand(columns), dtype=np.int64))
            return result

        return arithmetic
    if isinstance(node, Count):
        return _counted(node)
    if isinstance(node, Comparison):
        function, left, right = COMPARE[node.operator], _compiled(node.left), _compiled(node.right)
        return _where_dealt(lambda columns: function(left(columns), right(columns)), _both(_dealt(node.left), _dealt(node.right)),
                            node.operator)
    if isinstance(node, Literals):
        tabulated = _card_slot(node.operand)
        if tabulated is not None:
            return _tabulated(tabulated, _deck_truth(node), node.operator == "!=")
        operand, compare = _compiled(node.operand), _compared(node)
        return _where_dealt(lambda columns: compare(operand(columns)), _dealt(node.operand), node.operator)
    if isinstance(node, Not):
        inner = _compiled(node.operand)
        return lambda columns: np.logical_not(inner(columns))
    join = np.logical_and if isinstance(node, And) else np.logical_or
    parts = [_compiled(part) for part in node.parts]

    def joined(columns: Columns) -> Values:
        result = parts[0](columns)
        for evaluate in parts[1:]:
            result = join(result, evaluate(columns))
        return result

    return joined


def _counted(node: Count) -> Evaluator:
    """An aggregate: read off the table's counted columns where it keeps them, else summed over the slots."""
    truth = _count_truth(node)
    key = counted_key(truth)
    sides = [side for side in SIDES if node.aggregate in ("count", f"{side}_count")]
    tests = [_tabulated(slot, truth) for slot in AGGREGATES[node.aggregate]]

    def count(columns: Columns) -> Values:
        if key in columns.levels:
            return sum((columns[f"{key}:{side}"] for side in sides), np.int64(0))
        return sum((test(columns).astype(np.int64) for test in tests), np.int64(0))

    return count


class Condition(Value):
    """A parsed condition: its text and its tree; what it reads, derived from the tree (the features,
    the card slots with their granularity), and its evaluator over feature columns, compiled from
    the tree when first needed (and never pickled: a copy compiles its own)."""

    __slots__ = ("text", "tree", "__dict__")
    text: str
    tree: Node

    def __init__(self, text: str, tree: Node) -> None:
        self._set(text, tree)

    def __hash__(self) -> int:
        return hash(self.text)

    @cached_property
    def features(self) -> frozenset[str]:
        """The features it reads (a count reads the cards, see :attr:`slots`)."""
        return features_of(self.tree) - set(AGGREGATES)

    @cached_property
    def slots(self) -> Levels:
        """The card slots (and counted pseudo-slots) it reads, with their granularity."""
        return slots_of(self.tree)

    @cached_property
    def symmetric(self) -> bool:
        """See :func:`is_symmetric`."""
        return is_symmetric(self.tree)

    @cached_property
    def evaluate(self) -> Evaluator:
        """The compiled tree: over feature columns, a column of truth values (or one for every row)."""
        return _compiled(self.tree)

    @property
    def faces(self) -> frozenset[str]:
        """The card slots whose face (point value or rank) it reads; any other slot it reads, it
        reads by suit or colour alone (a comparison of one slot with literals reads the features it
        names: ``player_card1_rank == 9`` reads the face)."""
        return frozenset(CARD_FEATURES[name][0] for name in self.features if name in CARD_FEATURES and CARD_FEATURES[name][1] in ("int", "rank"))

    def requirements(self) -> tuple[bool, Levels]:
        """Whether it needs the whole coup (a coup feature, a third card, which exists only when the
        coup draws it, the fifth or sixth card of the sequence, a count of the cards dealt, or
        nothing at all), and the card slots it reads
        with their granularity (:data:`~exact_odds.core.features.COUNTED` for counts)."""
        coup_feature = any(name in COUP_FEATURES for name in self.features)
        needs_coup = coup_feature or any(slot in THIRD_CARDS or slot in LATE_POSITIONS or slot.startswith(COUNTED) for slot in self.slots) or not self.slots
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


class MissingDetail(InputError):
    """A condition reads more of a card than the table (or the cards given) shows."""

    def __init__(self, slot: str, attribute: str):
        if slot in LATE_POSITIONS:
            super().__init__(f"the condition reads {slot}'s {attribute}, a card this coup did not deal")
        else:
            super().__init__(f"the condition reads {slot}'s {attribute}, which the cards given do not show (give suits, e.g. 9h)")


class Expr(Value):
    """A part of a condition as it is parsed: its node (none yet for a bare word or number, the
    kind ``literal``), its kind, how errors name it, and for a number a bound on its magnitude (a
    feature's is at most 9), so that arithmetic that could leave int64 is refused rather than wrapped."""

    __slots__ = ("kind", "node", "text", "largest")
    kind: str
    node: Node | None
    text: str
    largest: int

    def __init__(self, kind: str, node: Node | None = None, text: str = "", largest: int = FEATURE_LARGEST) -> None:
        self._set(kind, node, text, largest)

    @property
    def tree(self) -> Node:
        assert self.node is not None
        return self.node


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
            return Expr("bool", Truth(expression.text.lower() == "true"))
        if expression.kind == "literal":
            raise self.unknown(expression.text)
        if expression.kind != "bool":
            name = expression.text or "this expression"
            raise self.error(f"{name} is not true/false; compare it with a value")
        return expression

    def disjunction(self) -> Expr:
        return self.joined("or", self.conjunction)

    def conjunction(self) -> Expr:
        return self.joined("and", self.negation)

    def joined(self, word: str, part: Callable[[], Expr]) -> Expr:
        parts = [part()]
        while self.peek_word() == word:
            self.take()
            parts.append(part())
        if len(parts) == 1:
            return parts[0]
        junction = And if word == "and" else Or
        nodes: list[Node] = []
        for expression in parts:
            node = self.boolean(expression).tree
            nodes.extend(node.parts if isinstance(node, junction) else (node,))  # (a or b) or c is a or b or c
        return Expr("bool", junction(tuple(nodes)))

    def negation(self) -> Expr:
        negations = 0
        while self.peek_word() == "not":
            self.take()
            negations += 1
        expression = self.comparison()
        if not negations:
            return expression
        inner = self.boolean(expression)
        return inner if negations % 2 == 0 else Expr("bool", Not(inner.tree))

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
        return Expr("bool", Comparison(operator, left.tree, right.tree))

    def item(self) -> str:
        """One value of a list: a word or a number, which may be negative (-1: a hand that stood)."""
        token = self.take()
        return "-" + self.take() if token == "-" else token

    def compare_literals(self, feature: Expr, operator: str, items: list[str]) -> Expr:
        if feature.kind == "literal" or (feature.kind == "bool" and not features_of(feature.tree)):
            raise self.error(f"{shown(feature.text or 'this expression')} is not a feature to compare")
        if operator in ORDERINGS and feature.kind != "int":
            raise self.error(f"{feature.text} has no order: use == or != (or in [...])")
        try:
            codes = tuple(literal_code(feature.kind, feature.text, item) for item in items)
        except InputError as error:
            raise self.error(str(error)) from None
        return Expr("bool", Literals(operator, feature.tree, codes))

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
                operands.append(Expr("int", Number(number), text=operand.text, largest=number))
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
        chain = first.tree
        step = (operator, second.tree)
        if isinstance(chain, Arithmetic) and (chain.steps[0][0] in "+-") == (operator in "+-"):  # left to right: one chain
            node = Arithmetic(chain.first, chain.steps + (step,))
        else:
            node = Arithmetic(chain, (step,))
        return Expr("int", node, text=f"{left.text} {operator} {right.text}", largest=largest)

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
                return Expr(CARD_WORDS[name][0], CardAttribute(name), text=name)
            if name in COUP_FEATURES or name in CARD_FEATURES or name in AGGREGATES:
                raise self.error(f"inside count(...) only the card is read (card_value, card_rank, card_suit, card_color), not {name}")
            return Expr("literal", text=token)
        if name in COUP_FEATURES or name in CARD_FEATURES:
            node = Feature(name)
            return Expr(kind_of(node), node, text=name)
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
        return Expr("int", Count(word, predicate.tree), text=f"{word}({inner})")


def parse_condition(text: str) -> Condition:
    """Parse a pay-table condition (see the module docstring); errors name the offending token."""
    return Condition(text, _Parser(text).parse().tree)
