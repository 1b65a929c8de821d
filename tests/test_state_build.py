"""The state's layout is invisible: equality, hashing, pickling, copies and `replace` (issue 10).

`GameState` keeps its values in a compact layout (hands as bit masks, one shared
object per round, see ``mexican_train._state``) behind the attributes it always
had; whatever `apply` builds must behave as a plain frozen value.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    GameState,
    InvalidArgumentError,
    Train,
    legal_moves,
    new_game,
    view,
)
from strategies import played_positions


@given(played_positions())
def test_a_state_rebuilt_from_its_fields_is_equal(state: GameState) -> None:
    rebuilt = state.replace()
    assert rebuilt == state
    assert state == rebuilt
    assert hash(rebuilt) == hash(state)
    assert repr(rebuilt) == repr(state)
    assert [getattr(rebuilt, name) for name in GameState.FIELDS] == [
        getattr(state, name) for name in GameState.FIELDS
    ]
    assert legal_moves(rebuilt) == legal_moves(state)
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) is state  # immutable: a copy is the value itself


@given(played_positions())
def test_replace_changes_only_the_fields_named(state: GameState) -> None:
    changed = state.replace(scores=tuple(score + 1 for score in state.scores))
    assert changed != state
    assert changed.scores == tuple(score + 1 for score in state.scores)
    assert changed.hands == state.hands
    assert changed.trains == state.trains


@given(played_positions())
def test_s5_hand_sizes_are_the_sizes_of_the_hands_as_every_view_shows_them(
    state: GameState,
) -> None:
    assert state.hand_sizes == tuple(len(hand) for hand in state.hands)
    assert all(view(state, seat).hand_sizes == state.hand_sizes for seat in range(state.players))
    assert state.replace(hands=state.hands[::-1]).hand_sizes == state.hand_sizes[::-1]


def test_replace_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="no field 'colour'"):
        new_game(2, seed=1).replace(colour=3)


def test_replace_refuses_a_hand_that_lists_a_tile_twice() -> None:
    """A hand is a set (S5): the layout keeps it as bits, so a repeat is refused, not lost."""
    state = new_game(2, seed=1)
    hand = state.hand(0)
    with pytest.raises(InvalidArgumentError, match="hands\\[0\\] lists a tile twice"):
        state.replace(hands=((*hand, hand[0]), state.hand(1)))


@given(played_positions())
def test_every_state_and_train_apply_builds_is_frozen(state: GameState) -> None:
    with pytest.raises(AttributeError):
        state.turn_tiles = 3  # type: ignore[misc]
    for train in state.trains:
        with pytest.raises(AttributeError):
            train.marked = True  # type: ignore[misc]


def test_a_train_is_a_value() -> None:
    train = Train((), 7, True)
    assert train == Train((), 7, True)
    assert hash(train) == hash(Train((), 7, True))
    assert repr(train) == "Train(tiles=(), open_end=7, marked=True)"
    assert Train((), 7) == Train((), 7, marked=False)  # marked defaults to False
    assert pickle.loads(pickle.dumps(train)) == train
    assert train != (((), 7, True))


def test_a_state_hashes_alike_in_every_process() -> None:
    """hash() of a state is made of ints only: the same under any PYTHONHASHSEED."""
    code = (
        "from mexican_train import HUB, apply, legal_moves, new_game\n"
        "s = new_game(4, HUB, seed=3)\n"
        "for _ in range(30): s = apply(s, legal_moves(s)[-1])\n"
        "print(hash(s))"
    )
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(hashes) == 1
    state = new_game(4, HUB, seed=3)
    for _ in range(30):
        state = state_after(state)
    assert hashes == {f"{hash(state)}\n"}


def state_after(state: GameState) -> GameState:
    from mexican_train import apply

    return apply(state, legal_moves(state)[-1])
