"""The conformance kit: check that games under any `Rules` are sound.

These are the checks the project runs on its own presets, for any `Rules`
value: yours included, with a new `OpenDoubleRule` or `MexicanTrainRule` or any
combination of fields.  A check that fails raises `ConformanceError`, naming
the invariant, the rule id (as on the docs' rule pages), and the position and move.

One line in a pytest module runs the whole kit on random games that Hypothesis
picks (Hypothesis is needed by `rules_conformance` only)::

    from mexican_train.testing import rules_conformance

    test_my_rules = rules_conformance(MY_RULES, players=[2, 4])

The pieces can be used alone, too:

>>> import attrs
>>> from mexican_train import STANDARD, apply, legal_moves, new_game
>>> from mexican_train.testing import check_invariants, check_transition, play_random_game
>>> DOUBLE_SIX = attrs.evolve(STANDARD, max_pip=6)
>>> state = new_game(3, DOUBLE_SIX, seed=1)
>>> check_invariants(state)
>>> move = legal_moves(state)[0]
>>> check_transition(state, move, apply(state, move))
>>> game = play_random_game(DOUBLE_SIX, players=3, seed=1)
>>> game.final.is_over, len(game.round_lengths)
(True, 7)
>>> from hypothesis import settings
>>> test_double_six = rules_conformance(DOUBLE_SIX, [2, 4], settings=settings(max_examples=5))
>>> test_double_six()  # what pytest does with it

What is checked (each with its rule id):

- `check_invariants` (one position): every tile of the set exactly once among
  the hands, the trains, the boneyard and the engine; every train a chain from
  the engine with the right open end (P2); the engine of the round (S2, V9); no
  marker on the Mexican train (P6); `~mexican_train.Train.owner_played` only on
  a started personal train, and on every started one without a marker (P6, V2;
  not where a tile on any train lifts the marker, ``Rules.marker_lifts_anywhere``);
  open doubles on trains that end in that double (D2); scores the sum of the
  round scores (E3); winners (E5, or shared ties with ``Rules.tie_break``
  False); a round still running only while every hand that should hold tiles
  does (E1, E2); and `legal_moves`: empty only when the game is over, no
  repeats, the documented order, and exactly the moves P2-P7 and D1-D4 allow
  (with ``draw_until_playable``, the last-tile call and
  ``Cover.doubles_exempt``), asking the rules' own `MexicanTrainRule` and
  `OpenDoubleRule`, and the same moves for the view of the seat to move (S5:
  bots and front ends ask with it, and a rule that reads a hand or the
  boneyard answers differently there, or fails).  Before the moves are judged
  by them, the rules' own objects must keep their contracts: ``is_open``
  answers True or False, the same when asked again, and as its
  ``open_from_turn`` says (V2); ``obligation`` and ``follow_up`` a `Cover`
  that names only trains among the doubles asked about, the same when asked
  again about the same doubles (D2); and none of them raises.  A rule that
  breaks one is named in the `ConformanceError`.
- `check_transition` (one move): what the move did to hands, trains, boneyard
  and markers (P2, P5, P6), that only the owner's tile sets
  `~mexican_train.Train.owner_played` (V2), that a cover clears its double
  (D2), who moves next (P1, P4, P5a, D1), the turn's bookkeeping (the first
  turns had and the idle turns, a round's last turn included: P4, E2), that a
  round ends exactly when someone goes out or when the boneyard is empty and a
  whole cycle of turns left the table unchanged (E1, E2, P4), a missed last-tile
  call's penalty, the
  round's scores (E3, V7), the next round's set-up (`check_round_start`: S2-S4,
  E4), and that `apply` gives the same result twice.
- `check_refusals` (one position): every move not offered is refused with
  `IllegalMoveError` and leaves the position as it was.
- `play_random_game`: all of the above at every step of a seeded random game,
  a bound on the length of every round (`round_move_bound`), and a replay that
  must reach the same final state (S6).

The kit checks every rule point a `Rules` value can express, through its
fields and its pluggable rules; a new field that changes what is legal must
teach the matching check about it.
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from . import (
    MEXICAN,
    Cover,
    DealError,
    EnginePlacement,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    MexicanTrainError,
    Move,
    OpenDouble,
    Play,
    Rules,
    RulesError,
    Tile,
    Train,
    apply,
    full_set,
    legal_moves,
    new_game,
    set_size,
    view,
)
from ._core.errors import shown
from ._core.moves import CALL_LAST_TILE, DRAW, NEXT_ROUND, PASS

if TYPE_CHECKING:
    import hypothesis

__all__ = [
    "ConformanceError",
    "RandomGame",
    "check_invariants",
    "check_refusals",
    "check_round_start",
    "check_transition",
    "play_random_game",
    "round_move_bound",
    "rules_conformance",
]


class ConformanceError(MexicanTrainError, AssertionError):
    """A game broke an invariant: the engine and the rules disagree somewhere.

    It is an `AssertionError`, so pytest reports it as a failed check.

    Attributes:
        invariant: what broke, in words (``"tile conservation"``).
        rule: the rule id (``"P2"``), or ``"API"`` for a documented
            guarantee of the library.
        detail: what was found, with the offending values.
        state: the position where it broke (for a move: the position before it).
        move: the move being checked, or None.
        context: where in a game it happened and how to replay it (from
            `play_random_game`), or ``""``.

    >>> from mexican_train import Pass
    >>> error = ConformanceError("chain", "P2", "train 0 breaks at 5-3", move=Pass())
    >>> print(error)
    P2 (chain) broken: train 0 breaks at 5-3
      move: Pass()
    >>> isinstance(error, AssertionError)
    True
    """

    def __init__(
        self,
        invariant: str,
        rule: str,
        detail: str,
        state: GameState | None = None,
        move: Move | None = None,
        context: str = "",
    ) -> None:
        lines = [f"{rule} ({invariant}) broken: {detail}"]
        if move is not None:
            lines.append(f"  move: {move!r}")
        if state is not None:
            lines.append("  position:\n" + _describe(state, indent="    "))
        if context:
            lines.append(f"  {context}")
        super().__init__("\n".join(lines))
        self.invariant = invariant
        self.rule = rule
        self.detail = detail
        self.state = state
        self.move = move
        self.context = context


def _fail(
    invariant: str, rule: str, detail: str, state: GameState, move: Move | None = None
) -> ConformanceError:
    return ConformanceError(invariant, rule, detail, state, move)


def _train_name(train_id: int) -> str:
    return "MEXICAN" if train_id == MEXICAN else str(train_id)


def _tiles_text(tiles: Iterable[Tile]) -> str:
    return " ".join(map(str, tiles)) or "-"


def _describe(state: GameState, indent: str = "") -> str:
    """Return a position written out for a human: what a failing check shows."""
    if state.is_over:
        turn = "game over"
    elif state.current_player is None:
        turn = "round over"
    else:
        turn = (
            f"player {state.current_player} to move (tiles this turn: {state.turn_tiles}, "
            f"drawn: {'yes' if state.has_drawn else 'no'}"
            f"{', last tile called' if state.last_tile_called else ''})"
        )
    lines = [
        f"{state.players} players, round {state.round_number} of {state.rounds}, "
        f"engine {state.engine}, first player {state.first_player}, {turn}",
    ]
    lines.extend(f"hand {seat}: {_tiles_text(hand)}" for seat, hand in enumerate(state.hands))
    for train_id in (*range(state.players), MEXICAN):
        train = state.trains[train_id]
        marker = ", marker" if train.marked else ""
        lines.append(
            f"train {_train_name(train_id)}: {_tiles_text(train.tiles)} "
            f"(open end {train.open_end}{marker})"
        )
    lines.append(f"boneyard ({len(state.boneyard)}): {_tiles_text(state.boneyard)}")
    lines.append(
        f"open doubles: {[_train_name(t) for t in state.open_doubles]}, "
        f"this turn's: {[_train_name(t) for t in state.turn_doubles]}, "
        f"idle turns: {state.idle_turns}, first turns had: {list(state.had_first_turn)}"
    )
    lines.append(f"scores: {list(state.scores)}")
    return "\n".join(indent + line for line in lines)


# -- one position ---------------------------------------------------------------


def _need_state(value: object, caller: str) -> None:
    # The kit reads a state's fields directly: say what is wrong before an AttributeError.
    if not isinstance(value, GameState):
        raise TypeError(f"{caller}() needs a GameState, not {type(value).__name__}")


def check_invariants(state: GameState) -> None:
    """Check everything that must hold in any position, whatever the rules.

    See the module docstring for the list.  `legal_moves` is checked against
    what the rules allow, asking the rules' own pluggable objects.

    Args:
        state: any position reached through `new_game` and `apply`.

    Raises:
        ConformanceError: naming the first invariant that does not hold.

    >>> from mexican_train import HUB, new_game
    >>> check_invariants(new_game(4, HUB, seed=2))
    """
    _need_state(state, "check_invariants")
    _check_shape(state)
    _check_tiles(state)
    _check_trains(state)
    _check_doubles(state)
    _check_scores(state)
    _check_round(state)
    _check_pluggable_rules(state)
    _check_legal_moves(state)


def _check_shape(state: GameState) -> None:
    players = state.players
    shape = {
        "hands": len(state.hands),
        "trains": len(state.trains) - 1,
        "scores": len(state.scores),
        "had_first_turn": len(state.had_first_turn),
    }
    for name, size in shape.items():
        if size != players:
            raise _fail("one entry per seat", "P2", f"{name} has {size} seats for {players}", state)
    for round_scores in state.round_scores:
        if len(round_scores) != players:
            raise _fail("one score per seat", "E3", f"round scores {round_scores}", state)
    seat = state.current_player
    if seat is not None and not 0 <= seat < players:
        raise _fail("a player to move", "P1", f"current_player is {seat}", state)


def _check_tiles(state: GameState) -> None:
    # Every tile of the set once: hands + trains + boneyard + the engine (P2, S2).
    tiles = [t for hand in state.hands for t in hand]
    tiles += [t for train in state.trains for t in train.tiles]
    tiles += state.boneyard
    tiles.append(state.engine)
    expected = full_set(state.max_pip)
    if len(tiles) != len(expected) or set(tiles) != set(expected):
        counts = Counter(tiles)
        twice = sorted(t for t, n in counts.items() if n > 1)
        missing = sorted(set(expected) - counts.keys())
        foreign = sorted(counts.keys() - set(expected))
        raise _fail(
            "tile conservation",
            "S2",
            f"hands + trains + boneyard + engine should hold the double-{state.max_pip} set "
            f"once; repeated: {_tiles_text(twice)}; missing: {_tiles_text(missing)}; "
            f"foreign: {_tiles_text(foreign)}",
            state,
        )
    for seat, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            raise _fail("hands in ascending order", "API", f"hand {seat} is {hand}", state)


def _check_trains(state: GameState) -> None:
    engine = state.engine
    if not engine.is_double:
        raise _fail("the engine is a double", "S2", f"engine {engine}", state)
    rounds = state.rounds
    if rounds != (state.rules.rounds or _top_engine(state.rules, state.max_pip) + 1):
        raise _fail("one round per engine", "S2", f"{rounds} rounds", state)
    if not 1 <= state.round_number <= rounds:
        raise _fail("round number", "S2", f"round {state.round_number} of {rounds}", state)
    expected = _engine_pip(state.rules, state.max_pip, state.round_number)
    if engine.high != expected:
        raise _fail(
            "engine of the round",
            "S2",
            f"round {state.round_number} should use {expected}-{expected}, not {engine}",
            state,
        )
    for train_id in (*range(state.players), MEXICAN):
        train = state.trains[train_id]
        end = engine.high
        for tile in train.tiles:
            if not tile.shows(end):
                raise _fail(
                    "every train a chain from the engine",
                    "P2",
                    f"train {_train_name(train_id)}: {_tiles_text(train.tiles)} breaks at "
                    f"{tile}, which does not show {end}",
                    state,
                )
            end = tile.other_end(end)
        if train.open_end != end:
            raise _fail(
                "open end",
                "P2",
                f"train {_train_name(train_id)} ends in {end} but says its open end is "
                f"{train.open_end}",
                state,
            )
    if state.trains[MEXICAN].marked:
        raise _fail("markers on personal trains only", "P6", "the Mexican train is marked", state)
    if state.trains[MEXICAN].owner_played:
        raise _fail("owners of personal trains only", "V2", "the Mexican train has an owner", state)
    for seat in range(state.players):
        train = state.trains[seat]
        if train.owner_played and not train.tiles:
            raise _fail(
                "the owner's tile on the owner's train",
                "V2",
                f"train {seat} has no tile but says its owner played on it",
                state,
            )
        lifts_anywhere = state.rules.marker_lifts_anywhere  # P6: by a tile elsewhere too
        if train.tiles and not train.marked and not train.owner_played and not lifts_anywhere:
            raise _fail(
                "only a marked train holds other players' tiles alone",
                "P6",
                f"train {seat} has tiles and no marker, but its owner never played on it",
                state,
            )


def _check_doubles(state: GameState) -> None:
    pending = (*state.open_doubles, *state.turn_doubles)
    if len(set(pending)) != len(pending):
        raise _fail("each open double once", "D2", f"doubles listed twice: {pending}", state)
    for train_id in pending:
        if not (MEXICAN <= train_id < state.players):
            raise _fail("open doubles on trains", "D2", f"no train {train_id}", state)
        train = state.trains[train_id]
        if not (train.tiles and train.tiles[-1].is_double):
            raise _fail(
                "open doubles end their trains",
                "D2",
                f"train {_train_name(train_id)} is listed with an open double but ends in "
                f"{_tiles_text(train.tiles[-1:])}",
                state,
            )
    seat = state.current_player
    if state.turn_doubles and (seat is None or state.turn_tiles == 0):
        raise _fail(
            "this turn's doubles", "D1", f"doubles {state.turn_doubles} with no tile played", state
        )
    if seat is not None and _special_first_turn(state, seat) and state.turn_doubles:
        raise _fail(
            "first-turn doubles bind nobody", "P4", f"doubles {state.turn_doubles} pending", state
        )


def _check_scores(state: GameState) -> None:
    finished = state.round_number if state.current_player is None else state.round_number - 1
    if len(state.round_scores) != finished:
        raise _fail(
            "one score line per finished round",
            "E3",
            f"{len(state.round_scores)} score lines after {finished} finished rounds",
            state,
        )
    totals = tuple(sum(column) for column in zip(*state.round_scores, strict=True))
    if state.round_scores and totals != state.scores:
        raise _fail(
            "scores add up",
            "E3",
            f"scores {state.scores} but the round scores add up to {totals}",
            state,
        )
    if not state.round_scores and any(state.scores):
        raise _fail("scores add up", "E3", f"scores {state.scores} before any round", state)
    winners = state.winners
    if not state.is_over:
        if winners:
            raise _fail("winners", "E5", f"winners {winners} before the game is over", state)
        return
    # E5: the lowest total wins, ties broken by E5's tie-breaks unless the rules
    # share them (Rules.tie_break).
    lowest = min(state.scores)
    level = tuple(seat for seat, score in enumerate(state.scores) if score == lowest)
    expected = _e5_winners(state) if state.rules.tie_break else level
    if winners != expected:
        raise _fail(
            "winners",
            "E5",
            f"winners {winners}; lowest total {lowest} for seats {level}, "
            f"expected {expected} (tie_break={state.rules.tie_break})",
            state,
        )


def _e5_winners(state: GameState) -> tuple[int, ...]:
    def rank(seat: int) -> tuple[int, int, float]:
        mine = [points[seat] for points in state.round_scores]
        zeros = mine.count(0)
        # E5: lowest total, then most rounds at 0, then the lowest non-zero round.
        return (state.scores[seat], -zeros, min((p for p in mine if p), default=float("inf")))

    keys = [rank(seat) for seat in range(state.players)]
    return tuple(seat for seat, key in enumerate(keys) if key == min(keys))


def _check_round(state: GameState) -> None:
    seat = state.current_player
    if state.is_over:
        if seat is not None or state.round_number != state.rounds:
            raise _fail(
                "the game ends after the last round",
                "E4",
                f"is_over in round {state.round_number} of {state.rounds}",
                state,
            )
        return
    if seat is None:
        if state.round_number >= state.rounds:
            raise _fail("the game ends after the last round", "E4", "not over", state)
        return
    if not state.hands[seat]:
        raise _fail("the player to move holds tiles", "E1", f"seat {seat} has none", state)
    if all(state.had_first_turn) and not all(state.hands):
        raise _fail(
            "a player who went out ends the round",
            "E1",
            "a hand is empty and everybody has had a first turn",
            state,
        )
    turn_start = not state.turn_tiles and not state.has_drawn
    if turn_start and not state.boneyard and state.idle_turns >= state.players:
        # (Within a turn the count may reach it: a draw can empty the boneyard.)
        raise _fail(
            "a blocked round ends",
            "E2",
            f"{state.idle_turns} turns in a row changed nothing and the boneyard is empty",
            state,
        )


def _special_first_turn(state: GameState, seat: int) -> bool:
    # P4 (V1): Rulebook A's first turn, until the seat has had it.
    return state.rules.first_turn is not None and not state.had_first_turn[seat]


def _top_engine(rules: Rules, max_pip: int) -> int:
    # S2: the highest engine is the set's own double, unless the rules name another.
    return max_pip if rules.highest_engine is None else rules.highest_engine


def _engine_pip(rules: Rules, max_pip: int, round_number: int) -> int:
    # S2: the engines go from the highest down to 0-0 (V9: or up from 0-0).
    return round_number - 1 if rules.ascending else _top_engine(rules, max_pip) - (round_number - 1)


# -- what legal_moves must offer -------------------------------------------------


def _train_key(train_id: int) -> int:
    return 1 << 30 if train_id == MEXICAN else train_id


def _move_key(move: Move) -> tuple[int, Tile | None, int]:
    # The documented order: plays (tiles ascending, trains by id, the Mexican
    # train last), then Draw, then Pass, then the last-tile call.
    if isinstance(move, Play):
        return (0, move.tile, _train_key(move.train))
    return (1 if move is DRAW else 2 if move is PASS else 3, None, 0)


def _is_closable(state: GameState, pip: int) -> bool:
    # D4: dead once every tile of the suit is on the table (the engine included).
    on_table = sum(t.shows(pip) for train in state.trains for t in train.tiles)
    return on_table + (state.engine.high == pip) < state.max_pip + 1


def _ask(state: GameState, pending: tuple[int, ...], ask: Callable[..., Cover]) -> Cover:
    doubles = tuple(
        OpenDouble(t, state.trains[t].open_end, _is_closable(state, state.trains[t].open_end))
        for t in pending
    )
    return ask(doubles)


def _playable_trains(state: GameState, seat: int, double: bool = False) -> list[int]:
    """Return the trains *seat* may play on now, from the rule text (P3, P4, D1-D4).

    With *double*, for a double: a `Cover` with ``doubles_exempt`` does not hold it.
    """
    if _special_first_turn(state, seat):
        return [seat]  # P4: only the player's own train
    rules = state.rules
    # P3: your own train, the marked ones, the Mexican train once open (V2).
    base = {seat} | {t for t in range(state.players) if state.trains[t].marked}
    if rules.mexican_train.is_open(state, seat):
        base.add(MEXICAN)
    asked: list[tuple[tuple[int, ...], Cover]] = []
    if state.open_doubles:  # D2, D3: what earlier turns' doubles ask
        asked.append(
            (state.open_doubles, _ask(state, state.open_doubles, rules.open_doubles.obligation))
        )
    if state.turn_doubles:  # D1, D3: where the tile after this turn's double may go
        asked.append(
            (state.turn_doubles, _ask(state, state.turn_doubles, rules.open_doubles.follow_up))
        )
    # Cover.doubles_exempt: "only" holds the player's other tiles, not a double.
    covers = [
        (pending, cover.trains, cover.only and not (double and cover.doubles_exempt))
        for pending, cover in asked
    ]
    candidates = set(base)
    for _, trains, only in covers:
        if only:  # D2: a binding double may be covered on any train
            candidates.update(trains)
    allowed = []
    for train_id in candidates:
        # Cover: a pending double may be covered only if named; "only" forbids the rest.
        if all(
            train_id in trains if train_id in pending else not only
            for pending, trains, only in covers
        ):
            allowed.append(train_id)
    return sorted(allowed, key=_train_key)


def _expected_moves(state: GameState) -> list[Move]:
    """Return what the rule text allows in *state*, in the documented order."""
    if state.is_over:
        return []
    seat = state.current_player
    if seat is None:
        return [NEXT_ROUND]  # E4
    rules = state.rules
    hand = state.hands[seat]
    trains = _playable_trains(state, seat)
    doubles_to = _playable_trains(state, seat, double=True)
    moves: list[Move] = [
        Play(tile, t)
        for tile in hand
        for t in (doubles_to if tile.is_double else trains)
        if tile.shows(state.trains[t].open_end)
    ]
    special = _special_first_turn(state, seat)
    if special and state.turn_tiles:
        moves.append(PASS)  # P4: the chain may stop after the first tile
    elif moves and rules.must_play:
        pass  # P7 (V6): drawing and passing are for a player who cannot play
    elif (
        (rules.first_turn.may_draw if special and rules.first_turn else True)
        and (not state.has_drawn or (rules.draw_until_playable and not moves))
        and state.boneyard
    ):
        moves.append(DRAW)  # P5, D1, D2: one draw per turn, or per double (or until playable)
    else:
        moves.append(PASS)  # P5a
    if rules.last_tile_penalty and len(hand) == 2 and not state.last_tile_called:
        moves.append(CALL_LAST_TILE)  # the last-tile call: holding two tiles, once a turn
    return moves


_SAME_ANSWER = "a rule answers the same question the same"


def _check_pluggable_rules(state: GameState) -> None:
    """Check the contracts of the rules' pluggable objects, before the moves are judged by them.

    A `MexicanTrainRule` answers True or False from the table and the seat alone and keeps
    the ``open_from_turn`` it claims (V2); an `OpenDoubleRule` answers with a `Cover` of the
    doubles it is asked about, from the doubles alone (D2); neither raises.  The engine relies on both: it reads ``open_from_turn`` instead of asking,
    and may keep an answer about the same doubles.
    """
    seat = state.current_player
    if seat is None:
        return
    rules = state.rules
    rule = rules.mexican_train
    asked = f"{rule!r}.is_open(state, {seat})"
    answer = _answer(state, "V2", asked, rule.is_open, state, seat)
    again = _answer(state, "V2", asked, rule.is_open, state.replace(), seat)
    if answer is not True and answer is not False:
        raise _fail(
            "a rule answers True or False",
            "V2",
            f"{asked} answered {answer!r}",
            state,
        )
    if again is not answer:
        raise _fail(
            _SAME_ANSWER,
            "V2",
            f"{asked} answered {answer} and then {again!r} in an "
            "equal position: a MexicanTrainRule's answer depends on the table and the seat "
            "alone, never on a count or a generator kept outside them",
            state,
        )
    claim = getattr(rule, "open_from_turn", None)
    if type(claim) is int and claim in (1, 2):
        kept = True if claim == 1 else state.has_had_first_turn(seat)
        if answer is not kept:
            said = "is_open always True" if claim == 1 else "is_open once the first turn is over"
            raise _fail(
                "open_from_turn says what is_open answers",
                "V2",
                f"{rule!r} says open_from_turn={claim} ({said}), but is_open(state, {seat}) "
                f"answered {answer}: the engine reads open_from_turn and does not ask is_open "
                "(set open_from_turn to None, or leave it out, to be asked every move)",
                state,
            )
    doubles_rule = rules.open_doubles
    for pending, method in (
        (state.open_doubles, doubles_rule.obligation),
        (state.turn_doubles, doubles_rule.follow_up),
    ):
        if not pending:
            continue
        asked = f"{doubles_rule!r}.{method.__name__}() about the open doubles on trains {pending}"
        first = _answer(state, "D2", asked, _ask, state, pending, method)
        second = _answer(state, "D2", asked, _ask, state, pending, method)
        strangers = sorted(set(first.trains) - set(pending)) if isinstance(first, Cover) else ()
        if not isinstance(first, Cover) or strangers:
            what = (
                f"names trains {strangers}, which have no open double"
                if isinstance(first, Cover)
                else f"a {type(first).__name__}"
            )
            raise _fail(
                "a rule answers with a Cover of the doubles it is asked about",
                "D2",
                f"{asked} answered {first!r}, {what}: an OpenDoubleRule answers with a Cover "
                f"that names only trains among the doubles, such as Cover({pending[:1]!r}, "
                "only=True)",
                state,
            )
        if first != second:
            raise _fail(
                _SAME_ANSWER,
                "D2",
                f"{asked} answered {first!r} and then {second!r}: an OpenDoubleRule's answer "
                "depends on the doubles alone (the engine may keep it and use it again)",
                state,
            )


def _answer(state: GameState, rule_id: str, asked: str, ask: Callable[..., Any], *args: Any) -> Any:
    # A pluggable rule's answer, ask(*args); a rule that raises is named, with the position.
    try:
        return ask(*args)
    except Exception as error:
        raise _fail(
            "a rule answers, never raises", rule_id, f"{asked} raised {error!r}", state
        ) from error


def _check_view_moves(state: GameState, seat: int, moves: tuple[Move, ...]) -> None:
    # S5: the seat's view offers the state's moves; bots and front ends ask with the view,
    # which shows no other hand and no boneyard.
    try:
        seen = legal_moves(view(state, seat))
    except Exception as error:  # a rule that reads what a view does not have
        told = f"raised {error!r}"
    else:
        if seen == moves:
            return
        told = f"offers {seen}"
    rules = state.rules
    raise _fail(
        "a seat's view offers the state's moves",
        "S5",
        f"legal_moves(state) offers {moves}, but legal_moves(view(state, {seat})) {told}: "
        "a pluggable rule reads only what every seat sees (the Table: players, train, "
        "has_had_first_turn), never a hand or the boneyard, and bots and front ends ask "
        f"with the seat's view (the rules' {rules.mexican_train!r} and {rules.open_doubles!r})",
        state,
    )


def _check_legal_moves(state: GameState) -> None:
    moves = legal_moves(state)
    if not moves and not state.is_over:
        raise _fail("legal_moves is empty only when the game is over", "API", "()", state)
    if len(set(moves)) != len(moves):
        raise _fail("legal_moves has no repeats", "API", f"{moves}", state)
    # Compute again on an equal copy: the answer must not depend on a cache.
    fresh = legal_moves(state.replace())
    if fresh != moves:
        raise _fail(
            "legal_moves is deterministic",
            "API",
            f"{moves} the first time, {fresh} on an equal state",
            state,
        )
    if list(moves) != sorted(moves, key=_move_key):
        raise _fail(
            "legal_moves order",
            "API",
            f"{moves} is not in the documented order (plays by tile, then by train with "
            "the Mexican train last; then Draw; then Pass; then CallLastTile)",
            state,
        )
    expected = _expected_moves(state)
    if set(moves) != set(expected):
        extra = [m for m in moves if m not in expected]
        missing = [m for m in expected if m not in moves]
        move = (extra or missing)[0]
        raise _fail(
            "legal_moves offers what the rules allow",
            _rule_of(state, move),
            f"offered but not allowed: {extra}; allowed but not offered: {missing}",
            state,
            move,
        )
    if state.current_player is not None:
        _check_view_moves(state, state.current_player, moves)


def _rule_of(state: GameState, move: Move) -> str:
    """Return the rule id most likely at stake when *move* is wrongly offered or missing."""
    seat = state.current_player
    if seat is None:
        return "E4"
    if move is DRAW:
        return "P7" if state.rules.must_play else "P5"
    if move is PASS:
        return "P5a"
    if not isinstance(move, Play):
        return "API"
    if not move.tile.shows(state.trains[move.train].open_end):
        return "P2"
    if _special_first_turn(state, seat):
        return "P4"
    if state.open_doubles or state.turn_doubles:
        return "D2"
    return "V2" if move.train == MEXICAN else "P3"


# -- one move -------------------------------------------------------------------


def check_transition(before: GameState, move: Move, after: GameState) -> None:
    """Check that *after* is what *move* must make of *before*.

    Args:
        before: a position.
        move: a move `legal_moves` offered in it.
        after: ``apply(before, move)``.

    Raises:
        ConformanceError: naming the first rule the transition breaks.

    >>> from mexican_train import HUB, apply, legal_moves, new_game
    >>> state = new_game(2, HUB, seed=3)
    >>> move = legal_moves(state)[-1]
    >>> check_transition(state, move, apply(state, move))
    """
    _need_state(before, "check_transition")
    _need_state(after, "check_transition")
    again = apply(before, move)
    if again != after:
        raise _fail("apply is deterministic", "API", "a second apply differs", before, move)
    if before.current_player is None:
        _check_next_round(before, move, after)
        return
    seat = before.current_player
    ends = _turn_ends(before, move, seat)
    hands, boneyard, trains, round_ends, why = _expected_table(before, move, seat, ends)
    _check_tile_flow(before, move, after, hands, boneyard, trains)
    _check_markers(before, move, after, seat)
    if round_ends:
        if after.current_player is not None:
            raise _fail("the round ends", why, "play goes on", before, move)
        _check_round_scores(before, move, after)
        _check_bookkeeping(before, move, after, _ended_turn(before, move, seat))
        return
    _check_turn(before, move, after, seat, ends)


def _turn_ends(before: GameState, move: Move, seat: int) -> bool:
    """Return whether *move* ends the turn by itself (P4, P5a, D1)."""
    if move is PASS:
        return True
    if not isinstance(move, Play):
        return False  # a draw, or the last-tile call
    hand = [t for t in before.hands[seat] if t is not move.tile]
    first_turn = before.rules.first_turn
    if first_turn is not None and not before.had_first_turn[seat]:
        # P4: the chain goes on while a tile of the hand fits the own train.
        end = move.tile.other_end(before.trains[move.train].open_end)
        return not (first_turn.chain and any(t.shows(end) for t in hand))
    # P5a, D1: an ordinary tile ends the turn; a double must be followed.
    return not move.tile.is_double


def _idle_turns_after(before: GameState, move: Move, seat: int, tiles_this_turn: int) -> int:
    """Return the turns in a row that left the table unchanged, once this turn ends (E2).

    A turn changes the table when it plays a tile or places a marker on an unmarked
    train (a pass that only stops a P4 first-turn chain places none).
    """
    newly_marked = (
        move is PASS
        and not before.trains[seat].marked
        and not (_special_first_turn(before, seat) and before.turn_tiles)
    )
    return 0 if tiles_this_turn or newly_marked else before.idle_turns + 1


_Table = tuple[list[tuple[Tile, ...]], tuple[Tile, ...], list["Train"], bool, str]


def _expected_table(before: GameState, move: Move, seat: int, ends: bool) -> _Table:
    """Return the hands, boneyard and trains *move* leaves, and whether the round ends."""
    hands = list(before.hands)
    boneyard = before.boneyard
    trains = list(before.trains)
    played = isinstance(move, Play)
    if isinstance(move, Play):
        # P2: the tile leaves the hand and joins the train at its open end.
        hands[seat] = tuple(t for t in hands[seat] if t is not move.tile)
        train = trains[move.train]
        trains[move.train] = Train(
            (*train.tiles, move.tile),
            move.tile.other_end(train.open_end),
            train.marked,
            train.owner_played or move.train == seat,  # V2: the owner's tile only
        )
    elif move is DRAW:
        # P5: the first tile of the boneyard goes to the player's hand.
        hands[seat] = tuple(sorted((*hands[seat], boneyard[0])))
        boneyard = boneyard[1:]
    tiles_this_turn = before.turn_tiles + played
    idle = _idle_turns_after(before, move, seat, tiles_this_turn)
    had = [*before.had_first_turn[:seat], True, *before.had_first_turn[seat + 1 :]]
    if played and not hands[seat] and not _special_first_turn(before, seat):
        return hands, boneyard, trains, True, "E1"  # E1, D5: going out ends the round at once
    if ends and all(had) and not all(hands):
        return hands, boneyard, trains, True, "P4"  # a first-turn winner: once all have played
    if ends and not boneyard and idle >= before.players:
        return hands, boneyard, trains, True, "E2"  # blocked: a cycle that changed nothing
    penalty = before.rules.last_tile_penalty
    missed_call = penalty and not before.last_tile_called
    if ends and missed_call and tiles_this_turn and len(hands[seat]) == 1:
        # The last-tile call was missed: the penalty comes from the boneyard's front.
        hands[seat] = tuple(sorted((*hands[seat], *boneyard[:penalty])))
        boneyard = boneyard[penalty:]
    return hands, boneyard, trains, False, "E2"


def _check_tile_flow(
    before: GameState,
    move: Move,
    after: GameState,
    hands: list[tuple[Tile, ...]],
    boneyard: tuple[Tile, ...],
    trains: list[Train],
) -> None:
    if tuple(hands) != after.hands:
        raise _fail(
            "tiles move from hand to train",
            "P2" if isinstance(move, Play) else "P5",
            f"hands should be {[_tiles_text(h) for h in hands]}",
            before,
            move,
        )
    if boneyard != after.boneyard:
        raise _fail("draws take the boneyard's first tile", "P5", "wrong boneyard", before, move)
    for train_id in (*range(before.players), MEXICAN):
        want, got = trains[train_id], after.trains[train_id]
        if (want.tiles, want.open_end) != (got.tiles, got.open_end):
            raise _fail(
                "tiles move from hand to train",
                "P2",
                f"train {_train_name(train_id)} should be {_tiles_text(want.tiles)} (open end "
                f"{want.open_end}), not {_tiles_text(got.tiles)} (open end {got.open_end})",
                before,
                move,
            )
        if want.owner_played != got.owner_played:
            raise _fail(
                "only the owner's tile makes a train the owner's",
                "V2",
                f"train {_train_name(train_id)}: owner_played should be {want.owner_played}",
                before,
                move,
            )


def _check_markers(before: GameState, move: Move, after: GameState, seat: int) -> None:
    marked = [train.marked for train in before.trains]
    if isinstance(move, Play) and (move.train == seat or before.rules.marker_lifts_anywhere):
        marked[seat] = False  # P6: the owner's tile lifts the marker (the variant: anywhere)
    elif move is PASS and not (_special_first_turn(before, seat) and before.turn_tiles):
        marked[seat] = True  # P5, D1, D2: a turn ended without a (final) tile
    got = [train.marked for train in after.trains]
    if got != marked:
        changed = [_train_name(t) for t in (*range(before.players), MEXICAN) if got[t] != marked[t]]
        raise _fail("markers", "P6", f"marker wrong on trains {changed}: {got}", before, move)


def _check_turn(before: GameState, move: Move, after: GameState, seat: int, ends: bool) -> None:
    special = _special_first_turn(before, seat)
    played = isinstance(move, Play)
    expected = (seat + 1) % before.players if ends else seat  # P1: clockwise
    if after.current_player != expected:
        if after.current_player is None:
            rule = "E2" if not after.boneyard else "E1"
            detail = "the round ended, but nobody went out or is blocked"
        else:
            rule = "P1" if ends else ("D1" if played else "P5a")
            detail = f"player {after.current_player} moves next; expected {expected}"
        raise _fail("who moves next", rule, detail, before, move)
    # D2: doubles still ending their train when the turn ends are open; a tile on
    # one closes it.
    covered = move.train if isinstance(move, Play) else None
    open_doubles = [t for t in before.open_doubles if t != covered]
    turn_doubles = [t for t in before.turn_doubles if t != covered]
    if isinstance(move, Play) and move.tile.is_double and not special:
        turn_doubles.append(move.train)
    if ends:
        if not special:
            open_doubles += turn_doubles
        turn_doubles = []
    if (list(after.open_doubles), list(after.turn_doubles)) != (open_doubles, turn_doubles):
        raise _fail(
            "a cover clears its double" if covered in before.open_doubles else "open doubles",
            "D2",
            f"open doubles {after.open_doubles}, this turn's {after.turn_doubles}; expected "
            f"{tuple(open_doubles)} and {tuple(turn_doubles)}",
            before,
            move,
        )
    if ends:
        wanted = _ended_turn(before, move, seat)
    else:
        # P5, D1: a draw is used up; a tile played (a double) gives a new one.
        drawn = True if move is DRAW else False if played else before.has_drawn
        called = before.last_tile_called or move is CALL_LAST_TILE
        tiles_this_turn = before.turn_tiles + played
        wanted = (tiles_this_turn, drawn, list(before.had_first_turn), before.idle_turns, called)
    _check_bookkeeping(before, move, after, wanted)
    if after.scores != before.scores or after.round_scores != before.round_scores:
        raise _fail("scores change only between rounds", "E3", "scores changed", before, move)


_Bookkeeping = tuple[int, bool, list[bool], int, bool]


def _ended_turn(before: GameState, move: Move, seat: int) -> _Bookkeeping:
    """Return the turn bookkeeping once *move* ends the turn of *seat*, or its round.

    The ending turn counts: the seat has had its first turn (P4), and the turn is idle or
    not (E2); nothing of it is left (turn_tiles, has_drawn, last_tile_called).
    """
    had = [*before.had_first_turn[:seat], True, *before.had_first_turn[seat + 1 :]]
    tiles_this_turn = before.turn_tiles + isinstance(move, Play)
    return (0, False, had, _idle_turns_after(before, move, seat, tiles_this_turn), False)


def _check_bookkeeping(
    before: GameState, move: Move, after: GameState, wanted: _Bookkeeping
) -> None:
    bookkeeping = (
        after.turn_tiles,
        after.has_drawn,
        list(after.had_first_turn),
        after.idle_turns,
        after.last_tile_called,
    )
    if bookkeeping != wanted:
        raise _fail(
            "turn bookkeeping",
            "E2" if bookkeeping[3] != wanted[3] else "P5a",
            "(turn_tiles, has_drawn, had_first_turn, idle_turns, last_tile_called) = "
            f"{bookkeeping}, expected {wanted}",
            before,
            move,
        )


def _check_round_scores(before: GameState, move: Move, after: GameState) -> None:
    # E3: the pips left in each hand, the double-blank counting V7's value.
    blank = before.rules.double_blank_score
    points = tuple(sum(blank if t.pips == 0 else t.pips for t in hand) for hand in after.hands)
    scores = tuple(a + b for a, b in zip(before.scores, points, strict=True))
    if after.round_scores != (*before.round_scores, points) or after.scores != scores:
        raise _fail(
            "round score",
            "E3",
            f"round scores {after.round_scores[-1:]}, totals {after.scores}; expected "
            f"{points} (double-blank {blank}, V7), totals {scores}",
            before,
            move,
        )
    last = before.round_number >= before.rounds
    if after.is_over != last or after.round_number != before.round_number:
        raise _fail(
            "the game ends after the last round",
            "E4",
            f"round {after.round_number} of {after.rounds}, is_over={after.is_over}",
            before,
            move,
        )


def _check_next_round(before: GameState, move: Move, after: GameState) -> None:
    if move is not NEXT_ROUND:
        raise _fail("between rounds only NextRound", "E4", "another move applied", before, move)
    if after.round_number != before.round_number + 1:
        raise _fail("rounds follow", "E4", f"round {after.round_number} next", before, move)
    same = (after.players, after.max_pip, after.hand_size, after.seed, after.rules) == (
        before.players,
        before.max_pip,
        before.hand_size,
        before.seed,
        before.rules,
    )
    if not same or (after.scores, after.round_scores) != (before.scores, before.round_scores):
        raise _fail("the game carries over", "E4", "set, seats or scores changed", before, move)
    check_round_start(after, previous_first=before.first_player)


def check_round_start(state: GameState, previous_first: int | None = None) -> None:
    """Check a round that has just been set up: fresh table, engine and first player (S2-S4, E4).

    Args:
        state: the state `new_game` returned, or the one after `NextRound`.
        previous_first: the previous round's first player (None for round 1).

    Raises:
        ConformanceError: naming the rule the set-up breaks.
        InvalidArgumentError: if *previous_first* is not None or a seat of the game.

    >>> from mexican_train import STANDARD, new_game
    >>> check_round_start(new_game(5, STANDARD, seed=8))
    """
    _need_state(state, "check_round_start")
    players = state.players
    if previous_first is not None and (
        type(previous_first) is not int or not 0 <= previous_first < players
    ):
        # A seat the game does not have would be checked modulo the players: 9 as 1.
        raise InvalidArgumentError(
            f"previous_first is None or a seat 0-{players - 1}, not {shown(previous_first)}"
        )
    pip = state.engine.high
    fresh = all(
        not train.tiles and not train.marked and not train.owner_played and train.open_end == pip
        for train in state.trains
    )
    if not fresh:
        raise _fail("a round starts with empty trains", "E4", "trains not fresh", state)
    start = (
        state.current_player,
        state.had_first_turn,
        state.turn_tiles,
        state.has_drawn,
        state.turn_doubles,
        state.open_doubles,
        state.idle_turns,
        state.last_tile_called,
        state.is_over,
    )
    wanted = (state.first_player, (False,) * players, 0, False, (), (), 0, False, False)
    if start != wanted:
        raise _fail("a round starts afresh", "E4", f"{start}, expected {wanted}", state)
    after_previous = 0 if previous_first is None else (previous_first + 1) % players
    sizes = [len(hand) for hand in state.hands]
    if state.rules.engine_placement is EnginePlacement.SET_ASIDE:
        # S4: the engine is set aside; the first player rotates.
        if state.first_player != after_previous:
            raise _fail(
                "first player",
                "S4",
                f"player {state.first_player} starts; expected {after_previous}",
                state,
            )
        if sizes != [state.hand_size] * players:
            raise _fail("the deal", "S1", f"hand sizes {sizes}", state)
        return
    # S3: the holder of the engine places it; if nobody held it, players drew in
    # turn from `after_previous` on, and the one who drew it places it.
    draws = sum(sizes) + 1 - players * state.hand_size
    first = (after_previous + draws - 1) % players if draws else state.first_player
    wanted_sizes = [state.hand_size] * players
    for k in range(draws):
        wanted_sizes[(after_previous + k) % players] += 1
    wanted_sizes[first] -= 1
    if draws < 0 or state.first_player != first or sizes != wanted_sizes:
        raise _fail(
            "the engine's holder starts",
            "S3",
            f"player {state.first_player} starts with hand sizes {sizes} after {draws} "
            f"draws; expected player {first} and {wanted_sizes}",
            state,
        )


# -- refusals -------------------------------------------------------------------


# The fields that make up a state's value (a cache of legal moves is not one).
_value: Callable[[GameState], tuple[object, ...]] = operator.attrgetter(*GameState.FIELDS)


def check_refusals(state: GameState, moves: Sequence[Move] | None = None) -> None:
    """Check that every move not offered is refused and leaves *state* as it was.

    By default it tries every `Play` of each tile of the hand to move (of
    seat 0 between rounds) on every train, a tile of another hand, of the
    boneyard and of no set on the player's own train, a train id past the
    last seat, `Draw()`, `Pass()`, `NextRound()` and `CallLastTile()`.

    Args:
        state: any position.
        moves: the moves to try instead (those offered are skipped).

    Raises:
        ConformanceError: if a move not offered is accepted, is refused with
            another error, or changes *state*.
        TypeError: if *moves* is not a list of moves (a str is not one).

    >>> from mexican_train import STANDARD, new_game
    >>> check_refusals(new_game(4, STANDARD, seed=5))
    """
    _need_state(state, "check_refusals")
    if moves is not None and (isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable)):
        # A str is iterable: each of its letters would be tried, and refused, as a move.
        raise TypeError(f"check_refusals() needs a list of moves, not {shown(moves)}")
    offered = set(legal_moves(state))
    value, digest = _value(state), hash(state)
    for move in _candidates(state) if moves is None else moves:
        if move in offered:
            continue
        try:
            apply(state, move)
        except IllegalMoveError as error:
            if error.move is not move or not error.reason:
                raise _fail(
                    "a refusal says what and why",
                    "API",
                    f"IllegalMoveError(move={error.move!r}, reason={error.reason!r})",
                    state,
                    move,
                ) from error
        except Exception as error:
            raise _fail(
                "an illegal move is refused with IllegalMoveError",
                _rule_of(state, move),
                f"raised {error!r}",
                state,
                move,
            ) from error
        else:
            raise _fail(
                "a move not offered is refused",
                _rule_of(state, move),
                "apply accepted it",
                state,
                move,
            )
        if _value(state) != value or hash(state) != digest:
            raise _fail("a refusal changes nothing", "API", "the state changed", state, move)


def _candidates(state: GameState) -> list[Move]:
    seat = state.current_player
    hand = state.hands[0 if seat is None else seat]
    train_ids = (*range(state.players), MEXICAN)
    moves: list[Move] = [Play(tile, t) for tile in hand for t in train_ids]
    own = 0 if seat is None else seat
    others = [hand for s, hand in enumerate(state.hands) if s != own and hand]
    strangers = [others[0][0]] if others else []
    strangers += state.boneyard[:1]
    strangers.append(Tile(state.max_pip + 1, state.trains[own].open_end))  # not in the set
    moves += [Play(tile, own) for tile in strangers]
    if hand:
        moves.append(Play(hand[0], state.players))  # no such train
    moves += [DRAW, PASS, NEXT_ROUND, CALL_LAST_TILE]
    return moves


# -- whole games ----------------------------------------------------------------


def round_move_bound(state: GameState) -> int:
    """Return the most moves a round of *state*'s game can take, `NextRound` included.

    With P players, a set of S tiles, T = S - 1 tiles besides the engine and
    B = S - P x H tiles at most in the boneyard after the deal (H tiles each):

    - plays: each moves a tile out of a hand for good, so at most T;
    - draws: each takes a tile of the boneyard, so at most B (a missed last-tile
      call's penalty takes from it too);
    - passes: at most one per turn, and a turn either plays a tile (at most T
      such turns) or ends idle.  An idle turn is a special first turn (P4: at
      most P), or drew (P5a: `Pass` needs a draw first while the boneyard has
      tiles: at most B), or began with the boneyard empty.  Those last ones
      count towards E2.  Between two turns with a tile, a marker is newly placed
      at most once per seat (only its owner's tile lifts it, P6): at most P such
      turns, which split the turns that change nothing into at most P + 1 runs of
      at most P - 1 each (the P-th ends the round).  So at most
      (T + 1)(P + (P + 1)(P - 1)) + 1 = (T + 1)(P² + P - 1) + 1, and
      turns <= T + P + B + 1 + (T + 1)(P² + P - 1);
    - one `NextRound`.

    In all: T + B + turns + 1.  When the rules ask for the last-tile call
    (`CallLastTile`, at most once a turn), add the turns once more.

    Args:
        state: any state of the game (only its players, set and hand size count).

    Returns:
        The bound, the same for every round of the game.

    >>> import attrs
    >>> from mexican_train import STANDARD, new_game
    >>> round_move_bound(new_game(4, attrs.evolve(STANDARD, max_pip=6), seed=1))
    592
    """
    _need_state(state, "round_move_bound")
    size = set_size(state.max_pip)
    tiles, players = size - 1, state.players
    boneyard = max(size - players * state.hand_size, 0)
    # E2 (revised 2026-12-01): a newly placed marker starts the count again.
    turns = tiles + players + boneyard + 1 + (tiles + 1) * (players * players + players - 1)
    calls = turns if state.rules.last_tile_penalty else 0
    return tiles + boneyard + turns + calls + 1


@attrs.frozen
class RandomGame:
    """A game `play_random_game` played and checked.

    Attributes:
        rules: the rules it was played by.
        players: the number of players.
        seed: the seed of the deals and of the choice of moves.
        moves: every move, in order.
        final: the last state (over, unless *max_rounds* stopped it).
        round_lengths: the number of moves of each round, `NextRound` included.
        bound: `round_move_bound` for this game.

    >>> import attrs
    >>> from mexican_train import STANDARD
    >>> game = play_random_game(attrs.evolve(STANDARD, max_pip=6), players=3, seed=1)
    >>> game
    RandomGame(players=3, seed=1, round_lengths=(23, 38, 28, 37, 32, 27, 25), bound=381)
    >>> game.final.is_over, len(game.moves) == sum(game.round_lengths)
    (True, True)
    """

    rules: Rules = attrs.field(repr=False)
    players: int
    seed: int
    moves: tuple[Move, ...] = attrs.field(repr=False)
    final: GameState = attrs.field(repr=False)
    round_lengths: tuple[int, ...]
    bound: int


def play_random_game(
    rules: Rules,
    players: int,
    seed: int,
    *,
    max_rounds: int | None = None,
    refusals: float = 1.0,
) -> RandomGame:
    """Play a game of random legal moves and check every step of it.

    The deals come from *seed* (S6) and each move is picked among
    `legal_moves` by a ``random.Random(seed)``, so the same arguments play the
    same game.  At each step: `check_invariants`, `check_refusals` (at a
    share *refusals* of the positions), the move leaves its state untouched, and
    `check_transition`.  Every round must end within `round_move_bound` moves.
    At the end the moves are replayed from a new game with the same seed and
    must reach an equal final state.

    Args:
        rules: the rules to play by.
        players: the number of players.
        seed: the seed of the deals and of the moves.
        max_rounds: stop after this many rounds (None: play the whole game).
        refusals: the share of positions, picked at random, at which every move
            not offered is tried: 1.0 at all of them, 0.0 at none.  The costliest
            check (as many applies as tiles in hand times trains): lower it to
            play more games in the same time.

    Returns:
        The game that was played.

    Raises:
        ConformanceError: on the first check that fails, with how to replay it.
        DealError: if *rules* cannot deal for *players*.
        InvalidArgumentError: if *max_rounds* is below 1.

    >>> import attrs
    >>> from mexican_train import HUB
    >>> game = play_random_game(attrs.evolve(HUB, max_pip=9, rounds=2), players=4, seed=9)
    >>> game.final.is_over, len(game.round_lengths), max(game.round_lengths) <= game.bound
    (True, 2, True)
    """
    _check_max_rounds(max_rounds)
    call = f"play_random_game(rules, players={players}, seed={seed})"
    state = new_game(players, rules, seed)
    bound = round_move_bound(state)
    rng = random.Random(seed)
    sample = random.Random(f"refusals:{seed}")  # apart, so the game is the same at any rate
    moves: list[Move] = []
    lengths: list[int] = []
    length = 0
    step = "the new game"
    try:
        check_round_start(state)
        while True:
            if moves:
                step = f"the position after move {len(moves) - 1} ({moves[-1]!r})"
            check_invariants(state)
            if refusals >= 1.0 or (refusals > 0.0 and sample.random() < refusals):
                check_refusals(state)
            if state.is_over:
                break
            if state.is_round_over and max_rounds is not None and state.round_number >= max_rounds:
                break
            move = rng.choice(legal_moves(state))
            value, digest = _value(state), hash(state)
            after = apply(state, move)
            if _value(state) != value or hash(state) != digest:
                raise _fail("apply leaves its state untouched", "API", "it changed", state, move)
            step = f"move {len(moves)}, {move!r} (move {length} of round {state.round_number})"
            check_transition(state, move, after)
            moves.append(move)
            length += 1
            if length > bound:
                raise _fail(
                    "every round ends",
                    "E2",
                    f"round {state.round_number} is still going after {length} moves; no "
                    f"round can take more than {bound} (round_move_bound)",
                    state,
                    move,
                )
            if move is NEXT_ROUND or after.is_over:
                lengths.append(length)
                length = 0
            state = after
        if not state.is_over and length:
            lengths.append(length)
        _check_replay(rules, players, seed, moves, state)
    except ConformanceError as error:
        raise ConformanceError(
            error.invariant,
            error.rule,
            error.detail,
            error.state,
            error.move,
            context=f"at {step} of {call}; rules={rules!r}",
        ) from error
    return RandomGame(rules, players, seed, tuple(moves), state, tuple(lengths), bound)


def _check_replay(
    rules: Rules, players: int, seed: int, moves: list[Move], final: GameState
) -> None:
    # S6: the same seed and the same moves give the same game.
    state = new_game(players, rules, seed)
    for move in moves:
        state = apply(state, move)
    if state != final or hash(state) != hash(final):
        raise _fail("same seed, same game", "S6", "a replay ended elsewhere", final)


def _player_counts(rules: Rules, players: Iterable[int] | None) -> tuple[int, ...]:
    if players is not None:
        if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
            raise TypeError(f"players is a list of player counts, not {shown(players)}")
        counts = tuple(players)
        for count in counts:
            new_game(count, rules, seed=0)  # raises DealError or RulesError, naming the problem
        if not counts:
            raise InvalidArgumentError("players is empty: give at least one player count")
        return counts
    fits = []
    for count in rules.deal_table.player_counts:
        try:
            new_game(count, rules, seed=0)
        except (DealError, RulesError):
            continue
        fits.append(count)
    if not fits:
        raise DealError(f"{rules!r} cannot deal for any player count of its deal table")
    return tuple(fits)


def _check_max_rounds(max_rounds: int | None) -> None:
    # Round 1 always ends before the kit stops: a count below 1 would play one round.
    if max_rounds is None:
        return
    if type(max_rounds) is not int:
        raise TypeError(f"max_rounds is a number of rounds or None, not {shown(max_rounds)}")
    if max_rounds < 1:
        raise InvalidArgumentError(f"max_rounds is at least 1 (or None), not {max_rounds}")


def _require_hypothesis() -> None:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ImportError(
            "rules_conformance needs Hypothesis: pip install hypothesis "
            "(the rest of mexican_train.testing works without it)"
        ) from None


def rules_conformance(
    rules: Rules,
    players: Iterable[int] | None = None,
    *,
    settings: hypothesis.settings | None = None,
    max_rounds: int | None = None,
    refusals: float = 1.0,
) -> Callable[[], None]:
    """Return a pytest test that checks random games under *rules* with Hypothesis.

    Assign it to a ``test_`` name in a test module and pytest runs it.  Each
    example is a `play_random_game`, for a player count and seed Hypothesis
    picks; the number of games is the settings' ``max_examples``.

    Args:
        rules: the rules to check.
        players: the player counts to try; None: every count the deal table
            covers that the rules can deal for.
        settings: Hypothesis settings for the test; None: the profile active
            when this is called.  The deadline is always off: one example is
            a whole game.
        max_rounds: play only this many rounds of each game (None: all).
        refusals: the share of positions at which every move not offered is
            tried (see `play_random_game`).

    Returns:
        A test function taking no arguments.

    Raises:
        DealError, RulesError: at once, if *rules* cannot deal for a count in *players*.
        InvalidArgumentError: at once, if *players* is empty or *max_rounds* below 1.
        TypeError: if *players* is not a list of counts (a bare count included).
        ImportError: if Hypothesis is not installed.

    >>> from hypothesis import settings
    >>> from mexican_train import HUB
    >>> few = settings(max_examples=5)
    >>> test_short_hub = rules_conformance(HUB, players=[2, 3], settings=few, max_rounds=1)
    >>> test_short_hub()
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {rules!r}")
    _check_max_rounds(max_rounds)
    _require_hypothesis()
    import hypothesis
    from hypothesis import strategies as st

    counts = _player_counts(rules, players)

    @hypothesis.settings(settings, deadline=None)
    @hypothesis.given(
        players=st.sampled_from(counts), seed=st.integers(min_value=0, max_value=2**64 - 1)
    )
    def test_rules_conformance(players: int, seed: int) -> None:
        play_random_game(rules, players, seed, max_rounds=max_rounds, refusals=refusals)

    test_rules_conformance.__doc__ = (
        f"Random games under {rules!r} conform (mexican_train.testing)."
    )
    return test_rules_conformance
