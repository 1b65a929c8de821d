"""`simulate`: reproducible statistics, the same on every executor; illegal moves recorded."""

from __future__ import annotations

import copy
import gc
import json
import math
import multiprocessing
import pickle
import random
import re
import statistics
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar, cast

import attrs
import pytest

from mexican_train import (
    HUB,
    STANDARD,
    TABLE_A,
    DealError,
    Draw,
    GreedyPlayer,
    Move,
    NextRound,
    Pass,
    PlannerPlayer,
    Play,
    Player,
    PlayerView,
    RandomPlayer,
    Rules,
    RulesError,
    SimulationResult,
    Table,
    apply,
    legal_moves,
    new_game,
    simulate,
    view,
)
from mexican_train.serialize import SchemaError
from mexican_train.simulation import (
    ILLEGAL_MOVES_KEPT,
    RuleCounters,
    SimulationInterrupted,
    Summary,
    game_seed,
)
from mexican_train.variants import combine, variant_name

_T = TypeVar("_T")
_S = TypeVar("_S")

#: Quick games: a double-6 set, 7 rounds.
SMALL = attrs.evolve(STANDARD, max_pip=6)
BOTS = (GreedyPlayer(), RandomPlayer(seed=4), PlannerPlayer())


class SeatZeroCheater:
    """Returns NextRound() mid-round whenever it sits in seat 0: always illegal."""

    name = "cheater"

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return NextRound() if view.seat == 0 else moves[0]


class Confused:
    """Returns a string instead of a move."""

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return "6-5"  # type: ignore[return-value]


def test_s6_the_same_seed_gives_the_same_result() -> None:
    assert simulate(BOTS, SMALL, games=4, seed=9) == simulate(BOTS, SMALL, games=4, seed=9)
    assert simulate(BOTS, SMALL, games=4, seed=9) != simulate(BOTS, SMALL, games=4, seed=10)


def test_a_process_pool_gives_the_same_result_as_one_process() -> None:
    alone = simulate(BOTS, SMALL, games=6, seed=3)
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(BOTS, SMALL, games=6, seed=3, executor=pool) == alone


def test_batches_and_threads_do_not_change_the_result() -> None:
    alone = simulate(BOTS, SMALL, games=5, seed=1)
    with ThreadPoolExecutor(max_workers=3) as pool:
        for size in (1, 2, 5, 50):
            assert simulate(BOTS, SMALL, 5, 1, pool, batch_size=size) == alone


def test_greedy_beats_random_clearly() -> None:
    result = simulate([GreedyPlayer(), RandomPlayer(seed=1)], STANDARD, games=10, seed=1)
    greedy, random_ = result.player_stats
    assert greedy.wins > random_.wins
    assert greedy.score.high < random_.score.low


def test_rotation_seats_every_player_in_turn() -> None:
    """With rotate_seats, game i puts player i mod n in seat 0."""
    result = simulate([SeatZeroCheater(), GreedyPlayer(), GreedyPlayer()], SMALL, 3, seed=2)
    assert [m.player_index for m in result.illegal_moves] == [0]
    assert result.illegal_moves[0].game == 0
    fixed = simulate([GreedyPlayer(), SeatZeroCheater()], SMALL, 2, seed=2, rotate_seats=False)
    assert fixed.illegal_moves == ()


def test_an_illegal_move_is_recorded_with_the_player_and_the_move() -> None:
    result = simulate([SeatZeroCheater(), GreedyPlayer()], SMALL, games=4, seed=1)
    assert [m.game for m in result.illegal_moves] == [0, 2]
    first = result.illegal_moves[0]
    assert (first.player, first.player_index, first.seat) == ("cheater", 0, 0)
    assert first.move == "NextRound()"
    assert "E4" in first.reason
    assert first.game_seed == game_seed(1, 0)
    assert result.completed_games == 2
    assert result.player_stats[0].illegal_moves == 2
    assert result.player_stats[1].illegal_moves == 0
    assert result.player_stats[0].score.count == 2
    assert (
        "game 0, round 1: seat 0 (cheater) made an illegal move, NextRound(): E4" in result.report()
    )


def test_a_player_that_returns_no_move_is_recorded_too() -> None:
    result = simulate([Confused(), GreedyPlayer()], SMALL, games=1, seed=1, rotate_seats=False)
    (illegal,) = result.illegal_moves
    assert illegal.move == "'6-5'"
    assert illegal.player == "Confused"  # no name: the class's name, not a repr
    assert result.completed_games == 0


def test_statistics_add_up() -> None:
    result = simulate(BOTS, HUB, games=3, seed=8)
    c = result.counters
    assert result.rounds == 3 * 13
    assert c.rounds_gone_out + c.rounds_blocked == result.rounds
    assert result.blocked_rate == c.rounds_blocked / result.rounds
    assert c.doubles_closed <= c.doubles_opened <= c.doubles_played
    assert round(result.round_tiles.mean * result.rounds) == c.tiles_played
    assert c.first_turn_tiles == 0  # HUB: an ordinary first turn (V1)
    assert sum(result.wins) >= result.completed_games == 3
    assert result.mean_scores == tuple(p.score.mean for p in result.player_stats)


def test_p4_first_turn_tiles_are_counted_under_rulebook_a() -> None:
    assert simulate(BOTS, SMALL, games=1, seed=8).counters.first_turn_tiles > 0


def test_the_result_is_a_frozen_value_that_pickles_and_serialises() -> None:
    result = simulate(BOTS, SMALL, games=2, seed=5)
    assert isinstance(result, SimulationResult)
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result.games = 3  # type: ignore[misc]
    data = json.loads(json.dumps(result.to_dict()))
    assert data["games"] == 2
    assert data["player_stats"][0]["name"] == "greedy"


def test_summary_gives_the_mean_and_a_95_percent_student_interval() -> None:
    summary = Summary.of([1.0, 2.0, 3.0, 4.0])
    assert summary.mean == 2.5
    # Student's t with 3 degrees of freedom is 3.182 (not the normal 1.96).
    assert summary.low == pytest.approx(2.5 - 3.182446 * (5 / 3) ** 0.5 / 2, rel=1e-6)
    assert summary.margin == pytest.approx(summary.high - 2.5)
    one = Summary.of([7])
    assert (one.stdev, one.low, one.high) == (0.0, 7, 7)


def _t_density(t: float, df: int) -> float:
    log = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.log(df * math.pi) / 2
    return math.exp(log - (df + 1) / 2 * math.log1p(t * t / df))


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 29, 30, 31, 32, 33, 35, 40, 60, 100, 1000])
def test_the_interval_is_students_for_any_number_of_values(df: int) -> None:
    # The half-width over the standard error is the t quantile whose upper tail is
    # 2.5%: integrate the t density from 0 to it (Simpson) and find 47.5%.
    values = [0.0] * df + [1.0]  # df + 1 values
    summary = Summary.of(values)
    quantile = summary.margin / (summary.stdev / math.sqrt(len(values)))
    steps = 4000
    h = quantile / steps
    inner = sum((4 if i % 2 else 2) * _t_density(i * h, df) for i in range(1, steps))
    area = (_t_density(0, df) + inner + _t_density(quantile, df)) * h / 3
    # The quantile is within 10**-6 of the true one: the area beyond 47.5% over the
    # density there is how far the quantile is off.
    assert abs(area - 0.475) / _t_density(quantile, df) < 1e-6


def test_the_report_shows_no_interval_for_one_game_and_totals_as_totals() -> None:
    result = simulate([GreedyPlayer(), GreedyPlayer()], STANDARD, games=1, seed=1)
    lines = result.report().splitlines()
    assert lines[2].endswith(" -")
    assert lines[3].endswith(" -")
    counters = result.counters
    assert (
        f"in all: doubles played {counters.doubles_played}, opened {counters.doubles_opened}"
        in lines[5]
    )


def test_e5_the_report_says_which_wins_were_shared_in_a_tie() -> None:
    """E5: every winner of a tied game counts the win, so the wins may add up to more than
    the games; the report says how many of each player's were shared, and only then."""
    rules = attrs.evolve(STANDARD, max_pip=3, hand_size=3, tie_break=False)
    result = simulate([GreedyPlayer(), GreedyPlayer()], rules, games=20, seed=1)
    shared = [p.shared_wins for p in result.player_stats]
    assert shared == [1, 1]
    assert sum(p.wins for p in result.player_stats) == 21
    assert "wins shared in a tie for the lowest total (E5): 1. greedy 1, 2. greedy 1" in (
        result.report().splitlines()
    )
    untied = simulate([GreedyPlayer(), GreedyPlayer()], rules, games=20, seed=0)
    assert not any(p.shared_wins for p in untied.player_stats)
    assert "shared" not in untied.report()


def test_progress_is_reported_for_every_game() -> None:
    done: list[int] = []
    simulate(BOTS, SMALL, games=5, seed=1, progress=done.append)
    assert sum(done) == 5


def test_a_game_seed_replays_one_game() -> None:
    assert new_game(3, SMALL, seed=game_seed(4, 2)) == new_game(3, SMALL, seed=game_seed(4, 2))
    assert game_seed(4, 2) != game_seed(4, 3)


@pytest.mark.parametrize("count", [1, 15])
def test_s1_an_impossible_player_count_is_refused_up_front(count: int) -> None:
    with pytest.raises(DealError):
        simulate([GreedyPlayer()] * count, STANDARD, games=1)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"games": 0}, ValueError),
        ({"games": 1.5}, ValueError),
        ({"batch_size": 0}, ValueError),
        ({"seed": "x"}, TypeError),
        ({"rotate_seats": "no"}, TypeError),
        ({"rotate_seats": 0}, TypeError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        simulate(BOTS, SMALL, **kwargs)  # type: ignore[arg-type]


def test_a_player_without_choose_is_refused() -> None:
    with pytest.raises(TypeError, match="choose"):
        simulate([GreedyPlayer(), object()], SMALL, games=1)  # type: ignore[list-item]


def test_rules_pickle_for_other_processes() -> None:
    """Regression: a DealTable held a mappingproxy, so Rules could not reach a process pool."""
    assert pickle.loads(pickle.dumps(TABLE_A)) == TABLE_A
    assert pickle.loads(pickle.dumps(HUB)) == HUB


def _reference_game(
    players: tuple[Player, ...], rules: Rules, seed: int, number: int
) -> tuple[RuleCounters, tuple[int, ...], tuple[int, ...]]:
    """Replay game *number* of a simulation and count by comparing whole states.

    The plain way `simulate` once counted (every train, every move), so that its
    cheaper tally, which skips what a move cannot change, is checked against it.
    """
    count = len(players)
    by_seat = [(seat + number) % count for seat in range(count)]
    state = new_game(count, rules, seed=game_seed(seed, number))
    values = dict.fromkeys(attrs.fields_dict(RuleCounters), 0)
    turns: list[int] = []
    tiles: list[int] = []
    round_turns = round_tiles = 0
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state = apply(state, NextRound())
            continue
        move = players[by_seat[seat]].choose(view(state, seat), legal_moves(state))
        after = apply(state, move)
        if isinstance(move, Play):
            values["tiles_played"] += 1
            round_tiles += 1
            if rules.first_turn is not None and not state.has_had_first_turn(seat):
                values["first_turn_tiles"] += 1
            values["doubles_played"] += move.tile.is_double
            values["doubles_closed"] += move.train in state.open_doubles
        values["draws"] += isinstance(move, Draw)
        values["passes"] += isinstance(move, Pass)
        state, before = after, state
        if state.is_round_over:
            turns.append(round_turns + 1)
            tiles.append(round_tiles)
            round_turns = round_tiles = 0
            values["rounds_gone_out" if not all(state.hands) else "rounds_blocked"] += 1
            continue
        round_turns += state.current_player != seat
        values["doubles_opened"] += len(set(state.open_doubles) - set(before.open_doubles))
        values["markers_placed"] += sum(
            new.marked and not old.marked
            for old, new in zip(before.trains, state.trains, strict=True)
        )
    return RuleCounters(**values), tuple(turns), tuple(tiles)


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        HUB,
        SMALL,
        combine("hub", "last-tile-call", "draw-until-playable", "any-double"),
        combine("standard", "first-turn-draw", "voluntary-draw", "open-hands"),
        combine("standard", "single-tile-first-turn", "cover-own-double", "train-dominoes"),
    ],
    ids=variant_name,
)
def test_the_tally_counts_what_a_comparison_of_whole_states_counts(rules: Rules) -> None:
    """The tally skips moves that cannot change a counter (P5, P5a, P6); nothing is lost."""
    players = (RandomPlayer(seed=2), GreedyPlayer(), RandomPlayer(seed=3))
    result = simulate(players, rules, games=3, seed=12)
    games = [_reference_game(players, rules, 12, number) for number in range(3)]
    counters = RuleCounters()
    for game_counters, _, _ in games:
        counters += game_counters
    assert result.counters == counters
    assert counters.markers_placed > 0
    assert counters.doubles_opened > 0
    assert counters.draws > 0
    turns = [t for _, game_turns, _ in games for t in game_turns]
    tiles = [t for _, _, game_tiles in games for t in game_tiles]
    assert (result.round_turns, result.round_tiles) == (Summary.of(turns), Summary.of(tiles))


def test_names_name_the_players_in_the_result_and_its_illegal_moves() -> None:
    """``names=`` names each player in the result (the command line names a level so);
    without it each goes by player_name."""

    class Stubborn:
        def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
            return Pass()

    named = simulate([GreedyPlayer(), Stubborn()], STANDARD, games=1, seed=1, names=["easy", "me"])
    assert named.players == ("easy", "me")
    assert [p.name for p in named.player_stats] == ["easy", "me"]
    assert {m.player for m in named.illegal_moves} <= {"easy", "me"}
    assert named.illegal_moves[0].player == "me"
    plain = simulate([GreedyPlayer(), Stubborn()], STANDARD, games=1, seed=1)
    assert plain.players == ("greedy", "Stubborn")
    assert attrs.evolve(plain, players=named.players) != named  # the stats' names differ too
    for bad in (["one"], "ab", [1, 2], None.__class__):
        with pytest.raises(TypeError, match="names is a list of 2 names"):
            simulate([GreedyPlayer(), Stubborn()], STANDARD, games=1, names=bad)  # type: ignore[arg-type]


class _Fails:
    """Fails on its third move: a bug of the player's own."""

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        self.moves += 1
        if self.moves == 3:
            raise ZeroDivisionError("my bug")
        return moves[0]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11's")
def test_a_player_that_raises_is_named_with_its_seat_game_and_seed() -> None:
    """The player's own exception goes on as it is, with a note of where it struck."""
    with pytest.raises(ZeroDivisionError, match="my bug") as raised:
        simulate([GreedyPlayer(), _Fails()], STANDARD, games=2, seed=1, names=["a", "mine"])
    notes: list[str] = getattr(raised.value, "__notes__", [])  # mypy checks for 3.10
    (note,) = notes
    assert note.startswith("raised by the player 'mine' at seat 1, in game 0 of the simulation")
    assert f"new_game(..., seed={game_seed(1, 0)}) deals that game again" in note


class _ObserveFails:
    """Fails when told of its fifth move: a bug in its own ``observe``."""

    def __init__(self) -> None:
        self.told = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return moves[0]

    def observe(self, events: tuple[object, ...]) -> None:
        self.told += 1
        if self.told == 5:
            raise ZeroDivisionError("my observe bug")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11's")
def test_an_observe_that_raises_is_named_with_its_seat_game_and_seed() -> None:
    """An ``observe`` failure names the player and where it struck, as a ``choose`` failure does."""
    with pytest.raises(ZeroDivisionError, match="my observe bug") as raised:
        simulate([GreedyPlayer(), _ObserveFails()], STANDARD, games=2, seed=1, names=["a", "mine"])
    notes: list[str] = getattr(raised.value, "__notes__", [])  # mypy checks for 3.10
    assert notes == [
        "raised by the observe() of the player at seat 1",
        "that is the player 'mine', in game 0 of the simulation, round 1 "
        f"(new_game(..., seed={game_seed(1, 0)}) deals that game again)",
    ]


class Remembering:
    """A player of a user's own, with a memory: chooses by the moves and events it has seen
    (the Dask test plays it too)."""

    def __init__(self) -> None:
        self.seen = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        self.seen += 1
        return moves[self.seen % len(moves)]

    def observe(self, events: tuple[object, ...]) -> None:
        self.seen += len(events)


def test_one_player_object_in_two_seats_plays_as_two_players() -> None:
    """Each seat of each game gets a copy of its own, though the list repeats an object."""
    shared = Remembering()
    apart = simulate([Remembering(), Remembering(), GreedyPlayer()], SMALL, games=3, seed=1)
    assert simulate([shared, shared, GreedyPlayer()], SMALL, games=3, seed=1) == apart
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate([shared, shared, GreedyPlayer()], SMALL, 3, 1, pool) == apart


def test_a_multiprocessing_pool_gives_the_same_result_as_one_process() -> None:
    """Any object whose map() keeps the items' order will do, typed as such (SupportsMap)."""
    alone = simulate(BOTS, SMALL, games=4, seed=3)
    with multiprocessing.Pool(2) as pool:
        assert simulate(BOTS, SMALL, games=4, seed=3, executor=pool) == alone


class _Locked:
    """Holds a lock, which no copy can be made of."""

    name = "locked"

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return moves[0]


def test_a_player_that_cannot_be_copied_is_refused_up_front_by_name() -> None:
    """Every game plays a copy of each player: one that cannot be copied is named."""
    with pytest.raises(TypeError, match=r"player 1 \('locked'\) cannot be copied") as raised:
        simulate([GreedyPlayer(), _Locked()], SMALL, games=1)
    assert "_thread.lock" in str(raised.value)


def test_a_player_that_cannot_reach_a_process_pool_is_refused_up_front_by_name() -> None:
    class Local:
        def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
            return moves[0]

    with (
        ProcessPoolExecutor(max_workers=1) as pool,
        pytest.raises(TypeError, match=r"player 0 \('Local'\) does not pickle.*module's top level"),
    ):
        simulate([Local(), GreedyPlayer()], SMALL, games=1, executor=pool)
    with multiprocessing.get_context("spawn").Pool(1) as spawned, pytest.raises(TypeError):
        simulate([Local(), GreedyPlayer()], SMALL, games=1, executor=spawned)
    with ThreadPoolExecutor(max_workers=1) as threads:  # one process: nothing to pickle
        assert simulate([Local(), GreedyPlayer()], SMALL, 1, executor=threads).completed_games == 1


def test_players_by_seat_in_a_mapping_are_refused_with_the_way_to_seat_them() -> None:
    with pytest.raises(TypeError, match=r"in seat order.*not a mapping.*rotate_seats=False"):
        simulate({0: GreedyPlayer(), 1: GreedyPlayer()}, SMALL, games=1)  # type: ignore[arg-type]


class _Watching:
    """Maps in order, one batch at a time, and notes whether the earlier games are still held."""

    def __init__(self) -> None:
        self.held: list[int] = []

    def map(self, function: Callable[[_T], _S], items: list[_T], /) -> Iterator[_S]:
        played: list[weakref.ref[object]] = []
        for item in items:
            gc.collect()
            # simulate holds the batch it counts last until it takes the next one.
            self.held.append(sum(game() is not None for game in played[:-1]))
            result = function(item)
            played.append(weakref.ref(result[0]))  # type: ignore[index]
            yield result


def test_games_are_counted_as_they_finish_and_not_held() -> None:
    """A simulation's memory does not grow with its games: each is summed in, then dropped."""
    watching = _Watching()
    with_totals = simulate(BOTS, SMALL, games=6, seed=2, executor=watching)
    assert with_totals == simulate(BOTS, SMALL, games=6, seed=2)
    assert watching.held == [0] * 6


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="statistics.stdev is correctly rounded from 3.11"
)
@pytest.mark.parametrize("seed", range(20))
def test_whole_numbers_are_summarised_as_statistics_does(seed: int) -> None:
    """Scores, turns and tiles are summed as they come; the figures are `statistics`' own."""
    draw = random.Random(seed)
    values = [
        draw.randrange(-50, 10 ** draw.randrange(1, 12)) for _ in range(draw.randrange(2, 300))
    ]
    summary = Summary.of(values)
    assert summary.mean == statistics.fmean(values)
    assert summary.stdev == statistics.stdev(values)
    assert (summary.minimum, summary.maximum) == (min(values), max(values))
    floats = Summary.of([float(value) for value in values])  # summarised by statistics itself
    assert (floats.mean, floats.stdev) == (summary.mean, summary.stdev)


class _Backwards:
    """Maps the items last first, as an executor that gives results as they finish may."""

    def map(self, function: Callable[[_T], _S], items: list[_T], /) -> Iterator[_S]:
        return iter([function(item) for item in reversed(items)])


def test_the_order_games_come_back_in_does_not_change_the_result() -> None:
    players: list[Player] = [SeatZeroCheater(), GreedyPlayer(), RandomPlayer(seed=3)]
    in_order = simulate(players, SMALL, games=7, seed=4)
    assert len(in_order.illegal_moves) > 1
    assert simulate(players, SMALL, games=7, seed=4, executor=_Backwards()) == in_order
    assert simulate(players, SMALL, 7, 4, _Backwards(), batch_size=3) == in_order


def test_a_class_given_for_a_player_is_refused_with_the_call_that_makes_one() -> None:
    with pytest.raises(
        TypeError, match=r"player 1 is the class GreedyPlayer, not a player.*GreedyPlayer\(\)"
    ):
        simulate([GreedyPlayer(), GreedyPlayer], SMALL, games=1)  # type: ignore[list-item]


class _TwoPartError(Exception):
    """An exception that pickle cannot make again: its __init__ takes other arguments."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


class _RaisesTwoParts:
    name = "two-parts"

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        raise _TwoPartError("my bug", "in two parts")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11's")
def test_a_player_exception_that_cannot_come_back_from_a_worker_is_told_whole() -> None:
    """It is told with the player, game and seed, and the pool lives on.

    A RuntimeError tells it, or the exception itself once something has taught pickle to
    make such exceptions again (importing Dask's ``distributed`` does, with tblib).
    """
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises((RuntimeError, _TwoPartError), match="my bug: in two parts") as raised:
            simulate([_RaisesTwoParts(), GreedyPlayer()], SMALL, games=2, seed=1, executor=pool)
        told = "\n".join([str(raised.value), *getattr(raised.value, "__notes__", [])])
        assert "my bug: in two parts" in told
        assert "raised by the player 'two-parts' at seat 0, in game 0 of the simulation" in told
        assert f"new_game(..., seed={game_seed(1, 0)})" in told
        if type(raised.value) is RuntimeError:
            assert told.startswith("_TwoPartError: my bug: in two parts\n")
            assert "cannot be sent back from the process that played the game" in told
            assert 'in choose\n    raise _TwoPartError("my bug", "in two parts")' in told
        else:
            assert type(raised.value) is _TwoPartError
        assert simulate(BOTS, SMALL, games=2, seed=1, executor=pool).completed_games == 2


@attrs.frozen
class _ForgetsToAnswer:
    """A broken Mexican-train rule: it answers None, not True or False (for every seat)."""

    def is_open(self, table: object, seat: int) -> bool:
        return True if seat < 0 else None  # type: ignore[return-value]


@attrs.frozen
class _Everyones:
    """A Mexican-train rule of a user's own: every train is open to everyone."""

    def is_open(self, table: object, seat: int) -> bool:
        return True


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11's")
def test_a_broken_rule_is_not_blamed_on_a_player() -> None:
    """V2: the rules' own error, met while listing a seat's moves, is noted as the rules'."""
    rules = attrs.evolve(HUB, mexican_train=_ForgetsToAnswer())
    with pytest.raises(
        RulesError, match=r"_ForgetsToAnswer\(\)\.is_open\(\) returned None"
    ) as raised:
        simulate([GreedyPlayer(), PlannerPlayer()], rules, games=1, seed=1, names=["a", "b"])
    notes: list[str] = getattr(raised.value, "__notes__", [])  # mypy checks for 3.10
    (note,) = notes
    assert note.startswith("raised by the rules while listing the moves of seat ")


@attrs.frozen
class _LosesCount:
    """A Mexican-train rule of a user's own that raises once a tile is on a train."""

    def is_open(self, table: Table, seat: int) -> bool:
        if any(table.train(other).tiles for other in range(table.players)):
            raise ValueError("which train was that?")
        return False


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11's")
def test_a_rule_that_raises_after_a_move_is_not_blamed_on_a_player() -> None:
    """V2: the rules' own error, met in the position after a move, is noted as the rules',
    with the game that deals it again: it is raised when that position's moves are listed
    (apply works them out ahead, but leaves a rule's error to legal_moves)."""
    rules = attrs.evolve(HUB, mexican_train=_LosesCount())
    with pytest.raises(ValueError, match="which train was that") as raised:
        simulate([GreedyPlayer(), PlannerPlayer()], rules, games=1, seed=1, names=["a", "b"])
    notes: list[str] = getattr(raised.value, "__notes__", [])  # mypy checks for 3.10
    (note,) = notes
    assert re.fullmatch(
        r"raised by the rules while listing the moves of seat \d, in game 0 of the simulation, "
        r"round 1 "
        r"\(new_game\(\.\.\., seed=\d+\) deals that game again\)",
        note,
    ), note
    assert f"in game 0 of the simulation, round 1 (new_game(..., seed={game_seed(1, 0)})" in note


def test_a_result_saved_as_json_reads_back_equal_with_its_rules() -> None:
    """The JSON keeps every setting (rules, seed, games, seats), so the run can be made again."""
    rules = combine("hub", "last-tile-call", "draw-until-playable")
    players: list[Player] = [SeatZeroCheater(), GreedyPlayer(), RandomPlayer(seed=3)]
    result = simulate(players, rules, games=4, seed=6, rotate_seats=False)
    assert result.illegal_moves
    saved = json.loads(json.dumps(result.to_dict()))
    assert saved["variant"] == variant_name(rules)
    again = SimulationResult.from_dict(saved)
    assert again == result
    assert again.rules == rules
    rerun = simulate(players, again.rules, again.games, again.seed, rotate_seats=again.rotate_seats)
    assert rerun == result


def test_a_result_of_rules_json_cannot_name_reads_back_with_them_given() -> None:
    rules = attrs.evolve(SMALL, mexican_train=_Everyones())
    result = simulate([GreedyPlayer(), GreedyPlayer()], rules, games=1, seed=1)
    saved = json.loads(json.dumps(result.to_dict()))
    assert (saved["rules"], saved["variant"]) == (None, None)
    with pytest.raises(SchemaError, match=r"rules=") as raised:
        SimulationResult.from_dict(saved)
    assert raised.value.path == "$.rules"
    assert SimulationResult.from_dict(saved, rules=rules) == result


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda data: data.update(games="4"), "$.games"),
        (lambda data: data.update(gmaes=4), "$.gmaes"),
        (lambda data: data["player_stats"][0].update(wins=True), "$.player_stats[0].wins"),
        (lambda data: data.pop("seed"), "$.seed"),
        (lambda data: data["rules"].update(max_pip="six"), "$.rules.max_pip"),
        (lambda data: data["player_stats"].pop(), "$.player_stats"),
        (lambda data: data["player_stats"][0].update(name="me"), "$.player_stats"),
        (lambda data: data.update(games=0), "$.games"),
        (lambda data: data.update(seed=2**64), "$.seed"),
        (lambda data: data.update(completed_games=-1), "$.completed_games"),
        (lambda data: data.update(completed_games=2), "$.completed_games"),
        (lambda data: data["player_stats"][1].update(illegal_moves=1), "$.completed_games"),
        (
            lambda data: data["player_stats"][1].update(illegal_moves=-1),
            "$.player_stats[1].illegal_moves",
        ),
        (lambda data: data["player_stats"][0].update(wins=2), "$.player_stats[0]"),
        (lambda data: data.update(rounds=-1), "$.rounds"),
        (lambda data: data["counters"].update(draws=-1), "$.counters.draws"),
        (lambda data: data["player_stats"][0].update(shared_wins=2), "$.player_stats[0]"),
    ],
)
def test_a_saved_result_that_is_wrong_is_refused_where_it_is_wrong(
    change: Callable[[dict[str, object]], object], path: str
) -> None:
    data = json.loads(json.dumps(simulate(BOTS, SMALL, games=1, seed=1).to_dict()))
    change(data)
    with pytest.raises(SchemaError) as raised:
        SimulationResult.from_dict(data)
    assert raised.value.path == path


def test_e5_wins_ties_and_intervals_agree_with_a_count_by_hand() -> None:
    """Every game replayed by hand: scores, wins, shared wins (E5) and Student's interval."""
    rules = attrs.evolve(SMALL, rounds=1, tie_break=False)  # E5: ties stand
    players = (RandomPlayer(seed=1), GreedyPlayer(), RandomPlayer(seed=2))
    result = simulate(players, rules, games=6, seed=27)
    scores: list[list[int]] = [[], [], []]
    wins, shared = [0, 0, 0], [0, 0, 0]
    for number in range(6):
        by_seat = [(seat + number) % 3 for seat in range(3)]  # player (s + i) mod n in seat s
        seated = [copy.deepcopy(players[by_seat[seat]]) for seat in range(3)]  # fresh copies
        state = new_game(3, rules, seed=game_seed(27, number))
        while not state.is_over:
            seat = state.current_player
            if seat is None:
                state = apply(state, NextRound())
                continue
            state = apply(state, seated[seat].choose(view(state, seat), legal_moves(state)))
        for seat, score in enumerate(state.scores):
            scores[by_seat[seat]].append(score)
        for seat in state.winners:
            wins[by_seat[seat]] += 1
            shared[by_seat[seat]] += len(state.winners) > 1
    assert sum(shared) > 0  # a tie happened, counted for each player in it
    assert result.wins == tuple(wins)
    assert [p.shared_wins for p in result.player_stats] == shared
    for stats, mine in zip(result.player_stats, scores, strict=True):
        mean, stdev = sum(mine) / 6, statistics.stdev(mine)
        half = 2.570581836 * stdev / math.sqrt(6)  # Student's t, 5 degrees of freedom
        assert stats.score.count == 6
        assert stats.score.mean == pytest.approx(mean)
        assert stats.score.stdev == pytest.approx(stdev)
        assert (stats.score.low, stats.score.high) == pytest.approx((mean - half, mean + half))
        assert (stats.score.minimum, stats.score.maximum) == (min(mine), max(mine))


class _CtrlC:
    """A progress function that raises KeyboardInterrupt, as Ctrl-C does, after *after* games."""

    def __init__(self, after: int) -> None:
        self.after, self.done = after, 0

    def __call__(self, games: int) -> None:
        self.done += games
        if self.done >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("pooled", [False, True], ids=["here", "process pool"])
def test_ctrl_c_ends_a_simulation_with_the_result_of_the_games_done(pooled: bool) -> None:
    """The first games' result, as if they had been asked for, but for the games asked."""
    players: list[Player] = [SeatZeroCheater(), GreedyPlayer(), RandomPlayer(seed=3)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        executor = pool if pooled else None
        with pytest.raises(SimulationInterrupted, match="interrupted after 4 of 9 games") as raised:
            simulate(players, SMALL, 9, 4, executor, batch_size=2, progress=_CtrlC(3))
    assert isinstance(raised.value, KeyboardInterrupt)
    done = raised.value.result
    assert done == attrs.evolve(simulate(players, SMALL, games=4, seed=4), games=9)
    assert done.illegal_moves  # a game stopped at an illegal move is kept too


class _CtrlCInChoose:
    """Plays the first move; Ctrl-C strikes during its 300th choice of the simulation."""

    name = "first"
    choices = 0  # of every copy, in this process

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        type(self).choices += 1
        if type(self).choices == 300:
            raise KeyboardInterrupt
        return moves[0]


def test_ctrl_c_in_the_middle_of_a_game_drops_that_game_alone() -> None:
    _CtrlCInChoose.choices = 0
    players: list[Player] = [_CtrlCInChoose(), GreedyPlayer()]
    with pytest.raises(SimulationInterrupted) as raised:
        simulate(players, SMALL, games=20, seed=2)
    done = raised.value.result
    assert 0 < done.completed_games < 20
    _CtrlCInChoose.choices = -(10**9)  # no Ctrl-C this time
    again = simulate(players, SMALL, games=done.completed_games, seed=2)
    assert done == attrs.evolve(again, games=20)


class _Recording:
    """Plays nothing: records how many batches each call of map is given, and how many
    calls were made before the results of the first were read."""

    def __init__(self) -> None:
        self.given: list[int] = []
        self.before_read: int | None = None

    def map(self, function: Callable[[_T], _S], items: list[_T], /) -> Iterator[_S]:
        self.given.append(len(items))
        return self._results(len(items))

    def _results(self, count: int) -> Iterator[_S]:
        if self.before_read is None:
            self.before_read = len(self.given)
        for _ in range(count):
            yield cast(_S, [])  # a batch whose games all went missing


def test_an_executor_is_given_the_batches_a_window_at_a_time() -> None:
    """Its futures (a task each on Dask) cost memory: 100,000 batches go a few thousand at a
    time, the next window sent before the last one's results are read."""
    recording = _Recording()
    simulate(BOTS, SMALL, games=100_000, seed=1, executor=recording, batch_size=1)
    assert sum(recording.given) == 100_000
    assert len(recording.given) > 10
    assert max(recording.given) <= 5_000
    assert recording.before_read == 2


class _ReadFuture(Future[_T]):
    """A future that tells its executor when its result is read."""

    def __init__(self, executor: _Instant) -> None:
        super().__init__()
        self.executor = executor

    def result(self, timeout: float | None = None) -> _T:
        self.executor.read += 1
        return super().result(timeout)


class _Instant(Executor):
    """Plays nothing (each batch's games go missing); counts the futures given and not read."""

    def __init__(self) -> None:
        self.submitted = self.read = self.most_unread = 0

    def submit(self, fn: Callable[..., _T], /, *args: object, **kwargs: object) -> Future[_T]:
        self.submitted += 1
        self.most_unread = max(self.most_unread, self.submitted - self.read)
        future: Future[_T] = _ReadFuture(self)
        future.set_result(cast(_T, []))
        return future


def test_an_executor_has_a_few_thousand_batches_at_most_unread() -> None:
    """Each is a future (a task on Dask) in memory: 100,000 batches are not sent at once."""
    instant = _Instant()
    simulate(BOTS, SMALL, games=100_000, seed=1, executor=instant, batch_size=1)
    assert instant.submitted == instant.read == 100_000
    assert 1_000 < instant.most_unread <= 10_000


class _PlayedOnRead(Future[_T]):
    """A future whose batch is played only when its result is read, never if cancelled."""

    def __init__(self, call: Callable[[], _T]) -> None:
        super().__init__()
        self.call = call

    def result(self, timeout: float | None = None) -> _T:
        if self.set_running_or_notify_cancel():
            self.set_result(self.call())
        return super().result(timeout)


class _OnRead(Executor):
    """An executor that plays each batch as its result is read: a batch not read is a
    batch not begun, as in a pool whose workers are all busy."""

    def __init__(self) -> None:
        self.futures: list[_PlayedOnRead[Any]] = []

    def submit(self, fn: Callable[..., _T], /, *args: object, **kwargs: object) -> Future[_T]:
        future = _PlayedOnRead(lambda: fn(*args, **kwargs))
        self.futures.append(future)
        return future


def test_ctrl_c_cancels_the_batches_an_executor_has_not_begun() -> None:
    """A pool's shutdown, at the end of its ``with`` block, then waits only for the
    games in play: every batch not begun is cancelled."""
    executor = _OnRead()
    with pytest.raises(SimulationInterrupted) as raised:
        simulate(BOTS, SMALL, 60, 1, executor, batch_size=1, progress=_CtrlC(2))
    assert raised.value.result.completed_games == 2
    played, waiting = executor.futures[:2], executor.futures[2:]
    assert all(future.done() and not future.cancelled() for future in played)
    assert waiting
    assert all(future.cancelled() for future in waiting)


def _broken_progress(games: int) -> None:
    raise ValueError("the progress bar is closed")


class _ShutDownOnRead(_OnRead):
    """`_OnRead`, that notes at its shutdown (the end of its ``with`` block) the futures
    a pool's shutdown would wait for: those neither done nor cancelled."""

    waited_for: list[Future[Any]] | None = None

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.waited_for = [future for future in self.futures if not future.done()]


def test_an_exception_from_progress_cancels_the_batches_an_executor_has_not_begun() -> None:
    """It goes on as it is, and the pool's shutdown at the end of its ``with`` block, while
    the exception (and with it the simulation) is held, has no batch to wait for."""
    executor = _ShutDownOnRead()
    with pytest.raises(ValueError, match="the progress bar is closed"), executor:
        simulate(BOTS, SMALL, 60, 1, executor, batch_size=1, progress=_broken_progress)
    assert len(executor.futures) > 1
    assert executor.waited_for == []


class _Stubborn:
    """Passes though it must play (P7): every game it plays stops at once."""

    name = "stubborn"

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return Pass()


def test_the_illegal_moves_of_the_first_games_are_kept_and_all_are_counted() -> None:
    """Memory does not grow with games a player stops: the first ILLEGAL_MOVES_KEPT are
    listed, in whatever order the games came back, and every one is counted."""
    players: list[Player] = [_Stubborn(), GreedyPlayer()]
    result = simulate(players, SMALL, games=250, seed=3)
    assert result.stopped_games == result.player_stats[0].illegal_moves == 250
    assert [illegal.game for illegal in result.illegal_moves] == list(range(ILLEGAL_MOVES_KEPT))
    assert simulate(players, SMALL, 250, 3, _Backwards(), batch_size=7) == result
    assert result.report().endswith("\nand 150 more games stopped at an illegal move")
    with pytest.raises(SimulationInterrupted, match="interrupted after 120 of 250 games"):
        simulate(players, SMALL, games=250, seed=3, progress=_CtrlC(120))


class _StopsIterating:
    """Raises StopIteration from its 500th choice in this process on: a bug of its own."""

    name = "stops"
    choices = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        type(self).choices += 1  # two threads may count one choice each at once
        if type(self).choices >= 500:
            raise StopIteration("my bug")
        return moves[0]


@pytest.mark.parametrize("threads", [False, True], ids=["here", "thread pool"])
def test_a_player_that_raises_stop_iteration_ends_the_simulation_with_a_runtime_error(
    threads: bool,
) -> None:
    """Raised on, StopIteration would end the loop over the games as if all were played,
    and drop the games after it without a word."""
    _StopsIterating.choices = 0
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(RuntimeError) as raised:
        simulate([_StopsIterating(), GreedyPlayer()], SMALL, 10, 1, pool if threads else None)
    assert str(raised.value).startswith("StopIteration('my bug') cannot go on as it is")
    if sys.version_info >= (3, 11):
        (note,) = raised.value.__notes__
        assert note.startswith("raised by the player 'stops' at seat ")


class _CtrlCWhileSumming:
    """A game whose scores Ctrl-C interrupts as they are summed in (once the game is counted)."""

    illegal = None

    @property
    def scores(self) -> Iterator[int]:
        raise KeyboardInterrupt
        yield 0


class _InterruptedInTheThirdBatch:
    """Plays the first two batches, then gives a third in which Ctrl-C strikes while the
    second game is being summed in."""

    def map(self, function: Callable[[_T], _S], items: list[_T], /) -> Iterator[_S]:
        for item in items[:2]:
            yield function(item)
        played = cast(list[object], function(items[2]))
        yield cast(_S, [played[0], _CtrlCWhileSumming()])


def test_ctrl_c_while_a_batch_is_summed_keeps_the_batches_summed_whole() -> None:
    with pytest.raises(SimulationInterrupted, match="after 4 of 9 games") as raised:
        simulate(BOTS, SMALL, 9, 2, _InterruptedInTheThirdBatch(), batch_size=2)
    done = raised.value.result
    assert done == attrs.evolve(simulate(BOTS, SMALL, games=4, seed=2), games=9)


def test_the_report_fits_an_80_column_terminal() -> None:
    """The counters and each illegal move go on under their start past 79 columns, a
    counter kept whole with its number, even with numbers of a long simulation."""
    result = simulate([SeatZeroCheater(), GreedyPlayer()], SMALL, games=4, seed=1)
    counters = attrs.evolve(
        result.counters,
        doubles_played=1_000_000,
        doubles_opened=500_000,
        doubles_closed=499_999,
        markers_placed=9_876_543,
        draws=12_345_678,
    )
    report = attrs.evolve(result, counters=counters).report()
    lines = report.splitlines()
    assert max(len(line) for line in lines) <= 79, report
    start = next(i for i, line in enumerate(lines) if line.startswith("in all: "))
    assert lines[start : start + 2] == [
        "in all: doubles played 1000000, opened 500000, closed 499999; markers 9876543;",
        "        draws 12345678",
    ]
    assert (
        lines[start + 2]
        == "game 0, round 1: seat 0 (cheater) made an illegal move, NextRound(): E4:"
    )
    assert lines[start + 3].startswith("    NextRound() is legal only")
