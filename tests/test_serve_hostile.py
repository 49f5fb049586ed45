"""Hostile requests to a live session (issue 29): wrong JSON types, cards and burns the shoe cannot
hold, corrections, stale writes and repeated entries. Every case checks its exact answer: the
error line, and the state after it against the library or against counting by hand."""

import json
import re
from fractions import Fraction

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.commands.session import Settings, table_of  # noqa: E402
from exact_odds.errors import InputError  # noqa: E402
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
    answer = response.json()
    assert (response.status_code, answer["report"], code) == (200, out, 0)
    assert [(line["bet"], line["stake"], line["amount"]) for line in answer["settlements"]] == [("banker", "200", "-200"), ("player", "200", "200")]


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


# --- 9. a correction replaces a card in place: every other card keeps its seat ----------------------------------------

def cards(client, session: str, text: str) -> dict:
    state: dict = {}
    for card in text.split():
        state = post(client, session, "cards", {"card": card})
    return state


def test_a_middle_card_corrected_keeps_every_other_card_in_its_seat(client, run):
    session = start(client, burn="none")
    cards(client, session, "2 3 K 5")
    state = post(client, session, "corrections", {"seat": "player_2", "card": "4"})
    progress = state["coup_in_progress"]
    assert progress["seats"] == {"player_1": "2", "banker_1": "3", "player_2": "4", "banker_2": "5"}
    assert (progress["player"], progress["banker"], progress["complete"], progress["winner"]) == (["2", "4"], ["3", "5"], True, "banker")
    assert state["shoe"]["seen"] == ["2", "3", "4", "5"] and state["shoe"]["rank_counts"]["K"] == 32 and state["shoe"]["rank_counts"]["4"] == 31
    code, out, err = run("--format", "json", "--decks", "8", "--remove", "2 3 4 5")
    assert (code, err) == (0, "") and state["analysis"] == json.loads(out)
    coup = post(client, session, "coups")["coups"][0]
    assert (coup["player"], coup["banker"], coup["player_total"], coup["banker_total"], coup["winner"], coup["natural"]) == (
        ["2", "4"], ["3", "5"], 6, 8, "banker", True)  # by hand: 2 + 4 = 6, 3 + 5 = 8, a natural
    events = client.get(f"/api/v1/sessions/{session}/export").json()["events"]
    assert [(event["seq"], event["kind"], event["card"]) for event in events] == [
        (1, "card", "2"), (2, "card", "3"), (3, "card", "4"), (4, "card", "5"), (5, "coup", None)]


def test_a_correction_of_a_six_card_coup(client):
    session = start(client, suits=True, burn="none")
    cards(client, session, "3H 2S 8D KC QH 6S")  # player 3 8 Q = 1, banker 2 K 6 = 8
    state = post(client, session, "corrections", {"seat": "banker_1", "card": "KD"})  # banker K K = 0 still draws against a 0: K K 6 = 6
    progress = state["coup_in_progress"]
    assert (progress["player"], progress["banker"], progress["player_total"], progress["banker_total"], progress["winner"]) == (
        ["3H", "8D", "QH"], ["KD", "KC", "6S"], 1, 6, "banker")
    assert state["shoe"]["card_counts"]["2S"] == 8 and state["shoe"]["card_counts"]["KD"] == 7
    assert post(client, session, "undo")["coup_in_progress"]["cards"] == ["3H", "KD", "8D", "KC", "QH"]  # undo: the last entry, 6S


@pytest.mark.parametrize(("dealt", "correction", "error"), [
    # player A K = 1 draws 7 (player_3); banker 3 2 = 5 draws against a 7. With 5 at player_2 the player stands on 6: 7 would be the banker's
    ("A 3 K 2 7", {"seat": "player_2", "card": "5"},
     "with 5 at player_2 the card 7 would move from player_3 to banker_3: a correction keeps every other card in its seat "
     "(undo the cards after it, and enter them again)"),
    ("A 3 K 2 7", {"seat": "player_2", "card": "8"},  # player 9: a natural, and the 7 left over
     "with 8 at player_2 the coup is settled after 4 cards (player 9, banker 5: player wins), and 1 more was entered: undo it first"),
    ("2 3 K 5", {"seat": "player_3", "card": "4"},
     "the coup in progress has no card at player_3 (its cards: player_1 2, banker_1 3, player_2 K, banker_2 5): only those can be corrected "
     "(to correct a coup closed, undo its close first)"),
    ("", {"seat": "player_1", "card": "4"},
     "the coup in progress has no card at player_1 (its cards: none): only those can be corrected (to correct a coup closed, undo its close first)"),
])
def test_a_correction_that_would_reseat_a_card_is_refused(client, dealt, correction, error):
    session = start(client, burn="none")
    before = cards(client, session, dealt) if dealt else client.get(f"/api/v1/sessions/{session}").json()
    assert post(client, session, "corrections", correction, status=409) == {"error": error}
    assert client.get(f"/api/v1/sessions/{session}").json() == before


def test_a_correction_takes_only_a_card_the_shoe_holds(client):
    session = start(client, shoe="AS=1,2H=1,5D=1,9C=2,KS=2,7H=1,3D=1", suits=True, burn="none")
    cards(client, session, "9C KS 9C")
    assert post(client, session, "corrections", {"seat": "banker_1", "card": "9C"}, status=409) == {
        "error": "9C at banker_1 in place of KS: cannot remove 9C: the shoe holds no more 9"}
    assert post(client, session, "corrections", {"seat": "player_1", "card": "9"}, status=422) == {
        "error": "this session enters cards with their suits (its bets read them): give 9 with a suit, e.g. 9S"}
    assert post(client, session, "corrections", {"seat": "dealer", "card": "9C"}, status=422) == {
        "error": "seat: Input should be 'player_1', 'banker_1', 'player_2', 'banker_2', 'player_3' or 'banker_3'"}
    state = post(client, session, "corrections", {"seat": "player_1", "card": "9C"})  # the same card again: nothing moves
    assert state["coup_in_progress"]["seats"] == {"player_1": "9C", "banker_1": "KS", "player_2": "9C"}
    state = post(client, session, "corrections", {"seat": "banker_1", "card": "KS"})
    assert state["shoe"]["card_counts"] == {**{name: 0 for name in state["shoe"]["card_counts"]},
                                            "AS": 1, "2H": 1, "5D": 1, "KS": 1, "7H": 1, "3D": 1}


def test_a_card_with_a_suit_is_held_once_in_a_session_without_suits(tmp_path):
    """A session without suits takes cards with or without one; the shoe left forgets the suit split
    once a card without one is seen, but one deck holds one QH all the same (the log, replayed by a
    server started again, counts it: a second QH accepted made the session unreadable)."""
    db = str(tmp_path / "sessions.sqlite")
    with TestClient(create_app(db)) as client:
        session = start(client, decks=1, burn="none")
        state = cards(client, session, "QH 2 3 4")  # player QH 3 = 3, banker 2 4 = 6: the player draws
        assert post(client, session, "cards", {"card": "QH"}, status=409) == {"error": "cannot remove QH: the shoe holds no more QH"}
        assert post(client, session, "burns", {"card": "QH"}, status=409) == {
            "error": "a burn comes between coups: close the coup in progress (or undo its cards) first"}
        state = post(client, session, "cards", {"card": "QS"})
        assert state["shoe"]["seen"] == ["QH", "2", "3", "4", "QS"]
        assert state["shoe"]["rank_counts"] == {**dict.fromkeys(state["shoe"]["rank_counts"], 4), "Q": 2, "2": 3, "3": 3, "4": 3}
        post(client, session, "coups")
        assert post(client, session, "burns", {"card": "QH"}, status=409) == {"error": "cannot remove QH: the shoe holds no more QH"}
        kept = client.get(f"/api/v1/sessions/{session}").json()
    with TestClient(create_app(db)) as again:
        assert again.get(f"/api/v1/sessions/{session}").json() == kept


NESTED = "a = " + "[" * 5000 + "]" * 5000
"""A TOML array nested past what tomllib can recurse (a RecursionError inside it: a 500 before)."""


@pytest.mark.parametrize(("route", "body", "error"), [
    ("analysis", {"bets_toml": NESTED}, "bets_toml: not valid TOML: arrays or inline tables nested too deeply"),
    ("analysis", {"rules_toml": NESTED}, "rules file rules_toml: not valid TOML: arrays or inline tables nested too deeply"),
    ("sessions", {"table_toml": NESTED}, "table file table_toml: not valid TOML: arrays or inline tables nested too deeply"),
    ("deal", {"cards": "9 5 9 2", "rules_toml": "a = " + "{b = " * 2000 + "1" + "}" * 2000},
     "rules file rules_toml: not valid TOML: arrays or inline tables nested too deeply"),
])
def test_toml_nested_too_deeply_is_refused_in_one_line(client, route, body, error):
    response = client.post(f"/api/v1/{route}", json=body)
    assert (response.status_code, response.json()) == (422, {"error": error})


@pytest.mark.parametrize(("settings", "error"), [
    ({"decks": 1, "bets": "banker,perfect_pair"}, "bet 'perfect_pair' reads suits: give suits true, and enter each card with its suit"),
    ({"shoe": "AS=4,KH=4,9D=4", "bets": "perfect_pair"}, "bet 'perfect_pair' reads suits: give suits true, and enter each card with its suit"),
    ({"shoe": "A=24,K=24", "bets": "perfect_pair"}, "bet 'perfect_pair' reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)"),
])
def test_a_bet_on_suits_in_a_session_without_suits_says_what_is_missing(client, settings, error):
    """The shoe of decks has its suits: what a bet on suits lacks there is the cards entered with theirs (the line said to give
    per-card counts, which the shoe has); a shoe by rank lacks the counts."""
    response = client.post("/api/v1/sessions", json=settings)
    assert (response.status_code, response.json()) == (422, {"error": error})
    with pytest.raises(InputError, match=f"^{re.escape(error)}$"):
        table_of(Settings(**settings))


def test_a_bet_on_suits_is_tracked_with_suits_true_and_left_out_of_all_without():
    assert [bet.name for bet in table_of(Settings(decks=1, bets="banker,perfect_pair", suits=True)).bets] == ["banker", "perfect_pair"]
    assert "perfect_pair" not in [bet.name for bet in table_of(Settings(decks=1, bets="all")).bets]


@pytest.mark.parametrize(("body", "error"), [
    ({"bankroll": 10**40}, "bankroll is too long: '10000000000000000000000000000000000...' (an exact number of at most 40 characters)"),
    ({"bankroll": "1/" + "7" * 40}, "bankroll is too long: '1/777777777777777777777777777777777...' (an exact number of at most 40 characters)"),
    ({"bankroll": "x" * 41}, "bankroll must be an exact number such as 5, 2.5 or 5/2, not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
])
def test_an_exact_number_too_long_is_refused_as_too_long(client, body, error):
    """A JSON integer is an exact amount: one of 41 digits was refused as not an exact number."""
    response = client.post("/api/v1/size", json={"decks": 1, **body})
    assert (response.status_code, response.json()) == (422, {"error": error})


# --- 10. every write carries the version it was made on ---------------------------------------------------------------

def test_a_stale_tab_is_refused_with_the_current_state(client):
    session = start(client, burn="none")
    first = client.get(f"/api/v1/sessions/{session}")
    second = client.get(f"/api/v1/sessions/{session}")  # another tab, on the same state
    assert first.headers["etag"] == second.headers["etag"] == '"0"' and first.json()["version"] == 0
    for card in "9 5 9 2".split():
        first = client.post(f"/api/v1/sessions/{session}/cards", json={"card": card}, headers={"If-Match": first.headers["etag"]})
        assert first.status_code == 200
    first = client.post(f"/api/v1/sessions/{session}/coups", headers={"If-Match": first.headers["etag"]})
    assert (first.headers["etag"], first.json()["version"], len(first.json()["coups"])) == ('"5"', 5, 1)
    stale = client.post(f"/api/v1/sessions/{session}/cards", json={"card": "4"}, headers={"If-Match": second.headers["etag"]})
    assert (stale.status_code, stale.headers["etag"]) == (409, '"5"')
    assert stale.json() == {
        "error": 'this session has changed since the state this change was made on (If-Match "0"; the session\'s ETag is now "5"): '
                 "another tab or program changed it. Nothing was changed; the current state is in this answer",
        "state": client.get(f"/api/v1/sessions/{session}").json()}
    assert stale.json()["state"] == first.json() and stale.json()["state"]["coup_in_progress"] is None  # no new coup started
    for if_match in ('*', '"1", "6"'):
        state = client.post(f"/api/v1/sessions/{session}/burns", json={"hidden": 1}, headers={"If-Match": if_match})
        assert state.status_code == 200
    assert state.json()["version"] == 7 and state.json()["shoe"]["hidden_burns"] == 2
    assert client.post(f"/api/v1/sessions/{session}/undo", headers={"If-Match": 'W/"7"'}).status_code == 409  # weak tags never match
    assert post(client, session, "undo")["version"] == 8  # without If-Match: made on the state as it is
    refused = client.delete(f"/api/v1/sessions/{session}", headers={"If-Match": '"7"'})
    assert (refused.status_code, refused.json()["state"]["version"]) == (409, 8)
    assert client.delete(f"/api/v1/sessions/{session}", headers={"If-Match": '"8"'}).json() == {"deleted": session}


def test_every_change_counts_one_version_and_a_refusal_none(client):
    session = start(client, burn="none", bets="banker,player,tie")
    steps = [("POST", "cards", {"card": "2"}), ("POST", "cards", {"card": "3"}), ("POST", "cards", {"card": "K"}), ("POST", "cards", {"card": "5"}),
             ("POST", "corrections", {"seat": "player_2", "card": "4"}), ("POST", "put-back", {"card": "5"}), ("POST", "cards", {"card": "5"}),
             ("POST", "coups", None), ("POST", "burns", {"hidden": 1}), ("PUT", "sizing", {"bankroll": 100}), ("DELETE", "sizing", None),
             ("POST", "undo", None), ("POST", "shoes", None)]
    for version, (method, action, body) in enumerate(steps, 1):
        response = client.request(method, f"/api/v1/sessions/{session}/{action}", json=body, headers={"If-Match": f'"{version - 1}"'})
        assert (response.status_code, response.headers["etag"], response.json()["version"]) == (200, f'"{version}"', version), action
        refused = client.post(f"/api/v1/sessions/{session}/cards", json={"card": "zz"}, headers={"If-Match": f'"{version}"'})
        assert refused.status_code == 422 and list(refused.json()) == ["error"], action
    state = client.get(f"/api/v1/sessions/{session}").json()
    assert (state["version"], state["shoe_number"], state["coups_in_all_shoes"], state["sizing"]) == (len(steps), 2, 1, None)


# --- 11. a change sent again with its key is never made twice ---------------------------------------------------------

def keyed(client, session: str, action: str, key: str, body: dict | None = None, **headers: str):
    return client.post(f"/api/v1/sessions/{session}/{action}", json=body, headers={"Idempotency-Key": key, **headers})


def test_a_card_sent_twice_with_its_key_is_entered_once(client):
    session = start(client, burn="none")
    first = keyed(client, session, "cards", "card-1", {"card": "9"}, **{"If-Match": '"0"'})
    again = keyed(client, session, "cards", "card-1", {"card": "9"}, **{"If-Match": '"0"'})  # its answer was lost: sent again, as made
    assert (first.status_code, again.status_code, again.content) == (200, 200, first.content)
    assert (again.headers["etag"], again.headers["idempotent-replayed"], "idempotent-replayed" in first.headers) == ('"1"', "true", False)
    state = client.get(f"/api/v1/sessions/{session}").json()
    assert (state["shoe"]["seen"], state["version"], state["shoe"]["rank_counts"]["9"]) == (["9"], 1, 31)
    other = keyed(client, session, "cards", "card-1", {"card": "5"})
    assert (other.status_code, other.json()) == (422, {
        "error": "Idempotency-Key 'card-1' was sent before with another request (POST cards {\"card\":\"9\"}): "
                 "a key names one change; give this one a key of its own"})
    assert keyed(client, session, "coups", "card-1").status_code == 422
    assert client.get(f"/api/v1/sessions/{session}").json() == state


def test_a_refusal_is_kept_with_its_key(client):
    session = start(client, burn="none")
    refused = keyed(client, session, "coups", "close-1")
    assert (refused.status_code, refused.json()) == (409, {"error": "no card has been dealt since the last coup: there is no coup to close"})
    cards(client, session, "9 5 9 2")
    again = keyed(client, session, "coups", "close-1")  # the first outcome, though the coup could be closed now
    assert (again.status_code, again.json(), again.headers["idempotent-replayed"]) == (409, refused.json(), "true")
    assert client.get(f"/api/v1/sessions/{session}").json()["coups"] == []
    closed = keyed(client, session, "coups", "close-2")
    assert closed.json()["coups"][0]["winner"] == "player" and closed.json()["version"] == 5


def test_a_key_outlives_the_server_and_the_kept_answers(tmp_path, monkeypatch):
    path = str(tmp_path / "sessions.sqlite")
    with TestClient(create_app(path)) as first_server:
        session = start(first_server, burn="none")
        first = keyed(first_server, session, "cards", "a", {"card": "9"})
    with TestClient(create_app(path)) as second_server:
        again = keyed(second_server, session, "cards", "a", {"card": "9"})
        assert (again.status_code, again.content) == (200, first.content)
        monkeypatch.setattr("exact_odds.serve.store.ANSWERS_KEPT", 1)
        latest = keyed(second_server, session, "cards", "b", {"card": "5"})
        old = keyed(second_server, session, "cards", "a", {"card": "9"})  # answered, not made again: the state now stands for it
        assert (old.status_code, old.json(), old.headers["etag"], old.headers["idempotent-replayed"]) == (200, latest.json(), '"2"', "true")
        assert keyed(second_server, session, "cards", "b", {"card": "5"}).content == latest.content
        assert second_server.get(f"/api/v1/sessions/{session}").json()["shoe"]["seen"] == ["9", "5"]
        assert keyed(second_server, session, "undo", "two words").json() == {
            "error": "Idempotency-Key must be 1 to 200 visible ASCII characters (e.g. a UUID), not 'two words'"}
