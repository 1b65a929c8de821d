"""Rulebook scenarios for play (rules P1-P7, and the variant axes V1, V2).

Every scenario deals explicit hands from a double-6 set (`scenario_helpers.start`)
and plays through `legal_moves` / `apply` only.

Rule id -> tests:

- P1: test_p1_play_goes_clockwise
- P2: test_p2_a_tile_on_an_empty_train_shows_the_engines_number,
  test_p2_the_other_number_becomes_the_open_end
- P3: test_p3_own_train_mexican_train_and_marked_trains_only,
  test_p3_a_marked_train_is_open_to_everybody_under_standard
- P4: test_p4_first_turn_plays_only_on_own_train_and_never_draws,
  test_p4_first_turn_chain_goes_on_while_a_tile_fits,
  test_p4_pass_stops_the_chain_after_the_first_tile,
  test_p4_player_who_cannot_start_gets_a_marker_without_drawing,
  test_p4_player_who_can_start_must_play,
  test_p4_first_turn_doubles_bind_nobody,
  test_p4_going_out_on_the_first_turn_ends_the_round_after_everybodys_first_turn,
  test_p4_going_out_on_the_last_first_turn_ends_the_round_at_once
- P5: test_p5_an_ordinary_turn_is_one_tile,
  test_p5_no_play_draws_one_tile_and_must_play_it,
  test_p5_drawn_tile_that_does_not_fit_ends_the_turn_with_a_marker
- P5a: test_p5a_pass_is_refused_while_the_player_can_draw,
  test_p5a_pass_when_the_player_can_neither_play_nor_draw,
  test_p4_pass_stops_the_chain_after_the_first_tile
- P6: test_p6_marker_stays_until_its_owner_plays_on_their_own_train,
  test_p6_the_owners_tile_on_another_train_leaves_the_marker,
  test_p6_a_marker_on_a_train_ending_in_an_open_double
- P7: test_p7_no_draw_offered_while_a_play_exists, test_p4_player_who_can_start_must_play
- V1: test_v1_hub_first_turn_is_an_ordinary_turn
- V2: test_v2_standard_mexican_train_opens_on_each_players_second_turn,
  test_v2_mexican_train_from_the_second_turn_after_an_ordinary_first_turn,
  test_v2_hub_mexican_train_is_open_from_the_first_turn
"""

from __future__ import annotations

import attrs

from mexican_train import MEXICAN, MexicanFromSecondTurn, Tile, legal_moves
from scenario_helpers import (
    DRAW,
    HUB6,
    PASS,
    STANDARD6,
    assert_refused,
    on,
    run,
    start,
    table,
    tiles,
)

M = MEXICAN


def test_p1_play_goes_clockwise() -> None:
    """P1: "Play goes clockwise: seat i is followed by seat (i+1) mod players"."""
    state = start(["6-5 5-4 0-0", "6-4 4-3 1-1", "6-3 3-2 2-2"], rules=HUB6)
    seats = [state.current_player]
    for move in (on("6-5", 0), on("6-4", 1), on("6-3", 2), on("5-4", 0)):
        state = run(state, move)
        seats.append(state.current_player)
    assert seats == [0, 1, 2, 0, 1]


def test_p2_a_tile_on_an_empty_train_shows_the_engines_number() -> None:
    """P2: "All start empty at the engine. A tile placed on an empty train must show the
    engine's number"."""
    state = start(["6-5 5-4 0-0", "4-3 3-2 1-1"], rules=HUB6)
    assert state.engine == Tile(6, 6)
    assert [state.train(t).tiles for t in (0, 1, M)] == [(), (), ()]
    assert legal_moves(state) == (on("6-5", 0), on("6-5", M))
    assert_refused(state, on("5-4", 0), "P2")


def test_p2_the_other_number_becomes_the_open_end() -> None:
    """P2: "a tile placed on a train must show the train's open end, and its other number
    becomes the new open end"."""
    state = start(["6-5 5-4 0-0", "6-3 3-2 1-1"], rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1))
    assert state.train(0).tiles == tiles("6-5")
    assert state.train(0).open_end == 5
    assert legal_moves(state) == (on("5-4", 0),)
    assert_refused(state, on("0-0", 0), "P2")
    state = run(state, on("5-4", 0))
    assert state.train(0).tiles == tiles("6-5 5-4")
    assert state.train(0).open_end == 4


def test_p3_own_train_mexican_train_and_marked_trains_only() -> None:
    """P3: "on your own train; on the Mexican train once it is open (V2); on another
    player's train only while it carries a marker"."""
    state = start(
        ["6-5 6-4 5-2 3-1", "5-0 4-0 3-0 2-0", "6-3 3-3 1-1 2-2"], rules=HUB6, boneyard="1-0"
    )
    # Seat 1 cannot play, draws 1-0, cannot play it: a marker goes on train 1 (P5).
    state = run(state, on("6-5", 0), DRAW, PASS, on("6-3", 2))
    assert state.train(1).marked
    assert not state.train(2).marked
    # Seat 0: own train (5), the marked train 1 (6), the Mexican train (6); never train 2 (3).
    assert legal_moves(state) == (on("5-2", 0), on("6-4", 1), on("6-4", M))
    assert_refused(state, on("3-1", 2), "P3")


def test_p3_a_marked_train_is_open_to_everybody_under_standard() -> None:
    """P3: "on another player's train only while it carries a marker", under STANDARD,
    whose Mexican train opens on the second turn (V2): the marker placed in a first turn
    (P4) opens the empty train to the others, and an unmarked train stays closed."""
    state = start(["6-6 6-5 6-4 2-1", "0-0 1-0 3-0 4-0", "6-2 5-3 5-1 3-3"], rules=STANDARD6)
    # Seat 0 starts its train; seat 1 cannot start its own and gets a marker; seat 2 starts.
    state = run(state, on("6-5", 0), PASS, on("6-2", 2))
    assert state.train(1).marked
    assert not state.train(2).marked
    # Seat 0's second turn: nothing fits its own train (5); the marked train 1 and the
    # Mexican train (both 6) are open to it; seat 2's unmarked train (2) is not.
    assert legal_moves(state) == (on("6-4", 1), on("6-4", M))
    assert_refused(state, on("2-1", 2), "P3")


def test_p4_first_turn_plays_only_on_own_train_and_never_draws() -> None:
    """P4: "the player may play only on their own train ... they never draw on this turn"."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "6-3 3-3 2-2 2-1 4-1 4-0 5-0"], rules=STANDARD6)
    assert state.current_player == 0
    assert legal_moves(state) == (on("6-4", 0), on("6-5", 0))
    assert_refused(state, on("6-5", M), "P4")
    assert_refused(state, DRAW, "P4")


def test_p4_first_turn_chain_goes_on_while_a_tile_fits() -> None:
    """P4: "may play as many tiles as they like one after another while each continues the
    chain ... The first turn ends by itself when ... no tile of the hand fits the end of the
    player's own train"."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "6-3 3-3 2-2 2-1 4-1 4-0 5-0"], rules=STANDARD6)
    state = run(state, on("6-5", 0))
    assert state.current_player == 0
    assert legal_moves(state) == (on("5-4", 0), PASS)
    state = run(state, on("5-4", 0))
    assert legal_moves(state) == (on("6-4", 0), PASS)
    state = run(state, on("6-4", 0))
    # Nothing left fits 6: the first turn is over without a Pass, and no marker is placed.
    assert state.current_player == 1
    assert state.train(0).tiles == tiles("6-5 5-4 6-4")
    assert not state.train(0).marked
    assert state.hand(0) == tiles("0-0 1-0 3-2")


def test_p4_pass_stops_the_chain_after_the_first_tile() -> None:
    """P4/P5a: "may stop at any point after the first tile ... `Pass` stops it earlier";
    stopping a chain places no marker."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "6-3 3-3 2-2 2-1 4-1 4-0 5-0"], rules=STANDARD6)
    state = run(state, on("6-5", 0), PASS)
    assert state.current_player == 1
    assert state.train(0).tiles == tiles("6-5")
    assert not state.train(0).marked


def test_p4_player_who_cannot_start_gets_a_marker_without_drawing() -> None:
    """P4: "they never draw on this turn; a player who plays nothing gets a marker on their
    (empty) train"."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "3-3 2-2 2-1 4-1 4-0 5-0 5-5"], rules=STANDARD6)
    state = run(state, on("6-5", 0), PASS)
    boneyard = state.boneyard_size
    assert state.boneyard_size > 0
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "P4")
    state = run(state, PASS)
    assert state.train(1).marked
    assert state.train(1).tiles == ()
    assert state.boneyard_size == boneyard
    assert len(state.hand(1)) == 7


def test_p4_player_who_can_start_must_play() -> None:
    """P4/P7: "A player who can start their train must play at least one tile (P7)"."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "6-3 3-3 2-2 2-1 4-1 4-0 5-0"], rules=STANDARD6)
    assert PASS not in legal_moves(state)
    assert_refused(state, PASS, "P7")


def test_p4_first_turn_doubles_bind_nobody() -> None:
    """P4: "Doubles played in this turn create no obligation: D1 and D2 apply from the
    second turn, and a double that ends a first-turn train is never an open double"."""
    state = start(["6-6 6-5 5-5 5-3 6-4 2-1 1-0", "6-2 5-1 3-3 4-4 4-0 3-0 1-1"], rules=STANDARD6)
    state = run(state, on("6-5", 0), on("5-5", 0))
    # After a first-turn double the player may stop: no need to follow it (D1 waits).
    assert legal_moves(state) == (on("5-3", 0), PASS)
    state = run(state, PASS)
    assert state.train(0).tiles == tiles("6-5 5-5")
    # Seat 1 holds 5-1 but is not bound by the 5-5 ending train 0 (not open, D2).
    assert legal_moves(state) == (on("6-2", 1),)
    state = run(state, on("6-2", 1))
    # Seat 0's second turn: still free; the Mexican train (V2) and the own train are open.
    assert legal_moves(state) == (on("5-3", 0), on("6-4", M))


def test_p4_going_out_on_the_first_turn_ends_the_round_after_everybodys_first_turn() -> None:
    """P4: "If a player empties their hand during the first turn, the round ends once every
    player has had their first turn" (E1: "P4 aside")."""
    state = start(["6-6 6-5 5-4", "6-3 3-3 1-0", "2-1 2-0 4-0"], rules=STANDARD6)
    state = run(state, on("6-5", 0), on("5-4", 0))
    assert state.hand(0) == ()
    assert not state.is_round_over
    assert state.current_player == 1
    state = run(state, on("6-3", 1), on("3-3", 1))
    assert not state.is_round_over
    assert state.current_player == 2
    state = run(state, PASS)
    assert state.is_round_over
    assert all(state.has_had_first_turn(seat) for seat in range(3))  # the last one's too
    # E3: the player who went out scores 0; the others what they hold.
    assert state.round_scores == ((0, 1, 9),)


def test_p4_going_out_on_the_last_first_turn_ends_the_round_at_once() -> None:
    """P4: the round ends "once every player has had their first turn": when the last
    first turn empties a hand, the round ends with that turn."""
    state = start(["6-6 6-5 1-0", "6-4 4-1 0-0", "6-3 3-2 2-2"], rules=STANDARD6)
    state = run(state, on("6-5", 0), on("6-4", 1), on("4-1", 1))
    assert state.current_player == 2
    state = run(state, on("6-3", 2), on("3-2", 2), on("2-2", 2))
    assert state.is_round_over
    assert all(state.has_had_first_turn(seat) for seat in range(3))
    assert state.round_scores == ((1, 50, 0),)


def test_p5_an_ordinary_turn_is_one_tile() -> None:
    """P5/P5a: "Play one tile"; the turn "ends by itself after ... the single tile of an
    ordinary turn" (here under HUB, whose first turn is ordinary, V1)."""
    state = start(["6-5 5-4 4-3", "6-2 2-1 1-1"], rules=HUB6)
    state = run(state, on("6-5", 0))
    assert state.current_player == 1
    assert state.hand(0) == tiles("4-3 5-4")


def test_p5_no_play_draws_one_tile_and_must_play_it() -> None:
    """P5: "A player with no legal play draws one tile if the boneyard has any, and must
    then play that tile if it is legal (P7)"."""
    state = start(["6-5 5-4 4-3", "2-1 1-1 3-0"], rules=HUB6, boneyard="6-1")
    state = run(state, on("6-5", 0))
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)
    assert state.current_player == 1
    assert state.hand(1) == tiles("1-1 2-1 3-0 6-1")
    # Only the drawn tile can be played, and it must be: no Pass, no second Draw.
    assert legal_moves(state) == (on("6-1", 1), on("6-1", M))
    assert_refused(state, PASS, "P7")
    state = run(state, on("6-1", M))
    assert state.current_player == 0
    assert not state.train(1).marked


def test_p5_drawn_tile_that_does_not_fit_ends_the_turn_with_a_marker() -> None:
    """P5: "A player who ends the turn without playing a tile places a marker on their own
    train"; a drawn tile that does not fit stays in hand."""
    state = start(["6-5 5-4 4-3", "2-1 1-1 3-0"], rules=HUB6, boneyard="5-2 6-1")
    state = run(state, on("6-5", 0), DRAW)
    # 5-2 would fit train 0 (open end 5), but train 0 carries no marker (P3).
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "P5")
    state = run(state, PASS)
    assert state.train(1).marked
    assert state.hand(1) == tiles("1-1 2-1 3-0 5-2")
    assert state.current_player == 0


def test_p5a_pass_is_refused_while_the_player_can_draw() -> None:
    """P5a: "`Pass` is legal only to stop a P4 first-turn chain after at least one tile, or
    when the player can neither play nor draw"."""
    state = start(["6-5 5-4 4-3", "2-1 1-1 3-0"], rules=HUB6)
    state = run(state, on("6-5", 0))
    assert state.boneyard_size > 0
    assert_refused(state, PASS, "P5a")


# Seat 0 holds no 6; seat 1 holds all six of them; the boneyard holds only 5-5.
_NO_SIXES = "0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2 3-3 4-0 4-1 4-2"
_ALL_SIXES = "6-0 6-1 6-2 6-3 6-4 6-5 4-3 4-4 5-0 5-1 5-2 5-3 5-4"


def test_p5a_pass_when_the_player_can_neither_play_nor_draw() -> None:
    """P5a: `Pass` is legal "when the player can neither play nor draw (it then places the
    marker where P5/D1/D2 say)"."""
    state = start([_NO_SIXES, _ALL_SIXES], rules=HUB6)
    assert state.boneyard == tiles("5-5")
    state = run(state, DRAW, PASS, on("6-5", 1))
    assert state.boneyard_size == 0
    # 5-5 would fit train 1 (open end 5), which carries no marker: no play, no draw.
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "P5")
    state = run(state, PASS)
    assert state.train(0).marked
    assert state.current_player == 1


def test_p6_marker_stays_until_its_owner_plays_on_their_own_train() -> None:
    """P6: "It stays until its owner plays a tile on their own train, which removes it. A
    marked train is open to all players"."""
    state = start(
        ["6-5 6-4 5-2 3-1", "5-0 4-0 3-0 2-0", "6-3 3-3 1-1 2-2"], rules=HUB6, boneyard="1-0"
    )
    state = run(state, on("6-5", 0), DRAW, PASS, on("6-3", 2))
    assert state.train(1).marked
    # Another player's tile on the marked train leaves the marker where it is.
    state = run(state, on("6-4", 1))
    assert state.train(1).tiles == tiles("6-4")
    assert state.train(1).marked
    # The owner's own tile removes it.
    assert legal_moves(state) == (on("4-0", 1),)
    state = run(state, on("4-0", 1))
    assert not state.train(1).marked


def test_p6_the_owners_tile_on_another_train_leaves_the_marker() -> None:
    """P6: the marker "stays until its owner plays a tile on their own train": a tile the
    owner plays elsewhere (here on the Mexican train) leaves it, and the train stays open
    to the others."""
    state = table(["3-1 2-0 1-1 0-0 5-5", "4-2 5-2 5-1 5-0 2-2"], marked=True)
    assert legal_moves(state) == (on("3-1", M),)
    state = run(state, on("3-1", M))
    assert state.train(0).marked
    assert state.current_player == 1
    assert on("4-2", 0) in legal_moves(state)


def test_p6_a_marker_on_a_train_ending_in_an_open_double() -> None:
    """P6 with D1 and D2: a player who cannot follow their own double gets a marker on the
    train it ends; the tile another player covers it with leaves the marker, and only the
    owner's own tile lifts it."""
    state = start(["6-5 5-5 1-0 2-0", "6-4 5-3 4-1 2-1"], rules=HUB6, boneyard="3-3 4-4")
    state = run(state, on("6-5", 0), on("6-4", 1), on("5-5", 0), DRAW, PASS)
    assert state.train(0).marked
    assert state.open_doubles == (0,)
    state = run(state, on("5-3", 0))  # seat 1 covers the double on the marked train
    assert state.open_doubles == ()
    assert state.train(0).marked
    state = run(state, on("3-3", 0))  # seat 0 plays the drawn 3-3 on its own train
    assert not state.train(0).marked


def test_p7_no_draw_offered_while_a_play_exists() -> None:
    """P7: "A player who has a legal play must make one; drawing is only for a player who
    has none"."""
    state = start(["6-5 1-0 2-0", "2-1 1-1 3-0"], rules=HUB6)
    assert state.boneyard_size > 0
    assert legal_moves(state) == (on("6-5", 0), on("6-5", M))
    assert_refused(state, DRAW, "P7")
    assert_refused(state, PASS, "P7")


def test_v1_hub_first_turn_is_an_ordinary_turn() -> None:
    """V1: under HUB (Rulebook B) the first turn is an ordinary turn (P5): one tile, on any
    train the player may use, and a draw when nothing fits."""
    state = start(["6-5 5-4 4-3", "2-1 1-1 3-0"], rules=HUB6, boneyard="1-0")
    assert legal_moves(state) == (on("6-5", 0), on("6-5", M))
    state = run(state, on("6-5", 0))
    assert state.current_player == 1  # no first-turn chain, although 5-4 fits
    assert legal_moves(state) == (DRAW,)  # a first-turn draw


def test_v2_standard_mexican_train_opens_on_each_players_second_turn() -> None:
    """V2 (STANDARD): the Mexican train "opens on each player's second turn"."""
    state = start(["6-6 6-5 6-4 5-4 3-2 1-0 0-0", "6-3 6-2 2-2 2-1 4-1 4-0 5-0"], rules=STANDARD6)
    state = run(state, on("6-4", 0), PASS)
    # Seat 0 has had its first turn; seat 1 has not: the Mexican train is still closed to it.
    assert legal_moves(state) == (on("6-2", 1), on("6-3", 1))
    assert_refused(state, on("6-3", M), "P4")
    state = run(state, on("6-3", 1))
    # Seat 0's second turn: the Mexican train is open to it.
    assert legal_moves(state) == (on("5-4", 0), on("6-5", M))


def test_v2_mexican_train_from_the_second_turn_after_an_ordinary_first_turn() -> None:
    """V2: "opens on each player's second turn" holds without P4's first turn too: under
    HUB's ordinary first turn (V1) with STANDARD's Mexican-train rule, the first turn may
    not use the Mexican train, the second may."""
    rules = attrs.evolve(HUB6, mexican_train=MexicanFromSecondTurn())
    state = start(["6-5 6-4 4-3", "6-2 2-1 1-1"], rules=rules)
    assert legal_moves(state) == (on("6-4", 0), on("6-5", 0))
    error = assert_refused(state, on("6-5", M), "V2")
    assert error.reason == "V2: the Mexican train opens on each player's second turn of the round"
    state = run(state, on("6-5", 0))
    assert legal_moves(state) == (on("6-2", 1),)
    state = run(state, on("6-2", 1))
    # Seat 0's second turn: nothing fits its own train (5); the Mexican train (6) is open.
    assert legal_moves(state) == (on("6-4", M),)


def test_v2_hub_mexican_train_is_open_from_the_first_turn() -> None:
    """V2 (HUB): the Mexican train is "open from the first turn"."""
    state = start(["6-5 5-4 4-3", "6-2 5-1 1-1"], rules=HUB6)
    state = run(state, on("6-5", M))
    assert state.train(M).tiles == tiles("6-5")
    assert legal_moves(state) == (on("5-1", M), on("6-2", 1))
