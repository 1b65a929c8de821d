"""The search's playouts: the round played out by every seat with a planning policy.

`SearchPlayer` (``search``) spends nearly all its time here: for every sampled world
and candidate move, the round is played to its end, every seat keeping the longest
train its hand can build for its own train, as `PlannerPlayer` does, planned once per
playout and followed while its tiles last, and shedding the rest.  Only the public
API of the core is used: `legal_moves`, `apply` and `GameState`'s public attributes
and methods (and the core's `mask_of`, to key the plans by a mask of the hand).

This module is compiled with mypyc in the compiled build, so it is
mypy-strict code that mypyc compiles: functions over ints, lists and tuples, no
classes, no closures.  Both builds play every playout alike, move for move.
"""

from __future__ import annotations

from typing import Final

from .._core.engine import apply, legal_moves
from .._core.moves import CallLastTile, Move, Play
from .._core.state import GameState, mask_of
from .._core.tiles import Tile
from .trail import longest_trail

__all__ = ["PLAN_NODES", "plan", "playout"]

_CALL: Final = CallLastTile()
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


def playout(state: GameState, seat: int) -> float:
    """Play the round out; return *seat*'s points less the others' mean (E3).

    Every seat keeps the longest train its hand can build for its own train, as
    `PlannerPlayer` does, planned once per playout (a plan costs as much as dozens
    of moves) and followed while its tiles last.
    """
    players = state.players
    first_turns = state.rules.first_turn is not None  # P4, V1: the rules hold for the round
    # Each seat's plan, made on its first choice, and how far into it the seat is.
    plans: list[tuple[Tile, ...] | None] = [None] * players
    done = [0] * players
    mover = state.current_player
    while mover is not None:
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            planned = plans[mover]
            if planned is None:
                planned = plan(state.hand(mover), state.trains[mover].open_end)
                plans[mover] = planned
            move = _planned(state, moves, mover, planned, done, first_turns)
        state = apply(state, move)
        mover = state.current_player
    points = state.round_scores[-1]
    others = (sum(points) - points[seat]) / (len(points) - 1) if len(points) > 1 else 0.0
    return points[seat] - others


def _planned(
    state: GameState,
    moves: tuple[Move, ...],
    seat: int,
    planned: tuple[Tile, ...],
    done: list[int],
    first_turns: bool,
) -> Move:
    # PlannerPlayer's rule on the sampled state, with a plan kept through the playout:
    # planned[done[seat]:] is what is left of the seat's plan; first_turns: whether the
    # rules have first turns (P4).
    plays: list[Play] = []
    for move in moves:
        if move is _CALL:
            return _CALL
        if isinstance(move, Play):
            plays.append(move)
    if not plays:
        return moves[0]  # Draw comes before Pass in legal_moves
    hand = state.hand(seat)
    # The plan's tiles that have left the hand are behind it.
    at = done[seat]
    length = len(planned)
    while at < length and not _holds(hand, planned[at]):
        at += 1
    done[seat] = at
    if first_turns and not state.has_had_first_turn(seat):
        # P4: lay the whole planned train now, while only the own train is open.
        nxt = _next_planned(plays, planned, at, seat, done)
        return nxt if nxt is not None else _best_play(state, plays, hand)
    others = []
    for other, size in enumerate(state.hand_sizes):
        if other != seat:
            others.append(size)
    near_out = min(others) <= 2
    if (state.open_doubles and not state.turn_doubles) or near_out:
        return _best_play(state, plays, hand)  # D2 binds, or E3: someone is about to go out
    elsewhere: list[Play] = []
    for move in plays:
        if move.train != seat and not _kept(move.tile, planned, at):
            elsewhere.append(move)
    if elsewhere:
        best = _best_play(state, elsewhere, hand)
        if not (best.tile.is_double and _value(state, best, hand, plays) < 0):
            return best
    nxt = _next_planned(plays, planned, at, seat, done)
    return nxt if nxt is not None else _best_play(state, plays, hand)


def _next_planned(
    plays: list[Play], planned: tuple[Tile, ...], at: int, seat: int, done: list[int]
) -> Play | None:
    # The play of the plan's next tile (planned[at]) on the own train, if it is legal now;
    # the seat then moves on in its plan.
    if at < len(planned):
        nxt = _play_of(plays, planned[at], seat)
        if nxt is not None:
            done[seat] = at + 1
            return nxt
    return None


def _holds(hand: tuple[Tile, ...], tile: Tile) -> bool:
    # Whether *tile* is in *hand* (tiles are interned: identity, without == calls).
    for held in hand:  # noqa: SIM110 (a loop, not a generator: hot)
        if held is tile:
            return True
    return False


def _kept(tile: Tile, planned: tuple[Tile, ...], at: int) -> bool:
    # Whether *tile* is in what is left of the plan (tiles are interned: identity).
    for index in range(at, len(planned)):  # noqa: SIM110 (a loop, not a generator: hot)
        if planned[index] is tile:
            return True
    return False


def _play_of(plays: list[Play], tile: Tile, train: int) -> Play | None:
    # Play(tile, train) if it is among *plays* (moves are interned: identity).
    for move in plays:
        if move.tile is tile and move.train == train:
            return move
    return None


def _best_play(state: GameState, plays: list[Play], hand: tuple[Tile, ...]) -> Play:
    # GreedyPlayer's rule: the most pips first; the first such play in legal_moves'
    # order on a tie.
    best = plays[0]
    best_value = -(1 << 30)
    for move in plays:
        value = _value(state, move, hand, plays)
        if value > best_value:
            best = move
            best_value = value
    return best


def _value(state: GameState, move: Play, hand: tuple[Tile, ...], plays: list[Play]) -> int:
    tile = move.tile
    value = tile.pips
    if tile.is_double:
        # D1: a double that can be followed sheds two tiles; one that cannot leaves a marker.
        trains = state.trains
        targets = 1 << tile.high  # the numbers a follow-up may show: the double's, and
        for other in plays:  # the open ends the player may play on
            targets |= 1 << trains[other.train].open_end
        value += 100 if _can_follow(tile, hand, targets) else -100
    return value


def _can_follow(double: Tile, hand: tuple[Tile, ...], targets: int) -> bool:
    for tile in hand:
        if tile is not double and (targets >> tile.high & 1 or targets >> tile.low & 1):
            return True
    return False
