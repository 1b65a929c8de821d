"""The longest-trail search behind `longest_train` and the search's playouts.

The method is explained in ``longest``'s docstring: the numbers are the vertices,
the tiles other than doubles the edges, and a depth-first search with a memo and a
parity bound finds the longest trail from an open end; a double goes in the first
time the trail reaches its number.  `longest_trail` takes tiles already checked (by
`longest_train`, or read from a state's hand) and does no checking of its own.

This module is compiled with mypyc in the compiled build (a playout plans
a longest train for every seat), so it is mypy-strict code that mypyc compiles: one
plain class with typed attributes, ints and lists, no dynamic attributes.  Both
builds find the same trail: the order of the search is fixed by the order of the
tiles given.
"""

from __future__ import annotations

from typing import Final

from .._core.tiles import MAX_PIP, Tile

__all__ = ["longest_trail"]

_NUMBERS: Final = MAX_PIP + 1


def longest_trail(tiles: list[Tile], start: int, max_nodes: int) -> list[Tile]:
    """Return the longest train *tiles* build from *start*, in play order.

    *tiles* are distinct and in descending order (the first train found among the
    longest is returned, in that order); *start* is 0-MAX_PIP and *max_nodes* >= 1:
    the search expands at most that many nodes, then keeps the best train found.
    """
    return _Trail(tiles, max_nodes).run(start)


class _Trail:
    """One longest-trail search; see ``longest``'s docstring for the method."""

    def __init__(self, tiles: list[Tile], max_nodes: int) -> None:
        # The doubles by number, and the bit mask of the numbers that have one.
        self.doubles: list[Tile | None] = [None] * _NUMBERS
        self.double_mask = 0
        self.edges: list[Tile] = []
        # incident[v]: (edge bit, other end) pairs, flattened, for every edge at v, in
        # the order of the edges (high pips first); edge i's bit is 1 << i.
        self.incident: list[list[int]] = [[] for _ in range(_NUMBERS)]
        for tile in tiles:
            high = tile.high
            low = tile.low
            if high == low:
                self.doubles[high] = tile
                self.double_mask |= 1 << high
                continue
            bit = 1 << len(self.edges)
            self.edges.append(tile)
            self.incident[high].append(bit)
            self.incident[high].append(low)
            self.incident[low].append(bit)
            self.incident[low].append(high)
        # (current end, tiles used) pairs already expanded, as used << 5 | end.
        self.seen: set[int] = set()
        self.budget = max_nodes
        self.best = -1
        self.target = 0
        self.best_path: list[int] = []  # the edges' bits, in trail order
        self.path: list[int] = []
        self.stack: list[int] = []  # bound's, kept between calls (empty between them)

    def run(self, start: int) -> list[Tile]:
        visited = 1 << start
        self.target = self.bound(start, 0, visited)
        self.search(start, 0, visited, 0)
        train: list[Tile] = []
        start_double = self.doubles[start]
        if start_double is not None:
            train.append(start_double)
        end = start
        for bit in self.best_path:
            tile = self.edges[bit.bit_length() - 1]
            train.append(tile)
            end = tile.other_end(end)
            if not visited >> end & 1:
                visited |= 1 << end
                double = self.doubles[end]
                if double is not None:
                    train.append(double)  # a double goes in the first time its number comes up
        return train

    def bound(self, start: int, used: int, visited: int) -> int:
        """Return an upper bound on what a trail from *start* can still add."""
        # The unused tiles reachable from start, the doubles of new numbers, and parity.
        seen = 1 << start
        stack = self.stack
        stack.append(start)
        edges = 0
        odd = 0
        doubles = 0
        while stack:
            v = stack.pop()
            degree = 0
            incident = self.incident[v]
            for k in range(0, len(incident), 2):
                if used & incident[k]:
                    continue
                degree += 1
                w = incident[k + 1]
                if not seen >> w & 1:
                    seen |= 1 << w
                    stack.append(w)
            edges += degree
            odd += degree & 1
            if not visited >> v & 1 and self.double_mask >> v & 1:
                doubles += 1
        return edges // 2 - max(0, (odd - 2) // 2) + doubles

    def search(self, v: int, used: int, visited: int, value: int) -> bool:
        """Extend the trail at *v*; return False to stop the whole search (done or out of budget)."""
        if value > self.best:
            self.best = value
            self.best_path = self.path[:]
            if value >= self.target:
                return False  # the bound is met: nothing anywhere can be longer
        # Reaching (v, used) again means the same value again: nothing new to find.
        key = used << 5 | v
        if key in self.seen:
            return True
        self.seen.add(key)
        incident = self.incident[v]
        length = len(incident)
        first = 0  # the first unused edge at v, if any
        while first < length and used & incident[first]:
            first += 2
        if first == length:
            return True
        self.budget -= 1
        if self.budget < 0:
            return False  # out of budget: keep the best train found so far
        if value + self.bound(v, used, visited) <= self.best:
            return True  # no trail through here can beat the best one
        for k in range(first, length, 2):
            bit = incident[k]
            if used & bit:
                continue
            w = incident[k + 1]
            gain = 0 if visited >> w & 1 or not self.double_mask >> w & 1 else 1
            self.path.append(bit)
            going_on = self.search(w, used | bit, visited | 1 << w, value + 1 + gain)
            self.path.pop()
            if not going_on:
                return False
        return True
