"""The state's layout is invisible: equality, hashing, pickling, copies and `replace`.

`GameState` keeps its values in a compact layout (hands as bit masks, one shared
object per round, see ``mexican_train._core.state``) behind the attributes it always
had; whatever `apply` builds must behave as a plain frozen value.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
from typing import Any

import pytest
from hypothesis import given

from child_processes import printed_under_hash_seed
from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    GameState,
    InvalidArgumentError,
    Play,
    Rules,
    Train,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train._core.state import _KINDS
from mexican_train.variants import get_variant
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
        new_game(2, seed=1).replace(colour=3)  # type: ignore[call-arg]


def test_replace_refuses_a_hand_that_lists_a_tile_twice() -> None:
    """A hand is a set (S5): the layout keeps it as bits, so a repeat is refused, not lost."""
    state = new_game(2, seed=1)
    hand = state.hand(0)
    with pytest.raises(InvalidArgumentError, match="hands\\[0\\] lists a tile twice"):
        state.replace(hands=((*hand, hand[0]), state.hand(1)))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand_size": "15"}, "hand_size is a whole number, not '15'"),
        ({"players": True}, "players is a whole number, not True"),
        ({"round_number": None}, "round_number is a whole number, not None"),
        ({"current_player": 1.0}, "current_player is a whole number, not 1.0"),
        ({"has_drawn": 1}, "has_drawn is True or False, not 1"),
        ({"scores": 7}, "scores is a tuple, not 7"),
        ({"scores": (0, "1")}, "scores[1] is a whole number, not '1'"),
        ({"round_scores": ((0, 1.5),)}, "round_scores[0][1] is a whole number, not 1.5"),
        ({"had_first_turn": (True, 0)}, "had_first_turn[1] is True or False, not 0"),
        ({"hands": ("12-5", ())}, "hands[0] is a tuple, not '12-5'"),
        ({"boneyard": ("12-5",)}, "boneyard[0] is a Tile, not '12-5'"),
        ({"trains": (None,)}, "trains[0] is a Train, not None"),
        ({"engine": "12-12"}, "engine is a Tile, not '12-12'"),
        ({"rules": "hub"}, "rules is a Rules value, not 'hub'"),
    ],
)
def test_replace_refuses_a_value_of_the_wrong_kind_in_the_same_words_in_both_builds(
    changes: dict[str, Any], message: str
) -> None:
    """The library checks the kinds itself: a compiled build would refuse in its own words
    what the pure one let through (``hand_size='15'`` made a state, compiled refused it)."""
    with pytest.raises(TypeError) as caught:
        new_game(2, seed=1).replace(**changes)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 10**30}, "hands has 2 entries; 10" + "0" * 29 + " players need 10"),
        ({"players": 0}, "a game has at least 1 player, not 0"),
        ({"scores": (0,)}, "scores has 1 entries; 2 players need 2"),
        ({"trains": ()}, "trains has 0 entries; 2 players need 3"),
        ({"round_scores": ((1, 2, 3),)}, "round_scores[0] has 3 scores; 2 players need 2"),
        ({"current_player": 2}, "a seat is 0-1, not 2"),
        ({"first_player": -1}, "a seat is 0-1, not -1"),
        ({"open_doubles": (5,)}, "a train id is a seat 0-1 or MEXICAN (-1), not 5"),
        ({"max_pip": 31}, "max_pip is a whole number from 0 to 30, not 31"),
        ({"max_pip": 6}, "does not have"),  # the double-9 set's tiles are in play
        ({"trains": (Train((), 9), Train((), 9), Train((), 12))}, "trains[2] needs a 12"),
    ],
)
def test_replace_refuses_a_state_of_an_impossible_shape_before_building_anything(
    changes: dict[str, Any], message: str
) -> None:
    """Rules may be broken (that is what replace is for); the shape may not: the engine
    indexes by seat, train id and tile.  A huge player count is refused by the counts,
    before a table of that size is made."""
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        new_game(2, seed=1).replace(**changes)


def test_replace_checks_every_public_field() -> None:
    assert set(_KINDS) == set(GameState.FIELDS)


def test_replace_takes_lists_for_tuples() -> None:
    state = new_game(2, seed=1)
    changed = state.replace(scores=[5, 0], hands=[list(state.hand(1)), list(state.hand(0))])
    assert changed.scores == (5, 0)
    assert changed.hands == (state.hand(1), state.hand(0))


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
    hashes = {printed_under_hash_seed(code, seed) for seed in ("0", "1", "12345")}
    assert len(hashes) == 1
    state = new_game(4, HUB, seed=3)
    for _ in range(30):
        state = state_after(state)
    assert hashes == {f"{hash(state)}\n"}


def state_after(state: GameState) -> GameState:
    from mexican_train import apply

    return apply(state, legal_moves(state)[-1])


@pytest.mark.parametrize("rules", [HUB, STANDARD, get_variant("mexican-after-own-train")])
def test_the_trains_a_viewed_state_hands_on_are_those_of_its_table(rules: Rules) -> None:
    """`GameState.trains` is built from the board when asked; `apply` carries a viewed
    state's trains over to the next state, rebuilding only what the move changed.

    Every state of a game is viewed (as simulate and a table do), so every state's
    trains are carried; each must equal the trains its pickle holds, which are
    written from the board itself, and the seats' views must show them.
    """
    rng = random.Random(5)
    state = new_game(3, rules, seed=11)
    moves = 0
    while not state.is_over and moves < 2_000:
        for seat in range(state.players):
            assert view(state, seat).trains == state.trains
        assert pickle.loads(pickle.dumps(state)).trains == state.trains
        state = apply(state, rng.choice(legal_moves(state)))
        moves += 1
    assert state.is_over  # a whole game, rounds and NextRound included


def test_a_marker_on_the_mexican_train_is_kept_but_opens_nothing() -> None:
    """Only `replace` can mark the Mexican train (P6 never does); the state keeps the
    marker, and the moves are those of the train without it, for the state and
    for the seat's view alike."""
    rules = get_variant("train-dominoes")  # V2: the Mexican train is never open
    for seed in range(100):
        state = new_game(4, rules, seed=seed)
        while state.current_player is not None and not state.has_had_first_turn(3):
            state = apply(state, legal_moves(state)[0])  # P4: the first turns
        seat = state.current_player
        mexican = state.trains[MEXICAN]
        if seat is not None and any(tile.shows(mexican.open_end) for tile in state.hand(seat)):
            break  # a tile that would fit the Mexican train, were it open
    else:
        pytest.fail("no deal gives the seat to move a tile for the Mexican train")
    marked = state.replace(
        trains=(*state.trains[:-1], Train(mexican.tiles, mexican.open_end, marked=True))
    )
    assert marked.trains[MEXICAN].marked
    assert marked != state
    assert not any(move.train == MEXICAN for move in legal_moves(marked) if isinstance(move, Play))
    assert legal_moves(marked) == legal_moves(state)
    assert legal_moves(view(marked, seat)) == legal_moves(marked)
