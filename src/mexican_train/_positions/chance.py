"""Chance made explicit: positions from their parts, and the outcome of a draw or a deal fixed.

The engine draws the boneyard's first tile and deals each round from the seed (S6).
Search, determinization and chance nodes need to choose those outcomes instead, and to
build a position from parts they chose, without ever making a state no game could
reach.  Each function here is checked as `apply` is: `build_state` refuses inconsistent
parts exactly as `state_from_json` does (the same checks, `check.check_state`),
`draw_tile` and `next_round` are refused when the move they stand for is not legal,
and `reorder_boneyard` only ever reorders tiles that are in the boneyard.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from .._core.bounds import check_bound
from .._core.deal import Deal, tiles_of
from .._core.engine import apply, legal_moves, start_round, why_illegal
from .._core.errors import (
    DealError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    RulesError,
    shown,
)
from .._core.moves import DRAW, NEXT_ROUND
from .._core.rules import EnginePlacement, Rules
from .._core.state import GameState, Train, flag, whole, with_boneyard
from .._core.tiles import Tile
from .check import Problem, _dotted, check_state, engine_of
from .fields import StateFields

__all__ = ["build_state", "draw_tile", "next_round", "reorder_boneyard"]

# Hands are listed in ascending order: this key sorts tiles at C speed (a tile's
# hash is high * 1024 + low, the order of (high, low)).
_ORDER = attrgetter("_hash")


def build_state(
    *,
    rules: Rules,
    players: int,
    seed: int,
    round_number: int,
    hands: Iterable[Iterable[Tile | str]],
    boneyard: Iterable[Tile | str],
    trains: Iterable[Train],
    current_player: int | None,
    first_player: int | None = None,
    had_first_turn: Iterable[bool] | None = None,
    turn_tiles: int = 0,
    has_drawn: bool = False,
    turn_doubles: Iterable[int] = (),
    open_doubles: Iterable[int] = (),
    idle_turns: int = 0,
    scores: Iterable[int] | None = None,
    round_scores: Iterable[Iterable[int]] = (),
    last_tile_called: bool = False,
) -> GameState:
    """Return the state made of these parts, after checking that a game could reach it.

    Every part is a `GameState` attribute of the same name.  The set, the hand size
    and the engine follow from *rules*, *players* and *round_number* (S1, S2); the
    hands are sorted; ``is_over`` follows from the round and *current_player*.  The
    turn facts default to the start of a turn: no tile played or drawn yet, no
    double waiting, no call made.

    Args:
        rules: the rules in force.
        players: the number of players.
        seed: the seed the later rounds are dealt from (S6).
        round_number: the round, from 1.
        hands: each seat's tiles, in any order (`Tile` values or ``"a-b"``).
        boneyard: the undrawn tiles in draw order, the first drawn first.
        trains: the personal trains by seat, then the Mexican train, each with its
            marker (P6) and whether its owner has played on it (`Train.owner_played`,
            V2; a started train without a marker must be its owner's).
        current_player: the seat to move; None once the round is over.
        first_player: the seat that played first this round.  Under S4 it may be
            left out (it rotates from seat 0); under S3 it is whoever held the engine.
        had_first_turn: per seat, whether its first turn is over; by default every
            seat's is (it matters only during the first turns of P4).
        turn_tiles: tiles the player to move has played this turn.
        has_drawn: whether the player to move has drawn since their last tile.
        turn_doubles: trains ending in a double played this turn, uncovered.
        open_doubles: trains ending in an open double from an earlier turn (D2).
        idle_turns: consecutive turns that left the table unchanged (E2).
        last_tile_called: whether the player to move has called their last tile.
        scores: the running totals; by default the sums of *round_scores* (E3).
        round_scores: one row of scores per finished round.

    Returns:
        A `GameState` equal to any state with the same parts, whichever way it was built.

    Raises:
        InvalidStateError: if the parts are inconsistent (a tile missing or repeated,
            a train that does not join, a hand of the wrong size for the turn, scores
            that do not add up, ...); ``.field`` names the part and ``.reason`` says why.
        InvalidArgumentError: if a number is outside the bounds every format can
            write back (a seed of more than 64 bits, a seat of a billion, ...).
        TileNotationError: if a tile written as text is not one (``"6-x"``), naming
            where it is (``hands[1][3]``).
        TypeError: if a part is of the wrong kind altogether (a str where a seat belongs).

    >>> from mexican_train import HUB, InvalidStateError, new_game
    >>> state = new_game(2, HUB, seed=3)
    >>> rebuilt = build_state(rules=HUB, players=2, seed=3, round_number=1,
    ...     hands=state.hands, boneyard=state.boneyard, trains=state.trains,
    ...     current_player=0, first_player=0, had_first_turn=[False, False])
    >>> rebuilt == state
    True
    >>> try:
    ...     build_state(rules=HUB, players=2, seed=3, round_number=1, hands=state.hands,
    ...         boneyard=state.boneyard[1:], trains=state.trains, current_player=0)
    ... except InvalidStateError as error:
    ...     print(error.field, "--", error.reason.replace(str(state.boneyard[0]), "X"))
    ...
    boneyard -- 90 tiles shown, but a double-12 set has 91: missing X
    """
    return build_checked_state(
        rules, players, seed, round_number, hands, boneyard, trains, current_player,
        first_player, had_first_turn, turn_tiles, has_drawn, turn_doubles, open_doubles,
        idle_turns, scores, round_scores, last_tile_called,
    )  # fmt: skip


def build_checked_state(
    rules: Rules,
    players: int,
    seed: int,
    round_number: int,
    hands: Iterable[Iterable[Tile | str]],
    boneyard: Iterable[Tile | str],
    trains: Iterable[Train],
    current_player: int | None,
    first_player: int | None,
    had_first_turn: Iterable[bool] | None,
    turn_tiles: int,
    has_drawn: bool,
    turn_doubles: Iterable[int],
    open_doubles: Iterable[int],
    idle_turns: int,
    scores: Iterable[int] | None,
    round_scores: Iterable[Iterable[int]],
    last_tile_called: bool,
    *,
    mover_hand_known: bool = True,
) -> GameState:
    """`build_state`, its parts in order; *mover_hand_known* False for a world dealt at random.

    `determinize` deals the hand of the player to move, when the seat it deals for
    does not see it, without regard to what their draw tells (P7): `check_state` then
    does not hold that hand to the draw.  (Not exported: for the determinizer.)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {shown(rules)}")
    players = _number(players, "players", "players")
    seed = _number(seed, "seed", "seed")
    round_number = _number(round_number, "round_number", "round_number")
    try:
        max_pip, hand_size = rules.deal_table.lookup(players, rules.max_pip, rules.hand_size)
    except (DealError, LookupError, ValueError) as error:
        raise InvalidStateError("players", str(error)) from None
    try:
        rules.check_set(max_pip)  # S2: the set holds the rules' engines
    except RulesError as error:
        raise InvalidStateError("rules", str(error)) from None
    rounds = rules.round_count(max_pip)
    if not 1 <= round_number <= rounds:
        raise InvalidStateError(
            "round_number", f"a round is 1-{rounds} (S2), not {shown(round_number)}"
        )
    if current_player is not None:
        current_player = _number(current_player, "current_player", "seat")
    if first_player is None:
        if rules.engine_placement is not EnginePlacement.SET_ASIDE:
            raise InvalidStateError(
                "first_player", "under S3 the first player is whoever held the engine: give it"
            )
        first_player = (round_number - 1) % players  # S4: seat 0, then the next each round
    first_player = _number(first_player, "first_player", "seat")
    flags = (
        (True,) * players
        if had_first_turn is None
        else tuple(
            flag(done, f"had_first_turn[{i}]")
            for i, done in _items(had_first_turn, "had_first_turn")
        )
    )
    rows = tuple(
        tuple(
            _number(x, f"round_scores[{r}][{i}]", "score")
            for i, x in _items(row, f"round_scores[{r}]")
        )
        for r, row in _items(round_scores, "round_scores")
    )
    if scores is None:
        totals = tuple(sum(column) for column in zip(*rows, strict=False)) or (0,) * players
    else:
        totals = tuple(_number(x, f"scores[{i}]", "score") for i, x in _items(scores, "scores"))
    fields = StateFields(
        rules,
        players,
        max_pip,
        hand_size,
        seed,
        round_number,
        engine_of(rules, max_pip, round_number),
        first_player,
        tuple(
            tuple(sorted(_tiles(hand, f"hands[{seat}]"), key=_ORDER))
            for seat, hand in _items(hands, "hands")
        ),
        _tiles(boneyard, "boneyard"),
        tuple(_train(train, f"trains[{i}]") for i, train in _items(trains, "trains")),
        current_player,
        flags,
        _number(turn_tiles, "turn_tiles", "tile_count"),
        flag(has_drawn, "has_drawn"),
        tuple(
            _number(t, f"turn_doubles[{i}]", "train")
            for i, t in _items(turn_doubles, "turn_doubles")
        ),
        tuple(
            _number(t, f"open_doubles[{i}]", "train")
            for i, t in _items(open_doubles, "open_doubles")
        ),
        _number(idle_turns, "idle_turns", "turn_count"),
        totals,
        rows,
        current_player is None and round_number == rounds,
        flag(last_tile_called, "last_tile_called"),
    )
    try:
        check_state(fields, mover_hand_known=mover_hand_known)
    except Problem as problem:
        raise InvalidStateError(_dotted(problem.path), problem.message) from None
    return fields.build()


def reorder_boneyard(state: GameState, front: Iterable[Tile | str]) -> GameState:
    """Return *state* with the tiles *front* on top of the boneyard, in that order.

    The other tiles keep their order behind them.  The boneyard's order is hidden
    (S5), so the result is as reachable as *state*; use it to fix what a draw the
    engine makes by itself takes, such as the penalty for a missed last-tile call
    (``Rules.last_tile_penalty``).  To draw one chosen tile, use `draw_tile`.

    Raises:
        InvalidArgumentError: if a tile of *front* is not in the boneyard, or is
            named twice.
        TypeError: if *state* is not a `GameState`, or *front* not a list of tiles.

    >>> from mexican_train import HUB, Tile, new_game
    >>> state = new_game(2, HUB, seed=3)
    >>> tile = state.boneyard[-1]
    >>> reorder_boneyard(state, [tile]).boneyard == (tile, *state.boneyard[:-1])
    True
    """
    if not isinstance(state, GameState):
        raise TypeError(f"reorder_boneyard() needs a GameState, not {type(state).__name__}")
    tiles = _tiles(front, "front")
    seen: set[Tile] = set()
    boneyard = set(state.boneyard)
    for tile in tiles:
        if tile in seen:
            raise InvalidArgumentError(f"{tile} is named twice in front")
        if tile not in boneyard:
            raise InvalidArgumentError(
                f"{tile} is not in the boneyard, which holds {len(boneyard)} tiles"
            )
        seen.add(tile)
    if state.boneyard[: len(tiles)] == tiles:
        return state
    rest = tuple(tile for tile in state.boneyard if tile not in seen)
    return with_boneyard(state, tiles + rest)  # a reordering: checked above


def draw_tile(state: GameState, tile: Tile | str) -> GameState:
    """Return the state after the player to move draws *tile* from the boneyard (P5).

    The legal `Draw`, with its outcome chosen: *tile* may be anywhere in the
    boneyard, and the other tiles keep their order.  With the boneyard's first tile,
    the result equals ``apply(state, Draw())``.

    Raises:
        IllegalMoveError: if `Draw` is not legal in *state*; its ``reason`` names the rule.
        InvalidArgumentError: if *tile* is not in the boneyard.
        TypeError: if *state* is not a `GameState` or *tile* not a tile.

    >>> from mexican_train import Draw, Tile, apply, legal_moves, new_game
    >>> state = new_game(2, seed=4)
    >>> while Draw() not in legal_moves(state):
    ...     state = apply(state, legal_moves(state)[0])
    ...
    >>> tile = state.boneyard[3]
    >>> after = draw_tile(state, tile)
    >>> tile in after.hand(state.current_player), after.boneyard_size == state.boneyard_size - 1
    (True, True)
    >>> draw_tile(state, state.boneyard[0]) == apply(state, Draw())
    True
    """
    if not isinstance(state, GameState):
        raise TypeError(f"draw_tile() needs a GameState, not {type(state).__name__}")
    if isinstance(tile, str):
        chosen = Tile.parse(tile)
    elif isinstance(tile, Tile):
        chosen = tile
    else:  # one tile, not a list of them: the message names no item of a list
        raise TypeError(f"draw_tile() needs a Tile or an 'a-b' str, not {shown(tile)}")
    if DRAW not in legal_moves(state):
        raise IllegalMoveError(DRAW, why_illegal(state, DRAW))
    return apply(reorder_boneyard(state, [chosen]), DRAW)


def next_round(state: GameState, deal: Deal) -> GameState:
    """Return the state after `NextRound`, with the next round dealt as *deal* (E4).

    The legal `NextRound`, with its outcome chosen: *deal* is checked as
    ``new_game(deal=...)`` checks it.  Under S3, if no hand holds the engine, the
    players draw from *deal*'s boneyard until one does, as after a seeded deal.  The
    seed stays the state's, and deals the rounds after this one.

    Raises:
        IllegalMoveError: if the round is not over, or the game is (E4).
        DealError: if *deal* does not fit: a hand of the wrong size, a tile missing,
            repeated or foreign, the engine dealt under S4.
        TypeError: if *state* is not a `GameState` or *deal* not a `Deal`.

    >>> import attrs
    >>> from mexican_train import STANDARD, Deal, NextRound, Tile, apply, full_set, legal_moves
    >>> from mexican_train import new_game
    >>> state = new_game(2, attrs.evolve(STANDARD, max_pip=6), seed=5)
    >>> while legal_moves(state) != (NextRound(),):
    ...     state = apply(state, legal_moves(state)[0])
    ...
    >>> tiles = [t for t in full_set(6) if t != Tile(5, 5)]  # 5-5: round 2's engine (S2)
    >>> deal = Deal([[Tile(5, 5), *tiles[:6]], tiles[6:13]], tiles[13:])
    >>> after = next_round(state, deal)
    >>> after.round_number, after.current_player, after.hand(1) == tuple(tiles[6:13])
    (2, 0, True)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"next_round() needs a GameState, not {type(state).__name__}")
    if not isinstance(deal, Deal):
        raise TypeError(f"next_round() needs a Deal, not {type(deal).__name__}")
    if NEXT_ROUND not in legal_moves(state):
        raise IllegalMoveError(NEXT_ROUND, why_illegal(state, NEXT_ROUND))
    return start_round(
        state.rules, state.players, state.max_pip, state.hand_size, state.seed,
        state.round_number + 1, previous_first=state.first_player,
        scores=state.scores, round_scores=state.round_scores, deal=deal,
    )  # fmt: skip


# -- checking the kinds of the parts ----------------------------------------------------


def _number(value: object, what: str, bound: str) -> int:
    # A whole number (TypeError otherwise) inside its bound: every check after may show it.
    return check_bound(bound, whole(value, what), what)


def _items(values: object, what: str = "") -> Iterable[tuple[int, Any]]:
    # A str is iterable, but "6-5" is one tile, not a list of them.
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{what or 'a part'} is a list, not {shown(values)}")
    return enumerate(values)


def _tiles(values: object, what: str) -> tuple[Tile, ...]:
    return tiles_of(values, what, listed=what)  # type: ignore[arg-type]  # checked there


def _train(value: object, what: str) -> Train:
    if not isinstance(value, Train):
        raise TypeError(f"{what} is a Train, not {shown(value)}")
    return Train(
        _tiles(value.tiles, f"{what}.tiles"),
        whole(value.open_end, f"{what}.open_end"),
        flag(value.marked, f"{what}.marked"),
        flag(value.owner_played, f"{what}.owner_played"),
    )
