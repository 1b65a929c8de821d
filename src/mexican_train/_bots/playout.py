"""The search's playouts: the round played out by every seat with a planning policy.

`SearchPlayer` (``search``) spends nearly all its time here: for every sampled world
and candidate move, the round is played to its end, every seat playing by the planning
policy (``policy``), as `PlannerPlayer` does: keeping the longest train its hand can
build for its own train, planned on its first choice and again after each tile it
draws, and followed while its tiles last, and shedding the rest.  Only the public
API of the core is used: `legal_moves`, `apply` and `GameState`'s public attributes
and methods (and the core's `mask_of`, to key the plans by a mask of the hand).

This module is compiled with mypyc in the compiled build, so it is
mypy-strict code that mypyc compiles: functions over ints, lists and tuples, no
classes, no closures.  Both builds play every playout alike, move for move.
"""

from __future__ import annotations

from typing import Final

from .._core.engine import apply, legal_moves
from .._core.moves import Move
from .._core.state import GameState, mask_of
from .._core.tiles import Tile
from .policy import ENDGAME, near_out, plan_at, planned_move
from .trail import longest_trail

__all__ = ["PLAN_NODES", "plan", "planned_step", "playout"]

#: The search budget of each playout's plan (`longest_train`'s max_nodes).
PLAN_NODES: Final = 2000
# The plans made, by (the hand's mask of tile indices, the open end): the searcher's
# own hand is the same in every world, and the other hands the same for every
# candidate move of a world.  Bounded: emptied when full.
_PLANS: Final[dict[tuple[int, int], tuple[Tile, ...]]] = {}
_PLANS_KEPT: Final = 4096


def plan(hand: tuple[Tile, ...], open_end: int) -> tuple[Tile, ...]:
    """Return ``longest_train(hand, open_end, max_nodes=PLAN_NODES)``'s tiles, memoised.

    *hand* is a hand as a state gives it: distinct tiles in ascending order.
    """
    key = (mask_of(hand), open_end)
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        # The hand in descending order, as longest_train sorts it.
        found = tuple(longest_trail(list(reversed(hand)), open_end, PLAN_NODES))
        _PLANS[key] = found
    return found


def playout(state: GameState, seat: int, replan: bool = True) -> float:
    """Play the round out; return *seat*'s points less the others' mean (E3).

    Every seat plays by `planned_move`, as `PlannerPlayer` does, with a plan made
    on its first choice (a plan costs as much as dozens of moves) and followed while
    its tiles last; with *replan*, made again after each tile the seat draws, as
    `PlannerPlayer`, which plans every decision, would plan with that tile.
    """
    players = state.players
    first_turns = state.rules.first_turn is not None  # P4, V1: the rules hold for the round
    # Each seat's plan, made on its first choice, how far into it the seat is, and
    # the mask of the hand it was made from.
    plans: list[tuple[Tile, ...] | None] = [None] * players
    done = [0] * players
    bases = [0] * players
    mover = state.current_player
    while mover is not None:
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            move = planned_step(state, moves, mover, plans, done, bases, first_turns, replan)
        state = apply(state, move)
        mover = state.current_player
    points = state.round_scores[-1]
    others = (sum(points) - points[seat]) / (len(points) - 1) if len(points) > 1 else 0.0
    return points[seat] - others


def planned_step(
    state: GameState,
    moves: tuple[Move, ...],
    mover: int,
    plans: list[tuple[Tile, ...] | None],
    done: list[int],
    bases: list[int],
    first_turns: bool,
    replan: bool = True,
) -> Move:
    """Return the playout's move for *mover*, the seat to move, among *moves* (two or more).

    ``plans[mover]`` is the seat's plan, made here on its first choice and, with
    *replan*, made again when the hand holds a tile it was not made from (a tile
    drawn since); ``done[mover]`` is how far into it the seat is and
    ``bases[mover]`` the mask of the hand it was made from; *first_turns*: whether
    the rules have first turns (P4).  On a seat's first choice of a playout, and
    with *replan* after each draw, this is the move
    ``PlannerPlayer(max_nodes=PLAN_NODES)`` makes from the seat's view.
    """
    hand = state.hand(mover)
    planned = plans[mover]
    held = mask_of(hand)
    if planned is None or (replan and held & ~bases[mover]):
        planned = plan(hand, state.trains[mover].open_end)
        plans[mover] = planned
        done[mover] = 0
        bases[mover] = held
    at = plan_at(planned, done[mover], hand)
    done[mover] = at
    first_turn = first_turns and not state.has_had_first_turn(mover)
    shed_now = (bool(state.open_doubles) and not state.turn_doubles) or near_out(
        state.hand_sizes, mover, ENDGAME
    )
    return planned_move(moves, hand, state, mover, planned, at, first_turn, shed_now)
