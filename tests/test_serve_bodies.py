"""The server's body models checked against the requests they build (issue 30, DESIGN-30 "Front
doors"): every field of a body is a field of its request (the same name, a type of the same family),
and a body builds its request with each field's value where the request keeps it. The requests
check; the bodies only spell them as JSON (strict types, sizes, descriptions for /docs)."""

import re
import types
import typing
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.routing import APIRoute  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.bets.profiles import TABLES, profile_toml  # noqa: E402
from exact_odds.commands import deal, session  # noqa: E402
from exact_odds.commands.analyze import AnalyzeRequest  # noqa: E402
from exact_odds.commands.setup import Setup  # noqa: E402
from exact_odds.commands.size import SessionStaking, Staking  # noqa: E402
from exact_odds.core.rules import PRESETS, rules_toml  # noqa: E402
from exact_odds.errors import InputError  # noqa: E402
from exact_odds.serve import bodies as served  # noqa: E402
from exact_odds.serve.app import create_app  # noqa: E402

BUILDS: dict[type, tuple[type, ...]] = {
    served.AnalysisRequest: (AnalyzeRequest, Setup),
    served.DealRequest: (deal.DealRequest, Setup),
    served.SizeRequest: (Setup, Staking),
    served.SessionRequest: (session.SessionRequest,),
    served.StakeRequest: (Staking,),
}
"""Each body model and the requests its ``request()`` builds (a request's ``setup`` after it): a
body's field is the first of these requests' fields of its name."""

LOG_ENTRIES = {
    served.CardRequest: "a card entered into a session's log (serve/sessions.py's add_card, put_back): checked against the session's state",
    served.CorrectionRequest: "a card corrected in a session's log (serve/sessions.py's correct): checked against the session's state",
    served.BurnRequest: "a burn entered into a session's log (serve/sessions.py's add_burn): checked against the session's state",
}
"""Bodies that are entries of a session's log, not a command's request, with the reason."""

BETS = '[[bet]]\nname = "big_tie"\npays = [{ when = "winner == tie and player_total >= 7", pays = "20" }]\n'
SAMPLES: dict[type, list[dict[str, Any]]] = {
    served.AnalysisRequest: [
        {"decks": 1, "rules": "punto_banco", "policy": "", "commission": 4, "tie_pays": "9", "bets": "banker, tie, player_pair",
         "remove": "5 K", "unordered": "hands"},
        {"shoe": "A=4,9=4,K=8", "rules_toml": rules_toml(PRESETS["baccarat_gold"]), "bets_toml": BETS, "given": "winner == tie"},
    ],
    served.DealRequest: [
        {"decks": 1, "shoe": "A=4,9=4,K=8", "rules": "punto_banco", "policy": "", "commission": "5", "tie_pays": 8, "bets": "banker, tie",
         "cards": "9S 5D", "stake": 10, "given": "winner == tie"},
        {"rules_toml": rules_toml(PRESETS["punto_banco"]), "bets_toml": BETS, "cards": "9S 5D 9H 2C", "stake": "5/2"},
    ],
    served.SizeRequest: [
        {"decks": 1, "shoe": "A=4,9=4,K=8", "rules": "punto_banco", "policy": "", "commission": "4", "tie_pays": "9", "bets": "banker, tie",
         "remove": "5", "bankroll": 1000, "kelly": "1/2", "rebate": "1", "min": "10", "max": "banker=500", "total_max": "600", "unit": "5",
         "side_needs_main": True, "side_ratio": "2", "main": "banker"},
        {"rules_toml": rules_toml(PRESETS["punto_banco"]), "bets_toml": BETS, "bankroll": "100"},
    ],
    served.SessionRequest: [
        {"decks": 1, "rules": "punto_banco", "policy": "", "commission": "4", "tie_pays": 9, "bets": "banker, tie, dragon_7", "burn": "none",
         "cut_card": 14, "suits": False},
        {"shoe": "9h=4,Ks=4,5d=4", "rules_toml": rules_toml(PRESETS["punto_banco"]), "bets_toml": BETS, "suits": True},
        {"table": "ez_baccarat", "suits": True},
        {"table_toml": profile_toml(TABLES["dragon_bonus"])},
    ],
    served.StakeRequest: [
        {"bankroll": "100", "kelly": 1, "rebate": "1", "min": "5", "max": "50", "total_max": "60", "unit": "5", "side_needs_main": True,
         "side_ratio": "2", "main": "banker", "bets": "banker"},
    ],
}
"""Bodies of each model, between them every field of it (each one built into its request)."""


def family(annotation: Any) -> set[Any]:
    """The plain types a value of ``annotation`` may have: ``Annotated`` and ``Literal`` read through,
    a union as its members, a generic as its origin (``tuple[str, ...]`` is ``tuple``)."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return family(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return set().union(*(family(member) for member in typing.get_args(annotation)))
    if origin is Literal:
        return {type(value) for value in typing.get_args(annotation)}
    return {origin if origin is not None else annotation}


def request_fields(kind: type) -> dict[str, set[Any]]:
    """A request's fields a caller gives (not those it derives), with their type families."""
    hints = typing.get_type_hints(kind)
    return {field.name: family(hints[field.name]) for field in fields(kind) if field.init}


def owner(name: str, kinds: tuple[type, ...]) -> type | None:
    return next((kind for kind in kinds if name in request_fields(kind)), None)


def api_routes(routes: list[Any]) -> list[APIRoute]:
    """The API's routes, those of its routers too (a FastAPI that includes a router lazily keeps it
    as one route of the app, its own routes behind ``original_router``)."""
    found = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            found += api_routes(included.routes)
        elif isinstance(route, APIRoute):
            found.append(route)
    return found


def route_bodies() -> set[type]:
    app = create_app(":memory:").app
    return {route.dependant.body_params[0].field_info.annotation for route in api_routes(app.routes) if route.dependant.body_params}


def test_every_body_of_a_route_is_checked_here() -> None:
    assert route_bodies() == set(BUILDS) | set(LOG_ENTRIES)
    assert all(is_dataclass(kind) for kinds in BUILDS.values() for kind in kinds)


@pytest.mark.parametrize("body", list(BUILDS), ids=lambda body: body.__name__)
def test_every_field_of_a_body_is_a_field_of_its_request(body: type) -> None:
    """The same name, and every type the body admits one the request takes (a JSON integer amount
    reaches the request as text)."""
    kinds = BUILDS[body]
    for name, info in body.model_fields.items():  # type: ignore[attr-defined]
        kind = owner(name, kinds)
        assert kind is not None, f"{body.__name__}.{name} is no field of {', '.join(kind.__name__ for kind in kinds)}"
        wider = family(info.annotation) - request_fields(kind)[name]
        assert not wider, f"{body.__name__}.{name} admits {wider}, which {kind.__name__}.{name} does not take"


@pytest.mark.parametrize("body", list(BUILDS), ids=lambda body: body.__name__)
def test_a_body_builds_its_request(body: type) -> None:
    """Each sample body builds the requests named, each field's value kept by the request's field
    of its name; between them the samples give every field of the body."""
    samples = SAMPLES[body]
    assert set().union(*samples) == set(body.model_fields)  # type: ignore[attr-defined]
    for sample in samples:
        given = body.model_validate(sample)  # type: ignore[attr-defined]
        built = given.request()
        requests = list(built) if isinstance(built, tuple) else [built]
        requests += [request.setup for request in requests if isinstance(getattr(request, "setup", None), Setup)]
        assert tuple(type(request) for request in requests) == BUILDS[body]
        for name in sample:
            kept = next(request for request in requests if name in request_fields(type(request)))
            assert getattr(kept, name) == getattr(given, name) is not None, name


SESSION_REFUSALS = [
    ({"table": "ez_baccarat", "decks": 6}, 422,
     "decks: the table (ez_baccarat) sets the shoe, rules, bets, burn and cut card: leave decks out, or give a profile of your own (table_toml)"),
    ({"table": "ez_baccarat", "table_toml": "x"}, 422, "give table (a preset's name) or table_toml (a profile file's text), not both"),
    ({"decks": 1, "cut_card": 52}, 422, "cut_card is the number of cards behind the cut card: from 0 to 51, not 52"),
    ({"shoe": "A=5201"}, 413, "a session's shoe holds at most 5,200 cards, not 5,201"),
    ({"shoe": "A=8,K=8", "suits": True}, 422,
     "suits: custom shoe A=8,K=8 is given by rank only; cards entered with suits need per-card counts (e.g. shoe 9h=7,...)"),
]


@pytest.mark.parametrize(("fields_given", "status", "message"), SESSION_REFUSALS)
def test_the_library_and_the_server_give_the_session_request_s_refusal(tmp_path: Path, fields_given: dict[str, Any], status: int,
                                                                        message: str) -> None:
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        session.SessionRequest(**fields_given)
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/sessions", json=fields_given)
    assert (response.status_code, response.json()) == (status, {"error": message})


def test_the_library_refuses_what_the_body_s_types_refuse_first() -> None:
    """A burn not known and the infinite deck: pydantic's types refuse them at the server's door
    (a Literal, an integer), the request for a program."""
    with pytest.raises(InputError, match=r"^burn must be one of punto_banco, none, not 'x'$"):
        session.SessionRequest(decks=1, burn="x")
    with pytest.raises(InputError, match=r"^a session tracks the cards dealt from a finite shoe; the infinite deck \(decks inf\) puts every card back$"):
        session.SessionRequest(decks="inf")


EZ = "ez_banker, player, tie, dragon_7, panda_8"
SIZING_REFUSALS = [
    ({"bankroll": "1000", "bets": " "}, "bets is empty: name the session's bets to size, separated by commas (or leave bets out)"),
    ({"bankroll": "1000", "bets": " , "}, "bets is empty: name the session's bets to size, separated by commas (or leave bets out)"),
    ({"bankroll": "1000", "bets": "banker"}, f"bets: 'banker' is not a bet of this session ({EZ})"),
    ({"bankroll": "1000", "unit": "1"}, "unit: this session's table (ez_baccarat) sets the limits, the chip and the rebate (unit 5): leave unit out"),
    ({"bankroll": "1000", "rebate": "1"}, "rebate: this session's table (ez_baccarat) sets the limits, the chip and the rebate (rebate none): leave rebate out"),
]


@pytest.mark.parametrize(("fields_given", "message"), SIZING_REFUSALS)
def test_the_library_and_the_server_give_the_session_sizing_s_refusal(tmp_path: Path, fields_given: dict[str, str], message: str) -> None:
    """commands/size.py's SessionStaking, at the ez_baccarat table, for a program and the server's two sizing routes."""
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        SessionStaking(staking=Staking(**fields_given), names=tuple(EZ.split(", ")), table=TABLES["ez_baccarat"])
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        made = client.post("/api/v1/sessions", json={"table": "ez_baccarat"}).json()["id"]
        sized = client.post(f"/api/v1/sessions/{made}/size", json=fields_given)
        kept = client.put(f"/api/v1/sessions/{made}/sizing", json=fields_given)
    assert (sized.status_code, sized.json()) == (kept.status_code, kept.json()) == (422, {"error": message})


def test_the_server_gives_the_analyze_request_s_refusal(tmp_path: Path) -> None:
    """The analysis body builds commands/analyze.py's request, which refuses unordered with given (the CLI: --unordered with --given)."""
    message = "unordered counts bets on the first cards alone; with given or by every bet is counted through the coup"
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        AnalyzeRequest(setup=Setup(decks=1), unordered="hands", given="winner == tie")
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/analysis", json={"decks": 1, "unordered": "hands", "given": "winner == tie"})
    assert (response.status_code, response.json()) == (422, {"error": message})
