"""What the catalogue's variants do where their one-line description left a question (issue 14).

Each question is decided in the variant's description (`variants.describe_variant`,
the variants page) and pinned here by a scenario from a small readable deal.
"""

from __future__ import annotations

import attrs

from mexican_train import (
    MEXICAN,
    CallLastTile,
    Deal,
    GameState,
    Tile,
    apply,
    full_set,
    legal_moves,
    new_game,
)
from mexican_train.variants import combine, describe_variant, get_variant
from scenario_helpers import DRAW, PASS, on, run, start

VOLUNTARY_HUB = combine("hub", "voluntary-draw")


# -- voluntary-draw (P7 off, V6) --------------------------------------------------------


def test_v6_voluntary_draw_a_player_who_can_play_may_draw_but_not_pass() -> None:
    """V6: with tiles in the boneyard, holding back means drawing; Pass is not offered."""
    state = start(["6-5 1-1 2-2", "6-4 3-3 0-0"], rules=VOLUNTARY_HUB, boneyard="5-5 4-0")
    assert set(legal_moves(state)) == {on("6-5", 0), on("6-5", MEXICAN), DRAW}


def test_v6_voluntary_draw_after_drawing_any_legal_tile_may_be_played_or_the_turn_passed() -> None:
    """V6: the drawn tile (5-5) need not be the one played; 6-5 from the hand may go, or Pass."""
    state = start(["6-5 1-1 2-2", "6-4 3-3 0-0"], rules=VOLUNTARY_HUB, boneyard="5-5 4-0")
    drawn = run(state, DRAW)
    assert Tile(5, 5) in drawn.hand(0)
    assert set(legal_moves(drawn)) == {on("6-5", 0), on("6-5", MEXICAN), PASS}
    passed = run(drawn, PASS)
    assert passed.train(0).marked  # P5: a turn ended without a tile places a marker


def test_v6_voluntary_draw_with_the_boneyard_empty_a_player_may_pass_at_once() -> None:
    """V6: nothing to draw, so holding back is a Pass (with a marker, P5)."""
    hands = [
        "6-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2",
        "3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2",
        "5-3 5-4 5-5 0-0 6-1 6-2 6-3 6-4 6-5",
    ]
    state = start(hands, rules=VOLUNTARY_HUB)
    assert state.boneyard_size == 0
    assert set(legal_moves(state)) == {on("6-0", 0), on("6-0", MEXICAN), PASS}
    assert run(state, PASS).train(0).marked


def test_v6_voluntary_draw_a_player_may_draw_instead_of_following_their_double() -> None:
    """V6 with D1: after 5-5, drawing is allowed though 5-4 follows; then Pass leaves it open."""
    state = start(["6-5 5-5 5-4", "6-4 3-3 0-0"], rules=VOLUNTARY_HUB, boneyard="2-1 4-0 1-0")
    state = run(state, on("6-5", 0), on("6-4", 1), on("5-5", 0))
    assert set(legal_moves(state)) == {on("5-4", 0), DRAW}
    state = run(state, DRAW, PASS)
    assert state.open_doubles == (0,)  # D2: the double binds the next player
    assert state.train(0).marked


def test_v6_voluntary_draw_in_a_p4_first_turn_a_player_may_pass_but_never_draws() -> None:
    """V6 with P4: nobody draws in the first turn, so holding back is a Pass with a marker."""
    state = start(["6-6 6-5 5-4", "6-4 3-3 0-0"], rules=get_variant("voluntary-draw"))
    assert set(legal_moves(state)) == {on("6-5", 0), PASS}
    assert run(state, PASS).train(0).marked


def test_v6_voluntary_draw_is_described_as_played() -> None:
    text = describe_variant("voluntary-draw")
    assert "any legal tile" in text
    assert "with the boneyard empty they may pass at once" in text


# -- cover-own-double with a dead double (D1, D4) -----------------------------------------

COVER_OWN_SMALL = attrs.evolve(combine("hub", "cover-own-double"), max_pip=4, hand_size=4)


def _dead_double_game() -> GameState:
    hands = [["2-0", "3-3", "4-0", "4-3"], ["0-0", "1-1", "3-0", "4-1"]]
    boneyard = ["4-2", "1-0", "2-2", "2-1", "3-2", "3-1"]
    assert len({*hands[0], *hands[1], *boneyard, "4-4"}) == len(full_set(4))
    state = new_game(2, COVER_OWN_SMALL, seed=0, deal=Deal(hands, boneyard))
    state = run(
        state,
        on("4-0", 0), on("4-1", 1), on("4-3", MEXICAN), on("3-0", MEXICAN), on("2-0", MEXICAN),
        on("1-1", 1), DRAW, PASS, DRAW, on("1-0", 1),
    )  # fmt: skip
    return state


def test_d4_cover_own_double_a_dead_double_need_not_be_covered_by_its_player() -> None:
    """D4 over cover-own-double: 0-0 is dead (4-0, 3-0, 2-0 and 1-0 are all on the table),
    so its player follows it anywhere they may play (D1), here 4-2 on the Mexican train."""
    state = run(_dead_double_game(), on("0-0", 1))
    assert legal_moves(state) == (on("4-2", MEXICAN),)
    after = run(state, on("4-2", MEXICAN))
    assert after.open_doubles == ()  # D4: the dead double binds nobody


def test_d1_cover_own_double_a_live_double_must_be_covered_by_its_player() -> None:
    """The same player with a live double: the next tile goes on it and nowhere else."""
    state = start(["6-5 5-5 5-4", "6-4 3-3 0-0"], rules=combine("hub", "cover-own-double"))
    state = run(state, on("6-5", 0), on("6-4", 1), on("5-5", 0))
    assert legal_moves(state) == (on("5-4", 0),)


def test_cover_own_double_is_described_with_the_dead_double() -> None:
    assert "nothing can cover" in describe_variant("cover-own-double")


# -- the last-tile call during a first-turn chain (P4) --------------------------------------

LAST_TILE = get_variant("last-tile-call")


def _chain_to_two_tiles() -> GameState:
    state = start(
        ["6-6 6-5 5-4 4-3 1-0", "2-2 3-3 0-0 2-0 1-1"], rules=LAST_TILE, boneyard="2-1 3-1"
    )
    return run(state, on("6-5", 0), on("5-4", 0))


def test_p4_last_tile_call_is_offered_during_a_first_turn_chain() -> None:
    """P4 with the call: holding two tiles in the middle of the chain, the call is offered."""
    state = _chain_to_two_tiles()
    assert CallLastTile() in legal_moves(state)


def test_p4_a_first_turn_chain_that_ends_with_one_tile_uncalled_draws_the_penalty() -> None:
    """The chain ends by itself after 4-3 (1-0 does not fit): one tile, uncalled, draws two."""
    state = run(_chain_to_two_tiles(), on("4-3", 0))
    assert state.hand(0) == (Tile(1, 0), Tile(2, 1), Tile(3, 1))
    assert state.current_player == 1


def test_p4_a_first_turn_chain_called_in_time_draws_nothing() -> None:
    state = apply(run(_chain_to_two_tiles(), CallLastTile()), on("4-3", 0))
    assert state.hand(0) == (Tile(1, 0),)


def test_last_tile_call_is_described_with_the_first_turn() -> None:
    assert "first turn" in describe_variant("last-tile-call")


# -- mexican-after-own-train / -all-trains (V2) ---------------------------------------------


def test_v2_mexican_after_own_train_opens_once_the_players_train_has_a_tile() -> None:
    """V2: on hub, 6-1 may not go on the Mexican train until seat 0 has started its train."""
    rules = combine("hub", "mexican-after-own-train")
    state = start(["6-5 6-1 2-2", "6-4 3-3 0-0"], rules=rules, boneyard="1-0 2-1")
    assert set(legal_moves(state)) == {on("6-5", 0), on("6-1", 0)}
    state = run(state, on("6-5", 0), on("6-4", 1))
    assert on("6-1", MEXICAN) in legal_moves(state)


def test_v2_mexican_after_all_trains_waits_for_every_train() -> None:
    """V2: seat 0's train is started, seat 1's is not: the Mexican train stays closed."""
    rules = combine("hub", "mexican-after-all-trains")
    state = start(["6-5 6-1 2-2", "3-3 0-0 1-1"], rules=rules, boneyard="1-0 2-1 4-4")
    state = run(state, on("6-5", 0), DRAW, PASS)
    assert on("6-1", MEXICAN) not in legal_moves(state)
    assert state.train(1).marked
