"""An explicit deal: each seat's hand and the boneyard, for teaching and tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from .tiles import Tile, TileNotationError

__all__ = ["Deal"]


def _sequence(values: object, what: str) -> tuple[Any, ...]:
    # A str is iterable, but "6-5" is one tile, not a list of them.
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{what} is a list, not {values!r}")
    return tuple(values)


def tiles_of(
    values: Iterable[Tile | str], what: str = "Deal.boneyard", listed: str | None = None
) -> tuple[Tile, ...]:
    """Return *values* as tiles (`Tile` values or ``"a-b"`` strs); *what* names them in errors.

    *listed* names the whole list when it is not a list (by default, *what* as a list of tiles).
    """
    if type(values) is tuple and all(type(value) is Tile for value in values):
        return values  # already tiles: the common case, kept cheap
    tiles = []
    for index, value in enumerate(_sequence(values, listed or f"{what} (a list of tiles)")):
        if isinstance(value, Tile):
            tiles.append(value)
        elif isinstance(value, str):
            try:
                tiles.append(Tile.parse(value))
            except TileNotationError as error:
                raise TileNotationError(f"{what}[{index}]: {error}") from None
        else:
            raise TypeError(f"{what}[{index}] is a Tile or an 'a-b' str, not {value!r}")
    return tuple(tiles)


def _hands(values: Iterable[Iterable[Tile | str]]) -> tuple[tuple[Tile, ...], ...]:
    hands = _sequence(values, "Deal.hands (a list of hands, one per seat)")
    return tuple(tiles_of(hand, f"Deal.hands[{seat}]") for seat, hand in enumerate(hands))


@attrs.frozen
class Deal:
    """An explicit deal, for teaching and tests: each seat's hand and the boneyard.

    Tiles may be given as `Tile` values or written ``"a-b"``.  The boneyard is in
    draw order: its first tile is drawn first.  Under S3 (`STANDARD`) the engine
    is in a hand or the boneyard; under S4 (`HUB`) it is not in the deal at all.
    `new_game` refuses a deal with missing, repeated or foreign tiles, or hands
    of the wrong size.

    Raises:
        TileNotationError: if a tile is written wrong (``"6-x"``).
        TypeError: if *hands* is not a list of lists of tiles, or *boneyard* a list of tiles.

    >>> Deal([["6-5", "4-4"], ["3-2", "1-0"]], ["6-6"]).hands[0]
    (Tile(6, 5), Tile(4, 4))
    """

    hands: tuple[tuple[Tile, ...], ...] = attrs.field(converter=_hands)
    boneyard: tuple[Tile, ...] = attrs.field(converter=tiles_of)
