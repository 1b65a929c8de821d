"""Player views: what one seat may know, and nothing more (S5, V10).

A `PlayerView` is a different type from `GameState`: it has no field that could
hold another player's tiles or the boneyard's order, and not the seed either
(the seed fixes every deal).  Two states that differ only in what a seat cannot
see give that seat equal views (noninterference).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, NoReturn, TypedDict, final

from .rules import Rules, rules_repr
from .state import (
    VIEW_KINDS,
    GameState,
    Train,
    check_seat,
    check_train_id,
    check_view_shape,
    position_of_view,
    seat_view_fields,
    view_fields,
    winners_of,
)
from .tiles import Tile

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "PlayerView", "ViewChanges", "spectator_view", "view", "view_from_fields", "view_with",
]  # fmt: skip


#: The fields of `PlayerView`, in the order of its constructor's arguments.
_FIELDS: Final = (
    "rules",
    "players",
    "max_pip",
    "hand_size",
    "round_number",
    "engine",
    "first_player",
    "seat",
    "hand",
    "hand_sizes",
    "boneyard_size",
    "trains",
    "current_player",
    "had_first_turn",
    "turn_tiles",
    "has_drawn",
    "turn_doubles",
    "open_doubles",
    "idle_turns",
    "scores",
    "round_scores",
    "is_over",
    "open_hands",
    "last_tile_called",
)


class _Slots:
    """A view's storage: a plain slotted object, filled in, then made a `PlayerView`.

    A frozen class cannot assign its own attributes: attrs' frozen ``__init__`` set
    each through ``object.__setattr__``, which cost most of a view.  Here the slots
    are filled while the object is still of this plain class, at the price of
    ordinary assignments, and its class is then switched to `PlayerView` (same
    layout: `PlayerView` adds no slot), which refuses every assignment.  Reading a
    field is a plain slot read.
    """

    __slots__ = (*_FIELDS, "_hash", "_fields", "_position", "__weakref__")


def _frozen(self: object, name: str, value: object = None) -> None:
    raise AttributeError(f"PlayerView is frozen: {name!r} cannot be changed (see replace())")


class ViewChanges(TypedDict, total=False):
    """The fields `PlayerView.replace` takes, for a type checker: a `dict` of some of them.

    Its keys are the names in ``PlayerView.FIELDS``, each of its attribute's type.
    """

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
    open_hands: tuple[tuple[Tile, ...], ...] | None
    last_tile_called: bool


@final
class PlayerView(_Slots):
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

    The other attributes are those of `GameState`.  All are read-only: assigning
    one raises `AttributeError`; `PlayerView.replace` returns a changed copy.
    ``PlayerView.FIELDS`` names them in the order of the constructor's arguments
    (the last two, *open_hands* and *last_tile_called*, default to None and False).

    `view` and `spectator_view` make a seat's view of a state.  The constructor,
    for a view of a position of one's own, checks what `GameState.replace` checks
    of a state, not the rules: each value is of its field's kind (a list is taken
    for a tuple); the counts agree with *players* (a hand size, a first-turn flag
    and a score per seat, an open hand per seat with *open_hands*, a train per
    seat and the Mexican train); the seats and train ids exist; every tile comes
    from the double-*max_pip* set; no hand lists a tile twice.  It raises
    `TypeError` or `InvalidArgumentError` as `PlayerView.replace` does.

    >>> from mexican_train import HUB, new_game
    >>> mine = view(new_game(4, HUB, seed=1), 2)
    >>> mine.seat, len(mine.hand), mine.hand_sizes, mine.boneyard_size, mine.is_my_turn
    (2, 15, (15, 15, 15, 15), 30, False)
    """

    __slots__ = ()

    #: The names of the fields, in the order of the constructor's arguments.
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS
    __match_args__ = _FIELDS

    if TYPE_CHECKING:  # read-only to type checkers; at run time, `_Slots`'s slots
        _hash: int
        _fields: tuple[Any, ...]  # what _build was given
        _position: GameState | None

        @property
        def rules(self) -> Rules: ...
        @property
        def players(self) -> int: ...
        @property
        def max_pip(self) -> int: ...
        @property
        def hand_size(self) -> int: ...
        @property
        def round_number(self) -> int: ...
        @property
        def engine(self) -> Tile: ...
        @property
        def first_player(self) -> int: ...
        @property
        def seat(self) -> int | None: ...
        @property
        def hand(self) -> tuple[Tile, ...]: ...
        @property
        def hand_sizes(self) -> tuple[int, ...]: ...
        @property
        def boneyard_size(self) -> int: ...
        @property
        def trains(self) -> tuple[Train, ...]: ...
        @property
        def current_player(self) -> int | None: ...
        @property
        def had_first_turn(self) -> tuple[bool, ...]: ...
        @property
        def turn_tiles(self) -> int: ...
        @property
        def has_drawn(self) -> bool: ...
        @property
        def turn_doubles(self) -> tuple[int, ...]: ...
        @property
        def open_doubles(self) -> tuple[int, ...]: ...
        @property
        def idle_turns(self) -> int: ...
        @property
        def scores(self) -> tuple[int, ...]: ...
        @property
        def round_scores(self) -> tuple[tuple[int, ...], ...]: ...
        @property
        def is_over(self) -> bool: ...
        @property
        def open_hands(self) -> tuple[tuple[Tile, ...], ...] | None: ...
        @property
        def last_tile_called(self) -> bool: ...

    else:
        __setattr__ = _frozen
        __delattr__ = _frozen

    def __new__(
        cls,
        rules: Rules,
        players: int,
        max_pip: int,
        hand_size: int,
        round_number: int,
        engine: Tile,
        first_player: int,
        seat: int | None,
        hand: tuple[Tile, ...],
        hand_sizes: tuple[int, ...],
        boneyard_size: int,
        trains: tuple[Train, ...],
        current_player: int | None,
        had_first_turn: tuple[bool, ...],
        turn_tiles: int,
        has_drawn: bool,
        turn_doubles: tuple[int, ...],
        open_doubles: tuple[int, ...],
        idle_turns: int,
        scores: tuple[int, ...],
        round_scores: tuple[tuple[int, ...], ...],
        is_over: bool,
        open_hands: tuple[tuple[Tile, ...], ...] | None = None,
        last_tile_called: bool = False,
    ) -> PlayerView:
        given = (
            rules, players, max_pip, hand_size, round_number, engine, first_player, seat,
            hand, hand_sizes, boneyard_size, trains, current_player, had_first_turn,
            turn_tiles, has_drawn, turn_doubles, open_doubles, idle_turns, scores,
            round_scores, is_over, open_hands, last_tile_called,
        )  # fmt: skip
        values = {
            name: VIEW_KINDS[name](value, name, -1)
            for name, value in zip(_FIELDS, given, strict=True)
        }
        check_view_shape(values)
        return _build((*values.values(), None))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("PlayerView cannot be subclassed")

    def train(self, train_id: int) -> Train:
        """Return the train with id *train_id*: a seat, or `MEXICAN`."""
        check_train_id(train_id, self.players)
        return self.trains[train_id]

    def has_had_first_turn(self, seat: int) -> bool:
        """Return whether *seat* has finished its first turn of this round."""
        check_seat(seat, self.players)
        return self.had_first_turn[seat]

    def _repr_svg_(self) -> str:
        """Return an SVG picture of the table (only what the viewer may see), for Jupyter."""
        # Drawing is a format, a layer above the core, imported when Jupyter asks.
        from .._formats.render import render_svg

        return render_svg(self)

    @property
    def rounds(self) -> int:
        """The number of rounds in the game (S2, V9)."""
        return self.rules.round_count(self.max_pip)

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

    def replace(self, **changes: Unpack[ViewChanges]) -> PlayerView:
        """Return a copy of the view with some fields changed, unchecked against the rules.

        It takes the names of `PlayerView.FIELDS` (a view is not an attrs class:
        ``attrs.evolve`` does not take one), and checks what the constructor
        checks: the result may break the rules, but never holds a value the
        engine, a bot or a writer cannot read.  (On Python 3.13,
        ``copy.replace(view, ...)`` calls it.)

        Raises:
            TypeError: if a name is not a field of `PlayerView`, or a value is not
                of its field's kind (a str for a seat, a list of strs for a hand).
            InvalidArgumentError: if the counts, seats, train ids or tiles do not
                fit the game, or a hand lists a tile twice.

        >>> from mexican_train import new_game
        >>> mine = view(new_game(2, seed=1), 0)
        >>> mine.replace(scores=(5, 0)).scores, mine.scores
        ((5, 0), (0, 0))
        """
        unknown = sorted(set(changes) - set(_FIELDS))
        if unknown:
            raise TypeError(f"PlayerView has no field {', '.join(map(repr, unknown))}")
        values = {name: getattr(self, name) for name in _FIELDS}
        for name, value in changes.items():
            values[name] = VIEW_KINDS[name](value, name, -1)
        check_view_shape(values, changes)
        return _build((*values.values(), None))

    def __replace__(self, **changes: Unpack[ViewChanges]) -> PlayerView:
        return self.replace(**changes)

    # -- value semantics --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):  # it has no subclasses
            return NotImplemented
        return self is other or (
            self.seat == other.seat
            and self.current_player == other.current_player
            and self.hand == other.hand
            and self.hand_sizes == other.hand_sizes
            and self.boneyard_size == other.boneyard_size
            and self.turn_tiles == other.turn_tiles
            and self.has_drawn == other.has_drawn
            and self.last_tile_called == other.last_tile_called
            and self.idle_turns == other.idle_turns
            and self.is_over == other.is_over
            and self.had_first_turn == other.had_first_turn
            and self.turn_doubles == other.turn_doubles
            and self.open_doubles == other.open_doubles
            and self.trains == other.trains
            and self.open_hands == other.open_hands
            and self.players == other.players
            and self.max_pip == other.max_pip
            and self.hand_size == other.hand_size
            and self.round_number == other.round_number
            and self.engine == other.engine
            and self.first_player == other.first_player
            and self.scores == other.scores
            and self.round_scores == other.round_scores
            and self.rules == other.rules
        )

    def __hash__(self) -> int:
        # Every field but the rules (an attrs value of many fields, slow to hash, and
        # its strings hash differently in every process): views equal in everything
        # else but their rules merely share a hash.  The rest are ints, tiles, trains
        # and tuples of them, with None hashed as -1 (Python before 3.12 hashes None
        # by its address), so a view hashes alike in every process, as a state does.
        try:
            return self._hash
        except AttributeError:
            pass
        known = hash(
            (
                self.players, self.max_pip, self.hand_size, self.round_number, self.engine,
                self.first_player, _no_none(self.seat), self.hand, self.hand_sizes,
                self.boneyard_size, self.trains, _no_none(self.current_player),
                self.had_first_turn, self.turn_tiles, self.has_drawn, self.turn_doubles,
                self.open_doubles, self.idle_turns, self.scores, self.round_scores,
                self.is_over, _no_none(self.open_hands), self.last_tile_called,
            )
        )  # fmt: skip
        object.__setattr__(self, "_hash", known)  # a cache, not a field
        return known

    def __repr__(self) -> str:
        return (
            f"PlayerView(rules={rules_repr(self.rules)}, players={self.players!r}, "
            f"max_pip={self.max_pip!r}, hand_size={self.hand_size!r}, "
            f"round_number={self.round_number!r}, engine={self.engine!r}, "
            f"first_player={self.first_player!r}, seat={self.seat!r}, hand={self.hand!r}, "
            f"hand_sizes={self.hand_sizes!r}, boneyard_size={self.boneyard_size!r}, "
            f"current_player={self.current_player!r}, scores={self.scores!r}, "
            f"is_over={self.is_over!r})"
        )

    def __reduce__(self) -> tuple[type[PlayerView], tuple[Any, ...]]:
        return (PlayerView, tuple([getattr(self, name) for name in _FIELDS]))

    def __copy__(self) -> PlayerView:
        return self

    def __deepcopy__(self, memo: object) -> PlayerView:
        return self


_new_slots: Final = _Slots.__new__


def _build(fields: tuple[Any, ...]) -> PlayerView:
    """Return the view with these fields, in the order of `PlayerView.FIELDS`, then its
    masks for the engine (see `view_position`; None: found from the fields when needed).

    The view keeps the tuple too (not a field), for `view_position`.
    """
    view: Any = _new_slots(_Slots)
    (
        view.rules, view.players, view.max_pip, view.hand_size, view.round_number,
        view.engine, view.first_player, view.seat, view.hand, view.hand_sizes,
        view.boneyard_size, view.trains, view.current_player, view.had_first_turn,
        view.turn_tiles, view.has_drawn, view.turn_doubles, view.open_doubles,
        view.idle_turns, view.scores, view.round_scores, view.is_over, view.open_hands,
        view.last_tile_called, _,
    ) = fields  # fmt: skip
    view._fields = fields
    view._position = None  # built by view_position on first demand
    view.__class__ = PlayerView  # from now on, frozen
    return view  # type: ignore[no-any-return]


def view_from_fields(fields: tuple[Any, ...]) -> PlayerView:
    """Return the view with these fields, in the order of `PlayerView.FIELDS`, unchecked.

    For the readers of JSON alone, which check the whole view after (and say where in
    the document a fault is): a caller's view goes through `PlayerView`, which checks.
    """
    return _build((*fields, None))


def view_with(view: PlayerView, **changes: Unpack[ViewChanges]) -> PlayerView:
    """Return *view* with some fields changed, unchecked.

    For the library's own changes of a view it made (the determinizer's and the RL
    adapters' probes, many a decision), whose values are of their fields' kinds and
    shape: a caller's changes go through `PlayerView.replace`, which checks.
    """
    return _build((*[changes.get(name, getattr(view, name)) for name in _FIELDS], None))


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
    if not isinstance(state, GameState):
        _refuse(state)
    # The seat checked and the fields read in one compiled call, then the view built.
    return _build(seat_view_fields(state, seat))


def spectator_view(state: GameState) -> PlayerView:
    """Return what a spectator may know of *state*: no hand at all (S5).

    >>> from mexican_train import HUB, new_game
    >>> spectator_view(new_game(4, HUB, seed=1)).hand
    ()
    """
    if not isinstance(state, GameState):
        _refuse(state, "spectator_view")
    return _build(view_fields(state, (), None))


def view_masks(v: PlayerView) -> tuple[Any, ...] | None:
    """Return *v*'s masks as its state kept them, or None for a view built from its fields.

    The viewer's hand as a mask, then what `table_masks` gives (board, table,
    markers, owners' plays, first turns): for encoders that work on masks.
    """
    masks: tuple[Any, ...] | None = v._fields[24]
    return masks


def view_position(v: PlayerView) -> GameState:
    """Return the state the engine reads for *v*'s legal moves: what *v* shows, nothing more.

    The viewer's hand (every other hand empty), the table, the turn, and the
    boneyard's size (S5); no boneyard and no seed (0).  Built by the core from the
    fields the view was made of on first demand, and kept on the view (a cache, not
    a field).
    """
    found = v._position
    if found is None:
        found = position_of_view(v._fields)
        object.__setattr__(v, "_position", found)
    return found


def _refuse(state: object, caller: str = "view") -> NoReturn:
    hint = " (it is already a view)" if isinstance(state, PlayerView) else ""
    raise TypeError(f"{caller}() needs a GameState, not {type(state).__name__}{hint}")


def _no_none(value: object) -> object:
    # What a view's hash reads for a field that may be None: None hashes by its address
    # before Python 3.12, differently in every process; -1 hashes the same everywhere.
    return -1 if value is None else value
