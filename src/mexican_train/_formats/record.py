"""Game records: the rules, the seed (or the first deal) and every move; and replay.

A record is the smallest thing that fixes a whole game: `new_game` rebuilds the
first state from it, and every later state comes from re-applying the moves
through `apply`, so a record cannot smuggle in a position the rules do not reach.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from .._core.bounds import bounded
from .._core.deal import Deal
from .._core.engine import apply, new_game
from .._core.errors import IllegalMoveError, InvalidArgumentError, MexicanTrainError
from .._core.moves import Move
from .._core.rules import EnginePlacement, Rules
from .._core.state import GameState

__all__ = ["GameRecord", "ReplayError", "record", "replay", "replay_states"]


class ReplayError(MexicanTrainError, ValueError):
    """A record that does not replay: its start cannot be dealt, or a move is illegal.

    Attributes:
        move_number: the offending move, counting from 1; 0 when the start itself fails.
        move: the offending move (None when the start fails).
        reason: why, naming the rule.

    >>> from mexican_train import HUB, Pass
    >>> try:
    ...     replay(GameRecord(2, HUB, seed=5, moves=(Pass(),)))
    ... except ReplayError as error:
    ...     error.move_number, error.move, error.reason
    ...
    (1, Pass(), 'P7/P5a: a player who has a legal play must make one')
    """

    __module__ = "mexican_train"

    def __init__(self, move_number: int, move: Move | None, reason: str) -> None:
        where = "the start" if move_number == 0 else f"move {move_number} ({move!r})"
        super().__init__(f"the record does not replay at {where}: {reason}")
        self.move_number = move_number
        self.move = move
        self.reason = reason


def _check_int(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        raise TypeError(f"GameRecord.{attribute.name} must be a whole number, not {value!r}")


def _check_kind(kind: type, optional: bool = False) -> Callable[[Any, Any, Any], None]:
    # attrs' instance_of puts a 4-tuple in its TypeError; this says it in one sentence.
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not (isinstance(value, kind) or (optional and value is None)):
            wanted = f"a {kind.__name__}" + (" or None" if optional else "")
            raise TypeError(f"GameRecord.{attribute.name} must be {wanted}, not {value!r}")

    return check


def _moves(values: Iterable[Move]) -> tuple[Move, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"GameRecord.moves is a list of moves, not {values!r}")
    moves = tuple(values)
    kinds = typing.get_args(Move)
    for number, move in enumerate(moves, 1):
        if not isinstance(move, kinds):
            raise TypeError(f"GameRecord.moves[{number - 1}] is not a move: {move!r}")
    return moves


@attrs.frozen
class GameRecord:
    """A whole game as data: how it started and every move since.

    Attributes:
        players: the number of players.
        rules: the rules played.
        seed: the seed of every deal (S6).
        deal: the first round's deal, when it was not shuffled from *seed*; None otherwise.
        moves: every move, in order, from the first state on.

    >>> from mexican_train import HUB, Draw
    >>> GameRecord(4, HUB, seed=1).moves
    ()
    """

    players: int = attrs.field(validator=[_check_int, bounded("players")])
    rules: Rules = attrs.field(validator=_check_kind(Rules))
    seed: int = attrs.field(validator=[_check_int, bounded("seed")])
    deal: Deal | None = attrs.field(default=None, validator=_check_kind(Deal, optional=True))
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_moves)

    def start(self) -> GameState:
        """Return the game's first state, as `new_game` deals it.

        Raises:
            DealError: if the players, rules and deal do not make a game.
        """
        return new_game(self.players, self.rules, self.seed, deal=self.deal)


def _deal_of(start: GameState) -> Deal | None:
    """Return a deal that `new_game` turns into *start*, or None if the seed gives it."""
    if start == new_game(start.players, start.rules, start.seed):
        return None
    hands = [list(hand) for hand in start.hands]
    boneyard = list(start.boneyard)
    if start.rules.engine_placement is EnginePlacement.HOLDER:
        # S3: the holder placed the engine; if nobody held it, seats drew in turn from
        # seat 0 until the engine came.  Put the drawn tiles back on the boneyard.
        # A later state undoes to some deal, or fails to: `record` compares what that deal
        # deals with the state it was given, so nothing here needs to check the draws.
        draws = [len(hand) - start.hand_size for hand in hands]
        draws[start.first_player] += 1
        total = sum(draws)
        order = [i % start.players for i in range(total)]
        if total:
            drawn = [hands[seat].pop() for seat in order[:-1]]
            boneyard = [*drawn, start.engine, *boneyard]
        else:
            hands[start.first_player].append(start.engine)
    return Deal(hands, boneyard)


def record(start: GameState, moves: Iterable[Move] = ()) -> GameRecord:
    """Return the record of the game that began at *start* and went on with *moves*.

    Args:
        start: the game's first state, as `new_game` returned it (from a seed
            or from an explicit `Deal`).
        moves: the moves played since, in order.

    Returns:
        A record that `replay` turns back into the game.

    Raises:
        InvalidArgumentError: if *start* is not a first state of `new_game`.
        TypeError: if *start* is not a `GameState` or *moves* not a list of moves.
        ReplayError: if a move is illegal where it was played.

    >>> from mexican_train import HUB, new_game, apply, legal_moves
    >>> state = new_game(2, HUB, seed=5)
    >>> moves = []
    >>> for _ in range(10):
    ...     moves.append(legal_moves(state)[-1])
    ...     state = apply(state, moves[-1])
    ...
    >>> game = record(new_game(2, HUB, seed=5), moves)
    >>> replay(game) == state
    True
    """
    if not isinstance(start, GameState):
        raise TypeError(f"record() needs a GameState, not {type(start).__name__}")
    not_a_start = (
        "record() needs a first state, as new_game() returned it, not a later one "
        f"(this is round {start.round_number}; record the first state and the moves since)"
    )
    if start.round_number != 1 or start.is_round_over:
        raise InvalidArgumentError(not_a_start)
    try:
        # A later state of round 1 can make the undoing of S3's draws fail any which way.
        deal = _deal_of(start)
    except (IndexError, ValueError):
        raise InvalidArgumentError(not_a_start) from None
    made = GameRecord(start.players, start.rules, start.seed, deal, moves)
    try:
        dealt = made.start()
    except MexicanTrainError:
        raise InvalidArgumentError(not_a_start) from None
    if dealt != start:
        raise InvalidArgumentError(not_a_start)
    replay(made)
    return made


def replay_states(game: GameRecord) -> Iterator[GameState]:
    """Yield the first state of *game*, then the state after each of its moves.

    Every move goes through `apply`, so the rules check it again.

    Args:
        game: a record.

    Yields:
        ``len(game.moves) + 1`` states.

    Raises:
        ReplayError: when the start cannot be dealt, or when a move is illegal
            (``error.move_number`` counts from 1).

    >>> from mexican_train import HUB, Draw, Pass
    >>> game = GameRecord(2, HUB, seed=5, moves=(Pass(),))
    >>> list(replay_states(game))
    Traceback (most recent call last):
    ...
    mexican_train.ReplayError: the record does not replay at move 1 (Pass()): P7/P5a: a player who has a legal play must make one
    """
    if not isinstance(game, GameRecord):
        raise TypeError(f"replay() needs a GameRecord, not {type(game).__name__}")
    try:
        state = game.start()
    except MexicanTrainError as error:
        raise ReplayError(0, None, str(error)) from error
    yield state
    for number, move in enumerate(game.moves, 1):
        try:
            state = apply(state, move)
        except IllegalMoveError as error:
            raise ReplayError(number, move, error.reason) from error
        yield state


def replay(game: GameRecord) -> GameState:
    """Return the state at the end of *game*, re-applying every move through the rules.

    Args:
        game: a record.

    Returns:
        The state after the last move.

    Raises:
        ReplayError: when the start cannot be dealt, or when a move is illegal.

    >>> from mexican_train import HUB
    >>> replay(GameRecord(4, HUB, seed=1)).round_number
    1
    """
    states = replay_states(game)
    state = next(states)
    for state in states:  # noqa: B007 (the last one is the answer)
        pass
    return state
