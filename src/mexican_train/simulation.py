"""Simulations: play many seeded games between players and summarise them.

`simulate` runs the games here, or on any `concurrent.futures.Executor`
(a process pool, or a Dask cluster's ``client.get_executor()``), and gives
the same `SimulationResult` either way.

>>> from mexican_train import HUB
>>> from mexican_train.players import GreedyPlayer, RandomPlayer
>>> from mexican_train.simulation import simulate
>>> result = simulate([GreedyPlayer(), RandomPlayer(seed=1)], HUB, games=6, seed=2)
>>> result.completed_games, sum(result.wins) >= 6
(6, True)
"""

from ._bots.simulate import (
    ILLEGAL_MOVES_KEPT,
    IllegalMove,
    PlayerStats,
    RuleCounters,
    SimulationInterrupted,
    SimulationResult,
    Summary,
    SupportsMap,
    game_seed,
    simulate,
)

__all__ = [
    "ILLEGAL_MOVES_KEPT",
    "IllegalMove",
    "PlayerStats",
    "RuleCounters",
    "SimulationInterrupted",
    "SimulationResult",
    "Summary",
    "SupportsMap",
    "game_seed",
    "simulate",
]
