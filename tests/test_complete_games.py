"""A complete game of each preset, for every supported player count,
plays from `new_game` to `is_over` through `legal_moves` and `apply` alone."""

from __future__ import annotations

import random

import pytest

from mexican_train import HUB, STANDARD, NextRound, Rules, apply, legal_moves, new_game

CASES = [
    pytest.param(rules, players, id=f"{name}-{players}p")
    for name, rules in (("standard", STANDARD), ("hub", HUB))
    for players in rules.deal_table.player_counts
]


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_a_complete_game_plays_to_the_end(rules: Rules, players: int) -> None:
    """S2, E4, E5: every round is played and scored, then the game is over with winners."""
    rng = random.Random(players)
    state = new_game(players, rules, seed=players)
    rounds_started = 1
    while not state.is_over:
        moves = legal_moves(state)
        assert moves, "legal_moves is empty only when the game is over"
        move = rng.choice(moves)
        rounds_started += move is NextRound()
        state = apply(state, move)
    assert legal_moves(state) == ()
    assert rounds_started == state.rounds == len(state.round_scores) == state.max_pip + 1
    assert state.scores == tuple(map(sum, zip(*state.round_scores, strict=True)))
    assert state.winners
    assert all(state.scores[w] == min(state.scores) for w in state.winners)
