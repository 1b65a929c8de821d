"""A state's repr fits on a line or two, naming its rules where they have a name."""

from __future__ import annotations

import attrs
import pytest

from mexican_train import HUB, STANDARD, TABLE_B, DealTable, Rules, get_variant, new_game, view
from mexican_train.variants import combine

#: Two lines of a 100-column terminal.
TWO_LINES = 200


@pytest.mark.parametrize(
    ("rules", "shown"),
    [
        (STANDARD, "rules=STANDARD,"),
        (HUB, "rules=HUB,"),
        (get_variant("train-dominoes"), "rules=get_variant('train-dominoes'),"),
        (combine("hub", "shared-ties"), "rules=get_variant('hub+shared-ties'),"),
        (attrs.evolve(STANDARD, max_pip=6), "rules=attrs.evolve(STANDARD, max_pip=6),"),
    ],
)  # fmt: skip
def test_a_states_repr_names_its_rules_and_fits_two_lines(rules: Rules, shown: str) -> None:
    state = new_game(4, rules, seed=1)
    text = repr(state)
    assert len(text) <= TWO_LINES, text
    assert text.startswith("GameState(" + shown)


def test_the_rules_in_a_repr_build_the_same_rules() -> None:
    """The rules part reads like the call that builds them (STYLE: a repr reads like the constructor)."""
    names = {
        "attrs": attrs, "STANDARD": STANDARD, "HUB": HUB, "get_variant": get_variant,
        "DealTable": DealTable,
    }  # fmt: skip
    for rules in (
        STANDARD,
        combine("standard", "ascending", "open-hands"),
        attrs.evolve(HUB, rounds=2),
        attrs.evolve(STANDARD, deal_table=TABLE_B),
        attrs.evolve(HUB, deal_table=DealTable("Duo", {(2, 6): 7}, {2: 6})),
    ):
        text = repr(new_game(2, rules, seed=0))
        expression = text.removeprefix("GameState(rules=").split(", players=")[0]
        assert eval(expression, names) == rules


def test_a_views_repr_names_its_rules_too() -> None:
    text = repr(view(new_game(4, HUB, seed=1), 0))
    assert text.startswith("PlayerView(rules=HUB, players=4,")


@pytest.mark.parametrize("table", [TABLE_B, DealTable("Duo", {(2, 6): 7}, {2: 6, 3: 9})])
def test_a_deal_tables_repr_builds_the_same_table(table: DealTable) -> None:
    """STYLE: a repr reads like the constructor call (it showed mappingproxy(...))."""
    assert eval(repr(table), {"DealTable": DealTable}) == table
