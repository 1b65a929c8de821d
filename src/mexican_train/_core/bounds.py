"""The bounds of every number in every format: one table, read by every reader and validator.

A number a reader accepts must be one that every writer can write back: the JSON reader,
the notation reader and the constructors of `Rules` all check these bounds, and the JSON
Schema publishes them (``minimum``, ``maximum``; a test keeps the schema in step).  They
are the limits of the formats, not of the rules: a seat of 900 is within bounds and is
still refused by a game of four players, by the consistency checks.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .._core.errors import shown
from .._core.moves import MAX_TRAIN
from .._core.tiles import MAX_PIP, set_size

__all__ = ["BOUNDS", "FIELD_BOUNDS", "Bound", "first_out_of_bounds"]


@attrs.frozen
class Bound:
    """The whole numbers from *low* to *high*, both included, that a field may hold."""

    low: int
    high: int
    what: str  # the field, in words, for messages

    def __contains__(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high

    def refusal(self, value: object) -> str:
        """Return why *value* is refused, for a message."""
        return f"{self.what} is a whole number from {self.low} to {self.high}, not {shown(value)}"


_TILES: Final = set_size(MAX_PIP)  # 496: no count of tiles is larger

#: Every bound, by the name of the quantity.
BOUNDS: Final = {
    # Tiles and sets (S1): a tile's end, a train's open end, the set of a position.
    "pip": Bound(0, MAX_PIP, "a number on a tile"),
    "rules.max_pip": Bound(1, MAX_PIP, "the set (double-N)"),
    "hand_size": Bound(2, _TILES, "a hand size"),
    "tile_count": Bound(0, _TILES, "a count of tiles"),
    # Rounds (S2, V9).
    "rounds": Bound(1, MAX_PIP + 1, "a number of rounds"),
    "round_number": Bound(1, MAX_PIP + 1, "a round's number"),
    # Seats and trains: the notation writes at most 9 digits (P2).
    "players": Bound(1, MAX_TRAIN - 1, "a number of players"),
    "seat": Bound(0, MAX_TRAIN - 1, "a seat"),
    "train": Bound(-1, MAX_TRAIN - 1, "a train id"),
    "turn_count": Bound(0, MAX_TRAIN - 1, "a count of turns"),
    # Seeds (S6): 64 bits, either sign.
    "seed": Bound(-(2**64) + 1, 2**64 - 1, "a seed"),
    # Scores (E3, V7) and the last-tile penalty.  A round scores at most every pip of a
    # double-30 set plus the double-blank: 31 such rounds stay far inside the score bound.
    "score": Bound(-(10**9), 10**9, "a score"),
    "double_blank_score": Bound(-(10**6), 10**6, "the double-blank's score"),
    "last_tile_penalty": Bound(0, _TILES, "the last-tile penalty"),
}

#: Which bound each numeric attribute of a state, a view or an event holds to (lists and
#: tuples: each item).  Rules check their own fields (`Rules`' validators, the same table).
FIELD_BOUNDS: Final = {
    "players": BOUNDS["players"],
    "max_pip": BOUNDS["pip"],
    "hand_size": BOUNDS["hand_size"],
    "seed": BOUNDS["seed"],
    "round_number": BOUNDS["round_number"],
    "first_player": BOUNDS["seat"],
    "current_player": BOUNDS["seat"],
    "seat": BOUNDS["seat"],
    "winners": BOUNDS["seat"],
    "train": BOUNDS["train"],
    "open_end": BOUNDS["pip"],
    "turn_tiles": BOUNDS["tile_count"],
    "hand_sizes": BOUNDS["tile_count"],
    "boneyard_size": BOUNDS["tile_count"],
    "idle_turns": BOUNDS["turn_count"],
    "scores": BOUNDS["score"],
    "round_scores": BOUNDS["score"],
}


def first_out_of_bounds(value: object) -> tuple[tuple[str | int, ...], Bound, int] | None:
    """Return the path, bound and number of the first number of *value* out of its bound.

    *value* is a state's fields, a view or an event: an attrs record, or a class that
    names its fields in ``FIELDS`` (a view); only the fields of `FIELD_BOUNDS` are looked
    at, and the trains' open ends.  None when every number is inside its bound.
    """
    cls: Any = type(value)
    names = cls.FIELDS if hasattr(cls, "FIELDS") else [field.name for field in attrs.fields(cls)]
    for name in names:
        item = getattr(value, name)
        if name == "trains":
            for index, train in enumerate(item):
                if train.open_end not in BOUNDS["pip"]:
                    return (name, index, "open_end"), BOUNDS["pip"], train.open_end
            continue
        bound = FIELD_BOUNDS.get(name)
        if bound is None or item is None:
            continue
        found = _first_outside((name,), item, bound)
        if found is not None:
            return found[0], bound, found[1]
    return None


def _first_outside(
    path: tuple[str | int, ...], item: object, bound: Bound
) -> tuple[tuple[str | int, ...], int] | None:
    if type(item) is int:
        return None if item in bound else (path, item)
    if isinstance(item, tuple):
        for index, inner in enumerate(item):
            found = _first_outside((*path, index), inner, bound)
            if found is not None:
                return found
    return None
