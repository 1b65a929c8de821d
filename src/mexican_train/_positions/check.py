"""Consistency checks for positions read from outside (notation, JSON).

`GameState.replace` trusts its caller; the readers of text and JSON must not.
`check_state` looks at the fields read (a `StateFields`) before a state is built
from them, `check_view` at a freshly built view before it escapes; both
raise `Problem` naming the path of the first field that is wrong (``("trains", 2,
"tiles", 3)``).  Each reader turns that path into its own error (a column in the
notation, ``$.trains[2].tiles[3]`` in JSON).

The checks are ordered so that nothing expensive happens before the sizes have been
tied to the size of the input: an untrusted ``max_pip`` of a billion must not make us
build a billion tiles.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from .._core.bounds import first_out_of_bounds
from .._core.engine import legal_moves, new_game, round_score
from .._core.errors import MexicanTrainError, RulesError, shown
from .._core.moves import MEXICAN, Play
from .._core.rules import EnginePlacement, Rules
from .._core.state import GameState, Train
from .._core.tiles import Tile, full_set, set_size, tile_index
from .._core.view import PlayerView
from .fields import StateFields

__all__ = ["Path", "Problem", "check_state", "check_view", "engine_of"]

Path = tuple[str | int, ...]

# Listing the missing tiles needs the whole set: only for sets of a sane size.
_LISTABLE = 5000


class Problem(Exception):
    """An inconsistency found in a position; *path* names the offending field."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def engine_of(rules: Rules, max_pip: int, round_number: int) -> Tile:
    """Return the engine of round *round_number* (S2; V9 ascending)."""
    pip = rules.engine_pip(max_pip, round_number)
    return Tile(pip, pip)


def check_state(state: StateFields, *, mover_hand_known: bool = True) -> None:
    """Raise `Problem` unless *state* holds the fields of a consistent position.

    A hand may list its tiles in any order (a hand is a set): a fault is told at its
    index there, as the reader's input has it.  *mover_hand_known* False
    (a world `determinize` deals, the hand of the player to move sampled without
    regard to their draw) skips the one check that reads that hand's plays (P7).
    """
    s = state
    _check_counts(s.players, s.trains, s.had_first_turn, s.scores, s.round_scores)
    if len(s.hands) != s.players:
        raise Problem(("hands",), f"{len(s.hands)} hands for {s.players} players")
    _check_setup(s.rules, s.players, s.max_pip, s.hand_size)
    _check_round(s)
    if not _tiles_fit(s.max_pip, s.engine, (*s.hands, s.boneyard), s.trains, hidden=0):
        # Something is wrong with the tiles: find what, and where.
        located: list[tuple[Path, Tile]] = [
            (("hands", seat, i), tile)
            for seat, hand in enumerate(s.hands)
            for i, tile in enumerate(hand)
        ]
        located += [(("boneyard", i), tile) for i, tile in enumerate(s.boneyard)]
        _check_tiles(s.max_pip, s.engine, s.trains, located, hidden=0, hidden_path=("boneyard",))
    _check_fit(s.rules, s.players)
    _check_table(s, [len(hand) for hand in s.hands])
    if s.current_player is None and s.round_scores:
        # E3: the round just scored is the pips left in every hand.
        expected = tuple(round_score(hand, s.rules) for hand in s.hands)
        if s.round_scores[-1] != expected:
            raise Problem(
                ("round_scores", len(s.round_scores) - 1),
                f"the hands left score {list(expected)} (E3), not {list(s.round_scores[-1])}",
            )
    # Last: the checks above say more about a number the position contradicts.
    _check_bounds(s)
    if mover_hand_known and s.current_player is not None:
        _check_chain(s, s.hands[s.current_player])
    if mover_hand_known and _drew_under_must_play(s):
        _check_drawn(s.build())


def check_view(view: PlayerView) -> None:
    """Raise `Problem` unless *view* is what some consistent position shows its seat.

    A hand may list its tiles in any order, as in `check_state`.
    """
    v = view
    _check_counts(v.players, v.trains, v.had_first_turn, v.scores, v.round_scores)
    if len(v.hand_sizes) != v.players:
        raise Problem(("hand_sizes",), f"{len(v.hand_sizes)} hand sizes for {v.players} players")
    for seat, size in enumerate(v.hand_sizes):
        if size < 0:
            raise Problem(("hand_sizes", seat), f"a hand size is at least 0, not {shown(size)}")
    if v.boneyard_size < 0:
        raise Problem(
            ("boneyard_size",), f"a boneyard size is at least 0, not {shown(v.boneyard_size)}"
        )
    if v.seat is None:
        if v.hand:
            raise Problem(("hand",), "a spectator (seat null) holds no hand")
    elif not 0 <= v.seat < v.players:
        raise Problem(("seat",), f"a seat is 0-{v.players - 1} or null, not {shown(v.seat)}")
    elif len(v.hand) != v.hand_sizes[v.seat]:
        raise Problem(
            ("hand",),
            f"seat {v.seat} holds {len(v.hand)} tiles, but hand_sizes says {v.hand_sizes[v.seat]}",
        )
    located: list[tuple[Path, Tile]]
    if v.rules.open_hands:
        # V10: with open hands a view shows every hand, and they must agree with the rest.
        if v.open_hands is None:
            raise Problem(("open_hands",), "the rules play with open hands (V10): list them")
        if len(v.open_hands) != v.players:
            raise Problem(("open_hands",), f"{len(v.open_hands)} hands for {v.players} players")
        for seat, hand in enumerate(v.open_hands):
            if len(hand) != v.hand_sizes[seat]:
                raise Problem(
                    ("open_hands", seat),
                    f"{len(hand)} tiles, but hand_sizes says {v.hand_sizes[seat]}",
                )
        if v.seat is not None and sorted(v.open_hands[v.seat]) != sorted(v.hand):
            raise Problem(("hand",), f"the hand differs from open_hands[{v.seat}]")
        located = [
            (("open_hands", seat, i), tile)
            for seat, hand in enumerate(v.open_hands)
            for i, tile in enumerate(hand)
        ]
        hidden = v.boneyard_size
    else:
        if v.open_hands is not None:
            raise Problem(("open_hands",), "hands are private under these rules (S5): null")
        located = [(("hand", i), tile) for i, tile in enumerate(v.hand)]
        hidden = v.boneyard_size + sum(v.hand_sizes) - len(v.hand)
    _check_setup(v.rules, v.players, v.max_pip, v.hand_size)
    _check_round(v)
    _check_tiles(v.max_pip, v.engine, v.trains, located, hidden, ("boneyard_size",))
    _check_fit(v.rules, v.players)
    _check_table(v, list(v.hand_sizes))
    if v.current_player is None and v.round_scores:
        # E3, as far as the view shows the hands left: its own, or every one (V10).
        shown_hands = dict(enumerate(v.open_hands or ()))
        shown_hands.update((seat, ()) for seat, size in enumerate(v.hand_sizes) if not size)
        if v.seat is not None:
            shown_hands[v.seat] = v.hand
        for seat, hand in sorted(shown_hands.items()):
            expected = round_score(hand, v.rules)
            if v.round_scores[-1][seat] != expected:
                raise Problem(
                    ("round_scores", len(v.round_scores) - 1, seat),
                    f"the hand left scores {expected} (E3), not {shown(v.round_scores[-1][seat])}",
                )
    _check_bounds(v)
    if v.seat is not None and v.seat == v.current_player:
        _check_chain(v, v.hand)  # the hand of the seat to move is in the view
        if _drew_under_must_play(v):
            _check_drawn(v)  # so are its plays


def _check_chain(t: StateFields | PlayerView, hand: Sequence[Tile]) -> None:
    """Check a first-turn chain under way has a tile to go on with (P4).

    The first turn ends by itself once no tile of the hand fits the end of the
    player's own train, so a position in the middle of one holds such a tile.
    """
    seat = t.current_player
    if seat is None or t.rules.first_turn is None or t.had_first_turn[seat] or not t.turn_tiles:
        return
    end = t.trains[seat].open_end
    if not any(tile.shows(end) for tile in hand):
        raise Problem(
            ("turn_tiles",),
            f"seat {seat}'s first-turn train ends in {end} and no tile of the hand shows "
            f"{end}: the first turn would have ended by itself (P4)",
        )


def _drew_under_must_play(t: StateFields | PlayerView) -> bool:
    """Return whether *t* has the player to move after a draw that P7 allowed only without a play.

    Not under V6 (a voluntary draw).  The pluggable rules read the `Table` (the trains,
    and who has had a first turn), which a draw does not change, so under any rules
    the plays a draw leaves are those it found, and the drawn tile's.
    """
    return t.has_drawn and t.current_player is not None and t.rules.must_play


def _check_drawn(position: GameState | PlayerView) -> None:
    """Check the player to move, having drawn, holds at most one tile with a legal play (P7).

    Under must-play a player draws only when no tile of the hand has a legal play
    (P5, D1, D2), and a draw adds one tile to the hand and changes nothing on the
    table, so after it only the tile drawn can have one (a tile played after a draw
    clears `has_drawn`, as the turn goes on).
    """
    playable = sorted({move.tile for move in legal_moves(position) if type(move) is Play})
    if len(playable) > 1:
        listed = ", ".join(map(str, playable[:5])) + (", ..." if len(playable) > 5 else "")
        raise Problem(
            ("has_drawn",),
            f"seat {position.current_player} cannot have drawn: {len(playable)} tiles of the "
            f"hand have a legal play ({listed}), but a player draws only when no tile has "
            "one (P7), and a draw adds one tile",
        )


def _check_bounds(value: StateFields | PlayerView) -> None:
    """Check every number is one every format can write back (the table of bounds.py)."""
    found = first_out_of_bounds(value)
    if found is not None:
        path, bound, number = found
        raise Problem(path, bound.refusal(number))


def _check_counts(
    players: int,
    trains: tuple[Train, ...],
    had_first_turn: tuple[bool, ...],
    scores: tuple[int, ...],
    round_scores: tuple[tuple[int, ...], ...],
) -> None:
    # Lengths first: everything after may then index freely, and sizes are tied to the input.
    if players < 1:
        raise Problem(("players",), f"a game has at least 1 player, not {shown(players)}")
    if len(trains) != players + 1:
        raise Problem(
            ("trains",),
            f"{len(trains)} trains; {players} players have {players + 1} "
            "(one each, then the Mexican train, P2)",
        )
    if len(had_first_turn) != players:
        raise Problem(("had_first_turn",), f"{len(had_first_turn)} flags for {players} players")
    if len(scores) != players:
        raise Problem(("scores",), f"{len(scores)} scores for {players} players")
    for number, row in enumerate(round_scores):
        if len(row) != players:
            raise Problem(("round_scores", number), f"{len(row)} scores for {players} players")


def _tiles_fit(
    max_pip: int,
    engine: Tile,
    groups: tuple[tuple[Tile, ...], ...],
    trains: tuple[Train, ...],
    hidden: int,
) -> bool:
    """Return whether `_check_tiles` would find every tile in order: a quick look first.

    Every tile of *groups*, of the trains and the engine in the set, none twice, and
    the count adding up, read with a mask of tile indices (Tile.__hash__, which a dict
    of tiles calls, is a Python method).  A check of every state `build_state` makes,
    as `determinize` does for every world a search samples.  When it
    answers False, `_check_tiles` says what is wrong, and where.
    """
    if engine.high > max_pip:
        return False
    mask = 1 << tile_index(engine)
    count = 1
    for group in (*groups, *[train.tiles for train in trains]):
        for tile in group:
            if tile.high > max_pip:
                return False
            bit = 1 << tile_index(tile)
            if mask & bit:
                return False  # twice
            mask |= bit
        count += len(group)
    return count + hidden == set_size(max_pip)


def _check_tiles(
    max_pip: int,
    engine: Tile,
    trains: tuple[Train, ...],
    located: list[tuple[Path, Tile]],
    hidden: int,
    hidden_path: Path,
) -> None:
    """Check every tile is in the set and shown once, and that the count adds up."""
    if engine.high > max_pip:
        raise Problem(("engine",), f"{engine} is not in a double-{max_pip} set")
    located = [
        *located,
        *(
            (("trains", index, "tiles", i), tile)
            for index, train in enumerate(trains)
            for i, tile in enumerate(train.tiles)
        ),
    ]
    seen: dict[Tile, Path] = {engine: ("engine",)}
    for path, tile in located:
        if tile.high > max_pip:
            raise Problem(path, f"{tile} is not in a double-{max_pip} set")
        if tile in seen:
            raise Problem(path, f"{tile} appears twice (also at {_dotted(seen[tile])})")
        seen[tile] = path
    total = set_size(max_pip)
    if len(seen) + hidden != total:
        what = f"{len(seen)} tiles shown" + (f" and {hidden} unseen" if hidden else "")
        message = f"{what}, but a double-{max_pip} set has {total}"
        if len(seen) + hidden < total and total <= _LISTABLE:
            missing = sorted(set(full_set(max_pip)) - set(seen))
            if not hidden:
                message += f": missing {', '.join(map(str, missing[:10]))}"
                message += ", ..." if len(missing) > 10 else ""
        raise Problem(hidden_path, message)


def _check_setup(rules: Rules, players: int, max_pip: int, hand_size: int) -> None:
    """Check the set and hand size are those the rules give for *players* (S1, V8).

    Cheap: run before anything is built from *max_pip*.
    """
    # Compare with the rules' explicit choices before asking the deal table anything:
    # *max_pip* is tied to the input's size by now, an untrusted Rules.max_pip is not.
    if rules.max_pip is not None and rules.max_pip != max_pip:
        raise Problem(
            ("max_pip",), f"the rules choose a double-{rules.max_pip} set, not {shown(max_pip)}"
        )
    if rules.hand_size is not None and rules.hand_size != hand_size:
        raise Problem(
            ("hand_size",), f"the rules deal {rules.hand_size} tiles, not {shown(hand_size)}"
        )
    try:
        table_pip, table_size = rules.deal_table.lookup(players, rules.max_pip, rules.hand_size)
    except (MexicanTrainError, LookupError, ValueError) as error:
        raise Problem(("players",), str(error)) from None
    if table_pip != max_pip:
        raise Problem(
            ("max_pip",),
            f"the deal table gives {players} players a double-{table_pip} set, not {shown(max_pip)}",
        )
    if table_size != hand_size:
        raise Problem(
            ("hand_size",),
            f"the deal table gives {players} players {table_size} tiles, not {shown(hand_size)}",
        )


def _check_round(t: StateFields | PlayerView) -> None:
    """Check the round and its engine (S2, V9): cheap, and clearer before the tiles."""
    if t.max_pip < 0:
        raise Problem(("max_pip",), f"a set is double-N for N >= 0, not {shown(t.max_pip)}")
    rounds = t.rounds
    if not 1 <= t.round_number <= rounds:
        raise Problem(("round_number",), f"a round is 1-{rounds}, not {shown(t.round_number)}")
    try:
        t.rules.check_set(t.max_pip)
    except RulesError as error:
        raise Problem(("max_pip",), str(error)) from None
    if t.round_number > t.max_pip + 1:
        raise Problem(("round_number",), f"a double-{t.max_pip} set has {t.max_pip + 1} engines")
    engine = engine_of(t.rules, t.max_pip, t.round_number)
    if t.engine is not engine:
        raise Problem(
            ("engine",), f"round {t.round_number}'s engine is {engine} (S2), not {t.engine}"
        )


def _check_fit(rules: Rules, players: int) -> None:
    """Check a game can be dealt with these rules (S1, V9); only once the set is known sane."""
    try:
        known = (rules, players) in _FITTING
    except TypeError:  # a user's pluggable rule that is not hashable: no memo
        known = False
    if known:
        return
    try:
        new_game(players, rules, seed=0)
    except MexicanTrainError as error:
        raise Problem(("rules",), str(error)) from None
    if len(_FITTING) < 256:
        with contextlib.suppress(TypeError):
            _FITTING.add((rules, players))


# Rules and player counts already dealt by _check_fit: build_state checks many states
# of one game (determinization), and a trial deal costs as much as the other checks.
_FITTING: set[tuple[Rules, int]] = set()


def _check_table(table: StateFields | PlayerView, hand_sizes: Sequence[int]) -> None:
    """Check what every player sees: trains, turn and scores."""
    t = table
    rounds = t.rounds
    engine = t.engine
    if not 0 <= t.first_player < t.players:
        raise Problem(
            ("first_player",), f"a seat is 0-{t.players - 1}, not {shown(t.first_player)}"
        )
    if t.rules.engine_placement is EnginePlacement.SET_ASIDE:
        first = (t.round_number - 1) % t.players  # S4: seat 0, then the next seat each round
        if t.first_player != first:
            raise Problem(
                ("first_player",), f"round {t.round_number} starts with seat {first} (S4)"
            )
    for index, train in enumerate(t.trains):
        _check_train(
            index, train, engine.high, is_mexican=index == t.players,
            lifts_anywhere=t.rules.marker_lifts_anywhere,
        )  # fmt: skip

    seat = t.current_player
    if seat is None:
        if len(t.round_scores) != t.round_number:
            raise Problem(
                ("round_scores",),
                f"{len(t.round_scores)} rounds scored, but round {t.round_number} is over",
            )
        if t.is_over != (t.round_number == rounds):
            raise Problem(("is_over",), f"is_over is {t.round_number == rounds} after round "
                          f"{t.round_number} of {rounds} (E4)")  # fmt: skip
        for name in ("turn_tiles", "has_drawn", "turn_doubles", "open_doubles", "last_tile_called"):
            if getattr(t, name):
                raise Problem((name,), "no turn is under way once the round is over")
        if all(hand_sizes) and t.boneyard_size:
            # E1, E2: a round ends when a player goes out, or blocked with an empty boneyard.
            raise Problem(
                ("current_player",),
                f"the round is over, but nobody has gone out (E1) and the boneyard holds "
                f"{t.boneyard_size} tiles, so it was not blocked (E2)",
            )
    else:
        if not 0 <= seat < t.players:
            raise Problem(
                ("current_player",), f"a seat is 0-{t.players - 1} or null, not {shown(seat)}"
            )
        if len(t.round_scores) != t.round_number - 1:
            raise Problem(
                ("round_scores",),
                f"{len(t.round_scores)} rounds scored while round {t.round_number} is played",
            )
        if t.is_over:
            raise Problem(("is_over",), "the game is not over while a player is to move")
        if not all(t.had_first_turn):
            # P1: turns go round from the first player, so the seats that have had a turn
            # are those from the first player up to the one to move.
            done = {
                (t.first_player + i) % t.players for i in range((seat - t.first_player) % t.players)
            }
            for other, flag in enumerate(t.had_first_turn):
                if flag != (other in done):
                    raise Problem(
                        ("had_first_turn", other),
                        f"seat {other} {'has not' if flag else 'has'} had a turn this round: "
                        f"seat {t.first_player} played first and seat {seat} is to move (P1)",
                    )
            _check_unstarted_trains(t, seat)
        first_turn = t.rules.first_turn
        if t.has_drawn and first_turn is not None and not t.had_first_turn[seat]:
            # P4: nobody draws on their first turn of a round; where the rules let a player
            # who cannot start their train draw, that draw comes before any tile, and a
            # tile played after it goes on with the turn, which clears has_drawn.
            if not first_turn.may_draw:
                raise Problem(
                    ("has_drawn",),
                    f"seat {seat} is on their first turn of the round, on which nobody "
                    "draws under these rules (P4)",
                )
            if t.turn_tiles:
                raise Problem(
                    ("has_drawn",),
                    f"seat {seat} has already played on their first turn of the round: a "
                    "first turn draws only before its first tile (P4)",
                )
        for other, size in enumerate(hand_sizes):
            # E1: going out ends the round, except during the first turns of P4.
            if size == 0 and (
                t.rules.first_turn is None or not t.had_first_turn[other] or all(t.had_first_turn)
            ):
                raise Problem(
                    ("hands", other) if isinstance(t, StateFields) else ("hand_sizes", other),
                    f"seat {other} has gone out, which ends the round (E1)",
                )
    if t.last_tile_called and not t.rules.last_tile_penalty:
        raise Problem(("last_tile_called",), "these rules have no last-tile call")
    if t.turn_tiles < 0:
        raise Problem(("turn_tiles",), f"a count of tiles is at least 0, not {shown(t.turn_tiles)}")
    on_table = sum(len(train.tiles) for train in t.trains)
    if t.turn_tiles > on_table:
        raise Problem(
            ("turn_tiles",), f"{t.turn_tiles} tiles played this turn, {on_table} on the table"
        )
    # E2: an unchanged turn draws a tile while the boneyard lasts; past that, a cycle ends it.
    idle_limit = set_size(t.max_pip) + 2 * t.players
    if not 0 <= t.idle_turns <= idle_limit:
        raise Problem(
            ("idle_turns",), f"a count of turns is 0-{idle_limit}, not {shown(t.idle_turns)}"
        )
    if t.idle_turns and not all(t.had_first_turn):
        # E2: every first turn changes the table: it lays a tile, or ends with a marker on
        # the player's own train, which nobody else can have marked yet (P6).
        raise Problem(
            ("idle_turns",),
            f"{t.idle_turns} turns that changed nothing, but every first turn of the round "
            "lays a tile or places a marker, and not every player has had theirs (E2)",
        )
    if (
        seat is not None
        and not t.boneyard_size
        and not t.turn_tiles
        and not t.has_drawn
        and t.idle_turns >= t.players
    ):
        # E2: the round would have ended before this turn began.
        raise Problem(
            ("idle_turns",),
            f"{t.idle_turns} turns that changed nothing and an empty boneyard end the round (E2)",
        )
    _check_doubles(t, "open_doubles", t.open_doubles, ())
    _check_doubles(t, "turn_doubles", t.turn_doubles, t.open_doubles)
    special_first = (
        seat is not None and t.rules.first_turn is not None and not t.had_first_turn[seat]
    )
    if seat is not None and t.turn_tiles and not t.turn_doubles and not special_first:
        # P5a: an ordinary turn ends by itself after its tile, unless that tile was a
        # double (D1); a tile on a double is never a double, so one is still to follow.
        raise Problem(
            ("turn_tiles",),
            f"seat {seat} has laid {t.turn_tiles} tile{'s' * (t.turn_tiles != 1)} this turn "
            "with no double to follow: an ordinary turn ends with its tile (P5a)",
        )
    if seat is not None and t.rules.first_turn is not None:
        if t.open_doubles and not all(t.had_first_turn):
            # P4: a double that ends a first-turn train is never open, and every first
            # turn comes before any other turn (P1): none is open while one is to come.
            raise Problem(
                ("open_doubles",),
                "no double is open before every player has had their first turn of the "
                "round: doubles played in a first turn bind nobody (P4)",
            )
        if t.turn_doubles and not t.had_first_turn[seat]:
            raise Problem(
                ("turn_doubles",),
                f"seat {seat} is on their first turn of the round, whose doubles need "
                "not be followed (P4)",
            )
        if t.turn_tiles and not t.had_first_turn[seat] and not t.rules.first_turn.chain:
            raise Problem(
                ("turn_tiles",),
                f"seat {seat} has laid {t.turn_tiles} tiles on their first turn of the "
                "round, whose single tile ends it under these rules (P4, V1)",
            )
    if len(t.turn_doubles) > t.turn_tiles:
        raise Problem(
            ("turn_doubles",),
            f"{len(t.turn_doubles)} doubles played this turn, but only {t.turn_tiles} tiles",
        )

    _check_round_scores(t)
    # E3: the totals are the round scores added up (a double-blank may count < 0, V7).
    totals = [sum(column) for column in zip(*t.round_scores, strict=True)] or [0] * t.players
    if list(t.scores) != totals:
        raise Problem(("scores",), f"the round scores add up to {totals}, not {list(t.scores)}")


def _check_unstarted_trains(t: StateFields | PlayerView, seat: int) -> None:
    """Check the trains of the seats whose first turn is not over (P3, P6).

    Nobody but its owner plays on an unmarked train, and only the owner's turn marks
    it: a seat whose first turn has not come has an empty, unmarked train, and *seat*,
    on their first turn, has laid on theirs only this turn's tiles, and no marker yet.
    """
    for other, done in enumerate(t.had_first_turn):
        train = t.trains[other]
        if done:
            continue
        if other != seat and (train.tiles or train.marked):
            raise Problem(
                ("trains", other, "tiles" if train.tiles else "marked"),
                f"seat {other} has not had its first turn this round, so its train is empty "
                "and unmarked: only its owner starts it or marks it (P3, P6)",
            )
        if other == seat and len(train.tiles) > t.turn_tiles:
            raise Problem(
                ("trains", other, "tiles"),
                f"seat {other} is on their first turn of the round: seat {other} has played "
                f"{t.turn_tiles} tile{'' if t.turn_tiles == 1 else 's'} this turn, but their "
                f"train holds {len(train.tiles)} (P3: only its owner starts it)",
            )
        if other == seat and train.marked:
            raise Problem(
                ("trains", other, "marked"),
                f"seat {other} is on their first turn of the round: a marker comes only as "
                "a turn ends (P5, P6)",
            )


def _check_round_scores(t: StateFields | PlayerView) -> None:
    """Check every round score is one some hand of the set scores (E3, V7)."""
    # E3: the pips left in a hand; V7: the double-blank counts Rules.double_blank_score,
    # so only a hand holding it scores below 0, and no hand more than the whole set.
    double_blank = t.rules.double_blank_score
    low = min(0, double_blank)
    high = t.max_pip * (t.max_pip + 1) * (t.max_pip + 2) // 2 + max(0, double_blank)
    for number, row in enumerate(t.round_scores):
        for seat, score in enumerate(row):
            if not low <= score <= high:
                raise Problem(
                    ("round_scores", number, seat),
                    f"a round scores the pips left in a hand (E3), the double-blank "
                    f"counting {double_blank} (V7): from {low} to {high} with a "
                    f"double-{t.max_pip} set, not {shown(score)}",
                )


def _check_train(
    index: int, train: Train, pip: int, *, is_mexican: bool, lifts_anywhere: bool
) -> None:
    # P2: every train is a chain from the engine; its open end is where it stops.
    end = pip
    for i, tile in enumerate(train.tiles):
        if not tile.shows(end):
            raise Problem(
                ("trains", index, "tiles", i), f"{tile} does not join the open end {end} (P2)"
            )
        end = tile.other_end(end)
    if train.open_end != end:
        raise Problem(
            ("trains", index, "open_end"), f"the train ends in {end}, not {shown(train.open_end)}"
        )
    if train.marked and is_mexican:
        raise Problem(("trains", index, "marked"), "the Mexican train never carries a marker (P6)")
    # V2: whether the owner has played on their train; the Mexican train has no owner.
    if train.owner_played and is_mexican:
        raise Problem(
            ("trains", index, "owner_played"), "the Mexican train has no owner to play on it (V2)"
        )
    if train.owner_played and not train.tiles:
        raise Problem(
            ("trains", index, "owner_played"),
            "the owner cannot have played on a train that has no tile (V2)",
        )
    if train.tiles and not (train.marked or train.owner_played or is_mexican or lifts_anywhere):
        # P6: other players play on a train only while it is marked, and only the
        # owner's tile on it lifts the marker (a double they must cover is on it
        # already); where a tile anywhere lifts it, others' tiles may lie there alone.
        raise Problem(
            ("trains", index, "owner_played"),
            "other players' tiles alone lie only on a marked train: its owner must have "
            "played on it (P6, V2)",
        )


def _check_doubles(
    t: StateFields | PlayerView, name: str, train_ids: tuple[int, ...], taken: Iterable[int]
) -> None:
    seen = set(taken)
    for i, train_id in enumerate(train_ids):
        if not MEXICAN <= train_id < t.players:
            raise Problem(
                (name, i),
                f"a train id is a seat 0-{t.players - 1} or {MEXICAN}, not {shown(train_id)}",
            )
        # Named in words: the notation writes the Mexican train M, JSON -1.
        train = "the Mexican train" if train_id == MEXICAN else f"train {train_id}"
        if train_id in seen:
            raise Problem((name, i), f"{train} is listed twice among the open doubles")
        seen.add(train_id)
        if not t.trains[train_id].ends_in_double:
            raise Problem((name, i), f"{train} does not end in a double (D2)")


def _dotted(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
