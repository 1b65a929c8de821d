"""Run a small tournament, in this process, in a process pool, and (with --dask) on Dask.

The three runs give exactly the same statistics: every game has its own seed,
derived from the simulation's seed, and the results are summed, in any order.

    python examples/simulation.py            # here and in a process pool
    python examples/simulation.py --dask     # also on a local Dask cluster

--dask needs the ``dask`` extra (``pip install 'mexican-train[dask]'``).  It uses a
``distributed.LocalCluster``; with Dask alone, without ``distributed``, Dask's own
process scheduler (`DaskMap`).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from mexican_train import HUB, GreedyPlayer, PlannerPlayer, RandomPlayer, simulate

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


class DaskMap:
    """Play `simulate`'s batches with Dask's own scheduler, ``"processes"`` or ``"threads"``.

    For Dask without ``distributed``: ``map`` computes a bag of the batches, one
    partition each, and gives a result for each batch, as `simulate`'s *executor* must
    (`mexican_train.simulation.SupportsMap`), in order (any order gives the same
    result).  It returns once every batch it is given is played, so `simulate`'s
    progress comes all at once, a window of 4,096 batches at a time.
    """

    def __init__(self, scheduler: str = "processes") -> None:
        self.scheduler = scheduler

    def map(self, function: Callable[[_Item], _Result], items: list[_Item], /) -> list[_Result]:
        import dask.bag

        bag = dask.bag.from_sequence(items, npartitions=len(items))
        return list(bag.map(function).compute(scheduler=self.scheduler))


def main(games: int = 12, dask: bool = False) -> None:
    players = [RandomPlayer(seed=1), GreedyPlayer(), PlannerPlayer(), GreedyPlayer()]
    here = simulate(players, HUB, games, seed=7)
    print(here.report())
    for stats in here.player_stats:
        print(f"{stats.name}: {stats.score.mean:.1f} ± {stats.score.margin:.1f} points a game")

    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate(players, HUB, games, seed=7, executor=pool)
    print("process pool gives the same result:", pooled == here)
    assert pooled == here

    if dask and importlib.util.find_spec("distributed") is None:
        on_dask = simulate(players, HUB, games, seed=7, executor=DaskMap("processes"))
        print("Dask's process scheduler gives the same result:", on_dask == here)
        assert on_dask == here
    elif dask:
        # pip install 'mexican-train[dask]'; with a real cluster, use Client("scheduler:8786").
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
        with cluster, Client(cluster) as client:
            on_dask = simulate(players, HUB, games, seed=7, executor=client.get_executor())
        print("Dask gives the same result:", on_dask == here)
        assert on_dask == here


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster")
    args = parser.parse_args()
    if args.dask and importlib.util.find_spec("dask") is None:
        sys.exit("--dask needs the dask extra: pip install 'mexican-train[dask]'")
    main(dask=args.dask)
