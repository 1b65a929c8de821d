"""Hatchling build hook: compile the core with mypyc when MEXICAN_TRAIN_COMPILE=1.

``pip install .`` builds the pure-Python package, as always: no compiler, no mypy.
``MEXICAN_TRAIN_COMPILE=1 pip install .`` (or ``python -m build --wheel`` with the
variable set, as cibuildwheel does) asks for hatch-mypyc and mypy as build
dependencies and hands the wheel build to hatch-mypyc's hook, configured in
pyproject.toml under ``[tool.hatch.build.targets.wheel.hooks.custom]``: the same
keys hatch-mypyc reads (``include``, ``mypy-args``, ``options``).  Black and mypy
ship their compiled wheels the same way.
"""

from __future__ import annotations

import os
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: What a compiled build needs: mypyc is part of mypy.
COMPILE_REQUIRES = ["hatch-mypyc>=0.16", "mypy>=1.15"]


def compiling() -> bool:
    """Return whether MEXICAN_TRAIN_COMPILE asks for the compiled build."""
    return os.environ.get("MEXICAN_TRAIN_COMPILE", "").strip().lower() in {"1", "true", "yes"}


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Delegate to hatch-mypyc's hook when compiling; do nothing otherwise."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # mypy reads the runtime dependencies' types (attrs, cattrs, click) as it compiles.
        if not compiling():
            return []
        return [*COMPILE_REQUIRES, *self.metadata.core.dependencies]

    def _mypyc(self) -> Any:
        from hatch_mypyc.plugin import MypycBuildHook  # installed only when compiling

        return MypycBuildHook(
            self.root, self.config, self.build_config, self.metadata, self.directory,
            self.target_name, self.app,
        )  # fmt: skip

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if compiling() and self.target_name == "wheel":
            self._mypyc().initialize(version, build_data)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        # hatch-mypyc compiles in place: once the wheel holds the compiled modules,
        # take them out of the source tree, where they would shadow the sources (an
        # editable install, or tests run from src/, would import a stale build).
        if compiling() and self.target_name == "wheel":
            self._mypyc().clean([version])

    def clean(self, versions: list[str]) -> None:
        if compiling():
            self._mypyc().clean(versions)
