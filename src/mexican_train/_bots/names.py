"""The library's bots by name, and the one name every report gives a player.

The command line's ``--bots``, the simulation's results, the web table and the games
the command line narrates all name a player with `player_name`, and the command line
makes the bots it names from `BOTS`: one table, here, above every bot it holds.  The
table also holds the levels for people, ``easy``, ``medium`` and ``hard`` (`LEVELS`).
Where a person chose a bot by name (``--bots hard``, the lobby's level), the front ends
show that name, in lower case: ``seat 1 (hard)``, not the ``search`` bot it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, cast

import attrs

from .._core.errors import InvalidArgumentError, shown
from .players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from .search import SearchPlayer

__all__ = ["BOTS", "BOT_TIMER", "LEVELS", "make_bot", "player_name"]

_BY_NAME: Final[dict[str, type[Player]]] = {
    "planner": PlannerPlayer,
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
    "search": SearchPlayer,
}
#: The levels for people, weakest first, and the bot each stands for: ``easy`` plays
#: the heaviest tile it can (greedy), ``medium`` plans its own train and sheds pips
#: (planner), ``hard`` searches 180 playouts a decision (search, the default budget).
#: Read-only, as `~mexican_train.VARIANTS` is: the front ends and `make_bot` read it alike.
LEVELS: Final[Mapping[str, str]] = MappingProxyType(
    {"easy": "greedy", "medium": "planner", "hard": "search"}
)
#: Every bot and level by the name it goes by, each a callable that makes a fresh player.
BOTS: Final[dict[str, Callable[[], Player]]] = {
    **_BY_NAME,
    **{level: _BY_NAME[bot] for level, bot in LEVELS.items()},
}
#: The seconds a bot has for each move at the web table unless told otherwise
#: (``WebTable.bot_timer``, ``serve --bot-timer``): a minute, some sixty times the longest
#: move measured of the library's bots at their default settings, pure Python, 2 to 14
#: players (a search decision late in a round of fourteen players, about a second).
BOT_TIMER: Final = 60.0
_NAMES: Final[dict[type, str]] = {bot: name for name, bot in _BY_NAME.items()}


def make_bot(name: str) -> Player:
    """Return a fresh player of the bot or level *name* (any case).

    >>> make_bot("hard"), make_bot("Easy")
    (SearchPlayer(iterations=180, seed=0, seconds=None, inference=True, replan=True), GreedyPlayer())

    Raises:
        InvalidArgumentError: if *name* is not the name of a bot or a level.
    """
    maker = BOTS.get(name.lower()) if isinstance(name, str) else None
    if maker is None:
        raise InvalidArgumentError(
            f"no bot named {shown(name)}; the bots and levels are {', '.join(BOTS)}"
        )
    return maker()


def player_name(player: object) -> str:
    """Return the name reports, the command line and the web table use for *player*.

    Its ``name`` attribute if it has one; the library's bots are ``planner``,
    ``greedy``, ``random`` and ``search``, with any setting that is not the default in
    brackets; any other player goes by its class's name.  It names the player, not the
    level it was chosen by: ``make_bot("hard")`` is ``search`` here, and the front ends
    that made it by a name show that name instead.

    >>> from mexican_train.players import PlannerPlayer, RandomPlayer, SearchPlayer
    >>> player_name(PlannerPlayer()), player_name(RandomPlayer(seed=3))
    ('planner', 'random(seed=3)')
    >>> player_name(SearchPlayer(iterations=50))
    'search(iterations=50)'
    >>> class HeavyFirst:
    ...     def choose(self, view, moves):
    ...         return moves[0]
    ...
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
