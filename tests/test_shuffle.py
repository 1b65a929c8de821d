"""The reproducible shuffle (S6): the bulk-computed stream is the defined one."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mexican_train import _shuffle
from mexican_train._shuffle import _draws, _generator, _one_by_one, shuffled


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
    assert list(_draws(state, count)) == [next64() for _ in range(count)]


def test_s6_shuffle_pinned() -> None:
    # Pinned output: deals must never drift between versions or platforms.
    assert shuffled(range(10), 42, 1) == (7, 0, 9, 8, 4, 5, 6, 3, 2, 1)


def test_s6_a_draw_in_the_biased_slice_is_rejected() -> None:
    # 2**64 - 1 is in the biased top slice for a bound of 3: the next draw is taken.
    draws = iter([2**64 - 1, 4, 6])
    out = [0, 1, 2]
    _one_by_one(out, lambda: next(draws))
    assert out == [2, 0, 1]  # 4 % 3 = 1 swaps items 2 and 1, then 6 % 2 = 0 items 1 and 0


def test_s6_a_possibly_biased_draw_takes_the_exact_path(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = shuffled(range(30), 7, 2)
    monkeypatch.setattr(_shuffle, "_draws", lambda state, count: [2**64 - 1] * count)
    assert shuffled(range(30), 7, 2) == expected  # the exact path ignores the bulk draws
