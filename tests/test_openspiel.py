"""Mexican Train as an OpenSpiel game: conformance, chance nodes, observations, ISMCTS.

OpenSpiel's own ``random_sim_test`` and ``games_sim_test``'s ``sim_game`` check the game
as a whole (serialization, pickling and cloning included); the tests below check what it cannot: that every tile dealt or drawn
is one chance node (S1, S3, P5, the last-tile penalty), that chance outcomes are
the unseen tiles, equally likely, that a seat observes only what it may know
(S5), in its observation and its information state, and that resampling from an
information state keeps it, so that OpenSpiel's ISMCTS plays the game.  ``random_sim_test`` plays 5 games per configuration under the ``ci``
Hypothesis profile (what CI runs) and 1 under ``dev``, to keep the default suite quick.
"""

from __future__ import annotations

import os
import pickle
import random
import re
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
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from mexican_train import (
    HUB,
    Draw,
    IllegalMoveError,
    InvalidArgumentError,
    RulesError,
    Tile,
    UnknownVariantError,
    full_set,
    legal_moves,
    view,
)
from mexican_train.events import Event, derive_events, redact_events
from mexican_train.openspiel import GAME_NAME, MexicanTrainGame, MexicanTrainState
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


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "rules": "hub", "rounds": 2},
        {"players": 4, "rules": "standard", "rounds": 1},
        {"players": 3, "rules": "last-tile-call", "rounds": 1},
    ],
    ids=["hub-2", "standard-4", "last-tile-call-3"],
)
def test_openspiel_games_sim_test(params: dict[str, object]) -> None:
    """OpenSpiel's games_sim_test.sim_game, its check of every game it ships, passes: the
    game and its type pickle back equal, each move's clone moves as the state does, states
    serialize and pickle back, and the returns lie within the game's utility bounds."""
    pytest.importorskip("absl")
    from open_spiel.python.tests import games_sim_test

    saved = np.random.get_state()  # sim_game draws with numpy's global generator
    np.random.seed(0)
    try:
        games_sim_test.GamesSimTest().sim_game(pyspiel.load_game(GAME_NAME, params))
    finally:
        np.random.set_state(saved)


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


@pytest.mark.parametrize("rules", ["hub", "standard", "last-tile-call"])
def test_every_tile_that_may_not_come_next_is_refused_at_every_chance_node(rules: str) -> None:
    """At each chance node of a game, a tile not among the chance outcomes (dealt, drawn,
    set aside as the engine, S4, or already taken by the penalty) is refused and changes
    nothing; the outcomes themselves are applied by the random steps."""
    game = load(2, rules)
    state = game.new_initial_state()
    rng = random.Random(4)  # last-tile-call: a missed call's penalty by the 100th node
    nodes = 0
    while not state.is_terminal() and nodes < 200:
        if state.is_chance_node():
            nodes += 1
            outcomes = state.chance_outcomes()
            offered = {action for action, _ in outcomes}
            before = state.game_state
            for action in range(len(full_set(game.actions.max_pip))):
                if action not in offered:
                    with pytest.raises(InvalidArgumentError, match=f"chance outcome {action} "):
                        state.apply_action(action)
            assert state.game_state is before
            assert state.chance_outcomes() == outcomes
        step_randomly(state, rng)
    assert nodes == 200


def test_only_chance_nodes_have_chance_outcomes_and_the_end_takes_no_action() -> None:
    """A player's turn and the end have no chance outcomes; an action at the end is refused."""
    game = load(2, "hub")
    one = pyspiel.load_game(GAME_NAME, {"players": 2, "rules": "hub", "rounds": 1})
    state, rng = one.new_initial_state(), random.Random(4)
    while not state.is_terminal():
        if not state.is_chance_node():
            assert state.chance_outcomes() == []
        step_randomly(state, rng)
    assert state.chance_outcomes() == []
    before = state.game_state
    with pytest.raises(InvalidArgumentError, match="the game is over: no action applies, not 0"):
        state.apply_action(0)
    assert state.game_state is before
    assert game.new_initial_state().chance_outcomes()


def test_the_information_state_string_is_the_view_and_the_round_history() -> None:
    """The information state's string: the seat's observation, then the round's moves."""
    game = load(2, "hub")
    kind = game.get_type()
    assert kind.provides_information_state_string
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.is_chance_node() or state.game_state.boneyard_size > 20:
        step_randomly(state, rng)
    assert state.game_state is not None
    seat = state.current_player()
    observation, history = state.information_state_string(seat).split("\nMoves this round:\n")
    assert observation == state.observation_string(seat)
    assert f"{seat}: draw" in history.split("\n")  # a draw shows, its tile does not
    shown = set(re.findall(r"\b(\d+)-(\d+)\b", history))
    assert not any(
        {(str(t.high), str(t.low)), (str(t.low), str(t.high))} & shown
        for t in state.game_state.boneyard
    )
    every_hand = pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(InvalidArgumentError, match="one seat's"):
        game.make_py_observer(every_hand)


@pytest.mark.parametrize(("rules", "players"), [("hub", 2), ("standard", 3), ("last-tile-call", 3)])
def test_the_information_state_tensor_is_the_codecs_of_the_view_and_the_rounds_events(
    rules: str, players: int
) -> None:
    """S5: ``information_state_tensor`` is ``ObservationCodec(information_state=True)``'s.

    Of the seat's view and the round's events as it saw them (the test derives them
    from each player action, its draw or penalty tiles resolved, and starts them
    afresh with each round); its shape is the game's.
    """
    game = load(players, rules)
    codec = ObservationCodec(game.rules, players, information_state=True)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == list(codec.shape)
    rng = random.Random(2)
    state = game.new_initial_state()
    events: list[Event] = []
    decisions, round_number = 0, 0
    while not state.is_terminal() and decisions < 400:
        if state.is_chance_node():
            step_randomly(state, rng)
            continue
        decisions += 1
        if state.game_state.round_number != round_number:  # a new round: no events yet
            events, round_number = [], state.game_state.round_number
        for seat in range(players):
            mine = view(state.game_state, seat)
            want = codec.encode(mine, history=redact_events(events, seat))
            assert state.information_state_tensor(seat) == want.tolist()
        before, player = state.game_state, state.current_player()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        while state._pending is not None:  # the tile drawn, or the penalty tiles
            step_randomly(state, rng)
        events += derive_events(before, game.actions.decode(action, player), state.game_state)
    assert decisions == 400 or state.is_terminal()


def walk_twins(rules: str, seed: int) -> tuple[int, int]:
    """Play two games seat 0 cannot tell apart; check its information states are equal.

    The two deals give seat 0 the same tiles and swap one tile of each other seat with
    one of the boneyard; half the other seats' draws take different tiles; every public
    move is the same (drawn from the moves legal in both games), until the round ends
    or no move is legal in both.  Returns the steps walked and the steps at which seat
    1's information states differed.
    """
    game = load(3, rules)
    first, second = game.new_initial_state(), game.new_initial_state()
    tiles = [action for action, _ in first.chance_outcomes()]
    random.Random(seed).shuffle(tiles)
    engine = tile_index(Tile(game.actions.max_pip, game.actions.max_pip))
    if engine in tiles:  # S3: seat 0 holds the engine, so no seat searches for it
        tiles.remove(engine)
        tiles.insert(0, engine)
    n = game.hand_size
    mine, rest = tiles[:n], tiles[n:]
    swapped = rest[:]
    swapped[0], swapped[-1] = swapped[-1], swapped[0]  # seat 1's first tile
    swapped[n], swapped[-2] = swapped[-2], swapped[n]  # seat 2's first tile
    deals = iter([*mine, *rest]), iter([*mine, *swapped])
    rng = random.Random(seed)
    steps = differ = 0
    while first.game_state is None or not first.game_state.is_round_over:
        assert first.information_state_string(0) == second.information_state_string(0)
        assert first.observation_string(0) == second.observation_string(0)
        assert first.information_state_tensor(0) == second.information_state_tensor(0)
        differ += first.information_state_string(1) != second.information_state_string(1)
        steps += 1
        if first.game_state is None or first._dealing():
            for state, deal in zip((first, second), deals, strict=True):
                outcomes = {action for action, _ in state.chance_outcomes()}
                state.apply_action(next(a for a in deal if a in outcomes))
        elif first.is_chance_node():
            drawer = first.game_state.current_player
            if drawer != 0 and rng.random() < 0.5:  # another seat draws, any tile in each
                for state in (first, second):
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            outcomes = [{a for a, _ in state.chance_outcomes()} for state in (first, second)]
            common = sorted(outcomes[0] & outcomes[1])
            if not common:
                break
            action = rng.choice(common)  # seat 0 draws: the same tile in both
            first.apply_action(action)
            second.apply_action(action)
        else:
            assert first.current_player() == second.current_player()
            common = sorted(set(first.legal_actions()) & set(second.legal_actions()))
            if not common:
                break
            action = rng.choice(common)
            first.apply_action(action)
            second.apply_action(action)
    return steps, differ


@pytest.mark.parametrize("rules", ["hub", "standard", "last-tile-call"])
def test_s5_information_states_do_not_tell_what_the_seat_cannot_see(rules: str) -> None:
    """S5: states that differ only in tiles seat 0 cannot see give it equal information states."""
    walked = [walk_twins(rules, seed) for seed in range(3)]
    assert sum(steps for steps, _ in walked) > 200  # the walks get well into the rounds
    assert all(differ for _, differ in walked)  # seat 1 tells the two games apart


def test_resampling_keeps_the_information_state_and_deals_the_unseen_anew() -> None:
    """At every node, a resampled state has the seat's information state; its hidden tiles vary."""
    rng = random.Random(6)
    sampler = pyspiel.UniformProbabilitySampler(6, 0.0, 1.0)
    changed = 0
    for rules in ("standard", "last-tile-call"):
        state = load(3, rules).new_initial_state()
        while not state.is_terminal():
            seat = rng.randrange(3)
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.current_player() == state.current_player()
            assert len(world.chance_outcomes()) == len(state.chance_outcomes())
            if state.current_player() == seat:
                assert world.legal_actions() == state.legal_actions()
            if not state.is_chance_node():
                assert world.game_state is not None
                assert state.game_state is not None
                assert world.game_state.hand(seat) == state.game_state.hand(seat)
                changed += world.game_state.hands != state.game_state.hands
            step_randomly(state, rng)
    assert changed > 50
    # A resampled state plays on, and serializes, as any other.
    text = pyspiel.serialize_game_and_state(world.get_game(), world)
    assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(world)
    with pytest.raises(InvalidArgumentError, match="player_id must be a seat, 0 to 2, not 3"):
        state.resample_from_infostate(3, sampler)


@pytest.mark.parametrize("resampler", [False, True])
def test_openspiel_ismcts_plays_the_game(resampler: bool) -> None:
    """OpenSpiel's ISMCTSBot plays a seat for a few decisions, by the game's own resampling."""
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "rules": "hub", "rounds": 1})
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(0),
    )
    if resampler:  # a seeded sampler, as the benchmark uses; else the bot's own
        sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    rng = random.Random(0)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal() and searched < 6:
        if state.current_player() == 0:
            legal = state.legal_actions()
            action = int(bot.step(state))
            assert action in legal
            searched += len(legal) > 1
            state.apply_action(action)
        else:
            step_randomly(state, rng)
    assert searched == 6


def test_the_rounds_parameter_cuts_the_game() -> None:
    """rounds=N plays N rounds of the variant; 0 keeps its own; Rules checks the number."""
    game = load(2, "hub")
    assert game.rules.rounds is None
    one = pyspiel.load_game(GAME_NAME, {"players": 2, "rules": "hub", "rounds": 1})
    assert one.rules.rounds == 1
    state = one.new_initial_state()
    rng = random.Random(8)
    while not state.is_terminal():
        step_randomly(state, rng)
    assert len(state.game_state.round_scores) == 1
    with pytest.raises(RulesError, match="has only 13 engines"):
        pyspiel.load_game(GAME_NAME, {"players": 2, "rules": "hub", "rounds": 14})


def test_rules_are_named_by_variant() -> None:
    """The rules parameter takes a catalogue name; an unknown one is refused, listing them."""
    assert load(3, "train-dominoes").rules.mexican_train.__class__.__name__ == "NoMexicanTrain"
    with pytest.raises(UnknownVariantError, match="chickenfoot"):
        load(2, "chickenfoot")


@pytest.mark.parametrize(
    ("params", "error", "words"),
    [
        ({"player": 2}, InvalidArgumentError, "no parameter 'player'; its parameters are"),
        ({"players": 2.7}, TypeError, "players is a whole number, not 2.7"),
        ({"players": "3"}, TypeError, "players is a whole number, not '3'"),
        ({"players": True}, TypeError, "players is a whole number, not True"),
        ({"rounds": 1.5}, TypeError, "rounds is a whole number, not 1.5"),
        ({"rules": HUB}, TypeError, "rules is a variant's name"),
        ([("players", 2)], TypeError, "parameters are a dict"),
    ],
)
def test_the_game_made_directly_refuses_parameters_load_game_would(
    params: object, error: type[Exception], words: str
) -> None:
    """``MexicanTrainGame(params)`` checks its parameters as ``pyspiel.load_game`` does:
    a misspelt name is not ignored, and 2.7 players are not 2."""
    with pytest.raises(error, match=re.escape(words)):
        MexicanTrainGame(params)
    assert MexicanTrainGame({"players": 3, "rules": "standard"}).num_players() == 3
    assert MexicanTrainGame().num_players() == 4


def test_a_cloned_state_is_independent() -> None:
    """OpenSpiel clones share the frozen GameState but not the progress of a deal."""
    state = load(2, "hub").new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    clone.apply_action(clone.chance_outcomes()[0][0])
    assert len(state.chance_outcomes()) == len(clone.chance_outcomes()) + 1


def played_state(players: int, rules: str, steps: int, seed: int) -> MexicanTrainState:
    """A state *steps* random actions and chance outcomes into a game."""
    state, rng = load(players, rules).new_initial_state(), random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        step_randomly(state, rng)
    return state


@pytest.mark.parametrize("steps", [0, 30, 400])
def test_openspiel_pickle_of_the_game_and_its_states(steps: int) -> None:
    """OpenSpiel's check of its Python games: game and state pickle and serialize back, and
    the copies play on (a copy of the game makes states; a copy of a state moves)."""
    state = played_state(3, "hub", steps, seed=steps)
    game = state.get_game()
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert (str(new_game), str(new_state)) == (str(game), str(state))
    assert again.new_initial_state().chance_outcomes() == game.new_initial_state().chance_outcomes()
    unpickled = pickle.loads(pickle.dumps(state))
    assert (str(unpickled), unpickled.history()) == (str(state), state.history())
    assert unpickled.game_state == state.game_state
    # The copies play on as the original does, to the same end.
    mine, theirs, ours = random.Random(1), random.Random(1), random.Random(1)
    while not state.is_terminal():
        assert unpickled.legal_actions() == new_state.legal_actions() == state.legal_actions()
        step_randomly(state, mine)
        step_randomly(unpickled, theirs)
        step_randomly(new_state, ours)
    assert unpickled.returns() == new_state.returns() == state.returns()


def test_openspiel_cloned_state_matches_the_original() -> None:
    """OpenSpiel's check of its Python games: a clone has the original's history and tensors."""
    state = played_state(3, "standard", 120, seed=2)
    clone = state.clone()
    assert clone.history() == state.history()
    assert clone.move_number() == state.move_number()
    assert clone.current_player() == state.current_player()
    assert clone.game_state == state.game_state
    for seat in range(3):
        assert clone.observation_tensor(seat) == state.observation_tensor(seat)
        assert clone.information_state_tensor(seat) == state.information_state_tensor(seat)


@pytest.mark.parametrize("steps", [0, 10, 150])
def test_make_observation_gives_the_states_own_tensors_and_strings(steps: int) -> None:
    """OpenSpiel's observation API (make_observation) agrees with the state's own methods,
    for the default observation and the information state (perfect recall)."""
    state = played_state(3, "hub", steps, seed=5)
    game = state.get_game()
    plain = make_observation(game)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for seat in range(3):
        plain.set_from(state, seat)
        recall.set_from(state, seat)
        assert list(plain.tensor) == state.observation_tensor(seat)
        assert list(recall.tensor) == state.information_state_tensor(seat)
        assert plain.string_from(state, seat) == state.observation_string(seat)
        assert recall.string_from(state, seat) == state.information_state_string(seat)


@pytest.mark.parametrize("perfect_recall", [False, True], ids=["observation", "information"])
@pytest.mark.parametrize(
    ("public_info", "private_info"),
    [
        (True, pyspiel.PrivateInfoType.NONE),
        (False, pyspiel.PrivateInfoType.NONE),
        (True, pyspiel.PrivateInfoType.ALL_PLAYERS),
        (False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    ],
    ids=["public-only", "nothing", "every-hand", "private-only"],
)
def test_s5_an_observer_of_another_kind_than_one_seats_is_refused(
    perfect_recall: bool, public_info: bool, private_info: pyspiel.PrivateInfoType
) -> None:
    """S5: the game observes one seat, the public information and that seat's own; an
    observer asked for less (a public observer, which must not see the hand) or more (every
    hand) is refused, not given the seat's observation."""
    game = load(2, "hub")
    kind = pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=public_info, private_info=private_info
    )
    with pytest.raises(InvalidArgumentError, match="one seat's"):
        game.make_py_observer(kind)
    with pytest.raises(InvalidArgumentError, match="one seat's"):
        make_observation(game, kind)
