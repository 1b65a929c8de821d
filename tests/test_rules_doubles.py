"""Rulebook scenarios for doubles (rules D1-D5, and the variant axes V3, V4).

Every scenario deals explicit hands, from a double-6 set (`scenario_helpers.start`)
or, where a dead double needs a suit used up in few moves, a double-4 set (`Deal`),
and plays through `legal_moves` / `apply` only.  Most run under HUB, whose first
turn is ordinary, so that doubles bind from the first turn on (P4, V1).

Rule id -> tests:

- D1: test_d1_a_double_must_be_followed_at_once,
  test_d1_the_follow_up_on_the_double_itself_closes_it,
  test_d1_the_follow_up_goes_only_where_the_player_may_play,
  test_d1_each_double_brings_one_draw_and_a_player_who_cannot_follow_places_a_marker,
  test_d1_with_the_boneyard_empty_a_player_who_cannot_follow_passes_with_a_marker
- D2: test_d2_open_double_binds_the_next_player,
  test_d2_open_double_may_be_covered_on_an_unmarked_opponents_train,
  test_d2_an_open_double_on_the_mexican_train_binds_a_player_it_is_closed_to,
  test_d2_player_who_cannot_cover_draws_marks_and_passes_the_obligation_on,
  test_d2_a_tile_on_the_double_closes_it,
  test_d2_with_the_boneyard_empty_a_player_who_cannot_cover_passes_with_a_marker
- D3: test_d3_open_doubles_close_in_the_order_played,
  test_d3_doubles_left_open_in_different_turns_keep_the_order_played,
  test_d3_follow_up_tile_goes_anywhere_but_onto_this_turns_doubles_only_in_order,
  test_d3_a_dead_double_is_skipped_for_the_tile_that_follows_a_double
- D4: test_d4_dead_double_binds_nobody, test_d4_dead_double_is_skipped_for_the_next_one
- D5: test_d5_going_out_on_a_double_ends_the_round_at_once,
  test_d5_going_out_on_a_double_in_a_later_turn_of_standard
- V3: test_v3_reverse_order_closes_the_latest_double_first,
  test_v3_reverse_order_also_orders_the_follow_up_tile
- V4: test_v4_without_release_a_dead_double_binds
"""

from __future__ import annotations

import attrs

from mexican_train import (
    HUB,
    MEXICAN,
    CloseInOrder,
    Cover,
    Deal,
    GameState,
    OpenDouble,
    Rules,
    legal_moves,
    mexican_open,
    new_game,
)
from mexican_train.variants import MexicanAfterOwnTrain
from scenario_helpers import (
    DRAW,
    HUB6,
    PASS,
    STANDARD6,
    assert_refused,
    on,
    run,
    start,
    tiles,
)

M = MEXICAN
HUB6_REVERSE = attrs.evolve(HUB6, open_doubles=CloseInOrder(reverse=True))

# Seat 0 plays 6-5, then the double 5-5 on its own train (HUB).
_FOLLOW = ["6-5 5-5 5-2 6-4 4-3", "6-3 5-1 3-2 1-1 0-0"]


def test_d1_a_double_must_be_followed_at_once() -> None:
    """D1: "A player who plays a double must play again at once: any legal tile, anywhere
    they may play (the double itself included)"."""
    state = start(_FOLLOW, rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0))
    assert state.current_player == 0
    assert legal_moves(state) == (on("5-2", 0), on("6-4", M))
    assert_refused(state, DRAW, "P7")
    assert_refused(state, PASS, "P7")
    state = run(state, on("6-4", M))
    assert state.current_player == 1  # P5a: the tile that follows a double ends the turn


def test_d1_the_follow_up_on_the_double_itself_closes_it() -> None:
    """D1 with D2: the follow-up tile may go on "the double itself"; it closes the double,
    so the turn ends with no open double and the next player is free."""
    state = start(_FOLLOW, rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("5-2", 0))
    assert state.train(0).tiles == tiles("6-5 5-5 5-2")
    assert state.current_player == 1
    assert state.turn_doubles == ()
    assert state.open_doubles == ()
    # Seat 1 (5-1 3-2 1-1 0-0) plays freely: 3-2 on its own train; train 0 (2) is closed
    # to it, unmarked and holding no open double.
    assert legal_moves(state) == (on("3-2", 1),)
    assert_refused(state, on("3-2", 0), "P3")


def test_d1_the_follow_up_goes_only_where_the_player_may_play() -> None:
    """D1: the tile that follows a double goes "anywhere they may play": an unmarked
    opponent's train stays closed (P3), and the refusal names P3, not the double.

    The refusal must not blame "D2/D3: an open double must be covered first": the
    follow-up may go elsewhere (here 6-4 on the Mexican train)."""
    state = start(_FOLLOW, rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0))
    assert state.train(1).open_end == 3  # 4-3 fits it, but train 1 carries no marker
    assert_refused(state, on("4-3", 1), "P3")


def test_d1_each_double_brings_one_draw_and_a_player_who_cannot_follow_places_a_marker() -> None:
    """D1: "Each double played (a drawn one included) gives the player one draw if they cannot
    follow it. A player who still cannot follow ends the turn (`Pass`) and places a marker on
    their own train"."""
    state = start(
        ["6-5 5-5 4-0 2-0 2-2", "6-3 6-2 5-4 3-2 0-0"], rules=HUB6, boneyard="3-3 1-0 3-0"
    )
    state = run(state, on("6-5", 0), on("6-3", M), on("5-5", 0))
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)
    # The drawn double fits the Mexican train (3): it must be played, and followed in turn.
    assert legal_moves(state) == (on("3-3", M),)
    state = run(state, on("3-3", M))
    assert state.current_player == 0
    assert legal_moves(state) == (DRAW,)  # the drawn double brings a second draw
    state = run(state, DRAW)
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "D1")  # the double's one draw is taken
    state = run(state, PASS)
    assert state.train(0).marked
    assert state.current_player == 1
    assert state.hand(0) == tiles("1-0 2-0 2-2 4-0")


def test_d2_open_double_binds_the_next_player() -> None:
    """D2: "While a binding open double exists, the player to move may only play on it"."""
    state = start(
        ["6-5 5-5 4-0 2-0 2-2", "6-3 6-2 5-4 3-2 0-0"], rules=HUB6, boneyard="3-3 1-0 3-0"
    )
    state = run(state, on("6-5", 0), on("6-3", M), on("5-5", 0), DRAW, on("3-3", M), DRAW, PASS)
    # Free, seat 1 could play 6-2 on its own train and 3-2 on the Mexican train.
    assert legal_moves(state) == (on("5-4", 0),)
    assert_refused(state, on("6-2", 1), "D2")


def test_d2_open_double_may_be_covered_on_an_unmarked_opponents_train() -> None:
    """D2: the player "may do so on any train, even an opponent's unmarked one"."""
    state = start(_FOLLOW, rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", M))
    assert not state.train(0).marked
    assert legal_moves(state) == (on("5-1", 0),)
    assert_refused(state, on("3-2", 1), "D2")


def test_d2_an_open_double_on_the_mexican_train_binds_a_player_it_is_closed_to() -> None:
    """D2: the player bound "may only play on it -- and may do so on any train": the Mexican
    train included, while the Mexican-train rule (V2) keeps it closed to that player."""
    rules = attrs.evolve(STANDARD6, mexican_train=MexicanAfterOwnTrain())
    state = start(["6-6 6-5 6-2 2-2 0-1", "4-1 4-0 3-1 5-2 0-0"], rules=rules, boneyard="4-3 3-0")
    # Seat 1 cannot start its train (P4): the Mexican train stays closed to it (V2).
    state = run(state, on("6-5", 0), PASS, on("6-2", M), DRAW, PASS)
    state = run(state, on("2-2", M), DRAW, PASS)  # seat 0 cannot follow its 2-2
    assert state.open_doubles == (M,)
    assert mexican_open(state) == (True, False)
    assert legal_moves(state) == (on("5-2", M),)


def test_d2_player_who_cannot_cover_draws_marks_and_passes_the_obligation_on() -> None:
    """D2: "A player who cannot draws one tile and plays it on the double if it fits;
    otherwise they place a marker on their own train and the obligation passes to the next
    player"."""
    state = start(["6-5 5-5 5-2 6-4 4-3", "6-3 3-2 2-1 1-1 0-0"], rules=HUB6, boneyard="3-1")
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", M))
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)
    # The drawn 3-1 fits seat 1's own train (3), but not the double: it may not be played.
    assert legal_moves(state) == (PASS,)
    state = run(state, PASS)
    assert state.train(1).marked
    # The obligation passes on: seat 0 (4-3 would fit train 1 and the Mexican train) must
    # cover its own double.
    assert state.current_player == 0
    assert legal_moves(state) == (on("5-2", 0),)
    assert_refused(state, on("4-3", M), "D2")


def test_d2_a_tile_on_the_double_closes_it() -> None:
    """D2: "A tile played on the double closes it": the next player is free again."""
    state = start(_FOLLOW, rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", M), on("5-1", 0))
    assert state.train(0).tiles == tiles("6-5 5-5 5-1")
    assert state.current_player == 0
    # Seat 0 may play on the Mexican train (4) again; 5-2 no longer fits train 0 (1).
    assert legal_moves(state) == (on("4-3", M),)


# HUB, three players: 3 x 9 tiles deal the whole double-6 set but the engine (S4), so the
# boneyard is empty.  Seat 1 holds no 5; seat 2 holds no 6, so it passes at once.
_NO_BONEYARD = [
    "6-5 5-5 0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    "6-4 6-3 6-2 6-1 6-0 4-4 4-3 4-2 4-1",
    "5-4 5-3 5-2 5-1 5-0 4-0 3-3 3-2 3-1",
]


def _double_not_followed_with_the_boneyard_empty() -> GameState:
    """Seat 0 has laid 5-5 on its own train and holds nothing to follow it; nothing to draw."""
    state = start(_NO_BONEYARD, rules=HUB6)
    assert state.boneyard == ()
    state = run(state, on("6-5", 0), on("6-4", 1), PASS, on("5-5", 0))
    assert state.current_player == 0
    return state


def test_d1_with_the_boneyard_empty_a_player_who_cannot_follow_passes_with_a_marker() -> None:
    """D1: "A player who cannot follow draws one tile (if the boneyard has any) [...] A player
    who still cannot follow ends the turn (`Pass`) and places a marker on their own train":
    with nothing to draw, at once; the double is left open (D2)."""
    state = _double_not_followed_with_the_boneyard_empty()
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "P5")  # the boneyard is empty
    state = run(state, PASS)
    assert state.train(0).marked
    assert state.open_doubles == (0,)
    assert state.current_player == 1


def test_d2_with_the_boneyard_empty_a_player_who_cannot_cover_passes_with_a_marker() -> None:
    """D2: "A player who cannot draws one tile and plays it on the double if it fits;
    otherwise they place a marker on their own train and the obligation passes to the next
    player": with nothing to draw, the pass comes at once, and the round goes on (E2: each
    of these passes places a marker)."""
    state = run(_double_not_followed_with_the_boneyard_empty(), PASS)
    # Seat 1 holds no 5, and 4-3 would fit the marked train 0 only if it were not bound.
    assert legal_moves(state) == (PASS,)
    assert_refused(state, DRAW, "P5")
    state = run(state, PASS)
    assert state.train(1).marked
    assert not state.is_round_over
    # The obligation passed on: seat 2 covers the 5-5, not the marked train 1 (4).
    assert state.current_player == 2
    assert legal_moves(state) == tuple(on(t, 0) for t in ("5-0", "5-1", "5-2", "5-3", "5-4"))
    assert_refused(state, on("4-0", 1), "D2")


# HUB: seat 0 leaves 5-5 (train 0) and the drawn 3-3 (Mexican train) open, in that order.
_TWO_OPEN = ["6-5 5-5 4-0 2-0 2-2", "6-3 6-2 5-4 3-2 0-0"]
_TWO_OPEN_MOVES = (on("6-5", 0), on("6-3", M), on("5-5", 0), DRAW, on("3-3", M), DRAW, PASS)


def test_d3_open_doubles_close_in_the_order_played() -> None:
    """D3: "Several open doubles are closed one at a time in the order in which they were
    played"."""
    state = start(_TWO_OPEN, rules=HUB6, boneyard="3-3 1-0 3-0")
    state = run(state, *_TWO_OPEN_MOVES)
    # First 5-5 (train 0) ...
    assert legal_moves(state) == (on("5-4", 0),)
    assert_refused(state, on("3-2", M), "D3")
    state = run(state, on("5-4", 0))
    assert state.current_player == 0
    # ... then 3-3 (Mexican train): seat 0 draws 3-0 and must put it there.
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)
    assert legal_moves(state) == (on("3-0", M),)
    state = run(state, on("3-0", M))
    # Both closed: seat 1 plays freely (on the Mexican train, now 0, or its own train).
    assert legal_moves(state) == (on("0-0", M), on("6-2", 1))


# HUB: seat 0 plays 5-5 on its own train, then 3-3 on the Mexican train; seat 1 is marked.
_TWO_IN_A_TURN = ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"]
_TWO_IN_A_TURN_MOVES = (
    on("6-3", M),  # seat 0
    DRAW, PASS,  # seat 1 draws 4-1, cannot play it: marker on train 1
    on("6-5", 0),  # seat 0
    DRAW, PASS,  # seat 1 draws 4-0, cannot play it either
    on("5-5", 0), on("3-3", M),  # seat 0: two doubles, the follow-up tile still to come
)  # fmt: skip


def test_d3_follow_up_tile_goes_anywhere_but_onto_this_turns_doubles_only_in_order() -> None:
    """D3: "the tile that follows a double may go on any train the player may use; if it goes
    on one of this turn's unclosed doubles, it must go on the one that comes first in that
    order"."""
    state = start(_TWO_IN_A_TURN, rules=HUB6, boneyard="4-1 4-0")
    state = run(state, *_TWO_IN_A_TURN_MOVES)
    assert state.train(1).marked
    # Onto 5-5 (played first) or the marked train 1; not onto 3-3 (played second).
    assert legal_moves(state) == (on("5-2", 0), on("6-4", 1))
    assert_refused(state, on("3-1", M), "D3")
    state = run(state, on("6-4", 1))
    # Both doubles stay open, in the order played: 5-5 binds seat 1 first.
    assert legal_moves(state) == (DRAW,)


@attrs.frozen
class _BindTheFirstOfTwo:
    """A user's open-double rule: a lone open double binds nobody; once two or more are
    open, the first of them, as the engine lists them, binds."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((doubles[0].train,), only=len(doubles) > 1)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover(tuple(double.train for double in doubles), only=False)


def test_d3_doubles_left_open_in_different_turns_keep_the_order_played() -> None:
    """D3: open doubles "are closed one at a time in the order in which they were played",
    across turns too: the rule is given them in that order (`OpenDoubleRule`), the double
    left open in an earlier turn first."""
    rules = attrs.evolve(HUB6, open_doubles=_BindTheFirstOfTwo())
    state = start(["6-5 5-5 6-4 5-1 3-0", "6-3 3-3 4-2 0-0 1-1"], rules=rules)
    # Seat 0 leaves 5-5 open on its own train (followed on the Mexican train) ...
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", M))
    assert state.open_doubles == (0,)
    # ... which binds nobody alone: seat 1 leaves 3-3 open on its own train.
    state = run(state, on("3-3", 1), on("4-2", M))
    assert state.open_doubles == (0, 1)
    # The first played, 5-5, binds seat 0; the 3-0 may not cover the later 3-3.
    assert legal_moves(state) == (on("5-1", 0),)
    assert_refused(state, on("3-0", 1), "D3")


def test_d4_dead_double_binds_nobody() -> None:
    """D4: "A double that cannot be closed — every other tile of its suit is already on the
    table — binds nobody and is skipped"."""
    state = _dead_double_zero(STANDARD6)
    # 0-0 ends train 0, open; all seven 0 tiles are on the table: seat 1 plays freely.
    assert state.train(0).tiles[-1] == tiles("0-0")[0]
    assert legal_moves(state) == (on("4-4", M),)


def test_d4_dead_double_is_skipped_for_the_next_one() -> None:
    """D4/D3: dead doubles are skipped in the closing order; the next live one binds."""
    state = _dead_double_zero(STANDARD6)
    state = run(state, on("4-4", M), DRAW, PASS)
    # Open doubles in order: 0-0 (train 0, dead), then 4-4 (Mexican train): 4-4 binds.
    assert legal_moves(state) == (on("4-2", M),)


# HUB on a double-4 set, 2 players x 7 tiles (the engine 4-4 set aside, S4), no boneyard.
# Trains: seat 0's 4-1 (open end 1); seat 1's 4-3 3-0 (0); the Mexican train 4-0 0-1 1-2
# 2-0 (0).  Every 0 but the 0-0 is then on the table, so a 0-0 played there is dead (D4).
_HUB4 = attrs.evolve(HUB, max_pip=4, hand_size=7)
_DEAD_THEN_LIVE = (tiles("4-1 4-0 1-0 2-0 0-0 1-1 3-1"), tiles("4-3 3-0 2-1 2-2 3-2 3-3 4-2"))


def test_d3_a_dead_double_is_skipped_for_the_tile_that_follows_a_double() -> None:
    """D3/D4: the tile that follows a double, "if it goes on one of this turn's unclosed
    doubles, it must go on the one that comes first in that order (dead doubles, D4, are
    skipped)"."""
    state = new_game(2, _HUB4, seed=0, deal=Deal(_DEAD_THEN_LIVE, ()))
    state = run(
        state,
        on("4-1", 0), on("4-3", 1), on("4-0", M), on("3-0", 1),
        on("1-0", M), on("2-1", M), on("2-0", M),
        PASS,  # seat 1: nothing fits a 0 or a 1
    )  # fmt: skip
    # Seat 0: 0-0 on the Mexican train (dead: nothing can cover it), followed by 1-1 on
    # its own train.  This turn's doubles, in order: 0-0 (dead, skipped), then 1-1.
    state = run(state, on("0-0", M), on("1-1", 0))
    assert state.turn_doubles == (M, 0)
    # So the tile that follows 1-1 may go on it.
    assert legal_moves(state) == (on("3-1", 0),)
    state = run(state, on("3-1", 0))
    assert state.is_round_over


def test_v4_without_release_a_dead_double_binds() -> None:
    """V4: with ``CloseInOrder(release_dead=False)`` a dead double still binds (D4 off)."""
    rules = attrs.evolve(STANDARD6, open_doubles=CloseInOrder(release_dead=False))
    state = _dead_double_zero(rules)
    assert legal_moves(state) == (DRAW,)
    assert_refused(state, on("4-4", M), "D2")
    state = run(state, DRAW, PASS)
    assert state.current_player == 0
    assert legal_moves(state) == (DRAW,)


def _dead_double_zero(rules: Rules) -> GameState:
    """Return a STANDARD game where 0-0 ends train 0, open and dead, and seat 1 is to move.

    First turns (P4): seat 0 builds 6-1 1-0 0-2 2-5 5-0 and stops; seat 1 builds
    6-0 0-3 3-4 4-0.  Seat 0's second turn: 0-0 on its own train (the last 0 tile off the
    table), followed by 6-4 on the Mexican train.
    """
    state = start(
        ["6-6 6-1 1-0 2-0 5-2 5-0 0-0 6-4 4-2", "6-0 3-0 4-3 4-0 4-4 1-1 2-1 2-2 5-5"],
        rules=rules,
        boneyard="3-1",
    )
    state = run(
        state,
        *(on(t, 0) for t in ("6-1", "1-0", "2-0", "5-2", "5-0")), PASS,
        *(on(t, 1) for t in ("6-0", "3-0", "4-3", "4-0")),
        on("0-0", 0), on("6-4", M),
    )  # fmt: skip
    assert state.current_player == 1
    return state


def test_d5_going_out_on_a_double_ends_the_round_at_once() -> None:
    """D5: "A player whose last tile is a double has gone out; the round ends at once"."""
    state = start(["6-5 5-5", "6-3 3-2"], rules=HUB6)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0))
    assert state.is_round_over
    assert state.round_scores == ((0, 5),)


def test_d5_going_out_on_a_double_in_a_later_turn_of_standard() -> None:
    """D5: under STANDARD too, from the second turn on, a last tile that is a double ends the
    round at once, with no follow-up."""
    state = start(["6-6 6-4 4-4", "6-3 3-2 1-0"], rules=STANDARD6)
    # First turns: seat 0 stops after 6-4 (keeping 4-4); seat 1 builds 6-3 3-2.
    state = run(state, on("6-4", 0), PASS, on("6-3", 1), on("3-2", 1))
    assert legal_moves(state) == (on("4-4", 0),)
    state = run(state, on("4-4", 0))
    assert state.is_round_over
    assert state.round_scores == ((0, 1),)


def test_v3_reverse_order_closes_the_latest_double_first() -> None:
    """V3: "the Rulebook B variation closes them in reverse order"
    (``CloseInOrder(reverse=True)``)."""
    state = start(_TWO_OPEN, rules=HUB6_REVERSE, boneyard="3-3 1-0 3-0")
    state = run(state, *_TWO_OPEN_MOVES)
    # First 3-3 (Mexican train, played last) ...
    assert legal_moves(state) == (on("3-2", M),)
    assert_refused(state, on("5-4", 0), "D3")
    state = run(state, on("3-2", M))
    # ... then 5-5 (train 0): seat 0 holds no 5, draws 3-0, and cannot cover it either.
    assert legal_moves(state) == (DRAW,)
    state = run(state, DRAW)
    assert legal_moves(state) == (PASS,)


def test_v3_reverse_order_also_orders_the_follow_up_tile() -> None:
    """V3/D3: under the reverse order, "the one that comes first in that order" is this
    turn's latest double."""
    state = start(_TWO_IN_A_TURN, rules=HUB6_REVERSE, boneyard="4-1 4-0")
    state = run(state, *_TWO_IN_A_TURN_MOVES)
    assert legal_moves(state) == (on("3-1", M), on("6-4", 1))
    assert_refused(state, on("5-2", 0), "D3")
