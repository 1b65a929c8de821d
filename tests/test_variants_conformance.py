"""The conformance kit (mexican_train.testing) over every built-in variant.

Each entry of `VARIANTS` is played for 2, 4, 8 and the most players its deal
table allows.  The ``dev`` profile plays a few opening rounds per count and one
whole two-player game per variant, to stay fast; ``ci`` plays more, and longer.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from mexican_train import Rules
from mexican_train.testing import rules_conformance
from mexican_train.variants import VARIANTS

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "dev") == "ci"

#: Games per (variant, player count), and how many rounds of each.
OPENINGS = settings(max_examples=4 if THOROUGH else 2, suppress_health_check=[HealthCheck.too_slow])
OPENING_ROUNDS = 2 if THOROUGH else 1
#: The share of positions at which every move not offered is tried, and must be refused.
REFUSALS = 0.5 if THOROUGH else 0.2
#: Whole games per variant, each to the end of its last round (E4, E5).
WHOLE_GAMES = settings(
    max_examples=2 if THOROUGH else 1, suppress_health_check=[HealthCheck.too_slow]
)


def player_counts(rules: Rules) -> list[int]:
    """Return 2, 4, 8 and the most players the deal table of *rules* allows (S1)."""
    return sorted({2, 4, 8, rules.deal_table.player_counts[-1]})


CASES = [(name, count) for name, rules in VARIANTS.items() for count in player_counts(rules)]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_variant_openings_conform(name: str, players: int) -> None:
    """Random opening rounds under the variant keep every invariant of the kit."""
    rules_conformance(
        VARIANTS[name],
        players=[players],
        settings=OPENINGS,
        max_rounds=OPENING_ROUNDS,
        refusals=REFUSALS,
    )()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_whole_games_conform(name: str) -> None:
    """Whole random games under the variant end, score and pick winners as the kit checks."""
    players = [2, 4] if THOROUGH else [2]
    rules_conformance(VARIANTS[name], players=players, settings=WHOLE_GAMES, refusals=REFUSALS)()


def test_every_variant_is_covered_at_two_four_eight_and_the_most_players() -> None:
    assert {name for name, _ in CASES} == set(VARIANTS)
    assert ("standard", 14) in CASES
    assert ("hub", 12) in CASES
