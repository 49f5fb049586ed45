"""One coup by hand: settled, or the odds mid-coup from the cards seen so far (the `deal` command's
figures); a settled coup's features, and a bet settled on them."""

from dataclasses import dataclass
from fractions import Fraction

from ..engine.analysis import return_table
from ..bets.bets import Bet
from ..core.cards import SUITS, Card
from ..core.coup import Coup, coup_key, play_coup
from ..engine.enumerator import enumerate_coups
from ..errors import InputError
from ..bets.conditions import MissingDetail, parse_condition
from ..core.features import LATE_POSITIONS, OUTCOMES, SLOTS, Columns, Granularity, card_columns, coup_columns
from ..core.policy import Decisions
from ..core.shoe import Shoe


def coup_features(coup: Coup, decisions: Decisions) -> Columns:
    """The feature columns (one row) of a settled coup, for settling bets on it (the fifth and
    sixth cards of the sequence only where the coup dealt them: a bet that reads one it did not
    deal cannot be settled)."""
    player_two, banker_two, player_third, banker_third = coup_key(coup.hand)
    columns = coup_columns([player_two], [banker_two], [player_third], [banker_third], decisions.rules.naturals)
    cards = {"player": coup.player, "banker": coup.banker}
    third = [hand[2] for hand in (coup.player, coup.banker) if len(hand) == 3]  # cards 5 and 6, as far as dealt
    held: dict[str, Card | None] = {position: card for position, card in zip(LATE_POSITIONS, third)}
    for slot in SLOTS:
        side, position = slot.split("_card")
        hand_cards = cards[side]
        held[slot] = hand_cards[int(position) - 1] if int(position) <= len(hand_cards) else None
    for key, card in held.items():
        level = Granularity.CARD if card is None or card.suit is not None else Granularity.RANK
        label = -1 if card is None else (card.rank_index * 4 + SUITS.index(card.suit) if card.suit else card.rank_index)
        columns.levels[key] = level
        columns.update(card_columns(key, level, [label]))
    return columns


def settle(bet: Bet, columns: Columns) -> Fraction:
    """Net win per unit staked of ``bet`` on the one coup in ``columns``."""
    try:
        line = int(bet.settle(columns)[0])
    except MissingDetail as missing:
        raise InputError(f"bet {bet.name!r}: {missing}") from None
    return bet.payouts[line].net


@dataclass(frozen=True)
class Dealt:
    """A coup dealt by hand from cards in shoe order: settled, with each bet's net win per unit
    staked; or in progress, with the odds of how it ends (given a condition, where one is given)."""

    cards: tuple[Card, ...]
    shoe: Shoe
    remaining: Shoe
    """The shoe left: ``shoe`` less the cards (drawn with replacement: ``shoe`` itself)."""
    coup: Coup
    settlements: tuple[tuple[str, Fraction], ...] = ()
    """A settled coup: each bet's net win per unit staked."""
    given: tuple[str, int, int] | None = None
    """A coup in progress given a condition: its text, and the completions where it holds of all of them."""
    outcomes: tuple[tuple[str, int], ...] = ()
    total: int = 0
    drawn: int = 0
    """How many cards the completions draw."""
    scale: int = 1
    expectations: tuple[tuple[str, Fraction], ...] = ()
    """The expected value now of each bet priced mid-coup (those settled on the coup's features alone)."""
    unpriced: tuple[str, ...] = ()


def deal(cards: tuple[Card, ...], shoe: Shoe, bets: list[Bet], decisions: Decisions, given: str | None = None) -> Dealt:
    """Play the coup the cards make; settle every bet on it, or give the odds of its completion
    (given a condition on the coup's features, when one is given)."""
    remaining = shoe if shoe.with_replacement else shoe.remove(cards)
    coup = play_coup(cards, decisions)
    condition = parse_condition(given) if given is not None else None
    if condition is not None and condition.slots:
        raise InputError(f"given on a coup in progress reads the coup's features, not card slots ({', '.join(sorted(condition.slots))}): {given}",
                         parameter="given")
    if coup.complete and condition is not None:
        raise InputError("given needs a coup in progress: these cards settle it", parameter="given")
    if coup.complete:
        if len(cards) > coup.cards_used:
            extra = " ".join(str(card) for card in cards[coup.cards_used :])
            raise InputError(f"the coup is settled after {coup.cards_used} cards; left over: {extra}")
        columns = coup_features(coup, decisions)
        return Dealt(cards, shoe, remaining, coup, tuple((bet.name, settle(bet, columns)) for bet in bets))
    distribution = enumerate_coups(remaining, decisions, hand=coup.hand)
    held = None
    if condition is not None:
        everything = distribution.total
        distribution = distribution.where(condition(distribution.columns))
        if not distribution.total:
            raise InputError(f"the condition given never holds after these cards: {given}")
        held = (given or condition.text, distribution.total, everything)
    counts = distribution.outcome_counts()
    priced = [bet for bet in bets if bet.needs_coup and not bet.card_slots]
    return Dealt(cards, shoe, remaining, coup, given=held, outcomes=tuple((name, counts[name]) for name in OUTCOMES),
                 total=distribution.total, drawn=distribution.cards, scale=distribution.scale,
                 expectations=tuple((bet.name, return_table(bet, distribution).expected_value) for bet in priced),
                 unpriced=tuple(bet.name for bet in bets if bet not in priced))
