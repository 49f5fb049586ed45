"""Rule sets as data: naturals, who draws a third card, where a hand may choose, the main bets' pays.

A rule set marks each situation D (draws), S (stands) or C (a choice: an *option point*, fixed by
a policy, see :mod:`exact_odds.core.policy`); ``-`` marks a total that never needs a decision because it
is a natural. Presets by name (:data:`PRESETS`) or a TOML file (:func:`load_rules`, :func:`rules_toml`).

>>> PUNTO_BANCO.mark("player", 5), PUNTO_BANCO.mark("banker", 3, 8), PUNTO_BANCO.mark("banker", 5, None)
('D', 'S', 'D')
>>> [point.name for point in BACCARAT_GOLD.option_points()]
['player_on_5']
>>> load_rules(rules_toml(BACCARAT_GOLD), "copy") == BACCARAT_GOLD
True
"""

import numbers
import os
from collections.abc import Iterator, Mapping
from functools import cached_property
from fractions import Fraction

from ..errors import InputError, UnknownName
from .numbers import exact_value, parse_exact, parse_toml, shown, text_of
from .textfile import user_text
from .values import OrderedValue, Value

DRAW, STAND, CHOICE, NEVER = "D", "S", "C", "-"
MARKS = (DRAW, STAND, CHOICE)
SIDES = ("player", "banker")
SEES = ("total", "cards")

TABLEAU_HEADER = "    " + " ".join(str(value) for value in range(10))


def compositions(total: int) -> list[tuple[int, int]]:
    """The two-card hands (point values, low first) with this total.

    >>> compositions(5)
    [(0, 5), (1, 4), (2, 3), (6, 9), (7, 8)]
    """
    return [(low, high) for low in range(10) for high in range(low, 10) if (low + high) % 10 == total]


class OptionPoint(OrderedValue):
    """A situation where a hand may draw or stand: the side, what it sees (a two-card total, or
    its two cards when the rules show them) and, for the banker, the player's third card."""

    __slots__ = ("side", "total", "cards", "third")
    side: str
    total: int
    cards: tuple[int, int] | None
    third: int | None
    """The player's third-card value, or None when the player stood (banker points only)."""

    def __init__(self, side: str, total: int, cards: tuple[int, int] | None = None, third: int | None = None) -> None:
        self._set(side, total, cards, third)

    @property
    def name(self) -> str:
        """``player_on_5``, ``player_on_1+4``, ``banker_on_3_vs_8``, ``banker_on_2+1_vs_stood``."""
        seen = f"{self.cards[0]}+{self.cards[1]}" if self.cards else str(self.total)
        if self.side == "player":
            return f"player_on_{seen}"
        return f"banker_on_{seen}_vs_{'stood' if self.third is None else self.third}"


class DrawRules(Value):
    """A rule set (see the module docstring). Tables are by two-card total 0-9; the banker's tableau
    by banker total (rows) and the player's third-card value (columns), read when the player drew.
    ``commission`` is the percent taken from a winning banker bet, ``tie_pays`` what the tie bet
    pays, to one.

    >>> PUNTO_BANCO.player  # D draws, S stands, - a natural
    ('D', 'D', 'D', 'D', 'D', 'D', 'S', 'S', '-', '-')
    """

    __slots__ = ("name", "naturals", "player", "banker_when_player_stood", "banker_tableau", "player_sees", "banker_sees", "commission",
                 "tie_pays", "__dict__")
    name: str
    naturals: frozenset[int]
    player: tuple[str, ...]
    banker_when_player_stood: tuple[str, ...]
    banker_tableau: tuple[tuple[str, ...], ...]
    player_sees: str
    banker_sees: str
    commission: Fraction
    tie_pays: Fraction

    def __init__(self, name: str, naturals: frozenset[int], player: tuple[str, ...], banker_when_player_stood: tuple[str, ...],
                 banker_tableau: tuple[tuple[str, ...], ...], player_sees: str = "total", banker_sees: str = "total",
                 commission: Fraction = Fraction(5), tie_pays: Fraction = Fraction(8)) -> None:
        self._set(name, naturals, player, banker_when_player_stood, banker_tableau, player_sees, banker_sees, commission, tie_pays)
        self._check()

    def _check(self) -> None:
        """Refuse a rule set that cannot be (each error names the field); the rows are kept as
        tuples, the naturals as a frozenset and the pays as Fractions, however they were given."""
        check = _Checker(self.name)
        if not isinstance(self.name, str) or not self.name.strip():
            check.fail("name", f"must be a name (text), not {shown(self.name)}")
        for field in ("naturals", "player", "banker_when_player_stood", "banker_tableau"):
            value = getattr(self, field)
            rows = value if field == "banker_tableau" and isinstance(value, (tuple, list)) else [value]
            if isinstance(value, (str, bytes)) or not all(isinstance(row, (tuple, list, set, frozenset)) for row in rows):
                check.fail(field, f"must be a sequence of {'totals' if field == 'naturals' else 'marks'}, not {shown(value)}")
        object.__setattr__(self, "naturals", frozenset(self.naturals))
        for field in ("player", "banker_when_player_stood"):
            object.__setattr__(self, field, tuple(getattr(self, field)))
        object.__setattr__(self, "banker_tableau", tuple(tuple(row) for row in self.banker_tableau))
        for field in ("commission", "tie_pays"):
            try:
                object.__setattr__(self, field, exact_value(getattr(self, field), field))
            except InputError as error:
                check.fail(field, str(error).removeprefix(f"{field} "))
        check.naturals(self.naturals)
        check.row("player", self.player, self.naturals)
        check.row("banker_when_player_stood", self.banker_when_player_stood, self.naturals)
        if len(self.banker_tableau) != 10:
            check.fail("banker_tableau", f"needs rows for banker totals 0-9, has {len(self.banker_tableau)}")
        for total, row in enumerate(self.banker_tableau):
            check.row(f"banker_tableau row {total}", row, self.naturals, natural=total in self.naturals)
        for field, value in (("player_sees", self.player_sees), ("banker_sees", self.banker_sees)):
            if value not in SEES:
                check.fail(field, f"must be total or cards, not {value!r}")
        if not 0 <= self.commission < 100:
            check.fail("commission", f"must be a percentage from 0 to below 100, not {self.commission}")
        if self.tie_pays <= 0:
            check.fail("tie_pays", f"must be positive, not {self.tie_pays}")

    def __repr__(self) -> str:
        """A preset by its name in :mod:`exact_odds` (``PUNTO_BANCO``), any other rule set field by field.

        >>> PUNTO_BANCO, BACCARAT_GOLD.with_pays(None, Fraction(8)).name
        (PUNTO_BANCO, 'Baccarat Gold')
        """
        for name, preset in PRESETS.items():
            if preset is self or preset == self:
                return name.upper()
        return super().__repr__()

    @cached_property
    def is_natural(self) -> tuple[bool, ...]:
        """Whether each two-card total 0-9 is a natural."""
        return tuple(total in self.naturals for total in range(10))

    def mark(self, side: str, total: int, player_third: int | None = None) -> str:
        """D, S or C for the player on a two-card total, or the banker on a two-card total against
        the player's third card (None: the player stood; the player's own mark does not read it)."""
        if side not in SIDES:
            raise InputError(f"side must be player or banker, not {shown(side)}", parameter="side")
        if not _digit(total):
            raise InputError(f"total must be a two-card total 0-9, not {shown(total)}", parameter="total")
        if side == "banker" and player_third is not None and not _digit(player_third):
            raise InputError(f"player_third must be a third card's value 0-9, or None where the player stood, not {shown(player_third)}",
                             parameter="player_third")
        if side == "player":
            return self.player[total]
        if player_third is None:
            return self.banker_when_player_stood[total]
        return self.banker_tableau[total][player_third]

    def option_points(self) -> list[OptionPoint]:
        """Every option point, in a fixed order (player first; banker by total, then third card)."""
        return list(self._option_points)

    @cached_property
    def _option_points(self) -> tuple[OptionPoint, ...]:
        """Found once per rule set: every command and each resolution of a policy asks for them."""
        points: list[OptionPoint] = []
        for total in range(10):
            if total not in self.naturals and self.player[total] == CHOICE:
                points += self._split("player", total, None)
        for total in range(10):
            if total in self.naturals:
                continue
            for third in (None, *range(10)):
                if self.mark("banker", total, third) == CHOICE:
                    points += self._split("banker", total, third)
        return tuple(points)

    def _split(self, side: str, total: int, third: int | None) -> list[OptionPoint]:
        sees = self.player_sees if side == "player" else self.banker_sees
        if sees == "total":
            return [OptionPoint(side, total, None, third)]
        return [OptionPoint(side, total, cards, third) for cards in compositions(total)]

    def with_pays(self, commission: Fraction | None, tie_pays: Fraction | None) -> "DrawRules":
        """The same drawing rules with other main-bet pays (None keeps the rule set's own)."""
        return DrawRules(self.name, self.naturals, self.player, self.banker_when_player_stood, self.banker_tableau,
                         self.player_sees, self.banker_sees,
                         self.commission if commission is None else commission, self.tie_pays if tie_pays is None else tie_pays)


def _digit(value: object) -> bool:
    """Whether ``value`` is a whole number 0-9 (an int, numpy's too; not a bool)."""
    if type(value) is int:  # the common case, without the abstract base class's slower check
        return 0 <= value <= 9
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= int(value) <= 9


class RulesError(InputError):
    """A rule set that cannot be: names the field and the problem."""

    def __init__(self, origin: str, field: str, problem: str):
        super().__init__(f"rules {origin}: {field}: {problem}")
        self.field, self.problem = field, problem


class _Checker:
    """Validation of a rule set: every error names the field."""

    def __init__(self, name: str):
        self.origin = repr(name)

    def fail(self, field: str, problem: str) -> None:
        raise RulesError(self.origin, field, problem)

    def naturals(self, naturals: frozenset[int]) -> None:
        if not all(isinstance(total, int) and not isinstance(total, bool) and 0 <= total <= 9 for total in naturals):
            self.fail("naturals", f"must be totals 0-9, not {sorted(naturals, key=str)}")

    def row(self, field: str, row: tuple[str, ...], naturals: frozenset[int], natural: bool = False) -> None:
        if len(row) != 10:
            self.fail(field, f"needs 10 marks (totals or third cards 0-9), has {len(row)}")
        for index, mark in enumerate(row):
            unreachable = natural or (field in ("player", "banker_when_player_stood", "banker") and index in naturals)
            if unreachable and mark == CHOICE:
                self.fail(field, f"mark 'C' at {index}: a natural ends the coup, so no choice is made there (expected -, D or S)")
            if mark not in MARKS and not (unreachable and mark == NEVER):
                allowed = "D, S or - (a natural: never decided)" if unreachable else "D, S or C"
                self.fail(field, f"mark {mark!r} at {index}: expected {allowed}")


def _tableau(text: str) -> tuple[tuple[str, ...], ...]:
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    return tuple(tuple(row[1:]) for row in rows)


PUNTO_BANCO_TABLEAU = """
    0 1 2 3 4 5 6 7 8 9
0   D D D D D D D D D D
1   D D D D D D D D D D
2   D D D D D D D D D D
3   D D D D D D D D S D
4   S S D D D D D D S S
5   S S S S D D D D S S
6   S S S S S S D D S S
7   S S S S S S S S S S
8   - - - - - - - - - -
9   - - - - - - - - - -
"""

PUNTO_BANCO = DrawRules(
    name="Punto Banco",
    naturals=frozenset({8, 9}),
    player=tuple("DDDDDDSS--"),
    banker_when_player_stood=tuple("DDDDDDSS--"),
    banker_tableau=_tableau(PUNTO_BANCO_TABLEAU),
)
"""The fixed rules of Punto Banco (and of mini and midi baccarat, EZ Baccarat, Super 6).

>>> PUNTO_BANCO.mark("banker", 3, 8), PUNTO_BANCO.mark("banker", 6, 7)  # the tableau: 3 stands on an 8, 6 draws on a 7
('S', 'D')
"""

BACCARAT_GOLD = DrawRules(
    name="Baccarat Gold",
    naturals=frozenset({8, 9}),
    player=tuple("DDDDDCSS--"),
    banker_when_player_stood=tuple("DDDDDDSS--"),
    banker_tableau=tuple(
        tuple("D" * 10) if total <= 3 else tuple("SSSDDDDDSS") if total <= 5 else tuple("S" * 10) if total <= 7 else tuple("-" * 10)
        for total in range(10)
    ),
    tie_pays=Fraction(9),
)
"""Baccarat Gold (Los Angeles and Bay Area card rooms; Wizard of Odds, "Baccarat Gold"): the player
may draw or stand on 5; when the player draws, the banker draws on 0-3, on 4-5 only against a
player third card of 3-7, never on 6-7; otherwise as Punto Banco; tie pays 9 to 1.

>>> [point.name for point in BACCARAT_GOLD.option_points()], BACCARAT_GOLD.tie_pays
(['player_on_5'], Fraction(9, 1))
"""

def chemin_de_fer(name: str, player_sees: str, banker_sees: str) -> DrawRules:
    """Chemin de fer as a game: the player may draw or stand on 5 (draws on 0-4, stands on 6-7), and
    the banker may draw or stand in every situation (his two-card total 0-7 against the player's
    third card, or the player's standing). Ethier and Gamez (2013) name the models by what each side
    sees at a choice: its two-card total, or its two cards."""
    return DrawRules(
        name=name,
        naturals=frozenset({8, 9}),
        player=tuple("DDDDDCSS--"),
        banker_when_player_stood=tuple("CCCCCCCC--"),
        banker_tableau=tuple(tuple("C" * 10) if total <= 7 else tuple("-" * 10) for total in range(10)),
        player_sees=player_sees,
        banker_sees=banker_sees,
    )


CHEMIN_DE_FER_A = chemin_de_fer("Chemin de fer, model A (Kemeny-Snell)", "total", "total")
"""Each side sees only its total (with cards drawn with replacement, Kemeny and Snell's 2 x 2^88 game)."""
CHEMIN_DE_FER_B2 = chemin_de_fer("Chemin de fer, model B2 (Downton-Lockwood)", "total", "cards")
"""The player sees his total, the banker his two cards (a 2 x 2^484 game)."""
CHEMIN_DE_FER_B3 = chemin_de_fer("Chemin de fer, model B3 (Ethier-Gamez)", "cards", "cards")
"""Each side sees its two cards (a 2^5 x 2^484 game)."""

class BanqueRules(Value):
    """Baccara banque (a deux tableaux) as data: a banker against two player hands, dealt two cards
    each from one shoe. A natural ends the coup if the banker or both players have one; a player's
    lone natural wins his stake and the other plays on. Each player then draws, stands or chooses
    by his two-card total (``player``), his third card face up, player 1 first; the banker last,
    by his two-card total (``banker``) in every situation he sees (each player's natural, standing or
    third card). The banker wins or loses each hand's stake against it; ties push. Solved as a
    game by :mod:`exact_odds.games.banque`; docs/banque.md.

    >>> BANQUE.player[5], BANQUE_ETHIER_LEE.second_sees_first, BANQUE.stake
    ('C', False, Fraction(1, 2))
    """

    __slots__ = ("name", "naturals", "player", "banker", "second_sees_first", "stake")
    name: str
    naturals: frozenset[int]
    player: tuple[str, ...]
    """Each player's marks by his two-card total (the same for both): D draws, S stands, C chooses."""
    banker: tuple[str, ...]
    """The banker's marks by his two-card total, whatever he sees of the players."""
    second_sees_first: bool
    """Player 2 chooses knowing player 1's third card (or that he stood), as dealt face up."""
    stake: Fraction
    """theta: the share of the table's stakes on player 1's hand (player 2's hand has 1 - theta)."""

    def __init__(self, name: str, naturals: frozenset[int] = frozenset({8, 9}), player: tuple[str, ...] = tuple("DDDDDCSS--"),
                 banker: tuple[str, ...] = tuple("CCCCCCCC--"), second_sees_first: bool = True, stake: Fraction = Fraction(1, 2)) -> None:
        self._set(name, naturals, player, banker, second_sees_first, stake)
        check = _Checker(self.name)
        check.naturals(self.naturals)
        check.row("player", self.player, self.naturals)
        check.row("banker", self.banker, self.naturals)
        if CHOICE not in self.player[:10] or CHOICE not in self.banker:
            check.fail("player" if CHOICE not in self.player else "banker", "leaves no choice (C): banque is solved as a game where each side chooses")
        if not (isinstance(self.stake, Fraction) and 0 < self.stake < 1):
            check.fail("stake", f"must be a fraction strictly between 0 and 1 (the share on player 1's hand), not {self.stake!r}")


BANQUE = BanqueRules("Baccara banque")
"""Player 2 chooses knowing player 1's third card or standing (six decks in Ethier and Lee's rules)."""
BANQUE_ETHIER_LEE = BanqueRules("Baccara banque, player 2 not reading player 1's card", second_sees_first=False)
"""The simplifying assumption on one player's information, as docs/banque.md reads Ethier and Lee
(2015): player 2 chooses by his own total alone."""
BANQUE_PRESETS = {"banque": BANQUE, "banque_ethier_lee": BANQUE_ETHIER_LEE}
"""The banque rule sets by name."""
BANQUE_FIELDS = ("name", "naturals", "player", "banker", "second_sees_first", "stake")


def banque_rules_toml(rules: BanqueRules) -> str:
    """The banque rule set as a TOML file that :func:`load_banque_rules` reads back to the same rules."""
    naturals = ", ".join(str(total) for total in sorted(rules.naturals))
    return f'''# exact_odds banque rules. D draws, S stands, C is a choice; - marks a natural.
name = "{rules.name}"
naturals = [{naturals}]
# by the hand's two-card total: 0 1 2 3 4 5 6 7 8 9
player = "{' '.join(rules.player)}"
banker = "{' '.join(rules.banker)}"
second_sees_first = {str(rules.second_sees_first).lower()}   # player 2 reads player 1's third card
stake = "{rules.stake}"                  # the share of the stakes on player 1's hand
'''


def load_banque_rules(text: str, origin: str) -> BanqueRules:
    """Banque rules from the text of a TOML file (a rules file of another game is refused by its fields).

    >>> load_banque_rules(banque_rules_toml(BANQUE_ETHIER_LEE), "lee.toml") == BANQUE_ETHIER_LEE
    True
    >>> load_banque_rules(rules_toml(PUNTO_BANCO), "pb.toml")
    Traceback (most recent call last):
    exact_odds.errors.InputError: rules file pb.toml: not banque rules: unknown field 'banker_sees' (banque rules have name, naturals, player, banker, second_sees_first, stake)
    """
    try:
        data = parse_toml(text)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise InputError(f"rules file {origin}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - set(BANQUE_FIELDS))
    if unknown or "name" not in data:
        problem = f"unknown field {unknown[0]!r}" if unknown else "no field 'name'"
        raise InputError(f"rules file {origin}: not banque rules: {problem} (banque rules have {', '.join(BANQUE_FIELDS)})")
    values: dict[str, object] = {}
    for field in ("name", "player", "banker", "stake"):
        if field in data and not isinstance(data[field], str):
            raise InputError(f"rules file {origin}: {field}: expected a string, not {shown(data[field])}")
    if "naturals" in data:
        naturals = data["naturals"]
        if not isinstance(naturals, list) or not all(isinstance(total, int) and not isinstance(total, bool) for total in naturals):
            raise InputError(f"rules file {origin}: naturals: expected a list of totals such as [8, 9], not {shown(naturals)}")
        values["naturals"] = frozenset(naturals)
    if "second_sees_first" in data:
        if not isinstance(data["second_sees_first"], bool):
            raise InputError(f"rules file {origin}: second_sees_first: expected true or false, not {shown(data['second_sees_first'])}")
        values["second_sees_first"] = data["second_sees_first"]
    values.update({field: tuple(data[field].split()) for field in ("player", "banker") if field in data})
    if "stake" in data:
        values["stake"] = parse_exact(data["stake"], f"rules file {origin}: stake", "\"1/2\"")
    if not data["name"].strip():
        raise InputError(f"rules file {origin}: name: must not be empty")
    try:
        return BanqueRules(data["name"], **values)  # type: ignore[arg-type]
    except RulesError as error:
        raise RulesError(f"file {origin}", error.field, error.problem) from None


def rules_file_text(spec: str) -> str:
    """The text of the rules file at ``spec``, refused in one line where it cannot be read."""
    try:
        text = user_text(spec)
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read rules file {spec!r}: {getattr(error, 'strerror', None) or error}") from None
    return text


def banque_rules_named(spec: str) -> BanqueRules:
    """A banque preset by name, or the banque rules of a TOML file."""
    if spec in BANQUE_PRESETS:
        return BANQUE_PRESETS[spec]
    return load_banque_rules(rules_file_text(spec), spec)


class Presets(Mapping[str, DrawRules]):
    """Rule sets by name, read-only; a name that is not one is an :class:`~exact_odds.errors.UnknownName`
    (an InputError, and the KeyError of any mapping)."""

    def __init__(self, rule_sets: dict[str, DrawRules]):
        self._rule_sets = dict(rule_sets)

    def __getitem__(self, name: str) -> DrawRules:
        if not isinstance(name, str) or name not in self._rule_sets:
            raise UnknownName(f"no preset {shown(name)} (the presets: {', '.join(self._rule_sets)})", parameter="name")
        return self._rule_sets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rule_sets)

    def __len__(self) -> int:
        return len(self._rule_sets)


PRESETS = Presets({
    "punto_banco": PUNTO_BANCO,
    "baccarat_gold": BACCARAT_GOLD,
    "chemin_de_fer_a": CHEMIN_DE_FER_A,
    "chemin_de_fer_b2": CHEMIN_DE_FER_B2,
    "chemin_de_fer_b3": CHEMIN_DE_FER_B3,
})
"""The rule sets by name, as ``rules=`` and ``--rules`` take them.

>>> list(PRESETS)
['punto_banco', 'baccarat_gold', 'chemin_de_fer_a', 'chemin_de_fer_b2', 'chemin_de_fer_b3']
"""


def rules_toml(rules: DrawRules) -> str:
    """The rule set as a TOML file that :func:`load_rules` reads back to the same rules."""
    def row(marks: tuple[str, ...]) -> str:
        return " ".join(marks)

    tableau = "\n".join([TABLEAU_HEADER] + [f"{total}   {row(marks)}" for total, marks in enumerate(rules.banker_tableau)])
    naturals = ", ".join(str(total) for total in sorted(rules.naturals))
    return f'''# exact_odds rule set. D draws, S stands, C is a choice (an option point, fixed by --policy);
# - marks a total that is a natural (the coup stops before any decision).
name = "{rules.name}"
naturals = [{naturals}]          # two-card totals that stop both hands
commission = "{rules.commission}"           # percent taken from a winning banker bet
tie_pays = "{rules.tie_pays}"             # the tie bet pays this to one
player_sees = "{rules.player_sees}"      # at a choice the player sees his total, or his two cards ("cards")
banker_sees = "{rules.banker_sees}"      # the same for the banker

# by the hand's two-card total:    0 1 2 3 4 5 6 7 8 9
player =                   "{row(rules.player)}"
banker_when_player_stood = "{row(rules.banker_when_player_stood)}"

# when the player drew: banker's two-card total (rows) against the player's third-card value (columns)
banker_tableau = """
{tableau}
"""
'''


RULES_FIELDS = ("name", "naturals", "commission", "tie_pays", "player_sees", "banker_sees", "player", "banker_when_player_stood", "banker_tableau")


def load_rules(text: str, origin: str) -> DrawRules:
    """A rule set from the text of a TOML rules file (``origin`` names it in errors, which name the field).

    >>> load_rules(rules_toml(BACCARAT_GOLD), "gold.toml") == BACCARAT_GOLD
    True
    """
    text_of(origin, "origin", parameter="origin")
    text_of(text, "text", parameter="text")
    try:
        data = parse_toml(text)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise InputError(f"rules file {origin}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - set(RULES_FIELDS))
    if unknown:
        raise InputError(f"rules file {origin}: unknown field {unknown[0]!r} (expected {', '.join(RULES_FIELDS)})")
    missing = [field for field in RULES_FIELDS[:2] + RULES_FIELDS[6:] if field not in data]
    if missing:
        raise InputError(f"rules file {origin}: missing field {missing[0]!r}")

    def text_field(field: str) -> str:
        value = data[field]
        if not isinstance(value, str):
            raise InputError(f"rules file {origin}: {field}: expected a string, not {value!r}")
        return value

    def number_field(field: str, default: Fraction) -> Fraction:
        if field not in data:
            return default
        value = data[field]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise InputError(f"rules file {origin}: {field}: expected an exact number such as \"5\" or \"2.5\", not {shown(value)}")
        return parse_exact(value, f"rules file {origin}: {field}", "\"5\" or \"2.5\"")

    naturals = data["naturals"]
    if not isinstance(naturals, list) or not all(isinstance(total, int) and not isinstance(total, bool) for total in naturals):
        raise InputError(f"rules file {origin}: naturals: expected a list of totals such as [8, 9], not {naturals!r}")
    lines = [line.split() for line in text_field("banker_tableau").strip().splitlines()]
    if not lines or lines[0] != [str(value) for value in range(10)]:
        raise InputError(f"rules file {origin}: banker_tableau: the first line must be the column header 0 1 2 3 4 5 6 7 8 9")
    rows: dict[int, tuple[str, ...]] = {}
    for line in lines[1:]:
        if not line or line[0] not in tuple("0123456789") or int(line[0]) in rows:
            raise InputError(f"rules file {origin}: banker_tableau: each row starts with a banker total 0-9, once: {' '.join(line)!r}")
        rows[int(line[0])] = tuple(line[1:])
    for total in range(10):
        if total not in rows:
            if total not in naturals:
                raise InputError(f"rules file {origin}: banker_tableau: no row for banker total {total}")
            rows[total] = (NEVER,) * 10
    if not text_field("name").strip():
        raise InputError(f"rules file {origin}: name: must not be empty")
    try:
        return DrawRules(
            name=text_field("name"),
            naturals=frozenset(naturals),
            player=tuple(text_field("player").split()),
            banker_when_player_stood=tuple(text_field("banker_when_player_stood").split()),
            banker_tableau=tuple(rows[total] for total in range(10)),
            player_sees=text_field("player_sees") if "player_sees" in data else "total",
            banker_sees=text_field("banker_sees") if "banker_sees" in data else "total",
            commission=number_field("commission", Fraction(5)),
            tie_pays=number_field("tie_pays", Fraction(8)),
        )
    except RulesError as error:
        raise RulesError(f"file {origin}", error.field, error.problem) from None


def as_rules(rules: "DrawRules | str") -> DrawRules:
    """A rule set as people give one: a :class:`DrawRules`, a preset's name or a rules file's path.

    >>> as_rules("baccarat_gold").tie_pays
    Fraction(9, 1)
    """
    if isinstance(rules, DrawRules):
        return rules
    if isinstance(rules, str):
        return rules_named(rules)
    raise InputError(f"rules are a DrawRules, a preset name ({', '.join(PRESETS)}) or a rules file's path, not {shown(rules)}", parameter="rules")


def rules_named(spec: str) -> DrawRules:
    """A preset by name, or the rules of a TOML file."""
    if spec in PRESETS:
        return PRESETS[spec]
    if not os.path.isfile(spec):
        raise InputError(f"rules {spec!r} is neither a preset ({', '.join(PRESETS)}) nor a rules file", parameter="rules")
    return load_rules(rules_file_text(spec), spec)
