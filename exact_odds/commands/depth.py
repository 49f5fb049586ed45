"""The `depth` command: every bet's exact edge distribution over the compositions of the n cards
left, for each n asked (:mod:`exact_odds.studies.depth`), run in ranges on local workers or a dask
cluster and resumable from a results folder (:mod:`exact_odds.studies.ranges`).

>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.studies.depth import DepthSettings
>>> request = DepthRequest(settings=DepthSettings(shoe=Shoe.parse("9=1,T=6"), cards_left=(6,), bets=("banker", "tie")))
>>> from exact_odds.output.render import render
>>> print(render(document(run(request)), "csv").splitlines()[2])
6,2,7,tie,2/7,1/7,8/7,-1,-1,-1,-1,-1,-1,8,8,8
"""

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.numbers import shown
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Paragraph, Table, table
from ..studies.depth import DepthSettings, DepthStudy, level_name

if TYPE_CHECKING:
    from ..bets.bets import Bet
    from ..core.policy import Decisions, Policy
    from ..core.rules import DrawRules
    from ..core.shoe import Shoe
    from .setup import Setup

def _percent(value: Fraction | None) -> str:
    return "" if value is None else f"{float(value * 100):.4f}%"


@dataclass(frozen=True, kw_only=True)
class DepthRequest:
    """A depth study and where it runs: ``workers`` local processes (None: as many as the cores and
    the first pass's ranges allow), or the dask scheduler at ``scheduler``; ``resume`` the results
    folder that keeps each finished range (None: none kept)."""

    settings: DepthSettings
    workers: int | None = None
    scheduler: str | None = None
    resume: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        from ..studies.parallel import check_address, check_workers

        if not isinstance(self.settings, DepthSettings):
            raise InputError(f"settings must be DepthSettings, not {shown(self.settings)}", parameter="settings")
        check_workers(self.workers)
        if self.scheduler is not None:
            check_address(self.scheduler)
            if self.workers is not None:
                raise InputError("workers sets local worker processes, and scheduler runs the ranges on the cluster's workers: give one",
                                 parameter="workers", mentions=("scheduler",))
        if self.resume is not None and not str(self.resume).strip():
            raise InputError("resume is empty: name a results folder", parameter="resume")

    def first_ranges(self) -> int:
        """How many ranges the first pass weighs (the most work there is to share out at once)."""
        from ..studies import depth

        counts = [depth.walk_order(self.settings, cards).count for cards in self.settings.cards_left]
        return sum(-(-count // max(depth.RANGE, -(-count // depth.MOST_RANGES))) for count in counts)


def depth_request(setup: "Setup", cards_left: "str | int | Sequence[int]", **where: Any) -> tuple[DepthRequest, list[str]]:
    """The request of a depth study of ``setup``'s shoe, bets and rules at ``cards_left`` (text as
    ``--cards-left`` takes it, or numbers), run ``where`` :class:`DepthRequest` says (``workers``,
    ``scheduler``, ``resume``); and the notes of the choice of the bets."""
    from ..studies.depth import DepthSettings, parse_cards_left

    shoe = setup.starting_shoe()
    bets, notes = setup.chosen_bets(suits_known=shoe.knows_suits)
    left = parse_cards_left(cards_left) if isinstance(cards_left, str) else cards_left
    settings = DepthSettings(shoe=shoe, cards_left=left, bets=tuple(bets), decisions=setup.decisions(shoe))  # type: ignore[arg-type]
    return DepthRequest(settings=settings, **where), notes


def run(request: DepthRequest, progress: Callable[[Any], None] | None = None) -> DepthStudy:
    """The study, on the workers the request names (``progress`` hears a
    :class:`~exact_odds.studies.ranges.Progress` after every range)."""
    from ..studies.depth import run_depth
    from ..studies.parallel import cores

    workers = request.workers if request.workers is not None else max(1, min(cores(), request.first_ranges()))
    return run_depth(request.settings, workers=1 if request.scheduler else workers, scheduler=request.scheduler, resume=request.resume,
                     progress=progress)


def _heading(study: DepthStudy) -> str:
    settings = study.settings
    shoe = settings.shoe
    policy = str(settings.decisions.policy)
    tops = ", ".join(f"{name} {_percent(value)}" for name, value in study.off_the_top.items())
    return (f"The edge with n cards left: {shoe.description} ({shoe.size} cards), {settings.decisions.rules.name}"
            + (f" ({policy})" if policy else "") + f"; every composition of the cards left by {settings.classes}, weighed exactly.\n"
            f"Off the top: {tops}. At every n the weights add up to C({shoe.size}, n) and each bet's mean is its EV off the top (checked).")


def _levels(study: DepthStudy) -> list[str]:
    return [f"{float(level * 100):g}%" for level in study.settings.quantiles]


def _rows(study: DepthStudy, at: Any) -> list[list[object]]:
    """A row per bet and one for the best of them: mean, P(EV > 0), E[max(0, EV)], lowest, quantiles, highest (percent)."""
    rows: list[list[object]] = []
    for name, bet in at.bets.items():
        rows.append([name, _percent(bet.mean), _percent(bet.p_positive), _percent(bet.expected_positive), _percent(bet.lowest),
                     *(_percent(value) for _, value in bet.quantiles), _percent(bet.highest)])
    rows.append(["best", "", _percent(at.best_p_positive), _percent(at.best_expected_positive), "", *("" for _ in study.settings.quantiles), ""])
    return rows


def _flat(study: DepthStudy) -> Table:
    """The CSV: a row per number of cards left and bet (and the best), every figure an exact fraction."""
    levels = [level_name(level) for level in study.settings.quantiles]
    headers = ["cards_left", "compositions", "total_weight", "bet", "mean", "p_positive", "expected_positive", "lowest",
               *(f"quantile_{level}" for level in levels), "highest"]
    rows: list[list[object]] = []
    for at in study.depths:
        for name, bet in at.bets.items():
            rows.append([at.cards_left, at.compositions, at.total_weight, name, bet.mean, bet.p_positive, bet.expected_positive, bet.lowest,
                         *(value for _, value in bet.quantiles), bet.highest])
        rows.append([at.cards_left, at.compositions, at.total_weight, "best", "", at.best_p_positive, at.best_expected_positive, "",
                     *("" for _ in levels), ""])
    return table(headers, rows)


def document(study: DepthStudy) -> Document:
    """Per number of cards left, a table of every bet's distribution of EV (percent) and the best
    bet's; the record (``exact_odds.depth``) for JSON and, flat with exact fractions, for CSV."""
    headers = ["bet", "mean", "P(EV > 0)", "E[max(0, EV)]", "lowest", *_levels(study), "highest"]
    blocks: list[Block] = [Paragraph(_heading(study))]
    size = study.settings.shoe.size
    for at in study.depths:
        weight = f"{at.total_weight:,}" if at.total_weight < 10**9 else f"{float(at.total_weight):.4g}"
        blocks.append(Paragraph(f"{at.cards_left} cards left: {at.compositions:,} compositions, total weight C({size}, {at.cards_left}) = {weight}"))
        blocks.append(table(headers, _rows(study, at), ["left"] + ["right"] * (len(headers) - 1), stub=1))
    blocks.append(Paragraph("best: at each composition the best of the bets, if positive (perfect play on them). "
                            "Quantile q: the EV of the composition at which P(EV <= x) first reaches q."))
    return Document(tuple(blocks), Data(study.to_dict(), _flat(study)))


def depth(*, cards_left: "str | int | Sequence[int]", shoe: "Shoe | int | str | Mapping[str, int] | None" = None,
          bets: "str | Bet | Iterable[str | Bet] | None" = None, rules: "DrawRules | Decisions | str | None" = None,
          policy: "Policy | str | None" = None, commission: "Fraction | int | str | None" = None, tie_pays: "Fraction | int | str | None" = None,
          bets_toml: str | None = None, workers: int | None = None, scheduler: str | None = None,
          resume: "str | os.PathLike[str] | None" = None) -> DepthStudy:
    """Every bet's exact edge distribution over the compositions of the ``cards_left`` cards left
    (``"6-26"``, ``"18,26,34"``, ``"18-50/8"`` or numbers) of ``shoe`` (default 8 decks), as
    ``baccarat-odds depth`` counts it: its request built from these arguments (the command's
    options), run on ``workers`` local processes or the dask ``scheduler``, kept in ``resume``.

    >>> study = depth(cards_left=6, shoe="9=1,T=6", bets="banker, tie", workers=1)
    >>> tie = study.depths[0].bets["tie"]  # 6 of 7 cards left: six tens (1 way in 7, a sure tie: +8) or the 9 and five (-1)
    >>> tie.mean, tie.p_positive  # (8 - 6) / 7
    (Fraction(2, 7), Fraction(1, 7))
    """
    from .setup import Setup

    setup = Setup.of_arguments(shoe=shoe, rules=rules, policy=policy, commission=commission, tie_pays=tie_pays, bets=bets, bets_toml=bets_toml)
    request, _ = depth_request(setup, cards_left, workers=workers, scheduler=scheduler, resume=resume)
    return run(request)
