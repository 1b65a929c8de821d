"""The how-to example examples/custom_rules.py: two user-written rules play a whole game.

It is run as a script (as the how-to tells readers to), and its rules are checked
against the public protocols, a size limit (under 50 lines each) and the conformance kit.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from mexican_train import MexicanTrainRule, OpenDoubleRule, Rules
from mexican_train.testing import rules_conformance
from repo_scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "custom_rules.py"
HOWTO = ROOT / "docs" / "howto" / "house-rules.rst"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_script(EXAMPLE)


def test_the_example_runs_and_plays_a_whole_game() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # A double-12 game for 4 players (Table A): 13 rounds, then the winners (E5).
    assert lines[3].startswith("13 rounds played; totals: (")
    assert re.fullmatch(r"winner\(s\): seat \d+(, seat \d+)*", lines[4])


def test_the_howto_shows_what_the_example_prints(example: ModuleType) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=False
    )
    shown = HOWTO.read_text(encoding="utf-8")
    for line in result.stdout.splitlines()[:3]:
        assert f"   {line}\n" in shown, line


def test_the_example_rules_implement_the_public_protocols(example: ModuleType) -> None:
    assert isinstance(example.HighestDoubleFirst(), OpenDoubleRule)
    assert isinstance(example.MexicanWhileAnyMarker(), MexicanTrainRule)
    assert isinstance(example.HOUSE_RULES, Rules)


@pytest.mark.parametrize("name", ["HighestDoubleFirst", "MexicanWhileAnyMarker"])
def test_each_example_rule_is_well_under_50_lines(name: str) -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    (rule,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    assert rule.end_lineno is not None
    assert rule.end_lineno - rule.lineno + len(rule.decorator_list) < 30


def test_the_example_rules_pass_the_conformance_kit(example: ModuleType) -> None:
    rules_conformance(
        example.HOUSE_RULES, players=[2, 4], settings=settings(max_examples=3), max_rounds=2
    )()
