"""The ``banque`` command: baccara banque solved on one shoe (:class:`BanqueRequest`, :func:`run`,
:func:`document`), and the folder of every shoe solved (:func:`banque_files`, ``--out``:
``results/banque/`` in the repository, one JSON record a shoe and rule set, and a summary).

The library call is :func:`exact_odds.games.banque_solution.solve_banque`; the JSON record is its
:meth:`~exact_odds.games.banque_solution.BanqueSolution.to_dict`. docs/banque.md says what each
model assumes and how it is solved; tests/test_banque.py rechecks every record's certificates.

>>> solution = run(BanqueRequest(preset="banque_ethier_lee", shoe="K=3,A=2,2=2,5=3"))  # ten cards
>>> solution.cooperative.value, solution.cooperative.certificate.holds
(Fraction(-11, 350), True)
"""

import difflib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.numbers import fixed, shown
from ..core.rules import BANQUE_PRESETS, CHOICE, BanqueRules
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Heading, Items, Link, Paragraph, Table, table
from ..output.render import json_text, render_markdown

if TYPE_CHECKING:
    from ..games.banque_solution import BanqueSolution

FOLDER = "results/banque"
PRESETS = ("banque_ethier_lee", "banque")
DECKS = (*range(1, 9), "inf")
"""The shoes the command solves: 1-8 decks, and the infinite deck (cards drawn with replacement)."""
STATES = (*map(str, range(10)), "stood", "natural")
"""What the banker sees of a player's hand: his third card's value, that he stood, or his natural."""
ASSUMES = {
    "banque_ethier_lee": "player 2 chooses on 5 by his own total alone, not by player 1's third card (Ethier and Lee's "
                         "\"simplifying assumption concerning the information available to one of the players\", as docs/banque.md reads it)",
    "banque": "player 2 chooses on 5 knowing player 1's third card or that he stood, as it lies face up (the assumption lifted)",
}
"""What each preset assumes of the players' information."""


class Uncertified(RuntimeError):
    """A solution whose certificate does not hold: a defect of the solver, never printed as an answer."""


@dataclass(frozen=True, kw_only=True)
class BanqueRequest:
    """One banque solution asked for: ``preset`` (a name of ``BANQUE_PRESETS``) or ``rules`` (a
    :class:`BanqueRules`, from a rules file: then ``preset`` is not read); ``decks`` 1-8 or "inf"
    (None: the preset's default, ``DEFAULT_DECKS``) or ``shoe`` a composition; ``commission`` in
    percent (0 only: the zero-sum game of the literature); ``stake`` theta, the share on player 1's
    hand (None: the rules', 1/2).

    >>> BanqueRequest(preset="banqe")
    Traceback (most recent call last):
    exact_odds.errors.InputError: preset 'banqe': no banque preset is named so; did you mean banque?
    """

    preset: str = "banque_ethier_lee"
    rules: BanqueRules | None = None
    decks: int | str | None = None
    shoe: str | None = None
    """An explicit composition instead of ``decks`` (a shoe spec such as ``K=3,A=2,2=2,5=3``)."""
    commission: Fraction = Fraction(0)
    stake: Fraction | None = None

    def __post_init__(self) -> None:
        if self.rules is None and self.preset not in BANQUE_PRESETS:
            close = difflib.get_close_matches(self.preset, list(BANQUE_PRESETS), n=2) if isinstance(self.preset, str) and len(self.preset) <= 100 else []
            hint = f"did you mean {' or '.join(close)}?" if close else f"the presets: {', '.join(BANQUE_PRESETS)}"
            raise InputError(f"preset {shown(self.preset)}: no banque preset is named so; {hint}", parameter="preset")
        if self.rules is not None and not isinstance(self.rules, BanqueRules):
            raise InputError(f"rules: expected banque rules (a BanqueRules), not {shown(self.rules)}", parameter="rules")
        if self.rules is not None:
            options = [total for total in range(10) if total not in self.rules.naturals and self.rules.player[total] == CHOICE]
            if len(options) != 1:
                raise InputError(f"rules {shown(self.rules.name)}: banque is solved with one option total (C) per player, not {len(options)}",
                                 parameter="rules")
        if self.decks is not None and self.decks not in DECKS or isinstance(self.decks, bool):
            raise InputError(f"decks: banque is solved from 1-8 decks or inf (with replacement), not {shown(self.decks)}", parameter="decks")
        if self.shoe is not None:
            self._check_shoe()
        if not isinstance(self.commission, (int, Fraction)) or isinstance(self.commission, bool) or self.commission < 0:
            raise InputError(f"commission must be a percentage of at least 0, not {shown(self.commission)}", parameter="commission")
        if self.commission != 0:
            raise InputError(f"commission {self.commission}%: banque is solved as the zero-sum game of the literature (Ethier and "
                             "Lee), with no commission on the banker's wins: give 0 or leave it out", parameter="commission")
        if self.stake is not None and (not isinstance(self.stake, (int, Fraction)) or isinstance(self.stake, bool) or not 0 < self.stake < 1):
            raise InputError(f"stake must be strictly between 0 and 1 (the share of the stakes on player 1's hand; 1/2 for half the table), "
                             f"not {self.stake if isinstance(self.stake, Fraction) else shown(self.stake)}", parameter="stake")

    def _check_shoe(self) -> None:
        from ..core.shoe import as_shoe

        if self.decks is not None:
            raise InputError("shoe: give a deck count or a shoe, not both", parameter="shoe")
        try:
            size = as_shoe(self.shoe).size  # type: ignore[arg-type]
        except InputError as error:
            raise InputError(f"shoe: {error}", parameter="shoe") from None
        if size < 9:
            raise InputError(f"shoe: a banque coup needs 9 cards, the shoe has {size}", parameter="shoe")

    @property
    def rule_set(self) -> BanqueRules:
        return self.rules if self.rules is not None else BANQUE_PRESETS[self.preset]


@dataclass(frozen=True, kw_only=True)
class BanqueCommandRequest:
    """What the ``banque`` command is asked: one solution printed (in ``format``), or with ``out`` the
    folder of solutions (``force``: into a folder that holds other files too). ``preset`` or ``rules``
    (a banque rules file's path, a preset's name, or :class:`BanqueRules`; not both; neither: every
    preset into a folder, else the first); ``decks`` as text: one deck count to print, a list
    (1-8, 1,2,6, inf) into a folder; ``shoe``, ``commission`` and ``stake`` as
    :class:`BanqueRequest` reads them. Derived: ``requests``, a :class:`BanqueRequest` for each
    solution (one to print).

    >>> BanqueCommandRequest(decks="1,2")
    Traceback (most recent call last):
    exact_odds.errors.InputError: decks 1,2: give one deck count to print a solution (a list with out)
    """

    preset: str | None = None
    rules: str | BanqueRules | None = None
    decks: str | None = None
    shoe: str | None = None
    commission: Fraction = Fraction(0)
    stake: Fraction | None = None
    format: str | None = None
    out: str | None = None
    force: bool = False
    requests: tuple[BanqueRequest, ...] = field(init=False)

    def __post_init__(self) -> None:
        from ..core.rules import banque_rules_named
        from .export import parse_deck_list

        if self.preset is not None and self.rules is not None:
            raise InputError("give preset or rules, not both", parameter="preset", mentions=("preset", "rules"))
        decks = parse_deck_list(self.decks) if self.decks is not None else None
        rules = banque_rules_named(self.rules) if isinstance(self.rules, str) else self.rules
        if self.out is None:
            if self.force:
                raise InputError("force is for out (writing a folder)", parameter="force", mentions=("out",))
            if decks is not None and len(decks) > 1:
                raise InputError(f"decks {self.decks}: give one deck count to print a solution (a list with out)", parameter="decks", mentions=("out",))
        elif self.format is not None:
            raise InputError("format is for the printed solution: out writes JSON records and a Markdown summary", parameter="format", mentions=("out",))
        if self.out is None:
            asked: Sequence[tuple[str, int | str | None]] = [(PRESETS[0] if self.preset is None else self.preset, decks[0] if decks else None)]
        else:
            counts: Sequence[int | str | None] = decks or ([None] if self.shoe else DECKS)
            named = (PRESETS[0] if self.preset is None else self.preset,) if self.preset is not None or rules else PRESETS
            asked = [(name, count) for name in named for count in counts]
        object.__setattr__(self, "requests", tuple(BanqueRequest(preset=name, rules=rules, decks=count, shoe=self.shoe, commission=self.commission,
                                                                 stake=self.stake) for name, count in asked))


def run(request: BanqueRequest) -> "BanqueSolution":
    """The game of ``request`` solved exactly, with its certificates."""
    from ..games.banque_solution import DEFAULT_DECKS, solve_banque

    decks = request.shoe or (request.decks if request.decks is not None else DEFAULT_DECKS.get(request.preset if request.rules is None else "", "inf"))
    return solve_banque(rules=request.rule_set, shoe=decks, stake=request.stake)


def uncertified(solution: "BanqueSolution") -> list[str]:
    """The solutions of ``solution`` whose certificate does not hold (none, unless the solver erred)."""
    failed = [] if solution.cooperative.certificate.holds else ["the cooperative solution"]
    return failed + [f"Nash equilibrium {number}" for number, found in enumerate(solution.nash.equilibria if solution.nash else (), 1)
                     if not found.certificate.holds]


def decimal(value: Any) -> str:
    """An exact number to ten places, for display (a surd by its float)."""
    return fixed(Fraction(value), 10) if isinstance(value, (int, Fraction)) else f"{float(value):.10f}"


def mark(draw: Any) -> str:
    """The banker's choice in a cell: D draws, S stands, M mixes."""
    return "D" if draw == 1 else "S" if draw == 0 else "M"


def strategy_blocks(title: str, cells: Sequence[str], banker: Sequence[Any]) -> list[Block]:
    """The banker's strategy: one line for each two-card total where he plays one way in every
    cell, a grid (player 1's state by rows, player 2's by columns) for the others, then his mixes."""
    by_cell = dict(zip(cells, banker))
    lines: list[str] = []
    blocks: list[Block] = []
    for total in range(10):
        row = {(one, two): by_cell[f"({total}, {one}, {two})"] for one in STATES for two in STATES if f"({total}, {one}, {two})" in by_cell}
        if not row:
            continue
        marks = {mark(draw) for draw in row.values()}
        if len(marks) == 1:
            lines.append(f"on {total}: {'draws' if marks == {'D'} else 'stands' if marks == {'S'} else 'mixes'} in every cell")
            continue
        grid = [[f"{total}", one] + [mark(row[one, two]) if (one, two) in row else "" for two in STATES] for one in STATES]
        blocks.append(Table(("banker", "player 1", *STATES), tuple(tuple(line) for line in grid), ("left", "left") + ("center",) * len(STATES), stub=2))
    mixes = [f"{cell}: draws with probability {draw} = {decimal(draw)}" for cell, draw in by_cell.items() if mark(draw) == "M"]
    lead: list[Block] = [Paragraph(f"{title} (D draws, S stands, M mixes), by his two-card total, player 1's state (rows: third card, stood, natural) "
                      "and player 2's (columns):"), Items(tuple(lines))]
    return lead + blocks + ([Items(tuple(mixes), lead="The banker mixes:")] if mixes else [])


def cooperative_blocks(solution: "BanqueSolution") -> list[Block]:
    """The correlated cooperative equilibrium: value, the players' draws and joint draws, certificate."""
    team = solution.cooperative
    certificate = team.certificate
    draws = table(["information set", "draws (exact)", "decimal"], [[name, str(share), decimal(share)] for name, share in team.draws.items()],
                  ("left", "right", "right"))
    joint = table(["player 1's set", "player 2's set", "both draw", "1 only", "2 only", "neither"],
                  [[first, second, *map(str, shares)] for (first, second), shares in team.joint.items()])
    independent = {True: "exists (the optimal joint strategy is a product of the players' own)",
                   False: "does not exist (the optimal joint strategy correlates the players)",
                   None: "not decided (the optimal joint strategy is not unique)"}[team.independent]
    return [
        Heading(2, "The players acting as one (correlated cooperative equilibrium)"),
        Items((f"banker's payoff: {-team.value} = {decimal(-team.value)} per unit staked (the players' pooled payoff {team.value})",
               f"certificate: the players' joint strategy guarantees them {certificate.team_guarantees}, the banker's strategy holds them to "
               f"{certificate.banker_holds}: " + ("both equal the value (holds)" if certificate.holds else "NOT EQUAL (FAILS)"),
               "the players' optimal joint strategy is " + ("unique (its face is one point)" if team.team_face.unique else "not unique"),
               f"independent cooperative equilibrium: {independent}")),
        Paragraph("The players' draws on 5, each information set:"), draws,
        Paragraph("Their joint draws, where both choose in one coup:"), joint,
        *strategy_blocks("The banker's optimal strategy against them", solution.cells, team.banker),
    ]


def nash_blocks(solution: "BanqueSolution") -> list[Block]:
    """Every Nash equilibrium found, each with its certificate, or why they are not solved."""
    blocks: list[Block] = [Heading(2, "Nash equilibria of the three-person game")]
    search = solution.nash
    if search is None:
        return blocks + [Paragraph(f"Not solved: {solution.nash_open}.")]
    found = len(search.equilibria)
    blocks.append(Items((f"{found} equilibri{'um' if found == 1 else 'a'} found; the search is "
                         + ("exhaustive" if search.exhaustive else f"NOT exhaustive ({len(search.unresolved)} pieces unresolved)")
                         + f" ({search.vertices} vertices, {search.arcs} arcs, {search.regions} regions of the banker's indifference curves)",
                         *(f"continuum: {text}" for text in search.continua))))
    for number, equilibrium in enumerate(search.equilibria, 1):
        certificate = equilibrium.certificate
        payoffs = zip(("banker", "player 1", "player 2"), certificate.payoffs)
        blocks += [
            Heading(3, f"Equilibrium {number}"),
            table(["information set", "draws (exact)", "decimal"], [[name, str(share), decimal(share)] for name, share in equilibrium.draws.items()],
                  ("left", "right", "right")),
            Items(tuple(f"{side}'s payoff: {value} = {decimal(value)} per unit staked" for side, value in payoffs)
                  + (f"certificate: best deviation gains banker {certificate.banker_gain}, player 1 {certificate.first_gain}, player 2 "
                     f"{certificate.second_gain}: " + ("no side gains (holds)" if certificate.holds else "NOT AN EQUILIBRIUM (FAILS)"),)),
            *strategy_blocks("The banker's strategy", solution.cells, equilibrium.banker),
        ]
    return blocks


def flat_rows(solution: "BanqueSolution") -> list[list[str]]:
    """Every figure of the solution as (solution, quantity, exact, decimal): the CSV table."""
    team = solution.cooperative
    rows = [["cooperative", "banker's payoff", str(-team.value), decimal(-team.value)]]
    rows += [["cooperative", name, str(share), decimal(share)] for name, share in team.draws.items()]
    rows += [["cooperative", f"{first} and {second}: {what}", str(share), decimal(share)]
             for (first, second), shares in team.joint.items() for what, share in zip(("both draw", "1 only", "2 only", "neither"), shares)]
    rows += [["cooperative", f"banker at {cell}", str(draw), decimal(draw)] for cell, draw in zip(solution.cells, team.banker)]
    for number, equilibrium in enumerate(solution.nash.equilibria if solution.nash else (), 1):
        name = f"nash {number}"
        rows += [[name, f"{side}'s payoff", str(value), decimal(value)] for side, value in zip(("banker", "player 1", "player 2"), equilibrium.certificate.payoffs)]
        rows += [[name, set_name, str(share), decimal(share)] for set_name, share in equilibrium.draws.items()]
        rows += [[name, f"banker at {cell}", str(draw), decimal(draw)] for cell, draw in zip(solution.cells, equilibrium.banker)]
    return rows


def document(solution: "BanqueSolution") -> Document:
    """The solution in words and tables; its JSON is the record (``to_dict``), its CSV every figure."""
    rules = solution.rules
    preset = next((name for name, preset in BANQUE_PRESETS.items() if preset == rules), None)
    assumes = ASSUMES[preset] if preset else ("player 2 reads player 1's third card" if rules.second_sees_first else "player 2 chooses by his own total alone")
    shoe = "the infinite deck (cards drawn with replacement)" if solution.decks == "inf" else (
        f"{solution.decks} decks dealt without replacement" if isinstance(solution.decks, int) else str(solution.decks))
    lines = (f"rules: {rules.name}" + (f" (preset {preset})" if preset else " (a rules file)"),
             f"shoe: {shoe}; the three hands dealt from it",
             f"stakes: {rules.stake} of the table on player 1's hand, {1 - rules.stake} on player 2's; payoffs per unit staked; no commission",
             f"information: each player sees his own total and whether the other holds a natural; {assumes}; the banker chooses in "
             "each cell (his two-card total, each player's natural, standing or third card)")
    blocks: list[Block] = [Items(lines, lead="The model (docs/banque.md):")]
    blocks += cooperative_blocks(solution) + nash_blocks(solution)
    return Document(tuple(blocks), Data(solution.to_dict(), table(["solution", "quantity", "exact", "decimal"], flat_rows(solution))),
                    title="Baccara banque solved exactly")


def banque_files(requests: Sequence[BanqueRequest], progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Each request solved, as a JSON record named ``<preset>-decks-<decks>.json`` (``<preset>-shoe.json``
    for a shoe given by its composition; ``rules`` for a rules file's), and a README;
    ``progress`` hears each record's name and run time. A solution whose certificate fails stops it
    (:class:`Uncertified`): no folder is written with it."""
    files: dict[str, str] = {}
    for request in requests:
        started = time.perf_counter()
        solution = run(request)
        name = f"{request.preset if request.rules is None else 'rules'}-" + ("shoe.json" if request.shoe else f"decks-{solution.decks}.json")
        if uncertified(solution):
            raise Uncertified(f"{name}: the certificate of {' and '.join(uncertified(solution))} does not hold: nothing written")
        files[name] = json_text(solution.to_dict())
        if progress is not None:
            progress(f"{name}: {time.perf_counter() - started:.1f} s")
    files["README.md"] = readme({name: json.loads(text) for name, text in files.items()})
    return files


def readme(records: dict[str, dict[str, Any]]) -> str:
    """The summary of the records (by file name): a row each, in the order of their names."""
    rows = []
    for name, record in sorted(records.items()):
        team, nash = record["cooperative"], record["nash"]
        joint = "; ".join(f"both {float(Fraction(entry['both_draw']['exact'])):.6f}, neither {float(Fraction(entry['neither']['exact'])):.6f}"
                          for entry in team["joint"] if "natural" not in entry["player_2"])
        equilibria = nash.get("equilibria", [])
        only = equilibria[0] if len(equilibria) == 1 else None
        rows.append([
            record["rules"].removeprefix("Baccara banque").strip(", ") or "player 2 reading player 1's card",
            str(record["decks"]), fixed(Fraction(team["banker_value"]["exact"]), 10),
            joint if len(team["joint"]) == 1 else f"{len(team['joint'])} pairs of sets (in the JSON)",
            {True: "yes", False: "no", None: "not decided"}[team["independent_cooperative_equilibrium"]],
            "open" if not nash["solved"] else f"{len(equilibria)}" + ("" if nash["exhaustive"] else " (not exhaustive)"),
            "" if only is None else f"{only['draws']['player 1 on 5']['decimal']:.10f}",
            "" if only is None else f"{only['payoffs']['banker']['decimal']:.10f}",
            "holds" if team["certificate"]["holds"] and all(found["certificate"]["holds"] for found in equilibria) else "FAILS",
            Link(name, name)])
    header = ["rules", "decks", "banker's payoff, players correlated", "players' joint draws on 5", "independent", "Nash equilibria",
              "Nash: each player draws on 5", "Nash: banker's payoff", "certificates", "file"]
    about = "\n".join([
        "Written by `baccarat-odds banque --out results/banque`; do not edit by hand. Two rule sets: player 2 choosing by his",
        "own total (`banque_ethier_lee`: Ethier and Lee's simplifying assumption as docs/banque.md reads it) and player 2",
        "reading player 1's third card (`banque`). Half the table's stakes on each hand; payoffs per unit staked in all. The",
        "players correlated: pooled against the banker with a joint lottery (Ethier and Lee's correlated cooperative",
        "equilibrium), their joint draws on 5 when both hold 5 (decimals; exact in the JSON); `independent`: whether",
        "that optimal joint strategy is a product of their own (an independent cooperative equilibrium). Nash: every",
        "equilibrium of the three-person game, the players' draws on 5 without a natural opposite (exact in the JSON,",
        "with square roots on a finite shoe). Each JSON record holds the certificates, rechecked by tests/test_banque.py.",
    ])
    return render_markdown(Document((Heading(1, "Baccara banque solved exactly"), Paragraph(about), table(header, rows))))
