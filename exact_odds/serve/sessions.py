"""Live shoe sessions: what a session is set up with, its log of events (kept in SQLite by
:mod:`.store`), and its state replayed from that log.

A session's log holds four kinds of event: a card dealt face up (``card``), a burn (``burn``: a
card turned face up, and a number of cards burned face down), the close of a coup (``coup``: the
cards dealt since the last one, settled by the tableau) and a new shoe (``shoe``). A change
(:data:`Edit`) adds entries, deletes them (undo, put back) or corrects a card in place; it is checked
against one account of the physical cards, dealt and burned, seen or face down. The shoe left is
the starting shoe less the cards seen; a card burned face down stays in it, unknown, which keeps
every probability exact over what was seen.

A session's state (:class:`Replay`) is derived from its log once and then advanced by each new entry
(:func:`advance`): the shoe left is computed once per entry (from the last one's), the coup in progress
dealt once, the analysis of the next coup made once per shoe left (:func:`analysis_of`). The log stays
the truth: :func:`replay` rebuilds the same state from it.

>>> table = table_of(Settings(decks=1))
>>> state = replay(table, [Event(1, "card", "9S", 0, ""), Event(2, "card", "5D", 0, "")])
>>> [str(card) for card in state.pending], shoe_left(table, state).size
(['9S', '5D'], 50)
"""

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal, get_args

from ..commands.session import Settings, Table, table_of
from ..commands.setup import TooLarge
from ..core.cards import RANKS, Card, parse_card, parse_cards
from ..core.coup import Coup, play_coup
from ..core.numbers import shown
from ..core.policy import Decisions
from ..core.shoe import CARD_NAMES, CARDS_PER_COUP, Shoe
from ..errors import InputError
from ..studies.dealing import coup_features, settle
from .compute import JSON_TEXT, Encoded, NextCoup, next_coup
from .recent import Recent

HIDDEN_BURN_NOTE = ("cards burned face down stay unknown: they are not taken out of the shoe left, which is exact over the cards seen "
                    "(a card not seen is as likely to be any card not seen, so it changes no probability); they count only towards the cut card")


class NotFound(InputError):
    """No session of that id (answered 404)."""


class Refused(InputError):
    """A change the session's state does not allow: a card the shoe no longer holds, a coup the
    tableau could not deal, nothing to undo (answered 409)."""


STATUS = ((NotFound, 404), (Refused, 409), (TooLarge, 413))


def status_of(error: InputError) -> int:
    """The HTTP status of a refusal: 404, 409, 413, else 422 (a value refused)."""
    return next((code for kind, code in STATUS if isinstance(error, kind)), 422)


@dataclass(frozen=True)
class Event:
    """One entry of a session's log."""

    seq: int
    kind: str
    card: str | None
    hidden: int
    at: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ClosedCoup:
    """A coup closed in a session: its shoe, its number in that shoe, the event that closed it, the coup."""

    shoe: int
    number: int
    seq: int
    coup: Coup


@dataclass
class Replay:
    """A session's state after its log: the current shoe's cards, and every coup closed (with, not
    compared, what is derived from them once: the shoe left, the coup in progress dealt, the roads)."""

    shoe_number: int = 1
    seen: list[Card] = field(default_factory=list)
    """The current shoe's cards seen, in order (dealt, and burned face up)."""
    pending: list[Card] = field(default_factory=list)
    """The cards dealt since the last coup was closed (the coup in progress)."""
    pending_events: list[int] = field(default_factory=list)
    burned: list[Card] = field(default_factory=list)
    hidden: int = 0
    burns: int = 0
    coups: list[ClosedCoup] = field(default_factory=list)
    events: int = 0
    starts: list[int] = field(default_factory=list)
    """The current shoe's cards out (dealt and burned, seen or not) when each of its coups started."""
    records: list[dict[str, Any]] = field(default_factory=list)
    """The current shoe's coups closed, as JSON (:func:`coup_record`)."""
    left: Shoe | None = field(default=None, compare=False)
    """The shoe left, once computed (:func:`shoe_left`)."""
    progress: Coup | None = field(default=None, compare=False)
    """The coup in progress, once dealt (:func:`coup_in_progress`)."""
    roads: dict[str, Any] | None = field(default=None, compare=False)
    """The current shoe's roads, once drawn (see :mod:`.banner`)."""
    encoded: dict[str, str] = field(default_factory=dict, compare=False)
    """The JSON text of the parts of the state that change only when a coup closes (the coups and
    the roads), once encoded (see :func:`.app.state_body`)."""

    def copy(self) -> "Replay":
        """A copy to advance (a state once answered is never changed: requests may read it at once)."""
        return replace(self, seen=list(self.seen), pending=list(self.pending), pending_events=list(self.pending_events),
                       burned=list(self.burned), coups=list(self.coups), starts=list(self.starts), records=list(self.records))

    @property
    def out(self) -> int:
        """The current shoe's physical cards out of it: dealt and burned, seen or face down."""
        return len(self.seen) + self.hidden


@lru_cache(maxsize=256)
def logged_card(text: str) -> Card:
    """A card of a log, read once per process."""
    return parse_card(text)


@lru_cache(maxsize=4096)
def settled(decisions: Decisions, cards: tuple[Card, ...]) -> Coup:
    """A coup a log closed, dealt once per process."""
    return play_coup(cards, decisions)


def advance(table: Table, state: Replay, event: Event) -> Replay:
    """The state after one more event (checked when it was added): ``state`` itself, changed, or a new
    shoe's. What was derived once is carried on: the shoe left one card less, the roads until a coup closes."""
    state.events += 1
    if event.kind == "shoe":
        return Replay(state.shoe_number + 1, coups=state.coups, events=state.events)
    card = logged_card(event.card) if event.card is not None else None
    if card is not None:
        state.left = None if state.left is None else less(table, state.left, card, state.seen)
        state.seen.append(card)
    if event.kind == "card" and card is not None:
        if not state.pending:
            state.starts.append(state.out - 1)
        state.pending.append(card)
        state.pending_events.append(event.seq)
        state.progress = None
    elif event.kind == "burn":
        state.burns += 1
        state.hidden += event.hidden
        if card is not None:
            state.burned.append(card)
    elif event.kind == "coup":
        closed = ClosedCoup(state.shoe_number, len(state.records) + 1, event.seq, settled(table.decisions, tuple(state.pending)))
        state.coups.append(closed)
        state.records.append(coup_record(closed, table))
        state.pending, state.pending_events, state.progress, state.roads, state.encoded = [], [], None, None, {}
    return state


def less(table: Table, left: Shoe, card: Card, seen: Sequence[Card]) -> Shoe:
    """The shoe ``left`` after ``seen`` less one more ``card``: what ``table.start.remove([*seen, card])``
    is, its description included (``START less CARD CARD ...``), from one card's removal."""
    before = left.description if seen else f"{table.start.description} less"
    return replace(left.remove([card]), description=f"{before} {card}")


def replay(table: Table, events: Sequence[Event]) -> Replay:
    """The state after ``events``."""
    state = Replay()
    for event in events:
        state = advance(table, state, event)
    return state


def shoe_left(table: Table, state: Replay) -> Shoe:
    """The starting shoe less every card seen in the current shoe (the cards burned face down are not
    known, and stay): computed once for a state."""
    if state.left is None:
        state.left = table.start.remove(state.seen)
    return state.left


def coup_in_progress(table: Table, state: Replay) -> Coup:
    """The cards dealt since the last coup closed, dealt by the tableau: once for a state."""
    if state.progress is None:
        state.progress = play_coup(state.pending, table.decisions)
    return state.progress


def entered(text: str, table: Table) -> Card:
    """A card as entered: a rank, or a rank and suit (a suit is needed when the session enters suits)."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise InputError(f"give one card, such as 9, T or 9h, not {shown(text)}")
    card = cards[0]
    if table.settings.suits and card.suit is None:
        raise InputError(f"this session enters cards with their suits (its bets read them): give {card} with a suit, e.g. {card}S")
    return card


def coup_words(coup: Coup) -> str:
    winner = "tie" if coup.winner == "tie" else f"{coup.winner} wins"
    return f"player {coup.player_total}, banker {coup.banker_total}: {winner}"


def cards_in_shoe(table: Table, state: Replay) -> int:
    """The physical cards still in the current shoe: the start less every card dealt or burned, seen or not."""
    return table.start.size - state.out


def out_of(table: Table, state: Replay) -> str:
    """How the cards left are counted, in words."""
    hidden = f", {state.hidden} of them face down" if state.hidden else ""
    return f"{table.start.size} less {state.out} dealt or burned{hidden}"


def check_room(table: Table, state: Replay, cards: int, what: str) -> None:
    """Refuse ``what``, which takes ``cards`` physical cards, when the shoe has fewer left: what is
    dealt and burned, seen or face down, never exceeds the shoe."""
    left = cards_in_shoe(table, state)
    if cards > left:
        raise Refused(f"{what} would take {cards} card{'s' * (cards != 1)}, and the shoe has {left} left ({out_of(table, state)})")


Seat = Literal["player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3"]
SEATS: tuple[Seat, ...] = get_args(Seat)
"""The seats of a coup's cards, in the order of the tableau's first four (then the third cards)."""


def seats(coup: Coup) -> list[str]:
    """The seat of each card of ``coup`` in shoe order: the first four alternate, the player's third
    card comes before the banker's.

    >>> from exact_odds.core.policy import resolve
    >>> from exact_odds.core.rules import PRESETS
    >>> seats(play_coup(parse_cards("2 3 K 4 7"), resolve(PRESETS["punto_banco"])))
    ['player_1', 'banker_1', 'player_2', 'banker_2', 'player_3']
    """
    thirds = ["player_3"] * (len(coup.player) == 3) + ["banker_3"] * (len(coup.banker) == 3)
    return [*SEATS[:min(coup.cards_used, 4)], *thirds]


def check_held(table: Table, state: Replay, card: Card) -> None:
    """Refuse a card the shoe left does not hold. A card with a suit is counted against the starting
    shoe's cards of that suit seen so far, as replaying the log counts it: the shoe left forgets the
    suits once a card without one is seen (a session without suits takes both)."""
    left = shoe_left(table, state)
    try:
        left.remove([card])
    except InputError as error:
        raise Refused(str(error)) from None
    counts = table.start.card_counts  # (a shoe left with its suits has checked the card's own count: every session with suits)
    if card.suit is not None and counts is not None and left.card_counts is None and state.seen.count(card) >= counts[CARD_NAMES.index(str(card))]:
        raise Refused(f"cannot remove {card}: the shoe holds no more {card}")


def check_card(table: Table, state: Replay, card: Card) -> None:
    """Refuse a card the shoe left does not hold, or one the coup in progress cannot take."""
    check_room(table, state, 1, f"the card {card}")
    check_held(table, state, card)
    coup = coup_in_progress(table, state)
    if coup.complete:
        raise Refused(f"the coup in progress is settled after {coup.cards_used} cards ({coup_words(coup)}): close it before the next card")
    try:
        play_coup([*state.pending, card], table.decisions)
    except InputError as error:
        raise Refused(str(error)) from None


def check_close(table: Table, state: Replay) -> None:
    """Refuse to close a coup that the tableau could not have dealt from the cards since the last one."""
    if not state.pending:
        raise Refused("no card has been dealt since the last coup: there is no coup to close")
    coup = coup_in_progress(table, state)
    if not coup.complete:
        cards = " ".join(map(str, state.pending))
        rule = f" ({coup.steps[-1]})" if coup.cards_used >= 4 and coup.steps else ""
        raise Refused(f"the cards {cards} are not a whole coup by the tableau{rule}: it needs another card")


def burn_count(card: Card) -> int:
    """How many cards Punto Banco burns face down after turning ``card``: its value, tens and faces 10."""
    return card.value or 10


def check_burn(table: Table, state: Replay, card: Card | None, hidden: int | None) -> int:
    """Refuse a burn inside a coup or of a card the shoe left does not hold; the number burned face
    down (by the burn procedure when not given)."""
    if state.pending:
        raise Refused("a burn comes between coups: close the coup in progress (or undo its cards) first")
    if card is not None:
        check_held(table, state, card)
    if hidden is None:
        shoe_burn = card is not None and table.settings.burn == "punto_banco" and state.burns == 0 and not state.seen
        hidden = burn_count(card) if card is not None and shoe_burn else 0
    what = f"the burn card {card} and {hidden} face down" if card is not None and hidden else \
        f"the burn card {card}" if card is not None else f"burning {hidden} face down"
    check_room(table, state, hidden + (card is not None), what)
    return hidden


def matches(card: Card, wanted: Card) -> bool:
    return card.rank == wanted.rank and (wanted.suit is None or card.suit == wanted.suit)


def put_back_event(state: Replay, wanted: Card) -> int:
    """The log entry of the latest card dealt since the last coup that matches ``wanted`` (a rank
    matches any suit of it)."""
    for card, seq in zip(reversed(state.pending), reversed(state.pending_events)):
        if matches(card, wanted):
            return seq
    raise Refused(f"no {wanted} has been dealt since the last coup: only those cards can be put back (undo takes back the last entry)")


def coup_record(closed: ClosedCoup, table: Table, results: bool = False) -> dict[str, Any]:
    """A closed coup as JSON: cards, totals, the winner, naturals (and, with ``results``, each bet's
    net win per unit staked, an exact fraction)."""
    coup = closed.coup
    naturals = table.decisions.rules.naturals
    record: dict[str, Any] = {
        "shoe": closed.shoe, "number": closed.number, "seq": closed.seq,
        "player": [str(card) for card in coup.player], "banker": [str(card) for card in coup.banker],
        "player_total": coup.player_total, "banker_total": coup.banker_total, "winner": coup.winner,
        "natural": any(sum(card.value for card in hand[:2]) % 10 in naturals for hand in (coup.player, coup.banker)),
    }
    if results:
        columns = coup_features(coup, table.decisions)
        record["results"] = {bet.name: str(settle(bet, columns)) for bet in table.bets}
    return record


ANALYSES_KEPT = 64
ANALYSES: "Recent[tuple[Settings, Shoe], NextCoup]" = Recent(ANALYSES_KEPT)
"""The analyses of the latest shoes left, by settings and shoe left (two sessions, or an undo and the card again, share them)."""


def analysis_of(table: Table, state: Replay) -> NextCoup:
    """The analysis of the next coup from the shoe left: exactly ``baccarat-odds --format json``
    for the same shoe (``--remove`` the cards seen), rules, policy and bets (kept for a few shoes);
    refused when fewer cards are physically left than a coup may take."""
    left = cards_in_shoe(table, state)
    if left < CARDS_PER_COUP and state.hidden:
        raise InputError(f"the shoe has {left} cards left ({out_of(table, state)}); a coup needs a shoe of at least {CARDS_PER_COUP}")
    shoe = shoe_left(table, state)
    key = (table.settings, shoe)
    kept = ANALYSES.get(key)
    if kept is not None:
        return kept
    return ANALYSES.put(key, next_coup(table, shoe.checked()))


@lru_cache(maxsize=ANALYSES_KEPT)
def settings_text(settings: Settings) -> Encoded:
    """A session's settings as JSON text, encoded once (they never change)."""
    return Encoded(JSON_TEXT(settings.to_dict()))


def session_state(session: str, table: Table, state: Replay) -> tuple[dict[str, Any], NextCoup | None]:
    """What a session shows (the shoe left, the coup in progress, the coups, the analysis of the next
    coup: its record as JSON text, :class:`.compute.Encoded`), and that analysis (None: refused, as
    the record says)."""
    shoe = shoe_left(table, state)
    settings = table.settings
    dealt = state.out
    cut = None
    if settings.cut_card is not None:
        at = table.start.size - settings.cut_card
        cut = {"cards_behind": settings.cut_card, "at": at, "cards_to_cut": max(0, at - dealt), "reached": dealt >= at}
    progress = coup_in_progress(table, state) if state.pending else None
    try:
        analysis: NextCoup | None = analysis_of(table, state)
        refused = None
    except InputError as error:
        analysis, refused = None, str(error)
    return {
        "id": session,
        "settings": settings_text(settings),
        "shoe_number": state.shoe_number,
        "events": state.events,
        "shoe": {
            "description": shoe.description,
            "start": table.start.description,
            "start_cards": table.start.size,
            "cards_left": shoe.size,
            "rank_counts": dict(zip(RANKS, shoe.rank_counts)),
            "card_counts": dict(zip(CARD_NAMES, shoe.card_counts)) if shoe.card_counts is not None and settings.suits else None,
            "seen": [str(card) for card in state.seen],
            "cards_dealt": dealt,
            "cards_in_shoe": table.start.size - dealt,
            "hidden_burns": state.hidden,
            "counter": {"start": table.start.size, "in_shoe": table.start.size - dealt, "dealt": len(state.seen) - len(state.burned),
                        "burned_seen": len(state.burned), "burned_hidden": state.hidden},
            "note": HIDDEN_BURN_NOTE,
        },
        "burn": {"procedure": settings.burn, "pending": settings.burn == "punto_banco" and state.burns == 0 and not state.seen,
                 "seen": [str(card) for card in state.burned], "hidden": state.hidden},
        "cut_card": cut,
        "coup_in_progress": None if progress is None else {
            "cards": [str(card) for card in state.pending],
            "seats": dict(zip(seats(progress), map(str, state.pending))),
            "player": [str(card) for card in progress.player], "banker": [str(card) for card in progress.banker],
            "player_total": progress.player_total, "banker_total": progress.banker_total,
            "complete": progress.complete, "winner": progress.winner, "steps": list(progress.steps),
        },
        "coups": list(state.records),
        "coups_in_all_shoes": len(state.coups),
        "analysis": None if analysis is None else analysis.record,
        "analysis_refused": refused,
        "positive": [] if analysis is None else list(analysis.positive),
    }, analysis


@dataclass(frozen=True)
class Change:
    """What a change does to a session: the log entries it deletes (by ``seq``), the entries it
    adds (kind, card, hidden), the cards it replaces in place (``seq``, card), and the sizing
    settings it keeps (``sizing``, None to forget them) when ``sets_sizing``."""

    deleted: tuple[int, ...] = ()
    added: tuple[tuple[str, str | None, int], ...] = ()
    replaced: tuple[tuple[int, str], ...] = ()
    sets_sizing: bool = False
    sizing: dict[str, Any] | None = None


Edit = Callable[[Table, list[Event], Replay], Change]
"""A change to a session: given its table, log and state, the :class:`Change`, or a refusal."""


def add_card(text: str) -> Edit:
    def edit(table: Table, events: list[Event], state: Replay) -> Change:
        card = entered(text, table)
        check_card(table, state, card)
        return Change(added=(("card", str(card), 0),))
    return edit


def add_burn(text: str | None, hidden: int | None) -> Edit:
    def edit(table: Table, events: list[Event], state: Replay) -> Change:
        card = entered(text, table) if text is not None else None
        if card is None and not hidden:
            raise InputError("a burn names the card turned face up (card), or how many cards were burned face down (hidden), or both")
        return Change(added=(("burn", None if card is None else str(card), check_burn(table, state, card, hidden)),))
    return edit


def close_coup(table: Table, events: list[Event], state: Replay) -> Change:
    check_close(table, state)
    return Change(added=(("coup", None, 0),))


def new_shoe(table: Table, events: list[Event], state: Replay) -> Change:
    if state.pending:
        raise Refused("a coup is in progress: close it (or undo its cards) before a new shoe")
    return Change(added=(("shoe", None, 0),))


def undo(table: Table, events: list[Event], state: Replay) -> Change:
    if not events:
        raise Refused("nothing to undo: the session's log is empty")
    return Change(deleted=(events[-1].seq,))


def put_back(text: str) -> Edit:
    """Take out a card entered that was not dealt (an extra tap): the cards after it move up a seat
    (to change a card that was dealt, :func:`correct` it)."""
    def edit(table: Table, events: list[Event], state: Replay) -> Change:
        cards = parse_cards(text)
        if len(cards) != 1:
            raise InputError(f"give one card, such as 9, T or 9h, not {shown(text)}")
        seq = put_back_event(state, cards[0])
        later = replay(table, [event for event in events if event.seq != seq])
        try:
            coup = play_coup(later.pending, table.decisions)
        except InputError as error:
            raise Refused(str(error)) from None
        if coup.cards_used < len(later.pending):
            raise Refused(f"without {cards[0]} the cards since the last coup are more than a coup: undo the cards after it instead")
        return Change(deleted=(seq,))
    return edit


def correct(seat: str, text: str) -> Edit:
    """Replace the card at ``seat`` of the coup in progress (``player_2``: the player's second card)
    by the card dealt there, every other card kept in its seat; refused when the new card would move
    a later card to another seat, or leave more cards than the coup takes."""
    def edit(table: Table, events: list[Event], state: Replay) -> Change:
        card = entered(text, table)
        before = seats(coup_in_progress(table, state))
        if seat not in before:
            dealt = ", ".join(f"{name} {dealt}" for name, dealt in zip(before, state.pending)) or "none"
            raise Refused(f"the coup in progress has no card at {seat} (its cards: {dealt}): only those can be corrected "
                          "(to correct a coup closed, undo its close first)")
        index = before.index(seat)
        old = state.pending[index]
        others = state.seen[:len(state.seen) - len(state.pending) + index] + state.seen[len(state.seen) - len(state.pending) + index + 1:]
        try:
            table.start.remove([*others, card])
        except InputError as error:
            raise Refused(f"{card} at {seat} in place of {old}: {error}") from None
        cards = [card if position == index else dealt for position, dealt in enumerate(state.pending)]
        try:
            coup = play_coup(cards, table.decisions)
        except InputError as error:
            raise Refused(str(error)) from None
        extra = len(cards) - coup.cards_used
        if extra:
            raise Refused(f"with {card} at {seat} the coup is settled after {coup.cards_used} cards ({coup_words(coup)}), and "
                          f"{extra} more {'was' if extra == 1 else 'were'} entered: undo {'it' if extra == 1 else 'them'} first")
        moved = [f"{dealt} would move from {first} to {second}" for dealt, first, second in zip(cards, before, seats(coup)) if first != second]
        if moved:
            raise Refused(f"with {card} at {seat} the card {moved[0]}: a correction keeps every other card in its seat "
                          "(undo the cards after it, and enter them again)")
        return Change(replaced=((state.pending_events[index], str(card)),))
    return edit


EXPORT_COLUMNS = ("shoe", "seq", "at", "kind", "card", "hidden_burns", "coup", "player", "banker", "player_total", "banker_total", "winner")


def export(session: str, created: str, table: Table, events: list[Event], fmt: str) -> str | dict[str, Any]:
    """The whole session: as JSON (settings, log, every coup with each bet's result) or as CSV (one row per log entry)."""
    state = replay(table, events)
    coups = {closed.seq: coup_record(closed, table, results=True) for closed in state.coups}
    if fmt == "json":
        return {"id": session, "created": created, "settings": table.settings.to_dict(), "bets": [bet.name for bet in table.bets],
                "events": [event.to_dict() for event in events], "coups": list(coups.values())}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    shoe = 1
    for event in events:
        shoe += event.kind == "shoe"
        coup = coups.get(event.seq)
        row = [shoe, event.seq, event.at, event.kind, event.card or "", event.hidden]
        row += [coup["number"], " ".join(coup["player"]), " ".join(coup["banker"]), coup["player_total"], coup["banker_total"], coup["winner"]] if coup else [""] * 6
        writer.writerow(row)
    return out.getvalue()
