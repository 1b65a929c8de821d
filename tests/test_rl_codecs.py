"""The action and observation encodings of `mexican_train.rl`.

The action codec must number every move of a game once, decode what it encodes,
and mask exactly the legal moves; the observation codec must stay inside its
space and, like the views it encodes, reveal nothing a seat may not know (S5).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    VARIANTS,
    CallLastTile,
    Deal,
    Draw,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Move,
    NextRound,
    Pass,
    Play,
    Tile,
    apply,
    full_set,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train.rl import (
    ENCODING_VERSION,
    ActionCodec,
    ObservationCodec,
    round_rewards,
    tile_index,
    vector_env,
)
from strategies import catalogue_tables, hidden_shuffles, histories, positions, variant_tables
from test_views import hidden_twin


def mover(state: GameState) -> int:
    """The seat whose view decides the next move (seat 0 between rounds)."""
    return 0 if state.current_player is None else state.current_player


def every_move(players: int, max_pip: int) -> list[Move]:
    """Every move a game of this size can name: each tile on each train, and the others."""
    trains = [*range(players), MEXICAN]
    plays: list[Move] = [Play(tile, train) for tile in full_set(max_pip) for train in trains]
    return [*plays, Draw(), Pass(), NextRound(), CallLastTile()]


# -- the action codec ----------------------------------------------------------------------------


@given(positions(tables=catalogue_tables()))
def test_every_legal_move_round_trips_under_every_variant(state: GameState) -> None:
    """decode(encode(m)) is m for every legal move, in every catalogue variant."""
    codec = ActionCodec(state.rules, state.players)
    seat = mover(state)
    for move in legal_moves(state):
        assert codec.decode(codec.encode(move, seat), seat) is move


@given(positions(tables=catalogue_tables()))
def test_the_mask_is_exactly_the_legal_moves_under_every_variant(state: GameState) -> None:
    """The mask has a 1 at the index of each legal move of the mover, and nowhere else."""
    codec = ActionCodec(state.rules, state.players)
    seat = mover(state)
    mask = codec.mask(view(state, seat))
    assert mask.dtype == np.int8
    assert mask.shape == (codec.size,)
    offered = {codec.decode(int(index), seat) for index in np.flatnonzero(mask)}
    assert offered == set(legal_moves(state))
    assert int(mask.sum()) == len(legal_moves(state))


@given(positions(tables=catalogue_tables()))
def test_the_mask_of_a_seat_not_to_move_is_all_zeros(state: GameState) -> None:
    """Only the seat to move (or any seat between rounds, for NextRound) has legal actions."""
    codec = ActionCodec(state.rules, state.players)
    for seat in range(state.players):
        mask = codec.mask(view(state, seat))
        if state.current_player is not None and seat != state.current_player:
            assert not mask.any()
        else:
            assert int(mask.sum()) == len(legal_moves(state))


@pytest.mark.parametrize(("rules", "players"), [(STANDARD, 2), (HUB, 4), (STANDARD, 9)])
def test_every_move_has_its_own_index_for_every_seat(rules: object, players: int) -> None:
    """The numbering is a bijection between the game's moves and range(size), for each seat."""
    codec = ActionCodec(HUB if rules is HUB else STANDARD, players)
    moves = every_move(players, codec.max_pip)
    for seat in range(players):
        indices = [codec.encode(move, seat) for move in moves]
        assert sorted(indices) == list(range(codec.size))
        assert [codec.decode(index, seat) for index in indices] == moves


def test_trains_are_numbered_relative_to_the_acting_seat() -> None:
    """Slot 0 is the actor's own train, slot k the train of seat+k, slot P the Mexican train."""
    codec = ActionCodec(HUB, 4)
    tile = Tile(7, 3)
    base = tile_index(tile) * 5
    assert codec.encode(Play(tile, 2), seat=2) == base + 0
    assert codec.encode(Play(tile, 3), seat=2) == base + 1
    assert codec.encode(Play(tile, 0), seat=2) == base + 2
    assert codec.encode(Play(tile, MEXICAN), seat=2) == base + 4
    assert codec.encode(Play(tile, MEXICAN), seat=0) == base + 4


@pytest.mark.parametrize("tile", ["12-5", None, 3, (12, 5)])
def test_tile_index_of_what_is_not_a_tile_raises_type_error(tile: object) -> None:
    with pytest.raises(TypeError, match=r"tile_index\(\) needs a Tile, not "):
        tile_index(tile)  # type: ignore[arg-type]


def test_round_rewards_of_no_seats_raises_invalid_argument() -> None:
    with pytest.raises(InvalidArgumentError, match=r"round_rewards\(\) needs one score a seat"):
        round_rewards(())


def test_round_rewards_reads_the_points_of_a_numpy_array() -> None:
    """The round's points as an RL program holds them: an array has no truth value."""
    points = np.array([0, 10, 20, 30])
    assert round_rewards(points) == (15.0, 5.0, -5.0, -15.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="one score a seat"):
        round_rewards(np.array([], dtype=int))  # type: ignore[arg-type]


def test_tile_indices_follow_the_documented_formula() -> None:
    """tile index = high * (high + 1) // 2 + low: 0 .. T - 1 over a set, in a fixed order."""
    indices = [tile_index(tile) for tile in full_set(12)]
    assert sorted(indices) == list(range(91))
    assert tile_index(Tile(12, 5)) == 12 * 13 // 2 + 5


@pytest.mark.parametrize("index", [-1, 459, 10**30])
def test_decode_refuses_what_is_not_an_action(index: object) -> None:
    """An index outside range(size) is refused, naming it."""
    codec = ActionCodec(HUB, 4)
    with pytest.raises(InvalidArgumentError, match="an action is a whole number 0-458"):
        codec.decode(index, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [True, np.True_, 2.0, "3", None])
def test_decode_refuses_what_is_not_a_whole_number_with_type_error(index: object) -> None:
    """A value of the wrong kind altogether is a TypeError; a bool is not taken for a number."""
    codec = ActionCodec(HUB, 4)
    with pytest.raises(TypeError, match="an action is a whole number 0-458"):
        codec.decode(index, 0)  # type: ignore[arg-type]


def test_decode_accepts_numpy_integers() -> None:
    """Spaces sample numpy integers: they decode like ints."""
    codec = ActionCodec(HUB, 4)
    assert codec.decode(np.int64(455), 1) is Draw()
    assert codec.decode(np.int32(0), 1) == Play(Tile(0, 0), 1)


def test_a_seat_may_be_a_numpy_integer_as_self_play_gives_it() -> None:
    """The self-play tables give each seat to move as a numpy integer (``infos["seat"]``):
    the codec takes it for that seat, in decode and encode alike."""
    tables = vector_env(2, players=3, rules=HUB, self_play=True)
    observation, infos = tables.reset(seed=1)
    codec = tables.actions
    for row, seat in enumerate(infos["seat"]):
        assert isinstance(seat, np.integer)
        index = int(np.flatnonzero(observation["action_mask"][row])[0])
        move = codec.decode(index, seat)
        assert move == codec.decode(index, int(seat))
        assert codec.encode(move, seat) == index
    with pytest.raises(InvalidArgumentError, match="a seat is 0-2 in a 3-player game, not "):
        codec.decode(0, np.int64(3))
    with pytest.raises(InvalidArgumentError, match="a seat is 0-2 in a 3-player game, not "):
        codec.encode(Draw(), np.bool_(True))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("move", "words"),
    [
        (Play(Tile(13, 0), 0), "outside the double-12 set"),
        (Play(Tile(3, 0), 4), "names train 4"),
    ],
)
def test_encode_refuses_a_move_the_game_cannot_have(move: Move, words: str) -> None:
    """A tile outside the set in use, or a train the game has not, is refused (S1, P2)."""
    with pytest.raises(InvalidArgumentError, match=words):
        ActionCodec(HUB, 4).encode(move, 0)


@pytest.mark.parametrize("seat", [-1, 4, True, "0"])
def test_codec_refuses_a_seat_the_game_does_not_have(seat: object) -> None:
    """A seat outside 0..P-1 is refused by encode and decode alike."""
    codec = ActionCodec(HUB, 4)
    with pytest.raises(InvalidArgumentError, match="a seat is 0-3"):
        codec.encode(Draw(), seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="a seat is 0-3"):
        codec.decode(0, seat)  # type: ignore[arg-type]


def test_encode_refuses_a_non_move() -> None:
    """Something that is not a move is a TypeError saying so."""
    with pytest.raises(TypeError, match="needs a move"):
        ActionCodec(HUB, 4).encode("6-5", 0)  # type: ignore[arg-type]


def test_codecs_refuse_a_spectator_view_and_another_games_view() -> None:
    """Encodings are relative to one seat of one game: anything else is refused (S5)."""
    state = new_game(4, HUB, seed=1)
    for encode in (ActionCodec(HUB, 4).mask, ObservationCodec(HUB, 4).encode):
        with pytest.raises(InvalidArgumentError, match="spectator"):
            encode(spectator_view(state))
        with pytest.raises(InvalidArgumentError, match="3-player game"):
            encode(view(new_game(3, HUB, seed=1), 0))
        with pytest.raises(InvalidArgumentError, match="under other rules"):
            encode(view(new_game(4, STANDARD, seed=1), 0))
        with pytest.raises(TypeError, match="needs a PlayerView"):
            encode(state)  # type: ignore[arg-type]


def test_codecs_refuse_a_player_count_the_table_does_not_cover() -> None:
    """S1: the codec's set comes from the deal table, which refuses 15 players."""
    with pytest.raises(Exception, match="covers 2-14 players"):
        ActionCodec(STANDARD, 15)
    with pytest.raises(TypeError, match="Rules value"):
        ObservationCodec("hub", 4)  # type: ignore[arg-type]


def test_an_illegal_action_is_still_refused_by_apply() -> None:
    """The codec decodes any index; legality stays apply's business (it names the rule)."""
    state = new_game(4, HUB, seed=1)
    codec = ActionCodec(HUB, 4)
    illegal = int(np.flatnonzero(codec.mask(view(state, 0)) == 0)[0])
    with pytest.raises(IllegalMoveError):
        apply(state, codec.decode(illegal, 0))


# -- the observation codec -----------------------------------------------------------------------


@given(positions(tables=catalogue_tables()))
def test_observations_lie_in_their_space_under_every_variant(state: GameState) -> None:
    """Every seat's encoding is a float32 array of the documented shape, inside the space."""
    codec = ObservationCodec(state.rules, state.players)
    for seat in range(state.players):
        obs = codec.encode(view(state, seat))
        assert obs.dtype == np.float32
        assert obs.shape == codec.shape
        assert codec.space.contains(obs)


@given(positions(tables=catalogue_tables()))
def test_observations_hold_the_hand_and_the_table(state: GameState) -> None:
    """Row 0 of the hands block is the seat's hand; the table block, every tile laid (P2)."""
    codec = ObservationCodec(state.rules, state.players)
    seat = mover(state)
    obs = codec.encode(view(state, seat))
    hands = obs[codec.layout["hands"]].reshape(state.players, -1)
    assert set(np.flatnonzero(hands[0])) == {tile_index(t) for t in state.hand(seat)}
    laid = {tile_index(t) for train in state.trains for t in train.tiles}
    laid.add(tile_index(state.engine))
    assert set(np.flatnonzero(obs[codec.layout["table"]])) == laid


@given(positions(tables=catalogue_tables()))
def test_s5_v10_other_hands_are_encoded_only_when_hands_are_open(state: GameState) -> None:
    """S5: other rows of the hands block are empty; V10: with open hands they are the hands."""
    codec = ObservationCodec(state.rules, state.players)
    seat = mover(state)
    hands = codec.encode(view(state, seat))[codec.layout["hands"]].reshape(state.players, -1)
    for k in range(1, state.players):
        other = state.hand((seat + k) % state.players)
        expected = {tile_index(t) for t in other} if state.rules.open_hands else set()
        assert set(np.flatnonzero(hands[k])) == expected


def watched_seats(state: GameState, rng: random.Random) -> list[int]:
    """The seat to move (whose mask is not empty) and one other seat, at random."""
    seat = mover(state)
    others = [s for s in range(state.players) if s != seat]
    return [seat, rng.choice(others)]


@given(histories(), hidden_shuffles())
def test_s5_observation_noninterference_presets(
    states: list[GameState], rng: random.Random
) -> None:
    """S5: hidden tiles dealt differently give a seat the same observation and mask.

    At every step of random games, for the seat to move and another seat.
    """
    for state in states:
        actions = ActionCodec(state.rules, state.players)
        observations = ObservationCodec(state.rules, state.players)
        for seat in watched_seats(state, rng):
            twin = hidden_twin(state, seat, rng)
            assert np.array_equal(
                observations.encode(view(twin, seat)), observations.encode(view(state, seat))
            )
            assert np.array_equal(actions.mask(view(twin, seat)), actions.mask(view(state, seat)))


@given(histories(tables=variant_tables(), max_moves=150), hidden_shuffles())
def test_s5_v10_observation_noninterference_under_variants(
    states: list[GameState], rng: random.Random
) -> None:
    """S5, V10: noninterference of the tensors holds for any rules, open hands included."""
    for state in states:
        observations = ObservationCodec(state.rules, state.players)
        for seat in watched_seats(state, rng):
            twin = hidden_twin(state, seat, rng)
            assert np.array_equal(
                observations.encode(view(twin, seat)), observations.encode(view(state, seat))
            )


def test_v10_open_hands_change_the_observation_when_another_hand_does() -> None:
    """V10: with open hands the other hands are known, so the tensor must see them."""
    rules = VARIANTS["open-hands"]
    tiles = list(full_set(9))
    hands = [tiles[:15], tiles[15:30], tiles[30:45]]
    state = new_game(3, rules, seed=2, deal=Deal(hands, tiles[45:]))
    twin = new_game(3, rules, seed=2, deal=Deal([hands[0], hands[2], hands[1]], tiles[45:]))
    codec = ObservationCodec(rules, 3)
    assert not np.array_equal(codec.encode(view(state, 0)), codec.encode(view(twin, 0)))


@pytest.mark.parametrize(("rules", "players"), [(STANDARD, 2), (HUB, 4), (STANDARD, 13)])
def test_the_layout_is_contiguous_and_sized_as_documented(rules: object, players: int) -> None:
    """The blocks follow one another with the sizes the docs give (version 1)."""
    codec = ObservationCodec(HUB if rules is HUB else STANDARD, players)
    tiles, pips = len(full_set(codec.max_pip)), codec.max_pip + 1
    sizes = {
        "hands": players * tiles,
        "table": tiles,
        "engine": pips,
        "trains": (players + 1) * (pips + 6),
        "seats": players * 5,
        "game": 11,
    }
    start = 0
    for name, block in codec.layout.items():
        assert (block.start, block.stop) == (start, start + sizes[name])
        start = block.stop
    assert codec.shape == (start,)
    assert codec.version == ActionCodec(HUB, 2).version == ENCODING_VERSION == 1


def test_scores_are_encoded_within_bounds_with_a_negative_double_blank() -> None:
    """V7: a negative double-blank score makes totals negative; the space allows [-1, 0)."""
    import attrs

    rules = attrs.evolve(STANDARD, double_blank_score=-50, rounds=2)
    codec = ObservationCodec(rules, 2)
    state = new_game(2, rules, seed=0)
    rng = random.Random(0)
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        assert codec.space.contains(codec.encode(view(state, 0)))
    seats = codec.encode(view(state, 0))[codec.layout["seats"]].reshape(2, 5)
    assert seats[0, 4] == pytest.approx(state.scores[0] / codec._lay.bound)


@pytest.mark.parametrize(
    ("codec", "members"),
    [
        (ActionCodec, {"rules", "players", "max_pip", "size", "version"}),
        (
            ObservationCodec,
            {"rules", "players", "max_pip", "information_state", "shape", "layout", "version"},
        ),
    ],
)
def test_the_codecs_public_members_are_those_the_reference_documents(
    codec: type, members: set[str]
) -> None:
    """Every public name of a codec is documented (attributes in its docstring, methods
    in docs/reference/rl.rst); the helpers the environments share are private."""
    methods = {"encode", "decode", "mask", "mask_batch", "encode_batch", "space"}
    public = {name for name in dir(codec) if not name.startswith("_")}
    assert public == members | (methods & public)
    documented = (codec.__doc__ or "").split("Attributes:", 1)[-1]
    for name in members - {"version"}:
        assert f"\n        {name}:" in documented, name
