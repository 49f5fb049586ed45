"""The `chemin-de-fer` command: its request (a model or a rule set with choices for both sides,
a shoe, a commission), its run (:func:`exact_odds.games.chemin.solve`) and the document of the
solution: the value, both strategies (the banker's as a tableau), the certificate and the notes;
typeset with exact fractions for LaTeX; the record for JSON."""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.numbers import fixed, shown
from ..core.rules import DRAW, PUNTO_BANCO, STAND
from ..errors import InputError
from ..games.chemin import Key, Solution, Uniqueness, game_rules, key_text, solve
from ..games.faces import face_record
from ..output.blocks import Block, Comment, Data, Document, Exact, Items, Paragraph, Strong, Table, table
from ..output.render import render
from ..records import versioned
from .setup import Setup

if TYPE_CHECKING:
    from ..core.rules import DrawRules
    from ..core.shoe import Shoe

MARKS = 11
"""The tableau's columns of marks: the player's third card 0-9, and stood."""


@dataclass(frozen=True, kw_only=True)
class CheminRequest:
    """The game: a ``model`` (A, B2, B3) or the rules of ``setup`` (a preset or file with choices
    for both sides), dealt from the setup's shoe (default: the infinite deck for model A, else 8
    decks), at the setup's commission (percent, default 0: a rule set's own is not read)."""

    setup: Setup
    model: str | None = None

    def __post_init__(self) -> None:
        if self.model is None and self.setup.rules is None:
            raise InputError("give model A|B2|B3 or rules NAME|FILE (a chemin de fer rule set)", mentions=("model", "rules"))
        if self.model is not None and self.setup.rules is not None:
            raise InputError("give model or rules, not both: a model is a rule set (--model A is --rules chemin_de_fer_a)", mentions=("model", "rules"))
        if self.model is not None and not isinstance(self.model, str):
            raise InputError(f"model must be A, B2 or B3 (text), not {shown(self.model)}", parameter="model")


def run(request: CheminRequest) -> Solution:
    """The game solved."""
    setup = request.setup
    game = request.model if request.model is not None else setup.named_rules()
    name, _ = game_rules(game)
    decks = setup.decks if setup.decks is not None or setup.shoe is not None else ("inf" if name == "A" else 8)
    shoe = replace(setup, decks=decks).starting_shoe()
    return solve(game, shoe, (setup.commission_percent() or Fraction(0)) / 100)


def _decimal(value: Fraction) -> str:
    return fixed(value, 10)


def _banker_total(banker: Key) -> int:
    return banker if isinstance(banker, int) else sum(banker) % 10


def strategy(solution: Solution) -> tuple[list[str], list[list[str]], list[str]]:
    """The banker's strategy as a tableau (header, rows; D draws, S stands, * departs from the
    Punto Banco tableau, M mixes; d, s where the rules draw or stand) and, in words, where it mixes
    or departs."""
    rows: dict[Key, dict[int | str, str]] = {}
    words = []
    for banker, third, draw in solution.banker:
        punto = PUNTO_BANCO.mark("banker", _banker_total(banker), None if third == "stood" else int(third))
        if 0 < draw < 1:
            mark = "M"
            words.append(f"mixes at {key_text(banker)} vs {third}: draws with probability {draw} ({_decimal(draw)})")
        else:
            mark = "D" if draw else "S"
            if punto in (DRAW, STAND) and mark != punto:
                words.append(f"{'draws' if draw else 'stands'} at {key_text(banker)} vs {third} (Punto Banco {'stands' if draw else 'draws'})")
                mark += "*"
        rows.setdefault(banker, {})[third] = mark
    header = (["banker"] if solution.rules.banker_sees == "total" else ["total", "cards"]) + [str(third) for third in range(10)] + ["stood"]
    lines = []
    for banker, marks in rows.items():
        label = [str(banker)] if isinstance(banker, int) else [str(_banker_total(banker)), key_text(banker)]
        for third in (*range(10), "stood"):
            if third not in marks:
                marks[third] = solution.rules.mark("banker", _banker_total(banker), None if third == "stood" else int(third)).lower()
        lines.append(label + [marks[third] for third in range(10)] + [marks["stood"]])
    return header, lines, words


def summary(solution: Solution) -> list[str]:
    certificate = solution.certificate
    setting = (f"{solution.decks} deck{'s' if solution.decks != 1 else ''}" if isinstance(solution.decks, int)
               else "infinite deck (cards drawn with replacement)" if solution.decks == "inf" else solution.decks)
    lines = [f"{solution.rules.name}: {setting}, "
             + ("no commission (a zero-sum game)" if not solution.commission else f"commission {solution.commission} of banker wins (a bimatrix game)")]
    if solution.commission:
        lines.append(f"Nash equilibrium: player's payoff per coup {solution.value} = {_decimal(solution.value)}; "
                     f"banker's {solution.banker_value} = {_decimal(solution.banker_value)}")
    else:
        lines.append(f"Value (player's expectation per coup): {solution.value} = {_decimal(solution.value)}")
    for key, share in solution.player.items():
        lines.append(f"Player draws on {key_text(key) if isinstance(key, tuple) else f'total {key}'} with probability {share} ({_decimal(share)})")
    if certificate.zero_sum:
        lines.append(f"Certificate: the player's strategy guarantees him {certificate.player_guarantees}; the banker's holds him to "
                     f"{certificate.banker_guarantees}; " + ("both equal the value" if certificate.holds else "NOT EQUAL"))
    else:
        lines.append(f"Certificate: best deviation gains: player {certificate.player_gain}, banker {certificate.banker_gain}; "
                     + ("each strategy is a best reply to the other" if certificate.holds else "NOT AN EQUILIBRIUM"))
    lines.append(f"Uniqueness: {solution.uniqueness.summary()}")
    return lines


ALTERNATIVES_SHOWN = 8
"""The most alternative strategies the text lists (the JSON record has every vertex found)."""


def alternatives_text(solution: Solution) -> list[str]:
    """The alternative strategies (vertices of a side's face, other equilibria), a line each."""
    lines = []
    for alternative in solution.uniqueness.alternatives[:ALTERNATIVES_SHOWN]:
        values = ", ".join(f"{name}: {value}" for name, value in alternative.values)
        lines.append(f"{alternative.side} {values}; payoffs: player {alternative.player_payoff} = {_decimal(alternative.player_payoff)}, "
                     f"banker {alternative.banker_payoff} = {_decimal(alternative.banker_payoff)}")
    more = len(solution.uniqueness.alternatives) - ALTERNATIVES_SHOWN
    return lines + ([f"and {more} more (in the JSON record)"] if more > 0 else [])


def uniqueness_record(uniqueness: Uniqueness) -> dict[str, object]:
    """Which side's strategy is unique, how it was decided, the faces as certificates and the alternatives."""
    return {
        "player": uniqueness.player,
        "banker": uniqueness.banker,
        "decided_by": uniqueness.summary(),
        "equilibria_found": uniqueness.equilibria,
        "player_face": face_record(uniqueness.player_face, proof_points=True),
        "banker_face": face_record(uniqueness.banker_face, proof_points=True),
        "alternatives": [{"side": alternative.side, "values": {name: str(value) for name, value in alternative.values},
                          "player_payoff": str(alternative.player_payoff), "banker_payoff": str(alternative.banker_payoff)}
                         for alternative in uniqueness.alternatives],
    }


def solution_record(solution: Solution) -> dict[str, object]:
    """The JSON record: exact fractions as "n/d" strings."""
    certificate = solution.certificate
    return {
        "model": solution.model,
        "decks": solution.decks,
        "commission": str(solution.commission),
        "value": str(solution.value),
        "banker_value": str(solution.banker_value),
        "player": {key_text(key): str(share) for key, share in solution.player.items()},
        "banker": [{"banker": banker if isinstance(banker, int) else key_text(banker), "player_third": third, "draw": str(draw)}
                   for banker, third, draw in solution.banker],
        "certificate": {
            "player_guarantees": str(certificate.player_guarantees),
            "banker_guarantees": str(certificate.banker_guarantees),
            "player_payoff": str(certificate.player_payoff),
            "banker_payoff": str(certificate.banker_payoff),
            "player_gain": str(certificate.player_gain),
            "banker_gain": str(certificate.banker_gain),
            "holds": certificate.holds,
        },
        "unique": solution.unique,
        "uniqueness": uniqueness_record(solution.uniqueness),
        "notes": list(solution.notes),
    }


def solution_document(solution: Solution) -> Document:
    """The solution in words with the banker's tableau; typeset, its exact fractions set as mathematics."""
    header, rows, mixes = strategy(solution)
    legend = "D draws, S stands, * departs from the Punto Banco tableau, M mixes"
    if any(mark in ("d", "s") for row in rows for mark in row[-MARKS:]):
        legend += "; d, s: the rules draw or stand"
    lines = summary(solution)
    labels = len(header) - MARKS
    seen = "total" if solution.rules.banker_sees == "total" else "hand"
    blocks: list[Block] = [Items(tuple(lines[1:]), lead=lines[0]),
                           Paragraph(f"Banker's strategy ({legend}), by two-card {seen} and the player's third card:"), table(header, rows)]
    blocks += [Items(tuple(f"Banker {text}" for text in mixes))] if mixes else []
    alternatives = alternatives_text(solution)
    blocks += [Items(tuple(alternatives), lead="Other solution strategies (vertices of a side's face, or other equilibria):")] if alternatives else []
    blocks.append(Items(solution.notes, label="Note: "))
    tableau = Table(tuple(header), tuple(tuple(row[:labels]) + tuple(Strong(mark) if mark == "M" else mark for mark in row[labels:]) for row in rows),
                    ("left",) * labels + ("center",) * MARKS, stub=labels)
    typeset: list[Block] = [Comment(tuple(lines)), Paragraph(("Value: ", Exact(solution.value, _decimal(solution.value)), "."))]
    typeset += [Paragraph((f"Player draws on {key_text(key)} with probability ", Exact(share, _decimal(share)), ".")) for key, share in solution.player.items()]
    typeset += [tableau, Paragraph(f"{legend}.")]
    typeset += [Paragraph((f"Banker mixes at {key_text(banker)} vs {third}: draws with probability ", Exact(draw), "."))
                for banker, third, draw in solution.banker if 0 < draw < 1]
    return Document(tuple(blocks), Data(versioned("chemin_de_fer", solution_record(solution))), tuple(typeset))


def render_solution(solution: Solution, fmt: str) -> str:
    """The solution (:func:`solution_document`) in one of the output formats (:func:`exact_odds.output.render.render`)."""
    return render(solution_document(solution), fmt)


def chemin_de_fer(*, model: str | None = None, rules: "DrawRules | str | None" = None, shoe: "Shoe | int | str | Mapping[str, int] | None" = None,
                  commission: "Fraction | int | str | None" = None) -> Solution:
    """Chemin de fer solved as a game: under ``model`` (A, B2, B3) or ``rules`` (a preset, a rules
    file's path or a :class:`~exact_odds.core.rules.DrawRules` with choices for both sides), dealt
    from ``shoe`` (default: the infinite deck for model A, else 8 decks), at ``commission`` (percent,
    default 0): the ``chemin-de-fer`` command's request (:class:`CheminRequest`) built from these
    arguments.

    >>> solution = chemin_de_fer(model="A")  # each side sees its total; the infinite deck
    >>> solution.player, solution.unique  # the player draws at 5 with probability 9/11, as Kemeny and Snell found
    ({5: Fraction(9, 11)}, True)
    >>> solution.value  # the player's value per coup
    Fraction(-679568, 53094899)
    >>> chemin_de_fer()
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: give model A|B2|B3 or rules NAME|FILE (a chemin de fer rule set)
    """
    setup = Setup.of_arguments(shoe=shoe, rules=rules, commission=commission)
    return run(CheminRequest(setup=setup, model=model))
