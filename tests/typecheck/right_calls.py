"""Calls a type checker must accept, with the types it must find.

``tests/test_typing.py`` runs ``mypy --strict`` on this file and checks that it reports no
error.  The calls are never run: pytest does not collect this folder, and the project's own
mypy run leaves it out (``pyproject.toml``).
"""

from __future__ import annotations

from typing_extensions import assert_type

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    TABLE_A,
    Cover,
    Deal,
    DealTable,
    GameState,
    IllegalMoveError,
    Move,
    OpenDouble,
    Play,
    PlayerView,
    Rules,
    StateChanges,
    Tile,
    Train,
    apply,
    get_variant,
    legal_moves,
    new_game,
    round_score,
    view,
)


def right_calls() -> None:
    state = new_game(4, HUB, seed=7)
    assert_type(state, GameState)
    assert_type(new_game(2), GameState)
    assert_type(new_game(2, STANDARD, None, deal=Deal([["6-5"], ["4-4"]], ["6-6"])), GameState)
    moves = legal_moves(state)
    assert_type(moves, tuple[Move, ...])
    assert_type(apply(state, moves[0]), GameState)
    mine = view(state, 0)
    assert_type(mine, PlayerView)
    assert_type(legal_moves(mine), tuple[Move, ...])
    assert_type(state.hand(0), tuple[Tile, ...])
    assert_type(state.train(MEXICAN), Train)
    assert_type(state.has_had_first_turn(1), bool)
    assert_type(round_score(state.hand(1), HUB), int)
    assert_type(round_score([Tile(6, 5)]), int)
    assert_type(state.replace(scores=[5, 0, 0, 0], current_player=None), GameState)
    changes: StateChanges = {"hands": [[Tile(1, 1)], [], [], []], "is_over": True}
    assert_type(state.replace(**changes), GameState)
    assert_type(mine.replace(scores=(5, 0, 0, 0)), PlayerView)
    assert_type(Train((Tile(12, 5),), 5, marked=True, owner_played=True), Train)
    assert_type(Deal([["6-5", Tile(4, 4)]], ["6-6"]), Deal)
    assert_type(DealTable("mine", {(2, 6): 7}, {2: 6}), DealTable)
    assert_type(TABLE_A.lookup(4, max_pip=6, hand_size=None), tuple[int, int])
    assert_type(state.trains, tuple[Train, ...])
    assert_type(mine.trains, tuple[Train, ...])
    assert_type(get_variant("hub"), Rules)
    assert_type(Tile.parse("6-5"), Tile)
    assert_type(Play(Tile(6, 5), MEXICAN).tile, Tile)
    assert_type(HUB.open_doubles.obligation((OpenDouble(0, 5, closable=True),)), Cover)
    assert_type(Cover([0, MEXICAN], only=False).trains, tuple[int, ...])
    try:
        apply(state, moves[-1])
    except IllegalMoveError as error:
        assert_type(error.move, object)
