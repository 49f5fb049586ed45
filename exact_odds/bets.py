"""Bets as data: a name, a description and a pay table of (condition, pays) rows.

The first row whose condition holds settles the bet; a coup no row matches loses. Pays are exact:
``"40"`` (to one), ``"19/20"``, ``"3/2"``, ``"0.54"``, ``"5 for 1"`` (returns 5, wins 4),
``"push"`` or ``"lose"``.

>>> parse_pays("19/20").net, parse_pays("5 for 1").net, parse_pays("push").net
(Fraction(19, 20), Fraction(4, 1), Fraction(0, 1))
"""

import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from importlib import resources
from math import lcm
from pathlib import Path

from .conditions import Condition, parse_condition
from .enumerator import merge_levels
from .errors import InputError

NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Payout:
    """What one unit staked wins (``net``; -1 is a loss, 0 a push), and how the table printed it."""

    net: Fraction
    text: str


LOSE = Payout(Fraction(-1), "lose")


def parse_pays(text) -> Payout:
    """Parse a pay (see the module docstring)."""
    words = str(text).strip().lower()
    if words in ("push", "lose"):
        return Payout(Fraction(0 if words == "push" else -1), words)
    match = re.fullmatch(r"(\d+(?:\.\d+)?(?:/\d+)?)\s*(?:(to|for|:)\s*(\d+))?", words)
    if not match:
        raise InputError(f"bad pay {str(text)!r} (expected e.g. 40, 19/20, 3/2, 0.54, '5 for 1', push or lose)")
    amount, kind, per = match.groups()
    try:
        ratio = Fraction(amount) / Fraction(per or 1)
    except ZeroDivisionError:
        raise InputError(f"bad pay {str(text)!r}: division by zero") from None
    net = ratio - 1 if kind == "for" else ratio
    if net < 0 or (kind == "for" and net == 0):
        raise InputError(f"bad pay {str(text)!r}: a winning row must pay more than nothing (use push or lose)")
    return Payout(net, str(text).strip())


@dataclass(frozen=True)
class PayRow:
    condition: Condition
    pays: Payout
    event: str


@dataclass(frozen=True)
class Bet:
    """A bet: its canonical name, one line of description, and its pay table."""

    name: str
    description: str
    rows: tuple[PayRow, ...]

    @cached_property
    def needs_coup(self) -> bool:
        """Whether the bet reads the settled coup (else it settles on the cards it reads)."""
        return any(row.condition.requirements()[0] for row in self.rows)

    @cached_property
    def card_slots(self) -> dict[str, int]:
        """The card slots the bet reads, with the granularity (value, rank, card) it reads them at."""
        return merge_levels(*(row.condition.requirements()[1] for row in self.rows))

    @property
    def needs_suits(self) -> bool:
        return any(level == 2 for level in self.card_slots.values())

    @cached_property
    def scaled_pays(self) -> tuple[int, tuple[int, ...]]:
        """A common denominator of the pays, and each line's net pay times it (then a loss)."""
        scale = lcm(*(row.pays.net.denominator for row in self.rows))
        return scale, tuple(int(row.pays.net * scale) for row in self.rows) + (-scale,)


def bet_from_record(record: dict, origin: str) -> Bet:
    """Build a bet from one TOML ``[[bet]]`` record; errors name the bet and the row."""
    if not isinstance(record, dict):
        raise InputError(f"{origin}: each [[bet]] must be a table")
    name = record.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InputError(f"{origin}: bet name {name!r} must be lower-case letters, digits and _")
    unknown = set(record) - {"name", "description", "pays"}
    if unknown:
        raise InputError(f"{origin}: bet {name!r}: unknown key {sorted(unknown)[0]!r} (expected name, description, pays)")
    table = record.get("pays")
    if not isinstance(table, list) or not table:
        raise InputError(f"{origin}: bet {name!r}: empty pay table (give pays = [{{ when = ..., pays = ... }}, ...])")
    rows = []
    for number, row in enumerate(table, start=1):
        where = f"{origin}: bet {name!r}, row {number}"
        if not isinstance(row, dict) or set(row) - {"when", "pays", "event"} or "when" not in row or "pays" not in row:
            raise InputError(f"{where}: a row is {{ when = \"condition\", pays = \"40\" }} (optional event = \"words\")")
        try:
            rows.append(PayRow(parse_condition(str(row["when"])), parse_pays(row["pays"]), str(row.get("event", row["when"]))))
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
    return Bet(name, str(record.get("description", "")), tuple(rows))


def load_bets(text: str, origin: str) -> dict[str, Bet]:
    """Bets from the text of a TOML bets file, by name, in file order."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
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


def catalog() -> dict[str, Bet]:
    """The shipped catalog of main bets, variants and side bets."""
    return load_bets(resources.files("exact_odds").joinpath("data/bets.toml").read_text(encoding="utf-8"), "catalog bets.toml")


def bets_file(path: str) -> dict[str, Bet]:
    """Bets from a user's TOML file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read bets file {path!r}: {error.strerror}") from None
    return load_bets(text, path)


MAIN_BETS = ("banker", "player", "tie")


def select_bets(available: dict[str, Bet], names: str | None, suits_known: bool) -> tuple[list[Bet], list[str]]:
    """The bets named by ``--bets`` (comma-separated names or ``all``) and a list of notes.

    ``all`` leaves out bets on suits when the shoe does not know suits, and says so.
    """
    notes = []
    if names is None:
        chosen = [name for name in MAIN_BETS if name in available]
    elif names.strip().lower() == "all":
        chosen = list(available)
        suited = [name for name in chosen if available[name].needs_suits]
        if suited and not suits_known:
            chosen = [name for name in chosen if name not in suited]
            notes.append(f"left out (bets on suits need a shoe with per-card counts, and this one is by rank): {', '.join(suited)}")
    else:
        chosen = [name.strip().lower() for name in names.split(",") if name.strip()]
        if not chosen:
            raise InputError("--bets is empty (give names separated by commas, or all)")
        for name in chosen:
            if name not in available:
                raise InputError(f"unknown bet {name!r} (see `baccarat-odds bets` for the catalog)")
            if available[name].needs_suits and not suits_known:
                raise InputError(f"bet {name!r} reads suits, but the shoe is given by rank only (give per-card counts, e.g. --shoe 9h=7,...)")
    return [available[name] for name in dict.fromkeys(chosen)], notes


def main_bet_variants(commission: str, tie_pays: str) -> dict[str, Bet]:
    """The banker bet at another commission (percent) and the tie bet at another pay, as ``banker`` and ``tie``."""
    try:
        rate = Fraction(str(commission).strip().rstrip("%"))
    except (ValueError, ZeroDivisionError):
        raise InputError(f"--commission must be a percentage such as 5 or 2.5, not {commission!r}") from None
    if not 0 <= rate < 100:
        raise InputError(f"--commission must be at least 0 and below 100 percent, not {commission!r}")
    tie = parse_pays(tie_pays)
    if tie.net <= 0:
        raise InputError(f"--tie-pays must be a positive pay such as 8 or 9, not {tie_pays!r}")
    banker_pays = 1 - rate / 100
    records = [
        {"name": "banker", "description": f"Banker wins: pays 1 to 1 less {rate}% commission; a tie pushes",
         "pays": [{"when": "winner == banker", "pays": str(banker_pays), "event": "banker wins"}, {"when": "winner == tie", "pays": "push", "event": "tie"}]},
        {"name": "tie", "description": f"Tie: pays {tie.text} to 1", "pays": [{"when": "winner == tie", "pays": tie.text, "event": "tie"}]},
    ]
    return {record["name"]: bet_from_record(record, "command line") for record in records}


def describe_bets(bets: dict[str, Bet]) -> str:
    """The catalog in words: each bet's name, description and pay table."""
    lines = []
    for bet in bets.values():
        lines.append(f"{bet.name}: {bet.description}")
        for row in bet.rows:
            lines.append(f"    {row.pays.text:>9}  {row.event}   [{row.condition.text}]")
        lines.append(f"    {'lose':>9}  any other result")
    return "\n".join(lines) + "\n"
