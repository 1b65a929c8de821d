"""A mutation fuzz of every reader: hostile input lets only the library's typed errors out.

Each reader -- JSON state, view, move, record and event; notation move and state -- is
fed valid input mutated as an attacker would (`strategies.hostile_documents`,
`strategies.hostile_texts`: fields deleted, duplicated or retyped, huge and negative
numbers, deep nesting, swapped tiles, truncated text).  It must refuse with its own
error (`SchemaError`, `NotationError`), or return a value that is itself sound: it
round-trips, and a state passes the conformance kit.  `.ci/run` runs this file under
the ``ci`` profile.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mexican_train import (
    GameRecord,
    GameState,
    Move,
    NotationError,
    PlayerView,
    format_move,
    format_state,
    legal_moves,
    parse_move,
    parse_state,
    spectator_view,
    view,
)
from mexican_train.events import apply_with_events
from mexican_train.serialize import (
    SchemaError,
    event_from_json,
    move_from_json,
    record_from_json,
    state_from_json,
    to_json,
    view_from_json,
)
from mexican_train.testing import check_invariants
from strategies import (
    hostile_documents,
    hostile_texts,
    positions,
    recorded_games,
    variant_tables,
)


def read(reader: Any, document: object) -> object:
    """Return what *reader* returns, or the SchemaError it raises: nothing else may escape."""
    try:
        return reader(document)
    except SchemaError as error:
        refusal = error
    assert refusal.path.startswith("$")
    return refusal


def parse(reader: Any, text: str) -> object:
    """Return what *reader* returns, or the NotationError it raises: nothing else may escape."""
    try:
        return reader(text)
    except NotationError as error:
        refusal = error
    assert 1 <= refusal.column <= len(text) + 1
    return refusal


@given(positions(tables=variant_tables(), max_moves=150), st.data())
def test_fuzz_state_json(state: GameState, data: st.DataObject) -> None:
    result = read(state_from_json, data.draw(hostile_documents(to_json(state))))
    if isinstance(result, GameState):
        assert state_from_json(to_json(result)) == result
        check_invariants(result)


@given(positions(tables=variant_tables(), max_moves=150), st.data())
def test_fuzz_view_json(state: GameState, data: st.DataObject) -> None:
    seat = data.draw(st.none() | st.integers(0, state.players - 1))
    shown = spectator_view(state) if seat is None else view(state, seat)
    result = read(view_from_json, data.draw(hostile_documents(to_json(shown))))
    if isinstance(result, PlayerView):
        assert view_from_json(to_json(result)) == result
        legal_moves(result)


@given(positions(max_moves=150), st.data())
def test_fuzz_move_json(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    move = data.draw(st.sampled_from(legal_moves(state)))
    result = read(move_from_json, data.draw(hostile_documents(to_json(move))))
    if not isinstance(result, SchemaError):
        assert move_from_json(to_json(result)) == result  # type: ignore[arg-type]


@given(recorded_games(max_moves=60), st.data())
def test_fuzz_record_json(game: tuple[GameState, list[Move]], data: st.DataObject) -> None:
    start, moves = game
    record = GameRecord(start.players, start.rules, start.seed, moves=tuple(moves))
    result = read(record_from_json, data.draw(hostile_documents(to_json(record))))
    if isinstance(result, GameRecord):
        assert record_from_json(to_json(result)) == result


@given(positions(max_moves=150), st.data())
def test_fuzz_event_json(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    _, events = apply_with_events(state, data.draw(st.sampled_from(legal_moves(state))))
    event = data.draw(st.sampled_from(events))
    result = read(event_from_json, data.draw(hostile_documents(to_json(event))))
    if not isinstance(result, SchemaError):
        assert event_from_json(to_json(result)) == result  # type: ignore[arg-type]


@given(positions(max_moves=150), st.data())
def test_fuzz_move_notation(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    move = data.draw(st.sampled_from(legal_moves(state)))
    result = parse(parse_move, data.draw(hostile_texts(format_move(move))))
    if not isinstance(result, NotationError):
        assert parse_move(format_move(result)) == result  # type: ignore[arg-type]


@given(positions(tables=variant_tables(), max_moves=150), st.data())
def test_fuzz_state_notation(state: GameState, data: st.DataObject) -> None:
    result = parse(parse_state, data.draw(hostile_texts(format_state(state))))
    if isinstance(result, GameState):
        assert parse_state(format_state(result)) == result
        check_invariants(result)
