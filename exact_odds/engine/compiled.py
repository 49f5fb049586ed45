"""The compiled single-shoe evaluator: distributions read off the compiled tables of
:mod:`exact_odds.engine.tables` (built once per process and rule set), weighed for one shoe by
:mod:`exact_odds.engine.kernel`. The plain enumerator (:mod:`exact_odds.engine.enumerator`) is the reference it
is tested against.

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> FastEngine().coups(Shoe.decks(8), resolve(PUNTO_BANCO), {}).outcome_counts()["banker"]
2292252566437888
"""

from ..bets.bets import Bet
from .distribution import Distribution
from ..core.features import COUNTED, Levels, shoe_counts
from ..core.policy import Decisions
from ..core.shoe import Shoe
from .store import card_table, coup_table
from .slots import slot_distribution
from .tables import shoe_support, tracked_key
from .events import cached_basis


class FastEngine:
    """Coup distributions (with any tracked card slots) and first-card distributions from compiled tables."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels, bets: tuple[Bet, ...] | None = None,
              faces: frozenset[str] | None = None) -> Distribution:
        """The coups of the shoe. With card slots tracked (and no counts): weighed by the pattern of
        their values, each split into classes (:func:`~exact_odds.engine.slots.slot_distribution`); a slot
        not in ``faces`` (else the slots whose face the bets read) is told apart by its mark alone. Else
        from a table (one that counts cards alone is built, given the bets, with the events they
        and the winner tell apart as rows; one that tracks slots too, for the cards the shoe
        holds); given the bets to settle, its rows are the events they (and the winner) tell apart
        (:mod:`exact_odds.engine.events`): far fewer to weigh and to settle."""
        if tracked and not any(key.startswith(COUNTED) for key in tracked):
            if faces is None and bets is not None:
                faces = frozenset().union(*(row.condition.faces for bet in bets for row in bet.rows))
            return slot_distribution(shoe, decisions, tracked, faces)
        table = coup_table(decisions, tracked_key(tracked), shoe_support(shoe) if tracked else None, bets if tracked else None)
        if bets is None:
            return table.distribution(shoe)
        basis = cached_basis(table, bets, winner=True)
        return table.distribution(shoe, basis.entries, basis.columns, basis.settlements)

    def cards(self, shoe: Shoe, tracked: Levels, bets: tuple[Bet, ...] = ()) -> Distribution:
        """The first cards' distribution: in closed form by pattern when every bet allows it
        (:mod:`exact_odds.engine.patterns`), else from the table of every draw of the classes of
        cards the bets tell apart (:func:`~exact_odds.engine.patterns.card_partition`)."""
        from .patterns import card_partition, pattern_form  # here only: the coups of a cached table need not import it

        key = tracked_key(tracked)
        form = pattern_form(key, bets) if bets else None
        if form is not None:
            return form.distribution(shoe, shoe_counts(shoe, form.fine))
        return card_table(key, card_partition(key, bets)).distribution(shoe)
