"""Measure `longest_train`'s search: the positions it expands on random hands, and their cost.

Run from the repository root::

    python benchmarks/longest_train.py            # about a minute or two on the pure build
    python benchmarks/longest_train.py --quick    # a smoke run: a few hands

Hand *i* of *n* tiles is dealt from ``random.Random(f"{n}-{i}")``: a set from double-9
to double-18, *n* tiles of it drawn at random, and an open end from the set's numbers.
For 16, 20 and 25 tiles (a deal's hand, and one after many draws) it prints the most
and the median positions the search expanded, and the microseconds each took (the
time of `longest_train`'s calls over the positions they expanded, in CPU time).  Then,
for 30 tiles of a double-12 set, denser than a real hand, the share of hands that reach
the budget, `DEFAULT_MAX_NODES`, and the median time of such a search.

The positions are counted by the search itself (``mexican_train._bots.trail._Trail``,
a private class: this measures the implementation); the times are of the public
`longest_train`.  The counts are the same on both builds; the times are of the build
that runs, which it prints.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator

from options import positive_int

from mexican_train import COMPILED, Tile, full_set, longest_train
from mexican_train._bots.trail import _Trail
from mexican_train.players import DEFAULT_MAX_NODES

SIZES = (16, 20, 25)
DENSE = 30  # tiles of a double-12 set
SETS = range(9, 19)


def hands(size: int, count: int, sets: range) -> Iterator[tuple[list[Tile], int]]:
    """Yield *count* random hands of *size* tiles, each with an open end."""
    for i in range(count):
        rng = random.Random(f"{size}-{i}")
        max_pip = rng.choice(sets)
        yield rng.sample(full_set(max_pip), size), rng.randrange(max_pip + 1)


def expanded(hand: list[Tile], open_end: int) -> int:
    """Return how many positions the search expands for *hand* (past the budget: budget + 1)."""
    search = _Trail(sorted(hand, reverse=True), DEFAULT_MAX_NODES)
    search.run(open_end)
    return DEFAULT_MAX_NODES - search.budget


def timed(hand: list[Tile], open_end: int) -> float:
    """Return the CPU seconds of one `longest_train` call."""
    start = time.process_time()
    longest_train(hand, open_end)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--hands", type=positive_int, default=300, help="hands of each size (default 300)"
    )
    parser.add_argument(
        "--dense", type=positive_int, default=100, help=f"hands of {DENSE} tiles (default 100)"
    )
    parser.add_argument("--quick", action="store_true", help="10 hands of each kind")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands = args.dense = 10
    print(f"longest_train, {'compiled' if COMPILED else 'pure Python'} build")
    print(f"{args.hands} hands of each size, sets double-9 to double-18")
    print(f"{'tiles':>5} {'most':>8} {'median':>8} {'µs each':>8}")
    for size in SIZES:
        counts: list[int] = []
        seconds = 0.0
        for hand, open_end in hands(size, args.hands, SETS):
            counts.append(expanded(hand, open_end))
            seconds += timed(hand, open_end)
        each = seconds / max(1, sum(counts)) * 1e6
        print(f"{size:>5} {max(counts):>8,} {statistics.median(counts):>8,.0f} {each:>8.1f}")
    over: list[float] = []
    for hand, open_end in hands(DENSE, args.dense, range(12, 13)):
        if expanded(hand, open_end) > DEFAULT_MAX_NODES:
            over.append(timed(hand, open_end))
    share = len(over) / args.dense
    took = f", {statistics.median(over):.2f} s each (median)" if over else ""
    print(
        f"{DENSE} tiles of a double-12 set, {args.dense} hands: {share:.0%} reach the budget "
        f"of {DEFAULT_MAX_NODES:,} positions{took}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
