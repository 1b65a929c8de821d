"""Ways for the layers above the core to lend it a hand, without the core importing them.

The core (tiles, moves, rules, tables, state, engine, views) imports nothing above
it.  Jupyter asks a state or a view for ``_repr_svg_``; drawing is the rendering
layer's business, so the package registers its renderer here when it is imported
(``mexican_train/__init__.py``), and the core calls whatever is registered.  So too
for the names of rules in a ``repr``: variants are named by the variants layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["RULES_NAMES", "SVG", "rules_name", "svg"]

#: The SVG renderers registered, the last one used: ``renderer(state_or_view) -> str``.
SVG: Final[list[Callable[[object], str]]] = []


def svg(value: object) -> str | None:
    """Return *value* drawn as SVG by the registered renderer, or None without one."""
    return SVG[-1](value) if SVG else None


#: The namers of rules registered, the last one used: ``namer(rules) -> name or None``.
RULES_NAMES: Final[list[Callable[[object], str | None]]] = []


def rules_name(rules: object) -> str | None:
    """Return the variant name of *rules* by the registered namer, or None without one."""
    return RULES_NAMES[-1](rules) if RULES_NAMES else None
