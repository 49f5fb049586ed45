"""Immutable shoe compositions: N decks, explicit counts, cards removed.

A shoe knows its count of every card (rank and suit) when it was built from whole decks or
per-card counts; a shoe given by rank only knows rank counts and never guesses a suit split.

>>> shoe = Shoe.decks(8).remove(parse_cards("5 5 K 9h"))
>>> shoe.size, shoe.rank_counts[4], shoe.knows_suits
(412, 30, False)
>>> Shoe.parse("A=4,9h=2").size
6
"""

import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import index
from typing import Any

from .cards import POINT_VALUES, RANKS, SUITS, Card, parse_card, parse_cards
from ..errors import InputError
from .numbers import parse_count, shown, text_of

CARDS_PER_COUP = 6
"""A coup uses at most six cards: a shoe to deal one holds at least this many."""
CARD_NAMES = tuple(rank + suit for rank in RANKS for suit in SUITS)
"""The 52 cards in the order of :attr:`Shoe.card_counts`."""


CARD_VALUES = tuple(POINT_VALUES[card // len(SUITS)] for card in range(len(CARD_NAMES)))
"""The point value of each of the 52 cards."""


def gather(counts: Iterable[Any], labels: Iterable[int], zero: Any = 0) -> list[Any]:
    """``counts`` summed by class, ``labels`` giving the class of what each one counts (classes 0 to
    the largest label). The counts may be integers, or numpy columns of many shoes' counts
    (``zero`` then a column of zeros).

    >>> gather([3, 1, 4, 1], [0, 2, 0, 1])
    [7, 1, 1]
    """
    grouped: list[Any] = []
    for label, count in zip(labels, counts):
        grouped += [zero] * (label + 1 - len(grouped))
        grouped[label] = grouped[label] + count
    return grouped


def keeps_ranks(labels: Sequence[int]) -> bool:
    """Whether the classes ``labels`` gives the 52 cards keep each rank whole (asked on every
    analysis of a shoe: kept per labels).

    >>> keeps_ranks([card // 4 for card in range(52)]), keeps_ranks([card % 4 for card in range(52)])
    (True, False)
    """
    return _keeps_ranks(tuple(labels))


@lru_cache(maxsize=64)
def _keeps_ranks(labels: tuple[int, ...]) -> bool:
    return all(labels[card] == labels[card - card % len(SUITS)] for card in range(len(CARD_NAMES)))


def class_counts(counts: Sequence[Any], labels: Sequence[int], zero: Any, given: str, hint: str) -> list[Any]:
    """The one projection of shoes onto classes of cards: counts per class, from ``counts`` per card
    (52, rank-major) or per rank (13), ``labels`` giving the class of each of the 52 cards (see
    :func:`gather` for ``zero``). Counts per rank serve only where every rank lies in one class;
    else they are refused, ``given`` naming them and ``hint`` saying how to give them per card."""
    if len(counts) == len(RANKS):
        if not keeps_ranks(labels):
            raise InputError(f"{given} by rank only; bets on suits or colours need per-card counts ({hint})")
        labels = labels[:: len(SUITS)]
    return gather(counts, labels, zero)


def _checked_labels(labels: object) -> tuple[int, ...]:
    """``labels`` as 52 class labels, one per card (rank-major), each a whole number from 0 to 51;
    anything else refused (checked once per distinct labels: an analysis asks on every shoe)."""
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise InputError(f"labels must be 52 class labels, one per card, not {shown(labels)}", parameter="labels")
    given = tuple(labels)
    try:
        return _labels(given)
    except TypeError:  # unhashable labels
        raise InputError(f"labels must be 52 class labels, one per card (rank-major), each a whole number from 0 to 51, not {shown(given)}",
                         parameter="labels") from None


@lru_cache(maxsize=64)
def _labels(labels: tuple[Any, ...]) -> tuple[int, ...]:
    if len(labels) != len(CARD_NAMES) or not all(isinstance(label, numbers.Integral) and not isinstance(label, bool) and 0 <= int(label) < len(CARD_NAMES)
                                                 for label in labels):
        raise InputError(f"labels must be 52 class labels, one per card (rank-major), each a whole number from 0 to 51, not {shown(labels)}",
                         parameter="labels")
    return tuple(int(label) for label in labels)


def _counts(counts: object, names: tuple[str, ...], field: str) -> tuple[int, ...]:
    """``counts`` as a tuple of Python integers from 0, one per name (numpy integers are taken as
    integers; bools, floats and anything else are refused)."""
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise InputError(f"the shoe's {field} must be {len(names)} counts, not {shown(counts)}")
    values = tuple(counts)
    if len(values) != len(names):
        raise InputError(f"the shoe's {field} must be {len(names)} counts ({names[0]} to {names[-1]}), not {len(values)}")
    checked = []
    for name, count in zip(names, values):
        try:
            whole = index(count)
        except TypeError:
            whole = -1
        if isinstance(count, bool) or whole < 0:
            raise InputError(f"shoe count of {name} must be a whole number from 0, not {shown(count)}")
        checked.append(whole)
    return tuple(checked)


@dataclass(frozen=True)
class Shoe:
    """Counts of the cards in a shoe.

    ``rank_counts`` has 13 entries in the order of :data:`~exact_odds.core.cards.RANKS`;
    ``card_counts`` has 52 (rank-major: index ``rank * 4 + suit``) or is ``None`` when suits are unknown.

    >>> shoe = Shoe.decks(8).remove("5h K 9d")
    >>> shoe.size, shoe.rank_counts[4]  # 8 x 52 cards less three; 8 x 4 fives less one
    (413, 31)
    """

    rank_counts: tuple[int, ...]
    card_counts: tuple[int, ...] | None
    description: str
    with_replacement: bool = False
    """The infinite deck: every card drawn is put back, so each rank keeps probability 1/13."""

    def __post_init__(self) -> None:
        """Refuse what no shoe can be: counts that are not whole numbers from 0, not 13 ranks (or 52
        cards), cards that disagree with their ranks (with replacement, only proportions count: the
        infinite deck holds one of each rank and one of each card); with replacement, a shoe with no
        card. Counts are kept as Python integers: every engine is exact at any size."""
        if not isinstance(self.description, str):
            raise InputError(f"a shoe's description must be text, not {shown(self.description)}")
        if not isinstance(self.with_replacement, bool):
            raise InputError(f"with_replacement must be True or False, not {shown(self.with_replacement)}")
        ranks = _counts(self.rank_counts, RANKS, "rank_counts")
        object.__setattr__(self, "rank_counts", ranks)
        if self.with_replacement and not any(ranks):
            raise InputError(f"{self.description} holds no card to draw")
        if self.card_counts is not None:
            cards = _counts(self.card_counts, CARD_NAMES, "card_counts")
            object.__setattr__(self, "card_counts", cards)
            for rank, count in enumerate(ranks):
                held = sum(cards[rank * 4 : rank * 4 + 4])
                if (held * sum(ranks) != count * sum(cards) or not any(cards)) if self.with_replacement else held != count:
                    agree = "be in proportion to" if self.with_replacement else "add up to"
                    raise InputError(f"the shoe's card counts of each rank must {agree} its rank count: "
                                     f"those of {RANKS[rank]} add up to {held}, and its rank count is {count}")

    @classmethod
    def decks(cls, decks: int) -> "Shoe":
        """A shoe of ``decks`` standard 52-card decks."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise InputError(f"the number of decks must be a positive integer, not {decks!r}")
        return cls((4 * decks,) * 13, (decks,) * 52, f"{decks} deck{'s' if decks > 1 else ''}")

    @classmethod
    def infinite(cls) -> "Shoe":
        """The infinite deck: cards drawn with replacement from one deck (denominators powers of 13)."""
        return cls((1,) * 13, (1,) * 52, "infinite deck", with_replacement=True)

    @classmethod
    def parse(cls, spec: str) -> "Shoe":
        """A shoe from ``RANK=COUNT`` or ``CARD=COUNT`` entries (``A=32,2=32,9h=7``).

        Ranks not named count 0. When every entry names a suited card the shoe knows suits;
        otherwise it knows rank counts only.
        """
        ranks = [0] * 13
        cards = [0] * 52
        suited = True
        entries = [entry.strip() for entry in text_of(spec, "spec", parameter="spec").split(",") if entry.strip()]
        if not entries:
            raise InputError(f"empty shoe composition {shown(spec)} (expected entries such as A=32,2=32,...)")
        named: set[Card] = set()
        for entry in entries:
            name, equals, count_text = entry.partition("=")
            if not equals:
                raise InputError(f"bad shoe entry {shown(entry)} (expected RANK=COUNT or CARD=COUNT, e.g. A=32 or 9h=7)")
            card = parse_card(name)
            if card in named:
                raise InputError(f"the shoe names {card} twice")
            named.add(card)
            count = parse_count(count_text, f"shoe count of {card}")
            ranks[card.rank_index] += count
            if card.suit is None:
                suited = False
            else:
                cards[card.rank_index * 4 + SUITS.index(card.suit)] += count
        if any(Card(card.rank) in named for card in named if card.suit):
            raise InputError("the shoe names a rank both with and without suits")
        shoe = cls(tuple(ranks), tuple(cards) if suited else None, f"custom shoe {spec.replace(' ', '')}")
        return shoe.checked()

    @property
    def size(self) -> int:
        return sum(self.rank_counts)

    @property
    def knows_suits(self) -> bool:
        return self.card_counts is not None

    @property
    def value_counts(self) -> tuple[int, ...]:
        """Counts of the ten point values 0..9."""
        return tuple(self.class_counts(CARD_VALUES))

    def class_counts(self, labels: Sequence[int]) -> list[int]:
        """The shoe's count of each class of cards, ``labels`` giving the class of each of the 52
        cards (rank * 4 + suit): from its rank counts where every rank lies in one class, else from
        its card counts (see :func:`class_counts`).

        >>> Shoe.decks(1).class_counts([card % 4 for card in range(52)])  # by suit
        [13, 13, 13, 13]
        >>> Shoe.parse("A=4,9h=2").class_counts([card % 4 for card in range(52)])
        Traceback (most recent call last):
        ...
        exact_odds.errors.InputError: custom shoe A=4,9h=2 is given by rank only; bets on suits or colours need per-card counts (e.g. 9h=7,...)
        """
        labels = _checked_labels(labels)
        counts = self.rank_counts if self.card_counts is None or keeps_ranks(labels) else self.card_counts
        return class_counts(counts, labels, 0, f"{self.description} is given", "e.g. 9h=7,...")

    def remove(self, cards: "str | Card | Iterable[str | Card]") -> "Shoe":
        """The shoe less ``cards``: card text (``"5h K 9d"``), a :class:`~exact_odds.core.cards.Card`, or
        an iterable of either. Removing a card without a suit forgets the suit split.

        >>> Shoe.decks(8).remove("5h K 9d").size, Shoe.decks(8).remove(["5h", Card("K")]).rank_counts[12]
        (413, 31)
        """
        if isinstance(cards, (str, Card)):
            cards = [cards]
        if isinstance(cards, Mapping):
            raise InputError("Shoe.remove takes card text or cards, each as many times as it is removed, not a mapping of cards to counts")
        if not isinstance(cards, Iterable):
            raise InputError(f"Shoe.remove takes card text (\"5h K 9d\"), cards, or an iterable of either, not {shown(cards)}")
        taken: list[Card] = []
        for card in cards:
            if isinstance(card, str):
                taken.extend(parse_cards(card))
            elif isinstance(card, Card):
                taken.append(card)
            else:
                raise InputError(f"Shoe.remove takes card text (\"5h K 9d\"), cards, or an iterable of either, not {shown(card)}")
        cards = tuple(taken)
        if not cards:
            return self
        if self.with_replacement:
            raise InputError("cards cannot be removed from the infinite deck (every card drawn is put back)")
        ranks = list(self.rank_counts)
        suits = list(self.card_counts) if self.card_counts is not None else None
        for card in cards:  # the suited cards are checked card by card even after one without a suit
            index = card.rank_index
            if ranks[index] == 0:
                raise InputError(f"cannot remove {card}: the shoe holds no more {RANKS[index]}")
            ranks[index] -= 1
            if card.suit is not None and suits is not None:
                slot = index * 4 + SUITS.index(card.suit)
                if suits[slot] == 0:
                    raise InputError(f"cannot remove {card}: the shoe holds no more {card}")
                suits[slot] -= 1
        known = suits is not None and all(card.suit is not None for card in cards)
        removed = " ".join(str(card) for card in cards)
        return Shoe(tuple(ranks), tuple(suits) if known and suits is not None else None, f"{self.description} less {removed}")

    def checked(self, cards: int = CARDS_PER_COUP) -> "Shoe":
        """This shoe, after checking it can deal ``cards`` more cards (a full coup: six), as the
        engines do before they count draws. A shoe of fewer cards is still a shoe (the end of one,
        or what a coup in progress leaves)."""
        if isinstance(cards, bool) or not isinstance(cards, numbers.Integral) or cards < 1:
            raise InputError(f"cards must be a whole number of cards to draw from 1, not {shown(cards)}", parameter="cards")
        if self.size < cards and not self.with_replacement:
            needs = f"a coup needs a shoe of at least {CARDS_PER_COUP}" if cards == CARDS_PER_COUP else f"{cards} cards to draw are needed"
            raise InputError(f"{self.description} holds {self.size} cards; {needs}")
        return self

    def __str__(self) -> str:
        if self.with_replacement:
            return f"{self.description} (cards drawn with replacement)"
        return f"{self.description} ({self.size} cards)"


def as_shoe(shoe: "Shoe | int | str | Mapping[str, int]") -> Shoe:
    """A shoe as people give one: a :class:`Shoe`, a number of decks, ``"inf"``, a composition
    (``"A=32,2=32,9h=7"``) or a mapping of card text to counts.

    >>> as_shoe(8) == Shoe.decks(8), as_shoe({"A": 4, "K": 4}).size, as_shoe("inf").with_replacement
    (True, 8, True)
    """
    if isinstance(shoe, Shoe):
        return shoe
    if isinstance(shoe, bool):
        raise InputError(f"a shoe is a Shoe, a number of decks, inf, a composition such as \"A=32,K=32\" or a mapping of cards to counts, not {shown(shoe)}")
    if isinstance(shoe, int) or (isinstance(shoe, str) and shoe.strip().lower() == "inf"):
        return shoe_of_decks("inf" if isinstance(shoe, str) else shoe)
    if isinstance(shoe, str) and "=" in shoe:
        return Shoe.parse(shoe)
    if isinstance(shoe, str) and shoe.strip().isdigit():
        return shoe_of_decks(parse_count(shoe.strip(), "the number of decks"))
    if isinstance(shoe, Mapping) and all(isinstance(card, str) for card in shoe):
        return Shoe.parse(",".join(f"{card}={count}" for card, count in shoe.items()))
    raise InputError(f"a shoe is a Shoe, a number of decks, inf, a composition such as \"A=32,K=32\" or a mapping of cards to counts, not {shown(shoe)}")


def shoe_of_decks(decks: int | str) -> Shoe:
    """N standard decks, or the infinite deck for ``"inf"``."""
    if decks == "inf":
        return Shoe.infinite()
    if not isinstance(decks, int):
        raise InputError(f"the number of decks must be a positive integer or inf, not {shown(decks)}")
    return Shoe.decks(decks)


def shoe_from_options(decks: int | str | None, shoe_spec: "str | Shoe | int | Mapping[str, int] | None", remove: str | None) -> Shoe:
    """The shoe named by the CLI options ``--decks`` (a number, or ``inf``), ``--shoe`` and
    ``--remove`` (``shoe_spec`` from a program: as :func:`as_shoe` reads one)."""
    if decks is not None and shoe_spec is not None:
        raise InputError("give either a number of decks or a composition of the shoe, not both")
    if shoe_spec is None:
        shoe = shoe_of_decks(8 if decks is None else decks)
    else:
        shoe = Shoe.parse(shoe_spec) if isinstance(shoe_spec, str) else as_shoe(shoe_spec)
    if remove:
        shoe = shoe.remove(parse_cards(remove))
    return shoe.checked()

