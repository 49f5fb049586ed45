"""The drawing rules of Punto Banco, as data, in one place.

>>> PUNTO_BANCO.player_draws(5), PUNTO_BANCO.player_draws(6)
(True, False)
>>> PUNTO_BANCO.banker_draws(banker_total=3, player_third_card=8)
False
>>> PUNTO_BANCO.banker_draws(banker_total=5, player_third_card=None)
True
"""

from dataclasses import dataclass

BANKER_TABLEAU_TEXT = """
        0 1 2 3 4 5 6 7 8 9
    0   D D D D D D D D D D
    1   D D D D D D D D D D
    2   D D D D D D D D D D
    3   D D D D D D D D S D
    4   S S D D D D D D S S
    5   S S S S D D D D S S
    6   S S S S S S D D S S
    7   S S S S S S S S S S
"""
"""Banker's two-card total (rows 0-7) against the player's third-card value (columns 0-9):
D draws, S stands. Read when the player drew a third card."""


def _parse_tableau(text: str) -> tuple[tuple[bool, ...], ...]:
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    return tuple(tuple(mark == "D" for mark in row[1:]) for row in rows)


@dataclass(frozen=True)
class DrawRules:
    """Who draws a third card, as tables indexed by totals.

    ``natural_totals``: a two-card total that stops both hands.
    ``player_draw``: by the player's two-card total, whether the player draws.
    ``banker_draw_when_player_stood``: by the banker's two-card total.
    ``banker_tableau``: by banker total (0-7), then the player's third-card value (0-9).
    """

    name: str
    natural_totals: frozenset[int]
    player_draw: tuple[bool, ...]
    banker_draw_when_player_stood: tuple[bool, ...]
    banker_tableau: tuple[tuple[bool, ...], ...]

    def __post_init__(self):
        if len(self.player_draw) != 10 or len(self.banker_draw_when_player_stood) != 10:
            raise ValueError("player_draw and banker_draw_when_player_stood need one entry per total 0-9")
        if len(self.banker_tableau) != 8 or any(len(row) != 10 for row in self.banker_tableau):
            raise ValueError("banker_tableau needs 8 rows (banker totals 0-7) of 10 columns")

    def is_natural(self, two_card_total: int) -> bool:
        return two_card_total in self.natural_totals

    def player_draws(self, player_total: int) -> bool:
        """Whether the player draws on this two-card total (no natural on the table)."""
        return self.player_draw[player_total]

    def banker_draws(self, banker_total: int, player_third_card: int | None) -> bool:
        """Whether the banker draws; ``player_third_card`` is the value the player drew, or None."""
        if player_third_card is None:
            return self.banker_draw_when_player_stood[banker_total]
        return banker_total < len(self.banker_tableau) and self.banker_tableau[banker_total][player_third_card]

    def banker_rule_text(self, banker_total: int, player_third_card: int | None) -> str:
        """The passage of the rules that decides the banker's draw, in words."""
        action = "draws" if self.banker_draws(banker_total, player_third_card) else "stands"
        if player_third_card is None:
            return f"banker {action} on {banker_total} when the player stood"
        return f"banker {action} on {banker_total} against a player third card of {player_third_card}"


PUNTO_BANCO = DrawRules(
    name="Punto Banco",
    natural_totals=frozenset({8, 9}),
    player_draw=tuple(total <= 5 for total in range(10)),
    banker_draw_when_player_stood=tuple(total <= 5 for total in range(10)),
    banker_tableau=_parse_tableau(BANKER_TABLEAU_TEXT),
)
"""The fixed rules of Punto Banco (and of mini and midi baccarat, EZ Baccarat, Super 6)."""


def tableau_grid(rules: DrawRules = PUNTO_BANCO) -> list[list[str]]:
    """The banker's tableau as rows ``[banker total, S/D x 10]``, for printing.

    >>> tableau_grid()[3]
    ['3', 'D', 'D', 'D', 'D', 'D', 'D', 'D', 'D', 'S', 'D']
    """
    return [[str(total)] + ["D" if draw else "S" for draw in row] for total, row in enumerate(rules.banker_tableau)]
