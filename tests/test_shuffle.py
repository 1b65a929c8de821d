"""The reproducible shuffle (S6): the bulk-computed stream is the defined one."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from mexican_train._core.shuffle import (
    _MASK,
    _generator,
    _lanes,
    _may_reject,
    _mixed,
    _one_by_one,
    _shuffle,
    _unpacked,
    shuffled,
)


def _defined(n: int, seed: int, stream: int) -> tuple[int, ...]:
    # S6's shuffle as defined: SplitMix64 a value at a time, rejecting biased draws.
    out = list(range(n))
    digest = hashlib.sha256(f"mexican-train:{seed}:{stream}".encode()).digest()
    state = int.from_bytes(digest[:8], "little")
    _one_by_one(out, _generator(state))
    return tuple(out)


@given(st.integers(0, 500), st.integers(-(2**70), 2**70), st.integers(1, 40))
def test_s6_shuffle_is_the_defined_fisher_yates(n: int, seed: int, stream: int) -> None:
    assert shuffled(range(n), seed, stream) == _defined(n, seed, stream)


@given(st.integers(0, 2**64 - 1), st.integers(1, 200))
def test_s6_bulk_draws_are_splitmix64_one_by_one(state: int, count: int) -> None:
    next64 = _generator(state)
    assert list(_unpacked(_mixed(state, count), count)) == [next64() for _ in range(count)]


# Draws near the top of the 64-bit range, where the biased slice lies, and any others.
_draw = st.one_of(st.integers(2**64 - 300, 2**64 - 1), st.integers(0, 2**64 - 1))


@given(st.lists(_draw, min_size=1, max_size=200))
def test_s6_the_packed_rejection_test_is_the_one_draw_at_a_time_test(draws: list[int]) -> None:
    # _may_reject asks of the packed draws what a draw at a time would: is one of them
    # above 2**64 - 1 - n, n the largest bound (count + 1)?
    count = len(draws)
    packed = sum(draw << 128 * k for k, draw in enumerate(draws))
    assert _may_reject(packed, count) == (max(draws) > _MASK - (count + 1))


def test_s6_shuffle_pinned() -> None:
    # Pinned output: deals must never drift between versions or platforms.
    assert shuffled(range(10), 42, 1) == (7, 0, 9, 8, 4, 5, 6, 3, 2, 1)


def test_s6_a_draw_in_the_biased_slice_is_rejected() -> None:
    # 2**64 - 1 is in the biased top slice for a bound of 3: the next draw is taken.
    draws = iter([2**64 - 1, 4, 6])
    out = [0, 1, 2]
    _one_by_one(out, lambda: next(draws))
    assert out == [2, 0, 1]  # 4 % 3 = 1 swaps items 2 and 1, then 6 % 2 = 0 items 1 and 0


def test_s6_a_possibly_biased_draw_takes_the_exact_path() -> None:
    # Every packed draw 2**64 - 1, in the biased slice of every bound: the shuffle
    # ignores them and deals as the one-at-a-time definition does from the state.
    state = 12345
    out = list(range(30))
    _shuffle(out, state, _lanes(29)[2])
    defined = list(range(30))
    _one_by_one(defined, _generator(state))
    assert out == defined
    swapped = list(range(30))  # what swapping by those draws would deal instead
    for i in range(29, 0, -1):
        j = (2**64 - 1) % (i + 1)
        swapped[i], swapped[j] = swapped[j], swapped[i]
    assert out != swapped
