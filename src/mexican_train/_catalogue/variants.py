"""The catalogue of house rules: pluggable pieces, named `Rules` values and their registry.

Every catalogue entry is `STANDARD` (or `HUB`) with one rule point changed, either
a field of `Rules` or a pluggable `OpenDoubleRule` / `MexicanTrainRule` built
here from the public protocols.  The engine never asks which variant is played.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from .._core.errors import RulesError, UnknownVariantError, shown
from .._core.rules import (
    HUB,
    STANDARD,
    CloseInOrder,
    Cover,
    EnginePlacement,
    FirstTurn,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    OpenDouble,
    Rules,
    Table,
    instance_of,
)

if TYPE_CHECKING:
    import importlib.metadata

#: The `importlib.metadata` entry-point group through which an installed
#: package registers variants: each entry point's name is the variant's name,
#: its object a `Rules` value.
ENTRY_POINT_GROUP = "mexican_train.variants"


# -- open-double rules (D1-D4, V3, V4) ---------------------------------------------


def _live(doubles: tuple[OpenDouble, ...], release_dead: bool) -> tuple[int, ...]:
    # D4: a double nothing can cover binds nobody (unless the variant says it does).
    return tuple(d.train for d in doubles if d.closable or not release_dead)


@attrs.frozen
class CloseAnyOrder:
    """Several open doubles may be closed in any order, one per turn (D2, V3).

    While any live double is open the player must cover one of them, whichever
    they like; the tile that follows a double may go on any of the turn's doubles.

    Attributes:
        release_dead: skip a double that nothing can cover (D4, V4).

    >>> CloseAnyOrder().obligation((OpenDouble(2, 5, True), OpenDouble(0, 9, True)))
    Cover(trains=(2, 0), only=True)
    """

    release_dead: bool = attrs.field(default=True, validator=instance_of(bool))

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        live = _live(doubles, self.release_dead)
        return Cover(live, only=bool(live))

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover(_live(doubles, self.release_dead), only=False)


@attrs.frozen
class NeverBind:
    """Open doubles bind nobody: anyone may cover one where they may play anyway (V3).

    D1 still holds (a player who lays a double plays again at once), but no
    double ever restricts where the next tile goes (no D2 obligation, no D3 order).

    >>> NeverBind().obligation((OpenDouble(2, 5, True),))
    Cover(trains=(2,), only=False)
    """

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover(tuple(d.train for d in doubles), only=False)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return Cover(tuple(d.train for d in doubles), only=False)


@attrs.frozen
class CoverOwnDouble:
    """The player who lays a double must cover it themselves, with the very next tile (D1).

    The tile after a double goes on that double and nowhere else.  A player who
    cannot cover it draws one tile (D1); if that does not help, the turn ends
    with a marker and the double is open and binds everybody (D2), closed in
    the order played.  (With ``Rules.draw_until_playable`` they draw until they
    can cover it or the boneyard is empty.)

    Attributes:
        reverse: close earlier open doubles most recent first (V3).
        release_dead: skip a double that nothing can cover (D4, V4).

    >>> CoverOwnDouble().follow_up((OpenDouble(1, 5, True),))
    Cover(trains=(1,), only=True)
    """

    reverse: bool = attrs.field(default=False, validator=instance_of(bool))
    release_dead: bool = attrs.field(default=True, validator=instance_of(bool))

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder(self.reverse, self.release_dead).obligation(doubles)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        first = CloseInOrder(self.reverse, self.release_dead).follow_up(doubles).trains
        return Cover(first, only=bool(first))


@attrs.frozen
class StrictCloseInOrder:
    """D3's stronger reading: lay doubles in a row, then the next tile goes on the first.

    After a double, the player may lay more doubles wherever they may play;
    the first other tile must go on the turn's first double (in the order
    played, or the reverse), and nowhere else.  Doubles left open close in
    that order (D2, D3), as with `CloseInOrder`.

    Attributes:
        reverse: the most recent double comes first (V3).
        release_dead: skip a double that nothing can cover (D4, V4).

    >>> StrictCloseInOrder().follow_up((OpenDouble(1, 5, True), OpenDouble(3, 2, True)))
    Cover(trains=(1,), only=True, doubles_exempt=True)
    """

    reverse: bool = attrs.field(default=False, validator=instance_of(bool))
    release_dead: bool = attrs.field(default=True, validator=instance_of(bool))

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        return CloseInOrder(self.reverse, self.release_dead).obligation(doubles)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        first = CloseInOrder(self.reverse, self.release_dead).follow_up(doubles).trains
        return Cover(first, only=bool(first), doubles_exempt=True)


# -- Mexican-train rules (V2) -----------------------------------------------------


@attrs.frozen
class NoMexicanTrain:
    """There is no Mexican train: plain "Train Dominoes" (V2).

    >>> from mexican_train import new_game
    >>> NoMexicanTrain().is_open(new_game(2), 0)
    False
    """

    def is_open(self, table: Table, seat: int) -> bool:
        return False


@attrs.frozen
class MexicanAfterOwnTrain:
    """The Mexican train opens to a player once they have played on their own train (V2).

    Only the owner's own tile counts (`~mexican_train.Train.owner_played`): a
    tile another player laid on their train while it carried a marker (P6) does
    not open the Mexican train to them.

    >>> from mexican_train import new_game
    >>> MexicanAfterOwnTrain().is_open(new_game(2), 0)
    False
    """

    def is_open(self, table: Table, seat: int) -> bool:
        return table.train(seat).owner_played


@attrs.frozen
class MexicanAfterAllTrains:
    """The Mexican train opens once every player has played on their own train (V2).

    As in `MexicanAfterOwnTrain`, only each owner's own tile counts
    (`~mexican_train.Train.owner_played`).

    >>> from mexican_train import new_game
    >>> MexicanAfterAllTrains().is_open(new_game(2), 0)
    False
    """

    def is_open(self, table: Table, seat: int) -> bool:
        return all(table.train(other).owner_played for other in range(table.players))


# -- the catalogue ----------------------------------------------------------------


def _standard(**changes: Any) -> Rules:
    return attrs.evolve(STANDARD, **changes)


#: What each preset's rulebook says, clause by clause, with the field of `Rules` each
#: clause describes.
_RULEBOOKS: Final[dict[Rules, tuple[str, tuple[tuple[str, str], ...]]]] = {
    STANDARD: (
        "Rulebook A",
        (
            ("deal_table", "Table A (S1)"),
            ("engine_placement", "the engine's holder starts (S3)"),
            ("first_turn", "a first turn that builds your own train (P4)"),
            ("mexican_train", "the Mexican train from your second turn (V2)"),
            ("open_doubles", "open doubles closed in the order played (D3)"),
        ),
    ),
    HUB: (
        "Rulebook B",
        (
            ("deal_table", "Table B (S1)"),
            ("engine_placement", "the engine set aside and a rotating first player (S4)"),
            ("first_turn", "an ordinary first turn (V1)"),
            ("mexican_train", "the Mexican train open from the start (V2)"),
        ),
    ),
}


def _preset_text(preset: Rules, rules: Rules) -> str:
    """Return what *preset*'s rulebook says, as a part of *rules*: the preset itself is
    its rulebook exactly; in a combination, the clauses whose rule another part changes
    are left out (hub+first-turn-draw has no ordinary first turn)."""
    book, clauses = _RULEBOOKS[preset]
    if rules == preset:
        return f"{book} exactly: " + ", ".join(text for _, text in clauses) + "."
    kept = [text for field, text in clauses if getattr(rules, field) == getattr(preset, field)]
    return f"{book}: " + ", ".join(kept) + "." if kept else f"{book}."


# Each entry: the Rules value, and its rule text for the docs (reStructuredText).
_CATALOGUE: dict[str, tuple[Rules, str]] = {
    "standard": (STANDARD, _preset_text(STANDARD, STANDARD)),
    "hub": (HUB, _preset_text(HUB, HUB)),
    "hub-reverse": (
        attrs.evolve(HUB, open_doubles=CloseInOrder(reverse=True)),
        "Rulebook B with its own variation: several open doubles are closed most recent "
        "first (D3, V3).",
    ),
    "reverse-doubles": (
        _standard(open_doubles=CloseInOrder(reverse=True)),
        "Several open doubles are closed in reverse order, the most recent first "
        "(Rulebook B's variation, V3).",
    ),
    "any-double": (
        _standard(open_doubles=CloseAnyOrder()),
        "While several doubles are open, the player to move must cover one of them, "
        "any one they like (D2, V3).",
    ),
    "doubles-never-bind": (
        _standard(open_doubles=NeverBind()),
        "An open double binds nobody: anyone may cover it where they may play anyway "
        "(no D2 obligation).  A player who lays a double still plays again (D1).",
    ),
    "dead-doubles-bind": (
        _standard(open_doubles=CloseInOrder(release_dead=False)),
        "A double that nothing can cover still binds (D4 off, V4): play is stuck on "
        "it until the round is blocked (E2).",
    ),
    "cover-own-double": (
        _standard(open_doubles=CoverOwnDouble()),
        "The player who lays a double must cover it themselves with the next tile; "
        "if they cannot, even after drawing (D1), it is open and binds everybody (D2).  "
        "A double nothing can cover any more (D4) is released: its player follows it "
        "anywhere they may play (unless dead doubles bind, V4).",
    ),
    "strict-double-order": (
        _standard(open_doubles=StrictCloseInOrder()),
        "D3's stronger reading: after a double the player may lay more doubles, and "
        "the first other tile goes on the first double of the turn, nowhere else.",
    ),
    "train-dominoes": (
        _standard(mexican_train=NoMexicanTrain()),
        'There is no Mexican train: plain "Train Dominoes" (V2).',
    ),
    "mexican-after-own-train": (
        _standard(mexican_train=MexicanAfterOwnTrain()),
        "A player may play on the Mexican train only once they have played a tile on "
        "their own train this round (V2): their first turn's chain (P4) or any later tile "
        "of theirs.  A tile another player laid on it while it carried a marker (P6) "
        "does not count.",
    ),
    "mexican-after-all-trains": (
        _standard(mexican_train=MexicanAfterAllTrains()),
        "Nobody may play on the Mexican train until every player has played a tile on "
        "their own train this round (V2); tiles other players laid on a marked train "
        "do not count (as ``mexican-after-own-train``).",
    ),
    "single-tile-first-turn": (
        _standard(first_turn=FirstTurn(chain=False)),
        "The first turn of a round plays a single tile on the player's own train, "
        "not a chain (P4, V1).",
    ),
    "first-turn-draw": (
        _standard(first_turn=FirstTurn(may_draw=True)),
        "A player who cannot start their train on the first turn draws one tile and "
        "plays it if it fits (P4, V1).",
    ),
    "draw-until-playable": (
        _standard(draw_until_playable=True),
        "A player with no legal play draws until they can play or the boneyard is "
        "empty, instead of drawing one tile (P5, D1, D2).  With ``first-turn-draw``, a "
        "player who cannot start their train draws so too (P4).",
    ),
    "voluntary-draw": (
        _standard(must_play=False),
        "A player who could play may draw one tile instead (P7 off, V6), also instead of "
        "following their own double (D1), and then play any legal tile, the drawn one or "
        "another, or pass with a marker (P5); with the boneyard empty they may pass at "
        "once.  In a first turn that builds the player's own train, where nobody draws "
        "(P4), they may pass before the first tile and get a marker.  With the boneyard "
        "empty, a full cycle of turns that leaves the table unchanged ends the round "
        "(E2), even if a player held back a tile that could be played.",
    ),
    "marker-lifts-anywhere": (
        _standard(marker_lifts_anywhere=True),
        "Rulebook A's parenthesis read literally (P6): a marker goes as soon as its owner "
        "plays a tile on any train (the Mexican train, a marked train, an open double "
        "they cover elsewhere), not only on their own.  Other players' tiles may then lie "
        "alone on an unmarked train.",
    ),
    "double-blank-0": (
        _standard(double_blank_score=0),
        "The double-blank left in a hand counts 0 (E3, V7).",
    ),
    "double-blank-25": (
        _standard(double_blank_score=25),
        "The double-blank left in a hand counts 25 (E3, V7).",
    ),
    "last-tile-call": (
        _standard(last_tile_penalty=2),
        "A player must call their last tile (``CallLastTile()``) while holding two "
        "tiles; one whose turn ends with one tile, after playing that turn without "
        "calling, draws two tiles.  This holds in the first turn too: in a first-turn "
        "chain (P4) the player calls while holding two tiles, and a chain that ends "
        "with one tile, uncalled, draws two.",
    ),
    "ascending": (
        _standard(ascending=True),
        "The engines go up, from 0-0 in round 1 to N-N in the last round (S2, V9).",
    ),
    "short-game": (
        _standard(rounds=3),
        "A short game of three rounds, with the three highest engines (S2, V9).",
    ),
    "thirteen-rounds": (
        _standard(highest_engine=12),
        "Rulebook A read literally (S2): thirteen rounds, the engines from 12-12 down to "
        "0-0 whatever the set, so a double-15 or double-18 set plays only its thirteen "
        "lowest engines.  A set without the 12-12 (double-9 and smaller, as Table A deals "
        "for 2-3 players) is refused.",
    ),
    "open-hands": (
        _standard(open_hands=True),
        "Every player sees every hand (S5, V10); only the boneyard stays hidden.",
    ),
    "shared-ties": (
        _standard(tie_break=False),
        "Players level on the lowest total share the win; E5's tie-break is not used.",
    ),
}

#: Every built-in variant by name: a read-only mapping, in catalogue order.
VARIANTS: Mapping[str, Rules] = MappingProxyType(
    {name: rules for name, (rules, _) in _CATALOGUE.items()}
)

#: Other names `get_variant` accepts, and the variant each stands for.
ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "a": "standard",
        "rulebook-a": "standard",
        "b": "hub",
        "rulebook-b": "hub",
        "rulebook-b-reverse": "hub-reverse",
        "no-mexican-train": "train-dominoes",
    }
)


def _key(name: str) -> str:
    # Case, spaces and underscores do not matter: "Train Dominoes" is "train-dominoes".
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def _entry_points() -> Iterable[importlib.metadata.EntryPoint]:
    # Looked up on every call (no cache): installing a plugin needs no restart,
    # and this only runs when a name is not built in.  Imported here: importlib.metadata
    # is a fifth of the package's import time, and most programs never look a name up.
    import importlib.metadata

    return importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)


def _load(entry_point: importlib.metadata.EntryPoint) -> Rules:
    try:
        rules = entry_point.load()
    except Exception as error:
        raise RulesError(
            f"the variant {entry_point.name!r} registered in {ENTRY_POINT_GROUP!r} as "
            f"{entry_point.value!r} failed to load: {error!r}"
        ) from error
    if not isinstance(rules, Rules):
        raise RulesError(
            f"the variant {entry_point.name!r} registered in {ENTRY_POINT_GROUP!r} as "
            f"{entry_point.value!r} is {rules!r}, not a Rules value"
        )
    return rules


def variant_names() -> tuple[str, ...]:
    """Return the name of every variant: built in, then registered by installed packages.

    >>> variant_names()[:3]
    ('standard', 'hub', 'hub-reverse')
    """
    plugins = sorted({_key(ep.name) for ep in _entry_points()} - set(VARIANTS))
    return (*VARIANTS, *plugins)


def get_variant(name: str) -> Rules:
    """Return the rules of the variant called *name*.

    Case, spaces and underscores do not matter, and the `ALIASES` are accepted
    ("a" and "rulebook-a" are "standard"; "b" and "rulebook-b" are "hub").
    Variants that installed packages register in the entry-point group
    ``mexican_train.variants`` are found too; a built-in name always wins.
    A combination's name, the base and its house rules joined by ``+``
    (``"hub+shared-ties"``), gives `combine` of those names.

    Args:
        name: a variant's name or alias.

    Returns:
        The variant's `Rules`.

    Raises:
        UnknownVariantError: if no variant has that name; the message suggests the
            names close to it and lists them all.
        RulesError: if a registered variant fails to load or is not a `Rules` value,
            or if the house rules of a combination conflict (see `combine`).

    >>> get_variant("Rulebook-B") is HUB
    True
    >>> get_variant("hub+shared-ties") == combine("hub", "shared-ties")
    True
    >>> get_variant("Train Dominoes").mexican_train
    NoMexicanTrain()
    >>> try:
    ...     get_variant("chickenfoot")
    ... except UnknownVariantError as error:
    ...     print(str(error)[:59])
    ...
    no variant named 'chickenfoot'; the variants are: standard,
    """
    if not isinstance(name, str):
        raise TypeError(f"a variant name is a str, not {shown(name)}")
    if "+" in name:
        # A combination's name: the base, then each variant, joined by "+".
        names = name.split("+")
        if not all(map(_key, names)):  # "hub+", "+hub", "hub++shared-ties"
            raise UnknownVariantError(
                name,
                variant_names(),
                f"{shown(name)} has an empty name in its '+' list: a combination is "
                "variant names joined by '+', like 'hub+shared-ties'",
            )
        return combine(*names)
    key = _key(name)
    key = ALIASES.get(key, key)
    rules = VARIANTS.get(key)
    if rules is not None:
        return rules
    for entry_point in _entry_points():
        if _key(entry_point.name) == key:
            return _load(entry_point)
    raise UnknownVariantError(name, variant_names())


def variant_name(rules: Rules) -> str | None:
    """Return the name of the variant whose rules are exactly *rules*, or None.

    Built-in variants are looked up first, then those installed packages
    register (one that fails to load cannot match and is skipped).  Rules that
    no catalogue entry matches but that `combine` can build from named
    variants get the combination's canonical name: the base, then the house
    rules sorted, joined by ``+``.  Of several ways to build them, a preset
    (``standard``, ``hub``) is preferred as the base, then the fewest house rules.

    >>> variant_name(STANDARD), variant_name(get_variant("b"))
    ('standard', 'hub')
    >>> variant_name(attrs.evolve(HUB, tie_break=False, double_blank_score=0))
    'hub+double-blank-0+shared-ties'
    >>> variant_name(attrs.evolve(STANDARD, max_pip=6)) is None
    True

    Raises:
        TypeError: if *rules* is not a `Rules` value (a name is for `get_variant`).
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"variant_name() needs a Rules value, not {shown(rules)}")
    for name, value in VARIANTS.items():
        if value == rules:
            return name
    plugins: dict[str, Rules] = {}
    for entry_point in _entry_points():
        try:
            value = _load(entry_point)
        except RulesError:
            continue
        key = _key(entry_point.name)
        if key not in VARIANTS and "+" not in key:
            if value == rules:
                return key
            plugins.setdefault(key, value)
    return combination_name(rules, {**VARIANTS, **plugins})


# -- combinations of house rules ----------------------------------------------------

_PRESETS = (STANDARD, HUB)
_FIELDS = attrs.fields(Rules)

#: The fields of `Rules` that hold a rule with settings of its own: the ``attrs``
#: fields of its value (``CloseInOrder.reverse``, ``FirstTurn.chain``).  `combine`
#: merges house rules that change different settings of one of these; every other
#: field is a single setting.
_RULE_FIELDS = frozenset({"first_turn", "mexican_train", "open_doubles"})

#: One setting of a `Rules` value: a field, and the name of a setting of the rule it
#: holds, or None for the value itself (for a rule with settings, its class: the kind
#: of rule, such as `CloseAnyOrder`).
_Setting: TypeAlias = tuple[str, str | None]

_ABSENT = object()


def _settings(field: str, value: object) -> dict[str | None, object]:
    # A rule with settings: its class under None, then each setting by its name in
    # the class's __init__ (what attrs.evolve takes).  Anything else: the value itself.
    kind = type(value)
    if field in _RULE_FIELDS and attrs.has(kind):
        named = {a.alias: getattr(value, a.name) for a in attrs.fields(kind) if a.init}
        return {None: kind, **named}
    return {None: value}


@functools.lru_cache(maxsize=1024)
def _all_settings(rules: Rules) -> Mapping[_Setting, object]:
    return MappingProxyType(
        {
            (f.name, name): value
            for f in _FIELDS
            for name, value in _settings(f.name, getattr(rules, f.name)).items()
        }
    )


@functools.lru_cache(maxsize=1024)
def _preset_of(rules: Rules) -> Rules:
    # A variant's own base: the preset it differs from on the fewest fields
    # (STANDARD on a tie).  Every catalogue entry is one preset with a change.
    def distance(preset: Rules) -> int:
        return sum(getattr(rules, f.name) != getattr(preset, f.name) for f in _FIELDS)

    return min(_PRESETS, key=distance)


@functools.lru_cache(maxsize=1024)
def _changes(rules: Rules, on: Rules) -> tuple[tuple[_Setting, object], ...]:
    # What a variant changes on its own preset, setting by setting in field order,
    # when it is added to a base whose preset is *on*.  A rule whose own preset
    # holds another kind of rule than *on* does (hub has no special first turn, P4)
    # brings its kind along with the settings it changes.
    preset = _preset_of(rules)
    changes: list[tuple[_Setting, object]] = []
    for f in _FIELDS:
        value, before = getattr(rules, f.name), getattr(preset, f.name)
        if value == before:
            continue
        old, there = _settings(f.name, before), _settings(f.name, getattr(on, f.name))
        changes += [
            ((f.name, name), setting)
            for name, setting in _settings(f.name, value).items()
            if old.get(name, _ABSENT) != setting or (name is None and setting != there[None])
        ]
    return tuple(changes)


def _shown_value(value: object) -> str:
    return repr(value.value) if isinstance(value, EnginePlacement) else repr(value)


def _resolve(part: str | Rules, position: int) -> tuple[str, Rules]:
    if isinstance(part, Rules):
        return variant_name(part) or f"the unnamed rules given as argument {position}", part
    if not isinstance(part, str):
        raise TypeError(f"combine() takes variant names or Rules values, not {shown(part)}")
    key = _key(part)
    if "+" not in part and not key:
        raise UnknownVariantError(part, variant_names())
    return (ALIASES.get(key, key) if "+" not in part else part), get_variant(part)


def combine(base: str | Rules, *variants: str | Rules) -> Rules:
    """Return the rules of *base* with the house rules *variants* added.

    Each variant, a name or a `Rules` value, contributes what it changes on
    its own preset (``standard`` or ``hub``, whichever it differs from least):
    ``strict-double-order`` changes only the open-double rule, so on ``hub`` it
    gives Rulebook B with D3's stronger reading.  The order of *variants* does
    not matter, and a variant named twice counts once.  The result's canonical
    name (see `variant_name`) is the base, then the variants sorted, joined by
    ``+``: ``hub+shared-ties+strict-double-order``, which `get_variant`, the
    notation, JSON records and the command line (``--rules hub --house
    shared-ties``) read back.

    A rule with settings of its own (the open-double rule, the first turn, the
    Mexican-train rule) is changed setting by setting: ``reverse-doubles``
    changes `CloseInOrder`'s ``reverse`` (D3, V3), ``dead-doubles-bind`` its
    ``release_dead`` (D4, V4), so together they close open doubles most recent
    first and let dead doubles bind.  A variant that puts another kind of rule
    in its place (``strict-double-order``: `StrictCloseInOrder`) changes the
    kind and keeps the settings the new kind has, so the other variants' settings
    apply to it (``reverse`` and ``release_dead`` both; `CloseAnyOrder` has only
    ``release_dead``, `NeverBind` neither).

    Args:
        base: the variant to start from, by name or value.
        variants: house rules to add, by name or value.

    Returns:
        The combined `Rules`.

    Raises:
        RulesError: naming both variants, if two set the same setting to different
            values (two kinds of open-double rule, two double-blank scores), or if
            one sets a setting that the kind of rule another puts in place does not
            have (``reverse-doubles`` with ``any-double``: any order is no order);
            if a variant changes nothing on its preset (``hub`` given as a house
            rule); or if the result is contradictory.
        UnknownVariantError: if a name is not a variant.
        TypeError: if an argument is neither a name nor a `Rules` value.

    >>> rules = combine("hub", "strict-double-order", "shared-ties")
    >>> rules == combine("hub", "shared-ties", "strict-double-order")
    True
    >>> rules.open_doubles, rules.tie_break, rules.engine_placement is HUB.engine_placement
    (StrictCloseInOrder(reverse=False, release_dead=True), False, True)
    >>> variant_name(rules)
    'hub+shared-ties+strict-double-order'
    >>> combine("hub", "reverse-doubles", "dead-doubles-bind").open_doubles
    CloseInOrder(reverse=True, release_dead=False)
    >>> try:
    ...     combine("standard", "double-blank-0", "double-blank-25")
    ... except RulesError as error:
    ...     print(error)
    ...
    'double-blank-0' and 'double-blank-25' conflict: both set Rules.double_blank_score (to 0 and to 25)
    """
    base_name, base_rules = _resolve(base, 1)
    parts = [_resolve(variant, i) for i, variant in enumerate(variants, start=2)]
    return _merge((base_name, base_rules), parts)


def _merge(base: tuple[str, Rules], parts: list[tuple[str, Rules]]) -> Rules:
    # combine() once every part has its name and value.
    base_name, base_rules = base
    preset = _preset_of(base_rules)
    sources = {base_name: base_rules}
    chosen: dict[_Setting, tuple[str, object]] = {
        setting: (base_name, value) for setting, value in _changes(base_rules, preset)
    }
    for name, rules in parts:
        changes = _changes(rules, preset)
        if not changes:
            raise RulesError(
                f"{name!r} changes nothing on its own preset, so it is no house rule: "
                f"name it as the base instead (the base here is {base_name!r})"
            )
        sources.setdefault(name, rules)
        for setting, value in changes:
            earlier = chosen.setdefault(setting, (name, value))
            if earlier[1] != value:
                raise _same_setting(setting, earlier[0], name, sources)
    values: dict[str, Any] = {
        field: _merged_value(field, chosen, base_name, sources)
        for field in dict.fromkeys(field for field, _ in chosen)
    }
    try:
        return attrs.evolve(preset, **values)
    except RulesError as error:
        names = "+".join([base_name, *sorted({name for name, _ in parts})])
        raise RulesError(f"{names} cannot be played: {error}") from error


def _merged_value(
    field: str,
    chosen: dict[_Setting, tuple[str, object]],
    base_name: str,
    sources: dict[str, Rules],
) -> object:
    # The value of *field*: that of whoever chose its kind (or the base's), with every
    # other setting chosen for it applied by attrs.evolve.
    owner = chosen.get((field, None), (base_name, None))[0]
    value = getattr(sources[owner], field)
    settings = {
        name: choice
        for (where, name), choice in chosen.items()
        if where == field and name is not None
    }
    has = _settings(field, value)
    for name, (setter, setting) in settings.items():
        if name not in has:
            first, second = sorted([owner, setter])
            raise RulesError(
                f"{first!r} and {second!r} conflict: {setter!r} sets Rules.{field}.{name} "
                f"(to {setting!r}), but under {owner!r} Rules.{field} is {value!r}, "
                f"which has no such setting"
            )
    if not settings:
        return value
    return attrs.evolve(value, **{name: setting for name, (_, setting) in settings.items()})


def _same_setting(setting: _Setting, one: str, other: str, sources: dict[str, Rules]) -> RulesError:
    field, name = setting
    first, second = sorted([one, other])
    if name is None:  # the value itself: shown whole, with its settings
        values = [_shown_value(getattr(sources[who], field)) for who in (first, second)]
        where = f"Rules.{field}"
    else:
        values = [repr(_all_settings(sources[who]).get(setting)) for who in (first, second)]
        where = f"Rules.{field}.{name}"
    return RulesError(
        f"{first!r} and {second!r} conflict: both set {where} (to {values[0]} and to {values[1]})"
    )


def combination_name(rules: Rules, named: Mapping[str, Rules]) -> str | None:
    # The canonical name of a base and house rules that combine() builds into exactly
    # *rules*, or None.
    return _combination_name(rules, tuple(named.items()))


@functools.lru_cache(maxsize=256)
def _combination_name(rules: Rules, named: tuple[tuple[str, Rules], ...]) -> str | None:
    # Preferred: a preset as the base, then the fewest house rules, then catalogue
    # order.  Each base whose changes *rules* holds takes every house rule whose
    # changes it holds, then drops the least preferred while the rest still build
    # *rules*; house rules built on standard are preferred to those built on hub, so
    # that Rulebook B's variation on hub reads "hub+reverse-doubles", not
    # "hub+hub-reverse".
    held = _all_settings(rules)

    def holds(changes: tuple[tuple[_Setting, object], ...]) -> bool:
        return all(held.get(setting, _ABSENT) == value for setting, value in changes)

    def builds(base: tuple[str, Rules], picks: list[str]) -> bool:
        try:
            return _merge(base, [(name, house[name]) for name in picks]) == rules
        except RulesError:
            return False

    house = dict(named)
    candidates = sorted(named, key=lambda item: _preset_of(item[1]) is not STANDARD)
    best: tuple[bool, int, str] | None = None
    for base in sorted(named, key=lambda item: item[1] not in _PRESETS):
        if best is not None and not best[0] and base[1] not in _PRESETS:
            break  # a preset is the base already: no other base can be preferred
        preset = _preset_of(base[1])
        if not holds(_changes(base[1], preset)):
            continue
        picks = [
            name
            for name, value in candidates
            if name != base[0] and (changes := _changes(value, preset)) and holds(changes)
        ]
        if not picks or not builds(base, picks):
            continue
        for name in reversed(list(picks)):
            rest = [pick for pick in picks if pick != name]
            if rest and builds(base, rest):
                picks = rest
        rank = (base[1] not in _PRESETS, len(picks), "+".join([base[0], *sorted(picks)]))
        if best is None or rank[:2] < best[:2]:
            best = rank
    return None if best is None else best[2]


# -- rules as documentation -------------------------------------------------------

_MEXICAN = {
    MexicanFromSecondTurn: "from each player's second turn",
    MexicanFromFirstTurn: "open from the first turn",
    NoMexicanTrain: "none (Train Dominoes)",
    MexicanAfterOwnTrain: "once the player has played on their own train",
    MexicanAfterAllTrains: "once every player has played on their own train",
}


def _describe_open_doubles(rule: object) -> str:
    order = "reverse order" if getattr(rule, "reverse", False) else "played order"
    if type(rule) is CloseInOrder:
        return f"closed one at a time, {order}"
    if type(rule) is StrictCloseInOrder:
        return f"{order}; after doubles, the next tile only on the first"
    if type(rule) is CoverOwnDouble:
        return f"its player covers it with the next tile; then {order}"
    if type(rule) is CloseAnyOrder:
        return "any one of them, one per turn"
    if type(rule) is NeverBind:
        return "never bind"
    return _rule_shown(rule)


def _rule_shown(rule: object) -> str:
    # A pluggable rule of the user's own, by its repr; by its class where the repr is
    # object's, whose address says nothing of the rule and differs at every run.
    kind = type(rule)
    if kind.__repr__ is object.__repr__:
        return f"{kind.__module__}.{kind.__qualname__}()"
    return repr(rule)


def _describe_dead(rule: object) -> str:
    if type(rule) is NeverBind:
        return "no double binds"
    release = getattr(rule, "release_dead", None)
    if release is None:
        return "as the open-double rule says"
    return "released" if release else "still bind"


def _describe_first_turn(first_turn: FirstTurn | None) -> str:
    if first_turn is None:
        return "an ordinary turn"
    tiles = "a chain" if first_turn.chain else "one tile"
    draw = "may draw" if first_turn.may_draw else "no draw"
    return f"own train only, {tiles}, {draw}"


def _describe_set(rules: Rules) -> str:
    text = rules.deal_table.name
    if rules.max_pip is not None:
        text += f", double-{rules.max_pip}"
    if rules.hand_size is not None:
        text += f", {rules.hand_size} tiles each"
    return text


def _describe_rounds(rules: Rules) -> str:
    text = "one per engine" if rules.rounds is None else str(rules.rounds)
    top = rules.highest_engine
    return text if top is None else f"{text}, from {top}-{top}"


def describe_rules(rules: Rules) -> dict[str, str]:
    """Return every rule axis of *rules* (the V rules), described in a few words.

    The keys are the same for every `Rules` value, in a fixed order, each with
    the rule id it stands for; compare two results to see how two variants
    differ.  A user-defined pluggable rule is shown by its ``repr``, or by its class
    where its ``repr`` is `object`'s (which shows an address).

    >>> hub = describe_rules(HUB)
    >>> hub["first turn (V1)"], hub["Mexican train (V2)"]
    ('an ordinary turn', 'open from the first turn')
    >>> [axis for axis, text in describe_rules(get_variant("train-dominoes")).items()
    ...  if text != describe_rules(STANDARD)[axis]]
    ['Mexican train (V2)']
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"describe_rules() needs a Rules value, not {rules!r}")
    placement = {
        EnginePlacement.HOLDER: "its holder places it and starts (S3)",
        EnginePlacement.SET_ASIDE: "set aside; the first player rotates (S4)",
    }
    mexican = _MEXICAN.get(type(rules.mexican_train)) or _rule_shown(rules.mexican_train)
    penalty = rules.last_tile_penalty
    return {
        "set (S1, V8)": _describe_set(rules),
        "engine (V5)": placement[rules.engine_placement],
        "first turn (V1)": _describe_first_turn(rules.first_turn),
        "Mexican train (V2)": mexican,
        "open doubles (D2, D3, V3)": _describe_open_doubles(rules.open_doubles),
        "dead doubles (D4, V4)": _describe_dead(rules.open_doubles),
        "must play (P7, V6)": "yes" if rules.must_play else "no: voluntary draw",
        "draw (P5)": "until playable" if rules.draw_until_playable else "one tile",
        "last tile": f"call it, or draw {penalty}" if penalty else "no call",
        "double-blank (E3, V7)": f"{rules.double_blank_score} points",
        "rounds (S2, V9)": _describe_rounds(rules),
        "engine order (S2, V9)": "ascending" if rules.ascending else "descending",
        "hands (S5, V10)": "open" if rules.open_hands else "private",
        "markers (P6)": "lifted by a tile on any train"
        if rules.marker_lifts_anywhere
        else "lifted by a tile on the own train",
        "ties (E5)": "broken as E5 says" if rules.tie_break else "shared",
    }


def rules_table(variants: Mapping[str, Rules] | None = None) -> list[tuple[str, ...]]:
    """Return a table of every variant x every rule axis: a header row, then one row each.

    Args:
        variants: the variants to show, by name; None: every built-in one (`VARIANTS`).

    >>> table = rules_table()
    >>> table[0][:3]
    ('variant', 'set (S1, V8)', 'engine (V5)')
    >>> table[2][:2]
    ('hub', 'Table B')
    >>> len(table) == len(VARIANTS) + 1
    True
    """
    if variants is None:
        variants = VARIANTS
    rows = [(name, *describe_rules(rules).values()) for name, rules in variants.items()]
    return [("variant", *describe_rules(STANDARD)), *rows]


def describe_variant(name: str) -> str:
    """Return what the variant called *name* plays, in a sentence or two with rule ids.

    Built-in variants have their catalogue text; a combination joins those of
    its parts; a variant an installed package registers is described by how
    its rules differ from its preset (`describe_rules`).

    Raises:
        UnknownVariantError: if no variant has that name.

    >>> describe_variant("shared-ties")
    "Players level on the lowest total share the win; E5's tie-break is not used."
    >>> describe_variant("hub+shared-ties")[:52]
    'Rulebook B: Table B (S1), the engine set aside and a'
    """
    rules = get_variant(name)
    if "+" in name:
        # Each part once, as combine counts it: "short-game" and "Short Game" are one.
        parts = list(dict.fromkeys(ALIASES.get(_key(part), _key(part)) for part in name.split("+")))
        on_rounds = [part for part in parts if _sets_rounds(get_variant(part))]
        # S2, V9: two parts that change the rounds are said in one sentence, from the
        # rules they make together: each part's own sentence describes its change alone
        # ("the three highest engines" next to "the engines go up").
        texts = [
            _describe_round_order(rules)
            if len(on_rounds) > 1 and part == on_rounds[0]
            else _described_with_others(part, rules)
            for part in parts
            if part not in on_rounds[1:]
        ]
        if rules.first_turn is not None and _preset_of(get_variant(parts[0])).first_turn is None:
            # V1: on hub, whose first turn is ordinary, a first-turn house rule puts
            # Rulebook A's in its place; its own sentence says only what it changes there.
            chain = ", as many tiles as continue it" if rules.first_turn.chain else ""
            texts.insert(
                1,
                "The first turn of a round is played on the player's own train only, as in "
                f"Rulebook A{chain} (P4, V1).",
            )
        return "  ".join(texts)
    key = _key(name)
    key = ALIASES.get(key, key)
    if key in _CATALOGUE:
        return _CATALOGUE[key][1]
    preset = _preset_of(rules)
    described, base = describe_rules(rules), describe_rules(preset)
    changes = [f"{axis}: {text}" for axis, text in described.items() if text != base[axis]]
    preset_name = "standard" if preset is STANDARD else "hub"
    return (
        f"Registered by an installed package: {preset_name} with "
        + ("; ".join(changes) if changes else "no change")
        + "."
    )


#: The fields of `Rules` that say which rounds are played, with which engines (S2, V9).
_ROUND_FIELDS = frozenset({"rounds", "ascending", "highest_engine"})

_NUMBER_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)


def _sets_rounds(rules: Rules) -> bool:
    # Whether a variant changes the rounds or their engines on its own preset.
    preset = _preset_of(rules)
    return any(getattr(rules, field) != getattr(preset, field) for field in _ROUND_FIELDS)


def _count_words(count: int) -> str:
    return _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)


def _described_with_others(part: str, rules: Rules) -> str:
    """Return `describe_variant` of *part*, one part of the combination *rules*: a
    preset's text says what of its rulebook the other parts leave, not that it is its
    rulebook "exactly"."""
    preset = get_variant(part)
    return _preset_text(preset, rules) if preset in _RULEBOOKS else describe_variant(part)


def _describe_round_order(rules: Rules) -> str:
    """Return the rounds and their engines under *rules* in one sentence (S2, V9).

    >>> _describe_round_order(combine("standard", "ascending", "short-game"))
    'A short game of three rounds, with the three lowest engines: 0-0, 1-1 and 2-2 (S2, V9).'
    >>> _describe_round_order(combine("standard", "short-game", "thirteen-rounds"))
    'A short game of three rounds, with the engines 12-12, 11-11 and 10-10, whatever the set; a set without the 12-12 is refused (S2, V9).'
    """
    count, top, up = rules.rounds, rules.highest_engine, rules.ascending
    high = "N" if top is None else str(top)
    whatever = (
        "" if top is None else f", whatever the set; a set without the {high}-{high} is refused"
    )
    if count is None:
        lead = (
            "One round per engine"
            if top is None
            else f"{_count_words(top + 1).capitalize()} rounds"
        )
        order = (
            f"from 0-0 in round 1 up to {high}-{high} in the last round"
            if up
            else f"from {high}-{high} in round 1 down to 0-0 in the last round"
        )
        return f"{lead}, the engines {order}{whatever} (S2, V9)."
    lead = f"A short game of {_count_words(count)} rounds, with the"
    if up:
        pips = list(range(count))
        which = f" {_count_words(count)} lowest engines:"
    elif top is None:
        return (
            f"{lead} {_count_words(count)} highest engines, from N-N down, N the set's "
            f"highest double (S2, V9)."
        )
    else:
        pips = list(range(top, top - count, -1))
        which = " engines"
    engines = [f"{pip}-{pip}" for pip in pips]
    listed = engines[0] if count == 1 else f"{', '.join(engines[:-1])} and {engines[-1]}"
    if count > 4:
        listed = f"{engines[0]} to {engines[-1]}"
    return f"{lead}{which} {listed}{whatever} (S2, V9)."


def _changed_settings(rules: Rules) -> tuple[tuple[str, object], ...]:
    # What a variant changes on its own preset, for the generated docs page: each
    # setting as "open_doubles.reverse", a rule's kind or any other field by its name.
    return tuple(
        (field if name is None else f"{field}.{name}", value)
        for (field, name), value in _changes(rules, _preset_of(rules))
    )


def _notes() -> Mapping[str, str]:
    # The rule text of each built-in variant, for the generated docs page.
    return MappingProxyType({name: text for name, (_, text) in _CATALOGUE.items()})
