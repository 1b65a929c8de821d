"""Every Python example in the docs and the README is run by the test suite.

Examples written as doctests (``>>>``) in ``docs/**/*.rst`` and ``README.md`` are run by
pytest's doctest collection (see ``testpaths`` in pyproject.toml), and programs in
``examples/`` by ``test_examples.py``.  A plain ``.. code-block:: python`` is not run, so
each one must be listed in `NOT_RUN` with the reason it cannot be, and what tests the same
code instead.
"""

from __future__ import annotations

import codeop
import doctest
import re
import warnings
from pathlib import Path

import pytest

import mexican_train

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: (page, a string the block contains) -> why it is not a doctest, and what covers it.
NOT_RUN: dict[tuple[str, str], str] = {
    ("howto/simulate.rst", 'Client("tcp://'): (
        "needs a running Dask cluster; tests/test_simulate_dask.py makes the same call on a "
        "LocalCluster"
    ),
    ("howto/simulate.rst", "class Mine:"): (
        "the file mybot.py of the page's failing command, which test_docs_commands.py lists; "
        "tests/test_cli.py runs simulate with a bot that raises as this one does"
    ),
    ("howto/render.rst", "cairosvg"): "needs the optional cairosvg package",
    ("howto/house-rules.rst", "rules_conformance(HOUSE_RULES"): (
        "a test module of the reader's own; tests/test_docs_commands.py writes it beside the "
        "page's rules and runs it with pytest"
    ),
    ("howto/train-an-agent.rst", "MaskablePPO"): (
        "needs sb3-contrib, which brings in PyTorch; the environment calls it makes "
        "(reset, step, action_masks) run in tests/test_rl_envs.py"
    ),
}

_BLOCK = re.compile(r"^\.\. code-block:: (?:python|python3|py)\s*$", re.MULTILINE)


def _python_blocks(page: Path) -> list[str]:
    """Return the text of every ``.. code-block:: python`` in an .rst page."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    for number, line in enumerate(lines):
        if _BLOCK.match(line):
            body = []
            for following in lines[number + 1 :]:
                if following.strip() and not following.startswith((" ", "\t")):
                    break
                body.append(following)
            blocks.append("\n".join(body))
    return blocks


PAGES = sorted(p for p in DOCS.rglob("*.rst") if "_build" not in p.parts)


def test_the_docs_are_found() -> None:
    """The docs directory is where this test looks (so the checks below are not empty)."""
    assert PAGES, f"no .rst pages under {DOCS}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_python_code_blocks_are_doctests_or_listed(page: Path) -> None:
    """A page's Python examples are doctests, unless listed in NOT_RUN with a reason."""
    name = page.relative_to(DOCS).as_posix()
    for block in _python_blocks(page):
        listed = [key for key in NOT_RUN if key[0] == name and key[1] in block]
        assert listed, (
            f"{name} has a '.. code-block:: python' that no test runs; write it as a "
            f"doctest (>>>), or list it in NOT_RUN in {Path(__file__).name} with the "
            f"reason:\n{block}"
        )


def test_every_listed_exception_still_exists() -> None:
    """NOT_RUN names no block that has gone (so the list cannot hide a new one)."""
    for (name, needle), _reason in NOT_RUN.items():
        blocks = _python_blocks(DOCS / name) if (DOCS / name).exists() else []
        assert any(needle in block for block in blocks), f"stale NOT_RUN entry: {name}"


def test_the_readme_python_examples_are_doctests() -> None:
    """Every ```python block of the README is a doctest, which pytest runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks, "the README has no Python example"
    for block in blocks:
        assert block.lstrip().startswith(">>>"), f"README example is not a doctest:\n{block}"


def _statements_left_open(text: str) -> list[int]:
    """Return the line (from 1) of each doctest that Python's prompt would leave waiting.

    The tutorial asks the reader to type the lines after ``>>>`` and ``...`` into Python.
    There, a compound statement (``for``, ``def``, ``try``...) ends only at an empty line:
    without a bare ``...`` line after it, the next ``>>>`` line typed joins the block and
    is a syntax error, and output shown under it never comes.  Each example's lines are
    fed to `codeop` as the interactive prompt feeds them.
    """
    lines = text.split("\n")
    waiting = []
    for example in doctest.DocTestParser().get_examples(text):
        prompt = " " * example.indent
        typed = [lines[example.lineno][example.indent + 4 :]]
        for line in lines[example.lineno + 1 :]:
            if not line.startswith(prompt + "..."):
                break
            typed.append(line[example.indent + 4 :])
        buffer: list[str] = []
        for line in typed:
            buffer.append(line)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an invalid escape in a string is not ours
                if codeop.compile_command("\n".join(buffer), "<input>", "single") is not None:
                    buffer = []
        if buffer:
            waiting.append(example.lineno + 1)
    return waiting


@pytest.mark.parametrize(
    "page",
    [ROOT / "README.md", *PAGES],
    ids=["README.md", *(str(p.relative_to(DOCS)) for p in PAGES)],
)
def test_examples_can_be_typed_into_python(page: Path) -> None:
    """Every doctest, typed line by line at Python's prompt, runs as the page shows."""
    waiting = _statements_left_open(page.read_text(encoding="utf-8"))
    assert not waiting, (
        f"{page.name}: the statement at line(s) {waiting} needs a bare '...' line after "
        "it, the empty line that ends a block at Python's prompt"
    )


# The package's modules where they are imported from: the source tree, or an installed wheel.
PACKAGE = Path(mexican_train.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("module", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_docstring_examples_can_be_typed_into_python(module: Path) -> None:
    """The docstrings' examples, which the API reference shows, type in as the pages' do."""
    waiting = _statements_left_open(module.read_text(encoding="utf-8"))
    assert not waiting, (
        f"{module}: the statement at line(s) {waiting} needs a bare '...' "
        "line after it, the empty line that ends a block at Python's prompt"
    )


def test_an_example_left_open_is_found() -> None:
    """The check above finds a loop followed at once by the next prompt, and not a closed one."""
    open_loop = ">>> for i in range(2):\n...     print(i)\n0\n1\n>>> i\n1\n"
    closed_loop = ">>> for i in range(2):\n...     print(i)\n...\n0\n1\n"
    call = ">>> print(\n...     1)\n1\n"
    assert _statements_left_open(open_loop) == [1]
    assert _statements_left_open(closed_loop) == []
    assert _statements_left_open(call) == []
