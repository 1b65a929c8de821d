"""Game records: rules + seed (or the first deal) + moves; replay re-applies every move."""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    STANDARD,
    Deal,
    DealError,
    Draw,
    GameRecord,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Move,
    NextRound,
    Pass,
    ReplayError,
    apply,
    legal_moves,
    new_game,
    record,
    replay,
    replay_states,
)
from mexican_train._core.bounds import BOUNDS
from strategies import dealt_games, recorded_games, variant_tables


def play(start: GameState, moves: list[Move]) -> list[GameState]:
    states = [start]
    for move in moves:
        states.append(apply(states[-1], move))
    return states


@given(recorded_games())
def test_replay_rebuilds_every_state_presets(game: tuple[GameState, list[Move]]) -> None:
    start, moves = game
    made = record(start, moves)
    assert made.deal is None
    assert list(replay_states(made)) == play(start, moves)
    assert replay(made) == play(start, moves)[-1]


@given(recorded_games(tables=variant_tables(), max_moves=200))
def test_replay_rebuilds_the_game_under_variants(game: tuple[GameState, list[Move]]) -> None:
    start, moves = game
    assert replay(record(start, moves)) == play(start, moves)[-1]


@given(dealt_games())
def test_a_game_from_an_explicit_deal_is_recorded_with_its_deal(
    game: tuple[GameState, list[Move]],
) -> None:
    """S3: even when players drew the engine from the boneyard, the record rebuilds the start."""
    start, moves = game
    made = record(start, moves)
    assert made.start() == start
    assert replay(made) == play(start, moves)[-1]


def test_s3_a_deal_where_nobody_holds_the_engine_is_recovered() -> None:
    rules = attrs.evolve(STANDARD, max_pip=3, hand_size=3)
    deal = Deal([["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0", "3-3", "3-1"])
    start = new_game(2, rules, seed=1, deal=deal)
    assert start.first_player == 0  # seats drew 0-0 (seat 0), 2-0 (seat 1), 3-3 (seat 0)
    made = record(start)
    assert made.deal is not None
    assert made.start() == start


def test_a_tampered_record_is_refused_with_the_move_number() -> None:
    state = new_game(3, HUB, seed=8)
    moves = []
    for _ in range(12):
        moves.append(legal_moves(state)[-1])
        state = apply(state, moves[-1])
    tampered = attrs.evolve(
        record(new_game(3, HUB, seed=8), moves), moves=(*moves[:7], NextRound())
    )
    with pytest.raises(ReplayError) as caught:
        replay(tampered)
    assert caught.value.move_number == 8
    assert caught.value.move is NextRound()
    assert "E4" in caught.value.reason
    assert isinstance(caught.value.__cause__, IllegalMoveError)


def test_replay_states_yields_up_to_the_bad_move() -> None:
    game = GameRecord(2, HUB, seed=5, moves=(Draw(), Pass()))
    states = replay_states(game)
    assert next(states) == new_game(2, HUB, seed=5)
    with pytest.raises(ReplayError) as caught:
        next(states)
    assert caught.value.move_number == 1


def test_a_move_after_the_game_is_over_is_refused() -> None:
    rules = attrs.evolve(HUB, max_pip=3, hand_size=3, rounds=1)
    state = new_game(2, rules, seed=2)
    moves = []
    while not state.is_over:
        moves.append(legal_moves(state)[0])
        state = apply(state, moves[-1])
    with pytest.raises(ReplayError) as caught:
        replay(GameRecord(2, rules, 2, moves=(*moves, NextRound())))
    assert caught.value.move_number == len(moves) + 1


def test_a_record_whose_start_cannot_be_dealt_fails_at_move_0() -> None:
    deal = Deal([["6-5"], ["4-4"]], [])
    with pytest.raises(ReplayError) as caught:
        replay(GameRecord(2, HUB, 1, deal))
    assert caught.value.move_number == 0
    assert caught.value.move is None
    assert isinstance(caught.value.__cause__, DealError)


def test_record_needs_a_first_state() -> None:
    state = new_game(2, HUB, seed=5)
    later = apply(state, legal_moves(state)[0])
    with pytest.raises(ValueError, match="first state"):
        record(later)
    with pytest.raises(TypeError):
        record("start")  # type: ignore[arg-type]


@given(recorded_games(max_moves=120) | dealt_games())
def test_record_refuses_every_later_state(game: tuple[GameState, list[Move]]) -> None:
    """Only a first state has a record of its own: any state after a move is refused."""
    start, moves = game
    for state in play(start, moves)[1:]:
        with pytest.raises(InvalidArgumentError, match="needs a first state"):
            record(state)


def test_p5_record_refuses_the_state_after_a_pass_that_moved_no_tile() -> None:
    """P5 with an empty boneyard: the first player passes at once; hands and boneyard are
    as dealt, so only the comparison with the dealt start tells the states apart."""
    rules = attrs.evolve(HUB, max_pip=3, hand_size=3)
    deal = Deal([["1-0", "2-1", "2-2"], ["3-0", "3-1", "3-2"], ["0-0", "1-1", "2-0"]], [])
    start = new_game(3, rules, seed=1, deal=deal)
    assert legal_moves(start) == (Pass(),)
    after = apply(start, Pass())
    assert (after.hands, after.boneyard) == (start.hands, start.boneyard)
    assert record(start, [Pass()]).deal == deal
    with pytest.raises(InvalidArgumentError, match="needs a first state"):
        record(after)


def test_record_checks_the_moves() -> None:
    with pytest.raises(ReplayError):
        record(new_game(2, HUB, seed=5), [Pass()])


def test_game_record_checks_its_fields() -> None:
    with pytest.raises(TypeError):
        GameRecord(2, HUB, seed=1, moves=("draw",))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        GameRecord(2, "hub", seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"GameRecord\.rules must be a Rules, not None"):
        GameRecord(2, None, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        GameRecord(True, HUB, seed=1)
    with pytest.raises(TypeError):
        replay("game")  # type: ignore[arg-type]


def test_a_record_is_a_frozen_value() -> None:
    game = GameRecord(2, HUB, 1, moves=[Draw()])
    assert game.moves == (Draw(),)
    assert game == GameRecord(2, HUB, 1, moves=(Draw(),))
    assert hash(game) == hash(GameRecord(2, HUB, 1, moves=(Draw(),)))


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("draw", "GameRecord.moves is a list of moves, not 'draw'"),
        (b"d", "GameRecord.moves is a list of moves, not b'd'"),
        (5, "GameRecord.moves is a list of moves, not 5"),
        ([Draw(), "pass"], "GameRecord.moves[1] is not a move: 'pass'"),
    ],
)
def test_game_record_names_what_is_wrong_with_its_moves(moves: object, message: str) -> None:
    """A string is not read as a list of one-letter moves; a bad move is named by its index."""
    with pytest.raises(TypeError, match=re.escape(message)):
        GameRecord(2, HUB, 1, moves=moves)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [0, -1, BOUNDS["players"].high + 1])
def test_game_record_refuses_a_player_count_out_of_bounds(players: int) -> None:
    with pytest.raises(InvalidArgumentError, match=r"GameRecord\.players is a whole number from 1"):
        GameRecord(players, HUB, 1)
