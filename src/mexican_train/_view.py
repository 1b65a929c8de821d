"""Player views: what one seat may know, and nothing more (S5, V10).

A `PlayerView` is a different type from `GameState`: it has no field that could
hold another player's tiles or the boneyard's order, and not the seed either
(the seed fixes every deal).  Two states that differ only in what a seat cannot
see give that seat equal views (noninterference).
"""

from __future__ import annotations

import attrs

from ._hooks import svg
from ._rules import Rules, rules_repr
from ._state import (
    GameState,
    Train,
    check_seat,
    check_train_id,
    tiles_of,
    view_fields,
    winners_of,
)
from ._tiles import Tile

__all__ = ["PlayerView", "spectator_view", "view"]


@attrs.frozen(cache_hash=True)
class PlayerView:
    """A seat's view of the game: a frozen value safe to send to that player.

    It mirrors `GameState` (same names, same meaning) but holds only the viewer's
    own hand, the hand sizes of everybody, and the boneyard's size.  `legal_moves`
    accepts a view when it is the viewer's turn (or between rounds) and returns
    the same moves as for the state.

    Attributes:
        seat: the viewer's seat; None for a spectator.
        hand: the viewer's tiles (empty for a spectator).
        hand_sizes: how many tiles each seat holds (S5: everyone sees this).
        boneyard_size: how many tiles are left to draw (never which, nor their order).
        open_hands: every hand, when the rules play with open hands (V10); else None.

    The other attributes are those of `GameState`.

    >>> from mexican_train import HUB, new_game
    >>> mine = view(new_game(4, HUB, seed=1), 2)
    >>> mine.seat, len(mine.hand), mine.hand_sizes, mine.boneyard_size, mine.is_my_turn
    (2, 15, (15, 15, 15, 15), 30, False)
    """

    rules: Rules = attrs.field(repr=lambda rules: rules_repr(rules))
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
    trains: tuple[Train, ...] = attrs.field(repr=False)
    current_player: int | None
    had_first_turn: tuple[bool, ...] = attrs.field(repr=False)
    turn_tiles: int = attrs.field(repr=False)
    has_drawn: bool = attrs.field(repr=False)
    turn_doubles: tuple[int, ...] = attrs.field(repr=False)
    open_doubles: tuple[int, ...] = attrs.field(repr=False)
    idle_turns: int = attrs.field(repr=False)
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...] = attrs.field(repr=False)
    is_over: bool
    open_hands: tuple[tuple[Tile, ...], ...] | None = attrs.field(default=None, repr=False)
    last_tile_called: bool = attrs.field(default=False, repr=False)

    def train(self, train_id: int) -> Train:
        """Return the train with id *train_id*: a seat, or `MEXICAN`."""
        check_train_id(train_id, self.players)
        return self.trains[train_id]

    def has_had_first_turn(self, seat: int) -> bool:
        """Return whether *seat* has finished its first turn of this round."""
        check_seat(seat, self.players)
        return self.had_first_turn[seat]

    def _repr_svg_(self) -> str | None:
        """Return an SVG picture of the table (only what the viewer may see), for Jupyter."""
        return svg(self)  # the renderer sits above the core: it registers itself

    @property
    def rounds(self) -> int:
        """The number of rounds in the game (S2, V9)."""
        return self.rules.rounds or self.max_pip + 1

    @property
    def is_round_over(self) -> bool:
        """Whether the round has ended (see `GameState.is_round_over`)."""
        return self.current_player is None

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is the player to move."""
        return self.seat is not None and self.seat == self.current_player

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (E5); empty until the game is over."""
        if not self.is_over:
            return ()
        return winners_of(self.scores, self.round_scores, self.rules.tie_break)


def view(state: GameState, seat: int) -> PlayerView:
    """Return what *seat* may know of *state* (S5).

    >>> from mexican_train import HUB, new_game
    >>> state = new_game(4, HUB, seed=1)
    >>> mine = view(state, 0)
    >>> mine.hand == state.hand(0), mine.hand_sizes, mine.boneyard_size
    (True, (15, 15, 15, 15), 30)
    >>> hasattr(mine, "boneyard"), hasattr(mine, "seed")
    (False, False)

    Raises:
        InvalidArgumentError: if *seat* is not a seat of the game.
        TypeError: if *state* is not a `GameState`.
    """
    _check_state(state)
    check_seat(seat, state._round.players)
    return _view(state, tiles_of(state._hands[seat]), seat)


def spectator_view(state: GameState) -> PlayerView:
    """Return what a spectator may know of *state*: no hand at all (S5).

    >>> from mexican_train import HUB, new_game
    >>> spectator_view(new_game(4, HUB, seed=1)).hand
    ()
    """
    _check_state(state)
    return _view(state, (), None)


def _check_state(state: object) -> None:
    if not isinstance(state, GameState):
        hint = " (it is already a view)" if isinstance(state, PlayerView) else ""
        raise TypeError(f"view() needs a GameState, not {type(state).__name__}{hint}")


def _view(state: GameState, hand: tuple[Tile, ...], seat: int | None) -> PlayerView:
    return PlayerView(*view_fields(state, hand, seat))
