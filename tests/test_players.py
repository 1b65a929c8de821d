"""The bots of `mexican_train.players`: legal, deterministic, and playing as documented."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    GameState,
    GreedyPlayer,
    Move,
    NextRound,
    PlannerPlayer,
    Play,
    Player,
    RandomPlayer,
    Tile,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train.players import SearchPlayer, player_name
from scenario_helpers import HUB6, on, run, start
from strategies import played_positions

BOTS = [RandomPlayer(seed=1), GreedyPlayer(), PlannerPlayer(), SearchPlayer(iterations=4, seed=1)]


def choose(player: Player, state: GameState) -> Move:
    seat = state.current_player
    assert seat is not None
    mine = view(state, seat)
    return player.choose(mine, legal_moves(mine))


@pytest.mark.parametrize("bot", BOTS, ids=player_name)
def test_every_bot_is_a_player(bot: Player) -> None:
    assert isinstance(bot, Player)


@pytest.mark.parametrize("bot", BOTS, ids=player_name)
@given(state=played_positions(max_players=6, max_moves=150))
def test_s5_a_bot_chooses_a_legal_move_from_its_view(bot: Player, state: GameState) -> None:
    seat = state.current_player if state.current_player is not None else 0
    mine = view(state, seat)
    moves = legal_moves(mine)
    if moves:  # the game is not over
        assert bot.choose(mine, moves) in moves


@pytest.mark.parametrize("bot", BOTS, ids=player_name)
def test_bots_play_complete_games_under_both_presets(bot: Player) -> None:
    for rules in (STANDARD, HUB):
        state = new_game(3, rules, seed=11)
        while not state.is_over:
            state = apply(state, NextRound() if state.is_round_over else choose(bot, state))
        assert len(state.round_scores) == state.rounds


@pytest.mark.parametrize("bot", BOTS, ids=player_name)
def test_bots_are_values_that_pickle_and_copy(bot: Player) -> None:
    assert pickle.loads(pickle.dumps(bot)) == bot
    assert copy.deepcopy(bot) == bot
    assert hash(bot) == hash(copy.deepcopy(bot))


def test_random_player_makes_the_same_choice_for_the_same_seed_and_position() -> None:
    state = new_game(4, HUB, seed=5)
    choices: dict[int, list[Move]] = {seed: [] for seed in range(5)}
    for _ in range(60):
        for seed in choices:
            choices[seed].append(choose(RandomPlayer(seed), state))
        assert choose(RandomPlayer(0), state) == choices[0][-1]
        state = apply(state, choose(RandomPlayer(99), state))
    assert len({tuple(moves) for moves in choices.values()}) > 1


def test_greedy_sheds_the_most_pips() -> None:
    state = start(["6-1 6-5 3-2", "1-0 2-1 3-1"], rules=HUB6)
    assert choose(GreedyPlayer(), state) == on("6-5", 0)


def test_d1_greedy_plays_a_double_first_when_it_can_follow_it() -> None:
    """A double plus its follow-up shed two tiles in one turn (D1)."""
    state = start(["6-2 6-5 2-2", "6-1 1-0 3-1"], rules=HUB6)
    state = run(state, on("6-2", 0), on("6-1", 1))
    assert choose(GreedyPlayer(), state) == on("2-2", 0)


def test_p4_planner_lays_its_longest_train_on_the_first_turn() -> None:
    """Rulebook A's first turn: the planner plays the whole longest chain, in order (P4)."""
    state = start(["6-6 6-5 6-1 5-3 3-0", "2-1 2-2 4-4 0-0 5-5"])
    assert state.current_player is not None
    played = []
    seat = state.current_player
    while state.current_player == seat:
        move = choose(PlannerPlayer(), state)
        assert isinstance(move, Play)
        played.append(move.tile)
        state = apply(state, move)
    assert played == [Tile(6, 5), Tile(5, 3), Tile(3, 0)]


def test_planner_plays_a_leftover_on_the_mexican_train_before_its_planned_train() -> None:
    """Tiles outside the planned train go to the Mexican train; the plan is kept."""
    state = start(["6-5 5-4 6-1 4-4", "2-1 2-2 3-3 0-0"], rules=HUB6)
    # Plan from 6: 6-5 5-4 4-4; the leftover 6-1 goes on the Mexican train.
    assert choose(PlannerPlayer(), state) == on("6-1", MEXICAN)


def test_planner_sheds_pips_once_an_opponent_is_about_to_go_out() -> None:
    state = start(["6-5 5-4 6-1 4-4", "2-1 2-2 3-3 0-0"], rules=HUB6)
    assert choose(PlannerPlayer(endgame=4), state) == on("6-5", 0)


def test_player_name_prefers_a_name_attribute() -> None:
    class Named:
        name = "Ann"

        def choose(self, view: object, moves: tuple[Move, ...]) -> Move:
            return moves[0]

    assert player_name(Named()) == "Ann"


def test_player_name_is_short_for_the_built_in_bots() -> None:
    assert [player_name(bot) for bot in (PlannerPlayer(), GreedyPlayer(), RandomPlayer())] == [
        "planner",
        "greedy",
        "random",
    ]
    assert player_name(PlannerPlayer(endgame=4)) == "planner(endgame=4)"


def test_player_name_of_a_bot_without_a_name_is_its_class_name() -> None:
    class HeavyFirst:
        def choose(self, view: object, moves: tuple[Move, ...]) -> Move:
            return moves[0]

    assert player_name(HeavyFirst()) == "HeavyFirst"
