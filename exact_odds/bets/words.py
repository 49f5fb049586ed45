"""A parsed condition said in words: one plain sentence, generated from the condition's tree.

Every construct of the condition language has one phrasing; a part that joins others (``and``,
``or``, ``not``, a compound count) is put in parentheses inside another, so the sentence reads one
way only.

>>> from exact_odds.bets.conditions import parse_condition
>>> in_words(parse_condition("winner == banker and banker_cards == 3 and banker_total == 7"))
"the banker wins and the number of cards in the banker's hand is 3 and the banker's final total is 7"
>>> in_words(parse_condition("winner == tie and (count(card_color == red) == 6 or count(card_color == black) == 6)"))
'the coup is a tie and (exactly 6 of the cards dealt are red or exactly 6 of the cards dealt are black)'
>>> in_words(parse_condition("player_count(card_color == red) == player_cards and not natural"))
"all of the player's cards are red and neither hand has a natural"
>>> in_words(parse_condition("player_card1_rank == player_card2_rank and player_card3_suit != H"))
"the player's first card has the same rank as the player's second card and the player's third card, if dealt, is not a heart"
"""

from collections.abc import Mapping
from .bets import LOSE, NO_ROW, Bet
from .conditions import (And, Arithmetic, CardAttribute, Comparison, Condition, Count, Feature, Literals, Node, Not, Number,
                         Or, Truth, kind_of, literal_text)

ORDINALS = {"1": "first", "2": "second", "3": "third"}
SUBJECTS = {
    "player_total": "the player's final total",
    "banker_total": "the banker's final total",
    "player_two_card_total": "the player's two-card total",
    "banker_two_card_total": "the banker's two-card total",
    "player_third_card": "the player's third-card value",
    "banker_third_card": "the banker's third-card value",
    "player_cards": "the number of cards in the player's hand",
    "banker_cards": "the number of cards in the banker's hand",
    "total_cards": "the number of cards dealt",
    "margin": "the difference between the final totals",
}
"""The noun phrase of each numeric coup feature."""
STOOD = {"player_third_card": "the player's third-card value (-1 when the player stands on two cards)",
         "banker_third_card": "the banker's third-card value (-1 when the banker stands on two cards)"}
"""A third card's value where a comparison holds for a hand that stood (its value then reads -1)."""
TRUTHS = {"player_natural": ("the player has a natural", "the player has no natural"),
          "banker_natural": ("the banker has a natural", "the banker has no natural"),
          "natural": ("either hand has a natural", "neither hand has a natural")}
"""Each true/false feature: what it says when it holds, and when it does not."""
WINS = {"banker": ("the banker wins", "the banker does not win", "a banker win"),
        "player": ("the player wins", "the player does not win", "a player win"),
        "tie": ("the coup is a tie", "the coup is not a tie", "a tie")}
RANK_WORDS = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
RELATIONS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is greater than", ">=": "is at least", "in": "is one of"}
"""How a number relates to literal values."""
BETWEEN = {"==": "is equal to", "!=": "is not equal to", "<": "is less than", "<=": "is at most", ">": "is greater than", ">=": "is at least"}
"""How two numbers relate."""
ATTRIBUTE_NOUNS = {"value": "value", "rank": "rank", "suit": "suit", "color": "colour"}
COUNTED = {"==": "exactly", "<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}
"""How many cards of a count, said before them."""
SCOPES = {"count": "the cards dealt", "player_count": "the player's cards", "banker_count": "the banker's cards"}
WHOLE = {"count": "total_cards", "player_count": "player_cards", "banker_count": "banker_cards"}
"""The feature that numbers all the cards an aggregate counts over."""
OPERATIONS = {"+": "plus", "-": "minus", "*": "times", "%": "modulo"}


def in_words(condition: Condition) -> str:
    """The condition as one plain sentence (see the module docstring)."""
    return sentence(condition.tree)


def described(bets: Mapping[str, Bet]) -> str:
    """The catalog as the ``bets`` command lists it: each bet's name, description and pay table, each
    row's condition as written and in words."""
    lines = []
    for bet in bets.values():
        lines.append(f"{bet.name}: {bet.description}")
        for row in bet.rows:
            lines += [f"    {row.pays.text:>9}  {row.event}   [{row.condition.text}]", f"               when {in_words(row.condition)}"]
        lines.append(f"    {LOSE.text:>9}  {NO_ROW}")
    return "\n".join(lines) + "\n"


def sentence(node: Node, nested: bool = False) -> str:
    """A condition's node as a sentence; a junction inside another part in parentheses."""
    if isinstance(node, (And, Or)):
        text = f" {'and' if isinstance(node, And) else 'or'} ".join(sentence(part, True) for part in node.parts)
        return f"({text})" if nested else text
    if isinstance(node, Not):
        if isinstance(node.operand, Feature) and node.operand.name in TRUTHS:
            return TRUTHS[node.operand.name][1]
        return f"it is not the case that {sentence(node.operand, True)}"
    if isinstance(node, Truth):
        return "it always holds" if node.value else "it never holds"
    if isinstance(node, Feature):
        return TRUTHS[node.name][0]
    if isinstance(node, Literals):
        return _literals(node)
    assert isinstance(node, Comparison)
    return _comparison(node)


def slot_phrase(slot: str) -> str:
    """``player_card1`` as ``the player's first card``."""
    side, number = slot.split("_card")
    return f"the {side}'s {ORDINALS[number]} card"


def _split(name: str) -> tuple[str, str] | None:
    """A card slot's feature as its slot and attribute, or None for a coup feature."""
    if "_card" in name and name.rsplit("_", 1)[0][-1:] in ORDINALS:
        slot, attribute = name.rsplit("_", 1)
        return slot, attribute
    return None


def value_words(kind: str, code: int) -> str:
    """A literal as words: a rank ``a king``, a suit ``a heart``, a colour ``red``, a number as digits."""
    text = literal_text(kind, code)
    if kind == "rank":
        word = RANK_WORDS.get(text, text)
        return f"{'an' if word in ('ace', '8') else 'a'} {word}"
    if kind == "suit":
        return f"a {SUIT_WORDS[text]}"
    return text


def plural_words(kind: str, code: int) -> str:
    """A literal as the cards that have it: ``kings``, ``8s``, ``hearts``, ``red``."""
    text = literal_text(kind, code)
    if kind == "rank":
        return f"{RANK_WORDS.get(text, text)}s"
    return f"{SUIT_WORDS[text]}s" if kind == "suit" else text


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words)


def _literals(node: Literals) -> str:
    operand, operator, kind = node.operand, node.operator, kind_of(node.operand)
    if kind == "bool":
        truths = {bool(code) != (operator == "!=") for code in node.codes} if operator != "in" else {bool(code) for code in node.codes}
        if len(truths) == 2:
            return "it always holds"
        held = sentence(operand, True)
        return held if truths == {True} else (f"it is not the case that {held}" if not isinstance(operand, Feature) else TRUTHS[operand.name][1])
    if isinstance(operand, Feature) and operand.name == "winner":
        names = [literal_text(kind, code) for code in node.codes]
        if operator == "in":
            return f"the result is one of {_listed([WINS[name][2] for name in names])}"
        return WINS[names[0]][0 if operator == "==" else 1]
    if isinstance(operand, Count):
        return _counted(operand, operator, [literal_text("int", code) for code in node.codes])
    words = [value_words(kind, code) for code in node.codes]
    split = _split(operand.name) if isinstance(operand, Feature) else None
    if split is not None and kind != "int":
        slot, _ = split
        relation = {"==": "is", "!=": "is not", "in": "is one of"}[operator]
        return f"{slot_phrase(slot)}{dealt(slot, operator)} {relation} {_listed(words)}"
    if isinstance(operand, Feature) and operand.name in STOOD and not _holds_when_stood(operator, node.codes):
        return f"{SUBJECTS[operand.name]} {RELATIONS[operator]} {_listed(words)}"  # holds for a third card only: no -1 to say
    return f"{subject(operand)}{_dealt_number(operand, operator)} {RELATIONS[operator]} {_listed(words)}"


def _holds_when_stood(operator: str, codes: tuple[int, ...]) -> bool:
    """Whether a comparison of a third card's value with literals holds when the hand stood (-1)."""
    first = codes[0]
    return {"==": first == -1, "!=": first != -1, "<": first > -1, "<=": first >= -1, ">": first < -1, ">=": first <= -1,
            "in": -1 in codes}[operator]


def dealt(slot: str, operator: str) -> str:
    """``, if dealt,`` where a third card's comparison holds when the card was not dealt (``!=``)."""
    return ", if dealt," if slot.endswith("3") and operator == "!=" else ""


def _dealt_number(node: Node, operator: str) -> str:
    """``, if dealt,`` where a number read from third-card slots is compared by ``!=``."""
    return ", if dealt," if operator == "!=" and _third_slots(node) else ""


def _third_slots(node: Node) -> bool:
    """Whether a number reads a third-card slot."""
    if isinstance(node, Feature):
        split = _split(node.name)
        return split is not None and split[0].endswith("3")
    if isinstance(node, Arithmetic):
        return _third_slots(node.first) or any(_third_slots(operand) for _, operand in node.steps)
    return False


def subject(node: Node) -> str:
    """A number (or a card slot's attribute) as a noun phrase (a third card's value with what it reads when the hand stood)."""
    if isinstance(node, Feature):
        if node.name in SUBJECTS:
            return STOOD.get(node.name, SUBJECTS[node.name])
        if node.name in TRUTHS:
            return f"whether {TRUTHS[node.name][0]}"
        if node.name == "winner":
            return "the result"
        split = _split(node.name)
        assert split is not None
        return f"the {ATTRIBUTE_NOUNS[split[1]]} of {slot_phrase(split[0])}"
    if isinstance(node, CardAttribute):
        return f"its {ATTRIBUTE_NOUNS[node.name.removeprefix('card_')]}"
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Arithmetic):
        if (value := _constant(node)) is not None and value < 0:
            return str(value)
        first = subject(node.first)
        text = f"({first})" if isinstance(node.first, Arithmetic) else first
        for operator, operand in node.steps:
            inner = subject(operand)
            text += f" {OPERATIONS[operator]} {f'({inner})' if isinstance(operand, Arithmetic) else inner}"
        return text
    if isinstance(node, Count):
        return f"the number of {SCOPES[node.aggregate]} that {_predicate(node.predicate)}"
    return f"whether {sentence(node, True)}"


def _constant(node: Node) -> int | None:
    """A negative literal (``-1`` is parsed as 0 minus 1): its value; None for anything else."""
    if isinstance(node, Arithmetic) and node.first == Number(0) and len(node.steps) == 1:
        operator, operand = node.steps[0]
        if operator == "-" and isinstance(operand, Number):
            return -operand.value
    return None


def _counted(node: Count, operator: str, numbers: list[str]) -> str:
    if operator in COUNTED:
        return f"{COUNTED[operator]} {numbers[0]} of {SCOPES[node.aggregate]} {_predicate(node.predicate)}"
    return f"{subject(node)} {RELATIONS[operator]} {_listed(numbers)}"


def _predicate(node: Node, nested: bool = False) -> str:
    """What the cards a count counts are, as a plural verb phrase (``are red``, ``are kings``)."""
    if isinstance(node, (And, Or)):
        text = f" {'and' if isinstance(node, And) else 'or'} ".join(_predicate(part, True) for part in node.parts)
        return f"({text})"
    if isinstance(node, Not):
        return f"are not cards that {_predicate(node.operand, True)}"
    if isinstance(node, Truth):
        return "are cards" if node.value else "are no cards"
    if isinstance(node, Literals) and isinstance(node.operand, CardAttribute):
        kind = kind_of(node.operand)
        if kind == "int":
            words = [str(code) for code in node.codes]
            return f"have a value that {RELATIONS[node.operator]} {_listed(words)}"
        words = [plural_words(kind, code) for code in node.codes]
        verb = {"==": "are", "!=": "are not", "in": "are one of"}[node.operator]
        return f"{verb} {_listed(words)}"
    if isinstance(node, Literals):
        return f"are cards for which {subject(node.operand)} {RELATIONS[node.operator]} {_listed([str(code) for code in node.codes])}"
    assert isinstance(node, Comparison)
    return f"are cards for which {subject(node.left)} {BETWEEN[node.operator]} {subject(node.right)}"


def _comparison(node: Comparison) -> str:
    left, right, operator = node.left, node.right, node.operator
    if isinstance(left, Count) and isinstance(right, Feature) and right.name == WHOLE[left.aggregate] and operator == "==":
        return f"all of {SCOPES[left.aggregate]} {_predicate(left.predicate)}"
    sides = [_split(side.name) if isinstance(side, Feature) else None for side in (left, right)]
    if sides[0] and sides[1] and sides[0][1] == sides[1][1] and operator in ("==", "!="):
        (one, attribute), (other, _) = sides[0], sides[1]
        noun = ATTRIBUTE_NOUNS[attribute]
        if operator == "==":
            return f"{slot_phrase(one)} has the same {noun} as {slot_phrase(other)}"
        undealt = " (or one of them is not dealt)" if one.endswith("3") or other.endswith("3") else ""
        return f"{slot_phrase(one)} has a different {noun} from {slot_phrase(other)}{undealt}"
    if isinstance(left, Feature) and left.name in STOOD and _constant(right) == -1 and operator in ("==", "!="):
        side = left.name.split("_")[0]
        return f"the {side} stands on two cards" if operator == "==" else f"the {side} draws a third card"
    kind = kind_of(left)
    relation = BETWEEN[operator] if kind == "int" else {"==": "is the same as", "!=": "is not the same as"}[operator]
    undealt = " (or a third card it reads is not dealt)" if operator == "!=" and (_third_slots(left) or _third_slots(right)) else ""
    return f"{subject(left)} {relation} {subject(right)}{undealt}"

