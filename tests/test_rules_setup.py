"""Rulebook scenarios for setting up (rules S1-S6, and the variant axes V5, V8).

Deal tables are checked row by row against the rule S1 (written out here again, not
read from the package); the rest deals explicit hands from a double-6 set
(`scenario_helpers.start`) or plays seeded games through `legal_moves` / `apply`.

Rule id -> tests:

- S1: test_s1_table_a_rows, test_s1_table_b_rows, test_s1_default_sets_by_player_count,
  test_s1_a_deal_that_does_not_fit_is_refused_naming_the_numbers,
  test_s1_player_counts_outside_the_table_are_refused,
  test_s1_a_set_the_table_does_not_list_needs_a_hand_size,
  test_s1_four_players_take_all_28_tiles_of_a_double_six_set,
  test_s1_a_hand_is_at_least_two_tiles, test_s1_an_inconsistent_deal_is_refused
- S2: test_s2_engines_descend_and_a_double_n_game_has_n_plus_1_rounds,
  test_s2_every_round_uses_the_whole_set
- S3: test_s3_the_engines_holder_places_it_and_plays_first,
  test_s3_nobody_holds_the_engine_players_draw_from_seat_0_until_found,
  test_s3_in_later_rounds_the_drawing_starts_after_the_previous_first_player
- S4: test_s4_the_engine_is_set_aside_before_the_deal,
  test_s4_first_player_is_seat_0_then_the_next_seat_each_round
- S5: test_s5_hands_and_boneyard_stay_out_of_the_states_repr,
  test_s5_a_view_shows_the_own_hand_and_only_the_counts_of_the_rest
- S6: test_s6_same_seed_same_deals_in_every_round, test_s6_different_seeds_deal_differently,
  test_s6_a_seed_deals_the_same_tiles_everywhere
- V5: test_v5_standard_places_the_engine_by_s3_and_hub_by_s4
- V8: test_v8_standard_deals_by_table_a_and_hub_by_table_b,
  test_v8_any_set_and_hand_size
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Deal,
    DealError,
    EnginePlacement,
    GameState,
    Rules,
    Tile,
    full_set,
    legal_moves,
    new_game,
    view,
)
from scenario_helpers import (
    HUB6,
    NEXT,
    STANDARD6,
    all_tiles,
    finish_round,
    on,
    run,
    start,
    tiles,
)

# -- S1: deal tables -------------------------------------------------------------

# (players, set, tiles each), copied from rule S1, Table A (docs/explanation/rules/setup.rst).
TABLE_A_ROWS = [
    *((p, 6, 7) for p in range(2, 5)),
    *((p, 9, 15) for p in range(2, 4)),
    (4, 12, 15),
    *((p, 12, 12) for p in range(5, 7)),
    *((p, 12, 11) for p in range(7, 9)),
    *((p, 15, 11) for p in range(9, 13)),
    *((p, 18, 11) for p in range(13, 15)),
]
# Rule S1, Table B, with the decision for 9-12 players (double-15, 11 each).
TABLE_B_ROWS = [
    (2, 12, 16), (3, 12, 16), (4, 12, 15), (5, 12, 14), (6, 12, 12), (7, 12, 10), (8, 12, 9),
    (2, 9, 15), (3, 9, 13), (4, 9, 10),
    *((p, 15, 11) for p in range(9, 13)),
]  # fmt: skip


def _check_deal(state: GameState, max_pip: int, hand_size: int) -> None:
    assert (state.max_pip, state.hand_size) == (max_pip, hand_size)
    # Every tile of the set is dealt, held or in the boneyard, once (S2).
    assert Counter(all_tiles(state)) == Counter(full_set(max_pip))


@pytest.mark.parametrize(("players", "max_pip", "hand_size"), TABLE_A_ROWS)
def test_s1_table_a_rows(players: int, max_pip: int, hand_size: int) -> None:
    """S1, Table A: with an explicit set the table lists, "the table gives the hand size"."""
    state = new_game(players, attrs.evolve(STANDARD, max_pip=max_pip), seed=1)
    _check_deal(state, max_pip, hand_size)
    # S3 only adds drawn tiles, and takes the engine from its holder.
    assert all(len(state.hand(s)) >= hand_size - (s == state.first_player) for s in range(players))


@pytest.mark.parametrize(("players", "max_pip", "hand_size"), TABLE_B_ROWS)
def test_s1_table_b_rows(players: int, max_pip: int, hand_size: int) -> None:
    """S1, Table B: "double-12 set: 2->16, 3->16, 4->15, 5->14, 6->12, 7->10, 8->9 tiles each;
    double-9 set: 2->15, 3->13, 4->10"; 9-12 players: decision, double-15 and 11 each."""
    state = new_game(players, attrs.evolve(HUB, max_pip=max_pip), seed=1)
    _check_deal(state, max_pip, hand_size)
    assert all(len(state.hand(s)) == hand_size for s in range(players))


@pytest.mark.parametrize("players", range(2, 15))
def test_s1_default_sets_by_player_count(players: int) -> None:
    """S1: "Without an explicit set, the preset's table picks the set for the player count
    (Table A: double-9 for 2-3 players, double-12 for 4-8, double-15 for 9-12, double-18 for
    13-14 ...)"; Table B: double-12 for 2-8, double-15 (decision) for 9-12."""
    set_a = 9 if players <= 3 else 12 if players <= 8 else 15 if players <= 12 else 18
    size_a = {row[:2]: row[2] for row in TABLE_A_ROWS}[players, set_a]
    state = new_game(players, STANDARD, seed=2)
    assert (state.max_pip, state.hand_size) == (set_a, size_a)
    if players <= 12:
        set_b = 12 if players <= 8 else 15
        size_b = {row[:2]: row[2] for row in TABLE_B_ROWS}[players, set_b]
        state = new_game(players, HUB, seed=2)
        assert (state.max_pip, state.hand_size) == (set_b, size_b)


def test_s1_a_deal_that_does_not_fit_is_refused_naming_the_numbers() -> None:
    """S1: "A deal that does not fit in the set is refused with a clear error"."""
    with pytest.raises(DealError, match=r"4 players x 8 tiles = 32 .* only 28"):
        new_game(4, attrs.evolve(STANDARD, max_pip=6, hand_size=8))
    # S4: under HUB the engine is set aside first, so 4 x 7 no longer fits in 27 tiles.
    with pytest.raises(DealError, match=r"28 .* only 27 .*engine is set aside"):
        new_game(4, attrs.evolve(HUB, max_pip=6, hand_size=7))


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (STANDARD, 1),
        (STANDARD, 15),
        (attrs.evolve(STANDARD, max_pip=18, hand_size=2), 15),
        (attrs.evolve(STANDARD, max_pip=6, hand_size=2), 1),
        (HUB, 1),
        (HUB, 13),
        (attrs.evolve(HUB, max_pip=18, hand_size=2), 13),
    ],
)
def test_s1_player_counts_outside_the_table_are_refused(rules: Rules, players: int) -> None:
    """S1: "Player counts are 2-14 under Table A and 2-12 under Table B, whatever the
    sizes"."""
    with pytest.raises(DealError, match=rf"covers 2-1[24] players, not {players}"):
        new_game(players, rules)


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (attrs.evolve(STANDARD, max_pip=6), 5),
        (attrs.evolve(STANDARD, max_pip=12), 2),
        (attrs.evolve(STANDARD, max_pip=9), 4),
        (attrs.evolve(HUB, max_pip=6), 2),
        (attrs.evolve(HUB, max_pip=9), 5),
        (attrs.evolve(HUB, max_pip=18), 10),
    ],
)
def test_s1_a_set_the_table_does_not_list_needs_a_hand_size(rules: Rules, players: int) -> None:
    """S1: "For a set the table does not list for that player count, an explicit hand size
    is required: without one, a clear error that says so"."""
    with pytest.raises(DealError, match=rf"no hand size for {players} players .*hand_size"):
        new_game(players, rules)
    state = new_game(players, attrs.evolve(rules, hand_size=3), seed=1)
    assert state.hand_size == 3


@pytest.mark.parametrize(
    ("rules", "players", "suggested"),
    [
        (attrs.evolve(STANDARD, max_pip=9), 4, "(Table B deals 10 tiles each to 4 players"),
        (attrs.evolve(STANDARD, max_pip=12), 2, "(Table B deals 16 tiles each to 2 players"),
        (attrs.evolve(HUB, max_pip=6), 2, "(Table A deals 7 tiles each to 2 players"),
        (attrs.evolve(STANDARD, max_pip=9), 5, None),  # neither table has the row
    ],
)
def test_s1_a_set_the_table_does_not_list_suggests_the_other_tables_figure(
    rules: Rules, players: int, suggested: str | None
) -> None:
    """S1: without a hand size, "a clear error that says so (and may suggest the other
    table's figure)"."""
    with pytest.raises(DealError) as refused:
        new_game(players, rules)
    said = str(refused.value)
    if suggested is None:
        assert "deals" not in said
    else:
        assert said.endswith(f"{suggested} with that set)")


@pytest.mark.parametrize("preset", [STANDARD, HUB], ids=["standard", "hub"])
def test_s1_the_other_tables_figure_is_suggested_only_where_it_can_be_dealt(
    preset: Rules,
) -> None:
    """S1: the suggested figure is advice the same rules accept: under S4 the engine is set
    aside, so Table A's 7 tiles each for 4 players (all 28 of a double-6 set) do not fit."""
    suggested = 0
    for players in preset.deal_table.player_counts:
        for max_pip in (6, 9, 12, 15, 18):
            rules = attrs.evolve(preset, max_pip=max_pip)
            try:
                new_game(players, rules, seed=1)
            except DealError as error:
                said = str(error)
                if " deals " not in said:
                    continue
                size = int(said.split(" deals ", 1)[1].split(" tiles", 1)[0])
                assert new_game(players, attrs.evolve(rules, hand_size=size), seed=1)
                suggested += 1
    assert suggested


def test_s1_four_players_take_all_28_tiles_of_a_double_six_set() -> None:
    """S1: "4 players x 7 tiles from a double-6 set uses all 28 tiles: allowed, the boneyard
    is empty"."""
    state = new_game(4, STANDARD6, seed=5)
    assert state.hand_size == 7
    assert state.boneyard_size == 0
    assert sorted(len(state.hand(s)) for s in range(4)) == [6, 7, 7, 7]


def test_s1_a_hand_is_at_least_two_tiles() -> None:
    """S1: "a hand size is at least 2"."""
    with pytest.raises(ValueError, match="hand_size"):
        attrs.evolve(STANDARD, max_pip=6, hand_size=1)
    assert new_game(2, attrs.evolve(STANDARD, max_pip=6, hand_size=2), seed=1).hand_size == 2


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["6-6 6-5", "6-4 6-3"], "leaves out 0-0"),
        (["6-6 6-5", "6-5 6-3"], "6-5 twice"),
        (["6-6 6-5", "6-4 6-3 6-2"], "seat 1 is dealt 3 tiles; the hand size is 2"),
        (["6-6 6-5", "6-4 7-3"], "7-3: not in the set"),
    ],
)
def test_s1_an_inconsistent_deal_is_refused(hands: list[str], message: str) -> None:
    """S1/S2: an explicit `Deal` must hold the whole set, each tile once, in hands of the
    hand size (decision: refused with a `DealError` naming the tile or the count)."""
    dealt = [tiles(hand) for hand in hands]
    used = {t for hand in dealt for t in hand}
    rest = [t for t in full_set(6) if t not in used]
    if message.startswith("leaves out"):
        rest = rest[1:]
    with pytest.raises(DealError, match=message):
        new_game(2, attrs.evolve(STANDARD6, hand_size=2), deal=Deal(dealt, rest))


# -- S2: engines and rounds --------------------------------------------------------


def _round_starts(state: GameState) -> list[GameState]:
    """Play to the end of the game (first legal move); return each round's first state."""
    starts = [state]
    while True:
        state = finish_round(state)
        if state.is_over:
            return starts
        state = run(state, NEXT)
        starts.append(state)


def test_s2_engines_descend_and_a_double_n_game_has_n_plus_1_rounds() -> None:
    """S2: "A game with a double-N set has N+1 rounds. Round 1's engine is {N, N}, each later
    round's engine is one lower, the last round's is {0, 0}"."""
    start_state = new_game(2, STANDARD6, seed=3)
    starts = _round_starts(start_state)
    assert [s.engine for s in starts] == [Tile(n, n) for n in range(6, -1, -1)]
    assert [s.round_number for s in starts] == list(range(1, 8))
    end = finish_round(starts[-1])
    assert end.is_over
    assert len(end.round_scores) == 7 == start_state.rounds


@pytest.mark.parametrize("rules", [STANDARD6, HUB6], ids=["STANDARD", "HUB"])
def test_s2_every_round_uses_the_whole_set(rules: Rules) -> None:
    """S2: "Every round uses the whole double-N set; only the engine changes"."""
    rules = attrs.evolve(rules, hand_size=5)
    for state in _round_starts(new_game(3, rules, seed=8)):
        assert all(not train.tiles for train in state.trains)
        assert Counter(all_tiles(state)) == Counter(full_set(6))


# -- S3 / S4: engine placement and first player ------------------------------------


def test_s3_the_engines_holder_places_it_and_plays_first() -> None:
    """S3: "The player holding the round's engine places it and is the round's first
    player"."""
    state = start(["5-5 6-5 1-0", "6-6 6-4 2-0", "4-4 6-3 3-0"], rules=STANDARD6)
    assert state.engine == Tile(6, 6)
    assert state.first_player == state.current_player == 1
    assert state.hand(1) == tiles("2-0 6-4")
    assert state.boneyard_size == 28 - 9


def test_s3_nobody_holds_the_engine_players_draw_from_seat_0_until_found() -> None:
    """S3: "If nobody holds it, players take turns drawing one tile from the boneyard
    (decision: starting with seat 0 in round 1 ...) until someone draws it; that player
    places it and is first. Tiles drawn this way stay in hand"."""
    state = start(
        ["5-5 6-5 1-0", "4-4 6-4 2-0", "3-3 6-3 3-0"],
        rules=STANDARD6,
        boneyard="0-0 1-1 2-2 5-0 6-6 6-0",
    )
    assert state.first_player == state.current_player == 1
    assert state.hand(0) == tiles("0-0 1-0 5-0 5-5 6-5")  # drew 0-0, then 5-0
    assert state.hand(1) == tiles("1-1 2-0 4-4 6-4")  # drew 1-1, then the engine
    assert state.hand(2) == tiles("2-2 3-0 3-3 6-3")  # drew 2-2
    assert state.boneyard[0] == Tile(6, 0)
    assert state.boneyard_size == 28 - 9 - 5


def test_s3_in_later_rounds_the_drawing_starts_after_the_previous_first_player() -> None:
    """S3: "in later rounds with the seat after the previous round's first player, then
    clockwise". Seed 11 deals round 2's engine (5-5) to nobody."""
    state = start(
        [
            "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
            "6-6 3-1 3-2 3-3 4-0 4-1 4-2",
            "4-3 4-4 5-0 5-1 5-2 5-3 5-4",
        ],
        rules=STANDARD6,
        seed=11,
    )
    assert state.first_player == 1
    state = run(finish_round(state), NEXT)
    assert state.engine == Tile(5, 5)
    players, hand_size = 3, 7
    drawn_total = sum(len(state.hand(s)) for s in range(players)) + 1 - players * hand_size
    assert drawn_total > 0, "premise: nobody was dealt the engine"
    start_seat = 2  # the seat after round 1's first player
    drawn = Counter((start_seat + i) % players for i in range(drawn_total))
    assert state.first_player == (start_seat + drawn_total - 1) % players
    for seat in range(players):
        placed = 1 if seat == state.first_player else 0
        assert len(state.hand(seat)) == hand_size + drawn[seat] - placed
    assert state.boneyard_size == 28 - players * hand_size - drawn_total


def test_s4_the_engine_is_set_aside_before_the_deal() -> None:
    """S4: "The round's engine (only that tile) is taken out of the set and placed before
    the deal"."""
    state = new_game(3, attrs.evolve(HUB6, hand_size=5), seed=9)
    dealt = [t for s in range(3) for t in state.hand(s)] + list(state.boneyard)
    assert Tile(6, 6) not in dealt
    assert sorted(dealt) == [t for t in full_set(6) if t != Tile(6, 6)]
    assert [len(state.hand(s)) for s in range(3)] == [5, 5, 5]
    # An explicit deal under S4 must leave the engine out.
    with pytest.raises(DealError, match="6-6: the engine, which is set aside"):
        start(["6-6 6-5", "6-4 6-3"], rules=HUB6)


def test_s4_first_player_is_seat_0_then_the_next_seat_each_round() -> None:
    """S4: "The first player is chosen (decision: seat 0 in round 1, then the next seat
    clockwise each round)"."""
    starts = _round_starts(new_game(3, attrs.evolve(HUB6, hand_size=5), seed=4))
    assert [s.first_player for s in starts] == [0, 1, 2, 0, 1, 2, 0]
    assert [s.current_player for s in starts] == [0, 1, 2, 0, 1, 2, 0]


def test_v5_standard_places_the_engine_by_s3_and_hub_by_s4() -> None:
    """V5: STANDARD uses S3 (the holder starts), HUB uses S4 (engine set aside, seat 0)."""
    assert STANDARD.engine_placement is EnginePlacement.HOLDER
    assert HUB.engine_placement is EnginePlacement.SET_ASIDE
    standard = start(["5-5 6-5 1-0", "4-4 6-4 2-0", "6-6 6-3 3-0"], rules=STANDARD6)
    hub = start(["5-5 6-5 1-0", "4-4 6-4 2-0", "3-3 6-3 3-0"], rules=HUB6)
    assert (standard.first_player, hub.first_player) == (2, 0)
    assert len(standard.hand(2)) == 2  # the holder placed the engine
    assert [len(hub.hand(s)) for s in range(3)] == [3, 3, 3]


# -- S5 / S6: secrecy and reproducibility ------------------------------------------


def test_s5_hands_and_boneyard_stay_out_of_the_states_repr() -> None:
    """S5: "Hands are private ... nobody sees the boneyard's order": a state's repr shows
    neither (views are the way to show a player their hand); the counts are public."""
    state = start(["5-5 6-5 1-0", "4-4 6-4 2-0"], rules=HUB6)
    text = repr(state)
    for tile in (*state.hand(0), *state.hand(1), *state.boneyard):
        assert repr(tile) not in text
        assert str(tile) not in text
    assert [len(state.hand(s)) for s in range(2)] == [3, 3]
    assert state.boneyard_size == 27 - 6


def test_s5_a_view_shows_the_own_hand_and_only_the_counts_of_the_rest() -> None:
    """S5: "a player sees their own tiles, everyone sees how many tiles each player holds,
    nobody sees the boneyard's order" (V10: no open hands under the presets); and a seat's
    view offers that seat exactly the state's moves."""
    state = run(start(["5-5 6-5 1-0", "4-4 6-4 2-0"], rules=HUB6), on("6-5", 0))
    for seat, hand in ((0, "1-0 5-5"), (1, "2-0 4-4 6-4")):
        mine = view(state, seat)
        assert mine.hand == tiles(hand)
        assert mine.hand_sizes == (2, 3)
        assert mine.boneyard_size == 27 - 6
        assert mine.open_hands is None
        assert not hasattr(mine, "boneyard")
    assert state.current_player == 1
    assert legal_moves(view(state, 1)) == legal_moves(state) == (on("6-4", 1), on("6-4", MEXICAN))
    assert legal_moves(view(state, 0)) == ()


@pytest.mark.parametrize("rules", [STANDARD6, HUB6], ids=["STANDARD", "HUB"])
def test_s6_same_seed_same_deals_in_every_round(rules: Rules) -> None:
    """S6: "A game started from the same seed with the same rules deals the same tiles in
    every round"."""
    rules = attrs.evolve(rules, hand_size=5)
    first = _round_starts(new_game(3, rules, seed=77))
    again = _round_starts(new_game(3, rules, seed=77))
    assert len(first) == len(again) == 7
    for a, b in zip(first, again, strict=True):
        assert a == b
        assert a.boneyard == b.boneyard


def test_s6_different_seeds_deal_differently() -> None:
    """S6: the seed fixes the shuffle: other seeds deal other tiles."""
    rules = attrs.evolve(HUB6, hand_size=7)
    deals = {new_game(2, rules, seed=seed).hands for seed in range(5)}
    assert len(deals) == 5


def test_s6_a_seed_deals_the_same_tiles_everywhere() -> None:
    """S6: "... on every platform": a pinned deal guards the shuffle against drift."""
    state = new_game(2, attrs.evolve(HUB6, hand_size=7), seed=2024)
    assert state.hand(0) == tiles("1-0 1-1 3-2 5-1 5-5 6-2 6-5")
    assert state.hand(1) == tiles("4-2 5-0 5-2 5-4 6-0 6-1 6-4")


# -- V8: deal tables per preset ----------------------------------------------------


def test_v8_standard_deals_by_table_a_and_hub_by_table_b() -> None:
    """V8: STANDARD deals by Table A, HUB by Table B."""
    for players, by_a, by_b in [
        (2, (9, 15), (12, 16)),
        (5, (12, 12), (12, 14)),
        (8, (12, 11), (12, 9)),
    ]:
        standard, hub = new_game(players, STANDARD, seed=1), new_game(players, HUB, seed=1)
        assert (standard.max_pip, standard.hand_size) == by_a
        assert (hub.max_pip, hub.hand_size) == by_b


def test_v8_any_set_and_hand_size() -> None:
    """V8: "any set and hand size" with both chosen explicitly."""
    state = new_game(3, attrs.evolve(STANDARD, max_pip=10, hand_size=5), seed=1)
    assert (state.max_pip, state.hand_size, state.engine) == (10, 5, Tile(10, 10))
    assert Counter(all_tiles(state)) == Counter(full_set(10))
