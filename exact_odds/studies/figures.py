"""Published figures: the records of a figures file (what is measured, the value as printed, the
source), each checked for its kind as it is read, and a printed value read exactly at the precision
it was printed. The checker that computes them is :mod:`exact_odds.studies.verify`.

>>> printed = parse_printed("1.06%")
>>> printed.value, printed.places, printed.percent
(Fraction(53, 50), 2, True)
>>> matches(printed, Fraction(10579, 1000000))
True
>>> parse_matrix_size("2^5 x 2^484"), matrix_size_text((1, 88))
((5, 484), '2 x 2^88')
"""

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bets.bets import Bet, available_bets
from ..bets.conditions import parse_condition
from ..core.cards import rank_index
from ..core.features import COUP_FEATURES, FIRST_CARDS
from ..core.numbers import parse_exact, parse_toml, shown
from ..core.policy import Decisions, Policy, resolve
from ..core.rules import PRESETS
from ..core.shoe import shoe_of_decks
from ..core.textfile import user_text
from ..engine.analysis import check_unordered
from ..errors import InputError
from .dealer import parse_penetration, parse_tags
from .groups import parse_groups

if TYPE_CHECKING:
    from .protect import ProtectRequest

MAX_DECKS = 10**12
"""A record's deck count is at most this (a trillion decks)."""
RANKS_HELD = "4 x decks cards of a rank"
SIMULATED = {
    "count_gain_per_shoe": "gain_per_shoe",
    "count_bets_per_shoe": "bets_per_shoe",
    "count_bet_share": "bet_share",
    "count_edge_when_betting": "edge_when_betting",
    "count_gain_per_100_coups": "gain_per_100_coups",
    "coups_per_shoe": "coups_per_shoe",
    "perfect_gain_per_shoe": "gain_per_shoe",
}
"""Measures of a counting simulation, and the estimate of :func:`exact_odds.studies.simulate.estimates` each reads."""
MATRIX_SIZE = "matrix_size"
"""The measure of a game's size: player's x banker's pure strategies, as 2^(option points of each side)."""
MATRIX_SIZE_FIELDS = ("id", "measure", "decks", "value", "rules", "printed_as", "source", "url", "author", "note", "known_wrong")
DEAD_CHIP_WAGERS = "dead_chip_wagers"
"""The expected wagers of a dead chip (:func:`exact_odds.studies.rebates.dead_chip`); ``bet`` may name
several bets separated by commas: the mean over them, the chips shared equally."""
INFORMATION_GAIN = "information_gain"
"""The measure of what information is worth (:mod:`exact_odds.studies.protect`): ``bet`` names the bets
to choose from (or none), separated by commas; ``known`` a shoe position, or ``sorted`` with ``groups``;
with ``best_sort`` the figure is the best two-way split of the values for ``sorted`` cards, and it
must be ``groups``."""
MEASURES = ("combinations", "probability", "house_edge", "house_edge_excluding_pushes", "expected_value", "effect_of_removal", MATRIX_SIZE, INFORMATION_GAIN,
            DEAD_CHIP_WAGERS, *SIMULATED)
TEXT_FIELDS = ("id", "measure", "bet", "when", "given", "unordered", "groups", "value", "printed_as", "source", "url", "author", "note", "known_wrong",
               "rank", "rules", "policy", "tags", "count", "penetration")
SIMULATION_FIELDS = ("tags", "threshold", "count", "penetration", "burn", "coups_after_cut", "shoes", "seed")
FIELDS = set(TEXT_FIELDS) | {"hand_pairs", "decks", "removed", "scale", "groups", "known", "sorted", "best_sort"} | set(SIMULATION_FIELDS)
COMMON_FIELDS = ("id", "measure", "decks", "value", "source", "url", "bet", "rules", "policy", "printed_as", "author", "note", "known_wrong")
"""The fields every record but a matrix size may have (``bet``, for a figure about an event, names the bet it is about)."""
READS = {
    "combinations": ("when", "hand_pairs", "unordered"),
    "probability": ("when", "given"),
    "house_edge": (),
    "house_edge_excluding_pushes": (),
    "expected_value": (),
    DEAD_CHIP_WAGERS: (),
    INFORMATION_GAIN: ("known", "sorted", "groups", "best_sort"),
    "effect_of_removal": ("rank", "removed", "when", "scale"),
    **{measure: (*SIMULATION_FIELDS, "scale") for measure in SIMULATED},
}
"""The fields each measure reads beyond :data:`COMMON_FIELDS`; any other is refused. (Counting hands or
sets of cards divides a count and its total alike: only combinations read ``hand_pairs`` and ``unordered``.)"""
MAX_SHOES = 10**6
"""A simulation record runs at most this many shoes."""


@dataclass(frozen=True)
class Printed:
    """A figure as printed: its value, its decimals (None for an exact integer) and whether in percent."""

    value: Fraction
    places: int | None
    percent: bool


def parse_printed(text: str) -> Printed:
    """Read a printed figure: ``2,292,252,566,437,888``, ``1.0579%``, ``1.06 per cent``, ``~10.1%``,
    ``-0.026517``, ``+0.000777``, ``–0.0000435`` (an en dash), ``-0,000110`` (a decimal comma)."""
    words = text.strip().lower().lstrip("~").strip().replace("–", "-").replace("−", "-").lstrip("+")
    percent = bool(re.search(r"(%|per ?cent)$", words))
    number = re.sub(r"\s*(%|per ?cent)$", "", words)
    if "," in number and not re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", number):
        number = number.replace(",", ".")
    number = number.replace(",", "")
    if not re.fullmatch(r"-?\d+(\.\d+)?", number):
        raise InputError(f"cannot read the printed figure {text!r}")
    places = len(number.split(".")[1]) if "." in number else (0 if percent else None)
    return Printed(Fraction(number), places, percent)


def parse_matrix_size(text: str) -> tuple[int, int]:
    """A game's size as ``P x B``, each side 1, 2 or 2^n (pure strategies): the two exponents."""
    match = re.fullmatch(r"(1|2|2\^[1-9]\d{0,5}) x (1|2|2\^[1-9]\d{0,5})", text)
    if match is None:
        raise InputError(f"cannot read the matrix size {text!r} (expected player x banker pure strategies as powers of 2, e.g. \"2 x 2^88\")")
    player, banker = (0 if side == "1" else 1 if side == "2" else int(side[2:]) for side in match.groups())
    return player, banker


def matrix_size_text(exponents: tuple[int, int]) -> str:
    """The exponents of a game's size written as :func:`parse_matrix_size` reads them."""
    return " x ".join("1" if exponent == 0 else "2" if exponent == 1 else f"2^{exponent}" for exponent in exponents)


def matches(printed: Printed, exact: Fraction, count: bool = True) -> bool:
    """Whether ``exact`` shows as ``printed`` at its precision (a half unit either way, inclusive).

    A printed integer is exact when it is a ``count`` (combinations), else a value rounded to units."""
    shown = exact * 100 if printed.percent else exact
    if printed.places is None and count:
        return shown == printed.value
    return abs(shown - printed.value) <= Fraction(1, 2 * 10 ** (printed.places or 0))


@dataclass(frozen=True)
class Figure:
    """One published figure: what is measured, as printed, and where."""

    id: str
    measure: str
    decks: int | str
    value: str
    source: str
    url: str
    bet: str | None = None
    when: str | None = None
    hand_pairs: bool = False
    rank: str | None = None
    removed: int = 1
    scale: str = "1"
    printed_as: str = ""
    author: str = ""
    note: str = ""
    known_wrong: str = ""
    rules: str = "punto_banco"
    policy: str = ""
    given: str | None = None
    """For a probability: the condition it is conditional on."""
    unordered: str = ""
    """For combinations of first cards: counted by ``hands`` or by sets of ``cards`` (see :data:`exact_odds.engine.analysis.UNORDERED`)."""
    tags: str = ""
    """Count tags as ``simulate --count`` takes them (A=0,...,K=0)."""
    threshold: int | None = None
    """The count at or above which one bets."""
    count: str = "true"
    """``true``: the running count over the decks unseen; ``running``: the running count itself."""
    penetration: str = ""
    burn: bool = False
    coups_after_cut: int = 1
    shoes: int = 0
    """How many shoes our check simulates."""
    seed: int = 1
    known: int | None = None
    """For an information gain: the shoe position known (1-6)."""
    sorted: int | None = None
    """For an information gain: the cards seen sorted by ``groups``."""
    groups: str | None = None
    best_sort: bool = False

    @property
    def simulated(self) -> bool:
        """Whether the figure is a simulation result (checked statistically, not exactly)."""
        return self.measure in SIMULATED


def _checked_record(record: object, number: int, origin: str) -> Figure:
    """One ``[[figure]]`` record as a :class:`Figure`, every field checked for its kind."""
    if not isinstance(record, dict):
        raise InputError(f"{origin}: figure {number}: each [[figure]] must be a table")
    where = f"{origin}: figure {shown(record.get('id', number))}"
    unknown = sorted(set(record) - FIELDS)
    if unknown:
        raise InputError(f"{where}: unknown field {unknown[0]!r}")
    missing = sorted({"id", "measure", "decks", "value", "source", "url"} - set(record))
    if missing:
        raise InputError(f"{where}: missing field {missing[0]!r}")
    for field in TEXT_FIELDS:
        if field in record and not isinstance(record[field], str):
            raise InputError(f"{where}: {field} must be a string, not {shown(record[field])}")
    fields = dict(record)
    decks = fields["decks"]
    structural = fields["measure"] == MATRIX_SIZE
    if decks != "inf" and not (structural and decks == "any") and (isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS):
        words = '"inf" or "any" (a game\'s size holds for every shoe)' if structural else '"inf"'
        raise InputError(f"{where}: decks must be a whole number of decks from 1 to {MAX_DECKS:,}, or {words}, not {shown(decks)}")
    measure = fields["measure"]
    if measure not in MEASURES:
        raise InputError(f"{where}: unknown measure {shown(measure)} (expected one of {', '.join(MEASURES)})")
    if structural:
        _check_matrix_size(fields, where)
        return Figure(**fields)
    if measure not in SIMULATED and set(fields) & set(SIMULATION_FIELDS):
        raise InputError(f"{where}: {sorted(set(fields) & set(SIMULATION_FIELDS))[0]} belongs to simulation measures ({', '.join(SIMULATED)})")
    unread = sorted(set(fields) - set(COMMON_FIELDS) - set(READS[measure]))
    if unread:
        raise InputError(f"{where}: field {unread[0]!r} means nothing to measure {measure}")
    if "hand_pairs" in fields and not isinstance(fields["hand_pairs"], bool):
        raise InputError(f"{where}: hand_pairs must be true or false, not {shown(fields['hand_pairs'])}")
    if "removed" in fields:
        removed = fields["removed"]
        if isinstance(removed, bool) or not isinstance(removed, int) or removed < 1 or (decks != "inf" and removed > 4 * decks):
            raise InputError(f"{where}: removed must be a whole number of cards from 1 to the {RANKS_HELD} the shoe holds, not {shown(removed)}")
    if "scale" in fields:
        if isinstance(fields["scale"], bool) or not isinstance(fields["scale"], (int, str)) or parse_exact(fields["scale"], f"{where}: scale") == 0:
            raise InputError(f"{where}: scale must be a non-zero exact number such as \"10000000\", not {shown(fields['scale'])}")
        fields["scale"] = str(fields["scale"])
    if measure in SIMULATED:
        _check_simulation(fields, where)
    if measure in ("combinations", "probability") and "when" not in fields:
        raise InputError(f"{where}: combinations and probability take `when`")
    if measure == "effect_of_removal" and "rank" not in fields:
        raise InputError(f"{where}: effect_of_removal takes `rank` (and `bet`, or `when` for a probability)")
    if measure == "effect_of_removal" and decks == "inf":
        raise InputError(f"{where}: the infinite deck has no effect of removal (every card drawn is put back)")
    if "when" not in fields and "bet" not in fields:
        raise InputError(f"{where}: needs `bet`")
    if len(fields["value"]) > 60:
        raise InputError(f"{where}: value {shown(fields['value'])} is longer than any printed figure")
    if fields.get("hand_pairs") and fields.get("unordered"):
        raise InputError(f"{where}: hand_pairs counts by hands already: give hand_pairs or unordered, not both")
    if fields.get("rules", "punto_banco") not in PRESETS:
        raise InputError(f"{where}: rules must be one of {', '.join(PRESETS)}, not {shown(fields['rules'])}")
    try:
        check_unordered("hands" if fields.get("hand_pairs") else fields.get("unordered", ""), decks == "inf")
        parse_printed(fields["value"])
        if "rank" in fields:
            rank_index(fields["rank"])
        if "given" in fields:
            parse_condition(fields["given"])
        if "when" in fields:
            condition = parse_condition(fields["when"])
            if (fields.get("hand_pairs") or fields.get("unordered")) and (condition.features & set(COUP_FEATURES) or set(condition.slots) - set(FIRST_CARDS)):
                raise InputError("hand_pairs and unordered count the first cards: `when` may read only player_card1, player_card2, banker_card1, banker_card2")
        decisions = resolve(PRESETS[fields.get("rules", "punto_banco")], Policy.parse(fields.get("policy", "")))
        if measure == INFORMATION_GAIN:
            protect_request(Figure(**fields), decisions)
    except InputError as error:
        raise InputError(f"{where}: {error}") from None
    return Figure(**fields)


def protect_request(figure: Figure, decisions: Decisions, user_bets: dict[str, Bet] | None = None) -> "ProtectRequest":
    """The protection study an information-gain record describes (checked whole, as any request)."""
    from .protect import ProtectRequest

    bets = available_bets(decisions.rules, user_bets)
    names = [name.strip() for name in (figure.bet or "").split(",")]
    unknown = [name for name in names if name not in bets]
    if unknown:
        raise InputError(f"unknown bet {unknown[0]!r} (not in the catalog or the bets file)")
    if figure.best_sort and figure.groups is not None:  # the split the record says is the best (not an input)
        parse_groups(figure.groups)
    return ProtectRequest.of(shoe_of_decks(figure.decks), [bets[name] for name in names], decisions, known=figure.known, sorted=figure.sorted,
                             groups=None if figure.best_sort else figure.groups, best_sort=figure.best_sort)


def _check_matrix_size(fields: dict[str, Any], where: str) -> None:
    """A matrix_size record: a rule set and a size; nothing about bets, cards or simulations."""
    extra = sorted(set(fields) - set(MATRIX_SIZE_FIELDS))
    if extra:
        raise InputError(f"{where}: {MATRIX_SIZE} takes no `{extra[0]}`")
    if fields.get("rules", "punto_banco") not in PRESETS:
        raise InputError(f"{where}: rules must be one of {', '.join(PRESETS)}, not {shown(fields['rules'])}")
    try:
        parse_matrix_size(fields["value"])
    except InputError as error:
        raise InputError(f"{where}: {error}") from None


def _whole(fields: dict[str, Any], name: str, where: str, low: int, high: int) -> None:
    value = fields[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{where}: {name} must be a whole number from {low:,} to {high:,}, not {shown(value)}")


def _check_simulation(fields: dict[str, Any], where: str) -> None:
    """The conditions of a simulation record: complete, and each of its kind."""
    counted = fields["measure"].startswith("count_")
    needed = ["bet", "penetration", "burn", "shoes"] + (["tags", "threshold"] if counted else [])
    missing = [name for name in needed if name not in fields]
    if missing:
        raise InputError(f"{where}: a {fields['measure']} record needs `{missing[0]}`")
    if fields["decks"] == "inf" or fields["decks"] > 1000:
        raise InputError(f"{where}: a simulation deals real shoes of 1 to 1,000 decks, not {shown(fields['decks'])}")
    if not isinstance(fields["burn"], bool):
        raise InputError(f"{where}: burn must be true or false, not {shown(fields['burn'])}")
    _whole(fields, "shoes", where, 2, MAX_SHOES)
    for name, low, high in (("threshold", -10**6, 10**6), ("seed", 0, 2**63 - 1), ("coups_after_cut", 0, 10)):
        if name in fields:
            _whole(fields, name, where, low, high)
    if fields.get("count", "true") not in ("true", "running"):
        raise InputError(f"{where}: count must be \"true\" or \"running\", not {shown(fields['count'])}")
    try:
        parse_penetration(fields["penetration"])
        if "tags" in fields:
            parse_tags(fields["tags"])
    except InputError as error:
        raise InputError(f"{where}: {error}") from None


def load_figures(text: str, origin: str) -> list[Figure]:
    """The figures of a published-figures TOML file; errors name the record."""
    try:
        records = parse_toml(text).get("figure")
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise InputError(f"{origin}: not valid TOML: {error}") from None
    if not isinstance(records, list) or not records:
        raise InputError(f"{origin}: no [[figure]] records")
    figures = [_checked_record(record, number, origin) for number, record in enumerate(records, start=1)]
    ids = [figure.id for figure in figures]
    duplicates = sorted({identifier for identifier in ids if ids.count(identifier) > 1})
    if duplicates:
        raise InputError(f"{origin}: duplicate figure id {duplicates[0]!r}")
    return figures


def published_figures(path: str | None = None) -> list[Figure]:
    """The shipped figures (exact_odds/data/published.toml), or those of ``path``."""
    if path is None:
        return load_figures((Path(__file__).parent.parent / "data" / "published.toml").read_text(encoding="utf-8"), "published.toml")
    try:
        text = user_text(path)
    except OSError as error:
        raise InputError(f"cannot read {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"cannot read {path!r}: not UTF-8 text") from None
    return load_figures(text, path)
