"""examples/bots.py and examples/simulation.py (with its Dask part) run and say what they should."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return done.stdout


def test_bots_example_plays_a_game_with_a_custom_bot() -> None:
    out = run_example("bots.py")
    assert "its longest train from 12-12:" in out
    assert "round 13:" in out
    assert "lightest-first:" in out
    assert "winner(s):" in out


def test_simulation_example_gets_the_same_numbers_everywhere() -> None:
    out = run_example("simulation.py", "--dask")
    assert "process pool gives the same result: True" in out
    assert "Dask gives the same result: True" in out
    assert "95% CI" in out
