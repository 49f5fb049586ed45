"""A live session's request (:class:`SessionRequest`): the shoe, rules and bets to track, or a table
that sets them, and the session's own fields; checked once and made into the :class:`Settings` the
session is stored with and its :class:`Table` (the starting shoe, the decisions and the bets), for
the server's sessions (:mod:`exact_odds.serve.sessions`: the log and the kept state).

>>> request = SessionRequest(table="ez_baccarat")
>>> request.settings.decks, request.settings.cut_card, request.made.start.size, [bet.name for bet in request.made.bets][:2]
(8, 16, 416, ['ez_banker', 'player'])
>>> SessionRequest(table="ez_baccarat", burn="none")
Traceback (most recent call last):
...
exact_odds.errors.InputError: burn: the table (ez_baccarat) sets the shoe, rules, bets, burn and cut card: leave burn out, or give a profile of your own (table_toml)
"""

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bets.bets import Bet
from ..bets.profiles import BURN_PROCEDURES, TABLES, TableProfile, load_profile, profile_toml
from ..core.numbers import shown
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..errors import InputError
from .setup import MAX_TEXT, Setup, TooLarge

MAX_SHOE_CARDS = 5_200
"""A session's shoe holds at most this many cards (100 decks)."""
TABLE_SETS = ("decks", "shoe", "rules", "rules_toml", "policy", "commission", "tie_pays", "bets", "bets_toml", "burn", "cut_card")
"""The session fields a table sets (given beside a table: refused)."""


@dataclass(frozen=True)
class Settings:
    """What a shoe, its rules and its bets are set up with, as the CLI's options name them (a bets
    file and a rules file are given as text, never as a path)."""

    decks: int | str | None = None
    shoe: str | None = None
    rules: str | None = None
    rules_toml: str | None = None
    policy: str = ""
    commission: str | None = None
    tie_pays: str | None = None
    bets: str | None = None
    bets_toml: str | None = None
    suits: bool = False
    """Whether cards are entered with their suits (needed by bets on suits)."""
    burn: str = "punto_banco"
    cut_card: int | None = None
    """How many cards lie behind the cut card (None: no cut card)."""
    table_toml: str | None = None
    """The table profile the session was made from, as its TOML (None: none; see :mod:`.tables`)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def setup(self, remove: str | None = None) -> Setup:
        """The shoe (less ``remove``), rules and bets of these settings, checked within the served limits."""
        return Setup(decks=self.decks, shoe=self.shoe, remove=remove, rules=self.rules, rules_toml=self.rules_toml, policy=self.policy,
                     commission=self.commission, tie_pays=self.tie_pays, bets=self.bets, bets_toml=self.bets_toml, served=True)


NOT_SERVED = " at a time and is not served: give the policy itself (see `baccarat-odds chemin-de-fer`)"
"""How a route refuses the policy optimal, solved for one shoe at a time."""


@dataclass(frozen=True)
class Table:
    """Settings made into a starting shoe, decisions and bets (with the notes of their choice)."""

    settings: Settings
    start: Shoe
    decisions: Decisions
    bets: tuple[Bet, ...]
    notes: tuple[str, ...]


def table_of(settings: Settings) -> Table:
    """A session's settings, checked and made into its table (refused as the CLI refuses them)."""
    if settings.burn not in BURN_PROCEDURES:
        raise InputError(f"burn must be one of {', '.join(BURN_PROCEDURES)}, not {shown(settings.burn)}", parameter="burn")
    setup = settings.setup()
    start = setup.starting_shoe()
    if start.with_replacement:
        raise InputError("a session tracks the cards dealt from a finite shoe; the infinite deck (decks inf) puts every card back", parameter="decks")
    if start.size > MAX_SHOE_CARDS:
        raise TooLarge(f"a session's shoe holds at most {MAX_SHOE_CARDS:,} cards, not {start.size:,}", parameter="shoe")
    if settings.suits and not start.knows_suits:
        raise InputError(f"suits: {start.description} is given by rank only; cards entered with suits need per-card counts (e.g. shoe 9h=7,...)",
                         parameter="suits")
    if settings.cut_card is not None and not 0 <= settings.cut_card < start.size:
        raise InputError(f"cut_card is the number of cards behind the cut card: from 0 to {start.size - 1}, not {settings.cut_card}",
                         parameter="cut_card")
    decisions = setup.fixed_decisions(NOT_SERVED)
    if not settings.suits and start.knows_suits and (settings.bets or "").strip().lower() != "all":
        suited = [bet.name for bet in setup.chosen_bets(True)[0] if bet.needs_suits]
        if suited:  # (the shoe has its suits: what is missing is the cards entered with theirs)
            raise InputError(f"bet {suited[0]!r} reads suits: give suits true, and enter each card with its suit", parameter="suits")
    bets, notes = setup.chosen_bets(settings.suits)
    return Table(settings, start, decisions, tuple(bets), tuple(notes))


@dataclass(frozen=True, kw_only=True)
class SessionRequest:
    """A new live session: the shoe, rules, policy, pays and bets (:class:`~.setup.Setup`'s fields,
    as text, within the served limits), or a table that sets them (``table``: a preset's name,
    ``table_toml``: a profile file's text); and the session's own fields: ``suits`` (cards entered
    with their suits), ``burn`` (one of :data:`BURN_PROCEDURES`, default ``punto_banco``) and
    ``cut_card`` (the cards behind it). None is a field not given: beside a table, a field the table
    sets (:data:`TABLE_SETS`) is refused. Checked once: :attr:`settings` are what the session is
    stored with, :attr:`made` its table."""

    decks: int | str | None = None
    shoe: str | None = None
    rules: str | None = None
    rules_toml: str | None = None
    policy: str | None = None
    commission: str | None = None
    tie_pays: str | None = None
    bets: str | None = None
    bets_toml: str | None = None
    suits: bool = False
    burn: str | None = None
    cut_card: int | None = None
    table: str | None = None
    table_toml: str | None = None
    settings: Settings = field(init=False, repr=False, compare=False)
    """The session's settings (a table's made into its fields, its profile kept as ``table_toml``)."""
    made: Table = field(init=False, repr=False, compare=False)
    """The settings made into the starting shoe, the decisions and the bets."""

    def __post_init__(self) -> None:
        profile = profile_given(self.table, self.table_toml)
        if profile is None:
            settings = Settings(decks=self.decks, shoe=self.shoe, rules=self.rules, rules_toml=self.rules_toml, policy="" if self.policy is None else self.policy,
                                commission=self.commission, tie_pays=self.tie_pays, bets=self.bets, bets_toml=self.bets_toml,
                                suits=self.suits, burn="punto_banco" if self.burn is None else self.burn, cut_card=self.cut_card)
        else:
            check_alone({name for name in TABLE_SETS if getattr(self, name) is not None}, profile.name)
            settings = session_settings(profile, self.suits)
        object.__setattr__(self, "settings", settings)
        object.__setattr__(self, "made", table_of(settings))


def profile_given(table: str | None, table_toml: str | None) -> TableProfile | None:
    """The profile a session request names: a preset's name (``table``) or a profile file's text
    (``table_toml``), not both (None: neither)."""
    if table is not None and table_toml is not None:
        raise InputError("give table (a preset's name) or table_toml (a profile file's text), not both", parameter="table",
                         mentions=("table_toml",))
    if table is not None:
        return TABLES[table]
    if table_toml is None:
        return None
    if len(table_toml) > MAX_TEXT:
        raise TooLarge(f"table_toml holds {len(table_toml):,} characters; at most {MAX_TEXT:,} are read", parameter="table_toml")
    return load_profile(table_toml, "table_toml")


def check_alone(given: set[str], table: str) -> None:
    """Refuse the fields a table sets when given beside it (a second answer to one question)."""
    clash = [name for name in TABLE_SETS if name in given]
    if clash:
        raise InputError(f"{clash[0]}: the table ({table}) sets the shoe, rules, bets, burn and cut card: leave {clash[0]} out, "
                         "or give a profile of your own (table_toml)", parameter=clash[0], mentions=("table_toml",))


def own_bets_toml(profile: TableProfile) -> str | None:
    """The table's own bets as a bets file's text (None: it has none)."""
    if not profile.own_bets:
        return None
    lines = []
    for bet in profile.own_bets:
        lines += ["[[bet]]", f"name = {json.dumps(bet.name)}", f"description = {json.dumps(bet.description)}", "pays = ["]
        lines += [f"  {{ when = {json.dumps(row.condition.text)}, pays = {json.dumps(row.pays.text)}, event = {json.dumps(row.event)} }},"
                  for row in bet.rows]
        lines += ["]", ""]
    return "\n".join(lines)


def session_settings(profile: TableProfile, suits: bool) -> Settings:
    """A session's settings at the table ``profile`` (``suits``: enter suits even where no bet reads them)."""
    return Settings(decks=profile.decks, rules=profile.rules, commission=None if profile.commission is None else str(profile.commission),
                    tie_pays=None if profile.tie_pays is None else str(profile.tie_pays), bets=",".join(bet.name for bet in profile.bets),
                    bets_toml=own_bets_toml(profile), suits=suits or profile.needs_suits, burn=profile.burn,
                    cut_card=profile.cards_behind_cut, table_toml=profile_toml(profile))
