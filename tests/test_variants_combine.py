"""House rules that combine: `mexican_train.variants.combine`."""

from __future__ import annotations

import os
import re

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mexican_train import HUB, STANDARD, Rules, RulesError, UnknownVariantError, new_game
from mexican_train._frontends.cli import cli
from mexican_train.notation import format_state, parse_state
from mexican_train.serialize import state_from_json, to_json
from mexican_train.testing import play_random_game
from mexican_train.variants import (
    VARIANTS,
    CloseAnyOrder,
    CloseInOrder,
    CoverOwnDouble,
    FirstTurn,
    NeverBind,
    StrictCloseInOrder,
    combine,
    get_variant,
    variant_name,
)
from strategies import combinations, seeds

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "dev") == "ci"


def test_combine_applies_each_house_rule_to_the_base() -> None:
    """Rulebook B's optional readings (D3's stronger reading, shared ties) on hub."""
    rules = combine("hub", "strict-double-order", "shared-ties")
    assert rules == attrs.evolve(HUB, open_doubles=StrictCloseInOrder(), tie_break=False)


def test_combine_takes_names_and_values_alike() -> None:
    by_value = combine(HUB, VARIANTS["strict-double-order"], VARIANTS["shared-ties"])
    assert by_value == combine("Rulebook-B", "strict double order", "Shared_Ties")


def test_combine_applies_a_variants_difference_from_its_own_preset() -> None:
    """single-tile-first-turn is standard with a one-tile first turn: on hub, that change only."""
    rules = combine("hub", "single-tile-first-turn")
    assert rules == attrs.evolve(HUB, first_turn=FirstTurn(chain=False))
    assert rules.engine_placement is HUB.engine_placement  # S4 stays
    assert rules.deal_table is HUB.deal_table


def test_combine_order_does_not_matter() -> None:
    names = ["doubles-never-bind", "double-blank-25", "open-hands", "ascending"]
    assert combine("standard", *names) == combine("standard", *reversed(names))


def test_combine_a_house_rule_named_twice_counts_once() -> None:
    assert combine("hub", "shared-ties", "shared-ties") == combine("hub", "shared-ties")


def test_combine_with_no_house_rule_is_the_base() -> None:
    assert combine("hub") == HUB


def test_combine_refuses_two_values_of_one_field_naming_both() -> None:
    with pytest.raises(RulesError, match="'double-blank-0' and 'double-blank-25' conflict"):
        combine("standard", "double-blank-25", "double-blank-0")


def test_combine_merges_two_settings_of_one_rule() -> None:
    """reverse-doubles changes the order open doubles close in (D3, V3), dead-doubles-bind
    whether a dead double binds (D4, V4): two settings of one rule, so both hold."""
    both = CloseInOrder(reverse=True, release_dead=False)
    assert combine("standard", "reverse-doubles", "dead-doubles-bind").open_doubles == both
    assert combine("hub", "dead-doubles-bind", "reverse-doubles") == attrs.evolve(
        HUB, open_doubles=both
    )
    assert combine("hub-reverse", "dead-doubles-bind") == combine(
        "hub", "reverse-doubles", "dead-doubles-bind"
    )


def test_a_merged_combination_reads_back_from_its_name() -> None:
    rules = get_variant("hub+reverse-doubles+dead-doubles-bind")
    assert variant_name(rules) == "hub+dead-doubles-bind+reverse-doubles"
    assert get_variant("hub+dead-doubles-bind+reverse-doubles") == rules


def test_a_new_kind_of_open_double_rule_keeps_the_settings_it_has() -> None:
    """strict-double-order and cover-own-double have both settings, CloseAnyOrder one (D4)."""
    for name, kind in [
        ("strict-double-order", StrictCloseInOrder),
        ("cover-own-double", CoverOwnDouble),
    ]:
        rules = combine("standard", "reverse-doubles", name, "dead-doubles-bind")
        assert rules.open_doubles == kind(reverse=True, release_dead=False), name
    rules = combine("standard", "dead-doubles-bind", "any-double")
    assert rules.open_doubles == CloseAnyOrder(release_dead=False)


def test_a_house_rule_on_a_new_kind_of_rule_from_the_base() -> None:
    """The base's own setting (hub-reverse: V3) carries over to strict-double-order's rule."""
    rules = combine("hub-reverse", "strict-double-order")
    assert rules == attrs.evolve(HUB, open_doubles=StrictCloseInOrder(reverse=True))


def test_the_command_line_combines_two_settings_of_one_rule() -> None:
    args = ["rules", "hub", "--house", "reverse-doubles", "--house", "dead-doubles-bind"]
    result = CliRunner().invoke(cli, args, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "The hub+dead-doubles-bind+reverse-doubles rules" in text
    assert "closed in reverse order" in text
    assert "Even a double nothing can cover still binds (V4)" in text


def test_combine_merges_two_settings_of_the_first_turn() -> None:
    """single-tile-first-turn and first-turn-draw change two settings of P4's first turn (V1)."""
    wanted = FirstTurn(chain=False, may_draw=True)
    assert combine("standard", "first-turn-draw", "single-tile-first-turn").first_turn == wanted
    assert combine("hub", "single-tile-first-turn", "first-turn-draw").first_turn == wanted


@pytest.mark.parametrize(
    ("house", "setting"),
    [
        ("reverse-doubles", "reverse"),
        ("hub-reverse", "reverse"),
        ("dead-doubles-bind", "release_dead"),
    ],
)
def test_combine_refuses_a_setting_that_the_other_kind_of_rule_lacks(
    house: str, setting: str
) -> None:
    """Never-binding doubles have no closing order and never bind, dead or not (V3, V4)."""
    first, second = sorted([house, "doubles-never-bind"])
    with pytest.raises(RulesError, match=re.escape(
        f"{first!r} and {second!r} conflict: {house!r} sets Rules.open_doubles.{setting} "
    ) + r".* is NeverBind\(\), which has no such setting"):  # fmt: skip
        combine("standard", house, "doubles-never-bind")


def test_combine_refuses_an_order_for_doubles_closed_in_any_order() -> None:
    """any-double closes open doubles in any order, reverse-doubles most recent first (V3)."""
    with pytest.raises(RulesError, match=r"'any-double' and 'reverse-doubles' conflict: "
                       r"'reverse-doubles' sets Rules\.open_doubles\.reverse"):  # fmt: skip
        combine("standard", "reverse-doubles", "any-double")


def test_combine_refuses_two_kinds_of_one_rule_naming_both() -> None:
    with pytest.raises(
        RulesError,
        match=r"'any-double' and 'strict-double-order' conflict: both set Rules\.open_doubles "
        r"\(to CloseAnyOrder\(release_dead=True\) and to StrictCloseInOrder",
    ):
        combine("hub", "strict-double-order", "any-double")


def test_combine_refuses_two_values_of_one_setting_naming_the_setting() -> None:
    """hub has no special first turn: rules that bring one with a chain, and a single tile."""
    chain = attrs.evolve(HUB, first_turn=FirstTurn(chain=True))
    with pytest.raises(
        RulesError,
        match=r"'single-tile-first-turn' and 'the unnamed rules given as argument 3' conflict: "
        r"both set Rules\.first_turn\.chain \(to False and to True\)",
    ):
        combine("hub", "single-tile-first-turn", chain)


def test_combine_refuses_a_house_rule_that_contradicts_the_base() -> None:
    """hub-reverse closes open doubles most recent first; any-double, in any order (V3)."""
    with pytest.raises(RulesError, match="'any-double' and 'hub-reverse' conflict"):
        combine("hub-reverse", "any-double")


HOUSE_RULES = [name for name in VARIANTS if name not in ("standard", "hub")]


def test_every_refusal_between_two_house_rules_is_mutual_and_names_both() -> None:
    refusals = {}
    for first in HOUSE_RULES:
        for second in HOUSE_RULES:
            if first != second:
                try:
                    combine(first, second)
                except RulesError as error:
                    refusals[first, second] = str(error)
    assert all((second, first) in refusals for first, second in refusals)
    assert all(f"{a!r}" in message and f"{b!r}" in message for (a, b), message in refusals.items())
    # The true contradictions: two kinds of open-double rule (12 ordered pairs), an order or
    # dead doubles for a rule without them (10), two Mexican-train rules (6), two scores (2).
    assert len(refusals) == 30


def test_combine_refuses_a_preset_as_a_house_rule() -> None:
    with pytest.raises(RulesError, match="'hub' changes nothing on its own preset"):
        combine("standard", "hub")


def test_combine_refuses_an_unknown_name() -> None:
    with pytest.raises(UnknownVariantError) as caught:
        combine("hub", "chickenfoot")
    assert caught.value.name == "chickenfoot"


def test_combine_refuses_an_argument_that_is_no_variant() -> None:
    with pytest.raises(TypeError, match="combine\\(\\) takes variant names or Rules values"):
        combine("hub", 3)  # type: ignore[arg-type]


def test_combine_says_which_combination_cannot_be_played() -> None:
    """Each alone is sound; together, nine rounds from a double-6 set's seven engines (S2)."""
    with pytest.raises(RulesError, match=r"cannot be played: Rules\.rounds=9"):
        combine(attrs.evolve(STANDARD, max_pip=6), attrs.evolve(STANDARD, rounds=9))


def test_combination_has_a_canonical_name_base_then_sorted_house_rules() -> None:
    rules = combine("hub", "strict-double-order", "shared-ties")
    assert variant_name(rules) == "hub+shared-ties+strict-double-order"


def test_get_variant_reads_a_combination_name_in_any_order() -> None:
    rules = combine("hub", "strict-double-order", "shared-ties")
    assert get_variant("hub+shared-ties+strict-double-order") == rules
    assert get_variant("b + Strict Double Order + shared_ties") == rules


def test_get_variant_refuses_an_empty_part_of_a_combination() -> None:
    with pytest.raises(UnknownVariantError):
        get_variant("hub+")


def test_a_combination_equal_to_a_catalogue_entry_goes_by_the_entrys_name() -> None:
    assert variant_name(combine("hub", "reverse-doubles")) == "hub-reverse"


def test_rules_that_no_combination_builds_have_no_name() -> None:
    assert variant_name(attrs.evolve(HUB, open_doubles=NeverBind(), max_pip=9)) is None


def test_notation_writes_and_reads_a_combination_by_name() -> None:
    state = new_game(3, combine("hub", "strict-double-order", "shared-ties"), seed=1)
    text = format_state(state)
    assert text.startswith("hub+shared-ties+strict-double-order ")
    assert parse_state(text) == state


def test_json_round_trips_combined_rules() -> None:
    state = new_game(3, combine("standard", "any-double", "last-tile-call"), seed=2)
    again = state_from_json(to_json(state))
    assert again == state
    assert variant_name(again.rules) == "standard+any-double+last-tile-call"


@given(combinations())
def test_every_combination_reads_back_from_its_canonical_name(names: tuple[str, ...]) -> None:
    rules = combine(*names)
    name = variant_name(rules)
    assert name is not None
    assert get_variant(name) == rules


@given(combinations(), st.permutations(range(5)))
def test_combine_is_order_independent(names: tuple[str, ...], order: list[int]) -> None:
    house = list(names[1:])
    shuffled = [house[i] for i in order if i < len(house)]
    assert combine(names[0], *shuffled) == combine(*names)


@given(combinations(bases=tuple(VARIANTS)))
def test_combine_keeps_every_house_rules_change(names: tuple[str, ...]) -> None:
    """Each house rule's settings hold in the result; every other setting is the base's."""
    rules = combine(*names)
    base = get_variant(names[0])
    for field in attrs.fields_dict(Rules):
        changed: dict[str | None, object] = {}
        kinds = set()
        for name in names[1:]:
            house = get_variant(name)
            preset = STANDARD if _distance(house, STANDARD) <= _distance(house, HUB) else HUB
            before = _settings(field, getattr(preset, field))
            for setting, value in _settings(field, getattr(house, field)).items():
                if before.get(setting, _ABSENT) != value:
                    changed[setting] = value
                    kinds.add(_settings(field, getattr(house, field))[None])
        result = _settings(field, getattr(rules, field))
        original = _settings(field, getattr(base, field))
        if not changed:
            assert result == original, (names, field)
        for setting, value in changed.items():
            assert result[setting] == value, (names, field, setting)
        for setting, value in result.items():
            if setting is not None and setting not in changed and setting in original:
                assert value == original[setting], (names, field, setting)
        assert result[None] in {original[None], *kinds}, (names, field)


_ABSENT = object()


def _settings(field: str, value: object) -> dict[str | None, object]:
    """A rule's kind (under None) and its settings; any other field's value (under None)."""
    kind = type(value)
    if field in ("first_turn", "mexican_train", "open_doubles") and attrs.has(kind):
        return {None: kind, **{a.name: getattr(value, a.name) for a in attrs.fields(kind)}}
    return {None: value}


def _distance(rules: Rules, preset: Rules) -> int:
    return sum(getattr(rules, f) != getattr(preset, f) for f in attrs.fields_dict(Rules))


@settings(
    max_examples=12 if THOROUGH else 4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(combinations(), st.sampled_from([2, 3, 4]), seeds())
def test_random_combinations_conform(names: tuple[str, ...], players: int, seed: int) -> None:
    """The conformance kit (mexican_train.testing) over random combinations of house rules."""
    rules = combine(*names)
    if rules.highest_engine is not None:
        players = max(players, 4)  # S2: Table A deals the 12-12 from 4 players on
    play_random_game(rules, players, seed, max_rounds=1, refusals=0.2)


def test_close_in_order_is_the_default_of_both_presets() -> None:
    """The premise of the conflict tests: both presets close open doubles in order (D3)."""
    assert STANDARD.open_doubles == HUB.open_doubles == CloseInOrder()
