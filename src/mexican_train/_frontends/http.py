"""A hardened JSON request layer over the standard library's HTTP server.

A JSON service with no dependency beyond the library (``examples/http_table.py``) is
built on `JSONRequestHandler` and `JSONServer`, which refuse hostile input; the web
table's own server (``app.py``, Starlette on uvicorn) shares `RequestError`,
`read_json` and `json_depth`:

- a request must arrive whole within `REQUEST_TIMEOUT` seconds (its request line,
  its headers and its body together): a stalled connection is closed, it never holds
  a thread for longer;
- a body needs one plain ``Content-Length`` (no sign, digits only) of at most
  `JSONRequestHandler.max_body` bytes; a chunked body is refused;
- JSON is read only after its nesting depth is checked (`MAX_JSON_DEPTH`), in time
  linear in the body, so that a document nested thousands deep is a 400, not a
  `RecursionError`, and no body costs more than its length;
- an error answered before the body was read closes the connection, and so does a
  header line the parser cannot read, so an unread body is never taken for the next
  request;
- one address holds at most `JSONServer.max_per_client` connections, all clients
  together `JSONServer.max_connections` (an IPv6 address counts as its /64 network,
  `client_key`);
- each answer leaves in one write with ``TCP_NODELAY``: no delayed-ACK stall on a
  kept-alive connection;
- a request other than a GET or a HEAD that a page of another site sent (its
  ``Origin`` names neither the host and port it is for nor an allowed host) is a 403
  ``"another site"`` (`Hosts.cross_site`), against cross-site request forgery;
- a request names its host once (RFC 9112 §3.2): several ``Host`` headers, an invalid
  one, or none in HTTP/1.1 is a 400 (`request_host`), and so are several
  ``Authorization`` headers (`bearer`): which one is meant is not known;
- a target in absolute form (``GET http://localhost:8000/api/view``, RFC 9112 §3.2.2)
  is served as its path, its host in place of the ``Host`` header's (`split_target`);
- a method the server does not serve (PUT, DELETE, CONNECT, ...) is a 405 with an
  ``Allow`` header and a JSON body, and every other error is JSON too;
- the access log shows the method, the target as sent (never the query string, never
  a header) and the status: a seat's token is never logged.

This module uses only the standard library and the library's errors.
"""

from __future__ import annotations

import contextlib
import ipaddress
import itertools
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Any, ClassVar, Final
from urllib.parse import parse_qs, urlsplit

import attrs

from .._core.bounds import MAX_DEPTH
from .._core.errors import InvalidArgumentError, MexicanTrainError, shown

__all__ = [
    "EVERY_INTERFACE",
    "MAX_CONNECTIONS",
    "MAX_JSON_DEPTH",
    "MAX_PER_CLIENT",
    "NO_HOST",
    "REQUEST_TIMEOUT",
    "SEVERAL_HOSTS",
    "WEB_EXTRA",
    "Hosts",
    "JSONRequestHandler",
    "JSONServer",
    "RequestError",
    "Response",
    "bearer",
    "checked_hosts",
    "client_key",
    "json_depth",
    "lacks_web_extra",
    "read_json",
    "refuse_gone",
    "request_host",
    "shown_path",
    "split_target",
]


#: The packages the ``web`` extra brings (pyproject.toml), which the web table imports.
WEB_EXTRA: Final = frozenset({"starlette", "uvicorn", "websockets", "h11", "anyio"})


def lacks_web_extra(error: ImportError) -> bool:
    """Return whether *error* is a package of the ``web`` extra missing (or a module of one)."""
    return (error.name or "").partition(".")[0] in WEB_EXTRA


def client_key(address: str) -> str:
    """Return what the caps per client count *address* as.

    An IPv6 address counts as its /64 network (``2001:db8::/64``): one host, or one
    home, is commonly given a whole /64, and could otherwise take a whole share of
    every cap per address it picks from it.  An IPv4 address, and one that IPv6 maps
    (``::ffff:192.0.2.1``), counts alone; anything else (no address, a Unix socket's
    name) as itself.

    >>> client_key("2001:db8::1") == client_key("2001:db8::ffff:2")
    True
    >>> client_key("2001:db8::1"), client_key("::ffff:192.0.2.1"), client_key("192.0.2.1")
    ('2001:db8::/64', '192.0.2.1', '192.0.2.1')
    """
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # a link-local scope apart
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


#: The addresses a server listens on every interface at.
EVERY_INTERFACE: Final = frozenset({"0.0.0.0", "::", ""})
# A host name as ``allowed_hosts`` takes it: labels of letters, digits, - and _.
_HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*")


class Hosts:
    """The hosts a server answers requests for: the ``Host`` headers it accepts.

    A server on a loopback address (``127.0.0.1``, ``::1``, ``localhost``) is the user's
    own: it answers ``localhost`` and loopback addresses only.  Any other server answers
    every address (an address cannot be pointed elsewhere: DNS rebinding needs a name),
    ``localhost``, the name it listens on and this machine's name.  Either also answers
    the names in *allowed* (a reverse proxy's); ``"*"`` among them answers any host.
    A request without a ``Host`` (HTTP/1.0's) comes from no browser: it is answered.
    Which host a request is for is `request_host`'s to say.
    """

    def __init__(self, listening: str, allowed: Collection[str]) -> None:
        self.any = "*" in allowed
        self.names = {name.lower().rstrip(".") for name in allowed if name != "*"}
        #: The names given in *allowed*: pages there may act here (`cross_site`).
        self.allowed = frozenset(self.names)
        self.names.add("localhost")
        self.loopback = _is_loopback(listening)
        if not self.loopback:
            if listening not in EVERY_INTERFACE and _address(listening) is None:
                self.names.add(listening.lower().rstrip("."))
            self.names.add(socket.gethostname().lower())

    def refusal(self, header: str | None) -> str | None:
        """Return why a request whose ``Host`` is *header* is not answered, or None: it is."""
        if self.any or header is None:
            return None
        host = _host_of(header.strip().lower())
        if host in self.names:
            return None
        address = _address(host)
        if address is not None and (address.is_loopback or not self.loopback):
            return None
        served = ", ".join(sorted(self.names))
        which = "loopback addresses" if self.loopback else "its addresses"
        return f"this server answers requests for {which}, {served}, not for {shown(host)}"

    def cross_site(self, origin: str | None, host: str | None) -> str | None:
        """Return why a request a page of *origin* sent for *host* is refused, or None: it
        is not.

        A browser names in ``Origin`` the site of the page that sent a POST or opened a
        WebSocket; a page of another site the user visits may send both to a server on
        the user's machine (cross-site request forgery, cross-site WebSocket hijacking),
        with the ``Host`` the server serves.  Only the server's own pages act here: an
        *origin* of the same host and port as the request's *host* (its ``Host``
        header, or the host its target names), or of a host named in *allowed* (a
        reverse proxy's that passes another ``Host`` on).  A request without an
        ``Origin`` comes from no page, or from one of the same site that sends none: it
        is not refused.

        >>> hosts = Hosts("127.0.0.1", ["table.example.org"])
        >>> hosts.cross_site("http://localhost:8000", "localhost:8000") is None
        True
        >>> hosts.cross_site("https://table.example.org", "127.0.0.1:8000") is None
        True
        >>> hosts.cross_site("http://evil.example", "localhost:8000")
        "only the server's own pages act here, not one of 'http://evil.example' (a name the server is reached by, behind a proxy, is given to it as an allowed host)"
        """
        if origin is None:
            return None
        value = origin.strip().lower()
        found = _ORIGIN.fullmatch(value)
        if found is not None:
            scheme, name, port = found.groups()
            name = name.strip("[]").rstrip(".")
            if name in self.allowed:
                return None
            sent_name, sent_port = _host_and_port((host or "").strip().lower())
            default = "443" if scheme == "https" else "80"
            if name == sent_name and (port or default) == (sent_port or default):
                return None
        return (
            f"only the server's own pages act here, not one of {shown(origin)} (a name the "
            "server is reached by, behind a proxy, is given to it as an allowed host)"
        )


def _host_of(value: str) -> str:
    """Return the host of a ``Host`` header's *value*, without its port or final dot."""
    return _host_and_port(value)[0]


def _host_and_port(value: str) -> tuple[str, str]:
    """Return the host of a ``Host`` header's *value*, without its final dot, and its
    port (``""`` if it names none)."""
    if value.startswith("["):  # an IPv6 address, [::1]:8000
        host, _, rest = value[1:].partition("]")
        return host, rest.removeprefix(":")
    host, _, port = value.partition(":")
    return host.rstrip("."), port


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """Return *host* as an IP address, if it is one (a bare IPv6 one too)."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _is_loopback(host: str) -> bool:
    """Whether a server listening on *host* is reached from this machine only."""
    address = _address(host)
    return host.lower().rstrip(".") == "localhost" or (address is not None and address.is_loopback)


# A Host header's value, or an authority: a host (a name, an IPv4 address or a bracketed
# IPv6 one) and an optional port (RFC 9110 §7.2, RFC 3986 §3.2.2).
_HOST_VALUE = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(:[0-9]*)?")
# An ``Origin`` header's value (RFC 6454 §7): an http or https scheme, a host, an optional
# port.  ``null`` (a page of no site: a sandboxed frame, a file) is none.
_ORIGIN = re.compile(r"(https?)://(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]+)(?::([0-9]{1,5}))?")
# A request's target in absolute form: a scheme, ://, an authority, then the path.
_ABSOLUTE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)", re.DOTALL)
#: Why a request with several ``Host`` headers, or an HTTP/1.1 one with none, is refused
#: (`request_host`; the web table's server words h11's refusals of them alike).
SEVERAL_HOSTS: Final = (
    "send one Host header, not several: which host the request is for is not known"
)
NO_HOST: Final = "an HTTP/1.1 request names its host in a Host header: send one"


def split_target(target: str) -> tuple[str | None, str]:
    """Return the host (with its port) that a request's *target* names, and the target
    to serve: its path and query.

    A target in absolute form (RFC 9112 §3.2.2, which a server must accept: a proxy sends
    it) is served as its path, and its host takes the place of the ``Host`` header's
    (`request_host`).  Any other target (``/api/view?since=3``, ``*``) names no host: it
    is returned as it is.

    >>> split_target("http://localhost:8000/api/view?since=3")
    ('localhost:8000', '/api/view?since=3')
    >>> split_target("/api/view")
    (None, '/api/view')

    Raises:
        RequestError: 400 for a target in absolute form that is not an ``http`` or
            ``https`` URI of a host, or that names a user (``http://ann@host/``, which
            RFC 9110 §4.2.4 has a recipient treat as an error).
    """
    found = _ABSOLUTE.fullmatch(target)
    if found is None:
        return None, target
    scheme, authority, rest = found.groups()
    if scheme.lower() not in {"http", "https"}:
        raise RequestError(
            400,
            "bad request",
            f"the target is a path, or an http URI, not a URI of the scheme {shown(scheme)}",
        )
    if "@" in authority:
        raise RequestError(
            400, "bad request", "the target's URI names a user: send http://host:port/path"
        )
    if not _HOST_VALUE.fullmatch(authority):
        raise RequestError(
            400,
            "bad request",
            f"the target's URI names a host and an optional port, not {shown(authority)}",
        )
    return authority, rest if rest.startswith("/") else "/" + rest


def request_host(headers: Sequence[str], authority: str | None, version: str) -> str | None:
    """Return the host a request is for: the *authority* its target names (`split_target`),
    if any, else its ``Host`` header's; None for an HTTP/1.0 request without one.

    *headers* are the request's ``Host`` headers' values, *version* its HTTP version
    (``"HTTP/1.1"`` or ``"1.1"``).  Check the host with `Hosts.refusal`.

    >>> request_host(["localhost:8000"], None, "HTTP/1.1")
    'localhost:8000'
    >>> request_host(["evil.example"], "localhost:8000", "HTTP/1.1")
    'localhost:8000'

    Raises:
        RequestError: 400 for several ``Host`` headers (the check of the hosts served
            and the application could each read another), one that is not a host and an
            optional port, or none in HTTP/1.1: a server must refuse each (RFC 9112 §3.2).
    """
    if len(headers) > 1:
        raise RequestError(400, "bad request", SEVERAL_HOSTS)
    if not headers:
        if version.removeprefix("HTTP/") not in {"0.9", "1.0"}:
            raise RequestError(400, "bad request", NO_HOST)
        return authority
    value = headers[0].strip()
    if not _HOST_VALUE.fullmatch(value):
        raise RequestError(
            400,
            "bad request",
            f"the Host header is a host and an optional port (localhost:8000), not {shown(value)}",
        )
    return value if authority is None else authority


def bearer(headers: Sequence[str]) -> str | None:
    """Return the token of a request's ``Authorization: Bearer <token>`` header, or None.

    *headers* are the values of its ``Authorization`` headers.

    >>> bearer(["Bearer s3cret"]), bearer([]), bearer(["Basic YTpi"])
    ('s3cret', None, None)

    Raises:
        RequestError: 400 for several ``Authorization`` headers: whose token the request
            carries is not known.
    """
    if len(headers) > 1:
        raise RequestError(
            400,
            "bad request",
            "send one Authorization header, not several: whose token it is is not known",
        )
    scheme, _, token = (headers[0] if headers else "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def checked_hosts(allowed: object) -> tuple[str, ...]:
    """Return *allowed*, the hosts a server answers beyond its own, checked."""
    if isinstance(allowed, (str, bytes)) or not isinstance(allowed, Collection):
        raise InvalidArgumentError(
            f"allowed_hosts is a list of host names (or '*'), not {allowed!r}"
        )
    for name in allowed:
        if not isinstance(name, str) or not (
            name == "*"
            or _HOST_NAME.fullmatch(name.lower().rstrip("."))
            or _address(name) is not None
        ):
            raise InvalidArgumentError(
                f"allowed_hosts holds host names without a port (table.example.org), "
                f"addresses, or '*', not {name!r}"
            )
    return tuple(allowed)


#: Seconds a request may take to arrive, from its first byte to the end of its body.
REQUEST_TIMEOUT: Final = 5.0
#: The most connections a server serves at once by default, all clients together, and
#: from one address (a browser opens about six).
MAX_CONNECTIONS: Final = 512
MAX_PER_CLIENT: Final = 32
#: Seconds an answer may take to be written before the connection is dropped.
WRITE_TIMEOUT: Final = 5.0
#: The deepest nesting of arrays and objects a request's JSON may have.
MAX_JSON_DEPTH: Final = MAX_DEPTH

_MAX_LINE = 65536  # the standard library's own bound on a request line
_CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
# json_depth's three passes, each linear in the text: escapes, then strings (escapes gone,
# a string ends at the next quote, or at the end of the text), then all but brackets.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*(?:"|\Z)')
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_UNPRINTABLE = re.compile(r"[^\x21-\x7e]")
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_~.%-]{16,}")
_USER = re.compile(r"\A((?:[A-Za-z][A-Za-z0-9+.-]*://)?)[^/@]*@")  # the user of a target's URI


class RequestError(MexicanTrainError, ValueError):
    """An HTTP request refused: the status to answer, and a JSON body that says why.

    Attributes:
        status: the HTTP status code, such as 400 or 409.
        error: a short name for the problem (``"bad JSON"``, ``"not your turn"``).
        reason: what was wrong and why, for the person who sent the request.

    >>> error = RequestError(409, "not your turn", "it is seat 2's turn")
    >>> error.status, error.body()
    (409, {'error': 'not your turn', 'reason': "it is seat 2's turn"})
    """

    __module__ = "mexican_train.web"

    def __init__(self, status: int, error: str, reason: str) -> None:
        super().__init__(f"{status} {error}: {reason}")
        self.status = int(status)
        self.error = error
        self.reason = reason

    def body(self) -> dict[str, str]:
        """Return the JSON body of the answer: ``{"error": ..., "reason": ...}``."""
        return {"error": self.error, "reason": self.reason}


#: Why a table that closed (`~mexican_train.web.WebTable.close`) plays no more.
TABLE_CLOSED: Final = "whoever runs the server closed it: it plays no more games"


def refuse_gone(expired: str | None, closed: bool) -> None:
    """Refuse a request to a table that has expired or closed: 410, its error saying
    which (``"expired"``, with *expired* saying why; ``"closed"``, with `TABLE_CLOSED`).

    *expired* is None for a table that has not expired; nothing is refused for a table
    that has neither expired nor closed.
    """
    if expired is not None:
        raise RequestError(410, "expired", expired)
    if closed:
        raise RequestError(410, "closed", TABLE_CLOSED)


@attrs.frozen
class Response:
    """An answer to a request: a status, a body and its content type, and extra headers.

    >>> Response.json({"ok": True}).body
    b'{"ok": true}'
    """

    status: int
    body: bytes
    content_type: str
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def json(cls, data: object, status: int = 200) -> Response:
        """Return a JSON answer with *data* as its body.

        >>> Response.json([1, 2], status=201).status
        201
        """
        return cls(status, json.dumps(data).encode(), "application/json")


def json_depth(text: str) -> int:
    """Return how deeply arrays and objects nest in the JSON text *text*, without parsing it.

    Brackets inside strings do not count.  The text need not be valid JSON: the count
    is made before ``json.loads`` ever sees it, so that a document nested too deeply
    can be refused without a `RecursionError`.  It reads the text in linear time, so a
    body full of escaped quotes costs no more than any other body of its length.

    >>> json_depth('{"move": ["[[[", {"a": []}]}')
    4
    >>> json_depth('"12-5@M"')
    0
    """
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    # The deepest running count.  A closing bracket with nothing open makes the JSON
    # invalid there, and json.loads stops at it: what follows is never nested deeper.
    return max(itertools.accumulate(map(_BRACKET_STEP.__getitem__, brackets), initial=0))


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


#: The longest whole number read, in digits: Python's own limit for reading one.
_MAX_DIGITS: Final = 4300


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise ValueError(
            f"a number of {len(digits)} characters: at most {_MAX_DIGITS} digits are read"
        )
    return int(digits)


def read_json(raw: bytes, max_depth: int = MAX_JSON_DEPTH) -> object:
    """Return the JSON value in *raw*, a request body; raise `RequestError` (400) if it is not one.

    The body must be UTF-8, nest at most *max_depth* deep, and hold standard JSON only
    (no ``NaN`` or ``Infinity``, no integer too long for Python to read).

    >>> read_json(b'{"move": "12-5@M"}')
    {'move': '12-5@M'}
    >>> read_json(b"[" * 5000)
    Traceback (most recent call last):
    ...
    mexican_train.web.RequestError: 400 bad JSON: the JSON nests 5000 deep; at most 32 levels are read
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(400, "bad JSON", f"the body is not UTF-8: {error.reason}") from None
    depth = json_depth(text)
    if depth > max_depth:
        raise RequestError(
            400, "bad JSON", f"the JSON nests {depth} deep; at most {max_depth} levels are read"
        )
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, too many digits, NaN
        raise RequestError(400, "bad JSON", str(error)) from None


class _DeadlineReader:
    """The request's input: a buffered reader whose every read ends by one deadline.

    The standard library's reader times out each ``recv`` on its own, so a client
    sending one byte every few seconds would hold its thread forever; here the whole
    request shares one deadline, set by `start`.
    """

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        self._buffer = bytearray()
        self._deadline = time.monotonic() + REQUEST_TIMEOUT

    def start(self, seconds: float) -> None:
        """Give the next request *seconds* to arrive."""
        self._deadline = time.monotonic() + seconds

    def _fill(self) -> bool:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._connection.settimeout(remaining)
        chunk = self._connection.recv(_MAX_LINE)
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def _take(self, count: int) -> bytes:
        data = bytes(self._buffer[:count])
        del self._buffer[:count]
        return data

    def readline(self, limit: int = -1) -> bytes:
        """Return one line (at most *limit* bytes), or what arrived before the client closed."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 and (limit < 0 or end < limit):
                return self._take(end + 1)
            if 0 <= limit <= len(self._buffer):
                return self._take(limit)
            if not self._fill():
                return self._take(len(self._buffer))

    def read(self, count: int) -> bytes:
        """Return *count* bytes, or fewer if the client closed the connection first."""
        while len(self._buffer) < count:
            if not self._fill():
                break
        return self._take(count)

    def close(self) -> None:
        """Forget what is buffered (the socket is closed by the server)."""
        self._buffer.clear()


def shown_path(target: str) -> str:
    """Return a request's *target* fit for a log: as sent, but no query string, no
    secret, printable, short.

    A segment that looks like a token (16 or more URL-safe characters) is hidden too:
    a client may put its token in the path by mistake; so is a user named in the target.

    >>> shown_path("/seat/0/kq3J7nWq0bN1xA2YzLp4?token=kq3J7nWq0bN1xA2YzLp4")
    '/seat/0/<redacted>?<query>'
    >>> shown_path("x:80"), shown_path("http://ann:pw@localhost:8000/api/view?since=3")
    ('x:80', 'http://<redacted>@localhost:8000/api/view?<query>')
    """
    path, _, query = target.partition("?")
    path = _USER.sub(r"\1<redacted>@", path.partition("#")[0])
    path = _TOKEN_LIKE.sub("<redacted>", _UNPRINTABLE.sub("?", path))[:120]
    return path + ("?<query>" if query else "")


#: The methods a page of another site may send (`Hosts.cross_site`): they change nothing.
_SAFE_METHODS: Final = frozenset({"GET", "HEAD"})


class JSONRequestHandler(BaseHTTPRequestHandler):
    """A request handler that refuses hostile input and answers every error in JSON.

    Subclass it and override `respond`; serve it with `JSONServer`.  Read a body with
    `read_body` or `json_body`, a bearer token with `bearer_token`, the query with
    `query`.  Raise `RequestError` to refuse a request.  See the module's docstring
    for what is refused before `respond` is called.

    >>> import threading, urllib.request
    >>> class Echo(JSONRequestHandler):
    ...     def respond(self, method, path):
    ...         if method == "POST":
    ...             return Response.json({"you sent": self.json_body()})
    ...         return Response.json({"token": self.bearer_token() is not None, "path": path})
    ...
    >>> server = JSONServer(("127.0.0.1", 0), Echo, log=None)
    >>> threading.Thread(target=server.serve_forever, daemon=True).start()
    >>> url = f"http://127.0.0.1:{server.server_address[1]}/hello"
    >>> request = urllib.request.Request(url, data=b'{"move": "draw"}', method="POST")
    >>> urllib.request.urlopen(request, timeout=10).read()
    b'{"you sent": {"move": "draw"}}'
    >>> request = urllib.request.Request(url, headers={"Authorization": "Bearer s3cret"})
    >>> urllib.request.urlopen(request, timeout=10).read()
    b'{"token": true, "path": "/hello"}'
    >>> server.shutdown(); server.server_close()
    """

    protocol_version = "HTTP/1.1"
    server_version = "mexican-train"
    sys_version = ""
    #: The largest body read, in bytes.
    max_body: ClassVar[int] = 16 * 1024
    #: The methods `respond` is called for; any other is answered 405.
    methods: ClassVar[tuple[str, ...]] = ("GET", "POST")
    #: Headers sent with every answer.
    extra_headers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    )

    rfile: Any  # a _DeadlineReader once set up
    _body_pending: bool
    _headers_buffer: list[bytes]  # http.server's buffer of the answer's status line and headers

    def version_string(self) -> str:
        """Return the ``Server`` header: the name only, no Python version."""
        return self.server_version

    # -- what a subclass provides -----------------------------------------------------------

    def respond(self, method: str, path: str) -> Response:
        """Return the answer to a *method* request for *path* (the URL's path, no query).

        Override it; raise `RequestError` to refuse the request.
        """
        raise RequestError(404, "not found", f"no resource at {path}")

    # -- helpers for respond ---------------------------------------------------------------

    @property
    def query(self) -> Mapping[str, list[str]]:
        """The request's query string, parsed (``?since=3`` gives ``{"since": ["3"]}``).

        Raises:
            RequestError: 400 for a query of more than 16 fields.
        """
        try:
            return parse_qs(urlsplit(self.path).query, max_num_fields=16)
        except ValueError:
            raise RequestError(400, "bad request", "a query has at most 16 fields") from None

    def bearer_token(self) -> str | None:
        """Return the token of an ``Authorization: Bearer <token>`` header, or None.

        Raises:
            RequestError: 400 for several ``Authorization`` headers: whose token the
                request carries is not known.
        """
        return bearer(self.headers.get_all("Authorization") or [])

    def read_body(self) -> bytes:
        """Return the request's body; refuse it unless it has one plain ``Content-Length``.

        Raises:
            RequestError: 411 for a chunked body or none announced, 400 for a bad or
                repeated ``Content-Length``, 413 for a body over `max_body` bytes,
                400 for a body cut short.
        """
        if self.headers.get("Transfer-Encoding") is not None:
            raise RequestError(
                411,
                "length required",
                "a chunked body (Transfer-Encoding) is not read: send a Content-Length",
            )
        values = self.headers.get_all("Content-Length") or []
        if not values:
            raise RequestError(411, "length required", "a body needs a Content-Length header")
        if len(values) > 1:
            raise RequestError(400, "bad request", "send one Content-Length header, not several")
        value = values[0].strip()
        if not _CONTENT_LENGTH.fullmatch(value):
            raise RequestError(
                400, "bad request", f"Content-Length must be a count of bytes, not {value[:20]!r}"
            )
        length = int(value)
        if length > self.max_body:
            raise RequestError(
                413, "too large", f"the body has {length} bytes; at most {self.max_body} are read"
            )
        data = self.rfile.read(length)
        if len(data) < length:
            self.close_connection = True
            raise RequestError(400, "bad request", "the body ended before its Content-Length")
        self._body_pending = False
        return bytes(data)

    def json_body(self) -> object:
        """Return the request's body read as JSON (see `read_body` and `read_json`)."""
        return read_json(self.read_body())

    # -- the machinery ---------------------------------------------------------------------

    def setup(self) -> None:
        super().setup()
        # An answer goes out in one write, at once: without this, Nagle's algorithm and
        # the client's delayed ACK hold each answer on a kept-alive connection ~40 ms.
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile = _DeadlineReader(self.connection)

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        # A header line the parser could not read (``X : y``) ends the headers early and
        # leaves the rest unread, a Content-Length among it: the body would then be read
        # as the next request.  Refuse the request and close the connection.
        if self.headers.defects or self.headers.get_payload():
            self.send_error(400)
            return False
        return True

    def handle_one_request(self) -> None:
        self.rfile.start(getattr(self.server, "request_timeout", REQUEST_TIMEOUT))
        self._body_pending = False
        super().handle_one_request()

    def _dispatch(self) -> None:
        self._body_pending = self.headers.get("Transfer-Encoding") is not None or self.headers.get(
            "Content-Length", "0"
        ).strip() not in {"", "0"}
        try:
            try:
                authority, target = split_target(self.path)
                hosts_sent = self.headers.get_all("Host") or []
                host = request_host(hosts_sent, authority, self.request_version)
            except RequestError:
                self.close_connection = True  # the request is not understood: read no more
                raise
            hosts: Hosts | None = getattr(self.server, "hosts", None)
            wrong = None if hosts is None else hosts.refusal(host)
            if wrong is not None:
                self.close_connection = True
                raise RequestError(400, "wrong host", wrong)
            origins = self.headers.get_all("Origin")
            if hosts is not None and origins and self.command not in _SAFE_METHODS:
                cross = hosts.cross_site(", ".join(origins), host)
                if cross is not None:
                    raise RequestError(403, "another site", cross)
            if self.command not in self.methods:
                raise RequestError(
                    405, "method not allowed", f"{self.command} is not served here; use "
                    + " or ".join(self.methods)
                )  # fmt: skip
            answer = self.respond(self.command, urlsplit(target).path)
        except RequestError as error:
            answer = Response.json(error.body(), error.status)
        except TimeoutError:
            self.close_connection = True
            answer = Response.json(
                {"error": "timeout", "reason": "the request did not arrive in time"}, 408
            )
        except Exception as error:  # a bug: answer 500, log one line, keep serving
            self.close_connection = True
            self._log(f"internal error {type(error).__name__}: {error}")
            answer = Response.json(
                {"error": "internal error", "reason": "the server failed; see its log"}, 500
            )
        self.send(answer)

    def send(self, answer: Response) -> None:
        """Write *answer*; close the connection if part of the request's body is unread."""
        if self._body_pending or answer.status >= 500:
            self.close_connection = True  # the unread body must not be read as a request
        if answer.status == 405:
            answer = attrs.evolve(
                answer, headers=(*answer.headers, ("Allow", ", ".join(self.methods)))
            )
        self.connection.settimeout(WRITE_TIMEOUT)
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        for name, value in (*self.extra_headers, *answer.headers):
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        if self.request_version == "HTTP/0.9":  # no status line, no headers: the body alone
            self.wfile.write(answer.body)
            return
        # The headers and the body in one write (end_headers would write them in two).
        self._headers_buffer.append(b"\r\n" + answer.body)
        self.flush_headers()

    # http.server calls do_<METHOD>: these reach _dispatch, which answers a method not in
    # `methods` with a JSON 405; a method with no do_ here is answered 405 by send_error.
    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def do_PUT(self) -> None:
        self._dispatch()

    def do_DELETE(self) -> None:
        self._dispatch()

    def do_PATCH(self) -> None:
        self._dispatch()

    def do_OPTIONS(self) -> None:
        self._dispatch()

    def do_HEAD(self) -> None:
        self.close_connection = True  # an answer to HEAD has no body: end the exchange here
        self._dispatch()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Answer a request the standard library refused while reading it, in JSON."""
        self.close_connection = True  # the request was not understood: nothing more is read
        self._body_pending = False
        # An unreadable request line leaves the version at HTTP/0.9, which has no status
        # line: answer garbage in HTTP/1.1, so the client sees the status.
        self.request_version = self.protocol_version
        if code == HTTPStatus.NOT_IMPLEMENTED:  # the standard library's "unsupported method"
            command = _UNPRINTABLE.sub("?", self.command or "")[:16]
            methods = " or ".join(self.methods)
            self.send(
                Response.json(
                    {
                        "error": "method not allowed",
                        "reason": f"{command} is not served here; use {methods}",
                    },
                    405,
                )
            )
            return
        try:
            phrase = HTTPStatus(code).phrase.lower()
        except ValueError:
            phrase = "error"
        reason = {
            400: "the request line or its headers are malformed",
            414: f"the request line is longer than {_MAX_LINE} bytes",
            431: "too many headers, or a header line too long",
            505: "only HTTP/1.0 and HTTP/1.1 are served",
        }.get(code, phrase)
        self.send(Response.json({"error": phrase, "reason": reason}, code))

    # -- logging: the method, the path without its query, the status; never a token ----------

    def _log(self, text: str) -> None:
        log = getattr(self.server, "log", None)
        if log is None:
            return
        stamp = time.strftime("%H:%M:%S")
        try:
            log.write(f"{self.client_address[0]} [{stamp}] {text}\n")
            log.flush()
        except (OSError, ValueError):  # a closed log must not stop the table
            pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        command = _UNPRINTABLE.sub("?", getattr(self, "command", "") or "-")[:16]
        path = shown_path(getattr(self, "path", "") or "")
        status = code.value if isinstance(code, HTTPStatus) else code
        self._log(f'"{command} {path}" {status}')

    def log_error(self, format: str, *args: Any) -> None:
        # The standard library's messages quote the raw request line: log only the event.
        if format.startswith("Request timed out"):
            self._log("timed out")

    def log_message(self, format: str, *args: Any) -> None:
        pass  # everything worth logging goes through log_request and _log


_BUSY_BODY = b'{"error": "busy", "reason": "too many connections at once; try again"}'
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY)
)


class JSONServer(ThreadingHTTPServer):
    """A threading HTTP server for a `JSONRequestHandler`, with bounds on connections.

    At most `max_connections` connections are served at once, and at most
    `max_per_client` from one address, so that one client holding connections open
    cannot lock the others out; one more is answered 503 and closed.  Behind a reverse
    proxy every client has the proxy's address: let the proxy limit each client, and
    raise `max_per_client`.  Handler threads are daemons, so a stalled client never delays
    the server's shutdown.  *log* receives the access log (None: no log);
    *request_timeout* is the seconds a request may take to arrive, headers and body.

    It answers only requests whose ``Host`` it serves, against DNS rebinding (a hostile
    page that points a name of its own at this machine), as the web table's server does
    (`~mexican_train.web.WebServer`): on a loopback address, ``localhost`` and loopback
    addresses; on any other, every address, ``localhost``, the name it listens on and
    this machine's name; others get 400 ``{"error": "wrong host"}``.  *allowed_hosts*
    adds names, without a port (``["*"]``: any).  A request other than a GET or a HEAD
    that a page of another site sent gets 403 ``{"error": "another site"}``: its
    ``Origin`` names neither the host and port the request is for nor a name of
    *allowed_hosts* (``["*"]`` allows no other site; a request without ``Origin``, from
    a program, is not refused).  A request with several ``Host``
    headers, a bad one, or none in HTTP/1.1 gets 400 whatever the hosts; one whose
    target is a whole URI (``GET http://localhost:8000/seat/0``) is answered as its path,
    for the URI's host.

    Raises:
        InvalidArgumentError: if *allowed_hosts* is not a list of host names, addresses
            or ``"*"`` (before it listens).

    >>> class Hello(JSONRequestHandler):
    ...     def respond(self, method, path):
    ...         return Response.json({"hello": path})
    ...
    >>> server = JSONServer(("127.0.0.1", 0), Hello, log=None)
    >>> server.server_address[0]
    '127.0.0.1'
    >>> server.server_close()
    """

    daemon_threads = True
    block_on_close = False
    request_queue_size = 1024  # the listen backlog: a burst of connections is not dropped
    #: The most connections served at once.
    max_connections: ClassVar[int] = MAX_CONNECTIONS
    #: The most connections served at once from one address.
    max_per_client: ClassVar[int] = MAX_PER_CLIENT

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[JSONRequestHandler],
        *,
        log: IO[str] | None = sys.stderr,
        request_timeout: float = REQUEST_TIMEOUT,
        allowed_hosts: Collection[str] = (),
    ) -> None:
        #: The ``Host`` headers the server answers.
        self.hosts = Hosts(address[0], checked_hosts(allowed_hosts))
        super().__init__(address, handler)
        self.log = log
        self.request_timeout = request_timeout
        self._active = 0
        self._per_client: dict[str, int] = {}
        self._active_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        client = client_key(str(client_address[0]))
        with self._active_lock:
            held = self._per_client.get(client, 0)
            full = self._active >= self.max_connections or held >= self.max_per_client
            if not full:
                self._active += 1
                self._per_client[client] = held + 1
        if full:
            try:
                request.setblocking(False)
                request.send(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread for it (none left): it is closed, and not counted
            self._release(client)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(client_key(str(client_address[0])))

    def _release(self, client: str) -> None:
        """Count one connection of *client* fewer (`process_request` counted it)."""
        with self._active_lock:
            self._active -= 1
            held = self._per_client.pop(client) - 1
            if held:
                self._per_client[client] = held

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that resets its connection is not news; never print a traceback here.
        error = sys.exc_info()[1]
        if self.log is not None and not isinstance(error, (ConnectionError, TimeoutError)):
            with contextlib.suppress(OSError, ValueError):
                self.log.write(f"{client_address[0]} connection error: {type(error).__name__}\n")
