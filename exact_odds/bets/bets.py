"""Bets as data: a name, a description and a pay table of (condition, pays) rows.

The first row whose condition holds settles the bet; a coup no row matches loses. Pays are exact:
``"40"`` (to one), ``"19/20"``, ``"3/2"``, ``"0.54"``, ``"5 for 1"`` (returns 5, wins 4),
``"push"``, ``"lose"`` or ``"lose 1/2"`` (loses half the stake).

>>> parse_pays("19/20").net, parse_pays("5 for 1").net, parse_pays("push").net, parse_pays("lose 1/2").net
(Fraction(19, 20), Fraction(4, 1), Fraction(0, 1), Fraction(-1, 2))
"""

import os
import re
import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from math import lcm
from typing import Any

import numpy as np

from .conditions import Condition, parse_condition
from ..errors import InputError, UnknownName
from ..core.features import Array, Columns, Levels, merge_levels
from ..core.numbers import parse_exact, parse_toml, shown, text_of
from ..core.rules import DrawRules
from ..core.values import Value

NAME = re.compile(r"[a-z][a-z0-9_]*")


class Payout(Value):
    """What one unit staked wins (``net``; -1 is a loss, 0 a push), and how the table printed it."""

    __slots__ = ("net", "text")
    net: Fraction
    text: str

    def __init__(self, net: Fraction, text: str) -> None:
        self._set(net, text)


LOSE = Payout(Fraction(-1), "lose")
"""What a coup no row of a pay table matches pays: the stake is lost."""
NO_ROW = "any other result"
"""The event of a coup no row matches."""


MAX_PAY = 10**12
"""A pay is at most a trillion to one (so the decimals of an expectation and of its variance stay
within floats)."""
MAX_PAY_DIGITS = 300
"""A pay's numerator and denominator in lowest terms have at most this many digits: room for any pay
solve-pay finds (it refuses one beyond), a bound on the integers a bets file makes the maths carry."""
MAX_PAY_TEXT = 1000
"""A pay is written in at most this many characters."""
PAY = re.compile(r"(?:(lose)\s+)?([0-9./]+)(?:\s*(to|for|:)\s*([0-9./]+))?", re.ASCII)


def bounded_pay(pay: Fraction, what: str) -> Fraction:
    """``pay``, refused (``what`` names it) above :data:`MAX_PAY` to one, or when its numerator or
    denominator in lowest terms has more than :data:`MAX_PAY_DIGITS` digits."""
    if abs(pay) > MAX_PAY:
        raise InputError(f"{what}: a pay may be at most a trillion (10^12) to one")
    if max(abs(pay.numerator), pay.denominator) >= 10**MAX_PAY_DIGITS:
        raise InputError(f"{what}: in lowest terms its numerator and denominator may have at most {MAX_PAY_DIGITS} digits each")
    return pay


def parse_pays(text: object) -> Payout:
    """Parse a pay (see the module docstring): ``N`` or ``N to M`` or ``N:M`` wins N/M per unit,
    ``N for M`` returns N for M staked, ``lose F`` loses the fraction F of the stake."""
    words = " ".join(str(text).strip().lower().split())
    if words in ("push", "lose"):
        return Payout(Fraction(0 if words == "push" else -1), words)
    match = PAY.fullmatch(words)
    expected = "e.g. 40, 19/20, 3/2, 0.54, '5 for 1', push, lose or 'lose 1/2'"
    if not match:
        raise InputError(f"bad pay {shown(text)} ({expected})")
    if len(words) > MAX_PAY_TEXT:
        raise InputError(f"pay {shown(text)} is too long: at most {MAX_PAY_TEXT:,} characters")
    lose, amount, kind, per = match.groups()
    if lose and kind:
        raise InputError(f"bad pay {shown(text)} ({expected})")
    divisor = parse_exact(per, f"pay {shown(text)}", longest=MAX_PAY_TEXT) if per else Fraction(1)
    if divisor == 0:
        raise InputError(f"bad pay {shown(text)}: nothing can be paid per 0 staked")
    ratio = bounded_pay(parse_exact(amount, f"pay {shown(text)}", longest=MAX_PAY_TEXT) / divisor, f"pay {shown(text)}")
    if lose:
        if not 0 < ratio <= 1:
            raise InputError(f"bad pay {shown(text)}: lose a fraction of the stake from 0 to 1, e.g. 'lose 1/2'")
        return Payout(-ratio, words)
    net = ratio - 1 if kind == "for" else ratio
    if net < -1 or (kind != "for" and net <= 0):
        raise InputError(f"bad pay {shown(text)}: a winning row must pay more than nothing (use push, lose or 'lose 1/2')")
    return Payout(net, str(text).strip())


class PayRow(Value):
    __slots__ = ("condition", "pays", "event")
    condition: Condition
    pays: Payout
    event: str

    def __init__(self, condition: Condition, pays: Payout, event: str) -> None:
        self._set(condition, pays, event)


@dataclass(frozen=True)
class Bet:
    """A bet: its canonical name, one line of description, and its pay table."""

    name: str
    description: str
    rows: tuple[PayRow, ...]

    def __hash__(self) -> int:
        """The fields' hash, kept: bets key the caches of tables and events, looked up on every batch."""
        if "_hash" not in self.__dict__:
            self.__dict__["_hash"] = hash((self.name, self.description, self.rows))
        known: int = self.__dict__["_hash"]
        return known

    def __getstate__(self) -> dict[str, object]:
        """Without the kept hash: another process hashes text otherwise."""
        return {key: value for key, value in self.__dict__.items() if key != "_hash"}

    @cached_property
    def needs_coup(self) -> bool:
        """Whether the bet reads the settled coup (else it settles on the cards it reads)."""
        return any(row.condition.requirements()[0] for row in self.rows)

    @cached_property
    def card_slots(self) -> Levels:
        """The card slots the bet reads, with the granularity it reads them at."""
        return merge_levels(*(row.condition.requirements()[1] for row in self.rows))

    @property
    def needs_suits(self) -> bool:
        """Whether it reads suits or colours (and so needs a shoe with per-card counts)."""
        return any(level.mark for level in self.card_slots.values())

    def settle(self, columns: Columns) -> Array:
        """How the bet settles each row of ``columns`` (coups, or first cards): the line of the first
        pay-table row whose condition holds, else ``len(rows)``, the loss (see :attr:`payouts`).
        Every engine, the deal and the simulation settle by this rule, here only.

        >>> bet = bet_from_record({"name": "b", "pays": [{"when": "margin >= 2", "pays": "2"}, {"when": "margin == 3", "pays": "9"}]}, "doc")
        >>> bet.settle(Columns({"margin": np.array([1, 2, 3])})).tolist()
        [2, 0, 0]
        """
        rows = len(next(iter(columns.values())))
        lines = np.full(rows, len(self.rows), dtype=np.int64)
        unsettled = np.ones(rows, dtype=bool)
        for line, row in enumerate(self.rows):
            holds = unsettled & row.condition(columns)
            lines[holds] = line
            unsettled &= ~holds
        return lines

    @cached_property
    def payouts(self) -> tuple[Payout, ...]:
        """What each line of :meth:`settle` pays: each row's pay, then :data:`LOSE`."""
        return tuple(row.pays for row in self.rows) + (LOSE,)

    @cached_property
    def events(self) -> tuple[str, ...]:
        """The event of each line of :meth:`settle`: each row's, then :data:`NO_ROW`."""
        return tuple(row.event for row in self.rows) + (NO_ROW,)

    @cached_property
    def scaled_pays(self) -> tuple[int, tuple[int, ...]]:
        """A common denominator of the pays, and each line's net pay times it."""
        scale = lcm(*(payout.net.denominator for payout in self.payouts))
        return scale, tuple(int(payout.net * scale) for payout in self.payouts)


def settlement(bet: Bet, columns: Columns, cache: dict[Any, tuple[object, Array]] | None) -> Array:
    """:meth:`Bet.settle`, kept in ``cache`` (by the bet, a value: an equal bet, say one unpickled
    in a worker, finds it) where the rows are laid out the same for every shoe."""
    if cache is not None and bet in cache:
        return cache[bet][1]
    lines = bet.settle(columns)
    if cache is not None:
        cache[bet] = (bet, lines)
    return lines


ONE_HOT_CELLS = 1 << 20
"""The largest one-hot matrix of lines kept for a set of bets (8 MiB)."""


def one_hot_lines(bets: Sequence[Bet], columns: Columns, rows: int, cache: dict[Any, tuple[object, Array]]) -> Array | None:
    """(rows x lines of every bet) float64: 1 where the row settles on that line of that bet (the
    lines of each bet in turn, then its loss); kept in ``cache`` by the bets. None where it would
    exceed :data:`ONE_HOT_CELLS`."""
    key = tuple(bets)
    if key not in cache:
        offsets = np.cumsum([0] + [len(bet.payouts) for bet in bets]).tolist()
        if rows * offsets[-1] > ONE_HOT_CELLS:
            return None
        one_hot = np.zeros((rows, offsets[-1]))
        for bet, offset in zip(bets, offsets):
            one_hot[np.arange(rows), settlement(bet, columns, cache) + offset] = 1
        cache[key] = (tuple(bets), one_hot)
    return cache[key][1]


def bet_from_record(record: object, origin: str) -> Bet:
    """Build a bet from one TOML ``[[bet]]`` record; errors name the bet and the row."""
    if not isinstance(record, dict):
        raise InputError(f"{origin}: each [[bet]] must be a table")
    name = record.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name) or len(name) > 60:
        raise InputError(f"{origin}: bet name {shown(name)} must be lower-case letters, digits and _ (at most 60)")
    if name == "all":
        raise InputError(f"{origin}: a bet may not be named 'all', the word that chooses every bet: give it another name")
    unknown = set(record) - {"name", "description", "pays"}
    if unknown:
        raise InputError(f"{origin}: bet {name!r}: unknown key {shown(sorted(map(str, unknown))[0])} (expected name, description, pays)")
    if not isinstance(record.get("description", ""), str):
        raise InputError(f"{origin}: bet {name!r}: description must be a string")
    table = record.get("pays")
    if not isinstance(table, list) or not table:
        raise InputError(f"{origin}: bet {name!r}: pays must be a list of rows, pays = [{{ when = \"...\", pays = \"40\" }}, ...]")
    if len(table) > MAX_ROWS:
        raise InputError(f"{origin}: bet {name!r}: {len(table):,} rows; a pay table has at most {MAX_ROWS}")
    rows = []
    for number, row in enumerate(table, start=1):
        where = f"{origin}: bet {name!r}, row {number}"
        if not isinstance(row, dict) or set(row) - {"when", "pays", "event"} or "when" not in row or "pays" not in row:
            raise InputError(f"{where}: a row is {{ when = \"condition\", pays = \"40\" }} (optional event = \"words\")")
        if not isinstance(row["when"], str) or not isinstance(row.get("event", ""), str) or not isinstance(row["pays"], (str, int)) or isinstance(row["pays"], bool):
            raise InputError(f"{where}: when and event are strings, pays a string or a whole number")
        try:
            rows.append(PayRow(parse_condition(row["when"]), parse_pays(row["pays"]), row.get("event", row["when"])))
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
    return Bet(name, record.get("description", ""), tuple(rows))


MAX_ROWS = 1_000
"""A pay table has at most this many rows."""


def load_bets(text: str, origin: str) -> dict[str, Bet]:
    """Bets from the text of a TOML bets file, by name, in file order (``origin`` names it in errors).

    >>> text = '''
    ... [[bet]]
    ... name = "natural_9"
    ... description = "the player's first two cards make 9"
    ... pays = [{ when = "player_natural and player_total == 9", pays = "4" }]
    ... '''
    >>> load_bets(text, "mine.toml")["natural_9"].rows[0].pays.net
    Fraction(4, 1)
    """
    text_of(origin, "origin", parameter="origin")
    text_of(text, "text", parameter="text")
    try:
        data = parse_toml(text)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise InputError(f"{origin}: not valid TOML: {error}") from None
    records = data.get("bet")
    if not isinstance(records, list) or not records:
        raise InputError(f"{origin}: no bets (expected [[bet]] tables)")
    bets: dict[str, Bet] = {}
    for record in records:
        bet = bet_from_record(record, origin)
        if bet.name in bets:
            raise InputError(f"{origin}: duplicate bet name {bet.name!r}")
        bets[bet.name] = bet
    return bets


class Catalog(MutableMapping[str, Bet]):
    """Bets by name, each built from its record when first used, the records read when first
    needed (the shipped catalog: a command that prices the main bets, set in it from the rules,
    reads no file; one that prices three bets parses three). Bets set in it take the place of a
    record of their name, or come after the records."""

    def __init__(self, records: Callable[[], dict[str, dict[str, object]]], origin: str):
        self.read, self.origin = records, origin
        self.bets: dict[str, Bet] = {}
        self.removed: set[str] = set()

    @cached_property
    def records(self) -> dict[str, dict[str, object]]:
        return self.read()

    def __getitem__(self, name: str) -> Bet:
        if not isinstance(name, str) or name in self.removed or (name not in self.bets and name not in self.records):
            raise UnknownName(str(unknown_bet(name, self)), parameter="name")
        if name not in self.bets:
            self.bets[name] = _built(self.origin, name, self.records[name])
        return self.bets[name]

    def __setitem__(self, name: str, bet: Bet) -> None:
        if not isinstance(name, str) or not isinstance(bet, Bet) or bet.name != name:
            raise InputError(f"a catalog holds each Bet under its own name, not {shown(bet)} under {shown(name)}", parameter="name")
        self.removed.discard(name)
        self.bets[name] = bet

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise UnknownName(str(unknown_bet(name, self)), parameter="name")
        self.removed.add(name)

    def __iter__(self) -> Iterator[str]:
        return (name for name in dict.fromkeys([*self.records, *self.bets]) if name not in self.removed)

    def __len__(self) -> int:
        return sum(1 for _ in self)


_BUILT: dict[tuple[str, str], Bet] = {}


def _built(origin: str, name: str, record: dict[str, object]) -> Bet:
    """A catalog bet, built once per process (the same object every time, so tables keyed by it are shared)."""
    if (origin, name) not in _BUILT:
        _BUILT[(origin, name)] = bet_from_record(record, origin)
    return _BUILT[(origin, name)]


def catalog() -> Catalog:
    """The shipped catalog of main bets, variants and side bets (a new mapping of the same bets).

    >>> bets = catalog()
    >>> bets["dragon_7"].description, len(bets) > 40
    ('Dragon 7 (EZ Baccarat): banker wins with a three-card 7, pays 40 to 1', True)
    """
    return Catalog(_catalog_records, "catalog bets.toml")


@lru_cache(maxsize=1)
def _catalog_records() -> dict[str, dict[str, object]]:
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "bets.toml"), encoding="utf-8") as catalog_file:
        data = parse_toml(catalog_file.read())
    return {record["name"]: record for record in data["bet"]}


MAIN_BETS = ("banker", "player", "tie")


def select_bets(available: MutableMapping[str, Bet], names: str | None, suits_known: bool, own: Sequence[str] = (),
                option: str = "bets") -> tuple[list[Bet], list[str]]:
    """The bets named by ``option`` (comma-separated names or ``all``, read by :func:`bet_names`)
    and a list of notes; without it, the main bets and the user's ``own`` bets (those of ``--bets-file``).

    ``all`` leaves out bets on suits when the shoe does not know suits, and says so; a bet named, or
    one of the user's own, that reads suits is refused on such a shoe.
    """
    notes = []
    if names is None:
        chosen = [name for name in MAIN_BETS if name in available] + list(own)
    elif names.strip().lower() == "all":
        chosen = list(available)
        suited = [name for name in chosen if available[name].needs_suits]
        if suited and not suits_known:
            chosen = [name for name in chosen if name not in suited]
            notes.append(f"left out (bets on suits need a shoe with per-card counts, and this one is by rank): {', '.join(suited)}")
    else:
        chosen = bet_names(names, option)
    if names is None or names.strip().lower() != "all":
        for name in chosen:
            if name not in available:
                raise unknown_bet(name, available)
            if available[name].needs_suits and not suits_known:
                raise InputError(f"bet {name!r} reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)")
    return [available[name] for name in dict.fromkeys(chosen)], notes


def bet_names(text: str, parameter: str = "bets") -> list[str]:
    """The bet names in ``text``, separated by commas, as the command line, the library and the
    server all read them: each in lower case, the spaces around it dropped. No name, an empty name
    (``banker,,``) and a name given twice are refused in one line (an :class:`InputError` whose
    message begins with ``parameter``).

    >>> bet_names(" Banker , dragon_7")
    ['banker', 'dragon_7']
    >>> bet_names("banker,,")
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: bets 'banker,,' holds an empty name (two commas together, or one at an end): give each name once, separated by commas
    """
    if not isinstance(text, str):
        raise InputError(f"{parameter} are names separated by commas, not {shown(text)}", parameter=parameter)
    names = [name.strip().lower() for name in text.split(",")]
    if not any(names):
        raise InputError(f"{parameter} is empty (give names separated by commas, or all)", parameter=parameter)
    if "" in names:
        raise InputError(f"{parameter} {shown(text)} holds an empty name (two commas together, or one at an end): "
                         "give each name once, separated by commas", parameter=parameter)
    return names_once(names, parameter)


def names_once(names: Sequence[str], parameter: str = "bets") -> list[str]:
    """``names``, refused where one is given twice (a record by name would keep only one of them).

    >>> names_once(["banker", "tie", "banker"])
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: bets names banker twice: give each bet once
    """
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise InputError(f"{parameter} names {name} twice: give each bet once", parameter=parameter)
        seen.add(name)
    return list(names)


def unknown_bet(name: str, known: Iterable[str]) -> InputError:
    """The refusal of a bet ``name`` that is not one of ``known``, offering the closest names.

    >>> print(unknown_bet("dragon7", catalog()))
    unknown bet 'dragon7'; did you mean dragon_7?
    >>> print(unknown_bet("nope", catalog()))
    unknown bet 'nope': no bet of the catalog, the main bets or the bets given is named so
    """
    import difflib

    close = difflib.get_close_matches(name, list(known), n=3) if isinstance(name, str) and len(name) <= 100 else []
    if not close:
        return InputError(f"unknown bet {shown(name)}: no bet of the catalog, the main bets or the bets given is named so")
    return InputError(f"unknown bet {shown(name)}; did you mean {', '.join(close[:-1]) + ' or ' if len(close) > 1 else ''}{close[-1]}?")


def check_reach(chosen: Sequence[Bet], commission: bool, tie_pays: bool, own: Sequence[str] = (), own_name: str = "bets_file") -> None:
    """Refuse the main bets' pays (``commission``, ``tie_pays``: given or not) and a user's ``own``
    bets (``own_name``: where they came from) when none of the ``chosen`` bets reads them: they would
    change nothing.

    >>> check_reach([catalog()["player"]], commission=True, tie_pays=False)
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: commission sets the banker bet's pay, and the banker bet is not among the bets chosen
    """
    names = {bet.name for bet in chosen}
    for parameter, given, bet in (("commission", commission, "banker"), ("tie_pays", tie_pays, "tie")):
        if given and bet not in names:
            raise InputError(f"{parameter} sets the {bet} bet's pay, and the {bet} bet is not among the bets chosen", parameter=parameter)
    if own and names.isdisjoint(own):
        raise InputError(f"{own_name}: none of its bets ({', '.join(own)}) is among the bets chosen: name one, or leave it out",
                         parameter=own_name.split(" ")[0])

def as_bets(bets: "str | Bet | Iterable[str | Bet] | None", rules: DrawRules, suits_known: bool) -> list[Bet]:
    """Bets as people give them (see :func:`chosen_bets`); a UserWarning says what ``all`` left out.

    >>> from exact_odds.core.rules import BACCARAT_GOLD
    >>> [(bet.name, str(bet.rows[0].pays.net)) for bet in as_bets("banker, tie", BACCARAT_GOLD, True)]
    [('banker', '19/20'), ('tie', '9')]
    """
    chosen, notes = chosen_bets(bets, rules, suits_known)
    for note in notes:  # what the command line prints as a note: "all" without the bets on suits
        warnings.warn(note, UserWarning, stacklevel=3)
    return chosen


def chosen_bets(bets: "str | Bet | Iterable[str | Bet] | None", rules: DrawRules, suits_known: bool,
                available: MutableMapping[str, Bet] | None = None) -> tuple[list[Bet], list[str]]:
    """Bets as people give them, and the notes of their choice: None for the main bets, a name,
    comma-separated names or ``all`` (every catalog bet the shoe can settle: bets on suits need a
    shoe that knows suits, and a note says which were left out), a :class:`Bet`, or a list of
    either. The main bets named are those of ``rules`` (their commission and tie pay); names are
    looked up in ``available`` where given (else :func:`available_bets` of ``rules``). No bet, an
    empty name and a bet given twice are refused, as the command line refuses them
    (:func:`bet_names`)."""
    available = available_bets(rules) if available is None else available
    if bets is None:
        return select_bets(available, None, suits_known)
    if isinstance(bets, (str, Bet)):
        bets = [bets]
    if not isinstance(bets, Iterable):
        raise InputError(f"bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not {shown(bets)}", parameter="bets")
    chosen: list[Bet] = []
    notes: list[str] = []
    for bet in bets:
        if isinstance(bet, Bet):
            chosen.append(bet)
        elif isinstance(bet, str):
            named, said = select_bets(available, bet, suits_known, option="bets")
            chosen.extend(named)
            notes.extend(said)
        else:
            raise InputError(f"bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not {shown(bet)}", parameter="bets")
    if not chosen:
        raise InputError("bets is empty (give names separated by commas, or all)", parameter="bets")
    names_once([bet.name for bet in chosen], "bets")
    return chosen, notes


@lru_cache(maxsize=16)
def main_bets(rules: DrawRules) -> dict[str, Bet]:
    """The main bets: banker and tie at the rule set's commission and tie pay, and player (as the catalog has it)."""
    records: list[dict[str, Any]] = [
        {"name": "banker", "description": f"Banker wins: pays 1 to 1 less {rules.commission}% commission; a tie pushes",
         "pays": [{"when": "winner == banker", "pays": str(1 - rules.commission / 100), "event": "banker wins"},
                  {"when": "winner == tie", "pays": "push", "event": "tie"}]},
        {"name": "player", "description": "Player wins: pays 1 to 1; a tie pushes",
         "pays": [{"when": "winner == player", "pays": "1", "event": "player wins"}, {"when": "winner == tie", "pays": "push", "event": "tie"}]},
        {"name": "tie", "description": f"Tie: pays {rules.tie_pays} to 1", "pays": [{"when": "winner == tie", "pays": str(rules.tie_pays), "event": "tie"}]},
    ]
    return {record["name"]: bet_from_record(record, "rules") for record in records}


def available_bets(rules: DrawRules, user_bets: dict[str, Bet] | None = None) -> MutableMapping[str, Bet]:
    """The catalog, its main bets at the rule set's pays, and a user's bets (which may not reuse a
    catalog name: a user's ``banker`` would silently change what ``banker`` means)."""
    bets = catalog()
    bets.update(main_bets(rules))
    for name, bet in (user_bets or {}).items():
        if name in bets:
            raise InputError(f"bets file: bet {name!r} is already in the catalog; give it another name")
        bets[name] = bet
    return bets

