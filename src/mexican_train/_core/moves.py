"""Moves: what a player (or the table, between rounds) does next."""

from __future__ import annotations

from typing import ClassVar, Final, TypeAlias, Union

from .bounds import MAX_TRAIN
from .errors import InvalidArgumentError, shown
from .tiles import Tile

__all__ = [
    "CALL_LAST_TILE",
    "DRAW",
    "MEXICAN",
    "NEXT_ROUND",
    "PASS",
    "CallLastTile",
    "Draw",
    "Move",
    "NextRound",
    "Pass",
    "Play",
]

#: The Mexican train's id (P2).  A personal train's id is its owner's seat,
#: ``0 .. players - 1``; ``-1`` also indexes the last of a state's trains.
MEXICAN: Final = -1


def train_name(train_id: int) -> str:
    """Return a train as players call it: "the Mexican train", "seat 2's train"."""
    return "the Mexican train" if train_id == MEXICAN else f"seat {train_id}'s train"


class Play:
    """Place *tile* on the train with id *train* (a seat, or `MEXICAN`).

    Moves are immutable and interned, so equal moves are the same object.

    >>> Play(Tile(6, 4), MEXICAN)
    Play(Tile(6, 4), MEXICAN)
    >>> Play(Tile(4, 6), 0) == Play(Tile(6, 4), 0)
    True
    """

    __slots__ = ("_hash", "_joins", "_rank", "tile", "train")
    _cache: ClassVar[dict[tuple[Tile, int], Play]] = {}

    tile: Tile
    train: int
    _hash: int
    # What the engine reads to play it, in one attribute (one tuple, unpacked at
    # once): the train's id, the tile, the tile's bit in a hand's mask, its high
    # and its low number.
    _joins: tuple[int, Tile, int, int, int]
    # Its place in the order of legal moves: tiles ascending, then trains by id,
    # the Mexican train last.
    _rank: int

    def __new__(cls, tile: Tile, train: int) -> Play:
        move = cls._cache.get((tile, train)) if type(train) is int else None
        if move is None:
            if not isinstance(tile, Tile):
                raise TypeError(f"Play needs a Tile, not {tile!r}")
            if type(train) is not int or not MEXICAN <= train < MAX_TRAIN:
                raise InvalidArgumentError(
                    f"a train id is a seat >= 0 or MEXICAN ({MEXICAN}), not {shown(train)}"
                )
            move = object.__new__(cls)
            object.__setattr__(move, "tile", tile)
            object.__setattr__(move, "train", train)
            object.__setattr__(move, "_hash", hash((tile, train)))
            joins = (train, tile, 1 << tile._index, tile.high, tile.low)
            object.__setattr__(move, "_joins", joins)
            rank = tile._index * (MAX_TRAIN + 1) + (MAX_TRAIN if train == MEXICAN else train)
            object.__setattr__(move, "_rank", rank)
            # setdefault: two threads building the same move still share one object.
            move = cls._cache.setdefault((tile, train), move)
        return move

    def __repr__(self) -> str:
        train = "MEXICAN" if self.train == MEXICAN else str(self.train)
        return f"Play({self.tile!r}, {train})"

    def __hash__(self) -> int:
        return self._hash

    # Equality is identity (interned values): object's own __eq__, at C speed.

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Play is immutable")

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, int]]:
        return (Play, (self.tile, self.train))

    def __copy__(self) -> Play:
        return self

    def __deepcopy__(self, memo: object) -> Play:
        return self


class _PlaysOnTrain(dict[int, Play]):
    # The interned plays onto one train, made on first demand, by the tile's bit
    # mask (Tile._ends, one per tile): an int key hashes at C speed, a Tile through
    # Tile.__hash__.
    __slots__ = ("train",)

    def __init__(self, train: int) -> None:
        super().__init__()
        self.train = train

    def __missing__(self, ends: int) -> Play:
        low = (ends & -ends).bit_length() - 1  # the lowest bit set, and the highest
        tile = Tile(ends.bit_length() - 1, low)
        return self.setdefault(ends, Play(tile, self.train))  # setdefault: one winner


class _PlayTable(dict[int, _PlaysOnTrain]):
    __slots__ = ()

    def __missing__(self, train: int) -> _PlaysOnTrain:
        return self.setdefault(train, _PlaysOnTrain(train))


#: ``PLAYS[train][tile._ends] is Play(tile, train)``: the engine's way to the moves
#: it offers, two dict lookups without the checks of `Play` (a few times cheaper).
PLAYS: Final = _PlayTable()


class _Singleton:
    """A move without arguments: every instance is the same object."""

    __slots__ = ()
    _instance: ClassVar[_Singleton]
    _code: ClassVar[int]  # a fixed hash: str hashes vary between processes

    def __new__(cls) -> _Singleton:
        try:
            return cls.__dict__["_instance"]  # type: ignore[no-any-return]
        except KeyError:
            instance = object.__new__(cls)
            cls._instance = instance
            return instance

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __hash__(self) -> int:
        return self._code

    def __reduce__(self) -> tuple[type[_Singleton], tuple[()]]:
        return (type(self), ())

    def __copy__(self) -> _Singleton:
        return self

    def __deepcopy__(self, memo: object) -> _Singleton:
        return self


class Draw(_Singleton):
    """Draw one tile from the boneyard (P5, D1, D2): only with no legal play (P7).

    >>> Draw() is Draw()
    True
    """

    __slots__ = ()
    _code = 1

    def __new__(cls) -> Draw:
        return super().__new__(cls)  # type: ignore[return-value]


class Pass(_Singleton):
    """End the turn without a further tile (P5a).

    Legal to stop a first-turn chain after at least one tile (P4), or when the
    player can neither play nor draw; it then places the marker P5/D1/D2 call for.

    >>> Pass() is Pass(), Pass()
    (True, Pass())
    """

    __slots__ = ()
    _code = 2

    def __new__(cls) -> Pass:
        return super().__new__(cls)  # type: ignore[return-value]


class NextRound(_Singleton):
    """Deal the next round (E4): the only legal move between two rounds.

    >>> NextRound() is NextRound(), NextRound()
    (True, NextRound())
    """

    __slots__ = ()
    _code = 3

    def __new__(cls) -> NextRound:
        return super().__new__(cls)  # type: ignore[return-value]


class CallLastTile(_Singleton):
    """Call "last tile!" before playing the next-to-last tile (``Rules.last_tile_penalty``).

    Legal only when the rules ask for the call, in the caller's own turn, while
    they hold exactly two tiles and have not called yet this turn; it changes
    nothing but the record of the call.  A player whose turn ends with one tile
    in hand, after playing a tile that turn without calling, draws the penalty.

    >>> CallLastTile() is CallLastTile()
    True
    """

    __slots__ = ()
    _code = 4

    def __new__(cls) -> CallLastTile:
        return super().__new__(cls)  # type: ignore[return-value]


# The one value of each move without arguments, for the package's modules to compare a
# move with (``move is NEXT_ROUND``) and to make: any ``NextRound()`` is the same object
# (each is a singleton), so a caller's own is offered and accepted alike.
#: The one `Draw` value.
DRAW: Final = Draw()
#: The one `Pass` value.
PASS: Final = Pass()
#: The one `NextRound` value.
NEXT_ROUND: Final = NextRound()
#: The one `CallLastTile` value.
CALL_LAST_TILE: Final = CallLastTile()

#: Any move.
Move: TypeAlias = Union[Play, Draw, Pass, NextRound, CallLastTile]  # noqa: UP007 (a runtime alias on 3.10)
