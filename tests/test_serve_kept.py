"""A session's kept state (derived once from its log, then advanced by each entry) is exactly what a
replay of its log gives: after random sequences of entries on small shoes, field by field, and in
the answer a server started again on the same file gives; a second server on the same file sees the
first one's changes; two sessions fed at once answer what they answer one after the other."""

import threading

import pytest
from fastapi.responses import JSONResponse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact_odds.core.coup import play_coup
from exact_odds.errors import InputError
from exact_odds.serve import sessions
from exact_odds.serve.compute import plain
from exact_odds.serve.states import forget_sizing, keep_sizing, state_body, state_record
from exact_odds.commands.session import Settings
from exact_odds.serve.sessions import Event, coup_in_progress, replay, shoe_left
from exact_odds.serve.staking import Staking
from exact_odds.serve.store import Loaded, Store

SHOES = (Settings(shoe="A=3,2=2,5=3,9=3,K=4,7=2", burn="none", cut_card=6, bets="banker, player, tie, dragon_7"),
         Settings(shoe="A=2,4=2,6=2,8=3,T=3,Q=2", burn="punto_banco", bets="all"),
         Settings(shoe="As=2,9h=3,9d=1,Ks=3,5c=3,3h=2", suits=True, burn="none", bets="banker, player, tie, dragon_7"))
RANKS = "A 2 3 4 5 6 7 8 9 T Q K".split()
CARDS = "AS 9H 9D KS 5C 3H".split()
SEATS = ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3")


def coup_starts(events: list[Event]) -> list[int]:
    """The oracle of :attr:`Replay.starts`, read off the log: the cards out of the current shoe when each of its coups started."""
    starts: list[int] = []
    out, started = 0, False
    for event in events:
        if event.kind == "shoe":
            starts, out, started = [], 0, False
        elif event.kind == "card":
            if not started:
                starts.append(out)
                started = True
            out += 1
        elif event.kind == "burn":
            out += event.hidden + (event.card is not None)
        elif event.kind == "coup":
            started = False
    return starts


def entries(cards: list[str]) -> st.SearchStrategy[tuple[str, ...]]:
    card = st.sampled_from(cards)
    return st.one_of(
        st.tuples(st.just("card"), card), st.tuples(st.just("card"), card), st.tuples(st.just("card"), card),
        st.tuples(st.just("coup")), st.tuples(st.just("coup")), st.tuples(st.just("undo")), st.tuples(st.just("shoe")),
        st.tuples(st.just("burn"), card, st.integers(0, 2)), st.tuples(st.just("hidden"), st.integers(1, 2)),
        st.tuples(st.just("put_back"), card), st.tuples(st.just("correct"), st.sampled_from(SEATS), card),
        st.tuples(st.just("sizing")), st.tuples(st.just("no_sizing")))


def edit_of(entry: tuple[str, ...]) -> sessions.Edit:
    kind = entry[0]
    if kind == "card":
        return sessions.add_card(entry[1])
    if kind == "burn":
        return sessions.add_burn(entry[1], int(entry[2]))
    if kind == "hidden":
        return sessions.add_burn(None, int(entry[1]))
    if kind == "put_back":
        return sessions.put_back(entry[1])
    if kind == "correct":
        return sessions.correct(entry[1], entry[2])
    if kind == "sizing":
        return keep_sizing(Staking(bankroll="1000", kelly="1/2"))
    return {"coup": sessions.close_coup, "undo": sessions.undo, "shoe": sessions.new_shoe, "no_sizing": forget_sizing}[kind]


def check_kept(path: str, kept: Loaded) -> None:
    """``kept`` against a store opened again on the same file (its log replayed), field by field."""
    again = Store(path)
    try:
        fresh = again.load(kept.session)
    finally:
        again.close()
    table, state = kept.table, kept.state
    assert (kept.events, kept.version, kept.sizing) == (fresh.events, fresh.version, fresh.sizing)
    for name in ("shoe_number", "seen", "pending", "pending_events", "burned", "hidden", "burns", "coups", "events", "starts", "records"):
        assert getattr(state, name) == getattr(fresh.state, name), name
    assert state.starts == coup_starts(kept.events)
    assert shoe_left(table, state) == table.start.remove(fresh.state.seen)  # the description too
    assert coup_in_progress(table, state) == play_coup(fresh.state.pending, table.decisions)
    answer, expected = state_record(kept), state_record(fresh)
    for name in expected:
        assert answer[name] == expected[name], name
    assert answer.keys() == expected.keys()
    assert state_body(answer, state) == JSONResponse(plain(expected)).body  # byte for byte, the coups, roads and analysis encoded once


@pytest.mark.parametrize("table", range(len(SHOES)))
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_kept_state_is_the_replay_of_the_log(tmp_path_factory, table, data):
    path = str(tmp_path_factory.mktemp("kept") / "sessions.sqlite")
    store = Store(path)
    session = store.create(SHOES[table])
    steps = data.draw(st.lists(entries(CARDS if SHOES[table].suits else RANKS), min_size=5, max_size=30))
    for entry in steps:
        try:
            kept = store.change(session, edit_of(entry))
        except InputError:
            continue
        assert isinstance(kept, Loaded) and store.load(session) is kept  # kept, not read again
        check_kept(path, kept)
    store.close()


def test_a_second_server_on_the_same_file_sees_the_first_ones_changes(tmp_path):
    path = str(tmp_path / "sessions.sqlite")
    first, second = Store(path), Store(path)
    session = first.create(Settings(decks=1, burn="none"))
    first.change(session, sessions.add_card("9S"))
    assert [str(card) for card in second.load(session).state.seen] == ["9S"]
    first.change(session, sessions.add_card("5D"))
    first.change(session, sessions.undo)
    first.change(session, sessions.add_card("4D"))
    loaded = second.load(session)
    assert [str(card) for card in loaded.state.seen] == ["9S", "4D"] and loaded.version == 4
    assert shoe_left(loaded.table, loaded.state) == loaded.table.start.remove("9S 4D")


def test_two_sessions_fed_at_once_answer_as_one_after_the_other(tmp_path):
    cards = {"one": "9S 5D 9H 2C KD 3S".split(), "two": "AH 7C 8D 2S 5H 6C".split()}

    def feed(store: Store, session: str, name: str, answers: dict[str, list[dict[str, object]]]) -> None:
        for card in cards[name]:
            loaded = store.change(session, sessions.add_card(card))
            assert isinstance(loaded, Loaded)
            record = state_record(loaded)
            answers[name].append({key: value for key, value in record.items() if key != "id"})
            if record["coup_in_progress"]["complete"]:
                store.change(session, sessions.close_coup)

    settings_ = Settings(decks=1, burn="none", bets="all")
    apart: dict[str, list[dict[str, object]]] = {"one": [], "two": []}
    store = Store(str(tmp_path / "apart.sqlite"))
    for name in cards:
        feed(store, store.create(settings_), name, apart)
    sessions.ANALYSES.values.clear()
    together: dict[str, list[dict[str, object]]] = {"one": [], "two": []}
    store = Store(str(tmp_path / "together.sqlite"))
    workers = [threading.Thread(target=feed, args=(store, store.create(settings_), name, together)) for name in cards]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert together == apart and len(apart["one"]) == len(cards["one"])
