"""The benchmark scripts run as their docstrings say, and refuse a bad option in one line.

Each is run as ``python benchmarks/NAME.py ...`` from the repository root, as its
docstring says.  A refused option exits with argparse's status 2 and a last line
``NAME.py: error: ...`` that names the option, with no traceback, before any work.
(``.ci/run`` runs the other scripts' smoke runs.)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60  # seconds: a refusal comes before any game is played

#: (script, arguments, what the error line names)
REFUSED = [
    ("compare.py", ["pure"], "NAME=PYTHON[:SOURCE], not 'pure'"),
    ("compare.py", ["a=python", "a=python"], "a name of its own"),
    ("ladder.py", ["--deals", "0"], "argument --deals: a whole number of at least 1, not '0'"),
    ("ladder.py", ["--deals", "-3"], "argument --deals"),
    ("tournament.py", ["--rounds", "0"], "argument --rounds: a whole number of at least 1"),
    ("tournament.py", ["--iterations", "40", "0"], "argument --iterations"),
    ("tournament.py", ["--overrule", "-1"], "argument --overrule: a number of at least 0"),
    ("search_decisions.py", ["--games", "0"], "argument --games"),
    ("search_decisions.py", ["--every", "0"], "argument --every"),
    ("search_decisions.py", ["--iterations", "0"], "argument --iterations"),
    ("web_capacity.py", ["--tables", "0"], "argument --tables"),
    ("web_capacity.py", ["--seconds", "-1"], "argument --seconds: a number above 0"),
    ("web_capacity.py", ["--seconds", "nan"], "argument --seconds"),
    ("web_capacity.py", ["--think", "-1"], "argument --think: a number of at least 0"),
    ("web_capacity.py", ["--repeat", "0"], "argument --repeat"),
    ("openspiel_ismcts.py", ["--deals", "0"], "argument --deals"),
    ("openspiel_ismcts.py", ["--simulations", "0"], "argument --simulations"),
    ("longest_train.py", ["--hands", "0"], "argument --hands"),
    ("longest_train.py", ["--dense", "-1"], "argument --dense"),
    ("open_doubles.py", ["--rounds", "0"], "argument --rounds"),
    ("sampler_budget.py", ["--games", "0"], "argument --games"),
    ("sampler_budget.py", ["--players", "13"], "argument --players: invalid choice: 13"),
    ("run.py", ["--repeats", "3"], "unrecognized arguments: --repeats 3"),
    ("simulate_parts.py", ["--games", "3"], "unrecognized arguments: --games 3"),
]


def _run(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, f"benchmarks/{script}", *arguments],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_longest_train_benchmark_prints_each_size_and_the_dense_hands() -> None:
    """The command behind the longest train's figures (explanation/players.rst) runs."""
    done = _run("longest_train.py", "--quick")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[3:6]] == ["16", "20", "25"]
    assert lines[-1].startswith("30 tiles of a double-12 set, 10 hands: ")


def test_web_capacity_server_ends_when_the_measuring_process_does() -> None:
    """The server web_capacity.py starts ends once its stdin closes, as when the process
    that measures it is killed, rather than serving on, orphaned."""
    server = subprocess.Popen(
        [sys.executable, "benchmarks/web_capacity.py", "--serve", "1"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert server.stdin is not None
        assert '"port"' in server.stdout.readline()  # serving
        server.stdin.close()
        assert server.wait(timeout=TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_open_doubles_benchmark_prints_both_presets_and_the_memos_share() -> None:
    """The command behind the open-double figures (explanation/performance.rst) runs."""
    done = _run("open_doubles.py", "--quick")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if "compiled build" in lines[0]:  # the memos' share wraps the engine's functions
        assert [line.split()[0] for line in lines[1:3]] == ["HUB", "STANDARD"]
        assert lines[3:] == ["the memos' share: on the pure-Python build only"]
    else:
        assert [line.split()[0] for line in lines[1:]] == ["HUB", "STANDARD", "HUB", "STANDARD"]
        assert lines[-1].endswith("answered by the memos")


def test_openspiel_ismcts_benchmark_of_one_deal_prints_no_interval() -> None:
    """One deal has no spread to make an interval of: it printed [-inf, +inf]."""
    pytest.importorskip("pyspiel")
    done = _run("openspiel_ismcts.py", "--quick")
    assert done.returncode == 0, done.stderr
    assert "inf" not in done.stdout
    assert done.stdout.count("(one deal)") == 3  # each searcher, and the paired difference
    assert done.stdout.rstrip().endswith("(one deal)")


def test_a_tournament_of_one_deal_prints_no_interval(tmp_path: Path) -> None:
    """One deal has no spread to make an interval of: a cell printed [-inf, +inf] and wrote
    -Infinity (no JSON) in its file, and --paired of two such files raised a traceback."""
    cells = tmp_path / "one.jsonl"
    done = _run(
        *("tournament.py", "--rounds", "4", "--iterations", "2", "--presets", "HUB"),
        *("--opponents", "planner", "--json", str(cells)),
    )
    assert done.returncode == 0, done.stderr
    assert "inf" not in done.stdout
    assert done.stdout.splitlines()[-1].split()[:4] == ["HUB", "planner", "search@2", "4"]
    assert "(one deal)" in done.stdout
    assert "Infinity" not in cells.read_text(encoding="utf-8")
    done = _run("tournament.py", "--paired", str(cells), str(cells))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "HUB           4 rounds: +0.00 (one deal) points a round\n"


def test_tournament_paired_refuses_a_file_of_another_benchmark_in_one_line(
    tmp_path: Path,
) -> None:
    ladder = ROOT / "benchmarks" / "results" / "ladder.jsonl"
    done = _run("tournament.py", "--paired", str(ladder), str(ladder))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"cannot read {ladder} as a --json file of this tournament: a cell has no 'diffs'"
    )


def test_a_ladder_of_one_deal_prints_no_interval() -> None:
    """A win rate over one deal has no interval either: it printed [0.0%, 100.0%]."""
    code = "import ladder; print(ladder.row(ladder.run_pair('HUB', 'medium', 'easy', 1, 0)))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT / "benchmarks",
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:4] == ["HUB", "medium", "easy", "2"]
    assert done.stdout.count("(one deal)") == 2
    assert "inf" not in done.stdout
    assert "100.0%" not in done.stdout


def test_run_says_how_it_timed_simulate_on_one_core_and_on_all() -> None:
    """One core is timed in CPU time, all cores in wall time: two figures side by side
    that do not compare as they seem to unless the table says so."""
    done = _run("run.py", "--quick")
    assert done.returncode == 0, done.stderr
    heading = next(line for line in done.stdout.splitlines() if line.startswith("simulate()"))
    assert "1 core: CPU time" in heading
    assert "all cores: wall time" in heading


def test_sampler_budget_says_what_its_check_found() -> None:
    """--check compares the count with the sampler's own: the output says it did, and on
    how many decisions (it said nothing, and a mismatch was a bare assert)."""
    done = _run("sampler_budget.py", "--games", "2", "--presets", "HUB", "--check")
    assert done.returncode == 0, done.stderr
    first, checked = done.stdout.splitlines()
    assert first.startswith("HUB 4 players, 2 rounds: ")
    assert re.fullmatch(r"  --check: the sampler's own count agrees on \d+ decisions", checked)


@pytest.mark.parametrize(
    ("script", "arguments", "named"),
    REFUSED,
    ids=[f"{script}-{' '.join(arguments)}" for script, arguments, _ in REFUSED],
)
def test_a_benchmark_refuses_a_bad_option_in_one_line(
    script: str, arguments: list[str], named: str
) -> None:
    if script == "openspiel_ismcts.py":
        pytest.importorskip("pyspiel")
    done = _run(script, *arguments)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"{script}: error: ")
    assert named in last


def _documented_commands() -> list[tuple[str, str, list[str]]]:
    """Every ``python benchmarks/NAME.py ...`` line of a literal block in the docs and the
    benchmarks' README, as (where, script, arguments): the commands a figure names."""
    pages = [*sorted((ROOT / "docs").rglob("*.rst")), ROOT / "README.md"]
    pages.append(ROOT / "benchmarks" / "README.md")
    command = re.compile(r"\s*(?:[A-Z]: |\$ )?python benchmarks/(\w+\.py)((?: [^#]*)?)(?:#.*)?")
    found = []
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if (match := command.fullmatch(line)) is not None:
                where = f"{page.relative_to(ROOT)}:{number}"
                found.append((where, match[1], shlex.split(match[2])))
    return found


DOCUMENTED = _documented_commands()


def test_the_docs_name_benchmark_commands() -> None:
    assert len(DOCUMENTED) > 40  # the pattern still finds them


@pytest.mark.parametrize(
    ("where", "script", "arguments"), DOCUMENTED, ids=[where for where, _, _ in DOCUMENTED]
)
def test_a_documented_benchmark_command_takes_its_options(
    where: str, script: str, arguments: list[str]
) -> None:
    """A figure's command, as the page gives it, is one its script takes: each option is
    one of the script's and each value one it accepts.  ``--help`` after them makes the
    script read them all (argparse converts and checks each value as it meets it) and
    stop before any work."""
    done = _run(script, *arguments, "--help")
    assert done.returncode == 0, f"{where}: {done.stderr.strip()}"
    unknown = [a for a in arguments if a.startswith("--") and a not in done.stdout.split()]
    assert not unknown, f"{where}: {script} has no option {unknown}"
