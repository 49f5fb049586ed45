"""Analyses without a session: the bet catalog and the rule presets, a shoe's analysis, the Kelly
position on its next coup (``/size``), and one coup dealt from cards in shoe order (``/deal``)."""

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...bets.bets import available_bets
from ...commands import analyze as analyze_command
from ...commands import deal as deal_command
from ...commands.rules import rules_text
from ...commands.session import NOT_SERVED
from ...core.cards import Card
from ...core.coup import Coup
from ...core.policy import pure_policies, resolve
from ...core.rules import PRESETS
from ...engine.analysis import analyze_checked
from ...errors import InputError
from ...output.render import render
from .. import sessions, staking
from ..bodies import AnalysisRequest, DealRequest, SizeRequest
from ..staking import MAX_SERVED

router = APIRouter()


@router.get("/catalog")
def catalog_route() -> JSONResponse:
    """The bet catalog (with the main bets at Punto Banco's pays): each bet's pay table, and whether it reads suits."""
    bets = available_bets(PRESETS["punto_banco"])
    return JSONResponse({"bets": [{"name": name, "description": bet.description, "needs_suits": bet.needs_suits,
                      "pays": [{"event": row.event, "pays": row.pays.text, "net": str(row.pays.net), "when": row.condition.text} for row in bet.rows]}
                     for name, bet in bets.items()]})


@router.get("/rules")
def rules_route() -> JSONResponse:
    """The rule presets: drawing rules in words, the main bets' pays, the option points."""
    return JSONResponse({"presets": [{"name": name, "title": rules.name, "commission": str(rules.commission), "tie_pays": str(rules.tie_pays),
                         "option_points": [point.name for point in rules.option_points()], "text": rules_text(rules)}
                        for name, rules in PRESETS.items()]})


@router.post("/analysis")
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


@router.post("/size")
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


@router.post("/deal")
def deal_route(request: DealRequest) -> JSONResponse:
    """One coup from cards in shoe order: `report`, what `baccarat-odds deal` prints (or the odds mid-coup); `coup` (hands, seats,
    totals, winner), the tableau's `steps`, and once it is settled each bet's `settlements` of the stake (exact amounts as text)."""
    dealing = request.request()
    dealing.setup.fixed_decisions(NOT_SERVED)  # optimal, solved for a shoe, is not served
    dealt = deal_command.run(dealing)
    return JSONResponse({"report": render(deal_command.document(dealt, dealing.amount), "text"),
                         **deal_data(dealt.cards, dealt.coup, dealt.settlements, dealing.amount)})


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
