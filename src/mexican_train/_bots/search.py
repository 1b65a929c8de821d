"""`SearchPlayer`: determinized Monte Carlo search over the rest of the round.

For each decision the player samples complete states consistent with its view
(`determinize`), plays the candidate moves in each sampled state, and plays the
round out with a fast planning policy for every seat; successive halving spends the
playouts on the candidates that look best.  `PlannerPlayer`'s move is kept unless
another move's playouts end the round clearly better -- its own points against the
other seats' mean (E3).  The candidates are played out in the same sampled states
(common random numbers), so that the comparison between them is not drowned by the
luck of the sample.  The worlds come from ``determinize`` (`worlds`, the states
`determinize` gives, built once a decision), the moves from the core's `apply`; the
playouts, where the time goes, are in ``playout`` (compiled in the compiled build);
the choice stays here.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Iterable, Iterator

import attrs

from .._core.bounds import bounded
from .._core.engine import apply
from .._core.errors import InvalidArgumentError, shown
from .._core.moves import CALL_LAST_TILE, Move
from .._core.rules import instance_of
from .._core.state import GameState
from .._core.view import PlayerView
from .._formats.events import Event, RoundStarted
from .determinize import _EVENT_TYPES as _EVENTS
from .determinize import worlds
from .players import PlannerPlayer, _some
from .playout import playout as _playout

__all__ = ["SearchPlayer"]

# The heuristic a search must clearly beat to overrule, and how clearly (standard errors).
_PLANNER = PlannerPlayer()
_Z = 1.0
_MIN_SAMPLES = 4


def _seconds(instance: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    if value is None:
        return
    if type(value) not in (int, float) or not 0 < value < float("inf"):  # type: ignore[operator]
        raise InvalidArgumentError(
            f"SearchPlayer.seconds is None or a number of seconds > 0, not {shown(value)}"
        )


@attrs.frozen
class SearchPlayer:
    """Choose by playing the round out in sampled worlds: determinized Monte Carlo search.

    Each decision with more than one legal move samples states consistent with the
    view (`determinize`), plays candidate moves in every sample, and finishes the
    round with a planning policy for all seats (each keeps the longest train its hand
    can build for its own train, planned on its first choice and again after each
    draw, and sheds the rest, the most pips first, as `PlannerPlayer`).  The outcome of a playout is the player's
    round points minus the mean of the other seats' (E3), lower being better.  The
    playouts go by successive halving: every candidate is played in the first
    samples, then only the better half, and so on, the planner's move always kept.
    It plays `PlannerPlayer`'s move unless the best other move's outcome, paired
    sample by sample with it (every move is played in the same samples), is lower
    by more than one standard error, over at least 4 samples: playouts are noisy,
    and taking the best mean of a few of them was measured to play worse than the
    planner.  It always makes the last-tile call when it may.

    What the round has shown is used when the player is told it: a front end or a
    runner that calls `observe` with every event of the game, as this seat may see
    it (`redact_events`), lets the samples keep the facts of the passes
    (``determinize(..., history=)``).  `simulate` does; a player never told plays
    as if nothing were known beyond its view.  A history that does not fit the
    view (a player moved to another game without being told) is set aside.

    A choice depends only on the view, the events observed, the legal moves and the
    settings (*iterations*, *seed*, *inference*, *replan*; *seconds* aside): the same
    arguments give the same move in any process, whatever the hidden tiles.

    Attributes:
        iterations: playouts per decision, spread over ceil(log2(candidates)) phases
            of halving (at least one sample for each candidate in play); 1 to 1,000,000.
        seed: any whole number of at most 64 bits; different seeds sample differently.
        seconds: an optional time limit per decision, checked between samples; a
            choice made under it depends on the machine's speed and is not
            reproducible.  None (the default) plays by *iterations* alone.
        inference: whether the samples keep what the events observed have shown
            (True, the default) or deal every unseen tile anywhere (False).
        replan: whether a seat in the playouts plans its train again after each tile
            it draws, as `PlannerPlayer` does (True, the default), or keeps the plan
            made on its first choice (False, which the search page of the docs
            measures weaker).

    >>> from mexican_train import HUB, legal_moves, new_game, view
    >>> state = new_game(4, HUB, seed=1)
    >>> mine = view(state, state.current_player)
    >>> move = SearchPlayer(iterations=24, seed=1).choose(mine, legal_moves(mine))
    >>> move in legal_moves(mine), move == SearchPlayer(iterations=24, seed=1).choose(
    ...     mine, legal_moves(mine))
    (True, True)
    """

    iterations: int = attrs.field(default=180, validator=bounded("iterations"))
    seed: int = attrs.field(default=0, validator=bounded("seed"))
    seconds: float | None = attrs.field(default=None, validator=_seconds)
    inference: bool = attrs.field(default=True, validator=instance_of(bool))
    replan: bool = attrs.field(default=True, validator=instance_of(bool))
    # The events of the current round, as observed: state a player carries, not a
    # setting (no part of equality or the name).
    _history: list[Event] = attrs.field(factory=list, init=False, eq=False, repr=False)

    def observe(self, events: Event | Iterable[Event]) -> None:
        """Take note of what this seat saw happen: one event or several, in order.

        Call it with every event of the game as the seat may see it
        (`redact_events`), the seat's own moves included; a `RoundStarted` begins a
        new history.  `simulate` calls it for every player that has it.

        >>> from mexican_train import HUB, new_game, legal_moves, view
        >>> from mexican_train.events import apply_with_events, redact_events
        >>> state = new_game(4, HUB, seed=1)
        >>> player = SearchPlayer(iterations=24)
        >>> state, events = apply_with_events(state, legal_moves(state)[0])
        >>> seat = state.current_player
        >>> player.observe(redact_events(events, seat))
        >>> mine = view(state, seat)
        >>> player.choose(mine, legal_moves(mine)) in legal_moves(mine)
        True
        """
        # isinstance with the tuple of event types narrows only its positive branch.
        batch: Iterable[Event] = (events,) if isinstance(events, _EVENTS) else events  # type: ignore[assignment]
        for event in batch:
            if type(event) is RoundStarted:
                self._history.clear()
            self._history.append(event)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """Return the planner's move, or another whose playouts end the round clearly better.

        Raises:
            InvalidArgumentError: if *moves* is empty, or *view* is a spectator's.
            TypeError: if *view* is not a `PlayerView` or *moves* not a sequence (its items
                are taken for the legal moves, unchecked).
        """
        _some(view, moves)
        if len(moves) == 1:
            return moves[0]
        if CALL_LAST_TILE in moves:
            return CALL_LAST_TILE  # the call costs nothing and spares the penalty
        seat = view.seat
        if seat is None:
            raise InvalidArgumentError("SearchPlayer plays a seat: a spectator view has none")
        rng = random.Random(_key(self.seed, view))
        default = moves.index(_PLANNER.choose(view, moves))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        history = tuple(self._history) if self.inference and self._history else None
        sampler = worlds(view, rng, history)
        try:
            first = next(sampler)
        except InvalidArgumentError:
            if history is None:
                raise
            sampler = worlds(view, rng)  # another game's events: set aside
            first = next(sampler)
        sampled = itertools.chain((first,), sampler)
        return moves[
            _halving(moves, seat, default, self.iterations, sampled, deadline, self.replan)
        ]


def _halving(
    moves: tuple[Move, ...],
    seat: int,
    default: int,
    iterations: int,
    sampled: Iterator[GameState],
    deadline: float | None,
    replan: bool,
) -> int:
    """Return the index of the move to make: successive halving, then `_pick`.

    The budget is spread over ceil(log2(candidates)) phases.  In each phase every
    candidate still in play is played out in the same fresh worlds (common random
    numbers); after it, the heuristic's *default* and the better half of the others by
    mean outcome stay in play, until two are left; the last phase plays what the
    earlier ones' rounding left of the budget.  The playouts go to the moves that look
    best, rather than evenly to every legal move.
    """
    active = list(range(len(moves)))
    samples: list[list[float]] = [[] for _ in moves]
    phases = max(1, math.ceil(math.log2(len(moves))))
    per_phase = iterations / phases
    played = 0
    for phase in range(phases):
        count = max(1, round(per_phase / len(active)))  # worlds this phase
        if phase == phases - 1:
            count = max(count, math.ceil((iterations - played) / len(active)))
        for _ in range(count):
            world = next(sampled)
            for index in active:
                samples[index].append(_playout(apply(world, moves[index]), seat, replan))
            played += len(active)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if len(active) <= 2 or phase == phases - 1:
            break
        # Keep the default and the better half of the others (ties: legal_moves' order).
        others = sorted(
            (i for i in active if i != default), key=lambda i: statistics.fmean(samples[i])
        )
        keep = set(others[: max(1, len(others) // 2)]) | {default}
        active = [i for i in active if i in keep]
        if deadline is not None and time.perf_counter() >= deadline:
            break
    pool = [samples[i] if i in active else [math.inf] for i in range(len(moves))]
    return _pick(pool, default)


def _pick(samples: list[list[float]], default: int) -> int:
    """Return the index of the best move: the heuristic's *default* unless clearly beaten.

    Every move was played out in the same sampled states, so each sample gives a
    paired difference with the default; a move replaces it only when there are at
    least ``_MIN_SAMPLES`` samples and the mean difference is below 0 by more than
    ``_Z`` standard errors.  This keeps the
    playouts' noise from overruling a good heuristic on a handful of samples.
    """
    means = [statistics.fmean(values) for values in samples]
    best = min(range(len(samples)), key=means.__getitem__)  # ties: legal_moves' order
    if best == default or means[best] >= means[default]:
        return default
    diffs = [a - b for a, b in zip(samples[best], samples[default], strict=True)]
    if len(diffs) < _MIN_SAMPLES:
        return default  # too few samples to tell noise from a better move
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return best if statistics.fmean(diffs) < -_Z * error else default


def _key(seed: int, view: PlayerView) -> str:
    # A stable text of the position as the seat sees it: random.Random hashes a str
    # with SHA-512, the same in every process (no PYTHONHASHSEED).
    return "|".join(
        (
            str(seed),
            str(view.round_number),
            str(view.seat),
            " ".join(map(str, view.hand)),
            " ".join(f"{len(t.tiles)}:{t.open_end}:{int(t.marked)}" for t in view.trains),
            ",".join(map(str, view.hand_sizes)),
            str(view.boneyard_size),
            str(view.turn_tiles),
            str(int(view.has_drawn)),
            ",".join(map(str, view.open_doubles + (-99,) + view.turn_doubles)),
            ",".join(map(str, view.scores)),
        )
    )
