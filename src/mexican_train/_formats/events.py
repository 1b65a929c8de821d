"""Events: what a move did, for front ends that animate the table.

Events are derived from ``(before, move, after)`` by comparing the two states at
the few places a move can change, so `apply` itself stays as it is: nothing is
computed unless a front end asks (`apply_with_events`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import TypeAlias, Union

import attrs

from .._core.engine import apply
from .._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.state import GameState
from .._core.tiles import Tile


@attrs.frozen
class TilePlayed:
    """*seat* played *tile* on train *train*, whose open end is now *open_end* (P2).

    >>> TilePlayed(0, Tile(12, 5), 0, 5)
    TilePlayed(seat=0, tile=Tile(12, 5), train=0, open_end=5)
    """

    seat: int
    tile: Tile
    train: int
    open_end: int


@attrs.frozen
class TileDrawn:
    """*seat* drew a tile from the boneyard (P5, D1, D2, or a missed last-tile call).

    *tile* is the tile drawn, or None where the event is shown to someone who may
    not see it (`redact_events`, S5).

    >>> TileDrawn(1, Tile(6, 2)), TileDrawn(1, None)
    (TileDrawn(seat=1, tile=Tile(6, 2)), TileDrawn(seat=1, tile=None))
    """

    seat: int
    tile: Tile | None


@attrs.frozen
class Passed:
    """*seat* ended the turn with `Pass` (P5a).

    >>> Passed(2)
    Passed(seat=2)
    """

    seat: int


@attrs.frozen
class LastTileCalled:
    """*seat* called their last tile (`CallLastTile`, ``Rules.last_tile_penalty``).

    >>> LastTileCalled(0)
    LastTileCalled(seat=0)
    """

    seat: int


@attrs.frozen
class OneTileLeft:
    """*seat* is down to one tile: the automatic last-tile announcement (E3a).

    Told whenever a move leaves the mover with exactly one tile in hand, under
    rules without the last-tile call; every seat sees every hand's size (S5), so
    it is public and `redact_events` keeps it.  Under the call
    (``Rules.last_tile_penalty``, the ``last-tile-call`` variant) announcing is
    the player's own move, told by `LastTileCalled`, and this event never comes.

    >>> OneTileLeft(1)
    OneTileLeft(seat=1)
    """

    seat: int


@attrs.frozen
class MarkerPlaced:
    """A marker was placed on the train of seat *train* (P5, P6).

    >>> MarkerPlaced(3)
    MarkerPlaced(train=3)
    """

    train: int


@attrs.frozen
class MarkerRemoved:
    """The marker on the train of seat *train* was lifted by its owner's tile (P6).

    The tile is on that train, or on any train under ``Rules.marker_lifts_anywhere``.

    >>> MarkerRemoved(3)
    MarkerRemoved(train=3)
    """

    train: int


@attrs.frozen
class DoubleOpened:
    """The double *tile* ending train *train* was left uncovered by a turn: it is open (D2).

    >>> DoubleOpened(MEXICAN, Tile(5, 5))
    DoubleOpened(train=-1, tile=Tile(5, 5))
    """

    train: int
    tile: Tile


@attrs.frozen
class DoubleClosed:
    """A tile covered the open double *tile* on train *train* (D2).

    >>> DoubleClosed(0, Tile(5, 5))
    DoubleClosed(train=0, tile=Tile(5, 5))
    """

    train: int
    tile: Tile


@attrs.frozen
class TurnStarted:
    """It is now *seat*'s turn (P1).

    >>> TurnStarted(1)
    TurnStarted(seat=1)
    """

    seat: int


@attrs.frozen
class RoundEnded:
    """Round *round_number* ended: what each seat scored in it, and the totals (E1-E3).

    >>> RoundEnded(2, (0, 17), (12, 40))
    RoundEnded(round_number=2, round_scores=(0, 17), scores=(12, 40))
    """

    round_number: int
    round_scores: tuple[int, ...]
    scores: tuple[int, ...]


@attrs.frozen
class RoundStarted:
    """Round *round_number* was dealt around *engine*; *first_player* plays first (E4, S2-S4).

    *hand_sizes* and *boneyard_size* are counted once the engine is placed (under
    S3 players may have drawn until someone found it).

    >>> RoundStarted(1, Tile(12, 12), 0, (16, 16), 58)
    RoundStarted(round_number=1, engine=Tile(12, 12), first_player=0, hand_sizes=(16, 16), boneyard_size=58)
    """

    round_number: int
    engine: Tile
    first_player: int
    hand_sizes: tuple[int, ...]
    boneyard_size: int


@attrs.frozen
class GameOver:
    """The last round ended: the final totals and the winning seats (E5).

    >>> GameOver((120, 95), (1,))
    GameOver(scores=(120, 95), winners=(1,))
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]


#: Any event.
Event: TypeAlias = Union[  # noqa: UP007 (a runtime alias on 3.10)
    TilePlayed,
    TileDrawn,
    Passed,
    LastTileCalled,
    OneTileLeft,
    MarkerPlaced,
    MarkerRemoved,
    DoubleOpened,
    DoubleClosed,
    TurnStarted,
    RoundEnded,
    RoundStarted,
    GameOver,
]


def derive_events(before: GameState, move: Move, after: GameState) -> tuple[Event, ...]:
    """Return what *move* did to *before* to give *after*, in the order a table shows it.

    The order is: the move itself (`TilePlayed`, `TileDrawn`, `Passed` or
    `LastTileCalled`, or `RoundStarted` for `NextRound`), markers, the open double
    it closed, `OneTileLeft` when the mover is down to one tile (E3a), then
    either the end of the round (`RoundEnded`, and `GameOver`
    after the last round) or, when the turn passes, the penalty tiles of a missed
    last-tile call (`TileDrawn`), the doubles the turn left open (`DoubleOpened`)
    and the next player's `TurnStarted`.

    Args:
        before: the state the move was applied to.
        move: the move, legal in *before*.
        after: ``apply(before, move)``, or the state the move gave with its chance
            chosen (`~mexican_train.draw_tile`, `~mexican_train.reorder_boneyard`).

    Returns:
        The events, possibly none (a tile played in the middle of a turn gives
        just its `TilePlayed`).  They are read from the two states as given: states
        that *move* does not join give events no game had.

    Raises:
        TypeError: if *before* or *after* is not a `GameState`.

    >>> from mexican_train import HUB, new_game, apply, legal_moves
    >>> state = new_game(2, HUB, seed=3)
    >>> move = legal_moves(state)[0]
    >>> derive_events(state, move, apply(state, move))
    (TilePlayed(seat=0, tile=Tile(12, 0), train=0, open_end=0), TurnStarted(seat=1))
    """
    if not isinstance(before, GameState) or not isinstance(after, GameState):
        wrong = after if isinstance(before, GameState) else before
        raise TypeError(f"derive_events() needs two GameStates, not {type(wrong).__name__}")
    events: list[Event] = []
    if type(move) is NextRound:
        sizes = tuple(len(hand) for hand in after.hands)
        events.append(RoundStarted(after.round_number, after.engine, after.first_player, sizes,
                                   after.boneyard_size))  # fmt: skip
        if after.current_player is not None:
            events.append(TurnStarted(after.current_player))
        return tuple(events)
    seat = before.current_player
    assert seat is not None, "only NextRound is legal between rounds"
    if isinstance(move, Play):
        events.append(TilePlayed(seat, move.tile, move.train, after.trains[move.train].open_end))
    elif type(move) is Draw:
        events.append(TileDrawn(seat, before.boneyard[0]))
    elif type(move) is Pass:
        events.append(Passed(seat))
    elif type(move) is CallLastTile:
        events.append(LastTileCalled(seat))
    for train_id, (old, new) in enumerate(zip(before.trains, after.trains, strict=True)):
        if old.marked != new.marked:
            train = train_id if train_id < before.players else MEXICAN
            events.append(MarkerPlaced(train) if new.marked else MarkerRemoved(train))
    if isinstance(move, Play) and move.train in before.open_doubles:
        events.append(DoubleClosed(move.train, before.trains[move.train].tiles[-1]))
    left = after.hand_sizes[seat]
    if left == 1 and before.hand_sizes[seat] != 1 and not before.rules.last_tile_penalty:
        events.append(OneTileLeft(seat))  # E3a: the announcement, made for the player
    if after.current_player is None:
        points = after.round_scores[-1]
        events.append(RoundEnded(after.round_number, points, after.scores))
        if after.is_over:
            events.append(GameOver(after.scores, after.winners))
        return tuple(events)
    if after.current_player != seat:
        if type(move) is not Draw and len(after.boneyard) < len(before.boneyard):
            # A missed last-tile call: the penalty tiles are drawn as the turn ends.
            drawn = before.boneyard[: len(before.boneyard) - len(after.boneyard)]
            events.extend(TileDrawn(seat, tile) for tile in drawn)
        for train_id in after.open_doubles:
            if train_id not in before.open_doubles:
                events.append(DoubleOpened(train_id, after.trains[train_id].tiles[-1]))
        events.append(TurnStarted(after.current_player))
    return tuple(events)


def apply_with_events(state: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """Return the state after *move*, and the events that tell what happened.

    Exactly ``apply(state, move)``, plus `derive_events`; `apply` stays the fast
    path for bots and searches that do not need events.

    Args:
        state: any state.
        move: a legal move.

    Returns:
        ``(after, events)``.

    Raises:
        IllegalMoveError: if *move* is not legal in *state* (as `apply`).

    >>> from mexican_train import HUB, Draw, new_game, legal_moves
    >>> state = new_game(2, HUB, seed=3)
    >>> after, events = apply_with_events(state, legal_moves(state)[0])
    >>> [type(event).__name__ for event in events]
    ['TilePlayed', 'TurnStarted']
    """
    after = apply(state, move)
    return after, derive_events(state, move, after)


def redact_events(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """Return *events* as *seat* may see them: others' drawn tiles hidden (S5).

    Pass None for a spectator.  Under open hands (V10) there is nothing to hide:
    do not redact.

    Args:
        events: events from `derive_events` or `apply_with_events`.
        seat: the seat they are shown to, or None.

    Returns:
        The same events, with the tile of every `TileDrawn` by another seat set to None.

    Raises:
        TypeError: if *seat* is neither a whole number (an int, or a numpy integer) nor
            None: a seat read as text, ``"0"``, would be no seat, and every draw would
            be hidden from it.

    >>> redact_events([TileDrawn(1, Tile(6, 2)), TileDrawn(0, Tile(5, 5))], 0)
    (TileDrawn(seat=1, tile=None), TileDrawn(seat=0, tile=Tile(5, 5)))
    """
    if seat is not None and type(seat) is not int:
        if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
            raise TypeError(f"redact_events(): seat is a whole number or None, not {seat!r}")
        seat = operator.index(seat)
    return tuple(
        TileDrawn(event.seat, None) if type(event) is TileDrawn and event.seat != seat else event
        for event in events
    )
