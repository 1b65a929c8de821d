"""Measure the open-double positions: how many there are, what their moves cost, how often memos answer.

Run from the repository root::

    python benchmarks/open_doubles.py            # about half a minute
    python benchmarks/open_doubles.py --quick    # a smoke run

For `HUB` and `STANDARD`, 4 players, it prints:

- the share of the positions of random rounds (round *r* dealt from seed *r* and played
  with ``random.Random(r)``'s choices) in which a train ends in a double, open or laid
  this turn (D1, D2);
- the median microseconds of `legal_moves` of a new state (``state.replace()``, as read
  from JSON) in those positions and in the others, best of 20 calls each, and their
  ratio;
- on the pure-Python build, over random complete games: how many times the engine works
  out what the open doubles leave a player, and how many of those reach the
  `OpenDoubleRule` (the rest are answered by the engine's memos), by wrapping the
  private functions ``_plays_under_doubles`` and ``_ask`` of
  ``mexican_train._core.engine``, its memos emptied first (this measures the implementation; the compiled
  build's native calls between its functions cannot be wrapped, so it prints no share).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from options import positive_int

from mexican_train import COMPILED, HUB, STANDARD, GameState, Rules, apply, legal_moves, new_game

PRESETS = {"HUB": HUB, "STANDARD": STANDARD}
CALLS = 20  # new states timed per position; the best is kept


def at_a_double(state: GameState) -> bool:
    """Return whether a train of *state* ends in a double (open, or laid this turn)."""
    return any(train.ends_in_double for train in state.trains)


def moves_us(state: GameState) -> float:
    """Return the fewest microseconds `legal_moves` of a new, equal state took, of `CALLS`."""
    best = float("inf")
    for _ in range(CALLS):
        fresh = state.replace()
        start = time.perf_counter_ns()
        legal_moves(fresh)
        best = min(best, time.perf_counter_ns() - start)
    return best / 1000


def positions(rules: Rules, rounds: int) -> tuple[list[float], list[float]]:
    """Return the times of the positions at a double and of the others, over *rounds* rounds."""
    doubles: list[float] = []
    others: list[float] = []
    for seed in range(rounds):
        rng = random.Random(seed)
        state = new_game(4, rules, seed=seed)
        while state.current_player is not None:
            (doubles if at_a_double(state) else others).append(moves_us(state))
            state = apply(state, rng.choice(legal_moves(state)))
    return doubles, others


def memo_share(rules: Rules, games: int) -> tuple[int, int]:
    """Return (questions, answers the rule gave) over *games* random complete games."""
    from mexican_train._core import engine

    counts = {"questions": 0, "asked": 0}

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*arguments: Any) -> Any:
            counts[name] += 1
            return function(*arguments)

        return wrapper

    engine._PLANS.clear()  # from empty memos, as in a new process
    engine._ALLOWED.clear()
    originals = engine._plays_under_doubles, engine._ask
    engine._plays_under_doubles = counted("questions", originals[0])
    engine._ask = counted("asked", originals[1])
    try:
        for seed in range(games):
            rng = random.Random(seed)
            state = new_game(4, rules, seed=seed)
            while not state.is_over:
                state = apply(state, rng.choice(legal_moves(state)))
    finally:
        engine._plays_under_doubles, engine._ask = originals
    return counts["questions"], counts["asked"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rounds", type=positive_int, default=300, help="rounds timed per preset (default 300)"
    )
    parser.add_argument(
        "--games", type=positive_int, default=400, help="games for the memos (default 400)"
    )
    parser.add_argument("--quick", action="store_true", help="5 rounds and 5 games")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds = args.games = 5
    print(f"open-double positions, {'compiled' if COMPILED else 'pure Python'} build, 4 players")
    for name, rules in PRESETS.items():
        doubles, others = positions(rules, args.rounds)
        share = len(doubles) / (len(doubles) + len(others))
        at, away = statistics.median(doubles), statistics.median(others)
        print(
            f"{name:9} {args.rounds} rounds: {share:.1%} of positions at a double; "
            f"legal_moves {at:.2f} µs there, {away:.2f} µs elsewhere ({at / away:.2f} times)"
        )
    if COMPILED:
        print("the memos' share: on the pure-Python build only")
        return 0
    for name, rules in PRESETS.items():
        questions, asked = memo_share(rules, args.games)
        print(
            f"{name:9} {args.games} games: {questions:,} questions about open doubles, "
            f"{asked:,} put to the rule: {1 - asked / questions:.1%} answered by the memos"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
