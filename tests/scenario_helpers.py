"""Helpers for the rulebook scenarios (tests/test_rules_*.py).

Scenarios are written in the tile notation ("6-5"), on a double-6 set, and are
driven through the public `legal_moves` / `apply` only.  `start` deals explicit
hands; `run` plays a list of moves, each of which must be legal; `assert_refused`
checks that a move is refused for the right rule and leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
import pytest

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Deal,
    Draw,
    EnginePlacement,
    GameState,
    IllegalMoveError,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    Tile,
    Train,
    apply,
    build_state,
    full_set,
    legal_moves,
    new_game,
)

__all__ = [
    "DRAW",
    "HUB6",
    "NEXT",
    "PASS",
    "STANDARD6",
    "all_tiles",
    "assert_refused",
    "finish_round",
    "lowest_move",
    "on",
    "run",
    "start",
    "table",
    "tiles",
]

DRAW = Draw()
PASS = Pass()
NEXT = NextRound()

#: The presets on a double-6 set; `start` fills in the hand size from the deal.
STANDARD6 = attrs.evolve(STANDARD, max_pip=6)
HUB6 = attrs.evolve(HUB, max_pip=6)


def tiles(text: str) -> tuple[Tile, ...]:
    """Return the tiles written in *text*, separated by spaces: ``tiles("6-5 5-5")``."""
    return tuple(Tile.parse(word) for word in text.split())


def on(tile: str, train: int) -> Play:
    """Return the move that plays *tile* (written "a-b") on *train*."""
    return Play(Tile.parse(tile), train)


def start(
    hands: Sequence[str],
    *,
    rules: Rules = STANDARD,
    boneyard: str = "",
    seed: int = 0,
) -> GameState:
    """Return a double-6 game whose round 1 deals *hands* (one string of tiles per seat).

    The boneyard is *boneyard* (drawn first, in the order written) followed by
    every other tile of the set in ascending order, so the deal always holds the
    whole set (minus the engine under S4).  The hand size is that of the hands;
    *rules* is put on a double-6 set with it.  *seed* fixes the later rounds.
    """
    dealt = [tiles(hand) for hand in hands]
    rules = attrs.evolve(rules, max_pip=6, hand_size=len(dealt[0]))
    front = tiles(boneyard)
    used = {t for hand in dealt for t in hand} | set(front)
    set_aside = rules.engine_placement is EnginePlacement.SET_ASIDE
    rest = [t for t in full_set(6) if t not in used and not (set_aside and t == Tile(6, 6))]
    return new_game(len(hands), rules, seed, deal=Deal(dealt, (*front, *rest)))


def table(hands: Sequence[str], *, marked: bool) -> GameState:
    """Return a 2-player double-6 `HUB` position mid-round, seat 0 to move.

    Seat 0's train holds 6-4 (open end 4), its marker as *marked* says; seat 1's is
    empty and unmarked; the Mexican train holds 6-3 (open end 3).  Both first turns
    are over; the boneyard holds the other tiles.
    """
    dealt = [tiles(hand) for hand in hands]
    used = {t for hand in dealt for t in hand} | {Tile(6, 6), Tile(6, 4), Tile(6, 3)}
    own = Train(tiles=(Tile(6, 4),), open_end=4, marked=marked, owner_played=True)
    mexican = Train(tiles=(Tile(6, 3),), open_end=3, marked=False)
    return build_state(
        rules=attrs.evolve(HUB6, hand_size=5),
        players=2,
        seed=0,
        round_number=1,
        hands=dealt,
        boneyard=[t for t in full_set(6) if t not in used],
        trains=[own, Train(tiles=(), open_end=6, marked=False), mexican],
        current_player=0,
        had_first_turn=[True, True],
    )


def run(state: GameState, *moves: Move) -> GameState:
    """Return the state after *moves*, each of which must be offered by `legal_moves`."""
    for move in moves:
        assert move in legal_moves(state), f"{move!r} not in {legal_moves(state)!r}"
        state = apply(state, move)
    return state


def _move_key(move: Move) -> tuple[int, ...]:
    if isinstance(move, Play):
        train = 1 << 30 if move.train == MEXICAN else move.train
        return (0, move.tile.high, move.tile.low, train)
    return (1 if isinstance(move, Draw) else 2 if isinstance(move, Pass) else 3,)


def lowest_move(state: GameState) -> Move:
    """Return the legal move that a fixed, order-independent policy picks.

    Plays come first, lowest tile first, then lowest train (the Mexican train last);
    then the other moves.  The choice depends only on the *set* of legal moves, so
    seeded scenarios do not change when `legal_moves` changes its order.
    """
    return min(legal_moves(state), key=_move_key)


def finish_round(state: GameState) -> GameState:
    """Return the state at the end of the current round, playing `lowest_move` each time."""
    while not state.is_round_over:
        state = apply(state, lowest_move(state))
    return state


def assert_refused(state: GameState, move: Move, rule: str) -> IllegalMoveError:
    """Assert that *move* is refused for *rule* and that *state* is left exactly as it was.

    The error's reason must start with the rule id: ``"P4: ..."``, or a list of ids
    such as ``"D2/D3: ..."`` that names *rule*.
    """
    before = state.replace()
    before_hash = hash(state)
    moves = legal_moves(state)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    error = info.value
    assert error.move == move
    named = error.reason.split(":", 1)[0].split("/")
    assert rule in named, error.reason
    assert state == before
    assert hash(state) == before_hash == hash(before)
    assert legal_moves(state) == moves
    return error


def all_tiles(state: GameState) -> Iterable[Tile]:
    """Yield every tile in hands, trains and the boneyard, plus the engine."""
    for seat in range(state.players):
        yield from state.hand(seat)
    for train in state.trains:
        yield from train.tiles
    yield from state.boneyard
    yield state.engine
