"""Load a script of the repository (an example, a docs generator) as a module, by its path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """Return the module that *path* defines, run once, under *name* (the file's stem).

    The module is also put in ``sys.modules``, so that what it defines (a handler's
    annotations, a pickled function) resolves through its name.
    """
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
