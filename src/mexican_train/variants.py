"""House rules: the catalogue of named variants, their registry, and the pluggable pieces.

Pick a variant by name, add house rules to a base with `combine`, change any
field with :func:`attrs.evolve`, or write your own `OpenDoubleRule` /
`MexicanTrainRule` (the how-to "Add a house rule", section "Write your own rule").  Every variant
is a `Rules` value; the engine never asks which one is played.

>>> import attrs
>>> from mexican_train import new_game
>>> from mexican_train.variants import NeverBind, combine, get_variant, variant_name
>>> rules = get_variant("train-dominoes")
>>> variant_name(rules), new_game(4, rules, seed=1).rules.mexican_train
('train-dominoes', NoMexicanTrain())
>>> variant_name(combine("b", "doubles-never-bind", "double-blank-0"))
'hub+double-blank-0+doubles-never-bind'
>>> mine = attrs.evolve(get_variant("b"), open_doubles=NeverBind(), double_blank_score=10)
>>> variant_name(mine) is None
True

Installed packages add variants through the entry-point group
``mexican_train.variants``; in ``pyproject.toml``::

    [project.entry-points."mexican_train.variants"]
    chickenfoot = "my_package.rules:CHICKENFOOT"
"""

from ._catalogue.variants import (
    ALIASES,
    ENTRY_POINT_GROUP,
    VARIANTS,
    CloseAnyOrder,
    CoverOwnDouble,
    MexicanAfterAllTrains,
    MexicanAfterOwnTrain,
    NeverBind,
    NoMexicanTrain,
    StrictCloseInOrder,
    combine,
    describe_rules,
    describe_variant,
    get_variant,
    rules_table,
    variant_name,
    variant_names,
)
from ._core.errors import RulesError, UnknownVariantError
from ._core.rules import (
    HUB,
    STANDARD,
    CloseInOrder,
    Cover,
    FirstTurn,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    MexicanTrainRule,
    OpenDouble,
    OpenDoubleRule,
    Rules,
    Table,
)

__all__ = [
    "ALIASES",
    "ENTRY_POINT_GROUP",
    "HUB",
    "STANDARD",
    "VARIANTS",
    "CloseAnyOrder",
    "CloseInOrder",
    "Cover",
    "CoverOwnDouble",
    "FirstTurn",
    "MexicanAfterAllTrains",
    "MexicanAfterOwnTrain",
    "MexicanFromFirstTurn",
    "MexicanFromSecondTurn",
    "MexicanTrainRule",
    "NeverBind",
    "NoMexicanTrain",
    "OpenDouble",
    "OpenDoubleRule",
    "Rules",
    "RulesError",
    "StrictCloseInOrder",
    "Table",
    "UnknownVariantError",
    "combine",
    "describe_rules",
    "describe_variant",
    "get_variant",
    "rules_table",
    "variant_name",
    "variant_names",
]
