"""Whole games as a Hypothesis state machine: Hypothesis picks the moves, legal and illegal.

Each step applies a move `legal_moves` offers, or tries one it does not offer, or plays
the round out at random (so that short games reach their end within the step budget).
After every step the conformance kit's invariants must hold.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from mexican_train import GameState, Move, NextRound, Rules, apply, legal_moves, new_game
from mexican_train.testing import (
    check_invariants,
    check_refusals,
    check_round_start,
    check_transition,
    round_move_bound,
)
from strategies import (
    offered_moves,
    seeds,
    short_preset_tables,
    unoffered_moves,
    variant_tables,
)


class WholeGames(RuleBasedStateMachine):
    """A game from `new_game` to its end, every move checked (S1-E5)."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.setup: tuple[Rules, int, int] | None = None
        self.moves: list[Move] = []
        self.round_moves = 0

    @property
    def game(self) -> GameState:
        assert self.state is not None
        return self.state

    @initialize(table=short_preset_tables() | variant_tables(), seed=seeds())
    def deal(self, table: tuple[Rules, int], seed: int) -> None:
        rules, players = table
        self.setup = (rules, players, seed)
        self.state = new_game(players, rules, seed)
        check_round_start(self.state)  # S3/S4: the engine placed, the first player chosen

    def _apply(self, move: Move) -> None:
        before = self.game
        after = apply(before, move)
        check_transition(before, move, after)
        self.moves.append(move)
        self.round_moves += 1
        # E2, E4: a round can only take so many moves (see round_move_bound).
        assert self.round_moves <= round_move_bound(before)
        if move is NextRound():
            self.round_moves = 0
        self.state = after

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def play_an_offered_move(self, data: st.DataObject) -> None:
        self._apply(data.draw(offered_moves(self.game), label="move"))

    @rule(data=st.data())
    def try_a_move_not_offered(self, data: st.DataObject) -> None:
        move = data.draw(unoffered_moves(self.game), label="refused move")
        check_refusals(self.game, [move])  # IllegalMoveError, and nothing changes

    @precondition(lambda self: not self.game.is_over)
    @rule(seed=seeds())
    def play_out_the_round(self, seed: int) -> None:
        rng = random.Random(seed)
        number = self.game.round_number
        self._apply(rng.choice(legal_moves(self.game)))
        while not self.game.is_round_over and self.game.round_number == number:
            check_invariants(self.game)
            self._apply(rng.choice(legal_moves(self.game)))

    @rule()
    def replaying_the_moves_reaches_the_same_state(self) -> None:
        assert self.setup is not None
        rules, players, seed = self.setup
        state = new_game(players, rules, seed)
        for move in self.moves:
            state = apply(state, move)
        assert state == self.game  # S6: same seed, same moves, same game

    @invariant()
    def every_invariant_holds(self) -> None:
        if self.state is not None:
            check_invariants(self.state)


TestWholeGames = WholeGames.TestCase
