"""The engine's use of an open-double rule's answers (D1-D4, OpenDoubleRule).

The engine may keep a rule's answer for a set of open doubles and reuse it
(rules are immutable, their answers a function of the doubles): these tests
check that what it offers is still exactly what each answer says, for answers
the built-in rules never give, and that a bad answer is refused every time.
"""

from __future__ import annotations

import random

import attrs
import pytest

from mexican_train import (
    HUB,
    CloseInOrder,
    Cover,
    GameState,
    OpenDouble,
    OpenDoubleRule,
    RulesError,
    apply,
    legal_moves,
    new_game,
)
from mexican_train._core import engine as _engine
from scenario_helpers import HUB6, on, run, start

_FOLLOW = ["6-5 5-5 5-2 6-4 4-3", "6-3 5-1 3-2 1-1 0-0"]


@attrs.frozen
class BindToNothing:
    """An obligation that binds the player yet names no double to cover (D2)."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((), only=True)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder().follow_up(doubles)


@attrs.frozen
class Counted:
    """CloseInOrder, counting the questions it is asked in a list outside itself."""

    asked: list[tuple[OpenDouble, ...]] = attrs.field(eq=False, hash=False)

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        self.asked.append(doubles)
        return CloseInOrder().obligation(doubles)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        self.asked.append(doubles)
        return CloseInOrder().follow_up(doubles)


@attrs.frozen
class NamesAStranger:
    """A broken rule: its cover names a train with no open double."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((doubles[0].train + 1,), only=True)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder().follow_up(doubles)


def _double_open_on_train_0(rules: OpenDoubleRule) -> GameState:
    # Seat 0 plays 5-5 on its own train and follows it on the Mexican train: the
    # double is open when seat 1 moves (D2), and seat 1 holds 5-1, which covers it.
    state = start(_FOLLOW, rules=attrs.evolve(HUB6, open_doubles=rules))
    return run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", -1))


def test_d2_a_rule_that_binds_to_no_double_is_refused() -> None:
    """D2: a binding obligation names the doubles to cover; one that names none is a
    RulesError when the rule answers, not a position where the player may play nowhere."""
    free = _double_open_on_train_0(CloseInOrder())
    assert legal_moves(free) == (on("5-1", 0),)
    with pytest.raises(RulesError, match=r"binds the player to cover a double but names none"):
        legal_moves(_double_open_on_train_0(BindToNothing()))


def test_the_same_doubles_ask_the_rule_once() -> None:
    """OpenDoubleRule: the engine may reuse an answer; equal positions get equal moves."""
    asked: list[tuple[OpenDouble, ...]] = []
    state = _double_open_on_train_0(Counted(asked))
    moves = legal_moves(state)
    assert moves == (on("5-1", 0),)
    assert asked[-1] == (OpenDouble(0, 5, True),)
    count = len(asked)
    again = state.replace()  # equal, with no legal moves computed yet
    assert legal_moves(again) == moves
    assert len(asked) == count


def test_a_cover_naming_a_train_without_an_open_double_is_refused_every_time() -> None:
    """OpenDoubleRule: a Cover naming other trains is a RulesError, and is never kept."""
    state = _double_open_on_train_0(NamesAStranger())
    for position in (state, state.replace()):
        with pytest.raises(RulesError, match="names train 1, which has no open double"):
            legal_moves(position)


@attrs.frozen
class AnswersATuple:
    """A broken rule: its obligation answers the trains alone, not a Cover."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return (doubles[0].train,)  # type: ignore[return-value]

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder().follow_up(doubles)


def test_a_bad_answer_is_blamed_on_the_rule_and_the_method_that_gave_it() -> None:
    """OpenDoubleRule: the RulesError names the method asked, the doubles and the answer."""
    with pytest.raises(RulesError) as caught:
        legal_moves(_double_open_on_train_0(NamesAStranger()))
    assert str(caught.value) == (
        "NamesAStranger().obligation() was asked about the open doubles on trains (0,) "
        "and returned Cover(trains=(1,), only=True), which names train 1, which has no "
        "open double: a Cover names only trains among the doubles it is given"
    )


def test_an_answer_that_is_not_a_cover_is_refused_as_such() -> None:
    """OpenDoubleRule: a tuple of trains, not a Cover, is refused for what it is."""
    with pytest.raises(RulesError) as caught:
        legal_moves(_double_open_on_train_0(AnswersATuple()))
    assert str(caught.value) == (
        "AnswersATuple().obligation() was asked about the open doubles on trains (0,) "
        "and returned (0,), a tuple: an OpenDoubleRule answers with a Cover, such as "
        "Cover((0,), only=True)"
    )


def test_the_kept_answers_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many positions are played, few answers are kept, and the moves do not change."""

    def moves_of_rounds() -> list[tuple[object, ...]]:
        seen: list[tuple[object, ...]] = []
        for seed in range(6):
            rng = random.Random(seed)
            state = new_game(4, HUB, seed=seed)
            while state.current_player is not None:
                moves = legal_moves(state)
                seen.append(moves)
                assert len(_engine._PLANS) <= _engine._PLANS_SIZE
                assert len(_engine._ALLOWED) <= _engine._PLANS_SIZE
                state = apply(state, rng.choice(moves))
        return seen

    usual = moves_of_rounds()
    monkeypatch.setattr(_engine, "_PLANS_SIZE", 3)
    _engine._PLANS.clear()  # the same dicts: a compiled engine holds them, not their names
    _engine._ALLOWED.clear()
    assert moves_of_rounds() == usual


@attrs.frozen
class Raises:
    """A broken rule: its obligation raises instead of answering."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        raise LookupError(f"no answer for {doubles}")

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder().follow_up(doubles)


def test_a_rule_that_raises_is_reported_by_legal_moves_not_by_the_move_before() -> None:
    """OpenDoubleRule: apply works out the next position's moves ahead; a rule that raised
    there made apply of a legal move raise (LookupError from 6-4 on the Mexican train, which
    asks nothing of the rule), where one answering with no Cover waits for legal_moves."""
    state = start(_FOLLOW, rules=attrs.evolve(HUB6, open_doubles=Raises()))
    before = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0))
    after = apply(before, on("6-4", -1))
    assert after.open_doubles == (0,)
    with pytest.raises(LookupError, match="no answer for"):
        legal_moves(after)
