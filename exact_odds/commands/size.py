"""The `size` command: its parameters (:class:`Staking`), and its documents: the stakes of a
position, what it does to the bankroll, and the rebate and dead-chip figures of each bet
(:mod:`exact_odds.output.render` writes them). Exact cells are strings."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..bets.bets import Bet, bet_names
from ..bets.profiles import TableProfile
from ..core.numbers import exact_value, fixed, money, parse_exact, parse_percent, percent, shown, square_root
from ..core.rules import PUNTO_BANCO
from ..errors import InputError
from ..studies.rebates import DeadChip, SessionRebate
from ..studies.sizing import MAIN, Limits, Sizing, per_bet
from ..output.blocks import Block, Data, Document, Group, Heading, Paragraph, table
from .setup import Setup

if TYPE_CHECKING:
    from ..core.policy import Decisions, Policy
    from ..core.rules import DrawRules
    from ..core.shoe import Shoe
    from ..engine.analysis import Engine


@dataclass(frozen=True)
class Staking:
    """A bankroll and how to size it: the ``size`` command's parameters, as both doors give them
    (amounts in money, exact numbers as text, or from a program ints and Fractions; ``rebate`` a percent; ``bets``: a session's bets to
    size). The rebate and the main bets are checked here alone."""

    bankroll: "str | Fraction | int"
    bets: str | None = None
    kelly: "str | Fraction | int" = "1"
    rebate: "str | Fraction | int | None" = None
    min: "str | Fraction | int | None" = None
    max: "str | Fraction | int | None" = None
    total_max: "str | Fraction | int | None" = None
    unit: "str | Fraction | int | None" = None
    side_needs_main: bool = False
    side_ratio: "str | Fraction | int | None" = None
    main: str | None = None

    def __post_init__(self) -> None:
        for name in ("bankroll", "kelly", "rebate", "min", "max", "total_max", "unit", "side_ratio"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):  # from a program: an exact number, never a float
                exact_value(value, name, parameter=name)
        for name in ("bankroll", "total_max", "unit", "side_ratio"):
            if getattr(self, name) is not None:
                positive_amount(getattr(self, name), name)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def rebate_share(self) -> Fraction:
        """The rebate as a share of each loss."""
        if self.rebate is None:
            return Fraction(0)
        share = parse_percent(self.rebate, "rebate", parameter="rebate") / 100
        if not 0 <= share < 1:
            raise InputError(f"rebate must be at least 0 and below 100 percent, not {shown(self.rebate)}", parameter="rebate")
        return share

    @property
    def sides_need_mains(self) -> bool:
        return self.side_needs_main or self.side_ratio is not None

    def mains(self) -> tuple[str, ...]:
        """The main bets (``main``; else the library's), checked against the table's bets by :meth:`Limits.checked`."""
        if self.main is None:
            return MAIN
        if not self.sides_need_mains:
            raise InputError("main names the main bets for side_needs_main and side_ratio: give one of them, or leave it out",
                             parameter="main", mentions=("side_needs_main", "side_ratio"))
        if not self.main.strip():
            raise InputError("main is empty: name the main bets, separated by commas", parameter="main")
        return tuple(bet_names(self.main, "main"))

    def limits(self, names: Sequence[str]) -> Limits:
        """The limits, per-bet amounts naming any of the table's bets ``names`` (one amount: each of them)."""
        def amounts(text: "str | Fraction | int | None", what: str) -> dict[str, Fraction]:
            return {} if text is None else per_bet(text, what, names) if isinstance(text, str) else dict.fromkeys(names, exact_value(text, what, what))

        def amount(text: "str | Fraction | int | None", what: str) -> Fraction | None:
            return None if text is None else parse_exact(text, what)

        return Limits(amounts(self.min, "min"), amounts(self.max, "max"), amount(self.total_max, "total_max"), amount(self.unit, "unit"),
                      self.side_needs_main, amount(self.side_ratio, "side_ratio"), self.mains())


TABLE_SIZES = ("min", "max", "unit", "rebate")
"""The sizing fields a table sets (given other than the table's: refused)."""


def limits_text(amounts: dict[str, Any]) -> str | None:
    return ",".join(f"{name}={amount}" for name, amount in amounts.items()) or None


@dataclass(frozen=True, kw_only=True)
class SessionStaking:
    """The ``size`` command's parameters for a live session's next coup: ``staking`` as given, among
    the session's bets (``names``, in its order: ``staking.bets`` names some of them, None: the
    server chooses) and at its table (``table``, its profile, None: none), whose limits, chip and
    rebate it takes (a value given other than the table's is refused). Checked once: :attr:`at_table`
    and :attr:`named`.

    >>> from exact_odds.bets.profiles import TABLES
    >>> sizing = SessionStaking(staking=Staking(bankroll="1000", bets="player"), names=("ez_banker", "player"), table=TABLES["ez_baccarat"])
    >>> sizing.at_table.unit, sizing.named
    ('5', ('player',))
    >>> SessionStaking(staking=Staking(bankroll="1000", bets="banker"), names=("ez_banker", "player"))
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: bets: 'banker' is not a bet of this session (ez_banker, player)
    """

    staking: Staking
    names: tuple[str, ...]
    table: TableProfile | None = field(default=None, compare=False)
    at_table: Staking = field(init=False, repr=False, compare=False)
    """``staking`` with the table's limits, chip and rebate (``staking`` itself without a table)."""
    named: tuple[str, ...] | None = field(init=False, repr=False, compare=False)
    """The session's bets ``staking.bets`` names (None: none named)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "at_table", self._at_table())
        object.__setattr__(self, "named", self._named())

    def _at_table(self) -> Staking:
        profile, given = self.table, self.staking
        if profile is None:
            return given
        table = {"min": limits_text(profile.minimum), "max": limits_text(profile.maximum), "unit": str(profile.chip),
                 "rebate": str(profile.rebate) if profile.rebate else None}
        for name in TABLE_SIZES:
            value = getattr(given, name)
            if value is not None and value != table[name]:
                raise InputError(f"{name}: this session's table ({profile.name}) sets the limits, the chip and the rebate "
                                 f"({name} {table[name] or 'none'}): leave {name} out", parameter=name)
        return replace(given, min=table["min"], max=table["max"], unit=table["unit"], rebate=table["rebate"])

    def _named(self) -> tuple[str, ...] | None:
        if self.staking.bets is None:
            return None
        if not self.staking.bets.replace(",", " ").strip():  # (bet_names would offer all, which names no bet of a session)
            raise InputError("bets is empty: name the session's bets to size, separated by commas (or leave bets out)", parameter="bets")
        wanted = bet_names(self.staking.bets, "bets")
        for name in wanted:
            if name not in self.names:
                raise InputError(f"bets: {name!r} is not a bet of this session ({', '.join(self.names)})", parameter="bets")
        return tuple(wanted)


@dataclass(frozen=True, kw_only=True)
class SizeRequest(Staking):
    """The ``size`` command's request: a :class:`Staking`, and ``session``: the coups of a session
    on whose net loss the rebate is paid instead (its value printed beside the position).

    >>> SizeRequest(bankroll="100", session=10)
    Traceback (most recent call last):
    exact_odds.errors.InputError: session values a rebate on the session's net loss: give its rebate PCT
    """

    session: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.session is not None and self.rebate is None:
            raise InputError("session values a rebate on the session's net loss: give its rebate PCT", parameter="session", mentions=("rebate PCT",))


def positive_amount(text: object, parameter: str) -> Fraction:
    """An exact positive number given as text, refused naming ``parameter``.

    >>> positive_amount("5/2", "unit")
    Fraction(5, 2)
    >>> positive_amount("0.0", "unit")
    Traceback (most recent call last):
    exact_odds.errors.InputError: unit must be positive, not '0.0'
    """
    number = parse_exact(text, parameter, parameter=parameter)
    if number <= 0:
        raise InputError(f"{parameter} must be positive, not {shown(text)}", parameter=parameter)
    return number


def amount_text(amount: Fraction) -> str:
    """An amount of money exactly where it has at most two decimals, else to the cent after ``~``
    (the exact amount is in the JSON).

    >>> amount_text(Fraction(95)), amount_text(Fraction(5, 2)), amount_text(Fraction(388930000, 142803))
    ('95', '2.50', '~2723.54')
    """
    return money(amount) if 100 % amount.denominator == 0 else "~" + fixed(amount, 2)


def limits_line(sizing: Sizing) -> str | None:
    """The limits in words, or None when there are none."""
    limits = sizing.limits
    parts = []
    for bet in sizing.joint.bets:
        low, high = limits.minimum.get(bet.name), limits.maximum.get(bet.name)
        if low is not None and high is not None:
            parts.append(f"{bet.name} {money(low)} to {money(high)}")
        elif low is not None:
            parts.append(f"{bet.name} at least {money(low)}")
        elif high is not None:
            parts.append(f"{bet.name} at most {money(high)}")
    if limits.total is not None:
        parts.append(f"at most {money(limits.total)} in all")
    if limits.unit is not None:
        parts.append(f"whole units of {money(limits.unit)}")
    if limits.side_needs_main:
        parts.append("side bets only beside a main bet")
    if limits.side_ratio is not None:
        parts.append(f"each side bet at most {limits.side_ratio} times the main bets")
    return "Limits: " + "; ".join(parts) if parts else None


def _heading(sizing: Sizing) -> str:
    kelly = "full Kelly" if sizing.kelly == 1 else f"{sizing.kelly} Kelly"
    rebate = f", {percent(sizing.rebate, 2)} of each loss returned" if sizing.rebate else ""
    return f"Shoe: {sizing.joint.shoe}; bankroll {money(sizing.bankroll)}, {kelly}{rebate}"


def _stake_rows(sizing: Sizing) -> list[list[str]]:
    stakes = {stake.bet: stake for stake in sizing.stakes}
    rows = []
    for bet, value in zip(sizing.joint.bets, sizing.expected_values):
        stake = stakes.get(bet.name)
        rows.append([bet.name, str(value), fixed(value, 10), amount_text(stake.amount) if stake else "0",
                     fixed(stake.fraction, 12) if stake else fixed(Fraction(0), 12)])
    return rows


def position_lines(sizing: Sizing) -> list[str]:
    """The position in words: its total, growth, expectation, spread and risk, and how it was found."""
    if not sizing.stakes:
        return [sizing.method.capitalize() + "."]
    value, lose_all = sizing.expected_value, sizing.lose_all
    lines = [
        f"Stakes in all: {amount_text(sizing.total)} ({fixed(sizing.total / sizing.bankroll, 12)} of the bankroll)",
        f"Growth per coup, E[ln(bankroll after / before)]: {sizing.growth}",
        f"Expected value: {value} ({fixed(value, 6)})",
        f"Standard deviation: {square_root(sizing.variance, 6)}",
        f"Probability of losing the whole position: {lose_all} ({fixed(lose_all, 10)})",
        f"Method: {sizing.method}",
    ]
    if sizing.growth_gap:
        lines.append(f"Growth gap: at most {fixed(sizing.growth_gap, 15)} below the best (exact bound {sizing.growth_gap})")
    return lines


STAKE_HEADERS = ["bet", "expected value", "decimal", "stake", "share of bankroll"]
CHIP_HEADERS = ["bet", "P(lose)", "wagers per chip", "cash per chip", "value per chip", "house edge per chip", "per wager"]
SESSION_HEADERS = ["bet", "coups", "P(behind)", "expected net loss", "value with rebate", "per coup"]
CSV_HEADERS = ["section", "name", "exact", "decimal"]


def _chip_rows(chips: list[DeadChip]) -> list[list[str]]:
    return [[chip.bet, fixed(chip.lose, 6), fixed(chip.wagers, 6), fixed(chip.cash, 6), fixed(chip.value, 6), percent(chip.house_edge),
             percent(chip.edge_per_wager)] for chip in chips]


def _session_rows(sessions: list[SessionRebate]) -> list[list[str]]:
    return [[session.bet, str(session.coups), fixed(session.behind, 6), fixed(session.expected_net_loss, 6), fixed(session.value, 6),
             fixed(session.per_coup, 8)] for session in sessions]


def sizing_document(sizing: Sizing, chips: list[DeadChip] | None = None, sessions: list[SessionRebate] | None = None,
                    notes: list[str] | None = None) -> Document:
    """The position (stakes per bet, then the position in words), with the dead-chip and session
    rebate tables when given; its record (:meth:`Sizing.to_dict`) and its flat table."""
    notes = list(sizing.notes) + list(notes or [])
    decisions = sizing.joint.decisions
    rules = f"Rules: {decisions.rules.name}" + (f", policy {decisions.policy.summary()}" if decisions.policy else "") \
        if decisions.rules != PUNTO_BANCO or decisions.policy else None
    lines = "\n".join(line for line in (rules, limits_line(sizing)) if line)
    blocks: list[Block] = [Group((Heading(2, _heading(sizing)), Paragraph(lines))) if lines else Heading(2, _heading(sizing)),
                           table(STAKE_HEADERS, _stake_rows(sizing), ("left", "right", "right", "right", "right")),
                           Paragraph("\n".join(position_lines(sizing)))]
    record = sizing.to_dict()
    flat = [["bet", bet.name, str(value), fixed(value, 10)] for bet, value in zip(sizing.joint.bets, sizing.expected_values)]
    flat += [["stake", stake.bet, str(stake.amount), fixed(stake.amount, 10)] for stake in sizing.stakes]
    if sizing.stakes:
        flat += [["position", "growth_per_coup", "", sizing.growth], ["position", "expected_value", str(sizing.expected_value), fixed(sizing.expected_value, 10)],
                 ["position", "variance", str(sizing.variance), fixed(sizing.variance, 10)],
                 ["position", "lose_all_probability", str(sizing.lose_all), fixed(sizing.lose_all, 10)]]
    if chips:
        rebate = f" (a rebate of {percent(chips[0].rebate, 2)} of each chip lost)" if chips[0].rebate else ""
        blocks += [Heading(2, f"Dead chips: each bet until the chip loses{rebate}"),
                   table(CHIP_HEADERS, _chip_rows(chips), ("left", *["right"] * 6))]
        record["dead_chips"] = {chip.bet: chip.to_dict() for chip in chips}
        flat += [["dead_chip", chip.bet, str(chip.wagers), fixed(chip.wagers, 10)] for chip in chips]
        flat += [["dead_chip_value", chip.bet, str(chip.value), fixed(chip.value, 10)] for chip in chips]
    if sessions:
        blocks += [Heading(2, f"A rebate of {percent(sessions[0].rate, 2)} of the session's net loss, one unit a coup on one bet"),
                   table(SESSION_HEADERS, _session_rows(sessions), ("left", *["right"] * 5))]
        record["session_rebates"] = {session.bet: session.to_dict() for session in sessions}
        flat += [["session_value_per_coup", session.bet, str(session.per_coup), fixed(session.per_coup, 10)] for session in sessions]
    if notes:
        blocks.append(Paragraph("\n".join(f"Note: {note}" for note in notes)))
    record["notes"] = notes
    return Document(tuple(blocks), Data(record, table(CSV_HEADERS, flat)))


def sized(setup: Setup, staking: Staking, engine: "Engine | None" = None) -> tuple[Sizing, list[str]]:
    """The position ``staking`` asks for on the next coup of ``setup``'s shoe, and the notes of the
    choice of its bets: the limits may name any bet sized, and the rebate is taken on each loss."""
    from ..studies.joint import joint
    from ..studies.sizing import size_joint

    shoe = setup.starting_shoe()
    bets, notes = setup.chosen_bets(shoe.knows_suits)
    names = [bet.name for bet in bets]
    limits = staking.limits(names)
    kelly, bankroll = parse_exact(staking.kelly, "kelly", parameter="kelly"), parse_exact(staking.bankroll, "bankroll", parameter="bankroll")
    return size_joint(joint(shoe, bets, setup.decisions(shoe), engine=engine), bankroll, limits, kelly, staking.rebate_share, names), notes


def size(*, bankroll: "Fraction | int | str", shoe: "Shoe | int | str | Mapping[str, int] | None" = None,
         bets: "str | Bet | Iterable[str | Bet] | None" = None, rules: "DrawRules | Decisions | str" = PUNTO_BANCO,
         policy: "Policy | str | None" = None, commission: "Fraction | int | str | None" = None, tie_pays: "Fraction | int | str | None" = None,
         kelly: "Fraction | int | str" = 1, rebate: "Fraction | int | str | None" = None, min: "Fraction | int | str | None" = None,
         max: "Fraction | int | str | None" = None, total_max: "Fraction | int | str | None" = None, unit: "Fraction | int | str | None" = None,
         side_needs_main: bool = False, side_ratio: "Fraction | int | str | None" = None, main: str | None = None,
         engine: "Engine | None" = None) -> Sizing:
    """The Kelly position on ``bets`` (default banker, player, tie) for the next coup of ``shoe``
    (default 8 decks; as :func:`~exact_odds.analyze` takes one), as ``baccarat-odds size`` finds it:
    its request (:class:`~exact_odds.commands.setup.Setup` and :class:`Staking`) built from these
    arguments, so the library refuses what the command line and the server refuse, in the same
    words. Amounts in money, exact (an int, a Fraction or its text); ``commission`` and ``rebate``
    in percent, as ``--commission`` and ``--rebate`` take them (``rebate=1``: 1% of each loss
    returned); ``min`` and ``max`` one amount for every bet or ``"NAME=X,..."``; ``main`` the main
    bets for ``side_needs_main`` and ``side_ratio``. What ``all`` leaves out is said in a
    UserWarning and kept in the sizing's notes.

    >>> position = size(bankroll=1000, shoe="A=4,K=24", bets="tie")  # tie pays 8 to 1, and wins 9403 times in 20475
    >>> [(stake.bet, stake.amount) for stake in position.stakes]  # Kelly: 1000 (9 p - 1) / 8
    [('tie', Fraction(35640, 91))]
    >>> size(bankroll=1000, rebate=100)
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: rebate must be at least 0 and below 100 percent, not 100
    """
    import warnings
    from dataclasses import replace

    setup = Setup.of_arguments(shoe=shoe, rules=rules, policy=policy, commission=commission, tie_pays=tie_pays, bets=bets)
    staking = Staking(bankroll=bankroll, kelly=kelly, rebate=rebate, min=min, max=max, total_max=total_max, unit=unit,
                      side_needs_main=side_needs_main, side_ratio=side_ratio, main=main)
    sizing, notes = sized(setup, staking, engine)
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return replace(sizing, notes=(*sizing.notes, *notes))
