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
- at scale (HUB, 2 players, a random opponent, masked random actions): the bare core's
  random moves per second, and agent steps per second of the single-seat environment
  and of ``vector_env`` at 1, 16 and 256 tables (and at 256 with the information
  state, and at 256 against a `RandomPlayer`, a `Player` shown views), each as a ratio to the core's figure measured in the same run; and the codecs' microseconds per view, one at a time and
  in batches (``encode_batch``, ``mask_batch`` into the caller's arrays);
- with open_spiel installed, the OpenSpiel game: steps per second of random play
  through ``pyspiel`` (chance nodes included).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mexican_train import (
    COMPILED,
    HUB,
    STANDARD,
    PlayerView,
    RandomPlayer,
    Rules,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train.rl import ActionCodec, ObservationCodec, SingleSeatEnv, raw_env, vector_env

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


def core_moves(players: int, rules: Rules, games: int) -> Callable[[], int]:
    """The bare core: whole games of random legal moves (as ``benchmarks/run.py`` plays them)."""

    def work() -> int:
        moves = 0
        for seed in range(games):
            rng = random.Random(seed)
            state = new_game(players, rules, seed=seed)
            while not state.is_over:
                state = apply(state, rng.choice(legal_moves(state)))
                moves += 1
        return moves

    return work


def single_seat_random_steps(players: int, rules: Rules, games: int) -> Callable[[], int]:
    def work() -> int:
        rng = np.random.default_rng(0)
        opponents = [RandomPlayer(seed=seat) for seat in range(1, players)]
        game, steps = SingleSeatEnv(players=players, rules=rules, opponents=opponents), 0
        for seed in range(games):
            game.reset(seed=seed)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(game.action_masks())))
                _, _, done, _, _ = game.step(action)
                steps += 1
        return steps

    return work


def vector_steps(
    players: int,
    rules: Rules,
    tables: int,
    steps: int,
    information_state: bool = False,
    opponents: str | RandomPlayer = "random",
) -> Callable[[], int]:
    """Agent steps of ``vector_env``: masked random actions, chosen for all tables at once.

    The opponent is the built-in ``"random"`` (no view built) unless *opponents* says
    otherwise.  The tables are dealt once, before the clock starts; games that end during the
    run are dealt anew inside ``step`` (autoreset), and that is timed.
    """
    envs = vector_env(
        tables,
        players=players,
        rules=rules,
        opponents=opponents,
        information_state=information_state,
    )
    rng = np.random.default_rng(0)
    observation = envs.reset(seed=0)[0]

    def work() -> int:
        nonlocal observation
        for _ in range(steps):
            mask = observation["action_mask"]
            noise = rng.random(mask.shape, dtype=np.float32)
            noise += 1.0  # legal actions score 1 to 2, the others 0
            noise *= mask
            observation = envs.step(noise.argmax(axis=1))[0]
        return steps * tables

    return work


def batch_us(players: int, rules: Rules) -> dict[str, float]:
    """Microseconds per view of the batched codecs, over a round's views."""
    views = round_views(players, rules)
    observations, actions = ObservationCodec(rules, players), ActionCodec(rules, players)
    out = np.empty((len(views), *observations.shape), dtype=np.float32)
    masks = np.empty((len(views), actions.size), dtype=np.int8)
    result = {}
    for name, call in (
        ("encode_batch", lambda: observations.encode_batch(views, out=out)),
        ("mask_batch", lambda: actions.mask_batch(views, out=masks)),
    ):
        start = time.process_time()
        for _ in range(10):
            call()
        result[name] = (time.process_time() - start) / 10 / len(views) * 1e6
    return result


def scale(quick: bool, repeats: int) -> dict[str, float]:
    """The figures of the vector environment against the bare core, HUB with 2 players."""
    players, rules = 2, HUB
    core = timed(core_moves(players, rules, 1 if quick else 4), repeats)
    figures = {"core random moves/s": core}
    single = timed(single_seat_random_steps(players, rules, 1 if quick else 4), repeats)
    figures["single env steps/s"] = single
    figures["single env / core"] = single / core
    for tables in (1, 16, 256):
        steps = max((200 if quick else 4000) // tables, 4 if quick else 40)
        rate = timed(vector_steps(players, rules, tables, steps), repeats)
        figures[f"vector env {tables} steps/s"] = rate
        figures[f"vector env {tables} / core"] = rate / core
    steps = 4 if quick else 40
    rate = timed(vector_steps(players, rules, 256, steps, information_state=True), repeats)
    figures["info-state env 256 steps/s"] = rate
    figures["info-state env 256 / core"] = rate / core
    rate = timed(vector_steps(players, rules, 256, steps, opponents=RandomPlayer(seed=1)), repeats)
    figures["Player-opp env 256 steps/s"] = rate
    figures["Player-opp env 256 / core"] = rate / core
    codecs = codec_us(players, rules)
    figures["encode us"] = codecs["encode"]
    figures["encode / move"] = codecs["encode"] * core / 1e6
    figures["mask us"] = codecs["mask"]
    figures.update({f"{k} us/view": v for k, v in batch_us(players, rules).items()})
    return figures


def round_views(players: int, rules: Rules) -> list[PlayerView]:
    """The views of the seat to move, move by move, through the first round of a game."""
    state, rng = new_game(players, rules, seed=1), np.random.default_rng(1)
    views = []
    while not state.is_round_over:
        views.append(view(state, state.current_player or 0))
        moves = legal_moves(state)
        state = apply(state, moves[int(rng.integers(len(moves)))])
    return views


def codec_us(players: int, rules: Rules) -> dict[str, float]:
    """Microseconds per view of one ``encode`` and one ``mask``: the median of 5 passes.

    Each pass is over a round's views made anew (a view keeps what it has computed).
    """
    observations, actions = ObservationCodec(rules, players), ActionCodec(rules, players)
    result = {}
    for name, call in (("encode", observations.encode), ("mask", actions.mask)):
        passes = []
        for _ in range(5):
            views = round_views(players, rules)
            start = time.process_time()
            for mine in views:
                call(mine)
            passes.append((time.process_time() - start) / len(views) * 1e6)
        result[name] = statistics.median(passes)
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
    build = "compiled" if COMPILED else "pure Python"
    at_scale = scale(args.quick, repeats)
    print(f"At scale: HUB, 2 players, a random opponent ({build} build)")
    for name, value in at_scale.items():
        shown = f"{value:,.3f}" if "/ " in name or value < 100 else f"{value:,.0f}"
        print(f"  {name:28}{shown:>14}")
    print()
    results: dict[str, Any] = {"scale": at_scale, "build": build}
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
    table = {key: row for key, row in results.items() if key not in ("scale", "build")}
    columns = sorted({column for row in table.values() for column in row})
    print(f"{'':22}" + "".join(f"{column:>22}" for column in columns))
    for key, row in table.items():
        print(
            f"{key:22}" + "".join(f"{row.get(column, float('nan')):>22.0f}" for column in columns)
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
