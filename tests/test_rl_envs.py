"""The PettingZoo and Gymnasium environments of `mexican_train.rl`.

The official conformance tests run here with warnings turned into errors; the
only warnings let through are the two that PettingZoo's ``api_test`` gives
every environment with dict observations whose name is not on its own list of
classic games (``env_obs_dicts``, ``env_obs_space`` in ``pettingzoo/test/api_test.py``):
the ``{"observation", "action_mask"}`` dict is the classic games' own convention.
"""

from __future__ import annotations

import functools
import math
import random
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

from faulty_players import FAULTS, RaisesOnChoose, failure_of
from mexican_train import (
    HUB,
    STANDARD,
    GameState,
    GreedyPlayer,
    IllegalMoveError,
    InvalidArgumentError,
    Move,
    NextRound,
    PlannerPlayer,
    Player,
    PlayerView,
    RandomPlayer,
    Rules,
    RulesError,
    UnknownVariantError,
    apply,
    determinize,
    legal_moves,
    new_game,
    view,
)
from mexican_train.events import Event, RoundStarted, redact_events
from mexican_train.render import render_text
from mexican_train.rl import (
    ActionCodec,
    ObservationCodec,
    SingleSeatEnv,
    env,
    raw_env,
    round_rewards,
    vector_env,
)
from strategies import catalogue_tables, seeds

PRESETS = [pytest.param(STANDARD, id="STANDARD"), pytest.param(HUB, id="HUB")]

#: The warnings api_test gives any dict-observation environment not named in its lists.
DICT_OBSERVATION_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


@pytest.fixture
def strict_warnings() -> Iterator[None]:
    """Turn every warning into an error, except the two dict-observation notices."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in DICT_OBSERVATION_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        yield


def first_legal(game: raw_env) -> int:
    observation = game.observe(game.agent_selection)
    return int(np.flatnonzero(observation["action_mask"])[0])


# -- PettingZoo: the official tests ------------------------------------------------------------


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", PRESETS)
def test_pettingzoo_api_test(rules: Rules, players: int) -> None:
    """PettingZoo's api_test passes for 1000 cycles (several whole games)."""
    api_test(env(players=players, rules=rules), num_cycles=1000)


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize("rules", PRESETS)
def test_pettingzoo_seed_test(rules: Rules) -> None:
    """S6: two environments reset with the same seed play the same game."""
    seed_test(functools.partial(env, players=4, rules=rules), num_cycles=1000)


@pytest.mark.usefixtures("strict_warnings")
def test_pettingzoo_seed_and_api_tests_of_the_information_state() -> None:
    """S6: with the information state too, the same seed plays the same game."""
    make = functools.partial(env, players=3, rules=STANDARD, information_state=True)
    seed_test(make, num_cycles=500)
    api_test(make(), num_cycles=300)


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_parallel_api_test_of_the_turn_based_conversion(players: int) -> None:
    """PettingZoo's parallel API, for games whose turns are taken one at a time, is its
    turn_based_aec_to_parallel conversion: it passes parallel_api_test (whose actions
    follow the masks)."""
    parallel_api_test(turn_based_aec_to_parallel(env(players=players, rules=HUB)), 400)


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize("rules", PRESETS)
def test_pettingzoo_render_test(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test passes for every declared mode (human, ansi, svg)."""
    render_test(
        functools.partial(env, players=3, rules=rules),
        custom_tests={"svg": lambda result: result.startswith("<svg")},
    )
    assert "Trains:" in capsys.readouterr().out  # "human" printed the table


# -- PettingZoo: the game's own conventions ----------------------------------------------------


def test_an_action_outside_the_mask_raises_and_changes_nothing() -> None:
    """An illegal action is an IllegalMoveError naming the action; the game is untouched."""
    game = raw_env(players=4, rules=HUB)
    game.reset(seed=5)
    before, agent = game.game, game.agent_selection
    illegal = int(np.flatnonzero(game.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not in {agent}'s action mask"):
        game.step(illegal)
    assert game.game is before
    assert game.agent_selection == agent


@pytest.mark.parametrize(
    ("action", "error"),
    [(-1, InvalidArgumentError), (459, InvalidArgumentError), (3.5, TypeError),
     ("0", TypeError), (True, TypeError)],
)  # fmt: skip
def test_an_action_outside_the_space_raises_and_changes_nothing(
    action: object, error: type[Exception]
) -> None:
    """A number that is no index of the space is an InvalidArgumentError, a non-number a
    TypeError (a bool is not taken for a number), both naming it."""
    game = raw_env(players=4, rules=HUB)
    game.reset(seed=5)
    before = game.game
    with pytest.raises(error, match="an action is a whole number 0-458"):
        game.step(action)  # type: ignore[arg-type]
    assert game.game is before


def play_out(game: raw_env) -> dict[str, float]:
    """Play the first legal action to the end of the game; return the rewards collected."""
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        _, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        game.step(None if terminated or truncated else first_legal(game))
    return totals


@pytest.mark.parametrize("rules", PRESETS)
def test_e3_rewards_are_mean_minus_own_points_summed_over_rounds(rules: Rules) -> None:
    """E3: each agent's return is the sum over rounds of mean(points) - own points."""
    game = raw_env(players=3, rules=rules)
    game.reset(seed=2)
    totals = play_out(game)
    assert game.game.is_over
    expected = [0.0] * 3
    for points in game.game.round_scores:
        for seat, reward in enumerate(round_rewards(points)):
            expected[seat] += reward
    assert [totals[agent] for agent in game.possible_agents] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_e4_next_round_is_never_asked_of_an_agent() -> None:
    """E4: the environment deals the next round; no mask ever offers NextRound."""
    game = raw_env(players=2, rules=HUB)
    game.reset(seed=9)
    next_round = game.actions.encode(NextRound(), 0)
    rounds = set()
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        assert observation["action_mask"][next_round] == 0
        rounds.add(game.game.round_number)
        game.step(None if terminated or truncated else first_legal(game))
    assert len(rounds) == 13


def test_s6_reset_with_a_seed_repeats_the_game() -> None:
    """S6: the same seed deals the same game; later unseeded resets follow from it."""
    first, second = raw_env(players=4), raw_env(players=4)
    first.reset(seed=3)
    second.reset(seed=3)
    assert first.game == second.game
    first.reset()
    second.reset()
    assert first.game == second.game


def test_only_the_agent_to_move_has_a_mask() -> None:
    """S5: each agent's observation is its own view; only the mover's mask is non-zero."""
    game = raw_env(players=4, rules=HUB)
    game.reset(seed=1)
    for agent in game.agents:
        mask = game.observe(agent)["action_mask"]
        assert mask.any() == (agent == game.agent_selection)


def test_rules_may_be_named_and_bad_arguments_are_refused() -> None:
    """A variant's name works as rules; an unknown name or render mode is refused."""
    game = raw_env(players=2, rules="standard")
    assert game.rules == STANDARD
    with pytest.raises(UnknownVariantError):
        raw_env(players=2, rules="chickenfoot")
    with pytest.raises(InvalidArgumentError, match="render_mode is one of human, ansi, svg"):
        raw_env(players=2, render_mode="rgb_array")
    with pytest.raises(InvalidArgumentError, match="call reset"):
        raw_env(players=2).observe("player_0")
    with pytest.raises(InvalidArgumentError, match="call reset"):
        raw_env(players=2).step(0)
    with pytest.raises(InvalidArgumentError, match="call reset"):
        SingleSeatEnv(players=2).step(0)


#: What PettingZoo's state() says: why there is none, and where the game is.
NO_GLOBAL_STATE = r"every hand, .* hidden from the other seats \(S5\).* env\.unwrapped\.game"


def test_s5_state_refuses_a_global_state_and_says_where_the_game_is() -> None:
    """S5: PettingZoo's global state() would show every hand: it is refused, through the
    wrappers of env() as in raw_env, with a NotImplementedError that names the game."""
    wrapped = env(players=2, rules=HUB)
    wrapped.reset(seed=1)
    for one in (wrapped, wrapped.unwrapped, raw_env(players=2)):
        with pytest.raises(NotImplementedError, match=NO_GLOBAL_STATE):
            one.state()


def test_s5_state_refuses_a_global_state_through_the_parallel_conversion() -> None:
    """S5: the parallel API's state() reaches the same refusal.  Turns are taken one at a
    time, so the conversion is PettingZoo's turn-based one; aec_to_parallel refuses the
    environment (``metadata["is_parallelizable"]`` is False)."""
    parallel = turn_based_aec_to_parallel(env(players=3, rules=HUB))
    parallel.reset(seed=2)
    with pytest.raises(NotImplementedError, match=NO_GLOBAL_STATE):
        parallel.state()
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env(players=3, rules=HUB))


def test_a_step_once_every_agent_is_done_is_refused_until_reset() -> None:
    """raw_env, unwrapped, says the game is over rather than raising a KeyError; env()'s
    OrderEnforcingWrapper warns as PettingZoo does and never steps it then."""
    game = raw_env(players=2, rules=attrs.evolve(HUB, rounds=1))
    game.reset(seed=1)
    for _ in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else first_legal(game))
    assert game.agents == []
    over = game.game
    for action in (None, 0):
        with pytest.raises(InvalidArgumentError, match=r"the game is over .*: call reset\(\)"):
            game.step(action)
    assert game.game is over
    game.reset(seed=2)
    game.step(first_legal(game))


def test_game_is_the_whole_game_after_reset_and_refused_before() -> None:
    """``game`` is the GameState the seed deals (S6), the same object through env()'s
    wrappers; before the first reset there is none, and it says to call reset()."""
    wrapped = env(players=2, rules=HUB)
    with pytest.raises(InvalidArgumentError, match=r"no game yet: call reset\(\) first"):
        wrapped.unwrapped.game  # noqa: B018 (the property raises)
    wrapped.reset(seed=1)
    game = wrapped.unwrapped.game
    assert isinstance(game, GameState)
    assert wrapped.game is game
    assert game.round_number == 1
    single = SingleSeatEnv(players=2, rules=HUB)
    with pytest.raises(InvalidArgumentError, match=r"no game yet: call reset\(\) first"):
        single.game  # noqa: B018 (the property raises)
    single.reset(seed=1)
    assert isinstance(single.game, GameState)
    assert single.game.seed == game.seed


#: The three environments, each made by a call taking players= and rules=.
MAKERS = [
    pytest.param(raw_env, id="raw_env"),
    pytest.param(SingleSeatEnv, id="SingleSeatEnv"),
    pytest.param(functools.partial(vector_env, 2), id="vector_env"),
]


@pytest.mark.parametrize("make", MAKERS)
def test_s2_rules_the_table_cannot_play_are_refused_when_the_environment_is_made(
    make: Any,
) -> None:
    """thirteen-rounds needs the 12-12, but two players are dealt a double-9 set (S2)."""
    with pytest.raises(RulesError, match="has no 12-12"):
        make(players=2, rules="thirteen-rounds")
    make(players=4, rules="thirteen-rounds").reset(seed=1)


def test_render_modes_return_text_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    """'ansi' returns the text picture, 'svg' the SVG, 'human' prints and returns None."""
    for mode, kind in (("ansi", str), ("svg", str), ("human", type(None))):
        game = raw_env(players=2, rules=HUB, render_mode=mode)
        game.reset(seed=1)
        assert isinstance(game.render(), kind)
    assert capsys.readouterr().out.startswith("Round 1 of 13")


@pytest.mark.parametrize("make", MAKERS)
def test_render_human_prints_the_table_dealt_by_reset(
    make: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """'human' draws the table at every reset as at every step, as Gymnasium's and
    PettingZoo's own environments do: a person sees the dealt table before the first move."""
    game = make(players=2, rules=HUB, render_mode="human")
    game.reset(seed=1)
    shown = capsys.readouterr().out
    assert shown.count("Round 1 of 13") == (2 if isinstance(make, functools.partial) else 1)
    games = game.games if isinstance(make, functools.partial) else [game.game]
    assert all(render_text(state) in shown for state in games)


# -- Gymnasium: one seat -----------------------------------------------------------------------


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", PRESETS)
def test_gymnasium_check_env(rules: Rules, players: int) -> None:
    """Gymnasium's env checker passes (made through gymnasium.make, so it checks every mode)."""
    made = gymnasium.make("mexican_train/SingleSeat-v0", players=players, rules=rules)
    check_env(made.unwrapped)


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize(
    "settings",
    [
        {"players": 3, "seat": 2, "information_state": True},
        {"players": 2, "rules": "open-hands"},
        {"players": 3, "rules": "last-tile-call", "seat": 1},
        {"players": 2, "opponents": [RandomPlayer(seed=1)], "illegal_reward": -1.5},
    ],
    ids=["information-state", "open-hands", "last-tile-call", "random-opponent"],
)
def test_gymnasium_check_env_of_other_settings(settings: dict[str, Any]) -> None:
    """Gymnasium's env checker passes for another seat, the information state, variants
    with more to encode (V10, the last-tile call) and other opponents and penalty.  (Not
    for illegal="raise", which raises on the checker's random actions, as documented.)"""
    check_env(gymnasium.make("mexican_train/SingleSeat-v0", **settings).unwrapped)


def test_action_masks_are_the_legal_moves_of_the_seat() -> None:
    """action_masks() is the codec's mask as bools: exactly the seat's legal moves."""
    game = SingleSeatEnv(players=4, rules=HUB, seat=2)
    game.reset(seed=4)
    assert game.game.current_player == 2
    masks = game.action_masks()
    assert masks.dtype == np.bool_
    chosen = {game.actions.decode(int(i), 2) for i in np.flatnonzero(masks)}
    assert chosen == set(legal_moves(game.game))


class _Checking:
    """A greedy opponent that checks it is offered exactly ``legal_moves(view)``."""

    def __init__(self) -> None:
        self.turns = 0

    def choose(self, mine: PlayerView, moves: tuple[Move, ...]) -> Move:
        assert moves == legal_moves(mine)
        self.turns += 1
        return GreedyPlayer().choose(mine, moves)


@pytest.mark.parametrize("rules", PRESETS)
def test_masks_and_offered_moves_are_the_views_legal_moves_all_game(rules: Rules) -> None:
    """Every mask is ``ActionCodec.mask`` of the seat's view, and every opponent is offered
    ``legal_moves`` of its view, at every step of whole games (the environments read them
    from the state's moves)."""
    game = raw_env(players=3, rules=rules)
    game.reset(seed=2)
    for agent in game.agent_iter():
        state, seat = game.game, game._seat[agent]
        for other, number in game._seat.items():
            expected = game.actions.mask(view(state, number))
            assert (game.observe(other)["action_mask"] == expected).all()
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(np.flatnonzero(game.actions.mask(view(state, seat)))[0]))
    opponents = [_Checking(), _Checking()]
    single = SingleSeatEnv(players=3, rules=rules, seat=1, opponents=opponents)
    single.reset(seed=3)
    done = False
    while not done:
        expected = single.actions.mask(view(single.game, 1)).astype(bool)
        assert (single.action_masks() == expected).all()
        _, _, done, _, _ = single.step(int(np.flatnonzero(expected)[-1]))
    assert all(opponent.turns > 0 for opponent in opponents)


@pytest.mark.parametrize("rules", PRESETS)
def test_single_seat_return_is_the_sum_of_its_round_rewards(rules: Rules) -> None:
    """E3: the agent's return over a game is the sum of mean - own over the rounds."""
    game = SingleSeatEnv(players=3, rules=rules, seat=1)
    game.reset(seed=8)
    total, done, ends = 0.0, False, 0
    while not done:
        action = int(np.flatnonzero(game.action_masks())[0])
        rounds = len(game.game.round_scores)
        _, reward, done, truncated, info = game.step(action)
        assert not truncated
        # info["round_over"]: a round ended in the step, whatever its reward.
        assert info["round_over"] is (len(game.game.round_scores) > rounds)
        ends += info["round_over"]
        total += reward
    assert game.game.is_over
    assert ends == len(game.game.round_scores)
    expected = sum(round_rewards(points)[1] for points in game.game.round_scores)
    assert total == pytest.approx(expected)


def test_single_seat_opponents_play_the_other_seats() -> None:
    """The library players given move for the other seats, in seat order."""
    game = SingleSeatEnv(players=3, rules=HUB, opponents=[RandomPlayer(seed=1)] * 2, seat=0)
    _observation, _ = game.reset(seed=1)
    assert game.game.current_player == 0
    start = game.game
    game.step(int(np.flatnonzero(game.action_masks())[0]))
    assert game.game != start


class _Observing:
    """A player that keeps the round's events, as `SearchPlayer` does, and checks them."""

    def __init__(self, note: Callable[[int], None]) -> None:
        self.history: list[Event] = []
        self.note = note  # a function: shared with the player's copies, not copied

    def observe(self, events: Iterable[Event]) -> None:
        for event in events:
            if type(event) is RoundStarted:
                self.history.clear()
            self.history.append(event)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        assert tuple(self.history) == redact_events(self.history, view.seat)  # S5
        determinize(view, random.Random(0), history=self.history)  # raises unless it fits
        self.note(len(self.history))
        return PlannerPlayer().choose(view, moves)


def test_single_seat_tells_observing_opponents_the_round_a_fresh_copy_each_game() -> None:
    """An opponent with observe() is told every event its seat saw, as simulate tells it."""
    decisions: list[int] = []
    opponent = _Observing(lambda size: decisions.append(size))
    game = SingleSeatEnv(players=3, rules=attrs.evolve(HUB, rounds=2), opponents=[opponent] * 2)
    rng = np.random.default_rng(3)
    for seed in (1, 2):  # a second game: its first decisions fit only a fresh history
        game.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(game.action_masks())
            _, _, terminated, _, _ = game.step(int(rng.choice(legal)))
    assert len(decisions) > 20
    assert sum(1 for size in decisions if size) > len(decisions) // 2
    assert opponent.history == []  # the player given is copied, never told


def test_single_seat_an_illegal_action_terminates_with_the_penalty() -> None:
    """Gymnasium accepts any action: one outside the mask ends the episode, game untouched."""
    game = SingleSeatEnv(players=2, rules=HUB, illegal_reward=-7.0)
    game.reset(seed=1)
    before = game.game
    illegal = int(np.flatnonzero(~game.action_masks())[0])
    _, reward, terminated, truncated, info = game.step(illegal)
    assert (reward, terminated, truncated, info) == (
        -7.0,
        True,
        False,
        {"illegal_action": illegal, "round_over": False},
    )
    assert game.game is before


def test_single_seat_a_step_after_the_episode_ended_is_refused_until_reset() -> None:
    """Neither the end of the game nor an illegal action's end lets play go on (no -100)."""
    game = SingleSeatEnv(players=2, rules=HUB)
    game.reset(seed=1)
    illegal = int(np.flatnonzero(~game.action_masks())[0])
    assert game.step(illegal)[2]
    before = game.game
    legal = int(np.flatnonzero(game.action_masks())[0])
    with pytest.raises(InvalidArgumentError, match=r"episode has ended \(an illegal action"):
        game.step(legal)
    assert game.game is before
    game.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, _ = game.step(int(np.flatnonzero(game.action_masks())[0]))
    with pytest.raises(InvalidArgumentError, match=r"episode has ended \(the game is over\)"):
        game.step(0)
    game.reset(seed=2)
    game.step(int(np.flatnonzero(game.action_masks())[0]))


def test_single_seat_an_illegal_action_raises_on_request() -> None:
    """illegal='raise' turns an action outside the mask into an IllegalMoveError."""
    game = SingleSeatEnv(players=2, rules=HUB, illegal="raise")
    game.reset(seed=1)
    illegal = int(np.flatnonzero(~game.action_masks())[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not in the action mask"):
        game.step(illegal)


def first_action(game: SingleSeatEnv) -> int:
    return int(np.flatnonzero(game.action_masks())[0])


def whole_game(game: SingleSeatEnv, seed: int) -> list[tuple[np.ndarray, float]]:
    """Reset with *seed* and play the first legal action to the game's end."""
    observation, _ = game.reset(seed=seed)
    played, terminated = [(observation, 0.0)], False
    while not terminated:
        observation, reward, terminated, _, _ = game.step(first_action(game))
        played.append((observation, reward))
    return played


def same_games(
    first: list[tuple[np.ndarray, float]], second: list[tuple[np.ndarray, float]]
) -> bool:
    return len(first) == len(second) and all(
        np.array_equal(a, b) and r == s for (a, r), (b, s) in zip(first, second, strict=True)
    )


def failing_single_seat(kind: str, at: int) -> SingleSeatEnv:
    """Three players, information state: the opponent at seat 1 has a bug (`FAULTS`)."""
    faulty = FAULTS[kind][0](at)
    return SingleSeatEnv(
        players=3, rules=STANDARD, opponents=[faulty, GreedyPlayer()], information_state=True
    )


@pytest.mark.parametrize("kind", FAULTS)
def test_single_seat_an_opponents_failure_reaches_the_caller_and_step_waits_for_reset(
    kind: str,
) -> None:
    """A bot's exception in step goes on as it was raised, noted with its seat; the step
    is cut short, so the environment refuses to play on until a reset, and changes nothing."""
    game = failing_single_seat(kind, at=6)
    game.reset(seed=2)
    name = FAULTS[kind][1]
    failure = failure_of(lambda: game.step(first_action(game)))
    assert type(failure).__name__ == name
    if sys.version_info >= (3, 11):  # exception notes are Python 3.11's
        notes = "\n".join(getattr(failure, "__notes__", []))
        assert "at seat 1" in notes
        assert "the environment refuses step() until reset()" in notes
    before = game.game
    refusal = rf"an opponent's bot failed during the last step \({name}: .+\): call reset\(\)"
    with pytest.raises(InvalidArgumentError, match=refusal):
        game.step(first_action(game))
    with pytest.raises(InvalidArgumentError, match=refusal):
        game.step(first_action(game))
    assert game.game is before


@pytest.mark.parametrize("kind", FAULTS)
def test_single_seat_a_reset_after_an_opponents_failure_plays_a_clean_game(kind: str) -> None:
    """After the failure, reset deals a game as a fresh environment deals it: the same
    information-state observations and rewards to the end, the observing bot's history fresh."""
    game = failing_single_seat(kind, at=6)
    game.reset(seed=2)
    assert type(failure_of(lambda: game.step(first_action(game)))).__name__ == FAULTS[kind][1]
    assert same_games(whole_game(game, seed=5), whole_game(failing_single_seat(kind, 0), seed=5))


def test_single_seat_an_opponents_failure_in_reset_leaves_step_refused_until_a_good_reset() -> None:
    """A reset a bot's exception cuts short deals no game to play on: step is refused
    until a reset succeeds, which deals the game a fresh environment deals."""
    count = iter(range(1, 10**6)).__next__
    faulty = RaisesOnChoose(at=0, calls=count)
    opponents: list[Player] = [faulty, GreedyPlayer(), GreedyPlayer()]
    game = SingleSeatEnv(players=4, rules=STANDARD, opponents=opponents, seat=3)
    game.reset(seed=1)
    game.step(first_action(game))
    faulty.at = count() + 1  # its next choose
    with pytest.raises(ZeroDivisionError) as failure:
        game.reset(seed=5)  # seat 0 plays first
    if sys.version_info >= (3, 11):  # exception notes are Python 3.11's
        notes = getattr(failure.value, "__notes__", [])
        assert "raised by the choose() of the opponent at seat 0" in notes
    with pytest.raises(
        InvalidArgumentError,
        match=r"an opponent's bot failed during the last reset \(ZeroDivisionError: .+\): call",
    ):
        game.step(first_action(game))
    opponents[0] = RaisesOnChoose(at=0)
    fresh = SingleSeatEnv(players=4, rules=STANDARD, opponents=opponents, seat=3)
    assert same_games(whole_game(game, seed=5), whole_game(fresh, seed=5))


@pytest.mark.parametrize("action", [1.5, 0.0, "0", True, np.True_, None, np.array([0])], ids=repr)
def test_single_seat_step_refuses_an_action_that_is_not_a_whole_number(action: Any) -> None:
    """A TypeError, not int() first, which would take 1.5 for 1, '0' for 0 and True for 1."""
    game = SingleSeatEnv(players=2, rules=HUB)
    game.reset(seed=1)
    before = game.game
    with pytest.raises(TypeError, match="an action is a whole number"):
        game.step(action)
    assert game.game is before


@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.uint8, np.array])
def test_single_seat_step_takes_ints_and_numpy_integers(kind: Any) -> None:
    game = SingleSeatEnv(players=2, rules=HUB)
    game.reset(seed=1)
    before = game.game
    _, _, terminated, _, info = game.step(kind(int(np.flatnonzero(game.action_masks())[0])))
    assert not terminated
    assert "illegal_action" not in info
    assert game.game != before


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"seat": 4}, "a seat is 0-3"),
        ({"opponents": [RandomPlayer()]}, "needs 3 opponents, not 1"),
        ({"opponents": "greedy"}, "opponents is a list of Players, one per other seat"),
        ({"opponents": RandomPlayer()}, "opponents is a list of Players, one per other seat"),
        ({"opponents": [RandomPlayer(), object(), RandomPlayer()]}, "an opponent is a Player"),
        (
            {"opponents": [RandomPlayer(), GreedyPlayer, RandomPlayer()]},
            re.escape(
                "an opponent is a Player, not the class GreedyPlayer: make one, GreedyPlayer()"
            ),
        ),
        ({"illegal": "ignore"}, "illegal is 'terminate' or 'raise'"),
        ({"render_mode": "rgb_array"}, "render_mode is one of"),
    ],
)
def test_single_seat_refuses_bad_arguments(arguments: dict[str, object], words: str) -> None:
    """Each bad argument is refused with a message naming it."""
    with pytest.raises(InvalidArgumentError, match=words):
        SingleSeatEnv(players=4, rules=HUB, **arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize("make", MAKERS[1:])
@pytest.mark.parametrize("reward", ["x", None, True])
def test_an_illegal_reward_that_is_not_a_number_is_refused(make: Any, reward: object) -> None:
    with pytest.raises(TypeError, match="illegal_reward is a number"):
        make(players=2, illegal_reward=reward)


@pytest.mark.parametrize("make", MAKERS[1:])
@pytest.mark.parametrize("reward", [math.nan, math.inf, -math.inf, np.float64("nan")])
def test_an_illegal_reward_that_is_not_finite_is_refused(make: Any, reward: float) -> None:
    """A NaN or infinite penalty would reach the learner's returns and spoil them all."""
    with pytest.raises(InvalidArgumentError, match="illegal_reward is a finite number, not "):
        make(players=2, illegal_reward=reward)


@pytest.mark.parametrize("make", MAKERS[1:])
def test_the_agents_seat_may_be_a_numpy_integer(make: Any) -> None:
    """A seat drawn by a numpy generator (to train every seat) is taken as that int, as
    ActionCodec takes it; one outside the game is refused, shown as given."""
    game = make(players=3, seat=np.int64(2))
    assert type(game.seat) is int
    assert game.seat == 2
    with pytest.raises(
        InvalidArgumentError, match=re.escape("a seat is 0-2 in a 3-player game, not np.int64(3)")
    ):
        make(players=3, seat=np.int64(3))
    with pytest.raises(InvalidArgumentError, match="a seat is 0-2 in a 3-player game, not "):
        make(players=3, seat=np.bool_(True))


def test_a_two_player_game_needs_one_opponent() -> None:
    with pytest.raises(InvalidArgumentError, match="needs 1 opponent, not 2"):
        SingleSeatEnv(players=2, opponents=[RandomPlayer(), RandomPlayer()])


def test_single_seat_reset_with_a_seed_repeats_the_game() -> None:
    """S6: the same seed gives the same game and the same first observation."""
    first, second = SingleSeatEnv(players=4), SingleSeatEnv(players=4)
    a, _ = first.reset(seed=11)
    b, _ = second.reset(seed=11)
    assert np.array_equal(a, b)
    assert first.game == second.game


def test_round_rewards_are_zero_sum() -> None:
    """The reward convention: mean(points) - own points, summing to zero."""
    state = new_game(4, HUB, seed=1)
    while not state.is_round_over:
        state = apply(state, legal_moves(state)[0])
    rewards = round_rewards(state.round_scores[-1])
    assert sum(rewards) == pytest.approx(0.0)
    assert rewards.index(max(rewards)) == state.round_scores[-1].index(min(state.round_scores[-1]))


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize(
    "seed",
    [-1, 2**64, -(10**5000), 10**5000, True, "1"],
    ids=["-1", "2**64", "-huge", "huge", "True", "'1'"],
)
def test_reset_refuses_a_seed_numpy_cannot_take_with_the_librarys_error(
    make: type, seed: object
) -> None:
    """An environment's seed seeds numpy's generator, as Gymnasium does: 0 to 2**64 - 1.

    The vector environment's two tables take ``s`` and ``s + 1`` from a whole number.
    """
    game = make(players=2)
    with pytest.raises(InvalidArgumentError, match="seed is a whole number from 0"):
        game.reset(seed=seed)
    game.reset(seed=2**64 - 2 if isinstance(make, functools.partial) else 2**64 - 1)
    game.reset(seed=0)


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("options", ["reset_mask", 3, [("a", 1)]], ids=["str", "int", "list"])
def test_reset_refuses_options_that_are_not_a_dict_and_changes_nothing(
    make: type, options: object
) -> None:
    """Gymnasium's options are a dict (or None) in every environment; another dict's keys
    are ignored, as PettingZoo's api_test asks (it resets with ``options={"options": 1}``).
    A reset refused leaves the game where it was."""
    game = make(players=2)
    game.reset(seed=3)
    before = game.games if isinstance(make, functools.partial) else game.game
    with pytest.raises(InvalidArgumentError, match="options is a dict or None, not "):
        game.reset(seed=4, options=options)
    assert (game.games if isinstance(make, functools.partial) else game.game) == before
    game.reset(seed=4, options={"anything": 1})


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("kind", [np.int64, np.uint64, np.int32], ids=lambda k: k.__name__)
def test_a_numpy_integer_seed_is_refused_saying_to_pass_an_int(make: Any, kind: type) -> None:
    """A seed drawn by a numpy generator (``rng.integers``) is a numpy integer, which
    numpy's and Gymnasium's seeding refuse as the library's functions do: the refusal says
    so, and how to pass it, rather than that the number is not a whole number."""
    game = make(players=2)
    game.reset(seed=5)
    before = game.games if isinstance(make, functools.partial) else game.game
    words = "seed is a whole number from 0, of at most 64 bits, a Python int, not the numpy "
    with pytest.raises(InvalidArgumentError, match=re.escape(words) + ".*: pass int"):
        game.reset(seed=kind(5))
    assert (game.games if isinstance(make, functools.partial) else game.game) == before


@pytest.mark.parametrize("seed", [-1, 2**64, True, "1"], ids=["-1", "2**64", "True", "'1'"])
def test_vector_env_refuses_a_first_seed_numpy_cannot_take(seed: object) -> None:
    with pytest.raises(InvalidArgumentError, match="seed is a whole number from 0"):
        vector_env(2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.usefixtures("strict_warnings")
def test_the_information_state_is_offered_by_both_environments() -> None:
    game = SingleSeatEnv(players=2, rules=HUB, information_state=True)
    codec = ObservationCodec(HUB, 2, information_state=True)
    observation, _ = game.reset(seed=2)
    assert observation.shape == codec.shape
    done, steps = False, 0
    while not done:
        action = int(np.flatnonzero(game.action_masks())[0])
        observation, _, done, _, _ = game.step(action)
        assert game.observation_space.contains(observation)
        steps += 1
    assert steps > 10


# -- every observation in its space, every mask the legal moves, over random games -------------


def short(rules: Rules, rounds: int | None) -> Rules:
    """*rules* cut to *rounds* rounds (None: the variant's own), to reach games' ends."""
    return rules if rounds is None else attrs.evolve(rules, rounds=rounds)


@given(
    table=catalogue_tables(max_players=5),
    rounds=st.sampled_from([1, 2, None]),
    seed=seeds(),
    information_state=st.booleans(),
    data=st.data(),
)
def test_every_observation_lies_in_its_space_and_every_mask_is_the_legal_moves(
    table: tuple[Rules, int],
    rounds: int | None,
    seed: int,
    information_state: bool,
    data: st.DataObject,
) -> None:
    """In every variant, for every seat, in both encodings, at every step of random games
    to their ends (or 400 steps), in all three environments: each observation lies in its
    space, and each mask is 1 exactly at the legal moves of the seat's view."""
    rules, players = short(table[0], rounds), table[1]
    seat = data.draw(st.integers(0, players - 1), label="seat")
    codec, rng = ActionCodec(rules, players), np.random.default_rng(seed)

    def legal(state: GameState | None, at: int) -> set[Move]:
        assert state is not None
        moves = legal_moves(view(state, at)) if state.current_player in (None, at) else ()
        return set(moves)

    def masked(mask: np.ndarray, at: int) -> set[Move]:
        return {codec.decode(int(index), at) for index in np.flatnonzero(mask)}

    single = SingleSeatEnv(
        players,
        rules,
        [RandomPlayer(seed=seed)] * (players - 1),
        seat=seat,
        information_state=information_state,
    )
    observation, _ = single.reset(seed=seed)
    done, steps = False, 0
    while True:
        assert single.observation_space.contains(observation)
        mask = single.action_masks()
        assert mask.dtype == np.bool_
        assert masked(mask, seat) == legal(single.game, seat)
        if done or steps == 400:
            break
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, _, done, _, _ = single.step(action)
        steps += 1

    game = raw_env(players, rules, information_state=information_state)
    game.reset(seed=seed)
    turns = 0
    for agent in game.agent_iter(max_iter=400):
        for other, number in game._seat.items():
            seen = game.observe(other)
            assert game.observation_space(other).contains(seen)
            assert masked(seen["action_mask"], number) == legal(game.game, number)
        observation, _, terminated, truncated, _ = game.last()
        assert np.array_equal(observation["action_mask"], game.observe(agent)["action_mask"])
        game.step(
            None
            if terminated or truncated
            else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        )
        turns += 1
    assert turns > 0

    tables = vector_env(
        2,
        players=players,
        rules=rules,
        seat=seat,
        opponents="random",
        information_state=information_state,
        seed=seed % 2**63,
    )
    batch, _ = tables.reset()
    for _ in range(150):
        assert tables.observation_space.contains(batch)
        for row, state in enumerate(tables.games):
            assert masked(batch["action_mask"][row], seat) == legal(state, seat) != set()
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in batch["action_mask"]]
        batch, _, _, _, infos = tables.step(np.array(actions))
        for ended in np.flatnonzero(infos.get("_final_obs", np.zeros(2, dtype=bool))):
            final = infos["final_obs"][ended]
            assert tables.single_observation_space.contains(final)
            assert not final["action_mask"].any()  # a game over has no legal move
