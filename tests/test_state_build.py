"""The engine's fast builders make the same states as the attrs constructors (issue 7).

`apply` builds every `GameState` and `Train` without attrs' ``__init__`` (see
``mexican_train._state._state``); whatever it builds must be indistinguishable
from a value built the ordinary way, hash cache and legal-moves cache included.
"""

from __future__ import annotations

import pickle
import weakref

import attrs
import pytest
from hypothesis import given

from mexican_train import GameState, Train, legal_moves
from mexican_train._state import _state, _train
from strategies import played_positions


def _init_values(value: GameState | Train) -> list[object]:
    return [getattr(value, f.name) for f in attrs.fields(type(value)) if f.init]


@given(played_positions())
def test_a_built_state_is_the_state_attrs_would_build(state: GameState) -> None:
    values = _init_values(state)
    built, ordinary = _state(*values), GameState(*values)  # type: ignore[arg-type]
    assert type(built) is GameState
    assert _init_values(built) == values
    assert built == ordinary
    assert ordinary == built
    assert hash(built) == hash(ordinary)
    assert repr(built) == repr(ordinary)
    assert attrs.asdict(built, recurse=False) == attrs.asdict(ordinary, recurse=False)
    assert built._legal is None  # not computed yet: legal_moves computes it
    assert legal_moves(built) == legal_moves(state)
    assert attrs.evolve(built) == state
    assert pickle.loads(pickle.dumps(built)) == state
    assert weakref.ref(built)() is built


@given(played_positions())
def test_every_state_and_train_apply_builds_is_frozen(state: GameState) -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn_tiles = 3  # type: ignore[misc]
    for train in state.trains:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            train.marked = True  # type: ignore[misc]


def test_a_built_train_is_the_train_attrs_would_build() -> None:
    train = _train((), 7, True)
    assert type(train) is Train
    assert train == Train((), 7, True)
    assert hash(train) == hash(Train((), 7, True))
    assert repr(train) == "Train(tiles=(), open_end=7, marked=True)"
    assert _train((), 7) == Train((), 7)  # marked defaults to False, as in Train
