"""The longest train a hand can build: a longest-trail search in a multigraph.

The pip numbers are the vertices and the tiles are the edges (a double is a
loop).  A train built from an open end is a trail that starts at that end and
uses each tile at most once (P2).  Finding the longest trail is NP-hard in
general, but a real hand is small and sparse, so an exact depth-first search
with three savings is fast:

* doubles are taken out of the search: a trail that passes through a number
  can always take that number's double on the way, so a double counts exactly
  when the trail visits its number (it is played the first time there);
* results are memoised on (current end, tiles used), since the tiles used also
  fix which numbers have been visited;
* a parity bound stops a branch early once it has reached the most the
  remaining tiles could give: a trail through a graph with *k* odd-degree
  numbers leaves at least (*k* - 2) / 2 of its tiles unused.

The search itself is in ``trail`` (compiled in the compiled build); this module
checks the hand and reads the result as a `Chain`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._core.bounds import check_bound
from .._core.errors import InvalidArgumentError
from .._core.tiles import Tile
from .trail import longest_trail

__all__ = ["DEFAULT_MAX_NODES", "Chain", "longest_train"]

#: How many search nodes `longest_train` expands before it settles for the
#: best train found so far.  Measured by ``benchmarks/longest_train.py`` on 300
#: random hands each of 16, 20 and 25 tiles from double-9 to double-18 sets: at
#: most 77,623 nodes, median under 500; at 30 tiles of a double-12 set, 11% of
#: hands reach the budget.
DEFAULT_MAX_NODES = 100_000


class Chain(tuple[Tile, ...]):
    """Tiles joined end to end from an open end, in play order: what `longest_train` returns.

    A tuple of `Tile` values (equal to the plain tuple, indexed and iterated
    like one) that reads as the tiles lie: each is turned so that the numbers
    that touch meet (P2), ``12-5 5-5 5-3 3-9``.

    Args:
        tiles: the tiles in play order, as `Tile` values or ``"a-b"`` strings
            (or one string of them separated by spaces).
        start: the open end the first tile joins.

    Raises:
        InvalidArgumentError: if the tiles do not join end to end from *start*, or
            *start* is not a whole number 0-30.
        TypeError: if a tile is neither a `Tile` nor a string.

    >>> chain = Chain("12-5 5-5 5-3", start=12)
    >>> chain
    Chain('12-5 5-5 5-3', start=12)
    >>> str(chain), chain[1], chain == (Tile(12, 5), Tile(5, 5), Tile(5, 3)), chain.end
    ('12-5 5-5 5-3', Tile(5, 5), True, 3)
    """

    #: The open end the first tile joins.
    start: int

    def __new__(cls, tiles: Iterable[Tile | str] | str, start: int) -> Chain:
        start = check_bound("pip", start, "start")
        if isinstance(tiles, str):
            tiles = tiles.split()
        parsed = tuple(Tile.parse(t) if isinstance(t, str) else t for t in tiles)
        end = start
        for tile in parsed:
            if not isinstance(tile, Tile):
                raise TypeError(f"a chain holds Tiles or 'a-b' strings, not {tile!r}")
            if not tile.shows(end):
                raise InvalidArgumentError(
                    f"a chain joins each tile to the open end before it; {tile!r} does not "
                    f"show {end}"
                )
            end = tile.other_end(end)
        chain = super().__new__(cls, parsed)
        chain.start = start
        return chain

    @property
    def end(self) -> int:
        """The number the last tile leaves open (*start* for an empty chain)."""
        end = self.start
        for tile in self:
            end = tile.other_end(end)
        return end

    def __str__(self) -> str:
        words, end = [], self.start
        for tile in self:
            other = tile.other_end(end)
            words.append(f"{end}-{other}")
            end = other
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Chain({str(self)!r}, start={self.start})"

    def __reduce__(self) -> tuple[type[Chain], tuple[tuple[Tile, ...], int]]:
        return (Chain, (tuple(self), self.start))


def longest_train(
    hand: Iterable[Tile | str], open_end: int, *, max_nodes: int = DEFAULT_MAX_NODES
) -> Chain:
    """Return the longest train *hand* can build from *open_end*, in play order.

    The train starts with a tile that shows *open_end* and each next tile
    shows the number the previous one left open (P2).  Among trains of the
    same length the first found in a fixed order is returned, so the answer
    is deterministic.  A double is played the first time the train reaches
    its number.

    The search is exact (no train is longer) whenever it finishes within
    *max_nodes* expanded nodes, which hands of a real deal (up to about 25
    tiles, draws included) do (see `DEFAULT_MAX_NODES`); a larger or denser
    hand (say 30 tiles of a double-12 set after many draws) may get the
    longest train found within the budget, which is still a valid train.
    The time spent is proportional to *max_nodes* at worst (under a second
    for the default).

    Args:
        hand: the tiles to build from, as `Tile` values or ``"a-b"`` strings.
        open_end: the number the train ends in now (the engine's number for
            an empty train).
        max_nodes: the search budget (see above).

    Returns:
        The tiles in the order to play them, a `Chain` that reads as they lie;
        empty if none fits *open_end*.

    Raises:
        InvalidArgumentError: if *hand* holds a tile twice, *open_end* is not a
            whole number 0-30, or *max_nodes* not one from 1 to 10**9.
        TypeError: if *hand* is not a list of tiles.

    >>> longest_train(["12-5", "5-3", "5-5", "3-9", "12-1", "9-9"], 12)
    Chain('12-5 5-5 5-3 3-9 9-9', start=12)
    >>> longest_train(["4-1", "6-6"], 12)
    Chain('', start=12)
    """
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise TypeError(f"a hand is a list of Tiles or 'a-b' strings, not {hand!r}")
    tiles = tuple(Tile.parse(t) if isinstance(t, str) else t for t in hand)
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise TypeError(f"a hand holds Tiles or 'a-b' strings, not {tile!r}")
    if len(set(tiles)) != len(tiles):
        twice = sorted({t for t in tiles if tiles.count(t) > 1})
        raise InvalidArgumentError(
            f"a hand holds each tile once; {', '.join(map(str, twice))} repeated"
        )
    open_end = check_bound("pip", open_end, "open_end")
    max_nodes = check_bound("max_nodes", max_nodes, "max_nodes")
    return Chain(longest_trail(sorted(tiles, reverse=True), open_end, max_nodes), open_end)
