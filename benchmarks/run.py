"""Benchmark the engine: rounds, moves, single calls, whole games, views and memory.

Run from the repository root::

    python benchmarks/run.py            # the full run, under 20 seconds
    python benchmarks/run.py --quick    # a smoke run, a few seconds
    python benchmarks/run.py --json results.json

Every figure is the median over repeated runs.  The same run also times a
plain, mutable, simplified playout written here with no library code
(`baseline.py`); the ratio *library ÷ baseline* is the figure to compare across
machines, because machine speed and load cancel out of it.

Only the public API is used (and the standard library and attrs): ``legal_moves`` +
``apply`` + a seeded ``random.Random`` choice, as a bot or a simulation would.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline  # a sibling module, found through the line above

import mexican_train
from mexican_train import (
    HUB,
    STANDARD,
    GameState,
    RandomPlayer,
    Rules,
    apply,
    legal_moves,
    new_game,
    simulate,
    view,
)

PRESETS = {"HUB": HUB, "STANDARD": STANDARD}


@attrs.frozen
class Plan:
    """How much work each measurement does."""

    repeats: int  # timed runs per figure; the median is reported
    rounds: int  # rounds per timed run of the round benchmarks
    positions: int  # mid-round positions for the per-call figures
    games: int  # complete games per timed run
    simulated: int  # games per simulate() run


FULL = Plan(repeats=11, rounds=200, positions=400, games=3, simulated=24)
QUICK = Plan(repeats=3, rounds=20, positions=40, games=1, simulated=2)


# -- playing -------------------------------------------------------------------


def play_round(state: GameState, rng: random.Random) -> tuple[GameState, int]:
    """Play the round of *state* to its end with random moves; return the end and the moves."""
    moves = 0
    while state.current_player is not None:
        state = apply(state, rng.choice(legal_moves(state)))
        moves += 1
    return state, moves


def play_game(players: int, rules: Rules, seed: int) -> int:
    """Play a complete game with random moves; return the number of moves."""
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    moves = 0
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        moves += 1
    return moves


def play_games(players: int, rules: Rules, seeds: range) -> int:
    """Play one complete game per seed; return the moves made."""
    return sum(play_game(players, rules, seed) for seed in seeds)


def deal_round(rules: Rules, seed: int) -> GameState:
    """Return a new 4-player game: the first round dealt."""
    return new_game(4, rules, seed=seed)


def library_rounds(rules: Rules, seeds: range) -> int:
    """Deal and play one 4-player round per seed; return the moves made."""
    moves = 0
    for seed in seeds:
        _, n = play_round(new_game(4, rules, seed=seed), random.Random(seed))
        moves += n
    return moves


def baseline_rounds(seeds: range) -> int:
    """Play one baseline round per seed; return the moves made."""
    return sum(baseline.play_round(seed) for seed in seeds)


def round_history(rules: Rules, seed: int, players: int = 4) -> list[GameState]:
    """Return every state of one random round, the deal first."""
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    history = [state]
    while state.current_player is not None:
        state = apply(state, rng.choice(legal_moves(state)))
        history.append(state)
    return history


def mid_round_positions(rules: Rules, count: int) -> list[GameState]:
    """Return *count* positions from the middle third of random 4-player rounds."""
    positions: list[GameState] = []
    seed = 10_000
    while len(positions) < count:
        history = round_history(rules, seed)[:-1]  # the last state is the round's end
        third = len(history) // 3
        positions.extend(history[third : 2 * third : 4])
        seed += 1
    return positions[:count]


def uncached(state: GameState) -> GameState:
    """Return an equal state, new: no legal moves computed, no hash kept (as read from JSON)."""
    if hasattr(state, "replace"):
        return state.replace()
    return attrs.evolve(state)  # type: ignore[misc]  # a version without it (compare.py)


# -- timing --------------------------------------------------------------------


@contextmanager
def collected() -> Iterator[None]:
    """Start from a collected heap so one figure's garbage does not bill the next."""
    gc.collect()
    yield


def timed(function: Callable[[], int]) -> tuple[float, int]:
    """Return the CPU time one call of *function* takes, and what it returned.

    CPU time, not wall time: on a shared machine, time spent waiting for a CPU
    is not the engine's.
    """
    with collected():
        start = time.process_time()
        result = function()
        return time.process_time() - start, result


def per_call_us(
    batches: list[Callable[[], list[Any]]], call: Callable[[Any], object], repeats: int = 3
) -> float:
    """Return the median over batches of the µs per call, each the best of *repeats*.

    A batch is a function that prepares the arguments for a few calls in a row
    (the same position a few times, or fresh copies of it).
    """
    results = []
    for prepare in batches:
        best = float("inf")
        for _ in range(repeats):
            batch = prepare()
            start = time.perf_counter_ns()
            for argument in batch:
                call(argument)
            elapsed = time.perf_counter_ns() - start
            best = min(best, elapsed / len(batch))
        results.append(best)
    return statistics.median(results) / 1000


# -- the figures ---------------------------------------------------------------


def bench_rounds(plan: Plan) -> dict[str, Any]:
    """Rounds and moves per second for each preset, with the baseline interleaved.

    Each repetition deals new rounds (its own seeds), played by the baseline and the
    library alike: replaying the same rounds would let the engine's memos answer from
    the previous repetitions, which a simulation of new deals does not see.
    """
    library_rounds(HUB, range(-3, 0))  # warm the interned tiles and moves
    times: dict[str, list[float]] = {name: [] for name in ("baseline", *PRESETS)}
    rates: dict[str, list[float]] = {name: [] for name in times}
    moves: dict[str, int] = dict.fromkeys(times, 0)
    ratios: dict[str, list[float]] = {name: [] for name in PRESETS}
    for repeat in range(plan.repeats):
        seeds = range(repeat * plan.rounds, (repeat + 1) * plan.rounds)
        # Interleaved, so a burst of load hits the library and the baseline alike.
        base, made = timed(partial(baseline_rounds, seeds))
        times["baseline"].append(base)
        rates["baseline"].append(made / base)
        moves["baseline"] += made
        for name, rules in PRESETS.items():
            elapsed, made = timed(partial(library_rounds, rules, seeds))
            times[name].append(elapsed)
            rates[name].append(made / elapsed)
            moves[name] += made
            ratios[name].append(base / elapsed)
    results: dict[str, Any] = {}
    for name, runs in times.items():
        median = statistics.median(runs)
        results[name] = {
            "rounds_per_s": plan.rounds / median,
            "moves_per_s": statistics.median(rates[name]),
            "moves_per_round": moves[name] / (plan.rounds * plan.repeats),
            "us_per_round": median / plan.rounds * 1e6,
        }
        if name in ratios:
            results[name]["ratio_to_baseline"] = statistics.median(ratios[name])
    return results


def bench_calls(plan: Plan) -> dict[str, Any]:
    """Median µs per legal_moves (first call, cached, of a view), apply, view and new_game."""
    copies = 10
    codec = json_codec()
    results: dict[str, Any] = {}
    for name, rules in PRESETS.items():
        positions = mid_round_positions(rules, plan.positions)
        rng = random.Random(1)
        moves = [rng.choice(legal_moves(state)) for state in positions]  # caches them, too

        def same(argument: object, copies: int = copies) -> Callable[[], list[Any]]:
            return lambda: [argument] * copies

        def fresh(state: GameState) -> Callable[[], list[Any]]:
            return lambda: [uncached(state) for _ in range(copies)]

        def fresh_views(state: GameState) -> Callable[[], list[Any]]:
            seat = state.current_player
            assert seat is not None  # a mid-round position
            return lambda: [view(state, seat) for _ in range(copies)]

        figures = {
            # The first call on a state computes its moves; later calls return them.
            "legal_moves_us": per_call_us([fresh(s) for s in positions], legal_moves),
            "legal_moves_cached_us": per_call_us([same(s) for s in positions], legal_moves),
            # The mover's view, new (as a bot meets it on each decision): the view is made
            # before the clock starts, so the figure is legal_moves alone.
            "legal_moves_view_us": per_call_us([fresh_views(s) for s in positions], legal_moves),
            # As in play: apply a move just returned by legal_moves (so its check is cached).
            "apply_us": per_call_us(
                [same(pair) for pair in zip(positions, moves, strict=True)],
                lambda pair: apply(*pair),
            ),
            "view_us": per_call_us(
                [same(s) for s in positions], lambda s: view(s, s.current_player)
            ),
            # hash() of a new state, as a transposition table meets it.
            "hash_us": per_call_us([fresh(s) for s in positions], hash),
            "new_game_us": per_call_us(
                [same(seed) for seed in range(max(5, plan.positions // 20))],
                partial(deal_round, rules),
            ),
        }
        if codec is not None:
            # Slower by far: fewer positions, fewer calls each.
            assert all(codec(s) == s for s in positions[:5])
            figures["json_round_trip_us"] = per_call_us(
                [same(s, 2) for s in positions[: max(10, len(positions) // 10)]], codec
            )
        results[name] = figures
    return results


def json_codec() -> Callable[[GameState], GameState] | None:
    """Return a function that writes a state as JSON text and reads it back, if the library can.

    The round trip is ``to_json``, ``json.dumps``, ``json.loads`` and the fully
    checked ``state_from_json`` of `mexican_train.serialize`.
    """
    try:
        from mexican_train.serialize import state_from_json, to_json
    except ImportError:  # an older version of the library: the line is skipped
        return None

    def round_trip(state: GameState) -> GameState:
        return state_from_json(json.loads(json.dumps(to_json(state))))

    return round_trip


def bench_games(plan: Plan) -> dict[str, Any]:
    """Milliseconds per complete game: 4 players (13 rounds), 8 and 14 players."""
    cases = {
        "4 players, HUB": (4, HUB),
        "4 players, STANDARD": (4, STANDARD),
        "8 players, HUB": (8, HUB),
        "8 players, STANDARD": (8, STANDARD),
        "14 players, STANDARD": (14, STANDARD),
    }
    seeds = range(plan.games)
    results: dict[str, Any] = {}
    for label, (players, rules) in cases.items():
        times = []
        moves = 0
        for _ in range(plan.repeats):
            elapsed, moves = timed(partial(play_games, players, rules, seeds))
            times.append(elapsed / plan.games)
        median = statistics.median(times)
        per_game = moves / plan.games
        results[label] = {
            "rounds": new_game(players, rules, seed=0).rounds,
            "moves_per_game": per_game,
            "ms_per_game": median * 1000,
            "us_per_move": median / per_game * 1e6,
        }
    return results


def bench_simulate(plan: Plan) -> dict[str, Any]:
    """simulate() games per second, 4 RandomPlayers under HUB, on one core and on all."""
    players = [RandomPlayer(seed=seat) for seat in range(4)]
    cores = os.cpu_count() or 1
    simulate(players, HUB, games=1, seed=0)  # warm up
    results: dict[str, Any] = {}
    for label, workers in (("1 core", 1), (f"{cores} cores", cores)):
        rates = []
        for repeat in range(max(1, plan.repeats // 4)):
            if workers == 1:
                start = time.process_time()  # CPU time: waiting for a CPU is not ours
                simulate(players, HUB, games=plan.simulated, seed=repeat)
                elapsed = time.process_time() - start
            else:
                with ProcessPoolExecutor(workers) as executor:
                    list(executor.map(abs, range(workers)))  # the workers start off the clock
                    start = time.perf_counter()  # wall time: the point is the parallelism
                    simulate(players, HUB, games=plan.simulated, seed=repeat, executor=executor)
                    elapsed = time.perf_counter() - start
            rates.append(plan.simulated / elapsed)
        results[label] = {"games_per_s": statistics.median(rates)}
    return results


MEMORY_CASES = {"4 players, HUB": (4, HUB), "4 players, STANDARD": (4, STANDARD),
                "14 players, STANDARD": (14, STANDARD)}  # fmt: skip


def _kept_round(players: int, rules: Rules, seed: int) -> list[GameState]:
    """Every state of `round_history`'s round, as play leaves them: legal moves asked."""
    history = round_history(rules, seed, players)
    legal_moves(history[-1])  # the others' were asked to play on from them
    return history


def bench_memory(plan: Plan) -> dict[str, Any]:
    """Bytes retained per extra state when every state of a round is kept."""
    results: dict[str, Any] = {}
    for name, (players, rules) in MEMORY_CASES.items():
        per_state = []
        for seed in range(max(3, plan.repeats)):
            # The round is played once unmeasured, so that what the engine keeps for
            # every round alike (interned tiles and moves, memos) is not counted: the
            # figure is the same whether this runs alone or after other benchmarks.
            _kept_round(players, rules, seed)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            history = _kept_round(players, rules, seed)
            gc.collect()
            retained = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            per_state.append(retained / (len(history) - 1))
            del history
        results[name] = {"bytes_per_state": statistics.median(per_state)}
    return results


# -- the targets ---------------------------------------------------------------

#: The design's performance targets (docs/explanation/performance.rst): a label,
#: where the figure is, whether it must be at least or at most the bound, and the
#: bound for the pure build and for the compiled one (None: no target).
TARGETS: list[tuple[str, tuple[str, ...], str, float | None, float | None]] = [
    ("HUB rounds ÷ baseline", ("rounds", "HUB", "ratio_to_baseline"), ">=", 0.42, 0.85),
    ("one move, HUB (µs)", ("calls", "HUB", "apply_us"), "<=", 2.5, 1.2),
    ("legal_moves of a new state, HUB (µs)", ("calls", "HUB", "legal_moves_us"), "<=", None, 1),
    ("hash() of a new state, HUB (µs)", ("calls", "HUB", "hash_us"), "<=", 0.5, 0.5),
    ("bytes/state, 4 players HUB", ("memory", "4 players, HUB", "bytes_per_state"), "<=", 600, 600),
    (
        "bytes/state, 14 players",
        ("memory", "14 players, STANDARD", "bytes_per_state"),
        "<=",
        800,
        800,
    ),
]


def targets(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Return each target of this build with its figure, and whether the figure meets it."""
    compiled = results["machine"]["compiled"]
    found: dict[str, dict[str, Any]] = {}
    for label, path, sense, pure_bound, compiled_bound in TARGETS:
        bound = compiled_bound if compiled else pure_bound
        value: Any = results
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if bound is None or value is None:
            continue
        holds = value >= bound if sense == ">=" else value <= bound
        found[label] = {"target": f"{sense} {bound:g}", "measured": value, "holds": holds}
    return found


# -- reporting -----------------------------------------------------------------


def machine() -> dict[str, Any]:
    """Describe the machine and interpreter the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "compiled": bool(getattr(mexican_train, "COMPILED", False)),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "mexican_train": mexican_train.__version__,
    }


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print *rows* under *title*: the first column flush left, numbers flush right."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print(f"\n{title}")
    for row in [header, *rows]:
        label, *numbers = row
        cells = [label.ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(numbers, widths[1:], strict=True)]
        print("  " + "  ".join(cells))


def report(results: dict[str, Any]) -> None:
    m = results["machine"]
    build = "compiled" if m["compiled"] else "pure Python"
    print(f"mexican-train {m['mexican_train']} ({build}) on {m['implementation']} "
          f"{m['python']}, {m['cpu']} ({m['cpus']} CPUs), {results['plan']}")  # fmt: skip
    rounds = results["rounds"]
    print_table(
        "Random 4-player double-12 rounds (deal + legal_moves + choice + apply)",
        ["", "rounds/s", "moves/s", "moves/round", "µs/round", "÷ baseline"],
        [
            [
                name,
                f"{r['rounds_per_s']:,.0f}",
                f"{r['moves_per_s']:,.0f}",
                f"{r['moves_per_round']:.1f}",
                f"{r['us_per_round']:,.0f}",
                f"{r['ratio_to_baseline']:.2f}" if "ratio_to_baseline" in r else "1",
            ]
            for name, r in rounds.items()
        ],
    )
    calls = results["calls"]
    labels = {
        "legal_moves_us": "legal_moves, first call (µs)",
        "legal_moves_cached_us": "legal_moves, cached (µs)",
        "legal_moves_view_us": "legal_moves of a new view (µs)",
        "apply_us": "one move: apply (+ next legal_moves) (µs)",
        "view_us": "view (µs)",
        "hash_us": "hash() of a new state (µs)",
        "json_round_trip_us": "JSON round trip (µs)",
        "new_game_us": "new_game, 4 players (µs)",
    }
    print_table(
        "Single calls, median over mid-round positions",
        ["", *calls],
        [
            [label, *(f"{calls[name][key]:.2f}" for name in calls)]
            for key, label in labels.items()
            if key in calls["HUB"]
        ],
    )
    if "json_round_trip_us" not in calls["HUB"]:
        print("  (JSON round trip: skipped, the library has no JSON module yet)")
    print_table(
        "Complete games",
        ["", "rounds", "moves/game", "ms/game", "µs/move"],
        [
            [
                label,
                str(g["rounds"]),
                f"{g['moves_per_game']:,.0f}",
                f"{g['ms_per_game']:.1f}",
                f"{g['us_per_move']:.2f}",
            ]
            for label, g in results["games"].items()
        ],
    )
    print_table(
        "simulate(): 4 RandomPlayers under HUB (1 core: CPU time; all cores: wall time,"
        " a process pool of one worker per core)",
        ["", "games/s"],
        [[label, f"{r['games_per_s']:.1f}"] for label, r in results["simulate"].items()],
    )
    print_table(
        "Memory: bytes retained per extra state, every state of a round kept",
        ["", "bytes/state"],
        [[name, f"{r['bytes_per_state']:.0f}"] for name, r in results["memory"].items()],
    )
    quick = " (a quick run is too short to judge them)" if results["plan"] == "quick" else ""
    print_table(
        f"Targets for the {build} build{quick}",
        ["", "target", "measured", ""],
        [
            [label, t["target"], f"{t['measured']:.3g}", "holds" if t["holds"] else "MISSED"]
            for label, t in results["targets"].items()
        ],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: little work, noisy")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    results: dict[str, Any] = {
        "machine": machine(),
        "plan": "quick" if args.quick else "full",
        "rounds": bench_rounds(plan),
        "calls": bench_calls(plan),
        "games": bench_games(plan),
        "simulate": bench_simulate(plan),
        "memory": bench_memory(plan),
    }
    results["targets"] = targets(results)
    report(results)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
        print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
