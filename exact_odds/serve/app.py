"""The HTTP API (version 1, its OpenAPI schema at /openapi.json, shown at /docs) and the tracker page at /.

Every bad request is answered 4xx with ``{"error": "<one line>"}``, the line the CLI prints for the
same input: 400 a body that is not JSON text, 401 a missing or wrong token, 404 no such session,
409 a change the session's state refuses, 413 too large, 422 a value refused. No request names a
file: bets and rules files are given as text. Answers are JSON responses built directly (FastAPI's
own encoder, walking a whole analysis, would cost more than computing it).
"""

import asyncio
import contextlib
import hmac
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from fractions import Fraction
from importlib import resources
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs

from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match

from .. import __version__
from ..bets.bets import available_bets
from ..core.cards import Card
from ..core.coup import Coup
from ..core.numbers import shown
from ..core.policy import pure_policies, resolve
from ..core.rules import PRESETS
from ..engine.analysis import analyze_checked
from ..errors import InputError
from ..commands import analyze as analyze_command
from ..commands.session import NOT_SERVED
from ..commands.setup import MAX_TEXT
from ..commands import deal as deal_command
from ..commands.rules import rules_text
from ..output.render import render
from . import banner, events, sessions, staking, tables
from .docs_assets import add_offline_docs
from .bodies import AnalysisRequest, BurnRequest, CardRequest, CorrectionRequest, DealRequest, SessionRequest, SizeRequest, StakeRequest
from .sessions import status_of
from .states import at_the_table, forget_sizing, keep_sizing, repeated, state_body, state_record, what_to_bet
from .store import Loaded, Precondition, Repeated, Stale, Store, etag
from .staking import MAX_SERVED

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


class Conflict(BaseModel):
    """What was wrong, in one line; and for a change made on a state the session no longer has (If-Match), its current state."""

    error: str
    state: dict[str, Any] | None = Field(None, description="The session's current state, when the change was made on an older one.")


ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": Conflict if code == 409 else Error, "description": words} for code, words in (
    (400, "a body that cannot be read"), (401, "no token, or a wrong one"), (404, "no such session"),
    (409, "refused by the session's state, or made on a state it no longer has (If-Match)"), (413, "too large"), (422, "a value refused"))}


def one_line(error: RequestValidationError) -> str:
    """The first problem pydantic found, as ``where: what``."""
    problems = error.errors()
    if not problems:
        return "the request is not valid"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    return f"{where}: {first.get('msg', 'not valid')}".replace("\n", " ")[:300]


PUBLIC = ("/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")
"""The API's documentation, the same for every server: read without the token (it holds no session)."""


def public(path: str) -> bool:
    """Whether ``path`` is the API's documentation or one of its assets (read without the token)."""
    return path in PUBLIC or path.startswith("/docs-assets/")


class Guard:
    """Refuse, before the app reads it, a request without the token (when one is set) or with a
    body larger than :data:`MAX_BODY`; say in a ``Server-Timing`` header how long the server took.
    The token comes as ``Authorization: Bearer TOKEN`` or ``?token=TOKEN`` (for the page's first
    load), compared in constant time."""

    def __init__(self, app: ASGIApp, token: str | None):
        self.app, self.token = app, token

    def authorized(self, scope: Scope) -> bool:
        if self.token is None or (scope.get("method") in ("GET", "HEAD") and public(scope.get("path", ""))):
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


KEY = re.compile(r"[!-~]{1,200}")
"""An Idempotency-Key: visible ASCII characters."""


def deal_data(cards: Sequence[Card], coup: Coup, settlements: Sequence[tuple[str, Fraction]], stake: Fraction) -> dict[str, Any]:
    """A coup dealt (the route ``/deal``) as data: its hands, totals and winner, the tableau's steps,
    and, when the coup is settled, each bet's settlement (``settlements``: its net win per unit) of
    ``stake`` (exact amounts as text)."""
    return {"coup": {"cards": [str(card) for card in cards], "seats": dict(zip(sessions.seats(coup), map(str, cards))),
                     "player": [str(card) for card in coup.player], "banker": [str(card) for card in coup.banker],
                     "player_total": coup.player_total, "banker_total": coup.banker_total, "complete": coup.complete, "winner": coup.winner},
            "steps": list(coup.steps),
            "settlements": [{"bet": name, "stake": str(stake), "net": str(net), "amount": str(stake * net),
                             "result": "push" if net == 0 else "wins" if net > 0 else "loses"} for name, net in settlements]
            if coup.complete else None}


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: when it stops, the analyses' worker processes are shut (see :mod:`.compute`)."""
    yield
    await asyncio.to_thread(sessions.COMPUTER.close)


def create_app(db: str, token: str | None = None) -> Any:
    """The app over the sessions of the SQLite file ``db`` (``token``: needed by every request)."""
    store = Store(db)
    app = FastAPI(title="exact_odds", version=__version__, responses=ERRORS, docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Exact baccarat odds: analyses, deals and live shoe sessions. Every number is exact (fractions as strings).")

    @app.exception_handler(InputError)
    async def refused(request: Request, error: InputError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_of(error))

    @app.exception_handler(Stale)
    def stale(request: Request, error: Stale) -> JSONResponse:  # not async: the state's analysis computes
        return JSONResponse({"error": str(error), "state": state_record(error.loaded)}, 409, headers={"ETag": etag(error.loaded.version)})

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

    add_offline_docs(app)

    @app.get("/", include_in_schema=False)
    def tracker() -> HTMLResponse:
        return HTMLResponse(resources.files(__package__).joinpath("tracker.html").read_text(encoding="utf-8"))

    @app.get("/api/v1/health")
    def health() -> JSONResponse:
        """The server's version."""
        return JSONResponse({"status": "ok", "version": __version__})

    @app.get("/api/v1/tables")
    def tables_route() -> JSONResponse:
        """The preset tables: each one's bets with their pay tables, limits, chip, rebate, shoe, burn and cut card (docs/tables.md)."""
        return JSONResponse(tables.tables_record())

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
        asked = request.request()
        setup, bets, notes = asked.setup, list(asked.bets), list(asked.notes)
        rules = setup.rule_set
        unordered = asked.unordered or ""
        if rules.option_points() and not setup.policy_given() and asked.condition is None:
            analyses = [analyze_checked(asked.shoe, bets, resolve(rules, choice), unordered=unordered) for choice in pure_policies(rules)]
            data = analyze_command.choices_document(analyses, notes, False).data
            assert data is not None  # a document of choices always carries its record
            return JSONResponse(data.record)
        decisions = setup.fixed_decisions(NOT_SERVED)  # (analyze_command.run would render the text and the CSV too: twice the time)
        return JSONResponse(analyze_checked(asked.shoe, bets, decisions, asked.evaluator, asked.condition, unordered).to_dict(notes))

    @app.post("/api/v1/size")
    def size_route(request: SizeRequest) -> JSONResponse:
        """The Kelly position on the bets (at most four; default banker, player, tie) for the next coup of a shoe, under table
        limits and a rebate: the JSON of `baccarat-odds size --format json` with the same options (rebate: a percent)."""
        setup, given = request.request()
        shoe = setup.starting_shoe()
        bets, _ = setup.chosen_bets(shoe.knows_suits)
        if len(bets) > MAX_SERVED:
            raise InputError(f"bets: a position served holds at most {MAX_SERVED} bets, not {len(bets)}")
        names = [bet.name for bet in bets]
        return JSONResponse(staking.position(shoe, bets, setup.fixed_decisions(NOT_SERVED), given, names).to_dict())

    @app.post("/api/v1/deal")
    def deal_route(request: DealRequest) -> JSONResponse:
        """One coup from cards in shoe order: `report`, what `baccarat-odds deal` prints (or the odds mid-coup); `coup` (hands, seats,
        totals, winner), the tableau's `steps`, and once it is settled each bet's `settlements` of the stake (exact amounts as text)."""
        dealing = request.request()
        dealing.setup.fixed_decisions(NOT_SERVED)  # optimal, solved for a shoe, is not served
        dealt = deal_command.run(dealing)
        return JSONResponse({"report": render(deal_command.document(dealt, dealing.amount), "text"),
                             **deal_data(dealt.cards, dealt.coup, dealt.settlements, dealing.amount)})

    Id = Annotated[str, Path(max_length=64, description="The session's id")]
    IfMatch = Annotated[str | None, Header(alias="If-Match", max_length=200, description=(
        "The ETag of the state this change was made on: refused (409, with the current state) if the session has changed since. "
        "Without it, the change is made on whatever the state is now."))]
    Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=200, description=(
        "A key of your own for this change (e.g. a UUID): sent again, the change is not made again, and its first answer is given."))]

    def answer(loaded: Loaded, status: int = 200) -> Response:
        body = state_body(state_record(loaded), loaded.state)
        return Response(body, status, headers={"ETag": etag(loaded.version)}, media_type="application/json")

    def write(session: str, edit: sessions.Edit, if_match: str | None, key: str | None, request: str) -> Response:
        """Make a change, as :meth:`Store.change` does: the session's state after it (with its ETag), or the first answer to its key."""
        if key is not None and not KEY.fullmatch(key):
            raise InputError(f"Idempotency-Key must be 1 to 200 visible ASCII characters (e.g. a UUID), not {shown(key)}")
        with store.session_lock(session):
            outcome = store.change(session, edit, Precondition(if_match, key, request))
            if isinstance(outcome, Repeated):
                return repeated(store, session, outcome)
            response = answer(outcome)
            if key is not None:
                store.keep_answer(session, key, bytes(response.body))
            return response

    def body(request: BaseModel) -> str:
        return request.model_dump_json(exclude_defaults=True)

    def current(session: str) -> tuple[Loaded, sessions.NextCoup]:
        """A session as stored, and the analysis of its next coup."""
        loaded = store.load(session)
        return loaded, sessions.analysis_of(loaded.table, loaded.state)

    events.add_routes(app, store)

    @app.post("/api/v1/sessions", status_code=201)
    def create_session(request: SessionRequest) -> Response:
        """A new session: the shoe, rules and bets to track, or a table (`table`, `table_toml`) that sets them; its state (its id first)."""
        return answer(store.load(store.create(request.request().settings)), 201)

    @app.get("/api/v1/sessions/{session}")
    def read_session(session: Id) -> Response:
        """A session's state: the cards seen, the shoe left, the coup in progress, the coups, every bet's exact EV on the next coup.
        Its `ETag` header (and `version`) name this state, for the `If-Match` of a change."""
        return answer(store.load(session))

    @app.delete("/api/v1/sessions/{session}")
    def delete_session(session: Id, if_match: IfMatch = None) -> JSONResponse:
        """Forget a session."""
        store.delete(session, Precondition(if_match))
        return JSONResponse({"deleted": session})

    @app.post("/api/v1/sessions/{session}/cards")
    def add_card(session: Id, request: CardRequest, if_match: IfMatch = None, key: Key = None) -> Response:
        """A card dealt face up, into the coup in progress (refused if the shoe left holds no such card or the coup is settled)."""
        return write(session, sessions.add_card(request.card), if_match, key, f"POST cards {body(request)}")

    @app.post("/api/v1/sessions/{session}/burns")
    def add_burn(session: Id, request: BurnRequest, if_match: IfMatch = None, key: Key = None) -> Response:
        """A burn between coups: the card turned face up (taken out of the shoe left) and the cards burned face down (unknown: left in)."""
        return write(session, sessions.add_burn(request.card, request.hidden), if_match, key, f"POST burns {body(request)}")

    @app.post("/api/v1/sessions/{session}/coups")
    def close_coup(session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
        """Close the coup: the cards since the last one, settled by the tableau (refused, 409, if the tableau could not deal them)."""
        return write(session, sessions.close_coup, if_match, key, "POST coups")

    @app.post("/api/v1/sessions/{session}/shoes")
    def new_shoe(session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
        """A new shoe: the starting composition again (the coups of earlier shoes are kept)."""
        return write(session, sessions.new_shoe, if_match, key, "POST shoes")

    @app.post("/api/v1/sessions/{session}/undo")
    def undo(session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
        """Take back the last entry of the log (a card, a burn, a coup's close, a new shoe)."""
        return write(session, sessions.undo, if_match, key, "POST undo")

    @app.post("/api/v1/sessions/{session}/corrections")
    def correct(session: Id, request: CorrectionRequest, if_match: IfMatch = None, key: Key = None) -> Response:
        """Correct a card of the coup in progress: the card dealt at `seat` replaces the one entered there, every other card in its
        seat (refused, 409, if a later card would change seats)."""
        return write(session, sessions.correct(request.seat, request.card), if_match, key, f"POST corrections {body(request)}")

    @app.post("/api/v1/sessions/{session}/put-back")
    def put_back(session: Id, request: CardRequest, if_match: IfMatch = None, key: Key = None) -> Response:
        """Take out a card entered since the last coup that was not dealt (the latest of that rank, or of that card): the cards after it
        move up a seat. To change a card that was dealt, correct it (`corrections`)."""
        return write(session, sessions.put_back(request.card), if_match, key, f"POST put-back {body(request)}")

    @app.post("/api/v1/sessions/{session}/size")
    def size_session(session: Id, request: StakeRequest) -> JSONResponse:
        """What to bet now: the Kelly position on the next coup of the session's shoe left, as `baccarat-odds size --format json`
        prints it (and `chosen`: which bets, and why). Nothing is stored."""
        loaded, analysis = current(session)
        given = at_the_table(loaded.table, request.request())
        return JSONResponse(what_to_bet(loaded.table, loaded.state, analysis, given).record)

    @app.put("/api/v1/sessions/{session}/sizing")
    def set_sizing(session: Id, request: StakeRequest, if_match: IfMatch = None, key: Key = None) -> Response:
        """Keep a bankroll and sizing settings with the session: its state then carries `what_to_bet` after every card
        (checked first by sizing the next coup; refused settings are not kept)."""
        return write(session, keep_sizing(request.request()), if_match, key, f"PUT sizing {body(request)}")

    @app.delete("/api/v1/sessions/{session}/sizing")
    def clear_sizing(session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
        """Forget the session's bankroll and sizing settings."""
        return write(session, forget_sizing, if_match, key, "DELETE sizing")

    @app.get("/api/v1/sessions/{session}/export", responses={200: {"content": {"application/json": {}, "text/csv": {}}}}, response_model=None)
    def export(session: Id, format: Annotated[Literal["json", "csv"], Query()] = "json") -> Response:
        """The whole session: JSON (settings, log, every coup with each bet's result) or CSV (one row per log entry)."""
        loaded = store.load(session)
        result = sessions.export(session, loaded.created, loaded.table, loaded.events, format)
        if not isinstance(result, str):
            shoes = sorted({closed.shoe for closed in loaded.state.coups} | {loaded.state.shoe_number})
            result["roads"] = [{"shoe": shoe, **banner.shoe_roads(loaded.table, loaded.state, shoe)} for shoe in shoes]
        if isinstance(result, str):
            return PlainTextResponse(result, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="session-{session}.csv"'})
        return JSONResponse(result)

    return Guard(app, token)
