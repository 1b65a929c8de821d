"""The planning policy: the one move rule of `PlannerPlayer` and of the search's playouts.

A seat keeps a plan, the longest train its hand can build for its own train, and:

* on a first turn that builds its own train (P4), plays the plan's next tile;
* when bound to cover an open double (D2), or once an opponent is about to go out
  (E3), sheds the most pips it can;
* otherwise plays a tile that is not in what is left of the plan on another train
  open to it (the most pips first, doubles only when they can be followed), and only
  when no such tile fits, the plan's next tile on its own train;
* and whenever none of that applies, sheds the most pips it can.

Shedding values a play by its pips; a double by 100 more when the hand can follow it
(D1: two tiles shed in one turn) and 100 less when it cannot (the turn then ends with
a marker); and a play on the seat's own marked train by one more, for lifting the
marker (P6).  The point of the policy is to get rid of tiles, and a marked train lets
every opponent get rid of theirs on it and move its open end away from the plan, so
closing it is worth a pip: between plays of equal pips the one that lifts the marker
goes first.  A double's follow-up may go on any train open to the seat, its own
included, so the trains it may follow on are those of every legal play.

`PlannerPlayer` replans from its view every decision; a playout plans on a seat's first
choice (and, replanning, again after each tile the seat draws) and follows the plan while
its tiles last (``at``: how far into it the seat is).  Both call `planned_move`, and
`GreedyPlayer` sheds with `best_shed`.

This module is compiled with mypyc in the compiled build, with the playouts that spend
most of their time here, so it is mypy-strict code that mypyc compiles: functions over
ints, lists and tuples, no classes, no closures.  Tiles and moves are interned, so they
are compared by identity.
"""

from __future__ import annotations

from typing import Final

from .._core.moves import CALL_LAST_TILE, Move, Play
from .._core.state import GameState
from .._core.tiles import Tile
from .._core.view import PlayerView

__all__ = ["ENDGAME", "best_shed", "near_out", "plan_at", "planned_move", "shed_value"]

#: The opponent hand size at or below which the planner stops saving tiles (E3).
ENDGAME: Final = 2
_CALL: Final = CALL_LAST_TILE  # a C global in the compiled build, as the engine's
# D1: what a double that can be followed is worth beyond its pips, and one that cannot less.
_DOUBLE: Final = 100
# P6: what lifting the seat's own marker is worth.
_LIFT: Final = 1

#: Where the policy reads the trains: a state in a playout, a view for a player.  The
#: trains are read only when a play's value needs them (a state builds them when asked).
Table = GameState | PlayerView


def planned_move(
    moves: tuple[Move, ...],
    hand: tuple[Tile, ...],
    table: Table,
    seat: int,
    planned: tuple[Tile, ...],
    at: int,
    first_turn: bool,
    shed_now: bool,
) -> Move:
    """Return the planner's move among *moves* (at least two) for *seat*.

    *table* is the state or the view the trains are read from, and *hand* the seat's;
    ``planned[at:]`` is what is left of the seat's plan, every tile of it in the hand
    up to ``planned[at]`` (`plan_at`); *first_turn*: whether this is the seat's first
    turn, building its own train (P4); *shed_now*: whether to shed the most pips
    regardless of the plan (an open double binds, D2, or an opponent is about to go
    out, E3: `near_out`).  The last-tile call is made whenever it may be; with no
    play, the first move (Draw comes before Pass in `legal_moves`).
    """
    plays: list[Play] = []
    for move in moves:
        if move is _CALL:
            return _CALL
        if isinstance(move, Play):
            plays.append(move)
    if not plays:
        return moves[0]
    if first_turn:
        # P4: lay the whole planned train now, while only the own train is open.
        nxt = _next_planned(plays, planned, at, seat)
        return nxt if nxt is not None else best_shed(plays, plays, hand, table, seat)
    if shed_now:
        return best_shed(plays, plays, hand, table, seat)
    elsewhere: list[Play] = []
    for move in plays:
        if move.train != seat and not _kept(move.tile, planned, at):
            elsewhere.append(move)
    if elsewhere:
        best = best_shed(elsewhere, plays, hand, table, seat)
        if shed_value(best, plays, hand, table, seat) > 0:  # not a double left unfollowed
            return best
    nxt = _next_planned(plays, planned, at, seat)
    return nxt if nxt is not None else best_shed(plays, plays, hand, table, seat)


def plan_at(planned: tuple[Tile, ...], at: int, hand: tuple[Tile, ...]) -> int:
    """Return where what is left of *planned* starts: its first tile from *at* still in *hand*.

    The plan's tiles that have left the hand are behind it.
    """
    length = len(planned)
    while at < length and not _holds(hand, planned[at]):
        at += 1
    return at


def near_out(hand_sizes: tuple[int, ...], seat: int, endgame: int) -> bool:
    """Return whether an opponent of *seat* holds *endgame* tiles or fewer (E3).

    With no opponent, whether the seat itself does.
    """
    fewest = -1
    for other, size in enumerate(hand_sizes):
        if other != seat and (fewest < 0 or size < fewest):
            fewest = size
    return (hand_sizes[seat] if fewest < 0 else fewest) <= endgame


def best_shed(
    candidates: list[Play],
    plays: list[Play],
    hand: tuple[Tile, ...],
    table: Table,
    seat: int,
) -> Play:
    """Return the play of *candidates* (some of *plays*, the legal plays) with the best
    `shed_value`: the first such play in `legal_moves`' order on a tie."""
    best = candidates[0]
    best_value = -(1 << 30)
    for move in candidates:
        value = shed_value(move, plays, hand, table, seat)
        if value > best_value:
            best = move
            best_value = value
    return best


def shed_value(
    move: Play, plays: list[Play], hand: tuple[Tile, ...], table: Table, seat: int
) -> int:
    """Score *move*, one of the legal *plays*, for shedding (see the module's docstring)."""
    tile = move.tile
    value = tile.pips
    if tile.is_double:
        # D1: the numbers a follow-up may show: the double's, and the open ends of the
        # trains open to the seat.
        trains = table.trains
        targets = 1 << tile.high
        for other in plays:
            targets |= 1 << trains[other.train].open_end
        value += _DOUBLE if _can_follow(tile, hand, targets) else -_DOUBLE
    if move.train == seat and table.trains[seat].marked:
        value += _LIFT  # P6: a tile on one's own train lifts the marker
    return value


def _next_planned(plays: list[Play], planned: tuple[Tile, ...], at: int, seat: int) -> Play | None:
    # The play of the plan's next tile (planned[at]) on the own train, if it is legal now.
    if at < len(planned):
        tile = planned[at]
        for move in plays:
            if move.tile is tile and move.train == seat:
                return move
    return None


def _holds(hand: tuple[Tile, ...], tile: Tile) -> bool:
    # Whether *tile* is in *hand*.
    for held in hand:  # noqa: SIM110 (a loop, not a generator: hot)
        if held is tile:
            return True
    return False


def _kept(tile: Tile, planned: tuple[Tile, ...], at: int) -> bool:
    # Whether *tile* is in what is left of the plan.
    for index in range(at, len(planned)):  # noqa: SIM110 (a loop, not a generator: hot)
        if planned[index] is tile:
            return True
    return False


def _can_follow(double: Tile, hand: tuple[Tile, ...], targets: int) -> bool:
    # Whether the hand holds another tile showing one of the numbers of *targets* (a mask).
    for tile in hand:
        if tile is not double and (targets >> tile.high & 1 or targets >> tile.low & 1):
            return True
    return False
