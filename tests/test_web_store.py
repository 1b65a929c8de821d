"""Nothing lost: web tables kept in SQLite survive a restart, even a kill -9."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

from child_processes import posix_only
from mexican_train import STANDARD, GameRecord, legal_moves, view
from mexican_train._formats.serialize import to_json
from mexican_train._frontends.cli import cli
from mexican_train._frontends.lobby import EXPIRED_KEPT, MAX_TABLES_PER_CLIENT, NEVER_GIVEN
from mexican_train._frontends.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    StoreError,
    TableStore,
    default_path,
    token_hash,
)
from mexican_train._frontends.web import (
    SPECTATOR,
    WebServer,
    WebTable,
    _command_line_tables,
    _keep,
    _kept_lobby,
    _TableOptions,
)
from mexican_train.players import GreedyPlayer, PlannerPlayer
from mexican_train.variants import get_variant
from mexican_train.web import RequestError
from serving import serving
from web_documents import answer

SHORT = attrs.evolve(STANDARD, max_pip=6, rounds=2)
_QUICK = _TableOptions(bot_delay=0, takeover=None, turn_timer=None)  # serve's, --bot-delay 0
TIMEOUT = 20  # seconds: a hung server fails the test instead of blocking it


@contextlib.contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to the database at *path*, committed and closed at the end."""
    db = sqlite3.connect(path)
    try:
        with db:
            yield db
    finally:
        db.close()


def _kept_table(path: Path) -> tuple[TableStore, WebTable]:
    """A table with a bot, kept in the database at *path*, its moves journaled."""
    store = TableStore(path)
    table = WebTable(3, SHORT, bots={2: PlannerPlayer()}, seed=9)
    number = store.add(table.record(), table.token_hashes, table.bot_names())
    table.journal = lambda count, seat, move: store.append(number, count, seat, move)
    return store, table


def _play(table: WebTable, moves: int) -> None:
    """Play *moves* moves, the people's first legal move and the bot's own."""
    for _ in range(moves):
        assert not table.state.is_over
        if table.play_bots(limit=1):
            continue
        seat = table.state.current_player
        seat = 0 if seat is None else seat
        table.play(seat, legal_moves(view(table.state, seat))[0])


def test_a_kept_table_resumes_at_its_position_with_its_tokens(tmp_path: Path) -> None:
    store, table = _kept_table(tmp_path / "tables.db")
    _play(table, 30)
    store.close()
    (kept,) = TableStore(tmp_path / "tables.db").tables()
    assert kept.token_hashes == {seat: token_hash(t) for seat, t in table.tokens.items()}
    kept_bytes = b"".join(path.read_bytes() for path in tmp_path.iterdir())  # the WAL too
    assert table.tokens
    for token in table.tokens.values():
        assert token.encode() not in kept_bytes
        assert token_hash(token).encode() in kept_bytes
    resumed = WebTable.resume(kept.record, kept.seats, kept.token_hashes, {2: PlannerPlayer()})
    assert resumed.state == table.state
    assert resumed.version == table.version == 30
    assert resumed.tokens == {}  # only the hashes are kept: the people keep their links
    for seat, token in table.tokens.items():
        assert resumed.seat_for(token) == seat
        assert resumed.document(seat)["log"] == table.document(seat)["log"]
    with pytest.raises(RequestError) as refused:
        resumed.seat_for("x" * 32)
    assert refused.value.status == 403


def test_a_move_the_journal_cannot_keep_is_not_applied() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)

    def broken(count: int, seat: int, move: object) -> None:
        raise StoreError("the disk is full")

    table.journal = broken
    before = table.state
    with pytest.raises(RequestError) as refused:
        table.play(0, legal_moves(view(before, 0))[0])
    assert refused.value.status == 503
    assert "the disk is full" in refused.value.reason
    assert table.state == before
    assert table.version == 0


def test_a_database_that_is_not_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "not.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the tables' database"):
        TableStore(path)


def test_a_table_with_an_unreadable_move_is_a_store_error(tmp_path: Path) -> None:
    store, table = _kept_table(tmp_path / "tables.db")
    _play(table, 3)
    store.close()
    with _connected(tmp_path / "tables.db") as db:
        db.execute('UPDATE moves SET move = \'{"type": "nonsense"}\' WHERE number = 2')
    with pytest.raises(StoreError, match="cannot be read"):
        TableStore(tmp_path / "tables.db").tables()


# -- kill -9 and a restart -----------------------------------------------------------------------


def _start(
    *options: str, players: str = "3", port: int = 0
) -> tuple[subprocess.Popen[str], list[str]]:
    """Start ``mexican-train serve`` with *options*; return it and what it printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", str(port), "--players",
         players, "--people", "2", "--bots", "greedy", "--bot-delay", "0", *options, "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith("Press Ctrl-C"):
        line = process.stdout.readline()
        if not line:
            process.kill()
            raise AssertionError(f"the server stopped: {''.join(lines)}")
        lines.append(line)
    return process, lines


def _base(lines: list[str]) -> str:
    """Return the address a server `_start` started serves at, from what it printed."""
    found = re.search(r"(http://\S+/)", lines[0])
    assert found is not None, lines
    return found.group(1)


def _call(base: str, token: str, move: str | None = None) -> dict[str, Any]:
    data = None if move is None else json.dumps({"move": move}).encode()
    request = urllib.request.Request(
        base + ("api/move" if move else "api/view"), data=data,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        return dict(json.loads(answer.read()))


@posix_only
def test_a_table_survives_kill_9(tmp_path: Path) -> None:
    """Moves acknowledged before a kill -9 are all there after a restart with the same --db."""
    db = tmp_path / "tables.db"
    process, lines = _start("--db", str(db))
    try:
        links = dict(re.findall(r"seat (\d): (http://\S+)", "".join(lines)))
        tokens = {int(seat): link.split("#token=")[1] for seat, link in links.items()}
        base = links["0"].split("#")[0]
        played = 0
        deadline = time.monotonic() + TIMEOUT  # for each move: the bot may be slow, under load
        while played < 12:  # the people's moves, as acknowledged; the bot answers by itself
            assert time.monotonic() < deadline, f"no move for {TIMEOUT} s after {played}"
            doc = _call(base, tokens[0])
            seat = doc["view"]["current_player"]
            seat = 0 if seat is None else seat  # between rounds a person deals (E4)
            if seat not in tokens:
                continue  # the bot is thinking: look again
            doc = _call(base, tokens[seat])
            if not doc["moves"]:
                continue
            acknowledged = _call(base, tokens[seat], doc["moves"][0]["notation"])
            played += 1
            deadline = time.monotonic() + TIMEOUT
        seen = {seat: _call(base, token) for seat, token in tokens.items()}
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=TIMEOUT)
    assert played == 12
    assert acknowledged["version"] >= 12
    process, lines = _start("--db", str(db))
    try:
        assert any("is back at move" in line for line in lines), lines
        assert not re.search(r"seat \d: http", "".join(lines))  # no new table, no new links
        base = _base(lines)
        for seat, token in tokens.items():  # the old links' tokens still open their seats
            doc = _call(base, token)
            assert doc["seat"] == seat
            assert doc["version"] >= seen[seat]["version"]
            if doc["version"] == seen[seat]["version"]:
                assert doc["view"] == seen[seat]["view"]
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=TIMEOUT)


def _count(path: Path) -> int:
    """How many tables the database at *path* keeps (closed again: it is locked while open)."""
    store = TableStore(path)
    try:
        return len(store.tables())
    finally:
        store.close()


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=TIMEOUT)


@posix_only
def test_serve_keeps_its_tables_in_the_data_folder_unless_told(tmp_path: Path) -> None:
    kept = Path(os.environ["XDG_DATA_HOME"]) / "mexican-train" / "tables.sqlite3"
    assert default_path() == kept  # the tests' own folder (conftest.py), never the user's
    process, lines = _start()
    _stop(process)
    assert f"Every move is kept in {kept}: a restart resumes the table.\n" in lines
    assert _count(kept) == 1
    process, lines = _start(players="4")  # other options: a new table, the old one kept too
    _stop(process)
    assert any("seat 0: http" in line for line in lines)
    assert _count(kept) == 2
    process, lines = _start("--no-db")
    _stop(process)
    assert not any("kept" in line for line in lines)
    assert _count(kept) == 2


def test_serve_keeps_one_table_of_the_command_lines_for_each_options(tmp_path: Path) -> None:
    """A start keeps the latest game of the command line's table of each players, people
    and rules while it is unfinished, and says so: a start with those options resumes it.
    Older games of the same options go, with their moves; the lobby's tables stay."""
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    for name in ("", "", "t1"):  # two of the command line's, kept by older servers
        table = WebTable(3, STANDARD, bots={2: GreedyPlayer()}, seed=9, name=name)
        number = store.add(table.record(), table.kept_hashes(), table.bot_names(), name)
        table.journal = lambda count, seat, move, n=number: store.append(n, count, seat, move)
        _play(table, 3)
    store.close()
    process, lines = _start("--db", str(db), players="4")
    _stop(process)
    assert (
        f"{db} also keeps an unfinished table served with --players 3 --people 2 "
        "--rules standard: serve with those options to play on at it.\n"
    ) in lines
    assert not any("replaced" in line for line in lines)
    assert [name for name, _ in _kept_names(db)] == ["", "t1", ""]
    with _connected(db) as kept:  # the older game's moves are gone with it
        orphans = "SELECT COUNT(*) FROM moves WHERE table_id NOT IN (SELECT id FROM tables)"
        assert kept.execute(orphans).fetchone() == (0,)
    store = TableStore(db)
    assert [kept.record.players for kept in store.tables() if not kept.name] == [3, 4]
    store.close()
    process, lines = _start("--db", str(db))  # the 3 players' table again
    _stop(process)
    assert any("is back at move" in line for line in lines), lines
    assert (
        f"{db} also keeps an unfinished table served with --players 4 --people 2 "
        "--rules standard: serve with those options to play on at it.\n"
    ) in lines
    assert [name for name, _ in _kept_names(db)] == ["", "t1", ""]


def test_serve_replaces_a_finished_table_of_the_same_options(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    table = WebTable(3, get_variant("short-game"), bots={2: GreedyPlayer()}, seed=9)
    number = store.add(table.record(), table.kept_hashes(), table.bot_names())
    table.journal = lambda count, seat, move: store.append(number, count, seat, move)
    while not table.state.is_over:
        _play(table, 1)
    store.close()
    process, lines = _start("--db", str(db), "--rules", "short-game")
    _stop(process)
    assert (
        f"The table kept in {db} for these options is replaced by this one, as its game "
        "is over: its links no longer work.\n"
    ) in lines
    assert [name for name, moves in _kept_names(db)] == [""]


@pytest.mark.parametrize(
    ("players", "people", "rules", "found"),
    [
        (3, 1, SHORT, None),  # other options: the one kept is over, so it goes
        (3, 2, STANDARD, None),
        (3, 2, SHORT, "its game is over"),
    ],
)
def test_which_command_line_table_is_resumed_and_which_kept(
    tmp_path: Path, players: int, people: int, rules: Any, found: str | None
) -> None:
    store = TableStore(tmp_path / "tables.db")
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=9)
    number = store.add(table.record(), table.kept_hashes(), table.bot_names())
    table.journal = lambda count, seat, move: store.append(number, count, seat, move)
    while not table.state.is_over:
        _play(table, 1)
    options = _TableOptions(0.0, None, None)
    try:
        tables = _command_line_tables(store.tables(), store, players, people, rules, options)
        assert tables == (found, [])
    finally:
        store.close()


@posix_only
def test_a_command_line_table_whose_links_were_never_printed_is_replaced(tmp_path: Path) -> None:
    """serve --db keeps its table once it listens, then prints its links: a server
    killed in between leaves a table nobody has the links of, which the next start
    replaces instead of resuming it (the people could never sit at it)."""
    db = tmp_path / "tables.db"
    store = TableStore(db)
    table = WebTable(3, STANDARD, bots={2: GreedyPlayer()})  # _start's options
    store.replace(table.record(), table.kept_hashes(), table.bot_names(), given=False)
    store.close()
    process, lines = _start("--db", str(db))
    _stop(process)
    printed = "".join(lines)
    assert "is replaced by this one, as its links were never printed" in printed
    assert re.search(r"seat 0: http", printed)
    process, lines = _start("--db", str(db))  # the links printed: it is resumed
    _stop(process)
    assert "is back at move" in "".join(lines)


def test_a_command_line_table_that_cannot_replace_the_one_kept_changes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.db"
    _lobby_games(path).close()
    before = _kept_names(path)
    with _connected(path) as db:  # the insert, after the old table's delete, fails
        db.execute(
            "CREATE TRIGGER kept BEFORE INSERT ON tables BEGIN SELECT RAISE(ABORT, 'kept'); END"
        )
    store = TableStore(path)
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()})
    with pytest.raises(StoreError, match="cannot write to the tables' database: kept"):
        store.replace(table.record(), table.kept_hashes(), table.bot_names())
    store.close()
    assert _kept_names(path) == before == [("", 3), ("t1", 3), ("t1", 3), ("t2", 3)]


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({"XDG_DATA_HOME": "/x"}, "linux", "/x/mexican-train/tables.sqlite3"),
        ({"XDG_DATA_HOME": "relative"}, "linux", "/h/.local/share/mexican-train/tables.sqlite3"),
        ({}, "freebsd14", "/h/.local/share/mexican-train/tables.sqlite3"),
        ({"LOCALAPPDATA": "/l"}, "win32", "/l/mexican-train/tables.sqlite3"),
        ({}, "win32", "/h/AppData/Local/mexican-train/tables.sqlite3"),
        (
            {"XDG_DATA_HOME": "/x"},
            "darwin",
            "/h/Library/Application Support/mexican-train/tables.sqlite3",
        ),
    ],
)
def test_the_default_database_is_in_the_users_data_folder(
    environ: dict[str, str], platform: str, expected: str
) -> None:
    assert default_path(environ, platform, Path("/h")).as_posix() == expected


@posix_only
def test_a_table_made_in_the_lobby_survives_kill_9_too(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}
        request = urllib.request.Request(base + "api/tables", data=json.dumps(asked).encode())
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            made = json.load(answer)
        token = made["seats"]["0"].removeprefix("/#token=")
        deadline = time.monotonic() + TIMEOUT  # the bot's moves may take a while, under load
        doc = _call(base, token)
        while doc["version"] < 3:  # the person moves whenever it is their turn
            assert time.monotonic() < deadline, f"the table stayed at {doc['version']}"
            if doc["moves"]:
                _call(base, token, doc["moves"][0]["notation"])
            doc = _call(base, token)
        seen = _call(base, token)
    finally:
        _stop(process)
    assert seen["version"] >= 3
    process, lines = _start("--db", str(db), port=int(base.rsplit(":", 1)[1].strip("/")))
    try:
        doc = _call(base, token)  # the same link, on the same port
        assert doc["seat"] == 0
        assert doc["version"] >= seen["version"]
        if doc["version"] == seen["version"]:
            assert doc["view"] == seen["view"]
    finally:
        _stop(process)


def _status(base: str, token: str) -> tuple[int, dict[str, Any]]:
    """The status and JSON answer of ``GET /api/view`` with *token*, a refusal's too."""
    request = urllib.request.Request(
        base + "api/view", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, dict(json.load(answer))
    except urllib.error.HTTPError as error:
        return error.code, dict(json.load(error))


def test_serve_expires_the_lobbys_tables_left_idle_while_it_was_stopped(tmp_path: Path) -> None:
    """A lobby's table nobody played at for --table-idle hours, the server's downtime
    included, expires as the server starts: it is deleted, and its links answer 410.  The
    others come back, a finished one too (its links deal the next game), and the
    command line's table never expires."""
    db = tmp_path / "tables.sqlite3"
    now = time.time()
    when = [now]
    store = TableStore(db, clock=lambda: when[0])
    tokens = {}
    for name, active, finished in (("", now - 1e6, False), ("t1", now - 7200, False),
                                   ("t2", now - 600, False), ("t3", now - 600, True)):  # fmt: skip
        when[0] = active  # the time of the table's making and of its moves
        rules = SHORT if name else STANDARD  # the command line's: serve's own options
        table = WebTable(3, rules, bots={2: GreedyPlayer()}, seed=9, name=name)
        number = store.add(table.record(), table.kept_hashes(), table.bot_names(), name)
        table.journal = lambda count, seat, move, n=number: store.append(n, count, seat, move)
        _play(table, 3)
        while finished and not table.state.is_over:
            _play(table, 1)
        tokens[name] = table.tokens[0]
    store.close()
    process, lines = _start("--db", str(db), "--table-idle", "1")
    try:
        base = _base(lines)
        assert any("is back at move" in line for line in lines), lines
        deadline = time.monotonic() + TIMEOUT
        while (answered := _status(base, tokens["t1"]))[0] != 410:  # the first sweep's
            assert answered[0] == 200, answered
            assert time.monotonic() < deadline, "the idle table did not expire"
            time.sleep(0.05)
        assert answered[1] == {
            "error": "expired",
            "reason": "nobody played at this table for 1 hour, so it has expired: "
            "make a new one in the lobby",
        }
        assert _status(base, tokens["t2"])[0] == 200
        status, over = _status(base, tokens["t3"])
        assert (status, over["winners"] != []) == (200, True)
        assert _status(base, tokens[""])[0] == 200
    finally:
        _stop(process)
    with _connected(db) as kept:
        assert kept.execute("SELECT DISTINCT name FROM tables ORDER BY name").fetchall() == [
            ("",),
            ("t2",),
            ("t3",),
        ]
        orphans = "SELECT COUNT(*) FROM moves WHERE table_id NOT IN (SELECT id FROM tables)"
        assert kept.execute(orphans).fetchone() == (0,)


def _make_table(base: str) -> dict[str, Any]:
    """Make a table in the lobby of the server at *base*; return its answer."""
    asked = {"rules": "standard", "players": 2, "people": 2, "level": "easy"}
    request = urllib.request.Request(base + "api/tables", data=json.dumps(asked).encode())
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        return dict(json.load(answer))


def test_an_expired_tables_name_is_never_given_again_and_its_links_say_so_after_a_restart(
    tmp_path: Path,
) -> None:
    """A lobby's table that expired, then a restart: its links still answer 410, and no
    new table takes its name (its old links would then name the new one)."""
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db, clock=lambda: time.time() - 7200)  # two hours ago
    table = WebTable(2, SHORT, name="t1")  # two people: nothing moves by itself
    store.add(table.record(), table.kept_hashes(), table.bot_names(), "t1")
    store.close()
    gone = {
        "error": "expired",
        "reason": "nobody played at this table for 1 hour, so it has expired: "
        "make a new one in the lobby",
    }
    process, lines = _start("--db", str(db), "--table-idle", "1")
    try:  # t1 expires as the server starts
        base = _base(lines)
        assert _status(base, table.tokens[0]) == (410, gone)
    finally:
        _stop(process)
    process, lines = _start("--db", str(db), "--table-idle", "1")
    try:
        base = _base(lines)
        assert _status(base, table.tokens[0]) == (410, gone)
        assert _make_table(base)["table"] == "t2"
        assert _status(base, table.tokens[0]) == (410, gone)
    finally:
        _stop(process)


class _NoThread(WebTable):
    """A table whose bots' thread cannot start, as when the process has no more threads."""

    def start(self) -> None:
        raise RuntimeError("can't start new thread")


def _lobby_without_threads(store: TableStore) -> tuple[WebTable, WebServer, list[WebTable]]:
    """Return a table, a server of it whose lobby keeps its tables in *store* and makes
    each a `_NoThread`, and the list of the tables the lobby makes."""
    made: list[WebTable] = []

    def no_thread(request: object, name: str) -> WebTable:
        made.append(_NoThread(2, SHORT, bots={1: "easy"}, bot_delay=0, name=name))
        return made[-1]

    own = WebTable(2, SHORT, bots={1: GreedyPlayer()})
    lobby = _kept_lobby(store, no_thread, 3600.0)
    return own, WebServer(("127.0.0.1", 0), own, log=None, lobby=lobby), made


@posix_only
def test_a_lobby_table_whose_bots_cannot_start_is_not_kept(tmp_path: Path) -> None:
    """serve --db's lobby keeps a table before the server starts its bots: one whose
    bots' thread cannot start is deleted again, its maker told why (503), and a restart
    serves no such table (its links were never given)."""
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)

    own, server, _ = _lobby_without_threads(store)
    try:
        with serving(server):
            asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}
            status, refused = answer(server, "/api/tables", asked)
            assert (status, refused) == (
                503,
                {
                    "error": "busy",
                    "reason": "the server could not start the table's bots (can't start "
                    "new thread): no table was made; try again later",
                },
            )
            assert server.tables == [own]
            assert store.tables() == []
    finally:
        store.close()
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        assert _make_table(base)["table"] == "t1"  # the name is free: nothing came back
    finally:
        _stop(process)
    assert [name for name, _ in _kept_names(db)] == ["", "t1"]


@posix_only
def test_a_lobby_table_kept_but_never_answered_expires_as_the_server_starts(
    tmp_path: Path,
) -> None:
    """serve --db keeps a lobby's table before it sends its maker the links: a server
    killed in between leaves a table whose links nobody may have.  A restart lets it
    expire at once, its links (if they arrived) saying why, and its name taken by no
    new table."""
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    asked = {"rules": "standard", "players": 2, "people": 2, "level": "easy"}
    made = _kept_lobby(store, _QUICK.lobby(), 3600.0)(asked, "t1")  # kept; killed before the answer
    store.close()
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        assert _status(base, made.tokens[0]) == (410, {"error": "expired", "reason": NEVER_GIVEN})
        assert _make_table(base)["table"] == "t2"
    finally:
        _stop(process)
    assert [name for name, _ in _kept_names(db)] == ["", "t2"]


@posix_only
def test_a_lobby_table_given_up_whose_delete_failed_expires_as_the_server_starts(
    tmp_path: Path,
) -> None:
    """A table the lobby gave up (its bots could not start) stays in the database if
    its delete fails: nobody got its links, so a restart lets it expire."""
    db = tmp_path / "tables.sqlite3"
    TableStore(db).close()
    with _connected(db) as plain:
        plain.execute(
            "CREATE TRIGGER kept BEFORE DELETE ON tables "
            "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
    store = TableStore(db)
    _, server, made = _lobby_without_threads(store)
    try:
        with serving(server):
            asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}
            assert answer(server, "/api/tables", asked)[0] == 503
        assert [table.name for table in store.tables()] == ["t1"]  # not deleted
    finally:
        store.close()
    with _connected(db) as plain:
        plain.execute("DROP TRIGGER kept")
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        assert _status(base, made[0].tokens[0]) == (
            410,
            {"error": "expired", "reason": NEVER_GIVEN},
        )
    finally:
        _stop(process)


@posix_only
def test_a_lobby_table_answered_just_before_kill_9_comes_back(tmp_path: Path) -> None:
    """The table is noted given before its links are sent: a server killed as its maker
    reads them serves it again after a restart."""
    db = tmp_path / "tables.sqlite3"
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}
        request = urllib.request.Request(base + "api/tables", data=json.dumps(asked).encode())
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answered:
            body = answered.read()
        process.send_signal(signal.SIGKILL)  # as soon as the answer has arrived
        token = json.loads(body)["seats"]["0"].removeprefix("/#token=")
    finally:
        _stop(process)
    process, lines = _start("--db", str(db), port=int(base.rsplit(":", 1)[1].strip("/")))
    try:
        assert _status(base, token)[0] == 200
    finally:
        _stop(process)


@posix_only
@pytest.mark.parametrize("kept", [True, False], ids=["db", "no-db"])
def test_the_lobbys_tables_have_serves_turn_timer_before_and_after_a_restart(
    tmp_path: Path, kept: bool
) -> None:
    """serve's table options (--turn-timer here) are the lobby's tables' too, as it makes
    them and as a restart serves them again: a table does not change its rules of play
    because its server restarted."""
    database = ("--db", str(tmp_path / "tables.sqlite3")) if kept else ("--no-db",)
    process, lines = _start(*database, "--turn-timer", "30")
    try:
        base = _base(lines)
        token = _make_table(base)["seats"]["0"].removeprefix("/#token=")
        assert _call(base, token)["seconds_left"] is not None
    finally:
        _stop(process)
    if not kept:
        return
    process, lines = _start(*database, "--turn-timer", "30", port=int(base.split(":")[-1][:-1]))
    try:
        assert _call(base, token)["seconds_left"] is not None
    finally:
        _stop(process)


def test_a_lobby_table_answered_is_kept_given_to_the_address_that_made_it(
    tmp_path: Path,
) -> None:
    """By the time the lobby sends a table's links, serve --db's database notes them
    given, and to which address: a restart serves the table, counted in that address's
    share."""
    store = TableStore(tmp_path / "tables.sqlite3")
    own = WebTable(2, SHORT, bots={1: GreedyPlayer()})
    server = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=_kept_lobby(store, _QUICK.lobby(), 3600.0)
    )
    try:
        with serving(server):
            asked = {"rules": "standard", "players": 2, "people": 2, "level": "easy"}
            assert answer(server, "/api/tables", asked)[0] == 200
            (kept,) = [table for table in store.tables() if table.name]
            assert (kept.name, kept.given, kept.maker) == ("t1", True, "127.0.0.1")
    finally:
        store.close()


@posix_only
def test_a_lobby_table_counts_in_its_makers_share_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    for serial in range(1, MAX_TABLES_PER_CLIENT + 1):
        table = WebTable(2, SHORT, name=f"t{serial}")  # two people: nothing moves by itself
        store.add(
            table.record(), table.kept_hashes(), {}, table.name, maker="127.0.0.1", given=True
        )
    store.close()
    process, lines = _start("--db", str(db))
    try:
        base = _base(lines)
        with pytest.raises(urllib.error.HTTPError) as refused:
            _make_table(base)
        assert refused.value.code == 503
        assert "your address made as many" in json.load(refused.value)["reason"]
    finally:
        _stop(process)


def test_a_lobby_table_the_database_cannot_keep_is_refused_saying_so(tmp_path: Path) -> None:
    """serve --db's lobby answers a table its database cannot keep 503, as a move it
    cannot keep, saying why; nothing is served, nor kept."""
    db = tmp_path / "tables.sqlite3"
    TableStore(db).close()
    with _connected(db) as plain:  # as a full disk would, it refuses the lobby's tables
        plain.execute(
            "CREATE TRIGGER full BEFORE INSERT ON tables WHEN NEW.name != '' "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    store = TableStore(db)
    own = WebTable(2, SHORT, bots={1: GreedyPlayer()})
    server = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=_kept_lobby(store, _QUICK.lobby(), 3600.0)
    )
    try:
        with serving(server):
            asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}
            assert answer(server, "/api/tables", asked) == (
                503,
                {
                    "error": "not saved",
                    "reason": "the table could not be kept: cannot write to the tables' "
                    "database: database or disk is full",
                },
            )
            assert server.tables == [own]
            assert store.tables() == []
    finally:
        store.close()


def test_serve_expires_an_idle_lobby_table_before_its_bot_can_move(tmp_path: Path) -> None:
    """A lobby's table left idle at its bot's turn expires as the server starts: its bot
    does not move first (with --bot-delay 0 it would at once), which would make the table
    active again and keep it another --table-idle hours."""
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db, clock=lambda: time.time() - 7200)  # two hours ago
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=9, name="t1")
    number = store.add(table.record(), table.kept_hashes(), table.bot_names(), "t1")
    table.journal = lambda count, seat, move: store.append(number, count, seat, move)
    while table.state.current_player != 2:  # the people move until the bot is to
        seat = table.state.current_player
        assert seat is not None
        table.play(seat, legal_moves(view(table.state, seat))[0])
    store.close()
    process, lines = _start("--db", str(db), "--table-idle", "1")
    try:
        base = _base(lines)
        assert _status(base, table.tokens[0])[0] == 410  # already: it expired as it started
    finally:
        _stop(process)
    with _connected(db) as kept:
        assert kept.execute("SELECT COUNT(*) FROM tables WHERE name = 't1'").fetchone() == (0,)


# -- a database that is not this store's, or of another schema ------------------------------------


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)",
        "CREATE TABLE tables (id INTEGER PRIMARY KEY, legs INTEGER)",  # a name like ours
        "CREATE TABLE tables (id INTEGER PRIMARY KEY, record TEXT, token_hashes TEXT, bots TEXT);"
        "CREATE TABLE moves (table_id INTEGER); PRAGMA application_id = 42",
    ],
)
def test_another_programs_database_is_refused_and_left_as_it_was(
    tmp_path: Path, schema: str
) -> None:
    path = tmp_path / "theirs.db"
    with _connected(path) as db:
        db.executescript(schema)
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"is not a mexican-train tables' database .*another --db"):
        TableStore(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]  # no WAL made either


def test_another_programs_tables_are_named_without_their_control_characters(
    tmp_path: Path,
) -> None:
    path = tmp_path / "theirs.db"
    with _connected(path) as db:
        db.execute('CREATE TABLE "x\x1b[2J\ny" (a)')
    with pytest.raises(StoreError) as refused:
        TableStore(path)
    assert "it holds the tables x?[2J?y)" in str(refused.value)


def test_a_database_of_a_newer_schema_is_refused_naming_its_version(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    TableStore(path).close()
    with _connected(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}, kept by a newer"):
        TableStore(path)
    assert path.read_bytes() == before


def test_a_database_kept_before_schema_versions_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    record = json.dumps(to_json(GameRecord(2, SHORT, seed=5)))
    with _connected(path) as db:  # the first schema: no names, no versions, no id
        db.executescript(
            "CREATE TABLE tables (id INTEGER PRIMARY KEY, record TEXT NOT NULL, "
            "token_hashes TEXT NOT NULL, bots TEXT NOT NULL, "
            "created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);"
            "CREATE TABLE moves (table_id INTEGER NOT NULL REFERENCES tables(id), "
            "number INTEGER NOT NULL, seat INTEGER, move TEXT NOT NULL, "
            "PRIMARY KEY (table_id, number));"
        )
        db.execute(
            "INSERT INTO tables (record, token_hashes, bots) VALUES (?, ?, ?)",
            (record, json.dumps({"0": token_hash("t")}), json.dumps({"1": "greedy"})),
        )
    store = TableStore(path)
    (kept,) = store.tables()
    store.close()
    assert (kept.name, kept.began, kept.token_hashes) == ("", 0, {0: token_hash("t")})
    with _connected(path) as db:
        assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


# The schema of version 1, before tables kept their last activity: a database of that
# version is brought up to date when opened.
_SCHEMA_1 = """
CREATE TABLE tables (
    id INTEGER PRIMARY KEY,
    record TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    bots TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    name TEXT NOT NULL DEFAULT '',
    began INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE moves (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seat INTEGER,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
PRAGMA application_id = 1297380450;
PRAGMA user_version = 1;
"""


def test_a_database_of_schema_version_1_is_upgraded_its_tables_active_from_then(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.db"
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=5)
    seat = table.state.current_player
    move = legal_moves(table.state)[0]
    with _connected(path) as db:
        db.executescript(_SCHEMA_1)
        db.execute(
            "INSERT INTO tables (record, token_hashes, bots, name, began) VALUES (?, ?, ?, ?, ?)",
            (
                json.dumps(to_json(table.record())),
                json.dumps({"0": token_hash("t")}),
                json.dumps({"1": "greedy"}),
                "t4",
                3,
            ),
        )
        db.execute(
            "INSERT INTO moves (table_id, number, seat, move) VALUES (1, 1, ?, ?)",
            (seat, json.dumps(to_json(move))),
        )
    assert APPLICATION_ID == 1297380450  # the id the version 1 schema above sets
    store = TableStore(path, clock=lambda: 1_700_000_000.5)  # the upgrade's time
    (kept,) = store.tables()
    store.close()
    assert (kept.name, kept.began, kept.record.moves) == ("t4", 3, (move,))
    assert kept.active == 1_700_000_000.5  # moves carry no time: the upgrade's is taken
    assert (kept.maker, kept.given) == ("", True)  # its links were given, to whom not known
    with _connected(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (4,)
    store = TableStore(path, clock=lambda: 1_800_000_000.0)  # up to date: nothing changes
    assert store.tables()[0].active == 1_700_000_000.5
    store.close()


def test_a_database_of_schema_version_5_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    with _connected(path) as db:
        db.executescript(_SCHEMA_1.replace("user_version = 1", "user_version = 5"))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="schema version 5, kept by a newer mexican-train; "):
        TableStore(path)
    assert path.read_bytes() == before


def test_a_table_is_active_when_made_and_at_each_move(tmp_path: Path) -> None:
    now = [100.0]
    store = TableStore(tmp_path / "tables.db", clock=lambda: now[0])
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=5)
    first = store.add(table.record(), table.token_hashes, table.bot_names(), "t1")
    now[0] = 150.0
    store.add(table.record(), table.token_hashes, table.bot_names(), "t2")
    now[0] = 200.0
    store.append(first, 1, 0, legal_moves(table.state)[0])
    assert [kept.active for kept in store.tables()] == [200.0, 150.0]
    store.close()


def _kept_names(path: Path) -> list[tuple[str, int]]:
    """Each table the database at *path* keeps, as its name and its count of moves."""
    with _connected(path) as db:
        return db.execute(
            "SELECT name, (SELECT COUNT(*) FROM moves WHERE table_id = tables.id) "
            "FROM tables ORDER BY id"
        ).fetchall()


def _lobby_games(path: Path) -> TableStore:
    """A store at *path* with the command line's table, two games of the lobby's table t1,
    and its table t2, each with three moves."""
    store = TableStore(path)
    for name in ("", "t1", "t1", "t2"):
        table = WebTable(3, SHORT, bots={2: PlannerPlayer()}, seed=9, name=name)
        number = store.add(table.record(), table.token_hashes, table.bot_names(), name)
        table.journal = lambda count, seat, move, n=number: store.append(n, count, seat, move)
        _play(table, 3)
    return store


def test_an_expired_table_is_deleted_every_game_of_it_with_its_moves(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = _lobby_games(path)
    store.expire("t1", "nobody played at it")
    assert [kept.name for kept in store.tables()] == ["", "t2"]
    store.close()
    assert _kept_names(path) == [("", 3), ("t2", 3)]
    with _connected(path) as db:  # no move is left behind
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (6,)
    store = TableStore(path)
    try:
        with pytest.raises(ValueError, match="never expire"):
            store.expire("", "nobody played at it")
    finally:
        store.close()  # the database stays locked while a store holds it


def test_a_discarded_table_is_deleted_with_its_moves_and_no_name_kept(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = _lobby_games(path)
    (number,) = [kept.number for kept in store.tables() if kept.name == "t2"]
    store.discard(number)
    assert store.expired() == {}  # its name is free: its links were never given
    store.close()
    assert _kept_names(path) == [("", 3), ("t1", 3), ("t1", 3)]
    with _connected(path) as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (9,)


def test_an_expired_tables_name_and_reason_are_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = _lobby_games(path)
    store.expire("t2", "nobody played at t2")
    store.expire("t1", "nobody played at t1")
    store.close()
    store = TableStore(path)
    try:
        assert store.expired() == {"t2": "nobody played at t2", "t1": "nobody played at t1"}
        assert list(store.expired()) == ["t2", "t1"]  # oldest first
    finally:
        store.close()


def test_the_database_keeps_the_names_of_the_newest_expired_tables_only(
    tmp_path: Path,
) -> None:
    """A lobby expires tables without end: the database keeps the names of the newest
    EXPIRED_KEPT that expired, as the server remembers them, and each expiry forgets the
    oldest beyond (one kept by a store without the bound, too)."""
    path = tmp_path / "tables.db"
    TableStore(path).close()
    with _connected(path) as db:  # more than the bound: t1 ... t4099
        db.executemany(
            "INSERT INTO expired (name, reason) VALUES (?, ?)",
            [(f"t{n}", f"nobody played at t{n}") for n in range(1, EXPIRED_KEPT + 4)],
        )
    store = TableStore(path)
    try:
        names = list(store.expired())
        assert (len(names), names[0], names[-1]) == (EXPIRED_KEPT, "t4", "t4099")
        store.expire("t4100", "nobody played at t4100")
        names = list(store.expired())
        assert (len(names), names[0], names[-1]) == (EXPIRED_KEPT, "t5", "t4100")
    finally:
        store.close()
    with _connected(path) as db:
        assert db.execute("SELECT COUNT(*), MIN(rowid) FROM expired").fetchone() == (
            EXPIRED_KEPT,
            5,
        )


def test_a_delete_that_fails_half_way_deletes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    _lobby_games(path).close()
    before = _kept_names(path)
    with _connected(path) as db:  # the second statement, after the moves' delete, fails
        db.execute(
            "CREATE TRIGGER kept BEFORE DELETE ON tables BEGIN SELECT RAISE(ABORT, 'kept'); END"
        )
    store = TableStore(path)
    with pytest.raises(StoreError, match="cannot write to the tables' database: kept"):
        store.expire("t1", "nobody played at it")
    assert [kept.name for kept in store.tables()] == ["", "t1", "t1", "t2"]
    assert store.expired() == {}  # nor is its name kept as expired
    store.close()
    assert _kept_names(path) == before == [("", 3), ("t1", 3), ("t1", 3), ("t2", 3)]


# -- one server per database --------------------------------------------------------------------


@pytest.mark.parametrize("made", [False, True])
def test_a_database_open_in_one_store_is_refused_to_another_until_closed(
    tmp_path: Path, made: bool
) -> None:
    if made:  # a database made before is left as it was when opened: locked all the same
        TableStore(tmp_path / "tables.db").close()
    first = TableStore(tmp_path / "tables.db")
    with pytest.raises(StoreError, match=r"is in use by another process .*one server per database"):
        TableStore(tmp_path / "tables.db")
    first.close()
    TableStore(tmp_path / "tables.db").close()


@posix_only
def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    process, _ = _start("--db", str(db))
    try:
        second = subprocess.run(
            [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--db", str(db)],
            capture_output=True, text=True, timeout=TIMEOUT,
        )  # fmt: skip
    finally:
        _stop(process)
    assert second.returncode == 1
    assert second.stderr.startswith(f"Error: the tables' database {db} is in use by another")
    assert "Traceback" not in second.stderr
    assert _count(db) == 1  # the second made no table


# -- rows changed by hand ---------------------------------------------------------------------------

A_HASH = token_hash("t")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ('UPDATE tables SET token_hashes = \'{"0": "abc"}\'', "seat 0's token hash 'abc' is not a"),
        ("UPDATE tables SET token_hashes = '{\"0\": 5}'", "seat 0's token hash 5 is not a SHA-256"),
        ("UPDATE tables SET token_hashes = '[1, 2]'", "its token hashes are not a JSON object"),
        (f'UPDATE tables SET token_hashes = \'{{"7": "{A_HASH}"}}\'', "'7' is not a seat"),
        ("UPDATE tables SET bots = '[\"greedy\"]'", "its bots are not a JSON object"),
        ("UPDATE tables SET bots = '{\"2\": 3}'", "a bot's name is not text: 3"),
        ("UPDATE moves SET seat = NULL WHERE number = 1", "None is not a seat of a table of 3"),
        ("UPDATE moves SET seat = 'x' WHERE number = 1", "'x' is not a seat of a table of 3"),
        ("UPDATE moves SET move = 12 WHERE number = 1", "cannot be read"),
        ("UPDATE tables SET began = 'x'", "its version 'x' is not a count"),
        ("UPDATE tables SET record = '{'", "cannot be read"),
        ("UPDATE tables SET bots = '{}'", "not each a person's or a bot's (people [0, 1], bots []"),
        ('UPDATE tables SET bots = \'{"0": "m:C", "2": "m:C"}\'', "bots [0, 2], 3 seats"),
        ("UPDATE tables SET given = 2", "whether its links were given, 2, is not 0 or 1"),
        ("UPDATE tables SET maker = x'41'", "its maker is not text: b'A'"),
        ("DELETE FROM moves WHERE number = 2", "none missing, but its move 2 is numbered 3"),
        ("UPDATE moves SET number = number - 1", "none missing, but its move 1 is numbered 0"),
    ],
)
def test_a_row_changed_by_hand_is_refused_naming_its_table(
    tmp_path: Path, change: str, said: str
) -> None:
    store, table = _kept_table(tmp_path / "tables.db")
    _play(table, 3)
    store.close()
    with _connected(tmp_path / "tables.db") as db:
        db.execute(change)
    store = TableStore(tmp_path / "tables.db")
    try:
        with pytest.raises(StoreError) as refused:
            store.tables()
    finally:
        store.close()
    assert str(refused.value).startswith("table 1 of the tables' database ")
    assert said in str(refused.value)
    assert str(refused.value).endswith("repair or delete that table's rows, or give another --db")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("UPDATE moves SET move = (SELECT move FROM moves WHERE number = 1) WHERE number = 2",
         "does not replay: the record does not replay at move 2"),
        ("UPDATE moves SET seat = NULL WHERE number = 1", "cannot be read: None is not a seat"),
        ("UPDATE tables SET name = 'a b'",
         "cannot be served: a table's name is up to 16 letters, digits, - and _, not 'a b'"),
        ("UPDATE tables SET token_hashes = '{}', "
         "bots = '{\"0\": \"greedy\", \"1\": \"greedy\", \"2\": \"planner\"}'",
         "cannot be served: every one of the 3 seats has a bot"),
    ],
)  # fmt: skip
def test_serve_refuses_a_table_changed_by_hand_in_one_line(
    tmp_path: Path, change: str, said: str
) -> None:
    store = TableStore(tmp_path / "tables.db")
    table = WebTable(3, SHORT, bots={2: PlannerPlayer()}, seed=9)
    hashes = {**table.token_hashes, -1: table.spectator_hash}
    number = store.add(table.record(), hashes, table.bot_names(), "t1")  # the lobby's
    table.journal = lambda count, seat, move: store.append(number, count, seat, move)
    _play(table, 3)
    store.close()
    with _connected(tmp_path / "tables.db") as db:
        db.execute(change)
    before = (tmp_path / "tables.db").read_bytes()
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(tmp_path / "tables.db")])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: table 1 of the tables' database {tmp_path / 'tables.db'} ")
    assert said in line
    assert (tmp_path / "tables.db").read_bytes() == before


# -- a database the server cannot write ------------------------------------------------------------


@pytest.mark.parametrize("missing", ["file", "folder"])
def test_a_read_only_database_is_refused_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    path = tmp_path / "tables.db"
    TableStore(path).close()
    read_only = path if missing == "file" else tmp_path
    real = os.access  # a chmod binds no root: ask os.access as a read-only mount would answer
    monkeypatch.setattr(
        os, "access", lambda p, mode: real(p, mode) and not (Path(p) == read_only and mode & 2)
    )
    with pytest.raises(
        StoreError, match=f"{'it' if missing == 'file' else 'its folder'}.* is read-only"
    ):
        TableStore(path)


@posix_only
def test_a_database_that_is_no_file_is_refused_saying_so(tmp_path: Path) -> None:
    """A pipe, or a device (``--db /dev/null``): SQLite says only "disk I/O error"."""
    path = tmp_path / "tables.db"
    os.mkfifo(path)
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: cannot open the tables' database {path}: it is not a file (a pipe, a "
        "device): give the path of a file, or of none yet\n"
    )


def test_a_damaged_database_is_refused_naming_it_and_left_as_it_was(tmp_path: Path) -> None:
    """A database whose pages are damaged (its first one, which names its tables, whole):
    serve stops at once, naming the database, and writes nothing to it."""
    path = tmp_path / "tables.db"
    store = TableStore(path)
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=9, name="t1")
    store.add(table.record(), table.kept_hashes(), table.bot_names(), "t1")
    store.close()
    whole = path.read_bytes()
    page = 4096  # SQLite's default page size: the rest holds the tables' rows
    assert len(whole) > page
    path.write_bytes(whole[:page] + b"\xff" * (len(whole) - page))
    damaged = path.read_bytes()
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: cannot read the tables' database {path}: database disk image is malformed\n"
    )
    assert path.read_bytes() == damaged


def test_a_row_sqlite_cannot_read_is_refused_in_a_few_words(tmp_path: Path) -> None:
    """SQLite quotes a text it cannot decode whole: the refusal quotes its start only."""
    path = tmp_path / "tables.db"
    _lobby_games(path).close()
    with _connected(path) as db:  # a record that is not UTF-8, past a long start
        db.execute(
            "UPDATE tables SET record = CAST(? AS TEXT) WHERE id = 2", (b"{" * 5000 + b"\xff",)
        )
    store = TableStore(path)
    try:
        with pytest.raises(StoreError) as refused:
            store.tables()
    finally:
        store.close()
    said = str(refused.value)
    assert said.startswith(f"cannot read the tables' database {path}: Could not decode to UTF-8")
    assert len(said) <= len(f"cannot read the tables' database {path}: ") + 200


def test_a_row_sqlite_cannot_read_is_quoted_without_its_control_characters(
    tmp_path: Path,
) -> None:
    """What SQLite quotes of a damaged row reaches the operator's terminal: its control
    characters (an escape sequence, a newline) are shown as ``?``, never sent as they are."""
    path = tmp_path / "tables.db"
    _lobby_games(path).close()
    with _connected(path) as db:
        db.execute(
            "UPDATE tables SET record = CAST(? AS TEXT) WHERE id = 2",
            (b"{\x1b[2J\x1b]0;owned\x07\nline\xff",),
        )
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot read the tables' database {path}: ")
    assert result.stderr.count("\n") == 1
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", result.stderr), repr(result.stderr)
    assert "?[2J?]0;owned??line" in result.stderr


def test_a_table_whose_port_was_busy_is_not_kept(tmp_path: Path) -> None:
    """Its links were never printed: kept, it would come back with seats nobody can take."""
    db = tmp_path / "tables.db"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(db)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot serve on 127.0.0.1:{port}")
    assert _count(db) == 0  # and the failed server let go of the database


def test_a_table_kept_without_a_spectators_link_is_read_and_kept_again(tmp_path: Path) -> None:
    """A table may be kept with an empty spectators' hash (no spectators' link): it is read
    without one, and its next game is kept without one too, so the next start reads it."""
    store = TableStore(tmp_path / "tables.db")
    table = WebTable(2, SHORT, bots={1: PlannerPlayer()}, seed=9)
    store.add(table.record(), {**table.token_hashes, SPECTATOR: ""}, table.bot_names())
    (kept,) = store.tables()
    assert SPECTATOR not in kept.token_hashes
    resumed = WebTable.resume(
        kept.record, kept.seats, kept.token_hashes, {1: PlannerPlayer()}, began=kept.began
    )
    _keep(resumed, store, kept.number, kept.began)
    assert resumed.restarted is not None
    resumed.restarted(resumed.record())  # as "New game at this table" keeps the next game
    assert [SPECTATOR in each.token_hashes for each in store.tables()] == [False, False]
    store.close()
