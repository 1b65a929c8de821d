"""The layers: the core imports nothing above it (issue 10 item 8, CONTRIBUTING.md).

The core is what decides the rules: tiles, moves, deal tables, rules, deals, the
state, the engine, the views (S5), the checks of positions and the chance API.
The layers on top (variants' catalogue, notation, JSON, records, events, players,
simulation, rendering, the command line) may import the core; the core never
imports them, not even lazily inside a function.  Jupyter's picture of a state
reaches the renderer through ``_hooks.SVG``, which the package fills.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mexican_train

PACKAGE = Path(mexican_train.__file__).parent
CORE = {
    "_errors", "_tiles", "_moves", "_tables", "_rules", "_deal", "_state", "_hooks",
    "_shuffle", "_engine", "_view", "_bounds", "_fields", "_check", "_chance",
}  # fmt: skip


def imported_modules(name: str) -> set[str]:
    """Return the package's modules that module *name* imports, anywhere in it."""
    source = PACKAGE / f"{name}.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(), str(source))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:  # from . import x
                found.update(alias.name for alias in node.names)
            else:
                found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(
                alias.name.split(".")[1]
                for alias in node.names
                if alias.name.startswith("mexican_train.")
            )
    return found


def test_every_core_module_exists() -> None:
    assert {path.stem for path in PACKAGE.glob("_*.py")} >= CORE


@pytest.mark.parametrize("name", sorted(CORE))
def test_the_core_imports_only_the_core(name: str) -> None:
    above = imported_modules(name) - CORE
    assert not above, f"{name} imports {sorted(above)}, which sit above the core"
