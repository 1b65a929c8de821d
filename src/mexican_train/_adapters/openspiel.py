"""Mexican Train as an OpenSpiel Python game, with every tile dealt or drawn a chance node.

Chance is made explicit through the checked chance API: `new_game` and
`next_round` with an explicit `Deal`, `draw_tile` for a draw, and
`reorder_boneyard` for the tiles the engine draws by itself (the last-tile
penalty).  No state is ever patched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final, Generic, TypeVar

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from .._bots.determinize import determinize
from .._catalogue.variants import get_variant
from .._core.deal import Deal
from .._core.engine import apply, legal_moves, new_game
from .._core.errors import IllegalMoveError, InvalidArgumentError
from .._core.moves import DRAW, Move
from .._core.rules import EnginePlacement, Rules
from .._core.state import GameState
from .._core.tiles import Tile, full_set, tile_index
from .._core.view import view
from .._formats.notation import format_move, format_state
from .._formats.render import render_text
from .._positions.chance import draw_tile, next_round, reorder_boneyard
from .batch import Layout, Seen, informed_row, round_rewards
from .codecs import ActionCodec, ObservationCodec

__all__ = ["GAME_NAME", "MexicanTrainGame", "MexicanTrainState"]

#: The name the game is registered under: ``pyspiel.load_game(GAME_NAME, {...})``.
GAME_NAME: Final = "python_mexican_train"

T = TypeVar("T")


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Mexican Train",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=14,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "rules": "hub", "rounds": 0},
)


def _parameters(params: object) -> dict[str, Any]:
    # The parameters with their defaults, checked as pyspiel.load_game checks them (a
    # name it does not know, a value of another type), for a game made directly.
    spec = _GAME_TYPE.parameter_specification
    if params is None:
        return dict(spec)
    if not isinstance(params, Mapping):
        raise TypeError(f"parameters are a dict of {', '.join(spec)}, not {params!r}")
    for name, value in params.items():
        if name not in spec:
            raise InvalidArgumentError(
                f"{GAME_NAME} has no parameter {name!r}; its parameters are {', '.join(spec)}"
            )
        if name == "rules" and type(value) is not str:
            raise TypeError(f"rules is a variant's name (get_variant), not {value!r}")
        if name != "rules" and type(value) is not int:
            raise TypeError(f"{name} is a whole number, not {value!r}")
    return {**spec, **params}


def _rules(params: dict[str, Any]) -> tuple[Rules, int]:
    rules = get_variant(params["rules"])
    rounds = params["rounds"]
    if rounds:
        rules = attrs.evolve(rules, rounds=rounds)  # Rules checks the number (S2)
    return rules, params["players"]


class MexicanTrainGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """Mexican Train for OpenSpiel: ``pyspiel.load_game("python_mexican_train", params)``.

    Parameters: ``players`` (default 4), ``rules``, a variant's name as
    `~mexican_train.get_variant` takes it (default ``"hub"``), and ``rounds``, a
    number of rounds to play instead of the variant's (default 0: the variant's own,
    S2).  Player actions are
    `~mexican_train.rl.ActionCodec` indices (trains relative to the mover); chance
    outcomes are tile indices (`~mexican_train.rl.tile_index`), one chance node per
    tile dealt (S1) or drawn: ordinary draws (P5, D1, D2, and every draw of
    ``draw_until_playable``), the engine search of S3 and the last-tile penalty.
    `NextRound` is chance's: the deal of the next round.  Observation tensors are
    `~mexican_train.rl.ObservationCodec` encodings.  The information state, as a string
    (``information_state_string``), is the seat's observation followed by the
    round's public history: each player's action this round, a draw shown as a draw,
    its tile unseen (S5); as a tensor (``information_state_tensor``), the encoding of
    ``ObservationCodec(..., information_state=True)``: the observation and what the
    round has shown of the other seats (the numbers they lack, the tiles they played).  `MexicanTrainState.resample_from_infostate` deals what the
    seat cannot see anew, so OpenSpiel's ``ISMCTSBot`` plays the game.  The utility of a game is the sum over rounds of ``mean(points) - own points``
    (zero-sum), given at the end.

    Made directly, ``MexicanTrainGame(params)`` checks *params* as ``load_game`` does.

    Raises:
        DealError: if the rules' deal table does not cover ``players`` (S1).
        RulesError: if ``rounds`` is negative, or more than the set dealt allows (S2).
        UnknownVariantError: if ``rules`` names no variant.
        InvalidArgumentError: for a parameter the game does not have.
        TypeError: if ``players`` or ``rounds`` is not an int, ``rules`` not a str, or
            *params* not a dict.

    >>> import pyspiel
    >>> import mexican_train.openspiel
    >>> game = pyspiel.load_game("python_mexican_train", {"players": 2, "rules": "standard"})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (2, 169, 55)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 55)
    """

    def __init__(self, params: Mapping[str, int | str] | None = None) -> None:
        merged = _parameters(params)
        rules, players = _rules(merged)
        new_game(players, rules, seed=0)  # the checks of a game (S1, S2), before any deal
        actions = ActionCodec(rules, players)
        tiles = len(full_set(actions.max_pip))
        rounds = rules.round_count(actions.max_pip)
        observations = ObservationCodec(rules, players)
        self.information = ObservationCodec(rules, players, information_state=True)
        self.layout = Layout(rules, players, actions.max_pip, True)
        # The most a seat can trail the table's mean over a game (E3, V7).
        pips = actions.max_pip * (actions.max_pip + 1) * (actions.max_pip + 2) // 2
        bound = float(rounds * (pips + abs(rules.double_blank_score)))
        # Per round: every tile dealt or drawn once; at most T plays and T draws; a turn
        # changes the table or counts towards E2's P idle turns, each ending with a pass.
        turns = (3 * tiles + players + 1) * players
        length = rounds * (2 * tiles + 2 * turns)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.size,
            max_chance_outcomes=tiles,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(_GAME_TYPE, info, merged)
        self.rules, self.players = rules, players
        self.actions, self.observations = actions, observations
        _, self.hand_size = rules.deal_table.lookup(players, rules.max_pip, rules.hand_size)
        #: The set's tiles by index (chance outcomes are indices).
        self.tiles = tuple(sorted(full_set(actions.max_pip), key=tile_index))

    def __reduce__(self) -> tuple[type[MexicanTrainGame], tuple[dict[str, Any]]]:
        # pyspiel pickles a game as its name and parameters and gives the copy none of
        # the attributes __init__ sets, which the states read: made again from the
        # parameters, the copy has them (a pickled state carries its game this way).
        return type(self), (self.get_parameters(),)

    def new_initial_state(self) -> MexicanTrainState:
        """Return the state before the first deal: a chance node."""
        return MexicanTrainState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> Any:
        """Return an observer of what one seat may know (OpenSpiel's observer protocol).

        With ``perfect_recall``, the observer of the information state: as a string,
        the seat's observation and the round's public history; as a tensor, the
        encoding with the information-state block.

        Raises:
            InvalidArgumentError: for *params*, or an observation type other than one
                seat's (``public_info`` and ``PrivateInfoType.SINGLE_PLAYER``): a public
                observer would be shown the seat's hand, another would be shown every
                hand (S5).
        """
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, not {params!r}")
        if iig_obs_type is None:
            return _Observer(self)
        if not iig_obs_type.public_info or (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            # S5: an observer sees what one seat may know, no less and no more.
            kind = "information state" if iig_obs_type.perfect_recall else "observation"
            raise InvalidArgumentError(
                f"python_mexican_train's {kind} is one seat's: the public information "
                f"and that seat's private information (SINGLE_PLAYER), not "
                f"public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info}"
            )
        return _Observer(self, history=iig_obs_type.perfect_recall)


class _Shared(Generic[T]):
    """A value never changed, shared rather than copied when OpenSpiel clones a state.

    OpenSpiel clones a Python state with ``copy.deepcopy``; the game's rules and
    codecs and the frozen `GameState` need no copy.
    """

    __slots__ = ("encodings", "texts", "value")

    def __init__(self, value: T) -> None:
        self.value = value
        # What is computed from value, once: renderings and encodings by seat.
        self.texts: dict[int | None, str] = {}
        self.encodings: dict[int, npt.NDArray[np.float32]] = {}

    def __deepcopy__(self, memo: object) -> _Shared[T]:
        return self  # never changed: a new _Shared replaces it


class MexicanTrainState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A position of `MexicanTrainGame`: a `GameState`, or a deal or draw under way.

    Built by ``game.new_initial_state()``; moved on by ``apply_action``.  The
    underlying `GameState` (None before round 1 is dealt) is ``game_state``.
    """

    def __init__(self, game: MexicanTrainGame) -> None:
        super().__init__(game)
        self._game = _Shared(game)
        self._players = game.players
        self._shared: _Shared[GameState | None] = _Shared(None)
        self._dealt: list[Tile] = []  # the tiles of the deal under way, seat by seat
        self._searched: list[Tile] = []  # S3: tiles drawn looking for the engine
        self._penalty: list[Tile] = []  # tiles the last-tile penalty takes, chosen so far
        self._pending: Move | None = None  # a Draw, or a move whose penalty is being drawn
        self._penalty_size = 0
        # The public history of the round: each player's action, as seat and move (a
        # draw is a Draw, its tile unseen).  Shared: a new tuple replaces it.
        self._log: _Shared[tuple[tuple[int, Move], ...]] = _Shared(())
        # What the round has shown of each seat (batch.Seen): lacks, then plays; a new
        # tuple replaces it.
        self._seen: tuple[tuple[int, ...], tuple[int, ...]] = ((0,) * game.players,) * 2
        self._max_pip, self._hand_size = game.actions.max_pip, game.hand_size

    @property
    def _rules(self) -> Rules:
        return self._game.value.rules

    @property
    def _actions(self) -> ActionCodec:
        return self._game.value.actions

    @property
    def _tiles(self) -> tuple[Tile, ...]:
        return self._game.value.tiles

    @property
    def game_state(self) -> GameState | None:
        """The game as it stands; None before round 1 is dealt."""
        return self._shared.value

    @game_state.setter
    def game_state(self, value: GameState | None) -> None:
        self._shared = _Shared(value)

    # -- where the game is ----------------------------------------------------------

    def _round(self) -> int:
        state = self.game_state
        return 1 if state is None else state.round_number + (state.is_round_over)

    def _engine(self) -> Tile:
        # S2, V9: round r's engine.
        r = self._round()
        pip = self._rules.engine_pip(self._max_pip, r)
        return Tile(pip, pip)

    def _pool(self) -> list[Tile]:
        # S4: the engine is set aside before the deal; S3 deals the whole set.
        set_aside = self._rules.engine_placement is EnginePlacement.SET_ASIDE
        engine = self._engine()
        return [t for t in full_set(self._max_pip) if not (set_aside and t is engine)]

    def _dealing(self) -> bool:
        state = self.game_state
        return state is None or (state.is_round_over and not state.is_over)

    def _deal_complete(self) -> bool:
        return len(self._dealt) == self._players * self._hand_size

    def _search_seat(self) -> int:
        # S3: the first seat to draw looking for the engine (decision: seat 0 in round 1,
        # else the seat after the previous round's first player).
        state = self.game_state
        return 0 if state is None else (state.first_player + 1) % self._players

    def current_player(self) -> int:
        """Return the seat to move, or chance's or the terminal's id."""
        state = self.game_state
        if state is not None and state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing() or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert state is not None
        assert state.current_player is not None
        return state.current_player

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return self.game_state is not None and self.game_state.is_over

    # -- chance ---------------------------------------------------------------------

    def _chance_tiles(self) -> list[Tile]:
        if self._dealing():
            unseen = set(self._pool()) - set(self._dealt) - set(self._searched)
            return sorted(unseen, key=tile_index)
        state = self.game_state
        assert state is not None
        chosen = set(self._penalty)
        return sorted((t for t in state.boneyard if t not in chosen), key=tile_index)

    def _may_come(self, tile: Tile) -> bool:
        # Whether *tile* is one of _chance_tiles(), without listing and sorting them all.
        if self._dealing():
            if tile in self._dealt or tile in self._searched:
                return False
            set_aside = self._rules.engine_placement is EnginePlacement.SET_ASIDE
            return not (set_aside and tile is self._engine())  # S4: not in the pool
        state = self.game_state
        assert state is not None
        return tile in state.boneyard and tile not in self._penalty

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return each tile that may come next, by index, all equally likely.

        A state that is not a chance node (a player's turn, the end) has none.
        """
        if not self.is_chance_node():
            return []
        tiles = self._chance_tiles()
        return [(tile_index(tile), 1.0 / len(tiles)) for tile in tiles]

    def _apply_chance(self, tile: Tile) -> None:
        if self._dealing():
            if not self._deal_complete():
                self._dealt.append(tile)  # S1: one tile dealt
            else:
                self._searched.append(tile)  # S3: one tile drawn looking for the engine
            if self._deal_complete() and self._engine_found():
                self._start_round()
        elif self._pending is DRAW:
            assert self.game_state is not None
            self.game_state = draw_tile(self.game_state, tile)  # P5, D1, D2: the draw
            self._pending = None
        else:
            self._penalty.append(tile)  # the last-tile penalty, one tile at a time
            if len(self._penalty) == self._penalty_size:
                self._finish_move()

    def _engine_found(self) -> bool:
        if self._rules.engine_placement is EnginePlacement.SET_ASIDE:
            return True  # S4: the engine is already on the table
        engine = self._engine()
        return engine in self._dealt or engine in self._searched

    def _start_round(self) -> None:
        # The deal is made; the checked chance API builds the round from it (S1-S4).
        n = self._hand_size
        hands = [self._dealt[seat * n : (seat + 1) * n] for seat in range(self._players)]
        rest = set(self._pool()) - set(self._dealt) - set(self._searched)
        deal = Deal(hands, [*self._searched, *sorted(rest, key=tile_index)])
        if self.game_state is None:
            self.game_state = new_game(self._players, self._rules, seed=0, deal=deal)
        else:
            self.game_state = next_round(self.game_state, deal)
        self._dealt, self._searched = [], []
        self._log = _Shared(())
        self._seen = ((0,) * self._players,) * 2

    # -- the players' moves ----------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        state = self.game_state
        assert state is not None
        return sorted(self._actions.encode(move, player) for move in legal_moves(state))

    def _apply_move(self, move: Move) -> None:
        state = self.game_state
        assert state is not None
        assert state.current_player is not None
        self._log = _Shared((*self._log.value, (state.current_player, move)))
        if move is DRAW:
            self._note(state, move, state)
            self._pending = move  # the tile comes from a chance node
            return
        after = apply(state, move)
        taken = state.boneyard_size - after.boneyard_size
        if taken:
            # The engine drew by itself (the last-tile penalty): each tile a chance node.
            self._pending, self._penalty, self._penalty_size = move, [], taken
            return
        self._note(state, move, after)
        self.game_state = after

    def _finish_move(self) -> None:
        state, move = self.game_state, self._pending
        assert state is not None
        assert move is not None
        after = apply(reorder_boneyard(state, self._penalty), move)
        self._note(state, move, after)
        self.game_state = after
        self._pending, self._penalty, self._penalty_size = None, [], 0

    def _note(self, before: GameState, move: Move, after: GameState) -> None:
        # What the move shows every seat (batch.Seen), for the information state.
        seen = Seen(self._players)
        seen.lacks[:], seen.played[:] = self._seen
        seen.record(self._game.value.layout, before, move, after)
        self._seen = (tuple(seen.lacks), tuple(seen.played))

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise InvalidArgumentError(f"the game is over: no action applies, not {action}")
        if self.is_chance_node():
            tile = self._tiles[action] if 0 <= action < len(self._tiles) else None
            if tile is None or not self._may_come(tile):
                raise InvalidArgumentError(
                    f"chance outcome {action} is not the index of a tile that may come next"
                )
            self._apply_chance(tile)
            return
        player = self.current_player()
        move = self._actions.decode(action, player)
        state = self.game_state
        assert state is not None
        if move not in legal_moves(state):
            raise IllegalMoveError(
                move, f"action {action} is not a legal action of player {player}"
            )
        self._apply_move(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{self._tiles[action]}"
        return format_move(self._actions.decode(action, player))

    # -- results and text -------------------------------------------------------------

    def returns(self) -> list[float]:
        """Return each seat's sum over rounds of ``mean(points) - own points``, at the end."""
        state = self.game_state
        totals = [0.0] * self._players
        if state is None or not state.is_over:
            return totals
        for points in state.round_scores:
            for seat, reward in enumerate(round_rewards(points)):
                totals[seat] += reward
        return totals

    def __str__(self) -> str:
        """Describe the whole position, hidden tiles included (for debugging)."""
        parts = [f"round {self._round()}"]
        if self._dealing():
            parts.append("dealt: " + " ".join(map(str, self._dealt)))
            if self._searched:
                parts.append("drawn looking for the engine: " + " ".join(map(str, self._searched)))
        if self._pending is not None:
            parts.append(f"pending: {format_move(self._pending)}")
            if self._penalty:
                parts.append("penalty: " + " ".join(map(str, self._penalty)))
        if self.game_state is not None:
            parts.append(self._text(None))
        return "\n".join(parts)

    def _encoding(self, seat: int) -> npt.NDArray[np.float32]:
        # The seat's observation of the GameState, encoded once per GameState.
        shared = self._shared
        encoding = shared.encodings.get(seat)
        if encoding is None:
            assert shared.value is not None
            encoding = self._game.value.observations.encode(view(shared.value, seat))
            shared.encodings[seat] = encoding
        return encoding

    def _information(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        # The seat's information state, encoded into *out*.
        state = self.game_state
        assert state is not None
        game, scalars = self._game.value, list[float]()
        lacks, played = self._seen
        bits = informed_row(game.layout, state, seat, list(lacks), list(played), scalars)
        game.information._fill([bits], scalars, out.reshape(1, -1))

    def _text(self, seat: int | None) -> str:
        # The table as *seat* sees it (None: everything), rendered once per GameState.
        shared = self._shared
        text = shared.texts.get(seat)
        if text is None:
            state = shared.value
            assert state is not None
            # All of it in the notation (every hand, the boneyard); a seat's as drawn.
            text = format_state(state) if seat is None else render_text(view(state, seat))
            shared.texts[seat] = text
        return text

    # -- what a seat may know -----------------------------------------------------------

    def _dealt_to(self, seat: int) -> list[Tile]:
        # The tiles of the deal under way that *seat* holds (S3's draws included).
        n = self._hand_size
        mine = self._dealt[seat * n : (seat + 1) * n]
        first = self._search_seat()
        mine += [t for k, t in enumerate(self._searched) if (first + k) % self._players == seat]
        return mine

    def _history_text(self) -> str:
        # The round's public history, rendered once per log.
        shared = self._log
        text = shared.texts.get(None)
        if text is None:
            moves = [f"{seat}: {format_move(move)}" for seat, move in shared.value]
            text = "\n".join(["Moves this round:", *moves])
            shared.texts[None] = text
        return text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> MexicanTrainState:
        """Return a state *player_id* cannot tell from this one, the unseen tiles dealt anew.

        The game-state part is `~mexican_train.determinize` of the seat's view: the
        other hands and the boneyard are dealt at random from the tiles the seat cannot
        see (S5).  Tiles chosen so far by a chance node under way are resampled too (the
        other seats' tiles of a deal, the last-tile penalty's); later chance outcomes
        are chance's, as in any state.  The new state has the same information state
        string for *player_id* and the same public history, so the same legal actions;
        it has no OpenSpiel action history (``history()`` is empty), since its hidden
        tiles were never dealt one by one.

        Args:
            player_id: the seat whose information state is kept.
            probability_sampler: a callable returning a float in [0, 1), such as
                ``pyspiel.UniformProbabilitySampler``; it is called once, and its value
                seeds the sampling.

        Raises:
            InvalidArgumentError: if *player_id* is not a seat of the game.
        """
        if type(player_id) is not int or not 0 <= player_id < self._players:
            raise InvalidArgumentError(
                f"player_id must be a seat, 0 to {self._players - 1}, not {player_id!r}"
            )
        rng = random.Random(int(probability_sampler() * 2**53))
        world = self._game.value.new_initial_state()
        world._log, world._pending = self._log, self._pending
        world._penalty_size = self._penalty_size
        if self.game_state is not None:
            world.game_state = determinize(view(self.game_state, player_id), rng)
        if self._dealing():
            # The other seats' tiles of the deal under way, and of S3's search.
            mine = self._dealt_to(player_id)
            unseen = [t for t in self._pool() if t not in mine]
            if self._deal_complete():
                unseen.remove(self._engine())  # S3: still searched for, so not drawn yet
            dealt = [*self._dealt, *self._searched]
            others = iter(rng.sample(unseen, len(dealt) - len(mine)))
            dealt = [t if t in mine else next(others) for t in dealt]
            world._dealt, world._searched = dealt[: len(self._dealt)], dealt[len(self._dealt) :]
        elif self._penalty:
            assert world.game_state is not None
            world._penalty = rng.sample(world.game_state.boneyard, len(self._penalty))
        return world


class _Observer:
    """What one seat may know (S5), as OpenSpiel's PyObserver protocol asks."""

    def __init__(self, game: MexicanTrainGame, *, history: bool = False) -> None:
        # history: the information state: the string has the round's public history,
        # the tensor the information-state block.
        self.history = history
        self._codec = game.information if history else game.observations
        self.tensor: npt.NDArray[np.float32] = np.zeros(self._codec.shape, np.float32)
        self.dict = {name: self.tensor[block] for name, block in self._codec.layout.items()}

    def set_from(self, state: MexicanTrainState, player: int) -> None:
        if state.game_state is not None and self.history:
            state._information(player, self.tensor)
        elif state.game_state is not None:
            self.tensor[:] = state._encoding(player)
        else:
            self.tensor.fill(0.0)
            self.dict["game"][-1] = 1.0  # the constant, as in every encoding
        if state._dealing():
            # A deal under way: the seat knows only its own tiles dealt so far.
            hands = self.dict["hands"]
            hands[:] = 0.0
            for tile in state._dealt_to(player):
                hands[tile_index(tile)] = 1.0

    def string_from(self, state: MexicanTrainState, player: int) -> str:
        lines = [] if state.game_state is None else [state._text(player)]
        if self.history:
            lines.append(state._history_text())
        if state._dealing():
            mine = " ".join(map(str, sorted(state._dealt_to(player), key=tile_index)))
            lines.append(f"Round {state._round()} being dealt; your tiles so far: {mine}")
            if self.history:
                dealt = len(state._dealt) + len(state._searched)
                lines.append(f"Tiles dealt or drawn so far: {dealt}")
        return "\n".join(lines)


pyspiel.register_game(_GAME_TYPE, MexicanTrainGame)
