"""The ``mexican-train`` commands, driven with click's CliRunner (``play`` has its own test)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mexican_train import __version__
from mexican_train._cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="mexican-train")


def assert_one_line_error(result: Result, text: str) -> None:
    """Bad input: a non-zero exit, one 'Error:' line on stderr, no traceback."""
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert text in lines[0]
    assert "Traceback" not in result.output


def test_demo_plays_a_whole_game_and_shows_every_round() -> None:
    result = run("demo", "--players", "2", "--variant", "short-game", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Round 1 over:" in result.output
    assert "Trains:" in result.output
    assert "Final standings (lowest total wins, E5):" in result.output
    assert "<- winner" in result.output


def test_demo_is_reproducible_with_a_seed() -> None:
    first = run("demo", "-p", "3", "-v", "short-game", "--seed", "9", "--bots", "random,greedy")
    assert first.exit_code == 0
    assert first.output == run("demo", "-p", "3", "-v", "short-game", "--seed", "9",
                               "--bots", "random,greedy").output  # fmt: skip


def test_simulate_prints_a_results_table() -> None:
    result = run("simulate", "-v", "short-game", "-n", "4", "--players", "greedy,random")
    assert result.exit_code == 0, result.output
    assert "Variant: short-game" in result.stdout
    assert "mean score" in result.stdout
    assert "1. GreedyPlayer()" in result.stdout


def test_simulate_json_is_the_same_with_worker_processes() -> None:
    args = ["simulate", "-v", "short-game", "-n", "4", "--players", "planner,random", "--json"]
    alone = run(*args)
    assert alone.exit_code == 0, alone.output
    data = json.loads(alone.stdout)
    assert data["variant"] == "short-game"
    assert data["completed_games"] == 4
    assert [p["name"] for p in data["player_stats"]] == [
        "PlannerPlayer(endgame=2, max_nodes=20000)",
        "RandomPlayer(seed=1)",
    ]
    assert json.loads(run(*args, "--workers", "2").stdout) == data


def test_rules_prints_every_rule_axis_of_a_variant() -> None:
    result = run("rules", "hub")
    assert result.exit_code == 0
    assert "first turn (V1)" in result.output
    assert "an ordinary turn" in result.output
    assert "4: double-12, 15 tiles" in result.output


def test_rules_lists_the_variants() -> None:
    result = run("rules", "--list")
    assert result.stdout.split()[:2] == ["standard", "hub"]


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["demo", "--variant", "chickenfoot"], "no variant named 'chickenfoot'"),
        (["rules", "chickenfoot"], "no variant named 'chickenfoot'"),
        (["demo", "--players", "20"], "covers 2-14 players, not 20"),
        (["demo", "--players", "1"], "not 1"),
        (["simulate", "--players", "greedy"], "players, not 1"),
        (["demo", "--players", "four"], "'four' is not a valid integer"),
        (["simulate", "--games", "0"], "0 is not in the range"),
        (["simulate", "--players", "greedy,robot"], "no bot named 'robot'"),
        (["demo", "--bots", ","], "name at least one bot"),
        (["play", "--seat", "4"], "there is no seat 4 with 4 players"),
        (["play", "--variant", "nope"], "no variant named 'nope'"),
        (["demo", "--colour", "red"], "No such option"),
        (["dance"], "No such command"),
    ],
)
def test_bad_input_gives_one_clear_line_and_a_failure_status(args: list[str], text: str) -> None:
    assert_one_line_error(run(*args), text)


def test_version() -> None:
    assert __version__ in run("--version").output


def test_python_dash_m_runs_the_same_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mexican_train", "rules", "--list"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.split()[0] == "standard"


@pytest.mark.parametrize("command", ["", "demo", "play", "simulate", "rules", "serve"])
def test_the_cli_reference_shows_the_current_help(command: str) -> None:
    """docs/reference/cli.rst quotes each command's --help verbatim (at 88 columns)."""
    args = [command] if command else []
    result = CliRunner().invoke(
        cli, [*args, "--help"], prog_name="mexican-train", terminal_width=88
    )
    shown = " ".join(["$ mexican-train", *args, "--help"])
    expected = f"   {shown}\n" + textwrap.indent(result.stdout, "   ")
    page = (Path(__file__).resolve().parent.parent / "docs/reference/cli.rst").read_text()
    assert expected in page, f"update the help of {shown!r} in docs/reference/cli.rst"
