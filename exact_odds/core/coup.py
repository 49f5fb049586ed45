"""How a coup unfolds, written once: :func:`next_card` is the walk every engine follows.

A coup in progress is a *hand*: the point value in each of the six slots (player 1, banker 1,
player 2, banker 2, player 3, banker 3), :data:`NOT_DEALT` where nothing has happened yet and
:data:`STOOD` where a hand decided to stand. Given a hand, the walk says which slot comes next and
with what weights it is drawn or not. The plain enumerator branches on it, the physical deal
(:func:`play_coup`) and the simulation follow it card by card, and :func:`coup_sequences` takes it
on every hand at once (for the compiled tables and the simulation's dealer): both forms read the
rules and the decisions through the same two functions, :func:`ends_on_natural` and :func:`draw_weight`.
Whoever wins is :func:`winner_index`'s comparison, for one coup or many.

>>> from exact_odds.core.cards import parse_cards
>>> coup = play_coup(parse_cards("9S 5D 9H 2C"))
>>> coup.player_total, coup.banker_total, coup.winner
(8, 7, 'player')
"""

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .cards import Card
from ..errors import InputError
from .policy import Decisions, resolve
from .rules import PUNTO_BANCO
from .values import Value

if TYPE_CHECKING:
    from numpy.typing import NDArray

NOT_DEALT = -1
"""The label and value of a slot that holds no card (a third card not drawn)."""
STOOD = -2
"""The mark of a third-card slot whose hand stood, while the coup is walked. A settled coup's
features say :data:`NOT_DEALT` there, and the rules' tables ``None`` (no third card: see
:func:`player_third`)."""
OUTCOMES = ("banker", "player", "tie")
"""Encoding of the ``winner`` feature: its value is the index in this tuple."""

Hand = tuple[int, ...]
EMPTY_HAND: Hand = (NOT_DEALT,) * 6
Move = tuple[int, int, int]
"""(slot, weight of dealing it, weight of standing instead): weights out of ``decisions.scale`` for
the two third-card decisions; the first four cards are always dealt (1, 0)."""


def two_card_total(hand: Any, side: int) -> Any:
    """The two-card total of the player (side 0) or the banker (side 1): of one hand, or of hands
    as the columns of an array (a row per slot)."""
    return (hand[side] + hand[side + 2]) % 10


def player_third(hand: Hand) -> int | None:
    """The player's third card as the rules read it: its value, or None when he stood."""
    return None if hand[4] == STOOD else hand[4]


def ends_on_natural(is_natural: Any, hand: Any) -> Any:
    """Whether a natural in either hand settles the coup ``hand`` before any third card;
    ``is_natural[total]`` says whether a two-card total is one (:attr:`DrawRules.is_natural
    <exact_odds.core.rules.DrawRules.is_natural>`). Of one hand, or of hands as the columns of an
    array (a row per slot) with ``is_natural`` an array."""
    return is_natural[two_card_total(hand, 0)] | is_natural[two_card_total(hand, 1)]


def draw_weight(player: Any, banker: Any, slot: int, hand: Any) -> Any:
    """The weight, out of the decisions' scale, of dealing the third card in ``slot`` of ``hand``
    (4: the player's, by his two cards; 5: the banker's, by his two cards and the player's third
    card, column 0 when the player stood). ``player`` and ``banker`` are the weights of
    :class:`~exact_odds.core.policy.Decisions`: tuples for one hand, arrays for hands as the columns
    of an array (a row per slot)."""
    if slot == 4:
        return player[hand[0] * 10 + hand[2]]
    return banker[(hand[1] * 10 + hand[3]) * 11 + (hand[4] + 1) * (hand[4] != STOOD)]


def next_card(decisions: Decisions, hand: Hand) -> Move | None:
    """The next slot of the coup ``hand`` and its weights, or None when the coup is settled."""
    if NOT_DEALT not in hand:
        return None
    slot = hand.index(NOT_DEALT)
    if slot < 4:
        return slot, 1, 0
    if ends_on_natural(decisions.rules.is_natural, hand):
        return None
    draw: int = draw_weight(decisions.player, decisions.banker, slot, hand)
    return slot, draw, decisions.scale - draw


def coup_sequences(decisions: Decisions) -> "tuple[NDArray[Any], NDArray[Any]]":
    """Every coup over point values: :func:`next_card`'s walk taken on every hand at once, slot by
    slot, through the same :func:`ends_on_natural` and :func:`draw_weight`. The values by slot (6 x
    sequences, :data:`NOT_DEALT` where no card was dealt) and each sequence's weight: its decisions'
    weights, out of ``scale`` each, a decision the coup never reached (after a natural) counting
    ``scale``. In int64 while a product of two weights fits, else in Python integers. A test runs
    every sequence of point values through both forms and compares."""
    import numpy as np

    scale = decisions.scale
    kind: Any = np.int64 if scale * scale <= np.iinfo(np.int64).max else object
    is_natural = np.array(decisions.rules.is_natural)
    player, banker = np.array(decisions.player, dtype=kind), np.array(decisions.banker, dtype=kind)
    hands = np.full((len(EMPTY_HAND), 1), NOT_DEALT, dtype=np.int64)
    weights = np.ones(1, dtype=kind)
    settled = []
    for slot in range(len(EMPTY_HAND)):
        if slot < 4:
            draw, stand = 1, 0
        else:
            ends = ends_on_natural(is_natural, hands)
            settled.append((hands[:, ends], weights[ends] * scale ** (len(EMPTY_HAND) - slot)))
            hands, weights = hands[:, ~ends], weights[~ends]
            draw = draw_weight(player, banker, slot, hands)
            stand = scale - draw
        stood = hands.copy()
        stood[slot] = STOOD
        drawn = np.repeat(hands, 10, axis=1)
        drawn[slot] = np.tile(np.arange(10), hands.shape[1])
        hands = np.concatenate([stood, drawn], axis=1)
        weights = np.concatenate([weights * stand, np.repeat(weights * draw, 10)])
        hands, weights = hands[:, weights != 0], weights[weights != 0]
    settled.append((hands, weights))
    values = np.concatenate([laid for laid, _ in settled], axis=1)
    values[values == STOOD] = NOT_DEALT
    return values, np.concatenate([weight for _, weight in settled])


def totals(hand: Any) -> tuple[Any, Any]:
    """The player's and the banker's totals of a settled coup ``hand`` (a third card below 0 is
    none), or of hands as the columns of an array."""
    player = (hand[0] + hand[2] + hand[4] * (hand[4] >= 0)) % 10
    banker = (hand[1] + hand[3] + hand[5] * (hand[5] >= 0)) % 10
    return player, banker


def winner_index(player_total: Any, banker_total: Any) -> Any:
    """The winner as its index in :data:`OUTCOMES`: the banker (0) or the player (1), whichever
    total is higher, or a tie (2). Of two totals, or elementwise of arrays of them."""
    return (player_total > banker_total) + 2 * (player_total == banker_total)


def decisions_taken(hand: Hand) -> int:
    """How many third-card decisions the hand records (0 to 2)."""
    return (hand[4] != NOT_DEALT) + (hand[5] != NOT_DEALT)


def decisions_behind(decisions: Decisions, hand: Hand) -> int:
    """How many third-card decisions the coup in progress ``hand`` has taken (0 to 2), checked
    against the walk: a hand the rules and the policy cannot reach (a card where the hand stands, a
    stand where it draws, a slot filled out of turn) is an error."""
    walked = EMPTY_HAND
    while (move := next_card(decisions, walked)) is not None and hand[move[0]] != NOT_DEALT:
        slot, draw, stand = move
        value = hand[slot]
        if not (draw if value in range(10) else stand if value == STOOD else 0):
            raise InputError(f"not a coup that {decisions.rules.name} can deal under this policy: {hand} (slot {slot})")
        walked = walked[:slot] + (value,) + walked[slot + 1 :]
    if walked != tuple(hand):
        raise InputError(f"not a coup that {decisions.rules.name} can deal under this policy: {hand}")
    return decisions_taken(hand)


def coup_key(hand: Hand) -> tuple[int, int, int, int]:
    """A settled hand's class: the two-card totals and third-card values (-1: none), as
    :func:`~exact_odds.core.features.class_parts` reads them off a class's code."""
    return two_card_total(hand, 0), two_card_total(hand, 1), hand[4] if hand[4] >= 0 else NOT_DEALT, hand[5] if hand[5] >= 0 else NOT_DEALT


def winner_of(player_total: int, banker_total: int) -> str:
    """The winner's name (see :func:`winner_index`)."""
    return OUTCOMES[winner_index(player_total, banker_total)]


class Coup(Value):
    """A coup as far as the given cards reach; ``complete`` when it is settled."""

    __slots__ = ("player", "banker", "steps", "complete", "hand")
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    steps: tuple[str, ...]
    complete: bool
    hand: Hand
    """The walk's state: point values by slot (see the module docstring)."""

    def __init__(self, player: tuple[Card, ...], banker: tuple[Card, ...], steps: tuple[str, ...], complete: bool, hand: Hand) -> None:
        self._set(player, banker, steps, complete, hand)

    @property
    def cards_used(self) -> int:
        return len(self.player) + len(self.banker)

    @property
    def player_total(self) -> int:
        return sum(card.value for card in self.player) % 10

    @property
    def banker_total(self) -> int:
        return sum(card.value for card in self.banker) % 10

    @property
    def winner(self) -> str | None:
        return winner_of(self.player_total, self.banker_total) if self.complete else None


def play_coup(cards: Iterable[Card], decisions: Decisions | None = None) -> Coup:
    """Deal ``cards`` in shoe order as the walk says: 1st and 3rd to the player, 2nd and 4th to the
    banker, then third cards as the rules and the policy decide. Stops early (``complete=False``)
    when the cards run out. A choice the policy mixes cannot be dealt by hand: if a card follows it,
    that is an error."""
    decisions = decisions or resolve(PUNTO_BANCO)
    cards = tuple(cards)
    slots: list[Card | None] = [None] * 6
    hand = EMPTY_HAND
    steps: list[str] = []
    used = 0

    def coup(complete: bool) -> Coup:
        player = tuple(card for card in (slots[0], slots[2], slots[4]) if card is not None)
        banker = tuple(card for card in (slots[1], slots[3], slots[5]) if card is not None)
        return Coup(player, banker, tuple(steps), complete, hand)

    def deal(slot: int) -> Card:
        nonlocal hand, used
        card = cards[used]
        used += 1
        slots[slot] = card
        hand = hand[:slot] + (card.value,) + hand[slot + 1 :]
        return card

    while (move := next_card(decisions, hand)) is not None:
        slot, draw, stand = move
        if slot < 4:
            if used == len(cards):
                return coup(False)
            deal(slot)
            if slot == 3:
                steps.append(_two_cards(slots, hand))
            continue
        rule = _rule_text(decisions, hand, slot, draw)
        if draw and stand:
            if used < len(cards):
                raise InputError(f"{rule}, and the policy mixes (draws with probability {draw}/{decisions.scale}): "
                                 "give a pure choice to deal more cards")
            steps.append(rule)
            return coup(False)
        if not draw:
            steps.append(rule)
            hand = hand[:slot] + (STOOD,) + hand[slot + 1 :]
            continue
        if used == len(cards):
            steps.append(rule)
            return coup(False)
        card = deal(slot)
        shown = f" (third-card value {card.value})" if slot == 4 else ""
        steps.append(f"{rule}: {card}{shown}, total {(two_card_total(hand, slot - 4) + card.value) % 10}")
    if decisions_taken(hand) == 0:
        steps.append("natural: both hands stand")
    return coup(True)


def _two_cards(slots: Sequence[Card | None], hand: Hand) -> str:
    player = " ".join(str(slots[slot]) for slot in (0, 2))
    banker = " ".join(str(slots[slot]) for slot in (1, 3))
    return f"player {player} = {two_card_total(hand, 0)}; banker {banker} = {two_card_total(hand, 1)}"


def _rule_text(decisions: Decisions, hand: Hand, slot: int, draw: int) -> str:
    """The passage of the rules that decides a third card, in words (a choice says so)."""
    side = "player" if slot == 4 else "banker"
    total = two_card_total(hand, slot - 4)
    mixed = 0 < draw < decisions.scale
    action = "may draw or stand" if mixed else "draws" if draw else "stands"
    text = f"{side} {action} on {total}"
    if side == "banker":
        text += " when the player stood" if hand[4] == STOOD else f" against a player third card of {hand[4]}"
    if decisions.rules.mark(side, total, player_third(hand)) == "C":
        text += f" (a choice; policy: {decisions.policy.summary() or 'none'})"
    return text
