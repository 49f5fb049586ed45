"""Sessions made from a table (issue 33): GET /api/v1/tables; a session at a preset or at a
profile of one's own has the table's bets and pays (the CLI's JSON for the same shoe and bets),
its burn and cut card, its limits, chip and rebate in the sizing (the library's Kelly stake under
the table's limits written here, and the closed form (b p - q) / b rounded to chips); the banner,
the roads and the shoe counter; every refusal one line."""

import json
from fractions import Fraction
from math import ceil, floor

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.bets.bets import load_bets  # noqa: E402
from exact_odds.core.shoe import shoe_from_options  # noqa: E402
from exact_odds.serve.app import create_app  # noqa: E402
from exact_odds.studies.sizing import Limits, size  # noqa: E402

CLUB = """
[[table]]
name = "club_ez"
title = "A one-deck EZ table, tie 9 to 1"
tie_pays = "9"
chip = "5"
decks = 1
burn = "none"
cut_card = 20

[table.bets.ez_banker]
minimum = "10"
maximum = "3000"

[table.bets.player]
minimum = "10"
maximum = "3000"

[table.bets.tie]
maximum = "500"

[table.bets.dragon_7]
minimum = "5"
maximum = "100"
pays = ["40"]

[table.bets.dragon_6]
minimum = "5"
maximum = "50"

[[table.bet]]
name = "dragon_6"
description = "The club's Dragon 6: banker wins with a three-card 6, pays 30 to 1"
pays = [{ when = "winner == banker and banker_cards == 3 and banker_total == 6", pays = "30" }]
"""
DRAGON_6 = """
[[bet]]
name = "dragon_6"
description = "The club's Dragon 6: banker wins with a three-card 6, pays 30 to 1"
pays = [{ when = "winner == banker and banker_cards == 3 and banker_total == 6", pays = "30" }]
"""
NINES_AND_EIGHTS = "9 8 9 8"
"""A coup (player 9 9 = 8, banker 8 8 = 6: a natural) that, twice, takes every 9 and 8 out of one
deck, and gives Dragon 7 the player's edge."""


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as test_client:
        yield test_client


def post(client, path: str, body: dict | None = None) -> dict:
    answer = client.post(path, json=body)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def test_the_tables_are_the_presets(client):
    tables = client.get("/api/v1/tables").json()["tables"]
    assert [table["name"] for table in tables] == ["punto_banco", "ez_baccarat", "dragon_bonus", "super_6", "no_commission", "mini_baccarat"]
    ez = tables[1]
    assert [(bet["name"], bet["minimum"], bet["maximum"]) for bet in ez["bets"]] == [
        ("ez_banker", "10", "3000"), ("player", "10", "3000"), ("tie", "5", "500"), ("dragon_7", "5", "100"), ("panda_8", "5", "100")]
    assert (ez["chip"], ez["rebate"], ez["burn"], ez["cards_behind_cut"], ez["decks"]) == ("5", "0", "punto_banco", 16, 8)


def test_a_session_at_a_preset_has_its_bets_pays_burn_and_cut_card(client, run):
    state = post(client, "/api/v1/sessions", {"table": "ez_baccarat"})
    assert (state["settings"]["decks"], state["settings"]["burn"], state["cut_card"]["at"], state["burn"]["pending"]) == (8, "punto_banco", 400, True)
    assert state["table"]["name"] == "ez_baccarat" and state["table"]["chip"] == "5"
    code, out, err = run("--format", "json", "--decks", "8", "--bets", "ez_banker,player,tie,dragon_7,panda_8")
    assert code == 0, err
    assert state["analysis"] == json.loads(out)
    assert state["banner"] == {"action": "wait", "stakes": [], "basis": "minimum", "chip": "5", "last_coup": False,
                               "why": "no bet of the table has a positive expectation on the next coup"}


def test_a_session_at_a_profile_of_ones_own(client, run, tmp_path):
    session = post(client, "/api/v1/sessions", {"table_toml": CLUB})["id"]
    for card in NINES_AND_EIGHTS.split():
        state = post(client, f"/api/v1/sessions/{session}/cards", {"card": card})
    state = post(client, f"/api/v1/sessions/{session}/coups")
    (tmp_path / "own.toml").write_text(DRAGON_6)
    code, out, err = run("--format", "json", "--decks", "1", "--tie-pays", "9", "--bets", "ez_banker,player,tie,dragon_7,dragon_6",
                         "--bets-file", str(tmp_path / "own.toml"), "--remove", NINES_AND_EIGHTS)
    assert code == 0, err
    assert state["analysis"] == json.loads(out)
    assert [line["net"] for line in state["analysis"]["bets"]["tie"]["returns"] if Fraction(line["net"]) > 0] == ["9"]
    assert (state["cut_card"]["at"], state["burn"]["pending"]) == (32, False)


def second_order_growth(returns: list[dict]) -> Fraction:
    """EV^2 / 2 Var of a bet's return table: the growth of its Kelly stake alone, to second order."""
    mean = sum(Fraction(line["probability"]) * Fraction(line["net"]) for line in returns)
    variance = sum(Fraction(line["probability"]) * Fraction(line["net"]) ** 2 for line in returns) - mean**2
    return mean * mean / (2 * variance)


def test_sizing_at_a_table_is_in_its_chips_within_its_limits(client):
    session = post(client, "/api/v1/sessions", {"table_toml": CLUB})["id"]
    for _ in range(2):
        for card in NINES_AND_EIGHTS.split():
            post(client, f"/api/v1/sessions/{session}/cards", {"card": card})
        state = post(client, f"/api/v1/sessions/{session}/coups")
    dragon = state["analysis"]["bets"]["dragon_7"]
    assert state["positive"] == ["tie", "dragon_7"]  # the tie at 9 to 1 too, with every 9 and 8 out
    growth = {name: second_order_growth(state["analysis"]["bets"][name]["returns"]) for name in ("tie", "dragon_7")}
    assert growth["dragon_7"] > growth["tie"]  # Dragon 7's Kelly stake grows a bankroll more: the one sized
    assert state["banner"] == {"action": "bet", "basis": "minimum", "chip": "5", "last_coup": False, "stakes": [
        {"bet": "dragon_7", "amount": "5", "chips": 1, "expected_value": dragon["expected_value"], "house_edge": dragon["house_edge"]}],
        "why": "the positive bet whose Kelly stake grows a bankroll most, at the table's minimum: give a bankroll for the Kelly stake"}
    shoe = shoe_from_options(1, None, " ".join([NINES_AND_EIGHTS] * 2))
    own = list(load_bets(DRAGON_6, "own.toml").values())
    limits = Limits(minimum={"ez_banker": 10, "player": 10, "dragon_7": 5, "dragon_6": 5},
                    maximum={"ez_banker": 3000, "player": 3000, "tie": 500, "dragon_7": 100, "dragon_6": 50}, unit=5)
    win = next(Fraction(line["probability"]) for line in dragon["returns"] if line["net"] == "40")
    state = client.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": 200}).json()  # its Kelly stake is below the minimum of 5
    assert (state["banner"]["action"], state["banner"]["why"]) == ("wait", "no stake grows the bankroll on the next coup")
    for bankroll in (1000, 5000, 20000):
        state = client.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": bankroll}).json()
        (stake,) = size(shoe, ["dragon_7"], bankroll, limits, table=["ez_banker", "player", "tie", "dragon_7", *[bet.name for bet in own]]).stakes
        assert state["banner"]["stakes"] == [{"bet": "dragon_7", "amount": str(stake.amount), "chips": int(stake.amount / 5),
                                              "expected_value": dragon["expected_value"], "house_edge": dragon["house_edge"]}]
        kelly = (40 * win - (1 - win)) / 40 * bankroll  # the closed form (b p - q) / b, in money
        assert stake.amount in {min(Fraction(100), max(Fraction(5), 5 * rounded(kelly / 5))) for rounded in (floor, ceil)}
    assert (state["banner"]["stakes"][0]["amount"], state["banner"]["basis"]) == ("100", "bankroll")  # the table's maximum
    refused = client.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": 1000, "unit": "1"})
    assert refused.status_code == 422 and refused.json() == {
        "error": "unit: this session's table (club_ez) sets the limits, the chip and the rebate (unit 5): leave unit out"}
    again = client.put(f"/api/v1/sessions/{session}/sizing", json={"bankroll": 1000, **{key: state["sizing"][key] for key in ("min", "max", "unit")}})
    assert again.status_code == 200  # the table's own values, sent back by the page, are the table's


def test_the_counter_adds_up_and_the_shoe_ends_after_the_cut_card(client):
    session = post(client, "/api/v1/sessions", {"decks": 1, "burn": "punto_banco", "cut_card": 36})["id"]
    state = post(client, f"/api/v1/sessions/{session}/burns", {"card": "3"})
    assert state["shoe"]["counter"] == {"start": 52, "in_shoe": 48, "dealt": 0, "burned_seen": 1, "burned_hidden": 3}
    coups = ["9 8 K K", "9 8 Q Q", "9 8 J J", "8 9 T T"]  # each a natural: four cards
    for number, coup in enumerate(coups, 1):
        for card in coup.split():
            state = post(client, f"/api/v1/sessions/{session}/cards", {"card": card})
            counter = state["shoe"]["counter"]
            assert counter["in_shoe"] + counter["dealt"] + counter["burned_seen"] + counter["burned_hidden"] == 52
        if number == 4:  # the fourth coup started with 16 cards out, the cut card's place: the shoe has ended
            break
        state = post(client, f"/api/v1/sessions/{session}/coups")
        assert state["banner"]["action"] == "wait" and state["banner"]["last_coup"] == (number == 3)
    assert state["shoe"]["counter"] == {"start": 52, "in_shoe": 32, "dealt": 16, "burned_seen": 1, "burned_hidden": 3}
    assert state["banner"]["action"] == "ended" and state["banner"]["stakes"] == []
    assert state["banner"]["why"] == "the shoe has ended (the cut card is out and the shoe's last coup has been dealt): no advice; start a new shoe"
    assert post(client, f"/api/v1/sessions/{session}/coups")["banner"]["action"] == "ended"


def test_the_roads_are_the_coups(client):
    session = post(client, "/api/v1/sessions", {"decks": 8, "burn": "none"})["id"]
    for coup in ["9S 5D 9H 2C", "3H 2S 8D KC QH 6S", "4C AD KS 2H 8C", "7S 3D KH 4C", "4 3 4 3"]:  # P natural, B, B, T, then both pairs
        for card in coup.split():
            post(client, f"/api/v1/sessions/{session}/cards", {"card": card[0]})
        state = post(client, f"/api/v1/sessions/{session}/coups")
    roads = state["roads"]
    assert [(cell["coup"], cell["column"], cell["row"], cell["winner"], cell["player_pair"], cell["natural"]) for cell in roads["bead_plate"]["cells"]] == [
        (1, 0, 0, "player", True, True), (2, 0, 1, "banker", False, False), (3, 0, 2, "banker", False, False),
        (4, 0, 3, "tie", False, False), (5, 0, 4, "player", True, True)]
    assert [(cell["coup"], cell["column"], cell["row"], cell["winner"], cell["ties"]) for cell in roads["big_road"]["cells"]] == [
        (1, 0, 0, "player", 0), (2, 1, 0, "banker", 0), (3, 1, 1, "banker", 1), (5, 2, 0, "player", 0)]
    assert roads["note"].endswith("Past results predict nothing: each coup is dealt from the cards left in the shoe, "
                                  "and the exact figures already count every card seen.")
    export = client.get(f"/api/v1/sessions/{session}/export").json()
    assert [road["shoe"] for road in export["roads"]] == [1] and export["roads"][0]["big_road"] == roads["big_road"]


@pytest.mark.parametrize("body, error", [
    ({"table": "ez"}, "no table 'ez' (the tables: punto_banco, ez_baccarat, dragon_bonus, super_6, no_commission, mini_baccarat)"),
    ({"table": "ez_baccarat", "table_toml": CLUB}, "give table (a preset's name) or table_toml (a profile file's text), not both"),
    ({"table": "ez_baccarat", "bets": "all"}, "bets: the table (ez_baccarat) sets the shoe, rules, bets, burn and cut card: leave bets out, "
                                               "or give a profile of your own (table_toml)"),
    ({"table_toml": "[[table]]\nname = 1"}, "table file table_toml, table 1: title: missing"),
    ({"table_toml": CLUB.replace('pays = ["40"]', 'pays = ["30"]')},
     "table file table_toml, table 'club_ez': pays: dragon_7 pays 40 (its pay table's rows), not 30: a table that pays otherwise offers "
     "a bet of its own ([[table.bet]], under a name of its own)"),
])
def test_refusals_are_one_line(client, body, error):
    answer = client.post("/api/v1/sessions", json=body)
    assert (answer.status_code, answer.json()) == (422, {"error": error})


def test_without_a_table_or_a_bankroll_the_banner_names_the_bet(client):
    sevens = ",".join(f"{rank}={8 if rank == '7' else 4}" for rank in "A 2 3 4 5 6 7 8 9 T J Q K".split())  # Dragon 7 has the edge
    state = post(client, "/api/v1/sessions", {"shoe": sevens, "bets": "banker,player,tie,dragon_7", "burn": "none"})
    dragon = state["analysis"]["bets"]["dragon_7"]
    assert state["table"] is None and state["positive"] == ["dragon_7"]
    assert state["banner"] == {"action": "bet", "basis": "none", "chip": None, "last_coup": False, "stakes": [
        {"bet": "dragon_7", "amount": None, "chips": None, "expected_value": dragon["expected_value"], "house_edge": dragon["house_edge"]}],
        "why": "the positive bet whose Kelly stake grows a bankroll most: give a bankroll for the stake"}
