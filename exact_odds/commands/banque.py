"""Baccara banque solved for each deck count and the infinite deck, both rule sets, written to a
folder (``results/banque/`` in the repository): one JSON record each
(:meth:`exact_odds.games.banque_solution.BanqueSolution.to_dict`) and a summary (each record's run
time goes to stderr as it is written).

Until the ``banque`` command (after the commands floor, issue 30), write them with
``python -m exact_odds.commands.banque [--out results/banque] [--decks 1-8] [--readme]`` (``--readme``: the
summary again from the records there); tests/test_banque.py
rechecks every record's certificates from the payoffs.
"""

import json
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.numbers import fixed
from ..output.blocks import Document, Heading, Link, Paragraph, table
from ..output.render import json_text, render_markdown

FOLDER = "results/banque"
PRESETS = ("banque_ethier_lee", "banque")


def banque_files(deck_list: list[int | str], progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Each preset solved from each shoe of ``deck_list`` (and the infinite deck): JSON records and a
    README; ``progress`` hears each record's name and run time."""
    from ..games.banque_solution import solve_banque

    decks_list = deck_list if "inf" in deck_list else [*deck_list, "inf"]
    files: dict[str, str] = {}
    for preset in PRESETS:
        for decks in decks_list:
            started = time.perf_counter()
            record = solve_banque(rules=preset, shoe=decks).to_dict()
            name = f"{preset}-decks-{decks}.json"
            files[name] = json_text(record)
            if progress is not None:
                progress(f"{name}: {time.perf_counter() - started:.1f} s")
    files["README.md"] = readme({name: json.loads(text) for name, text in files.items()})
    return files


def readme(records: dict[str, dict[str, Any]]) -> str:
    """The summary of the records (by file name): a row each."""
    rows = []
    for name, record in records.items():
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
        "Written by `python -m exact_odds.commands.banque`; do not edit by hand. Two rule sets: player 2 choosing by his",
        "own total (`banque_ethier_lee`: Ethier and Lee's simplifying assumption as docs/banque.md reads it) and player 2",
        "reading player 1's third card (`banque`). Half the table's stakes on each hand; payoffs per unit staked in all. The",
        "players correlated: pooled against the banker with a joint lottery (Ethier and Lee's correlated cooperative",
        "equilibrium), their joint draws on 5 when both hold 5 (decimals; exact in the JSON); `independent`: whether",
        "that optimal joint strategy is a product of their own (an independent cooperative equilibrium). Nash: every",
        "equilibrium of the three-person game, the players' draws on 5 without a natural opposite (exact in the JSON,",
        "with square roots on a finite shoe). Each JSON record holds the certificates, rechecked by tests/test_banque.py.",
    ])
    return render_markdown(Document((Heading(1, "Baccara banque solved exactly"), Paragraph(about), table(header, rows))))


def main(argv: list[str]) -> int:
    """Write the files (the folder whole, or nothing)."""
    from ..errors import InputError
    from .export import parse_deck_list
    from ..output.files import FolderTarget

    out, decks, summary_only = FOLDER, "1-8", False
    arguments = list(argv)
    while arguments:
        option = arguments.pop(0)
        if option in ("--out", "--decks") and arguments:
            value = arguments.pop(0)
            out, decks = (value, decks) if option == "--out" else (out, value)
        elif option == "--readme":
            summary_only = True
        else:
            print(f"usage: python -m exact_odds.commands.banque [--out FOLDER] [--decks LIST] [--readme]; not {option!r}", file=sys.stderr)
            return 2
    try:
        with FolderTarget(out, force=False, command="banque") as target:
            if summary_only:  # the summary again, from the records already there
                kept = {path.name: path.read_text(encoding="utf-8") for path in sorted(Path(out).glob("*.json")) if path.name != "manifest.json"}
                target.write({**kept, "README.md": readme({name: json.loads(text) for name, text in kept.items()})})
            else:
                target.write(banque_files(parse_deck_list(decks), progress=lambda text: print(text, file=sys.stderr, flush=True)))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
