"""The preset tables (``GET /tables``): each one's bets, limits, chip, rebate, shoe, burn and cut card."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .. import tables

router = APIRouter()


@router.get("/tables")
def tables_route() -> JSONResponse:
    """The preset tables: each one's bets with their pay tables, limits, chip, rebate, shoe, burn and cut card (docs/tables.md)."""
    return JSONResponse(tables.tables_record())
