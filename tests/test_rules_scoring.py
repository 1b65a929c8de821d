"""Rulebook scenarios for the end of a round, scoring and winning (rules E1-E5, V7).

Round 1 is dealt explicitly from a double-6 set (`scenario_helpers.start`) and
played through `legal_moves` / `apply` only.  The E5 tie-breaks need several
rounds, and rounds after the first come from the seed: those scenarios are short
seeded games played with `scenario_helpers.lowest_move` every time (a policy that
does not depend on the order of `legal_moves`), whose round scores are asserted
first (the premise) and then ranked.

Rule id -> tests:

- E1: test_e1_going_out_ends_the_round_at_once
- E2: test_e2_round_is_blocked_after_a_full_cycle_that_leaves_the_table_unchanged,
  test_e2_a_pass_on_an_already_marked_train_does_not_start_the_count_again,
  test_e2_the_blocked_round_ends_with_its_full_cycle_of_unchanged_turns_counted,
  test_e2_a_marker_placed_in_the_cycle_starts_the_count_again,
  test_e2_a_tile_played_starts_the_count_again,
  test_e2_a_cycle_without_a_tile_does_not_block_while_the_boneyard_has_tiles,
  test_e2_a_turn_that_only_draws_leaves_the_table_unchanged,
  test_e2_a_blocked_round_leaves_no_player_a_legal_play
- E3: test_e3_pips_left_in_hand_score_and_the_double_blank_counts_50,
  test_e3_a_player_with_no_tiles_left_scores_0, test_e3_round_score
- E4: test_e4_the_finished_round_stays_visible_until_next_round,
  test_e4_next_round_is_refused_while_a_round_is_played,
  test_e4_next_round_deals_afresh_with_the_next_engine_and_no_markers,
  test_e4_after_the_last_engines_round_the_game_is_over
- E5: test_e5_lowest_total_wins, test_e5_a_tie_goes_to_the_most_rounds_scored_at_0,
  test_e5_then_to_the_lowest_single_round_score_other_than_0,
  test_e5_players_still_level_share_the_win
- V7: test_v7_the_double_blank_score_is_a_variant
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Deal,
    GameState,
    Play,
    Rules,
    Tile,
    apply,
    full_set,
    legal_moves,
    new_game,
    round_score,
)
from scenario_helpers import (
    DRAW,
    HUB6,
    NEXT,
    PASS,
    STANDARD6,
    all_tiles,
    assert_refused,
    finish_round,
    lowest_move,
    on,
    run,
    start,
    tiles,
)
from strategies import must_play_small_games


def _went_out() -> GameState:
    """HUB, 3 players: seat 0 plays its last tile on its second turn."""
    state = start(["6-5 5-1", "6-4 4-4", "6-3 3-3"], rules=HUB6)
    return run(state, on("6-5", 0), on("6-4", 1), on("6-3", 2), on("5-1", 0))


def test_e1_going_out_ends_the_round_at_once() -> None:
    """E1: "A player who plays their last tile ends the round at once (P4 aside)"."""
    state = _went_out()
    assert state.hand(0) == ()
    assert state.is_round_over
    assert state.current_player is None
    assert legal_moves(state) == (NEXT,)


# STANDARD, 4 players x 7 tiles: the whole double-6 set is dealt, the boneyard is empty (S1).
# First turns (P4) build these trains, leaving only tiles of 0, 1 and 2 in hand, while every
# train ends in 3 or 4 and the Mexican train (still empty) needs a 6: nobody can play again.
_BLOCKED_HANDS = [
    "6-6 6-0 3-0 3-1 4-1 4-3 0-0",
    "6-1 5-1 5-0 4-0 4-4 1-0 2-2",
    "6-2 3-2 3-3 5-3 5-4 1-1 2-0",
    "6-4 4-2 5-2 5-5 6-5 6-3 2-1",
]
_FIRST_TURNS = [
    "6-0 3-0 3-1 4-1 4-3",  # 6-0 0-3 3-1 1-4 4-3
    "6-1 5-1 5-0 4-0 4-4",  # 6-1 1-5 5-0 0-4 4-4
    "6-2 3-2 3-3 5-3 5-4",  # 6-2 2-3 3-3 3-5 5-4
    "6-4 4-2 5-2 5-5 6-5 6-3",  # 6-4 4-2 2-5 5-5 5-6 6-3
]


def _stuck(rules: Rules = STANDARD6) -> GameState:
    """Return the blocked-round scenario after everybody's first turn."""
    state = start(_BLOCKED_HANDS, rules=rules, seed=6)
    for seat, chain in enumerate(_FIRST_TURNS):
        assert state.current_player == seat
        state = run(state, *(on(t, seat) for t in chain.split()))
    assert state.current_player == 0
    assert state.boneyard_size == 0
    return state


def _blocked(rules: Rules = STANDARD6) -> GameState:
    """Return the blocked-round scenario once the round has ended (E2).

    The first cycle of passes marks every train; the second changes nothing.
    """
    return run(_stuck(rules), *(PASS,) * 8)


def test_e2_round_is_blocked_after_a_full_cycle_that_leaves_the_table_unchanged() -> None:
    """E2: "when the boneyard is empty and the last *players* turns (this one included) all
    ended with the table unchanged — no tile played and no marker placed — the round is
    blocked and ends"."""
    state = _stuck()
    for seat in range(4):  # each pass marks an unmarked train: the table changes
        assert legal_moves(state) == (PASS,)
        state = run(state, PASS)
        assert state.train(seat).marked
        assert not state.is_round_over, f"blocked although seat {seat} placed a marker"
    for seat in range(3):  # every train is marked and nobody can play: nothing changes
        assert legal_moves(state) == (PASS,)
        state = run(state, PASS)
        assert not state.is_round_over, f"blocked after only {seat + 1} unchanged turns"
    state = run(state, PASS)
    assert state.is_round_over


def test_e2_a_pass_on_an_already_marked_train_does_not_start_the_count_again() -> None:
    """E2 (revised 2026-12-01): only a marker "newly placed on an unmarked train" changes the
    table; the pass of a player whose train already carries one leaves it unchanged."""
    state = run(_stuck(), *(PASS,) * 4)
    assert all(state.train(seat).marked for seat in range(4))
    for count in (1, 2, 3):
        state = run(state, PASS)
        assert state.idle_turns == count


# HUB on a double-3 set, 2 players x 4 tiles (the engine 3-3 set aside, S4), one tile in
# the boneyard: the rulebooks' "when no player can play" against a count of turns without
# a tile.
_HUB3 = attrs.evolve(HUB, max_pip=3, hand_size=4)
_MARKER_OPENS_HANDS = (tiles("2-2 3-0 3-1 3-2"), tiles("0-0 1-0 1-1 2-0"))


def _marker_opens_a_play() -> GameState:
    """Return the position in which seat 0 is about to pass with an empty boneyard.

    Seat 1 drew, passed (marker) and passed again on its marked train; seat 0 then
    played 3-1, so its train ends in 1 — which seat 1 could play on, were it marked.
    """
    state = new_game(2, _HUB3, seed=0, deal=Deal(_MARKER_OPENS_HANDS, tiles("2-1")))
    state = run(state, on("3-0", MEXICAN), on("2-0", MEXICAN), on("3-2", MEXICAN))
    state = run(state, DRAW, PASS)  # seat 1 draws 2-1, cannot play it: marker (P5)
    state = run(state, on("3-1", 0), PASS)  # seat 1's pass changes nothing: count 1
    assert state.boneyard_size == 0
    assert state.idle_turns == 1
    assert state.current_player == 0
    assert legal_moves(state) == (PASS,)
    return state


def test_e2_the_blocked_round_ends_with_its_full_cycle_of_unchanged_turns_counted() -> None:
    """E2: the round is blocked when "the last *players* turns (this one included) all ended
    with the table unchanged"; the ended round reports that count, the last turn included."""
    state = run(_stuck(), *(PASS,) * 4)  # every train marked: the count starts from 0
    assert state.idle_turns == 0
    state = run(state, *(PASS,) * 4)
    assert state.is_round_over
    assert state.idle_turns == 4


def test_e2_a_marker_placed_in_the_cycle_starts_the_count_again() -> None:
    """E2: "A turn that places a marker changes the table (it may open a play to a player who
    passed earlier), so the count starts again after it" — the round is not blocked while a
    player can play."""
    state = run(_marker_opens_a_play(), PASS)  # seat 0 marks its train, ending in 1
    assert not state.is_round_over
    assert state.idle_turns == 0
    assert state.current_player == 1
    assert legal_moves(state) == (on("1-0", 0), on("1-1", 0), on("2-1", 0))


def test_e2_a_tile_played_starts_the_count_again() -> None:
    """E2: only "the last *players* turns" count: a tile played in between starts the cycle
    of unchanged turns again."""
    state = start(_BLOCKED_HANDS, rules=STANDARD6, seed=6)
    for seat, chain in enumerate(_FIRST_TURNS[:3]):
        state = run(state, *(on(t, seat) for t in chain.split()))
    # Seat 3 stops its chain before 6-3 (P4), keeping one playable tile.
    state = run(state, *(on(t, 3) for t in ("6-4", "4-2", "5-2", "5-5", "6-5")), PASS)
    state = run(state, PASS, PASS, PASS)  # seats 0-2 mark their trains
    state = run(state, on("6-3", 3), PASS, PASS, PASS)  # already marked: unchanged
    assert state.idle_turns == 3
    assert not state.is_round_over  # three unchanged turns after the tile, not four
    state = run(state, PASS)  # seat 3 marks its train: the count starts again
    assert state.idle_turns == 0
    state = run(state, PASS, PASS, PASS)
    assert not state.is_round_over
    state = run(state, PASS)
    assert state.is_round_over
    assert state.round_scores == ((50, 5, 4, 3),)


def test_e2_a_cycle_without_a_tile_does_not_block_while_the_boneyard_has_tiles() -> None:
    """E2: a round is blocked only "when the boneyard is empty": a full cycle of turns that
    leave the table unchanged, with tiles left to draw, goes on."""
    # HUB: every train is empty (open end 6), and nobody holds or draws a 6.
    state = start(["1-0 2-0", "1-1 2-1"], rules=HUB6, boneyard="3-0 3-1 4-0 4-1")
    state = run(state, DRAW, PASS, DRAW, PASS)  # each pass marks a train: the table changes
    assert state.train(0).marked
    assert state.train(1).marked
    assert state.idle_turns == 0
    state = run(state, DRAW, PASS, DRAW, PASS)  # both trains already marked: unchanged
    assert state.idle_turns == 2  # a full cycle of 2 players ...
    assert state.boneyard_size > 0  # ... but the boneyard still has tiles
    assert not state.is_round_over
    assert state.current_player == 0
    assert legal_moves(state) == (DRAW,)


# HUB on a double-4 set, 2 players x 5 tiles (the engine 4-4 set aside, S4), four tiles
# in the boneyard.  Seat 0 builds 4-0 0-1 1-4, seat 1 builds 4-2 2-3 3-4: every 4 is then
# on the table and every train ends in 4, so no tile fits anywhere again.
_HUB4 = attrs.evolve(HUB, max_pip=4, hand_size=5)
_ALL_FOURS_HANDS = (tiles("4-0 1-0 4-1 0-0 1-1"), tiles("4-2 3-2 4-3 2-2 3-3"))


@settings(max_examples=4 * settings().max_examples, deadline=None)
@given(game=must_play_small_games())
def test_e2_a_blocked_round_leaves_no_player_a_legal_play(game: tuple[Rules, int, int]) -> None:
    """E2 (revised 2026-12-01): "when the boneyard is empty and no player can play, the
    round ends" -- never while a player has a legal play, whatever the house rules
    that keep must-play (P7).  A round that ends without an empty hand is blocked; every
    seat is asked on the table as the round ended (a marker its last turn placed would
    open a train), with the obligations of the turn before (the end clears them)."""
    rules, players, seed = game
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    while not state.is_over:
        if state.is_round_over:
            state = apply(state, NEXT)
            continue
        before = state
        state = apply(state, rng.choice(legal_moves(state)))
        if not state.is_round_over or not all(state.hand(seat) for seat in range(players)):
            continue
        assert state.boneyard_size == 0
        for seat in range(players):
            asked = before.replace(current_player=seat, has_drawn=False, trains=state.trains)
            plays = [move for move in legal_moves(asked) if isinstance(move, Play)]
            assert not plays, f"the round was blocked, but seat {seat} could play {plays}"


def test_e2_a_turn_that_only_draws_leaves_the_table_unchanged() -> None:
    """E2: a turn changes the table only when it plays a tile or places a marker; a turn that
    draws a tile, cannot play it and passes on an already marked train leaves it unchanged,
    so the round is blocked once the last tile drawn leaves a full cycle of such turns."""
    state = new_game(2, _HUB4, seed=0, deal=Deal(_ALL_FOURS_HANDS, tiles("2-0 2-1 3-0 3-1")))
    state = run(state, on("4-0", 0), on("4-2", 1), on("1-0", 0), on("3-2", 1))
    state = run(state, on("4-1", 0), on("4-3", 1))
    assert [train.open_end for train in state.trains] == [4, 4, 4]
    state = run(state, DRAW, PASS, DRAW, PASS)  # each pass marks a train: the table changes
    assert state.idle_turns == 0
    state = run(state, DRAW, PASS)  # seat 0 draws 3-0 and passes on its marked train
    assert state.idle_turns == 1
    state = run(state, DRAW)  # seat 1 draws 3-1, the last tile
    assert state.boneyard_size == 0
    assert legal_moves(state) == (PASS,)
    state = run(state, PASS)  # two turns in a row that changed nothing: blocked
    assert state.is_round_over
    assert state.idle_turns == 2
    assert state.round_scores == ((57, 17),)


def test_e3_pips_left_in_hand_score_and_the_double_blank_counts_50() -> None:
    """E3: "every other player scores the pips left in their hand, with the double-blank
    {0, 0} counting 50"."""
    state = _blocked()
    assert [state.hand(s) for s in range(4)] == [
        tiles("0-0"),
        tiles("1-0 2-2"),
        tiles("1-1 2-0"),
        tiles("2-1"),
    ]
    assert state.round_scores == ((50, 5, 4, 3),)
    assert state.scores == (50, 5, 4, 3)


def test_e3_a_player_with_no_tiles_left_scores_0() -> None:
    """E3: "A player with no tiles left scores 0"."""
    state = _went_out()
    assert state.round_scores == ((0, 8, 6),)
    assert state.scores == (0, 8, 6)


def test_e3_round_score() -> None:
    """E3/V7: `round_score` counts a hand as the end of a round does."""
    assert round_score(tiles("6-5 0-0")) == 61
    assert round_score(tiles("6-5 0-0"), attrs.evolve(STANDARD, double_blank_score=25)) == 36
    assert round_score(()) == 0


@pytest.mark.parametrize("double_blank", [0, 25, 50])
def test_v7_the_double_blank_score_is_a_variant(double_blank: int) -> None:
    """V7: the double-blank scores 50 in both presets, or "any integer (0, 25 are common)"."""
    assert STANDARD.double_blank_score == HUB.double_blank_score == 50
    rules = attrs.evolve(STANDARD6, double_blank_score=double_blank)
    state = _blocked(rules)
    assert state.round_scores == ((double_blank, 5, 4, 3),)


def test_e4_the_finished_round_stays_visible_until_next_round() -> None:
    """E4: between rounds `NextRound()` is the only legal move; the finished table stays."""
    state = _went_out()
    assert state.train(0).tiles == tiles("6-5 5-1")
    assert state.train(1).tiles == tiles("6-4")
    assert state.hand(1) == tiles("4-4")
    assert_refused(state, on("4-4", 1), "E4")
    assert_refused(state, DRAW, "E4")
    assert_refused(state, PASS, "E4")


def test_e4_next_round_is_refused_while_a_round_is_played() -> None:
    """E4: `NextRound()` belongs between rounds only."""
    state = start(["6-5 5-1", "6-4 4-4", "6-3 3-3"], rules=HUB6)
    assert_refused(state, NEXT, "E4")


def test_e4_next_round_deals_afresh_with_the_next_engine_and_no_markers() -> None:
    """E4: "The next round uses the next engine (S2), a fresh shuffle and deal, empty trains
    and no markers"."""
    state = _blocked()
    assert all(state.train(seat).marked for seat in range(4))
    state = apply(state, NEXT)
    assert state.round_number == 2
    assert state.engine == Tile(5, 5)
    assert all(train.tiles == () and not train.marked for train in state.trains)
    assert state.train(MEXICAN).open_end == 5
    assert Counter(all_tiles(state)) == Counter(full_set(6))
    assert state.scores == (50, 5, 4, 3)
    assert state.round_scores == ((50, 5, 4, 3),)
    assert not any(state.has_had_first_turn(seat) for seat in range(4))


def test_e4_after_the_last_engines_round_the_game_is_over() -> None:
    """E4: "After the last engine's round the game is over"."""
    state = new_game(2, STANDARD6, seed=3)
    while True:
        state = finish_round(state)
        if state.round_number == 7:
            break
        assert not state.is_over
        state = apply(state, NEXT)
    assert state.engine == Tile(0, 0)
    assert state.is_over
    assert legal_moves(state) == ()
    assert_refused(state, NEXT, "E4")


def _play_game(players: int, rules: Rules, seed: int) -> GameState:
    """Return the end of a seeded game played with `lowest_move` every time."""
    state = new_game(players, rules, seed)
    assert state.winners == ()  # E5: nobody has won before the game is over
    while not state.is_over:
        state = apply(state, lowest_move(state))
    return state


def test_e5_lowest_total_wins() -> None:
    """E5: "Lowest total after all rounds wins"."""
    state = _play_game(2, STANDARD6, seed=3)
    assert len(state.round_scores) == 7
    totals = tuple(sum(scores[seat] for scores in state.round_scores) for seat in range(2))
    assert state.scores == totals
    assert totals[0] != totals[1]  # premise
    assert state.winners == (totals.index(min(totals)),)


def test_e5_a_tie_goes_to_the_most_rounds_scored_at_0() -> None:
    """E5: "Ties are broken by the most rounds scored at 0"."""
    state = _play_game(3, attrs.evolve(STANDARD6, rounds=2), seed=19)
    assert state.round_scores == ((18, 0, 10), (0, 17, 7))  # premise
    # Seats 1 and 2 tie on 17; seat 1 has a round at 0, seat 2 none.
    assert state.scores == (18, 17, 17)
    assert state.winners == (1,)


def test_e5_then_to_the_lowest_single_round_score_other_than_0() -> None:
    """E5: "then by the lowest single round score other than 0"."""
    state = _play_game(3, attrs.evolve(HUB6, hand_size=7, rounds=4), seed=96)
    assert state.round_scores == ((0, 2, 26), (5, 0, 40), (15, 10, 0), (4, 12, 0))  # premise
    # Seats 0 and 1 tie on 24, one round at 0 each.  Seat 1's lowest other round is 2,
    # seat 0's is 4: seat 1 wins (seat 0's highest round, 15, is above seat 1's, 12, so
    # ranking by the highest round instead would pick seat 0).
    assert state.scores == (24, 24, 66)
    assert state.winners == (1,)


def test_e5_players_still_level_share_the_win() -> None:
    """E5: "players still level share the win"."""
    state = _play_game(2, attrs.evolve(STANDARD6, rounds=2), seed=109)
    assert state.round_scores == ((8, 0), (0, 8))  # premise
    assert state.winners == (0, 1)
