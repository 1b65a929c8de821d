"""Calls a type checker must refuse, each line marked ``# error``.

``tests/test_typing.py`` runs ``mypy --strict`` on this file and checks that it reports an
error on exactly the marked lines.  The calls are never run: pytest does not collect this
folder, and the project's own mypy run leaves it out (``pyproject.toml``).
"""

from __future__ import annotations

from mexican_train import (
    HUB,
    STANDARD,
    TABLE_A,
    Cover,
    Deal,
    DealTable,
    GameState,
    OpenDouble,
    Play,
    PlayerView,
    Tile,
    Train,
    apply,
    format_state,
    legal_moves,
    new_game,
    round_score,
    view,
)
from mexican_train.render import render_text
from mexican_train.serialize import to_json


def wrong_calls(state: GameState, mine: PlayerView, move: Play) -> None:
    apply(mine, move)  # error
    apply(state, "9-1@0")  # error
    apply(state, Tile(9, 1))  # error
    apply(state)  # error
    new_game("four", HUB)  # error
    new_game(4, "hub")  # error
    new_game(4, HUB, seed="7")  # error
    new_game(4, HUB, 7, Deal([["6-5"]], []))  # error
    new_game(4, deal=[["6-5"]])  # error
    legal_moves("x")  # error
    legal_moves(None)  # error
    round_score(["6-5"])  # error
    round_score([Tile(6, 5)], "hub")  # error
    state.hand("0")  # error
    state.train(None)  # error
    state.has_had_first_turn(1.0)  # error
    state.replace(scores="0 0")  # error
    state.replace(players=None)  # error
    state.replace(colour=3)  # error
    mine.replace(boneyard=())  # error
    mine.replace(hand=["6-5"])  # error
    Train([Tile(6, 5)], 5)  # error
    Train((), "5")  # error
    Train((), 5, marked=1)  # error
    Deal(5, [])  # error
    DealTable("mine", {2: 7}, {2: 6})  # error
    view(mine, 0)  # error
    view(state, "0")  # error
    format_state(move)  # error
    render_text(move)  # error
    to_json(STANDARD)  # error
    mine.replace(seat="0")  # error
    TABLE_A.lookup("4")  # error
    TABLE_A.lookup(4, hand_size="7")  # error
    Cover((3,), only=1)  # error
    Cover(("3",), only=True)  # error
    OpenDouble(2, 5, closable=None)  # error
    Tile("6", 5)  # error
    Play(Tile(6, 5), "0")  # error


def moves_as_a_list(state: GameState) -> list[Play]:
    return legal_moves(state)  # error


def hand_as_a_list(state: GameState) -> list[Tile]:
    return state.hand(0)  # error


def score_as_a_str(state: GameState) -> str:
    return round_score(state.hand(0))  # error
