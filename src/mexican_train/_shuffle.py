"""A reproducible shuffle (S6): the same seed gives the same deal on every platform.

The core never calls :mod:`random`, whose algorithms are free to change between
Python versions.  A seed and a round number are hashed with SHA-256 into the
state of a SplitMix64 generator, which drives a Fisher-Yates shuffle with
unbiased bounded draws.  Every step is fixed here, so deals never drift.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


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

    def next64() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound  # reject the biased top slice
        r = next64()
        while r >= limit:
            r = next64()
        j = r % bound
        out[i], out[j] = out[j], out[i]
    return tuple(out)
