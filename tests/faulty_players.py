"""Opponents with bugs of their own, for the RL environments' tests of a bot that fails.

Each fails once, at the *at*-th call (counted by *calls*, a function every copy shares:
the environments seat a deep copy of an observing player each game, and a deep copy
keeps a function as it is), and plays a legal move otherwise; *at* 0 never fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from mexican_train import Move, NextRound, PlannerPlayer, PlayerView, determinize
from mexican_train.events import Event, RoundStarted


def counter() -> Callable[[], int]:
    """Return a function that returns 1, 2, 3, ... on its successive calls."""
    calls: list[None] = []

    def count() -> int:
        calls.append(None)
        return len(calls)

    return count


class RaisesOnChoose:
    """``choose`` raises ZeroDivisionError at its *at*-th call."""

    def __init__(self, at: int, calls: Callable[[], int] | None = None) -> None:
        self.at, self.calls = at, calls or counter()

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        if self.calls() == self.at:
            return moves[len(moves) // 0]
        return PlannerPlayer().choose(view, moves)


class ChoosesIllegal:
    """``choose`` returns `NextRound` in the middle of a round at its *at*-th call."""

    def __init__(self, at: int, calls: Callable[[], int] | None = None) -> None:
        self.at, self.calls = at, calls or counter()

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        if self.calls() == self.at:
            return NextRound()
        return PlannerPlayer().choose(view, moves)


class RaisesOnObserve:
    """Keeps the round's events, as `SearchPlayer` does; ``observe`` raises at its *at*-th call.

    ``choose`` checks that the events it was told fit its view (`determinize` raises
    unless they do): a history that carried over from a game or a step cut short fails.
    """

    def __init__(self, at: int, calls: Callable[[], int] | None = None) -> None:
        self.at, self.calls = at, calls or counter()
        self.history: list[Event] = []

    def observe(self, events: Iterable[Event]) -> None:
        if self.calls() == self.at:
            raise ZeroDivisionError("a bug in observe()")
        for event in events:
            if type(event) is RoundStarted:
                self.history.clear()
            self.history.append(event)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        determinize(view, random.Random(0), history=self.history)
        return PlannerPlayer().choose(view, moves)


#: Each faulty opponent by name, and the exception that reaches the environment's caller.
FAULTS: dict[str, tuple[type[RaisesOnChoose | ChoosesIllegal | RaisesOnObserve], str]] = {
    "choose-raises": (RaisesOnChoose, "ZeroDivisionError"),
    "choose-illegal": (ChoosesIllegal, "IllegalMoveError"),
    "observe-raises": (RaisesOnObserve, "ZeroDivisionError"),
}


def failure_of(step: Callable[[], object], times: int = 200) -> Exception:
    """Call *step* until it raises, at most *times* times; return what it raised."""
    for _ in range(times):
        try:
            step()
        except Exception as error:  # the faulty opponent's: the test checks which
            return error
    raise AssertionError(f"no failure in {times} steps")
