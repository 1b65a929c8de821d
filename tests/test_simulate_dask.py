"""`simulate` on a Dask cluster's executor gives the single-process numbers (extra ``[dask]``)."""

from __future__ import annotations

import attrs
from distributed import Client, LocalCluster

from mexican_train import (
    STANDARD,
    GreedyPlayer,
    Move,
    PlannerPlayer,
    Player,
    PlayerView,
    RandomPlayer,
    simulate,
)


class Remembering:
    """A player of a user's own, with a memory: chooses by the moves and events it has seen."""

    def __init__(self) -> None:
        self.seen = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        self.seen += 1
        return moves[self.seen % len(moves)]

    def observe(self, events: tuple[object, ...]) -> None:
        self.seen += len(events)


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
