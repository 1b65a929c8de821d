"""The checked chance API: `build_state`, `draw_tile`, `next_round`, `reorder_boneyard`.

Each one fixes an outcome the engine otherwise takes from the seed or the boneyard's
order, and each is checked like `apply`: these tests pin the round trips with the
engine's own choices, and that every refusal is typed and changes nothing.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    STANDARD,
    Deal,
    DealError,
    Draw,
    FirstTurn,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    NextRound,
    Pass,
    Play,
    Rules,
    Tile,
    TileNotationError,
    Train,
    apply,
    build_state,
    draw_tile,
    full_set,
    legal_moves,
    new_game,
    next_round,
    reorder_boneyard,
)
from mexican_train._core.engine import _pool
from mexican_train._core.rules import EnginePlacement
from mexican_train._core.shuffle import shuffled
from mexican_train._positions.check import Path, Problem, _check_tiles, _tiles_fit, check_state
from mexican_train._positions.fields import fields_of
from mexican_train.variants import get_variant
from strategies import chance_positions, histories, positions, variant_tables


def parts(state: GameState) -> dict[str, Any]:
    """Every part `build_state` takes, read from *state*."""
    return {
        "rules": state.rules,
        "players": state.players,
        "seed": state.seed,
        "round_number": state.round_number,
        "hands": state.hands,
        "boneyard": state.boneyard,
        "trains": state.trains,
        "current_player": state.current_player,
        "first_player": state.first_player,
        "had_first_turn": state.had_first_turn,
        "turn_tiles": state.turn_tiles,
        "has_drawn": state.has_drawn,
        "turn_doubles": state.turn_doubles,
        "open_doubles": state.open_doubles,
        "idle_turns": state.idle_turns,
        "scores": state.scores,
        "round_scores": state.round_scores,
        "last_tile_called": state.last_tile_called,
    }


def _start() -> GameState:
    return new_game(4, HUB, seed=11)


# -- build_state ---------------------------------------------------------------------------


@given(histories(max_moves=200))
def test_every_state_of_a_random_game_rebuilt_from_its_parts_is_equal(
    states: list[GameState],
) -> None:
    for state in states:
        rebuilt = build_state(**parts(state))
        assert rebuilt == state
        assert hash(rebuilt) == hash(state)
        assert legal_moves(rebuilt) == legal_moves(state)


@given(positions(variant_tables(max_pip=9, max_rounds=2), max_moves=150))
def test_a_variant_state_rebuilt_from_its_parts_is_equal(state: GameState) -> None:
    """Open hands, first turns (P4), last-tile calls and the other switches round-trip too."""
    assert build_state(**parts(state)) == state


def test_build_state_sorts_the_hands_and_reads_tiles_written_as_text() -> None:
    state = _start()
    given_parts = parts(state)
    given_parts["hands"] = [[str(t) for t in reversed(hand)] for hand in state.hands]
    given_parts["boneyard"] = [str(t) for t in state.boneyard]
    assert build_state(**given_parts) == state


def test_s4_build_state_defaults_the_first_player_to_the_rotation() -> None:
    state = _start()
    given_parts = parts(state)
    del given_parts["first_player"]
    assert build_state(**given_parts).first_player == 0


def test_build_state_defaults_the_turn_facts_to_the_start_of_a_turn() -> None:
    state = _start()
    built = build_state(
        rules=HUB, players=4, seed=11, round_number=1, hands=state.hands,
        boneyard=state.boneyard, trains=state.trains, current_player=0,
    )  # fmt: skip
    assert built.had_first_turn == (True,) * 4
    assert (built.turn_tiles, built.has_drawn, built.idle_turns) == (0, False, 0)
    assert (built.turn_doubles, built.open_doubles, built.last_tile_called) == ((), (), False)
    assert built.scores == (0, 0, 0, 0)
    assert built.round_scores == ()


def test_e3_build_state_defaults_the_scores_to_the_sums_of_the_rounds() -> None:
    state = _start()
    while state.round_number == 1:
        state = apply(state, legal_moves(state)[0])
    given_parts = parts(state)
    del given_parts["scores"]
    assert build_state(**given_parts).scores == state.scores


def test_s3_build_state_needs_the_first_player() -> None:
    state = new_game(4, STANDARD, seed=11)
    given_parts = parts(state)
    del given_parts["first_player"]
    with pytest.raises(InvalidStateError) as error:
        build_state(**given_parts)
    assert error.value.field == "first_player"
    assert "S3" in error.value.reason


@given(positions(max_moves=150), st.data())
def test_the_quick_look_at_the_tiles_agrees_with_the_full_check(
    state: GameState, data: st.DataObject
) -> None:
    """check_state reads the tiles by a mask first, and in full only when wrong.

    Whatever is done to the tiles (one dropped, repeated, moved, foreign, or also on
    the table), the quick look finds them in order exactly when the full check does, and
    check_state then reports what the full check finds.
    """
    hands = [list(hand) for hand in state.hands]
    boneyard = list(state.boneyard)
    groups = [*hands, boneyard]
    change = data.draw(st.sampled_from(["none", "drop", "repeat", "move", "foreign", "table"]))
    tiles = [(g, i) for g, group in enumerate(groups) for i in range(len(group))]
    if change != "none" and tiles:
        g, i = data.draw(st.sampled_from(tiles))
        tile = groups[g][i]
        target = groups[data.draw(st.integers(0, len(groups) - 1))]
        if change == "drop":
            del groups[g][i]
        elif change == "repeat":
            target.append(tile)
        elif change == "move":
            del groups[g][i]
            target.append(tile)
        elif change == "foreign":
            target.append(Tile(state.max_pip + 1, data.draw(st.integers(0, state.max_pip + 1))))
        else:  # a tile of the table (the engine, or a train's) in a hand or the boneyard too
            table = [state.engine, *(t for train in state.trains for t in train.tiles)]
            target.append(data.draw(st.sampled_from(table)))
    fields = attrs.evolve(
        fields_of(state), hands=tuple(map(tuple, groups[:-1])), boneyard=tuple(groups[-1])
    )
    located: list[tuple[Path, Tile]] = [
        (("hands", seat, i), tile)
        for seat, hand in enumerate(fields.hands)
        for i, tile in enumerate(hand)
    ]
    located += [(("boneyard", i), tile) for i, tile in enumerate(fields.boneyard)]
    try:
        _check_tiles(fields.max_pip, fields.engine, fields.trains, located, 0, ("boneyard",))
    except Problem as problem:
        found: Problem | None = problem
    else:
        found = None
    groups_read = (*fields.hands, fields.boneyard)
    assert _tiles_fit(fields.max_pip, fields.engine, groups_read, fields.trains, 0) == (not found)
    assert (found is None) == (change in ("none", "move") or not tiles)
    if found is not None:  # check_state reports what the full check finds, where it finds it
        with pytest.raises(Problem) as raised:
            check_state(fields)
        assert (raised.value.path, raised.value.message) == (found.path, found.message)


def test_build_state_refuses_a_missing_tile_and_names_it() -> None:
    state = _start()
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "boneyard": state.boneyard[1:]})
    assert error.value.field == "boneyard"
    assert str(state.boneyard[0]) in error.value.reason


def test_build_state_refuses_a_tile_shown_twice() -> None:
    state = _start()
    hands = (state.hands[0] + (state.boneyard[0],), *state.hands[1:])
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "hands": hands})
    assert error.value.field.startswith("boneyard[")
    assert "appears twice" in error.value.reason


def test_p2_build_state_refuses_a_train_that_does_not_join_the_engine() -> None:
    state = _start()
    tile = next(t for t in state.hands[0] if not t.shows(12))
    hands = (tuple(t for t in state.hands[0] if t is not tile), *state.hands[1:])
    trains = (Train((tile,), tile.high), *state.trains[1:])
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "hands": hands, "trains": trains})
    assert error.value.field == "trains[0].tiles[0]"
    assert "P2" in error.value.reason


def test_e3_build_state_refuses_totals_that_do_not_add_up() -> None:
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(_start()), "scores": (0, 0, 0, 5)})
    assert error.value.field == "scores"


def test_s1_build_state_refuses_a_player_count_the_deal_table_lacks() -> None:
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(_start()), "players": 13})
    assert error.value.field == "players"
    assert "13" in error.value.reason


def test_s2_build_state_refuses_a_round_the_set_does_not_have() -> None:
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(_start()), "round_number": 14})
    assert error.value.field == "round_number"


def _after(state: GameState, *moves: object) -> GameState:
    for move in moves:
        state = apply(state, move)  # type: ignore[arg-type]
    return state


def _first_play(state: GameState) -> GameState:
    return apply(state, next(m for m in legal_moves(state) if isinstance(m, Play)))


def test_p4_build_state_refuses_a_draw_on_a_first_turn_that_never_draws() -> None:
    # Rulebook A's first turn (P4) never draws: has_drawn there was accepted.
    state = new_game(2, STANDARD, seed=1)
    assert state.had_first_turn == (False, False)
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "has_drawn": True})
    assert error.value.field == "has_drawn"
    assert "first turn" in error.value.reason
    assert "(P4)" in error.value.reason


def test_p4_build_state_refuses_a_first_turn_draw_after_its_first_tile() -> None:
    # Where the first turn may draw (first-turn-draw), it draws before any tile: a tile
    # played after the draw goes on with the turn and clears has_drawn.
    state = _first_play(new_game(2, get_variant("first-turn-draw"), seed=1))
    assert (state.turn_tiles, state.had_first_turn) == (1, (False, False))
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "has_drawn": True})
    assert error.value.field == "has_drawn"
    assert "before its first tile" in error.value.reason


def test_p4_build_state_accepts_the_draw_of_a_first_turn_that_may_draw() -> None:
    rules = get_variant("first-turn-draw")
    for seed in range(200):
        state = new_game(2, rules, seed=seed)
        if Draw() in legal_moves(state):
            drawn = apply(state, Draw())
            assert build_state(**parts(drawn)) == drawn
            return
    pytest.fail("no deal in 200 leaves the first player unable to start their train")


def _first_turn_double() -> GameState:
    """STANDARD on a double-6 set: seat 0 places the engine and lays 6-5 and 5-5 in its
    first turn (P4), with 5-3 still to lay."""
    rules = attrs.evolve(STANDARD, max_pip=6, hand_size=5)
    hands = [["6-6", "6-5", "5-5", "5-3", "2-1"], ["4-1", "4-0", "3-1", "2-0", "0-0"]]
    dealt = {Tile.parse(t) for hand in hands for t in hand}
    rest = [t for t in full_set(6) if t not in dealt]
    state = new_game(2, rules, seed=1, deal=Deal(hands, rest))
    return _after(state, Play(Tile(6, 5), 0), Play(Tile(5, 5), 0))


def test_p4_build_state_refuses_a_double_to_follow_on_a_first_turn() -> None:
    # P4: doubles played in a first turn create no obligation, so none waits to be followed.
    state = _first_turn_double()
    assert (state.turn_tiles, state.turn_doubles) == (2, ())
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "turn_doubles": (0,)})
    assert error.value.field == "turn_doubles"
    assert "(P4)" in error.value.reason


def test_p4_build_state_refuses_an_open_double_before_every_first_turn() -> None:
    # P4: a double that ends a first-turn train is never open, and every first turn comes
    # before any other turn (P1): while one is still to come, no double is open.
    state = _after(_first_turn_double(), Pass())
    assert (state.current_player, state.had_first_turn, state.open_doubles) == (
        1,
        (True, False),
        (),
    )
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "open_doubles": (0,)})
    assert error.value.field == "open_doubles"
    assert "(P4)" in error.value.reason


def test_p4_build_state_refuses_a_first_turn_chain_with_no_tile_to_lay() -> None:
    # P4: the first turn "ends by itself when ... no tile of the hand fits the end of the
    # player's own train": seat 0's train ends in 5, and without its 5-3 it would be over.
    state = _first_turn_double()
    hand = tuple(tile for tile in state.hand(0) if tile != Tile(5, 3))
    changed = {"hands": (hand, state.hand(1)), "boneyard": (*state.boneyard, Tile(5, 3))}
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), **changed})
    assert error.value.field == "turn_tiles"
    assert "(P4)" in error.value.reason


def test_v1_build_state_refuses_a_single_tile_first_turn_that_goes_on() -> None:
    # single-tile-first-turn (V1): the first turn's one tile ends it.
    state = _first_turn_double()
    rules = attrs.evolve(state.rules, first_turn=FirstTurn(chain=False))
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "rules": rules})
    assert error.value.field == "turn_tiles"
    assert "(P4, V1)" in error.value.reason


def test_p5a_build_state_refuses_an_ordinary_turn_that_goes_on_after_its_tile() -> None:
    # P5a: an ordinary turn ends by itself after its tile, unless a double is to be
    # followed (D1): seat 0's second turn cannot have laid a tile and still be under way.
    state = _after(_first_turn_double(), Play(Tile(5, 3), 0), Pass())
    assert (state.current_player, state.had_first_turn, state.turn_doubles) == (0, (True, True), ())
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "turn_tiles": 1})
    assert error.value.field == "turn_tiles"
    assert "(P5a)" in error.value.reason


@pytest.mark.parametrize("rules", [STANDARD, HUB], ids=["standard", "hub"])
def test_e2_build_state_refuses_unchanged_turns_before_every_first_turn(rules: Rules) -> None:
    # E2: every first turn changes the table, laying a tile or marking the player's own
    # train, unmarked until then (P6): no turn that changed nothing is counted yet.
    state = new_game(3, rules, seed=1)
    assert not any(state.had_first_turn)
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "idle_turns": 1})
    assert error.value.field == "idle_turns"
    assert "(E2)" in error.value.reason


def test_p7_build_state_refuses_a_draw_by_a_player_with_several_tiles_to_play() -> None:
    # HUB has no special first turn: seat 0 holds three tiles that fit, so it drew nothing.
    state = new_game(2, HUB, seed=1)
    playable = {m.tile for m in legal_moves(state) if isinstance(m, Play)}
    assert len(playable) == 3
    with pytest.raises(InvalidStateError) as error:
        build_state(**{**parts(state), "has_drawn": True})
    assert error.value.field == "has_drawn"
    assert "3 tiles of the hand have a legal play" in error.value.reason
    assert "(P7)" in error.value.reason


def test_p7_build_state_accepts_every_draw_of_a_game_one_tile_playable_or_none() -> None:
    state = new_game(4, HUB, seed=3)
    drawn = 0
    while state.round_number == 1 and drawn < 20:
        moves = legal_moves(state)
        state = apply(state, Draw() if Draw() in moves else moves[0])
        if state.has_drawn:
            drawn += 1
            assert build_state(**parts(state)) == state
    assert drawn


def test_v6_build_state_accepts_a_voluntary_draw_with_tiles_to_play() -> None:
    state = _first_play(new_game(2, get_variant("voluntary-draw"), seed=1))
    while state.current_player is not None and Draw() not in legal_moves(state):
        state = _first_play(state)
    state = apply(state, Draw())
    assert len({m.tile for m in legal_moves(state) if isinstance(m, Play)}) > 1
    assert build_state(**parts(state)) == state


@pytest.mark.parametrize(
    ("name", "value"),
    [("seed", "11"), ("players", 4.0), ("current_player", "0"), ("has_drawn", 0),
     ("hands", "12-5"), ("trains", [(Tile(12, 5),)] * 5), ("turn_doubles", [None]),
     ("had_first_turn", "1111")],
)  # fmt: skip
def test_build_state_refuses_a_part_of_the_wrong_kind_with_type_error(
    name: str, value: object
) -> None:
    with pytest.raises(TypeError, match=name.split("_")[0]):
        build_state(**{**parts(_start()), name: value})


@pytest.mark.parametrize(
    ("name", "index", "written", "where"),
    [("hands", 1, "12-x", "hands[1][3]"), ("boneyard", 0, "99-1", "boneyard[0]")],
)
def test_build_state_refuses_a_tile_written_wrong_naming_where(
    name: str, index: int, written: str, where: str
) -> None:
    """A tile written as text is read as `Tile.parse` reads it; a wrong one is told where."""
    built = parts(_start())
    tiles: Any = [list(item) for item in built[name]] if name == "hands" else list(built[name])
    if name == "hands":
        tiles[index][3] = written
    else:
        tiles[index] = written
    with pytest.raises(TileNotationError) as caught:
        build_state(**{**built, name: tiles})
    assert str(caught.value).startswith(f"{where}: ")
    assert repr(written) in str(caught.value)


def test_an_invalid_state_error_is_a_value_error() -> None:
    assert issubclass(InvalidStateError, ValueError)


# -- reorder_boneyard ----------------------------------------------------------------------


@given(st.data())
def test_reorder_boneyard_puts_the_front_first_and_keeps_the_rest_in_order(
    data: st.DataObject,
) -> None:
    state = _start()
    front = data.draw(st.lists(st.sampled_from(state.boneyard), unique=True, max_size=5))
    after = reorder_boneyard(state, front)
    assert after.boneyard[: len(front)] == tuple(front)
    assert after.boneyard[len(front) :] == tuple(t for t in state.boneyard if t not in front)
    assert after.replace(boneyard=state.boneyard) == state


def test_reorder_boneyard_refuses_a_tile_outside_the_boneyard() -> None:
    state = _start()
    before = pickle.dumps(state)
    with pytest.raises(InvalidArgumentError, match="not in the boneyard"):
        reorder_boneyard(state, [state.hands[1][0]])
    assert pickle.loads(before) == state


def test_reorder_boneyard_refuses_a_tile_named_twice() -> None:
    state = _start()
    with pytest.raises(InvalidArgumentError, match="twice"):
        reorder_boneyard(state, [state.boneyard[3], state.boneyard[3]])


# -- draw_tile -----------------------------------------------------------------------------


@given(chance_positions(Draw()))
def test_p5_draw_tile_with_the_top_tile_is_the_engines_draw(state: GameState) -> None:
    assert draw_tile(state, state.boneyard[0]) == apply(state, Draw())


@given(chance_positions(Draw()), st.data())
def test_p5_draw_tile_takes_the_chosen_tile_and_changes_nothing_else(
    state: GameState, data: st.DataObject
) -> None:
    tile = data.draw(st.sampled_from(state.boneyard))
    seat = state.current_player
    assert seat is not None
    after = draw_tile(state, tile)
    assert after.hand(seat) == tuple(sorted((*state.hand(seat), tile)))
    assert after.boneyard == tuple(t for t in state.boneyard if t is not tile)
    engines = apply(state, Draw())
    assert after.replace(hands=engines.hands, boneyard=engines.boneyard) == engines


def test_p7_draw_tile_is_refused_when_a_draw_is_not_legal() -> None:
    state = _start()  # seat 0 holds playable tiles: P7 forbids drawing
    with pytest.raises(IllegalMoveError) as error:
        draw_tile(state, state.boneyard[0])
    with pytest.raises(IllegalMoveError) as engines:
        apply(state, Draw())
    assert error.value.reason == engines.value.reason
    assert state == _start()


@given(chance_positions(Draw()))
def test_draw_tile_refuses_a_tile_not_in_the_boneyard(state: GameState) -> None:
    tile = state.trains[-1].tiles[0] if state.trains[-1].tiles else state.engine
    with pytest.raises(InvalidArgumentError, match="not in the boneyard"):
        draw_tile(state, tile)


def test_draw_tile_refuses_something_that_is_not_a_tile() -> None:
    with pytest.raises(TypeError, match="tile"):
        draw_tile(_start(), 12)  # type: ignore[arg-type]


# -- next_round ----------------------------------------------------------------------------


def _seeded_deal(state: GameState) -> Deal:
    # S6: the deal NextRound takes from the seed, written out.
    set_aside = state.rules.engine_placement is EnginePlacement.SET_ASIDE
    pip = state.max_pip - state.round_number if not state.rules.ascending else state.round_number
    pool = _pool(state.max_pip, Tile(pip, pip) if set_aside else None)
    order = shuffled(pool, state.seed, state.round_number + 1)
    n = state.hand_size
    return Deal(
        [order[i * n : (i + 1) * n] for i in range(state.players)], order[state.players * n :]
    )


@given(chance_positions(NextRound()))
def test_e4_next_round_with_the_seeded_deal_is_the_engines_next_round(state: GameState) -> None:
    assert next_round(state, _seeded_deal(state)) == apply(state, NextRound())


def test_e4_next_round_is_refused_during_a_round() -> None:
    state = _start()
    with pytest.raises(IllegalMoveError) as error:
        next_round(state, _seeded_deal(state))
    assert error.value.reason.startswith("E4")


def test_e4_next_round_is_refused_once_the_game_is_over() -> None:
    state = new_game(2, attrs.evolve(HUB, rounds=1), seed=2)
    while not state.is_over:
        state = apply(state, legal_moves(state)[0])
    with pytest.raises(IllegalMoveError):
        next_round(state, Deal([[], []], []))


def test_s4_next_round_refuses_a_deal_holding_the_engine() -> None:
    state = new_game(2, attrs.evolve(HUB, rounds=2), seed=2)
    while legal_moves(state) != (NextRound(),):
        state = apply(state, legal_moves(state)[0])
    deal = _seeded_deal(state)
    boneyard = (*deal.boneyard, Tile(11, 11))
    with pytest.raises(DealError, match="11-11"):
        next_round(state, Deal(deal.hands, boneyard))
