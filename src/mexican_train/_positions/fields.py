"""The public fields of a state, a train and a view, as plain attrs records, for the readers.

`GameState` and `Train` keep their values in a compact layout (see ``_core.state``)
that cannot hold every inconsistent input: a hand that lists a tile twice, for
one.  The readers of text and JSON (`mexican_train.notation`,
`mexican_train.serialize`) first build these records, field for field, check them
(``check.check_state`` reads the same names), and only then build the value.
"""

from __future__ import annotations

import attrs

from .._core.rules import Rules
from .._core.state import GameState, Train, owner_played_default, state_from_fields
from .._core.tiles import Tile
from .._core.view import PlayerView, view_from_fields

__all__ = ["StateFields", "TrainFields", "ViewFields", "fields_of", "sorted_hands"]


@attrs.frozen
class TrainFields:
    """A train's public fields, as read (see `Train`)."""

    tiles: tuple[Tile, ...]
    open_end: int
    marked: bool = False
    owner_played: bool | None = None  # None: not written (`owner_played_default`)

    @property
    def is_started(self) -> bool:
        """Whether any tile has been played on it."""
        return bool(self.tiles)

    def build(self, is_mexican: bool = False) -> Train:
        """Return the `Train` with these fields (the Mexican train's if *is_mexican*)."""
        owner = self.owner_played
        if owner is None:
            owner = owner_played_default(self.tiles, is_mexican)
        return Train(self.tiles, self.open_end, self.marked, owner)


@attrs.frozen
class StateFields:
    """A state's public fields, as read (see `GameState`), not yet checked."""

    rules: Rules
    players: int
    max_pip: int
    hand_size: int
    seed: int
    round_number: int
    engine: Tile
    first_player: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    trains: tuple[Train, ...]
    current_player: int | None
    had_first_turn: tuple[bool, ...]
    turn_tiles: int
    has_drawn: bool
    turn_doubles: tuple[int, ...]
    open_doubles: tuple[int, ...]
    idle_turns: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    is_over: bool
    last_tile_called: bool = False

    @property
    def rounds(self) -> int:
        """The number of rounds in the game (S2, V9)."""
        return self.rules.round_count(self.max_pip)

    @property
    def boneyard_size(self) -> int:
        """The number of tiles left to draw."""
        return len(self.boneyard)

    def build(self) -> GameState:
        """Return the `GameState` with these fields (check them first)."""
        return state_from_fields(*attrs.astuple(self, recurse=False))


@attrs.frozen
class ViewFields:
    """A view's fields, as JSON reads and writes them (see `PlayerView`, same order)."""

    rules: Rules
    players: int
    max_pip: int
    hand_size: int
    round_number: int
    engine: Tile
    first_player: int
    seat: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    trains: tuple[Train, ...]
    current_player: int | None
    had_first_turn: tuple[bool, ...]
    turn_tiles: int
    has_drawn: bool
    turn_doubles: tuple[int, ...]
    open_doubles: tuple[int, ...]
    idle_turns: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    is_over: bool
    open_hands: tuple[tuple[Tile, ...], ...] | None = None
    last_tile_called: bool = False

    @classmethod
    def of(cls, view: PlayerView) -> ViewFields:
        """Return the fields of *view*."""
        return cls(*[getattr(view, name) for name in PlayerView.FIELDS])

    def build(self, *, as_written: bool = False) -> PlayerView:
        """Return the `PlayerView` with these fields, hands sorted, unchecked (check it after).

        *as_written* keeps the hands in the order read, for a check that tells a fault at
        its index there (`check_view` reads a hand in any order).
        """
        if as_written:
            return view_from_fields(attrs.astuple(self, recurse=False))
        # A hand is a set of tiles, kept sorted, whatever order a document lists it in.
        open_hands = None if self.open_hands is None else sorted_hands(self.open_hands)
        fields = attrs.evolve(self, hand=tuple(sorted(self.hand)), open_hands=open_hands)
        return view_from_fields(attrs.astuple(fields, recurse=False))


def sorted_hands(hands: tuple[tuple[Tile, ...], ...]) -> tuple[tuple[Tile, ...], ...]:
    """Return *hands*, each sorted: a hand is a set of tiles, kept sorted."""
    return tuple(tuple(sorted(hand)) for hand in hands)


def fields_of(state: GameState) -> StateFields:
    """Return the public fields of *state*."""
    return StateFields(
        state.rules, state.players, state.max_pip, state.hand_size, state.seed,
        state.round_number, state.engine, state.first_player, state.hands, state.boneyard,
        state.trains, state.current_player, state.had_first_turn, state.turn_tiles,
        state.has_drawn, state.turn_doubles, state.open_doubles, state.idle_turns,
        state.scores, state.round_scores, state.is_over, state.last_tile_called,
    )  # fmt: skip
