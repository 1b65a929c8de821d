"""Every Hypothesis strategy the tests use, in one place."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from mexican_train import HUB, STANDARD, GameState, apply, legal_moves, new_game

# -- positions from random play (rendering, front ends) ----------------------------------------


@st.composite
def played_positions(draw: st.DrawFn, max_players: int = 8, max_moves: int = 250) -> GameState:
    """A state reached by random legal moves from a new game (either preset, 2..max_players)."""
    rules = draw(st.sampled_from([STANDARD, HUB]))
    players = draw(st.integers(2, max_players))
    seed = draw(st.integers(0, 2**32 - 1))
    moves = draw(st.integers(0, max_moves))
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_moves(state)))
    return state
