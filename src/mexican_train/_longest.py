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
"""

from __future__ import annotations

from collections.abc import Iterable

from ._errors import InvalidArgumentError, shown
from ._tiles import MAX_PIP, Tile

__all__ = ["DEFAULT_MAX_NODES", "Chain", "longest_train"]

#: How many search nodes `longest_train` expands before it settles for the
#: best train found so far.  Measured on 300 random hands each of 16, 20 and
#: 25 tiles from double-9 to double-18 sets: at most 45,000 nodes, median under
#: 1,000; at 30 tiles of a double-12 set, 15% of hands reach the budget.
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
        InvalidArgumentError: if the tiles do not join end to end from *start*.

    >>> chain = Chain("12-5 5-5 5-3", start=12)
    >>> chain
    Chain('12-5 5-5 5-3', start=12)
    >>> str(chain), chain[1], chain == (Tile(12, 5), Tile(5, 5), Tile(5, 3)), chain.end
    ('12-5 5-5 5-3', Tile(5, 5), True, 3)
    """

    start: int

    def __new__(cls, tiles: Iterable[Tile | str] | str, start: int) -> Chain:
        if isinstance(tiles, str):
            tiles = tiles.split()
        parsed = tuple(Tile.parse(t) if isinstance(t, str) else t for t in tiles)
        end = start
        for tile in parsed:
            if not isinstance(tile, Tile) or not tile.shows(end):
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
    The time spent is proportional to *max_nodes* at worst (about a second
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
            whole number 0-30, or *max_nodes* not a whole number >= 1.
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
    if type(open_end) is not int or not 0 <= open_end <= MAX_PIP:
        raise InvalidArgumentError(
            f"an open end is a whole number 0-{MAX_PIP}, not {shown(open_end)}"
        )
    if type(max_nodes) is not int or max_nodes < 1:
        raise InvalidArgumentError(f"max_nodes is a whole number >= 1, not {shown(max_nodes)}")
    return Chain(_Search(sorted(tiles, reverse=True), max_nodes).run(open_end), open_end)


class _Search:
    """One longest-trail search; see the module docstring for the method."""

    def __init__(self, tiles: list[Tile], max_nodes: int) -> None:
        self.doubles = {t.high: t for t in tiles if t.is_double}
        self.edges = [t for t in tiles if not t.is_double]
        # incident[v]: (edge index, bit, other end) for every edge at v, high pips first.
        self.incident: dict[int, list[tuple[int, int, int]]] = {}
        for index, tile in enumerate(self.edges):
            bit = 1 << index
            self.incident.setdefault(tile.high, []).append((index, bit, tile.low))
            self.incident.setdefault(tile.low, []).append((index, bit, tile.high))
        self.seen: set[tuple[int, int]] = set()
        self.budget = max_nodes
        self.best = -1
        self.target = 0
        self.best_path: list[int] = []
        self.path: list[int] = []

    def run(self, start: int) -> tuple[Tile, ...]:
        visited = 1 << start
        self.target = self.bound(start, 0, visited)
        self.search(start, 0, visited, 0)
        start_double = self.doubles.get(start)
        train: list[Tile] = [start_double] if start_double is not None else []
        end = start
        for index in self.best_path:
            tile = self.edges[index]
            train.append(tile)
            end = tile.other_end(end)
            if not visited >> end & 1:
                visited |= 1 << end
                double = self.doubles.get(end)
                if double is not None:
                    train.append(double)  # a double goes in the first time its number comes up
        return tuple(train)

    def bound(self, start: int, used: int, visited: int) -> int:
        """Return an upper bound on what a trail from *start* can still add."""
        # The unused tiles reachable from start, the doubles of new numbers, and parity.
        seen = {start}
        stack = [start]
        edges = odd = doubles = 0
        while stack:
            v = stack.pop()
            degree = 0
            for _, bit, w in self.incident.get(v, ()):
                if used & bit:
                    continue
                degree += 1
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
            edges += degree
            odd += degree & 1
            if not visited >> v & 1 and v in self.doubles:
                doubles += 1
        return edges // 2 - max(0, (odd - 2) // 2) + doubles

    def search(self, v: int, used: int, visited: int, value: int) -> bool:
        """Extend the trail at *v*; return False to stop the whole search (done or out of budget)."""
        if value > self.best:
            self.best, self.best_path = value, list(self.path)
            if value >= self.target:
                return False  # the bound is met: nothing anywhere can be longer
        key = (v, used)
        # Reaching (v, used) again means the same value again: nothing new to find.
        if key in self.seen:
            return True
        self.seen.add(key)
        choices = [c for c in self.incident.get(v, ()) if not used & c[1]]
        if not choices:
            return True
        self.budget -= 1
        if self.budget < 0:
            return False  # out of budget: keep the best train found so far
        if value + self.bound(v, used, visited) <= self.best:
            return True  # no trail through here can beat the best one
        for index, bit, w in choices:
            gain = 0 if visited >> w & 1 or w not in self.doubles else 1
            self.path.append(index)
            going_on = self.search(w, used | bit, visited | 1 << w, value + 1 + gain)
            self.path.pop()
            if not going_on:
                return False
        return True
