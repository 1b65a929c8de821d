"""Every program in ``examples/`` runs to completion and exits with status 0.

The examples are documentation that users copy, so each one is run as a user would run it:
``python examples/NAME.py`` in a fresh process, in a scratch directory (some write files),
with a timeout.  A new example is picked up with no change here.

A program that serves until interrupted (a server) is listed in `LONG_RUNNING` with the
arguments for a smoke run and a line it prints once it is ready; the test then sends it
Ctrl-C (SIGINT) and expects a clean exit, status 0.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from child_processes import as_a_terminal_would, posix_only

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAMS = sorted(EXAMPLES.glob("*.py"))
TIMEOUT = 120  # seconds per example: generous, they take well under a second each

#: name -> (arguments, a regular expression its output matches once it is serving).
LONG_RUNNING: dict[str, tuple[list[str], str]] = {
    "http_table.py": (["--players", "2", "--seed", "1", "--port", "0"], r"seat 1: http://"),
}


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"  # a server's "ready" line must reach us at once
    env.pop("PYTHONPATH", None)  # run against the installed package, as a user would
    return env


def _run(program: Path, arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run *program* with *arguments* in *cwd*, as a user would, to its end (or `TIMEOUT`)."""
    return subprocess.run(
        [sys.executable, str(program), *arguments],
        cwd=cwd,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_there_are_examples() -> None:
    """The examples directory is found (so the parametrised test below is not empty)."""
    assert PROGRAMS, f"no examples found in {EXAMPLES}"


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_example_runs(program: Path, tmp_path: Path) -> None:
    """The example exits with status 0 (a server: once interrupted after it is ready)."""
    if program.name in LONG_RUNNING:
        if sys.platform == "win32":
            pytest.skip(posix_only.kwargs["reason"])  # it is stopped with Ctrl-C (SIGINT)
        _run_server(program, tmp_path, *LONG_RUNNING[program.name])
        return
    try:
        done = _run(program, [], tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"{program.name} did not finish within {TIMEOUT} s; if it is a server, add it "
            f"to LONG_RUNNING in {Path(__file__).name}"
        )
    assert done.returncode == 0, (
        f"{program.name} exited with status {done.returncode}\n"
        f"--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"
    )


def _run_server(program: Path, cwd: Path, arguments: list[str], ready: str) -> None:
    process = subprocess.Popen(
        [sys.executable, str(program), *arguments],
        cwd=cwd,
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=as_a_terminal_would,
    )
    assert process.stdout is not None
    output: list[str] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        # readline() blocks, but a server that never prints its ready line and never exits
        # is caught by the deadline check once any line (or EOF) arrives.
        for line in process.stdout:
            output.append(line)
            if re.search(ready, line) or time.monotonic() > deadline:
                break
        assert any(re.search(ready, line) for line in output), (
            f"{program.name} never printed a line matching {ready!r}:\n{''.join(output)}"
        )
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=TIMEOUT)
        output.append(rest)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, (
        f"{program.name} exited with status {process.returncode} after Ctrl-C:\n" + "".join(output)
    )


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["render_table.py", "--players", "1"], "--players: Table A covers 2-14 players, not 1"),
        (["http_table.py", "--players", "20"], "Table A covers 2-14 players, not 20"),
        (["http_table.py", "--port", "99999"], "--port: a port is from 0"),
        (["train_agent.py", "--rules", "nope"], "no variant named 'nope'"),
        (["train_agent.py", "--opponent", "nope"], "an opponent is a Player or one of"),
        (["train_agent.py", "--games", "0"], "--games is more than 0, not 0"),
        (["random_game.py", "--seed", "3"], "unrecognized arguments: --seed 3"),
        (["bots.py", "--players", "3"], "unrecognized arguments: --players 3"),
        (["custom_rules.py", "--sead"], "unrecognized arguments: --sead"),
    ],
)
def test_example_refuses_a_bad_argument_in_one_line(
    arguments: list[str], says: str, tmp_path: Path
) -> None:
    """An example's options are checked as argparse checks its own: usage, then one error
    line (status 2), never a traceback."""
    done = _run(EXAMPLES / arguments[0], arguments[1:], tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"{arguments[0]}: error: ")
    assert says in last


def test_render_table_names_every_seat_past_its_eight_names(tmp_path: Path) -> None:
    """Nine players (the rules deal for up to 14): the ninth is named by its seat."""
    done = _run(EXAMPLES / "render_table.py", ["--players", "9"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Seat 8 " in done.stdout
