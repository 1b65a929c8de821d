"""Every shell command of the docs and the README is run as a reader runs it, or listed.

A reader copies a page's commands as they are, into a shell, in a folder of their own.
Each ``$ ...`` line of a ``.. code-block:: console`` in ``docs/`` and each line of a
```` ```bash```` block of the README is collected here, and a page's commands are run in
order, in an empty folder holding what the page gave the reader before them: the example
programs it links for download (``:download:`` of ``examples/``), and the files it tells
the reader to make (`PREPARE`).  Where the page shows what a command prints, the output
must match it, ``...`` standing for any text (as in a doctest).

A server (`SERVERS`) is started on a free port instead of the page's, and the page's
later commands and output are read with that port; a shell variable the page sets to
``...`` (``TOKEN0=...``) gets the token the server printed.  A command too slow for the
suite runs with smaller numbers (`SHORTER`).  Commands that install packages
(``pip install``) are not run; the extras they name must exist.  Every other command a
test cannot run is listed in `NOT_RUN` with the reason, and what runs it instead; a
``mexican-train`` one still runs with ``--help`` added, which checks its command and
options, and a ``python`` script of the repository must exist.  A command that is in
none of these lists is run: a new command on a page cannot go untested unnoticed.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import attrs
import pytest

from child_processes import as_a_terminal_would, posix_only

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
TIMEOUT = 300  # seconds per command: generous, each takes a few seconds
STOP_TIMEOUT = 60  # seconds for a server to stop after Ctrl-C: it takes one or two

#: (page, command) -> why a test does not run it, and what covers it instead.
NOT_RUN: dict[tuple[str, str], str] = {
    ("README.md", "mexican-train play --players 3"): (
        "waits for a person's moves; tests/test_cli_play.py plays it in a terminal"
    ),
    ("README.md", "mexican-train play --record game.json"): (
        "waits for a person's moves; tests/test_cli.py saves a played game's record"
    ),
    ("README.md", "mexican-train analyze game.json --seat 0"): (
        "reads the game the command before it saved; howto/review-your-game.rst runs "
        "analyze on a recorded game"
    ),
    ("README.md", "mexican-train serve"): (
        "howto/play-in-the-browser.rst runs the same command, as a server"
    ),
    ("howto/simulate.rst", "dask scheduler"): "a Dask cluster's own program",
    ("howto/simulate.rst", "dask worker tcp://scheduler-host:8786"): (
        "needs a Dask scheduler on another machine; tests/test_simulate_dask.py simulates "
        "on a LocalCluster"
    ),
    ("howto/simulate.rst", "mexican-train simulate --players 2 --bots mybot:Mine,greedy --games 3"): (
        "shows a bot's failure, so exits with status 1; tests/test_cli.py's "
        "test_your_own_bot_that_raises_ends_the_command_in_one_line runs simulate with such a bot"
    ),
    ("howto/render.rst", "rsvg-convert "): (
        "librsvg's program, not Python's; the command before it writes the SVG"
    ),
    ("howto/house-rules.rst", "python -m pytest test_house_rules.py"): (
        "a hundred whole games, over a minute; SHORTER has no way to make them fewer from "
        "the command line, so test_the_house_rules_pages_test_module_runs runs it with a "
        "Hypothesis profile of three"
    ),
    ("howto/play-in-the-browser.rst", "python benchmarks/web_capacity.py --tables 20 40 60 80 120 --seconds 15 --repeat 3"): (
        "a benchmark of the repository, several minutes long"
    ),
    ("reference/web.rst", "python benchmarks/http_load.py"): (
        "a benchmark of the repository; tests/test_http_hardening.py makes the same attacks"
    ),
    ("explanation/players.rst", "mexican-train simulate --rules standard --games 1000 --seed 2026 --workers 2 --players 4 --bots random,greedy,planner,greedy"): (
        "the page's measurement, minutes long; howto/simulate.rst runs simulate"
    ),
    ("explanation/players.rst", "mexican-train simulate --rules hub --games 1000 --seed 2026 --workers 2 --players 4 --bots random,greedy,planner,greedy"): (
        "the page's measurement, minutes long; howto/simulate.rst runs simulate"
    ),
    ("explanation/players.rst", "python benchmarks/longest_train.py"): (
        "a benchmark of the repository, a minute long; tests/test_benchmarks.py runs its "
        "--quick mode"
    ),
    ("explanation/performance.rst", "python benchmarks/run.py"): (
        "a benchmark of the repository; .ci/run runs its --quick mode"
    ),
    ("explanation/performance.rst", "python benchmarks/run.py --quick"): (
        "a benchmark of the repository; .ci/run runs it"
    ),
    ("explanation/performance.rst", "python benchmarks/run.py --json results.json"): (
        "a benchmark of the repository; .ci/run runs its --quick mode"
    ),
    ("explanation/performance.rst", "python benchmarks/compare.py pure=.venv/bin/python compiled=compiled/bin/python"): (
        "needs two environments, one with the compiled build"
    ),
    ("explanation/performance.rst", "PYTHONHASHSEED=0 setarch -R valgrind"): (
        "needs valgrind, and counts instructions for minutes"
    ),
    ("explanation/search.rst", "python benchmarks/search_decisions.py --json pure.json"): (
        "a benchmark of the repository, minutes long"
    ),
    ("explanation/search.rst", "python benchmarks/search_decisions.py --json compiled.json"): (
        "needs the compiled build"
    ),
    ("explanation/search.rst", "python benchmarks/search_decisions.py --compare pure.json compiled.json"): (
        "compares the two recordings the commands before it make"
    ),
}  # fmt: skip

#: (page, command) -> the same command with smaller numbers, for a test's time.
SHORTER: dict[tuple[str, str], str] = {
    ("README.md", "mexican-train simulate --games 1000 --players 4 --bots planner,greedy,random"): (
        "mexican-train simulate --games 8 --players 4 --bots planner,greedy,random"
    ),
    ("howto/simulate.rst", "mexican-train simulate --games 1000 --players 4 --bots random,greedy,planner,greedy --workers 2"): (
        "mexican-train simulate --games 8 --players 4 --bots random,greedy,planner,greedy --workers 2"
    ),
    ("howto/train-an-agent.rst", "python train_agent.py --seconds 240 --games 1000"): (
        "python train_agent.py --seconds 1 --games 10"
    ),
}  # fmt: skip

#: (page, command) -> a regular expression of the last line it prints once it serves.
SERVERS: dict[tuple[str, str], str] = {
    ("howto/front-end.rst", "python http_table.py --players 2 --seed 1 --port 8000"): (
        r"^seat 1: http://"
    ),
    ("howto/play-in-the-browser.rst", "mexican-train serve"): r"^Press Ctrl-C to stop\.",
    ("howto/play-in-the-browser.rst", "mexican-train serve --players 6 --people 2 --bots planner,greedy --rules hub"): (
        r"^Press Ctrl-C to stop\."
    ),
}  # fmt: skip

#: The port the pages' servers listen on, and the data folder they show.
PAGE_PORT = "8000"
PAGE_DATA_FOLDER = "/home/you/.local/share"


@attrs.frozen
class Command:
    """One command of a page, as a reader types it, and what the page shows it print."""

    page: str
    text: str
    shown: str | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.page, self.text)


def _normalize(command: str) -> str:
    """Return *command* on one line, without its comment and repeated spaces."""
    return " ".join(command.split(" #", 1)[0].split())


def _console_commands(name: str, text: str) -> Iterator[Command]:
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not re.match(r"^\.\. code-block:: console\s*$", line):
            continue
        body: list[str] = []
        for following in lines[number + 1 :]:
            if following.strip() and not following.startswith((" ", "\t")):
                break
            body.append(following)
        yield from _commands_of_block(name, textwrap.dedent("\n".join(body)).splitlines())


def _commands_of_block(name: str, body: list[str]) -> Iterator[Command]:
    command: list[str] = []
    shown: list[str] = []

    def done() -> Iterator[Command]:
        if command:
            output = "\n".join(shown).strip("\n")
            yield Command(name, _normalize(" ".join(command)), output + "\n" if output else None)

    continued = False
    for line in body:
        if continued:
            command.append(line.removesuffix("\\").strip())
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            yield from done()
            command, shown = [line[2:].removesuffix("\\").strip()], []
            continued = line.endswith("\\")
        elif command:
            shown.append(line)
    yield from done()


def _readme_commands() -> Iterator[Command]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```bash\n(.*?)```", readme, flags=re.DOTALL):
        for line in block.splitlines():
            if line.strip():
                yield Command("README.md", _normalize(line), None)


def _pages() -> dict[str, list[Command]]:
    pages = {"README.md": list(_readme_commands())}
    for page in sorted(DOCS.rglob("*.rst")):
        if "_build" in page.parts:
            continue
        name = page.relative_to(DOCS).as_posix()
        commands = list(_console_commands(name, page.read_text(encoding="utf-8")))
        if commands:
            pages[name] = commands
    return pages


PAGES = _pages()
COMMANDS = [command for commands in PAGES.values() for command in commands]


def _installs(command: Command) -> bool:
    return command.text.startswith("pip install")


def _is_run(command: Command) -> bool:
    return not _installs(command) and not any(
        command.page == page and command.text.startswith(text) for page, text in NOT_RUN
    )


def _page_path(page: str) -> Path:
    return ROOT / page if page == "README.md" else DOCS / page


# -- what the page gave the reader before its commands --------------------------------


def _doctest_sources(page: str) -> list[str]:
    parser = doctest.DocTestParser()
    text = _page_path(page).read_text(encoding="utf-8")
    return [example.source for example in parser.get_examples(text)]


def _bot_file(folder: Path, page: str) -> None:
    """The tutorial's bot, saved in ``my_bots.py`` with its import, as the page says."""
    sources = _doctest_sources(page)
    wanted = [s for s in sources if s.startswith(("from mexican_train import Play", "class "))]
    assert any(s.startswith("class HeavyFirst") for s in wanted), wanted
    (folder / "my_bots.py").write_text("\n".join(wanted), encoding="utf-8")


def _page_session(folder: Path, page: str) -> None:
    """The page's Python session, typed in the folder: the files it writes land there."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        namespace: dict[str, object] = {}
        for source in _doctest_sources(page):
            exec(compile(source, page, "exec"), namespace)
    finally:
        os.chdir(here)


def _house_rules_test_module(folder: Path, page: str) -> None:
    """The page's test module, ``test_house_rules.py``, beside its ``custom_rules.py``."""
    text = _page_path(page).read_text(encoding="utf-8")
    (block,) = [
        block
        for block in re.findall(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", text)
        if "rules_conformance(HOUSE_RULES" in block
    ]
    lines = [line.removeprefix("   ") for line in block.splitlines()]
    (folder / "test_house_rules.py").write_text("\n".join(lines).strip() + "\n", "utf-8")


#: page -> what the page tells the reader to make before its commands, in their folder.
PREPARE: dict[str, Callable[[Path, str], None]] = {
    "tutorial/first-bot.rst": _bot_file,
    "howto/review-your-game.rst": _page_session,
    "howto/house-rules.rst": _house_rules_test_module,
}


def _downloads(folder: Path, page: str) -> None:
    """Save each example program the page links for download, as a reader does."""
    text = _page_path(page).read_text(encoding="utf-8")
    for target in re.findall(r":download:`[^`<]*<([^>]*examples/[^>]*)>`", text):
        source = (_page_path(page).parent / target).resolve()
        shutil.copy2(source, folder / source.name)


# -- running a page ---------------------------------------------------------------------


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"  # a server's ready line must reach us at once
    env["PYTHONFAULTHANDLER"] = "1"  # a server that will not stop shows its threads' stacks
    env.pop("PYTHONPATH", None)  # the installed package, as a reader has it
    # `python` and `mexican-train` are those of the environment the tests run in.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


@attrs.define
class _Reader:
    """A reader's shell at a page: their folder, their variables, a server they started."""

    folder: Path
    env: dict[str, str]
    port: str = PAGE_PORT
    tokens: list[str] = attrs.Factory(list)
    server: subprocess.Popen[str] | None = None
    reader: threading.Thread | None = None  # reads what the server prints
    printed: queue.Queue[str | None] = attrs.Factory(queue.Queue)  # ... into this

    def as_here(self, text: str) -> str:
        """Return the page's *text* as this reader's run prints or types it."""
        text = text.replace(f"127.0.0.1:{PAGE_PORT}", f"127.0.0.1:{self.port}")
        return text.replace(PAGE_DATA_FOLDER, self.env["XDG_DATA_HOME"])

    def run(self, command: Command) -> None:
        text = SHORTER.get(command.key, command.text)
        assignment = re.fullmatch(r"(\w+)=(\S*)", text)
        if assignment:  # a shell variable; "..." is what the running server printed
            name, value = assignment.groups()
            if value == "...":
                assert name.startswith("TOKEN"), command
                assert self.tokens, f"{command.page}: no server printed a token for {name}"
                value = self.tokens[int(name.removeprefix("TOKEN"))]
            self.env[name] = value
            return
        if command.key in SERVERS:
            self.serve(command, text)
            return
        # What a terminal shows: stdout and stderr as they come, in one stream.
        done = subprocess.run(
            self.as_here(text), shell=True, cwd=self.folder, env=self.env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, (
            f"{command.page}: '{text}' exited with status {done.returncode}\n"
            f"--- printed ---\n{done.stdout}"
        )
        if command.shown is not None and command.key not in SHORTER:
            _assert_shows(command, self.as_here(command.shown), done.stdout)

    def serve(self, command: Command, text: str) -> None:
        """Start the page's server on a free port; wait until it says it serves.

        A thread reads what the server prints for as long as it runs: the wait for its
        ready line ends at `TIMEOUT` even if the server prints nothing, and a server
        that logs every request never blocks on a full pipe.
        """
        self.stop()
        if "--port" in text:
            text = text.replace(f"--port {PAGE_PORT}", "--port 0")
        else:
            text += " --port 0"
        self.server = subprocess.Popen(
            text, shell=True, cwd=self.folder, env=self.env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, preexec_fn=as_a_terminal_would,
            start_new_session=True,
        )  # fmt: skip
        assert self.server.stdout is not None
        lines: queue.Queue[str | None] = queue.Queue()
        self.printed = lines
        self.reader = threading.Thread(
            target=_read_lines, args=(self.server.stdout, lines), daemon=True
        )
        self.reader.start()
        ready = SERVERS[command.key]
        printed: list[str] = []
        deadline = time.monotonic() + TIMEOUT
        while not re.search(ready, "".join(printed), re.MULTILINE):
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break  # nothing for TIMEOUT seconds
            if line is None:
                break  # the server stopped
            printed.append(line)
        output = "".join(printed)
        assert re.search(ready, output, re.MULTILINE), (
            f"{command.page}: '{text}' never said it serves within {TIMEOUT} s:\n{output}"
        )
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", output)
        assert found, output
        self.port = found[1]
        self.tokens = re.findall(r"#token=(\S+)", output)
        if command.shown is not None:
            _assert_shows(command, self.as_here(command.shown), output)

    def _printed_since(self) -> str:
        return _drained(self.printed)[-12000:]

    def stop(self) -> None:
        """Ctrl-C the running server, as the page's reader would before the next one."""
        if self.server is None:
            return
        server, self.server = self.server, None
        try:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                # SIGABRT: Python's fault handler prints every thread's stack, then it ends.
                os.killpg(server.pid, signal.SIGABRT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(timeout=STOP_TIMEOUT)
                if self.reader is not None:
                    self.reader.join(STOP_TIMEOUT)  # all it printed, the stacks included
                raise AssertionError(
                    f"the server did not stop within {STOP_TIMEOUT} s of Ctrl-C; it printed "
                    f"after its ready line, then its threads' stacks:\n{self._printed_since()}"
                ) from None
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            if self.reader is not None:
                self.reader.join(TIMEOUT)  # the pipe's end: the server's group is gone
                self.reader = None
            if server.stdout is not None:
                server.stdout.close()


def _drained(lines: queue.Queue[str | None]) -> str:
    """Return what is in *lines* now, without waiting."""
    found: list[str] = []
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return "".join(found)
        found.append(line or "")


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Put each line of *stream* in *lines*, then None at its end."""
    try:
        for line in stream:
            lines.put(line)
    finally:
        lines.put(None)


def _assert_shows(command: Command, shown: str, printed: str) -> None:
    checker = doctest.OutputChecker()
    assert checker.check_output(shown, printed, doctest.ELLIPSIS), (
        f"{command.page}: '{command.text}' printed what the page does not show\n"
        f"--- the page ---\n{shown}--- printed ---\n{printed}"
    )


# -- the tests ----------------------------------------------------------------------------


def test_the_commands_are_found() -> None:
    """The pages are where this module looks, and their commands are read."""
    assert "README.md" in PAGES
    assert "howto/front-end.rst" in PAGES
    shown = {command.text: command.shown for command in PAGES["howto/front-end.rst"]}
    assert shown["python http_table.py --players 2 --seed 1 --port 8000"] == (
        "seat 0: http://127.0.0.1:8000/play/0#token=...\n"
        "seat 1: http://127.0.0.1:8000/play/1#token=...\n"
    )
    assert "python -c 'import json, sys;" in PAGES["howto/front-end.rst"][2].text


def test_every_listed_command_is_still_on_its_page() -> None:
    """NOT_RUN, SHORTER and SERVERS name no command that has gone from its page."""
    typed = {command.key for command in COMMANDS}
    for page, text in NOT_RUN:
        assert any(c.page == page and c.text.startswith(text) for c in COMMANDS), (page, text)
    for key in [*SHORTER, *SERVERS]:
        assert key in typed, key
    assert set(PREPARE) <= set(PAGES)


def test_the_extras_a_page_installs_exist() -> None:
    """Each ``pip install '...[extra]'`` names extras that pyproject.toml defines."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = set(pyproject["project"]["optional-dependencies"])
    installs = [command for command in COMMANDS if _installs(command)]
    assert installs
    for command in installs:
        for listed in re.findall(r"\[([\w,-]+)\]", command.text):
            assert set(listed.split(",")) <= extras, command


def _ours(command: Command) -> bool:
    # Whether *command* runs this project's own program or script (others' tools, such
    # as dask's or valgrind, are the pages' to name, not this suite's to check).
    words = command.text.split()
    return words[0] == "mexican-train" or (
        words[0] == "python" and len(words) > 1 and words[1].endswith(".py")
    )


@pytest.mark.parametrize(
    "command",
    [c for c in COMMANDS if not _is_run(c) and not _installs(c) and _ours(c)],
    ids=lambda command: f"{command.page}: {command.text[:60]}",
)
def test_a_command_not_run_still_names_what_exists(command: Command) -> None:
    """A mexican-train command's options parse (it runs with --help); a script exists."""
    words = command.text.split()
    if words[0] == "mexican-train":
        done = subprocess.run(
            [*words, "--help"], env=_environment(), capture_output=True, text=True,
            timeout=TIMEOUT, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (command, done.stderr)
    else:
        if not (ROOT / "benchmarks").is_dir():
            pytest.skip("the repository's benchmarks are not beside the tests")
        assert (ROOT / words[1]).is_file(), command


@posix_only
@pytest.mark.parametrize("page", [p for p, cs in PAGES.items() if any(map(_is_run, cs))])
def test_a_pages_commands_run_as_shown(page: str, tmp_path: Path) -> None:
    """The page's commands run in order in a reader's folder, and print what it shows."""
    commands = [command for command in PAGES[page] if _is_run(command)]
    if any("curl " in command.text for command in commands) and not shutil.which("curl"):
        pytest.skip("the page's commands use curl, which is not installed")
    _downloads(tmp_path, page)
    if page in PREPARE:
        PREPARE[page](tmp_path, page)
    reader = _Reader(tmp_path, _environment())
    try:
        for command in commands:
            reader.run(command)
    finally:
        reader.stop()


@posix_only
def test_a_server_that_never_says_it_serves_fails_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait for a server's ready line ends at TIMEOUT even if it prints nothing."""
    command = Command("howto/example.rst", "python -c 'import time; time.sleep(600)'", None)
    monkeypatch.setitem(SERVERS, command.key, r"^Press Ctrl-C to stop\.")
    monkeypatch.setattr(sys.modules[__name__], "TIMEOUT", 1)
    reader = _Reader(tmp_path, _environment())
    started = time.monotonic()
    try:
        with pytest.raises(AssertionError, match="never said it serves within 1 s"):
            reader.run(command)
    finally:
        reader.stop()
    assert time.monotonic() - started < 60


@posix_only
def test_a_server_that_ignores_ctrl_c_fails_with_its_threads_stacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server still running STOP_TIMEOUT after Ctrl-C is ended, and says where it was."""
    serving = (
        "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
        "print('Mexican Train at http://127.0.0.1:1/'); print('Press Ctrl-C to stop.'); "
        "time.sleep(600)"
    )
    command = Command("howto/example.rst", f'python -c "{serving}"', None)
    monkeypatch.setitem(SERVERS, command.key, r"^Press Ctrl-C to stop\.")
    monkeypatch.setattr(sys.modules[__name__], "STOP_TIMEOUT", 1)
    reader = _Reader(tmp_path, _environment())
    reader.run(command)
    with pytest.raises(AssertionError, match="did not stop within 1 s of Ctrl-C") as failed:
        reader.stop()
    assert "(most recent call first):" in str(failed.value)  # the fault handler's stack
    assert "line 1 in <module>" in str(failed.value)


def test_the_house_rules_pages_test_module_runs(tmp_path: Path) -> None:
    """The page's conformance test, beside the page's rules, passes under pytest.

    With a Hypothesis profile of three games (a ``conftest.py`` beside it loads it): the
    page's own run plays a hundred, too long here.
    """
    page = "howto/house-rules.rst"
    _downloads(tmp_path, page)
    _house_rules_test_module(tmp_path, page)
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('page', max_examples=3)\n"
        "settings.load_profile('page')\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_house_rules.py"],
        cwd=tmp_path, env=_environment(), capture_output=True, text=True, timeout=TIMEOUT,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
