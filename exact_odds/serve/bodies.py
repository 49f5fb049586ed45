"""The bodies of the API's requests: pydantic models that spell each command's request as JSON
(strict types, sizes, descriptions for /docs), each ``request()`` building its command's request,
which checks it (tests/test_serve_bodies.py reads the app's routes and checks every body)."""

import json
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from ..commands import analyze as analyze_command
from ..commands import deal as deal_command
from ..commands import session as session_command
from ..commands.session import MAX_SHOE_CARDS
from ..commands.setup import MAX_TEXT, Setup
from ..commands.size import Staking
from ..core.rules import PRESETS
from .sessions import Seat
from .staking import MAX_SERVED

Text = Annotated[str, Field(max_length=MAX_TEXT)]
Short = Annotated[str, Field(max_length=200)]


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

    def setup(self, remove: str | None = None) -> Setup:
        """The request's setup (less ``remove``), within the served limits."""
        return Setup(**self.model_dump(include=set(TableFields.model_fields)), remove=remove, served=True)


class AnalysisRequest(TableFields):
    remove: Text | None = Field(None, description='Cards taken out of the shoe, e.g. "5 5 K 9h".')
    given: Text | None = Field(None, description="Conditional odds given this condition (the condition language of bets).")
    unordered: Literal["hands", "cards"] | None = Field(None, description="Count bets on the first cards by hands or by sets of cards.")

    def request(self) -> analyze_command.AnalyzeRequest:
        return analyze_command.AnalyzeRequest(setup=self.setup(self.remove), given=self.given, unordered=self.unordered)


class DealRequest(TableFields):
    cards: Text = Field(description='Cards in shoe order, e.g. "9S 5D 9H 2C".')
    stake: Amount = Field("100", description="Stake on each bet (exact: text or a JSON integer).")
    given: Text | None = Field(None, description="With a coup in progress: the odds given this condition on how it ends.")

    def request(self) -> deal_command.DealRequest:
        stake = self.stake if "stake" in self.model_fields_set else None  # only a stake given is refused mid-coup
        return deal_command.DealRequest(setup=self.setup(), cards=self.cards, stake=stake, given=self.given)


class SessionRequest(TableFields):
    table: Short | None = Field(None, description="A preset table (GET /api/v1/tables): its shoe, rules, bets, limits, chip, rebate, burn and cut card.")
    table_toml: Text | None = Field(None, description="The text of a table profile file of your own (docs/tables.md), instead of a preset.")
    suits: bool = Field(False, description="Cards are entered with their suits (bets on suits need them).")
    burn: Literal["punto_banco", "none"] = Field("punto_banco", description="punto_banco: the first burn of a shoe turns a card and burns its value face down (tens 10).")
    cut_card: Annotated[int, Field(ge=0, le=MAX_SHOE_CARDS)] | None = Field(None, description="Cards behind the cut card (None: no cut card).")

    def request(self) -> session_command.SessionRequest:
        """The session's request (a field left out is not given: beside a table, one it sets is refused)."""
        return session_command.SessionRequest(**self.model_dump(exclude_unset=True))


class CardRequest(Strict):
    card: Short = Field(description="A rank (A 2-9 T 10 J Q K) and an optional suit (S H D C): 9, T, 9h.")


class CorrectionRequest(Strict):
    seat: Seat = Field(description="The seat of the card to correct: player_1, banker_1, player_2, banker_2, player_3, banker_3.")
    card: Short = Field(description="The card dealt at that seat: a rank and an optional suit (9, T, 9h).")


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

    def staking(self, bets: str | None = None) -> Staking:
        return Staking(bets=bets, **self.model_dump(include=set(StakingFields.model_fields)))


class StakeRequest(StakingFields):
    bets: Short | None = Field(None, description=f"The session's bets to size, comma-separated, at most {MAX_SERVED} (default: those with a "
                                                 "positive expectation on the next coup, the rebate included).")

    def request(self) -> Staking:
        """The staking the session's sizing is checked from (:class:`SessionStaking`, with the session's bets and table)."""
        return self.staking(self.bets)


class SizeRequest(TableFields, StakingFields):
    remove: Text | None = Field(None, description='Cards taken out of the shoe, e.g. "5 5 K 9h".')

    def request(self) -> tuple[Setup, Staking]:
        return self.setup(self.remove), self.staking()


class BurnRequest(Strict):
    card: Short | None = Field(None, description="The card turned face up, if one was.")
    hidden: Annotated[int, Field(ge=0, le=52)] | None = Field(None, description="Cards burned face down (default: by the burn procedure).")
