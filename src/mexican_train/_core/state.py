"""Trains, deals and the game state: frozen values, built anew for every move."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    NoReturn,
    SupportsIndex,
    TypedDict,
    TypeVar,
    overload,
)

from .bounds import check_bound
from .errors import InvalidArgumentError, shown
from .moves import MEXICAN, Play
from .rules import Rules, rules_repr
from .tiles import MAX_PIP, Tile, full_set

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .moves import Move

__all__ = ["GameState", "StateChanges", "Train"]

_T = TypeVar("_T")


class Train:
    """A line of tiles from the engine (P2): an immutable, hashable value.

    It has the tiles in the order played (the first one joined to the engine),
    the open end a tile must show to join it (the engine's number while it is
    empty), whether a marker is on it (P6), and whether its owner has played a
    tile on it this round (`owner_played`).

    >>> Train((Tile(12, 5), Tile(5, 5)), open_end=5).is_started
    True
    >>> Train((), 12, marked=True)
    Train(tiles=(), open_end=12, marked=True)

    A started personal train without a marker must say *owner_played*: only the
    owner's tile lifts a marker (P6), so only a marked train can hold other
    players' tiles alone (unless ``Rules.marker_lifts_anywhere``, where the
    owner's tile on any train lifts it).

    >>> Train((Tile(12, 5),), open_end=5, owner_played=True)
    Train(tiles=(Tile(12, 5),), open_end=5, marked=False, owner_played=True)

    Raises:
        TypeError: if *tiles* is not a tuple of `Tile` values (a tile written
            ``"12-5"`` included), *open_end* not an int (a bool is not one), or
            *marked* or *owner_played* not a bool.
        InvalidArgumentError: if *open_end* is not a number a tile can show (0-30).
    """

    __slots__ = ("_marked", "_open_end", "_owner_played", "_tiles")

    def __init__(
        self,
        tiles: tuple[Tile, ...],
        open_end: SupportsIndex,
        marked: bool = False,
        owner_played: bool = False,
    ) -> None:
        # Checked here, so that both builds refuse the same values (a compiled build
        # checks the tuple and the bools first, in words of its own).  The open end is
        # typed SupportsIndex, which a compiled build does not check: it would turn a
        # bool passed for an int into an int, and the check below refuses a bool.
        if (
            type(tiles) is not tuple
            or type(open_end) is not int
            or type(marked) is not bool
            or type(owner_played) is not bool
        ):
            raise TypeError(
                f"Train needs a tuple of tiles, an int open end, a bool marker and a bool "
                f"owner_played, not {tiles!r}, {open_end!r}, {marked!r}, {owner_played!r}"
            )
        for tile in tiles:
            # Every reader of a train (the engine, views, writers) reads its tiles' ends.
            if type(tile) is not Tile:
                index = next(i for i, item in enumerate(tiles) if type(item) is not Tile)
                raise TypeError(
                    f"Train needs a tuple of Tile values, not tiles[{index}] = {shown(tile)} "
                    "(Tile.parse reads a tile written '12-5')"
                )
        if not 0 <= open_end <= MAX_PIP:
            check_bound("pip", open_end, "a train's open end")  # raises, in the table's words
        # Not Final: `board_train` sets it, for the trains the engine builds from its board.
        self._tiles: tuple[Tile, ...] = tiles
        self._open_end: Final[int] = open_end
        self._marked: Final[bool] = marked
        self._owner_played: Final[bool] = owner_played

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles in the order played, the first one joined to the engine."""
        return self._tiles

    @property
    def open_end(self) -> int:
        """The number a tile must show to join the train (the engine's while empty)."""
        return self._open_end

    @property
    def marked(self) -> bool:
        """Whether a marker is on the train, opening it to everybody (P6)."""
        return self._marked

    @property
    def is_started(self) -> bool:
        """Whether any tile has been played on it, by anybody."""
        return bool(self._tiles)

    @property
    def owner_played(self) -> bool:
        """Whether the train's owner has played a tile on it this round (V2).

        Any tile of theirs counts: the first turn's chain (P4), a double covered,
        a tile laid while it carried a marker (P6).  Tiles other players laid on
        it while it carried a marker do not, so a train may be started and this
        still False.  Always False for the Mexican train, which has no owner; it
        starts False on every train each round.  The V2 variants
        ``mexican-after-own-train`` and ``mexican-after-all-trains`` read it.
        """
        return self._owner_played

    @property
    def ends_in_double(self) -> bool:
        """Whether its last tile is a double.

        >>> Train((Tile(12, 5), Tile(5, 5)), open_end=5).ends_in_double
        True
        """
        return bool(self._tiles) and self._tiles[-1].is_double

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Train):
            return NotImplemented
        return self is other or (
            self._open_end == other._open_end
            and self._marked == other._marked
            and self._owner_played == other._owner_played
            and self._tiles == other._tiles
        )

    def __hash__(self) -> int:
        return hash((self._tiles, self._open_end, self._marked, self._owner_played))

    def __repr__(self) -> str:
        owner = ", owner_played=True" if self._owner_played else ""  # shown when not the default
        return (
            f"Train(tiles={self._tiles!r}, open_end={self._open_end!r}, "
            f"marked={self._marked!r}{owner})"
        )

    def __reduce__(self) -> tuple[type[Train], tuple[tuple[Tile, ...], int, bool, bool]]:
        return (Train, (self._tiles, self._open_end, self._marked, self._owner_played))


#: One train on the board: its open end and its tiles in the order played.
Line = tuple[int, tuple[Tile, ...]]


def train_fields(
    board: tuple[Line, ...], marks: int, owned: int
) -> list[tuple[tuple[Tile, ...], int, bool, bool]]:
    """Return each train's fields (tiles, open end, marker, owner played), as `Train` takes
    them, from a board and the masks of its markers and owners' plays (bits by seat)."""
    return [
        (tiles, end, marks >> position & 1 == 1, owned >> position & 1 == 1)
        for position, (end, tiles) in enumerate(board)
    ]


def board_train(tiles: tuple[Tile, ...], open_end: int, marked: bool, owner_played: bool) -> Train:
    """Return the `Train` of a line of the engine's board, whose tiles are `Tile` values.

    `Train` checks each tile of a caller's train; the engine's need no check, and it
    builds one or two trains a move (when the states are viewed): this builds one
    without looking at its tiles.
    """
    train = Train((), open_end, marked, owner_played)
    train._tiles = tiles
    return train


def trains_of(board: tuple[Line, ...], marks: int, owned: int) -> tuple[Train, ...]:
    """Return the `Train` values of a board and its masks (see `train_fields`)."""
    return tuple([board_train(*fields) for fields in train_fields(board, marks, owned)])


def _score_hand(hand: tuple[Tile, ...], double_blank: int) -> int:
    # E3: the pips left in hand; the double-blank counts `double_blank` (V7).
    return sum(double_blank if t.pips == 0 else t.pips for t in hand)


def check_seat(seat: Any, players: int) -> None:
    """Raise `InvalidArgumentError` unless *seat* is a seat of a *players*-player game."""
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgumentError(f"a seat is 0-{players - 1}, not {shown(seat)}")


def check_train_id(train_id: Any, players: int) -> None:
    """Raise `InvalidArgumentError` unless *train_id* names a train of the game."""
    if type(train_id) is not int or not MEXICAN <= train_id < players:
        raise InvalidArgumentError(
            f"a train id is a seat 0-{players - 1} or MEXICAN ({MEXICAN}), not {shown(train_id)}"
        )


def standing_keys(
    scores: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...], tie_break: bool = True
) -> list[tuple[int, int, float]]:
    """Return each seat's place in the standings as a key, by seat: the lower the better (E5).

    Lowest total first, then the most rounds scored at 0, then the lowest round score
    other than 0; with *tie_break* False (``Rules.tie_break``), the total alone.
    """

    def rank(seat: int) -> tuple[int, int, float]:
        if not tie_break:
            return (scores[seat], 0, 0)  # a shared win: only the total counts
        mine = [points[seat] for points in round_scores]
        nonzero = [p for p in mine if p != 0]
        # E5, in order: lowest total, then most rounds at 0, then lowest non-zero round.
        return (scores[seat], -(len(mine) - len(nonzero)), min(nonzero, default=float("inf")))

    return [rank(seat) for seat in range(len(scores))]


def winners_of(
    scores: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...], tie_break: bool = True
) -> tuple[int, ...]:
    """Return the seats that win with these totals and round scores (E5).

    With *tie_break* False (``Rules.tie_break``), every seat on the lowest total wins.
    """
    keys = standing_keys(scores, round_scores, tie_break)
    best = min(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


# -- the layout ------------------------------------------------------------------
#
# A state is a few words over values it shares with its neighbours:
#
# - `_Round`: what stays put for a whole round: the rules, the players, the set,
#   the round's number, engine and first player, and the scores so far, which
#   everybody may see; and two secrets, the seed and the boneyard in draw order
#   as dealt (a state keeps how many of its tiles are left to draw).  Every
#   state of a round points at one `_Round`; a view copies its public fields.
# - hands as int bit masks: bit ``tile._index`` is set when the hand holds the
#   tile, so bit order is the ascending order of tiles, and matching a hand to
#   a train is an ``&`` with the suit's mask (`SUITS`).
# - the table as a board: per train (the personal trains by seat, the Mexican
#   train last) a pair (open end, tiles played), shared between states: a play
#   builds one pair and one tuple of pairs, no object.  The markers and the
#   owners' plays are two ints, bit *seat* for the seat's own train, so the
#   trains open to a player are one lookup (`POSITIONS`).  `Train` values are
#   built from these when asked for (`GameState.trains`, a view) and kept.
# - the legal moves of the next state, computed by `apply` itself.

#: Every tile a state can hold, by its index (``TILES[tile._index] is tile``).
TILES: Final = full_set(MAX_PIP)
#: ``SUITS[n]``: the mask of every tile that shows *n*.
SUITS: Final = tuple(
    sum(1 << tile._index for tile in TILES if tile.high == pip or tile.low == pip)
    for pip in range(MAX_PIP + 1)
)
#: ``ENDS[i]``: the ends mask (`Tile._ends`) of the tile of index *i*.
ENDS: Final = tuple([tile._ends for tile in TILES])
# Hand masks already turned into tuples (a view or a reader asks for the same
# hand many times); bounded, emptied when full.
_HANDS: Final[dict[int, tuple[Tile, ...]]] = {}


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """Return the tiles of a mask, in ascending order."""
    known = _HANDS.get(mask)
    if known is not None:
        return known
    tiles = []
    rest = mask
    base = 0
    while rest:
        # In chunks of 60 bits: small ints, native in the compiled build (the mask
        # of a double-12 set has 91 bits, a Python long).
        chunk = rest & 0xFFFFFFFFFFFFFFF
        rest >>= 60
        while chunk:
            low = chunk & -chunk
            tiles.append(TILES[base + low.bit_length() - 1])
            chunk ^= low
        base += 60
    if len(_HANDS) >= 65536:
        _HANDS.clear()
    found = tuple(tiles)
    _HANDS[mask] = found
    return found


def count_tiles(mask: int) -> int:
    """Return the number of tiles in a mask."""
    return mask.bit_count()


def mask_of(tiles: Iterable[Tile]) -> int:
    """Return the mask of some tiles (a tile held twice counts once: `check_state` finds that)."""
    mask = 0
    for tile in tiles:
        mask |= 1 << tile._index
    return mask


#: `_Round.mexican_opens`: ask the rule's ``is_open`` on every move; the
#: Mexican train is open to every seat; it is open once the seat's first turn is over.
ASK: Final = 0
ALWAYS: Final = 1
AFTER_FIRST_TURN: Final = 2


def mexican_opens(rule: object) -> int:
    """Return how the engine learns whether the Mexican train is open (V2).

    A `MexicanTrainRule` may say, by an ``open_from_turn`` attribute, that its
    ``is_open`` is true from each seat's first turn (1) or from its second (2), so
    the engine need not call it on every move; any other rule is asked every time.
    """
    opens = getattr(rule, "open_from_turn", None)
    if type(opens) is int:
        if opens == 1:
            return ALWAYS
        if opens == 2:
            return AFTER_FIRST_TURN
    return ASK


def _bits_set(bits: int, offset: int) -> tuple[int, ...]:
    return tuple([offset + n for n in range(bits.bit_length()) if bits >> n & 1])


#: ``POSITIONS[bits]``: the positions of the bits set in *bits* (below 2**9),
#: ascending.  With `train_positions`, the engine's way from a mask of usable trains (bit
#: *i* for trains[i], the Mexican train last) to their positions in the documented
#: order: one index up to 8 players; made once, at import (512 small tuples).
POSITIONS: Final = tuple([_bits_set(bits, 0) for bits in range(1 << 9)])
# The same for bits 9 .. 15 (up to 14 players and the Mexican train).
_HIGH_POSITIONS: Final = tuple([_bits_set(bits, 9) for bits in range(1 << 7)])


def train_positions(bits: int) -> tuple[int, ...]:
    """Return the positions of the bits set in *bits* (below 2**16), ascending."""
    if bits < 512:
        return POSITIONS[bits]
    return POSITIONS[bits & 511] + _HIGH_POSITIONS[bits >> 9]


# The interned plays onto each train, by tile index, filled on first demand from
# PLAYS: a list lookup (native speed in the compiled build) instead of two dict ones.
_PLAY_LISTS: Final[dict[int, list[Play | None]]] = {}


def plays_onto(train_id: int) -> list[Play | None]:
    """Return the list of the interned plays onto *train_id*, by tile index (None: not made yet)."""
    plays = _PLAY_LISTS.get(train_id)
    if plays is None:
        plays = _PLAY_LISTS.setdefault(train_id, [None] * len(TILES))
    return plays


class _Round:
    """What stays put for a whole round (shared by its states); the seed and boneyard are secret."""

    __slots__ = (
        "boneyard",
        "chain",
        "draw_until_playable",
        "engine",
        "first_draw",
        "first_player",
        "first_turn",
        "hand_size",
        "lifts_anywhere",
        "max_pip",
        "mexican_bit",
        "mexican_opens",
        "mexican_train",
        "must_play",
        "open_doubles",
        "penalty",
        "players",
        "plays",
        "round_number",
        "round_scores",
        "rounds",
        "rules",
        "scores",
        "seed",
        "set_mask",
    )

    def __init__(
        self,
        rules: Rules,
        players: int,
        max_pip: int,
        hand_size: int,
        round_number: int,
        engine: Tile,
        first_player: int,
        scores: tuple[int, ...],
        round_scores: tuple[tuple[int, ...], ...],
        seed: int,
        boneyard: tuple[Tile, ...],
    ) -> None:
        self.rules: Final = rules
        self.players: Final = players
        self.max_pip: Final = max_pip
        self.hand_size: Final = hand_size
        self.round_number: Final = round_number
        self.engine: Final = engine
        self.first_player: Final = first_player
        self.scores: Final = scores
        self.round_scores: Final = round_scores
        self.seed: Final = seed  # S6: fixes the shuffle of every round
        self.boneyard: Final = boneyard  # as dealt, in draw order (secret)
        # S2, V9: the number of rounds in the game.
        self.rounds: Final = rules.round_count(max_pip)
        # The mask of every tile of the set: the first tiles in ascending order.
        self.set_mask: Final = (1 << (max_pip + 1) * (max_pip + 2) // 2) - 1
        # The rules' facts the engine reads on every move, read once per round.
        first_turn = rules.first_turn
        self.first_turn: Final = first_turn is not None  # V1: P4 applies
        self.chain: Final = first_turn is not None and first_turn.chain
        self.first_draw: Final = first_turn is not None and first_turn.may_draw
        self.must_play: Final[bool] = rules.must_play
        self.draw_until_playable: Final[bool] = rules.draw_until_playable
        self.penalty: Final[int] = rules.last_tile_penalty
        # P6: whether the owner's tile on any train lifts their marker.
        self.lifts_anywhere: Final[bool] = rules.marker_lifts_anywhere
        self.mexican_train: Final = rules.mexican_train
        self.open_doubles: Final = rules.open_doubles
        # V2: how the engine learns whether the Mexican train is open to a seat.
        self.mexican_opens: Final[int] = mexican_opens(rules.mexican_train)
        self.mexican_bit: Final = 1 << players  # the Mexican train's bit in a mask of trains
        # The interned plays onto each train, by tile index (the Mexican train last).
        self.plays: Final[list[list[Play | None]]] = [
            plays_onto(MEXICAN if train_id == players else train_id)
            for train_id in range(players + 1)
        ]

    def same(self, other: _Round) -> bool:
        """Return whether two rounds hold equal public values (not the seed or boneyard)."""
        return self is other or (
            self.players == other.players
            and self.round_number == other.round_number
            and self.engine is other.engine
            and self.first_player == other.first_player
            and self.max_pip == other.max_pip
            and self.hand_size == other.hand_size
            and self.scores == other.scores
            and self.round_scores == other.round_scores
            and self.rules == other.rules
        )


#: The public fields of `GameState`, in the order of `state_from_fields`.
_FIELDS: Final = (
    "rules",
    "players",
    "max_pip",
    "hand_size",
    "seed",
    "round_number",
    "engine",
    "first_player",
    "hands",
    "boneyard",
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
    "last_tile_called",
)


class StateChanges(TypedDict, total=False):
    """The fields `GameState.replace` takes, for a type checker: a `dict` of some of them.

    Its keys are the names in ``GameState.FIELDS``, each of its attribute's type (where
    the attribute is a tuple, `GameState.replace` takes a tuple or a list).
    """

    rules: Rules
    players: int
    max_pip: int
    hand_size: int
    seed: int
    round_number: int
    engine: Tile
    first_player: int
    hands: Sequence[Sequence[Tile]]
    boneyard: Sequence[Tile]
    trains: Sequence[Train]
    current_player: int | None
    had_first_turn: Sequence[bool]
    turn_tiles: int
    has_drawn: bool
    turn_doubles: Sequence[int]
    open_doubles: Sequence[int]
    idle_turns: int
    scores: Sequence[int]
    round_scores: Sequence[Sequence[int]]
    is_over: bool
    last_tile_called: bool


class GameState:
    """Everything about a game at one moment: a frozen, hashable value.

    Build one with `new_game`; get the next with `apply`.  Never build one by
    hand: `GameState.replace` changes fields without checking them.

    Its attributes, all read-only, are listed below: the rules and the deal
    (`rules` to `first_player`), the secrets (`hands`, `boneyard`), the table
    (`trains`), the turn (`current_player` to `last_tile_called`) and the scores.

    >>> from mexican_train import HUB, new_game
    >>> state = new_game(4, HUB, seed=1)
    >>> state.round_number, state.engine, state.current_player, state.boneyard_size
    (1, Tile(12, 12), 0, 30)
    >>> state == new_game(4, HUB, seed=1), hash(state) == hash(new_game(4, HUB, seed=1))
    (True, True)

    `GameState.FIELDS` names the attributes above, in this order: those that
    make up the value (equality, hashing, pickling, JSON) and that
    `GameState.replace` takes.
    """

    #: The names of the fields, in the order of the attributes above; `replace` takes them.
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS

    __slots__ = (
        "_board",
        "_called",
        "_current",
        "_firsts",
        "_hands",
        "_has_drawn",
        "_hash",
        "_idle",
        "_is_over",
        "_left",
        "_legal",
        "_marks",
        "_open_doubles",
        "_owned",
        "_round",
        "_table",
        "_trains",
        "_turn_doubles",
        "_turn_tiles",
    )

    def __init__(
        self,
        round_: _Round,
        left: int,
        hands: tuple[int, ...],
        board: tuple[Line, ...],
        table: int,
        marks: int,
        owned: int,
        current: int | None,
        firsts: int,
        turn_tiles: int,
        has_drawn: bool,
        turn_doubles: tuple[int, ...],
        open_doubles: tuple[int, ...],
        idle: int,
        is_over: bool,
        called: bool,
    ) -> None:
        # The layout (see above); only the engine and `replace` call this.
        self._round: Final = round_
        self._left: Final = left  # the last *left* tiles of round_.boneyard are undrawn
        self._hands: Final = hands  # one mask per seat
        self._board: Final = board  # per train: (open end, tiles), the Mexican train last
        self._table: Final = table  # the mask of the tiles on the table, the engine's too
        self._marks: Final = marks  # bit *i* set while trains[i] is marked (P6)
        self._owned: Final = owned  # bit *seat* set once the seat played on its train (V2)
        self._current: Final = current
        self._firsts: Final = firsts  # bit *seat* set once the seat's first turn is over
        self._turn_tiles: Final = turn_tiles
        self._has_drawn: Final = has_drawn
        self._turn_doubles: Final = turn_doubles
        self._open_doubles: Final = open_doubles
        self._idle: Final = idle
        self._is_over: Final = is_over
        self._called: Final = called
        # Caches, not part of the value: the legal moves (set by apply or on first
        # demand), the hash (on first demand; -1 is never a hash) and the trains as
        # `Train` values (on first demand, or carried over by apply from the state
        # before, when that one had them).
        self._legal: tuple[Move, ...] | None = None
        self._hash: int = -1
        self._trains: tuple[Train, ...] | None = None

    # -- the public fields ------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._round.rules

    @property
    def players(self) -> int:
        """The number of players; seats are ``0 .. players - 1``."""
        return self._round.players

    @property
    def max_pip(self) -> int:
        """The set in use is double-*max_pip*."""
        return self._round.max_pip

    @property
    def hand_size(self) -> int:
        """Tiles dealt to each player."""
        return self._round.hand_size

    @property
    def seed(self) -> int:
        """The seed from which every round's deal comes (S6)."""
        return self._round.seed

    @property
    def round_number(self) -> int:
        """The round being played, from 1."""
        return self._round.round_number

    @property
    def engine(self) -> Tile:
        """This round's engine (S2)."""
        return self._round.engine

    @property
    def first_player(self) -> int:
        """The seat that played first this round (S3, S4)."""
        return self._round.first_player

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's hand, each in ascending order (secret, see `hand`)."""
        return tuple([tiles_of(mask) for mask in self._hands])

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The undrawn tiles in draw order (secret)."""
        dealt = self._round.boneyard
        drawn = len(dealt) - self._left
        return dealt[drawn:] if drawn else dealt

    @property
    def trains(self) -> tuple[Train, ...]:
        """The personal trains by seat, then the Mexican train."""
        trains = self._trains
        if trains is None:
            trains = self._trains = read_trains(self)
        return trains

    @property
    def current_player(self) -> int | None:
        """The seat to move; None between rounds and once the game is over."""
        return self._current

    @property
    def had_first_turn(self) -> tuple[bool, ...]:
        """Per seat, whether its first turn of the round is over."""
        firsts = self._firsts
        return tuple([bool(firsts >> seat & 1) for seat in range(self._round.players)])

    @property
    def turn_tiles(self) -> int:
        """Tiles the player to move has played this turn."""
        return self._turn_tiles

    @property
    def has_drawn(self) -> bool:
        """Whether the player to move has drawn since their last tile."""
        return self._has_drawn

    @property
    def turn_doubles(self) -> tuple[int, ...]:
        """Trains ending in a double played this turn, uncovered, in order."""
        return self._turn_doubles

    @property
    def open_doubles(self) -> tuple[int, ...]:
        """Trains ending in an open double from an earlier turn, in order (D2)."""
        return self._open_doubles

    @property
    def idle_turns(self) -> int:
        """Consecutive turns that left the table unchanged, with no tile played and no marker newly placed (E2)."""
        return self._idle

    @property
    def scores(self) -> tuple[int, ...]:
        """The running total per seat (E3)."""
        return self._round.scores

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """One tuple of scores per finished round."""
        return self._round.round_scores

    @property
    def is_over(self) -> bool:
        """Whether the last round has ended."""
        return self._is_over

    @property
    def last_tile_called(self) -> bool:
        """Whether the player to move has called their last tile this turn."""
        return self._called

    # -- derived ----------------------------------------------------------------

    # The seat and train arguments are taken as Any, so that the library's own check
    # runs on both builds: a compiled build would refuse a str for an int in words of
    # its own, and turn a bool into an int.  The overloads give their types.
    @overload
    def hand(self, seat: bool) -> NoReturn: ...
    @overload
    def hand(self, seat: int) -> tuple[Tile, ...]: ...
    def hand(self, seat: Any) -> tuple[Tile, ...]:
        """Return the tiles *seat* holds, in ascending order.

        >>> from mexican_train import HUB, new_game
        >>> len(new_game(4, HUB, seed=1).hand(2))
        15
        """
        check_seat(seat, self._round.players)
        return tiles_of(self._hands[seat])

    @overload
    def train(self, train_id: bool) -> NoReturn: ...
    @overload
    def train(self, train_id: int) -> Train: ...
    def train(self, train_id: Any) -> Train:
        """Return the train with id *train_id*: a seat, or `MEXICAN`.

        >>> from mexican_train import MEXICAN, new_game
        >>> new_game(4, seed=1).train(MEXICAN)
        Train(tiles=(), open_end=12, marked=False)
        """
        check_train_id(train_id, self._round.players)
        train: Train = self.trains[train_id]
        return train

    @overload
    def has_had_first_turn(self, seat: bool) -> NoReturn: ...
    @overload
    def has_had_first_turn(self, seat: int) -> bool: ...
    def has_had_first_turn(self, seat: Any) -> bool:
        """Return whether *seat* has finished its first turn of this round.

        >>> from mexican_train import new_game
        >>> new_game(4, seed=1).has_had_first_turn(0)
        False
        """
        check_seat(seat, self._round.players)
        return bool(self._firsts >> seat & 1)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds, by seat (what every seat sees, S5).

        The same as ``tuple(map(len, state.hands))`` and a view's `PlayerView.hand_sizes`,
        without building the hands.

        >>> from mexican_train import HUB, new_game
        >>> new_game(4, HUB, seed=1).hand_sizes
        (15, 15, 15, 15)
        """
        return tuple([count_tiles(mask) for mask in self._hands])

    @property
    def boneyard_size(self) -> int:
        """The number of tiles left to draw."""
        return self._left

    @property
    def rounds(self) -> int:
        """The number of rounds in the game (S2, V9)."""
        return self._round.rounds

    @property
    def is_round_over(self) -> bool:
        """Whether the round has ended (the finished table stays visible until `NextRound`)."""
        return self._current is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (E5), empty until the game is over.

        Lowest total wins; ties go to the most rounds scored at 0, then to the
        lowest single round score other than 0; players still level share
        (with ``Rules.tie_break`` False, everyone on the lowest total shares).
        """
        if not self._is_over:
            return ()
        r = self._round
        return winners_of(r.scores, r.round_scores, r.rules.tie_break)

    def replace(self, **changes: Unpack[StateChanges]) -> GameState:
        """Return a copy of the state with some public fields changed, unchecked.

        It takes the names of `GameState`'s attributes (``hands=...``,
        ``scores=...``) and checks nothing: the result may break the rules.
        (A state is not an attrs class, so ``attrs.evolve``, which builds new
        `Rules`, does not take one: this is its counterpart.)  Use it to
        build odd positions for tests; `mexican_train.serialize.state_from_json`
        and `mexican_train.notation.parse_state` check what they build.
        (On Python 3.13, ``copy.replace(state, ...)`` calls it.)

        What it does check is what any state must be, rules or not, so that the
        engine, views and writers can read the result: each value is of its
        field's kind (a list is taken for a tuple), the counts agree with
        ``players`` (a hand, a first-turn flag and a score per seat, a train per
        seat and the Mexican train), seats and train ids exist, and every tile
        comes from the double-``max_pip`` set.  Both builds refuse alike.

        Raises:
            TypeError: if a name is not a field of `GameState`, or a value is not
                of its field's kind (a str for a seat, a list of ints for a hand).
            InvalidArgumentError: if the counts, seats, train ids or tiles do not
                fit the game, or a hand lists a tile twice (a hand is a set).

        >>> from mexican_train import new_game
        >>> state = new_game(2, seed=1)
        >>> state.replace(scores=(5, 0)).scores, state.scores
        ((5, 0), (0, 0))
        """
        unknown = sorted(set(changes) - set(_FIELDS))
        if unknown:
            raise TypeError(f"GameState has no field {', '.join(map(repr, unknown))}")
        values = public_values(self)
        for name, value in changes.items():
            values[name] = _KINDS[name](value, name, -1)
        _check_shape(values)
        return state_from_fields(**values)

    def __replace__(self, **changes: Unpack[StateChanges]) -> GameState:
        return self.replace(**changes)

    def _repr_svg_(self) -> str:
        """Return an SVG picture of the table (every hand shown), for Jupyter."""
        # Drawing is a format, a layer above the core, imported when Jupyter asks.
        from .._formats.render import render_svg

        return render_svg(self)

    # -- value semantics --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        if self is other:
            return True
        return (
            self._hands == other._hands
            and self._current == other._current
            and self._turn_tiles == other._turn_tiles
            and self._firsts == other._firsts
            and self._has_drawn == other._has_drawn
            and self._idle == other._idle
            and self._is_over == other._is_over
            and self._called == other._called
            and self._turn_doubles == other._turn_doubles
            and self._open_doubles == other._open_doubles
            and self._marks == other._marks
            and self._owned == other._owned
            and self._board == other._board
            and self._round.same(other._round)
            and self._round.seed == other._round.seed
            and (
                (self._round is other._round and self._left == other._left)
                or self.boneyard == other.boneyard
            )
        )

    def __hash__(self) -> int:
        # Ints only, so the hash is the same in every process and on both builds
        # (the rules' hash is not: an enum hashes its name, a str).  The masks of
        # the hands and of the table tell where every tile is.
        known = self._hash
        if known == -1:
            r = self._round
            known = hash(
                (
                    self._hands,
                    self._table,
                    self._left,
                    self._current,
                    self._firsts,
                    self._turn_tiles,
                    self._has_drawn,
                    self._turn_doubles,
                    self._open_doubles,
                    self._idle,
                    self._is_over,
                    self._called,
                    r.round_number,
                    r.scores,
                    r.seed,
                )
            )
            self._hash = known
        return known

    def __repr__(self) -> str:
        return (
            f"GameState(rules={rules_repr(self.rules)}, players={self.players!r}, "
            f"max_pip={self.max_pip!r}, hand_size={self.hand_size!r}, "
            f"round_number={self.round_number!r}, engine={self.engine!r}, "
            f"first_player={self.first_player!r}, current_player={self._current!r}, "
            f"scores={self.scores!r}, is_over={self._is_over!r})"
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its public fields, with each train as a plain (tiles, open end,
        # marker, owner played) tuple: the same bytes on both builds and in every
        # process (a compiled class's module name is another str object, which
        # pickle's memo would otherwise write differently), and either build loads
        # either pickle.
        values = [None if name == "trains" else getattr(self, name) for name in _FIELDS]
        values[_FIELDS.index("trains")] = tuple(train_fields(self._board, self._marks, self._owned))
        return (unpickle_state, tuple(values))

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: object) -> GameState:
        return self


# `GameState.had_first_turn` by (the state's bits, players): a view asks for the same few
# tuples over and over.  Bounded: emptied when full.
_FIRSTS: Final[dict[tuple[int, int], tuple[bool, ...]]] = {}


def view_fields(state: GameState, hand: tuple[Tile, ...], seat: int | None) -> tuple[Any, ...]:
    """Return `PlayerView`'s fields for *state*, with *hand* and *seat* (S5), in its order,
    then what the view keeps for the engine (see `table_masks`).

    One call that reads the state's storage (in the compiled build, C fields read
    by C code) instead of a property read per field from `view.py`.
    """
    r = state._round
    key = (state._firsts, r.players)
    firsts = _FIRSTS.get(key)
    if firsts is None:
        if len(_FIRSTS) >= 4096:
            _FIRSTS.clear()
        firsts = _FIRSTS[key] = state.had_first_turn
    return (
        r.rules, r.players, r.max_pip, r.hand_size, r.round_number, r.engine, r.first_player,
        seat, hand, state.hand_sizes,
        state._left, state.trains, state._current, firsts,
        state._turn_tiles, state._has_drawn, state._turn_doubles, state._open_doubles,
        state._idle, r.scores, r.round_scores, state._is_over,
        state.hands if r.rules.open_hands else None,  # V10: open hands show everything
        state._called,
        # Not a field: the viewer's hand as a mask, then what table_masks gives.
        (0 if seat is None else state._hands[seat], state._board, state._table, state._marks,
         state._owned, state._firsts),
    )  # fmt: skip


def seat_view_fields(state: GameState, seat: Any) -> tuple[Any, ...]:
    """Return `view_fields` for *seat*'s view of *state*, once *seat* is checked (S5)."""
    check_seat(seat, state._round.players)
    return view_fields(state, tiles_of(state._hands[seat]), seat)


# The rounds of views' positions, by the rules' id (their hash is slow) and the public
# facts a round holds but its round scores (a tuple of tuples, slow to hash: compared
# instead); an entry keeps its rules alive, so the id stays theirs.  Bounded: emptied
# when full.
_PUBLIC_ROUNDS: Final[dict[tuple[int, ...], _Round]] = {}


def position_of_view(fields: tuple[Any, ...]) -> GameState:
    """Return the state the engine reads for the view with these *fields*: what it shows.

    *fields* are a `PlayerView`'s, in its order, then what `view_fields` keeps for the
    engine (None: found from the fields).  The viewer's hand (every other hand
    empty), the table, the turn and the boneyard's size (S5); no boneyard and the
    seed 0, in a round shared by the views of the same public round.
    """
    rules: Rules = fields[0]
    players: int = fields[1]
    max_pip: int = fields[2]
    hand_size: int = fields[3]
    round_number: int = fields[4]
    engine: Tile = fields[5]
    first_player: int = fields[6]
    seat: int | None = fields[7]
    scores: tuple[int, ...] = fields[19]
    round_scores: tuple[tuple[int, ...], ...] = fields[20]
    key = (id(rules), players, max_pip, hand_size, round_number, engine._index, first_player,
           *scores)  # fmt: skip
    round_ = _PUBLIC_ROUNDS.get(key)
    if round_ is None or round_.rules is not rules or round_.round_scores != round_scores:
        if len(_PUBLIC_ROUNDS) >= 1024:
            _PUBLIC_ROUNDS.clear()
        round_ = _PUBLIC_ROUNDS[key] = _Round(
            rules, players, max_pip, hand_size, round_number, engine, first_player,
            scores, round_scores, 0, (),
        )  # fmt: skip
    masks: tuple[Any, ...] | None = fields[24]
    if masks is None:
        masks = (mask_of(fields[8]), *table_masks(engine, fields[11], fields[13]))
    hands = [0] * players
    if seat is not None:
        hands[seat] = masks[0]
    return GameState(
        round_, fields[10], tuple(hands), masks[1], masks[2], masks[3], masks[4], fields[12],
        masks[5], fields[14], fields[15], fields[16], fields[17], fields[18], fields[21],
        fields[23],
    )  # fmt: skip


def owner_played_default(tiles: tuple[Tile, ...], is_mexican: bool) -> bool:
    """Return `Train.owner_played` for a train whose document or notation leaves it out.

    A personal train's tiles are then its owner's (forced on an unmarked train, P6);
    the Mexican train has no owner.
    """
    return bool(tiles) and not is_mexican


def unpickle_state(*values: Any) -> GameState:
    """Return the state `GameState.__reduce__` pickled (trains as tuples of their fields)."""
    fields = list(values)
    index = _FIELDS.index("trains")
    pickled: tuple[tuple[Any, ...], ...] = fields[index]
    fields[index] = tuple([Train(*train) for train in pickled])
    return state_from_fields(*fields)


# -- what replace() checks: kinds and shape, not rules --------------------------
# Checked by the library, so the two builds refuse alike and in the same words (a
# compiled build would otherwise check state_from_fields' typed arguments itself).


def _where(name: str, index: int) -> str:
    # The field, or its item *index* (the name is made only for a message).
    return name if index < 0 else f"{name}[{index}]"


def whole(value: object, name: str, index: int = -1) -> int:
    """Return *value* if it is an int (not a bool); else raise TypeError naming *name*."""
    if type(value) is not int:
        raise TypeError(f"{_where(name, index)} is a whole number, not {shown(value)}")
    return value


def _seat_or_none(value: object, name: str, index: int = -1) -> int | None:
    return None if value is None else whole(value, name, index)


def flag(value: object, name: str, index: int = -1) -> bool:
    """Return *value* if it is a bool; else raise TypeError naming *name*."""
    if type(value) is not bool:
        raise TypeError(f"{_where(name, index)} is True or False, not {shown(value)}")
    return value


_Kind = Callable[[object, str, int], _T]


def _instance(cls: type[_T], what: str) -> _Kind[_T]:
    # A checker of a value that must be an instance of *cls* (*what*, in words).
    def check(value: object, name: str, index: int = -1) -> _T:
        if not isinstance(value, cls):
            raise TypeError(f"{_where(name, index)} is {what}, not {shown(value)}")
        return value

    return check


_tile: Final = _instance(Tile, "a Tile")
_train: Final = _instance(Train, "a Train")
_rules: Final = _instance(Rules, "a Rules value")


def _each(kind: _Kind[_T]) -> _Kind[tuple[_T, ...]]:
    # A checker of a tuple (or list) whose items are each checked by *kind*.
    def check(value: object, name: str, index: int = -1) -> tuple[_T, ...]:
        name = _where(name, index)
        if type(value) is not tuple and type(value) is not list:
            raise TypeError(f"{name} is a tuple, not {shown(value)}")
        return tuple([kind(item, name, number) for number, item in enumerate(value)])

    return check


#: How `GameState.replace` checks (and takes) a value of each public field.
_KINDS: Final[dict[str, _Kind[object]]] = {
    "rules": _rules,
    "players": whole,
    "max_pip": whole,
    "hand_size": whole,
    "seed": whole,
    "round_number": whole,
    "engine": _tile,
    "first_player": whole,
    "hands": _each(_each(_tile)),
    "boneyard": _each(_tile),
    "trains": _each(_train),
    "current_player": _seat_or_none,
    "had_first_turn": _each(flag),
    "turn_tiles": whole,
    "has_drawn": flag,
    "turn_doubles": _each(whole),
    "open_doubles": _each(whole),
    "idle_turns": whole,
    "scores": _each(whole),
    "round_scores": _each(_each(whole)),
    "is_over": flag,
    "last_tile_called": flag,
}


def _optional(kind: _Kind[_T]) -> _Kind[_T | None]:
    # A checker of a value that is None or one *kind* checks.
    def check(value: object, name: str, index: int = -1) -> _T | None:
        return None if value is None else kind(value, name, index)

    return check


#: How `PlayerView`'s constructor and `PlayerView.replace` check (and take) a value of each
#: field: a field a state has too as `GameState.replace` does, then a view's own fields.
VIEW_KINDS: Final[dict[str, _Kind[object]]] = {
    **{name: kind for name, kind in _KINDS.items() if name not in ("seed", "hands", "boneyard")},
    "seat": _seat_or_none,
    "hand": _each(_tile),
    "hand_sizes": _each(whole),
    "boneyard_size": whole,
    "open_hands": _optional(_each(_each(_tile))),
}


def _check_shape(values: dict[str, Any]) -> None:
    # The shape any state has, rules or not: the engine indexes by seat, train id
    # and tile, so these are checked before anything is built (a huge player count
    # is refused by the counts, before any table of that size is made).
    held = {"engine": (values["engine"],), "boneyard": values["boneyard"]}
    for seat, hand in enumerate(values["hands"]):
        held[f"hands[{seat}]"] = hand
    _check_table_shape(values, ("hands", "trains", "had_first_turn", "scores"), held)


def check_view_shape(values: dict[str, Any], changed: Iterable[str] | None = None) -> None:
    """Raise `InvalidArgumentError` unless a view's *values* (by name) have the shape any
    view has, rules or not: the counts agree with ``players``, seats and train ids exist,
    every tile comes from the set, and no hand lists a tile twice.

    *changed* names the values that changed in a view of that shape (`PlayerView.replace`):
    only what they bear on is checked.  None: everything.
    """
    names = set(_VIEW_NAMES if changed is None else changed)
    if "players" in names or "max_pip" in names:
        names = set(_VIEW_NAMES)  # every count, seat and tile bears on them
    seat = values["seat"]
    if "seat" in names and seat is not None:
        check_seat(seat, values["players"])
    held: dict[str, tuple[Tile, ...]] = {}
    if "engine" in names:
        held["engine"] = (values["engine"],)
    if "hand" in names:
        held["hand"] = values["hand"]
    counted = ["hand_sizes", "trains", "had_first_turn", "scores"]
    if values["open_hands"] is not None:
        counted.append("open_hands")
        if "open_hands" in names:
            for number, hand in enumerate(values["open_hands"]):
                held[f"open_hands[{number}]"] = hand
    _check_table_shape(values, tuple(name for name in counted if name in names), held, names)


_VIEW_NAMES: Final = frozenset(VIEW_KINDS)


def _check_table_shape(
    values: dict[str, Any],
    counted: tuple[str, ...],
    held: dict[str, tuple[Tile, ...]],
    names: Collection[str] = _VIEW_NAMES,
) -> None:
    # What a state and a view share: the fields *counted* hold an entry per seat (the
    # trains one more, the Mexican train), seats and train ids exist, and the tiles
    # *held* (by where they are) and the trains' come from the set, no hand twice.
    # Only the seats, train ids and trains among *names* are checked.
    players = values["players"]
    if players < 1:
        raise InvalidArgumentError(f"a game has at least 1 player, not {shown(players)}")
    for name in counted:
        count = players + 1 if name == "trains" else players
        if len(values[name]) != count:
            raise InvalidArgumentError(
                f"{name} has {len(values[name])} entries; {shown(players)} players need "
                f"{shown(count)}"
            )
    if "round_scores" in names:
        for number, row in enumerate(values["round_scores"]):
            if len(row) != players:
                raise InvalidArgumentError(
                    f"round_scores[{number}] has {len(row)} scores; {players} players need "
                    f"{players}"
                )
    if "first_player" in names:
        check_seat(values["first_player"], players)
    if "current_player" in names and values["current_player"] is not None:
        check_seat(values["current_player"], players)
    for name in ("turn_doubles", "open_doubles"):
        if name in names:
            for train_id in values[name]:
                check_train_id(train_id, players)
    max_pip = values["max_pip"]
    if not 0 <= max_pip <= MAX_PIP:
        check_bound("pip", max_pip, "max_pip")  # raises, in the table's words
    for name, hand in held.items():
        if name.startswith(("hand", "open_hands")) and len(set(hand)) != len(hand):
            # A hand is a set of tiles (kept as bits): it cannot list one twice.
            raise InvalidArgumentError(f"{name} lists a tile twice: {hand!r}")
    if "trains" in names:
        for number, train in enumerate(values["trains"]):
            held[f"trains[{number}]"] = train.tiles
            if not 0 <= train.open_end <= max_pip:
                raise InvalidArgumentError(
                    f"trains[{number}] needs a {shown(train.open_end)}, which a "
                    f"double-{max_pip} set does not have"
                )
    for name, tiles in held.items():
        for tile in tiles:
            if tile.high > max_pip:
                raise InvalidArgumentError(
                    f"{name} holds {tile}, which a double-{max_pip} set does not have"
                )


def with_boneyard(state: GameState, boneyard: tuple[Tile, ...]) -> GameState:
    """Return *state* with the boneyard in this order, unchecked (the chance API checks)."""
    values = public_values(state)
    values["boneyard"] = boneyard
    return state_from_fields(**values)


def public_values(state: GameState) -> dict[str, Any]:
    """Return the public fields of *state* by name, as `state_from_fields` takes them.

    Its trains are read without being kept on the state: once kept, `apply` hands
    them on to the next state (for a caller who views every state), which a state
    only copied from need not pay for.
    """
    values = {name: getattr(state, name) for name in _FIELDS if name != "trains"}
    values["trains"] = read_trains(state)
    return values


def read_trains(state: GameState) -> tuple[Train, ...]:
    """Return the `Train` values of *state*: those it keeps, else built, not kept."""
    trains = state._trains
    if trains is None:
        trains = trains_of(state._board, state._marks, state._owned)
    return trains


def state_from_fields(
    rules: Rules,
    players: int,
    max_pip: int,
    hand_size: int,
    seed: int,
    round_number: int,
    engine: Tile,
    first_player: int,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
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
    last_tile_called: bool = False,
) -> GameState:
    """Return the state with these public fields, unchecked (the readers check first)."""
    round_ = _Round(
        rules, players, max_pip, hand_size, round_number, engine, first_player,
        tuple(scores), tuple(tuple(points) for points in round_scores), seed, tuple(boneyard),
    )  # fmt: skip
    board, table, marks, owned, firsts = table_masks(engine, trains, had_first_turn)
    return GameState(
        round_=round_,
        left=len(round_.boneyard),
        hands=tuple(mask_of(hand) for hand in hands),
        board=board,
        table=table,
        marks=marks,
        owned=owned,
        current=current_player,
        firsts=firsts,
        turn_tiles=turn_tiles,
        has_drawn=has_drawn,
        turn_doubles=tuple(turn_doubles),
        open_doubles=tuple(open_doubles),
        idle=idle_turns,
        is_over=is_over,
        called=last_tile_called,
    )


def table_masks(
    engine: Tile, trains: tuple[Train, ...], had_first_turn: tuple[bool, ...]
) -> tuple[tuple[Line, ...], int, int, int, int]:
    """Return the public storage of a state with this engine, these trains and first turns
    (see the layout): its board and the masks of the table, the markers, the owners'
    plays and the first turns had."""
    table = 1 << engine._index
    for train in trains:
        table |= mask_of(train.tiles)
    firsts = 0
    for seat, done in enumerate(had_first_turn):
        if done:
            firsts |= 1 << seat
    marks = 0  # by position: only replace() can mark the Mexican train (the last)
    owned = 0
    for seat, train in enumerate(trains):
        if train.marked:
            marks |= 1 << seat
        if train.owner_played:
            owned |= 1 << seat
    board = tuple([(train.open_end, train.tiles) for train in trains])
    return board, table, marks, owned, firsts


def masks_of(state: GameState) -> tuple[tuple[int, ...], int, tuple[Line, ...], int, int]:
    """Return the masks of *state*'s layout: hands, table, board, markers, first turns.

    The hands are one mask per seat (secret: only a reader that keeps to what a
    seat may know, S5, uses them), the table the mask of the tiles on it (the
    engine's too), the board one (open end, tiles) per train, the Mexican train
    last (P2), the markers bit *i* for trains[i] (P6), the first turns bit *seat*
    once that seat's first turn is over.  For encoders that work on masks.
    """
    return (state._hands, state._table, state._board, state._marks, state._firsts)
