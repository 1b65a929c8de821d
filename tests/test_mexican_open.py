"""V2: a Mexican-train rule's ``open_from_turn`` lets the engine skip ``is_open``, never change it.

The engine reads the attribute once per round; these tests hold the
moves it offers to those it offers when the same rule is asked on every move.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import attrs
import pytest

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    Play,
    Rules,
    Table,
    apply,
    legal_moves,
    mexican_open,
    new_game,
    view,
)


@attrs.frozen
class AskEveryTime:
    """The same answers as *inner*, without ``open_from_turn``: asked on every move."""

    inner: Any

    def is_open(self, table: Any, seat: int) -> bool:
        return bool(self.inner.is_open(table, seat))


@attrs.frozen
class NeverOpen(MexicanFromFirstTurn):
    """A subclass that changes ``is_open`` and, as documented, sets ``open_from_turn`` to None."""

    open_from_turn: ClassVar[int | None] = None

    def is_open(self, table: Any, seat: int) -> bool:
        return False


@attrs.frozen
class NeverOpenForgetful(MexicanFromFirstTurn):
    """A subclass that changes ``is_open`` and says nothing of ``open_from_turn``."""

    def is_open(self, table: Any, seat: int) -> bool:
        return False


@attrs.frozen
class OddAttribute:
    """An ``open_from_turn`` the engine does not know: it asks ``is_open``."""

    open_from_turn: ClassVar[Any] = "1"

    def is_open(self, table: Any, seat: int) -> bool:
        return False


def moves_of_games(rules: Rules, players: int, seeds: range) -> list[tuple[Any, ...]]:
    """Return the legal moves of every position of random games (the same picks for equal moves)."""
    seen = []
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, rules, seed=seed)
        while not state.is_over:
            moves = legal_moves(state)
            seen.append(moves)
            if state.current_player is not None:
                assert legal_moves(view(state, state.current_player)) == moves
            state = apply(state, rng.choice(moves))
    return seen


@pytest.mark.parametrize("rule", [MexicanFromFirstTurn(), MexicanFromSecondTurn()])
@pytest.mark.parametrize(("preset", "players"), [(HUB, 4), (STANDARD, 3), (STANDARD, 8)])
def test_a_rule_read_once_per_round_offers_what_asking_every_move_offers(
    rule: Any, preset: Rules, players: int
) -> None:
    """V2: the built-in rules' open_from_turn agrees with their is_open, move for move."""
    fast = attrs.evolve(preset, mexican_train=rule)
    asked = attrs.evolve(preset, mexican_train=AskEveryTime(rule))
    assert rule.open_from_turn in (1, 2)
    assert moves_of_games(fast, players, range(3)) == moves_of_games(asked, players, range(3))


@pytest.mark.parametrize("rule", [NeverOpen(), NeverOpenForgetful(), OddAttribute()])
def test_a_rule_without_a_known_open_from_turn_is_asked(rule: Any) -> None:
    """V2: None, or any value but 1 and 2, makes the engine call is_open (here: never open);
    a subclass of a built-in rule that overrides is_open loses its parent's claim."""
    rules = attrs.evolve(HUB, mexican_train=rule)
    for moves in moves_of_games(rules, 4, range(2)):
        assert not any(isinstance(m, Play) and m.train == MEXICAN for m in moves)


@attrs.frozen
class FromRoundTwo:
    """A house rule that reads the round: the Mexican train opens in the second round."""

    def is_open(self, table: Table, seat: int) -> bool:
        return table.round_number >= 2


def test_a_rule_may_read_the_round_from_a_state_and_from_a_view() -> None:
    """V2, E4: `Table.round_number` is the round being played, the same for the state and
    every view, so a rule may open the Mexican train by round."""
    rules = attrs.evolve(STANDARD, rounds=2, mexican_train=FromRoundTwo())
    offered = {1: False, 2: False}
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(3, rules, seed=seed)
        while not state.is_over:
            opens = mexican_open(state)
            assert opens == (state.round_number >= 2,) * 3
            for seat in range(3):
                assert mexican_open(view(state, seat)) == opens
            moves = legal_moves(state)
            offered[state.round_number] |= any(
                isinstance(m, Play) and m.train == MEXICAN and not m.tile.is_double for m in moves
            )
            state = apply(state, rng.choice(moves))
    assert offered == {1: False, 2: True}


@pytest.mark.parametrize("value", [None, 5, "state"])
def test_mexican_open_refuses_what_is_not_a_table(value: Any) -> None:
    with pytest.raises(TypeError, match="needs a GameState or PlayerView"):
        mexican_open(value)
