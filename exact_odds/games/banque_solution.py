"""Baccara banque solved, as a library call: :func:`solve_banque` checks its inputs (one clear
``InputError`` naming the parameter) and returns a :class:`BanqueSolution`, whose :meth:`to_dict`
is the JSON record (``"format": "exact_odds.banque"``): every exact number as a string, its
decimal beside it. docs/banque.md describes the models and what each figure means.

>>> found = solve_banque(rules="banque_ethier_lee", shoe="K=3,A=2,2=2,5=3")  # ten cards
>>> record = found.to_dict()
>>> record["format"], record["cooperative"]["value"], record["nash"]["equilibria"][0]["draws"]["player 1 on 5"]
('exact_odds.banque', {'exact': '-11/350', 'decimal': -0.03142857142857143}, {'exact': '1', 'decimal': 1.0})
"""

from dataclasses import dataclass
from fractions import Fraction

from ..core.numbers import parse_exact
from ..core.rules import BANQUE_PRESETS, BanqueRules
from ..core.shoe import Shoe, as_shoe
from ..errors import InputError
from ..records import versioned
from .banque import Cooperative, banque_game, cooperative, with_stake
from .banque_nash import Exact, NashSearch, nash
from .faces import face_record

DEFAULT_DECKS: dict[str, int | str] = {"banque_ethier_lee": "inf", "banque": 6}
"""The shoe each preset is solved from by default: the paper's with replacement; six decks, as
Ethier and Lee's rules deal."""


@dataclass(frozen=True)
class BanqueSolution:
    """Baccara banque solved on one shoe: the cooperative solution (always) and the Nash equilibria
    (when player 2 reads only his own total; ``nash_open`` says why not otherwise)."""

    rules: BanqueRules
    decks: int | str
    cells: tuple[str, ...]
    """The banker's cells by name: (his two-card total, player 1's state, player 2's state)."""
    cooperative: Cooperative
    nash: NashSearch | None
    nash_open: str | None

    def to_dict(self) -> dict[str, object]:
        """The JSON record (see the module docstring)."""
        solved = self.cooperative
        record: dict[str, object] = {
            "rules": self.rules.name,
            "second_sees_first": self.rules.second_sees_first,
            "decks": self.decks,
            "stake": number(self.rules.stake),
            "cooperative": {
                "value": number(solved.value),
                "banker_value": number(-solved.value),
                "draws": {name: number(share) for name, share in solved.draws.items()},
                "joint": [{"player_1": first, "player_2": second, "both_draw": number(both), "player_1_only": number(one),
                           "player_2_only": number(two), "neither": number(neither)}
                          for (first, second), (both, one, two, neither) in solved.joint.items()],
                "banker": {name: str(draw) for name, draw in zip(self.cells, solved.banker)},
                "certificate": {"team_guarantees": number(solved.certificate.team_guarantees),
                                "banker_holds": number(solved.certificate.banker_holds), "holds": solved.certificate.holds},
                "team_face": face_record(solved.team_face, proof_points=False),
                "independent_cooperative_equilibrium": solved.independent,
            },
        }
        if self.nash is None:
            record["nash"] = {"solved": False, "open": self.nash_open}
        else:
            record["nash"] = {
                "solved": True,
                "exhaustive": self.nash.exhaustive,
                "pieces": {"vertices": self.nash.vertices, "arcs": self.nash.arcs, "regions": self.nash.regions},
                "continua": list(self.nash.continua),
                "unresolved": list(self.nash.unresolved),
                "equilibria": [{
                    "draws": {name: number(share) for name, share in equilibrium.draws.items()},
                    "banker": {name: str(draw) for name, draw in zip(self.cells, equilibrium.banker)},
                    "payoffs": dict(zip(("banker", "player_1", "player_2"), map(number, equilibrium.certificate.payoffs))),
                    "certificate": {"banker_gain": str(equilibrium.certificate.banker_gain), "player_1_gain": str(equilibrium.certificate.first_gain),
                                    "player_2_gain": str(equilibrium.certificate.second_gain), "holds": equilibrium.certificate.holds},
                } for equilibrium in self.nash.equilibria],
            }
        return versioned("banque", record)


def number(value: Exact) -> dict[str, object]:
    """An exact number as its exact text and, beside it, its decimal (for display)."""
    return {"exact": str(value), "decimal": float(value)}


def solve_banque(*, rules: BanqueRules | str = "banque_ethier_lee", shoe: Shoe | int | str | None = None,
                 stake: Fraction | int | str | None = None, with_nash: bool = True) -> BanqueSolution:
    """Baccara banque solved exactly: ``rules`` a preset name (``banque``, ``banque_ethier_lee``) or
    a :class:`~exact_odds.core.rules.BanqueRules`; ``shoe`` a deck count, "inf", a shoe spec or a
    :class:`~exact_odds.core.shoe.Shoe` (default: the preset's, :data:`DEFAULT_DECKS`); ``stake``
    theta, the share of the stakes on player 1's hand (default the rules', 1/2)."""
    if isinstance(rules, str):
        if rules not in BANQUE_PRESETS:
            raise InputError(f"unknown banque rules {rules!r} (expected {', '.join(BANQUE_PRESETS)})", parameter="rules")
        name, rules = rules, BANQUE_PRESETS[rules]
    else:
        name = next((key for key, preset in BANQUE_PRESETS.items() if preset == rules), "")
    if stake is not None:
        exact = parse_exact(stake, "the stake on player 1's hand", "1/2", parameter="stake") if isinstance(stake, str) else stake
        if not isinstance(exact, (int, Fraction)) or isinstance(exact, bool) or not 0 < exact < 1:
            raise InputError(f"the stake on player 1's hand must be strictly between 0 and 1 (1/2 for half the table), not {stake!r}", parameter="stake")
        rules = with_stake(rules, Fraction(exact))
    if shoe is None:
        shoe = DEFAULT_DECKS.get(name, "inf")
    try:
        dealt = as_shoe(shoe)
    except InputError as error:
        raise InputError(str(error), parameter="shoe") from None
    if not dealt.with_replacement and dealt.size < 9:
        raise InputError(f"a banque coup needs 9 cards: the shoe has {dealt.size}", parameter="shoe")
    decks = _decks(dealt)
    game = banque_game(rules, dealt)
    team = cooperative(game)
    cells = tuple(game.cell_name(c) for c in range(len(game.table.cells)))
    if rules.second_sees_first or not with_nash:
        reason = ("player 2 reads player 1's third card: his choice has eleven information sets, and the Nash equilibria of that "
                  "three-person game are not solved (docs/banque.md)") if rules.second_sees_first else "not asked"
        return BanqueSolution(rules, decks, cells, team, None, reason)
    try:
        search = nash(game, team)
    except InputError as error:  # a degenerate arrangement (small shoes): the Nash equilibria are left open, said so
        return BanqueSolution(rules, decks, cells, team, None, f"not solved: {error}")
    return BanqueSolution(rules, decks, cells, team, search, None)


def _decks(shoe: Shoe) -> int | str:
    if shoe.with_replacement:
        return "inf"
    decks = shoe.rank_counts[0] // 4
    return decks if decks and shoe.rank_counts == Shoe.decks(decks).rank_counts else shoe.description
