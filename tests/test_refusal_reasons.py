"""Refusals name the rule that really forbids the move (found by an independent audit).

`legal_moves` was right in each case; only `IllegalMoveError.reason` named the wrong rule.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    MEXICAN,
    CloseInOrder,
    GameState,
    IllegalMoveError,
    Move,
    Play,
    Rules,
    Tile,
    Train,
    apply,
    build_state,
    full_set,
    get_variant,
    legal_moves,
)
from mexican_train._core.engine import doubles_to_cover, mexican_open
from mexican_train.variants import NeverBind
from scenario_helpers import DRAW, PASS, assert_refused, on, run, start, tiles
from strategies import positions, variant_tables

VOLUNTARY = attrs.evolve(HUB, must_play=False)  # V6 off: a player may hold back


def test_v6_pass_before_drawing_is_refused_by_p5a_not_p7() -> None:
    """V6 (voluntary draw): a player who holds back must still draw first (P5a), and P7
    does not apply, so the refusal must not blame it."""
    state = start(["6-5 1-0", "4-3 2-1"], rules=VOLUNTARY, boneyard="5-5 3-3")
    assert PASS not in legal_moves(state)
    assert DRAW in legal_moves(state)
    assert_refused(state, PASS, "P5a")


def test_v6_second_draw_is_refused_by_the_one_draw_rule_not_p7() -> None:
    """V6: after the one draw (P5), a second one is refused for that reason, not by P7."""
    state = run(start(["6-5 1-0", "4-3 2-1"], rules=VOLUNTARY, boneyard="5-5 3-3"), DRAW)
    assert PASS in legal_moves(state)
    assert_refused(state, DRAW, "P5")


def test_never_bind_play_on_an_unmarked_train_is_refused_by_p3() -> None:
    """With doubles that never bind, an open double on an opponent's unmarked train does
    not open that train: the refusal names P3, not D2/D3."""
    rules = attrs.evolve(HUB, open_doubles=NeverBind())
    state = start(["6-5 5-5 6-4 0-0", "5-1 6-2 1-1 2-2"], rules=rules)
    state = run(state, on("6-5", 0), on("6-2", 1), on("5-5", 0), on("6-4", MEXICAN))
    assert state.open_doubles == (0,)
    assert not state.train(0).marked
    assert legal_moves(state) == (on("2-2", 1),)
    assert_refused(state, on("5-1", 0), "P3")


def test_first_turn_play_on_the_mexican_train_is_refused_by_p4_not_p2() -> None:
    """Rulebook A's first turn: 0-0 does not fit the Mexican train (P2), but the reason it
    is refused is that a first turn plays only on the player's own train (P4); trains are
    named as players call them."""
    state = start(["6-6 0-0", "6-2 1-1"])  # STANDARD: seat 0 places 6-6, seat 0 starts
    assert state.current_player == 0
    error = assert_refused(state, on("0-0", MEXICAN), "P4")
    assert error.reason.endswith("only on their own train, not on the Mexican train")
    assert "MEXICAN" not in error.reason
    error = assert_refused(state, on("0-0", 1), "P4")
    assert error.reason.endswith("not on seat 1's train")


def test_refusals_name_trains_as_players_do() -> None:
    """P2 and P3 name "seat 1's train", never an internal number; a train that does not
    exist is refused with the trains that do."""
    state = run(start(["6-5 2-0", "6-2 1-1"], rules=HUB), on("6-5", 0), on("6-2", 1))
    assert assert_refused(state, on("2-0", 1), "P3").reason.startswith("P3: seat 1's train belongs")
    with pytest.raises(IllegalMoveError, match=r"there is no train 7: with 2 players"):
        apply(state, on("2-0", 7))


def test_d2_second_draw_under_an_open_double_is_refused_by_d2() -> None:
    """D2: a player bound by an open double draws one tile; a second draw is refused by
    D2, the open double's rule, not by P5/D1 (nobody played a double this turn)."""
    state = start(["6-3 3-3 1-0 2-0", "6-1 1-1 2-2 4-1"], rules=HUB, boneyard="5-0 5-1 5-2")
    state = run(state, on("6-3", 0), on("6-1", 1), on("3-3", 0), DRAW, PASS, DRAW)
    assert state.open_doubles == (0,)
    assert legal_moves(state) == (PASS,)
    error = assert_refused(state, DRAW, "D2")
    assert error.reason.startswith("D2: ")


def test_p5_draw_until_playable_refuses_a_draw_from_an_empty_boneyard_for_that() -> None:
    """P5 under draw-until-playable: a player who drew the boneyard's last tile and still
    cannot play may not draw again because the boneyard is empty, not because "only one
    draw is allowed" (these rules allow several)."""
    rules = attrs.evolve(HUB, draw_until_playable=True)
    hands = [
        "0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2 3-3 4-0 4-1 4-2",
        "6-0 6-1 6-2 6-3 6-4 6-5 4-3 4-4 5-0 5-1 5-2 5-3 5-4",
    ]
    state = run(start(hands, rules=rules), DRAW)  # 5-5, the boneyard's one tile
    assert state.boneyard_size == 0
    assert legal_moves(state) == (PASS,)
    error = assert_refused(state, DRAW, "P5")
    assert error.reason == "P5: the boneyard is empty"


def test_p5_draw_until_playable_refuses_a_draw_once_a_tile_fits_for_that() -> None:
    """P5 under draw-until-playable and a voluntary draw (V6): once a drawn tile fits, the
    drawing stops; the refusal says so, not that "only one draw is allowed"."""
    rules = attrs.evolve(HUB, draw_until_playable=True, must_play=False)
    hands = ["0-0 1-0 1-1", "6-0 6-1 6-2"]
    state = run(start(hands, rules=rules, boneyard="2-0 3-0 6-3"), DRAW, DRAW)
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)  # 6-3 fits
    assert DRAW not in legal_moves(state)
    error = assert_refused(state, DRAW, "P5")
    assert error.reason == "P5: the drawing stops once a tile in hand can be played"


def test_p5_draw_until_playable_refuses_a_draw_when_a_tile_held_can_be_played() -> None:
    """P5 under draw-until-playable and a voluntary draw (V6): a player who held a tile
    to play, and drew one that does not fit, may draw no more; the refusal does not say
    that the tile drawn fits."""
    rules = attrs.evolve(HUB, draw_until_playable=True, must_play=False)
    state = run(start(["6-0 1-0 1-1", "6-1 6-2 2-2"], rules=rules, boneyard="2-0 3-0"), DRAW)
    assert Tile(2, 0) in state.hand(0)  # drawn: it fits no train; 6-0, held, does
    assert DRAW not in legal_moves(state)
    error = assert_refused(state, DRAW, "P5")
    assert error.reason == "P5: the drawing stops once a tile in hand can be played"


def _two_open(rules: Rules) -> GameState:
    """HUB: seat 0 leaves 5-5 open on its own train and 3-3 on the Mexican train, in that
    order, following with 6-4 on seat 1's marked train; seat 1 is to move."""
    hands = ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"]
    state = start(hands, rules=rules, boneyard="4-1 4-0")
    state = run(state, on("6-3", MEXICAN), DRAW, PASS, on("6-5", 0), DRAW, PASS)
    state = run(state, on("5-5", 0), on("3-3", MEXICAN), on("6-4", 1))
    assert state.open_doubles == (0, MEXICAN)
    return state


def test_d3_refusal_names_the_double_to_cover_first() -> None:
    """D3: the refusal names the one double that binds, not every open double."""
    error = assert_refused(_two_open(HUB), on("4-4", 1), "D2")
    assert "the open double on seat 0's train must be covered first" in error.reason
    reverse = attrs.evolve(HUB, open_doubles=CloseInOrder(reverse=True))
    error = assert_refused(_two_open(reverse), on("4-4", 1), "D3")
    assert "the open double on the Mexican train must be covered first" in error.reason


def test_v3_refusal_under_any_order_names_every_double_and_no_order() -> None:
    """V3 ("any-double"): any of the open doubles may be covered first: no "in order"."""
    error = assert_refused(_two_open(get_variant("hub+any-double")), on("4-4", 1), "D2")
    assert "in order" not in error.reason
    assert "seat 0's train or the Mexican train" in error.reason


def test_d4_refusal_does_not_name_a_dead_double() -> None:
    """D4: a dead double binds nobody, so the refusal names only the live one that binds.

    HUB, 3 players, double-6: every 0 is on the table, so the 0-0 ending seat 0's train
    is dead; the 2-2 ending the Mexican train, left open after it, binds seat 1.
    """

    def train(text: str, *, marked: bool = False, owner_played: bool = True) -> Train:
        laid = tiles(text)
        end = 6
        for tile in laid:
            end = tile.other_end(end)
        return Train(tiles=laid, open_end=end, marked=marked, owner_played=owner_played)

    hands = [tiles("5-5 4-4"), tiles("3-2 5-1 3-3"), tiles("4-1 4-2 6-4")]
    trains = [
        train("6-0 0-1 1-2 2-0 0-3 3-4 4-0 0-0"),
        train("6-5 5-0"),
        train("6-1", marked=True),
        train("6-2 2-2", owner_played=False),
    ]
    used = {t for hand in hands for t in hand} | {t for tr in trains for t in tr.tiles}
    state = build_state(
        rules=attrs.evolve(HUB, max_pip=6, hand_size=7),
        players=3,
        seed=0,
        round_number=1,
        hands=hands,
        boneyard=[t for t in full_set(6) if t not in used | {Tile(6, 6)}],
        trains=trains,
        current_player=1,
        open_doubles=(0, MEXICAN),
    )
    assert legal_moves(state) == (on("3-2", MEXICAN),)
    error = assert_refused(state, on("5-1", 2), "D2")
    assert "seat 0's train" not in error.reason
    assert "the open double on the Mexican train must be covered first" in error.reason


def test_d3_refusal_within_the_turn_names_the_double_to_cover_first() -> None:
    """D3: within the turn, the tile that follows may go on any train the player may use,
    but onto this turn's doubles only in order: 3-1 on the Mexican train's 3-3 is refused
    naming seat 0's 5-5, and not as if the doubles bound the player (6-4 on seat 1's
    marked train is legal)."""
    hands = ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"]
    state = start(hands, rules=HUB, boneyard="4-1 4-0")
    state = run(state, on("6-3", MEXICAN), DRAW, PASS, on("6-5", 0), DRAW, PASS)
    state = run(state, on("5-5", 0), on("3-3", MEXICAN))
    assert state.turn_doubles == (0, MEXICAN)
    assert on("6-4", 1) in legal_moves(state)
    error = assert_refused(state, on("3-1", MEXICAN), "D3")
    assert error.reason.startswith(
        "D3: of this turn's doubles, the double on seat 0's train must be covered first"
    )
    # The stronger reading of D3 (a catalogue variant): the follow-up goes only there.
    strict = run(
        start(hands, rules=get_variant("hub+strict-double-order"), boneyard="4-1 4-0"),
        on("6-3", MEXICAN), DRAW, PASS, on("6-5", 0), DRAW, PASS, on("5-5", 0),
    )  # fmt: skip
    error = assert_refused(strict, on("6-4", 1), "D1")
    assert error.reason.startswith(
        "D1/D3: the tile that follows this turn's doubles goes on the double on seat 0's train"
    )


def _holds(state: GameState, move: Move, reason: str) -> bool:
    """Whether what *reason* says of *state* and *move* is so (for the refusals of a turn)."""
    seat = state.current_player
    assert seat is not None
    rule = reason.split(":", 1)[0]
    can_play = any(isinstance(legal, Play) for legal in legal_moves(state))
    first = state.rules.first_turn is not None and not state.has_had_first_turn(seat)
    if rule in ("P7", "P7/P5a"):
        return can_play and state.rules.must_play
    if reason.endswith("only one draw is allowed here, and it has been taken"):
        return state.has_drawn and not state.rules.draw_until_playable
    if reason.endswith("the drawing stops once a tile in hand can be played"):
        return state.has_drawn and state.rules.draw_until_playable and can_play
    if reason == "P5: the boneyard is empty":
        return state.boneyard_size == 0
    if rule == "P5a":
        return state.boneyard_size > 0
    if not isinstance(move, Play):
        return rule == "P4" and first
    if reason.startswith(f"seat {seat} does not hold"):
        return move.tile not in state.hand(seat)
    if reason.startswith("there is no train"):
        return not MEXICAN <= move.train < state.players
    train = state.train(move.train)
    if rule == "P2":
        return not move.tile.shows(train.open_end)
    if rule == "P4":
        return first and move.train != seat
    if rule == "P3":
        return move.train not in (seat, MEXICAN) and not train.marked
    if rule == "V2":
        return move.train == MEXICAN and not mexican_open(state)[seat]
    if reason.startswith("D2/D3: the open double on"):
        return bool(doubles_to_cover(state)) and move.train not in doubles_to_cover(state)
    if rule == "D3":
        return move.train in state.turn_doubles
    if rule in ("D2/D3", "D1/D3"):
        return bool(state.open_doubles or state.turn_doubles)
    return False  # a reason this test does not know


@given(positions(variant_tables(max_pip=6, max_rounds=1), max_moves=120))
def test_every_refusal_in_a_turn_says_what_is_so(state: GameState) -> None:
    """Every refusal names a rule, and what it says of the position is so (P2-P7, D1-D4,
    V2, V6): a tile that does not fit, a train that is not open, a draw from an empty
    boneyard, a player who could play, a double to cover first."""
    seat = state.current_player
    if seat is None:
        return  # between rounds and at the end, the refusals are E4's (tested elsewhere)
    trains = [*range(state.players + 1), MEXICAN]  # state.players: no such train
    tried: list[Move] = [Play(tile, train) for tile in full_set(state.max_pip) for train in trains]
    offered = legal_moves(state)
    for move in [*tried, DRAW, PASS]:
        if move not in offered:
            with pytest.raises(IllegalMoveError) as info:
                apply(state, move)
            assert _holds(state, move, info.value.reason), (move, info.value.reason)
