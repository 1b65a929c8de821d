"""The per-table work of the encoders and of the vector environment, on the state's masks.

An observation is built as one whole number, bit *i* for entry *i* of the
`ObservationCodec` layout (hands and the table are the state's own tile masks,
shifted into place, P2), plus the few entries that are not 0 or 1, in a fixed
order (`Layout.scalars`); the codecs turn many of these into numpy arrays in a
few calls, and one into float32 values without numpy (`row_floats`).  An action mask is the list of the legal moves' indices.  `Tables`
plays many games at once, one agent seat per table or every seat (self-play):
a whole step of every table is one call.  The compiled build compiles this
module; it needs no numpy.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Any, Final

from .._bots.players import Player
from .._bots.simulate import Observers, add_note, observers_of, observing_copies, tell
from .._core.engine import apply, legal_moves, new_game
from .._core.errors import InvalidArgumentError
from .._core.moves import MEXICAN, NEXT_ROUND, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.rules import Rules
from .._core.state import (
    AFTER_FIRST_TURN,
    ALWAYS,
    SUITS,
    GameState,
    Line,
    mask_of,
    masks_of,
    mexican_opens,
    table_masks,
)
from .._core.tiles import Tile, full_set
from .._core.view import PlayerView, view, view_masks, view_with

__all__ = [
    "Layout",
    "Seen",
    "Steps",
    "Tables",
    "action_index",
    "indices",
    "informed_row",
    "lacking_suits",
    "opponent_move",
    "pack",
    "round_rewards",
    "row_floats",
    "seen_bits",
    "state_row",
    "view_floats",
    "view_row",
]


def opponent_move(player: Player, state: GameState, seat: int) -> tuple[Move, GameState]:
    """Return the move *player*, the opponent at *seat*, chooses in *state*, and the state after it.

    An exception from its ``choose``, or `apply`'s refusal of its move, goes on as it
    was raised, noted with its seat.
    """
    try:
        # The state's moves, as simulate gives them: the view's are the same.
        move = player.choose(view(state, seat), legal_moves(state))
    except Exception as error:  # the player's own bug: say which seat it plays
        add_note(error, f"raised by the choose() of the opponent at seat {seat}")
        raise
    try:
        return move, apply(state, move)
    except Exception as error:  # a move of the player's own: apply refused it
        add_note(error, f"the move chosen by the opponent at seat {seat}")
        raise


def round_rewards(points: Sequence[int]) -> tuple[float, ...]:
    """Return each seat's reward for a round: ``mean(points) - own points`` (zero-sum).

    *points* are the seats' scores for the round (E3), lower being better: a tuple,
    a list or a numpy array.

    >>> round_rewards((0, 10, 20, 30))
    (15.0, 5.0, -5.0, -15.0)

    Raises:
        InvalidArgumentError: if *points* is empty.
    """
    if len(points) == 0:  # not "not points": an array has no truth value
        raise InvalidArgumentError(f"round_rewards() needs one score a seat, not {points!r}")
    # Read as they come: numpy's integers are no ints, which the compiled build would
    # check each score against.
    scores: Sequence[Any] = points
    mean = sum(scores) / len(scores)
    return tuple([float(mean - own) for own in scores])


class Layout:
    """Where each block of the observation starts, for one rules and number of players.

    With *information_state*, the observation ends with one more block: for each
    other seat, relative to the viewer, the numbers it is known to lack and the
    tiles it has played this round (`Seen`).
    """

    def __init__(
        self, rules: Rules, players: int, max_pip: int, information_state: bool = False
    ) -> None:
        pips = max_pip + 1
        tiles = pips * (pips + 1) // 2
        self.rules: Final = rules
        self.players: Final = players
        self.tiles: Final = tiles
        self.pips: Final = pips
        self.rounds: Final[int] = rules.round_count(max_pip)
        total = max_pip * pips * (pips + 1) // 2  # the pips of the whole set
        self.bound: Final[int] = self.rounds * (total + abs(rules.double_blank_score)) or 1
        self.open_hands: Final[bool] = rules.open_hands  # V10
        self.opens: Final[int] = mexican_opens(rules.mexican_train)  # V2
        self.table: Final = players * tiles
        self.engine: Final = self.table + tiles
        self.trains: Final = self.engine + pips
        self.seats: Final = self.trains + (players + 1) * (pips + 6)
        self.game: Final = self.seats + players * 5
        self.seen: Final = self.game + 11  # the information-state block, if any
        self.size: Final[int] = self.seen + (
            (players - 1) * (pips + tiles) if information_state else 0
        )
        self.information_state: Final = information_state
        tiles_in_set = full_set(max_pip)
        self.hand_of_all: Final = tiles_in_set  # every tile: what a pass is probed with
        in_set = mask_of(tiles_in_set)
        self.suits: Final[list[int]] = [SUITS[pip] & in_set for pip in range(pips)]
        self.nbytes: Final = (self.size + 7) // 8
        self.tail: Final = (self.size - 8 * self.nbytes + 8) * 4  # the last byte's float bytes
        self.actions: Final = tiles * (players + 1) + 4
        # The entries that are not 0 or 1, in the order a row lists them.
        scalars = [self.trains + slot * (pips + 6) + pips + 5 for slot in range(players + 1)]
        for k in range(players):
            scalars += [self.seats + 5 * k, self.seats + 5 * k + 4]
        scalars += [self.game, self.game + 1, self.game + 5, self.game + 8]
        self.scalars: Final[list[int]] = scalars


def _train_bits(train_ids: tuple[int, ...], players: int) -> int:
    # Train ids (a seat or MEXICAN) as bits by board position, the Mexican train last.
    bits = 0
    for train_id in train_ids:
        bits |= 1 << (players if train_id in (MEXICAN, players) else train_id)
    return bits


def _row(
    lay: Layout,
    seat: int,
    hand: int,
    others: tuple[int, ...] | None,
    table: int,
    engine: Tile,
    board: tuple[Line, ...],
    marks: int,
    open_doubles: tuple[int, ...],
    turn_doubles: tuple[int, ...],
    sizes: tuple[int, ...],
    firsts: int,
    current: int | None,
    first: int,
    scores: tuple[int, ...],
    left: int,
    round_number: int,
    turn_tiles: int,
    has_drawn: bool,
    called: bool,
    idle: int,
    is_over: bool,
    mexican_open: bool,
    scalars: list[float],
) -> int:
    # One observation (the layout of ObservationCodec): the bits, and the scalars
    # appended to *scalars*.  Rows are relative to *seat*.  The trains, seats and
    # game blocks are built as small numbers (native ints in the compiled build,
    # for up to 2 players with a double-12 set) and shifted into place once.
    players, tiles, pips = lay.players, lay.tiles, lay.pips
    bits = hand
    if others is not None:  # V10: every hand is on show
        for k in range(1, players):
            bits |= others[(seat + k) % players] << k * tiles
    bits |= (table | 1 << tiles + engine.high) << lay.table
    open_bits = _train_bits(open_doubles, players)  # D2
    turn_bits = _train_bits(turn_doubles, players)  # D1
    width = pips + 6
    trains = 0
    for slot in range(players + 1):
        position = players if slot == players else (seat + slot) % players
        end, laid = board[position]
        row = 1 << end
        if marks >> position & 1:  # P6
            row |= 1 << pips
        if laid:
            row |= 2 << pips
            if laid[-1].is_double:
                row |= 4 << pips
        if open_bits >> position & 1:
            row |= 8 << pips
        if turn_bits >> position & 1:
            row |= 16 << pips
        trains |= row << slot * width
        scalars.append(len(laid) / tiles)
    rest = 0  # the seats block, then the game block
    for k in range(players):
        other = (seat + k) % players
        row = 0
        if firsts >> other & 1:
            row |= 2
        if current == other:
            row |= 4
        if first == other:
            row |= 8
        rest |= row << 5 * k
        scalars.append(sizes[other] / tiles)
        scalars.append(scores[other] / lay.bound)
    scalars.append(left / tiles)
    scalars.append(round_number / lay.rounds)
    scalars.append(min(turn_tiles / tiles, 1.0))
    scalars.append(min(idle / players, 1.0))
    game = 1 << 10
    if current == seat:
        game |= 1 << 2
    if current is None:
        game |= 1 << 3
    if is_over:
        game |= 1 << 4
    if has_drawn:
        game |= 1 << 6
    if called:
        game |= 1 << 7
    if mexican_open:  # V2
        game |= 1 << 9
    rest |= game << 5 * players
    return bits | (trains | rest << (players + 1) * width) << lay.trains


def state_row(lay: Layout, state: GameState, seat: int, scalars: list[float]) -> int:
    """Return the bits of the encoding of ``view(state, seat)`` and append its scalars.

    Reads only what *seat* may know (S5): its own hand, every hand only when
    hands are open (V10), and the public masks.
    """
    hands, table, board, marks, firsts = masks_of(state)
    current = state.current_player
    mexican_open = False
    if current is not None:
        opens = lay.opens
        if opens == ALWAYS:
            mexican_open = True
        elif opens == AFTER_FIRST_TURN:
            mexican_open = firsts >> seat & 1 == 1
        else:
            mexican_open = lay.rules.mexican_train.is_open(state, seat)
    return _row(
        lay, seat, hands[seat], hands if lay.open_hands else None, table, state.engine,
        board, marks, state.open_doubles, state.turn_doubles,
        tuple([hand.bit_count() for hand in hands]), firsts,
        current, state.first_player, state.scores, state.boneyard_size, state.round_number,
        state.turn_tiles, state.has_drawn, state.last_tile_called, state.idle_turns,
        state.is_over, mexican_open, scalars,
    )  # fmt: skip


def view_row(lay: Layout, mine: PlayerView, seat: int, scalars: list[float]) -> int:
    """Return the bits of the encoding of *mine*, *seat*'s view, and append its scalars."""
    kept = view_masks(mine)
    if kept is not None:  # a view of a state: its masks, as the state kept them
        hand, board, table, marks, _, firsts = kept
    else:
        hand, board, table, marks, _, firsts = (
            mask_of(mine.hand),
            *table_masks(mine.engine, mine.trains, mine.had_first_turn),
        )
    shown = mine.open_hands
    current = mine.current_player
    return _row(
        lay, seat, hand,
        None if shown is None else tuple([mask_of(hand) for hand in shown]),
        table, mine.engine, board, marks, mine.open_doubles, mine.turn_doubles,
        mine.hand_sizes, firsts, current, mine.first_player, mine.scores, mine.boneyard_size,
        mine.round_number, mine.turn_tiles, mine.has_drawn, mine.last_tile_called,
        mine.idle_turns, mine.is_over,
        current is not None and mine.rules.mexican_train.is_open(mine, seat), scalars,
    )  # fmt: skip


def lacking_suits(lay: Layout, then: PlayerView) -> int:
    """Return the numbers (bit *n* for *n*) a seat shows it lacks by passing on *then*.

    *then* is the table as the passing seat saw it just before its `Pass`, in a
    turn in which it played no tile.  When a player who can play must (P7), a
    seat that passes holds no tile it could have played on the trains open to it
    (P3, P4, D2): a number is lacked when every tile showing it could have been
    played.  Where a seat holding a playable tile may pass anyway (V6), the pass
    tells nothing: 0.
    """
    probe = view_with(
        then, hand=lay.hand_of_all, turn_doubles=(), turn_tiles=0, has_drawn=True,
        boneyard_size=0, last_tile_called=True,
    )  # fmt: skip
    playable = 0
    for move in legal_moves(probe):
        if isinstance(move, Play):
            playable |= 1 << move.tile._index
        elif isinstance(move, Pass):
            return 0  # the seat could pass with a playable tile in hand
    lacked = 0
    for pip, suit in enumerate(lay.suits):
        if suit & playable == suit:
            lacked |= 1 << pip
    return lacked


class Seen:
    """What every seat has shown this round: the numbers it lacks, the tiles it played.

    ``lacks[seat]`` has bit *n* while *seat* is known to hold no tile showing *n*
    (`lacking_suits` of each of its passes in a turn it played no tile, ORed):
    its hand only shrinks until it draws again, and a draw (P5, D1, D2, or a
    missed last-tile call's penalty) forgets them, since the tile drawn may be
    any.  ``played[seat]`` is the mask of the tiles *seat* has played this round.
    """

    def __init__(self, players: int) -> None:
        self.lacks: list[int] = [0] * players
        self.played: list[int] = [0] * players

    def clear(self) -> None:
        """Forget everything: a new round (E4) or a new game."""
        for seat in range(len(self.lacks)):
            self.lacks[seat] = 0
            self.played[seat] = 0

    def record(self, lay: Layout, before: GameState, move: Move, after: GameState) -> None:
        """Note what *move*, made in *before* and giving *after*, shows every seat."""
        seat = before.current_player
        if seat is None:  # NextRound: a new deal
            self.clear()
            return
        if isinstance(move, Play):
            self.played[seat] |= 1 << move.tile._index
        elif isinstance(move, Draw):
            self.lacks[seat] = 0
        elif isinstance(move, Pass) and before.turn_tiles == 0:
            self.lacks[seat] |= lacking_suits(lay, view(before, seat))
        if after.boneyard_size < before.boneyard_size and not isinstance(move, Draw):
            self.lacks[seat] = 0  # a missed last-tile call's penalty tiles


def informed_row(
    lay: Layout,
    state: GameState,
    seat: int,
    lacks: list[int],
    played: list[int],
    scalars: list[float],
) -> int:
    """Return `state_row` with the information-state block of `Seen`'s *lacks* and *played*."""
    if state.current_player is None:
        lacks = [0] * lay.players  # the round is over (seen_bits)
    return state_row(lay, state, seat, scalars) | seen_bits(lay, seat, lacks, played) << lay.seen


def seen_bits(lay: Layout, seat: int, lacks: list[int], played: list[int]) -> int:
    """Return the information-state block for *seat*, as bits from its start.

    One row per other seat, ``(seat + k) % P`` for k = 1 .. P-1: the numbers it
    lacks (N + 1), then the tiles it has played this round (T).  Once the round is
    over no seat plays again: pass *lacks* all 0 then.
    """
    players, pips = lay.players, lay.pips
    width = pips + lay.tiles
    bits = 0
    for k in range(1, players):
        other = (seat + k) % players
        bits |= (lacks[other] | played[other] << pips) << (k - 1) * width
    return bits


def action_index(move: Move, seat: int, players: int, size: int) -> int:
    """Return the `ActionCodec` index of *move* made by *seat* (trains relative to it)."""
    if isinstance(move, Play):
        train = move.train
        slot = players if train == MEXICAN else (train - seat) % players
        return move.tile._index * (players + 1) + slot
    if isinstance(move, Draw):
        return size - 4
    if isinstance(move, Pass):
        return size - 3
    if isinstance(move, NextRound):
        return size - 2
    if isinstance(move, CallLastTile):
        return size - 1
    raise TypeError(f"an action index needs a move (Play, Draw, Pass, ...), not {move!r}")


class Steps:
    """What one step (or reset) of all tables gives: filled by `Tables`, read by the env."""

    def __init__(self, tables: int, players: int, actions: int) -> None:
        self.bits: list[int] = []  # one observation's bits per table
        self.scalars: list[float] = []  # its scalars, table after table
        self.mask = bytearray(tables * actions)  # the masks, table after table (1: legal)
        self.seats: list[int] = [0] * tables  # the seat each observation is for
        self.rewards: list[float] = [0.0] * (tables * players)  # per table, per seat
        self.done: list[bool] = [False] * tables
        self.round_over: list[bool] = [False] * tables  # a round ended in the step (E3)
        self.illegal: list[bool] = [False] * tables
        self.final_tables: list[int] = []  # the tables whose game ended, in order
        self.final_states: list[GameState] = []  # their games' last states
        self.final_bits: list[int] = []  # their last observations, as above
        self.final_scalars: list[float] = []


class Tables:
    """Many games at once: the agent seats play the actions given, bots the others.

    *learners* is the mask of the seats the learner plays (bit *seat*); every
    other seat is played by *opponents[seat]*, or, where that is None, by a
    uniformly random legal move from the table's own generator.  An opponent
    that keeps the round's events (an ``observe`` method, as `SearchPlayer`) is
    seated afresh on each table for each game (`observing_copies`) and told
    every event its seat sees (`tell`, S5), as `simulate` and `SingleSeatEnv`
    tell theirs.  A game that ends is replaced by a new one at once
    (Gymnasium's same-step autoreset).

    An exception from an opponent (its ``choose`` or ``observe``, or `apply`
    refusing the move it chose) goes on as it was raised, noted with its seat and
    table; the step or reset it cut short leaves the tables before it moved and
    its own table part-told, so only a reset that deals every table plays on.
    """

    def __init__(
        self,
        lay: Layout,
        count: int,
        learners: int,
        opponents: list[Player | None],
        illegal_reward: float,
    ) -> None:
        self.lay: Final = lay
        self.count: Final = count
        self.learners: Final = learners
        self.opponents: Final = opponents
        self.illegal_reward: Final = illegal_reward
        self.states: list[GameState] = []
        self.rngs: list[random.Random] = []
        # Per table, the players of the seats and the observe methods to tell: the
        # opponents given, unless one observes; then each game seats its own copies.
        self.observing: Final = bool(observers_of(dict(enumerate(opponents))))
        self.seated: list[list[Player | None]] = [opponents] * count
        self.observers: list[Observers] = [()] * count
        # Per table, the legal moves of the seat to move and their action indices.
        self.moves: list[tuple[Move, ...]] = [() for _ in range(count)]
        self.numbers: list[list[int]] = [[] for _ in range(count)]
        # Per table, what its seats have shown this round (only for the information state).
        self.seen: list[Seen] | None = (
            [Seen(lay.players) for _ in range(count)] if lay.information_state else None
        )

    def reset(self, seeds: list[int | None], deal: list[bool]) -> Steps:
        """Deal a new game on each table *i* where ``deal[i]`` (S6); the others play on.

        Where ``seeds[i]`` is a number, table *i*'s game is ``new_game(..., seed=seeds[i])``
        and its generator (the random bot's moves, the next games' seeds) starts
        from it; where it is None, the table deals from its own generator, as it
        does when a game ends.  The first reset deals every table, each from a number.
        """
        if not self.rngs:
            self.rngs = [random.Random(0) for _ in range(self.count)]
        steps = Steps(self.count, self.lay.players, self.lay.actions)
        for table in range(self.count):
            try:
                if deal[table]:
                    seed = seeds[table]
                    if seed is None:
                        seed = self.rngs[table].getrandbits(63)
                    else:
                        self.rngs[table] = random.Random(seed)
                    state = self._deal(table, seed)
                    if table < len(self.states):
                        self.states[table] = state
                    else:
                        self.states.append(state)
                self._observe(table, steps)
            except BaseException as error:
                add_note(error, f"on table {table}")
                raise
        return steps

    def step(self, actions: list[int]) -> Steps:
        """Make each table's agent move ``actions[i]``, then the others' until the next."""
        lay = self.lay
        players = lay.players
        steps = Steps(self.count, players, lay.actions)
        for table in range(self.count):
            try:
                self._step(table, actions[table], steps)
            except BaseException as error:
                add_note(error, f"on table {table}")
                raise
        return steps

    def _step(self, table: int, action: int, steps: Steps) -> None:
        # One table's step: the learner's move *action*, then the others' (`step`).
        lay = self.lay
        players = lay.players
        state = self.states[table]
        seat = state.current_player
        assert seat is not None  # a table waits on a learner's move
        numbers = self.numbers[table]
        move = self.moves[table][numbers.index(action)] if action in numbers else None
        if move is None:
            steps.rewards[table * players + seat] += self.illegal_reward
            steps.illegal[table] = True
        else:
            after = apply(state, move)
            observers = self.observers[table]
            if observers:
                tell(observers, state, move, after)
            if self.seen is not None:
                self.seen[table].record(lay, state, move, after)
            state = self._advance(after, table, steps)
        if move is None or state.is_over:
            steps.done[table] = True
            steps.final_tables.append(table)
            steps.final_states.append(state)
            steps.final_bits.append(self._row(table, state, seat, steps.final_scalars))
            state = self._deal(table, self.rngs[table].getrandbits(63))
        self.states[table] = state
        self._observe(table, steps)

    def _deal(self, table: int, seed: int) -> GameState:
        state = new_game(self.lay.players, self.lay.rules, seed=seed)
        if self.seen is not None:
            self.seen[table].clear()
        if self.observing:  # no history carries over from the table's last game
            seated = observing_copies(dict(enumerate(self.opponents)))
            self.seated[table] = list(seated.values())
            self.observers[table] = observers_of(seated)
        return self._advance(state, table, None)

    def _row(self, table: int, state: GameState, seat: int, scalars: list[float]) -> int:
        # The observation of *state* for *seat*, the information state included if asked.
        if self.seen is None:
            return state_row(self.lay, state, seat, scalars)
        seen = self.seen[table]
        return informed_row(self.lay, state, seat, seen.lacks, seen.played, scalars)

    def _advance(self, state: GameState, table: int, steps: Steps | None) -> GameState:
        # Deal new rounds (E4) and play the other seats until a learner is to move;
        # add the seats' round rewards to *steps* and note the round's end there (None:
        # a new game's, none yet).
        players = self.lay.players
        seated = self.seated[table]
        observers = self.observers[table]
        while True:
            seat = state.current_player
            if seat is None:
                if steps is not None:
                    steps.round_over[table] = True
                    rewards, base = steps.rewards, table * players
                    for other, reward in enumerate(round_rewards(state.round_scores[-1])):
                        rewards[base + other] += reward
                if state.is_over:
                    return state
                if self.seen is not None:
                    self.seen[table].clear()  # E4: a new deal
                after = apply(state, NEXT_ROUND)
                if observers:
                    tell(observers, state, NEXT_ROUND, after)
                state = after
                continue
            if self.learners >> seat & 1:
                return state
            player = seated[seat]
            if player is None:
                moves = legal_moves(state)
                move = moves[int(self.rngs[table].random() * len(moves))]
                after = apply(state, move)
            else:
                move, after = opponent_move(player, state, seat)
            if observers:
                tell(observers, state, move, after)
            if self.seen is not None:
                self.seen[table].record(self.lay, state, move, after)
            state = after

    def _observe(self, table: int, steps: Steps) -> None:
        lay = self.lay
        state = self.states[table]
        seat = state.current_player
        assert seat is not None  # a table waits on a learner's move
        steps.seats[table] = seat
        steps.bits.append(self._row(table, state, seat, steps.scalars))
        moves = legal_moves(state)
        numbers = indices(moves, seat, lay.players, lay.actions, 0)
        self.moves[table] = moves
        self.numbers[table] = numbers
        base = table * lay.actions
        mask = steps.mask
        for number in numbers:
            mask[base + number] = 1


def pack(bits: list[int], nbytes: int) -> bytes:
    """Return the rows' bits as bytes, *nbytes* per row, little-endian (for ``np.unpackbits``)."""
    return b"".join([row.to_bytes(nbytes, "little") for row in bits])


#: The float32 values (native byte order) of the 8 entries one byte of bits stands
#: for, bit 0 first: what ``np.unpackbits`` gives, without numpy's cost per call.
_BYTE_FLOATS: Final[list[bytes]] = [
    array("f", [float(byte >> bit & 1) for bit in range(8)]).tobytes() for byte in range(256)
]


def row_floats(lay: Layout, bits: int, scalars: list[float]) -> bytearray:
    """Return one observation as float32 values: entry *i* is bit *i* of *bits*.

    The entries at `Layout.scalars` take *scalars* instead, in order.  The bytes
    are the values in the machine's order, ready for ``np.frombuffer``.
    """
    raw = bits.to_bytes(lay.nbytes, "little")
    pieces = [_BYTE_FLOATS[raw[byte]] for byte in range(lay.nbytes)]
    pieces[-1] = pieces[-1][: lay.tail]  # the last byte's entries up to the size
    row = bytearray().join(pieces)
    values = memoryview(row).cast("f")
    where = lay.scalars
    for number in range(len(where)):
        values[where[number]] = scalars[number]
    return row


def view_floats(lay: Layout, mine: PlayerView, seat: int, seen: int) -> bytearray:
    """Return `row_floats` of *mine*, *seat*'s view, with the information-state block *seen*."""
    scalars: list[float] = []
    bits = view_row(lay, mine, seat, scalars)
    return row_floats(lay, bits | seen << lay.seen if seen else bits, scalars)


def indices(moves: tuple[Move, ...], seat: int, players: int, size: int, base: int) -> list[int]:
    """Return *base* plus the `action_index` of each of *moves*."""
    return [base + action_index(move, seat, players, size) for move in moves]
