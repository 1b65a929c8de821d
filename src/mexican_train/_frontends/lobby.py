"""What the web table's lobby offers, how many tables it holds, and how long they live.

The lobby page asks ``GET /api/lobby`` what it may offer (`lobby_choices`) and makes a
table with ``POST /api/tables`` (`~mexican_train.web.lobby_table`); the server
(``app.py``) refuses a table while `MAX_TABLES` tables are served, or while
`MAX_TABLES_PER_CLIENT` of the lobby's tables made from that address are.  A table the
lobby made expires once nobody has played at it for `TABLE_IDLE` seconds
(`expiry_reason` says so to its people); the names of the newest `EXPIRED_KEPT` that
expired, or closed, are remembered.
"""

from __future__ import annotations

from typing import Any, Final

from .._bots.names import LEVELS
from .._catalogue.variants import variant_names

__all__ = [
    "EXPIRED_KEPT",
    "LOBBY_PLAYERS",
    "MAX_TABLES",
    "MAX_TABLES_PER_CLIENT",
    "NEVER_GIVEN",
    "TABLE_IDLE",
    "expiry_reason",
    "idle_words",
    "lobby_choices",
]

#: The most tables one server serves at once for its lobby to make one more, and the
#: most of the lobby's tables made from one address that may be served at once.
MAX_TABLES: Final = 200
MAX_TABLES_PER_CLIENT: Final = 20

#: Seconds a table the lobby made lives without a move or a new game: then it expires.
TABLE_IDLE: Final = 24 * 3600.0

#: How many names of the lobby's tables that expired or closed a server remembers, and of
#: those that expired its database keeps: the newest, to tell their links so.  Far more
#: than `MAX_TABLES`: while fewer tables than this are served at once, a name forgotten is
#: below the newest kept, which the lobby passes over with every name up to it, so no new
#: table takes it.
EXPIRED_KEPT: Final = 4096

#: Why a table of the lobby's expired that a server with a database kept but stopped
#: (killed) before it sent its links: nobody has them.
NEVER_GIVEN: Final = (
    "the server stopped as it made this table, before it sent its links: "
    "make a new one in the lobby"
)

#: The fewest and the most players of a table the lobby makes.
LOBBY_PLAYERS: Final = (2, 8)


def lobby_choices() -> dict[str, Any]:
    """Return what the lobby page offers: the rules, the house rules and the bots' levels.

    >>> lobby_choices()["levels"]
    ['easy', 'medium', 'hard']
    """
    return {"rules": list(variant_names()), "levels": list(LEVELS), "players": list(LOBBY_PLAYERS)}


def idle_words(seconds: float) -> str:
    """Return a length of time in words, as an expired table's reason says it.

    >>> idle_words(86400), idle_words(3600), idle_words(5400), idle_words(600)
    ('24 hours', '1 hour', '1.5 hours', '10 minutes')
    """
    if seconds >= 3600:
        count, unit = round(seconds / 3600, 2), "hour"
    elif seconds >= 60:
        count, unit = round(seconds / 60, 1), "minute"
    else:
        count, unit = round(seconds, 1), "second"
    return f"{count:g} {unit}{'' if count == 1 else 's'}"


def expiry_reason(idle: float) -> str:
    """Return what the server says of a table that expired after *idle* seconds unplayed.

    >>> expiry_reason(TABLE_IDLE)
    'nobody played at this table for 24 hours, so it has expired: make a new one in the lobby'
    """
    return (
        f"nobody played at this table for {idle_words(idle)}, so it has expired: "
        "make a new one in the lobby"
    )
