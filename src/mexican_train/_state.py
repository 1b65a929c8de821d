"""Trains, deals and the game state: frozen values, built anew for every move."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from ._errors import InvalidArgumentError, shown
from ._moves import MEXICAN
from ._rules import Rules
from ._tiles import Tile

if TYPE_CHECKING:
    from ._moves import Move

__all__ = ["Deal", "GameState", "Train"]


class _Weakrefable:
    # The weak-reference slot, in a base shared by each frozen class below and its
    # builder, so that the two have the same memory layout (see `_built`).
    __slots__ = ("__weakref__",)


@attrs.frozen
class Train(_Weakrefable):
    """A line of tiles from the engine (P2).

    Attributes:
        tiles: the tiles in the order played, the first one joined to the engine.
        open_end: the number a tile must show to join it (the engine's while empty).
        marked: whether a marker is on it, opening it to everybody (P6).

    >>> Train((Tile(12, 5), Tile(5, 5)), open_end=5).is_started
    True
    """

    tiles: tuple[Tile, ...]
    open_end: int
    marked: bool = False

    @property
    def is_started(self) -> bool:
        """Whether any tile has been played on it."""
        return bool(self.tiles)

    @property
    def ends_in_double(self) -> bool:
        """Whether its last tile is a double.

        >>> Train((Tile(12, 5), Tile(5, 5)), open_end=5).ends_in_double
        True
        """
        return bool(self.tiles) and self.tiles[-1].is_double


def _sequence(values: object, what: str) -> tuple[Any, ...]:
    # A str is iterable, but "6-5" is one tile, not a list of them.
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{what} is a list, not {values!r}")
    return tuple(values)


def _tiles(values: Iterable[Tile | str], what: str = "Deal.boneyard") -> tuple[Tile, ...]:
    tiles = []
    for index, value in enumerate(_sequence(values, f"{what} (a list of tiles)")):
        if isinstance(value, Tile):
            tiles.append(value)
        elif isinstance(value, str):
            tiles.append(Tile.parse(value))
        else:
            raise TypeError(f"{what}[{index}] is a Tile or an 'a-b' str, not {value!r}")
    return tuple(tiles)


def _hands(values: Iterable[Iterable[Tile | str]]) -> tuple[tuple[Tile, ...], ...]:
    hands = _sequence(values, "Deal.hands (a list of hands, one per seat)")
    return tuple(_tiles(hand, f"Deal.hands[{seat}]") for seat, hand in enumerate(hands))


@attrs.frozen
class Deal:
    """An explicit deal, for teaching and tests: each seat's hand and the boneyard.

    Tiles may be given as `Tile` values or written ``"a-b"``.  The boneyard is in
    draw order: its first tile is drawn first.  Under S3 (`STANDARD`) the engine
    is in a hand or the boneyard; under S4 (`HUB`) it is not in the deal at all.
    `new_game` refuses a deal with missing, repeated or foreign tiles, or hands
    of the wrong size.

    Raises:
        TileNotationError: if a tile is written wrong (``"6-x"``).
        TypeError: if *hands* is not a list of lists of tiles, or *boneyard* a list of tiles.

    >>> Deal([["6-5", "4-4"], ["3-2", "1-0"]], ["6-6"]).hands[0]
    (Tile(6, 5), Tile(4, 4))
    """

    hands: tuple[tuple[Tile, ...], ...] = attrs.field(converter=_hands)
    boneyard: tuple[Tile, ...] = attrs.field(converter=_tiles)


def _score_hand(hand: tuple[Tile, ...], double_blank: int) -> int:
    # E3: the pips left in hand; the double-blank counts `double_blank` (V7).
    return sum(double_blank if t.pips == 0 else t.pips for t in hand)


def check_seat(seat: Any, players: int) -> None:
    """Raise `InvalidArgumentError` unless *seat* is a seat of a *players*-player game."""
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgumentError(f"a seat is 0-{players - 1}, not {shown(seat)}")


def check_train_id(train_id: Any, players: int) -> None:
    """Raise `InvalidArgumentError` unless *train_id* names a train of the game."""
    if type(train_id) is not int or not MEXICAN <= train_id < players:
        raise InvalidArgumentError(
            f"a train id is a seat 0-{players - 1} or MEXICAN ({MEXICAN}), not {shown(train_id)}"
        )


def winners_of(
    scores: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...], tie_break: bool = True
) -> tuple[int, ...]:
    """Return the seats that win with these totals and round scores (E5).

    With *tie_break* False (``Rules.tie_break``), every seat on the lowest total wins.
    """

    def rank(seat: int) -> tuple[int, int, float]:
        if not tie_break:
            return (scores[seat], 0, 0)  # a shared win: only the total counts
        mine = [points[seat] for points in round_scores]
        nonzero = [p for p in mine if p != 0]
        # E5, in order: lowest total, then most rounds at 0, then lowest non-zero round.
        return (scores[seat], -(len(mine) - len(nonzero)), min(nonzero, default=float("inf")))

    keys = [rank(seat) for seat in range(len(scores))]
    best = min(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


@attrs.frozen(cache_hash=True)
class GameState(_Weakrefable):
    """Everything about a game at one moment: a frozen, hashable value.

    Build one with `new_game`; get the next with `apply`.  Never build one by
    hand: the constructor does not check consistency.

    Attributes:
        rules: the rules in force.
        players: the number of players; seats are ``0 .. players - 1``.
        max_pip: the set in use is double-*max_pip*.
        hand_size: tiles dealt to each player.
        seed: the seed from which every round's deal comes (S6).
        round_number: the round being played, from 1.
        engine: this round's engine (S2).
        first_player: the seat that played first this round (S3, S4).
        hands: every seat's hand, each sorted (secret: see `hand`).
        boneyard: the undrawn tiles in draw order (secret).
        trains: the personal trains by seat, then the Mexican train.
        current_player: the seat to move; None between rounds and once over.
        had_first_turn: per seat, whether its first turn of the round is over.
        turn_tiles: tiles the player to move has played this turn.
        has_drawn: whether the player to move has drawn since their last tile.
        turn_doubles: trains ending in a double played this turn, uncovered, in order.
        open_doubles: trains ending in an open double from an earlier turn, in order (D2).
        idle_turns: consecutive turns that left the table unchanged: no tile
            played, no marker newly placed (E2).
        scores: the running total per seat (E3).
        round_scores: one tuple of scores per finished round.
        is_over: whether the last round has ended.
        last_tile_called: whether the player to move has called their last tile
            this turn (`CallLastTile`, ``Rules.last_tile_penalty``).

    >>> from mexican_train import HUB, new_game
    >>> state = new_game(4, HUB, seed=1)
    >>> state.round_number, state.engine, state.current_player, state.boneyard_size
    (1, Tile(12, 12), 0, 30)
    >>> state == new_game(4, HUB, seed=1), hash(state) == hash(new_game(4, HUB, seed=1))
    (True, True)
    """

    rules: Rules
    players: int
    max_pip: int
    hand_size: int
    seed: int = attrs.field(repr=False)
    round_number: int
    engine: Tile
    first_player: int
    hands: tuple[tuple[Tile, ...], ...] = attrs.field(repr=False)
    boneyard: tuple[Tile, ...] = attrs.field(repr=False)
    trains: tuple[Train, ...] = attrs.field(repr=False)
    current_player: int | None
    had_first_turn: tuple[bool, ...] = attrs.field(repr=False)
    turn_tiles: int = attrs.field(repr=False)
    has_drawn: bool = attrs.field(repr=False)
    turn_doubles: tuple[int, ...] = attrs.field(repr=False)
    open_doubles: tuple[int, ...] = attrs.field(repr=False)
    idle_turns: int = attrs.field(repr=False)
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...] = attrs.field(repr=False)
    is_over: bool
    last_tile_called: bool = attrs.field(default=False, repr=False)
    # The legal moves, computed once on first demand (legal_moves); not part of the value.
    _legal: tuple[Move, ...] | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """Return the tiles *seat* holds, in ascending order."""
        check_seat(seat, self.players)
        return self.hands[seat]

    def train(self, train_id: int) -> Train:
        """Return the train with id *train_id*: a seat, or `MEXICAN`."""
        check_train_id(train_id, self.players)
        return self.trains[train_id]

    def has_had_first_turn(self, seat: int) -> bool:
        """Return whether *seat* has finished its first turn of this round."""
        check_seat(seat, self.players)
        return self.had_first_turn[seat]

    def _repr_svg_(self) -> str:
        """Return an SVG picture of the table (every hand shown), for Jupyter."""
        from .render import render_svg  # lazy: rendering sits on top of the core

        return render_svg(self)

    @property
    def boneyard_size(self) -> int:
        """The number of tiles left to draw."""
        return len(self.boneyard)

    @property
    def rounds(self) -> int:
        """The number of rounds in the game (S2, V9)."""
        return self.rules.rounds or self.max_pip + 1

    @property
    def is_round_over(self) -> bool:
        """Whether the round has ended (the finished table stays visible until `NextRound`)."""
        return self.current_player is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (E5); empty until the game is over.

        Lowest total wins; ties go to the most rounds scored at 0, then to the
        lowest single round score other than 0; players still level share
        (with ``Rules.tie_break`` False, everyone on the lowest total shares).
        """
        if not self.is_over:
            return ()
        return winners_of(self.scores, self.round_scores, self.rules.tie_break)


# -- building states on the engine's hot path ----------------------------------
#
# attrs' __init__ for a frozen class sets each field through object.__setattr__,
# which for GameState's 22 fields is about a sixth of the time a whole move takes.
# The engine builds its states and trains instead as instances of a writable twin
# class with the same slots, filled in with plain attribute stores, and then
# turned into the frozen class by __class__ assignment (CPython allows it between
# classes of the same layout).  The result is an ordinary GameState or
# Train: same fields, equality, hash (the hash cache starts empty, as attrs'
# __init__ leaves it), repr, pickling and attrs.evolve.  Should an interpreter
# refuse the assignment, the builders fall back to the attrs constructors.


class _TrainBuilder(_Weakrefable):
    __slots__ = Train.__slots__


class _StateBuilder(_Weakrefable):
    __slots__ = GameState.__slots__


def _train(
    tiles: tuple[Tile, ...], open_end: int, marked: bool = False, _new: Any = object.__new__
) -> Train:
    """Return ``Train(tiles, open_end, marked)``, built without attrs' __init__."""
    train = _new(_TrainBuilder)
    train.tiles = tiles
    train.open_end = open_end
    train.marked = marked
    train.__class__ = Train
    return train  # type: ignore[no-any-return]


def _state(
    rules: Rules,
    players: int,
    max_pip: int,
    hand_size: int,
    seed: int,
    round_number: int,
    engine: Tile,
    first_player: int,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    trains: tuple[Train, ...],
    current_player: int | None,
    had_first_turn: tuple[bool, ...],
    turn_tiles: int,
    has_drawn: bool,
    turn_doubles: tuple[int, ...],
    open_doubles: tuple[int, ...],
    idle_turns: int,
    scores: tuple[int, ...],
    round_scores: tuple[tuple[int, ...], ...],
    is_over: bool,
    last_tile_called: bool = False,
    _new: Any = object.__new__,
) -> GameState:
    """Return ``GameState(...)`` with the same arguments, built without attrs' __init__."""
    state = _new(_StateBuilder)
    state.rules = rules
    state.players = players
    state.max_pip = max_pip
    state.hand_size = hand_size
    state.seed = seed
    state.round_number = round_number
    state.engine = engine
    state.first_player = first_player
    state.hands = hands
    state.boneyard = boneyard
    state.trains = trains
    state.current_player = current_player
    state.had_first_turn = had_first_turn
    state.turn_tiles = turn_tiles
    state.has_drawn = has_drawn
    state.turn_doubles = turn_doubles
    state.open_doubles = open_doubles
    state.idle_turns = idle_turns
    state.scores = scores
    state.round_scores = round_scores
    state.is_over = is_over
    state.last_tile_called = last_tile_called
    state._legal = None  # no legal moves computed yet
    state._attrs_cached_hash = None  # attrs' empty hash cache (cache_hash=True)
    state.__class__ = GameState
    return state  # type: ignore[no-any-return]


def _built(builder: Any, cls: type) -> bool:
    # Whether the builders work here: the same parameters as attrs' __init__, in
    # the same order, and an interpreter that allows the __class__ assignment.
    init = [field.name.lstrip("_") for field in attrs.fields(cls) if field.init]
    names = builder.__code__.co_varnames[: builder.__code__.co_argcount - 1]
    if list(names) != init:
        raise AssertionError(f"{builder.__name__} is out of step with {cls.__name__}")
    if cls is GameState and "_attrs_cached_hash" not in GameState.__slots__:
        return False  # attrs keeps its hash cache elsewhere: use its __init__
    try:
        probe = object.__new__(_StateBuilder if cls is GameState else _TrainBuilder)
        probe.__class__ = cls
    except TypeError:
        return False
    return True


if not (_built(_state, GameState) and _built(_train, Train)):  # pragma: no cover
    _state = GameState  # type: ignore[assignment]
    _train = Train  # type: ignore[assignment]
