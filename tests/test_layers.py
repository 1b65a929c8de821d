"""The layers of the package, as CONTRIBUTING.md draws them.

`lint-imports` (import-linter, configured in ``pyproject.toml``) checks that each private
subpackage imports only the layers below it and never the public modules.  These tests
check what a contract of imports cannot: that no module reaches into another
subpackage's private names (what is shared gets a public name inside its subpackage),
nor, in the front ends, another module's,
that CONTRIBUTING.md's map of the code names exactly the modules in the tree, and that
the compiled build's module list names modules that exist.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import mexican_train

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PACKAGE = Path(mexican_train.__file__).parent
ROOT = Path(__file__).resolve().parent.parent  # the checkout, or the copy CI tests a wheel from
SUBPACKAGES = sorted(path.parent.name for path in PACKAGE.glob("_*/__init__.py"))
MODULES = sorted(
    path.relative_to(PACKAGE).as_posix()
    for path in PACKAGE.rglob("*.py")
    if path.name != "__init__.py" and "__pycache__" not in path.parts
)


def _imports_of(path: Path) -> list[tuple[int, str, list[str]]]:
    """Return each ``from ... import names`` of *path*: (line, absolute module, names)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = parts if path.name == "__init__.py" else parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *(node.module or "").split(".")]).rstrip(".")
            else:
                module = node.module or ""
            found.append((node.lineno, module, [alias.name for alias in node.names]))
    return found


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "mexican_train" else None


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_another_subpackages_private_names(module: str) -> None:
    path = PACKAGE / module
    own = _subpackage("mexican_train." + module.removesuffix(".py").replace("/", "."))
    for line, imported, names in _imports_of(path):
        if not imported.startswith("mexican_train") or _subpackage(imported) == own:
            continue
        private = [name for name in names if name.startswith("_") and not name.startswith("__")]
        assert not private, f"{module}:{line} imports {private} from {imported}"


def test_the_front_ends_share_their_words_by_public_names() -> None:
    """Within the front ends too, a module uses another's words through the names it
    offers: the web table's server words h11's refusals of a request's hosts as
    `request_host` does, and logs a target as `JSONServer` does, through
    ``http.SEVERAL_HOSTS``, ``http.NO_HOST`` and ``http.shown_path``."""
    for path in sorted((PACKAGE / "_frontends").glob("*.py")):
        for line, imported, names in _imports_of(path):
            if _subpackage(imported) != "_frontends":
                continue
            private = [name for name in names if name.startswith("_")]
            assert not private, f"_frontends/{path.name}:{line} imports {private} from {imported}"


#: The imports of the package's own modules made by name at run time, which import-linter
#: cannot see: the readers' table of names is the public names of these two public modules
#: (`mexican_train._formats.names.public_names`), read when a document is read.
_IMPORTS_BY_NAME = {
    ("_formats/names.py", "mexican_train"),
    ("_formats/names.py", "mexican_train.variants"),
}


def test_no_module_imports_the_package_by_name_past_the_contracts() -> None:
    """``importlib.import_module("mexican_train...")`` goes around the layers contract and
    the facades one; each such import is listed here and in the contract's comment."""
    found = set()
    for module in MODULES:
        for node in ast.walk(ast.parse((PACKAGE / module).read_text(), module)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, (ast.Attribute, ast.Name))
                and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
                in ("import_module", "__import__")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).split(".")[0] == "mexican_train"
            ):
                found.add((module, node.args[0].value))
    assert found == _IMPORTS_BY_NAME


def _contributing_map() -> set[str]:
    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`((?:_[a-z]+/)?[a-z_]+\.py)`", row)}
    return named - {"__init__.py"}


def test_contributing_maps_exactly_the_modules_in_the_tree() -> None:
    assert _contributing_map() == set(MODULES)


def test_every_subpackage_is_a_layer_of_the_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    assert named == {f"mexican_train.{sub}" for sub in SUBPACKAGES}


def test_the_compiled_modules_exist() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    assert hook["include"], "no module is compiled"
    for source in hook["include"]:
        assert (PACKAGE / source.removeprefix("src/mexican_train/")).is_file(), source


#: The moves without arguments, each one object (`mexican_train._core.moves`).
_SINGLETON_MOVES = {"Draw", "Pass", "NextRound", "CallLastTile"}


@pytest.mark.parametrize("module", MODULES)
def test_the_shared_moves_are_made_once_in_the_core(module: str) -> None:
    """A module compares a move with ``NEXT_ROUND`` (``DRAW``, ``PASS``, ``CALL_LAST_TILE``)
    from ``_core/moves.py``; none makes its own.

    Every ``NextRound()`` is the same object, so a copy elsewhere is not a bug, but the
    package names each value in one place and imports it (a compiled module may bind
    it once more, as a constant of its own, which mypyc reads as a C global).
    """
    if module == "_core/moves.py":
        return
    tree = ast.parse((PACKAGE / module).read_text(), module)
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in _SINGLETON_MOVES
        ):
            raise AssertionError(
                f"{module}:{node.lineno} makes its own {value.func.id}(): "
                "import the shared value from mexican_train._core.moves"
            )
