"""Fixed-size encodings of moves and views for learning agents (numpy arrays).

Both codecs are pure functions of what one seat may know: a `PlayerView` and
its seat (S5).  Their layouts depend only on the rules and the number of
players, never on the position, and carry a version number that changes
whenever a layout does.
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

import numpy as np
import numpy.typing as npt

from .._bots.determinize import table_then
from .._core.engine import legal_moves
from .._core.errors import InvalidArgumentError, shown
from .._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.rules import Rules
from .._core.tiles import Tile, full_set, tile_index
from .._core.view import PlayerView
from .._formats import events as kinds
from .batch import (
    Layout,
    indices,
    lacking_suits,
    pack,
    row_floats,
    seen_bits,
    view_floats,
    view_row,
)

if TYPE_CHECKING:
    import gymnasium.spaces

__all__ = ["ENCODING_VERSION", "ActionCodec", "ObservationCodec"]

_D = TypeVar("_D", bound=np.generic)
_EVENT_TYPES: Final[tuple[type[kinds.Event], ...]] = typing.get_args(kinds.Event)

#: The version of the action and observation layouts documented in "Train an agent".
ENCODING_VERSION: Final = 1

#: The moves after the plays, in this order, at the end of the action space.
_SPECIAL: Final[tuple[Move, ...]] = (Draw(), Pass(), NextRound(), CallLastTile())


def _check_table(rules: object, players: object) -> tuple[Rules, int, int]:
    # The set in use (S1): the same lookup new_game makes, so a codec fits its games.
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {rules!r}")
    if type(players) is not int:
        raise TypeError(f"the number of players is a whole number, not {players!r}")
    max_pip, _ = rules.deal_table.lookup(players, rules.max_pip, rules.hand_size)
    return rules, players, max_pip


def _check_view(view: object, rules: Rules, players: int, what: str) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise TypeError(f"{what} needs a PlayerView (view(state, seat)), not {view!r}")
    if view.seat is None:
        raise InvalidArgumentError(
            f"{what} encodes what one seat knows, relative to that seat; "
            "a spectator view has no seat"
        )
    if view.players != players or (view.rules is not rules and view.rules != rules):
        raise InvalidArgumentError(
            f"{what} was built for {players} players under other rules; this view is of "
            f"a {view.players}-player game under {view.rules!r}"
        )
    return view


def _out(out: object, rows: int | None, width: int, dtype: type[_D], what: str) -> npt.NDArray[_D]:
    # A caller's array to fill: exactly the shape and dtype the codec writes.
    shape = (width,) if rows is None else (rows, width)
    if out is None:
        return np.empty(shape, dtype=dtype)
    if (
        not isinstance(out, np.ndarray)
        or out.shape != shape
        or out.dtype != dtype
        or not out.flags.writeable
    ):
        found = (
            f"a {'' if out.flags.writeable else 'read-only '}{out.dtype} array of shape {out.shape}"
            if isinstance(out, np.ndarray)
            else repr(out)
        )
        raise InvalidArgumentError(
            f"{what} fills a {np.dtype(dtype)} array of shape {shape}, not {found}"
        )
    return cast("npt.NDArray[_D]", out)


def _views(views: object, rules: Rules, players: int, what: str) -> list[PlayerView]:
    if not isinstance(views, Sequence):
        raise TypeError(f"{what} needs a sequence of PlayerViews, not {views!r}")
    return [_check_view(mine, rules, players, what) for mine in views]


def check_seat(seat: object, players: int) -> int:
    """Return *seat*, a seat of a *players*-player game, as an int.

    A numpy integer is taken too: the self-play tables give the seat to move as one
    (``infos["seat"]``), and a numpy generator draws one.

    Raises:
        InvalidArgumentError: if *seat* is not a whole number from 0 to *players* - 1.
    """
    if type(seat) is int:
        if 0 <= seat < players:
            return seat
    elif isinstance(seat, np.integer) and 0 <= seat < players:
        return int(seat)
    raise InvalidArgumentError(
        f"a seat is 0-{players - 1} in a {players}-player game, not {shown(seat)}"
    )


class ActionCodec:
    """Number every move of a game: a fixed discrete action space for learning agents.

    The space depends only on the rules and the number of players *P* (through
    the set in use, double-*N*, with *T* tiles, S1), never on the position:

    - ``tile_index(tile) * (P + 1) + slot`` plays *tile* on a train given
      relative to the acting seat: slot 0 is the seat's own train, slot *k* the
      train of seat ``(seat + k) % P``, slot *P* the Mexican train;
    - then, after the ``T * (P + 1)`` plays: `Draw`, `Pass`, `NextRound`,
      `CallLastTile`.

    Relative trains let one policy play every seat.  `mask` follows PettingZoo's
    convention: an int8 array with a 1 for each legal move.

    Args:
        rules: the rules of the games to encode.
        players: the number of players.

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        TypeError: if *rules* is not a `Rules` value or *players* not an int.

    Attributes:
        rules: the rules of the games encoded.
        players: the number of players.
        max_pip: the highest number of the set the deal table gives *players* (S1).
        size: the number of actions, ``T * (P + 1) + 4``; every index is below it.

    >>> from mexican_train import HUB, MEXICAN, Draw, Play, Tile
    >>> codec = ActionCodec(HUB, 4)
    >>> codec.size  # 91 tiles x 5 trains, and 4 other moves
    459
    >>> codec.encode(Play(Tile(12, 5), MEXICAN), seat=2), codec.encode(Draw(), seat=2)
    (419, 455)
    >>> codec.decode(419, seat=2), codec.decode(419, seat=0)
    (Play(Tile(12, 5), MEXICAN), Play(Tile(12, 5), MEXICAN))
    >>> codec.decode(codec.encode(Play(Tile(3, 1), 3), seat=2), seat=2)
    Play(Tile(3, 1), 3)
    """

    __slots__ = ("_by_index", "_tiles", "max_pip", "players", "rules", "size")

    rules: Rules
    players: int
    max_pip: int
    size: int

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules, self.players, self.max_pip = _check_table(rules, players)
        self._tiles = full_set(self.max_pip)
        slots = self.players + 1
        self.size = len(self._tiles) * slots + len(_SPECIAL)
        by_tile = sorted(self._tiles, key=tile_index)
        self._by_index: tuple[Tile, ...] = tuple(by_tile)

    def __repr__(self) -> str:
        return f"ActionCodec({self.rules!r}, {self.players})"

    @property
    def version(self) -> int:
        """The layout's version (`ENCODING_VERSION`)."""
        return ENCODING_VERSION

    def _slot(self, train: int, seat: int) -> int:
        return self.players if train == MEXICAN else (train - seat) % self.players

    def encode(self, move: Move, seat: int | np.integer[Any]) -> int:
        """Return the index of *move*, made by *seat* (trains relative to it).

        >>> from mexican_train import STANDARD, NextRound, Play, Tile
        >>> codec = ActionCodec(STANDARD, 2)  # a double-9 set: 55 tiles, 3 trains
        >>> codec.encode(Play(Tile(9, 9), 1), seat=1), codec.encode(NextRound(), seat=0)
        (162, 167)

        *seat* may be a numpy integer, as the self-play tables give it (``infos["seat"]``).

        Raises:
            InvalidArgumentError: if *seat* is not a seat of the game, or the move
                names a tile outside the set or a train the game does not have.
            TypeError: if *move* is not a move.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = check_seat(seat, self.players)  # a numpy integer, or refused
        if isinstance(move, Play):
            tile, train = move.tile, move.train
            if tile.high > self.max_pip:
                raise InvalidArgumentError(
                    f"{move!r} plays a tile outside the double-{self.max_pip} set in use"
                )
            if train != MEXICAN and not 0 <= train < self.players:
                raise InvalidArgumentError(
                    f"{move!r} names train {train}, but a {self.players}-player game has "
                    f"trains 0-{self.players - 1} and MEXICAN"
                )
            return tile_index(tile) * (self.players + 1) + self._slot(train, seat)
        for offset, special in enumerate(_SPECIAL):
            if move is special:
                return self.size - len(_SPECIAL) + offset
        raise TypeError(f"encode() needs a move (Play, Draw, Pass, ...), not {move!r}")

    def decode(self, index: int, seat: int | np.integer[Any]) -> Move:
        """Return the move with number *index*, made by *seat*: the inverse of `encode`.

        Accepts numpy integers too (what ``action_space.sample()`` returns), and as
        *seat* (what the self-play tables give in ``infos["seat"]``).

        >>> from mexican_train import STANDARD
        >>> codec = ActionCodec(STANDARD, 2)
        >>> codec.decode(162, seat=1), codec.decode(165, seat=0)
        (Play(Tile(9, 9), 1), Draw())

        Raises:
            InvalidArgumentError: if *index* is not in ``range(size)`` or *seat* is
                not a seat of the game.
            TypeError: if *index* is not a whole number (a float, a str, a bool).
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = check_seat(seat, self.players)  # a numpy integer, or refused
        try:
            # A bool is not taken for a number; operator.index refuses 1.5 and '0'.
            number = operator.index(index) if not isinstance(index, bool) else None
        except TypeError:
            number = None
        if number is None:
            raise TypeError(
                f"an action is a whole number 0-{self.size - 1} for this game, not {shown(index)}"
            )
        if not 0 <= number < self.size:
            raise InvalidArgumentError(
                f"an action is a whole number 0-{self.size - 1} for this game, not {shown(index)}"
            )
        plays = self.size - len(_SPECIAL)
        if number >= plays:
            return _SPECIAL[number - plays]
        tile_number, slot = divmod(number, self.players + 1)
        train = MEXICAN if slot == self.players else (seat + slot) % self.players
        return Play(self._by_index[tile_number], train)

    def mask(
        self, view: PlayerView, out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """Return an int8 array with 1 at the index of each legal move of *view*'s seat.

        It is exactly ``legal_moves(view)``: all zeros when it is not the seat's
        turn or the game is over, only `NextRound` between rounds.  With *out*,
        an int8 array of shape ``(size,)``, the mask is written there and *out*
        returned.

        >>> from mexican_train import HUB, legal_moves, new_game, view
        >>> codec = ActionCodec(HUB, 4)
        >>> mine = view(new_game(4, HUB, seed=1), 0)
        >>> int(codec.mask(mine).sum()) == len(legal_moves(mine))
        True
        >>> int(codec.mask(view(new_game(4, HUB, seed=1), 1)).sum())
        0

        Raises:
            InvalidArgumentError: if *view* is a spectator's, or of another game's
                rules or number of players, or *out* is not an int8 array of
                shape ``(size,)``.
            TypeError: if *view* is not a `PlayerView`.
        """
        view = _check_view(view, self.rules, self.players, "ActionCodec.mask()")
        mask = _out(out, None, self.size, np.int8, "ActionCodec.mask()")
        self._fill([view], mask.reshape(1, self.size))
        return mask

    def mask_batch(
        self, views: Sequence[PlayerView], out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """Return the masks of many views at once: row *i* is ``mask(views[i])``.

        With *out*, an int8 array of shape ``(len(views), size)``, the masks are
        written there and *out* returned (no new array).

        >>> from mexican_train import HUB, new_game, view
        >>> codec = ActionCodec(HUB, 2)
        >>> games = [new_game(2, HUB, seed=seed) for seed in range(3)]
        >>> masks = codec.mask_batch([view(game, game.current_player) for game in games])
        >>> masks.shape, bool((masks.sum(axis=1) > 0).all())
        ((3, 277), True)

        Raises:
            InvalidArgumentError: as `mask`, for any view or a wrong *out*.
            TypeError: if *views* is not a sequence of `PlayerView`.
        """
        mine = _views(views, self.rules, self.players, "ActionCodec.mask_batch()")
        masks = _out(out, len(mine), self.size, np.int8, "ActionCodec.mask_batch()")
        return self._fill(mine, masks)

    def _fill(self, views: list[PlayerView], out: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        flat: list[int] = []
        for row, mine in enumerate(views):
            seat = mine.seat
            assert seat is not None  # _check_view refused a spectator
            flat += indices(legal_moves(mine), seat, self.players, self.size, row * self.size)
        out.fill(0)
        # A caller's *out* may have any strides; reshape would copy one that cannot be
        # flattened in place (column-major, a view of every other column), and the
        # ones would go to the copy.  .flat indexes any array in place, more slowly.
        if out.flags.c_contiguous:
            out.reshape(-1)[flat] = 1
        else:
            out.flat[flat] = 1
        return out


class ObservationCodec:
    """Encode what one seat may know as a flat float32 array (layout version 1).

    Everything is relative to the viewing seat: row 0 is the seat itself, row
    *k* the seat ``(seat + k) % P``; train slot *P* is the Mexican train.  The
    blocks, in order (*T* tiles in the set, *N* its highest number, *P* players):

    ========== ================= ==================================================
    block      size              content
    ========== ================= ==================================================
    hands      P x T             own hand in row 0; other rows only with open hands (V10)
    table      T                 tiles on the table, the engine included
    engine     N + 1             the round's engine, one-hot by its number
    trains     (P + 1) x (N + 7) per train: open end one-hot (N + 1), marked, started,
                                 ends in a double, open double (D2), this turn's
                                 uncovered double (D1), tiles / T
    seats      P x 5             per seat: hand size / T, first turn done, to move,
                                 first player of the round, score / score bound
    game       11                boneyard / T, round / rounds, my turn, round over,
                                 game over, tiles this turn / T, has drawn, last tile
                                 called, idle turns / P (E2), Mexican train open to
                                 me (V2), a constant 1
    ========== ================= ==================================================

    Every value lies in [0, 1], except scores in [-1, 1] (a negative double-blank
    score, V7, can make a total negative); the score bound is the most a seat can
    score in a game.  Nothing secret is encoded: the other hands (unless open,
    V10), the boneyard's order and the seed are not in a `PlayerView`.

    With *information_state*, the encoding also says what the seat has seen this
    round, from the round's events as it saw them (``history=``), in one more
    block at the end (the blocks above are unchanged):

    ============ ======================= ============================================
    information  (P - 1) x (N + 1 + T)   per other seat, row *k* for seat
                                         ``(seat + k) % P`` (k = 1 .. P-1): the
                                         numbers it is known to lack (N + 1), the
                                         tiles it has played this round (T)
    ============ ======================= ============================================

    A seat is known to lack a number when, in a turn in which it played no tile,
    it passed while every tile showing that number could have been played on a
    train open to it (P3, P4, D2): a player who can play must (P7), so it held
    none.  Its hand then only shrinks, so the lack holds until it next draws (a
    drawn tile may be any); under voluntary play (V6) a pass tells nothing.

    Args:
        rules: the rules of the games to encode.
        players: the number of players.
        information_state: add the information-state block (then `encode`
            needs the round's events).

    Raises:
        DealError: if the rules' deal table does not cover *players* (S1).
        TypeError: if *rules* is not a `Rules` value or *players* not an int.

    Attributes:
        rules: the rules of the games encoded.
        players: the number of players.
        max_pip: the highest number of the set the deal table gives *players* (S1).
        information_state: whether the encoding ends with the information-state block.
        shape: the shape of one encoding, one dimension: the sum of the blocks' sizes.
        layout: each block's slice of an encoding, by the block's name in the tables
            above (``"hands"`` .. ``"game"``, and ``"information"`` with
            *information_state*): ``obs[codec.layout["trains"]]``.

    >>> from mexican_train import HUB, new_game, view
    >>> codec = ObservationCodec(HUB, 4)
    >>> codec.shape
    (594,)
    >>> obs = codec.encode(view(new_game(4, HUB, seed=1), 0))
    >>> obs.dtype, obs.shape, int(obs[codec.layout["hands"]].sum())
    (dtype('float32'), (594,), 15)
    """

    __slots__ = (
        "_lay", "_scalars", "_space", "information_state", "layout", "max_pip", "players",
        "rules", "shape",
    )  # fmt: skip

    rules: Rules
    players: int
    max_pip: int
    information_state: bool
    shape: tuple[int]
    layout: dict[str, slice]

    def __init__(self, rules: Rules, players: int, *, information_state: bool = False) -> None:
        self.rules, self.players, self.max_pip = _check_table(rules, players)
        if type(information_state) is not bool:
            raise TypeError(f"information_state is True or False, not {information_state!r}")
        self.information_state = information_state
        lay = self._lay = Layout(rules, players, self.max_pip, information_state)
        self._scalars = np.array(lay.scalars, dtype=np.intp)
        starts = {
            "hands": 0,
            "table": lay.table,
            "engine": lay.engine,
            "trains": lay.trains,
            "seats": lay.seats,
            "game": lay.game,
        }
        if information_state:
            starts["information"] = lay.seen
        ends = [*list(starts.values())[1:], lay.size]
        self.layout = {
            name: slice(start, end) for (name, start), end in zip(starts.items(), ends, strict=True)
        }
        self.shape = (lay.size,)
        self._space: gymnasium.spaces.Box | None = (
            None  # made by `space`, the first time it is asked
        )

    def __repr__(self) -> str:
        extra = ", information_state=True" if self.information_state else ""
        return f"ObservationCodec({self.rules!r}, {self.players}{extra})"

    @property
    def version(self) -> int:
        """The layout's version (`ENCODING_VERSION`)."""
        return ENCODING_VERSION

    @property
    def space(self) -> gymnasium.spaces.Box:
        """The Gymnasium space of the encodings, a ``Box`` of float32 values.

        >>> from mexican_train import STANDARD
        >>> ObservationCodec(STANDARD, 2).space.shape
        (244,)
        """
        if self._space is None:
            # Gymnasium is the rl extra's: the codecs themselves need numpy alone, so the
            # OpenSpiel game (the openspiel extra) encodes without it.
            from gymnasium import spaces

            low = np.zeros(self.shape, dtype=np.float32)
            low[self.layout["seats"]][4::5] = -1.0  # scores (V7: a double-blank may be < 0)
            high = np.ones(self.shape, dtype=np.float32)
            self._space = spaces.Box(low=low, high=high, dtype=np.float32)
        return self._space

    def encode(
        self,
        view: PlayerView,
        out: npt.NDArray[np.float32] | None = None,
        *,
        history: Iterable[kinds.Event] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Return the encoding of *view*: a float32 array of shape ``shape``.

        With *out*, a float32 array of that shape, the encoding is written there
        and *out* returned (no new array).  An information-state codec needs
        *history*: the events of the round so far as the seat saw them
        (`redact_events` of what `apply_with_events` gave, in order, from the
        round's `RoundStarted` or from the start of the game); events of earlier
        rounds may come first and are skipped.

        >>> from mexican_train import STANDARD, new_game, view
        >>> codec = ObservationCodec(STANDARD, 2)
        >>> obs = codec.encode(view(new_game(2, STANDARD, seed=3), 1))
        >>> float(obs[codec.layout["game"]][-1]), codec.space.contains(obs)
        (1.0, True)

        Raises:
            InvalidArgumentError: if *view* is a spectator's, or of another game's
                rules or number of players, or *out* is not a float32 array of
                shape ``shape``; if *history* is missing for an information-state
                codec, given to another, or does not fit *view*.
            TypeError: if *view* is not a `PlayerView`, or *history* holds
                something other than events.
        """
        what = "ObservationCodec.encode()"
        view = _check_view(view, self.rules, self.players, what)
        seat = view.seat
        assert seat is not None  # _check_view refused a spectator
        seen = None  # a plain codec without a history: nothing to check
        if history is not None or self.information_state:
            seen = self._seen([view], None if history is None else [history], what)
        obs = None if out is None else _out(out, None, self.shape[0], np.float32, what)
        row = view_floats(self._lay, view, seat, 0 if seen is None else seen[0])
        if obs is None:  # the row's own buffer: no copy
            return np.frombuffer(row, np.float32)  # (a keyword costs more)
        obs.data[:] = memoryview(row).cast("f")
        return obs

    def encode_batch(
        self,
        views: Sequence[PlayerView],
        out: npt.NDArray[np.float32] | None = None,
        *,
        histories: Sequence[Iterable[kinds.Event]] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Return the encodings of many views at once: row *i* is ``encode(views[i])``.

        With *out*, a float32 array of shape ``(len(views), *shape)``, the
        encodings are written there and *out* returned (no new array).  An
        information-state codec needs *histories*, one per view (see `encode`).

        >>> from mexican_train import HUB, new_game, view
        >>> codec = ObservationCodec(HUB, 2)
        >>> game = new_game(2, HUB, seed=3)
        >>> codec.encode_batch([view(game, 0), view(game, 1)]).shape
        (2, 364)

        Raises:
            InvalidArgumentError: as `encode`, for any view or a wrong *out*.
            TypeError: if *views* is not a sequence of `PlayerView`.
        """
        what = "ObservationCodec.encode_batch()"
        mine = _views(views, self.rules, self.players, what)
        seen = self._seen(mine, histories, what)
        obs = _out(out, len(mine), self.shape[0], np.float32, what)
        self._encode(mine, obs, seen)
        return obs

    def _encode(
        self, views: list[PlayerView], out: npt.NDArray[np.float32], seen: list[int] | None
    ) -> None:
        scalars: list[float] = []
        bits = []
        for mine in views:
            seat = mine.seat
            assert seat is not None  # _check_view refused a spectator
            bits.append(view_row(self._lay, mine, seat, scalars))
        if seen is not None:
            bits = [row | more << self._lay.seen for row, more in zip(bits, seen, strict=True)]
        self._fill(bits, scalars, out)

    def _seen(
        self,
        views: list[PlayerView],
        histories: Sequence[Iterable[kinds.Event]] | None,
        what: str,
    ) -> list[int] | None:
        # The information-state blocks of *views*, or None for a plain codec.
        if not self.information_state:
            if histories is not None:
                raise InvalidArgumentError(
                    f"{what} takes a history only with ObservationCodec(..., "
                    "information_state=True)"
                )
            return None
        if histories is None:
            raise InvalidArgumentError(
                f"{what} encodes the information state from the round's events: pass "
                "history= (the redacted events of the round so far)"
            )
        if len(histories) != len(views):
            raise InvalidArgumentError(
                f"{what} needs one history per view: {len(views)} views, {len(histories)} histories"
            )
        return [
            self._seen_of(mine, history) for mine, history in zip(views, histories, strict=True)
        ]

    def _seen_of(self, view: PlayerView, history: Iterable[kinds.Event]) -> int:
        # What view's seat has seen this round (batch.Seen, rebuilt from the events).
        if isinstance(history, (str, bytes)) or not isinstance(history, Iterable):
            raise TypeError(f"a history is a sequence of events, not {history!r}")
        events = list(history)
        for event in events:
            if not isinstance(event, _EVENT_TYPES):
                raise TypeError(f"a history holds events, not {type(event).__name__}")
            who = getattr(event, "seat", 0)
            if not 0 <= who < self.players:
                raise InvalidArgumentError(
                    f"history does not fit the view: {event!r} names a seat a "
                    f"{self.players}-player game does not have"
                )
        starts = [i for i, event in enumerate(events) if type(event) is kinds.RoundStarted]
        if starts:
            events = events[starts[-1] + 1 :]  # the current round only
        lay, seat = self._lay, view.seat
        assert seat is not None  # _check_view refused a spectator
        lacks, played = [0] * self.players, [0] * self.players
        played_this_turn = 0  # bit seat: it has played a tile this turn
        over = view.current_player is None
        for index, event in enumerate(events):
            if type(event) is kinds.TurnStarted:
                played_this_turn &= ~(1 << event.seat)
            elif type(event) is kinds.TilePlayed:
                played[event.seat] |= 1 << tile_index(event.tile)
                played_this_turn |= 1 << event.seat
            elif type(event) is kinds.TileDrawn:
                lacks[event.seat] = 0
            elif type(event) is kinds.Passed:
                who = event.seat
                if not over and who != seat and not played_this_turn >> who & 1:
                    then = table_then(view, events, index, who, bool(starts))
                    lacks[who] |= lacking_suits(lay, then)
        return seen_bits(lay, seat, lacks, played)

    def _fill(self, bits: list[int], scalars: list[float], out: npt.NDArray[np.float32]) -> None:
        # Write encodings given as bits and scalars (`batch.view_row`) into *out*: the one
        # writer of the arrays, shared with the environments and the OpenSpiel game.
        lay = self._lay
        if not bits:  # no rows: nothing to write (numpy cannot reshape the empty scalars)
            return
        if len(bits) == 1:  # one row: built without numpy, whose calls cost more
            out[0].data[:] = memoryview(row_floats(lay, bits[0], scalars)).cast("f")
            return
        raw = np.frombuffer(pack(bits, lay.nbytes), dtype=np.uint8)
        out[:] = np.unpackbits(
            raw.reshape(len(bits), lay.nbytes), axis=1, count=lay.size, bitorder="little"
        )
        out[:, self._scalars] = np.asarray(scalars, dtype=np.float32).reshape(len(bits), -1)
