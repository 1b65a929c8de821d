"""The conformance kit blames a house rule that breaks its protocol's contract (S5, V2, D2).

A rule of one's own may read what its seat cannot see, claim an ``open_from_turn``
its ``is_open`` does not keep, or answer differently when asked twice.  The kit
must find each one and name the rule, not report a disagreement of `legal_moves`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import attrs
import pytest

from mexican_train import HUB, STANDARD, Cover, InvalidArgumentError, OpenDouble, Rules, new_game
from mexican_train.testing import (
    ConformanceError,
    check_invariants,
    play_random_game,
    rules_conformance,
)
from scenario_helpers import HUB6, on, run, start


@attrs.frozen
class MexicanWhenBehind:
    """Reads the hands, which no seat's view shows: open to a seat holding more than the next."""

    def is_open(self, table: Any, seat: int) -> bool:
        following = (seat + 1) % table.players
        return bool(len(table.hands[seat]) > len(table.hands[following]))


@attrs.frozen
class ClaimsTheFirstTurn:
    """Says the Mexican train is open from the first turn; its is_open waits for the second."""

    open_from_turn: ClassVar[int] = 1

    def is_open(self, table: Any, seat: int) -> bool:
        return bool(table.has_had_first_turn(seat))


@attrs.frozen
class Alternating:
    """Answers True and False in turn, whatever it is asked: it keeps a count outside itself."""

    count: list[int] = attrs.field(factory=list, eq=False, hash=False, repr=False)

    def is_open(self, table: Any, seat: int) -> bool:
        self.count.append(seat)
        return len(self.count) % 2 == 0


@attrs.frozen
class AlternatingBind:
    """Binds and frees an open double in turn: its answers depend on a count outside itself."""

    count: list[int] = attrs.field(factory=list, eq=False, hash=False, repr=False)

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        self.count.append(len(doubles))
        return Cover((doubles[0].train,), only=len(self.count) % 2 == 0)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((), only=False)


def _failure(state: Any) -> ConformanceError:
    with pytest.raises(ConformanceError) as caught:
        check_invariants(state)
    return caught.value


def test_s5_a_rule_that_reads_the_hands_is_refused_by_the_kit() -> None:
    """S5: legal_moves of the seat's view must be those of the state; a rule reading hands breaks it."""
    rules = attrs.evolve(HUB, mexican_train=MexicanWhenBehind())
    state = new_game(4, rules, seed=1)
    error = _failure(state)
    assert (error.rule, error.invariant) == ("S5", "a seat's view offers the state's moves")
    assert "MexicanWhenBehind()" in error.detail
    assert "AttributeError" in error.detail


def test_s5_the_kit_plays_no_game_past_a_rule_that_reads_the_hands() -> None:
    """S5: play_random_game stops at the first position, naming the rule."""
    rules = attrs.evolve(HUB, mexican_train=MexicanWhenBehind())
    with pytest.raises(ConformanceError, match=r"^S5 .*MexicanWhenBehind\(\)"):
        play_random_game(rules, players=4, seed=1, max_rounds=1)


def test_v2_an_open_from_turn_that_is_open_does_not_keep_is_named() -> None:
    """V2: the engine reads open_from_turn instead of asking is_open; the kit holds them together."""
    rules = attrs.evolve(HUB, mexican_train=ClaimsTheFirstTurn())
    error = _failure(new_game(4, rules, seed=1))
    assert (error.rule, error.invariant) == ("V2", "open_from_turn says what is_open answers")
    assert error.detail.startswith(
        "ClaimsTheFirstTurn() says open_from_turn=1 (is_open always True), but "
        "is_open(state, 0) answered False"
    )


def test_v2_a_mexican_train_rule_that_answers_twice_differently_is_named() -> None:
    """V2: a rule's answer depends on the table and the seat alone."""
    rules = attrs.evolve(HUB, mexican_train=Alternating())
    error = _failure(new_game(4, rules, seed=1))
    assert (error.rule, error.invariant) == ("V2", "a rule answers the same question the same")
    assert error.detail.startswith("Alternating().is_open(state, 0) answered ")


def test_d2_an_open_double_rule_that_answers_twice_differently_is_named() -> None:
    """D2: an open-double rule's answer depends on the doubles alone (the engine may keep it)."""
    rules: Rules = attrs.evolve(HUB6, open_doubles=AlternatingBind())
    state = start(["6-5 5-5 5-2 6-4 4-3", "6-3 5-1 3-2 1-1 0-0"], rules=rules)
    state = run(state, on("6-5", 0), on("6-3", 1), on("5-5", 0), on("6-4", -1))
    error = _failure(state)
    assert (error.rule, error.invariant) == ("D2", "a rule answers the same question the same")
    assert error.detail.startswith("AlternatingBind().obligation(")


@pytest.mark.parametrize(
    ("players", "error", "shown"),
    [
        ([], InvalidArgumentError, "players is empty"),
        (4, TypeError, "players is a list of player counts, not 4"),
        ("24", TypeError, "players is a list of player counts, not '24'"),
    ],
)
def test_rules_conformance_names_a_bad_list_of_player_counts(
    players: Any, error: type[Exception], shown: str
) -> None:
    """The kit's *players* is a list: a bare count raised "'int' object is not iterable",
    and an empty list a ValueError outside the library's hierarchy."""
    with pytest.raises(error, match=shown):
        rules_conformance(HUB, players)


@pytest.mark.parametrize("max_rounds", [0, -1, True, 1.5])
def test_the_kit_refuses_a_max_rounds_that_is_not_a_count_of_rounds(max_rounds: Any) -> None:
    """``max_rounds=0`` played a whole round, as 1 does; the kit refuses it at once."""
    for call in (
        lambda: play_random_game(HUB, 2, seed=1, max_rounds=max_rounds),
        lambda: rules_conformance(HUB, [2], max_rounds=max_rounds),
    ):
        with pytest.raises((InvalidArgumentError, TypeError), match="max_rounds"):
            call()


def test_a_failure_shows_the_rules_as_the_expression_that_builds_them() -> None:
    """The kit's failure ends with the rules played; their full repr, the deal table's
    every row included, ran to a thousand characters after the position."""
    rules = attrs.evolve(HUB, mexican_train=MexicanWhenBehind())
    with pytest.raises(ConformanceError) as caught:
        play_random_game(rules, players=4, seed=1, max_rounds=1)
    assert str(caught.value).endswith("rules=attrs.evolve(HUB, mexican_train=MexicanWhenBehind())")
    test = rules_conformance(rules, [4])
    assert test.__doc__ == (
        "Random games under attrs.evolve(HUB, mexican_train=MexicanWhenBehind()) conform "
        "(mexican_train.testing)."
    )


@attrs.frozen
class AnswersATuple:
    """Answers the open-double questions with a bare tuple, not a `Cover`."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Any:
        return ((doubles[0].train,), True)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((), only=False)


@attrs.frozen
class NamesTheNextTrain:
    """Binds the train after the first double's, which holds no open double."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((doubles[0].train + 1,), only=True)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover((), only=False)


@attrs.frozen
class FailsToAnswer:
    """Raises instead of answering whether the Mexican train is open."""

    def is_open(self, table: Any, seat: int) -> bool:
        raise KeyError(seat)


def _first_failure(rules: Rules) -> ConformanceError:
    # A double is left open in one of the first games.
    for seed in range(20):
        try:
            play_random_game(rules, players=4, seed=seed, max_rounds=1, refusals=0.0)
        except ConformanceError as error:
            return error
    raise AssertionError(f"twenty games under {rules!r} conform")


@pytest.mark.parametrize(
    ("field", "rule", "rule_id", "said"),
    [
        ("open_doubles", AnswersATuple(), "D2", r"AnswersATuple\(\)\.obligation\(\) .* a tuple"),
        (
            "open_doubles",
            NamesTheNextTrain(),
            "D2",
            r"NamesTheNextTrain\(\)\.obligation\(\) .* no open double",
        ),
        (
            "mexican_train",
            FailsToAnswer(),
            "V2",
            r"FailsToAnswer\(\)\.is_open\(state, 0\) raised KeyError\(0\)",
        ),
    ],
)
def test_a_rule_that_answers_garbage_or_raises_is_named_with_the_position(
    field: str, rule: Any, rule_id: str, said: str
) -> None:
    """The kit checked is_open's answer itself but left the open-double rule's to the engine,
    whose RulesError (and a rule's own exception) left play_random_game without the position
    and the call that replays it."""
    rules = attrs.evolve(STANDARD, **{field: rule})
    error = _first_failure(rules)
    assert error.rule == rule_id
    assert re.search(said, error.detail), error.detail
    assert error.state is not None
    assert "of play_random_game(rules, players=4, seed=" in str(error)
