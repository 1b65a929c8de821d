"""The conformance kit (mexican_train.testing) over every built-in variant and every pair.

Each entry of `VARIANTS` is played for 2, 4, 8 and the most players its deal
table allows.  The ``dev`` profile plays a few opening rounds per count and one
whole two-player game per variant, to stay fast; ``ci`` plays more, and longer.

Every pair of house rules that `combine` accepts is played too: the pairs that
change settings of one rule (``reverse-doubles`` with ``dead-doubles-bind``) whole
games under both profiles, every other pair an opening round under ``dev`` and a
whole game under ``ci``.
"""

from __future__ import annotations

import os

import attrs
import pytest
from hypothesis import HealthCheck, settings

from mexican_train import HUB, STANDARD, Rules, RulesError, new_game
from mexican_train.testing import rules_conformance
from mexican_train.variants import VARIANTS, combine, get_variant, variant_name

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


def plays(rules: Rules, players: int) -> bool:
    """Return whether *rules* deal for *players* (``thirteen-rounds`` needs a 12-12, S2)."""
    try:
        new_game(players, rules, seed=0)
    except RulesError:
        return False
    return True


def player_counts(rules: Rules) -> list[int]:
    """Return 2, 4, 8 and the most players the deal table of *rules* allows (S1), each
    where the rules can be played, else the next count that can."""
    table = rules.deal_table.player_counts
    counts = {2, 4, 8, table[-1]}
    return sorted({next(n for n in table if n >= count and plays(rules, n)) for count in counts})


def fewest(rules: Rules, counts: list[int]) -> list[int]:
    """Return *counts* where *rules* can be played, moved up to the fewest that can."""
    lowest = player_counts(rules)[0]
    return sorted({max(count, lowest) for count in counts})


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
    players = fewest(VARIANTS[name], [2, 4] if THOROUGH else [2])
    rules_conformance(VARIANTS[name], players=players, settings=WHOLE_GAMES, refusals=REFUSALS)()


def test_every_variant_is_covered_at_two_four_eight_and_the_most_players() -> None:
    assert {name for name, _ in CASES} == set(VARIANTS)
    assert ("standard", 14) in CASES
    assert ("hub", 12) in CASES


# -- pairs of house rules ------------------------------------------------------------

HOUSE_RULES = [name for name in VARIANTS if name not in ("standard", "hub")]


def changed_fields(rules: Rules) -> set[str]:
    """Return the fields of `Rules` on which *rules* differs from its nearer preset."""
    fields = [field.name for field in attrs.fields(Rules)]
    by_preset = [{f for f in fields if getattr(rules, f) != getattr(p, f)} for p in (STANDARD, HUB)]
    return min(by_preset, key=len)


def combined_pairs() -> dict[str, tuple[Rules, bool]]:
    """Return every pair of house rules that combines into rules no variant has, each by
    ``base+house`` and with whether the two change the same rule (so that `combine`
    merges settings of it); of pairs that give the same rules, the first.

    Both orders are tried, since the first is the base: ``hub-reverse`` then a house
    rule is played on Rulebook B, the other way round on Rulebook A.
    """
    pairs: dict[str, tuple[Rules, bool]] = {}
    seen = set(VARIANTS.values())
    for base in HOUSE_RULES:
        for house in HOUSE_RULES:
            try:
                rules = combine(base, house)
            except RulesError:
                continue
            if rules not in seen:
                seen.add(rules)
                shared = changed_fields(VARIANTS[base]) & changed_fields(VARIANTS[house])
                pairs[f"{base}+{house}"] = (rules, bool(shared))
    return pairs


PAIRS = combined_pairs()
MERGED = [name for name, (_, merged) in PAIRS.items() if merged]
#: One game per pair: a whole game under ``ci``, its first round under ``dev``.
PAIR_GAMES = settings(max_examples=1, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", list(PAIRS))
def test_every_pair_of_house_rules_conforms(name: str) -> None:
    """Random play under every pair `combine` accepts keeps every invariant of the kit."""
    rules_conformance(
        PAIRS[name][0],
        players=fewest(PAIRS[name][0], [2]),
        settings=PAIR_GAMES,
        max_rounds=None if THOROUGH else 1,
        refusals=REFUSALS,
    )()


@pytest.mark.parametrize("name", MERGED)
def test_merged_pairs_play_whole_games(name: str) -> None:
    """Whole games under each pair whose settings of one rule `combine` merges (D2-D4, P4)."""
    rules = PAIRS[name][0]
    players = fewest(rules, [2, 4] if THOROUGH else [2])
    rules_conformance(rules, players=players, settings=WHOLE_GAMES, refusals=REFUSALS)()
    canonical = variant_name(rules)
    assert canonical is not None
    assert get_variant(canonical) == rules


def test_the_pairs_cover_every_house_rule_and_the_merges() -> None:
    assert {part for name in PAIRS for part in name.split("+")} == set(HOUSE_RULES)
    assert {
        "reverse-doubles+dead-doubles-bind",
        "hub-reverse+dead-doubles-bind",
        "dead-doubles-bind+strict-double-order",
        "any-double+dead-doubles-bind",
        "single-tile-first-turn+first-turn-draw",
    } <= set(MERGED)
    assert "double-blank-0+shared-ties" in set(PAIRS) - set(MERGED)
    # 239 distinct rules from the 476 ordered pairs that combine; two are catalogue
    # entries (hub-reverse with reverse-doubles, on either preset).
    assert len(PAIRS) == 237
    assert len(MERGED) == 10
