"""Hostile requests to a live session (issue 29): wrong JSON types, cards and burns the shoe cannot
hold, corrections, stale writes and repeated entries. Every case checks its exact answer: the
error line, and the state after it against the library or against counting by hand."""

import json
from fractions import Fraction

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.serve.app import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as test_client:
        yield test_client


def start(client, **settings) -> str:
    response = client.post("/api/v1/sessions", json=settings)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def post(client, session: str, action: str, body: dict | None = None, status: int = 200, **headers: str) -> dict:
    response = client.post(f"/api/v1/sessions/{session}/{action}", json=body, headers=headers)
    assert response.status_code == status, response.text
    return dict(response.json())


# --- 3. strict request models: a boolean is never a number, a number never text ---------------------------------------

@pytest.mark.parametrize(("body", "error"), [
    ({"decks": True}, "decks: Input should be a valid integer"),
    ({"decks": "8"}, "decks: Input should be a valid integer"),
    ({"decks": 8.0}, "decks: Input should be a valid integer"),
    ({"cut_card": True}, "cut_card: Input should be a valid integer"),
    ({"cut_card": "14"}, "cut_card: Input should be a valid integer"),
    ({"suits": 1}, "suits: Input should be a valid boolean"),
    ({"suits": "true"}, "suits: Input should be a valid boolean"),
    ({"burn": True}, "burn: Input should be 'punto_banco' or 'none'"),
    ({"bets": 7}, "bets: Input should be a valid string"),
    ({"policy": False}, "policy: Input should be a valid string"),
    ({"commission": True}, 'commission: Value error, must be an exact number, a JSON integer or text such as "2.5" or "1/2", not true'),
    ({"tie_pays": 8.5}, 'tie_pays: Value error, must be an exact number, a JSON integer or text such as "2.5" or "1/2", not 8.5'),
])
def test_a_session_is_not_made_of_wrong_types(client, body, error):
    response = client.post("/api/v1/sessions", json=body)
    assert (response.status_code, response.json()) == (422, {"error": error})


@pytest.mark.parametrize(("action", "body", "error"), [
    ("burns", {"hidden": True}, "hidden: Input should be a valid integer"),
    ("burns", {"hidden": "2"}, "hidden: Input should be a valid integer"),
    ("burns", {"hidden": 1.0}, "hidden: Input should be a valid integer"),
    ("burns", {"card": 7}, "card: Input should be a valid string"),
    ("cards", {"card": 9}, "card: Input should be a valid string"),
    ("cards", {"card": True}, "card: Input should be a valid string"),
    ("size", {"bankroll": 100, "side_needs_main": 1}, "side_needs_main: Input should be a valid boolean"),
    ("size", {"bankroll": True}, 'bankroll: Value error, must be an exact number, a JSON integer or text such as "2.5" or "1/2", not true'),
    ("size", {"bankroll": 100, "bets": ["banker"]}, "bets: Input should be a valid string"),
])
def test_a_change_of_the_wrong_type_changes_nothing(client, action, body, error):
    session = start(client, decks=1, burn="none")
    before = client.get(f"/api/v1/sessions/{session}").json()
    assert post(client, session, action, body, status=422) == {"error": error}
    assert client.get(f"/api/v1/sessions/{session}").json() == before


def test_the_stateless_routes_are_strict_too(client, run):
    response = client.post("/api/v1/analysis", json={"decks": True})
    assert (response.status_code, response.json()) == (422, {"error": "decks: Input should be a valid integer"})
    response = client.post("/api/v1/size", json={"bankroll": 100, "decks": 1, "unit": False})
    assert (response.status_code, response.json()) == (
        422, {"error": 'unit: Value error, must be an exact number, a JSON integer or text such as "2.5" or "1/2", not false'})
    response = client.post("/api/v1/deal", json={"cards": "9S 5D 9H 2C", "stake": 200, "bets": "banker,player"})  # an exact integer stake
    code, out, err = run("deal", "9S", "5D", "9H", "2C", "--stake", "200", "--bets", "banker,player")
    assert (response.status_code, response.json(), code) == (200, {"report": out}, 0)


# --- 2. one account of the physical cards: dealt and burned, seen or face down ----------------------------------------

EIGHT = "A=2,5=2,9=1,K=3"
"""Eight cards."""


def test_a_hidden_burn_takes_no_more_cards_than_the_shoe_holds(client):
    session = start(client, shoe=EIGHT, burn="none")
    before = client.get(f"/api/v1/sessions/{session}").json()
    assert post(client, session, "burns", {"hidden": 9}, status=409) == {
        "error": "burning 9 face down would take 9 cards, and the shoe has 8 left (8 less 0 dealt or burned)"}
    assert client.get(f"/api/v1/sessions/{session}").json() == before
    state = post(client, session, "burns", {"hidden": 3})
    assert (state["shoe"]["cards_dealt"], state["shoe"]["cards_in_shoe"], state["shoe"]["cards_left"]) == (3, 5, 8)
    assert (state["analysis"], state["analysis_refused"]) == (
        None, "the shoe has 5 cards left (8 less 3 dealt or burned, 3 of them face down); a coup needs a shoe of at least 6")
    assert state["what_to_bet"] is None
    size = client.post(f"/api/v1/sessions/{session}/size", json={"bankroll": 100})
    assert (size.status_code, size.json()) == (422, {"error": state["analysis_refused"]})
    for card in "A 5 A 5 9".split():  # player A A 9, banker 5 5: the fifth and last card the shoe physically holds
        state = post(client, session, "cards", {"card": card})
    assert (state["shoe"]["cards_dealt"], state["shoe"]["cards_in_shoe"], state["shoe"]["rank_counts"]["K"]) == (8, 0, 3)
    assert post(client, session, "cards", {"card": "K"}, status=409) == {
        "error": "the card K would take 1 card, and the shoe has 0 left (8 less 8 dealt or burned, 3 of them face down)"}


def test_the_punto_banco_burn_counts_its_face_down_cards(client):
    session = start(client, shoe="A=2,5=2,9=1,K=5")  # ten cards
    assert post(client, session, "burns", {"card": "K"}, status=409) == {
        "error": "the burn card K and 10 face down would take 11 cards, and the shoe has 10 left (10 less 0 dealt or burned)"}
    state = post(client, session, "burns", {"card": "9"})  # 9 and the 9 it burns: every card of the shoe
    assert (state["burn"], state["shoe"]["cards_dealt"], state["shoe"]["cards_in_shoe"]) == (
        {"procedure": "punto_banco", "pending": False, "seen": ["9"], "hidden": 9}, 10, 0)
    assert state["analysis_refused"] == "the shoe has 0 cards left (10 less 10 dealt or burned, 9 of them face down); a coup needs a shoe of at least 6"
    assert post(client, session, "burns", {"hidden": 1}, status=409) == {
        "error": "burning 1 face down would take 1 card, and the shoe has 0 left (10 less 10 dealt or burned, 9 of them face down)"}
    assert post(client, session, "burns", {"card": "A", "hidden": 0}, status=409)["error"].startswith("the burn card A would take 1 card")


def test_six_cards_physically_left_are_analysed_over_the_cards_seen(client, run):
    session = start(client, shoe=EIGHT, burn="none")
    state = post(client, session, "burns", {"card": "K", "hidden": 1})  # K seen, one card unknown: 6 left
    code, out, err = run("--format", "json", "--shoe", EIGHT, "--remove", "K")
    assert (code, err) == (0, "")
    assert state["analysis"] == json.loads(out) and state["shoe"]["cards_in_shoe"] == 6
    state = post(client, session, "burns", {"hidden": 1})
    assert state["analysis"] is None and state["analysis_refused"].startswith("the shoe has 5 cards left (8 less 3 dealt or burned, 2 of them")
    assert post(client, session, "undo")["analysis"] == json.loads(out)
