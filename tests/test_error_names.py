"""The public errors go by their public names: in tracebacks, and through pickle."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import re
import traceback
from pathlib import Path

import pytest

import mexican_train
from mexican_train import Draw, MexicanTrainError, Pass
from mexican_train.testing import ConformanceError
from mexican_train.web import RequestError


def _public_errors() -> dict[type[MexicanTrainError], list[str]]:
    """Return every public error class with the public modules that export it.

    A module whose optional dependency is missing (openspiel without open_spiel) is
    left out: none of those defines an error.
    """
    modules = [mexican_train]
    for info in pkgutil.iter_modules(mexican_train.__path__):
        if not info.name.startswith("_"):
            try:
                modules.append(importlib.import_module(f"mexican_train.{info.name}"))
            except ImportError:
                continue
    found: dict[type[MexicanTrainError], list[str]] = {}
    for module in modules:
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type) and issubclass(value, MexicanTrainError):
                found.setdefault(value, []).append(module.__name__)
    return found


#: One instance of each public error, made as the library makes it.
EXAMPLES: dict[str, MexicanTrainError] = {
    "MexicanTrainError": MexicanTrainError("something"),
    "DealError": mexican_train.DealError("Table A covers 2-14 players, not 15"),
    "RulesError": mexican_train.RulesError("Rules.rounds=9, but ..."),
    "InvalidArgumentError": mexican_train.InvalidArgumentError("a seat is 0-1, not 5"),
    "InvalidStateError": mexican_train.InvalidStateError("hands[0][0]", "12-12 appears twice"),
    "IllegalMoveError": mexican_train.IllegalMoveError(Draw(), "P7: a player ... must play"),
    "UnknownVariantError": mexican_train.UnknownVariantError("chickenfoot", ("standard", "hub")),
    "TileNotationError": mexican_train.TileNotationError("a tile is written like '12-5'"),
    "NotationError": mexican_train.NotationError("12-5@X", 6, "X", "move", "no such train"),
    "SchemaError": mexican_train.SchemaError("$.train", "expected a whole number"),
    "ReplayError": mexican_train.ReplayError(1, Pass(), "P7/P5a: ..."),
    "RequestError": RequestError(409, "not your turn", "it is seat 2's turn"),
    "ConformanceError": ConformanceError("chain", "P2", "train 0 breaks at 5-3", move=Pass()),
}


def test_every_public_error_has_an_example() -> None:
    assert sorted(error.__name__ for error in _public_errors()) == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_traceback_names_the_public_module(name: str) -> None:
    """The last line of a traceback names the class as users import it."""
    error = EXAMPLES[name]
    homes = _public_errors()[type(error)]
    # The top level when it exports the class, else the one public module that does.
    home = "mexican_train" if "mexican_train" in homes else homes[0]
    (line,) = traceback.format_exception_only(type(error), error)
    assert line.startswith(f"{home}.{name}: ")
    assert type(error).__module__ == home
    assert getattr(importlib.import_module(home), name) is type(error)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_error_pickles_with_its_attributes(name: str) -> None:
    error = EXAMPLES[name]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(error, protocol))
        assert type(again) is type(error)
        assert str(again) == str(error)
        assert again.args == error.args
        assert vars(again) == vars(error)


def test_the_errors_page_lists_every_public_error_with_its_builtin() -> None:
    """docs/reference/errors.rst's table has a row per public error class, and says which
    builtin each also is, as the class inherits it."""
    page = Path(__file__).resolve().parent.parent / "docs" / "reference" / "errors.rst"
    if not page.is_file():
        pytest.skip("no docs in this tree (a wheel's test run)")
    table = page.read_text().split("Every error class", 1)[1].split("\n\n", 1)[1]
    rows = re.findall(r"   \* - :exc:`~?([\w.]+)`\n     - :exc:`(\w+)`", table)
    listed = {name.rsplit(".", 1)[-1]: builtin for name, builtin in rows}
    errors = {error.__name__: error for error in _public_errors()}
    assert set(listed) == set(errors)
    for name, builtin in listed.items():
        bases = [base.__name__ for base in errors[name].__mro__[1:]]
        assert builtin in bases, (name, builtin, bases)
