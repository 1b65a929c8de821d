"""The public API's types: ``mypy --strict`` refuses exactly the wrong calls of a user's file.

``tests/typecheck/wrong_calls.py`` marks each call a type checker must refuse with
``# error``; ``tests/typecheck/right_calls.py`` holds calls it must accept, with the types
it must find.  mypy reads the package as a user's mypy does: from its inline types
(``py.typed``).
"""

from __future__ import annotations

import re
import tempfile
import typing
from pathlib import Path

import pytest
from mypy import api

import mexican_train

FILES = Path(__file__).parent / "typecheck"
# The package's own folder goes on mypy's path unless it is installed (an editable
# install elsewhere would otherwise be checked instead); mypy refuses site-packages there.
PACKAGE_ROOT = Path(mexican_train.__file__).resolve().parent.parent


def _mypy_errors(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[int]]:
    """Return the lines mypy --strict reports an error on, by file name."""
    if PACKAGE_ROOT.name not in ("site-packages", "dist-packages"):
        monkeypatch.setenv("MYPYPATH", str(PACKAGE_ROOT))
    cache = Path(tempfile.gettempdir()) / "mexican-train-typing-cache"
    out, err, _ = api.run(
        [
            "--strict",
            "--python-version=3.10",
            "--no-error-summary",
            "--hide-error-context",
            f"--cache-dir={cache}",
            "--config-file=",
            str(FILES / "wrong_calls.py"),
            str(FILES / "right_calls.py"),
        ]
    )
    assert not err, err
    errors: dict[str, set[int]] = {"wrong_calls.py": set(), "right_calls.py": set()}
    for line in out.splitlines():
        found = re.match(r"(?:.*[/\\])?(\w+\.py):(\d+): error: ", line)
        assert found or ": note: " in line, line
        if found:
            errors[found[1]].add(int(found[2]))
    return errors


def _marked(path: Path) -> set[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {number for number, text in enumerate(lines, 1) if text.endswith("# error")}


def test_mypy_strict_refuses_exactly_the_marked_wrong_calls_and_accepts_the_right_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    errors = _mypy_errors(monkeypatch)
    marked = _marked(FILES / "wrong_calls.py")
    assert len(marked) >= 30
    assert errors["wrong_calls.py"] == marked, (
        f"unmarked errors on lines {sorted(errors['wrong_calls.py'] - marked)}, "
        f"no error on marked lines {sorted(marked - errors['wrong_calls.py'])}"
    )
    assert errors["right_calls.py"] == set()


def test_the_package_says_it_is_typed() -> None:
    assert (Path(mexican_train.__file__).parent / "py.typed").is_file()


def test_the_changes_replace_takes_are_typed_for_every_field_in_order() -> None:
    """`GameState.replace` and `PlayerView.replace` take their fields as typed keywords."""
    assert tuple(mexican_train.StateChanges.__annotations__) == mexican_train.GameState.FIELDS
    assert tuple(mexican_train.ViewChanges.__annotations__) == mexican_train.PlayerView.FIELDS


def test_a_views_fields_have_one_type_wherever_they_are_listed() -> None:
    """`ViewChanges` (what `PlayerView.replace` takes) and the record JSON reads a view
    into name the same fields with the same types: neither can drift from the other."""
    from mexican_train._positions.fields import ViewFields

    assert typing.get_type_hints(mexican_train.ViewChanges) == typing.get_type_hints(ViewFields)
