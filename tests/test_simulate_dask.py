"""`simulate` on a Dask cluster's executor gives the single-process numbers (extra ``[dask]``)."""

from __future__ import annotations

import attrs
from distributed import Client, LocalCluster

from mexican_train import (
    STANDARD,
    GreedyPlayer,
    PlannerPlayer,
    Player,
    RandomPlayer,
    simulate,
)
from test_simulate import Remembering


def test_a_dask_cluster_gives_the_same_result_as_one_process() -> None:
    rules = attrs.evolve(STANDARD, max_pip=6)
    bots: list[Player] = [GreedyPlayer(), RandomPlayer(seed=2), PlannerPlayer(), Remembering()]
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        on_dask = simulate(bots, rules, games=12, seed=5, executor=client.get_executor())
        in_batches = simulate(
            bots, rules, games=12, seed=5, executor=client.get_executor(), batch_size=5
        )
    alone = simulate(bots, rules, games=12, seed=5)
    assert on_dask == alone
    assert in_batches == alone
    assert on_dask.completed_games == 12
