"""Names the readers may resolve: registered variants and the package's public pieces.

Text and JSON name rules by variant (``standard``) and pluggable pieces by class
(``CloseInOrder``), and both name a move or event type by its class in kebab case
(``call-last-tile``).  Input is untrusted, so a name is only ever looked up here,
among the public names of this package and of `mexican_train.variants`, never
imported from wherever it points.
"""

from __future__ import annotations

import importlib
import re

import attrs

from .._catalogue.variants import get_variant
from .._core.errors import MexicanTrainError, UnknownVariantError, shown
from .._core.rules import Rules

__all__ = ["field_named", "get_rules", "kebab_name", "public_names"]


def kebab_name(cls: type) -> str:
    """Return the name of *cls* in kebab case, as the notation and JSON write types.

    >>> from mexican_train import CallLastTile
    >>> kebab_name(CallLastTile)
    'call-last-tile'
    """
    return re.sub(r"(?<!^)(?=[A-Z])", "-", cls.__name__).lower()


def get_rules(name: str) -> Rules | str:
    """Return the rules of the variant called *name* (or an alias), or why there are none.

    >>> get_rules("b").mexican_train, get_rules("hub+")[:40]
    (MexicanFromFirstTurn(), "'hub+' has an empty name in its '+' list")
    """
    try:
        return get_variant(name)
    except UnknownVariantError as error:
        return error.reason or f"unknown variant {shown(error.name)}"
    except MexicanTrainError as error:  # a combination whose house rules conflict; a bad plugin
        return str(error)


def public_names() -> dict[str, object]:
    """Return the public names of ``mexican_train`` and of ``mexican_train.variants``."""
    package = importlib.import_module("mexican_train")
    variants = importlib.import_module("mexican_train.variants")
    names = {name: getattr(package, name) for name in package.__all__}
    for name in variants.__all__:
        names.setdefault(name, getattr(variants, name))
    return names


def field_named(cls: type, message: str) -> str | None:
    """Return the field of *cls*, an attrs class, that *message* is about, or None.

    The library's values name the field first in what they raise as they are built
    (``Rules.max_pip must be ...``, ``GameRecord.seed is ...``: `check_bound`'s
    ``Class.field``), so that a reader can tell the fault at that field of its input.

    >>> from mexican_train import Rules
    >>> field_named(Rules, "Rules.max_pip must be at most 30, not 99")
    'max_pip'
    >>> field_named(Rules, "Rules.colour is red") is None
    True
    """
    match = re.match(rf"{re.escape(cls.__name__)}\.([A-Za-z_][A-Za-z0-9_]*)", message)
    if match is None or match[1] not in attrs.fields_dict(cls):
        return None
    return match[1]
