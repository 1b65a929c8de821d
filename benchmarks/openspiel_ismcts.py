"""Compare OpenSpiel's ISMCTS on the OpenSpiel game with `SearchPlayer`, at equal time.

Run from the repository root, with the ``openspiel`` extra (Python 3.11 or later)::

    python benchmarks/openspiel_ismcts.py --deals 30 --simulations 24 --iterations 180
    python benchmarks/openspiel_ismcts.py --quick        # a smoke run: 1 deal, tiny budgets

Each game is one round of ``python_mexican_train`` (``rounds=1``), 4 players, the
preset ``HUB`` by default, one searcher against three `PlannerPlayer`\\ s.  The seats
rotate in full, as in ``tournament.py``: deal *d* is dealt by the chance outcomes of
``random.Random(d)`` and played four times, the searcher in seat 0, 1, 2 and 3 in turn,
once with each searcher:

- **ISMCTS**: OpenSpiel's Python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``)
  with its ``RandomRolloutEvaluator`` (one random playout to the end of the round), UCT,
  the final move the most visited, worlds from the game's ``resample_from_infostate``
  (a seeded sampler), *simulations* a decision;
- **SearchPlayer**: ``SearchPlayer(iterations=...)``, the library's determinized search,
  not told the round's events (``observe``): like the worlds of ``resample_from_infostate``,
  its worlds use nothing the play shows (a seat that passed held no playable tile).

Both budgets are counts, so a run is reproducible; "equal time" is a choice of the two
counts whose decisions take about the same CPU time, which the run prints: on the
development machine (pure-Python build) an ISMCTS simulation costs about 9 ms, a
SearchPlayer decision at 180 iterations about 0.2 s, hence the defaults.

For each round the figure is the searcher's points less the mean of its three
opponents' (E3; below 0 is better than the table; a planner in the searcher's seat
scores exactly 0 over a deal's four rounds).  Printed: each searcher's mean with a 95%
interval over the deals' means (mean +- 1.96 standard errors), the **paired difference**
ISMCTS - SearchPlayer on the same deals and seats, with its interval, and the median
and 90th percentile CPU time of a searched decision (more than one legal action): CPU
time, because the machine may be shared.  Only the public API is used.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from typing import Any

if sys.version_info < (3, 11):
    sys.exit("the openspiel extra needs Python 3.11 or later")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from options import non_negative_float, positive_int

from mexican_train import COMPILED, legal_moves, view
from mexican_train.openspiel import GAME_NAME
from mexican_train.players import PlannerPlayer, SearchPlayer
from mexican_train.rl import ActionCodec


def ismcts_bot(game: Any, simulations: int, seed: int, uct_c: float) -> Any:
    """Return OpenSpiel's ISMCTSBot, seeded, sampling worlds by a seeded sampler."""
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def play_round(game: Any, deal: int, seat: int, searcher: Any) -> tuple[list[int], list[float]]:
    """Play one round, *searcher* (ISMCTS or a Player) in *seat*; return the points, times."""
    codec = ActionCodec(game.rules, game.num_players())
    planner = PlannerPlayer()
    chance = random.Random(deal)
    state = game.new_initial_state()
    times: list[float] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, odds)[0])
            continue
        player = state.current_player()
        start = time.process_time()
        if player == seat and isinstance(searcher, ismcts.ISMCTSBot):
            action = int(searcher.step(state))
        else:
            mine = view(state.game_state, player)
            moves = legal_moves(mine)
            bot = searcher if player == seat else planner
            action = codec.encode(bot.choose(mine, moves), player)
        if player == seat and len(state.legal_actions()) > 1:
            times.append(time.process_time() - start)
        state.apply_action(action)
    return list(state.game_state.round_scores[-1]), times


def interval(values: list[float]) -> str:
    """Return the 95% normal interval of the mean of *values*, written; one value has none."""
    if len(values) < 2:
        return f"{'(one deal)':^18}"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"[{mean - half:+7.2f}, {mean + half:+7.2f}]"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=positive_int, default=30, help="deals, 4 rounds each (30)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's seed (0)")
    parser.add_argument(
        "--simulations", type=positive_int, default=24, help="ISMCTS's simulations a decision (24)"
    )
    parser.add_argument(
        "--iterations", type=positive_int, default=180, help="SearchPlayer's iterations (180)"
    )
    parser.add_argument(
        "--uct-c", type=non_negative_float, default=20.0, help="ISMCTS's UCT constant (20)"
    )
    parser.add_argument("--rules", default="hub", help="the variant (hub)")
    parser.add_argument("--quick", action="store_true", help="1 deal, 4 simulations, 24 iterations")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.simulations, args.iterations = 1, 4, 24
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "rules": args.rules, "rounds": 1})
    print(f"the core: {'compiled (mypyc)' if COMPILED else 'pure Python'}")
    print(
        f"{args.rules}, 4 players, one round; deals {args.first_deal} to "
        f"{args.first_deal + args.deals - 1}, 4 seats each; "
        f"ISMCTS {args.simulations} simulations, SearchPlayer {args.iterations} iterations "
        "a decision; vs three planners"
    )
    means: dict[str, list[float]] = {"ISMCTS": [], "SearchPlayer": []}
    times: dict[str, list[float]] = {"ISMCTS": [], "SearchPlayer": []}
    for deal in range(args.first_deal, args.first_deal + args.deals):
        for name in means:
            here = []
            for seat in range(4):
                searcher: Any = (
                    ismcts_bot(game, args.simulations, deal, args.uct_c)
                    if name == "ISMCTS"
                    else SearchPlayer(iterations=args.iterations)
                )
                points, taken = play_round(game, deal, seat, searcher)
                times[name] += taken
                others = [p for s, p in enumerate(points) if s != seat]
                here.append(points[seat] - statistics.fmean(others))
            means[name].append(statistics.fmean(here))
        print(
            f"deal {deal}: ISMCTS {means['ISMCTS'][-1]:+7.2f}, "
            f"SearchPlayer {means['SearchPlayer'][-1]:+7.2f}",
            flush=True,
        )
    print(f"{'searcher':13} {'rounds':>6} {'points - opponents':>20} {'95% CI':^18} "
          f"{'median':>9} {'p90':>9}")  # fmt: skip
    for name, values in means.items():
        print(
            f"{name:13} {4 * len(values):6} {statistics.fmean(values):+20.2f} "
            f"{interval(values)} {statistics.median(times[name]) * 1000:6.0f} ms "
            f"{percentile(times[name], 0.9) * 1000:6.0f} ms"
        )
    paired = [a - b for a, b in zip(means["ISMCTS"], means["SearchPlayer"], strict=True)]
    print(
        f"ISMCTS - SearchPlayer, paired by deal: {statistics.fmean(paired):+.2f} "
        f"{interval(paired).strip()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
