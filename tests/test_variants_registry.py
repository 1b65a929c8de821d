"""The variant registry (names, aliases, entry points), rules as documentation, and bad input."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import mexican_train
from mexican_train import (
    HUB,
    STANDARD,
    DealError,
    MexicanTrainError,
    Rules,
    RulesError,
    Tile,
    UnknownVariantError,
    new_game,
)
from mexican_train.variants import (
    ALIASES,
    ENTRY_POINT_GROUP,
    VARIANTS,
    CloseAnyOrder,
    CloseInOrder,
    Cover,
    FirstTurn,
    NeverBind,
    OpenDouble,
    combine,
    describe_rules,
    describe_variant,
    get_variant,
    rules_table,
    variant_name,
    variant_names,
)

# No catalogue entry and no combination of them (double_blank_score=7 is no house rule).
CHICKEN = attrs.evolve(HUB, open_doubles=NeverBind(), double_blank_score=7)


class FakeEntryPoint:
    """Stands in for an `importlib.metadata.EntryPoint` registered by an installed package."""

    def __init__(self, name: str, loads: object) -> None:
        self.name = name
        self.value = f"fake_plugin:{name.upper()}"
        self.group = ENTRY_POINT_GROUP
        self._loads = loads

    def load(self) -> object:
        if isinstance(self._loads, Exception):
            raise self._loads
        return self._loads


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[str]]:
    """Install fake entry points; return a function that records each group looked up."""
    calls: list[str] = []

    def install(*entry_points: FakeEntryPoint) -> list[str]:
        def entry_points_(*, group: str) -> list[FakeEntryPoint]:
            calls.append(group)
            return list(entry_points) if group == ENTRY_POINT_GROUP else []

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points_)
        return calls

    return install


# -- names and aliases -----------------------------------------------------------


def test_variants_is_a_read_only_mapping_of_rules() -> None:
    assert all(isinstance(rules, Rules) for rules in VARIANTS.values())
    assert VARIANTS["standard"] is STANDARD
    assert VARIANTS["hub"] is HUB
    with pytest.raises(TypeError):
        VARIANTS["mine"] = STANDARD  # type: ignore[index]


def test_the_catalogue_is_exported_from_the_top_level_package() -> None:
    assert mexican_train.VARIANTS is VARIANTS
    assert mexican_train.get_variant is get_variant
    assert {"VARIANTS", "get_variant", "UnknownVariantError", "CallLastTile"} <= set(
        mexican_train.__all__
    )


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("a", "standard"),
        ("Rulebook-A", "standard"),
        ("rulebook_a", "standard"),
        ("B", "hub"),
        ("rulebook b", "hub"),
        ("Train Dominoes", "train-dominoes"),
        ("no_mexican_train", "train-dominoes"),
        ("  SHORT-game ", "short-game"),
    ],
)
def test_get_variant_accepts_aliases_case_and_spacing(alias: str, name: str) -> None:
    assert get_variant(alias) is VARIANTS[name]


def test_every_alias_names_a_built_in_variant() -> None:
    assert set(ALIASES.values()) <= set(VARIANTS)
    assert not set(ALIASES) & set(VARIANTS)


def test_unknown_variant_error_lists_the_valid_names() -> None:
    with pytest.raises(UnknownVariantError) as info:
        get_variant("chickenfoot")
    error = info.value
    assert isinstance(error, LookupError)
    assert isinstance(error, MexicanTrainError)
    assert error.name == "chickenfoot"
    assert error.known == variant_names()
    for name in VARIANTS:
        assert name in str(error)


def test_get_variant_refuses_a_name_that_is_not_a_string() -> None:
    with pytest.raises(TypeError, match="a variant name is a str"):
        get_variant(6)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["x" * 10**6, "hub+" + "x" * 10**6])
def test_an_unknown_long_name_is_cut_in_the_message(name: str) -> None:
    # The message was a million characters long: the whole name, repeated.
    with pytest.raises(UnknownVariantError) as info:
        get_variant(name)
    assert info.value.name == name.rpartition("+")[2]
    assert "(1000000 characters)" in str(info.value)
    assert len(str(info.value)) < 1000


@pytest.mark.parametrize("name", ["hub+", "+hub", "hub++shared-ties", "hub+ +shared-ties"])
def test_a_combination_with_an_empty_name_says_so(name: str) -> None:
    # It was "no variant named ''", naming nothing the user wrote.
    with pytest.raises(UnknownVariantError) as info:
        get_variant(name)
    assert info.value.name == name
    assert str(info.value).startswith(f"{name!r} has an empty name in its '+' list")


@pytest.mark.parametrize("value", ["hub", None, 5])
def test_variant_name_of_something_not_rules_raises_type_error(value: Any) -> None:
    # It was an AttributeError: 'str' object has no attribute 'deal_table'.
    with pytest.raises(TypeError) as info:
        variant_name(value)
    assert str(info.value) == f"variant_name() needs a Rules value, not {value!r}"


def test_variant_name_is_the_reverse_of_get_variant() -> None:
    for name, rules in VARIANTS.items():
        assert variant_name(rules) == name
        assert variant_name(attrs.evolve(rules)) == name  # equal, not identical
    assert variant_name(attrs.evolve(STANDARD, max_pip=6)) is None


# -- third-party variants through entry points ----------------------------------------


def test_a_plugin_variant_is_found_by_name(plugins: Callable[..., list[str]]) -> None:
    plugins(FakeEntryPoint("Chickenfoot", CHICKEN))
    assert get_variant("chickenfoot") is CHICKEN
    assert variant_names()[-1] == "chickenfoot"
    assert variant_name(CHICKEN) == "chickenfoot"


def test_plugins_are_loaded_only_for_names_that_are_not_built_in(
    plugins: Callable[..., list[str]],
) -> None:
    calls = plugins(FakeEntryPoint("chickenfoot", CHICKEN))
    assert get_variant("hub") is HUB
    assert variant_name(STANDARD) == "standard"
    assert calls == []
    get_variant("chickenfoot")
    assert calls == [ENTRY_POINT_GROUP]


def test_a_built_in_name_wins_over_a_plugin(plugins: Callable[..., list[str]]) -> None:
    plugins(FakeEntryPoint("standard", CHICKEN))
    assert get_variant("standard") is STANDARD
    assert variant_names().count("standard") == 1
    assert variant_name(CHICKEN) is None


def test_an_unknown_name_lists_plugin_variants_too(plugins: Callable[..., list[str]]) -> None:
    plugins(FakeEntryPoint("chickenfoot", CHICKEN))
    with pytest.raises(UnknownVariantError, match="chickenfoot") as info:
        get_variant("mexican-chickenfoot")
    assert "chickenfoot" in info.value.known


@pytest.mark.parametrize(
    ("loads", "message"),
    [(ImportError("No module named 'fake_plugin'"), "failed to load"), ("rules", "not a Rules")],
)
def test_a_broken_plugin_is_refused_with_its_name(
    plugins: Callable[..., list[str]], loads: object, message: str
) -> None:
    plugins(FakeEntryPoint("broken", loads))
    with pytest.raises(RulesError, match=message) as info:
        get_variant("broken")
    assert "'broken'" in str(info.value)
    assert "fake_plugin:BROKEN" in str(info.value)
    assert variant_name(CHICKEN) is None  # a broken plugin cannot match, and is skipped


# -- rules as documentation ------------------------------------------------------------


def test_describe_rules_has_the_same_axes_for_every_variant() -> None:
    axes = list(describe_rules(STANDARD))
    for rules in VARIANTS.values():
        assert list(describe_rules(rules)) == axes


def test_describe_rules_tells_every_catalogue_entry_from_standard() -> None:
    """Each entry differs from STANDARD on at least one axis of the docs table."""
    standard = describe_rules(STANDARD)
    for name, rules in VARIANTS.items():
        if name != "standard":
            assert describe_rules(rules) != standard, name


def test_describe_rules_shows_a_user_rule_by_its_repr() -> None:
    @attrs.frozen
    class EveryOtherRound:
        def is_open(self, table: object, seat: int) -> bool:
            return True

    described = describe_rules(attrs.evolve(STANDARD, mexican_train=EveryOtherRound()))
    assert described["Mexican train (V2)"].endswith("EveryOtherRound()")
    assert describe_rules(attrs.evolve(STANDARD, open_doubles=CloseAnyOrder(False)))[
        "dead doubles (D4, V4)"
    ] == ("still bind")


def test_describe_rules_shows_a_user_rule_without_a_repr_of_its_own_by_its_class() -> None:
    """A rule whose repr is object's is named by its class, not by an address that
    changes at every run (as ``mexican-train rules --list`` shows a registered variant)."""

    class Plain:
        open_from_turn = None

        def is_open(self, table: object, seat: int) -> bool:
            return True

    class PlainDoubles:
        def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
            raise AssertionError("not asked")

        follow_up = obligation

    described = describe_rules(
        attrs.evolve(STANDARD, mexican_train=Plain(), open_doubles=PlainDoubles())
    )
    assert described["Mexican train (V2)"] == f"{__name__}.{Plain.__qualname__}()"
    assert described["open doubles (D2, D3, V3)"] == f"{__name__}.{PlainDoubles.__qualname__}()"


@pytest.mark.parametrize(
    ("house", "says", "never"),
    [
        (("ascending", "short-game"), "three lowest engines: 0-0, 1-1 and 2-2", "highest"),
        (("short-game", "thirteen-rounds"), "engines 12-12, 11-11 and 10-10", "thirteen"),
        (("ascending", "thirteen-rounds"), "from 0-0 in round 1 up to 12-12", "down"),
    ],
)
def test_a_combination_describes_its_rounds_once_and_as_played(
    house: tuple[str, ...], says: str, never: str
) -> None:
    # The parts' sentences were pasted together: "the engines go up ... A short game of
    # three rounds, with the three highest engines", or both "three" and "thirteen" rounds.
    rules = combine("standard", *house)
    text = describe_variant(variant_name(rules) or "")
    assert says in text
    assert never not in text.lower()
    assert text.count("(S2, V9)") == 1
    first = rules.engine_pip(18, 1)
    assert f"{first}-{first}" in text


@pytest.mark.parametrize(
    ("name", "rulebook"),
    [("hub+shared-ties", "Rulebook B: "), ("standard+short-game", "Rulebook A: ")],
)
def test_a_combination_never_calls_its_preset_the_rulebook_exactly(
    name: str, rulebook: str
) -> None:
    # "Rulebook B exactly: ..." opened the description of hub+shared-ties, a departure
    # from Rulebook B; the preset alone is its rulebook exactly.
    text = describe_variant(name)
    assert text.startswith(rulebook)
    assert "exactly" not in text
    preset = name.split("+")[0]
    assert describe_variant(preset).startswith(rulebook.replace(":", " exactly:"))


#: Each preset's rulebook clauses, and the field of `Rules` each one describes.
_CLAUSES = {
    "standard": [
        ("deal_table", "Table A (S1)"),
        ("engine_placement", "the engine's holder starts (S3)"),
        ("first_turn", "a first turn that builds your own train (P4)"),
        ("mexican_train", "the Mexican train from your second turn (V2)"),
        ("open_doubles", "open doubles closed in the order played (D3)"),
    ],
    "hub": [
        ("deal_table", "Table B (S1)"),
        ("engine_placement", "the engine set aside and a rotating first player (S4)"),
        ("first_turn", "an ordinary first turn (V1)"),
        ("mexican_train", "the Mexican train open from the start (V2)"),
    ],
}


@pytest.mark.parametrize("preset", sorted(_CLAUSES))
def test_a_combination_says_only_what_of_its_rulebook_it_keeps(preset: str) -> None:
    # hub+first-turn-draw opened with Rulebook B's "an ordinary first turn (V1)" and went
    # on to a first turn that builds one's own train (P4): a clause of the preset's
    # rulebook is said only where no other part changes its rule.
    base = get_variant(preset)
    combined = 0
    for house in VARIANTS:
        try:
            rules = combine(preset, house)
        except RulesError:
            continue  # a preset, or a rule the preset cannot take
        combined += 1
        text = describe_variant(f"{preset}+{house}")
        for field, clause in _CLAUSES[preset]:
            kept = getattr(rules, field) == getattr(base, field)
            assert (clause in text) == kept, (house, field)
    assert combined > 10
    assert "ordinary first turn" not in describe_variant("hub+first-turn-draw")


def test_rules_table_has_a_row_per_variant() -> None:
    table = rules_table()
    assert table[0] == ("variant", *describe_rules(STANDARD))
    assert [row[0] for row in table[1:]] == list(VARIANTS)
    assert all(len(row) == len(table[0]) for row in table)
    assert rules_table({"mine": HUB})[1] == ("mine", *describe_rules(HUB).values())


# -- bad input: refused when the rules are made or the game created ----------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand_size": 1}, "Rules.hand_size must be None or a whole number >= 2, not 1"),
        ({"max_pip": 0}, "Rules.max_pip must be None or a whole number >= 1, not 0"),
        ({"rounds": 0}, "Rules.rounds must be None or a whole number >= 1, not 0"),
        ({"last_tile_penalty": -2}, "Rules.last_tile_penalty must be a whole number >= 0"),
        ({"max_pip": 6, "hand_size": 15}, "Rules.hand_size=15 cannot be dealt"),
        ({"max_pip": 6, "rounds": 8}, "Rules.rounds=8, but a double-6 set has only 7 engines"),
    ],
)
def test_impossible_rules_are_refused_naming_the_field_and_value(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        attrs.evolve(STANDARD, **changes)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: attrs.evolve(STANDARD, draw_until_playable="yes"), "draw_until_playable"),  # type: ignore[arg-type]
        (lambda: attrs.evolve(STANDARD, tie_break=None), "tie_break"),  # type: ignore[arg-type]
        (lambda: attrs.evolve(STANDARD, deal_table="Table A"), "deal_table"),  # type: ignore[arg-type]
        (lambda: FirstTurn(chain=1), "chain"),  # type: ignore[arg-type]
        (lambda: CloseInOrder(reverse="no"), "reverse"),  # type: ignore[arg-type]
        (lambda: CloseAnyOrder(release_dead=0), "release_dead"),  # type: ignore[arg-type]
    ],
)
def test_values_of_the_wrong_type_are_refused(make: Callable[[], object], field: str) -> None:
    with pytest.raises(TypeError, match=field):
        make()


def test_a_hand_size_that_does_not_fit_the_players_is_refused_at_new_game() -> None:
    """S1: the set comes from the table for 8 players, so only new_game can tell."""
    rules = attrs.evolve(STANDARD, hand_size=20)
    with pytest.raises(DealError, match=r"Rules.hand_size=20 does not fit: 8 players x 20"):
        new_game(8, rules)


def test_more_rounds_than_engines_is_refused_at_new_game() -> None:
    """S2: 11 rounds cannot be played with the double-9 set Table A picks for 2 players."""
    with pytest.raises(RulesError, match=r"Rules.rounds=11"):
        new_game(2, attrs.evolve(STANDARD, rounds=11))


def test_rules_refuse_a_set_larger_than_double_30() -> None:
    """A huge max_pip is refused when the Rules are built, naming the field and the
    value, instead of `new_game` trying to shuffle millions of tiles.  Tiles stop at
    30 too, so a hostile notation string cannot make a huge number."""
    with pytest.raises(ValueError, match="from 0 to 30"):
        Tile.parse("1000000000-1")
    assert attrs.evolve(STANDARD, max_pip=30).max_pip == 30
    with pytest.raises(RulesError, match=r"Rules.max_pip must be at most 30, not 1000000"):
        attrs.evolve(STANDARD, max_pip=1_000_000)


@pytest.mark.parametrize(
    ("call", "close"),
    [
        (lambda: get_variant("trian-dominoes"), "(did you mean 'train-dominoes'?)"),
        (
            lambda: get_variant("Double Blank 5"),
            "(did you mean 'double-blank-25' or 'double-blank-0'?)",
        ),
        (lambda: combine("hub", "shared_tie"), "(did you mean 'shared-ties'?)"),
        (
            lambda: get_variant("hub+revers-doubles"),
            "(did you mean 'reverse-doubles' or 'cover-own-double'?)",
        ),
    ],
)
def test_an_unknown_name_suggests_the_names_close_to_it(
    call: Callable[[], object], close: str
) -> None:
    """A typo got the whole list of twenty-five names to read through; the command line
    suggested the close ones, the library did not."""
    with pytest.raises(UnknownVariantError) as info:
        call()
    assert f"{close}; the variants are: standard, hub," in str(info.value)


def test_a_name_close_to_none_suggests_nothing() -> None:
    with pytest.raises(UnknownVariantError) as info:
        get_variant("chickenfoot")
    assert str(info.value).startswith("no variant named 'chickenfoot'; the variants are: ")


@pytest.mark.parametrize(
    ("name", "same_as"),
    [
        ("standard+short-game+short-game", "standard+short-game"),
        ("standard+shared-ties+Shared Ties", "standard+shared-ties"),
        ("a+double-blank-0+rulebook-a", None),
        ("hub+ascending+short-game+ascending", "hub+ascending+short-game"),
    ],
)
def test_a_house_rule_named_twice_is_described_once(name: str, same_as: str | None) -> None:
    """combine counts a house rule named twice once; its description was said twice, or,
    for two parts on the rounds, not at all (a whole game of one round per engine)."""
    if same_as is None:
        with pytest.raises(RulesError, match="changes nothing on its own preset"):
            describe_variant(name)
        return
    assert get_variant(name) == get_variant(same_as)
    assert describe_variant(name) == describe_variant(same_as)


@pytest.mark.parametrize("house", ["first-turn-draw", "single-tile-first-turn"])
def test_a_first_turn_house_rule_on_hub_says_it_brings_rulebook_a_first_turn(house: str) -> None:
    """V1: hub's first turn is ordinary; a first-turn house rule puts Rulebook A's in its
    place (own train only, P4).  hub+first-turn-draw was described as Rulebook B with a draw
    on the first turn, which hub's ordinary turn has anyway."""
    rules = combine("hub", house)
    assert describe_rules(rules)["first turn (V1)"].startswith("own train only")
    text = describe_variant(f"hub+{house}")
    assert "on the player's own train only, as in Rulebook A" in text
    assert "as in Rulebook A" not in describe_variant(f"standard+{house}+shared-ties")
