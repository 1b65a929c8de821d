"""The engine: `new_game`, `legal_moves` and `apply`, pure functions over `GameState`.

Each function cites the id of the rule it implements.  Nothing here does I/O,
calls :mod:`random` or mutates a value that has escaped: a new state is built
for every move.  The legal moves of a state are computed once, on demand, and
`apply` checks a move against them, so what is offered is exactly what is accepted.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from functools import cache
from operator import attrgetter
from types import FunctionType
from typing import Any, Final, NoReturn, overload

from .bounds import check_bound
from .deal import Deal
from .errors import DealError, IllegalMoveError, RulesError
from .moves import (
    CALL_LAST_TILE,
    DRAW,
    MEXICAN,
    NEXT_ROUND,
    PASS,
    PLAYS,
    CallLastTile,
    Draw,
    Move,
    NextRound,
    Pass,
    Play,
    train_name,
)
from .rules import STANDARD, Cover, EnginePlacement, OpenDouble, OpenDoubleRule, Rules
from .shuffle import shuffled
from .state import (
    AFTER_FIRST_TURN,
    ALWAYS,
    ENDS,
    POSITIONS,
    SUITS,
    GameState,
    Line,
    _Round,
    _score_hand,
    board_train,
    count_tiles,
    mask_of,
    tiles_of,
    train_positions,
)
from .tables import check_fit
from .tiles import Tile, full_set
from .view import PlayerView, view_position

__all__ = ["apply", "legal_moves", "mexican_open", "new_game", "round_score"]

# Final: the shared moves (moves.py) bound again as module constants, which the compiled
# build reads as C globals, not by name (a name imported from another module is looked
# up in this one's globals at each use).
_DRAW: Final = DRAW
_PASS: Final = PASS
_NEXT_ROUND: Final = NEXT_ROUND
_CALL: Final = CALL_LAST_TILE
_PLAY: Final = Play  # apply's test of a move's type, without a lookup by name


def _probe() -> None:
    """Nothing: a plain Python function, unless mypyc compiled this module."""


#: Whether this module runs as bytecode (the pure build), not compiled by mypyc:
#: `_plays` then lists the plays the way that takes fewer bytecodes.
INTERPRETED: Final[bool] = isinstance(_probe, FunctionType)


# -- setting up -----------------------------------------------------------------


# The library checks the public functions' arguments itself.  A compiled build first
# checks an argument typed with one of its compiled classes (`GameState`) or with a
# builtin, in words of its own, and turns a bool passed for an int into an int.  So
# `new_game` takes its arguments as Any, its overloads giving their types, and both
# builds refuse a bool or a str for the number of players alike (a DealError); and
# `legal_moves`, whose state may be a `PlayerView` too, names both in its refusal.


@overload
def new_game(
    players: bool, rules: Rules = ..., seed: int | None = ..., *, deal: Deal | None = ...
) -> NoReturn: ...
@overload
def new_game(
    players: int, rules: Rules = ..., seed: int | None = ..., *, deal: Deal | None = ...
) -> GameState: ...
def new_game(
    players: Any, rules: Any = STANDARD, seed: Any = None, *, deal: Any = None
) -> GameState:
    """Return a new game with its first round set up (S1-S4).

    Args:
        players: the number of players, within the deal table's range (S1).
        rules: the rules to play by.
        seed: fixes every round's shuffle (S6); None picks one at random, below
            2**53 so that a JavaScript number holds it exactly (it is kept in
            ``state.seed``, so the game can still be replayed).
        deal: an explicit deal for round 1; later rounds come from *seed*.

    Raises:
        DealError: if the deal table does not cover *players*, the hands do not
            fit in the set, or *deal* is inconsistent.
        RulesError: if *rules* asks for more rounds than the set has engines, or
            for a highest engine the set does not hold (S2).
        InvalidArgumentError: if *seed* has more than 64 bits.
        TypeError: if *rules*, *seed* or *deal* is of the wrong type.

    >>> state = new_game(4, seed=7)
    >>> state.max_pip, state.hand_size, state.engine, state.round_number
    (12, 15, Tile(12, 12), 1)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {rules!r}")
    if type(players) is not int:
        raise DealError(f"the number of players is a whole number, not {players!r}")
    set_aside = 1 if rules.engine_placement is EnginePlacement.SET_ASIDE else 0
    table = rules.deal_table
    if players not in table.player_counts or rules.hand_size is None:
        max_pip, hand_size = table._lookup(players, rules.max_pip, None, set_aside=set_aside)
        check_fit(players, max_pip, hand_size, set_aside=set_aside)
    else:
        # The players fit the table (and Rules checked its set): a misfit is the rules'
        # own hand size, in the table or with the engine set aside.
        try:
            max_pip, hand_size = table.lookup(players, rules.max_pip, rules.hand_size)
            check_fit(players, max_pip, hand_size, set_aside=set_aside)
        except DealError as error:
            raise DealError(f"Rules.hand_size={rules.hand_size} does not fit: {error}") from None
    if rules.max_pip is None:  # S2: the deal table's set, checked once the players are known
        rules.check_set(max_pip, f" ({rules.deal_table.name}'s for {players} players)")
    if seed is None:
        # The one random choice, made here at the edge (S6): 53 bits, so that every JSON
        # reader keeps it exactly (a JavaScript number holds whole numbers to 2**53).
        seed = secrets.randbits(53)
    elif type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    else:
        # S6: a seed of more than 64 bits could not be written to JSON or notation.
        seed = check_bound("seed", seed, "seed")
    if deal is not None and not isinstance(deal, Deal):
        raise TypeError(f"deal must be a Deal, not {deal!r}")
    return start_round(
        rules, players, max_pip, hand_size, seed, 1,
        previous_first=None, scores=(0,) * players, round_scores=(), deal=deal,
    )  # fmt: skip


def start_round(
    rules: Rules,
    players: int,
    max_pip: int,
    hand_size: int,
    seed: int,
    round_number: int,
    *,
    previous_first: int | None,
    scores: tuple[int, ...],
    round_scores: tuple[tuple[int, ...], ...],
    deal: Deal | None = None,
) -> GameState:
    pip = rules.engine_pip(max_pip, round_number)  # S2
    engine = Tile(pip, pip)
    set_aside = rules.engine_placement is EnginePlacement.SET_ASIDE
    aside = engine if set_aside else None
    if deal is None:
        # S6: the pool in shuffled order, dealt from the top.  The tiles' bits are
        # shuffled (the same order), so that a hand's mask is one sum in C (the bits
        # are distinct: the sum is their union).
        bits, tile_of = _pool_bits(max_pip, aside)
        order = shuffled(bits, seed, round_number)
        n = hand_size
        hands = [sum(order[i * n : (i + 1) * n]) for i in range(players)]
        boneyard = tuple(map(tile_of.__getitem__, order[players * n :]))
    else:
        _check_deal(deal, _pool(max_pip, aside), players, hand_size, max_pip)
        hands = [mask_of(hand) for hand in deal.hands]
        boneyard = tuple(deal.boneyard)

    if set_aside:
        # S4: the engine was set aside before the deal; the first player rotates.
        first = 0 if previous_first is None else (previous_first + 1) % players
    else:
        # S3: the engine's holder places it and plays first ...
        bit = 1 << engine._index
        holder = next((seat for seat, hand in enumerate(hands) if hand & bit), None)
        if holder is None:
            # ... and if nobody holds it, players draw in turn until someone does
            # (decision: from seat 0 in round 1, else after last round's first player).
            seat = 0 if previous_first is None else (previous_first + 1) % players
            while True:
                tile, boneyard = boneyard[0], boneyard[1:]
                hands[seat] |= 1 << tile._index  # drawn tiles stay in hand
                if tile is engine:
                    holder = seat
                    break
                seat = (seat + 1) % players
        hands[holder] ^= bit
        first = holder

    round_ = _Round(
        rules, players, max_pip, hand_size, round_number, engine, first, scores, round_scores,
        seed, boneyard,
    )  # fmt: skip
    return GameState(
        round_=round_,
        left=len(boneyard),
        hands=tuple(hands),
        board=((pip, ()),) * (players + 1),  # P2: all trains start empty (shared: immutable)
        table=1 << engine._index,
        marks=0,
        owned=0,
        current=first,
        firsts=0,
        turn_tiles=0,
        has_drawn=False,
        turn_doubles=(),
        open_doubles=(),
        idle=0,
        is_over=False,
        called=False,
    )


@cache
def _pool(max_pip: int, set_aside: Tile | None) -> tuple[Tile, ...]:
    # The tiles dealt: the whole set, less the engine when it is set aside (S4).
    return tuple(tile for tile in full_set(max_pip) if tile is not set_aside)


@cache
def _pool_bits(max_pip: int, set_aside: Tile | None) -> tuple[tuple[int, ...], dict[int, Tile]]:
    # The bit of each tile of the pool in a hand's mask, in the pool's order; the
    # tile of each bit.
    pool = _pool(max_pip, set_aside)
    return tuple([1 << tile._index for tile in pool]), {1 << tile._index: tile for tile in pool}


def _check_deal(
    deal: Deal, pool: tuple[Tile, ...], players: int, hand_size: int, max_pip: int
) -> None:
    if len(deal.hands) != players:
        raise DealError(f"the deal has {len(deal.hands)} hands for {players} players")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != hand_size:
            raise DealError(f"seat {seat} is dealt {len(hand)} tiles; the hand size is {hand_size}")
    expected = set(pool)
    seen: set[Tile] = set()
    for tile in (*(t for hand in deal.hands for t in hand), *deal.boneyard):
        if not isinstance(tile, Tile):
            raise DealError(f"the deal holds {tile!r}, which is not a Tile")
        if tile not in expected:
            what = (
                "the engine, which is set aside (S4)" if tile.high <= max_pip else "not in the set"
            )
            raise DealError(f"the deal holds {tile}: {what} for a double-{max_pip} game")
        if tile in seen:
            raise DealError(f"the deal holds {tile} twice")
        seen.add(tile)
    missing = sorted(expected - seen)
    if missing:
        raise DealError(f"the deal leaves out {', '.join(map(str, missing))}")


# -- legal moves ----------------------------------------------------------------


@overload
def legal_moves(state: GameState) -> tuple[Move, ...]: ...
@overload
def legal_moves(state: PlayerView) -> tuple[Move, ...]: ...
def legal_moves(state: Any) -> tuple[Move, ...]:
    """Return every legal move, in a fixed order: plays, then `Draw`, then `Pass`.

    Guarantees: the order is deterministic (tiles ascending, then trains by id
    with the Mexican train last; `CallLastTile`, under rules with the call,
    after every other move); the tuple is empty only when the game is over;
    `apply` accepts every move in it and refuses every other.

    Given a `PlayerView`, return the same moves as for the state when it is the
    viewer's turn, ``(NextRound(),)`` between rounds, and ``()`` otherwise.

    Raises:
        TypeError: if *state* is neither a `GameState` nor a `PlayerView`.

    >>> import attrs
    >>> state = new_game(2, attrs.evolve(STANDARD, max_pip=6), seed=4)
    >>> state.current_player, legal_moves(state)
    (0, (Play(Tile(6, 2), 0),))
    """
    if type(state) is not GameState:
        if isinstance(state, PlayerView):
            if state.current_player is not None and state.current_player != state.seat:
                return ()  # not the viewer's turn
            return _state_moves(view_position(state), state)
        raise TypeError(f"legal_moves() needs a GameState or PlayerView, not {state!r}")
    moves = state._legal
    if moves is None:
        moves = _state_moves(state, state)
        state._legal = moves  # a cache, invisible to eq and hash
    return moves


def _state_moves(state: GameState, asked: GameState | PlayerView) -> tuple[Move, ...]:
    # The legal moves of a state, from its masks: the one place the rules of a turn
    # are applied, for a state and for a view (its `view_position`, a state that holds
    # only what the view shows).  *asked* is what a rule's own code is shown: the
    # state itself, or the view.  The commonest case (no double pending) is written
    # out here, in one function: this is the engine's hottest code (benchmarks/run.py).
    if state._is_over:
        return ()
    seat = state._current
    if seat is None:
        return (_NEXT_ROUND,)  # E4: between rounds only the next deal is legal
    r = state._round
    hand = state._hands[seat]
    board = state._board
    plays: list[Move]
    if r.first_turn and not state._firsts >> seat & 1:  # _on_first_turn, written out
        # P4: a first turn plays only on the player's own train; doubles bind nobody.
        plays = _plays_of(hand & SUITS[board[seat][0]], (seat,), board, r.plays)
        if state._turn_tiles:
            moves: tuple[Move, ...] = (*plays, _PASS)  # P4: the chain may stop after a tile
            return _with_call(state, r, hand, moves)
        may_draw = r.first_draw  # P4: never draw (unless the variant says so)
    else:
        if r.mexican_opens == ALWAYS:  # _open_trains, written out: no call in the hottest path
            usable = state._marks | 1 << seat | r.mexican_bit
        else:
            usable = _open_trains(state, r, seat, asked)
        if state._open_doubles or state._turn_doubles:
            plays = _plays_under_doubles(state, r, usable, hand, board)
        else:
            # In the documented order (by id, the Mexican train last), the tiles of the
            # hand that show a number one of them needs.
            usable_positions = POSITIONS[usable] if usable < 512 else train_positions(usable)
            if INTERPRETED:  # _plays, written out: one call less in the hottest path
                plays = _plays_by_train(hand, usable_positions, board, r.plays)
            else:
                plays = _plays(hand, usable_positions, board, r.plays)
        may_draw = True
    # P7: a player who can play must; drawing is for a player who cannot (V6: voluntary).
    free = not plays or not r.must_play
    if (
        free
        and may_draw
        and (not state._has_drawn or (r.draw_until_playable and not plays))
        and state._left
    ):
        # P5/D1/D2: one draw per turn, or per double played (or until playable).
        plays.append(_DRAW)  # plays is this call's own list
    elif free:
        plays.append(_PASS)  # P5a: can neither play nor draw: pass (the marker follows)
    if r.penalty:
        return _with_call(state, r, hand, tuple(plays))
    return tuple(plays)


def _on_first_turn(state: GameState, r: _Round, seat: int) -> bool:
    # V1: whether P4's first turn applies to *seat*: the rules have one, and the
    # seat has not finished it this round.
    return r.first_turn and not state._firsts >> seat & 1


def _with_call(state: GameState, r: _Round, hand: int, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    # The last-tile call: offered, last, to a player holding two tiles who has not called.
    if r.penalty and not state._called and count_tiles(hand) == 2:
        return (*moves, _CALL)
    return moves


def _open_trains(state: GameState, r: _Round, seat: int, asked: GameState | PlayerView) -> int:
    # P3: the own train, others' trains while marked, the Mexican train once open
    # (V2), as a mask of positions (the Mexican train last, at position r.players).
    usable = state._marks | 1 << seat | r.mexican_bit
    opens = r.mexican_opens
    if opens == ALWAYS:
        return usable  # the rule says so: it is not asked
    if opens == AFTER_FIRST_TURN:
        opened = state._firsts >> seat & 1 == 1
    else:
        # Any: the answer is checked here, so a compiled build does not refuse it first.
        rule: Any = r.mexican_train
        answer = rule.is_open(asked, seat)
        if answer is not True and answer is not False:
            raise RulesError(
                f"{rule!r}.is_open() returned {answer!r}; Rules.mexican_train must return "
                "True or False"
            )
        opened = answer is True
    if not opened:
        usable ^= r.mexican_bit  # closed: a marker replace() put on it opens nothing (P6)
    return usable


def _unions(first: int, count: int) -> tuple[int, ...]:
    # The unions of the suits first .. first + count - 1, by the bits of an index.
    unions = [0]
    for pip in range(first, first + count):
        unions += [union | SUITS[pip] for union in unions]
    return tuple(unions)


# The unions of the suits of 0-6 and of 7-12, by bit (so each table is small): the
# mask of every tile that shows one of the numbers in *pips* (bit n set for n) is
# then one OR of two entries, for any set up to double-12.
_LOW_SUITS: Final = _unions(0, 7)
_HIGH_SUITS: Final = _unions(7, 6)


def _suits(pips: int) -> int:
    # The mask of every tile that shows a number whose bit is set in *pips*.
    if pips < 1 << 13:
        return _LOW_SUITS[pips & 127] | _HIGH_SUITS[pips >> 7]
    union = 0  # a set larger than double-12
    while pips:
        bit = pips & -pips
        pips ^= bit
        union |= SUITS[bit.bit_length() - 1]
    return union


def _plays(
    hand: int, usable: tuple[int, ...], board: tuple[Line, ...], lists: list[list[Play | None]]
) -> list[Move]:
    # The plays of *hand* onto the trains at positions *usable* (ascending: by id, the
    # Mexican train last), whose interned plays are *lists* (_Round.plays), in the
    # documented order: tiles ascending, then trains.  Each build its cheaper way.
    if INTERPRETED:
        return _plays_by_train(hand, usable, board, lists)
    pips = 0  # bit n set when a usable train needs n
    for position in usable:
        pips |= 1 << board[position][0]
    return _plays_of(hand & _suits(pips), usable, board, lists)


def _plays_of(
    candidates: int,
    usable: tuple[int, ...],
    board: tuple[Line, ...],
    lists: list[list[Play | None]],
) -> list[Move]:
    # The plays of the tiles in *candidates* (ascending) onto the trains in *usable*
    # (by position on *board*: the Mexican train is the last), whose interned plays
    # are *lists* (_Round.plays).  No tuple per train is built: each is read as needed.
    # The mask is read in chunks of 60 bits, small ints (native in the compiled build:
    # the mask of a double-12 set has 91 bits, a Python long).
    plays: list[Move] = []
    base = 0
    while candidates:
        chunk = candidates & _CHUNK
        candidates >>= 60
        while chunk:
            low = chunk & -chunk
            chunk ^= low
            index = base + low.bit_length() - 1
            ends = ENDS[index]
            for position in usable:
                if ends >> board[position][0] & 1:
                    plays_on = lists[position]
                    move = plays_on[index]
                    if move is None:
                        train_id = MEXICAN if position == len(board) - 1 else position
                        move = plays_on[index] = PLAYS[train_id][ends]
                    plays.append(move)
        base += 60
    return plays


_CHUNK: Final = (1 << 60) - 1


def _plays_by_train(
    hand: int, usable: tuple[int, ...], board: tuple[Line, ...], lists: list[list[Play | None]]
) -> list[Move]:
    # What _plays_of returns, found the way that takes the pure build fewer bytecodes:
    # the tiles of the hand that fit each usable train (by position), then put into
    # the documented order (tiles ascending, then trains by id, the Mexican train
    # last): reversed when they fit one train, else sorted in C by each Play's rank.
    # The walk over one train's tiles is written out: calling _plays_of for each train
    # instead costs a pure round 11% more instructions, more than this way saves.
    # It goes from the highest tile down: a 91-bit mask's highest bit is found and
    # cleared in two big-int operations, one of which makes a new int; its lowest
    # takes four, three of which do (a pure round ran 8% faster this way).
    plays: list[Move] = []
    several = False
    for position in usable:
        fits = hand & SUITS[board[position][0]]
        if fits:
            if plays:
                several = True
            plays_on = lists[position]
            while fits:
                index = fits.bit_length() - 1
                fits ^= _BITS[index]
                move = plays_on[index]
                if move is None:
                    train_id = MEXICAN if position == len(board) - 1 else position
                    move = plays_on[index] = PLAYS[train_id][ENDS[index]]
                plays.append(move)
    if several:
        plays.sort(key=_RANK)
    else:
        plays.reverse()
    return plays


_RANK: Final = attrgetter("_rank")
_BITS: Final = tuple([1 << index for index in range(len(ENDS))])  # by tile index


def _plays_under_doubles(
    state: GameState, r: _Round, usable: int, hand: int, board: tuple[Line, ...]
) -> list[Move]:
    # The trains of *usable* (P3, as _state_moves found them), then D1-D4: what the
    # open doubles leave of them, found once for each position of the open doubles
    # and kept (_ALLOWED), as the positions of the trains the player may use.
    mexican = len(board) - 1
    earlier = state._open_doubles
    this_turn = state._turn_doubles
    doubles = _numbers(state, earlier + this_turn)
    rule = r.open_doubles
    key = (id(rule), usable, mexican, *earlier, None, *this_turn, None, *doubles)
    known = _ALLOWED.get(key)
    if known is not None and known[0] is rule:
        return _plays(hand, known[1], board, r.plays)
    allowed, double_access = _planned(
        state, rule, _access(usable, mexican), earlier, this_turn, doubles
    )
    if double_access is not None:
        # Cover.doubles_exempt: whether a tile is a double decides where it may go,
        # so the trains depend on each tile (the plan itself is kept in _PLANS).
        ends = [end for end, _ in board]
        return _plays_exempting_doubles(tiles_of(hand), ends, allowed, double_access)
    positions = tuple([mexican if t == MEXICAN else t for t in allowed])
    if len(_ALLOWED) >= _PLANS_SIZE:
        _ALLOWED.clear()
    _ALLOWED[key] = (rule, positions)
    return _plays(hand, positions, board, r.plays)


def _access(usable: int, mexican: int) -> list[int]:
    # The ids of the trains in the mask *usable* (the Mexican train at *mexican*), in
    # the documented order, as the open-double plans are keyed.
    access = list(train_positions(usable))
    if access[-1] == mexican:
        access[-1] = MEXICAN
    return access


def _plays_exempting_doubles(
    hand: tuple[Tile, ...],
    ends: list[int],
    access: Sequence[int],
    double_access: Sequence[int],
) -> list[Move]:
    # D3's stronger reading (Cover.doubles_exempt): doubles may go where the player
    # may play anyway; the other tiles only where the cover allows.  Both lists are
    # in the documented order (trains by id, the Mexican train last); *ends* has the
    # open ends by train position (the Mexican train, -1, the last).
    plays: list[Move] = []
    for tile in hand:
        targets = double_access if tile.is_double else access
        plays.extend(Play(tile, t) for t in targets if tile.shows(ends[t]))
    return plays


# What the open-double rule leaves a player (a _Plan per open-double position),
# by all it depends on: the rule, and each open double's train, number and
# liveness (D4).  The rule is keyed by its id, because its hash is a Python
# method; an entry keeps its rule alive, so the id stays the rule's own.  Rules
# are immutable and their answers a function of the doubles (OpenDoubleRule), so
# each answer is asked for and checked once.  Bounded: emptied when full.
_Plan = tuple[tuple[int, ...] | None, int]
_PLANS: Final[dict[tuple[int | None, ...], tuple[OpenDoubleRule, _Plan, _Plan | None]]] = {}
_PLANS_SIZE = 4096  # not Final: a test lowers it
# What _plays_under_doubles found: by the rule's id, the mask of the trains open to
# the player (P3), the Mexican train's position and the open doubles as keyed in
# _PLANS, the rule and the positions of the trains the player may use (not kept when
# a cover exempts doubles: the trains then depend on each tile).  Bounded as _PLANS.
_ALLOWED: Final[dict[tuple[int | None, ...], tuple[OpenDoubleRule, tuple[int, ...]]]] = {}


def _planned(
    state: GameState,
    rule: OpenDoubleRule,
    access: list[int],
    earlier: tuple[int, ...],
    this_turn: tuple[int, ...],
    doubles: list[int],
) -> tuple[Sequence[int], Sequence[int] | None]:
    # D1-D4: what the open-double rule leaves of the trains a player may use
    # (*access*): the trains for the player's tiles, and the trains for a double when
    # a cover exempts doubles (else None).  *doubles* are the open doubles' numbers
    # (as _numbers gives them), in the order of *earlier* then *this_turn*.
    key = (id(rule), *earlier, None, *this_turn, None, *doubles)  # no train id is None
    known = _PLANS.get(key)
    if known is None or known[0] is not rule:
        known = _ask(state, rule, earlier, this_turn, doubles)
        if len(_PLANS) >= _PLANS_SIZE:
            _PLANS.clear()
        _PLANS[key] = known
    _, plan, double_plan = known
    allowed = _follow(plan, access)
    return allowed, None if double_plan is None else _follow(double_plan, access)


def _follow(plan: _Plan, access: list[int]) -> Sequence[int]:
    # The trains a plan leaves, of those in *access*, in the documented order.
    fixed, excluded = plan
    if fixed is not None:
        return fixed
    if not excluded:
        return access
    allowed = []
    for train_id in access:
        if not excluded >> (train_id + 1) & 1:
            allowed.append(train_id)
    return allowed


def _ask(
    state: GameState,
    rule: OpenDoubleRule,
    earlier: tuple[int, ...],
    this_turn: tuple[int, ...],
    doubles: list[int],
) -> tuple[OpenDoubleRule, _Plan, _Plan | None]:
    # Ask the open-double rule, check its answers, and plan from them.
    split = len(earlier)
    obligation = _cover(rule.obligation, state, earlier, doubles[:split]) if earlier else None
    follow_up = _cover(rule.follow_up, state, this_turn, doubles[split:]) if this_turn else None
    plan = _plan(earlier, this_turn, obligation, follow_up)
    relaxed_obligation, relaxed_follow_up = _relax(obligation), _relax(follow_up)
    if relaxed_obligation is obligation and relaxed_follow_up is follow_up:
        return rule, plan, None
    return rule, plan, _plan(earlier, this_turn, relaxed_obligation, relaxed_follow_up)


def _relax(cover: Cover | None) -> Cover | None:
    # Cover.doubles_exempt: a double is held only to where the player may play anyway.
    if cover is not None and cover.only and cover.doubles_exempt:
        return Cover(cover.trains, only=False)
    return cover


def _plan(
    earlier: tuple[int, ...],
    this_turn: tuple[int, ...],
    obligation: Cover | None,
    follow_up: Cover | None,
) -> _Plan:
    """Return what two covers leave a player, whatever trains are open to them.

    Either ``(trains, 0)``: exactly these trains, in the documented order, when a
    cover binds; or ``(None, excluded)``: the trains open to the player but those
    whose bit ``1 << (train + 1)`` is set in *excluded*.
    """
    covers = [(pending, cover) for pending, cover in ((earlier, obligation), (this_turn, follow_up))
              if cover is not None]  # fmt: skip

    def may_use(train_id: int) -> bool:
        for pending, cover in covers:
            if train_id in pending:
                if train_id not in cover.trains:
                    return False  # D3: a pending double is covered only when named
            elif cover.only:
                return False  # D2: a binding double must be covered first
        return True

    if any(cover.only for _, cover in covers):
        # D2: a binding double may be covered on any train, even an unmarked one,
        # and a binding cover allows only its own trains.
        binding = {train_id for _, cover in covers if cover.only for train_id in cover.trains}
        return tuple(sorted(filter(may_use, binding), key=_train_order)), 0
    excluded = 0
    for train_id in (*earlier, *this_turn):
        if not may_use(train_id):
            excluded |= 1 << (train_id + 1)  # the Mexican train (-1) is bit 0
    return None, excluded


def _train_order(train_id: int) -> int:
    return 1 << 30 if train_id == MEXICAN else train_id


def _cover(
    method: object, state: GameState, train_ids: tuple[int, ...], numbers: Sequence[int]
) -> Cover:
    # Ask the open-double rule about the doubles on *train_ids*, each given by its
    # number, or -1 - its number when it is dead (as _numbers gives them), and check
    # its answer.
    doubles = []
    for train_id, number in zip(train_ids, numbers, strict=True):
        closable = number >= 0
        doubles.append(OpenDouble(train_id, number if closable else -1 - number, closable))
    cover = method(tuple(doubles))  # type: ignore[operator]
    if isinstance(cover, Cover) and set(cover.trains).issubset(train_ids):
        return cover
    # Blame the rule, by the method that answered, with what it was asked.
    asked = (
        f"{state.rules.open_doubles!r}.{getattr(method, '__name__', 'answer')}() was asked "
        f"about the open doubles on trains {train_ids} and returned {cover!r}"
    )
    if not isinstance(cover, Cover):
        raise RulesError(
            f"{asked}, a {type(cover).__name__}: an OpenDoubleRule answers with a Cover, "
            f"such as Cover({train_ids[:1]!r}, only=True)"
        )
    strangers = sorted(set(cover.trains) - set(train_ids))
    named = ", ".join(map(str, strangers))
    which = f"train {named}, which has" if len(strangers) == 1 else f"trains {named}, which have"
    raise RulesError(
        f"{asked}, which names {which} no open double: a Cover names only trains among the "
        "doubles it is given"
    )


def _numbers(state: GameState, train_ids: tuple[int, ...]) -> list[int]:
    # Per open double on *train_ids*: its number, or -1 - its number when it is dead.
    # D4: a double is dead once every other tile of its suit is on the table.  Each
    # tile of the set is on the table, in a hand or in the boneyard (S1-S4), so this
    # is one mask operation on the state's mask of the table (a view's position has
    # the table too: it is public).
    numbers = []
    set_mask = state._round.set_mask
    table = state._table
    for train_id in train_ids:
        pip = state._board[train_id][0]  # the Mexican train (-1) is the last
        suit = SUITS[pip] & set_mask
        numbers.append(-1 - pip if table & suit == suit else pip)
    return numbers


def doubles_to_cover(state: GameState | PlayerView) -> tuple[int, ...]:
    """Return the trains whose open doubles bind the player to move now (D2-D4, V3, V4).

    The doubles left open by earlier turns, as the open-double rule answers for them:
    the trains the player must cover before playing anywhere else, in the documented
    order; () when none binds (no open double, a dead one, D4, or a rule under which
    doubles never bind), between rounds, and on a first turn (P4).  The front ends
    cite D2 for a draw or a pass made under this obligation.
    """
    position = view_position(state) if isinstance(state, PlayerView) else state
    seat = position._current
    earlier = position._open_doubles
    r = position._round
    if seat is None or not earlier or _on_first_turn(position, r, seat):
        return ()
    cover = _cover(r.open_doubles.obligation, position, earlier, _numbers(position, earlier))
    return tuple(sorted(cover.trains, key=_train_order)) if cover.only else ()


def closing_order(state: GameState | PlayerView) -> tuple[tuple[int, ...], frozenset[int]]:
    """Return the open doubles' trains as the open-double rule closes them, and those it binds.

    The rule is asked as `doubles_to_cover` asks it, one double closed after another:
    the first tuple holds the trains whose double it binds one at a time, in that order
    (D3, V3); it stops at doubles the rule binds together (any one of them, V3) or
    never.  The set holds every double the rule binds on the way: a dead double it
    still binds (V4) is among them, one it skips (D4) is not.  The front ends number
    the open doubles by it.
    """
    position = view_position(state) if isinstance(state, PlayerView) else state
    left = position._open_doubles
    numbers = _numbers(position, left)
    obligation = position._round.open_doubles.obligation
    order: list[int] = []
    bound: set[int] = set()
    while left:
        cover = _cover(obligation, position, left, numbers)
        if not cover.only:
            break
        bound.update(cover.trains)
        if len(cover.trains) != 1:
            break
        closed = cover.trains[0]
        order.append(closed)
        numbers = [n for t, n in zip(left, numbers, strict=True) if t != closed]
        left = tuple(t for t in left if t != closed)
    return tuple(order), frozenset(bound)


def dead_doubles(state: GameState | PlayerView) -> tuple[int, ...]:
    """Return the trains whose open double nothing can cover any more (D4): every other
    tile of its suit is on the table.  Whether such a double still binds is the
    open-double rule's to say (`doubles_to_cover`; V4 keeps it binding).
    """
    position = view_position(state) if isinstance(state, PlayerView) else state
    earlier = position._open_doubles
    numbers = _numbers(position, earlier)
    return tuple(train for train, number in zip(earlier, numbers, strict=True) if number < 0)


@overload
def mexican_open(state: GameState) -> tuple[bool, ...]: ...
@overload
def mexican_open(state: PlayerView) -> tuple[bool, ...]: ...
def mexican_open(state: Any) -> tuple[bool, ...]:
    """Return, for each seat, whether the Mexican train is open to it now (V2).

    As the rules' Mexican-train rule answers for the table as it is, checked as
    `legal_moves` checks it; an open double that binds (D2) may be covered there
    whatever this says.  Every seat's answer is public: a view's is its state's.

    Raises:
        RulesError: if the rule answers anything but True or False.
        TypeError: if *state* is neither a `GameState` nor a `PlayerView`.

    >>> from mexican_train import HUB, STANDARD, view
    >>> mexican_open(new_game(3, STANDARD, seed=1))  # from each seat's second turn
    (False, False, False)
    >>> mexican_open(view(new_game(3, HUB, seed=1), 0))  # from the first turn
    (True, True, True)
    """
    if isinstance(state, PlayerView):
        position = view_position(state)
    elif type(state) is GameState:
        position = state
    else:
        raise TypeError(
            f"mexican_open() needs a GameState or PlayerView, not {type(state).__name__}"
        )
    r = position._round
    return tuple(
        _open_trains(position, r, seat, state) >> r.players & 1 == 1 for seat in range(r.players)
    )


# -- applying moves -------------------------------------------------------------


def apply(state: GameState, move: Move) -> GameState:
    """Return the state after *move*; *state* itself is left as it was.

    Raises:
        IllegalMoveError: if *move* is not among ``legal_moves(state)``; its
            ``reason`` names the rule that forbids it.
        TypeError: if *state* is not a `GameState` (a `PlayerView` included: a
            view holds one seat's knowledge, not the hidden tiles a move may need).

    >>> state = new_game(4, seed=7)
    >>> after = apply(state, legal_moves(state)[0])
    >>> after is not state and after != state
    True
    """
    if type(state) is GameState:
        moves = state._legal  # as apply leaves it: cached
    elif isinstance(state, GameState):
        moves = None
    else:
        raise _not_a_state("apply", state)
    if moves is None:
        moves = legal_moves(state)
    for legal in moves:  # moves are interned: equal moves are the same object
        if legal is move:
            break
    else:
        raise IllegalMoveError(move, why_illegal(state, move))
    if type(move) is _PLAY:
        after = _play(state, move)  # the commonest move, dispatched first
    elif move is _DRAW:
        after = _draw(state)
    elif move is _PASS:
        after = _pass(state)
    elif move is _NEXT_ROUND:
        after = start_round(
            state.rules, state.players, state.max_pip, state.hand_size, state.seed,
            state.round_number + 1, previous_first=state.first_player,
            scores=state.scores, round_scores=state.round_scores,
        )  # fmt: skip
    else:
        assert move is _CALL
        after = _call(state)
    if state._trains is not None:
        _carry_trains(state, after, move)  # a view of the state before built them: keep them
    # The next position's legal moves, computed now: the caller asks for them next.
    # A user's rule that answers wrongly, or raises, is reported by legal_moves, as
    # always: never by apply, whose move was legal.
    try:  # noqa: SIM105 (contextlib.suppress costs a context manager per move)
        after._legal = _state_moves(after, after)
    except Exception:  # legal_moves asks again, and raises it
        pass
    return after


def _carry_trains(before: GameState, after: GameState, move: Move) -> None:
    # Give the state after *move* the `Train` values of the state before (built when
    # it was viewed) that the move left as they were: a play changes the train it
    # joins (and its owner's marker and play, when it is the mover's own); a pass,
    # or a tile elsewhere (P6, Rules.marker_lifts_anywhere), may change the mover's
    # marker; a draw or a call changes no train.  So a caller that views every
    # state (simulate, a table) builds one or two trains a move, not all.
    seat = before._current
    trains = before._trains
    if seat is None or trains is None:
        return  # NextRound: a new table
    positions = []
    if isinstance(move, Play):
        positions.append(move.train if move.train != MEXICAN else len(trains) - 1)
    if after._marks != before._marks and seat not in positions:
        positions.append(seat)
    if not positions:
        after._trains = trains
        return
    kept = list(trains)
    for position in positions:
        end, tiles = after._board[position]
        bit = 1 << position
        kept[position] = board_train(tiles, end, after._marks & bit != 0, after._owned & bit != 0)
    after._trains = tuple(kept)


def _not_a_state(function: str, value: object) -> TypeError:
    if isinstance(value, PlayerView):
        return TypeError(
            f"{function}() needs a GameState, not a PlayerView: a view shows what one seat "
            "knows, not the boneyard a move may draw from; apply moves to the state and "
            "send each player view(state, seat)"
        )
    return TypeError(f"{function}() needs a GameState, not {type(value).__name__}")


def _replace(items: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _draw(s: GameState) -> GameState:
    seat = s._current
    assert seat is not None
    dealt = s._round.boneyard
    left = s._left
    hands = _replace(s._hands, seat, s._hands[seat] | 1 << dealt[len(dealt) - left]._index)
    # Positional, as in _end_turn: a draw is about one move in five, and a class called
    # by keyword packs a dict each time (pure Python: about 6% of a random round).
    return GameState(
        s._round, left - 1, hands, s._board, s._table, s._marks, s._owned, seat,
        s._firsts, s._turn_tiles, True, s._turn_doubles, s._open_doubles, s._idle, False,
        s._called,
    )  # fmt: skip


def _call(s: GameState) -> GameState:
    # The last-tile call: only recorded; _end_turn reads it.
    return GameState(
        round_=s._round,
        left=s._left,
        hands=s._hands,
        board=s._board,
        table=s._table,
        marks=s._marks,
        owned=s._owned,
        current=s._current,
        firsts=s._firsts,
        turn_tiles=s._turn_tiles,
        has_drawn=s._has_drawn,
        turn_doubles=s._turn_doubles,
        open_doubles=s._open_doubles,
        idle=s._idle,
        is_over=False,
        called=True,
    )


def _play(s: GameState, move: Play) -> GameState:
    seat = s._current
    assert seat is not None
    train_id, tile, bit, high, low = move._joins  # one attribute read, not five
    hand = s._hands[seat] ^ bit
    changed = list(s._hands)  # _replace, written out in the hottest path
    changed[seat] = hand
    hands = tuple(changed)
    line = s._board[train_id]
    # P2: the tile joins at the open end; P6: the owner's tile lifts their marker;
    # V2: and counts as the owner's play on their own train (others' tiles do not).
    end = line[0]
    marks = s._marks
    owned = s._owned
    if train_id == seat:
        if marks >> seat & 1:
            marks ^= 1 << seat  # a new int only when the marker goes (14 players: not cached)
        owned |= 1 << seat
    elif marks >> seat & 1 and s._round.lifts_anywhere:
        marks ^= 1 << seat  # P6 (Rules.marker_lifts_anywhere): a tile on any train lifts it
    joined_end = low if high == end else high
    changed_board = list(s._board)
    changed_board[train_id] = (joined_end, line[1] + (tile,))
    board = tuple(changed_board)
    table = s._table | bit
    # D2: a tile played on an open double closes it.
    open_doubles = s._open_doubles
    if open_doubles and train_id in open_doubles:
        open_doubles = _without(open_doubles, train_id)
    turn_doubles = s._turn_doubles
    if turn_doubles and train_id in turn_doubles:
        turn_doubles = _without(turn_doubles, train_id)
    turn_tiles = s._turn_tiles + 1
    r = s._round
    if r.first_turn and not s._firsts >> seat & 1:
        # P4: the chain goes on while the hand has a tile that fits the own train.
        if r.chain and hand & SUITS[joined_end]:
            return _same_turn(
                s, hands, board, table, marks, owned, open_doubles, turn_doubles, turn_tiles
            )
        return _end_turn(
            s, seat, hands, board, table, marks, owned, open_doubles, turn_doubles, turn_tiles
        )
    if not hand:
        # E1, D5: going out ends it (a turn that played a tile: no unchanged turns, E2).
        return _end_round(s, hands, board, table, marks, owned, s._firsts | 1 << seat, 0)
    if high == low:
        # D1: a double must be followed at once; it brings one draw of its own.
        turn_doubles = (*turn_doubles, train_id)
        return _same_turn(
            s, hands, board, table, marks, owned, open_doubles, turn_doubles, turn_tiles
        )
    return _end_turn(  # P5a
        s, seat, hands, board, table, marks, owned, open_doubles, turn_doubles, turn_tiles
    )


def _without(train_ids: tuple[int, ...], train_id: int) -> tuple[int, ...]:
    # A function, not a comprehension in _play: one there makes train_id a closure
    # cell, slower to read in the interpreter on every play.
    return tuple([t for t in train_ids if t != train_id])


def _same_turn(
    s: GameState,
    hands: tuple[int, ...],
    board: tuple[Line, ...],
    table: int,
    marks: int,
    owned: int,
    open_doubles: tuple[int, ...],
    turn_doubles: tuple[int, ...],
    turn_tiles: int,
) -> GameState:
    # Positional, as in _end_turn (a double's follow-up and a first turn's chain).
    return GameState(
        s._round, s._left, hands, board, table, marks, owned, s._current,
        s._firsts, turn_tiles, False, turn_doubles, open_doubles, s._idle, False,
        s._called,
    )  # fmt: skip


def _pass(s: GameState) -> GameState:
    seat = s._current
    assert seat is not None
    marks = s._marks
    stops_first_chain = s._round.first_turn and not s._firsts >> seat & 1 and s._turn_tiles
    if not stops_first_chain:
        # P5, D1, D2: a turn ended without a (final) tile puts a marker on the own train.
        marks |= 1 << seat
    return _end_turn(
        s, seat, s._hands, s._board, s._table, marks, s._owned, s._open_doubles, s._turn_doubles,
        s._turn_tiles,
    )  # fmt: skip


def _end_turn(
    s: GameState,
    seat: int,
    hands: tuple[int, ...],
    board: tuple[Line, ...],
    table: int,
    marks: int,
    owned: int,
    open_doubles: tuple[int, ...],
    turn_doubles: tuple[int, ...],
    turn_tiles: int,
) -> GameState:
    # The turn of *seat* (s's player to move) ends.
    r = s._round
    if turn_doubles and not (r.first_turn and not s._firsts >> seat & 1):
        # D2: a double still ending its train when the turn ends is open (P4: a
        # double in a first turn's chain binds nobody).
        open_doubles = open_doubles + turn_doubles
    firsts = s._firsts | 1 << seat
    # E2: a turn changed the table if it played a tile or newly marked the own train
    # (a marker may open a play to a player who passed earlier); else it was idle.
    idle = 0 if turn_tiles or marks & ~s._marks else s._idle + 1
    # P4: a player who went out on a first turn ends the round once all have had theirs
    # (so only when a first turn ends: later, a tile that empties a hand ends it, E1).
    if firsts != s._firsts and firsts == (1 << r.players) - 1 and 0 in hands:
        return _end_round(s, hands, board, table, marks, owned, firsts, idle)
    left = s._left
    # E2: an empty boneyard and a full cycle of turns that left the table unchanged: blocked.
    if not left and idle >= r.players:
        return _end_round(s, hands, board, table, marks, owned, firsts, idle)
    penalty = r.penalty
    if penalty and turn_tiles and not s._called and count_tiles(hands[seat]) == 1:
        # The last-tile call was missed: the player draws the penalty, as far as it goes.
        taken = min(penalty, left)
        dealt = r.boneyard
        drawn = len(dealt) - left
        hands = _replace(hands, seat, hands[seat] | mask_of(dealt[drawn : drawn + taken]))
        left -= taken
    # The hottest construction: positional, in GameState.__init__'s order (round_, left,
    # hands, board, table, marks, owned, current, firsts, turn_tiles, has_drawn,
    # turn_doubles, open_doubles, idle, is_over, called).
    return GameState(
        r, left, hands, board, table, marks, owned, (seat + 1) % r.players,  # P1: clockwise
        firsts, 0, False, (), open_doubles, idle, False, False,
    )  # fmt: skip


def round_score(hand: Iterable[Tile], rules: Rules = STANDARD) -> int:
    """Return what *hand* scores at the end of a round (E3, V7).

    >>> round_score([Tile(12, 5), Tile(0, 0)])
    67
    >>> round_score([])
    0
    """
    if isinstance(hand, str) or not isinstance(hand, Iterable):
        raise TypeError(f"round_score() needs a hand, a list of Tiles, not {type(hand).__name__}")
    tiles = tuple(hand)
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise TypeError(f"round_score() needs a hand of Tiles, not one holding {tile!r}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {rules!r}")
    return _score_hand(tiles, rules.double_blank_score)


def _end_round(
    s: GameState,
    hands: tuple[int, ...],
    board: tuple[Line, ...],
    table: int,
    marks: int,
    owned: int,
    firsts: int,
    idle: int,
) -> GameState:
    # E3: every player scores the pips left in hand; E4/E5: next round or game over.
    # *firsts* and *idle* count the ending turn too: the seat has had its first turn
    # (P4), and a blocked round ends with a full cycle (E2).
    r = s._round
    double_blank = r.rules.double_blank_score
    points = tuple([_score_hand(tiles_of(hand), double_blank) for hand in hands])
    scores = tuple([a + b for a, b in zip(r.scores, points, strict=True)])
    ended = _Round(
        r.rules, r.players, r.max_pip, r.hand_size, r.round_number, r.engine, r.first_player,
        scores, (*r.round_scores, points), r.seed, r.boneyard,
    )  # fmt: skip
    return GameState(
        round_=ended,
        left=s._left,
        hands=hands,
        board=board,
        table=table,
        marks=marks,
        owned=owned,
        current=None,
        firsts=firsts,
        turn_tiles=0,
        has_drawn=False,
        turn_doubles=(),
        open_doubles=(),
        idle=idle,
        is_over=r.round_number >= r.rounds,
        called=False,
    )


# -- explaining refusals --------------------------------------------------------


def why_illegal(state: GameState, move: object) -> str:
    # The reason apply gives for refusing *move*: which decision of _state_moves left
    # it out, found with the same predicates (_on_first_turn, _open_trains, _numbers
    # and _cover) and the moves it offered.
    if not isinstance(move, (Play, Draw, Pass, NextRound, CallLastTile)):
        return (
            "not a move: expected Play, Draw, Pass, NextRound or CallLastTile, "
            f"got {type(move).__name__}"
        )
    if state._is_over:
        return "E4: the game is over; no move is legal"
    seat = state._current
    if seat is None:
        return "E4: the round is over; the only legal move is NextRound()"
    if isinstance(move, NextRound):
        return "E4: NextRound() is legal only once a round has ended"
    r = state._round
    if isinstance(move, CallLastTile):  # _with_call's three conditions, in its order
        if not r.penalty:
            return "last tile: these rules have no last-tile call (Rules.last_tile_penalty is 0)"
        if state._called:
            return f"last tile: seat {seat} has already called this turn"
        held = count_tiles(state._hands[seat])
        return f"last tile: a player calls holding exactly 2 tiles; seat {seat} holds {held}"
    can_play = any(type(legal) is _PLAY for legal in legal_moves(state))
    first = _on_first_turn(state, r, seat)
    if isinstance(move, Draw):
        if first and not r.first_draw:
            return "P4: a player never draws on the first turn of a round"
        if first and state._turn_tiles:  # the rules let a first turn draw, before its chain
            return "P4: a first turn draws only before its first tile; the chain goes on, or Pass() stops it"
        if can_play and r.must_play:
            return "P7: a player who has a legal play must make one; drawing is only for a player who has none"
        # Rules.draw_until_playable draws again while no tile fits: only the empty
        # boneyard stops it then (below).
        if state._has_drawn and (can_play or not r.draw_until_playable):
            # The draw was the double's (D1), the open double's (D2), the first turn's
            # (P4, where the rules let it draw) or the turn's (P5).
            rule = (
                "D1" if state._turn_doubles
                else "D2" if doubles_to_cover(state)
                else "P4" if first
                else "P5"
            )  # fmt: skip
            if r.draw_until_playable:
                return f"{rule}: the drawing stops once a tile in hand can be played"
            return f"{rule}: only one draw is allowed here, and it has been taken"
        return "P5: the boneyard is empty"
    if isinstance(move, Pass):
        if can_play and r.must_play:
            return "P7/P5a: a player who has a legal play must make one"
        return "P5a: a player who does not play must draw first while the boneyard has tiles"
    tile, train_id = move.tile, move.train
    if tile not in state.hand(seat):
        return f"seat {seat} does not hold {tile}"
    if not MEXICAN <= train_id < r.players:
        return (f"there is no train {train_id}: with {r.players} players the trains are "
                f"seat 0's to seat {r.players - 1}'s and the Mexican train")  # fmt: skip
    if first and train_id != seat:  # P4 before P2: on a first turn no other train is open
        return (f"P4: on the first turn of a round a player plays only on their own train, "
                f"not on {train_name(train_id)}")  # fmt: skip
    position = r.players if train_id == MEXICAN else train_id
    end = state._board[position][0]
    if not tile.shows(end):
        return f"P2: {tile} does not fit {train_name(train_id)}, whose open end is {end}"
    if first:
        return f"P4: on the first turn of a round a player plays only on their own train ({seat})"
    earlier = state._open_doubles
    doubles = earlier + state._turn_doubles
    open_to_seat = _open_trains(state, r, seat, state) >> position & 1
    cover = (
        _cover(r.open_doubles.obligation, state, earlier, _numbers(state, earlier))
        if earlier
        else None
    )
    bound = cover is not None and cover.only
    if bound and cover is not None and cover.trains and not state._turn_doubles:
        # D2: name the doubles that bind, as the rule has them: one in the order of D3
        # (V3), or several in any order; never a dead one it skips (D4).
        named = " or ".join(train_name(t) for t in sorted(cover.trains, key=_train_order))
        if len(cover.trains) == 1:
            return f"D2/D3: the open double on {named} must be covered first; see legal_moves()"
        return (f"D2/D3: an open double must be covered first, any one of those on {named}; "
                "see legal_moves()")  # fmt: skip
    turn = state._turn_doubles
    if turn and not bound:
        # D3: the tile that follows this turn's doubles goes on the one the rule names
        # first, if on any of them; or only there, under a follow-up that binds (D1).
        follow = _cover(r.open_doubles.follow_up, state, turn, _numbers(state, turn))
        named = " or ".join(train_name(t) for t in sorted(follow.trains, key=_train_order))
        which = f"the double on {named}" if len(follow.trains) == 1 else f"a double on {named}"
        if follow.trains and follow.only:
            return f"D1/D3: the tile that follows this turn's doubles goes on {which}; see legal_moves()"
        if follow.trains and train_id in turn:
            return (f"D3: of this turn's doubles, {which} must be covered first; "
                    "see legal_moves()")  # fmt: skip
    # The open doubles forbid this play only if binding, or if the train is open to the player.
    if doubles and (bound or open_to_seat):
        lines = ", ".join(train_name(t) for t in doubles)
        return (f"D2/D3: an open double must be covered first, in order "
                f"(open doubles on {lines}); see legal_moves()")  # fmt: skip
    if train_id == MEXICAN:
        if r.mexican_opens == AFTER_FIRST_TURN:
            return "V2: the Mexican train opens on each player's second turn of the round"
        return f"V2: the Mexican train is not open to seat {seat}"  # the rule says when, if ever
    return f"P3: {train_name(train_id)} belongs to another player and carries no marker"
