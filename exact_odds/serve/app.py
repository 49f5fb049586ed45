"""The HTTP API (version 1, its OpenAPI schema at /openapi.json, shown at /docs) and the tracker page at /.

Every bad request is answered 4xx with ``{"error": "<one line>"}``, the line the CLI prints for the
same input: 400 a body that is not JSON text, 401 a missing or wrong token, 404 no such session,
409 a change the session's state refuses, 413 too large, 422 a value refused. No request names a
file: bets and rules files are given as text. Answers are JSON responses built directly (FastAPI's
own encoder, walking a whole analysis, would cost more than computing it).
"""

import hmac
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from fractions import Fraction
from importlib import resources
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema
from starlette.exceptions import HTTPException
from starlette.routing import Match

from .. import __version__
from ..bets.bets import available_bets
from ..core.cards import parse_cards
from ..core.numbers import parse_exact, shown
from ..core.policy import pure_policies, resolve
from ..core.rules import PRESETS, rules_text
from ..engine.analysis import analyze
from ..errors import InputError
from ..output.analysis_tables import choices_document
from ..output.render import render
from ..studies.dealing import deal_report
from . import sessions, staking
from .sessions import MAX_SHOE_CARDS, MAX_TEXT, NotFound, Refused, Settings, TooLarge
from .store import Store
from .staking import MAX_SERVED, Staking

MAX_BODY = 4 * MAX_TEXT
"""A request body holds at most this many bytes (413 past it)."""
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Error(BaseModel):
    """What was wrong, in one line."""

    error: str


Text = Annotated[str, Field(max_length=MAX_TEXT)]
Short = Annotated[str, Field(max_length=200)]
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": Error, "description": words} for code, words in (
    (400, "a body that cannot be read"), (401, "no token, or a wrong one"), (404, "no such session"), (409, "refused by the session's state"),
    (413, "too large"), (422, "a value refused"))}


def exact_amount(value: object) -> object:
    """A JSON integer as its text; a JSON number that is not an integer (a float, not exact) refused in words."""
    if isinstance(value, (bool, float)):
        raise ValueError(f"must be an exact number, a JSON integer or text such as \"2.5\" or \"1/2\", not {json.dumps(value)}")
    return str(value) if isinstance(value, int) else value


Amount = Annotated[Short, BeforeValidator(exact_amount), WithJsonSchema({"anyOf": [{"type": "string", "maxLength": 200}, {"type": "integer"}]})]
"""An exact amount: text (``"2.5"``, ``"1/2"``) or a JSON integer."""


class Strict(BaseModel):
    """A request body: no field it does not name, and every field of its own JSON type (a boolean is
    never a number, a number never text, text never a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class TableFields(Strict):
    """The shoe, the rules and the bets, as the CLI's options name them."""

    decks: Annotated[int, Field(ge=1, le=MAX_SHOE_CARDS // 52)] | None = Field(None, description="Number of 52-card decks (default 8).")
    shoe: Text | None = Field(None, description="An explicit composition, e.g. A=32,...,K=32 or per card 9h=7.")
    rules: Short | None = Field(None, description=f"A preset: {', '.join(PRESETS)} (default punto_banco).")
    rules_toml: Text | None = Field(None, description="The text of a TOML rules file (as `baccarat-odds rules --format toml` prints).")
    policy: Text = Field("", description="Choices at option points, e.g. player_on_5=draw.")
    commission: Amount | None = Field(None, description="Commission on a winning banker bet, percent (default the rules', 5).")
    tie_pays: Amount | None = Field(None, description="What the tie bet pays, to one (default the rules', 8).")
    bets: Text | None = Field(None, description="Bet names separated by commas, or all (default banker, player, tie and the bets of bets_toml).")
    bets_toml: Text | None = Field(None, description="The text of a TOML file of your own bets (the catalog's format).")

    def settings(self) -> Settings:
        return Settings(**self.model_dump(include=set(Settings.__dataclass_fields__)))


class AnalysisRequest(TableFields):
    remove: Text | None = Field(None, description='Cards taken out of the shoe, e.g. "5 5 K 9h".')
    given: Text | None = Field(None, description="Conditional odds given this condition (the condition language of bets).")
    unordered: Literal["hands", "cards"] | None = Field(None, description="Count bets on the first cards by hands or by sets of cards.")


class DealRequest(TableFields):
    cards: Text = Field(description='Cards in shoe order, e.g. "9S 5D 9H 2C".')
    stake: Amount = Field("100", description="Stake on each bet (exact: text or a JSON integer).")
    given: Text | None = Field(None, description="With a coup in progress: the odds given this condition on how it ends.")


class SessionRequest(TableFields):
    suits: bool = Field(False, description="Cards are entered with their suits (bets on suits need them).")
    burn: Literal["punto_banco", "none"] = Field("punto_banco", description="punto_banco: the first burn of a shoe turns a card and burns its value face down (tens 10).")
    cut_card: Annotated[int, Field(ge=0, le=MAX_SHOE_CARDS)] | None = Field(None, description="Cards behind the cut card (None: no cut card).")


class CardRequest(Strict):
    card: Short = Field(description="A rank (A 2-9 T 10 J Q K) and an optional suit (S H D C): 9, T, 9h.")


class StakingFields(Strict):
    """A bankroll and how to size it, as the ``size`` command's options name them."""

    bankroll: Amount = Field(description="The bankroll the stakes are a share of (money, exact).")
    kelly: Amount = Field("1", description="Fractional Kelly, above 0 and at most 1 (1/2: half Kelly).")
    rebate: Amount | None = Field(None, description="Percent of each losing bet's loss returned (a rebate on losses).")
    min: Amount | None = Field(None, description="Table minimum: one amount for every bet, or NAME=X pairs separated by commas.")
    max: Amount | None = Field(None, description="Table maximum: one amount for every bet, or NAME=X pairs separated by commas.")
    total_max: Amount | None = Field(None, description="At most this much on the whole position.")
    unit: Amount | None = Field(None, description="Stakes in whole units of this amount (the smallest chip).")
    side_needs_main: bool = Field(False, description="A side bet only beside a main bet (needs min on the main bets, or unit).")
    side_ratio: Amount | None = Field(None, description="Each side bet at most this many times the main bets staked.")
    main: Short | None = Field(None, description="The main bets, comma-separated (default: banker, player, tie and their variants).")

    def staking(self, bets: str | None) -> Staking:
        return Staking(bets=bets, **self.model_dump(include=set(StakingFields.model_fields)))


class StakeRequest(StakingFields):
    bets: Short | None = Field(None, description=f"The session's bets to size, comma-separated, at most {MAX_SERVED} (default: those with a "
                                                 "positive expectation on the next coup, the rebate included).")


class SizeRequest(TableFields, StakingFields):
    remove: Text | None = Field(None, description='Cards taken out of the shoe, e.g. "5 5 K 9h".')


class BurnRequest(Strict):
    card: Short | None = Field(None, description="The card turned face up, if one was.")
    hidden: Annotated[int, Field(ge=0, le=52)] | None = Field(None, description="Cards burned face down (default: by the burn procedure).")


def one_line(error: RequestValidationError) -> str:
    """The first problem pydantic found, as ``where: what``."""
    problems = error.errors()
    if not problems:
        return "the request is not valid"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    return f"{where}: {first.get('msg', 'not valid')}".replace("\n", " ")[:300]


STATUS = ((NotFound, 404), (Refused, 409), (TooLarge, 413))


def status_of(error: InputError) -> int:
    return next((code for kind, code in STATUS if isinstance(error, kind)), 422)


class Guard:
    """Refuse, before the app reads it, a request without the token (when one is set) or with a
    body larger than :data:`MAX_BODY`; say in a ``Server-Timing`` header how long the server took.
    The token comes as ``Authorization: Bearer TOKEN`` or ``?token=TOKEN`` (for the page's first
    load), compared in constant time."""

    def __init__(self, app: ASGIApp, token: str | None):
        self.app, self.token = app, token

    def authorized(self, scope: Scope) -> bool:
        if self.token is None:
            return True
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"authorization", b"").decode("latin-1")
        if given.lower().startswith("bearer "):
            given = given[7:].strip()
        else:
            given = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.authorized(scope):
            await JSONResponse({"error": "this server needs its token: send Authorization: Bearer TOKEN (or open /?token=TOKEN)"}, 401)(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await JSONResponse({"error": f"the request body is larger than {MAX_BODY:,} bytes"}, 413)(scope, receive, send)
                return
            more = message.get("more_body", False)
        delivered, started = False, time.perf_counter()

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed = f"app;dur={1000 * (time.perf_counter() - started):.2f}".encode()
                message["headers"] = [*message.get("headers", []), (b"server-timing", elapsed)]
            await send(message)

        await self.app(scope, replay, timed)


def create_app(db: str, token: str | None = None) -> Any:
    """The app over the sessions of the SQLite file ``db`` (``token``: needed by every request)."""
    store = Store(db)
    app = FastAPI(title="exact_odds", version=__version__, responses=ERRORS,
                  description="Exact baccarat odds: analyses, deals and live shoe sessions. Every number is exact (fractions as strings).")

    @app.exception_handler(InputError)
    async def refused(request: Request, error: InputError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_of(error))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(error)}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        headers, detail = error.headers, str(error.detail)
        if error.status_code == 400 and detail == "There was an error parsing the body":
            detail = "the request body cannot be read as JSON text (UTF-8)"
        if error.status_code == 405:  # every method of the path, not only those of the route that matched first
            routes = [route for route in app.router.routes if route.matches(request.scope)[0] != Match.NONE]
            headers = {"Allow": ", ".join(sorted({method for route in routes for method in getattr(route, "methods", None) or ()}))}
        return JSONResponse({"error": detail}, error.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        """A defect of the server (never of the request): one line, the traceback only in the server's log."""
        return JSONResponse({"error": f"internal error ({type(error).__name__}): please report it"}, 500)

    @app.get("/", include_in_schema=False)
    def tracker() -> HTMLResponse:
        return HTMLResponse(resources.files(__package__).joinpath("tracker.html").read_text(encoding="utf-8"))

    @app.get("/api/v1/health")
    def health() -> JSONResponse:
        """The server's version."""
        return JSONResponse({"status": "ok", "version": __version__})

    @app.get("/api/v1/catalog")
    def catalog_route() -> JSONResponse:
        """The bet catalog (with the main bets at Punto Banco's pays): each bet's pay table, and whether it reads suits."""
        bets = available_bets(PRESETS["punto_banco"])
        return JSONResponse({"bets": [{"name": name, "description": bet.description, "needs_suits": bet.needs_suits,
                          "pays": [{"event": row.event, "pays": row.pays.text, "net": str(row.pays.net), "when": row.condition.text} for row in bet.rows]}
                         for name, bet in bets.items()]})

    @app.get("/api/v1/rules")
    def rules_route() -> JSONResponse:
        """The rule presets: drawing rules in words, the main bets' pays, the option points."""
        return JSONResponse({"presets": [{"name": name, "title": rules.name, "commission": str(rules.commission), "tie_pays": str(rules.tie_pays),
                             "option_points": [point.name for point in rules.option_points()], "text": rules_text(rules)}
                            for name, rules in PRESETS.items()]})

    @app.post("/api/v1/analysis")
    def analysis_route(request: AnalysisRequest) -> JSONResponse:
        """The analysis of a shoe: exactly the JSON of `baccarat-odds --format json` with the same options
        (under rules with choices and no policy: one analysis for each pure choice, as the CLI prints)."""
        settings = request.settings()
        shoe = sessions.shoe_from(settings, request.remove)
        rules = sessions.rules_of(settings)
        bets, notes = sessions.bets_from(settings, rules, shoe.knows_suits)
        unordered = request.unordered or ""
        with sessions.ANALYSIS_LOCK:
            if rules.option_points() and not settings.policy.strip() and request.given is None:
                analyses = [analyze(shoe, bets, resolve(rules, choice), unordered=unordered) for choice in pure_policies(rules)]
                return JSONResponse(json.loads(render(choices_document(analyses, notes, False), "json")))
            decisions = sessions.decisions_from(settings, rules)
            return JSONResponse(analyze(shoe, bets, decisions, given=request.given, unordered=unordered).to_dict(notes))

    @app.post("/api/v1/size")
    def size_route(request: SizeRequest) -> JSONResponse:
        """The Kelly position on the bets (at most four; default banker, player, tie) for the next coup of a shoe, under table
        limits and a rebate: the JSON of `baccarat-odds size --format json` with the same options (rebate: a percent)."""
        settings = request.settings()
        shoe = sessions.shoe_from(settings, request.remove)
        rules = sessions.rules_of(settings)
        bets, _ = sessions.bets_from(settings, rules, shoe.knows_suits)
        if len(bets) > MAX_SERVED:
            raise InputError(f"bets: a position served holds at most {MAX_SERVED} bets, not {len(bets)}")
        names = [bet.name for bet in bets]
        return JSONResponse(staking.position(shoe, bets, sessions.decisions_from(settings, rules), request.staking(None), names))

    @app.post("/api/v1/deal")
    def deal_route(request: DealRequest) -> JSONResponse:
        """One coup from cards in shoe order, as `baccarat-odds deal` reports it (or the odds mid-coup)."""
        settings = request.settings()
        cards = parse_cards(request.cards)
        if not cards:
            raise InputError("give the cards dealt, in shoe order (e.g. 9S 5D 9H 2C)")
        stake = parse_exact(request.stake, "stake")
        if stake <= 0:
            raise InputError(f"stake must be positive, not {shown(request.stake)}")
        shoe = sessions.shoe_from(settings)
        rules = sessions.rules_of(settings)
        decisions = sessions.decisions_from(settings, rules)
        bets, _ = sessions.bets_from(settings, rules, True)
        with sessions.ANALYSIS_LOCK:
            return JSONResponse({"report": deal_report(cards, shoe, bets, decisions, Fraction(stake), request.given)})

    Id = Annotated[str, Path(max_length=64, description="The session's id")]

    def what_to_bet(table: sessions.Table, replayed: sessions.Replay, analysis: Any, given: Staking, most: int = MAX_SERVED) -> dict[str, Any]:
        return staking.session_position(table.settings, table.start, replayed.seen, table.bets, table.decisions, analysis, given, most)

    def state(session: str, table: sessions.Table, log: list[sessions.Event], replayed: sessions.Replay | None = None,
              status: int = 200) -> JSONResponse:
        replayed = replayed or sessions.replay(table, log)
        record = sessions.session_state(session, table, replayed)
        sizing, position, refused = store.sizing(session), None, None
        if sizing is not None and record["analysis"] is None:
            refused = f"no analysis of the next coup: {record['analysis_refused']}"
        elif sizing is not None:
            try:
                position = what_to_bet(table, replayed, record["analysis"], Staking(**sizing), staking.PER_CARD)
            except InputError as error:
                refused = str(error)
        record.update(sizing=sizing, what_to_bet=position, what_to_bet_refused=refused)
        return JSONResponse(record, status)

    def current(session: str) -> tuple[sessions.Table, sessions.Replay, dict[str, object]]:
        """A session's table, state and analysis of the next coup."""
        _, table, log = store.load(session)
        replayed = sessions.replay(table, log)
        return table, replayed, sessions.analysis_of(table, replayed)

    @app.post("/api/v1/sessions", status_code=201)
    def create_session(request: SessionRequest) -> JSONResponse:
        """A new session: the shoe, rules and bets to track; its state (its id first)."""
        session = store.create(request.settings())
        _, table, log = store.load(session)
        return state(session, table, log, status=201)

    @app.get("/api/v1/sessions/{session}")
    def read_session(session: Id) -> JSONResponse:
        """A session's state: the cards seen, the shoe left, the coup in progress, the coups, every bet's exact EV on the next coup."""
        _, table, log = store.load(session)
        return state(session, table, log)

    @app.delete("/api/v1/sessions/{session}")
    def delete_session(session: Id) -> JSONResponse:
        """Forget a session."""
        store.delete(session)
        return JSONResponse({"deleted": session})

    @app.post("/api/v1/sessions/{session}/cards")
    def add_card(session: Id, request: CardRequest) -> JSONResponse:
        """A card dealt face up, into the coup in progress (refused if the shoe left holds no such card or the coup is settled)."""
        return state(session, *store.change(session, sessions.add_card(request.card)))

    @app.post("/api/v1/sessions/{session}/burns")
    def add_burn(session: Id, request: BurnRequest) -> JSONResponse:
        """A burn between coups: the card turned face up (taken out of the shoe left) and the cards burned face down (unknown: left in)."""
        return state(session, *store.change(session, sessions.add_burn(request.card, request.hidden)))

    @app.post("/api/v1/sessions/{session}/coups")
    def close_coup(session: Id) -> JSONResponse:
        """Close the coup: the cards since the last one, settled by the tableau (refused, 409, if the tableau could not deal them)."""
        return state(session, *store.change(session, sessions.close_coup))

    @app.post("/api/v1/sessions/{session}/shoes")
    def new_shoe(session: Id) -> JSONResponse:
        """A new shoe: the starting composition again (the coups of earlier shoes are kept)."""
        return state(session, *store.change(session, sessions.new_shoe))

    @app.post("/api/v1/sessions/{session}/undo")
    def undo(session: Id) -> JSONResponse:
        """Take back the last entry of the log (a card, a burn, a coup's close, a new shoe)."""
        return state(session, *store.change(session, sessions.undo))

    @app.post("/api/v1/sessions/{session}/put-back")
    def put_back(session: Id, request: CardRequest) -> JSONResponse:
        """Put a card dealt since the last coup back into the shoe (the latest of that rank, or of that card)."""
        return state(session, *store.change(session, sessions.put_back(request.card)))

    @app.post("/api/v1/sessions/{session}/size")
    def size_session(session: Id, request: StakeRequest) -> JSONResponse:
        """What to bet now: the Kelly position on the next coup of the session's shoe left, as `baccarat-odds size --format json`
        prints it (and `chosen`: which bets, and why). Nothing is stored."""
        table, replayed, analysis = current(session)
        return JSONResponse(what_to_bet(table, replayed, analysis, request.staking(request.bets)))

    @app.put("/api/v1/sessions/{session}/sizing")
    def set_sizing(session: Id, request: StakeRequest) -> JSONResponse:
        """Keep a bankroll and sizing settings with the session: its state then carries `what_to_bet` after every card
        (checked first by sizing the next coup; refused settings are not kept)."""
        table, replayed, analysis = current(session)
        given = request.staking(request.bets)
        what_to_bet(table, replayed, analysis, given, staking.PER_CARD)
        store.set_sizing(session, given.to_dict())
        _, table, log = store.load(session)
        return state(session, table, log)

    @app.delete("/api/v1/sessions/{session}/sizing")
    def clear_sizing(session: Id) -> JSONResponse:
        """Forget the session's bankroll and sizing settings."""
        store.set_sizing(session, None)
        _, table, log = store.load(session)
        return state(session, table, log)

    @app.get("/api/v1/sessions/{session}/export", responses={200: {"content": {"application/json": {}, "text/csv": {}}}}, response_model=None)
    def export(session: Id, format: Annotated[Literal["json", "csv"], Query()] = "json") -> Response:
        """The whole session: JSON (settings, log, every coup with each bet's result) or CSV (one row per log entry)."""
        created, table, log = store.load(session)
        result = sessions.export(session, created, table, log, format)
        if isinstance(result, str):
            return PlainTextResponse(result, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="session-{session}.csv"'})
        return JSONResponse(result)

    return Guard(app, token)
