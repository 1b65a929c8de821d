"""Reinforcement-learning environments: a PettingZoo AEC game and a Gymnasium single seat.

Both are thin layers over the public API: `new_game`, `legal_moves`, `apply`,
`view`, the players and the renderers.  An episode is a whole game; at the end
of each round every seat is rewarded ``mean(points of all seats) - own points``
(zero-sum: a seat that scores less than the table's average gains).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._bots.players import GreedyPlayer, Player
from .._catalogue.variants import get_variant
from .._core.bounds import check_bound
from .._core.engine import apply, legal_moves, new_game
from .._core.errors import IllegalMoveError, InvalidArgumentError
from .._core.moves import NextRound
from .._core.rules import HUB, Rules
from .._core.state import GameState
from .._core.view import view
from .._formats.render import render_svg, render_text
from .codecs import ActionCodec, ObservationCodec

__all__ = ["RENDER_MODES", "SingleSeatEnv", "env", "raw_env", "round_rewards"]

#: The render modes both environments offer: "human" prints the text picture,
#: "ansi" returns it, "svg" returns the SVG picture.
RENDER_MODES: Final = ("human", "ansi", "svg")

_NEXT_ROUND: Final = NextRound()


def round_rewards(points: Sequence[int]) -> tuple[float, ...]:
    """Return each seat's reward for a round: ``mean(points) - own points`` (zero-sum).

    *points* are the seats' scores for the round (E3), lower being better.

    >>> round_rewards((0, 10, 20, 30))
    (15.0, 5.0, -5.0, -15.0)
    """
    mean = sum(points) / len(points)
    return tuple(float(mean - own) for own in points)


def _check_render_mode(render_mode: object) -> str | None:
    if render_mode is None or (isinstance(render_mode, str) and render_mode in RENDER_MODES):
        return render_mode
    raise InvalidArgumentError(
        f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
    )


def _rules(rules: Rules | str) -> Rules:
    # A variant may be named, as on the command line ("hub", "standard", ...).
    return get_variant(rules) if isinstance(rules, str) else rules


def _render(state: GameState, render_mode: str | None) -> str | None:
    if render_mode == "svg":
        return render_svg(state)
    text = render_text(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def _finish_rounds(state: GameState) -> tuple[GameState, tuple[float, ...] | None]:
    # E4: the environment deals the next round itself; agents are never asked.
    if not state.is_round_over:
        return state, None
    rewards = round_rewards(state.round_scores[-1])
    if not state.is_over:
        state = apply(state, _NEXT_ROUND)
    return state, rewards


class raw_env(AECEnv):  # type: ignore[misc]  # AECEnv is untyped; the name is PettingZoo's
    """Mexican Train as a PettingZoo AEC environment (classic-game conventions).

    Agents are ``player_0`` ... ``player_<P-1>``, one per seat.  Each observes a
    dict ``{"observation", "action_mask"}``: the `ObservationCodec` encoding of
    its `PlayerView` and the `ActionCodec` mask (all zeros unless it is that
    agent's turn).  An episode is a whole game.  At the end of each round every
    agent is rewarded ``mean(points of all seats) - own points``; `NextRound` is
    applied by the environment.  An action outside the mask raises
    `IllegalMoveError` (or `InvalidArgumentError` outside the action space) and
    changes nothing.  ``reset(seed=...)`` fixes the game (S6).

    Args:
        players: the number of players.
        rules: the rules to play by, or a variant's name (``"hub"``, ``"standard"``, ...).
        render_mode: None, "human" (prints the table), "ansi" (returns the text)
            or "svg" (returns the picture); the whole table, every hand shown.

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        UnknownVariantError: if *rules* names no variant.
        InvalidArgumentError: for an unknown *render_mode*.

    >>> game = raw_env(players=2, rules=HUB)
    >>> game.reset(seed=1)
    >>> game.agent_selection, int(game.action_space("player_0").n)
    ('player_0', 277)
    >>> observation, reward, terminated, truncated, info = game.last()
    >>> sorted(observation), reward, terminated
    (['action_mask', 'observation'], 0.0, False)
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "mexican_train_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, players: int = 4, rules: Rules | str = HUB, render_mode: str | None = None
    ) -> None:
        super().__init__()
        rules = _rules(rules)
        self.render_mode = _check_render_mode(render_mode)
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players)
        self.rules, self.players = rules, players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.agents}
        mask_space = spaces.Box(0, 1, (self.actions.size,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.observations.space, "action_mask": mask_space})
            for a in self.agents
        }
        self._seeds = np.random.default_rng()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return *agent*'s observation space (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return *agent*'s action space: ``Discrete(ActionCodec.size)``."""
        return self.action_spaces[agent]

    def _game(self) -> GameState:
        if self.state is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        return self.state

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """Return what *agent* observes now: its encoded view and its action mask."""
        mine = view(self._game(), self._seat[agent])
        return {
            "observation": self.observations.encode(mine),
            "action_mask": self.actions.mask(mine),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same *seed* gives the same game (S6)."""
        if seed is not None:
            self._seeds = np.random.default_rng(check_bound("env_seed", seed, "seed"))
        self.state = new_game(self.players, self.rules, seed=int(self._seeds.integers(0, 2**63)))
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_move(self.state)

    def _to_move(self, state: GameState) -> str:
        seat = state.current_player
        return self.possible_agents[0 if seat is None else seat]

    def step(self, action: int | None) -> None:
        """Make the selected agent's move *action* (None for an agent that is done)."""
        state = self._game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        move = self.actions.decode(action, seat)  # type: ignore[arg-type]
        if move not in legal_moves(state):
            raise IllegalMoveError(
                move,
                f"action {action} is not in {agent}'s action mask "
                f"(legal: {', '.join(map(repr, legal_moves(state)))})",
            )
        self._cumulative_rewards[agent] = 0.0
        state, rewards = _finish_rounds(apply(state, move))
        self.state = state
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if rewards is not None:
            self.rewards = dict(zip(self.possible_agents, rewards, strict=True))
        if state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            # Every agent is shown the end in turn, from the one after the mover.
            self.agent_selection = self.possible_agents[(seat + 1) % self.players]
        else:
            self.agent_selection = self._to_move(state)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Draw the whole table as ``render_mode`` says (every hand shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return _render(self._game(), self.render_mode)

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""


def env(players: int = 4, rules: Rules | str = HUB, render_mode: str | None = None) -> AECEnv:
    """Return the PettingZoo AEC environment, wrapped to enforce the call order.

    See `raw_env` for the arguments.

    >>> from mexican_train import STANDARD
    >>> game = env(players=3, rules=STANDARD)
    >>> game.reset(seed=7)
    >>> game.agents
    ['player_0', 'player_1', 'player_2']
    """
    return wrappers.OrderEnforcingWrapper(raw_env(players, rules, render_mode))


class SingleSeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a game as a Gymnasium environment; library players take the others.

    The agent plays *seat*; each other seat is played by a library `Player`
    (by default `GreedyPlayer`).  Observations are `ObservationCodec` encodings
    of the agent's view; actions are `ActionCodec` indices; `action_masks`
    returns the legal ones, as sb3-contrib's MaskablePPO asks.  An episode is a
    whole game; at the end of each round the agent is rewarded
    ``mean(points of all seats) - own points``.  `NextRound` is applied by the
    environment.

    Gymnasium expects every action of the space to be accepted: an action
    outside the mask ends the episode (``terminated``) with *illegal_reward*
    and ``info["illegal_action"]``, and leaves the game as it was.  With
    ``illegal="raise"`` it raises `IllegalMoveError` instead, to find bugs.

    Args:
        players: the number of players.
        rules: the rules to play by, or a variant's name.
        opponents: one `Player` per other seat, in seat order; None: `GreedyPlayer`.
        seat: the agent's seat.
        render_mode: None, "human", "ansi" or "svg" (the whole table).
        illegal: "terminate" (the default) or "raise".
        illegal_reward: the reward for an action outside the mask.

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        InvalidArgumentError: for a seat the game does not have, the wrong number
            of opponents, an unknown *render_mode* or *illegal*.

    >>> game = SingleSeatEnv(players=2, rules=HUB)
    >>> observation, info = game.reset(seed=3)
    >>> observation.shape, int(game.action_masks().sum()) > 0
    ((364,), True)
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        players: int = 4,
        rules: Rules | str = HUB,
        opponents: Sequence[Player] | None = None,
        *,
        seat: int = 0,
        render_mode: str | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -100.0,
    ) -> None:
        self.render_mode = _check_render_mode(render_mode)
        rules = _rules(rules)
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players)
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidArgumentError(f"a seat is 0-{players - 1}, not {seat!r}")
        if opponents is None:
            opponents = [GreedyPlayer()] * (players - 1)
        opponents = list(opponents)
        if len(opponents) != players - 1:
            raise InvalidArgumentError(
                f"a {players}-player game needs {players - 1} opponents, not {len(opponents)}"
            )
        if illegal not in ("terminate", "raise"):
            raise InvalidArgumentError(f"illegal is 'terminate' or 'raise', not {illegal!r}")
        self.rules, self.players, self.seat = rules, players, seat
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        others = [s for s in range(players) if s != seat]
        self.opponents: dict[int, Player] = dict(zip(others, opponents, strict=True))
        self.action_space = spaces.Discrete(self.actions.size)
        self.observation_space = cast(
            "spaces.Space[npt.NDArray[np.float32]]", self.observations.space
        )
        self.state: GameState | None = None

    def _game(self) -> GameState:
        if self.state is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        return self.state

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.observations.encode(view(self._game(), self.seat))

    def _advance(self, state: GameState) -> tuple[GameState, float]:
        # Let the other seats move, and deal new rounds, until the agent is to move.
        reward = 0.0
        while True:
            state, rewards = _finish_rounds(state)
            if rewards is not None:
                reward += rewards[self.seat]
            if state.is_over or state.current_player == self.seat:
                return state, reward
            seat = state.current_player
            assert seat is not None  # _finish_rounds dealt the next round
            theirs = view(state, seat)
            state = apply(state, self.opponents[seat].choose(theirs, legal_moves(theirs)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new game and play the other seats up to the agent's first move."""
        super().reset(seed=None if seed is None else check_bound("env_seed", seed, "seed"))
        state = new_game(self.players, self.rules, seed=int(self.np_random.integers(0, 2**63)))
        self.state, _ = self._advance(state)
        return self._observe(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Make the agent's move *action*, then the others' until the agent's next turn."""
        state = self._game()
        move = self.actions.decode(int(action), self.seat)
        if move not in legal_moves(state):
            if self.illegal == "raise":
                raise IllegalMoveError(
                    move, f"action {action} is not in the action mask of seat {self.seat}"
                )
            info = {"illegal_action": int(action)}
            return self._observe(), self.illegal_reward, True, False, info
        self.state, reward = self._advance(apply(state, move))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.state.is_over, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return the legal actions as a bool array (what MaskablePPO asks for)."""
        return self.actions.mask(view(self._game(), self.seat)).astype(bool)

    def render(self) -> str | None:
        """Draw the whole table as ``render_mode`` says (every hand shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return _render(self._game(), self.render_mode)
