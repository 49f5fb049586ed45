"""A player's sessions (``/sessions``): the list and each session's event stream, a session made,
read and forgotten, the entries of its log (cards, burns, a coup's close, a new shoe, undo,
corrections, put-back), what to bet now and the sizing kept with it, and its export. Every change
answers the session's state after it, with its ETag (see :mod:`..states`)."""

import re
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel

from ...core.numbers import shown
from ...errors import InputError
from .. import banner, sessions
from ..bodies import BurnRequest, CardRequest, CorrectionRequest, SessionRequest, StakeRequest
from ..compute import NextCoup
from ..dependencies import Id, IfMatch, Key, SessionStore
from ..events import MAX_LISTED, summary, versions
from ..sessions import NotFound
from ..states import at_the_table, forget_sizing, keep_sizing, repeated, state_body, state_record, what_to_bet
from ..store import Loaded, Precondition, Repeated, Store, etag

router = APIRouter()

KEY = re.compile(r"[!-~]{1,200}")
"""An Idempotency-Key: visible ASCII characters."""


def answer(loaded: Loaded, status: int = 200) -> Response:
    body = state_body(state_record(loaded), loaded.state)
    return Response(body, status, headers={"ETag": etag(loaded.version)}, media_type="application/json")


def write(store: Store, session: str, edit: sessions.Edit, if_match: str | None, key: str | None, request: str) -> Response:
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


def current(store: Store, session: str) -> tuple[Loaded, NextCoup]:
    """A session as stored, and the analysis of its next coup."""
    loaded = store.load(session)
    return loaded, sessions.analysis_of(loaded.table, loaded.state)


@router.get("/sessions")
def list_sessions(store: SessionStore,
                  limit: Annotated[int, Query(ge=1, le=MAX_LISTED, description="At most this many, the newest first.")] = 100) -> JSONResponse:
    """The sessions, newest first: each one's id, its link to resume it (on any device), when made and last changed, its version and
    number of entries, and what it tracks (its table, or its shoe, rules and bets)."""
    return JSONResponse({"sessions": [summary(record) for record in store.summaries(limit)]})


@router.get("/sessions/{session}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}}, "description": "event: version, data: {\"version\": N}"}})
def session_events(store: SessionStore, session: Annotated[str, Path(max_length=64)], request: Request) -> StreamingResponse:
    """Server-sent events: the session's version now and after every change (null once it is deleted), for tabs and devices to
    stay in sync; the stream ends every few seconds and the browser's EventSource connects again."""
    if store.version(session) is None:
        raise NotFound(f"no session {shown(session)} (create one with POST /api/v1/sessions)")
    return StreamingResponse(versions(store, session, request), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.post("/sessions", status_code=201)
def create_session(store: SessionStore, request: SessionRequest) -> Response:
    """A new session: the shoe, rules and bets to track, or a table (`table`, `table_toml`) that sets them; its state (its id first)."""
    return answer(store.load(store.create(request.request().settings)), 201)


@router.get("/sessions/{session}")
def read_session(store: SessionStore, session: Id) -> Response:
    """A session's state: the cards seen, the shoe left, the coup in progress, the coups, every bet's exact EV on the next coup.
    Its `ETag` header (and `version`) name this state, for the `If-Match` of a change."""
    return answer(store.load(session))


@router.delete("/sessions/{session}")
def delete_session(store: SessionStore, session: Id, if_match: IfMatch = None) -> JSONResponse:
    """Forget a session."""
    store.delete(session, Precondition(if_match))
    return JSONResponse({"deleted": session})


@router.post("/sessions/{session}/cards")
def add_card(store: SessionStore, session: Id, request: CardRequest, if_match: IfMatch = None, key: Key = None) -> Response:
    """A card dealt face up, into the coup in progress (refused if the shoe left holds no such card or the coup is settled)."""
    return write(store, session, sessions.add_card(request.card), if_match, key, f"POST cards {body(request)}")


@router.post("/sessions/{session}/burns")
def add_burn(store: SessionStore, session: Id, request: BurnRequest, if_match: IfMatch = None, key: Key = None) -> Response:
    """A burn between coups: the card turned face up (taken out of the shoe left) and the cards burned face down (unknown: left in)."""
    return write(store, session, sessions.add_burn(request.card, request.hidden), if_match, key, f"POST burns {body(request)}")


@router.post("/sessions/{session}/coups")
def close_coup(store: SessionStore, session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
    """Close the coup: the cards since the last one, settled by the tableau (refused, 409, if the tableau could not deal them)."""
    return write(store, session, sessions.close_coup, if_match, key, "POST coups")


@router.post("/sessions/{session}/shoes")
def new_shoe(store: SessionStore, session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
    """A new shoe: the starting composition again (the coups of earlier shoes are kept)."""
    return write(store, session, sessions.new_shoe, if_match, key, "POST shoes")


@router.post("/sessions/{session}/undo")
def undo(store: SessionStore, session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
    """Take back the last entry of the log (a card, a burn, a coup's close, a new shoe)."""
    return write(store, session, sessions.undo, if_match, key, "POST undo")


@router.post("/sessions/{session}/corrections")
def correct(store: SessionStore, session: Id, request: CorrectionRequest, if_match: IfMatch = None, key: Key = None) -> Response:
    """Correct a card of the coup in progress: the card dealt at `seat` replaces the one entered there, every other card in its
    seat (refused, 409, if a later card would change seats)."""
    return write(store, session, sessions.correct(request.seat, request.card), if_match, key, f"POST corrections {body(request)}")


@router.post("/sessions/{session}/put-back")
def put_back(store: SessionStore, session: Id, request: CardRequest, if_match: IfMatch = None, key: Key = None) -> Response:
    """Take out a card entered since the last coup that was not dealt (the latest of that rank, or of that card): the cards after it
    move up a seat. To change a card that was dealt, correct it (`corrections`)."""
    return write(store, session, sessions.put_back(request.card), if_match, key, f"POST put-back {body(request)}")


@router.post("/sessions/{session}/size")
def size_session(store: SessionStore, session: Id, request: StakeRequest) -> JSONResponse:
    """What to bet now: the Kelly position on the next coup of the session's shoe left, as `baccarat-odds size --format json`
    prints it (and `chosen`: which bets, and why). Nothing is stored."""
    loaded, analysis = current(store, session)
    given = at_the_table(loaded.table, request.request())
    return JSONResponse(what_to_bet(loaded.table, loaded.state, analysis, given).record)


@router.put("/sessions/{session}/sizing")
def set_sizing(store: SessionStore, session: Id, request: StakeRequest, if_match: IfMatch = None, key: Key = None) -> Response:
    """Keep a bankroll and sizing settings with the session: its state then carries `what_to_bet` after every card
    (checked first by sizing the next coup; refused settings are not kept)."""
    return write(store, session, keep_sizing(request.request()), if_match, key, f"PUT sizing {body(request)}")


@router.delete("/sessions/{session}/sizing")
def clear_sizing(store: SessionStore, session: Id, if_match: IfMatch = None, key: Key = None) -> Response:
    """Forget the session's bankroll and sizing settings."""
    return write(store, session, forget_sizing, if_match, key, "DELETE sizing")


@router.get("/sessions/{session}/export", responses={200: {"content": {"application/json": {}, "text/csv": {}}}}, response_model=None)
def export(store: SessionStore, session: Id, format: Annotated[Literal["json", "csv"], Query()] = "json") -> Response:
    """The whole session: JSON (settings, log, every coup with each bet's result) or CSV (one row per log entry)."""
    loaded = store.load(session)
    result = sessions.export(session, loaded.created, loaded.table, loaded.events, format)
    if not isinstance(result, str):
        shoes = sorted({closed.shoe for closed in loaded.state.coups} | {loaded.state.shoe_number})
        result["roads"] = [{"shoe": shoe, **banner.shoe_roads(loaded.table, loaded.state, shoe)} for shoe in shoes]
    if isinstance(result, str):
        return PlainTextResponse(result, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="session-{session}.csv"'})
    return JSONResponse(result)
