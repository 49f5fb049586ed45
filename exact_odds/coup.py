"""One coup, resolved card by card from the cards in shoe order.

>>> from exact_odds.cards import parse_cards
>>> coup = play_coup(parse_cards("9S 5D 9H 2C"))
>>> coup.player_total, coup.banker_total, coup.winner
(8, 7, 'player')
"""

from dataclasses import dataclass

from .cards import Card
from .rules import PUNTO_BANCO, DrawRules


def hand_total(cards) -> int:
    """Baccarat total of a hand: the sum of point values, modulo 10."""
    return sum(card.value for card in cards) % 10


def winner_of(player_total: int, banker_total: int) -> str:
    if player_total > banker_total:
        return "player"
    if banker_total > player_total:
        return "banker"
    return "tie"


@dataclass(frozen=True)
class Coup:
    """A coup as far as the given cards reach; ``complete`` when it is settled."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    steps: tuple[str, ...]
    complete: bool
    cards_used: int

    @property
    def player_total(self) -> int:
        return hand_total(self.player)

    @property
    def banker_total(self) -> int:
        return hand_total(self.banker)

    @property
    def winner(self) -> str | None:
        return winner_of(self.player_total, self.banker_total) if self.complete else None


def play_coup(cards, rules: DrawRules = PUNTO_BANCO) -> Coup:
    """Deal ``cards`` in shoe order: 1st and 3rd to the player, 2nd and 4th to the banker, then
    third cards as ``rules`` require. Stops early (``complete=False``) when the cards run out."""
    cards = tuple(cards)
    player, banker, steps = [], [], []

    def result(complete: bool) -> Coup:
        return Coup(tuple(player), tuple(banker), tuple(steps), complete, len(player) + len(banker))

    for position, card in enumerate(cards[:4]):
        (player if position % 2 == 0 else banker).append(card)
    if len(cards) < 4:
        return result(False)
    player_two, banker_two = hand_total(player), hand_total(banker)
    steps.append(f"player {' '.join(map(str, player))} = {player_two}; banker {' '.join(map(str, banker))} = {banker_two}")
    if rules.is_natural(player_two) or rules.is_natural(banker_two):
        steps.append("natural: both hands stand")
        return result(True)
    next_card = 4
    player_third = None
    if rules.player_draws(player_two):
        if len(cards) <= next_card:
            steps.append(f"player draws on {player_two}")
            return result(False)
        player.append(cards[next_card])
        player_third = cards[next_card].value
        next_card += 1
        steps.append(f"player draws on {player_two}: {cards[next_card - 1]} (third-card value {player_third}), total {hand_total(player)}")
    else:
        steps.append(f"player stands on {player_two}")
    rule = rules.banker_rule_text(banker_two, player_third)
    if rules.banker_draws(banker_two, player_third):
        if len(cards) <= next_card:
            steps.append(rule)
            return result(False)
        banker.append(cards[next_card])
        steps.append(f"{rule}: {cards[next_card]}, total {hand_total(banker)}")
    else:
        steps.append(rule)
    return result(True)
