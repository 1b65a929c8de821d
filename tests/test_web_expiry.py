"""The lobby's tables expire once nobody plays at them, and its caps count the live ones.

Time is a clock each test holds (a list it advances), never a sleep: the server's own
sweep runs every few minutes, and a test sweeps when it likes (`WebServer.expire_idle`).
What a database keeps across a restart is in test_web_store.py.
"""

from __future__ import annotations

import functools
import io
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from mexican_train import STANDARD, InvalidArgumentError, Move, PlayerView, legal_moves, view
from mexican_train._frontends.lobby import TABLE_IDLE
from mexican_train._frontends.store import StoreError
from mexican_train.players import GreedyPlayer
from mexican_train.web import RequestError, WebServer, WebTable, lobby_table
from serving import serving
from web_documents import answer

SHORT = attrs.evolve(STANDARD, max_pip=6, rounds=1)
TIMEOUT = 20.0  # seconds: a server that never answers fails the test, never hangs it
HOUR = 3600.0
REASON = "nobody played at this table for 1 hour, so it has expired: make a new one in the lobby"
CLOSED = "whoever runs the server closed it: it plays no more games"


class Clock:
    """A wall clock the test moves on by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _lobby(clock: Clock) -> Callable[[object, str], WebTable]:
    """The lobby's table maker, its tables on *clock*, bots without a delay."""
    return functools.partial(lobby_table, bot_delay=0, clock=clock)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(clock: Clock) -> Iterator[WebServer]:
    """A server with a lobby whose tables expire after an hour, its own table on *clock*."""
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0),
        table,
        log=None,
        lobby=_lobby(clock),
        max_tables=4,
        max_tables_per_client=2,
        table_idle=HOUR,
    )
    with serving(made):
        yield made


def _new_table(server: WebServer, players: int = 2, people: int = 2) -> dict[str, Any]:
    """Make a table in *server*'s lobby; return its answer (its name, its seats' links)."""
    asked = {"rules": "standard", "players": players, "people": people, "level": "easy"}
    status, made = answer(server, "/api/tables", asked)
    assert status == 200, made
    return dict(made)


def _token(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][str(seat)].removeprefix("/#token="))


def _served(server: WebServer, name: str) -> WebTable:
    (table,) = (table for table in server.tables if table.name == name)
    return table


def _move(server: WebServer, made: dict[str, Any]) -> None:
    """Make a move at the people's table *made*: the first one the seat to move may."""
    seat = _served(server, made["table"]).state.current_player
    assert seat is not None
    document = answer(server, "/api/view", token=_token(made, seat))[1]
    body = {"move": document["moves"][0]["notation"], "version": document["version"]}
    status, moved = answer(server, "/api/move", body, token=_token(made, seat))
    assert status == 200, moved


def _closing(socket: ClientConnection) -> tuple[int, str]:
    """Read *socket* until the server closes it; return the close's code and reason."""

    def read() -> None:
        while True:  # documents pushed before the close, if any
            socket.recv(timeout=TIMEOUT)

    with pytest.raises(ConnectionClosed) as closed:
        read()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


# -- a table ------------------------------------------------------------------------------------


def test_a_table_is_active_when_made_at_each_move_and_at_each_new_game(clock: Clock) -> None:
    table = WebTable(2, SHORT, seed=3, clock=clock)  # two people
    assert table.active == clock.now
    while not table.state.is_over:
        clock.now += 10
        seat = table.state.current_player
        assert seat is not None
        table.play(seat, legal_moves(view(table.state, seat))[0])
        assert table.active == clock.now
    clock.now += 10
    table.document(0)
    table.arrive(0)  # looking and coming are not playing
    assert table.active == clock.now - 10
    table.again(0)
    assert table.active == clock.now


def test_an_idle_table_expires_and_refuses_moves_saying_why(clock: Clock) -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=2, clock=clock, bot_delay=0)
    table.start()
    deadline = time.monotonic() + TIMEOUT
    while table.state.current_player != 0:  # the bot moves first at this seed: its turn
        assert time.monotonic() < deadline, "the bot never ended its turn"
        table.wait(0, since=table.version, timeout=0.1)
    moved = table.version
    assert moved > 0
    clock.now += HOUR - 1
    assert not table.expire(HOUR)
    assert (table.closed, table.expired) == (False, None)
    clock.now += 1
    assert table.expire(HOUR)
    assert table.closed
    assert table.expired == REASON
    assert not table.expire(HOUR)  # once
    seat = table.state.current_player
    assert seat == 0
    refusals: list[Callable[[], object]] = [
        lambda: table.play(0, legal_moves(view(table.state, 0))[0]),
        lambda: table.again(0),
    ]
    for refused_move in refusals:
        with pytest.raises(RequestError) as refused:
            refused_move()
        assert (refused.value.status, refused.value.error) == (410, "expired")
        assert refused.value.reason == REASON
    assert table.version == moved
    assert table._thread is not None
    assert not table._thread.is_alive()  # its bots have stopped


def test_a_table_whose_expiry_fails_is_left_as_it_was(clock: Clock) -> None:
    table = WebTable(2, SHORT, seed=3, clock=clock)  # two people

    def full() -> None:
        raise StoreError("cannot write to the tables' database: database or disk is full")

    table.expiring = full
    clock.now += 2 * HOUR
    with pytest.raises(StoreError, match="disk is full"):
        table.expire(HOUR)
    assert (table.closed, table.expired) == (False, None)
    seat = table.state.current_player
    assert seat is not None
    table.play(seat, legal_moves(table.state)[0])  # it goes on
    deleted: list[bool] = []
    table.expiring = lambda: deleted.append(True)
    clock.now += 2 * HOUR
    assert table.expire(HOUR)
    assert deleted == [True]


class _Waits:
    """A bot that thinks until it is told to answer, then plays its first legal move."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.answer = threading.Event()

    def choose(self, table: PlayerView, legal: Sequence[Move]) -> Move:
        self.thinking.set()
        self.answer.wait(TIMEOUT)
        return legal[0]


def test_a_bots_move_chosen_while_the_table_expired_is_not_kept(clock: Clock) -> None:
    bot = _Waits()
    table = WebTable(2, SHORT, bots={1: bot}, seed=2, clock=clock)  # the bot moves first
    kept: list[int] = []
    table.journal = lambda count, seat, move: kept.append(count)
    playing = threading.Thread(target=table.play_bots, daemon=True)
    playing.start()
    assert bot.thinking.wait(TIMEOUT)
    clock.now += HOUR
    assert table.expire(HOUR)  # while the bot thinks: its move must not follow the delete
    bot.answer.set()
    playing.join(TIMEOUT)
    assert (kept, table.version) == ([], 0)


# -- a server ---------------------------------------------------------------------------------


def test_an_idle_lobby_table_expires_its_pages_are_told_and_its_links_answer_410(
    server: WebServer, clock: Clock
) -> None:
    made = _new_table(server)  # two people: nothing moves unless they do
    name, token = made["table"], _token(made, 0)
    table = _served(server, name)
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": token}))
        assert json.loads(socket.recv(timeout=TIMEOUT))["seat"] == 0
        polled: list[tuple[int, Any]] = []
        since = f"/api/view?since={table.version}"
        polling = threading.Thread(
            target=lambda: polled.append(answer(server, since, token=_token(made, 1)))
        )
        clock.now += HOUR - 1
        assert server.expire_idle() == []
        polling.start()
        deadline = time.monotonic() + TIMEOUT
        while not table._polls[1] and time.monotonic() < deadline:  # the poll waits
            time.sleep(0.01)
        clock.now += 1
        assert server.expire_idle() == [name]  # not the server's own table, as idle
        code, reason = _closing(socket)
        polling.join(TIMEOUT)
    assert (code, reason) == (4410, REASON)
    assert polled == [(410, {"error": "expired", "reason": REASON})]  # the long poll ends
    assert [each.name for each in server.tables] == [""]
    assert table.closed
    gone = {"error": "expired", "reason": REASON}
    assert answer(server, "/api/view", token=token) == (410, gone)
    assert answer(server, "/api/view", token=f"{name}.wrongsecret") == (410, gone)
    assert answer(server, "/api/move", {"move": "draw"}, token=token) == (410, gone)
    assert answer(server, "/api/again", {}, token=token) == (410, gone)
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": token}))
        assert _closing(socket) == (4410, REASON)
    status, unknown = answer(server, "/api/view", token="t99.nosuchsecret")
    assert (status, unknown["error"]) == (403, "wrong token")
    assert unknown["reason"] == (
        "no table here has that token: the link is wrong, or its table expired "
        "(a lobby's table does after 1 hour unplayed)"
    )


@pytest.mark.parametrize("idle", [HOUR, 8760 * HOUR])
def test_a_socket_with_a_token_no_table_has_is_told_the_whole_reason(
    clock: Clock, idle: float
) -> None:
    """A WebSocket's close carries 123 bytes of reason at most: the page shows the one a
    link no table has gets, whole, as a long poll's 403 says it."""
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), table_idle=idle)
    with serving(made):
        reason = answer(made, "/api/view", token="t99.nosuchsecret")[1]["reason"]
        url = f"ws://127.0.0.1:{made.server_address[1]}/api/ws"
        with connect(url, open_timeout=TIMEOUT) as socket:
            socket.send(json.dumps({"token": "t99.nosuchsecret"}))
            assert _closing(socket) == (4403, reason)


def test_an_addresss_share_counts_its_tables_served_not_those_it_made(
    server: WebServer, clock: Clock
) -> None:
    first, second = _new_table(server), _new_table(server)  # this address's share: 2
    status, refused = answer(server, "/api/tables", {"players": 2, "people": 2})
    assert (status, refused["error"]) == (503, "full")
    assert refused["reason"] == (
        "your address made as many of the tables this server holds as it may (2); "
        "a table expires once nobody has played at it for 1 hour"
    )
    clock.now += HOUR - 10
    _move(server, second)  # played at: it stays
    clock.now += 10
    assert server.expire_idle() == [first["table"]]
    third = _new_table(server)
    assert third["table"] not in {first["table"], second["table"]}  # no name comes back
    assert answer(server, "/api/view", token=_token(first, 0))[0] == 410
    assert answer(server, "/api/view", token=_token(second, 0))[0] == 200
    assert [each.name for each in server.tables] == ["", second["table"], third["table"]]


def test_the_servers_cap_counts_the_tables_served_not_those_made_since_it_started(
    clock: Clock,
) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), max_tables=3, table_idle=HOUR
    )
    with serving(made):
        for _ in range(3):  # the server's own table, and two of the lobby's, each time
            _new_table(made)
            _new_table(made)
            status, refused = answer(made, "/api/tables", {"players": 2, "people": 2})
            assert (status, refused["error"]) == (503, "full")
            assert refused["reason"] == (
                "this server holds as many tables as it can (3); "
                "a table expires once nobody has played at it for 1 hour"
            )
            clock.now += HOUR
            assert len(made.expire_idle()) == 2
            assert [each.name for each in made.tables] == [""]  # its own never expires


def test_a_lobby_table_closed_is_let_go_at_once_and_leaves_room(
    server: WebServer, clock: Clock
) -> None:
    first, second = _new_table(server), _new_table(server)  # this address's share: 2
    _served(server, first["table"]).close()  # not by expiry: by whoever holds the table
    assert [each.name for each in server.tables] == ["", second["table"]]  # no sweep needed
    status, refused = answer(server, "/api/view", token=_token(first, 0))
    assert (status, refused["error"]) == (410, "closed")
    third = _new_table(server)  # the closed table is not served: it counts no more
    assert server.expire_idle() == []  # none expired
    assert [each.name for each in server.tables] == ["", second["table"], third["table"]]


def test_a_lobby_tables_sockets_close_with_4404_and_the_reason_when_it_closes(
    server: WebServer,
) -> None:
    made = _new_table(server)
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": _token(made, 0)}))
        assert json.loads(socket.recv(timeout=TIMEOUT))["seat"] == 0
        _served(server, made["table"]).close()  # not by expiry: by whoever holds the table
        assert _closing(socket) == (4404, CLOSED)


def test_a_lobby_tables_links_are_told_it_closed_whenever_they_come(
    server: WebServer,
) -> None:
    """Once a lobby's table closes, every request with its tokens is answered 410, its
    error "closed" (as an expired table's say "expired"), and a WebSocket that connects
    then closes with 4404 and the reason, as those open when it closed did."""
    made = _new_table(server)  # two people: nothing moves unless they do
    name, token = made["table"], _token(made, 0)
    table = _served(server, name)
    polled: list[tuple[int, Any]] = []
    since = f"/api/view?since={table.version}"
    polling = threading.Thread(
        target=lambda: polled.append(answer(server, since, token=_token(made, 1)))
    )
    polling.start()
    deadline = time.monotonic() + TIMEOUT
    while not table._polls[1] and time.monotonic() < deadline:  # the poll waits
        time.sleep(0.01)
    table.close()  # not by expiry: by whoever holds the table
    polling.join(TIMEOUT)
    gone = {"error": "closed", "reason": CLOSED}
    assert polled == [(410, gone)]  # the long poll ends
    assert answer(server, "/api/view", token=token) == (410, gone)
    spectators = made["spectators"].removeprefix("/#token=")
    assert answer(server, "/api/view", token=spectators) == (410, gone)
    assert answer(server, "/api/view", token=f"{name}.wrongsecret") == (410, gone)
    assert answer(server, "/api/move", {"move": "draw"}, token=token) == (410, gone)
    assert answer(server, "/api/again", {}, token=token) == (410, gone)
    assert answer(server, "/api/review", token=token) == (410, gone)
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": token}))
        assert _closing(socket) == (4404, CLOSED)
    assert _new_table(server)["table"] != name  # its name is not given again


def test_the_names_of_tables_that_expired_or_closed_are_remembered_within_one_bound(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables that expired and tables that closed share the memory of EXPIRED_KEPT names:
    the oldest of either kind is forgotten first (then answered as a wrong token's)."""
    monkeypatch.setattr("mexican_train._frontends.app.EXPIRED_KEPT", 2)
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=HOUR)
    with serving(made):
        made.add_expired("t1", REASON)
        closed = WebTable(2, STANDARD, clock=clock, name="t2")
        made.add(closed, expires=True)
        closed.close()
        assert answer(made, "/api/view", token="t1.secret")[0] == 410
        made.add_expired("t3", REASON)  # t1 is forgotten, the oldest
        assert answer(made, "/api/view", token="t1.secret")[0] == 403
        closed_answer = {"error": "closed", "reason": CLOSED}
        assert answer(made, "/api/view", token="t2.secret") == (410, closed_answer)
        assert answer(made, "/api/view", token="t3.secret")[1]["error"] == "expired"


def test_the_servers_own_tables_sockets_close_with_4404_when_it_closes(
    server: WebServer,
) -> None:
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": server.table.tokens[0]}))
        assert json.loads(socket.recv(timeout=TIMEOUT))["seat"] == 0
        server.table.close()
        assert _closing(socket) == (4404, CLOSED)
    # Served still, it plays no more: its links are told it closed, as a lobby table's.
    gone = {"error": "closed", "reason": CLOSED}
    token = server.table.tokens[0]
    assert answer(server, "/api/view", token=token) == (410, gone)
    assert answer(server, f"/api/view?since={server.table.version}", token=token) == (410, gone)
    assert answer(server, "/api/move", {"move": "draw"}, token=token) == (410, gone)


def test_the_sockets_close_with_1012_when_the_server_closes(server: WebServer) -> None:
    made = _new_table(server)
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": _token(made, 0)}))
        assert json.loads(socket.recv(timeout=TIMEOUT))["seat"] == 0
        server.server_close()  # its tables close too: a restart with a database resumes them
        assert _closing(socket)[0] == 1012


def test_a_table_closed_as_the_server_stops_is_not_told_closed(server: WebServer) -> None:
    """A server that stops closes its tables, not for good: a server restarted on its
    database serves them again, so their links are not told that they closed."""
    made = _new_table(server)
    server.server_close()
    with pytest.raises(RequestError) as refused:
        server._routes.find(_token(made, 0))
    assert (refused.value.status, refused.value.error) == (403, "wrong token")


def test_a_lobby_table_closed_is_let_go_by_a_server_that_never_sweeps(clock: Clock) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), max_tables_per_client=1,
        table_idle=None,
    )  # fmt: skip
    with serving(made):
        first = _new_table(made)
        _served(made, first["table"]).close()
        assert [each.name for each in made.tables] == [""]  # not kept, nor listed, forever
        gone = {"error": "closed", "reason": CLOSED}
        assert answer(made, "/api/view", token=_token(first, 0)) == (410, gone)
        second = _new_table(made)  # the address's one table
        assert [each.name for each in made.tables] == ["", second["table"]]
        assert second["table"] != first["table"]  # no name comes back


def test_a_table_the_server_was_made_with_or_added_stays_served_once_closed(
    clock: Clock,
) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    added = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="mine")
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=None)
    try:
        made.add(added)
        own.close()
        added.close()
        assert [each.name for each in made.tables] == ["", "mine"]
    finally:
        made.server_close()


def test_a_table_that_expires_closed_before_it_is_added_is_not_served(clock: Clock) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    closed = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="t1")
    closed.close()
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=None)
    try:
        made.add(closed, expires=True)
        assert [each.name for each in made.tables] == [""]
    finally:
        made.server_close()


def test_a_table_closed_lets_go_of_itself_not_of_a_new_table_of_its_name(
    clock: Clock,
) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    old = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="t1")
    new = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="t1")
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=HOUR)
    try:
        made.add(old, expires=True)
        clock.now += 2 * HOUR
        assert made.expire_idle() == ["t1"]
        made.add(new, expires=True)
        old.close()  # closed already: nothing changes
        assert [each.name for each in made.tables] == ["", "t1"]
        assert made.tables[1] is new
    finally:
        made.server_close()


def test_the_servers_cap_counts_no_closed_table(clock: Clock) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), max_tables=3, table_idle=HOUR
    )
    with serving(made):
        first = _new_table(made)
        _new_table(made)
        assert answer(made, "/api/tables", {"players": 2, "people": 2})[0] == 503
        _served(made, first["table"]).close()
        _new_table(made)


class _NoThread(WebTable):
    """A table whose bots' thread cannot start, as when the process has no more threads."""

    def start(self) -> None:
        raise RuntimeError("can't start new thread")


def test_a_table_whose_bots_cannot_start_is_not_served_nor_counted(clock: Clock) -> None:
    failing = [True]

    def lobby(request: object, name: str) -> WebTable:
        if failing.pop() if failing else False:
            return _NoThread(2, STANDARD, bots={1: GreedyPlayer()}, name=name, clock=clock)
        return lobby_table(request, name, bot_delay=0, clock=clock)

    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=lobby, max_tables_per_client=1, table_idle=HOUR
    )
    with serving(made):
        asked = {"rules": "standard", "players": 2, "people": 2, "level": "easy"}
        request = urllib.request.Request(
            f"http://127.0.0.1:{made.server_address[1]}/api/tables",
            data=json.dumps(asked).encode(),
        )
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(request, timeout=TIMEOUT)
        assert failed.value.code == 503
        assert json.loads(failed.value.read()) == {
            "error": "busy",
            "reason": "the server could not start the table's bots (can't start new thread): "
            "no table was made; try again later",
        }
        assert [each.name for each in made.tables] == [""]
        _new_table(made)  # the address's one table


def _until(done: Callable[[], bool], what: str) -> None:
    """Wait until *done*, or fail saying *what* never happened."""
    deadline = time.monotonic() + TIMEOUT
    while not done():
        assert time.monotonic() < deadline, f"{what} within {TIMEOUT} s"
        time.sleep(0.01)


#: The lobby's answer to a table asked for while the server stops.
STOPPING = (
    503,
    {
        "error": "stopping",
        "reason": "the server is stopping: no table was made; make one once it is back",
    },
)


class _SlowLobby:
    """A lobby that makes its table only once the test says so (`release`), as one
    whose database takes its time to keep the table; what it made, and which of its
    tables the server deleted again (`WebTable.discarding`)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.inside, self.release = threading.Event(), threading.Event()
        self.made: list[WebTable] = []
        self.discarded: list[str] = []

    def __call__(self, request: object, name: str) -> WebTable:
        self.inside.set()
        assert self.release.wait(TIMEOUT)
        table = lobby_table(request, name, bot_delay=0, clock=self.clock)
        table.discarding = lambda: self.discarded.append(name)
        self.made.append(table)
        return table


def _serve_while_the_lobby_makes_a_table(
    server: WebServer, lobby: _SlowLobby
) -> tuple[list[threading.Thread], list[tuple[int, Any]]]:
    """Serve *server* from a thread, and ask its *lobby* for a table from another; return
    once the lobby is making it: the two threads, and the list the answer goes to."""
    serving_thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    serving_thread.start()
    answers: list[tuple[int, Any]] = []
    asked = {"rules": "standard", "players": 2, "people": 1, "level": "easy"}

    def ask() -> None:
        try:
            answers.append(answer(server, "/api/tables", asked))
        except ValueError:  # not JSON: uvicorn's own 500, to a request it gave up
            answers.append((500, None))

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    assert lobby.inside.wait(TIMEOUT)
    return [asking, serving_thread], answers


def test_a_table_the_lobby_makes_past_the_servers_wait_is_given_up(clock: Clock) -> None:
    """A lobby slower than the server's wait for it (`request_timeout`): the server
    closes its tables and stops without it, and the table made then is not served all
    the same: its maker is told the server is stopping (503), the table is closed, its
    bots never run, and it is deleted where it was kept (`WebTable.discarding`)."""
    lobby = _SlowLobby(clock)
    log = io.StringIO()
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    server = WebServer(
        ("127.0.0.1", 0), own, log=log, lobby=lobby, table_idle=HOUR, request_timeout=0.5
    )
    threads, answers = _serve_while_the_lobby_makes_a_table(server, lobby)
    closing = threading.Thread(target=server.server_close, daemon=True)
    closing.start()
    _until(lambda: own.closed, "the server closed its tables")
    assert "stopping without waiting for the lobby any longer" in log.getvalue()
    lobby.release.set()
    for thread in (*threads, closing):
        thread.join(TIMEOUT)
    assert answers == [STOPPING]
    assert lobby.made[0].closed
    assert lobby.discarded == ["t1"]
    assert server.tables == [own]


def test_the_server_stops_once_the_table_the_lobby_is_making_is_given_up(clock: Clock) -> None:
    """A lobby slower than the server's stop (a database that takes its time to keep the
    table): `WebServer.server_close` waits for it, and the table it makes is given up
    all the same, deleted where it was kept (`WebTable.discarding`) before the server
    has stopped, and its maker told why.  (The server's event loop may be gone by
    then: uvicorn waits one second for a request in flight.)"""
    lobby = _SlowLobby(clock)
    log = io.StringIO()
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    server = WebServer(("127.0.0.1", 0), own, log=log, lobby=lobby, table_idle=HOUR)
    threads, answers = _serve_while_the_lobby_makes_a_table(server, lobby)
    closing = threading.Thread(target=server.server_close, daemon=True)
    closing.start()
    waiting = "stopping once the lobby has made the 1 table(s) it is making"
    _until(lambda: waiting in log.getvalue(), "the server waited for the lobby")
    assert not own.closed  # it closes its tables once the lobby's is given up
    lobby.release.set()
    for thread in (closing, *threads):
        thread.join(TIMEOUT)
    assert not closing.is_alive()
    assert lobby.made[0].closed
    assert lobby.discarded == ["t1"]
    assert server.tables == [own]
    assert answers == [STOPPING]


def test_a_table_the_lobby_makes_once_the_server_gave_up_its_request_is_given_up(
    clock: Clock,
) -> None:
    """A server that stops before its lobby is done (uvicorn waits one second for a
    request in flight, then gives it up, before `WebServer.server_close` is called):
    the table made then is not served, nor left open outside the server: it is given
    up, deleted where it was kept (`WebTable.discarding`)."""
    lobby = _SlowLobby(clock)
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    server = WebServer(("127.0.0.1", 0), own, log=None, lobby=lobby, table_idle=HOUR)
    threads, _ = _serve_while_the_lobby_makes_a_table(server, lobby)
    try:
        server.shutdown()  # as Ctrl-C does: the server stops, server_close comes after
        threads[1].join(TIMEOUT)
        assert not threads[1].is_alive()
        lobby.release.set()
        _until(lambda: lobby.discarded == ["t1"], "the table was given up")
        assert lobby.made[0].closed
    finally:
        lobby.release.set()
        server.server_close()
        for thread in threads:
            thread.join(TIMEOUT)
    assert server.tables == [own]


@pytest.mark.parametrize("named", ["", "mine", "t7"])
def test_a_table_the_lobby_makes_under_another_name_is_not_served(clock: Clock, named: str) -> None:
    """A lobby of a program's own that names its table as it likes (the server's own
    table's name, another table's) replaces no table: the request fails, 500."""
    made: list[WebTable] = []

    def careless(request: object, name: str) -> WebTable:
        made.append(WebTable(2, STANDARD, bots={1: GreedyPlayer()}, name=named, clock=clock))
        return made[-1]

    log = io.StringIO()
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    mine = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="mine")
    server = WebServer(("127.0.0.1", 0), own, log=log, lobby=careless, table_idle=HOUR)
    server.add(mine)
    with serving(server):
        status, refused = answer(server, "/api/tables", {"players": 2, "people": 2})
        assert (status, refused["error"]) == (500, "server error")
        assert server.tables == [own, mine]
        assert made[0].closed
        assert f"the lobby made a table named {named!r} for the name 't1'" in log.getvalue()
        assert answer(server, "/api/view", token=own.tokens[0])[0] == 200


def test_a_table_a_program_adds_under_the_name_the_lobby_is_making_stays_served(
    clock: Clock,
) -> None:
    """A program that adds a table named as the lobby's next one (t1) while the lobby
    makes that one keeps it served: the lobby's table is closed, its request fails, 500."""
    made: list[WebTable] = []
    server: WebServer

    def lobby(request: object, name: str) -> WebTable:
        server.add(WebTable(2, STANDARD, bots={1: GreedyPlayer()}, name=name, clock=clock))
        made.append(WebTable(2, STANDARD, bots={1: GreedyPlayer()}, name=name, clock=clock))
        return made[-1]

    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    server = WebServer(("127.0.0.1", 0), own, log=None, lobby=lobby, table_idle=HOUR)
    with serving(server):
        status, refused = answer(server, "/api/tables", {"players": 2, "people": 2})
        assert (status, refused["error"]) == (500, "server error")
        added = server.tables[1]
        assert added not in made
        assert made[0].closed
        assert answer(server, "/api/view", token=added.tokens[0])[0] == 200


def test_the_caps_hold_against_requests_made_at_once(clock: Clock) -> None:
    """A table being made counts: a request that comes while two are being made for the
    same address, whose share is 2, is refused at once, not made as a third."""
    inside = threading.Condition()
    making: list[str] = []  # the names of the tables the lobby is making
    release = threading.Event()

    def slow_lobby(request: object, name: str) -> WebTable:
        with inside:
            making.append(name)
            inside.notify_all()
        assert release.wait(TIMEOUT)
        return lobby_table(request, name, bot_delay=0, clock=clock)

    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=slow_lobby, max_tables_per_client=2,
        table_idle=HOUR,
    )  # fmt: skip
    asked = {"rules": "standard", "players": 2, "people": 2, "level": "easy"}
    answers: list[int] = []

    def ask() -> None:
        status = answer(made, "/api/tables", asked)[0]
        with inside:
            answers.append(status)
            inside.notify_all()

    with serving(made):
        first = [threading.Thread(target=ask) for _ in range(2)]
        for thread in first:
            thread.start()
        with inside:
            assert inside.wait_for(lambda: len(making) == 2, TIMEOUT)
        third = threading.Thread(target=ask)
        third.start()
        with inside:  # refused at once, or (wrongly) inside the lobby as a third
            assert inside.wait_for(lambda: answers or len(making) == 3, TIMEOUT)
        release.set()
        for thread in [*first, third]:
            thread.join(TIMEOUT)
        assert len(making) == 2
        assert sorted(answers) == [200, 200, 503]
        assert len(made.tables) == 3  # its own and the two made


class _SlowStart(WebTable):
    """A table whose bots' thread starts once *release* is set, *started* set meanwhile."""

    started: threading.Event
    release: threading.Event

    def start(self) -> None:
        self.started.set()
        assert self.release.wait(TIMEOUT)
        super().start()


@pytest.mark.parametrize("cap", ["max_tables", "max_tables_per_client"])
def test_a_table_served_but_not_yet_answered_counts_once(clock: Clock, cap: str) -> None:
    """A table the server serves while its bots start, its request not yet answered,
    counts once towards the caps, not as served and as being made both: with room for
    two, a second table is made meanwhile."""
    started, release = threading.Event(), threading.Event()
    slow: list[WebTable] = []

    def lobby(request: object, name: str) -> WebTable:
        if slow:  # the second table starts at once
            return lobby_table(request, name, bot_delay=0, clock=clock)
        table = _SlowStart(2, SHORT, bots={1: "easy"}, name=name, clock=clock)
        table.started, table.release = started, release
        slow.append(table)
        return table

    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1, clock=clock)
    most, per_client = (3, 20) if cap == "max_tables" else (200, 2)  # room for two
    made = WebServer(
        ("127.0.0.1", 0), own, log=None, lobby=lobby, table_idle=HOUR, max_tables=most,
        max_tables_per_client=per_client,
    )  # fmt: skip
    first: list[int] = []
    with serving(made):
        waiting = threading.Thread(target=lambda: first.append(answer(made, "/api/tables", {})[0]))
        waiting.start()
        try:
            assert started.wait(TIMEOUT)  # served, its bots starting: not yet answered
            second = answer(made, "/api/tables", {})
        finally:
            release.set()
            waiting.join(TIMEOUT)
        assert second[0] == 200, second
        assert first == [200]
        assert len(made.tables) == 3


def test_a_table_whose_delete_fails_stays_served_and_expires_at_a_later_sweep(
    clock: Clock,
) -> None:
    log = io.StringIO()
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1)
    made = WebServer(("127.0.0.1", 0), table, log=log, lobby=_lobby(clock), table_idle=HOUR)
    with serving(made):
        kept = _new_table(made)
        served = _served(made, kept["table"])

        def full() -> None:
            raise StoreError("cannot write to the tables' database: database or disk is full")

        served.expiring = full
        clock.now += HOUR
        assert made.expire_idle() == []
        assert f"table {kept['table']} did not expire, and is kept as it was: " in log.getvalue()
        assert "disk is full" in log.getvalue()
        status, document = answer(made, "/api/view", token=_token(kept, 0))
        assert (status, document["seat"]) == (200, 0)
        served.expiring = None
        assert made.expire_idle() == [kept["table"]]
        said = log.getvalue().splitlines()[-1]
        assert said.endswith(f"] table {kept['table']} expired: nobody played at it for 1 hour")


def test_a_table_that_expired_before_the_server_started_is_told_and_its_name_passed_over(
    server: WebServer,
) -> None:
    server.add_expired("t1", REASON)
    server.add_expired("t3", REASON)  # the lobby's names up to it are passed over
    gone = {"error": "expired", "reason": REASON}
    assert answer(server, "/api/view", token="t3.oldsecret") == (410, gone)
    assert _new_table(server)["table"] == "t4"
    with pytest.raises(InvalidArgumentError, match="a table named 't4' is served"):
        server.add_expired("t4", REASON)


class _Held(WebTable):
    """A table whose expiry, once asked for, waits until the test lets it go on."""

    def __init__(self, seen: threading.Condition, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen = seen
        self.entered = 0  # the sweeps that asked it to expire
        self.go_on = threading.Event()

    def expire(self, idle: float) -> bool:
        with self.seen:
            self.entered += 1
            self.seen.notify_all()
        assert self.go_on.wait(TIMEOUT)
        return super().expire(idle)


class _Watched:
    """A lock that says when someone waits for it."""

    def __init__(self, seen: threading.Condition) -> None:
        self.seen = seen
        self.waited = False
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            with self.seen:
                self.waited = True
                self.seen.notify_all()
            self._lock.acquire()

    def __exit__(self, *exception: object) -> None:
        self._lock.release()


def test_a_sweep_asked_for_while_the_server_sweeps_as_it_starts_waits_for_it(
    clock: Clock,
) -> None:
    """Two sweeps at once -- the server's own as it starts, and one asked for from
    another thread -- run one after the other, never both at the same table."""
    seen = threading.Condition()
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=HOUR)
    held = _Held(seen, 2, SHORT, clock=clock, name="t1")
    made.add(held, expires=True)
    watched = _Watched(seen)
    made._routes._sweeping = watched  # type: ignore[assignment]
    clock.now += HOUR
    answers: list[list[str]] = []
    with serving(made):  # its first sweep, as it starts, comes to t1 and is held there
        with seen:
            assert seen.wait_for(lambda: held.entered == 1, TIMEOUT)
        second = threading.Thread(target=lambda: answers.append(made.expire_idle()))
        second.start()
        with seen:  # the second sweep waits for the first, or (wrongly) comes to t1 too
            assert seen.wait_for(lambda: watched.waited or held.entered == 2, TIMEOUT)
            assert held.entered == 1
        held.go_on.set()
        second.join(TIMEOUT)
        assert answers == [[]]  # the first sweep expired t1
        assert held.expired == REASON
        assert [each.name for each in made.tables] == [""]


def test_a_table_added_to_a_server_expires_only_if_told(clock: Clock) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    added = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="mine")
    resumed = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock, name="t1")
    made = WebServer(("127.0.0.1", 0), own, log=None, table_idle=HOUR)
    try:
        made.add(added)
        made.add(resumed, expires=True)
        clock.now += 100 * HOUR
        assert made.expire_idle() == ["t1"]  # not serving: the sweep runs all the same
        assert [each.name for each in made.tables] == ["", "mine"]
    finally:
        made.server_close()


def test_a_server_whose_tables_never_expire(clock: Clock) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), table_idle=None)
    with serving(made):
        _new_table(made)
        clock.now += 1e9
        assert made.expire_idle() == []
        status, refused = answer(made, "/api/view", token="t9.nosuchsecret")
        assert (status, refused["reason"]) == (403, "no table here has that token")
    assert TABLE_IDLE == 24 * HOUR


@pytest.mark.parametrize("idle", [0, -1.0, float("nan"), float("inf"), "1", True])
def test_the_idle_time_is_a_number_of_seconds(idle: Any) -> None:
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()})
    with pytest.raises(InvalidArgumentError, match="table_idle is a number of seconds"):
        WebServer(("127.0.0.1", 0), own, log=None, table_idle=idle)


def test_a_closed_table_takes_no_move_nor_new_game_whenever_it_closed() -> None:
    """A table refuses a move and a new game under its own lock once it has closed
    (410 "closed"): a close between a server's look at the table and the change itself
    changes nothing."""
    table = WebTable(2, STANDARD, seed=3)
    table.close()
    move = legal_moves(table.state)[0]
    changes: list[Callable[[], object]] = [lambda: table.play(0, move), lambda: table.again(0)]
    for change in changes:
        with pytest.raises(RequestError) as refused:
            change()
        assert refused.value.body() == {"error": "closed", "reason": CLOSED}
    assert table.version == 0


def test_a_change_at_a_table_closed_as_the_server_stops_is_to_be_tried_again(
    server: WebServer,
) -> None:
    """A move or new game that meets its table closed as the server stops is answered
    503: a server restarted on its database serves the table again."""
    token = server.table.tokens[0]  # the server's own table: served while it closes
    server._routes.stopping = True  # the instant between the server's look and the change
    server.table.close()
    stopping = {"error": "stopping", "reason": "the server is stopping: try again once it is back"}
    assert answer(server, "/api/move", {"move": "draw"}, token=token) == (503, stopping)
    assert answer(server, "/api/again", {}, token=token) == (503, stopping)


def test_an_ipv6_network_makes_tables_as_one_address(clock: Clock) -> None:
    """The lobby's cap per address counts an IPv6 address as its /64 network, which one
    host is commonly given whole: another address of it is not another client."""
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, clock=clock)
    made = WebServer(("127.0.0.1", 0), own, log=None, lobby=_lobby(clock), max_tables_per_client=1)
    try:
        made._routes._reserve("2001:db8::1")
        with pytest.raises(RequestError) as refused:
            made._routes._reserve("2001:db8::ffff:2")  # the same /64
        assert (refused.value.status, refused.value.error) == (503, "full")
        made._routes._reserve("2001:db8:0:1::1")  # another /64
        made._routes._reserve("192.0.2.1")
        with pytest.raises(RequestError):
            made._routes._reserve("::ffff:192.0.2.1")  # the same IPv4 address, mapped
    finally:
        made.server_close()
