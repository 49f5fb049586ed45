"""The HTTP API in-process (FastAPI's TestClient): every figure equals the CLI's JSON for the same
shoe, or brute force over every ordering of a small shoe (tests/oracles.py); every refusal is a
4xx whose JSON body carries the line the CLI prints for the same input."""

import csv
import io
import json
from fractions import Fraction

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402
from oracles import brute_force_expectations  # noqa: E402

from exact_odds.bets.bets import available_bets  # noqa: E402
from exact_odds.core.cards import parse_card  # noqa: E402
from exact_odds.core.rules import PUNTO_BANCO  # noqa: E402
from exact_odds.serve.app import MAX_BODY, create_app  # noqa: E402

EXAMPLES = ["9S 5D 9H 2C", "3H 2S 8D KC QH 6S", "4C AD KS 2H 8C", "7S 3D KH 4C"]
"""The four worked example coups of rules-sources/002: player 8 beats 7 (a natural), banker 8
beats 1 after both draw, banker 3 beats 2 standing against an 8, and a 7-7 tie."""


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as test_client:
        yield test_client


def cli_json(run, *args: str) -> dict:
    code, out, err = run("--format", "json", *args)
    assert code == 0, err
    return json.loads(out)


def cli_error(run, *args: str) -> str:
    code, out, err = run(*args)
    assert code == 2 and not out
    prefix = "baccarat-odds: error: "
    assert err.startswith(prefix) and err.count("\n") == 1
    return err[len(prefix):].strip()


def start(client, **settings) -> str:
    response = client.post("/api/v1/sessions", json=settings)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def post(client, session: str, action: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(f"/api/v1/sessions/{session}/{action}", json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def deal(client, session: str, cards: str) -> dict:
    state = {}
    for card in cards.split():
        state = post(client, session, "cards", {"card": card})
    return post(client, session, "coups")


def test_every_catalog_bet_equals_the_cli_after_each_coup(client, run):
    session = start(client, bets="all", suits=True, burn="none")
    seen: list[str] = []
    for coup in EXAMPLES:
        state = deal(client, session, coup)
        seen += coup.split()
        assert state["analysis"] == cli_json(run, "--decks", "8", "--remove", " ".join(seen), "--bets", "all")
    assert state["shoe"]["seen"] == seen and state["shoe"]["cards_left"] == 416 - 19
    assert [(coup["winner"], coup["player_total"], coup["banker_total"]) for coup in state["coups"]] == [
        ("player", 8, 7), ("banker", 1, 8), ("banker", 2, 3), ("tie", 7, 7)]
    assert state["positive"] == [name for name, bet in state["analysis"]["bets"].items() if Fraction(bet["expected_value"]) > 0]


def test_ranks_only_and_a_burn_equal_the_cli_less_the_cards_seen(client, run):
    session = start(client, bets="all", cut_card=14)
    state = post(client, session, "burns", {"card": "7"})
    assert (state["burn"]["seen"], state["burn"]["hidden"], state["shoe"]["cards_left"]) == (["7"], 7, 415)
    state = deal(client, session, "9 5 9 2")
    assert state["analysis"] == cli_json(run, "--decks", "8", "--remove", "7 9 5 9 2", "--bets", "all")
    assert state["cut_card"] == {"cards_behind": 14, "at": 402, "cards_to_cut": 402 - 12, "reached": False}
    rank_counts = {rank: 32 for rank in "A23456789TJQK"}
    for card in "7 9 5 9 2".split():
        rank_counts[card] -= 1
    assert state["shoe"]["rank_counts"] == rank_counts


def test_a_hidden_burn_changes_nothing_in_the_shoe_left(client):
    session = start(client, burn="none", cut_card=400)
    before = client.get(f"/api/v1/sessions/{session}").json()
    after = post(client, session, "burns", {"hidden": 3})
    assert after["analysis"] == before["analysis"] and after["shoe"]["rank_counts"] == before["shoe"]["rank_counts"]
    assert (after["shoe"]["hidden_burns"], after["shoe"]["cards_dealt"], after["cut_card"]["cards_to_cut"]) == (3, 3, 13)
    assert "not taken out of the shoe left" in after["shoe"]["note"]


def test_a_small_shoe_equals_brute_force(client):
    shoe = "AS=1,2H=1,5D=1,9C=2,KS=2,7H=1,3D=1"
    names = ["banker", "player", "tie", "player_pair", "dragon_7"]
    session = start(client, shoe=shoe, suits=True, burn="none", bets=",".join(names))
    state = post(client, session, "cards", {"card": "9C"})
    state = post(client, session, "cards", {"card": "KS"})
    left = {parse_card(card): count for card, count in (("AS", 1), ("2H", 1), ("5D", 1), ("9C", 1), ("KS", 1), ("7H", 1), ("3D", 1))}
    catalog = available_bets(PUNTO_BANCO)
    expected = brute_force_expectations([catalog[name] for name in names], left)
    assert {name: Fraction(bet["expected_value"]) for name, bet in state["analysis"]["bets"].items()} == expected


def test_the_analysis_and_deal_routes_equal_the_cli(client, run):
    response = client.post("/api/v1/analysis", json={"decks": 6, "remove": "5 5 K 9h", "bets": "all", "rules": "baccarat_gold"})
    assert response.status_code == 200
    assert response.json() == cli_json(run, "--decks", "6", "--remove", "5 5 K 9h", "--bets", "all", "--rules", "baccarat_gold")
    response = client.post("/api/v1/deal", json={"cards": "3H 2S 8D KC QH 6S", "stake": "200", "bets": "banker,player,tie,player_pair"})
    code, out, _ = run("deal", "3H", "2S", "8D", "KC", "QH", "6S", "--stake", "200", "--bets", "banker,player,tie,player_pair")
    assert response.status_code == 200 and code == 0 and response.json()["report"] == out


def test_the_deal_route_answers_the_coup_as_data(client):
    """3H 2S 8D KC QH 6S: player 3 8 = 1 draws Q (1), banker 2 K = 2 draws 6 (8): banker wins 8 to 1,
    worked by hand; a stake of 200 wins 190 on banker (5% commission) and loses 200 elsewhere."""
    response = client.post("/api/v1/deal", json={"cards": "3H 2S 8D KC QH 6S", "stake": "200", "bets": "banker,player,tie,player_pair"})
    data = response.json()
    assert response.status_code == 200 and data["coup"] == {
        "cards": ["3H", "2S", "8D", "KC", "QH", "6S"],
        "seats": {"player_1": "3H", "banker_1": "2S", "player_2": "8D", "banker_2": "KC", "player_3": "QH", "banker_3": "6S"},
        "player": ["3H", "8D", "QH"], "banker": ["2S", "KC", "6S"], "player_total": 1, "banker_total": 8, "complete": True, "winner": "banker"}
    assert data["steps"] and all(step in data["report"] for step in data["steps"])
    assert data["settlements"] == [
        {"bet": "banker", "stake": "200", "net": "19/20", "amount": "190", "result": "wins"},
        {"bet": "player", "stake": "200", "net": "-1", "amount": "-200", "result": "loses"},
        {"bet": "tie", "stake": "200", "net": "-1", "amount": "-200", "result": "loses"},
        {"bet": "player_pair", "stake": "200", "net": "-1", "amount": "-200", "result": "loses"}]
    midway = client.post("/api/v1/deal", json={"cards": "3H 2S 8D", "bets": "banker"}).json()
    assert (midway["coup"]["complete"], midway["coup"]["cards"], midway["settlements"]) == (False, ["3H", "2S", "8D"], None)


def test_the_tableau_refuses_a_coup_it_could_not_deal(client):
    session = start(client, burn="none")
    for card in "3H 2S 8D KC QH".split():
        post(client, session, "cards", {"card": card})
    refused = post(client, session, "coups", status=409)
    assert refused == {"error": "the cards 3H 2S 8D KC QH are not a whole coup by the tableau "
                                "(banker draws on 2 against a player third card of 0): it needs another card"}
    post(client, session, "cards", {"card": "6S"})
    refused = post(client, session, "cards", {"card": "4C"}, status=409)
    assert refused == {"error": "the coup in progress is settled after 6 cards (player 1, banker 8: banker wins): close it before the next card"}
    assert post(client, session, "coups")["coups"][0]["winner"] == "banker"
    assert post(client, session, "coups", status=409) == {"error": "no card has been dealt since the last coup: there is no coup to close"}


def test_undo_and_put_back(client, run):
    session = start(client, burn="none")
    deal(client, session, "9 5 9 2")
    state = post(client, session, "undo")
    assert state["coups"] == [] and state["coup_in_progress"]["cards"] == ["9", "5", "9", "2"]
    state = post(client, session, "undo")
    assert state["coup_in_progress"]["cards"] == ["9", "5", "9"]
    state = post(client, session, "put-back", {"card": "5"})
    assert state["coup_in_progress"]["cards"] == ["9", "9"] and state["shoe"]["seen"] == ["9", "9"]
    assert state["analysis"] == cli_json(run, "--decks", "8", "--remove", "9 9")
    assert post(client, session, "put-back", {"card": "K"}, status=409)["error"].startswith("no K has been dealt since the last coup")
    post(client, session, "undo")
    post(client, session, "undo")
    assert post(client, session, "undo", status=409) == {"error": "nothing to undo: the session's log is empty"}


def test_a_new_shoe_starts_from_the_full_shoe_and_keeps_the_coups(client):
    session = start(client, decks=1, burn="none")
    deal(client, session, "9 5 9 2")
    state = post(client, session, "shoes")
    assert (state["shoe_number"], state["shoe"]["cards_left"], state["coups"], state["coups_in_all_shoes"]) == (2, 52, [], 1)
    exported = client.get(f"/api/v1/sessions/{session}/export", params={"format": "json"}).json()
    assert [event["kind"] for event in exported["events"]] == ["card"] * 4 + ["coup", "shoe"]
    assert exported["coups"][0]["results"] == {"banker": "-1", "player": "1", "tie": "-1"}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/v1/sessions/{session}/export", params={"format": "csv"}).text)))
    assert [(row["shoe"], row["kind"], row["card"], row["winner"]) for row in rows] == [
        ("1", "card", "9", ""), ("1", "card", "5", ""), ("1", "card", "9", ""), ("1", "card", "2", ""), ("1", "coup", "", "player"), ("2", "shoe", "", "")]


def test_the_shoe_running_low_is_said_not_computed(client):
    session = start(client, shoe="A=4,K=4", burn="none")
    state = {}
    for card in "A K A".split():
        state = post(client, session, "cards", {"card": card})
    assert state["analysis"] is None
    assert state["analysis_refused"] == "custom shoe A=4,K=4 less A K A holds 5 cards; a coup needs a shoe of at least 6"
    assert post(client, session, "cards", {"card": "9"}, status=409) == {"error": "cannot remove 9: the shoe holds no more 9"}


@pytest.mark.parametrize(("body", "cli"), [
    ({"card": "zz"}, ("--remove", "zz")),
    ({"card": "1"}, ("--remove", "1")),
])
def test_a_bad_card_gets_the_cli_line(client, run, body, cli):
    session = start(client)
    assert post(client, session, "cards", body, status=422) == {"error": cli_error(run, *cli)}


@pytest.mark.parametrize(("settings", "cli"), [
    ({"bets": "nope"}, ("--bets", "nope")),
    ({"shoe": "A=x"}, ("--shoe", "A=x")),
    ({"bets": "perfect_pair", "shoe": "A=32,K=32"}, ("--bets", "perfect_pair", "--shoe", "A=32,K=32")),
])
def test_bad_settings_get_the_cli_line(client, run, settings, cli):
    response = client.post("/api/v1/sessions", json=settings)
    assert response.status_code == 422
    assert response.json() == {"error": cli_error(run, *cli)}


def test_refusals_are_json(client):
    session = start(client, suits=True)
    assert post(client, session, "cards", {"card": "9"}, status=422) == {
        "error": "this session enters cards with their suits (its bets read them): give 9 with a suit, e.g. 9S"}
    assert post(client, session, "cards", {}, status=422) == {"error": "card: Field required"}
    assert post(client, session, "cards", {"card": "9S", "more": 1}, status=422)["error"].startswith("more: ")
    assert client.get("/api/v1/sessions/nope").json() == {"error": "no session 'nope' (create one with POST /api/v1/sessions)"}
    assert client.get("/api/v1/nothing").status_code == 404 and client.get("/api/v1/nothing").json() == {"error": "Not Found"}
    response = client.post("/api/v1/sessions", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and list(response.json()) == ["error"]
    response = client.post("/api/v1/sessions", content=b" " * (MAX_BODY + 1), headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json() == {"error": f"the request body is larger than {MAX_BODY:,} bytes"}
    assert client.post("/api/v1/sessions", json={"decks": "inf"}).status_code == 422
    for settings in ({"rules": "/etc/passwd"}, {"rules": "chemin_de_fer_a"}, {"policy": "optimal", "rules": "chemin_de_fer_b2"}, {"cut_card": 416}):
        response = client.post("/api/v1/sessions", json=settings)
        assert response.status_code == 422 and list(response.json()) == ["error"], settings
    assert client.post("/api/v1/sessions", json={"rules": "/etc/passwd"}).json() == {
        "error": "rules '/etc/passwd' is not a preset (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3); "
                 "give a rules file's text as rules_toml"}


WRONG_METHODS = [("PATCH", "/api/v1/sessions/x", "DELETE, GET"), ("GET", "/api/v1/sessions/x/sizing", "DELETE, PUT"),
                 ("PUT", "/api/v1/sessions", "GET, POST"), ("GET", "/api/v1/sessions/x/cards", "POST"), ("POST", "/api/v1/health", "GET"),
                 ("GET", "/api/v1/analysis", "POST"), ("POST", "/api/v1/tables", "GET"), ("POST", "/", "GET"),
                 ("DELETE", "/openapi.json", "GET, HEAD"), ("POST", "/docs-assets/swagger-ui.css", "")]
"""A method a path does not answer, and the methods it does (those of every route of the path, in
whichever router; the documentation's assets are a mount, whose files name no method)."""


@pytest.mark.parametrize(("method", "path", "allow"), WRONG_METHODS)
def test_a_wrong_method_is_refused_with_every_method_of_the_path(client, method, path, allow):
    response = client.request(method, path)
    assert (response.status_code, response.headers["allow"], response.json()) == (405, allow, {"error": "Method Not Allowed"})


def test_bets_and_rules_given_as_text(client, run, tmp_path):
    bets = '[[bet]]\nname = "big_tie"\npays = [{ when = "winner == tie and player_total >= 7", pays = "20" }]\n'
    rules = run("rules", "--rules", "baccarat_gold", "--format", "toml")[1]
    response = client.post("/api/v1/analysis", json={"bets_toml": bets, "rules_toml": rules, "remove": "5 K", "policy": ""})
    (tmp_path / "bets.toml").write_text(bets)
    (tmp_path / "rules.toml").write_text(rules)
    expected = cli_json(run, "--bets-file", str(tmp_path / "bets.toml"), "--rules", str(tmp_path / "rules.toml"), "--remove", "5 K")
    assert response.status_code == 200 and response.json() == expected


def test_a_token_is_checked_on_every_request(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"), token="s3cret")) as guarded:
        assert guarded.get("/api/v1/health").status_code == 401
        assert guarded.get("/").status_code == 401
        assert guarded.get("/api/v1/health", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert guarded.get("/api/v1/health", headers={"Authorization": "Bearer s3cret"}).json()["status"] == "ok"
        assert guarded.get("/", params={"token": "s3cret"}).status_code == 200
        assert list(guarded.get("/api/v1/health").json()) == ["error"]


def test_the_page_and_the_schema(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "http://" not in page.text and "https://" not in page.text  # self-contained: nothing fetched from elsewhere
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/v1/analysis", "/api/v1/deal", "/api/v1/catalog", "/api/v1/rules", "/api/v1/sessions", "/api/v1/sessions/{session}/cards",
            "/api/v1/sessions/{session}/coups", "/api/v1/sessions/{session}/undo", "/api/v1/sessions/{session}/put-back",
            "/api/v1/sessions/{session}/burns", "/api/v1/sessions/{session}/shoes", "/api/v1/sessions/{session}/export"} <= set(paths)
    catalog = client.get("/api/v1/catalog").json()["bets"]
    assert [bet["name"] for bet in catalog] == list(available_bets(PUNTO_BANCO))


def test_serve_refuses_in_one_line_without_the_serve_extra(run, monkeypatch, tmp_path):
    import builtins

    real_import = builtins.__import__

    def without_serve(name, *args, **kwargs):
        if name.split(".")[0] in ("uvicorn", "fastapi"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_serve)
    assert run("serve", "--db", str(tmp_path / "s.sqlite")) == (
        2, "", "baccarat-odds: error: serve needs the serve extra: pip install '.[serve]' in the project's folder (FastAPI and uvicorn)\n")


def test_serve_on_another_address_makes_a_token_and_checks_it(run, monkeypatch, tmp_path):
    import socket

    from exact_odds.serve import processes

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = {}

    def served(listener, db, token, count):
        started.update(address=listener.getsockname()[:2], app=create_app(db, token), count=count)
        listener.close()

    monkeypatch.setattr(processes, "run", served)
    code, out, err = run("serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "s.sqlite"), "--processes", "3")
    assert (code, err) == (0, "") and started["address"] == ("0.0.0.0", port) and started["count"] == 3
    first, second = out.splitlines()
    assert first == f"baccarat-odds serve: http://0.0.0.0:{port}/ (API at http://0.0.0.0:{port}/docs; sessions in {tmp_path / 's.sqlite'}; Ctrl-C stops)"
    token = second.split()[3]
    assert second == f"token (printed once): {token}  open http://0.0.0.0:{port}/?token={token}" and len(token) >= 32
    with TestClient(started["app"]) as guarded:
        assert guarded.get("/api/v1/health").status_code == 401
        assert guarded.get("/api/v1/health", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    started.clear()
    assert run("serve", "--db", str(tmp_path / "s.sqlite"), "--port", str(port))[0] == 0
    assert 1 <= started["count"] <= 8
    with TestClient(started["app"]) as open_locally:
        assert open_locally.get("/api/v1/health").status_code == 200
    assert run("serve", "--token", " ", "--db", str(tmp_path / "s.sqlite"))[2] == "baccarat-odds: error: --token is empty: give a token, or leave it out\n"
    for count in ("0", "65", "two"):
        code, out, err = run("serve", "--processes", count, "--db", str(tmp_path / "s.sqlite"))
        assert code == 2 and out == "" and err.count("\n") == 1 and "--processes" in err


def test_a_card_put_back_may_not_leave_more_than_a_coup(client):
    session = start(client, suits=True, burn="none")
    for card in "AS AH AD AC 7S AD".split():  # player A A = 2 draws 7 (9); banker A A = 2 draws A (3)
        post(client, session, "cards", {"card": card})
    refused = post(client, session, "put-back", {"card": "AS"}, status=409)  # AH AD AC 7S: banker 8, a natural, and AD left over
    assert refused == {"error": "without AS the cards since the last coup are more than a coup: undo the cards after it instead"}
    state = post(client, session, "put-back", {"card": "AD"})  # the later AD: AS AH AD AC 7S, the banker still to draw
    assert state["coup_in_progress"]["cards"] == ["AS", "AH", "AD", "AC", "7S"] and not state["coup_in_progress"]["complete"]
