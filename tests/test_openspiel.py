"""Mexican Train as an OpenSpiel game: conformance, chance nodes, observations.

OpenSpiel's own ``random_sim_test`` checks the game as a whole (serialization
included); the tests below check what it cannot: that every tile dealt or drawn
is one chance node (S1, S3, P5, the last-tile penalty), that chance outcomes are
the unseen tiles, equally likely, and that a seat observes only what it may know
(S5).  ``random_sim_test`` plays 5 games per configuration under the ``ci``
Hypothesis profile (what CI runs) and 1 under ``dev``, to keep the default suite quick.
"""

from __future__ import annotations

import os
import random
import sys

import pytest

if sys.version_info < (3, 11):
    pytest.skip(
        "open_spiel publishes wheels for Python 3.11 and later only: the openspiel extra "
        "is not installed on this Python",
        allow_module_level=True,
    )

import numpy as np
import pyspiel

from mexican_train import (
    Draw,
    IllegalMoveError,
    InvalidArgumentError,
    Tile,
    UnknownVariantError,
    legal_moves,
    view,
)
from mexican_train.openspiel import GAME_NAME, MexicanTrainState
from mexican_train.rl import ActionCodec, ObservationCodec, round_rewards, tile_index

SIMS = 5 if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else 1


def load(players: int, rules: str) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules})


def step_randomly(state: MexicanTrainState, rng: random.Random) -> None:
    """Apply one random chance outcome or legal action."""
    if state.is_chance_node():
        outcomes, odds = zip(*state.chance_outcomes(), strict=False)
        state.apply_action(rng.choices(outcomes, odds)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", ["standard", "hub"])
def test_openspiel_random_sim_test(rules: str, players: int) -> None:
    """OpenSpiel's random_sim_test passes, with serialization, for both presets."""
    pyspiel.random_sim_test(load(players, rules), num_sims=SIMS, serialize=True, verbose=False)


@pytest.mark.parametrize("rules", ["draw-until-playable", "last-tile-call", "open-hands"])
def test_openspiel_random_sim_test_of_variants_with_more_chance(rules: str) -> None:
    """Draws until playable, penalty draws and open hands pass random_sim_test too."""
    pyspiel.random_sim_test(load(3, rules), num_sims=1, serialize=True, verbose=False)


def test_s1_s4_one_chance_node_per_tile_dealt() -> None:
    """S1, S4: HUB deals 4 x 15 tiles, one chance node each, the engine set aside."""
    state = load(4, "hub").new_initial_state()
    nodes = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) == 90 - nodes  # the set less the engine, less dealt
        state.apply_action(state.chance_outcomes()[0][0])
        nodes += 1
    assert nodes == 60
    assert state.game_state is not None
    assert state.game_state.boneyard_size == 30


def test_s3_the_engine_search_draws_are_chance_nodes() -> None:
    """S3: with the engine left in the boneyard, each search draw is a chance node."""
    state = load(2, "standard").new_initial_state()  # double-9: 55 tiles, 15 each
    engine = tile_index(Tile(9, 9))
    while state.is_chance_node():
        outcomes = [action for action, _ in state.chance_outcomes()]
        # Deal and search the lowest tiles first, so the engine comes last of all.
        state.apply_action(min(a for a in outcomes if a != engine) if len(outcomes) > 1 else engine)
    game_state = state.game_state
    assert game_state is not None
    assert game_state.boneyard_size == 0  # every other tile was drawn looking for 9-9
    assert game_state.first_player == (55 - 30 - 1) % 2  # seat 0 drew first; 25th draw
    assert sum(len(game_state.hand(seat)) for seat in range(2)) == 54


def test_p5_a_draw_is_a_chance_node_landing_in_the_hand() -> None:
    """P5: the Draw action is followed by one chance node; its tile joins the drawer's hand."""
    rng = random.Random(3)
    state = load(4, "hub").new_initial_state()
    while True:
        step_randomly(state, rng)
        game_state = state.game_state
        if (
            game_state is not None
            and not state.is_chance_node()
            and Draw() in legal_moves(game_state)
        ):
            break
    seat = state.current_player()
    assert game_state is not None
    state.apply_action(ActionCodec(game_state.rules, 4).encode(Draw(), seat))
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {tile_index(t) for t in game_state.boneyard}
    assert all(odds == pytest.approx(1 / game_state.boneyard_size) for odds in outcomes.values())
    tile = max(outcomes)
    state.apply_action(tile)
    after = state.game_state
    assert after is not None
    assert tile in {tile_index(t) for t in after.hand(seat)}
    assert after.boneyard_size == game_state.boneyard_size - 1


def test_the_last_tile_penalty_draws_are_chance_nodes() -> None:
    """A missed last-tile call draws its penalty through chance nodes, one per tile."""
    rng = random.Random(0)
    game = load(2, "last-tile-call")
    codec = ActionCodec(game.rules, 2)
    penalties = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            before = state.game_state
            if state.is_chance_node() or before is None:
                step_randomly(state, rng)
                continue
            mover = state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if codec.decode(action, mover) is Draw() or state.game_state is not before:
                continue
            # The move waits for its penalty: each tile drawn is a chance node.
            drawn = []
            while state.game_state is before:
                assert state.is_chance_node()
                drawn.append(rng.choice(state.chance_outcomes())[0])
                state.apply_action(drawn[-1])
            after = state.game_state
            assert after is not None
            assert len(drawn) == min(2, before.boneyard_size)
            assert set(drawn) <= {tile_index(t) for t in after.hand(mover)}
            penalties += 1
        if penalties:
            break
    assert penalties


def test_s5_observations_are_the_codec_of_the_seat_view() -> None:
    """S5: at every decision, each seat's tensor is ObservationCodec of its view."""
    rng = random.Random(1)
    state = load(3, "standard").new_initial_state()
    game_state = None
    for _ in range(400):
        step_randomly(state, rng)
        game_state = state.game_state
        if game_state is not None and not state.is_chance_node():
            codec = ObservationCodec(game_state.rules, 3)
            for seat in range(3):
                expected = codec.encode(view(game_state, seat))
                assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
    assert game_state is not None


def test_s5_during_the_deal_a_seat_sees_only_its_own_tiles() -> None:
    """S5: two deals that give seat 0 the same tiles look the same to seat 0."""
    game = load(2, "hub")
    codec = ObservationCodec(game.rules, 2)
    hands = codec.layout["hands"]

    def dealt(order: list[int]) -> MexicanTrainState:
        state = game.new_initial_state()
        for action in order:
            state.apply_action(action)
        return state

    tiles = [action for action, _ in game.new_initial_state().chance_outcomes()]
    mine, theirs, other = tiles[:16], tiles[16:20], tiles[40:44]
    first, second = dealt([*mine, *theirs]), dealt([*mine, *other])
    assert state_tensor(first, 0) == state_tensor(second, 0)
    assert state_tensor(first, 1) != state_tensor(second, 1)
    assert set(np.flatnonzero(np.asarray(first.observation_tensor(0))[hands])) == set(mine)


def state_tensor(state: MexicanTrainState, seat: int) -> list[float]:
    return list(state.observation_tensor(seat))


def test_e3_returns_are_the_sum_of_round_rewards() -> None:
    """E3: each seat's return is the sum over rounds of mean(points) - own points."""
    rng = random.Random(5)
    state = load(2, "short-game").new_initial_state()
    while not state.is_terminal():
        step_randomly(state, rng)
    game_state = state.game_state
    assert game_state is not None
    expected = [
        sum(round_rewards(points)[seat] for points in game_state.round_scores) for seat in (0, 1)
    ]
    assert state.returns() == pytest.approx(expected)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_an_illegal_action_and_a_foreign_chance_outcome_are_refused() -> None:
    """Refused inputs raise the library's errors and change nothing."""
    state = load(2, "hub").new_initial_state()
    with pytest.raises(InvalidArgumentError, match="chance outcome 5000"):
        state.apply_action(5000)
    rng = random.Random(2)
    while state.is_chance_node():
        step_randomly(state, rng)
    before = state.game_state
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.get_game().num_distinct_actions()) if a not in legal)
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not a legal action"):
        state.apply_action(illegal)
    assert state.game_state is before


def test_no_information_state_is_declared() -> None:
    """The observation holds the present, not the history: no information state."""
    game = load(2, "hub")
    kind = game.get_type()
    assert not kind.provides_information_state_tensor
    assert not kind.provides_information_state_string
    with pytest.raises(InvalidArgumentError, match="no information state"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))


def test_rules_are_named_by_variant() -> None:
    """The rules parameter takes a catalogue name; an unknown one is refused, listing them."""
    assert load(3, "train-dominoes").rules.mexican_train.__class__.__name__ == "NoMexicanTrain"
    with pytest.raises(UnknownVariantError, match="chickenfoot"):
        load(2, "chickenfoot")


def test_a_cloned_state_is_independent() -> None:
    """OpenSpiel clones share the frozen GameState but not the progress of a deal."""
    state = load(2, "hub").new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    clone.apply_action(clone.chance_outcomes()[0][0])
    assert len(state.chance_outcomes()) == len(clone.chance_outcomes()) + 1
