"""Tiles and sets of tiles (the glossary: docs/explanation/glossary.rst)."""

from __future__ import annotations

from typing import ClassVar, Final

from .bounds import MAX_PIP, check_bound
from .errors import InvalidArgumentError, MexicanTrainError, shown

__all__ = ["MAX_PIP", "Tile", "full_set", "set_size", "tile_index"]


class Tile:
    """A domino tile: an unordered pair of pip counts.

    Tiles are immutable and interned: ``Tile(3, 5)`` and ``Tile(5, 3)`` are the
    same object, so they compare equal and hash alike.  A tile is written higher
    end first.

    >>> Tile(5, 12)
    Tile(12, 5)
    >>> str(Tile(5, 12)), Tile(3, 5) == Tile(5, 3), Tile(6, 6).is_double
    ('12-5', True, True)
    >>> Tile(5, 12).pips
    17
    """

    # Interning keeps tiles cheap to compare (identity) and to keep in states.
    __slots__ = ("_ends", "_hash", "_index", "high", "is_double", "low", "pips")
    _cache: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    low: int
    pips: int
    is_double: bool
    _hash: int
    _ends: int  # bit n set when an end shows n: the engine matches tiles to trains by it
    _index: int  # the tile's place in ascending order: a state keeps a hand as bits by it

    def __new__(cls, a: int, b: int) -> Tile:
        # type() and not isinstance(): True and 1.0 would otherwise pass for 1.
        if type(a) is int and type(b) is int:
            tile = cls._cache.get((a, b))
            if tile is not None:
                return tile
        for end in (a, b):
            check_bound("pip", end, "a tile's end")
        high, low = (a, b) if a >= b else (b, a)
        tile = cls._cache.get((high, low))
        if tile is None:
            tile = object.__new__(cls)
            object.__setattr__(tile, "high", high)
            object.__setattr__(tile, "low", low)
            object.__setattr__(tile, "pips", high + low)
            object.__setattr__(tile, "is_double", high == low)
            # A deterministic hash: set iteration order must not vary between runs (S6).
            object.__setattr__(tile, "_hash", high * 1024 + low)
            object.__setattr__(tile, "_ends", 1 << high | 1 << low)
            object.__setattr__(tile, "_index", high * (high + 1) // 2 + low)
            # setdefault: two threads building the same tile still share one object.
            tile = cls._cache.setdefault((high, low), tile)
        cls._cache[a, b] = tile
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Return the tile written as ``"a-b"`` (either end first).

        >>> Tile.parse("5-12")
        Tile(12, 5)

        Raises:
            TileNotationError: if *text* is not two whole numbers joined by ``-``.
            TypeError: if *text* is not a str.
        """
        if not isinstance(text, str):
            raise TypeError(f"Tile.parse() needs a str like '12-5', not {shown(text)}")
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.isdigit() and p.isascii() for p in parts):
            raise TileNotationError(f"a tile is written like '12-5', not {shown(text)}")
        ends = [part.lstrip("0") or "0" for part in parts]
        for end in ends:
            # An end of 5 digits or more (leading zeros aside) is above MAX_PIP: refused
            # without int(), which refuses thousands of digits in its own words.
            if len(end) > 4:
                raise TileNotationError(
                    f"{shown(text)}: a tile's end is a whole number from 0 to {MAX_PIP}, "
                    f"not a number of {len(end)} digits"
                )
        try:
            return cls(int(ends[0]), int(ends[1]))
        except ValueError as error:  # an end above MAX_PIP
            raise TileNotationError(f"{shown(text)}: {error}") from None

    def shows(self, pip: int) -> bool:
        """Return whether one end of the tile shows *pip*.

        >>> Tile(12, 5).shows(5), Tile(12, 5).shows(6)
        (True, False)
        """
        return self.high == pip or self.low == pip

    def other_end(self, pip: int) -> int:
        """Return the end left open when the tile is joined at *pip*.

        >>> Tile(12, 5).other_end(5)
        12
        """
        if self.high == pip:
            return self.low
        if self.low == pip:
            return self.high
        raise InvalidArgumentError(f"{self} does not show {shown(pip)}")

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __hash__(self) -> int:
        return self._hash

    # Equality is identity (interned values): object's own __eq__, at C speed.

    def __lt__(self, other: Tile) -> bool:
        try:  # try, not isinstance: free when other is a Tile, as in every sort of a hand
            return (self.high, self.low) < (other.high, other.low)
        except AttributeError:
            return NotImplemented

    def __le__(self, other: Tile) -> bool:
        try:  # try, not isinstance: free when other is a Tile, as in every sort of a hand
            return (self.high, self.low) <= (other.high, other.low)
        except AttributeError:
            return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        try:  # try, not isinstance: free when other is a Tile, as in every sort of a hand
            return (self.high, self.low) > (other.high, other.low)
        except AttributeError:
            return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        try:  # try, not isinstance: free when other is a Tile, as in every sort of a hand
            return (self.high, self.low) >= (other.high, other.low)
        except AttributeError:
            return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        # Pickling and copying go through the constructor, so interning survives.
        return (Tile, (self.high, self.low))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self


class TileNotationError(MexicanTrainError, ValueError):
    """A tile written in a form :meth:`Tile.parse` does not read.

    >>> Tile.parse("12/5")
    Traceback (most recent call last):
    ...
    mexican_train.TileNotationError: a tile is written like '12-5', not '12/5'
    """

    __module__ = "mexican_train"


_SETS: Final[dict[int, tuple[Tile, ...]]] = {}
_SET: Final = "max_pip (the set is double-N)"


def set_size(max_pip: int) -> int:
    """Return the number of tiles in a double-*max_pip* set.

    >>> [set_size(n) for n in (6, 9, 12, 15, 18)]
    [28, 55, 91, 136, 190]

    Raises:
        InvalidArgumentError: if *max_pip* is not a whole number from 0 to 30.
    """
    max_pip = check_bound("pip", max_pip, _SET)
    return (max_pip + 1) * (max_pip + 2) // 2


def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Return every tile of a double-*max_pip* set, in ascending order.

    >>> full_set(1)
    (Tile(0, 0), Tile(1, 0), Tile(1, 1))

    Raises:
        InvalidArgumentError: if *max_pip* is not a whole number from 0 to 30.
    """
    tiles = _SETS.get(max_pip) if type(max_pip) is int else None
    if tiles is None:
        max_pip = check_bound("pip", max_pip, _SET)
        tiles = tuple(Tile(a, b) for a in range(max_pip + 1) for b in range(a + 1))
        _SETS[max_pip] = tiles
    return tiles


def tile_index(tile: Tile) -> int:
    """Return the tile's index in a set: ``high * (high + 1) // 2 + low``.

    The index does not depend on the set's size: a double-6 set's tiles keep
    their indices in a double-12 set, and ``full_set(n)[tile_index(t)] is t``.

    >>> tile_index(Tile(0, 0)), tile_index(Tile(1, 0)), tile_index(Tile(12, 12))
    (0, 1, 90)

    Raises:
        TypeError: if *tile* is not a `Tile` (`~mexican_train.Tile.parse` reads one from
            ``"12-5"``).
    """
    if not isinstance(tile, Tile):
        raise TypeError(f"tile_index() needs a Tile, not {shown(tile)}")
    return tile._index
