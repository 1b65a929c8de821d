"""What the catalogue's variants do where their one-line description left a question.

Each question is decided in the variant's description (`variants.describe_variant`,
the variants page) and pinned here by a scenario from a small readable deal.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

from mexican_train import (
    MEXICAN,
    CallLastTile,
    Deal,
    GameState,
    InvalidStateError,
    NextRound,
    NotationError,
    Tile,
    Train,
    apply,
    build_state,
    determinize,
    format_state,
    full_set,
    legal_moves,
    new_game,
    parse_state,
    spectator_view,
    view,
)
from mexican_train.render import render_svg, render_text
from mexican_train.serialize import (
    SchemaError,
    from_json,
    state_from_json,
    to_json,
    view_from_json,
)
from mexican_train.variants import combine, describe_variant, get_variant
from scenario_helpers import DRAW, PASS, assert_refused, finish_round, on, run, start, tiles

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


# HUB's double-6 set, all dealt to three players (the engine 6-6 set aside): no boneyard.
_ALL_DEALT = [
    "6-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2",
    "3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2",
    "5-3 5-4 5-5 0-0 6-1 6-2 6-3 6-4 6-5",
]


def test_v6_voluntary_draw_with_the_boneyard_empty_a_player_may_pass_at_once() -> None:
    """V6: nothing to draw, so holding back is a Pass (with a marker, P5)."""
    state = start(_ALL_DEALT, rules=VOLUNTARY_HUB)
    assert state.boneyard_size == 0
    assert set(legal_moves(state)) == {on("6-0", 0), on("6-0", MEXICAN), PASS}
    assert run(state, PASS).train(0).marked


def test_v6_voluntary_draw_a_cycle_of_passes_that_changes_nothing_blocks_the_round() -> None:
    """V6 with E2: the round is blocked by E2's count of turns that leave the table
    unchanged, although here a player could still play: holding back is not "cannot"."""
    state = start(_ALL_DEALT, rules=VOLUNTARY_HUB)
    state = run(state, PASS, PASS, PASS)  # each pass marks a train: the table changes
    assert state.idle_turns == 0
    assert on("6-0", 0) in legal_moves(state)
    state = run(state, PASS, PASS)
    assert not state.is_round_over
    state = run(state, PASS)  # three turns in a row that changed nothing
    assert state.is_round_over
    assert state.hand(0) == tiles("1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2 6-0")


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


def test_v6_voluntary_draw_with_draw_until_playable_draws_once_holding_a_play() -> None:
    """V6 with draw-until-playable (P5): drawing again is for a player with no legal play; one
    who held back a tile that could be played draws one tile, then plays or passes."""
    rules = combine("hub", "voluntary-draw", "draw-until-playable")
    state = start(["6-5 1-1 2-2", "6-4 3-3 0-0"], rules=rules, boneyard="2-1 4-0 1-0")
    drawn = run(state, DRAW)
    assert Tile(2, 1) in drawn.hand(0)
    assert set(legal_moves(drawn)) == {on("6-5", 0), on("6-5", MEXICAN), PASS}
    assert_refused(drawn, DRAW, "P5")


def test_v6_voluntary_draw_is_described_as_played() -> None:
    text = describe_variant("voluntary-draw")
    assert "any legal tile" in text
    assert "with the boneyard empty they may pass at once" in text
    assert "(E2)" in text


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


# -- draw-until-playable with first-turn-draw (P4) ------------------------------------------

# Seat 0 places the engine (S3) and holds nothing that starts its train.
_CANNOT_START = ["6-6 1-1 2-2", "6-5 5-5 3-3"]


def test_p4_first_turn_draw_alone_draws_one_tile() -> None:
    state = start(_CANNOT_START, rules=get_variant("first-turn-draw"), boneyard="1-0 2-0 6-3")
    assert legal_moves(state) == (DRAW,)
    assert legal_moves(run(state, DRAW)) == (PASS,)


def test_p4_draw_until_playable_with_first_turn_draw_draws_until_the_train_can_start() -> None:
    """With both, the first turn's draw goes on as every other draw does: until a tile
    starts the own train, or the boneyard is empty; the chain then goes on (P4)."""
    both = combine("standard", "first-turn-draw", "draw-until-playable")
    state = start(_CANNOT_START, rules=both, boneyard="1-0 2-0 6-3")
    state = run(state, DRAW, DRAW, DRAW)
    assert legal_moves(state) == (on("6-3", 0),)
    state = run(state, on("6-3", 0))
    assert state.current_player == 1  # nothing in hand shows a 3: the chain ends
    assert not state.train(0).marked


def test_draw_until_playable_is_described_with_the_first_turn_draw() -> None:
    assert "first-turn-draw" in describe_variant("draw-until-playable")


# -- mexican-after-own-train / -all-trains (V2) ---------------------------------------------


def test_v2_mexican_after_own_train_opens_once_the_player_has_played_on_their_train() -> None:
    """V2: on hub, 6-1 may not go on the Mexican train until seat 0 has played on its train."""
    rules = combine("hub", "mexican-after-own-train")
    state = start(["6-5 6-1 2-2", "6-4 3-3 0-0"], rules=rules, boneyard="1-0 2-1")
    assert set(legal_moves(state)) == {on("6-5", 0), on("6-1", 0)}
    state = run(state, on("6-5", 0), on("6-4", 1))
    assert on("6-1", MEXICAN) in legal_moves(state)


def test_v2_mexican_after_all_trains_waits_for_every_train() -> None:
    """V2: seat 0 has played on its train, seat 1 has not: the Mexican train stays closed."""
    rules = combine("hub", "mexican-after-all-trains")
    state = start(["6-5 6-1 2-2", "3-3 0-0 1-1"], rules=rules, boneyard="1-0 2-1 4-4")
    state = run(state, on("6-5", 0), DRAW, PASS)
    assert on("6-1", MEXICAN) not in legal_moves(state)
    assert state.train(1).marked


# Decided: a train counts as begun by its owner only once the owner has played
# on it (`Train.owner_played`).  In this hub deal (engine 6-6 set aside, seat 0 first)
# seat 1 holds no 6: it draws, passes and gets a marker (P5, P6); seat 0 then lays 6-3
# on that marked train, so train 1 is started, but not by its owner.
OTHERS_ON_1 = ["6-5 6-3 5-4 6-4 0-0", "2-1 1-1 4-4 4-0 5-5", "6-2 2-0 0-5 6-1 3-3"]
OTHERS_ON_1_BONEYARD = "1-0 2-2 3-1"  # seat 1 draws 1-0, then 2-2, then 3-1
#: Seat 0 starts its train, seat 1 is marked, seat 2 starts its own, seat 0 plays on 1's.
TO_OTHERS_ON_1 = (on("6-5", 0), DRAW, PASS, on("6-2", 2), on("6-3", 1))


def _others_on_1(variant: str) -> GameState:
    state = start(OTHERS_ON_1, rules=combine("hub", variant), boneyard=OTHERS_ON_1_BONEYARD)
    state = run(state, *TO_OTHERS_ON_1)
    train = state.train(1)
    assert train.tiles == (Tile(6, 3),)
    assert train.marked
    assert not train.owner_played
    return state


def test_v2_owner_played_is_set_by_the_owners_tile_only() -> None:
    """V2: `Train.owner_played` follows who laid the tiles, not whether there are any."""
    state = _others_on_1("mexican-after-own-train")
    assert [state.train(seat).owner_played for seat in range(3)] == [True, False, True]
    assert state.train(1).is_started
    assert not state.train(MEXICAN).owner_played  # the Mexican train has no owner
    state = run(state, DRAW, PASS, on("2-0", 2), on("5-4", 0), DRAW, on("3-1", 1))
    assert state.train(1).owner_played
    assert not state.train(1).marked  # P6: the owner's tile lifts the marker
    assert not state.train(MEXICAN).owner_played


def test_v2_mexican_after_own_train_a_tile_laid_by_another_player_does_not_open_it() -> None:
    """V2: seat 1's train holds seat 0's 6-3, but seat 1 has not played on it: no 4-0 on M.

    Under plain hub 4-0 and 4-4 would go on the Mexican train; once seat 1 has played
    3-1 on its own train, they do.
    """
    state = _others_on_1("mexican-after-own-train")
    state = run(state, DRAW, PASS, on("2-0", 2), on("6-4", MEXICAN))
    assert state.current_player == 1
    assert state.train(MEXICAN).open_end == 4
    assert legal_moves(state) == (DRAW,)
    assert_refused(state, on("4-0", MEXICAN), "V2")
    plain = start(OTHERS_ON_1, rules=get_variant("hub"), boneyard=OTHERS_ON_1_BONEYARD)
    plain = run(plain, *TO_OTHERS_ON_1, DRAW, PASS, on("2-0", 2), on("6-4", MEXICAN))
    assert {on("4-0", MEXICAN), on("4-4", MEXICAN)} <= set(legal_moves(plain))
    # Seat 1 draws 3-1 and plays it on its own train: now the Mexican train is open to it.
    state = run(state, DRAW, on("3-1", 1), on("0-5", 2), on("5-4", 0))
    assert state.current_player == 1
    assert {on("4-0", MEXICAN), on("4-4", MEXICAN)} <= set(legal_moves(state))


def test_v2_mexican_after_all_trains_a_tile_laid_by_another_player_does_not_count() -> None:
    """V2: every train has a tile, but seat 1 never played on its own: M stays shut for all."""
    state = _others_on_1("mexican-after-all-trains")
    assert all(train.is_started for train in state.trains[:3])
    state = run(state, DRAW, PASS)
    assert on("6-1", MEXICAN) not in legal_moves(state)  # seat 2 holds 6-1; M ends in 6
    assert_refused(state, on("6-1", MEXICAN), "V2")
    state = run(state, on("2-0", 2))
    assert on("6-4", MEXICAN) not in legal_moves(state)  # nor for seat 0
    # Seat 1 draws 3-1 and plays it on its own train: every owner has played on theirs.
    state = run(state, on("5-4", 0), DRAW, on("3-1", 1))
    assert state.current_player == 2
    assert on("6-1", MEXICAN) in legal_moves(state)


def test_v2_mexican_after_own_train_the_first_turn_chain_is_the_owners_play() -> None:
    """V2 with P4: the tiles of the first turn's chain are the owner's; M opens on turn two."""
    rules = get_variant("mexican-after-own-train")
    state = start(["6-6 6-5 5-4 4-0", "6-4 3-3 0-0 2-1"], rules=rules)
    state = run(state, on("6-5", 0), on("5-4", 0), on("4-0", 0))
    assert state.current_player == 1
    assert state.train(0).owner_played
    assert not state.train(1).owner_played


def test_v2_owner_played_covering_a_double_on_the_own_train_is_the_owners_play() -> None:
    """V2 with D2: seat 0 lays 3-3 on seat 1's marked train; seat 1 covers it: now its own."""
    rules = combine("hub", "mexican-after-own-train")
    state = start(
        ["6-5 6-3 3-3 5-4 0-0", "2-1 1-1 4-4 4-0 5-5"], rules=rules, boneyard="1-0 2-2 3-1"
    )
    state = run(state, on("6-5", 0), DRAW, PASS, on("6-3", 1), DRAW, PASS)
    state = run(state, on("3-3", 1), on("5-4", 0))  # D1: seat 0 follows its double elsewhere
    assert state.open_doubles == (1,)
    assert state.train(1).tiles == (Tile(6, 3), Tile(3, 3))
    assert not state.train(1).owner_played
    state = run(state, DRAW, on("3-1", 1))  # D2: seat 1 draws 3-1 and covers the double
    assert state.train(1).owner_played
    assert not state.train(1).marked


def test_v2_owner_played_round_trips_through_json_notation_views_and_build_state() -> None:
    """V2: `owner_played` is part of the state, the view and every way to write them."""
    state = _others_on_1("mexican-after-own-train")
    assert state_from_json(to_json(state)) == state
    # Notation: "!" after a started train whose owner has not played on it.
    text = format_state(state)
    assert " 6-5/6-3*!/6-2/- " in text
    assert parse_state(text) == state
    # Every seat sees who played where (it happened in front of everybody).
    for seat in range(3):
        mine = view(state, seat)
        assert mine.train(1) == state.train(1)
        assert not mine.train(1).owner_played
        assert view_from_json(to_json(mine)) == mine
    assert not spectator_view(state).train(1).owner_played
    rebuilt = build_state(
        rules=state.rules, players=3, seed=state.seed, round_number=1, hands=state.hands,
        boneyard=state.boneyard, trains=state.trains, current_player=1, first_player=0,
        had_first_turn=state.had_first_turn, idle_turns=state.idle_turns,
    )  # fmt: skip
    assert rebuilt == state
    assert not determinize(view(state, 1), random.Random(5)).train(1).owner_played
    assert pickle.loads(pickle.dumps(state)) == state
    # The states differ from the one where seat 1 laid 6-3 itself.
    own = Train((Tile(6, 3),), 3, marked=True, owner_played=True)
    laid_by_1 = state.replace(trains=(state.train(0), own, *state.trains[2:]))
    assert laid_by_1.train(1).owner_played
    assert laid_by_1 != state


def test_v2_owner_played_shows_in_the_text_render() -> None:
    """V2: the table as drawn tells a started train whose owner has not played on it."""
    state = _others_on_1("mexican-after-own-train")
    lines = render_text(view(state, 1)).splitlines()
    flagged = [line for line in lines if "[owner yet to play]" in line]
    assert len(flagged) == 1
    assert "6-3 > 3 [marker]" in flagged[0]
    state = run(state, DRAW, PASS, on("2-0", 2), on("5-4", 0), DRAW, on("3-1", 1))
    assert "[owner yet to play]" not in render_text(state)


def test_v2_owner_played_left_out_of_a_document_is_whether_the_train_has_tiles() -> None:
    """V2: a document that leaves out `owner_played` reads it as whether the train has tiles.

    For an unmarked personal train that is the only consistent reading (P6); a marked
    one's tiles are taken as its owner's; the Mexican train has no owner.  The notation
    without ``!`` reads the same way.
    """
    state = _others_on_1("mexican-after-own-train")
    state = run(state, DRAW, PASS, on("2-0", 2), on("6-4", MEXICAN))
    assert state.train(MEXICAN).is_started
    document = to_json(state)
    for train in document["trains"]:
        del train["owner_played"]
    old = state_from_json(document)
    assert [train.owner_played for train in old.trains] == [True, True, True, False]
    assert old.train(1).tiles == state.train(1).tiles
    assert old == state.replace(trains=(state.train(0), old.train(1), *state.trains[2:]))
    text = format_state(state)
    assert "6-3*!" in text
    assert "!" not in text.split()[6].split("/")[3]  # never on the Mexican train
    assert parse_state(text.replace("6-3*!", "6-3*")) == old


def test_v2_owner_played_that_no_play_could_give_is_refused() -> None:
    """V2: the readers refuse an owner's play on the Mexican train or on an empty train, and
    an unmarked started train whose owner never played on it (P6: only they lift a marker)."""
    state = _others_on_1("mexican-after-own-train")
    unmarked = to_json(state)
    unmarked["trains"][1]["marked"] = False
    fresh = start(OTHERS_ON_1, rules=state.rules)
    mexican = to_json(fresh)
    mexican["trains"][3]["owner_played"] = True
    empty = to_json(fresh)
    empty["trains"][0]["owner_played"] = True
    for document, index in ((unmarked, 1), (mexican, 3), (empty, 0)):
        with pytest.raises(SchemaError) as info:
            from_json(document)
        assert info.value.path == f"$.trains[{index}].owner_played", info.value
    with pytest.raises(InvalidStateError) as built:
        build_state(
            rules=state.rules, players=3, seed=state.seed, round_number=1, hands=state.hands,
            boneyard=state.boneyard, current_player=1, first_player=0,
            had_first_turn=state.had_first_turn, idle_turns=state.idle_turns,
            trains=(state.train(0), Train((Tile(6, 3),), 3, owner_played=False), *state.trains[2:]),
        )  # fmt: skip
    assert built.value.field == "trains[1].owner_played", built.value
    with pytest.raises(NotationError):
        parse_state(format_state(state).replace("6-3*!", "6-3!"))


def test_v2_owner_played_starts_false_on_every_train_each_round() -> None:
    """V2: the next round's trains are fresh: nobody has played on their own train yet."""
    state = finish_round(_others_on_1("mexican-after-own-train"))
    assert any(train.owner_played for train in state.trains)  # the finished table shows it
    state = apply(state, NextRound())
    assert state.round_number == 2
    assert not any(train.owner_played for train in state.trains)


@pytest.mark.parametrize(
    ("rules", "flagged"),
    [
        ("hub", False),
        ("standard", False),
        ("train-dominoes", False),
        ("mexican-after-own-train", True),
        ("mexican-after-all-trains", True),
    ],
)
def test_v2_owner_yet_to_play_is_shown_only_where_the_mexican_train_rule_reads_it(
    rules: str, flagged: bool
) -> None:
    """V2: who laid the tiles of a started train matters only where the Mexican train opens
    after one's own train (or everyone's): elsewhere the flag would explain nothing."""
    state = _others_on_1("mexican-after-own-train")
    state = state.replace(
        rules=attrs.evolve(state.rules, mexican_train=get_variant(rules).mexican_train)
    )
    assert not state.train(1).owner_played
    assert ("[owner yet to play]" in render_text(view(state, 1))) is flagged
    assert ("owner yet to play" in render_svg(view(state, 1))) is flagged
