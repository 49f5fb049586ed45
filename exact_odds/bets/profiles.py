"""Table profiles as data: what one casino table offers, as a player sits down at it.

A profile names the bets the table offers (its banker bet with or without commission, the tie at
8 or 9 to 1, its side bets: each a catalog bet or a bet of the profile's own), each with its
minimum and maximum, the smallest chip (every stake and limit is a whole number of chips), a
rebate on losses, the number of decks, and how the shoe is burned and cut. It checks itself when
made: a refusal is one line naming the field (an :class:`~exact_odds.errors.InputError` whose
``parameter`` is the field). Presets by name (:data:`TABLES`, read from ``data/tables.toml``), or
a TOML file of the user's own in the same format (:func:`load_profile`, :func:`profile_toml`).

>>> ez = TABLES["ez_baccarat"]
>>> [bet.name for bet in ez.pay_tables], ez.chip, ez.minimum["dragon_7"], ez.maximum["dragon_7"]
(['ez_banker', 'player', 'tie', 'dragon_7', 'panda_8'], Fraction(5, 1), Fraction(5, 1), Fraction(100, 1))
>>> load_profile(profile_toml(ez), "copy.toml") == ez
True
"""

import difflib
import numbers
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, NoReturn

from ..core.numbers import exact_value, parse_exact, parse_toml, shown, text_of
from ..core.rules import PRESETS, DrawRules
from ..core.shoe import CARDS_PER_COUP
from ..errors import InputError, UnknownName
from .bets import NAME, Bet, bet_from_record, bounded_pay, catalog, main_bets, parse_pays

BURN_PROCEDURES = ("punto_banco", "none")
"""punto_banco: at the start of a shoe a card is turned and as many burned face down as its value
(tens and faces 10); none: no burn but what the dealer is seen to do."""
BURNED_AT_MOST = {"punto_banco": 11, "none": 0}
"""The most cards each burn procedure takes before the first coup (the card turned and ten more)."""
BANKER_BETS = ("banker", "ez_banker", "no_commission_banker")
"""The bets on the banker hand a table may offer, one of them (``banker`` at the profile's commission)."""
MAIN_BETS = (*BANKER_BETS, "player", "tie")
"""The main bets: one banker bet, the player bet and, at most tables, the tie (at the profile's tie pay)."""
ALIASES = {"banker_4pct": "banker, with commission = \"4\"", "tie_9to1": "tie, with tie_pays = \"9\""}
"""Catalog bets a profile names by its main bet and a pay instead (one home for the pay: the rules')."""
MAX_DECKS = 100
"""A table's shoe holds at most this many decks (as a live session's)."""
MAX_BETS = 64
"""A table offers at most this many bets."""
LONGEST = {"title": 200, "note": 500, "source": 1000}
"""The longest title, note and source, in characters."""
FIELDS = ("name", "title", "source", "note", "rules", "commission", "tie_pays", "decks", "chip", "rebate", "burn",
          "cut_card", "penetration", "bets", "bet")
"""The keys of a ``[[table]]`` record, in the order :func:`profile_toml` writes them (``bet``: its own bets)."""


class ProfileError(InputError):
    """A table profile that cannot be: names the table, the field and the problem."""

    def __init__(self, origin: str, field: str, problem: str):
        super().__init__(f"table {origin}: {field}: {problem}", parameter=field)
        self.field, self.problem = field, problem


@dataclass(frozen=True)
class TableBet:
    """One bet a table offers: its name, its minimum and maximum stake (None: none posted), and the
    pays of its pay table's rows as the table shows them (None: not given; given, they must be the
    bet's own, checked when the profile is made)."""

    name: str
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    pays: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class TableProfile:
    """A casino table (see the module docstring); every field is checked when the profile is made.

    >>> TableProfile(name="mine", title="Mine", bets=("banker", "player", TableBet("dragon_7", 5, 100)), chip=10)
    Traceback (most recent call last):
    ...
    exact_odds.bets.profiles.ProfileError: table 'mine': minimum: the minimum for dragon_7 (5) is not a whole number of chips of 10
    """

    name: str
    title: str
    bets: tuple[TableBet, ...]
    """The bets offered, in the table's order (a name stands for a bet without posted limits)."""
    rules: str = "punto_banco"
    """The drawing rules: a preset's name (:data:`~exact_odds.core.rules.PRESETS`)."""
    commission: Fraction | None = None
    """Percent taken from a winning ``banker`` bet (None: the rules' own, 5)."""
    tie_pays: Fraction | None = None
    """What the ``tie`` bet pays, to one (None: the rules' own, 8)."""
    decks: int = 8
    chip: Fraction = Fraction(1)
    """The smallest chip: every limit, and every stake, is a whole number of them."""
    rebate: Fraction = Fraction(0)
    """Percent of every losing bet's loss returned, from 0 to below 100."""
    burn: str = "punto_banco"
    cut_card: int | None = None
    """How many cards lie behind the cut card (None: no cut card, or given as a penetration)."""
    penetration: Fraction | None = None
    """The share of the shoe dealt before the cut card, where the cut card is given so."""
    own_bets: tuple[Bet, ...] = ()
    """Bets of the profile's own (its ``[[table.bet]]`` records), each offered under a name of its own."""
    source: str = ""
    """Where the table's rules and pays are published."""
    note: str = ""

    def __post_init__(self) -> None:
        """Normalize what people give (ints and text for amounts, names for bets) and refuse what
        cannot be, each refusal naming its field."""
        fail = _Failure(repr(self.name) if isinstance(self.name, str) else shown(self.name))
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name) or len(self.name) > 60:
            fail("name", f"must be lower-case letters, digits and _ (at most 60), starting with a letter, not {shown(self.name)}")
        for key in ("title", "source", "note"):
            self._text(fail, key, required=key == "title")
        if not isinstance(self.rules, str) or self.rules not in PRESETS:
            fail("rules", f"{shown(self.rules)} is not a preset's name ({', '.join(PRESETS)}){_did_you_mean(self.rules, list(PRESETS))}")
        self._numbers(fail)
        self._shoe(fail)
        offered = self._offered(fail)
        self._own_bets(fail, [bet.name for bet in offered])
        self._bets(fail, offered)

    def _text(self, fail: "_Failure", key: str, required: bool) -> None:
        value = getattr(self, key)
        if not isinstance(value, str) or (required and not value.strip()):
            fail(key, f"must be {'a non-empty' if required else ''} line of text, not {shown(value)}".replace("  ", " "))
        if len(value) > LONGEST[key]:
            fail(key, f"is {len(value):,} characters long; at most {LONGEST[key]:,}")
        if any(ord(character) < 32 or ord(character) == 127 for character in value):
            fail(key, "must be one line of text, without control characters")

    def _numbers(self, fail: "_Failure") -> None:
        for key in ("commission", "tie_pays", "chip", "rebate"):
            if getattr(self, key) is not None or key in ("chip", "rebate"):
                object.__setattr__(self, key, _amount(getattr(self, key), fail, key))
        if self.commission is not None and not 0 <= self.commission < 100:
            fail("commission", f"must be a percentage from 0 to below 100, not {self.commission}")
        if self.tie_pays is not None:
            if self.tie_pays <= 0:
                fail("tie_pays", f"must be a positive pay such as 8 or 9, not {self.tie_pays}")
            try:
                bounded_pay(self.tie_pays, "the tie's pay")
            except InputError as error:
                fail("tie_pays", str(error))
        if self.chip <= 0:
            fail("chip", f"must be a positive amount (the smallest chip), not {self.chip}")
        if not 0 <= self.rebate < 100:
            fail("rebate", f"must be a percentage of losses from 0 to below 100, not {self.rebate}")
        if isinstance(self.decks, bool) or not isinstance(self.decks, numbers.Integral) or not 1 <= self.decks <= MAX_DECKS:
            fail("decks", f"must be a whole number of decks from 1 to {MAX_DECKS}, not {shown(self.decks)}")
        object.__setattr__(self, "decks", int(self.decks))

    def _shoe(self, fail: "_Failure") -> None:
        if self.burn not in BURN_PROCEDURES:
            fail("burn", f"must be one of {', '.join(BURN_PROCEDURES)}, not {shown(self.burn)}")
        if self.cut_card is not None and self.penetration is not None:
            fail("cut_card", "give the cut card's place once: as cards behind it (cut_card) or as a penetration, not both")
        size, needed = self.shoe_size, BURNED_AT_MOST[self.burn] + CARDS_PER_COUP
        if self.cut_card is not None:
            if isinstance(self.cut_card, bool) or not isinstance(self.cut_card, numbers.Integral) or self.cut_card < 0:
                fail("cut_card", f"must be a whole number of cards behind the cut card, not {shown(self.cut_card)}")
            object.__setattr__(self, "cut_card", int(self.cut_card))
            if size - self.cut_card < needed:
                fail("cut_card", f"{self.cut_card} cards behind the cut card leave {max(0, size - self.cut_card)} of the {size} before it, "
                                 f"and the burn (up to {BURNED_AT_MOST[self.burn]} cards) and one coup ({CARDS_PER_COUP}) need {needed}")
        if self.penetration is not None:
            share = _amount(self.penetration, fail, "penetration")
            object.__setattr__(self, "penetration", share)
            if not 0 < share <= 1:
                fail("penetration", f"must be the share of the shoe dealt before the cut card, above 0 and at most 1, not {share}")
            if (share * size).denominator != 1:
                fail("penetration", f"{share} of {size} cards is {share * size} cards, not a whole number: give cut_card (the cards behind it)")
            if share * size < needed:
                fail("penetration", f"{share} of {size} cards leaves {share * size} before the cut card, and the burn (up to "
                                    f"{BURNED_AT_MOST[self.burn]} cards) and one coup ({CARDS_PER_COUP}) need {needed}")

    def _offered(self, fail: "_Failure") -> tuple[TableBet, ...]:
        """The bets offered, each a :class:`TableBet` (a name stands for one without posted limits)."""
        if isinstance(self.bets, (str, TableBet)) or not isinstance(self.bets, Sequence) or not self.bets:
            fail("bets", f"must name the bets the table offers (names or TableBet), not {shown(self.bets)}")
        if len(self.bets) > MAX_BETS:
            fail("bets", f"a table offers at most {MAX_BETS} bets, not {len(self.bets)}")
        offered = tuple(TableBet(bet) if isinstance(bet, str) else bet for bet in self.bets)
        for bet in offered:
            if not isinstance(bet, TableBet) or not isinstance(bet.name, str):
                fail("bets", f"each bet is a name or a TableBet, not {shown(bet)}")
        return offered

    def _own_bets(self, fail: "_Failure", offered: list[str]) -> None:
        if isinstance(self.own_bets, (str, Bet)) or not isinstance(self.own_bets, Sequence) or not all(isinstance(bet, Bet) for bet in self.own_bets):
            fail("bet", f"the table's own bets must be a sequence of Bet, not {shown(self.own_bets)}")
        object.__setattr__(self, "own_bets", tuple(self.own_bets))
        names = [bet.name for bet in self.own_bets]
        shipped = catalog()
        for name in names:
            if names.count(name) > 1:
                fail("bet", f"the table's own bet {name!r} is given twice")
            if name in shipped or name in MAIN_BETS:
                fail("bet", f"the table's own bet {name!r} takes the name of a catalog bet, whose pay table is the catalog's: "
                            "give the table's own pay table a name of its own")
            if name not in offered:
                fail("bet", f"the table's own bet {name!r} is not among the bets it offers: offer it, or leave it out")

    def _bets(self, fail: "_Failure", offered: tuple[TableBet, ...]) -> None:
        names = [bet.name for bet in offered]
        own = {bet.name: bet for bet in self.own_bets}
        known = [*MAIN_BETS, *catalog(), *own]
        for name in names:
            if name in ALIASES:
                fail("bets", f"{name} is a catalog name for a main bet at another pay: offer {ALIASES[name]}")
            if name not in known:
                fail("bets", f"unknown bet {shown(name)}{_did_you_mean(name, known)}")
            if names.count(name) > 1:
                fail("bets", f"{name} is offered twice")
        bankers = [name for name in names if name in BANKER_BETS]
        if len(bankers) != 1 or "player" not in names:
            fail("bets", f"a table offers one banker bet ({', '.join(BANKER_BETS)}) and the player bet, not {', '.join(names)}")
        for key, bet in (("commission", "banker"), ("tie_pays", "tie")):
            if getattr(self, key) is not None and bet not in names:
                fail(key, f"sets the {bet} bet's pay, and the table does not offer the {bet} bet")
        object.__setattr__(self, "bets", tuple(_checked_bet(bet, self._pay_table(bet.name), self.chip, fail) for bet in offered))

    def _pay_table(self, name: str) -> Bet:
        if name in ("banker", "player", "tie"):
            return main_bets(self.draw_rules)[name]
        own = {bet.name: bet for bet in self.own_bets}
        return own[name] if name in own else catalog()[name]

    @cached_property
    def draw_rules(self) -> DrawRules:
        """The drawing rules with the table's main-bet pays (its commission and tie pay)."""
        return PRESETS[self.rules].with_pays(self.commission, self.tie_pays)

    @cached_property
    def pay_tables(self) -> tuple[Bet, ...]:
        """The bets offered, as :class:`~exact_odds.bets.bets.Bet` (banker and tie at the table's pays)."""
        return tuple(self._pay_table(bet.name) for bet in self.bets)

    @property
    def minimum(self) -> dict[str, Fraction]:
        """The posted minimums by bet, exact (what :class:`~exact_odds.studies.sizing.Limits` takes)."""
        return {bet.name: bet.minimum for bet in self.bets if bet.minimum is not None}

    @property
    def maximum(self) -> dict[str, Fraction]:
        """The posted maximums by bet, exact."""
        return {bet.name: bet.maximum for bet in self.bets if bet.maximum is not None}

    @property
    def rebate_share(self) -> Fraction:
        """The rebate as a share of losses (what sizing's ``rebate`` takes)."""
        return self.rebate / 100

    @property
    def shoe_size(self) -> int:
        return 52 * self.decks

    @property
    def cards_behind_cut(self) -> int | None:
        """How many cards lie behind the cut card, however it was given (None: no cut card)."""
        if self.penetration is not None:
            return int(self.shoe_size - self.penetration * self.shoe_size)
        return self.cut_card

    @property
    def needs_suits(self) -> bool:
        """Whether a bet offered reads suits (cards are then entered with their suits)."""
        return any(bet.needs_suits for bet in self.pay_tables)

    def to_dict(self) -> dict[str, Any]:
        """The profile as JSON (exact amounts as text; the commission and tie pay where the table
        offers the banker and tie bets they set), with each bet's pay table.

        >>> TABLES["ez_baccarat"].to_dict()["bets"][3]
        {'name': 'dragon_7', 'description': 'Dragon 7 (EZ Baccarat): banker wins with a three-card 7, pays 40 to 1', 'pays': [{'event': 'banker wins with a three-card 7', 'pays': '40'}], 'minimum': '5', 'maximum': '100'}
        """
        def text(value: Fraction | None) -> str | None:
            return None if value is None else str(value)

        offered = [bet.name for bet in self.bets]
        return {
            "name": self.name, "title": self.title, "source": self.source, "note": self.note, "rules": self.rules,
            "commission": text(self.draw_rules.commission) if "banker" in offered else None,
            "tie_pays": text(self.draw_rules.tie_pays) if "tie" in offered else None, "decks": self.decks,
            "chip": str(self.chip), "rebate": str(self.rebate), "burn": self.burn, "cut_card": self.cut_card,
            "penetration": text(self.penetration), "cards_behind_cut": self.cards_behind_cut, "needs_suits": self.needs_suits,
            "bets": [{"name": bet.name, "description": table.description,
                      "pays": [{"event": row.event, "pays": row.pays.text} for row in table.rows],
                      "minimum": text(bet.minimum), "maximum": text(bet.maximum)}
                     for bet, table in zip(self.bets, self.pay_tables)],
        }


class _Failure:
    """Raises the refusal of one field of the table named ``origin``."""

    def __init__(self, origin: str):
        self.origin = origin

    def __call__(self, key: str, problem: str) -> NoReturn:
        raise ProfileError(self.origin, key, problem)


def _amount(value: object, fail: _Failure, key: str) -> Fraction:
    """An exact amount as people give one: an int, a Fraction, or its text (``"2.5"``, ``"5/2"``)."""
    try:
        return parse_exact(value, key) if isinstance(value, str) else exact_value(value, key)
    except InputError as error:
        fail(key, str(error).removeprefix(f"{key} "))


def _did_you_mean(name: object, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3) if isinstance(name, str) and len(name) <= 100 else []
    return f"; did you mean {' or '.join(close)}?" if close else ""


def _checked_bet(bet: TableBet, table: Bet, chip: Fraction, fail: _Failure) -> TableBet:
    """``bet`` with exact limits, each a whole number of chips, and its pays (if given) the pay table's."""
    limits = {}
    for key in ("minimum", "maximum"):
        value = getattr(bet, key)
        if value is not None:
            amount = _amount(value, fail, key)
            if amount <= 0:
                fail(key, f"the {key} for {bet.name} must be positive, not {amount}")
            if (amount / chip).denominator != 1:
                fail(key, f"the {key} for {bet.name} ({amount}) is not a whole number of chips of {chip}")
            limits[key] = amount
    if "minimum" in limits and "maximum" in limits and limits["minimum"] > limits["maximum"]:
        fail("minimum", f"the minimum for {bet.name} ({limits['minimum']}) is above its maximum ({limits['maximum']})")
    pays = bet.pays
    if pays is not None:
        if isinstance(pays, str) or not isinstance(pays, Sequence) or not all(isinstance(pay, str) for pay in pays):
            fail("pays", f"the pays of {bet.name} are a list of pays as text, one per row of its pay table, not {shown(pays)}")
        pays = tuple(pays)
        try:
            given = [parse_pays(pay).net for pay in pays]
        except InputError as error:
            fail("pays", f"{bet.name}: {error}")
        if given != [row.pays.net for row in table.rows]:
            fail("pays", f"{bet.name} pays {', '.join(row.pays.text for row in table.rows)} (its pay table's rows), not {', '.join(pays)}: "
                         "a table that pays otherwise offers a bet of its own ([[table.bet]], under a name of its own)")
    return TableBet(bet.name, limits.get("minimum"), limits.get("maximum"), pays)


def profile_from_record(record: object, origin: str) -> TableProfile:
    """A profile from one ``[[table]]`` record of a TOML file (``origin`` names the file in errors)."""
    if not isinstance(record, dict):
        raise InputError(f"table file {origin}: each [[table]] must be a table of keys")
    label = f"file {origin}, table {shown(record.get('name'))}"
    unknown = sorted(set(record) - set(FIELDS))
    if unknown:
        raise ProfileError(label, unknown[0], f"unknown key (expected {', '.join(FIELDS)})")
    for key in ("name", "title"):
        if key not in record:
            raise ProfileError(label, key, "missing")
    if "bets" not in record or not isinstance(record["bets"], dict):
        raise ProfileError(label, "bets", "missing: one [table.bets.NAME] table per bet offered (its minimum, maximum and pays)")
    given: dict[str, Any] = {key: record[key] for key in ("name", "title", "source", "note", "rules", "burn", "decks", "cut_card") if key in record}
    for key in ("commission", "tie_pays", "chip", "rebate", "penetration"):
        if key in record:
            given[key] = _number_text(record[key], label, key)
    for key in ("decks", "cut_card"):
        if key in given and (isinstance(given[key], bool) or not isinstance(given[key], int)):
            raise ProfileError(label, key, f"expected a whole number such as 8, not {shown(given[key])}")
    bets = []
    for name, entry in record["bets"].items():
        if not isinstance(entry, dict) or set(entry) - {"minimum", "maximum", "pays"}:
            raise ProfileError(label, "bets", f"{name}: a bet offered is a table of minimum, maximum and pays, not {shown(entry)}")
        pays = entry.get("pays")
        if pays is not None and (not isinstance(pays, list) or not all(isinstance(pay, (str, int)) and not isinstance(pay, bool) for pay in pays)):
            raise ProfileError(label, "pays", f"{name}: pays is a list of its pay table's pays, such as [\"40\"], not {shown(pays)}")
        limits: dict[str, Any] = {key: _number_text(entry[key], label, key) for key in ("minimum", "maximum") if key in entry}
        bets.append(TableBet(name, **limits, pays=None if pays is None else tuple(str(pay) for pay in pays)))
    own = record.get("bet", [])
    if not isinstance(own, list):
        raise ProfileError(label, "bet", "the table's own bets are [[table.bet]] records, as in a bets file")
    try:
        return TableProfile(**given, bets=tuple(bets), own_bets=tuple(bet_from_record(entry, f"table file {origin}") for entry in own))
    except ProfileError as error:
        raise ProfileError(label, error.field, error.problem) from None


def _number_text(value: object, label: str, key: str) -> str:
    """An exact number of a TOML file: text such as ``"2.5"`` or a whole number (never a float)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ProfileError(label, key, f"expected an exact number such as \"5\" or \"2.5\" (text) or 5, not {shown(value)}")
    return str(value)


def load_profiles(text: str, origin: str) -> dict[str, TableProfile]:
    """The profiles of a TOML file's ``[[table]]`` records, by name, in file order."""
    text_of(origin, "origin", parameter="origin")
    text_of(text, "text", parameter="text")
    try:
        data = parse_toml(text)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise InputError(f"table file {origin}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - {"table"})
    if unknown or not isinstance(data.get("table"), list) or not data["table"]:
        raise InputError(f"table file {origin}: expected [[table]] records only" + (f", not {unknown[0]!r}" if unknown else ""))
    profiles: dict[str, TableProfile] = {}
    for record in data["table"]:
        profile = profile_from_record(record, origin)
        if profile.name in profiles:
            raise InputError(f"table file {origin}: two tables are named {profile.name!r}", parameter="name")
        profiles[profile.name] = profile
    return profiles


def load_profile(text: str, origin: str) -> TableProfile:
    """The one profile of a TOML file (a ``[[table]]`` record, as :func:`profile_toml` writes and
    ``data/tables.toml`` holds); ``origin`` names the file in errors.

    >>> load_profile(profile_toml(TABLES["super_6"]), "super.toml").maximum["super_6"]
    Fraction(500, 1)
    """
    profiles = load_profiles(text, origin)
    if len(profiles) != 1:
        raise InputError(f"table file {origin}: holds {len(profiles)} tables; a profile file holds one (give one [[table]])")
    return next(iter(profiles.values()))


def _quoted(text: str) -> str:
    """``text`` as a TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(f"\\u{ord(character):04x}" if ord(character) < 32 or ord(character) == 127 else character
                         for character in escaped) + '"'


def profile_toml(profile: TableProfile) -> str:
    """The profile as a TOML file that :func:`load_profile` reads back to the same profile."""
    def amount(value: Fraction) -> str:
        return _quoted(str(value))

    lines = ["# exact_odds table profile (docs/tables.md): the bets a table offers, its limits and chips, its shoe.", "[[table]]"]
    for key in ("name", "title", "source", "note", "rules"):
        if getattr(profile, key) or key in ("name", "title", "rules"):
            lines.append(f"{key} = {_quoted(getattr(profile, key))}")
    for key in ("commission", "tie_pays", "chip", "rebate", "penetration"):
        if getattr(profile, key) is not None:
            lines.append(f"{key} = {amount(getattr(profile, key))}")
    lines += [f"decks = {profile.decks}", f"burn = {_quoted(profile.burn)}"]
    if profile.cut_card is not None:
        lines.append(f"cut_card = {profile.cut_card}        # cards behind the cut card")
    for bet in profile.bets:
        lines += ["", f"[table.bets.{bet.name}]"]
        lines += [f"{key} = {amount(getattr(bet, key))}" for key in ("minimum", "maximum") if getattr(bet, key) is not None]
        if bet.pays is not None:
            lines.append(f"pays = [{', '.join(_quoted(pay) for pay in bet.pays)}]")
    for own in profile.own_bets:
        lines += ["", "[[table.bet]]", f"name = {_quoted(own.name)}", f"description = {_quoted(own.description)}", "pays = ["]
        lines += [f"  {{ when = {_quoted(row.condition.text)}, pays = {_quoted(row.pays.text)}, event = {_quoted(row.event)} }},"
                  for row in own.rows]
        lines.append("]")
    return "\n".join(lines) + "\n"


class TablePresets(Mapping[str, TableProfile]):
    """The preset tables by name, read-only, read from ``data/tables.toml`` when first used; a name
    that is not one is an :class:`~exact_odds.errors.UnknownName`."""

    def __getitem__(self, name: str) -> TableProfile:
        presets = _presets()
        if not isinstance(name, str) or name not in presets:
            raise UnknownName(f"no table {shown(name)} (the tables: {', '.join(presets)}){_did_you_mean(name, list(presets))}",
                              parameter="table")
        return presets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_presets())

    def __len__(self) -> int:
        return len(_presets())


@lru_cache(maxsize=1)
def _presets() -> dict[str, TableProfile]:
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "tables.toml")
    with open(path, encoding="utf-8") as presets_file:
        return load_profiles(presets_file.read(), "tables.toml")


TABLES = TablePresets()
"""The preset tables, as ``--table`` and the server's tables take them (limits and chips are examples).

>>> list(TABLES)
['punto_banco', 'ez_baccarat', 'dragon_bonus', 'super_6', 'no_commission', 'mini_baccarat']
"""


def as_profile(table: "TableProfile | str") -> TableProfile:
    """A table as people give one: a :class:`TableProfile`, a preset's name or a profile file's path.

    >>> as_profile("mini_baccarat").chip
    Fraction(1, 1)
    """
    if isinstance(table, TableProfile):
        return table
    if not isinstance(table, str):
        raise InputError(f"a table is a TableProfile, a preset's name ({', '.join(TABLES)}) or a profile file's path, not {shown(table)}",
                         parameter="table")
    if table in TABLES:
        return TABLES[table]
    if not os.path.isfile(table):
        raise InputError(f"table {table!r} is neither a preset ({', '.join(TABLES)}) nor a profile file{_did_you_mean(table, list(TABLES))}",
                         parameter="table")
    try:
        with open(table, encoding="utf-8") as profile_file:
            text = profile_file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read table file {table!r}: {getattr(error, 'strerror', None) or error}", parameter="table") from None
    return load_profile(text, table)

