"""The batched encoders and the vector environment of `mexican_train.rl`.

The vector environment's observations and masks must be exactly the codecs'
encodings of each table's view (so the noninterference of `ObservationCodec`,
tested in test_rl_codecs.py, covers them), its masks exactly the legal moves,
its games reproducible from a seed and reset within the step that ends them.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from faulty_players import FAULTS, RaisesOnChoose, failure_of
from mexican_train import (
    HUB,
    STANDARD,
    VARIANTS,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Move,
    PlannerPlayer,
    Player,
    PlayerView,
    Rules,
    SearchPlayer,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train._adapters import envs as envs_module
from mexican_train.events import Event
from mexican_train.render import render_svg, render_text
from mexican_train.rl import (
    ActionCodec,
    ObservationCodec,
    SingleSeatEnv,
    VectorEnv,
    raw_env,
    round_rewards,
    vector_env,
)

TABLES = [
    pytest.param(HUB, 2, "random", id="HUB-2-random"),
    pytest.param(STANDARD, 3, "greedy", id="STANDARD-3-greedy"),
    pytest.param(VARIANTS["open-hands"], 2, "random", id="open-hands-2"),
]


def random_actions(observation: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """One random legal action per table."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in observation["action_mask"]])


def some_views(rules: Rules, players: int, count: int) -> list[PlayerView]:
    state, rng = new_game(players, rules, seed=4), np.random.default_rng(4)
    views: list[PlayerView] = []
    while len(views) < count and not state.is_over:
        views += [view(state, seat) for seat in range(players)]
        moves = legal_moves(state)
        state = apply(state, moves[int(rng.integers(len(moves)))])
    return views


@pytest.mark.parametrize(("rules", "players", "bot"), TABLES)
def test_batches_are_the_single_encodings_written_into_the_callers_arrays(
    rules: Rules, players: int, bot: str
) -> None:
    views = some_views(rules, players, 60)
    observations, actions = ObservationCodec(rules, players), ActionCodec(rules, players)
    out = np.full((len(views), *observations.shape), 7.0, dtype=np.float32)
    masks = np.full((len(views), actions.size), 7, dtype=np.int8)
    assert observations.encode_batch(views, out=out) is out
    assert actions.mask_batch(views, out=masks) is masks
    for row, mine in enumerate(views):
        assert np.array_equal(out[row], observations.encode(mine))
        assert np.array_equal(masks[row], actions.mask(mine))
    single = np.empty(observations.shape, dtype=np.float32)
    assert observations.encode(views[0], out=single) is single
    assert np.array_equal(single, out[0])
    strided = np.full((*observations.shape, 2), 7.0, dtype=np.float32)[:, 1]
    assert observations.encode(views[-1], out=strided) is strided
    assert np.array_equal(strided, out[-1])
    assert np.array_equal(observations.encode_batch(views[-1:]), out[-1:])


@pytest.mark.parametrize(
    "layout",
    ["column-major", "rows-reversed", "every-other-column"],
)
def test_batches_fill_a_callers_array_of_any_memory_layout(layout: str) -> None:
    """An ``out=`` of the right shape and dtype is filled whatever its strides: a
    column-major array, or a view whose rows cannot be flattened without a copy."""
    views = some_views(HUB, 2, 5)
    observations, actions = ObservationCodec(HUB, 2), ActionCodec(HUB, 2)

    def make(width: int, dtype: type[np.generic]) -> np.ndarray:
        rows = len(views)
        if layout == "column-major":
            return np.full((rows, width), 7, dtype=dtype, order="F")
        if layout == "rows-reversed":
            return np.full((rows, width), 7, dtype=dtype)[::-1]
        return np.full((rows, 2 * width + 1), 7, dtype=dtype)[:, 1::2][:, :width]

    out = make(observations.shape[0], np.float32)
    masks = make(actions.size, np.int8)
    assert observations.encode_batch(views, out=out) is out
    assert actions.mask_batch(views, out=masks) is masks
    for row, mine in enumerate(views):
        assert np.array_equal(out[row], observations.encode(mine))
        assert np.array_equal(masks[row], actions.mask(mine))


@pytest.mark.parametrize("information_state", [False, True], ids=["plain", "information"])
def test_an_empty_batch_is_an_empty_array(information_state: bool) -> None:
    """No views give no rows, as ``mask_batch`` gives them, not numpy's reshape error."""
    observations = ObservationCodec(HUB, 2, information_state=information_state)
    histories: list[list[Event]] | None = [] if information_state else None
    encoded = observations.encode_batch([], histories=histories)
    assert encoded.shape == (0, *observations.shape)
    assert encoded.dtype == np.float32
    out = np.empty((0, *observations.shape), dtype=np.float32)
    assert observations.encode_batch([], out=out, histories=histories) is out
    assert ActionCodec(HUB, 2).mask_batch([]).shape == (0, ActionCodec(HUB, 2).size)


def test_a_wrong_out_array_is_refused_and_left_alone() -> None:
    views = some_views(HUB, 2, 4)
    observations, actions = ObservationCodec(HUB, 2), ActionCodec(HUB, 2)
    wrong: list[np.ndarray] = [
        np.zeros((len(views), *observations.shape), dtype=np.float64),
        np.zeros((len(views) + 1, *observations.shape), dtype=np.float32),
    ]
    for out in wrong:
        before = out.copy()
        with pytest.raises(InvalidArgumentError, match="fills a float32 array of shape"):
            observations.encode_batch(views, out=out)
        assert np.array_equal(out, before)
    with pytest.raises(InvalidArgumentError, match="fills a int8 array"):
        actions.mask(views[0], out=np.zeros(actions.size, dtype=np.int32))
    with pytest.raises(InvalidArgumentError, match="fills"):
        observations.encode(views[0], out=[0.0])  # type: ignore[arg-type]
    frozen = np.zeros(observations.shape, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(InvalidArgumentError, match="not a read-only"):
        observations.encode(views[0], out=frozen)
    assert not frozen.any()
    with pytest.raises(TypeError, match="sequence of PlayerViews"):
        observations.encode_batch(views[0])  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "players", "bot"), TABLES)
@pytest.mark.parametrize("self_play", [False, True], ids=["one-seat", "self-play"])
def test_observations_and_masks_are_the_codecs_of_each_tables_view(
    rules: Rules, players: int, bot: str, self_play: bool
) -> None:
    """Each table shows the codecs' encoding and mask of the acting seat's view."""
    envs = vector_env(5, players=players, rules=rules, opponents=bot, self_play=self_play)
    observations, actions = ObservationCodec(rules, players), ActionCodec(rules, players)
    observation, infos = envs.reset(seed=11)
    rng = np.random.default_rng(0)
    assert envs.observation_space.contains(observation)
    for _ in range(150):
        for table, state in enumerate(envs.games):
            seat = state.current_player
            assert seat is not None
            assert seat == (infos["seat"][table] if self_play else 0)
            mine = view(state, seat)
            assert np.array_equal(observation["observation"][table], observations.encode(mine))
            assert np.array_equal(observation["action_mask"][table], actions.mask(mine))
            offered = {actions.decode(int(i), seat) for i in np.flatnonzero(actions.mask(mine))}
            assert offered == set(legal_moves(state)) != set()
        observation, reward, _, truncated, infos = envs.step(random_actions(observation, rng))
        assert reward.shape == ((5, players) if self_play else (5,))
        assert not truncated.any()
        if self_play:
            assert np.allclose(reward.sum(axis=1), 0.0)  # round rewards are zero-sum


def play(seed: int, steps: int, **settings: object) -> list[np.ndarray]:
    envs = vector_env(4, players=2, **settings)  # type: ignore[arg-type]
    observation, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(1)
    seen = [observation["observation"]]
    for _ in range(steps):
        observation, reward, terminated, _, _ = envs.step(random_actions(observation, rng))
        seen += [observation["observation"], reward, terminated]
    return seen


@pytest.mark.parametrize("bot", ["random", "greedy", "random-player"])
def test_the_same_seed_plays_the_same_games(bot: str) -> None:
    first, again = play(3, 120, opponents=bot), play(3, 120, opponents=bot)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = play(4, 120, opponents=bot)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_the_constructor_seed_is_the_first_resets() -> None:
    envs, again = vector_env(3, seed=5), vector_env(3, seed=5)
    assert np.array_equal(envs.reset()[0]["observation"], again.reset(seed=5)[0]["observation"])


def trajectory(envs: VectorEnv, seed: object, steps: int = 80) -> list[np.ndarray]:
    """What *envs* shows from ``reset(seed=seed)`` over *steps* steps of random legal actions."""
    observation, _ = envs.reset(seed=seed)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    seen = [observation["observation"], observation["action_mask"]]
    for _ in range(steps):
        observation, reward, terminated, _, _ = envs.step(random_actions(observation, rng))
        seen += [observation["observation"], reward, terminated]
    return seen


def same(first: list[np.ndarray], second: list[np.ndarray]) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_s6_a_seed_per_table_plays_the_same_games_again(bot: str) -> None:
    """S6: ``reset(seed=[...])`` takes one seed per table, as Gymnasium's vector envs do."""
    envs = vector_env(3, players=2, opponents=bot)
    first = trajectory(envs, [5, 900, 2**64 - 1])
    assert same(first, trajectory(envs, [5, 900, 2**64 - 1]))
    assert same(first, trajectory(vector_env(3, players=2, opponents=bot), (5, 900, 2**64 - 1)))
    assert not same(first, trajectory(envs, [5, 901, 2**64 - 1]))


def test_s6_a_whole_number_seeds_table_i_with_seed_plus_i() -> None:
    """As Gymnasium's SyncVectorEnv: ``reset(seed=s)`` is ``reset(seed=[s, s + 1, ...])``."""
    envs = vector_env(4, players=3, opponents="greedy")
    assert same(trajectory(envs, 10), trajectory(envs, [10, 11, 12, 13]))
    assert not same(trajectory(envs, 10), trajectory(envs, [11, 10, 12, 13]))


def test_s6_a_tables_seed_deals_the_single_seat_envs_game() -> None:
    """S6: table *i* seeded with *s* deals the game every environment deals from *s*."""
    envs = vector_env(3, players=3, rules=STANDARD)
    envs.reset(seed=[7, 0, 123456789])
    for table, seed in enumerate([7, 0, 123456789]):
        single = SingleSeatEnv(players=3, rules=STANDARD)
        single.reset(seed=seed)
        aec = raw_env(players=3, rules=STANDARD)
        aec.reset(seed=seed)
        assert envs.games[table].seed == single.game.seed == aec.game.seed


def test_games_are_the_tables_games() -> None:
    """``games`` holds each table's GameState (none before the first reset)."""
    envs = vector_env(2, players=2, rules=HUB)
    assert envs.games == ()
    envs.reset(seed=[5, 6])
    games = envs.games
    assert len(games) == 2
    assert all(isinstance(game, GameState) and game.round_number == 1 for game in games)
    assert all(game is again for game, again in zip(games, envs.games, strict=True))


def test_s6_a_table_seeded_none_goes_on_from_its_own_generator() -> None:
    """A None seed (for all, or in the list) leaves that table's generator going, reproducibly."""
    envs, again = vector_env(3, players=2), vector_env(3, players=2)
    envs.reset(seed=[1, 2, 3])
    again.reset(seed=[1, 2, 3])
    mixed = trajectory(envs, [None, 40, None])
    assert same(mixed, trajectory(again, [None, 40, None]))
    seeded = envs.games
    follow = trajectory(envs, None)
    assert same(follow, trajectory(again, None))
    assert envs.games != seeded
    assert [state.seed for state in envs.games] == [state.seed for state in again.games]
    fresh = vector_env(3, players=2).reset(seed=[0, 40, 0])[0]
    assert np.array_equal(mixed[0][1], fresh["observation"][1])  # table 1 dealt from seed 40


def test_s6_the_constructor_seed_seeds_the_tables_the_first_reset_leaves_none() -> None:
    """``vector_env(seed=s)``: the first reset's seed is s, table by table where it has none."""
    envs, again = vector_env(3, players=2, seed=20), vector_env(3, players=2)
    assert same(trajectory(envs, [None, 9, None]), trajectory(again, [20, 9, 22]))
    listed, expanded = vector_env(3, players=2, seed=[4, 5, 6]), vector_env(3, players=2)
    assert same(trajectory(listed, None), trajectory(expanded, 4))


@pytest.mark.parametrize(
    ("seed", "words"),
    [
        ([1, 2], "one seed (or None) per table, 3 in all, not 2: [1, 2]"),
        ([1, 2, 3, 4], "one seed (or None) per table, 3 in all, not 4"),
        ([], "3 in all, not 0"),
        ([1, 2.0, 3], "seed[1] is a whole number from 0, of at most 64 bits, not 2.0"),
        ([1, 2, "3"], "seed[2] is a whole number from 0, of at most 64 bits, not '3'"),
        ([True, 2, 3], "seed[0] is a whole number from 0, of at most 64 bits, not True"),
        ([1, -2, 3], "seed[1] is a whole number from 0, of at most 64 bits, not -2"),
        (
            [1, 2, 2**64],
            "seed[2] is a whole number from 0, of at most 64 bits, not 18446744073709551616",
        ),
        ([1, np.int64(2), 3], "seed[1] is a whole number"),
        (
            1.5,
            "seed is a whole number from 0, of at most 64 bits, a list of one per table, or None, not 1.5",
        ),
        ("7", "a list of one per table, or None, not '7'"),
        (-1, "a list of one per table, or None, not -1"),
        (np.array([1, 2, 3]), "a list of one per table, or None, not array"),
        (2**64 - 2, "table 2's seed would be above 2**64 - 1"),
    ],
)
def test_a_bad_seed_is_refused_and_no_table_changes(seed: object, words: str) -> None:
    envs = vector_env(3, players=2)
    observation, _ = envs.reset(seed=0)
    before = envs.games
    with pytest.raises(InvalidArgumentError, match=re.escape(words)):
        envs.reset(seed=seed)  # type: ignore[arg-type]
    assert envs.games == before
    with pytest.raises(InvalidArgumentError, match=re.escape(words)):
        vector_env(3, players=2, seed=seed)  # type: ignore[arg-type]
    envs.step(observation["action_mask"].argmax(axis=1))


def test_a_reset_mask_deals_anew_only_the_tables_it_names() -> None:
    """Gymnasium's ``options["reset_mask"]``: the other tables play on where they are."""
    envs = vector_env(3, players=2, opponents="greedy")
    observation, _ = envs.reset(seed=1)
    rng = np.random.default_rng(3)
    for _ in range(5):
        observation, *_ = envs.step(random_actions(observation, rng))
    before = envs.games
    options = {"reset_mask": np.array([False, True, False])}
    again, _ = envs.reset(seed=[None, 50, 7], options=options)
    assert "reset_mask" in options  # read, not taken
    assert envs.games[0] is before[0]
    assert envs.games[2] is before[2]
    assert envs.games[1] is not before[1]
    for table in (0, 2):
        assert np.array_equal(again["observation"][table], observation["observation"][table])
        assert np.array_equal(again["action_mask"][table], observation["action_mask"][table])
    fresh = vector_env(3, players=2, opponents="greedy")
    fresh.reset(seed=50)
    assert envs.games[1].seed == fresh.games[0].seed


def test_a_reset_mask_is_seen_by_gymnasiums_own_wrappers() -> None:
    """RecordEpisodeStatistics sees the mask too: its counts go on where the tables play on."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    tables = vector_env(3, players=2)
    envs = RecordEpisodeStatistics(tables)
    observation, _ = envs.reset(seed=0)
    envs.step(random_actions(observation, np.random.default_rng(0)))
    playing = tables.games[1]
    envs.reset(options={"reset_mask": np.array([True, False, True])})
    assert envs.episode_lengths.tolist() == [0, 1, 0]
    assert tables.games[1] is playing


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"reset_mask": np.array([1, 0, 1])}, "is a bool array, one per table, shape (3,), not"),
        ({"reset_mask": np.array([True, False])}, "shape (3,), not array([ True, False])"),
        ({"reset_mask": "all"}, "shape (3,), not 'all'"),
        ({"reset_mask": [True, [False], True]}, "shape (3,), not [True, [False], True]"),
        ({"reset_mask": np.zeros(3, dtype=bool)}, "names no table to reset (all False)"),
        ([("reset_mask", True)], "options is a dict or None, not [('reset_mask', True)]"),
    ],
)
def test_a_bad_reset_mask_is_refused_and_no_table_changes(options: object, words: str) -> None:
    envs = vector_env(3, players=2)
    envs.reset(seed=0)
    before = envs.games
    with pytest.raises(InvalidArgumentError, match=re.escape(words)):
        envs.reset(seed=5, options=options)  # type: ignore[arg-type]
    assert envs.games == before


def test_the_first_reset_deals_every_table() -> None:
    envs = vector_env(3, players=2)
    with pytest.raises(InvalidArgumentError, match="the first reset deals every table"):
        envs.reset(seed=0, options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(InvalidArgumentError, match="call reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(seed=0, options={"reset_mask": np.ones(3, dtype=bool)})


class _Stops:
    """A player whose ``choose`` raises while it is *stopping*: a bug of its own."""

    name = "stops"

    def __init__(self) -> None:
        self.stopping = True

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        if self.stopping:
            raise RuntimeError("a bug of the player's own")
        return moves[0]


def test_a_first_reset_a_player_stops_leaves_every_table_to_the_next_reset() -> None:
    """A first reset that a player's exception stops has dealt no game to play on: the
    next reset deals every table, and step asks for one, as before any reset."""
    player = _Stops()
    envs = vector_env(3, players=2, rules=STANDARD, opponents=player, seed=0)
    with pytest.raises(RuntimeError, match="a bug of the player's own"):
        envs.reset()
    player.stopping = False
    with pytest.raises(InvalidArgumentError, match="call reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidArgumentError, match="the first reset deals every table"):
        envs.reset(options={"reset_mask": np.array([True, False, False])})
    envs.reset(seed=0)
    fresh = vector_env(3, players=2, rules=STANDARD, opponents=GreedyPlayer())
    fresh.reset(seed=0)
    assert [state.seed for state in envs.games] == [state.seed for state in fresh.games]


def failing_tables(kind: str, at: int) -> VectorEnv:
    """Three tables of three players, information state: the opponent at seat 1 has a bug."""
    faulty = FAULTS[kind][0](at)
    return vector_env(
        3, players=3, rules=STANDARD, opponents=[faulty, "greedy"], information_state=True
    )


def fail(envs: VectorEnv) -> Exception:
    """Step *envs* from ``reset(seed=2)`` until its faulty opponent fails; return the failure."""
    observation, _ = envs.reset(seed=2)

    def step() -> None:
        nonlocal observation
        observation, *_ = envs.step(first_legal_actions(observation["action_mask"]))

    return failure_of(step)


@pytest.mark.parametrize("kind", FAULTS)
def test_an_opponents_failure_reaches_the_caller_and_no_table_plays_until_a_full_reset(
    kind: str,
) -> None:
    """A bot's exception in step goes on as it was raised, noted with its table and seat.
    The tables before it had moved, the table it struck was cut short: step is refused
    until a reset deals every table, and a reset_mask that leaves a table out is refused."""
    envs = failing_tables(kind, at=30)
    failure = fail(envs)
    name = FAULTS[kind][1]
    assert type(failure).__name__ == name
    if sys.version_info >= (3, 11):  # exception notes are Python 3.11's
        notes = "\n".join(getattr(failure, "__notes__", []))
        assert "at seat 1" in notes
        assert re.search(r"on table [0-2]\b", notes)
        assert "refuses step() until a reset() deals every table" in notes
    before = envs.games
    refusal = rf"an opponent's bot failed during the last step \({name}: .+\): call reset\(\)"
    with pytest.raises(InvalidArgumentError, match=refusal):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidArgumentError, match="the next reset deals every table"):
        envs.reset(seed=0, options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(InvalidArgumentError, match=refusal):
        envs.step(np.zeros(3, dtype=np.int64))
    assert envs.games == before


@pytest.mark.parametrize("kind", FAULTS)
def test_a_reset_after_an_opponents_failure_plays_the_games_of_a_fresh_environment(
    kind: str,
) -> None:
    """Every table's game after the reset is a fresh environment's: the same
    information-state observations, rewards and ends; the observing bots' histories fresh."""
    envs = failing_tables(kind, at=30)
    assert type(fail(envs)).__name__ == FAULTS[kind][1]
    assert same(trajectory(envs, 4, 100), trajectory(failing_tables(kind, 0), 4, 100))


def test_an_opponents_failure_in_a_reset_leaves_every_table_to_the_next_full_reset() -> None:
    """A later reset a bot's exception cuts short, as a first one, leaves step refused
    until a reset deals every table; that reset deals a fresh environment's games."""
    count = iter(range(1, 10**6)).__next__
    faulty = RaisesOnChoose(at=0, calls=count)

    def tables(opponent: RaisesOnChoose) -> VectorEnv:
        opponents: list[str | Player] = [opponent, "greedy", "greedy"]
        return vector_env(3, players=4, rules=STANDARD, opponents=opponents, seat=3)

    envs = tables(faulty)
    observation, _ = envs.reset(seed=5)
    envs.step(first_legal_actions(observation["action_mask"]))
    faulty.at = count() + 1  # its next choose
    with pytest.raises(ZeroDivisionError):
        envs.reset(seed=5)  # table 0's game (seed 5): seat 0 plays first
    with pytest.raises(
        InvalidArgumentError,
        match=r"an opponent's bot failed during the last reset \(ZeroDivisionError: .+\): call",
    ):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidArgumentError, match="the next reset deals every table"):
        envs.reset(options={"reset_mask": np.array([True, True, False])})
    assert same(trajectory(envs, 5, 60), trajectory(tables(RaisesOnChoose(0)), 5, 60))


def test_render_returns_each_tables_picture_as_gymnasiums_vector_envs_do() -> None:
    """ "ansi" and "svg": one picture per table, the whole table (every hand shown)."""
    for mode, draw in (("ansi", render_text), ("svg", render_svg)):
        envs = vector_env(3, players=2, render_mode=mode)
        assert mode in envs.metadata["render_modes"]
        assert envs.render_mode == mode
        envs.reset(seed=4)
        assert envs.render() == tuple(draw(state) for state in envs.games)


def test_render_human_prints_every_table_after_each_reset_and_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    envs = vector_env(2, players=2, render_mode="human")
    observation, _ = envs.reset(seed=4)
    printed = capsys.readouterr().out
    assert printed == "".join(f"Table {n}\n{render_text(s)}\n" for n, s in enumerate(envs.games))
    envs.step(observation["action_mask"].argmax(axis=1))
    printed = capsys.readouterr().out
    assert printed == "".join(f"Table {n}\n{render_text(s)}\n" for n, s in enumerate(envs.games))


def test_render_without_a_render_mode_warns_and_draws_nothing() -> None:
    envs = vector_env(2, players=2)
    envs.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert envs.render() is None


def test_render_needs_a_reset_and_a_known_mode() -> None:
    with pytest.raises(InvalidArgumentError, match="call reset"):
        vector_env(2, players=2, render_mode="ansi").render()
    with pytest.raises(InvalidArgumentError, match="render_mode is one of human, ansi, svg"):
        vector_env(2, players=2, render_mode="rgb_array")


def test_gymnasiums_record_episode_statistics_sees_each_game_that_ends() -> None:
    """Gymnasium's own wrapper reads the same-step autoreset: one episode per game, its return."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    tables = vector_env(3, players=2, rules=attrs.evolve(STANDARD, rounds=1))
    envs = RecordEpisodeStatistics(tables)
    observation, _ = envs.reset(seed=2)
    rng, returns, lengths, ended = np.random.default_rng(2), np.zeros(3), np.zeros(3, int), 0
    while ended < 5:
        observation, reward, terminated, _, infos = envs.step(random_actions(observation, rng))
        returns += reward
        lengths += 1
        for table in np.flatnonzero(terminated):
            assert infos["_episode"][table]
            assert infos["episode"]["r"][table] == pytest.approx(returns[table])
            assert infos["episode"]["l"][table] == lengths[table]
            returns[table], lengths[table], ended = 0.0, 0, ended + 1


# -- Gymnasium's make_vec ----------------------------------------------------------------------

SINGLE_SEAT = "mexican_train/SingleSeat-v0"


def first_legal_actions(masks: np.ndarray) -> np.ndarray:
    """The first legal action of each table, from its mask."""
    return np.array([np.flatnonzero(row)[0] for row in masks])


@pytest.mark.parametrize(
    "mode", ["vector_entry_point", None], ids=["vector_entry_point", "default"]
)
def test_make_vec_gives_the_librarys_tables_with_its_arguments(mode: str | None) -> None:
    """make_vec's vector entry point (its default mode for the id) is vector_env, every
    keyword argument passed on to it."""
    settings: dict[str, Any] = {
        "players": 2,
        "rules": "standard",
        "opponents": "random",
        "seat": 1,
        "information_state": True,
        "illegal_reward": -7.0,
    }
    envs = gymnasium.make_vec(SINGLE_SEAT, num_envs=3, vectorization_mode=mode, **settings)
    assert isinstance(envs, VectorEnv)
    assert (envs.num_envs, envs.players, envs.rules, envs.seat) == (3, 2, STANDARD, 1)
    assert envs.spec is not None
    assert envs.spec.id == SINGLE_SEAT
    assert envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    same = vector_env(3, **settings)
    observation, _ = envs.reset(seed=5)
    expected, _ = same.reset(seed=5)
    assert observation["observation"].shape == (
        3,
        *ObservationCodec(STANDARD, 2, information_state=True).shape,
    )
    for _ in range(30):
        for key in ("observation", "action_mask"):
            assert np.array_equal(observation[key], expected[key])
        actions = first_legal_actions(observation["action_mask"])
        actions[0] = np.flatnonzero(observation["action_mask"][0] == 0)[0]  # an illegal one
        observation, reward, _, _, infos = envs.step(actions)
        expected, expected_reward, _, _, _ = same.step(actions)
        assert np.array_equal(reward, expected_reward)
        assert reward[0] == -7.0
        assert infos["illegal_action"][0]


def test_make_vec_plays_the_games_of_its_sync_mode() -> None:
    """One id, one game in every mode: the vector entry point's tables, with SingleSeatEnv's
    defaults (4 players, GreedyPlayer opponents), play the games SyncVectorEnv's
    SingleSeatEnvs play from the same seeds (S6), to the end of the first game."""
    defaults = gymnasium.make_vec(SINGLE_SEAT, num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(defaults, VectorEnv)
    assert (defaults.players, defaults.rules, defaults.seat) == (4, HUB, 0)
    settings: dict[str, Any] = {"players": 3, "rules": "short-game"}
    tables = gymnasium.make_vec(SINGLE_SEAT, 2, vectorization_mode="vector_entry_point", **settings)
    synced = gymnasium.make_vec(SINGLE_SEAT, 2, vectorization_mode="sync", **settings)
    assert isinstance(synced, SyncVectorEnv)
    observation, _ = tables.reset(seed=9)
    single, _ = synced.reset(seed=9)
    rewarded = 0
    for _ in range(2000):
        assert np.array_equal(observation["observation"], single)
        masks = np.array(synced.call("action_masks"))
        assert np.array_equal(observation["action_mask"].astype(bool), masks)
        actions = first_legal_actions(masks)
        observation, reward, terminated, _, infos = tables.step(actions)
        single, single_reward, single_terminated, _, _ = synced.step(actions)
        assert np.array_equal(reward, single_reward)
        assert np.array_equal(terminated, single_terminated)
        rewarded += int(np.count_nonzero(reward))
        if terminated.any():
            break
    assert rewarded > 2  # rounds ended on both tables (E3), not only the game
    for table in np.flatnonzero(terminated):  # sync gives the last observation, autoreset next
        assert np.array_equal(infos["final_obs"][table]["observation"], single[table])
    synced.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_sync_and_async_step_single_seat_envs(mode: str) -> None:
    """Gymnasium's own modes wrap SingleSeatEnv: its Box observations, masks by call()."""
    envs = gymnasium.make_vec(
        SINGLE_SEAT, num_envs=2, vectorization_mode=mode, players=2, rules="standard"
    )
    try:
        assert isinstance(envs, SyncVectorEnv | AsyncVectorEnv)
        assert envs.single_observation_space == SingleSeatEnv(2, STANDARD).observation_space
        observation, _ = envs.reset(seed=4)
        assert observation.shape == (2, *ObservationCodec(STANDARD, 2).shape)
        for _ in range(10):
            masks = np.array(envs.call("action_masks"))
            observation, reward, _, _, _ = envs.step(first_legal_actions(masks))
            assert reward.shape == (2,)
            assert envs.observation_space.contains(observation)
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"illegal": "raise"}, "not illegal='raise': make_vec"),
        ({"illegal": "ignore"}, "not illegal='ignore'"),
        ({"max_episode_steps": 100}, "no max_episode_steps \\(not 100\\)"),
        ({"players": 2, "seat": 2}, "a seat is 0-1"),
    ],
)
def test_make_vec_refuses_what_the_tables_do_not_offer(
    settings: dict[str, Any], words: str
) -> None:
    """What only SingleSeatEnv offers is refused, saying which mode offers it."""
    with pytest.raises(InvalidArgumentError, match=words):
        gymnasium.make_vec(SINGLE_SEAT, 2, vectorization_mode="vector_entry_point", **settings)


def test_a_finished_game_is_dealt_anew_in_the_same_step() -> None:
    """Same-step autoreset: the last observation is in infos, the new game's is returned."""
    envs = vector_env(3, players=2, rules=attrs.evolve(STANDARD, rounds=1), seed=2)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observations = envs.observations
    game = observations.layout["game"]
    observation, _ = envs.reset()
    rng, ended = np.random.default_rng(2), 0
    while ended < 6:
        before = envs.games
        observation, _, terminated, _, infos = envs.step(random_actions(observation, rng))
        for table in np.flatnonzero(terminated):
            ended += 1
            assert infos["_final_obs"][table]
            final = infos["final_obs"][table]
            assert final["observation"][game][4] == 1.0  # the game is over
            assert not final["action_mask"].any()
            ended_game = before[table]
            assert infos["_final_info"][table]
            info = infos["final_info"]
            assert set(info) == {"scores", "_scores", "winners", "_winners"}
            assert info["_scores"][table]
            assert info["_winners"][table]
            scores, winners = info["scores"][table], info["winners"][table]
            assert winners
            assert all(scores[seat] == min(scores) for seat in winners)  # E5
            assert ended_game.rules.rounds == 1
            assert envs.games[table] is not before[table]
            assert envs.games[table].round_number == 1
            assert observation["observation"][table][game][4] == 0.0
            assert observation["action_mask"][table].any()
        for number, game_now in enumerate(envs.games):
            if not terminated[number]:
                assert game_now.round_number == before[number].round_number == 1
                if "final_obs" in infos:
                    assert infos["final_obs"][number] is None
                    assert infos["final_info"]["scores"][number] is None


def test_the_agents_return_is_the_mean_total_less_its_own() -> None:
    """The round rewards (mean - own points) add up to the game's mean total less the seat's."""
    rules = attrs.evolve(HUB, rounds=2)
    envs = vector_env(1, players=3, rules=rules, opponents="greedy", seat=1)
    observation, _ = envs.reset(seed=8)
    rng, total = np.random.default_rng(8), 0.0
    while True:
        observation, reward, terminated, _, infos = envs.step(random_actions(observation, rng))
        total += float(reward[0])
        if terminated[0]:
            break
    codec = envs.observations
    pips = codec.max_pip + 1
    bound = 2 * (codec.max_pip * pips * (pips + 1) // 2 + abs(rules.double_blank_score))
    seats = infos["final_obs"][0]["observation"][codec.layout["seats"]].reshape(3, 5)
    scores = seats[:, 4].astype(np.float64) * bound  # row 0 is the agent's seat
    assert total == pytest.approx(scores.mean() - scores[0], abs=1e-3)
    assert total == pytest.approx(round_rewards(tuple(round(s) for s in scores))[0])


def test_an_action_outside_the_mask_ends_the_game_with_the_illegal_reward() -> None:
    envs = vector_env(2, players=2, seed=1, illegal_reward=-7.0)
    observation, _ = envs.reset()
    actions = np.array([int(np.flatnonzero(row == 0)[0]) for row in observation["action_mask"]])
    actions[1] = int(np.flatnonzero(observation["action_mask"][1])[0])
    before = envs.games
    _, reward, terminated, _, infos = envs.step(actions)
    assert terminated.tolist() == [True, False]
    assert reward[0] == -7.0
    assert infos["illegal_action"].tolist() == [True, False]
    assert envs.games[0] is not before[0]
    # The last observation is of the position the action was refused in; no move is left
    # to make in the ended episode, so its mask is all zeros, as at a game's end.
    final = infos["final_obs"][0]
    assert np.array_equal(final["observation"], observation["observation"][0])
    assert not final["action_mask"].any()
    assert infos["final_info"]["winners"][0] == ()  # the game did not reach its end (E5)
    assert infos["final_info"]["scores"][0] == before[0].scores


def test_opponents_may_be_players_and_lists() -> None:
    envs = vector_env(2, players=3, opponents=[GreedyPlayer(), "planner"], seed=1)
    observation, _ = envs.reset()
    envs.step(random_actions(observation, np.random.default_rng(0)))


def test_a_players_opponent_is_offered_its_views_legal_moves() -> None:
    """The tables offer a Player the moves of the state, which are ``legal_moves(view)``."""
    offered = []

    class Checking:
        def choose(self, mine: PlayerView, moves: tuple[Move, ...]) -> Move:
            assert moves == legal_moves(mine)
            offered.append(len(moves))
            return GreedyPlayer().choose(mine, moves)

    envs = vector_env(2, players=3, rules=HUB, opponents=[Checking(), Checking()], seed=1)
    observation, _ = envs.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        observation = envs.step(random_actions(observation, rng))[0]
    assert len(offered) > 40


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"num_envs": 0}, "num_envs is a whole number from 1"),
        ({"opponents": "genius"}, "an opponent is a Player or one of"),
        ({"opponents": ["random", "random"]}, "needs 1 opponent, not 2"),
        ({"opponents": 3}, "an opponent is a Player or a bot's name"),
        (
            {"opponents": GreedyPlayer},
            re.escape(
                "an opponent is a Player, not the class GreedyPlayer: make one, GreedyPlayer()"
            ),
        ),
        (
            {"players": 3, "opponents": ["random", PlannerPlayer]},
            re.escape(
                "an opponent is a Player, not the class PlannerPlayer: make one, PlannerPlayer()"
            ),
        ),
        ({"seat": 2}, "a seat is 0-1"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], words: str) -> None:
    arguments: dict[str, object] = {"num_envs": 2, "players": 2, **settings}
    with pytest.raises(InvalidArgumentError, match=words):
        vector_env(**arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize("self_play", ["no", 1, None, np.bool_(True)])
def test_self_play_that_is_not_a_bool_is_refused(self_play: object) -> None:
    """A truthy value such as "no" would make every seat the learner without a word."""
    with pytest.raises(TypeError, match="self_play is True or False, not "):
        vector_env(2, players=2, self_play=self_play)  # type: ignore[arg-type]


def test_steps_need_a_reset_and_one_whole_number_per_table() -> None:
    envs = vector_env(2, players=2)
    with pytest.raises(InvalidArgumentError, match="call reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(seed=0)
    for actions in (np.zeros(3, dtype=np.int64), np.zeros(2), [[0, 0]]):
        with pytest.raises(InvalidArgumentError, match="one whole-number action per table"):
            envs.step(actions)


def test_an_action_outside_the_space_is_refused_and_no_table_moves() -> None:
    """As in the single-seat environment: only an index of the space is an action."""
    envs = vector_env(3, players=2, rules=HUB)
    observation, _ = envs.reset(seed=0)
    before = envs.games
    legal = observation["action_mask"].argmax(axis=1)
    for wrong, shown in ((-1, "not -1 (table 1)"), (envs.actions.size, "not 277 (table 1)")):
        actions = legal.copy()
        actions[1] = wrong
        with pytest.raises(InvalidArgumentError, match=re.escape(f"0-276 for this game, {shown}")):
            envs.step(actions)
        assert envs.games == before
    envs.step(legal)
    assert envs.games != before


def test_an_action_too_large_for_numpy_is_refused_as_outside_the_space() -> None:
    """A whole number beyond numpy's integers is outside the space, said as for any other
    (a number of thousands of digits described, not written), and no table moves."""
    envs = vector_env(2, players=2, rules=HUB)
    envs.reset(seed=0)
    before = envs.games
    for wrong, words in ((2**70, str(2**70)), (10**5000, "a whole number of 16610 bits")):
        with pytest.raises(InvalidArgumentError, match=f"0-276 for this game, not {words} "):
            envs.step([0, wrong])
        assert envs.games == before


def test_refusals_show_a_long_or_huge_argument_cut_short() -> None:
    """The refusal of many actions, or of a seed list holding a huge number, is an
    InvalidArgumentError of a readable length (not Python's ValueError about writing an int)."""
    envs = vector_env(2, players=2, rules=HUB)
    envs.reset(seed=0)
    with pytest.raises(InvalidArgumentError, match="one whole-number action per table") as many:
        envs.step(list(range(5000)))
    assert len(str(many.value)) < 500
    with pytest.raises(InvalidArgumentError, match="one seed \\(or None\\) per table") as seeds:
        envs.reset(seed=[10**5000])
    assert len(str(seeds.value)) < 500
    with pytest.raises(InvalidArgumentError, match="reset_mask"):
        envs.reset(options={"reset_mask": [10**5000, True]})


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_s5_every_variants_tables_show_the_codecs_encoding_of_the_view(name: str) -> None:
    """S5, V10: under every catalogue variant the tables' encodings are the views' own."""
    rules = VARIANTS[name]
    envs = vector_env(2, players=4, rules=rules, opponents="random", self_play=name < "m")
    observations, actions = ObservationCodec(rules, 4), ActionCodec(rules, 4)
    observation, _ = envs.reset(seed=len(name))
    rng = np.random.default_rng(len(name))
    for _ in range(40):
        for table, state in enumerate(envs.games):
            assert state.current_player is not None
            mine = view(state, state.current_player)
            assert np.array_equal(observation["observation"][table], observations.encode(mine))
            assert np.array_equal(observation["action_mask"][table], actions.mask(mine))
        observation, *_ = envs.step(random_actions(observation, rng))


class _Told:
    """An opponent that keeps every event it is told, as `SearchPlayer` does; plays the planner.

    Every copy the environments seat adds itself to *copies* when first told: a deep
    copy of the player would copy a list it held, not the list's own method.
    """

    def __init__(self, copies: list[_Told]) -> None:
        self.told: list[Event] = []
        self.enlist = copies.append  # deepcopy keeps a built-in method as it is

    def observe(self, events: Iterable[Event]) -> None:
        if not self.told:
            self.enlist(self)
        self.told += events

    def choose(self, mine: PlayerView, moves: tuple[Move, ...]) -> Move:
        return PlannerPlayer().choose(mine, moves)


def test_s5_observing_opponents_are_told_what_their_seat_saw_as_in_the_single_seat_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each game's observing opponents hear its events as `SingleSeatEnv`'s do (S5).

    Three tables, two rounds a game (E4), the learner in seat 1 (so the opponent in
    seat 0 moves before the learner's first turn), games ended by their end, by an
    illegal action and by a reset: every game's opponents, a fresh copy per seat per
    game, are told exactly the events, redacted for their seat, that `SingleSeatEnv`
    tells them in the same game with the same learner actions.
    """
    rules = attrs.evolve(HUB, rounds=2)
    copies: list[_Told] = []
    envs = vector_env(3, players=3, rules=rules, opponents=[_Told(copies)] * 2, seat=1)
    games: list[tuple[int, list[int]]] = []  # every game: its seed, the learner's actions
    playing: list[list[int]] = [[], [], []]  # each table's game's actions

    def deal(table: int) -> None:
        playing[table] = []
        games.append((envs.games[table].seed, playing[table]))

    rng = np.random.default_rng(5)
    for seed, steps in ((1, 260), (2, 40)):  # the reset deals every table anew mid-game
        observation, _ = envs.reset(seed=seed)
        for table in range(3):
            deal(table)
        for step in range(steps):
            actions = random_actions(observation, rng)
            if step == 30:
                actions[2] = np.flatnonzero(observation["action_mask"][2] == 0)[0]  # illegal
            observation, _, terminated, _, _ = envs.step(actions)
            for table in range(3):
                playing[table].append(int(actions[table]))
                if terminated[table]:
                    deal(table)
    assert len(games) > 9

    expected: list[_Told] = []
    single = SingleSeatEnv(players=3, rules=rules, opponents=[_Told(expected)] * 2, seat=1)
    for game_seed, learner in games:
        dealt = new_game(3, rules, seed=game_seed)
        monkeypatch.setattr(envs_module, "new_game", lambda *_, dealt=dealt, **__: dealt)
        single.reset()
        for action in learner:
            single.step(action)
    told = Counter(tuple(player.told) for player in copies)
    assert told == Counter(tuple(player.told) for player in expected)
    assert len(expected) == 2 * len(games)


def test_a_search_player_opponent_plays_as_in_the_single_seat_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A `SearchPlayer` opponent, told the round (S5), makes the same moves in both.

    Its choice depends on the view and the events it was told: the same game and
    learner actions give the same states, move by move, in `vector_env` and in
    `SingleSeatEnv`.
    """
    rules = attrs.evolve(HUB, rounds=2)
    opponents = [SearchPlayer(iterations=12, seed=3)] * 2
    envs = vector_env(1, players=3, rules=rules, opponents=opponents, seat=1)
    single = SingleSeatEnv(players=3, rules=rules, opponents=opponents, seat=1)
    observation, _ = envs.reset(seed=4)
    dealt = new_game(3, rules, seed=envs.games[0].seed)
    monkeypatch.setattr(envs_module, "new_game", lambda *_, **__: dealt)
    single.reset()
    rng, terminated = np.random.default_rng(4), False
    while not terminated:
        assert single.game == envs.games[0]
        actions = random_actions(observation, rng)
        observation, _, ended, _, infos = envs.step(actions)
        _, _, terminated, _, _ = single.step(int(actions[0]))
        assert bool(ended[0]) is terminated
    assert single.game.scores == infos["final_info"]["scores"][0]


def test_the_training_example_evaluates_on_games_it_did_not_train_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """examples/train_agent.py: no table of an evaluation is seeded as a training table.

    A whole-number seed *s* seeds table *i* with ``s + i`` (Gymnasium's meaning), so two
    vector environments seeded close together replay each other's games.
    """
    from pathlib import Path

    from repo_scripts import load_script

    root = Path(__file__).resolve().parent.parent
    example = load_script(root / "examples" / "train_agent.py", "train_agent_example")
    seeded: list[set[int]] = []

    def recording(num_envs: int, *, seed: int, **settings: object) -> VectorEnv:
        seeded.append(set(range(seed, seed + num_envs)))
        return vector_env(num_envs, seed=seed, **settings)  # type: ignore[arg-type]

    monkeypatch.setattr(example, "vector_env", recording)
    for seed in (0, 5):
        seeded.clear()
        example.main(["--seconds", "0.2", "--games", "8", "--tables", "8", "--seed", str(seed)])
        training, *evaluations = seeded
        assert len(evaluations) == 3
        assert all(not training & evaluation for evaluation in evaluations)


def test_infos_say_where_a_round_ended_a_reward_of_zero_included() -> None:
    """``infos["round_over"]`` is True exactly where a table's round ended in the step
    (E3), its game's last round included: a round whose seats' points tie rewards 0,
    which is still a round's end."""
    envs = vector_env(64, players=2, rules="short-game", opponents="greedy", seed=0)
    observation, _ = envs.reset()
    rng = np.random.default_rng(0)
    ties = games = 0
    for _ in range(2000):
        rounds = [g.round_number for g in envs.games]
        observation, reward, terminated, _, infos = envs.step(random_actions(observation, rng))
        # From the games themselves: the game ended, or its table plays another round.
        ended = terminated | (np.array([g.round_number for g in envs.games]) != rounds)
        assert infos["round_over"].dtype == bool
        assert infos["_round_over"].all()
        assert np.array_equal(infos["round_over"], ended)
        ties += int((ended & (reward == 0)).sum())
        games += int(terminated.sum())
        if ties and games:
            break
    assert ties, "no round ended in a tie: play more steps"
    assert games, "no game ended: play more steps"


def test_an_action_outside_the_mask_ends_the_game_but_no_round() -> None:
    """A game an action outside the mask ended was not played to a round's end."""
    envs = vector_env(2, players=2, seed=0)
    observation, _ = envs.reset()
    illegal = int(np.flatnonzero(observation["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(observation["action_mask"][1])[0])
    _, _, terminated, _, infos = envs.step(np.array([illegal, legal]))
    assert terminated[0]
    assert infos["illegal_action"][0]
    assert not infos["round_over"][0]


#: The rates `benchmarks/rl.py` measures at scale, each with the first cell of its row in
#: the how-to's throughput table (docs/howto/train-an-agent.rst).
_SCALE_ROWS = {
    "core random moves/s": "bare core, random moves/s",
    "single env steps/s": "``SingleSeatEnv``, agent steps/s (÷ core)",
    "vector env 1 steps/s": "``vector_env``, 1 table",
    "vector env 16 steps/s": "``vector_env``, 16 tables",
    "vector env 256 steps/s": "``vector_env``, 256 tables",
    "info-state env 256 steps/s": "``vector_env``, 256 tables, ``information_state=True``",
    "Player-opp env 256 steps/s": "``vector_env``, 256 tables, ``opponents=RandomPlayer(seed=1)``",
}


def test_the_how_to_has_a_row_for_every_rate_the_benchmark_measures_at_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A figure benchmarks/rl.py measures is one the how-to gives: none is left out."""
    from pathlib import Path

    from repo_scripts import load_script

    root = Path(__file__).resolve().parent.parent
    bench = load_script(root / "benchmarks" / "rl.py", "rl_benchmark")
    monkeypatch.setattr(bench, "timed", lambda work, repeats: 1.0)  # the names, not the rates
    rates = {key for key in bench.scale(quick=True, repeats=1) if key.endswith("/s")}
    assert rates == set(_SCALE_ROWS)
    page = (root / "docs" / "howto" / "train-an-agent.rst").read_text(encoding="utf-8")
    table = page.split("   * - HUB, 2 players\n", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^   \* - (.+)$", table, re.MULTILINE)
    assert set(_SCALE_ROWS.values()) <= set(rows)
