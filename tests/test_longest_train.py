"""`longest_train`: the longest chain a hand builds from an open end (P2), against brute force."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given

from mexican_train import InvalidArgumentError, Tile, full_set, longest_train
from mexican_train.players import Chain
from strategies import hands_and_ends


def brute_force_length(hand: tuple[Tile, ...], end: int) -> int:
    """Return the length of the longest train by trying every order (small hands only)."""
    best = 0

    def extend(end: int, used: frozenset[Tile], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for tile in hand:
            if tile not in used and tile.shows(end):
                extend(tile.other_end(end), used | {tile}, length + 1)

    extend(end, frozenset(), 0)
    return best


def assert_is_train(train: tuple[Tile, ...], hand: tuple[Tile, ...], end: int) -> None:
    """Check P2: each tile is from the hand, used once, and joins the previous open end."""
    assert len(set(train)) == len(train)
    assert set(train) <= set(hand)
    for tile in train:
        assert tile.shows(end), (train, end)
        end = tile.other_end(end)


@given(hands_and_ends())
def test_p2_longest_train_is_a_valid_train_from_the_open_end(
    case: tuple[tuple[Tile, ...], int],
) -> None:
    hand, end = case
    assert_is_train(longest_train(hand, end), hand, end)


@given(hands_and_ends())
def test_longest_train_is_as_long_as_the_brute_force_finds(
    case: tuple[tuple[Tile, ...], int],
) -> None:
    hand, end = case
    assert len(longest_train(hand, end)) == brute_force_length(hand, end)


def test_a_double_is_played_when_its_number_comes_up() -> None:
    """D1 aside, a double of a number the train passes through always lengthens it."""
    assert longest_train(["6-6", "6-2", "2-2", "2-1"], 6) == (
        Tile(6, 6), Tile(6, 2), Tile(2, 2), Tile(2, 1),
    )  # fmt: skip


def test_the_search_finds_an_euler_trail_through_a_whole_double_six_set() -> None:
    """Every number of a double-6 set has even degree: the whole set is one train."""
    train = longest_train(full_set(6), 0)
    assert len(train) == 28
    assert_is_train(train, full_set(6), 0)


def test_real_hands_are_solved_exactly_within_the_default_budget() -> None:
    """Hands of a real deal (15 tiles, double-12) reach the brute force's length; quickly."""
    rng = random.Random(5)
    for _ in range(30):
        hand = tuple(rng.sample(full_set(12), 15))
        end = rng.randint(0, 12)
        assert len(longest_train(hand, end)) == brute_force_length(hand, end)


def test_a_spent_budget_still_returns_a_valid_train() -> None:
    """40 tiles of a double-12 set: 50 nodes stop the search one tile short of the
    longest train (38, found within the default budget), with a valid train of 37."""
    rng = random.Random(3)
    hand = tuple(rng.sample(full_set(12), 40))
    train = longest_train(hand, 4, max_nodes=50)
    assert_is_train(train, hand, 4)
    assert len(train) == 37
    assert len(longest_train(hand, 4)) == 38


def test_strings_are_read_as_tiles() -> None:
    assert longest_train(["5-12", "5-3"], 12) == (Tile(12, 5), Tile(5, 3))


@pytest.mark.parametrize(
    ("hand", "end", "message"),
    [
        (["6-5", "5-6"], 6, "6-5 repeated"),
        (["6-5"], -1, "open_end"),
        (["6-5"], "6", "open_end"),
        (["6-x"], 6, "12-5"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    hand: list[str], end: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        longest_train(hand, end)  # type: ignore[arg-type]


def test_a_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="max_nodes"):
        longest_train(["6-5"], 6, max_nodes=0)


def test_longest_train_reads_as_a_joined_chain() -> None:
    """Each tile turned so that the touching numbers meet (P2)."""
    chain = longest_train(["12-5", "5-3", "5-5", "3-9", "12-1", "9-9"], 12)
    assert repr(chain) == "Chain('12-5 5-5 5-3 3-9 9-9', start=12)"
    assert str(chain) == "12-5 5-5 5-3 3-9 9-9"
    assert chain.end == 9


def test_a_chain_is_the_tuple_of_its_tiles_and_pickles() -> None:
    chain = longest_train(["6-6", "6-2", "2-2", "2-1"], 6)
    assert chain == tuple(chain)
    assert hash(chain) == hash(tuple(chain))
    again = pickle.loads(pickle.dumps(chain))
    assert (again, again.start, repr(again)) == (chain, 6, repr(chain))


def test_a_chain_refuses_tiles_that_do_not_join() -> None:
    with pytest.raises(InvalidArgumentError, match="does not show 5"):
        Chain("12-5 3-9", start=12)


@pytest.mark.parametrize("start", [-5, 31, "6", None, True])
def test_a_chain_refuses_a_start_that_is_no_number_on_a_tile(start: object) -> None:
    """An empty chain has no tile to check its start against: it was taken."""
    for tiles in ("", "6-5"):
        with pytest.raises(InvalidArgumentError, match="start is a whole number from 0 to 30"):
            Chain(tiles, start=start)  # type: ignore[arg-type]


def test_a_chain_refuses_what_is_not_a_tile_as_longest_train_does() -> None:
    with pytest.raises(TypeError, match="a chain holds Tiles or 'a-b' strings, not 3"):
        Chain(["6-5", 3], start=6)  # type: ignore[list-item]
