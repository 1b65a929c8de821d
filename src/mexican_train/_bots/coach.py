"""The coach: each decision of a recorded round judged against the other legal moves.

`analyze` replays a record and, at every decision of a seat, values each legal move
from what that seat could know (S5): its view and the round's events as it saw them
(`redact_events`), sampled into complete worlds by ``determinize(..., history=)``.
Every move is played out in the same sampled worlds (common random numbers) by the
search's playouts, and valued by the mean of the seat's round points less the other
seats' mean (E3): lower is better, as in `SearchPlayer`.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence

import attrs

from .._core.engine import apply, legal_moves
from .._core.errors import InvalidArgumentError, shown
from .._core.moves import CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.state import GameState
from .._core.view import view
from .._formats.events import Event, derive_events, redact_events
from .._formats.record import GameRecord, replay_states
from .determinize import determinize
from .playout import playout

__all__ = ["Review", "analyze", "points_words"]


@attrs.frozen
class Review:
    """One decision judged: the move made, the best move found, and what the difference cost.

    Attributes:
        move_number: the move's place in the record, from 1 (``record.moves[move_number - 1]``
            is *chosen*): for programs.  People find the move by *seat_move*.
        round_number: the round it was made in.
        seat: the seat that made it.
        chosen: the move made.
        best: the move with the best value (lowest); *chosen* when they tie.
        loss: the expected points lost by *chosen* against *best*: the difference
            of their values, >= 0, and 0 when they agree.
        loss_se: the standard error of *loss*: of the differences, deal by deal,
            between *chosen*'s outcome and *best*'s, over the samples; 0 when they
            agree or with one sample.  A loss within a standard error or two of 0 may
            be noise: *best* is the lowest of several estimates, each a little off,
            which makes every loss look a little bigger than it is.
        values: every legal move with its value -- the mean over the samples of the
            seat's round points less the other seats' mean (E3) after it -- best
            first: ``values[0]`` is *best*'s.
        samples: the number of sampled worlds each move was played out in.
        reason: the judgement in a sentence.
        seat_move: the move's place among the seat's own moves of its round, from 1:
            every move the seat made counts, a forced one too (each tile of a first
            turn's chain, a draw, a pass), as a person makes them one by one.  The
            front ends say "round 2, seat 0's 5th move".
        hand_size: the tiles the seat held when it chose, which the front ends show
            beside *seat_move* to help find the move.
    """

    move_number: int
    round_number: int
    seat: int
    chosen: Move
    best: Move
    loss: float
    loss_se: float
    values: tuple[tuple[Move, float], ...]
    samples: int
    reason: str
    seat_move: int
    hand_size: int


def analyze(
    record: GameRecord,
    seat: int | None = None,
    *,
    samples: int = 40,
    seed: int = 0,
    round_number: int | None = None,
    names: Sequence[str] | None = None,
    yours: bool = True,
) -> Iterator[Review]:
    """Yield a `Review` of each decision of *seat* (or of every seat) in *record*, in order.

    A decision is a turn's move where more than one move was legal.  Each legal move
    is valued in *samples* worlds dealt from the seat's view and the events of the
    round as the seat saw them (S5: nothing hidden from the seat is used), every
    move in the same worlds, and played out to the end of the round with every seat
    (the reviewed one too) playing as `PlannerPlayer` does; the values depend only on
    the record, *samples* and *seed*.

    Args:
        record: a game record (`record`, `record_from_json`).
        seat: the seat to review, or None for every seat.
        samples: sampled worlds per decision, >= 1; more is slower and steadier.
        seed: any whole number: the same seed gives the same reviews.
        round_number: the round to review (from 1), or None for every round.
        names: what to call each seat in the reasons, by seat, as the front end that
            shows them names the seats (``"Seat 1 (hard)"`` makes ``Seat 1 (hard)'s
            train``); None calls them ``seat 1``.
        yours: whether a reason speaks to the seat reviewed, whose player reads it
            (``your train``, ``better for you``); False names that seat as the others
            are named (``seat 1's train``, ``better for seat 1``), for a review of
            several seats read by one person.

    Raises:
        InvalidArgumentError: if *seat* is not a seat of the game, *samples* < 1,
            *seed* is not an int, *round_number* is not None or a round of the
            record, or *names* is not None or one str per seat.
        ReplayError: if the record does not replay (at the call, before any review).
        TypeError: if *record* is not a `GameRecord`, or *yours* is not a bool.

    >>> from mexican_train import HUB, GreedyPlayer, apply, legal_moves, new_game, record, view
    >>> state = new_game(2, HUB, seed=2)
    >>> start, moves = state, []
    >>> while state.current_player is not None and len(moves) < 12:
    ...     mine = view(state, state.current_player)
    ...     moves.append(GreedyPlayer().choose(mine, legal_moves(mine)))
    ...     state = apply(state, moves[-1])
    ...
    >>> reviews = list(analyze(record(start, moves), seat=0, samples=8, seed=1))
    >>> all(r.seat == 0 and r.loss >= 0 for r in reviews)
    True
    >>> reviews == list(analyze(record(start, moves), seat=0, samples=8, seed=1))
    True
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyze() needs a GameRecord, not {type(record).__name__}")
    if seat is not None and (type(seat) is not int or not 0 <= seat < record.players):
        raise InvalidArgumentError(
            f"analyze(): seat is None or a seat 0-{record.players - 1}, not {shown(seat)}"
        )
    if type(samples) is not int or samples < 1:
        raise InvalidArgumentError(
            f"analyze(): samples is a whole number >= 1, not {shown(samples)}"
        )
    if type(seed) is not int:
        raise InvalidArgumentError(f"analyze(): seed is a whole number, not {shown(seed)}")
    if round_number is not None and (type(round_number) is not int or round_number < 1):
        raise InvalidArgumentError(
            f"analyze(): round_number is None or a whole number >= 1, not {shown(round_number)}"
        )
    if names is not None and (
        isinstance(names, str)
        or not isinstance(names, Sequence)
        or len(names) != record.players
        or not all(isinstance(name, str) for name in names)
    ):
        raise InvalidArgumentError(
            f"analyze(): names is None or one str per seat ({record.players}), not {shown(names)}"
        )
    if type(yours) is not bool:
        raise TypeError(f"analyze(): yours is True or False, not {shown(yours)}")
    # Replayed now, so that a record that does not replay fails here, before any review.
    states = tuple(replay_states(record))
    rounds = states[-1].round_number
    if round_number is not None and round_number > rounds:
        raise InvalidArgumentError(
            f"analyze(): round_number is a round of the record, 1-{rounds}, not {round_number}"
        )
    called = tuple(names) if names is not None else None
    return _reviews(record, states, seat, samples, seed, round_number, called, yours)


def _reviews(
    record: GameRecord,
    states: tuple[GameState, ...],
    seat: int | None,
    samples: int,
    seed: int,
    round_number: int | None,
    names: tuple[str, ...] | None,
    yours: bool,
) -> Iterator[Review]:
    events: list[Event] = []  # the round's events so far, unredacted
    made = [0] * record.players  # each seat's moves so far this round
    before = states[0]
    for number, (move, after) in enumerate(zip(record.moves, states[1:], strict=True), start=1):
        mover = before.current_player
        if type(move) is NextRound:
            events = []
            made = [0] * record.players
            before = after
            continue
        if mover is not None:
            made[mover] += 1
            if (seat is None or mover == seat) and (
                round_number is None or before.round_number == round_number
            ):
                moves = legal_moves(before)
                if len(moves) > 1:
                    yield _review(
                        before, mover, move, moves, events, (number, made[mover]), samples, seed,
                        names, yours,
                    )  # fmt: skip
        events += derive_events(before, move, after)
        before = after


def _review(
    state: GameState,
    seat: int,
    chosen: Move,
    moves: tuple[Move, ...],
    events: list[Event],
    numbers: tuple[int, int],
    samples: int,
    seed: int,
    names: tuple[str, ...] | None,
    yours: bool,
) -> Review:
    number, seat_move = numbers  # in the record, and among the seat's moves of the round
    mine = view(state, seat)
    history = redact_events(events, seat)
    rng = random.Random(f"analyze|{seed}|{number}")  # str: hashed alike in every process
    outcomes: list[list[float]] = [[] for _ in moves]
    for _ in range(samples):
        world = determinize(mine, rng, history)
        for index, move in enumerate(moves):
            outcomes[index].append(playout(apply(world, move), seat))
    means = [statistics.fmean(values) for values in outcomes]
    mine_index = moves.index(chosen)
    # Best first; of moves that tie, the move made first (it is then *best*), then in
    # legal_moves' order.
    order = sorted(range(len(moves)), key=lambda i: (means[i], i != mine_index))
    best_index = order[0]
    loss = means[mine_index] - means[best_index]
    differences = [a - b for a, b in zip(outcomes[mine_index], outcomes[best_index], strict=True)]
    loss_se = statistics.stdev(differences) / math.sqrt(samples) if samples > 1 else 0.0
    return Review(
        move_number=number,
        round_number=state.round_number,
        seat=seat,
        chosen=chosen,
        best=moves[best_index],
        loss=loss,
        loss_se=loss_se,
        values=tuple((moves[i], means[i]) for i in order),
        samples=samples,
        reason=_reason(
            moves[mine_index],
            moves[best_index],
            loss,
            samples,
            seat,
            _in_first_turn(state, seat),
            names,
            yours,
        ),
        seat_move=seat_move,
        hand_size=len(state.hands[seat]),
    )


def _in_first_turn(state: GameState, seat: int) -> bool:
    # Whether *seat* is on its first turn with a tile laid: a pass then ends the chain (P4).
    return (
        state.rules.first_turn is not None
        and not state.has_had_first_turn(seat)
        and state.turn_tiles > 0
    )


def _words(
    move: Move,
    seat: int | None = None,
    first_turn: bool = False,
    names: tuple[str, ...] | None = None,
    yours: bool = True,
) -> str:
    """Return *move* in words, as ``mexican-train play`` lists it (``draw a tile``, ...).

    Another seat's train goes by *names* (``Seat 1 (hard)'s train``), else ``seat 1's``;
    so does *seat*'s own unless *yours* (``your train``).

    >>> from mexican_train import MEXICAN, Draw, Play, Tile
    >>> _words(Play(Tile(6, 5), MEXICAN)), _words(Play(Tile(6, 5), 2), seat=2)
    ('play 6-5 on the Mexican train', 'play 6-5 on your train')
    >>> _words(Play(Tile(6, 5), 1), seat=0), _words(Play(Tile(6, 5), 1), 0, names=("You", "Ann"))
    ("play 6-5 on seat 1's train", "play 6-5 on Ann's train")
    >>> _words(Play(Tile(6, 5), 2), seat=2, yours=False), _words(Pass(), 2, True, yours=False)
    ("play 6-5 on seat 2's train", "stop seat 2's first turn there (no marker)")
    >>> _words(Draw())
    'draw a tile'
    """
    if isinstance(move, Play):
        if move.train < 0:
            where = "the Mexican train"
        elif move.train == seat and yours:
            where = "your train"
        else:
            where = f"{_name(move.train, names)}'s train"
        return f"play {move.tile} on {where}"
    if type(move) is Draw:
        return "draw a tile"
    if type(move) is Pass:
        # P4: a pass after the first turn's first tile only ends the chain, with no marker.
        if not first_turn:
            return "pass"
        whose = "your" if yours or seat is None else f"{_name(seat, names)}'s"
        return f"stop {whose} first turn there (no marker)"
    if type(move) is CallLastTile:
        return "call 'last tile'"
    return "deal the next round"


def _name(seat: int, names: tuple[str, ...] | None) -> str:
    return names[seat] if names is not None else f"seat {seat}"


def points_words(loss: float, *, about: bool = False) -> str:
    """Return a loss of points as a review says it: to a tenth of a point ("about" one
    with *about*), and a loss that rounds to 0.0 (above 0, it is no loss of 0) as
    "less than 0.1".

    >>> points_words(2.25), points_words(2.25, about=True), points_words(0.0375, about=True)
    ('2.2', 'about 2.2', 'less than 0.1')
    """
    said = f"{loss:.1f}"
    if said == "0.0":
        return "less than 0.1"
    return f"about {said}" if about else said


def _reason(
    chosen: Move,
    best: Move,
    loss: float,
    samples: int,
    seat: int,
    first_turn: bool,
    names: tuple[str, ...] | None,
    yours: bool = True,
) -> str:
    if chosen == best:
        return (
            f"{_words(chosen, seat, first_turn, names, yours)} was the best move found "
            f"({samples} sampled deal{'' if samples == 1 else 's'})"
        )
    who = "you" if yours else _name(seat, names)
    deals = "in 1 deal" if samples == 1 else f"on average over {samples} deals"
    return (
        f"{_words(best, seat, first_turn, names, yours)} rather than "
        f"{_words(chosen, seat, first_turn, names, yours)}: "
        f"{points_words(loss, about=True)} "
        f"points better for {who} against the others at the end of the round, {deals} "
        f"of the tiles {who} could not see"
    )
