"""The web table's server: a Starlette application on uvicorn, and a thin guard.

`WebServer` serves one `~mexican_train.web.WebTable`: the page, ``GET /api/view``
(``?since=N`` waits for the table to change: a long poll), ``POST /api/move``, and
the WebSocket ``/api/ws``, which pushes the seat's document whenever the table
changes or someone comes or goes.  HTTP, keep-alive, WebSockets and the event loop
are uvicorn's and Starlette's; what they leave to the application against hostile
clients is the guard here, in five parts:

- **A deadline for a whole request.**  uvicorn times out idle kept-alive connections
  (``timeout_keep_alive``) but not a request that arrives one byte at a time.  The
  guard's HTTP protocol (a subclass of uvicorn's h11 protocol) gives each request
  `REQUEST_TIMEOUT` seconds from its first byte to the end of its body, and a new
  connection as long for its first request; past that the connection is closed.
  A WebSocket must say whose it is (its first message, the seat's token) as soon.
- **A cap per client.**  At most ``max_per_client`` connections, HTTP and WebSocket
  together, from one address (an IPv6 address counts as its /64 network, which one
  host is commonly given whole: `client_key`); one more is answered 503 and closed.
  All clients together: ``max_connections`` (uvicorn's ``limit_concurrency``, answered 503).
- **A deadline for answers left unread.**  A client that reads nothing of what it is
  sent (answers, a WebSocket's documents) fills the connection's buffers; once they are
  full, it has `REQUEST_TIMEOUT` seconds to read, or the connection is dropped.
- **Bounded, linear-time bodies.**  A body needs one plain ``Content-Length`` of at
  most `MAX_BODY` bytes (a chunked body is refused); its JSON's nesting is counted in
  linear time before it is parsed (`~mexican_train.web.read_json`).  A body the
  server does not read (a GET's, or one refused) is not read at all: the answer closes
  the connection.  uvicorn bounds the headers (``h11_max_incomplete_event_size``) and
  WebSocket messages (``ws_max_size``).
- **Only the hosts it serves.**  A hostile web page can point a name of its own at
  127.0.0.1 (DNS rebinding) and so reach a server on the user's machine from the user's
  browser, which then sends that name in the ``Host`` header.  A request (or a
  WebSocket's upgrade) for a host the server does not serve is answered 400 (`Hosts`),
  and so is one that does not say which host it is for: several ``Host`` headers (h11
  refuses them), or a bad one (`request_host`).  A target in absolute form
  (``http://localhost:8000/api/view``) is served as its path, for its own host
  (`split_target`).  A page of another site the browser shows may still send a form's
  POST or open a WebSocket to the host served: a POST or an upgrade whose ``Origin`` is
  not the server's own (`Hosts.cross_site`) is answered 403.

Every answer is JSON with ``{"error", "reason"}`` on failure, carries
``Cache-Control: no-store``, ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: no-referrer``, and the access log shows the method, the target as
sent without its query (``CONNECT x:80``, a whole URI) and the status: never a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Collection
from importlib import resources
from typing import IO, TYPE_CHECKING, Any, Final
from urllib.parse import unquote

import anyio
import anyio.to_thread
import h11
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .._core.bounds import BOUNDS
from .._core.errors import InvalidArgumentError
from .._formats.notation import NotationError, parse_move
from .._formats.serialize import SchemaError, move_from_json
from .http import (
    EVERY_INTERFACE,
    MAX_CONNECTIONS,
    MAX_PER_CLIENT,
    NO_HOST,
    REQUEST_TIMEOUT,
    SEVERAL_HOSTS,
    TABLE_CLOSED,
    Hosts,
    RequestError,
    bearer,
    checked_hosts,
    client_key,
    read_json,
    refuse_gone,
    request_host,
    shown_path,
    split_target,
)
from .lobby import (
    EXPIRED_KEPT,
    MAX_TABLES,
    MAX_TABLES_PER_CLIENT,
    TABLE_IDLE,
    idle_words,
    lobby_choices,
)

if TYPE_CHECKING:  # web imports this module
    from .web import WebTable

__all__ = [
    "LONG_POLL",
    "MAX_BODY",
    "WebServer",
    "shareable_host",
]

#: Seconds a ``GET /api/view?since=N`` waits for the table to change before answering.
LONG_POLL: Final = 10.0
#: The largest request body read, in bytes.
MAX_BODY: Final = 16 * 1024
#: The most headers a request may have, and the longest value of one, in bytes.
MAX_HEADERS: Final = 100
MAX_HEADER: Final = 8 * 1024
#: The most fields a query string may have.
MAX_QUERY_FIELDS: Final = 16
#: The most connections past their client's cap that wait for their deadline at once.
MAX_WAITING: Final = 1024
#: The largest WebSocket message read from a page, in bytes.
MAX_MESSAGE: Final = 4096
#: The most reviews (``GET /api/review``, seconds of work each) made at once, all tables
#: together: the others wait for their turn without a worker thread, so that requests
#: for reviews never take every thread the moves and documents need.
REVIEWS_AT_ONCE: Final = 2
#: The most seconds between two looks for the lobby's tables that have expired; the
#: server looks every tenth of the idle time, at least every second and at most this.
SWEEP_EVERY: Final = 600.0
#: The close code of a page's WebSocket when its table expires (the reason says why).
EXPIRED_CLOSE: Final = 4410
#: The close code of a page's WebSocket when its table closes (`WebTable.close`) while
#: the server serves on; `TABLE_CLOSED` is the reason.
CLOSED_CLOSE: Final = 4404
#: The close code of the pages' WebSockets when the server stops (``Service Restart``): a
#: server restarted on the same database serves their tables again.
STOPPING_CLOSE: Final = 1012

_CLOSE_REASON: Final = 123  # the bytes a WebSocket's close frame holds of its reason
_TOKEN = re.compile(r"[A-Za-z0-9_.-]{1,96}")
_LOBBY_NAME = re.compile(r"t([0-9]{1,15})")  # the lobby's tables: t1, t2, ...
_VERSION = re.compile(r"[0-9]{1,12}")
_CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
_HEADERS: Final = (
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
_PAGES: Final = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/table.js": ("table.js", "text/javascript; charset=utf-8"),
    "/lobby.js": ("lobby.js", "text/javascript; charset=utf-8"),
    "/table.css": ("table.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
_BUSY_BODY = b'{"error": "busy", "reason": "too many connections at once; try again"}'
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY)
)
_LATE_BODY = b'{"error": "timeout", "reason": "the request did not arrive in time"}'
_LATE = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_LATE_BODY), _LATE_BODY)
)
_MALFORMED: Final = "the request is not HTTP/1.1 this server reads"
# Why the lobby makes no table once the server is stopping.
_STOPPING_MADE: Final = "the server is stopping: no table was made; make one once it is back"
# What h11 says of a request it refuses, where it says more than that, in the request
# layer's words (RFC 9112 §3.2: a request names its host once).
_H11_REFUSALS: Final = {
    "Found multiple Host: headers": SEVERAL_HOSTS,
    "Missing mandatory Host: header": NO_HOST,
}


def _malformed_body(reason: str) -> bytes:
    """Return the body of the 400 to a request h11 cannot read, *reason* saying why."""
    return json.dumps({"error": "bad request", "reason": reason}).encode()


#: The methods the web table serves (HEAD wherever GET, as Starlette does).
_METHODS: Final[tuple[str, ...]] = ("GET", "HEAD", "POST")
# Once the client has sent the whole request (or the connection is no longer HTTP), its
# deadline is over: a long poll may then take its time.
_RECEIVED: Final = frozenset({h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR})


# -- the guard --------------------------------------------------------------------------------


class _Guard:
    """The connections held by each client address, and the deadline of a request.

    A connection past a client's cap waits, unread, until its deadline, then is
    answered 503 and closed: a client that re-opens every refused connection at once
    would otherwise keep the server busy accepting and closing.  At most
    `MAX_WAITING` connections wait so; past that one more is refused at once.
    """

    def __init__(self, per_client: int, deadline: float) -> None:
        self.per_client = per_client
        self.deadline = deadline
        self._held: dict[str, int] = {}
        self._waiting = 0

    def admit(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> str | None:
        """Count a new connection and return its client; None for one past the cap."""
        peer = transport.get_extra_info("peername")
        client = client_key(str(peer[0])) if peer else ""
        held = self._held.get(client, 0)
        if held >= self.per_client:
            if self._waiting < MAX_WAITING:
                transport.pause_reading()
                self._waiting += 1
                loop.call_later(self.deadline, self._refuse_later, transport)
            else:
                _refuse(transport, _BUSY)
            return None
        self._held[client] = held + 1
        sock = transport.get_extra_info("socket")
        if sock is not None:
            # Each answer leaves at once: without it, Nagle's algorithm holds the body
            # behind its headers until the client's delayed ACK, ~40 ms.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return client

    def _refuse_later(self, transport: asyncio.Transport) -> None:
        self._waiting -= 1
        _refuse(transport, _BUSY)

    def release(self, client: str | None) -> None:
        """Forget a connection that `admit` counted (*client* is what it returned)."""
        if client is None:
            return
        held = self._held.pop(client) - 1
        if held:
            self._held[client] = held


def _refuse(transport: asyncio.Transport, answer: bytes) -> None:
    if not transport.is_closing():
        transport.write(answer)
        transport.close()


class _Unread:
    """The deadline of what a connection's client has left unread.

    A client that reads nothing of what it is sent would otherwise hold its connection
    forever: a handler waits for the buffer to drain, and a close waits to send it first.
    The transport says when its buffer is full (`paused`) and when it drains again
    (`resumed`); in between, the client has *deadline* seconds, or is dropped.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self._timer: asyncio.TimerHandle | None = None

    def paused(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None:
            self._timer = loop.call_later(self.deadline, transport.abort)

    def resumed(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class _Unreading(asyncio.Protocol):
    """A protocol of uvicorn's whose client has `_Unread`'s deadline to read what it is sent.

    Set ``_unread`` as the connection is made; release it (``resumed``) as it is lost.
    """

    _unread: _Unread | None = None
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._unread is not None:
            self._unread.paused(self.transport, self.loop)

    def resume_writing(self) -> None:
        if self._unread is not None:
            self._unread.resumed()
        super().resume_writing()


def _guarded(guard: _Guard) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """Return uvicorn's HTTP and WebSocket protocols under *guard*."""

    class GuardedHTTP(_Unreading, H11Protocol):
        _client: str | None = None
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._unread = _Unread(guard.deadline)
            self._client = guard.admit(transport, self.loop)
            if self._client is None:
                self.connections.discard(self)  # not counted in everyone's limit
            else:
                self._timer = self.loop.call_later(guard.deadline, self._late)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self or self.conn.their_state in _RECEIVED:
                self._stop_timer()
            elif self._timer is None:  # the first bytes of a request: its deadline starts
                self._timer = self.loop.call_later(guard.deadline, self._late)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._stop_timer()
            guard.release(self._client)  # the WebSocket protocol counts the connection now
            self._client = None
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            if self._unread is not None:
                self._unread.resumed()
            guard.release(self._client)
            self._client = None
            super().connection_lost(exc)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def send_400_response(self, msg: str) -> None:
            """Answer a request h11 cannot read with a JSON 400, and close the connection."""
            self._stop_timer()
            # uvicorn calls this as it handles h11's error, whose words it does not pass on.
            body = _malformed_body(_H11_REFUSALS.get(str(sys.exc_info()[1]), _MALFORMED))
            _refuse(
                self.transport,
                b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body),
            )

        def _late(self) -> None:
            self._timer = None
            state = self.conn.their_state
            if self.transport.is_closing() or state in _RECEIVED:
                return
            if state is h11.SEND_BODY and self.conn.our_state is h11.SEND_RESPONSE:
                self.transport.write(_LATE)  # headers were read: the client waits for an answer
            self.transport.close()

    class GuardedWebSocket(_Unreading, WebSocketsSansIOProtocol):
        _client: str | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            assert isinstance(transport, asyncio.Transport)
            self._unread = _Unread(guard.deadline)
            self._client = guard.admit(transport, self.loop)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._unread is not None:
                self._unread.resumed()
            guard.release(self._client)
            self._client = None
            super().connection_lost(exc)

    return GuardedHTTP, GuardedWebSocket


# -- the application --------------------------------------------------------------------------


def _static(name: str) -> bytes:
    return (resources.files("mexican_train._frontends") / "webpage" / name).read_bytes()


def _read_move(data: object) -> Any:
    try:
        if isinstance(data, str):
            return parse_move(data)  # it reads a long string quickly, and quotes it short
        return move_from_json(data)  # untrusted: every field is checked
    except (SchemaError, NotationError) as error:
        raise RequestError(400, "bad move", str(error)) from None


def _checked_token(token: str | None) -> str | None:
    if token is not None and not _TOKEN.fullmatch(token):
        raise RequestError(403, "wrong token", "no seat at this table has that token")
    return token


def _bearer(request: Request) -> str | None:
    if "token" in request.query_params:
        raise RequestError(
            400,
            "token in the URL",
            "send the token in the 'Authorization: Bearer <token>' header, never in the URL",
        )
    return _checked_token(bearer(request.headers.getlist("authorization")))


def _since(request: Request) -> int | None:
    values = request.query_params.getlist("since")
    if not values:
        return None
    if not _VERSION.fullmatch(values[0]):
        raise RequestError(400, "bad request", "since is the version the page last saw")
    return int(values[0])


async def _body(request: Request) -> bytes:
    """Return the request's body: one plain ``Content-Length`` of at most `MAX_BODY` bytes."""
    if "transfer-encoding" in request.headers:
        raise RequestError(
            411,
            "length required",
            "a chunked body (Transfer-Encoding) is not read: send a Content-Length",
        )
    values = request.headers.getlist("content-length")
    if not values:
        raise RequestError(411, "length required", "a body needs a Content-Length header")
    if len(values) > 1:
        raise RequestError(400, "bad request", "send one Content-Length header, not several")
    if not _CONTENT_LENGTH.fullmatch(values[0].strip()):
        raise RequestError(
            400, "bad request", f"Content-Length must be a count of bytes, not {values[0][:20]!r}"
        )
    length = int(values[0])
    if length > MAX_BODY:
        raise RequestError(
            413, "too large", f"the body has {length} bytes; at most {MAX_BODY} are read"
        )
    return await request.body()


class _Changes:
    """Wakes the event loop's waiters when the table changes (called from any thread)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._event = asyncio.Event()

    def notify(self) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = asyncio.Event()

    def next(self) -> asyncio.Event:
        """Return the event set at the next change (call it before looking at the table)."""
        if self._event is None:
            self._event = asyncio.Event()
        return self._event


class _Making:
    """A table the lobby is making for the address *client*: it counts towards the caps
    from the check of its request until it is served (`_Routes.add`), or given up."""

    def __init__(self, client: str) -> None:
        self.client = client
        #: Set if the request is given up while the lobby makes its table: uvicorn that
        #: stops, done waiting for the answer, before `WebServer.server_close` is called.
        self.abandoned = threading.Event()


class _Routes:
    """The routes of the tables' application: a token names its table (`WebTable.name`)."""

    def __init__(
        self,
        long_poll: float,
        deadline: float,
        lobby: Callable[[object, str], WebTable] | None = None,
        max_tables: tuple[int, int] = (MAX_TABLES, MAX_TABLES_PER_CLIENT),
        table_idle: float | None = TABLE_IDLE,
        log: IO[str] | None = None,
    ) -> None:
        self.long_poll = long_poll
        self.deadline = deadline
        self.tables: dict[str, tuple[WebTable, _Changes]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.lobby = lobby
        self.max_tables = max_tables  # served at once, and made from one address
        self.table_idle = table_idle
        self.log = log
        # The tables that expire, by name: the address that made each (None: not known,
        # a table resumed from a database).
        self._makers: dict[str, str | None] = {}
        # The tables let go that expired or closed, by name, oldest first: the error their
        # links are answered with ("expired" or "closed", 410) and why.
        self._gone: dict[str, tuple[str, str]] = {}
        self._serial = 0  # the number of the lobby's last table: t1, t2, ...
        self._making: set[_Making] = set()  # the tables the lobby is making, not yet served
        # The tables above are the event loop's and a sweep's, which runs in another
        # thread: each holds this lock while it reads or changes them, never while it waits.
        self._lock = threading.Lock()
        self._sweeping = threading.Lock()  # one sweep at a time, whoever asks for it
        # The lobby's calls in flight, in worker threads (`_make`): a server that stops
        # waits for them (`stop`), each notifying this condition as it ends.
        self._in_lobby = 0
        self._lobby_done = threading.Condition(self._lock)
        #: Whether the server is stopping (`WebServer.server_close`): a table closed then
        #: is not closed for good, its pages are told the server stops.
        self.stopping = False
        #: Whether the server has begun to stop serving (`drain`): no long poll waits.
        self.draining = False
        self._reviews: anyio.CapacityLimiter | None = None  # made on the event loop

    def add(
        self,
        table: WebTable,
        *,
        expires: bool = False,
        maker: str | None = None,
        making: _Making | None = None,
    ) -> None:
        """Serve *table* too (its name must be new); with *expires*, it expires when idle.

        A table that expires is let go as soon as it closes (`WebTable.close`, or it
        expires), whether or not sweeps run: its links are then answered 410, saying
        that it expired or that it closed.  *maker* is the address that made it, for a
        table of the lobby's (`_make`): counted towards its share, and refused once the
        server is stopping, under the lock `WebServer.server_close` lists the tables it
        closes by.  *making* is the lobby's request it answers: the table counts as served
        once added, not as being made too (`_reserve`), under the same lock.

        Raises:
            InvalidArgumentError: if a table of that name is served already (checked
                under the lock: a program's table and the lobby's never replace each other).
            RequestError: 503 for a table of the lobby's once the server is stopping.
        """
        changes = _Changes()
        with self._lock:
            if maker is not None and self.stopping:
                raise RequestError(503, "stopping", _STOPPING_MADE)
            if table.name in self.tables:
                raise InvalidArgumentError(f"a table named {table.name!r} is served already")
            if self.loop is not None:
                changes.attach(self.loop)
            self.tables[table.name] = (table, changes)
            self._gone.pop(table.name, None)
            if expires:
                self._makers[table.name] = maker
            if making is not None:
                self._making.discard(making)
        table.listen(changes.notify)
        if expires:  # let go as soon as it closes: a sweep may never come (no table_idle)
            table.listen(functools.partial(self._let_go_closed, table))
            self._let_go_closed(table)
        if table.bot_failed is None:  # the bot's writer reads why in the server's log
            where = f"table {table.name}: " if table.name else ""
            table.bot_failed = lambda line: self._say(where + line)

    def stop(self) -> None:
        """Note that the server is stopping (`stopping`), and wait for the tables the lobby
        is making, at most `deadline` seconds (`_make`): each is either served, and
        closed with the others, or given up.

        From now on the lobby serves no new table (`add`), so that the tables listed once
        this returns are all the server closes.
        """
        with self._lock:
            self.stopping = True
            making = self._in_lobby
        if not making:
            return
        self._say(f"stopping once the lobby has made the {making} table(s) it is making")
        with self._lock:
            if not self._lobby_done.wait_for(lambda: not self._in_lobby, self.deadline):
                self._say("stopping without waiting for the lobby any longer")

    def drain(self) -> None:
        """End the long polls in flight, and those to come: each answers its seat's
        document at once, as at the end of its time.

        uvicorn, stopping, waits a second for the requests in flight, then cancels them
        and prints each one's traceback: a long poll would outlast that second.
        """
        with self._lock:
            self.draining = True
            waiting = [changes for _, changes in self.tables.values()]
        for changes in waiting:
            changes.notify()

    def add_expired(self, name: str, reason: str) -> None:
        """Answer the links of the table *name*, which expired, 410 with *reason*; give
        its name to no table the lobby makes."""
        with self._lock:
            if name in self.tables:
                raise InvalidArgumentError(f"a table named {name!r} is served: it has not expired")
            self._note_gone(name, "expired", reason)
            serial = _LOBBY_NAME.fullmatch(name)
            if serial is not None:  # every name up to it is passed over
                self._serial = max(self._serial, int(serial[1]))

    def _note_gone(self, name: str, error: str, reason: str) -> None:
        """Keep that the table *name* is gone, for its links: *error* says how
        (``"expired"``, ``"closed"``), *reason* why (under the lock).

        The newest `EXPIRED_KEPT` are kept, of both kinds together.
        """
        self._gone.pop(name, None)
        self._gone[name] = (error, reason)
        while len(self._gone) > EXPIRED_KEPT:
            del self._gone[next(iter(self._gone))]

    def listed(self) -> list[WebTable]:
        """Return the tables served, in the order they were added."""
        with self._lock:
            return [table for table, _ in self.tables.values()]

    def _reserve(self, client: str) -> _Making:
        """Return a table the lobby may make for *client*, counted towards the caps until
        it is served (`add`) or given up (discard it from `_making`).

        The tables served, not closed (one closed counts no more, and `add` lets it go
        as it closes), and those being made count, each once, all read under the lock:
        the caps hold against requests at once.

        Raises:
            RequestError: 503 ``"full"`` if the server, or *client*'s share, is full.
        """
        most, most_per_client = self.max_tables
        later = (
            ""
            if self.table_idle is None
            else f"; a table expires once nobody has played at it for {idle_words(self.table_idle)}"
        )
        with self._lock:
            served = sum(not table.closed for table, _ in self.tables.values())
            if served + len(self._making) >= most:
                raise RequestError(
                    503, "full", f"this server holds as many tables as it can ({most}){later}"
                )
            key = client_key(client)  # an IPv6 address counts as its /64
            made = sum(
                maker is not None and client_key(maker) == key and not self.tables[name][0].closed
                for name, maker in self._makers.items()
            ) + sum(client_key(making.client) == key for making in self._making)
            if made >= most_per_client:
                raise RequestError(
                    503,
                    "full",
                    f"your address made as many of the tables this server holds as it may "
                    f"({most_per_client}){later}",
                )
            making = _Making(client)
            self._making.add(making)
        return making

    def _let_go(self, table: WebTable) -> None:
        """Serve *table* no more (nor count it); if it expired or closed, its links say so.

        Its links are then answered 410, with why it expired or `TABLE_CLOSED`, or as a
        wrong token's if it is let go open (its bots could not start) or closed as the
        server stops (a server restarted on the same database serves it again).  Another
        table served under its name since is kept.
        """
        # Read before the lock: a table's lock is never taken under it.
        expired, closed = table.expired, table.closed
        with self._lock:
            found = self.tables.get(table.name)
            if found is None or found[0] is not table:
                return
            del self.tables[table.name]
            self._makers.pop(table.name, None)
            if expired is not None:
                self._note_gone(table.name, "expired", expired)
            elif closed and not self.stopping:
                self._note_gone(table.name, "closed", TABLE_CLOSED)

    def _let_go_closed(self, table: WebTable) -> None:
        """Let *table* go if it has closed (a listener: called at each change of the table)."""
        if table.closed:
            self._let_go(table)

    def _new_name(self) -> str:
        """Return a name for the lobby's next table: one no table served, expired or
        closed has."""
        with self._lock:
            while True:
                self._serial += 1
                name = f"t{self._serial}"
                if name not in self.tables and name not in self._gone:
                    return name

    def sweep(self) -> list[str]:
        """Expire the tables that expire and have seen no move for `table_idle` seconds.

        Return their names; the log says each.  A table whose `WebTable.expiring` fails
        is kept as it was (the log says why) and tried again at the next sweep.  (One
        closed otherwise, `WebTable.close`, is let go as it closes: see `add`.)  One
        sweep runs at a time: another asked for meanwhile, from any thread, waits for it.
        A sweep waits for the tables' hooks and bots: never call it on the event loop.
        """
        idle = self.table_idle
        if idle is None:
            return []
        gone = []
        with self._sweeping:
            with self._lock:
                lobby = [
                    (name, self.tables[name][0]) for name in self._makers if name in self.tables
                ]
            for name, table in lobby:
                try:
                    expired = table.expire(idle)
                except Exception as error:  # the database's, or a hook of a user's own
                    self._say(f"table {name} did not expire, and is kept as it was: {error}")
                    continue
                if not expired and not table.closed:
                    continue
                self._let_go(table)  # done as it closed, unless it closed while listed
                if expired:
                    gone.append(name)
                    self._say(f"table {name} expired: nobody played at it for {idle_words(idle)}")
        return gone

    async def sweeping(self) -> None:
        """Sweep at once, then every tenth of the idle time (from 1 s to `SWEEP_EVERY`)."""
        idle = self.table_idle
        if idle is None:
            return
        every = min(SWEEP_EVERY, max(1.0, idle / 10))
        while True:
            await run_in_threadpool(self.sweep)
            await asyncio.sleep(every)

    def _say(self, line: str) -> None:
        if self.log is None:
            return
        with contextlib.suppress(OSError, ValueError):  # a closed log must not stop the server
            self.log.write(f"[{time.strftime('%H:%M:%S')}] {line}\n")
            self.log.flush()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self.loop = loop
            self.draining = False
            for _, changes in self.tables.values():
                changes.attach(loop)

    def find(self, token: str | None) -> tuple[WebTable, _Changes, int]:
        """Return the table that *token* names, its changes and the token's seat."""
        name = token.partition(".")[0] if token is not None and "." in token else ""
        with self._lock:
            found = self.tables.get(name)
            gone = self._gone.get(name)
        if found is None:
            if gone is not None:  # it expired, or closed
                raise RequestError(410, *gone)
            reason = "no table here has that token"
            if self.lobby is not None and self.table_idle is not None:
                # Short enough for a WebSocket's close too (`_close_reason`), whole.
                reason += (
                    ": the link is wrong, or its table expired (a lobby's table does after "
                    f"{idle_words(self.table_idle)} unplayed)"
                )
            raise RequestError(403, "wrong token", reason)
        table, changes = found
        seat = table.seat_for(token)
        self._refuse_gone(table)
        return table, changes, seat

    def _refuse_gone(self, table: WebTable) -> None:
        """Refuse a request to *table* if it has expired or closed: 410, its error saying
        which (``"expired"``, ``"closed"``).  A table closed as the server stops is not
        refused so: a server restarted on its database serves it again."""
        refuse_gone(table.expired, table.closed and not self.stopping)

    async def page(self, request: Request) -> Response:
        name, kind = _PAGES[request.url.path]
        return Response(_static(name), media_type=kind, headers={"Content-Security-Policy": _CSP})

    async def view(self, request: Request) -> Response:
        table, changes, seat = self.find(_bearer(request))
        since = _since(request)
        if since is not None:
            ends = time.monotonic() + self.long_poll
            with table.polling(seat):  # its person is there, for the takeover
                while True:
                    changed = changes.next()
                    remaining = ends - time.monotonic()
                    if table.version != since or table.closed or remaining <= 0:
                        break
                    if self.draining:  # the server stops: it waits for no poll
                        break
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(changed.wait(), remaining)
            self._refuse_gone(table)
        return JSONResponse(await run_in_threadpool(table.document, seat))

    async def move(self, request: Request) -> Response:
        table, _, seat = self.find(_bearer(request))
        body = read_json(await _body(request))
        if not isinstance(body, dict) or "move" not in body or not set(body) <= {"move", "version"}:
            raise RequestError(
                400, "bad request", 'the body is {"move": <move>, "version": <number>}'
            )
        version = body.get("version")
        if version is not None and version not in BOUNDS["version"]:
            raise RequestError(400, "bad request", "version is the number the table showed")
        move = _read_move(body["move"])
        return JSONResponse(await self._changed(table.play, seat, move, version))

    async def review(self, request: Request) -> Response:
        """Answer the seat's review: at most `REVIEWS_AT_ONCE` are made at once."""
        table, _, seat = self.find(_bearer(request))
        if self._reviews is None:
            self._reviews = anyio.CapacityLimiter(REVIEWS_AT_ONCE)
        review = await anyio.to_thread.run_sync(table.review, seat, limiter=self._reviews)
        return JSONResponse(review)

    async def again(self, request: Request) -> Response:
        table, _, seat = self.find(_bearer(request))
        return JSONResponse(await self._changed(table.again, seat))

    async def _changed(self, change: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        """Return what *change* (a table's `play` or `again`) returns, in a worker thread.

        A table closed as the server stops refuses the change as closed; its people are
        told to try again (503) instead: a server restarted on its database serves the
        table again.
        """
        try:
            return await run_in_threadpool(change, *args)
        except RequestError as error:
            if error.error == "closed" and self.stopping:
                raise RequestError(
                    503, "stopping", "the server is stopping: try again once it is back"
                ) from None
            raise

    async def choices(self, request: Request) -> Response:
        if self.lobby is None:
            raise RequestError(404, "no lobby", "this server makes no tables")
        return JSONResponse(lobby_choices())

    async def create(self, request: Request) -> Response:
        """Make a table as the lobby asks (`_make`); answer its seats' and spectators' links."""
        if self.lobby is None:
            raise RequestError(404, "no lobby", "this server makes no tables")
        client = request.client.host if request.client else ""
        asked = read_json(await _body(request))
        making = self._reserve(client)
        name = self._new_name()
        try:
            table = await run_in_threadpool(self._make, self.lobby, asked, name, making)
        except asyncio.CancelledError:
            making.abandoned.set()  # the table is given up once made (`_make`)
            raise
        finally:
            with self._lock:  # served, it counts as served already (`add`)
                self._making.discard(making)
        return JSONResponse(
            {
                "table": name,
                "seats": {str(seat): f"/#token={token}" for seat, token in table.tokens.items()},
                "spectators": f"/#token={table.spectator_token}",
            }
        )

    def _handed(self, table: WebTable, client: str) -> None:
        """Tell *table*, served, that its links go to *client*, who made it
        (`WebTable.handed`), just before they are sent.  A hook that fails is logged:
        the table is served on, and its links sent."""
        handed = table.handed
        if handed is None:
            return
        try:
            handed(client)
        except Exception as error:  # the database's, or a hook of a program's own
            self._say(f"table {table.name}: its links are sent, but were not noted so: {error}")

    def _make(
        self,
        lobby: Callable[[object, str], WebTable],
        asked: object,
        name: str,
        making: _Making,
    ) -> WebTable:
        """Return the table *lobby* makes as *asked*, named *name*, for *making*'s client,
        served and its bots started (in a worker thread: the lobby, and a deletion, may
        wait for a database).

        All or nothing: a table that cannot be served, or whose request was given up
        meanwhile (``making.abandoned``: nobody would get its links), is given up there and then
        (`_discard`), before the server stops, which waits for this call (`stop`).

        Raises:
            RequestError: 503 ``"stopping"`` if the server is stopping, before the lobby
                is asked or once it has made the table, or the request was given up;
                503 ``"busy"`` if the table's bots cannot start.
            InvalidArgumentError: if a lobby of a program's own names the table otherwise,
                or a program served a table of that name meanwhile (answered 500).
        """
        with self._lock:  # `stop` waits for every call that gets past this
            if self.stopping:
                raise RequestError(503, "stopping", _STOPPING_MADE)
            self._in_lobby += 1
        try:
            table = lobby(asked, name)
            try:
                if making.abandoned.is_set():
                    raise RequestError(503, "stopping", _STOPPING_MADE)
                self._serve(table, name, making)
            except BaseException:
                self._discard(table)
                raise
            # Noted before the answer, which goes at once: a server killed before this
            # has sent no link, one killed after has, but for an instant, sent them.
            self._handed(table, making.client)
            return table
        finally:
            with self._lock:
                self._in_lobby -= 1
                self._lobby_done.notify_all()

    def _serve(self, table: WebTable, name: str, making: _Making) -> None:
        """Serve *table*, which the lobby made as *name* for *making*, and start its bots;
        raise as `_make` does, the table not served."""
        if table.name != name:  # a lobby of a program's own: it must replace no table served
            wrong = f"the lobby made a table named {table.name!r} for the name {name!r}"
            self._say(f"{wrong}: it is not served")
            raise InvalidArgumentError(f"{wrong}: a lobby names its table as it is told")
        self.add(table, expires=True, maker=making.client, making=making)
        try:
            table.start()
        except BaseException as error:  # no thread for its bots: it is not served
            self._let_go(table)
            if not isinstance(error, RuntimeError):  # a table of a program's own
                raise
            self._say(f"table {name} is not served: its bots could not start: {error}")
            raise RequestError(
                503,
                "busy",
                f"the server could not start the table's bots ({error}): no table was made; "
                "try again later",
            ) from None

    def _discard(self, table: WebTable) -> None:
        """Close *table*, which the lobby made and the server does not serve, its links
        never given, and have it deleted where it was kept (`WebTable.discarding`).

        A deletion that fails is logged: the table stays kept, its links never noted
        given (`WebTable.handed`), and ``mexican-train serve --db`` restarted on that
        database lets it expire.
        """
        table.close()
        discarding = table.discarding
        if discarding is None:
            return
        try:
            discarding()
        except Exception as error:
            self._say(f"table {table.name} is not served, but could not be deleted: {error}")

    async def socket(self, websocket: WebSocket) -> None:
        """Push the seat's document at every change, once the first message names the seat.

        The page sends ``{"token": "<the seat's token>"}`` first (a browser cannot set
        headers on a WebSocket, and a URL ends up in logs); a wrong one is closed with
        code 4403, none in time with 4408.  A socket at a table that has expired, or
        expires while it is open, is closed with `EXPIRED_CLOSE` and the reason; one at
        a table that has closed otherwise, or closes while it is open, with
        `CLOSED_CLOSE` and `TABLE_CLOSED`, or with `STOPPING_CLOSE` if the server is
        stopping.
        """
        await websocket.accept()
        try:
            table, changes, seat = await asyncio.wait_for(self._hello(websocket), self.deadline)
        except asyncio.TimeoutError:
            await websocket.close(4408, "say whose seat this is first")
            return
        except RequestError as error:
            # A closed table's late socket closes as its open ones did: 4410 says it expired.
            code = CLOSED_CLOSE if error.error == "closed" else 4400 + error.status % 100
            await websocket.close(code, _close_reason(error.reason))
            return
        except WebSocketDisconnect:
            return
        reader = asyncio.ensure_future(self._drain(websocket))
        table.arrive(seat)
        try:
            shown: tuple[int, tuple[bool, ...]] | None = None
            while not reader.done() and not table.closed:
                changed = changes.next()
                now = (table.version, table.connected)
                if now != shown:
                    document = await run_in_threadpool(table.document, seat)
                    await websocket.send_text(json.dumps(document))
                    shown = (document["version"], tuple(document["connected"]))
                    continue
                waiter = asyncio.ensure_future(changed.wait())
                await asyncio.wait({reader, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the page went away
        finally:
            reader.cancel()
            table.leave(seat)
        expired = table.expired
        if expired is not None:
            code, reason = EXPIRED_CLOSE, expired
        elif self.stopping:
            code, reason = STOPPING_CLOSE, "the server is stopping"
        elif table.closed:
            code, reason = CLOSED_CLOSE, TABLE_CLOSED
        else:
            return  # the page went away
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await websocket.close(code, _close_reason(reason))

    async def _hello(self, websocket: WebSocket) -> tuple[WebTable, _Changes, int]:
        try:
            hello = json.loads(await websocket.receive_text())
        except (ValueError, KeyError, RecursionError):
            hello = None
        if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
            raise RequestError(400, "bad hello", 'the first message is {"token": "<token>"}')
        return self.find(_checked_token(hello["token"]))

    @staticmethod
    async def _drain(websocket: WebSocket) -> None:
        """Read (and ignore) what the page sends, text or binary, until it goes away."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass


def _close_reason(reason: str) -> str:
    """Return *reason* fit for a WebSocket's close: at most 123 bytes of UTF-8, whole if it
    fits, else cut after a word, with an ellipsis.

    >>> _close_reason("the table has expired")
    'the table has expired'
    >>> _close_reason("word " * 40)[-10:]
    'word word…'
    """
    if len(reason.encode()) <= _CLOSE_REASON:
        return reason
    cut = reason.encode()[: _CLOSE_REASON - 3].decode(errors="ignore")
    return cut.rsplit(" ", 1)[0].rstrip(" ,;:(") + "\u2026"  # an ellipsis: the reason goes on


def _json_error(status: int, error: str, reason: str, close: bool) -> Response:
    headers = {"Connection": "close"} if close else None
    return JSONResponse({"error": error, "reason": reason}, status, headers=headers)


async def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestError)
    # An answer given before the body was read ends the exchange: the unread body must not
    # be read as the next request.
    return _json_error(error.status, error.error, error.reason, request.method == "POST")


async def _failed(request: Request, error: Exception) -> Response:
    # A fault of the server's, or of a hook of a user's own (a lobby, a journal): the
    # traceback goes to the server's log (uvicorn's, as Starlette raises it again), the
    # client gets JSON that names no detail of it.
    return _json_error(500, "server error", "the server failed to answer: its log says why", True)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    # Starlette's 405 names the methods served in its Allow header, in no set order: the
    # header names them in the order of `_METHODS`, and the reason says them too.
    headers = dict(error.headers or {})
    named = headers.get("Allow", "").split(", ")
    allowed = tuple(method for method in _METHODS if method in named)
    if allowed:
        headers["Allow"] = ", ".join(allowed)
    use = f"; use {_either(allowed)}" if allowed else ""
    reason = {
        404: f"nothing at {request.url.path[:80]}",
        405: f"{request.method[:16]} is not served at {request.url.path[:80]}{use}",
    }.get(error.status_code, error.detail)
    answer = _json_error(error.status_code, error.detail.lower(), reason, True)
    answer.headers.update(headers)
    return answer


async def _not_a_websocket(request: Request) -> Response:
    """Answer a plain request for the WebSocket's path: 426, it is to be opened as one."""
    answer = _json_error(426, "upgrade required", "/api/ws is a WebSocket: open it as one", False)
    answer.headers["Upgrade"] = "websocket"
    return answer


async def _disconnected(request: Request, error: Exception) -> Response:
    return Response(status_code=400)  # nobody reads it: the client has gone


def _host_header(scope: Scope) -> str | None:
    """Return the request's ``Host`` header, or None if it has none."""
    for name, value in scope["headers"]:
        if name == b"host":
            return str(value.decode("latin-1"))
    return None


def _cross_site(scope: Scope, hosts: Hosts) -> RequestError | None:
    """Return the refusal of a POST or a WebSocket's upgrade that a page of another site
    sent (its ``Origin``: `Hosts.cross_site`), or None (*scope* `_addressed`)."""
    if scope["type"] != "websocket" and scope["method"] != "POST":
        return None
    origins = [value.decode("latin-1") for name, value in scope["headers"] if name == b"origin"]
    if not origins:
        return None
    why = hosts.cross_site(", ".join(origins), _host_header(scope))
    return None if why is None else RequestError(403, "another site", why)


def _either(words: tuple[str, ...]) -> str:
    """Return *words* as a choice: ``GET, HEAD or POST``."""
    return " or ".join((", ".join(words[:-1]), words[-1])) if len(words) > 1 else words[0]


def _addressed(scope: Scope) -> Scope:
    """Return *scope*, a request's or a WebSocket's, with a target in absolute form served
    as its path (`split_target`): its host then takes the place of the ``Host`` header,
    for the check of the hosts served and for the application alike.

    Raises:
        RequestError: 400 for a target or ``Host`` headers that do not say which host the
            request is for (`split_target`, `request_host`).
    """
    headers = scope["headers"]
    sent = [value.decode("latin-1") for name, value in headers if name == b"host"]
    authority, target = split_target(scope.get("raw_path", b"").decode("latin-1"))
    request_host(sent, authority, scope.get("http_version", "1.1"))
    if authority is None:
        return scope
    host = (b"host", authority.encode("latin-1"))
    return {
        **scope,
        "path": unquote(target),
        "raw_path": target.encode("latin-1"),
        "headers": [*((name, value) for name, value in headers if name != b"host"), host],
    }


def _refusal(scope: Scope, hosts: Hosts, allowed: dict[str, tuple[str, ...]]) -> Response | None:
    """Return the answer to a request refused before it is routed, if it is (*scope*
    `_addressed`; *allowed*: the methods served at each path that has a route)."""
    if scope["http_version"] not in {"1.0", "1.1"}:
        return _json_error(505, "version not supported", "only HTTP/1.0 and 1.1 are served", True)
    wrong = hosts.refusal(_host_header(scope))
    if wrong is not None:
        return _json_error(400, "wrong host", wrong, True)
    cross = _cross_site(scope, hosts)
    if cross is not None:
        return _json_error(cross.status, cross.error, cross.reason, True)
    method = scope["method"]
    if method not in _METHODS:  # served nowhere: CONNECT's target is not even a path
        path = scope["path"]
        where, use = (f"at {path[:80]}", allowed[path]) if path in allowed else ("here", _METHODS)
        answer = _json_error(
            405,
            "method not allowed",
            f"{method[:16]} is not served {where}; use {_either(use)}",
            True,
        )
        answer.headers["Allow"] = ", ".join(use)
        return answer
    headers = scope["headers"]
    if len(headers) > MAX_HEADERS or any(len(value) > MAX_HEADER for _, value in headers):
        return _json_error(
            431,
            "headers too large",
            f"at most {MAX_HEADERS} headers of at most {MAX_HEADER} bytes each",
            True,
        )
    if scope["query_string"].count(b"&") >= MAX_QUERY_FIELDS:
        return _json_error(
            400, "bad request", f"a query has at most {MAX_QUERY_FIELDS} fields", False
        )
    return None


def _has_body(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a request's headers announce a body (a ``Content-Length`` over 0, or chunks)."""
    return any(
        name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0")
        for name, value in headers
    )


class _Frame:
    """ASGI middleware: the hosts served, the common headers on every answer, the access
    log, and the server's lifespan (`_lifespan`)."""

    def __init__(self, app: Starlette, routes: _Routes, log: IO[str] | None, hosts: Hosts) -> None:
        self.app = app
        self.routes = routes
        self.log = log
        self.hosts = hosts
        #: The methods served at each path that has a route, as Starlette answers 405.
        self.allowed: dict[str, tuple[str, ...]] = {
            route.path: tuple(method for method in _METHODS if method in route.methods)
            for route in app.routes
            if isinstance(route, Route) and route.methods
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(self.routes, receive, send)
            return
        sent = scope  # the request as it came, for the log
        try:
            scope = _addressed(scope)
        except RequestError as error:
            refused: RequestError | None = error
        else:
            refused = None
        if scope["type"] == "websocket":
            wrong = self.hosts.refusal(_host_header(scope)) if refused is None else None
            if wrong is not None:
                refused = RequestError(400, "wrong host", wrong)
            if refused is None:
                refused = _cross_site(scope, self.hosts)
            if refused is None:

                async def opening(message: Message) -> None:
                    if message["type"] == "websocket.accept":  # the upgrade's answer
                        self._write(sent, 101)
                    await send(message)

                await self.app(scope, receive, opening)
            else:  # refused before its upgrade: a JSON 400, as uvicorn lets a WebSocket answer
                await self._refuse_websocket(sent, send, refused)
            return
        unread = _has_body(scope["headers"])

        async def reading() -> Message:
            nonlocal unread
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                unread = False  # the whole body, or the client gone
            return message

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *_HEADERS]
                # A body left unread (a GET's, one refused) ends the exchange: uvicorn would
                # otherwise read it to its end, however long it says it is, or to the deadline.
                if unread and not any(name.lower() == b"connection" for name, _ in headers):
                    headers.append((b"connection", b"close"))
                message["headers"] = headers
                self._write(sent, message["status"])
            await send(message)

        refusal = (
            _refusal(scope, self.hosts, self.allowed)
            if refused is None
            else _json_error(refused.status, refused.error, refused.reason, True)
        )
        await (self.app if refusal is None else refusal)(scope, reading, framed)

    async def _refuse_websocket(self, scope: Scope, send: Send, refused: RequestError) -> None:
        body = json.dumps(refused.body()).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *_HEADERS,
        ]
        self._write(scope, refused.status)
        start = {"type": "websocket.http.response.start", "status": refused.status}
        await send({**start, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})

    def _write(self, scope: Scope, status: int) -> None:
        if self.log is None:
            return
        client = scope.get("client") or ("-", 0)
        query = "?<query>" if scope.get("query_string") else ""
        raw = scope.get("raw_path")  # as sent: its escapes kept, as JSONServer logs it
        path = shown_path(scope.get("path", "") if raw is None else raw.decode("latin-1"))
        path += query
        stamp = time.strftime("%H:%M:%S")
        with contextlib.suppress(OSError, ValueError):  # a closed log must not stop the table
            method = scope.get("method", "GET")[:16]  # a WebSocket's upgrade is a GET
            self.log.write(f'{client[0]} [{stamp}] "{method} {path}" {status}\n')
            self.log.flush()


def _application(
    routes: _Routes, log: IO[str] | None, hosts: Hosts
) -> Callable[[Scope, Receive, Send], Any]:
    app = Starlette(
        routes=[
            *(Route(path, routes.page, methods=["GET"]) for path in _PAGES),
            Route("/api/view", routes.view, methods=["GET"]),
            Route("/api/move", routes.move, methods=["POST"]),
            Route("/api/again", routes.again, methods=["POST"]),
            Route("/api/review", routes.review, methods=["GET"]),
            Route("/api/lobby", routes.choices, methods=["GET"]),
            Route("/api/tables", routes.create, methods=["POST"]),
            WebSocketRoute("/api/ws", routes.socket),
            Route("/api/ws", _not_a_websocket, methods=["GET"]),
        ],
        exception_handlers={
            RequestError: _refused,
            HTTPException: _http_error,
            ClientDisconnect: _disconnected,
            Exception: _failed,
        },
    )
    return _Frame(app, routes, log, hosts)


async def _lifespan(routes: _Routes, receive: Receive, send: Send) -> None:
    """The server's ASGI lifespan: the routes know the event loop, and sweep the tables
    (`_Routes.sweeping`), from the server's start to its end.

    A server forced to stop (Ctrl-C a second time while it stops) never asks for the
    lifespan's end: the event loop cancels it as it closes, which ends it quietly
    (Starlette's own lifespan would take that for a failure, which uvicorn prints with
    its traceback).
    """
    sweeping: asyncio.Future[None] | None = None
    try:
        await receive()  # lifespan.startup
        routes.attach(asyncio.get_running_loop())
        sweeping = asyncio.ensure_future(routes.sweeping())
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
    except asyncio.CancelledError:
        return
    finally:
        if sweeping is not None:
            sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeping
    await send({"type": "lifespan.shutdown.complete"})


class _Server(uvicorn.Server):
    """uvicorn's server, which ends the long polls in flight as it begins to stop
    (`_Routes.drain`)."""

    def __init__(self, config: uvicorn.Config, routes: _Routes) -> None:
        super().__init__(config)
        self._routes = routes

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._routes.drain()
        await super().shutdown(sockets)


class WebServer:
    """An HTTP and WebSocket server for one `~mexican_train.web.WebTable` (see `make_server`).

    It listens as soon as it is made (port 0: any free port; ``server_address`` says
    which).  With *lobby* (`~mexican_train.web.lobby_table`), ``POST /api/tables``
    makes tables on request, the lobby page's, while fewer than *max_tables* tables
    are served, and fewer than *max_tables_per_client* of the lobby's tables made from
    the same address.  A table of the lobby's that closes
    (`~mexican_train.web.WebTable.close`) is let go at once, as one that expires: it
    counts no more, `tables` lists it no more, its pages' WebSockets close with code
    4404 and the reason, and its links are answered 410 ``{"error": "closed"}`` (a
    WebSocket's closes with 4404 too).  A table the lobby made expires once nobody has
    played at it (a move, a new game) for *table_idle* seconds (None: never): the
    server lets it go, stops its bots, closes its pages' WebSockets with code 4410 and
    the reason, and answers its links 410 ``{"error": "expired"}`` (`expire_idle`; the
    server looks every tenth of that time, at least every 10 minutes).  The names of
    the newest 4,096 tables that expired or closed are remembered, to answer their
    links so, and the lobby gives none of them to a new table.  The table it was made
    with, and those `add` is given without *expires*, never expire.  `serve_forever`
    serves until `shutdown`
    or `server_close`, or Ctrl-C in the main thread.  At most *max_per_client*
    connections come from one address and *max_connections* from all clients together;
    behind a reverse proxy every client has the proxy's address: let the proxy limit
    each client, and raise *max_per_client*.

    It answers only requests whose ``Host`` it serves, against DNS rebinding (a hostile
    page that points a name of its own at this machine): on a loopback address
    (``127.0.0.1``, ``::1``, ``localhost``), ``localhost`` and loopback addresses; on
    any other, every address, ``localhost``, the name it listens on and this machine's
    name (``socket.gethostname()``).  Others are answered 400 ``{"error": "wrong host"}``,
    a WebSocket's upgrade too.  *allowed_hosts* adds names, without a port: a reverse
    proxy's that passes its own on (``["table.example.org"]``); ``["*"]`` answers any.
    A POST or a WebSocket's upgrade that a page of another site sent, its ``Origin``
    naming neither the host and port the request is for nor a name of *allowed_hosts*,
    is answered 403 ``{"error": "another site"}`` (``"*"`` admits no other site).
    A request with several ``Host`` headers, a bad one, or none in HTTP/1.1 is answered
    400 whatever the hosts; one whose target is a whole URI
    (``GET http://localhost:8000/api/view``) is served as its path, for the URI's host.

    Raises:
        InvalidArgumentError: if *allowed_hosts* is not a list of host names, addresses
            or ``"*"``, if *long_poll*, *request_timeout* or *table_idle* is not
            a number of seconds over 0 (*table_idle* may be None), or *max_per_client*,
            *max_connections*, *max_tables* or *max_tables_per_client* is not a whole
            number from 1.
    """

    def __init__(
        self,
        address: tuple[str, int],
        table: WebTable,
        *,
        log: IO[str] | None = sys.stderr,
        long_poll: float = LONG_POLL,
        request_timeout: float = REQUEST_TIMEOUT,
        max_per_client: int = MAX_PER_CLIENT,
        max_connections: int = MAX_CONNECTIONS,
        lobby: Callable[[object, str], WebTable] | None = None,
        max_tables: int = MAX_TABLES,
        max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
        table_idle: float | None = TABLE_IDLE,
        allowed_hosts: Collection[str] = (),
    ) -> None:
        allowed = checked_hosts(allowed_hosts)
        if table_idle is not None and not _is_seconds(table_idle):
            raise InvalidArgumentError(
                f"table_idle is a number of seconds over 0, or None, not {table_idle!r}"
            )
        for option, seconds in (("long_poll", long_poll), ("request_timeout", request_timeout)):
            if not _is_seconds(seconds):
                raise InvalidArgumentError(
                    f"{option} is a number of seconds over 0, not {seconds!r}"
                )
        counts = (
            ("max_per_client", max_per_client),
            ("max_connections", max_connections),
            ("max_tables", max_tables),
            ("max_tables_per_client", max_tables_per_client),
        )
        for option, count in counts:
            if type(count) is not int or count < 1:
                raise InvalidArgumentError(f"{option} is a whole number from 1, not {count!r}")
        self.table = table
        host, port = address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=2048)
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]
        http, websocket = _guarded(_Guard(max_per_client, request_timeout))
        limits = (max_tables, max_tables_per_client)
        self._routes = _Routes(long_poll, request_timeout, lobby, limits, table_idle, log)
        self._routes.add(table)
        config = uvicorn.Config(
            _application(self._routes, log, Hosts(host, allowed)),
            http=http,
            ws=websocket,
            ws_max_size=MAX_MESSAGE,
            ws_per_message_deflate=False,
            lifespan="on",
            access_log=False,
            log_config=None,
            log_level="error",
            server_header=False,
            # uvicorn answers 503 once the connections, this one included, reach the
            # limit: max_connections are served with one more.
            limit_concurrency=max_connections + 1,
            timeout_keep_alive=max(1, round(request_timeout)),
            timeout_graceful_shutdown=1,
            h11_max_incomplete_event_size=16 * 1024,
            backlog=2048,
        )
        self._server = _Server(config, self._routes)
        self._stopped = threading.Event()
        self._stopped.set()

    def links(self) -> dict[int, str]:
        """Return each person's seat's link: the token travels in the fragment, never sent.

        A server listening on every interface (``0.0.0.0``) gives links with this
        machine's network address, which others can open.
        """
        host, port = self.server_address
        shown = shareable_host(host)
        return {
            seat: f"http://{shown}:{port}/#token={token}"
            for seat, token in self.table.tokens.items()
        }

    def add(self, table: WebTable, *, expires: bool = False, maker: str | None = None) -> None:
        """Serve *table* as well, from now on; its `~mexican_train.web.WebTable.name` must be new.

        With *expires*, the table expires as the lobby's do (``mexican-train serve`` adds
        so the lobby's tables it resumes from its database), and the server lets it go as
        soon as it closes (`~mexican_train.web.WebTable.close`): one closed already is not
        served.  The links of a table let go so are answered 410, saying it closed.
        *maker*, with *expires*, is the address that made the table in the lobby: the
        table counts towards that address's *max_tables_per_client*.

        Raises:
            InvalidArgumentError: if a table of that name is served already.
            RequestError: 503 ``"stopping"`` for a table with a *maker* once the server
                is stopping (`server_close`).
        """
        self._routes.add(table, expires=expires, maker=maker)

    def add_expired(self, name: str, reason: str) -> None:
        """Answer the links of the table *name*, which expired, 410 with *reason*.

        The lobby gives the name to no table it makes, nor any ``tN`` name up to it.
        ``mexican-train serve`` tells so the names its database keeps of the tables that
        expired before the server started (`~mexican_train.web.WebTable.expire`).

        Raises:
            InvalidArgumentError: if a table of that name is served.
        """
        self._routes.add_expired(name, reason)

    @property
    def tables(self) -> list[WebTable]:
        """The tables served, the one the server was made with first."""
        return self._routes.listed()

    def expire_idle(self) -> list[str]:
        """Expire the lobby's tables nobody has played at for *table_idle* seconds, now.

        The server does so by itself, at its start and then regularly; return the names
        of the tables that expired.  Call it from any thread but the server's own, before
        the server starts or while it serves: one sweep runs at a time, and one asked for
        while another runs waits for it.
        """
        return self._routes.sweep()

    @property
    def lobby(self) -> Callable[[object, str], WebTable] | None:
        """What makes the lobby's tables (``POST /api/tables``), or None: no lobby.

        It is called with the request's JSON and the name the table takes, and returns
        the table (its bots not started), named so; a table of another name is closed,
        not served, and the request answered 500 (the server's log says why).  Raise
        `~mexican_train.web.RequestError` to refuse a request (`~mexican_train.web.lobby_table`
        does).  A table the server does not serve after all (another name; bots that
        cannot start, or a server that stops meanwhile: 503) is closed and its
        `~mexican_train.web.WebTable.discarding` called: a lobby that keeps its tables
        somewhere deletes it there.
        """
        return self._routes.lobby

    @lobby.setter
    def lobby(self, make: Callable[[object, str], WebTable] | None) -> None:
        self._routes.lobby = make

    def spectator_link(self) -> str | None:
        """Return the link that shows the table to spectators (no hand), if its token is known.

        A table resumed from a database knows only the token's hash: None.
        """
        token = self.table.spectator_token
        if token is None:
            return None
        host, port = self.server_address
        return f"http://{shareable_host(host)}:{port}/#token={token}"

    def serve_forever(self, poll_interval: float = 0.1) -> None:
        """Serve until `shutdown` (*poll_interval*: how often uvicorn looks, in seconds).

        In the main thread, with Python's own SIGINT handler in place, Ctrl-C stops it
        too, and then raises `KeyboardInterrupt`, whenever it comes: while the server
        starts, the signal only asks it to stop.  (Python's handler raises
        `KeyboardInterrupt` wherever the signal lands: in code whose exceptions Python
        ignores, an import's lock, the Ctrl-C would be lost and the server serve on.)
        """
        self._stopped.clear()
        interrupted = False

        def stop(signum: int, frame: object) -> None:
            nonlocal interrupted
            interrupted = True
            self._server.should_exit = True

        ours = (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        )
        if ours:
            signal.signal(signal.SIGINT, stop)
        try:
            # uvicorn answers SIGINT itself while it serves, then raises it again here.
            self._server.run(sockets=[self.socket])
        finally:
            if ours:
                signal.signal(signal.SIGINT, signal.default_int_handler)
            self._stopped.set()
        if interrupted:
            raise KeyboardInterrupt

    def shutdown(self) -> None:
        """Stop `serve_forever` (from another thread) and wait until it has stopped."""
        self._server.should_exit = True
        self._stopped.wait(10)

    def server_close(self) -> None:
        """Stop the tables' bots, stop serving, and close the listening socket.

        The pages' WebSockets close with code 1012 (``Service Restart``): a server
        started again on the same database serves the same tables.  A table the lobby is
        making meanwhile is not served: its maker is answered 503 ``"stopping"``, and
        the table is given up (`~mexican_train.web.WebTable.discarding`); the server
        waits for it, *request_timeout* seconds at most, before it stops.
        """
        self._routes.stop()
        for table in self.tables:
            table.close()
        self.shutdown()
        self.socket.close()


def _is_seconds(value: object) -> bool:
    """Whether *value* is a number of seconds over 0 (finite, and not a bool)."""
    return (
        isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < float("inf")
    )


def shareable_host(host: str) -> str:
    """Return the host of a URL that others can open for a server listening on *host*.

    A server listening on every interface (``0.0.0.0``, ``::`` or ``""``) is reached at
    this machine's network address, or its name when no address but the loopback one
    is known; any other *host* is returned as it is, an IPv6 address in brackets, as a
    URL writes it (RFC 3986 §3.2.2).

    >>> shareable_host("127.0.0.1"), shareable_host("::1")
    ('127.0.0.1', '[::1]')
    >>> shareable_host("0.0.0.0") != "0.0.0.0"
    True
    """
    if host not in EVERY_INTERFACE:
        return f"[{host}]" if ":" in host and not host.startswith("[") else host
    name = socket.gethostname()
    try:
        found = socket.getaddrinfo(name, None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:  # a name that does not resolve: others may still know it
        found = []
    for *_, address in found:
        if not ipaddress.ip_address(address[0]).is_loopback:
            return str(address[0])
    return name
