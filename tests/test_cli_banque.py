"""The `banque` command (issue 35): its JSON against brute force over every ordering of small shoes,
its certificates rechecked from payoffs computed here, its refusals, and results/banque/ rewritten.

The oracle deals every ordering of a ten-card shoe (hands in a layout of its own: player 1 the first
two cards, player 2 the next two, the banker the next two, third cards in turn) for every pure choice
of each side, and sums the banker's net wins (each hand's stake one half of the table).
"""

import csv
import io
import json
from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import permutations, product
from math import factorial, prod
from pathlib import Path

import pytest

from exact_odds.cli.commands import main
from exact_odds.commands.banque import DECKS, PRESETS, BanqueRequest, readme

RESULTS = Path(__file__).resolve().parent.parent / "results" / "banque"
VALUES = {"A": 1, "K": 0, "Q": 0, "J": 0, "T": 0, **{str(value): value for value in range(2, 10)}}
STATES = (*map(str, range(10)), "stood", "natural")


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The command in-process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


@cache
def orderings(spec: str) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every ordering of the shoe's card values, with the number of physical orderings it stands for."""
    counts = {VALUES[rank]: 0 for rank, _ in (part.split("=") for part in spec.split(","))}
    for rank, count in (part.split("=") for part in spec.split(",")):
        counts[VALUES[rank]] += int(count)
    cards = [value for value, count in counts.items() for _ in range(count)]
    weight = prod(factorial(count) for count in counts.values())  # the suits and the tens of one value, told apart
    return tuple((order, weight) for order in sorted(set(permutations(cards))))


def coup(order: tuple[int, ...], second_sees_first: bool, first: int, second: int, banker: int):
    """One coup under the banque rules (naturals 8, 9; players draw on 0-4, choose on 5, stand on
    6-7; the banker chooses on 0-7): (the banker's cell or None, player 1's and player 2's information
    set where they chose or None, the banker's net wins against hand 1 and against hand 2)."""
    totals = [(order[0] + order[1]) % 10, (order[2] + order[3]) % 10, (order[4] + order[5]) % 10]
    natural = [total >= 8 for total in totals]
    if natural[2] or (natural[0] and natural[1]):
        return None, None, None, tuple((totals[2] > total) - (totals[2] < total) for total in totals[:2])
    position, states, finals, chose = 6, [], [], [None, None]
    for player, choice in ((0, first), (1, second)):
        if natural[player]:
            states.append("natural")
            finals.append(None)
            continue
        if totals[player] == 5:
            context = "vs player 2's natural" if natural[1 - player] and player == 0 else "vs player 1's natural" if natural[1 - player] else (
                f"vs player 1's {states[0]}" if player == 1 and second_sees_first else "")
            chose[player] = f"player {player + 1} on 5" + (f" {context}" if context else "")
        if totals[player] <= 4 or (totals[player] == 5 and choice):
            states.append(str(order[position]))
            finals.append((totals[player] + order[position]) % 10)
            position += 1
        else:
            states.append("stood")
            finals.append(totals[player])
    final = (totals[2] + order[position]) % 10 if banker else totals[2]
    nets = tuple(-1 if hand is None else (final > hand) - (final < hand) for hand in finals)
    return f"({totals[2]}, {states[0]}, {states[1]})", chose[0], chose[1], nets


@cache
def payoffs(spec: str, second_sees_first: bool) -> tuple[int, dict, dict]:
    """Every ordering dealt for every pure choice: (the number of orderings, the banker's net wins
    against each hand where no one chooses, and by (cell, banker's choice, (player 1's set, choice),
    (player 2's set, choice)) those where someone does)."""
    constant, table, total = (0, 0), defaultdict(lambda: (0, 0)), 0
    for order, weight in orderings(spec):
        total += weight
        seen = set()
        for first, second, banker in product((0, 1), repeat=3):
            cell, one, two, nets = coup(order, second_sees_first, first, second, banker)
            key = (cell, banker if cell else None, (one, first if one else None), (two, second if two else None))
            if key in seen:
                continue
            seen.add(key)
            if cell is None:
                constant = (constant[0] + weight * nets[0], constant[1] + weight * nets[1])
            else:
                table[key] = (table[key][0] + weight * nets[0], table[key][1] + weight * nets[1])
    return total, constant, dict(table)


def strategy_value(spec: str, second_sees_first: bool, probability, banker) -> tuple[Fraction, Fraction, Fraction]:
    """The banker's, player 1's and player 2's payoffs per unit staked: the players' choices by
    ``probability((set, choice), (set, choice))``, the banker's by ``banker(cell, scores)`` (his
    probability of drawing, given what standing and drawing earn him in the cell)."""
    total, constant, table = payoffs(spec, second_sees_first)
    by_cell: dict = defaultdict(lambda: [[0, 0], [0, 0]])
    for (cell, choice, one, two), nets in table.items():
        chance = probability(one, two)
        if chance:
            by_cell[cell][choice] = [have + chance * net for have, net in zip(by_cell[cell][choice], nets)]
    hands = list(constant)
    for cell, (stand, draw) in by_cell.items():
        draws = banker(cell, (sum(stand), sum(draw)))
        hands = [have + (1 - draws) * s + draws * d for have, s, d in zip(hands, stand, draw)]
    one, two = (Fraction(hand, 2 * total) for hand in hands)
    return one + two, -one, -two


def best_reply(cell: str, scores: tuple[Fraction, Fraction]) -> int:
    """The banker's best pure choice in a cell (each pure strategy of his, cell by cell)."""
    return int(scores[1] > scores[0])


def pure(choices: dict):
    """The players' pure strategy ``choices`` (set: 0 stands, 1 draws) as ``probability``."""
    return lambda one, two: int(all(name is None or choices[name] == choice for name, choice in (one, two)))


def every_pure(spec: str, second_sees_first: bool, sets: tuple[str, ...] | None = None):
    """Every pure strategy of the players over the information sets met on the shoe (or ``sets``)."""
    _, _, table = payoffs(spec, second_sees_first)
    met = sets or tuple(sorted({key[side][0] for key in table for side in (2, 3) if key[side][0]}))
    return [dict(zip(met, bits)) for bits in product((0, 1), repeat=len(met))]


def solved(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "banque", *args, "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)
NO_NATURALS = "K=3,A=2,2=2,5=3"
"""Ten cards without a natural: each player meets one information set (two with player 2 reading)."""
WITH_NATURALS = "K=3,3=2,5=3,9=2"
"""Ten cards with naturals: the sets after the other's natural are met too."""


def banker_of(record: dict, solution: dict):
    """A solution's banker strategy (its probability of drawing by cell) as ``banker``."""
    return lambda cell, scores: Fraction(solution["banker"][cell])


@cache
def solved_json(spec: str, preset: str) -> str:
    """The command's JSON output (run once for each shoe and preset)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_info:
        main(["banque", "--shoe", spec, "--preset", preset, "--format", "json"])
    assert exit_info.value.code == 0
    return out.getvalue()


@pytest.mark.parametrize("preset", PRESETS)
def test_value_against_brute_force(preset: str) -> None:
    """The game's value by brute force: the players (pooled) choose their best pure strategy, the
    banker his best reply to each (cell by cell: each of his pure strategies); on this shoe that is
    the value, for the command's banker strategy holds every pure strategy of theirs to it."""
    sees = preset == "banque"
    record = json.loads(solved_json(WITH_NATURALS, preset))
    value = Fraction(record["cooperative"]["banker_value"]["exact"])
    brute = min(strategy_value(WITH_NATURALS, sees, pure(choices), best_reply)[0] for choices in every_pure(WITH_NATURALS, sees))
    held = min(strategy_value(WITH_NATURALS, sees, pure(choices), banker_of(record, record["cooperative"]))[0]
               for choices in every_pure(WITH_NATURALS, sees))
    assert brute == held == value == Fraction(2, 525)


@pytest.mark.parametrize(("spec", "preset"), [(NO_NATURALS, "banque"), (WITH_NATURALS, "banque_ethier_lee")])
def test_certificate_rechecked_from_the_payoffs(spec: str, preset: str) -> None:
    """The cooperative certificate from the payoffs alone: the players' joint strategy (each pair of
    sets met together by its four joint probabilities, a set met alone by its draws) against the
    banker's best reply, and the banker's strategy against every pure strategy of the players, both
    the value. On NO_NATURALS with player 2 reading, the players mix (no pure strategy reaches it)."""
    sees = preset == "banque"
    record = json.loads(solved_json(spec, preset))
    team = record["cooperative"]
    value = Fraction(team["banker_value"]["exact"])
    draws = {name: Fraction(share["exact"]) for name, share in team["draws"].items()}
    joint = {(entry["player_1"], entry["player_2"]): {(1, 1): entry["both_draw"], (1, 0): entry["player_1_only"], (0, 1): entry["player_2_only"],
                                                      (0, 0): entry["neither"]} for entry in team["joint"]}

    def correlated(one, two):
        if one[0] and two[0]:
            return Fraction(joint[one[0], two[0]][one[1], two[1]]["exact"])
        name, choice = one if one[0] else two
        return Fraction(1) if name is None else draws[name] if choice else 1 - draws[name]

    guaranteed = strategy_value(spec, sees, correlated, best_reply)[0]
    held = min(strategy_value(spec, sees, pure(choices), banker_of(record, team))[0] for choices in every_pure(spec, sees))
    assert guaranteed == held == value
    assert team["certificate"] == {"team_guarantees": {"exact": str(-value), "decimal": float(-value)},
                                   "banker_holds": {"exact": str(-value), "decimal": float(-value)}, "holds": True}
    if sees and spec == NO_NATURALS:
        assert min(strategy_value(spec, sees, pure(choices), best_reply)[0] for choices in every_pure(spec, sees)) > value


def test_nash_rechecked_from_the_payoffs() -> None:
    """The Nash equilibrium's payoffs from the dealt coups, and no side gains by any pure deviation:
    the banker's best reply cell by cell, each player's every pure strategy of his own sets."""
    record = json.loads(solved_json(NO_NATURALS, "banque_ethier_lee"))
    assert record["nash"]["solved"] and record["nash"]["exhaustive"]
    [equilibrium] = record["nash"]["equilibria"]
    draws = {name: Fraction(share["exact"]) for name, share in equilibrium["draws"].items()}

    def mixed(own: dict):
        chances = {**draws, **own}
        return lambda one, two: prod((chances[name] if choice else 1 - chances[name]) if name else Fraction(1) for name, choice in (one, two))

    banker = banker_of(record, equilibrium)
    payoffs_found = strategy_value(NO_NATURALS, False, mixed({}), banker)
    assert list(payoffs_found) == [Fraction(equilibrium["payoffs"][side]["exact"]) for side in ("banker", "player_1", "player_2")]
    assert strategy_value(NO_NATURALS, False, mixed({}), best_reply)[0] == payoffs_found[0]
    for side, sets in ((1, ("player 1 on 5", "player 1 on 5 vs player 2's natural")), (2, ("player 2 on 5", "player 2 on 5 vs player 1's natural"))):
        for choices in every_pure(NO_NATURALS, False, sets):
            assert strategy_value(NO_NATURALS, False, mixed({name: Fraction(choice) for name, choice in choices.items()}), banker)[side] <= payoffs_found[side]
    assert equilibrium["certificate"] == {"banker_gain": "0", "player_1_gain": "0", "player_2_gain": "0", "holds": True}


def test_every_format_says_the_same(capsys) -> None:
    """Each format holds the value and the certificate; the CSV's figures are the JSON's."""
    record = json.loads(solved_json(NO_NATURALS, "banque"))
    value = record["cooperative"]["banker_value"]["exact"]
    for fmt in ("table", "markdown", "latex", "html"):
        code, out, err = run(capsys, "banque", "--shoe", NO_NATURALS, "--preset", "banque", "--format", fmt)
        assert (code, err) == (0, "") and f"payoff: {value} = 0.0309229596" in out and "(holds)" in out, fmt
        assert "player 2 chooses on 5 knowing player 1" in out and "Not solved: player 2 reads player 1" in out
    code, out, _ = run(capsys, "banque", "--shoe", NO_NATURALS, "--preset", "banque", "--format", "csv")
    rows = {(row[0], row[1]): row[2] for row in list(csv.reader(io.StringIO(out)))[1:]}
    assert rows["cooperative", "banker's payoff"] == value == "2027/65550"
    assert {name: rows["cooperative", name] for name in record["cooperative"]["draws"]} == \
        {name: share["exact"] for name, share in record["cooperative"]["draws"].items()}
    assert all(rows["cooperative", f"banker at {cell}"] == draw for cell, draw in record["cooperative"]["banker"].items())


def test_a_rules_file_takes_effect(capsys, tmp_path: Path) -> None:
    """Banque rules from a TOML file: the preset's rules written out read back to the same solution;
    a stake of 1/3 in the file is the preset with --stake 1/3 (and not the preset's 1/2)."""
    from exact_odds.core.rules import BANQUE_ETHIER_LEE, banque_rules_toml

    text = banque_rules_toml(BANQUE_ETHIER_LEE)
    (tmp_path / "lee.toml").write_text(text)
    (tmp_path / "third.toml").write_text(text.replace('stake = "1/2"', 'stake = "1/3"'))
    _, same, _ = run(capsys, "banque", "--shoe", NO_NATURALS, "--rules", str(tmp_path / "lee.toml"), "--format", "json")
    assert same == solved_json(NO_NATURALS, "banque_ethier_lee")
    _, third, _ = run(capsys, "banque", "--shoe", NO_NATURALS, "--rules", str(tmp_path / "third.toml"), "--format", "json")
    _, staked, _ = run(capsys, "banque", "--shoe", NO_NATURALS, "--stake", "1/3", "--format", "json")
    assert json.loads(third)["stake"]["exact"] == "1/3" and json.loads(third)["cooperative"] == json.loads(staked)["cooperative"]
    assert json.loads(third)["cooperative"]["value"] != json.loads(same)["cooperative"]["value"]


def not_banque(tmp_path: Path) -> str:
    from exact_odds.core.rules import PUNTO_BANCO, rules_toml

    (tmp_path / "punto.toml").write_text(rules_toml(PUNTO_BANCO))
    return str(tmp_path / "punto.toml")


def two_options(tmp_path: Path) -> str:
    (tmp_path / "two.toml").write_text('name = "two"\nplayer = "D D D D C C S S - -"\n')
    return str(tmp_path / "two.toml")


@pytest.mark.parametrize(("arguments", "message"), [
    (["--decks", "0"], "--decks must be at least 1, not '0'"),
    (["--decks", "9"], r"--decks: banque is solved from 1-8 decks or inf \(with replacement\), not 9"),
    (["--commission", "-5"], "--commission must be at least 0 and below 100 percent, not '-5'"),
    (["--commission", "5"], r"--commission 5%: banque is solved as the zero-sum game of the literature .* give 0 or leave it out"),
    (["--preset", "banqe"], "--preset 'banqe': no banque preset is named so; did you mean banque\\?"),
    (["--preset", "punto_banco"], "--preset 'punto_banco': no banque preset is named so; the presets: banque, banque_ethier_lee"),
    ([not_banque], r"rules file .*punto.toml: not banque rules: unknown field 'banker_sees' \(banque rules have name, naturals, player"),
    ([two_options], r"--rules 'two': banque is solved with one option total \(C\) per player, not 2"),
    (["--preset", "banque", not_banque], "give --preset or --rules, not both"),
    (["--decks", "1-8"], r"--decks 1-8: give one deck count to print a solution \(a list with --out\)"),
    (["--shoe", "K=8"], "--shoe: a banque coup needs 9 cards, the shoe has 8"),
    (["--shoe", "K=9", "--decks", "2"], "--shoe: give a deck count or a shoe, not both"),
    (["--stake", "3/2"], r"--stake must be strictly between 0 and 1 \(.*\), not 3/2"),
    (["--out", "x", "--format", "json"], "--format is for the printed solution"),
    (["--force"], r"--force is for --out"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_refusals_are_one_line(capsys, tmp_path: Path, arguments: list, message: str) -> None:
    """Every input that cannot be honoured: one line, exit 2, before any work."""
    import re

    given = []
    for argument in arguments:
        given += ["--rules", argument(tmp_path)] if callable(argument) else [argument]
    code, out, err = run(capsys, "banque", *given)
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert re.fullmatch(f"baccarat-odds: error: {message}.*\n", err), err


def test_decks_before_the_command_are_refused(capsys) -> None:
    code, _, err = run(capsys, "--decks", "8", "banque")
    assert (code, err) == (2, "baccarat-odds: error: --decks goes after `banque`, which reads its own: 1-8 or inf (a list with --out)\n")


def test_results_summary_is_rewritten_byte_for_byte() -> None:
    """results/banque/README.md is the summary of the records beside it, as the command writes it."""
    names = [f"{preset}-decks-{decks}.json" for preset in PRESETS for decks in DECKS]
    records = {name: json.loads((RESULTS / name).read_text()) for name in names}
    assert readme(records) == (RESULTS / "README.md").read_text()


def test_results_record_is_rewritten_byte_for_byte(capsys, tmp_path: Path) -> None:
    """The paper's model with replacement, written again by `banque --out`: the same bytes as
    results/banque/ holds (the other records were written by the same command: docs/banque.md)."""
    code, out, _ = run(capsys, "banque", "--out", str(tmp_path / "out"), "--preset", "banque_ethier_lee", "--decks", "inf")
    assert (code, out) == (0, f"wrote 3 files to {tmp_path / 'out'}\n")
    name = "banque_ethier_lee-decks-inf.json"
    assert (tmp_path / "out" / name).read_bytes() == (RESULTS / name).read_bytes()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["command"] == "banque" and manifest["files"][name] == json.loads((RESULTS / "manifest.json").read_text())["files"][name]


def test_out_writes_a_record_for_each_preset(capsys, tmp_path: Path) -> None:
    """--out on a shoe: each preset's record is its JSON output, the README one row each."""
    code, out, err = run(capsys, "banque", "--shoe", NO_NATURALS, "--out", str(tmp_path / "out"))
    assert (code, out) == (0, f"wrote 4 files to {tmp_path / 'out'}\n") and len(err.splitlines()) == 2
    for preset in PRESETS:
        assert (tmp_path / "out" / f"{preset}-shoe.json").read_text() == solved_json(NO_NATURALS, preset)
    assert (tmp_path / "out" / "README.md").read_text().count("shoe.json](") == 2


def test_request_is_checked_once() -> None:
    """The library's request refuses what the command refuses, naming the parameter."""
    from exact_odds.errors import InputError

    with pytest.raises(InputError, match="^decks: banque is solved from 1-8 decks or inf") as error:
        BanqueRequest(decks=True)
    assert error.value.parameter == "decks"


def test_a_failing_certificate_is_no_answer(capsys, monkeypatch, tmp_path: Path) -> None:
    """Were a certificate not to hold, the output says FAILS and the command exits 1; --out writes nothing."""
    from exact_odds.games.banque import TeamCertificate

    monkeypatch.setattr(TeamCertificate, "holds", property(lambda self: False))
    code, out, err = run(capsys, "banque", "--shoe", NO_NATURALS)
    assert code == 1 and "NOT EQUAL (FAILS)" in out
    assert err == "baccarat-odds: error: the certificate of the cooperative solution does not hold (marked FAILS above): a defect, please report it\n"
    code, out, err = run(capsys, "banque", "--shoe", NO_NATURALS, "--out", str(tmp_path / "out"))
    assert (code, out, err.splitlines()[-1]) == (1, "", "baccarat-odds: error: banque_ethier_lee-shoe.json: the certificate "
                                                        "of the cooperative solution does not hold: nothing written")
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []
