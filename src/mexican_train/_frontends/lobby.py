"""What the web table's lobby offers, and how many tables it makes.

The lobby page asks ``GET /api/lobby`` what it may offer (`lobby_choices`) and makes a
table with ``POST /api/tables`` (`~mexican_train.web.lobby_table`); the server
(``app.py``) refuses a table past `MAX_TABLES`, or past `MAX_TABLES_PER_CLIENT` from one
address.
"""

from __future__ import annotations

from typing import Any, Final

from .._bots.names import LEVELS
from .._catalogue.variants import variant_names

__all__ = ["LOBBY_PLAYERS", "MAX_TABLES", "MAX_TABLES_PER_CLIENT", "lobby_choices"]

#: The most tables the lobby of one server makes, and the most one address makes.
MAX_TABLES: Final = 200
MAX_TABLES_PER_CLIENT: Final = 20

#: The fewest and the most players of a table the lobby makes.
LOBBY_PLAYERS: Final = (2, 8)


def lobby_choices() -> dict[str, Any]:
    """Return what the lobby page offers: the rules, the house rules and the bots' levels.

    >>> lobby_choices()["levels"]
    ['easy', 'medium', 'hard']
    """
    return {"rules": list(variant_names()), "levels": list(LEVELS), "players": list(LOBBY_PLAYERS)}
