"""What to bet now, served: a session's Kelly position equals `size(...)` of the library on the shoe
left (and the closed form (b p - q) / b from the CLI's return table, for one bet); the limits hold;
a bad request is a 4xx with one line; the bankroll setting is kept in the SQLite file."""

import json
import sqlite3
from fractions import Fraction

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.core.shoe import Shoe  # noqa: E402
from exact_odds.serve.app import create_app  # noqa: E402
from exact_odds.studies.sizing import Limits, size  # noqa: E402

SEVENS = ",".join(f"{rank}={8 if rank == '7' else 4}" for rank in "A 2 3 4 5 6 7 8 9 T J Q K".split())
"""One deck with four more 7s: Dragon 7 has the player's edge (the only one of the bets below)."""
BETS = "banker,player,tie,dragon_7"
COUP = "9 5 9 2"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as test_client:
        yield test_client


def session_after_a_coup(client, shoe: str = SEVENS, bets: str = BETS) -> str:
    session = client.post("/api/v1/sessions", json={"shoe": shoe, "bets": bets, "burn": "none"}).json()["id"]
    for card in COUP.split():
        assert client.post(f"/api/v1/sessions/{session}/cards", json={"card": card}).status_code == 200
    assert client.post(f"/api/v1/sessions/{session}/coups").status_code == 200
    return session


def sized(client, session: str, body: dict) -> dict:
    response = client.post(f"/api/v1/sessions/{session}/size", json=body)
    assert response.status_code == 200, response.text
    record = response.json()
    record.pop("chosen")
    return record


def test_the_stake_is_the_librarys_and_the_closed_form(client, run):
    session = session_after_a_coup(client)
    record = sized(client, session, {"bankroll": 1000})
    shoe = Shoe.parse(SEVENS).remove(COUP)
    assert record == size(shoe, "dragon_7", 1000).to_dict()
    code, out, err = run("--format", "json", "--shoe", SEVENS, "--remove", COUP, "--bets", "dragon_7")
    assert code == 0, err
    lines = {line["net"]: Fraction(line["probability"]) for line in json.loads(out)["bets"]["dragon_7"]["returns"]}
    assert set(lines) == {"40", "-1"}
    assert Fraction(record["stakes"]["dragon_7"]["amount"]) == 1000 * (40 * lines["40"] - lines["-1"]) / 40 > 0
    stateless = client.post("/api/v1/size", json={"shoe": SEVENS, "remove": COUP, "bets": "dragon_7", "bankroll": 1000})
    code, out, err = run("size", "--format", "json", "--shoe", SEVENS, "--remove", COUP, "--bets", "dragon_7", "--bankroll", "1000")
    assert code == 0, err
    assert stateless.json() == json.loads(out) == record


def test_the_limits_hold_and_equal_the_librarys(client):
    session = session_after_a_coup(client)
    shoe = Shoe.parse(SEVENS).remove(COUP)
    record = sized(client, session, {"bankroll": 10**6, "max": "dragon_7=75", "unit": 5, "kelly": "1/2", "rebate": "1"})
    assert record == size(shoe, "dragon_7", 10**6, Limits(maximum={"dragon_7": Fraction(75)}, unit=Fraction(5)), "1/2", "1/100").to_dict()
    assert record["stakes"]["dragon_7"]["amount"] == "75"
    body = {"bankroll": 10**5, "side_needs_main": True, "min": "banker=10,player=10", "unit": 1, "total_max": 300}
    record = sized(client, session, body)  # dragon_7 beside the two best main bets
    limits = Limits({"banker": Fraction(10), "player": Fraction(10)}, {}, Fraction(300), Fraction(1), True)
    assert record == size(shoe, ["dragon_7", "banker", "player"], 10**5, limits).to_dict()
    stakes = {name: Fraction(stake["amount"]) for name, stake in record["stakes"].items()}
    assert "dragon_7" in stakes and {"banker", "player"} & set(stakes)
    assert all(amount.denominator == 1 for amount in stakes.values()) and sum(stakes.values()) <= 300
    assert all(stakes[name] >= 10 for name in ("banker", "player") if name in stakes)


def test_the_state_carries_what_to_bet_after_each_card(client):
    session = session_after_a_coup(client)
    response = client.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": "1000", "kelly": "1/2"})
    assert response.status_code == 200, response.text
    assert response.json()["sizing"]["bankroll"] == "1000"
    state = client.post(f"/api/v1/sessions/{session}/cards", json={"card": "K"}).json()
    position = state["what_to_bet"]
    assert position.pop("chosen").startswith("the session's bet with a positive expectation")
    assert position == size(Shoe.parse(SEVENS).remove(COUP + " K"), "dragon_7", 1000, kelly="1/2").to_dict()
    plain = session_after_a_coup(client, "A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=32", "banker,player,tie")
    state = client.put(f"/api/v1/sessions/{plain}/sizing", json={"bankroll": 1000}).json()
    assert (state["what_to_bet"]["bet"], state["what_to_bet"]["stakes"]) == (False, {})
    assert state["what_to_bet"]["method"].startswith("no bet")
    assert client.delete(f"/api/v1/sessions/{plain}/sizing").json()["what_to_bet"] is None


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"bankroll": 1.5}, 422, 'bankroll: Value error, must be an exact number, a JSON integer or text such as "2.5" or "1/2", not 1.5'),
    ({"bankroll": True}, 422, "bankroll: Value error, must be an exact number"),
    ({"bankroll": 0}, 422, "bankroll must be positive, not '0'"),
    ({"bankroll": "1e999999"}, 422, "bankroll must be an exact number such as 5, 2.5 or 5/2, not '1e999999'"),
    ({"bankroll": "9" * 500}, 422, "bankroll: String should have at most 200 characters"),
    ({"bankroll": 100, "kelly": "0"}, 422, "kelly must be a fraction above 0 and at most 1"),
    ({"bankroll": 100, "rebate": "100"}, 422, "rebate must be at least 0 and below 100 percent, not '100'"),
    ({"bankroll": 100, "bets": "zz"}, 422, "bets: 'zz' is not a bet of this session (banker, player, tie, dragon_7)"),
    ({"bankroll": 100, "bets": "banker,banker"}, 422, "bets names banker twice: give each bet once"),
    ({"bankroll": 100, "min": "dragon_7=9", "max": "dragon_7=5"}, 422, "the minimum for dragon_7 (9) is above its maximum (5)"),
    ({"bankroll": 100, "unit": "0"}, 422, "unit must be positive, not '0'"),
    ({"bankroll": 100, "main": "banker"}, 422, "main names the main bets for side_needs_main and side_ratio"),
    ({"bankroll": 100, "main": "banker,,", "side_ratio": 2}, 422,
     "main 'banker,,' holds an empty name (two commas together, or one at an end): give each name once, separated by commas"),
    ({"bankroll": 100, "main": "banker,Banker", "side_ratio": 2}, 422, "main names banker twice: give each bet once"),
    ({"bankroll": 100, "side_needs_main": True, "bets": "dragon_7,banker"}, 422, "a side bet only beside a main bet needs a minimum"),
    ({"bankroll": 100, "path": "/etc/passwd"}, 422, "path: Extra inputs are not permitted"),
    ({}, 422, "bankroll: Field required"),
])
def test_a_bad_sizing_is_refused_in_one_line(client, body, status, message):
    session = session_after_a_coup(client)
    for method, path in (("POST", "size"), ("PUT", "sizing")):
        response = client.request(method, f"/api/v1/sessions/{session}/{path}", json=body)
        assert response.status_code == status and list(response.json()) == ["error"], response.text
        assert response.json()["error"].startswith(message) and "\n" not in response.json()["error"]
    assert client.get(f"/api/v1/sessions/{session}").json()["sizing"] is None  # nothing refused is kept


@pytest.mark.parametrize(("limits", "message"), [
    ({"min": "banker=-5"}, "the minimum for banker must be positive, not -5"),
    ({"max": "player=-1"}, "the maximum for player must be positive, not -1"),
    ({"min": "tie=10", "max": "tie=5"}, "the minimum for tie (10) is above its maximum (5)"),
    ({"min": "-5"}, "the minimum for banker must be positive, not -5"),
    ({"max": "banker=0,dragon_7=5"}, "the maximum for banker must be positive, not 0"),
    ({"min": "dragon7=5"}, "min: 'dragon7' is not a bet of this position (banker, player, tie, dragon_7)"),
    ({"main": "bogus", "side_ratio": 2}, "main: 'bogus' is not a bet of this position (banker, player, tie, dragon_7)"),
    ({"total_max": "-1"}, "total_max must be positive, not '-1'"),
])
def test_limits_on_bets_not_sized_are_checked(client, limits, message):
    """Only dragon_7 is sized (the one bet with the player's edge): the limits on the others are checked all the same."""
    session = session_after_a_coup(client)
    assert sized(client, session, {"bankroll": 100})["bets"].keys() == {"dragon_7"}
    for method, path in (("POST", "size"), ("PUT", "sizing")):
        response = client.request(method, f"/api/v1/sessions/{session}/{path}", json={"bankroll": "100", **limits})
        assert (response.status_code, response.json()) == (422, {"error": message})
    assert client.get(f"/api/v1/sessions/{session}").json()["sizing"] is None
    response = client.post("/api/v1/size", json={"shoe": SEVENS, "remove": COUP, "bets": BETS, "bankroll": "100", **limits})
    assert (response.status_code, response.json()) == (422, {"error": message})


def test_other_refusals(client):
    assert client.post("/api/v1/sessions/nope/size", json={"bankroll": 1}).status_code == 404
    assert client.put("/api/v1/sessions/nope/sizing", json={"bankroll": 1}).status_code == 404
    assert client.delete("/api/v1/sessions/nope/sizing").status_code == 404
    response = client.post("/api/v1/size", json={"bets": "all", "bankroll": 1})
    assert (response.status_code, response.json()) == (422, {"error": "bets: a position served holds at most 4 bets, not 54"})


def test_the_bankroll_setting_is_kept_in_the_file(tmp_path):
    path = str(tmp_path / "sessions.sqlite")
    with TestClient(create_app(path)) as first:
        session = session_after_a_coup(first)
        first.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": "2500", "unit": 5})
        with sqlite3.connect(path) as plain:  # committed before the answer
            (settings,) = plain.execute("SELECT settings FROM sizing WHERE session = ?", (session,)).fetchone()
        assert json.loads(settings)["bankroll"] == "2500"
        before = first.get(f"/api/v1/sessions/{session}").json()
    with TestClient(create_app(path)) as again:
        after = again.get(f"/api/v1/sessions/{session}").json()
        assert after["sizing"] == before["sizing"] and after["what_to_bet"] == before["what_to_bet"]
        assert again.delete(f"/api/v1/sessions/{session}").status_code == 200
        with sqlite3.connect(path) as plain:
            assert plain.execute("SELECT COUNT(*) FROM sizing").fetchone() == (0,)
