"""examples/bots.py and examples/simulation.py (with its Dask part) run and say what they should;
an example whose extra is missing says which extra, in one line."""

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


def test_simulation_example_refuses_an_option_it_does_not_have_in_one_usage_line() -> None:
    # It ignored what it did not know: --help, or a misspelt --dsak, ran the games.
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "simulation.py"), "--dsak"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert "unrecognized arguments: --dsak" in done.stderr
    assert "--dask" in run_example("simulation.py", "--help")


def _run_without(module: str, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run an example as a script in a Python where *module* cannot be imported."""
    hide = (
        f"import runpy, sys; sys.modules[{module!r}] = None; "
        f"sys.argv = [{name!r}, *{list(args)!r}]; "
        f"runpy.run_path({str(EXAMPLES / name)!r}, run_name='__main__')"
    )
    return subprocess.run(
        [sys.executable, "-c", hide], capture_output=True, text=True, timeout=120, check=False
    )


def test_simulation_example_without_distributed_plays_on_dasks_own_scheduler() -> None:
    done = _run_without("distributed", "simulation.py", "--dask")
    assert done.returncode == 0, done.stderr
    assert "Dask's process scheduler gives the same result: True" in done.stdout


def test_simulation_example_without_dask_says_which_extra_at_once() -> None:
    """--dask without Dask: one line naming the extra, before any game is played."""
    done = _run_without("dask", "simulation.py", "--dask")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "--dask needs the dask extra: pip install 'mexican-train[dask]'\n"


def test_train_agent_example_without_numpy_says_which_extra() -> None:
    done = _run_without("numpy", "train_agent.py")
    assert done.returncode == 1
    assert done.stderr == "train_agent.py needs the rl extra: pip install 'mexican-train[rl]'\n"
