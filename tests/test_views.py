"""Player views hide what a seat may not see (S5, V10): the noninterference property.

Two states that differ only in what a seat cannot see (the other hands, the
boneyard's order) must give that seat equal views, at every step of random games
under both presets.  The twin state is built by dealing the hidden tiles
differently, keeping every hand's size.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
from hypothesis import given

from mexican_train import (
    HUB,
    STANDARD,
    GameState,
    NextRound,
    PlayerView,
    Rules,
    Tile,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from strategies import hidden_shuffles, histories, variant_tables


def hidden_twin(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """Return *state* with the tiles *seat* cannot see dealt anew (same hand sizes).

    A spectator (None) sees no hand; under open hands (V10) only the boneyard is hidden.
    """
    open_hands = state.rules.open_hands
    others = [s for s in range(state.players) if s != seat and not open_hands]
    pool = [tile for s in others for tile in state.hands[s]] + list(state.boneyard)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(state.hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    return state.replace(hands=tuple(hands), boneyard=tuple(pool))


def tiles_in(value: object) -> Iterator[Tile]:
    """Yield every tile held anywhere in *value* (attrs fields, tuples, nested)."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from tiles_in(item)
    elif attrs.has(type(value)) and not isinstance(value, Rules):  # rules hold no tiles
        cls: Any = type(value)
        for field in attrs.fields(cls):
            yield from tiles_in(getattr(value, field.name))


def seats_and_spectator(state: GameState) -> list[int | None]:
    return [*range(state.players), None]


def view_of(state: GameState, seat: int | None) -> PlayerView:
    return spectator_view(state) if seat is None else view(state, seat)


@given(histories(), hidden_shuffles())
def test_s5_noninterference_every_seat_every_step_presets(
    states: list[GameState], rng: random.Random
) -> None:
    """S5: hidden tiles dealt differently give every seat (and a spectator) the same view."""
    for state in states:
        for seat in seats_and_spectator(state):
            twin = hidden_twin(state, seat, rng)
            assert view_of(twin, seat) == view_of(state, seat)


@given(histories(tables=variant_tables(), max_moves=150), hidden_shuffles())
def test_s5_v10_noninterference_under_variants(states: list[GameState], rng: random.Random) -> None:
    """S5, V10: noninterference holds for any rules, open hands included."""
    for state in states:
        for seat in seats_and_spectator(state):
            assert view_of(hidden_twin(state, seat, rng), seat) == view_of(state, seat)


@given(histories())
def test_legal_moves_of_a_view_are_the_states_on_the_viewers_turn(
    states: list[GameState],
) -> None:
    """A view offers the state's moves to the seat to move, nothing to the others."""
    for state in states:
        for seat in range(state.players):
            mine = legal_moves(view(state, seat))
            if state.current_player is None:
                expected = () if state.is_over else (NextRound(),)
                assert mine == expected == legal_moves(state)
            elif seat == state.current_player:
                assert mine == legal_moves(state)
            else:
                assert mine == ()


@given(histories(tables=variant_tables(), max_moves=150))
def test_legal_moves_of_a_view_under_variants(states: list[GameState]) -> None:
    """The same holds under any rules (V1-V10)."""
    for state in states:
        seat = state.current_player
        if seat is not None:
            assert legal_moves(view(state, seat)) == legal_moves(state)


@given(histories(tables=variant_tables(), max_moves=150))
def test_s5_v10_a_view_holds_no_tile_of_another_hand_unless_hands_are_open(
    states: list[GameState],
) -> None:
    """S5: no tile of another hand or of the boneyard is anywhere in a view (V10 aside)."""
    for state in states:
        boneyard = set(state.boneyard)
        for seat in seats_and_spectator(state):
            seen = view_of(state, seat)
            found = set(tiles_in(seen))
            assert not found & boneyard
            others = {t for s in range(state.players) if s != seat for t in state.hands[s]}
            if state.rules.open_hands:
                # V10: other hands are shown, and only in open_hands.
                assert seen.open_hands == state.hands
                assert not set(tiles_in(attrs.evolve(seen, open_hands=None))) & others
            else:
                assert seen.open_hands is None
                assert not found & others


@given(histories(max_moves=100))
def test_s5_a_spectator_view_has_no_hand(states: list[GameState]) -> None:
    """S5: a spectator sees no hand at all, only the hand sizes."""
    for state in states:
        watched = spectator_view(state)
        assert watched.seat is None
        assert watched.hand == ()
        assert watched.hand_sizes == tuple(len(hand) for hand in state.hands)
        assert legal_moves(watched) == ((NextRound(),) if state.current_player is None else ())


def test_s5_a_view_is_a_frozen_value_without_secret_fields() -> None:
    """A view has no boneyard, no seed and no other hands: structurally, not by convention."""
    names = {field.name for field in attrs.fields(PlayerView)}
    assert not names & {"hands", "boneyard", "seed"}
    state = new_game(4, HUB, seed=1)
    assert hash(view(state, 0)) == hash(view(state, 0))


def test_v10_open_hands_view_changes_when_other_hands_do() -> None:
    """V10: with open hands a view shows the other hands, so dealing them anew shows."""
    rules = attrs.evolve(STANDARD, open_hands=True)
    state = new_game(3, rules, seed=11)
    swapped = list(state.hands)
    swapped[1], swapped[2] = swapped[2], swapped[1]
    twin = state.replace(hands=tuple(swapped))
    assert view(twin, 0) != view(state, 0)
    assert view(twin, 0).hand == view(state, 0).hand
