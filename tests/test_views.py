"""Player views hide what a seat may not see (S5, V10): the noninterference property.

Two states that differ only in what a seat cannot see (the other hands, the
boneyard's order) must give that seat equal views, at every step of random games
under both presets.  The twin state is built by dealing the hidden tiles
differently, keeping every hand's size.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import random
import weakref
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    STANDARD,
    GameState,
    NextRound,
    PlayerView,
    Rules,
    Tile,
    Train,
    apply,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train._core.view import view_position
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
    """Yield every tile held anywhere in *value* (fields, tuples, nested)."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from tiles_in(item)
    elif isinstance(value, PlayerView):  # rules hold no tiles
        for name in PlayerView.FIELDS:
            if name != "rules":
                yield from tiles_in(getattr(value, name))
    elif isinstance(value, Train):
        yield from value.tiles
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


@given(histories(tables=variant_tables(), max_moves=150), hidden_shuffles())
def test_s5_the_state_a_view_keeps_for_its_legal_moves_holds_no_secret(
    states: list[GameState], rng: random.Random
) -> None:
    """S5: `legal_moves(view)` reads a state built from what the view shows: the viewer's
    hand only, no boneyard, seed 0; the same for a twin that differs in hidden tiles, and
    the same when the view is rebuilt from its public fields alone."""
    for state in states:
        for seat in seats_and_spectator(state):
            mine = view_of(state, seat)
            twin = view_of(hidden_twin(state, seat, rng), seat)
            rebuilt = PlayerView(*[getattr(mine, name) for name in PlayerView.FIELDS])
            assert legal_moves(mine) == legal_moves(twin) == legal_moves(rebuilt)
            position = view_position(mine)
            assert position == view_position(twin) == view_position(rebuilt)
            assert (position.seed, position.boneyard) == (0, ())
            assert position.boneyard_size == state.boneyard_size
            assert position.trains == state.trains
            for other, hand in enumerate(position.hands):
                assert hand == (state.hands[other] if other == seat else ())


#: The fields a view and the state it keeps for its legal moves both have.
SHARED_FIELDS = tuple(name for name in PlayerView.FIELDS if name in GameState.FIELDS)


@given(histories() | histories(tables=variant_tables(), max_moves=150))
def test_the_state_a_view_keeps_agrees_with_it_in_every_field_they_share(
    states: list[GameState],
) -> None:
    """The position `legal_moves(view)` reads, rebuilt from the view (and its round shared
    between views of the same public round), shows what the view shows: the first player,
    the scores, the turn, the trains ... of this view, not of another seen before."""
    for state in states:
        for seat in seats_and_spectator(state):
            seen = view_of(state, seat)
            position = view_position(seen)
            for name in SHARED_FIELDS:
                assert getattr(position, name) == getattr(seen, name), name


def test_views_of_rounds_with_other_first_players_read_their_own_first_player() -> None:
    """S3: two deals of round 1 whose engines went to different seats; each view's
    position has its own first player."""
    firsts: dict[int, GameState] = {}
    for seed in range(6):
        state = new_game(4, STANDARD, seed=seed)
        firsts.setdefault(state.first_player, state)
    assert len(firsts) > 1
    for first, state in firsts.items():
        assert view_position(view(state, 0)).first_player == first
        assert view_position(spectator_view(state)).first_player == first


@given(histories() | histories(tables=variant_tables(), max_moves=150))
def test_a_view_s_turn_and_winners_are_the_state_s(states: list[GameState]) -> None:
    """A view's turn is its seat's turn to move: never a spectator's, nobody's between
    rounds (E4); its winners are the state's, and there are none before the game ends."""
    for state in states:
        for seat in seats_and_spectator(state):
            seen = view_of(state, seat)
            assert seen.is_my_turn is (seat is not None and seat == state.current_player)
            assert seen.winners == state.winners
            assert bool(seen.winners) is state.is_over


@given(
    rounds=st.lists(st.lists(st.integers(0, 2), min_size=3, max_size=3), min_size=1, max_size=4),
    tie_break=st.booleans(),
    is_over=st.booleans(),
)
# Totals tied at 2: seat 0 wins on its round at 0 (E5), or all three share (no tie break).
@example(rounds=[[0, 1, 1], [2, 1, 1]], tie_break=True, is_over=True)
@example(rounds=[[0, 1, 1], [2, 1, 1]], tie_break=False, is_over=True)
def test_every_view_names_the_state_s_winners_tie_break_included(
    rounds: list[list[int]], tie_break: bool, is_over: bool
) -> None:
    """E5: with totals that often tie, every seat's view and a spectator's name the
    state's winners, broken by the rules' tie break or shared (Rules.tie_break)."""
    round_scores = tuple(tuple(points) for points in rounds)
    state = new_game(3, attrs.evolve(HUB, tie_break=tie_break), seed=1).replace(
        round_scores=round_scores,
        scores=tuple(map(sum, zip(*round_scores, strict=True))),
        is_over=is_over,
    )
    assert bool(state.winners) is is_over
    for seat in seats_and_spectator(state):
        assert view_of(state, seat).winners == state.winners


def test_views_of_rounds_that_differ_only_in_their_past_read_their_own_round() -> None:
    """The round a view's position reads is shared by views of the same public round, and
    never by views whose scores or round scores differ."""
    mine = view(new_game(4, HUB, seed=1), 0)
    other = view(new_game(4, HUB, seed=2), 0)
    assert (mine.engine, mine.first_player) == (other.engine, other.first_player)
    assert view_position(mine)._round is view_position(other)._round
    past = mine.replace(round_scores=((3, 0, 0, 0),), scores=(3, 0, 0, 0))
    other_past = mine.replace(round_scores=((1, 0, 2, 0),), scores=(3, 0, 0, 0))
    for changed in (past, other_past, past):
        position = view_position(changed.replace())
        assert (position.scores, position.round_scores) == (changed.scores, changed.round_scores)
    assert view_position(mine).round_scores == ()


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
                assert not set(tiles_in(seen.replace(open_hands=None))) & others
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
    names = set(PlayerView.FIELDS)
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


# -- a view as a value (a plain slotted class, not an attrs class) ---------------------


def some_views() -> list[PlayerView]:
    state = new_game(4, HUB, seed=3)
    for _ in range(30):
        state = apply(state, legal_moves(state)[-1])
    return [view(state, seat) for seat in range(4)] + [spectator_view(state)]


def test_a_view_refuses_every_assignment_and_deletion() -> None:
    mine = some_views()[0]
    for name in (*PlayerView.FIELDS, "_hash", "colour"):
        with pytest.raises(AttributeError, match="frozen"):
            setattr(mine, name, 1)
        with pytest.raises(AttributeError, match="frozen"):
            delattr(mine, name)
    assert mine == some_views()[0]


def test_a_view_is_built_alike_by_position_and_by_keyword_with_two_defaults() -> None:
    for mine in some_views():
        values = [getattr(mine, name) for name in PlayerView.FIELDS]
        assert PlayerView(*values) == mine
        assert PlayerView(**dict(zip(PlayerView.FIELDS, values, strict=True))) == mine
        short = PlayerView(*values[:-2])
        assert (short.open_hands, short.last_tile_called) == (None, False)
    parameters = list(inspect.signature(PlayerView).parameters)
    assert tuple(parameters) == PlayerView.FIELDS


def test_replace_changes_the_named_fields_only() -> None:
    mine = some_views()[1]
    changed = mine.replace(scores=(1, 2, 3, 4), seat=None)
    assert (changed.scores, changed.seat) == ((1, 2, 3, 4), None)
    for name in PlayerView.FIELDS:
        if name not in ("scores", "seat"):
            assert getattr(changed, name) == getattr(mine, name)
    assert mine.replace() == mine
    with pytest.raises(TypeError, match="no field 'boneyard'"):
        mine.replace(boneyard=())  # type: ignore[call-arg]


def test_a_view_is_a_hashable_value_that_pickles_and_copies() -> None:
    for mine, again in zip(some_views(), some_views(), strict=True):
        assert mine == again
        assert hash(mine) == hash(again)
        assert mine is not again
        assert mine != mine.replace(turn_tiles=mine.turn_tiles + 1)
        assert mine != tuple(getattr(mine, name) for name in PlayerView.FIELDS)
        loaded = pickle.loads(pickle.dumps(mine))
        assert type(loaded) is PlayerView
        assert loaded == mine
        assert hash(loaded) == hash(mine)
        assert copy.copy(mine) is mine
        assert copy.deepcopy(mine) is mine
        assert weakref.ref(mine)() is mine


def test_a_view_cannot_be_subclassed() -> None:
    with pytest.raises(TypeError, match="cannot be subclassed"):
        type("Mine", (PlayerView,), {})
