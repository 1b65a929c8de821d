"""JSON documents for states, views, moves, records and events (public API).

Every document is a JSON object with ``"schema": "mexican-train/2"`` and a
``"type"``; its other fields mirror the Python value.  `to_json` writes one;
`from_json` (or the typed readers) reads one back, checking every field, since
documents usually come from outside.  The JSON Schema is published with the
package: `json_schema` returns it.  See ``docs/reference/json.rst``.

>>> import json
>>> from mexican_train import HUB, new_game, view
>>> from mexican_train.serialize import to_json, view_from_json
>>> mine = view(new_game(4, HUB, seed=1), 0)
>>> text = json.dumps(to_json(mine))
>>> view_from_json(json.loads(text)) == mine
True
"""

from ._formats.serialize import (
    SCHEMA_VERSION,
    SchemaError,
    event_from_json,
    from_json,
    json_schema,
    move_from_json,
    record_from_json,
    state_from_json,
    to_json,
    view_from_json,
)

__all__ = [
    "SCHEMA_VERSION",
    "SchemaError",
    "event_from_json",
    "from_json",
    "json_schema",
    "move_from_json",
    "record_from_json",
    "state_from_json",
    "to_json",
    "view_from_json",
]
