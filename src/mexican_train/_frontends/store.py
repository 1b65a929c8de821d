"""Web tables kept in SQLite, so that a restart loses nothing.

A table is kept as its record -- the players, the rules and the seed of its deals
(`GameRecord`) -- with every move played since, one row each, the SHA-256 hash of
each person's token (never a token), and the time of its last move.  A move is
committed before the table applies it, so a move a client saw acknowledged is on disk.  The database runs in WAL mode
with full synchronisation: a process killed at any point leaves every committed move.

A database is one server's: it is locked while a store holds it.  It carries an
application id and the version of its schema (`APPLICATION_ID`, `SCHEMA_VERSION`);
another program's database, or a newer one, is refused with nothing written to it.  A
table whose rows were changed into something this store does not write is refused when
it is read (`TableStore.tables`).  A table the lobby made is deleted when it expires,
every game of it with their moves, in one transaction that keeps its name and why it
expired (`TableStore.expire`, `TableStore.expired`): a restarted server tells its links
so, and never gives its name to a new table.  The names of the newest `EXPIRED_KEPT`
tables that expired are kept, as the server remembers them: the same transaction
deletes the oldest beyond them, so that the database does not grow without end.  A new
table of the command line's (named ``""``) replaces those kept but the ones its server
names, every game of them deleted with its moves in the same transaction
(`TableStore.replace`).  A table the lobby made that its server did not serve (its
bots could not start, or the server stopped meanwhile) is deleted as if never kept
(`TableStore.discard`).  A table the lobby made is kept with the address that made it,
not given until its server serves it and sends that address its links
(`TableStore.give`): a server killed in between lets it expire as it starts again.  Nothing else is ever deleted.

>>> from mexican_train import HUB, Draw, new_game
>>> store = TableStore(":memory:")
>>> number = store.add(GameRecord(2, HUB, seed=5), {0: token_hash("s3cret")}, {1: "greedy"})
>>> store.append(number, 1, 0, Draw())
>>> kept = store.tables()[-1]
>>> kept.record.moves, kept.token_hashes == {0: token_hash("s3cret")}, kept.bots
((Draw(),), True, {1: 'greedy'})
>>> store.close()
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from .._core.errors import MexicanTrainError, shown
from .._core.moves import Move
from .._formats.record import GameRecord
from .._formats.serialize import SchemaError, move_from_json, record_from_json, to_json
from .lobby import EXPIRED_KEPT

__all__ = ["StoreError", "StoredTable", "TableStore", "default_path", "token_hash"]

#: What ``PRAGMA application_id`` says of a database of tables (``MTtb``), and the
#: version of its schema (``PRAGMA user_version``).  A database of another id is another
#: program's, and one of a newer version a newer mexican-train's: both are refused.
APPLICATION_ID: Final = 0x4D547462
SCHEMA_VERSION: Final = 4

# Version 2 added ``active``: the time of the table's last move, or of its making, in
# seconds since the epoch (the store's clock).  A database of version 0 or 1 gets the
# column when opened, each table's set to the time of the upgrade: their moves carry no
# time.  Version 3 added ``expired``: the name of each table that expired, and why, in
# words; a database of an older version gets it, empty, when opened.  Version 4 added
# ``maker`` and ``given``: the address that made a table of the lobby's, and whether its
# links were given to it; an older database's tables get ``''`` and 1 (given).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    record TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    bots TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    name TEXT NOT NULL DEFAULT '',
    began INTEGER NOT NULL DEFAULT 0,
    active REAL NOT NULL DEFAULT 0,
    maker TEXT NOT NULL DEFAULT '',
    given INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seat INTEGER,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS expired (
    name TEXT PRIMARY KEY,
    reason TEXT NOT NULL
);
"""


def _ours(db: sqlite3.Connection, names: set[str]) -> bool:
    """Whether a database of no id, holding the tables *names*, is one this store made.

    A new database holds none; one of schema version 0 (which had no id) holds the two.
    """
    if not names:
        return True
    if names != {"tables", "moves"}:
        return False
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    return {"id", "record", "token_hashes", "bots"} <= columns


_INSERT: Final = (
    "INSERT INTO tables (record, token_hashes, bots, name, began, active, maker, given) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)

#: How a refusal of a database's table ends: what its operator may do.
UNTOUCHED: Final = (
    "The server starts on no database with a table it cannot read, and keeps no table "
    "in it then: repair or delete that table's rows, or give another --db"
)

_HASH = re.compile(r"[0-9a-f]{64}")
_SPECTATORS: Final = -1  # the seat of the spectators' token hash


def _object(value: object, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"its {what} are not a JSON object")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text: {value!r}")
    return value


def _seat(value: object, players: int, *, spectator: bool = False) -> int:
    """Return the seat *value* names at a table of *players* (-1: the spectators')."""
    seat = int(value) if isinstance(value, str) and value.lstrip("-").isdigit() else value
    if type(seat) is not int or not (0 <= seat < players or (spectator and seat == -1)):
        raise ValueError(f"{value!r} is not a seat of a table of {players}")
    return seat


def _hash(seat: object, value: object) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        raise ValueError(f"seat {seat}'s token hash {value!r} is not a SHA-256 (64 hex digits)")
    return value


def _printable(text: str) -> str:
    r"""Return *text*, which a database gave, fit for the operator's terminal: each
    character that is not printable (an escape sequence's, a line break) shown as ``?``.

    >>> _printable("x\x1b[2J\ny")
    'x?[2J?y'
    """
    return "".join(c if c.isprintable() else "?" for c in text)


def _check_writable(path: Path) -> None:
    """Refuse a database *path* the server could not write: SQLite would say only "disk I/O error".

    Raises:
        StoreError: if the database is no file (a pipe, a device), or it, or the folder
            where it and its journal go, is read-only.
    """
    if path.exists() and not path.is_file():
        raise StoreError(
            f"cannot open the tables' database {path}: it is not a file (a pipe, a device): "
            "give the path of a file, or of none yet"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(
            f"cannot open the tables' database {path}: it is read-only to this user, and "
            "serve writes every move to it"
        )
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(
            f"cannot open the tables' database {path}: its folder {path.parent} is read-only "
            "to this user, and serve keeps the database and its journal (-wal) there"
        )


class StoreError(MexicanTrainError, OSError):
    """The tables' database cannot be opened, read or written."""


def default_path(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """Return where ``mexican-train serve`` keeps its tables unless told: the user's data folder.

    ``$XDG_DATA_HOME/mexican-train/tables.sqlite3`` (``~/.local/share`` when it is unset or
    not absolute) on Linux and other Unixes, ``%LOCALAPPDATA%\\mexican-train`` on
    Windows, ``~/Library/Application Support/mexican-train`` on macOS.

    >>> default_path({"XDG_DATA_HOME": "/data"}, "linux", Path("/home/ann")).as_posix()
    '/data/mexican-train/tables.sqlite3'
    >>> default_path({}, "darwin", Path("/Users/ann")).as_posix()
    '/Users/ann/Library/Application Support/mexican-train/tables.sqlite3'
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform == "win32":
        base = Path(environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    return base / "mexican-train" / "tables.sqlite3"


def token_hash(token: str) -> str:
    """Return the hex SHA-256 of a seat's *token*: what the database keeps instead of it.

    >>> len(token_hash("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.frozen
class StoredTable:
    """A table as the database keeps it.

    Attributes:
        number: the table's number in the database.
        record: the game's start and every move played since.
        seats: the seat that made each move (a round is dealt by a person, E4).
        token_hashes: the hash of each person's token, by seat.
        bots: the name of each bot, by seat: a library bot or level by its name
            (``planner``, ``hard``), another by its class (``module:Class``).
        name: the table's name among a server's tables (``""`` for its first one); a new
            game at a table is kept as a new table of the same name.
        began: the version the table had reached when this game was dealt (0 for its
            first game), so that a resumed table's version never goes back: pages take
            the newest document by its version.
        active: when the game was last moved in, or was dealt if it has no move yet,
            in seconds since the epoch (0 for a table made without a time).
        maker: the address that made a table of the lobby's (``""``: not known).
        given: whether the table's links were given to whoever made it: False for a
            table kept as it was made whose links were not yet noted given, sent to the
            lobby's maker or printed by the command line (`TableStore.give`).
    """

    number: int
    record: GameRecord
    seats: tuple[int, ...]
    token_hashes: Mapping[int, str]
    bots: Mapping[int, str]
    name: str = ""
    began: int = 0
    active: float = 0.0
    maker: str = ""
    given: bool = True


class TableStore:
    """The tables of a server, in the SQLite database at *path* (made if missing).

    Safe to share between threads: every call holds one lock.  One store at a time holds
    a database: it is locked, to every process, until `close`.  *clock* gives the time
    kept as a table's last activity (`StoredTable.active`): seconds since the epoch.

    Raises:
        StoreError: if the database cannot be opened or is not one of tables.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self._path = str(path)
        self._clock = clock
        if self._path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"cannot open the tables' database {path}: cannot make its folder "
                    f"{Path(path).parent}: {error.strerror or error}"
                ) from None
            _check_writable(Path(path))
        try:
            self._db = sqlite3.connect(
                self._path, timeout=2, check_same_thread=False, isolation_level=None
            )
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the tables' database {path}: {error}") from None
        try:
            self._open()
        except BaseException as error:  # a refusal, SQLite's error, or Ctrl-C while waiting
            self._db.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"cannot open the tables' database {path}: {error}") from None
            raise
        self._lock = threading.Lock()

    @property
    def path(self) -> str:
        """The database's path, as given."""
        return self._path

    def _open(self) -> None:
        """Check that the database is this store's, of a schema it reads; make or update it.

        Nothing is written to a database that is refused: another program's, or one of a
        newer schema.  The database is then locked until `close`: a second server on it
        is refused, and so is any other program that would read or write it meanwhile.
        """
        db = self._db
        db.execute("PRAGMA locking_mode=EXCLUSIVE")  # held from the first write until closed
        try:
            db.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            raise StoreError(
                f"the tables' database {self._path} is in use by another process (another "
                "mexican-train serve?): one server per database; stop the other, or give "
                "another --db"
            ) from None
        try:
            application = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            names = {
                row[0]
                for row in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%'"
                )
            }
            if application == APPLICATION_ID:
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"the tables' database {self._path} is of schema version {version}, "
                        f"kept by a newer mexican-train; this one reads up to version "
                        f"{SCHEMA_VERSION}: upgrade mexican-train, or serve with another --db"
                    )
            elif application != 0 or not _ours(db, names):
                held = (
                    f"the tables {_printable(', '.join(sorted(names)))}" if names else "no tables"
                )
                marked = f", and the application id {application}" if application else ""
                raise StoreError(
                    f"{self._path} is not a mexican-train tables' database (it holds "
                    f"{held}{marked}): mexican-train changes nothing in it; give another --db"
                )
            for statement in _SCHEMA.split(";"):  # executescript would commit first
                db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            if "name" not in columns:  # schema version 0 without the tables' names
                db.execute("ALTER TABLE tables ADD COLUMN name TEXT NOT NULL DEFAULT ''")
            if "began" not in columns:  # schema version 0 without the games' versions
                db.execute("ALTER TABLE tables ADD COLUMN began INTEGER NOT NULL DEFAULT 0")
            if "active" not in columns:  # schema version 1 without the last activity
                db.execute("ALTER TABLE tables ADD COLUMN active REAL NOT NULL DEFAULT 0")
                db.execute("UPDATE tables SET active = ?", (self._clock(),))
            if "maker" not in columns:  # schema version 3 without the lobby's makers
                db.execute("ALTER TABLE tables ADD COLUMN maker TEXT NOT NULL DEFAULT ''")
                db.execute("ALTER TABLE tables ADD COLUMN given INTEGER NOT NULL DEFAULT 1")
            if application != APPLICATION_ID:  # unchanged, a database is left as it was
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            if version != SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back by itself (a full disk)
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns

    def add(
        self,
        start: GameRecord,
        token_hashes: Mapping[int, str],
        bots: Mapping[int, str],
        name: str = "",
        began: int = 0,
        *,
        maker: str = "",
        given: bool = True,
    ) -> int:
        """Keep a new table that starts as *start*, named *name*; return its number.

        *began* is the version the table had reached when this game was dealt
        (`StoredTable.began`); its last activity is now.  *maker* is the address that
        made it in the lobby, and *given* whether its links were given to it: a table
        the lobby has just made is kept not given, until `give`.
        """
        row = self._row(start, token_hashes, bots, name, began, maker, given)
        with self._lock:
            cursor = self._write(_INSERT, row)
        return int(cursor.lastrowid or 0)

    def give(self, number: int, maker: str) -> None:
        """Note that the links of table *number* were given to *maker*, the address that
        made it in the lobby (``""`` for the command line's, whose links are printed:
        `StoredTable.given`, `StoredTable.maker`).

        Raises:
            StoreError: if the database cannot be written; nothing was changed.
        """
        with self._lock:
            self._write("UPDATE tables SET maker = ?, given = 1 WHERE id = ?", (maker, number))

    def replace(
        self,
        start: GameRecord,
        token_hashes: Mapping[int, str],
        bots: Mapping[int, str],
        keep: Collection[int] = (),
        *,
        given: bool = True,
    ) -> int:
        """Keep a new table of the command line's, named ``""``, that starts as *start*, in
        place of those kept but the tables numbered in *keep*; return its number.

        *given* is whether its links were given (printed): a server keeps its table not
        given until it has printed them (`give`).

        Every other game kept of the command line's tables is deleted, with its moves,
        in the same transaction: the new table is kept and the others deleted, or, if
        that fails, everything is kept as it was.

        Raises:
            StoreError: if the database cannot be written; nothing was changed.
        """
        spared = tuple(keep)
        marks = ", ".join("?" * len(spared))
        gone = f"SELECT id FROM tables WHERE name = '' AND id NOT IN ({marks})"
        with self._lock:
            return self._transaction(
                (f"DELETE FROM moves WHERE table_id IN ({gone})", spared),
                (f"DELETE FROM tables WHERE id IN ({gone})", spared),
                (_INSERT, self._row(start, token_hashes, bots, "", 0, "", given)),
            )

    def _row(
        self,
        start: GameRecord,
        token_hashes: Mapping[int, str],
        bots: Mapping[int, str],
        name: str,
        began: int,
        maker: str = "",
        given: bool = True,
    ) -> tuple[object, ...]:
        """Return the fields of `_INSERT` for a new table: its last activity is now."""
        return (
            json.dumps(to_json(start)),
            json.dumps({str(seat): value for seat, value in token_hashes.items()}),
            json.dumps({str(seat): bot for seat, bot in bots.items()}),
            name,
            began,
            self._clock(),
            maker,
            int(given),
        )

    def append(self, number: int, count: int, seat: int, move: Move) -> None:
        """Commit table *number*'s move number *count* (from 1), made by *seat*.

        The table's last activity becomes now, in the same transaction.

        Raises:
            StoreError: if it cannot be written (the move must then not be applied).
        """
        with self._lock:
            self._transaction(
                (
                    "INSERT INTO moves (table_id, number, seat, move) VALUES (?, ?, ?, ?)",
                    (number, count, seat, json.dumps(to_json(move))),
                ),
                ("UPDATE tables SET active = ? WHERE id = ?", (self._clock(), number)),
            )

    def expire(self, name: str, reason: str) -> None:
        """Delete the lobby's table *name*, which expired: every game kept under that name,
        with its moves; keep its name, and *reason*, why it expired (`expired`).

        One transaction: the table is deleted whole and its name kept, or, if that fails,
        the table is kept as it was.  The names of the newest `EXPIRED_KEPT` tables that
        expired are kept: the same transaction forgets the oldest beyond them.  The
        tables of the command line, named ``""``, never expire.

        Raises:
            ValueError: for the name ``""``.
            StoreError: if the database cannot be written; nothing was deleted.
        """
        if not name:
            raise ValueError("the tables of the command line (named '') never expire")
        with self._lock:
            self._transaction(
                (
                    "DELETE FROM moves WHERE table_id IN (SELECT id FROM tables WHERE name = ?)",
                    (name,),
                ),
                ("DELETE FROM tables WHERE name = ?", (name,)),
                # REPLACE deletes the row of a name kept already: the new row is the newest.
                ("INSERT OR REPLACE INTO expired (name, reason) VALUES (?, ?)", (name, reason)),
                (
                    "DELETE FROM expired WHERE rowid <= "
                    "(SELECT rowid FROM expired ORDER BY rowid DESC LIMIT 1 OFFSET ?)",
                    (EXPIRED_KEPT,),
                ),
            )

    def discard(self, number: int) -> None:
        """Delete table *number*, which its server never served (a table the lobby made,
        given up: `WebTable.discarding`), with its moves: nothing of it is kept, not even
        its name, which `expire` keeps.

        One transaction: the table is deleted whole, or, if that fails, kept as it was.

        Raises:
            StoreError: if the database cannot be written; nothing was deleted.
        """
        with self._lock:
            self._transaction(
                ("DELETE FROM moves WHERE table_id = ?", (number,)),
                ("DELETE FROM tables WHERE id = ?", (number,)),
            )

    def expired(self) -> dict[str, str]:
        """Return why each table that expired did (`expire`), by name, oldest first: the
        newest `EXPIRED_KEPT` at most, as `expire` keeps them.

        Raises:
            StoreError: if the database cannot be read.
        """
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT name, reason FROM (SELECT rowid, name, reason FROM expired "
                    "ORDER BY rowid DESC LIMIT ?) ORDER BY rowid",
                    (EXPIRED_KEPT,),
                ).fetchall()
            except sqlite3.Error as error:
                raise self._unreadable(error) from None
        return {str(name): str(reason) for name, reason in rows}

    def tables(self) -> list[StoredTable]:
        """Return every table kept, oldest first, each with all its moves.

        Raises:
            StoreError: if a table's record or a move cannot be read.
        """
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT id, record, token_hashes, bots, name, began, active, maker, given "
                    "FROM tables ORDER BY id"
                ).fetchall()
                moves = {
                    number: self._db.execute(
                        "SELECT number, seat, move FROM moves WHERE table_id = ? ORDER BY number",
                        (number,),
                    ).fetchall()
                    for number, *_ in rows
                }
            except sqlite3.Error as error:
                raise self._unreadable(error) from None
        return [self._read(row, moves[row[0]]) for row in rows]

    def _read(self, row: tuple[Any, ...], moves: list[tuple[Any, Any, Any]]) -> StoredTable:
        """Return the table a row of ``tables`` and its rows of ``moves`` keep.

        Raises:
            StoreError: if they are not what this store writes, naming the table.
        """
        number, start, hashes, bots, name, began, active, maker, given = row
        try:
            record = record_from_json(json.loads(start))
            for expected, (count, _, _) in enumerate(moves, 1):  # the next takes the next
                if count != expected:
                    raise ValueError(
                        f"its moves are numbered from 1, none missing, but its move "
                        f"{expected} is numbered {shown(count)}"
                    )
            seats = tuple(_seat(seat, record.players) for _, seat, _ in moves)
            token_hashes = {
                _seat(seat, record.players, spectator=True): _hash(seat, value)
                for seat, value in _object(json.loads(hashes), "token hashes").items()
                if value != "" or seat != str(_SPECTATORS)  # "": a table without their link
            }
            names = {
                _seat(seat, record.players): _text(bot, "a bot's name")
                for seat, bot in _object(json.loads(bots), "bots").items()
            }
            people = set(token_hashes) - {_SPECTATORS}
            if people & set(names) or people | set(names) != set(range(record.players)):
                raise ValueError(
                    f"its seats are not each a person's or a bot's (people {sorted(people)}, "
                    f"bots {sorted(names)}, {record.players} seats)"
                )
            if not isinstance(began, int) or began < 0:
                raise ValueError(f"its version {began!r} is not a count")
            if type(active) not in (int, float) or not 0 <= active < float("inf"):
                raise ValueError(f"its last activity {active!r} is not a time")
            if type(given) is not int or given not in (0, 1):
                raise ValueError(f"whether its links were given, {given!r}, is not 0 or 1")
            return StoredTable(
                number,
                attrs.evolve(record, moves=[move_from_json(json.loads(m)) for _, _, m in moves]),
                seats,
                token_hashes,
                names,
                _text(name, "its name"),
                began,
                float(active),
                _text(maker, "its maker"),
                bool(given),
            )
        except (ValueError, TypeError, SchemaError) as error:
            raise StoreError(
                f"table {number} of the tables' database {self._path} cannot be read: {error}. "
                f"{UNTOUCHED}"
            ) from None

    def _unreadable(self, error: sqlite3.Error) -> StoreError:
        """Return the error of a database SQLite cannot read (damaged), naming it: at
        most the first 200 characters of what SQLite says (it may quote a whole row),
        each that is not printable (an escape sequence's, a line break) shown as ``?``."""
        said = _printable(str(error))
        return StoreError(
            f"cannot read the tables' database {self._path}: "
            f"{said if len(said) <= 200 else said[:197] + '...'}"
        )

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def _write(self, sql: str, parameters: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, parameters)  # autocommit: one statement, one commit
        except sqlite3.Error as error:
            raise StoreError(f"cannot write to the tables' database: {error}") from None

    def _transaction(self, *statements: tuple[str, tuple[object, ...]]) -> int:
        """Run *statements* in one transaction: all committed, or none (under the lock).

        Return the row id the last one inserted, if it did.
        """
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = 0
                for sql, parameters in statements:
                    row = db.execute(sql, parameters).lastrowid or 0
                db.execute("COMMIT")
                return row
            except BaseException:
                if db.in_transaction:  # SQLite may have rolled back by itself (a full disk)
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise StoreError(f"cannot write to the tables' database: {error}") from None
