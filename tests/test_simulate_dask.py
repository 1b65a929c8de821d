"""`simulate` on a Dask cluster's executor gives the single-process numbers (extra ``[dask]``)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from distributed import Client, LocalCluster

from mexican_train import (
    STANDARD,
    GreedyPlayer,
    PlannerPlayer,
    Player,
    RandomPlayer,
    simulate,
)
from repo_scripts import load_script
from test_simulate import Remembering

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
def test_dasks_own_schedulers_give_the_same_result_as_one_process(scheduler: str) -> None:
    """Dask without ``distributed``: examples/simulation.py's DaskMap, a bag a batch a partition."""
    example = load_script(ROOT / "examples" / "simulation.py", "simulation_example")
    rules = attrs.evolve(STANDARD, max_pip=6)
    bots: list[Player] = [GreedyPlayer(), RandomPlayer(seed=2), Remembering()]
    alone = simulate(bots, rules, games=7, seed=5)
    for size in (1, 3, 7):
        on_dask = simulate(bots, rules, 7, 5, example.DaskMap(scheduler), batch_size=size)
        assert on_dask == alone
