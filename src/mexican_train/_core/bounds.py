"""The bounds of every number: one table, read by every reader, constructor and entry point.

A number a reader accepts must be one that every writer can write back: the JSON reader,
the notation reader and the constructors of `Rules` all check these bounds, and the JSON
Schema publishes them (``minimum``, ``maximum``; a test keeps the schema in step).  They
are the limits of the formats, not of the rules: a seat of 900 is within bounds and is
still refused by a game of four players, by the consistency checks.  The functions that
take a number from a caller (a seed, a bot's budget, a set) check it with `check_bound`,
against the same table, so that every entry point accepts the same numbers.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .errors import SHOWN_BITS, InvalidArgumentError, shown

__all__ = [
    "BOUNDS",
    "FIELD_BOUNDS",
    "MAX_DEPTH",
    "MAX_PIP",
    "MAX_TRAIN",
    "Bound",
    "bounded",
    "check_bound",
    "first_out_of_bounds",
]

#: The largest number a tile may show, so the largest set is double-30 (496 tiles).
#: Sets sold stop at double-18 or double-21; the cap keeps a typo (or a hostile
#: document) from building a set of millions.
MAX_PIP: Final = 30

#: Train ids stop below this: no table seats a billion players, and the bound keeps
#: absurd ids out of every message (the notation writes at most 9 digits).
MAX_TRAIN: Final = 1_000_000_000

#: Every reader refuses input nested deeper than this, before reading it, so that none can
#: recurse without end: a JSON document's objects and arrays (a record's deal table is the
#: deepest field, 5 levels down), a notation's brackets in the rules field (2 levels today),
#: a request's body in the web table.
MAX_DEPTH: Final = 32


@attrs.frozen
class Bound:
    """The whole numbers from *low* to *high*, both included, that a field may hold."""

    low: int
    high: int
    what: str  # the field, in words, for messages
    span: str = ""  # the range in words, where plainer than "from low to high"

    def __contains__(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high

    def words(self) -> str:
        """Return the range in words: ``"from 0 to 30"``, or the plainer *span*."""
        return self.span or f"from {self.low} to {self.high}"

    def refusal(self, value: object) -> str:
        """Return why *value* is refused, for a message."""
        return f"{self.what} is a whole number {self.words()}, not {shown(value)}"


_TILES: Final = (MAX_PIP + 1) * (MAX_PIP + 2) // 2  # 496: no count of tiles is larger

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
    "highest_engine": Bound(0, MAX_PIP, "the highest engine"),
    # Seats and trains: the notation writes at most 9 digits (P2).
    "players": Bound(1, MAX_TRAIN - 1, "a number of players"),
    "seat": Bound(0, MAX_TRAIN - 1, "a seat"),
    "train": Bound(-1, MAX_TRAIN - 1, "a train id"),
    "turn_count": Bound(0, MAX_TRAIN - 1, "a count of turns"),
    # Seeds (S6): 64 bits, either sign.
    "seed": Bound(-(2**64) + 1, 2**64 - 1, "a seed", "of at most 64 bits"),
    # An environment's seed seeds numpy's generator, as Gymnasium does: never below 0.
    "env_seed": Bound(0, 2**64 - 1, "an environment's seed", "from 0, of at most 64 bits"),
    # Scores (E3, V7) and the last-tile penalty.  A round scores at most every pip of a
    # double-30 set plus the double-blank: 31 such rounds stay far inside the score bound.
    "score": Bound(-(10**9), 10**9, "a score"),
    "double_blank_score": Bound(-(10**6), 10**6, "the double-blank's score"),
    "last_tile_penalty": Bound(0, _TILES, "the last-tile penalty"),
    # Input nesting: JSON documents, request bodies, the notation's brackets; and the
    # length of a number in a JSON document, checked before any field is read.
    "depth": Bound(0, MAX_DEPTH, "a depth of nesting"),
    "bits": Bound(0, SHOWN_BITS, "a number's length in bits"),
    # Bots and simulations: budgets large enough for any use, small enough that a typo
    # cannot make one call run for days (a million playouts take hours already).
    "endgame": Bound(0, _TILES, "an opponent's hand size"),
    "max_nodes": Bound(1, 10**9, "a search budget in nodes"),
    "iterations": Bound(1, 10**6, "a number of playouts"),
    "games": Bound(1, 10**7, "a number of games"),
    # The web table's version: a count of its changes, sent back with a move.
    "version": Bound(0, 10**12 - 1, "a table's version"),
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


def check_bound(name: str, value: object, argument: str) -> int:
    """Return *value* if it is a whole number inside ``BOUNDS[name]``.

    The one check of a number a caller passes in; *argument* names it in the message,
    which shows the value (shortened if too long to write, `shown`).

    Raises:
        InvalidArgumentError: if *value* is not a whole number (a bool is not one)
            inside the bound.

    >>> check_bound("seed", 7, "seed")
    7
    >>> check_bound("seed", -(2**64), "RandomPlayer.seed")
    Traceback (most recent call last):
    ...
    mexican_train.InvalidArgumentError: RandomPlayer.seed is a whole number of at most 64 bits, not -18446744073709551616
    """
    bound = BOUNDS[name]
    if type(value) is int and bound.low <= value <= bound.high:
        return value
    raise InvalidArgumentError(f"{argument} is a whole number {bound.words()}, not {shown(value)}")


def bounded(name: str) -> Any:
    """Return an attrs validator: the field holds a whole number inside ``BOUNDS[name]``.

    The message names the field as ``Class.field`` (`check_bound`).
    """

    def check(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
        check_bound(name, value, f"{type(instance).__name__}.{attribute.name}")

    return check


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
