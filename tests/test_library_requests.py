"""The library's public functions build the commands' requests (issue 30): each refusal of a
request (or of its Setup) is the same sentence from the library, the command line (naming its
flags) and the server (naming its fields), and an accepted call answers what the command prints."""

import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import pytest

from exact_odds import InputError, Shoe, analyze, catalog, chemin_de_fer, size, solve_pay
from exact_odds.engine.analysis import PlainEngine

INFINITE_PAIRS = ("counting by hands or sets of cards has no meaning when cards are drawn with replacement (the infinite deck): two equal "
                  "cards are one ordered draw, two different cards two; count the draws in order")

# (the library's call, the command line's flags, the server's body or None where it has no such field,
#  the library's message and parameter, the command line's message)
ANALYZE_REFUSALS: list[tuple[Callable[[], Any], list[str], dict[str, Any] | None, str, str | None, str]] = [
    (lambda: analyze(1, "player_pair", unordered="hands", given="winner == tie"),
     ["--decks", "1", "--bets", "player_pair", "--unordered", "hands", "--given", "winner == tie"],
     {"decks": 1, "bets": "player_pair", "unordered": "hands", "given": "winner == tie"},
     "unordered counts bets on the first cards alone; with given or by every bet is counted through the coup", "unordered",
     "--unordered counts bets on the first cards alone; with --given or --by every bet is counted through the coup"),
    (lambda: analyze(1, "banker", unordered="hands"), ["--decks", "1", "--bets", "banker", "--unordered", "hands"],
     {"decks": 1, "bets": "banker", "unordered": "hands"},
     "unordered counts bets settled on the first cards alone (the pair bets), and none of these bets is", "unordered",
     "--unordered counts bets settled on the first cards alone (the pair bets), and none of these bets is"),
    (lambda: analyze("inf", "player_pair", unordered="cards"), ["--decks", "inf", "--bets", "player_pair", "--unordered", "cards"], None,
     INFINITE_PAIRS, "unordered", INFINITE_PAIRS),
    (lambda: analyze(1, "nope"), ["--decks", "1", "--bets", "nope"], {"decks": 1, "bets": "nope"},
     "unknown bet 'nope': no bet of the catalog, the main bets or the bets given is named so", None,
     "unknown bet 'nope': no bet of the catalog, the main bets or the bets given is named so"),
    (lambda: analyze(1, "banker,,"), ["--decks", "1", "--bets", "banker,,"], {"decks": 1, "bets": "banker,,"},
     "bets 'banker,,' holds an empty name (two commas together, or one at an end): give each name once, separated by commas", "bets",
     "--bets 'banker,,' holds an empty name (two commas together, or one at an end): give each name once, separated by commas"),
    (lambda: analyze(1, "banker, banker"), ["--decks", "1", "--bets", "banker, banker"], {"decks": 1, "bets": "banker, banker"},
     "bets names banker twice: give each bet once", "bets", "--bets names banker twice: give each bet once"),
    (lambda: analyze("A=24,K=24", "perfect_pair"), ["--shoe", "A=24,K=24", "--bets", "perfect_pair"], {"shoe": "A=24,K=24", "bets": "perfect_pair"},
     "bet 'perfect_pair' reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)", None,
     "bet 'perfect_pair' reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)"),
    (lambda: analyze(1, policy="bogus=draw"), ["--decks", "1", "--policy", "bogus=draw"], {"decks": 1, "policy": "bogus=draw"},
     "policy key 'bogus': expected player_on_T, player_on_A+B, banker_on_T_vs_X or banker_on_A+B_vs_X (T a total, A+B two card values, "
     "X a third card 0-9 or stood)", "policy",
     "--policy key 'bogus': expected player_on_T, player_on_A+B, banker_on_T_vs_X or banker_on_A+B_vs_X (T a total, A+B two card values, "
     "X a third card 0-9 or stood)"),
    (lambda: analyze(1, given="winner === tie"), ["--decks", "1", "--given", "winner === tie"], {"decks": 1, "given": "winner === tie"},
     "unexpected '= tie' in condition 'winner === tie'", None, "unexpected '= tie' in condition 'winner === tie'"),
    (lambda: analyze(1, rules="baccarat_gold", given="winner == tie"), ["--decks", "1", "--rules", "baccarat_gold", "--given", "winner == tie"],
     {"decks": 1, "rules": "baccarat_gold", "given": "winner == tie"},
     "Baccarat Gold leaves a choice open at player_on_5: give a policy, e.g. player_on_5=draw, =stand or =P (a probability such as 9/11)", None,
     "Baccarat Gold leaves a choice open at player_on_5: give a policy, e.g. player_on_5=draw, =stand or =P (a probability such as 9/11)"),
]


@pytest.mark.parametrize(("call", "flags", "body", "message", "parameter", "in_cli"), ANALYZE_REFUSALS,
                         ids=[f"analyze-{index}" for index in range(len(ANALYZE_REFUSALS))])
def test_the_library_the_cli_and_the_server_give_the_analyze_request_s_refusal(
        tmp_path: Path, run: Any, call: Callable[[], Any], flags: list[str], body: dict[str, Any] | None, message: str,
        parameter: str | None, in_cli: str) -> None:
    with pytest.raises(InputError) as refused:
        call()
    assert (str(refused.value), refused.value.parameter) == (message, parameter)
    assert run(*flags) == (2, "", f"baccarat-odds: error: {in_cli}\n")
    if body is not None:
        pytest.importorskip("fastapi")
        from fastapi.testclient import TestClient

        from exact_odds.serve.app import create_app

        with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
            response = client.post("/api/v1/analysis", json=body)
        assert (response.status_code, response.json()) == (422, {"error": message})


@pytest.mark.parametrize(("call", "message", "parameter"), [
    (lambda: analyze(1, "player_pair", unordered="pairs"), 'unordered must be one of hands, cards (or "" for ordered draws), not \'pairs\'', "unordered"),
    (lambda: analyze(1, "banker", engine="quick"), "engine must be fast, enumerate or an engine such as PlainEngine() (None: fast), not 'quick'", "engine"),
    (lambda: analyze(1, "banker", given=7), 'given must be a condition (its text, e.g. "winner == tie"), not 7', "given"),
    (lambda: analyze(1, "banker", policy=7), 'policy must be a Policy or its text ("player_on_5=draw"), not 7', "policy"),
    (lambda: analyze(1, rules=7), "rules are a DrawRules, a preset name (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, "
     "chemin_de_fer_b3) or a rules file's path, not 7", "rules"),
])
def test_what_only_a_program_can_give_is_refused_by_the_request_naming_it(call: Callable[[], Any], message: str, parameter: str) -> None:
    """Values the command line's choices and the server's body types cannot carry: the request names the parameter."""
    with pytest.raises(InputError) as refused:
        call()
    assert (str(refused.value), refused.value.parameter) == (message, parameter)


def test_decisions_and_a_policy_both_are_refused() -> None:
    from exact_odds.core.policy import resolve

    with pytest.raises(InputError, match=r"^give the policy either inside the decisions or as policy=, not both$") as refused:
        analyze(1, rules=resolve("baccarat_gold", "player_on_5=draw"), policy="player_on_5=stand")
    assert refused.value.parameter == "policy"


def test_the_library_answers_what_the_cli_prints(run: Any) -> None:
    """Given a condition, counted by hands, and on a composition: the library's record is the CLI's JSON."""
    for flags, made in [
        (["--decks", "2", "--bets", "banker,player_pair", "--given", "player_card1_rank == K"],
         lambda: analyze(2, "banker, player_pair", given="player_card1_rank == K")),
        (["--shoe", "A=8,5=8,9=8,K=16", "--bets", "player_pair,either_pair", "--unordered", "hands"],
         lambda: analyze({"A": 8, "5": 8, "9": 8, "K": 16}, ["player_pair", catalog()["either_pair"]], unordered="hands")),
        (["--decks", "1", "--remove", "5 5 K", "--rules", "baccarat_gold", "--policy", "player_on_5=stand", "--bets", "tie", "--engine", "enumerate"],
         lambda: analyze(Shoe.decks(1).remove("5 5 K"), "tie", rules="baccarat_gold", policy="player_on_5=stand", engine=PlainEngine())),
    ]:
        code, out, _ = run(*flags, "--format", "json")
        assert code == 0 and made().to_dict() == json.loads(out)


def test_policy_optimal_is_solved_for_the_shoe_as_the_cli_solves_it(run: Any) -> None:
    """The library refused policy optimal before it built the request; now it solves chemin de fer
    for the shoe, as `baccarat-odds --policy optimal` does: the same record."""
    code, out, _ = run("--shoe", "A=4,5=4,9=4,K=8", "--rules", "chemin_de_fer_a", "--policy", "optimal", "--bets", "player", "--format", "json")
    made = analyze("A=4,5=4,9=4,K=8", "player", rules="chemin_de_fer_a", policy="optimal")
    assert code == 0 and made.to_dict() == json.loads(out)
    assert type(made["player"].expected_value) is Fraction


# ---------------------------------------------------------------------------------------------
# size: commands/size.py's Setup and Staking, built by exact_odds.size
# ---------------------------------------------------------------------------------------------


def test_size_stakes_the_kelly_fraction_of_one_bet_counted_by_brute_force() -> None:
    """One bet that pays b to 1 with probability p, and loses a (a unit, less a rebate r) otherwise:
    the growth p ln(1 + b f) + q ln(1 - a f) is highest at f = p / a - q / b. P(tie) on A=2,K=5
    counted over every ordering of its seven cards."""
    from exact_odds.core.cards import Card
    from oracles import brute_force_outcomes

    outcomes = brute_force_outcomes({Card("A", "S"): 2, Card("K", "S"): 5})  # each copy a distinct card; suits play no part
    p = Fraction(outcomes["tie"], sum(outcomes.values()))
    for rebate, loss in ((None, Fraction(1)), ("1", Fraction(99, 100)), (Fraction(5, 2), Fraction(39, 40))):
        sizing = size(bankroll=1000, shoe="A=2,K=5", bets="tie", rebate=rebate)
        assert [(stake.bet, stake.amount) for stake in sizing.stakes] == [("tie", 1000 * (p / loss - (1 - p) / 8))]


def test_size_is_the_size_command_s_record(run: Any) -> None:
    flags = ["--shoe", "A=4,K=24", "--bets", "banker,tie", "--bankroll", "500", "--kelly", "1/2", "--max", "tie=100", "--unit", "5"]
    code, out, _ = run("size", *flags, "--format", "json")
    made = size(bankroll=500, shoe="A=4,K=24", bets="banker, tie", kelly=Fraction(1, 2), max="tie=100", unit=5)
    assert code == 0 and made.to_dict() == json.loads(out) and made.stakes


SIZE_REFUSALS: list[tuple[dict[str, Any], list[str], str, str, str]] = [
    ({"rebate": "100"}, ["--rebate", "100"], "rebate must be at least 0 and below 100 percent, not '100'", "rebate",
     "--rebate must be at least 0 and below 100 percent, not '100'"),
    ({"main": "banker"}, ["--main", "banker"], "main names the main bets for side_needs_main and side_ratio: give one of them, or leave it out",
     "main", "--main names the main bets for --side-needs-main and --side-ratio: give one of them, or leave it out"),
    ({"commission": "120"}, ["--commission", "120"], "commission must be at least 0 and below 100 percent, not '120'", "commission",
     "--commission must be at least 0 and below 100 percent, not '120'"),
    ({"bets": "banker", "tie_pays": "9"}, ["--bets", "banker", "--tie-pays", "9"],
     "tie_pays sets the tie bet's pay, and the tie bet is not among the bets chosen", "tie_pays",
     "--tie-pays sets the tie bet's pay, and the tie bet is not among the bets chosen"),
    ({"kelly": "2"}, ["--kelly", "2"], "kelly must be a fraction above 0 and at most 1 (1: full Kelly, 1/2: half Kelly), not 2", "kelly",
     "--kelly must be a fraction above 0 and at most 1 (1: full Kelly, 1/2: half Kelly), not 2"),
]


@pytest.mark.parametrize(("fields", "flags", "message", "parameter", "in_cli"), SIZE_REFUSALS, ids=[case[3] for case in SIZE_REFUSALS])
def test_the_library_the_cli_and_the_server_give_the_size_request_s_refusal(
        tmp_path: Path, run: Any, fields: dict[str, Any], flags: list[str], message: str, parameter: str, in_cli: str) -> None:
    with pytest.raises(InputError) as refused:
        size(bankroll="100", shoe=1, **fields)
    assert (str(refused.value), refused.value.parameter) == (message, parameter)
    assert run("size", "--decks", "1", "--bankroll", "100", *flags) == (2, "", f"baccarat-odds: error: {in_cli}\n")
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from exact_odds.serve.app import create_app

    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/size", json={"decks": 1, "bankroll": "100", **fields})
    assert (response.status_code, response.json()) == (422, {"error": message})


@pytest.mark.parametrize(("fields", "message", "parameter"), [
    ({"bankroll": 100.5}, "bankroll must be an exact number (an int or a Fraction), not 100.5", "bankroll"),
    ({"bankroll": 100, "unit": True}, "unit must be an exact number (an int or a Fraction), not True", "unit"),
    ({"bankroll": 100, "commission": 2.5}, "commission must be an exact number (an int or a Fraction), not 2.5", "commission"),
    ({"bankroll": 100, "max": 0.5}, "max must be an exact number (an int or a Fraction), not 0.5", "max"),
])
def test_size_takes_no_float_for_an_amount(fields: dict[str, Any], message: str, parameter: str) -> None:
    """Never a Fraction from a float: a program's amounts are ints, Fractions or their text."""
    with pytest.raises(InputError) as refused:
        size(**fields)
    assert (str(refused.value), refused.value.parameter) == (message, parameter)


# ---------------------------------------------------------------------------------------------
# solve_pay and chemin_de_fer: their commands' requests, built by the library
# ---------------------------------------------------------------------------------------------


def test_solve_pay_prices_the_tie_against_brute_force() -> None:
    """The tie bet wins ``pay`` with probability p and loses 1 otherwise: a house edge e needs
    p pay - (1 - p) = -e, pay = (1 - p - e) / p; p counted over every ordering of A=2,K=5."""
    from exact_odds.core.cards import Card
    from oracles import brute_force_outcomes

    outcomes = brute_force_outcomes({Card("A", "S"): 2, Card("K", "S"): 5})
    p = Fraction(outcomes["tie"], sum(outcomes.values()))
    assert solve_pay(bet="tie", edge=Fraction(5), shoe="A=2,K=5").pay == (1 - p - Fraction(1, 20)) / p
    assert solve_pay(bet=catalog()["tie"], edge="5%", shoe={"A": 2, "K": 5}).pay == (1 - p - Fraction(1, 20)) / p


def test_solve_pay_and_chemin_de_fer_answer_what_their_commands_print(run: Any) -> None:
    code, out, _ = run("solve-pay", "--bet", "dragon_7", "--decks", "6", "--max-edge", "8", "--format", "json")
    record = json.loads(out)
    made = solve_pay(bet="dragon_7", shoe=6, max_edge=8)
    assert code == 0 and (str(made.smallest_whole_pay), str(made.analysis.house_edge)) == (record["smallest_whole_pay"]["pay"], record["house_edge_now"])
    code, out, _ = run("chemin-de-fer", "--model", "B2", "--decks", "1", "--commission", "5", "--format", "json")
    record = json.loads(out)
    solution = chemin_de_fer(model="B2", shoe=1, commission=5)
    assert code == 0 and (str(solution.value), solution.decks, str(solution.commission)) == (record["value"], record["decks"], record["commission"])
    assert {key: str(value) for key, value in solution.player.items()} == {int(key): value for key, value in record["player"].items()}


@pytest.mark.parametrize(("call", "flags", "message", "parameter", "in_cli"), [
    (lambda: solve_pay(bet="dragon_7"), ["solve-pay", "--bet", "dragon_7"],
     "give edge PCT (the pay for that house edge) or max_edge PCT (the smallest whole pay at or below it)", None,
     "give --edge PCT (the pay for that house edge) or --max-edge PCT (the smallest whole pay at or below it)"),
    (lambda: solve_pay(bet="dragon_7,tie", edge=5), ["solve-pay", "--bet", "dragon_7,tie", "--edge", "5"],
     "bet takes one bet, not 'dragon_7,tie': solve-pay prices one bet (see `baccarat-odds bets` for the names)", "bet",
     "--bet takes one bet, not 'dragon_7,tie': solve-pay prices one bet (see `baccarat-odds bets` for the names)"),
    (lambda: solve_pay(bet="dragon_7", max_edge="x"), ["solve-pay", "--bet", "dragon_7", "--max-edge", "x"],
     "max_edge must be an exact number such as 5, 2.5 or 2.5%, not 'x'", "max_edge", "--max-edge must be an exact number such as 5, 2.5 or 2.5%, not 'x'"),
    (lambda: chemin_de_fer(), ["chemin-de-fer"], "give model A|B2|B3 or rules NAME|FILE (a chemin de fer rule set)", None,
     "give --model A|B2|B3 or --rules NAME|FILE (a chemin de fer rule set)"),
    (lambda: chemin_de_fer(model="A", rules="chemin_de_fer_a"), ["chemin-de-fer", "--model", "A", "--rules", "chemin_de_fer_a"],
     "give model or rules, not both: a model is a rule set (--model A is --rules chemin_de_fer_a)", None,
     "give --model or --rules, not both: a model is a rule set (--model A is --rules chemin_de_fer_a)"),
])
def test_the_library_and_the_cli_give_the_solve_pay_and_chemin_requests_refusals(
        run: Any, call: Callable[[], Any], flags: list[str], message: str, parameter: str | None, in_cli: str) -> None:
    with pytest.raises(InputError) as refused:
        call()
    assert (str(refused.value), refused.value.parameter) == (message, parameter)
    assert run(*flags) == (2, "", f"baccarat-odds: error: {in_cli}\n")


def test_the_library_s_public_names_are_its_commands_functions() -> None:
    """Each public function of a command is its command module's own (lazy: imported on first use)."""
    import exact_odds
    from exact_odds.commands import analyze as analyze_module, chemin, size, solve_pay

    assert (exact_odds.analyze, exact_odds.size, exact_odds.solve_pay, exact_odds.chemin_de_fer) == (
        analyze_module.analyze, size.size, solve_pay.solve_pay, chemin.chemin_de_fer)


def test_depth_is_the_depth_command_s_record(run: Any) -> None:
    """The library's study and the command's JSON, on a shoe small enough to count at once; and the
    request's refusal of the cards left in both."""
    from exact_odds import depth

    code, out, _ = run("depth", "--shoe", "A=2,5=2,9=2,K=6", "--cards-left", "6-8", "--bets", "banker,tie", "--workers", "1", "--format", "json")
    study = depth(shoe="A=2,5=2,9=2,K=6", cards_left=range(6, 9), bets="banker, tie", workers=1)
    assert code == 0 and study.to_dict() == json.loads(out)
    message = "cards_left 13 is past the shoe: custom shoe A=2,5=2,9=2,K=6 holds 12 cards"
    with pytest.raises(InputError) as refused:
        depth(shoe="A=2,5=2,9=2,K=6", cards_left=13, workers=1)
    assert (str(refused.value), refused.value.parameter) == (message, "cards_left")
    assert run("depth", "--shoe", "A=2,5=2,9=2,K=6", "--cards-left", "13") == (2, "", f"baccarat-odds: error: --cards-left{message[10:]}\n")


def test_protect_is_the_protect_command_s_record(run: Any) -> None:
    """A known card on a small shoe: the library's record is the command's JSON; and the request's
    refusal the same in both doors."""
    from exact_odds import protect

    code, out, _ = run("protect", "--shoe", "A=2,5=2,9=2,K=6", "--known", "2", "--bets", "banker,player,tie", "--format", "json")
    made = protect(shoe="A=2,5=2,9=2,K=6", known=2, bets="banker, player, tie")
    assert code == 0 and {**made.to_dict(), "notes": []} == json.loads(out)  # the command adds its notes (none here)
    message = "known must be a shoe position from 1 to 6 (of the coup's six-card sequence), not 7"
    with pytest.raises(InputError) as refused:
        protect(shoe="A=2,5=2,9=2,K=6", known=7)
    assert (str(refused.value), refused.value.parameter) == (message, "known")
    assert run("protect", "--shoe", "A=2,5=2,9=2,K=6", "--known", "7") == (2, "", f"baccarat-odds: error: --{message}\n")
