"""A reproducible shuffle (S6): the same seed gives the same deal on every platform.

The core never calls :mod:`random`, whose algorithms are free to change between
Python versions.  A seed and a round number are hashed with SHA-256 into the
state of a SplitMix64 generator, which drives a Fisher-Yates shuffle with
unbiased bounded draws.  Every step is fixed here, so deals never drift.

SplitMix64's *k*-th output depends only on the seed state and *k*, so the draws
a shuffle needs are computed all at once (`_mixed`): packed side by side into one
large integer, 128 bits apart, they go through the mixing steps together, a few
big-integer operations instead of a dozen per draw.  The result is the very
stream `_one_by_one` computes a value at a time; `shuffled` falls back on that
one in the rare shuffle (odds below one in 10**13) where a draw lands in the
biased top slice and must be rejected.  That test is made on the packed draws
too (`_may_reject`), before any is unpacked.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from operator import mod
from typing import Any, Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB


def shuffled(items: Sequence[T], seed: int, stream: int) -> tuple[T, ...]:
    """Return *items* in an order fixed by *seed* and *stream* (here, the round number).

    >>> shuffled(range(8), 42, 1) == shuffled(range(8), 42, 1)
    True
    >>> sorted(shuffled(range(8), 42, 1))
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    digest = hashlib.sha256(f"mexican-train:{seed}:{stream}".encode()).digest()
    state = int.from_bytes(digest[:8], "little")
    out = list(items)
    if len(out) > 1:
        _shuffle(out, state, _mixed(state, len(out) - 1))
    return tuple(out)


def _shuffle(out: list[Any], state: int, mixed: int) -> None:
    # Fisher-Yates on *out*, from the generator *state*, whose first len(out) - 1
    # draws *mixed* holds (`_mixed`).
    n = len(out)
    if _may_reject(mixed, n - 1):
        # A draw may be in the biased top slice of its bound: take the exact,
        # one-at-a-time path, which rejects it and draws again.
        _one_by_one(out, _generator(state))
        return
    # No draw is rejected: item i swaps with item (i-th draw mod i + 1), i from the top.
    i = n - 1
    j: int  # typed, so a compiled build swaps with native list operations
    for j in map(mod, _unpacked(mixed, n - 1), range(n, 1, -1)):
        out[i], out[j] = out[j], out[i]
        i -= 1


def _one_by_one(out: list[Any], next64: Callable[[], int]) -> None:
    # Fisher-Yates with unbiased bounded draws: the definition of the shuffle.
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound  # reject the biased top slice
        r = next64()
        while r >= limit:
            r = next64()
        j = r % bound
        out[i], out[j] = out[j], out[i]


def _generator(state: int) -> Callable[[], int]:
    # SplitMix64, one output per call.
    def next64() -> int:
        nonlocal state
        state = (state + _GAMMA) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    return next64


def _mixed(state: int, count: int) -> int:
    """Return the first *count* outputs of SplitMix64 from *state*, packed in one int.

    Output k sits in bits 128k .. 128k + 63, and the 64 bits above it are zero.  A
    lane holds a 64-bit value and room above it, so a product by a 64-bit constant
    stays in its lane, and masking with `_lanes`' mask after each step keeps every
    lane to 64 bits (the bits a right shift brings down from the lane above are
    masked away).
    """
    ones, steps, mask, _, _ = _lanes(count)
    z = (state * ones + steps) & mask  # lane k: state + (k + 1) * gamma, mod 2**64
    z = ((z ^ ((z >> 30) & mask)) * _MIX1) & mask
    z = ((z ^ ((z >> 27) & mask)) * _MIX2) & mask
    return z ^ ((z >> 31) & mask)


def _may_reject(mixed: int, count: int) -> bool:
    """Return whether a draw of *mixed* (`_mixed`) lies in the biased top slice.

    A draw for a bound of at most n = count + 1 is rejected only above 2**64 - 1 - n,
    so this asks whether any lane plus n reaches 2**64: one addition of n to every
    lane, and a look at the bit just above each.  (It may say yes for a draw a
    smaller bound keeps; the exact path then deals the same.)
    """
    _, _, _, bound, carry = _lanes(count)
    return (mixed + bound) & carry != 0


def _unpacked(mixed: int, count: int) -> Sequence[int]:
    # The draws of *mixed* (`_mixed`), in order.
    words = array("Q", mixed.to_bytes(16 * count, "little"))  # "Q": exactly 8 bytes
    if sys.byteorder == "big":
        words.byteswap()
    return words[::2]  # the low half of each lane


@cache
def _lanes(count: int) -> tuple[int, int, int, int, int]:
    # For *count* lanes: 1 in each lane, gamma * (k + 1) in lane k, 2**64 - 1 in each
    # lane, count + 1 (the largest bound) in each lane, and bit 64 of each lane.
    ones = sum(1 << 128 * k for k in range(count))
    steps = sum(_GAMMA * (k + 1) << 128 * k for k in range(count))
    return ones, steps, _MASK * ones, (count + 1) * ones, ones << 64
