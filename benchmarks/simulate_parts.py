"""Time each part of a `simulate` decision, on recorded decisions, and `simulate` itself.

Run from the repository root (any build: it prints which one it timed)::

    python benchmarks/simulate_parts.py            # 8,000 decisions, 15 rounds of timing
    python benchmarks/simulate_parts.py --quick    # a smoke run, noisy

It plays 4-player `HUB` games of four `RandomPlayer`\\ s (deals from `game_seed`, as
`simulate` does) and records every decision: the state, the seat, its view, the legal
moves, the move and the next state.  Then it times, per decision, each part of
`simulate`'s loop on those same decisions: `view`, `legal_moves` (cached by `apply`, as
in the loop), `RandomPlayer.choose`, `apply` and the statistics' tally
(``mexican_train._bots.simulate._Tally``, a private class: this times the implementation, it
is not an example of the API).  Each figure is the best of the rounds of timing, less the
cost of the bare loop over the decisions, divided by the decisions.  Last, `simulate`'s
games per second on one core (the median of 5 runs, in CPU time), the figure
``benchmarks/run.py`` also gives.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import mexican_train
from mexican_train import (
    HUB,
    GameState,
    Move,
    NextRound,
    PlayerView,
    RandomPlayer,
    apply,
    legal_moves,
    new_game,
    simulate,
    view,
)
from mexican_train._bots.simulate import _Tally
from mexican_train.simulation import game_seed

Decision = tuple[GameState, int, PlayerView, tuple[Move, ...], Move, GameState]


def record(count: int) -> list[Decision]:
    """Return the first *count* decisions of simulate's games of four RandomPlayers."""
    players = [RandomPlayer(seed=seat) for seat in range(4)]
    decisions: list[Decision] = []
    game = 0
    while len(decisions) < count:
        state = new_game(4, HUB, seed=game_seed(0, game))
        game += 1
        while not state.is_over and len(decisions) < count:
            seat = state.current_player
            if seat is None:
                state = apply(state, NextRound())
                continue
            moves = legal_moves(state)
            mine = view(state, seat)
            move = players[seat].choose(mine, moves)
            after = apply(state, move)
            decisions.append((state, seat, mine, moves, move, after))
            state = after
    return decisions


def parts(decisions: list[Decision], rounds: int) -> dict[str, float]:
    """Return the µs per decision of each part of simulate's loop."""
    player = RandomPlayer(seed=0)

    def bare() -> None:
        for _ in decisions:
            pass

    def viewing() -> None:
        for state, seat, _, _, _, _ in decisions:
            view(state, seat)

    def listing() -> None:
        for state, _, _, _, _, _ in decisions:
            legal_moves(state)

    def choosing() -> None:
        choose = player.choose
        for _, _, mine, moves, _, _ in decisions:
            choose(mine, moves)

    def applying() -> None:
        for state, _, _, _, move, _ in decisions:
            apply(state, move)

    def tallying() -> None:
        count = _Tally(HUB).record
        for state, seat, _, _, move, after in decisions:
            count(state, move, after, seat)

    timed: dict[str, Callable[[], None]] = {
        "loop": bare,
        "view": viewing,
        "legal_moves": listing,
        "RandomPlayer.choose": choosing,
        "apply": applying,
        "tally": tallying,
    }
    best = dict.fromkeys(timed, float("inf"))
    for _ in range(rounds):  # interleaved, so that a busy moment bills every part alike
        for name, function in timed.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    loop = best.pop("loop")
    return {name: (seconds - loop) / len(decisions) * 1e6 for name, seconds in best.items()}


def games_per_second(games: int) -> float:
    """Return simulate's games per second, four RandomPlayers under HUB, on one core."""
    players = [RandomPlayer(seed=seat) for seat in range(4)]
    simulate(players, HUB, games=1, seed=0)  # warm up
    rates = []
    for repeat in range(5):
        start = time.process_time()
        simulate(players, HUB, games=games, seed=repeat)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer of everything")
    args = parser.parse_args(argv)
    count, rounds, games = (500, 2, 1) if args.quick else (8000, 15, 12)
    build = "compiled" if mexican_train.COMPILED else "pure Python"
    print(f"mexican_train {mexican_train.__version__}, {build}, at {mexican_train.__file__}")
    decisions = record(count)
    print(f"µs per decision, best of {rounds}, over {len(decisions):,} recorded decisions:")
    for name, micros in parts(decisions, rounds).items():
        print(f"  {name:<20} {micros:6.2f}")
    print(f"simulate, 4 RandomPlayers, HUB, 1 core: {games_per_second(games):.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
