"""The library's bots by name, and the one name every report gives a player.

The command line's ``--bots``, the simulation's results, the web table and the games
the command line narrates all name a player with `player_name`, and the command line
makes the bots it names from `BOTS`: one table, here, above every bot it holds.
"""

from __future__ import annotations

from typing import Any, Final, cast

import attrs

from .players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from .search import SearchPlayer

__all__ = ["BOTS", "player_name"]

#: The library's bots by the name they go by, each made with no arguments by default.
BOTS: Final[dict[str, type[Player]]] = {
    "planner": PlannerPlayer,
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
    "search": SearchPlayer,
}
_NAMES: Final[dict[type, str]] = {bot: name for name, bot in BOTS.items()}


def player_name(player: object) -> str:
    """Return the name reports, the command line and the web table use for *player*.

    Its ``name`` attribute if it has one; the library's bots are ``planner``,
    ``greedy``, ``random`` and ``search``, with any setting that is not the default in
    brackets; any other player goes by its class's name.

    >>> from mexican_train.players import PlannerPlayer, RandomPlayer, SearchPlayer
    >>> player_name(PlannerPlayer()), player_name(RandomPlayer(seed=3))
    ('planner', 'random(seed=3)')
    >>> player_name(SearchPlayer(iterations=50))
    'search(iterations=50)'
    >>> class HeavyFirst:
    ...     def choose(self, view, moves):
    ...         return moves[0]
    >>> player_name(HeavyFirst())
    'HeavyFirst'
    """
    name = getattr(player, "name", None)
    if isinstance(name, str):
        return name
    short = _NAMES.get(type(player))
    if short is None:
        return type(player).__name__
    changed = [
        f"{field.name}={getattr(player, field.name)!r}"
        for field in attrs.fields(cast(Any, type(player)))
        if field.init and getattr(player, field.name) != field.default
    ]
    return f"{short}({', '.join(changed)})" if changed else short
