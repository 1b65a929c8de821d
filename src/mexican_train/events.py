"""Events: what a move did, for front ends that animate the table (public API).

`apply_with_events` is `apply` that also says what happened; `derive_events`
works out the same from two states and the move between them.  Events are
frozen values; `mexican_train.serialize.to_json` writes them as JSON.  A drawn
tile is a secret (S5): pass events through `redact_events` before sending them
to a seat.

>>> from mexican_train import HUB, new_game, legal_moves
>>> from mexican_train.events import TilePlayed, apply_with_events
>>> state = new_game(2, HUB, seed=3)
>>> state, events = apply_with_events(state, legal_moves(state)[0])
>>> isinstance(events[0], TilePlayed)
True
"""

from ._formats.events import (
    DoubleClosed,
    DoubleOpened,
    Event,
    GameOver,
    LastTileCalled,
    MarkerPlaced,
    MarkerRemoved,
    OneTileLeft,
    Passed,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilePlayed,
    TurnStarted,
    apply_with_events,
    derive_events,
    redact_events,
)

__all__ = [
    "DoubleClosed",
    "DoubleOpened",
    "Event",
    "GameOver",
    "LastTileCalled",
    "MarkerPlaced",
    "MarkerRemoved",
    "OneTileLeft",
    "Passed",
    "RoundEnded",
    "RoundStarted",
    "TileDrawn",
    "TilePlayed",
    "TurnStarted",
    "apply_with_events",
    "derive_events",
    "redact_events",
]
