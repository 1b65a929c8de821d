"""Benchmark the reinforcement-learning adapters: environment steps per second.

Run from the repository root, with the ``rl`` extra installed::

    python benchmarks/rl.py            # the full run, about half a minute
    python benchmarks/rl.py --quick    # a smoke run (CI), a few seconds

Figures (medians over repeated runs, CPU time):

- the PettingZoo AEC environment: agent steps per second, each step being what a
  learner does (``last()`` with the observation and mask, a random legal action,
  ``step``), whole games;
- the Gymnasium single-seat environment against `GreedyPlayer` opponents: agent steps
  per second (each includes the opponents' moves until the agent's next turn);
- the codecs alone: microseconds per ``ObservationCodec.encode`` and ``ActionCodec.mask``;
- with open_spiel installed, the OpenSpiel game: steps per second of random play
  through ``pyspiel`` (chance nodes included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mexican_train import HUB, STANDARD, Rules, apply, legal_moves, new_game, view
from mexican_train.rl import ActionCodec, ObservationCodec, SingleSeatEnv, raw_env

PRESETS = {"HUB": HUB, "STANDARD": STANDARD}


def timed(work: Callable[[], int], repeats: int) -> float:
    """Return the median rate (units of work per CPU second) over *repeats* runs."""
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        units = work()
        rates.append(units / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def pettingzoo_steps(players: int, rules: Rules, games: int) -> Callable[[], int]:
    def work() -> int:
        rng = np.random.default_rng(0)
        game, steps = raw_env(players=players, rules=rules), 0
        for seed in range(games):
            game.reset(seed=seed)
            for _ in game.agent_iter():
                observation, _, terminated, truncated, _ = game.last()
                if terminated or truncated:
                    game.step(None)
                    continue
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
        return steps

    return work


def single_seat_steps(players: int, rules: Rules, games: int) -> Callable[[], int]:
    def work() -> int:
        rng = np.random.default_rng(0)
        game, steps = SingleSeatEnv(players=players, rules=rules), 0
        for seed in range(games):
            game.reset(seed=seed)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(game.action_masks())))
                _, _, done, _, _ = game.step(action)
                steps += 1
        return steps

    return work


def codec_us(players: int, rules: Rules) -> dict[str, float]:
    state, rng = new_game(players, rules, seed=1), np.random.default_rng(1)
    views = []
    while not state.is_round_over:
        views.append(view(state, state.current_player or 0))
        moves = legal_moves(state)
        state = apply(state, moves[int(rng.integers(len(moves)))])
    observations, actions = ObservationCodec(rules, players), ActionCodec(rules, players)
    result = {}
    for name, call in (("encode", observations.encode), ("mask", actions.mask)):
        start = time.process_time()
        for mine in views:
            call(mine)
        result[name] = (time.process_time() - start) / len(views) * 1e6
    return result


def openspiel_steps(players: int, variant: str, games: int) -> Callable[[], int] | None:
    try:
        import pyspiel

        import mexican_train.openspiel  # noqa: F401 (registers the game)
    except ImportError:
        return None
    game = pyspiel.load_game("python_mexican_train", {"players": players, "rules": variant})

    def work() -> int:
        rng = np.random.default_rng(0)
        steps = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                steps += 1
        return steps

    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: little work, noisy")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    repeats, games = (1, 1) if args.quick else (5, 2)
    results: dict[str, Any] = {}
    for name, rules in PRESETS.items():
        for players in (2, 4):
            key = f"{name} {players} players"
            results[key] = {
                "pettingzoo steps/s": timed(pettingzoo_steps(players, rules, games), repeats),
                "single seat steps/s": timed(single_seat_steps(players, rules, games), repeats),
                **{f"{k} us": v for k, v in codec_us(players, rules).items()},
            }
            spiel = openspiel_steps(players, name.lower(), games)
            if spiel is not None:
                results[key]["openspiel steps/s"] = timed(spiel, repeats)
    columns = sorted({column for row in results.values() for column in row})
    print(f"{'':22}" + "".join(f"{column:>22}" for column in columns))
    for key, row in results.items():
        print(
            f"{key:22}" + "".join(f"{row.get(column, float('nan')):>22.0f}" for column in columns)
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
