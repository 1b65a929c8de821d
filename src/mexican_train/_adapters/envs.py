"""Reinforcement-learning environments: a PettingZoo AEC game and a Gymnasium single seat.

Both are thin layers over the public API: `new_game`, `legal_moves`, `apply`,
`view`, the players and the renderers.  An episode is a whole game; at the end
of each round every seat is rewarded ``mean(points of all seats) - own points``
(zero-sum: a seat that scores less than the table's average gains).
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Sequence
from typing import Any, ClassVar, Final, NoReturn, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._bots.players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from .._bots.simulate import Observers, add_note, observers_of, observing_copies, tell
from .._catalogue.variants import get_variant
from .._core.bounds import BOUNDS, check_bound
from .._core.engine import apply, legal_moves, new_game
from .._core.errors import IllegalMoveError, InvalidArgumentError, shown
from .._core.moves import NEXT_ROUND, Move
from .._core.rules import HUB, Rules
from .._core.state import GameState
from .._core.view import PlayerView, view
from .._formats.render import render_svg, render_text
from .batch import (
    Layout,
    Seen,
    Steps,
    Tables,
    indices,
    opponent_move,
    round_rewards,
    seen_bits,
    view_floats,
)
from .codecs import ActionCodec, ObservationCodec, check_seat

__all__ = [
    "RENDER_MODES",
    "SingleSeatEnv",
    "VectorEnv",
    "env",
    "raw_env",
    "round_rewards",
    "vector_env",
]

#: The render modes every environment offers (`raw_env`, `SingleSeatEnv`, `VectorEnv`):
#: "human" prints the text picture, "ansi" returns it, "svg" returns the SVG picture.
RENDER_MODES: Final = ("human", "ansi", "svg")


def _check_render_mode(render_mode: object) -> str | None:
    if render_mode is None or (isinstance(render_mode, str) and render_mode in RENDER_MODES):
        return render_mode
    raise InvalidArgumentError(
        f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
    )


def _rules(rules: Rules | str, players: int) -> Rules:
    # A variant may be named, as on the command line ("hub", "standard", ...).  The
    # game's own checks (S1, S2) are made now, as new_game makes them, not at the first
    # reset; arguments of the wrong type are left to the codecs' TypeError.
    rules = get_variant(rules) if isinstance(rules, str) else rules
    if isinstance(rules, Rules) and type(players) is int:
        new_game(players, rules, seed=0)
    return rules


def _check_options(options: object) -> None:
    # Gymnasium's reset options: a dict or None.  The environments read no key of their
    # own but the vector environment's "reset_mask"; others are ignored.
    if options is not None and not isinstance(options, dict):
        raise InvalidArgumentError(f"options is a dict or None, not {shown(options)}")


def _env_seed(seed: object, argument: str) -> int:
    # A seed from 0 to 2**64 - 1, a Python int: Gymnasium's seeding takes no numpy
    # integer, nor do the library's functions; a generator's draw is one, so the
    # refusal says how to pass it.
    if isinstance(seed, np.integer):
        raise _numpy_seed(seed, argument)
    return check_bound("env_seed", seed, argument)


def _numpy_seed(seed: np.integer[Any], argument: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{argument} is a whole number {BOUNDS['env_seed'].words()}, a Python int, not "
        f"the numpy integer {shown(seed)}: pass int({argument})"
    )


def _reward(value: object) -> float:
    # The reward for an illegal action: a finite number (a bool or a str is not one; a
    # NaN or an infinity would spoil every return the learner sums it into).
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"illegal_reward is a number, not {value!r}")
    if not math.isfinite(value):
        raise InvalidArgumentError(f"illegal_reward is a finite number, not {value!r}")
    return float(value)


def _failure(error: BaseException, during: str) -> str:
    # Why the environment refuses to step: what cut its last *during* ("step" or
    # "reset") short, the exception's name and the first line of its message.
    if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit
        return f"the last {during} was interrupted ({type(error).__name__})"
    text = str(error).strip().partition("\n")[0]
    if len(text) > 100:
        text = text[:99] + "…"
    said = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return f"an opponent's bot failed during the last {during} ({said})"


def _wrong_count(players: int, count: int) -> InvalidArgumentError:
    others = players - 1
    return InvalidArgumentError(
        f"a {players}-player game needs {others} opponent{'s' if others != 1 else ''}, not {count}"
    )


def _check_player(bot: object, expected: str) -> Player:
    # An opponent given as a Player: an object with a choose(view, moves) method.  A class
    # has one too, but its choose would take the view for self and fail at its first turn.
    if isinstance(bot, type):
        raise InvalidArgumentError(
            f"an opponent is a Player, not the class {bot.__name__}: make one, {bot.__name__}()"
        )
    if not callable(getattr(bot, "choose", None)):
        raise InvalidArgumentError(f"an opponent is {expected}, not {bot!r}")
    return cast("Player", bot)


def _encode(lay: Layout, mine: PlayerView, seen: Seen | None) -> npt.NDArray[np.float32]:
    # The codec's encoding of a seat's view; with the information state (*seen*), its
    # block from what the seats have shown this round, followed move by move as the
    # vector environment's tables follow it, not rebuilt from the round's events.
    seat = mine.seat
    assert seat is not None  # the environments view seats
    block = 0
    if seen is not None:
        # Once the round is over no seat plays again: nothing is lacked (seen_bits).
        lacks = seen.lacks if mine.current_player is not None else [0] * lay.players
        block = seen_bits(lay, seat, lacks, seen.played)
    return np.frombuffer(view_floats(lay, mine, seat, block), np.float32)


def _mask(codec: ActionCodec, state: GameState, seat: int) -> npt.NDArray[np.int8]:
    # codec.mask(view(state, seat)), from the moves apply left on the state: the view's
    # legal_moves would list them again.  They are the same moves (legal_moves' promise):
    # the state's on the seat's turn and between rounds, none on another seat's turn.
    mover = state.current_player
    mask = np.zeros(codec.size, dtype=np.int8)
    if mover is None or mover == seat:
        mask[indices(legal_moves(state), seat, codec.players, codec.size, 0)] = 1
    return mask


def _render(state: GameState, render_mode: str | None) -> str | None:
    if render_mode == "svg":
        return render_svg(state)
    text = render_text(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def _apply(
    state: GameState, move: Move, lay: Layout, seen: Seen | None, observers: Observers = ()
) -> GameState:
    # apply(), noting and telling what the move did (`_told`).
    return _told(state, move, apply(state, move), lay, seen, observers)


def _told(
    state: GameState,
    move: Move,
    after: GameState,
    lay: Layout,
    seen: Seen | None,
    observers: Observers = (),
) -> GameState:
    # Return *after*, the state *move* made of *state*, once noted in *seen* (None: not
    # kept) what the move showed, for the information state, and told each of
    # *observers* what its seat saw (S5), as `simulate` tells its players.
    if observers:  # no call at all in the usual case: no opponent observes
        tell(observers, state, move, after)
    if seen is not None:
        seen.record(lay, state, move, after)  # a NextRound forgets the round
    return after


def _finish_rounds(
    state: GameState, lay: Layout, seen: Seen | None, observers: Observers = ()
) -> tuple[GameState, tuple[float, ...] | None]:
    # E4: the environment deals the next round itself; agents are never asked.
    if not state.is_round_over:
        return state, None
    rewards = round_rewards(state.round_scores[-1])
    if not state.is_over:
        state = _apply(state, NEXT_ROUND, lay, seen, observers)
    return state, rewards


#: Why `raw_env.state` refuses: PettingZoo's global state is the whole game.
_NO_GLOBAL_STATE: Final = (
    "mexican_train_v0 has no global state(): it would show every hand, and the rules keep "
    "each hand hidden from the other seats (S5). An agent observes its own seat "
    "(observe(agent)); the whole game, for tests and pictures, is env.unwrapped.game"
)


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

    The whole game, every hand in it, is `game` (``env.unwrapped.game`` through
    PettingZoo's wrappers), for tests and pictures.  PettingZoo's global
    `state` raises `NotImplementedError`: it would show every hand, and the
    rules keep each hand hidden from the other seats (S5).

    Args:
        players: the number of players.
        rules: the rules to play by, or a variant's name (``"hub"``, ``"standard"``, ...).
        render_mode: None, "human" (prints the table at each reset and step), "ansi"
            (returns the text) or "svg" (returns the picture); the whole table, every
            hand shown.
        information_state: observe with ``ObservationCodec(...,
            information_state=True)``, from the round's events as each agent saw them.

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        RulesError: if the rules ask for more rounds or a higher engine than the
            set they deal to *players* has (S2).
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
        self,
        players: int = 4,
        rules: Rules | str = HUB,
        render_mode: str | None = None,
        *,
        information_state: bool = False,
    ) -> None:
        super().__init__()
        rules = _rules(rules, players)
        self.render_mode = _check_render_mode(render_mode)
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players, information_state=information_state)
        self._lay = Layout(rules, players, self.actions.max_pip, information_state)
        self._seen = Seen(players) if information_state else None
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
        self._current: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return *agent*'s observation space (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return *agent*'s action space: ``Discrete(ActionCodec.size)``."""
        return self.action_spaces[agent]

    @property
    def game(self) -> GameState:
        """The whole game as it stands, every hand in it, for tests and pictures.

        An agent observes with `observe`, which shows its own seat's alone (S5).
        Through PettingZoo's wrappers, it is ``env.unwrapped.game``.

        Raises:
            InvalidArgumentError: before the first `reset`.
        """
        if self._current is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        return self._current

    def state(self) -> NoReturn:
        """Refuse PettingZoo's global state: it would show every hand, which S5 hides.

        PettingZoo's ``state()`` is a global view for centralized training; here it
        would hold every hand and the boneyard, and the rules show each seat its own
        hand alone (S5), as the OpenSpiel game refuses an observer of every hand.  An
        agent observes its own seat with `observe`; the whole game is `game`.

        Raises:
            NotImplementedError: always, saying why and where the game is.
        """
        raise NotImplementedError(_NO_GLOBAL_STATE)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """Return what *agent* observes now: its encoded view and its action mask."""
        state, seat = self.game, self._seat[agent]
        return {
            "observation": _encode(self._lay, view(state, seat), self._seen),
            "action_mask": _mask(self.actions, state, seat),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same *seed* gives the same game (S6).

        *options* is a dict (its keys are ignored) or None.

        Raises:
            InvalidArgumentError: if *seed* is not a whole number from 0 to 2**64 - 1
                (a Python int: a numpy integer is refused, saying to pass ``int(seed)``),
                or *options* is not a dict or None; the game is left as it was.
        """
        _check_options(options)
        if seed is not None:
            self._seeds = np.random.default_rng(_env_seed(seed, "seed"))
        self._current = new_game(self.players, self.rules, seed=int(self._seeds.integers(0, 2**63)))
        if self._seen is not None:
            self._seen.clear()
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_move(self._current)
        if self.render_mode == "human":
            self.render()

    def _to_move(self, state: GameState) -> str:
        seat = state.current_player
        return self.possible_agents[0 if seat is None else seat]

    def step(self, action: int | None) -> None:
        """Make the selected agent's move *action* (None for an agent that is done).

        Raises:
            InvalidArgumentError: before `reset`, once every agent is done (the game is
                over), or if *action* is not an index of the action space.
            IllegalMoveError: if *action* is outside the agent's action mask.
            TypeError: if *action* is not a whole number (an int or a numpy integer).
        """
        state = self.game
        if not self.agents:
            raise InvalidArgumentError(
                "the game is over and every agent has been shown its end: call reset()"
            )
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
        lay, seen = self._lay, self._seen
        state, rewards = _finish_rounds(_apply(state, move, lay, seen), lay, seen)
        self._current = state
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
        return _render(self.game, self.render_mode)

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""


def env(
    players: int = 4,
    rules: Rules | str = HUB,
    render_mode: str | None = None,
    *,
    information_state: bool = False,
) -> AECEnv:
    """Return the PettingZoo AEC environment, wrapped to enforce the call order.

    See `raw_env` for the arguments.

    >>> from mexican_train import STANDARD
    >>> game = env(players=3, rules=STANDARD)
    >>> game.reset(seed=7)
    >>> game.agents
    ['player_0', 'player_1', 'player_2']
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(players, rules, render_mode, information_state=information_state)
    )


class SingleSeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a game as a Gymnasium environment; library players take the others.

    The agent plays *seat*; each other seat is played by a library `Player`
    (by default `GreedyPlayer`).  Observations are `ObservationCodec` encodings
    of the agent's view; actions are `ActionCodec` indices; `action_masks`
    returns the legal ones, as sb3-contrib's MaskablePPO asks.  An episode is a
    whole game; at the end of each round the agent is rewarded
    ``mean(points of all seats) - own points``, and ``info["round_over"]`` says
    whether a round ended in the step (a reward of 0 does not tell: the seats'
    points may tie).  `NextRound` is applied by the environment.  An opponent
    that keeps the round's events (one with an ``observe`` method, as
    `SearchPlayer`) is told every event its seat sees, as `simulate` tells it;
    each game seats a fresh copy of it, so no history carries over and the
    player given is never changed.

    Gymnasium expects every action of the space to be accepted: an action
    outside the mask ends the episode (``terminated``) with *illegal_reward*
    and ``info["illegal_action"]``, and leaves the game as it was.  With
    ``illegal="raise"`` it raises `IllegalMoveError` instead, to find bugs.
    Once an episode has ended (the game is over, or an illegal action ended
    it), `step` raises `InvalidArgumentError` until `reset`.

    An opponent's exception (its ``choose`` or ``observe`` raises, or `apply`
    refuses the move it chose with `IllegalMoveError`) is a bug of that player:
    `step` and `reset` let it go on as it was raised, noted with the opponent's
    seat.  The step it cut short had told the information state and the
    observing opponents moves the game does not keep, so the environment plays
    no further: `step` raises `InvalidArgumentError`, saying why, until a
    `reset` succeeds, which deals a new game with fresh copies of the observing
    opponents.

    The whole game, every hand in it, is `game`, for tests and pictures
    (``env.unwrapped.game`` through Gymnasium's wrappers).

    Args:
        players: the number of players.
        rules: the rules to play by, or a variant's name.
        opponents: one `Player` per other seat, in seat order; None: `GreedyPlayer`.
        seat: the agent's seat.
        render_mode: None, "human" (prints the table at each reset and step), "ansi"
            or "svg" (the whole table).
        illegal: "terminate" (the default) or "raise".
        illegal_reward: the reward for an action outside the mask.
        information_state: observe with ``ObservationCodec(...,
            information_state=True)``, from the round's events as the agent saw them.

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        RulesError: if the rules ask for more rounds or a higher engine than the
            set they deal to *players* has (S2).
        UnknownVariantError: if *rules* names no variant.
        InvalidArgumentError: for a seat the game does not have, *opponents* not a
            list of as many players as the other seats, an unknown *render_mode*
            or *illegal*, or an *illegal_reward* that is not finite (a NaN, an
            infinity).
        TypeError: if *illegal_reward* is not a number.

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
        information_state: bool = False,
    ) -> None:
        self.render_mode = _check_render_mode(render_mode)
        rules = _rules(rules, players)
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players, information_state=information_state)
        self._lay = Layout(rules, players, self.actions.max_pip, information_state)
        self._seen = Seen(players) if information_state else None
        seat = check_seat(seat, players)
        if opponents is None:
            opponents = [GreedyPlayer()] * (players - 1)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise InvalidArgumentError(
                f"opponents is a list of Players, one per other seat, not {opponents!r}"
            )
        opponents = list(opponents)
        if len(opponents) != players - 1:
            raise _wrong_count(players, len(opponents))
        for bot in opponents:
            _check_player(bot, "a Player, with a choose(view, moves) method")
        if illegal not in ("terminate", "raise"):
            raise InvalidArgumentError(f"illegal is 'terminate' or 'raise', not {illegal!r}")
        self.rules, self.players, self.seat = rules, players, seat
        self.illegal, self.illegal_reward = illegal, _reward(illegal_reward)
        others = [s for s in range(players) if s != seat]
        self.opponents: dict[int, Player] = dict(zip(others, opponents, strict=True))
        self.action_space = spaces.Discrete(self.actions.size)
        self.observation_space = cast(
            "spaces.Space[npt.NDArray[np.float32]]", self.observations.space
        )
        self._current: GameState | None = None
        self._seated: dict[int, Player] = self.opponents
        self._observers: Observers = ()
        self._ended = False  # the episode has ended: the game is over, or an illegal action
        self._failure: str | None = None  # why a step or reset was cut short, if one was

    @property
    def game(self) -> GameState:
        """The whole game as it stands, every hand in it, for tests and pictures.

        The agent observes its seat's view alone (S5); this is the table's.

        Raises:
            InvalidArgumentError: before the first `reset`.
        """
        if self._current is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        return self._current

    def _observe(self) -> npt.NDArray[np.float32]:
        return _encode(self._lay, view(self.game, self.seat), self._seen)

    def _advance(self, state: GameState) -> tuple[GameState, float, bool]:
        # Let the other seats move, and deal new rounds, until the agent is to move;
        # return the state, the agent's reward and whether a round ended (E3).
        reward, round_over = 0.0, False
        while True:
            state, rewards = _finish_rounds(state, self._lay, self._seen, self._observers)
            if rewards is not None:
                reward += rewards[self.seat]
                round_over = True
            if state.is_over or state.current_player == self.seat:
                return state, reward, round_over
            seat = state.current_player
            assert seat is not None  # _finish_rounds dealt the next round
            move, after = opponent_move(self._seated[seat], state, seat)
            state = _told(state, move, after, self._lay, self._seen, self._observers)

    def _cut_short(self, error: BaseException, during: str) -> None:
        # A step or reset an exception cut short: the information state and the
        # observing opponents may hold moves the game does not; nothing plays on.
        self._failure = _failure(error, during)
        add_note(error, "the environment refuses step() until reset()")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new game and play the other seats up to the agent's first move.

        The same *seed* gives the same game (S6); *options* is a dict (its keys are
        ignored) or None.

        Raises:
            InvalidArgumentError: if *seed* is not a whole number from 0 to 2**64 - 1
                (a Python int: a numpy integer is refused, saying to pass ``int(seed)``),
                or *options* is not a dict or None; the game is left as it was.
            Exception: whatever an opponent raises (see the class), as it was raised;
                `step` is then refused until a reset succeeds.
        """
        _check_options(options)
        super().reset(seed=None if seed is None else _env_seed(seed, "seed"))
        state = new_game(self.players, self.rules, seed=int(self.np_random.integers(0, 2**63)))
        if self._seen is not None:
            self._seen.clear()
        # Each game seats a fresh copy of every opponent that keeps the round's events
        # (`SearchPlayer.observe`), as `simulate` does: no history carries over.
        self._seated = observing_copies(self.opponents)
        self._observers = observers_of(self._seated)
        try:
            self._current, _, _ = self._advance(state)
        except BaseException as error:
            self._cut_short(error, "reset")
            raise
        self._ended = False
        self._failure = None
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Make the agent's move *action*, then the others' until the agent's next turn.

        Raises:
            TypeError: if *action* is not a whole number (an int or a numpy integer,
                as the action space samples; not a float, a str or a bool).
            InvalidArgumentError: if *action* is not an index of the action space,
                or the episode has ended, or an opponent's exception cut the last
                step or reset short (call `reset`).
            Exception: whatever an opponent raises (see the class), as it was raised,
                noted with its seat; `step` is then refused until `reset`.
        """
        if self._failure is not None:
            raise InvalidArgumentError(f"{self._failure}: call reset()")
        state = self.game
        if self._ended:
            ended = "the game is over" if state.is_over else "an illegal action ended it"
            raise InvalidArgumentError(f"the episode has ended ({ended}): call reset()")
        # Not int(action) first: it would take 1.5 for 1, '0' for 0 and True for 1.
        move = self.actions.decode(action, self.seat)  # type: ignore[arg-type]  # numpy ints too
        if move not in legal_moves(state):
            if self.illegal == "raise":
                raise IllegalMoveError(
                    move, f"action {action} is not in the action mask of seat {self.seat}"
                )
            info = {"illegal_action": int(action), "round_over": False}
            self._ended = True
            return self._observe(), self.illegal_reward, True, False, info
        try:
            after = _apply(state, move, self._lay, self._seen, self._observers)
            self._current, reward, round_over = self._advance(after)
        except BaseException as error:
            self._cut_short(error, "step")
            raise
        self._ended = self._current.is_over
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._ended, False, {"round_over": round_over}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return the legal actions as a bool array (what MaskablePPO asks for).

        Gymnasium's ``action_space.sample(mask=...)`` takes an int8 mask instead:

        >>> game = SingleSeatEnv(players=2, rules=HUB)
        >>> _ = game.reset(seed=3)
        >>> action = game.action_space.sample(mask=game.action_masks().astype(np.int8))
        >>> bool(game.action_masks()[action])
        True
        """
        return _mask(self.actions, self.game, self.seat).astype(bool)

    def render(self) -> str | None:
        """Draw the whole table as ``render_mode`` says (every hand shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return _render(self.game, self.render_mode)


#: The bots `vector_env` knows by name; "random" is a uniformly random legal move
#: drawn from the table's own generator (no view built: the fastest opponent).
_BOTS: Final[dict[str, type[Player] | None]] = {
    "random": None,
    "greedy": GreedyPlayer,
    "planner": PlannerPlayer,
    "random-player": RandomPlayer,
}


def _opponent(bot: object) -> Player | None:
    if isinstance(bot, str):
        if bot not in _BOTS:
            raise InvalidArgumentError(
                f"an opponent is a Player or one of {', '.join(_BOTS)}, not {bot!r}"
            )
        kind = _BOTS[bot]
        return None if kind is None else kind()
    return _check_player(bot, "a Player or a bot's name")


class VectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """Many tables stepped together: a Gymnasium 1.x vector environment (see `vector_env`)."""

    metadata = {  # noqa: RUF012 (Gymnasium's)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": list(RENDER_MODES),
    }

    def __init__(
        self,
        num_envs: int,
        players: int,
        rules: Rules | str,
        opponents: str | Player | Sequence[str | Player],
        seat: int,
        self_play: bool,
        illegal_reward: float,
        information_state: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = _check_render_mode(render_mode)
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidArgumentError(f"num_envs is a whole number from 1, not {num_envs!r}")
        if type(self_play) is not bool:
            raise TypeError(f"self_play is True or False, not {self_play!r}")
        rules = _rules(rules, players)
        self.actions = ActionCodec(rules, players)
        self.observations = ObservationCodec(rules, players, information_state=information_state)
        seat = check_seat(seat, players)
        bots = (
            [opponents] * (players - 1)
            if isinstance(opponents, str) or not isinstance(opponents, Sequence)
            else list(opponents)
        )
        if len(bots) != players - 1:
            raise _wrong_count(players, len(bots))
        others = iter([_opponent(bot) for bot in bots])
        seated = [None if s == seat else next(others) for s in range(players)]
        learners = (1 << players) - 1 if self_play else 1 << seat
        self.rules, self.players, self.seat, self.self_play = rules, players, seat, self_play
        self.num_envs = num_envs
        lay = Layout(rules, players, self.actions.max_pip, information_state)
        self._tables = Tables(lay, num_envs, learners, seated, _reward(illegal_reward))
        self.single_action_space = spaces.Discrete(self.actions.size)
        self.action_space = spaces.MultiDiscrete([self.actions.size] * num_envs)
        mask_space = spaces.Box(0, 1, (self.actions.size,), dtype=np.int8)
        self.single_observation_space = spaces.Dict(
            {"observation": self.observations.space, "action_mask": mask_space}
        )
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self._started = False
        self._first_seed: int | list[int | None] | None = None  # vector_env's *seed*
        self._failure: str | None = None  # why a step or reset was cut short, if one was

    @property
    def games(self) -> tuple[GameState, ...]:
        """The whole game on each table as it stands, one per table, for tests and pictures.

        Every hand is in them; the learner observes its seat's view alone (S5).  Before
        the first `reset`, an empty tuple: no table has a game yet.
        """
        return tuple(self._tables.states)

    def _batch(
        self, bits: list[int], scalars: list[float], mask: bytearray, rows: int
    ) -> dict[str, npt.NDArray[Any]]:
        observation = np.empty((rows, *self.observations.shape), dtype=np.float32)
        self.observations._fill(bits, scalars, observation)
        masks = np.frombuffer(mask, dtype=np.int8).reshape(rows, self.actions.size)
        return {"observation": observation, "action_mask": masks}

    def _result(self, steps: Steps) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        observation = self._batch(steps.bits, steps.scalars, steps.mask, self.num_envs)
        infos: dict[str, Any] = {}
        if self.self_play:
            infos["seat"] = np.array(steps.seats, dtype=np.int64)
            infos["_seat"] = np.ones(self.num_envs, dtype=bool)
        return observation, infos

    def _table_seeds(self, seed: object) -> list[int | None]:
        # Gymnasium's meaning, as SyncVectorEnv and AsyncVectorEnv give it: None, every
        # table goes on from its own generator; a number s, table i is seeded s + i; a
        # list, one seed per table, None for a table that goes on from its own.
        count = self.num_envs
        if seed is None:
            return [None] * count
        if isinstance(seed, list | tuple):
            if len(seed) != count:
                raise InvalidArgumentError(
                    f"reset(seed=[...]) takes one seed (or None) per table, {count} in all, "
                    f"not {len(seed)}: {shown(seed)}"
                )
            return [
                None if one is None else _env_seed(one, f"seed[{table}]")
                for table, one in enumerate(seed)
            ]
        if isinstance(seed, np.integer):
            raise _numpy_seed(seed, "seed")
        bound = BOUNDS["env_seed"]
        if type(seed) is not int or not bound.low <= seed <= bound.high:
            raise InvalidArgumentError(
                f"seed is a whole number {bound.words()}, a list of one per table, or None, "
                f"not {shown(seed)}"
            )
        if seed + count - 1 > bound.high:
            raise InvalidArgumentError(
                f"seed {seed} seeds table i with {seed} + i, and table {count - 1}'s seed "
                f"would be above 2**64 - 1"
            )
        return list(range(seed, seed + count))

    def _reset_mask(self, options: object) -> list[bool]:
        # Gymnasium's options["reset_mask"]: a bool array, one per table, at least one
        # True; only those tables are dealt anew.  The dict is read, not changed.
        _check_options(options)
        if not isinstance(options, dict) or "reset_mask" not in options:
            return [True] * self.num_envs
        given = options["reset_mask"]
        mask = None
        if isinstance(given, list | tuple | np.ndarray):
            with contextlib.suppress(ValueError):  # a ragged list makes no array
                mask = np.asarray(given)
        if mask is None or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"options['reset_mask'] is a bool array, one per table, shape "
                f"({self.num_envs},), not {shown(given)}"
            )
        if not mask.any():
            raise InvalidArgumentError(
                f"options['reset_mask'] names no table to reset (all False): {shown(given)}"
            )
        if not self._started and not mask.all():
            raise InvalidArgumentError(
                "the first reset deals every table: options['reset_mask'] is for later "
                f"resets, not {shown(given)}"
            )
        if self._failure is not None and not mask.all():
            raise InvalidArgumentError(
                f"{self._failure}: the next reset deals every table, so options['reset_mask'] "
                f"leaves none out, not {shown(given)}"
            )
        return [bool(one) for one in mask]

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Deal a new game on every table; the same seeds give the same games (S6).

        As in Gymnasium's own vector environments, *seed* is None (every table
        deals from its own generator, which goes on from its last seed), a whole
        number *s* (table *i* is seeded ``s + i``), or a list of one seed per table
        (None for a table that goes on from its own generator).  Table *i* seeded
        with *s* deals the game ``SingleSeatEnv(...).reset(seed=s)`` deals.

        ``options={"reset_mask": mask}``, a bool array with one entry per table,
        deals anew only the tables where *mask* is True (their seeds taken from
        *seed* as above); the others play on where they are.  Other options are
        ignored, as `SingleSeatEnv` ignores them.

        Raises:
            InvalidArgumentError: if *seed* is none of these, a list's length is
                not ``num_envs``, or a seed is not a whole number from 0 to
                2**64 - 1 (a Python int, not a numpy integer); if *options* is not a dict, or its ``"reset_mask"`` is
                not a bool array of shape ``(num_envs,)`` with a True, or leaves a
                table out of the first reset or of the reset after an opponent's
                exception; no table changes.
            Exception: whatever an opponent raises (see `vector_env`), as it was
                raised, noted with its table and seat; `step` is then refused
                until a reset deals every table.
        """
        seeds = self._table_seeds(seed)
        deal = self._reset_mask(options)
        if not self._started:
            # A table with no generator yet: vector_env's seed + i, if it was given one.
            if seed is None and self._first_seed is not None:
                seed = self._first_seed
            firsts = self._table_seeds(self._first_seed)
            seeds = [
                first if one is None else one for one, first in zip(seeds, firsts, strict=True)
            ]
        if type(seed) is int:
            super().reset(seed=seed)
        games: list[int | None] = []
        for one in seeds:
            if one is not None:
                # The game Gymnasium's np_random(one) draws, as SingleSeatEnv and raw_env
                # draw it (S6: the same seed deals the same game).
                games.append(int(np.random.default_rng(one).integers(0, 2**63)))
            elif self._started:
                games.append(None)  # the table goes on from its own generator
            else:
                games.append(int(self.np_random.integers(0, 2**63)))
        try:
            steps = self._tables.reset(games, deal)
        except BaseException as error:
            self._cut_short(error, "reset")
            raise
        # Only once every table is dealt: a player's exception in a reset leaves tables
        # without a game, or with one its trackers disagree with, which the next reset
        # deals anew and step must not play.
        self._started = True
        self._failure = None
        if self.render_mode == "human":
            self.render()
        return self._result(steps)

    def _cut_short(self, error: BaseException, during: str) -> None:
        # A step or reset an exception cut short: the tables before the failing one
        # moved (their results lost with the exception), and the failing table's
        # trackers and observing opponents were told moves its state does not have.
        self._failure = _failure(error, during)
        add_note(error, "the vector environment refuses step() until a reset() deals every table")

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[Any],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Make every table's move ``actions[i]``; tables whose game ended start a new one.

        Raises:
            InvalidArgumentError: before `reset`, after an opponent's exception
                (until a reset deals every table), or if *actions* is not one whole
                number per table, each an index of the action space; no table moves.
            Exception: whatever an opponent raises (see `vector_env`), as it was
                raised, noted with its table and seat.
        """
        if self._failure is not None:
            raise InvalidArgumentError(f"{self._failure}: call reset()")
        if not self._started:
            raise InvalidArgumentError("the environment has no games yet: call reset() first")
        chosen = np.asarray(actions)
        size = self.actions.size
        if chosen.shape == (self.num_envs,) and chosen.dtype == np.object_:
            # Whole numbers beyond numpy's integers make an array of objects: outside
            # the space, as any other number out of range.
            for table, one in enumerate(chosen.tolist()):
                if type(one) is int and not 0 <= one < size:
                    raise InvalidArgumentError(
                        f"an action is a whole number 0-{size - 1} for this game, "
                        f"not {shown(one)} (table {table})"
                    )
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"step() takes one whole-number action per table, shape ({self.num_envs},), "
                f"not {shown(actions)}"
            )
        outside = np.flatnonzero((chosen < 0) | (chosen >= size))
        if outside.size:
            table = int(outside[0])
            raise InvalidArgumentError(
                f"an action is a whole number 0-{size - 1} for this game, "
                f"not {int(chosen[table])} (table {table})"
            )
        try:
            steps = self._tables.step(chosen.tolist())
        except BaseException as error:
            self._cut_short(error, "step")
            raise
        observation, infos = self._result(steps)
        infos["round_over"] = np.array(steps.round_over, dtype=bool)
        infos["_round_over"] = np.ones(self.num_envs, dtype=bool)
        rewards = np.array(steps.rewards, dtype=np.float64).reshape(self.num_envs, self.players)
        reward = rewards if self.self_play else rewards[:, self.seat].copy()
        done = np.array(steps.done, dtype=bool)
        if steps.final_tables:  # same-step autoreset: the ended games' last observations
            rows = len(steps.final_tables)
            # No move is left in an ended episode, the game over or ended by an action
            # outside the mask: the masks are all zeros.
            empty = bytearray(rows * self.actions.size)
            finals = self._batch(steps.final_bits, steps.final_scalars, empty, rows)
            # As Gymnasium's own vector environments give them (SyncVectorEnv's
            # same-step autoreset): an array of the ended tables' single observations,
            # None elsewhere, and the infos batched, each key with its mask.
            final_obs = np.full(self.num_envs, None, dtype=object)
            scores = np.full(self.num_envs, None, dtype=object)
            winners = np.full(self.num_envs, None, dtype=object)
            for row, (table, state) in enumerate(
                zip(steps.final_tables, steps.final_states, strict=True)
            ):
                final_obs[table] = {key: value[row] for key, value in finals.items()}
                scores[table], winners[table] = state.scores, state.winners
            infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
            infos["final_info"] = {
                "scores": scores,
                "_scores": done.copy(),
                "winners": winners,
                "_winners": done.copy(),
            }
            infos["_final_info"] = done.copy()
            if any(steps.illegal):
                infos["illegal_action"] = np.array(steps.illegal, dtype=bool)
                infos["_illegal_action"] = infos["illegal_action"].copy()
        if self.render_mode == "human":
            self.render()
        return observation, reward, done, np.zeros(self.num_envs, dtype=bool), infos

    def render(self) -> tuple[str, ...] | None:
        """Draw every table as ``render_mode`` says (every hand shown), table by table.

        "ansi" and "svg" return one picture per table, as Gymnasium's own vector
        environments return their environments' frames; "human" prints them.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if not self._started:
            raise InvalidArgumentError("the environment has no games yet: call reset() first")
        if self.render_mode == "human":
            for table, state in enumerate(self._tables.states):
                print(f"Table {table}")
                _render(state, "human")
            return None
        return tuple(
            [cast("str", _render(state, self.render_mode)) for state in self._tables.states]
        )


def vector_env(
    num_envs: int,
    *,
    players: int = 2,
    rules: Rules | str = HUB,
    opponents: str | Player | Sequence[str | Player] = "random",
    seat: int = 0,
    self_play: bool = False,
    illegal_reward: float = -100.0,
    information_state: bool = False,
    seed: int | Sequence[int | None] | None = None,
    render_mode: str | None = None,
) -> VectorEnv:
    """Return *num_envs* tables as one Gymnasium vector environment.

    Each table is a game; the learner plays *seat* on every table and library
    bots the other seats: *opponents* is a bot's name (``"random"``: a random
    legal move, the fastest; ``"greedy"``, ``"planner"``, ``"random-player"``:
    `RandomPlayer`), a `Player`, or a list of these, one per other seat in seat
    order.  A `Player` given plays its seat on every table.  One that keeps the
    round's events (an ``observe`` method, as `SearchPlayer`) is told every event
    its seat sees (S5), as `SingleSeatEnv` and `simulate` tell it; each table
    seats a fresh copy of it for each game, so no history carries over from
    another table or game, and the player given is never changed.  Observations
    are a dict of two batched arrays: ``"observation"``, float32
    ``(num_envs, *ObservationCodec.shape)``, and ``"action_mask"``, int8
    ``(num_envs, ActionCodec.size)``; actions are `ActionCodec` indices, one per
    table.  Rewards are `SingleSeatEnv`'s
    (``mean(points of all seats) - own points`` at each round's end), and
    ``infos["round_over"][i]`` is True where a round ended on table *i* in the
    step, its game's last round included (a reward of 0 does not tell: the
    seats' points may tie).  A game that ends is dealt anew within the same step
    (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): the infos say
    how the ended games ended, as Gymnasium's own vector environments say it:
    ``infos["final_obs"][i]`` is table *i*'s last observation (a dict of
    ``"observation"`` and ``"action_mask"``, the mask all zeros: no move is left in
    the ended episode)
    where ``infos["_final_obs"][i]`` is True, None elsewhere,
    and ``infos["final_info"]`` is a dict of arrays: ``["scores"][i]``, the
    ended game's totals, and ``["winners"][i]`` (E5; empty for a game an action
    outside the mask ended before its end), with their masks
    ``"_scores"`` and ``"_winners"``.  An action outside the mask ends that
    table's game with *illegal_reward* (``infos["illegal_action"]``); a number
    outside the action space (below 0, or ``ActionCodec.size`` and above) raises
    `InvalidArgumentError` and changes no table.  One call of ``step`` plays
    every table, in library code.

    An opponent's exception (its ``choose`` or ``observe`` raises, or `apply`
    refuses the move it chose with `IllegalMoveError`) is a bug of that player:
    ``step`` and ``reset`` let it go on as it was raised, noted with its table
    and seat.  The tables before that one had moved, their results lost with the
    exception, and that table's information state and observing opponents were
    told moves its game does not keep: ``step`` raises `InvalidArgumentError`,
    saying why, until a reset deals every table anew (a ``reset_mask`` that
    leaves a table out is refused), with fresh copies of the observing opponents.

    With *self_play*, every seat is the learner: each table's observation and
    mask are for the seat to move (``infos["seat"]``), and the rewards are an
    array ``(num_envs, players)``, every seat's reward from that step.

    With *information_state*, observations are those of
    ``ObservationCodec(..., information_state=True)``: what each seat has seen
    this round (the numbers the others are known to lack, the tiles they have
    played), followed on each table as its moves are made.

    ``reset(seed=...)`` fixes every table's games (S6), as Gymnasium's own
    vector environments take a seed: a whole number *s* seeds table *i* with
    ``s + i``, a list gives one seed per table (None: the table goes on from its
    own generator), and None lets every table go on from its own.  Table *i*
    seeded with *s* deals the game ``SingleSeatEnv`` and `raw_env` deal from *s*.
    *seed* here is the seed of the first reset, for every table it gives none.

    *render_mode* is None, "human" (``render()`` prints every table, and ``reset``
    and ``step`` render), "ansi" or "svg" (``render()`` returns one picture per table, as
    Gymnasium's own vector environments return their environments' frames): the
    whole tables, every hand shown, pictures for people, never an input for an agent.

    >>> envs = vector_env(4, players=2, seed=1)
    >>> observation, infos = envs.reset()
    >>> observation["observation"].shape, observation["action_mask"].dtype
    ((4, 364), dtype('int8'))
    >>> import numpy as np
    >>> actions = np.array([np.flatnonzero(row)[0] for row in observation["action_mask"]])
    >>> observation, reward, terminated, truncated, infos = envs.step(actions)
    >>> reward.shape, terminated.shape
    ((4,), (4,))

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        RulesError: if the rules ask for more rounds or a higher engine than the
            set they deal to *players* has (S2).
        UnknownVariantError: if *rules* names no variant.
        InvalidArgumentError: for *num_envs* below 1, a seat the game does not
            have, an unknown bot or the wrong number of opponents, an unknown
            *render_mode*, an *illegal_reward* that is not finite (a NaN, an
            infinity), or a *seed* `VectorEnv.reset` refuses (a seed not a whole
            number from 0 to 2**64 - 1, a list whose length is not *num_envs*).
        TypeError: if *illegal_reward* is not a number, or *self_play* not a bool.
    """
    envs = VectorEnv(
        num_envs,
        players,
        rules,
        opponents,
        seat,
        self_play,
        illegal_reward,
        information_state,
        render_mode,
    )
    if seed is not None:
        envs._table_seeds(seed)  # refused now, not at the first reset
        envs._first_seed = seed if type(seed) is int else list(cast("Sequence[int | None]", seed))
    return envs


def single_seat_vector_env(
    num_envs: int,
    players: int = 4,
    rules: Rules | str = HUB,
    opponents: str | Player | Sequence[str | Player] | None = None,
    *,
    seat: int = 0,
    render_mode: str | None = None,
    illegal: str = "terminate",
    illegal_reward: float = -100.0,
    information_state: bool = False,
    self_play: bool = False,
    seed: int | Sequence[int | None] | None = None,
    max_episode_steps: int | None = None,
) -> VectorEnv:
    """Return `vector_env`'s tables with `SingleSeatEnv`'s defaults: Gymnasium's vector entry point.

    ``gymnasium.make_vec("mexican_train/SingleSeat-v0", num_envs, **kwargs)`` calls
    it (``vectorization_mode="vector_entry_point"``, Gymnasium's default for an id
    that has one), so the id is one game in every mode: 4 players and
    `GreedyPlayer` opponents unless *kwargs* say otherwise, as
    ``gymnasium.make("mexican_train/SingleSeat-v0")`` plays.  The arguments are
    `SingleSeatEnv`'s and `vector_env`'s.

    Raises:
        InvalidArgumentError: as `vector_env` raises it; for *illegal* "raise",
            which the tables do not offer (an action outside the mask ends that
            table's game with *illegal_reward*), or any *illegal* but "terminate";
            for a *max_episode_steps*: the tables play every game to its end
            (Gymnasium's ``TimeLimit`` wraps `SingleSeatEnv` in the "sync" and
            "async" modes).
    """
    if illegal != "terminate":
        raise InvalidArgumentError(
            f"the vector environment ends a table's game on an action outside the mask "
            f"(illegal='terminate'), not illegal={illegal!r}: make_vec(..., "
            "vectorization_mode='sync') steps SingleSeatEnvs, which offer illegal='raise'"
        )
    if max_episode_steps is not None:
        raise InvalidArgumentError(
            f"the vector environment plays every game to its end, with no "
            f"max_episode_steps (not {max_episode_steps!r}): make_vec(..., "
            "vectorization_mode='sync') wraps each SingleSeatEnv in Gymnasium's TimeLimit"
        )
    return vector_env(
        num_envs,
        players=players,
        rules=rules,
        opponents="greedy" if opponents is None else opponents,
        seat=seat,
        self_play=self_play,
        illegal_reward=illegal_reward,
        information_state=information_state,
        seed=seed,
        render_mode=render_mode,
    )
