"""Deal tables: which set and how many tiles each, by number of players (S1, V8)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, TypeVar

import attrs

from .bounds import BOUNDS
from .errors import DealError, shown
from .tiles import set_size

__all__ = ["TABLE_A", "TABLE_B", "DealTable"]


_K = TypeVar("_K")

#: The longest name of a deal table.
NAME_CHARS: Final = 60


def _read_only(rows: Mapping[_K, int]) -> Mapping[_K, int]:
    if not isinstance(rows, Mapping):
        raise TypeError(f"a deal table's rows are a dict, not {shown(rows)}")
    for key in rows:
        # Keys are compared to sort them, and read as numbers in every lookup.
        parts = key if isinstance(key, tuple) else (key,)
        if not parts or any(type(part) is not int for part in parts):
            raise TypeError(
                f"a deal table's keys are whole numbers or pairs of them, not {shown(key)}"
            )
    return MappingProxyType(dict(sorted(rows.items())))


# One converter per field, so that `DealTable`'s constructor takes each field's own type.
def _hand_sizes(rows: Mapping[tuple[int, int], int]) -> Mapping[tuple[int, int], int]:
    return _read_only(rows)


def _default_sets(rows: Mapping[int, int]) -> Mapping[int, int]:
    return _read_only(rows)


def _check_rows(table: DealTable) -> None:
    # S1: players >= 1, a set from double-0 to double-30, hands of at least 2 tiles,
    # and a default set for each player count of one range without gaps.
    if not isinstance(table.name, str):
        raise TypeError(f"DealTable.name is a str, not {shown(table.name)}")
    if not 1 <= len(table.name) <= NAME_CHARS:
        # Every message about the table starts with its name: a label, not a document.
        raise DealError(
            f"a deal table's name is 1 to {NAME_CHARS} characters, not {shown(table.name)}"
        )
    rows: Mapping[Any, Any] = table.hand_sizes  # untrusted until checked
    for key, size in rows.items():
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError(f"DealTable.hand_sizes has (players, max_pip) keys, not {shown(key)}")
        players, max_pip = key
        if players not in BOUNDS["players"] or max_pip not in BOUNDS["pip"]:
            raise DealError(
                f"{table.name}: a row is (players {BOUNDS['players'].words()}, set "
                f"{BOUNDS['pip'].words()}), not ({shown(players)}, {shown(max_pip)})"
            )
        if size not in BOUNDS["hand_size"]:
            raise DealError(
                f"{table.name}: a hand is {BOUNDS['hand_size'].words()} tiles, not {shown(size)} "
                f"(for {players} players with double-{max_pip})"
            )
    sets = table.default_sets
    for count in sets:
        if type(count) is not int:
            raise TypeError(
                f"DealTable.default_sets has player counts for keys, not {shown(count)}"
            )
    if not sets or len(sets) != max(sets) - min(sets) + 1 or min(sets) < 1:
        raise DealError(
            f"{table.name}: the default sets cover one range of player counts from 1 up, "
            f"without gaps, not {sorted(sets)[:20]}"
        )
    for players, max_pip in sets.items():
        if max_pip not in BOUNDS["pip"]:
            raise DealError(
                f"{table.name}: the default set for {players} players is double-N for N "
                f"{BOUNDS['pip'].words()}, not {shown(max_pip)}"
            )
    # Rows no game can use: a player count the table does not cover (its default sets
    # say which it does), or hands the set cannot deal even with the engine dealt too.
    # (A default set without a row is allowed: the rules then choose the hand size.)
    low, high = min(sets), max(sets)
    for (players, max_pip), size in rows.items():
        if not low <= players <= high:
            raise DealError(
                f"{table.name}: a row for {players} players with double-{max_pip}, but the "
                f"default sets cover {_counts(low, high)} players"
            )
        check_fit(players, max_pip, size, set_aside=0, table=table.name)


def _counts(low: int, high: int) -> str:
    # A range of player counts in words: "2-14", or "2" for one count.
    return str(low) if low == high else f"{low}-{high}"


@attrs.frozen(repr=False)
class DealTable:
    """A rulebook's deal table (S1): the set and hand size for each player count.

    Attributes:
        name: the table's name, used in error messages: 1 to 60 characters.
        hand_sizes: ``{(players, max_pip): tiles each}`` for every row of the table.
        default_sets: ``{players: max_pip}``: the set used when none is chosen.

    >>> TABLE_A.lookup(4)
    (12, 15)
    >>> TABLE_A.lookup(3, max_pip=6)
    (6, 7)
    >>> TABLE_B.lookup(6)
    (12, 12)

    Its repr is the call that builds it:

    >>> DealTable("Double-six", {(2, 6): 7, (3, 6): 7}, {2: 6, 3: 6})
    DealTable(name='Double-six', hand_sizes={(2, 6): 7, (3, 6): 7}, default_sets={2: 6, 3: 6})
    """

    name: str
    hand_sizes: Mapping[tuple[int, int], int] = attrs.field(converter=_hand_sizes, eq=False)
    default_sets: Mapping[int, int] = attrs.field(converter=_default_sets, eq=False)
    # Mappings are not hashable: compare and hash a sorted snapshot instead.
    _key: tuple[object, ...] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_rows(self)

    @_key.default
    def _make_key(self) -> tuple[object, ...]:
        return (tuple(sorted(self.hand_sizes.items())), tuple(sorted(self.default_sets.items())))

    @property
    def player_counts(self) -> range:
        """The player counts this table covers (S1).

        >>> TABLE_A.player_counts, TABLE_B.player_counts
        (range(2, 15), range(2, 13))
        """
        return range(min(self.default_sets), max(self.default_sets) + 1)

    def lookup(
        self, players: int, max_pip: int | None = None, hand_size: int | None = None
    ) -> tuple[int, int]:
        """Return ``(max_pip, hand_size)`` for *players*, filling what is None from the table.

        >>> TABLE_A.lookup(4), TABLE_A.lookup(4, max_pip=12, hand_size=10)
        ((12, 15), (12, 10))
        >>> TABLE_A.lookup(15)
        Traceback (most recent call last):
        ...
        mexican_train.DealError: Table A covers 2-14 players, not 15

        A hand size chosen must fit in the set (S1):

        >>> TABLE_A.lookup(4, max_pip=6, hand_size=10)
        Traceback (most recent call last):
        ...
        mexican_train.DealError: 4 players x 10 tiles = 40 tiles, but a double-6 set has only 28 to deal

        Raises:
            DealError: if the table does not cover *players*, or gives no hand size for
                that set and none was chosen, or the deal does not fit in the set, or
                *max_pip* is not a set's number (a whole number from 0 to 30) or
                *hand_size* not a whole number of at least 2.
        """
        return self._lookup(players, max_pip, hand_size, set_aside=0)

    def _lookup(
        self, players: int, max_pip: int | None, hand_size: int | None, *, set_aside: int
    ) -> tuple[int, int]:
        # `lookup`, for a deal with *set_aside* tiles taken out of the set first (S4):
        # the other table's figure is suggested only if it fits then (S1).
        if type(players) is not int or players not in self.player_counts:
            counts = _counts(self.player_counts.start, self.player_counts.stop - 1)
            raise DealError(f"{self.name} covers {counts} players, not {shown(players)}")
        if max_pip is None:
            max_pip = self.default_sets[players]
        elif type(max_pip) is not int or max_pip not in BOUNDS["pip"]:
            raise DealError(
                f"a set is double-N for N {BOUNDS['pip'].words()}, not max_pip={shown(max_pip)}"
            )
        if hand_size is not None:
            check_fit(players, max_pip, hand_size, set_aside=0)
        else:
            size = self.hand_sizes.get((players, max_pip))
            if size is None:
                listed = sorted(n for p, n in self.hand_sizes if p == players)
                sets = ", ".join(f"double-{n}" for n in listed) or "none"
                raise DealError(
                    f"{self.name} gives no hand size for {players} players with a "
                    f"double-{max_pip} set (it lists: {sets}); choose hand_size explicitly"
                    + self._elsewhere(players, max_pip, set_aside)
                )
            hand_size = size
        return max_pip, hand_size

    def _elsewhere(self, players: int, max_pip: int, set_aside: int) -> str:
        """The other rulebook's figure for a row this table lacks, in words (S1), or "":
        only a figure that fits in the set with *set_aside* tiles taken out (S4)."""
        available = set_size(max_pip) - set_aside
        for other in (TABLE_A, TABLE_B):
            size = other.hand_sizes.get((players, max_pip))
            if other.name != self.name and size is not None and players * size <= available:
                return f" ({other.name} deals {size} tiles each to {players} players with that set)"
        return ""

    def __repr__(self) -> str:
        # The call that builds it: plain dicts, which the read-only views are made from.
        return (
            f"DealTable(name={self.name!r}, hand_sizes={dict(self.hand_sizes)!r}, "
            f"default_sets={dict(self.default_sets)!r})"
        )

    def __reduce__(self) -> tuple[type[DealTable], tuple[str, dict[Any, int], dict[int, int]]]:
        # A mappingproxy does not pickle: rebuild from plain dicts, so that Rules and
        # states can be sent to other processes (simulate with an executor).
        return (DealTable, (self.name, dict(self.hand_sizes), dict(self.default_sets)))


def check_fit(
    players: int, max_pip: int, hand_size: int, *, set_aside: int, table: str = ""
) -> None:
    """Raise `DealError` unless *players* hands of *hand_size* fit in the set (S1).

    *table* names the deal table whose row is checked, for the message.
    """
    if type(hand_size) is not int or hand_size < 2:
        raise DealError(f"a hand is at least 2 tiles, not {hand_size!r}")
    available = set_size(max_pip) - set_aside
    if players * hand_size > available:
        raise DealError(
            (f"{table}: " if table else "")
            + f"{players} player{'s' * (players != 1)} x {hand_size} tiles = "
            f"{players * hand_size} tiles, but a "
            f"double-{max_pip} set has only {available} to deal"
            + (" once the engine is set aside" if set_aside else "")
        )


def _rows(players: range, max_pip: int, size: int) -> dict[tuple[int, int], int]:
    return {(p, max_pip): size for p in players}


#: Rulebook A's deal table (S1, Table A): 2-14 players.
TABLE_A = DealTable(
    name="Table A",
    hand_sizes={
        **_rows(range(2, 5), 6, 7),
        **_rows(range(2, 4), 9, 15),
        (4, 12): 15,
        **_rows(range(5, 7), 12, 12),
        **_rows(range(7, 9), 12, 11),
        **_rows(range(9, 13), 15, 11),
        **_rows(range(13, 15), 18, 11),
    },
    default_sets={
        **dict.fromkeys(range(2, 4), 9),
        **dict.fromkeys(range(4, 9), 12),
        **dict.fromkeys(range(9, 13), 15),
        **dict.fromkeys(range(13, 15), 18),
    },
)

#: Rulebook B's deal table (S1, Table B): 2-12 players.  Rulebook B names no hand
#: size for 9-12 players; decision (S1): a double-15 set and 11 tiles each.
TABLE_B = DealTable(
    name="Table B",
    hand_sizes={
        (2, 12): 16,
        (3, 12): 16,
        (4, 12): 15,
        (5, 12): 14,
        (6, 12): 12,
        (7, 12): 10,
        (8, 12): 9,
        (2, 9): 15,
        (3, 9): 13,
        (4, 9): 10,
        **_rows(range(9, 13), 15, 11),
    },
    default_sets={**dict.fromkeys(range(2, 9), 12), **dict.fromkeys(range(9, 13), 15)},
)
