"""Every HTTP server the project ships withstands hostile requests.

The web table (`mexican_train.web`) and the example server (examples/http_table.py)
share one request layer; each test runs against both, over real sockets on
localhost.  A refused request gets a JSON error and changes nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from websockets.sync.client import connect

from mexican_train import STANDARD, InvalidArgumentError
from mexican_train.players import GreedyPlayer
from mexican_train.web import (
    MAX_JSON_DEPTH,
    REQUEST_TIMEOUT,
    JSONRequestHandler,
    JSONServer,
    RequestError,
    Response,
    WebServer,
    WebTable,
    json_depth,
    read_json,
)
from serving import serving
from strategies import json_values, request_bodies
from test_example_http import _load_example

SOCKET_TIMEOUT = 20.0  # seconds: a server that never answers fails the test, never hangs it
SHORT_TIMEOUT = 0.5  # the request timeout where a test waits for it: short, to keep it quick
# Elsewhere the request timeout is longer: a loaded machine can starve a server's event
# loop for longer than the short timeout, which then closes a connection whose request
# had arrived whole but was not read yet (the client sees a reset, not the answer).
TIMEOUT = 3.0
RULES = attrs.evolve(STANDARD, max_pip=6)


@attrs.frozen
class Target:
    """A running server: where it is, a move request it serves, and how to read its state."""

    name: str
    port: int
    move_path: str
    token: str
    other_token: str
    log: io.StringIO
    server: JSONServer | WebServer
    moves: Any  # () -> int: how many moves the table has applied

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=SOCKET_TIMEOUT)
        return sock


def _web_target(timeout: float) -> tuple[Target, JSONServer | WebServer]:
    table = WebTable(2, RULES, bots={1: GreedyPlayer()}, seed=11)
    log = io.StringIO()
    server = WebServer(("127.0.0.1", 0), table, log=log, request_timeout=timeout)
    table.start()
    token = table.tokens[0]
    target = Target(
        "web", server.server_address[1], "/api/move", token, "x" * len(token), log, server,
        lambda: table.version,
    )  # fmt: skip
    return target, server


def _example_target(timeout: float) -> tuple[Target, JSONServer | WebServer]:
    example = _load_example()
    table = example.Table(2, RULES, seed=11)
    log = io.StringIO()
    server = example.TableServer(("127.0.0.1", 0), table, verbose=True)
    server.log = log
    server.request_timeout = timeout
    seat = table.state.current_player
    target = Target(
        "example", server.server_address[1], f"/seat/{seat}/move", table.tokens[seat],
        table.tokens[1 - seat], log, server, lambda: table.moves_applied,
    )  # fmt: skip
    return target, server


def _serving_target(name: str, timeout: float) -> Iterator[Target]:
    made, server = _web_target(timeout) if name == "web" else _example_target(timeout)
    with serving(server):
        yield made


@pytest.fixture(params=["web", "example"])
def target(request: pytest.FixtureRequest) -> Iterator[Target]:
    yield from _serving_target(request.param, TIMEOUT)


@pytest.fixture(params=["web", "example"])
def timing_target(request: pytest.FixtureRequest) -> Iterator[Target]:
    """A target whose request timeout is SHORT_TIMEOUT, for the tests that wait for it."""
    yield from _serving_target(request.param, SHORT_TIMEOUT)


def _read_all(sock: socket.socket) -> bytes:
    """Read until the server closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def _responses(data: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Split what a server sent into (status, headers, body) answers."""
    answers = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
        length = int(headers.get("content-length", "0"))
        answers.append((status, headers, rest[:length]))
        data = rest[length:]
    return answers


def _exchange(target: Target, raw: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Send *raw* bytes, read every answer until the server closes, and return them."""
    with target.connect() as sock:
        sock.sendall(raw)
        return _responses(_read_all(sock))


def _post(target: Target, headers: str, body: bytes = b"") -> bytes:
    return (
        f"POST {target.move_path} HTTP/1.1\r\nHost: localhost\r\n"
        f"Authorization: Bearer {target.token}\r\n{headers}\r\n"
    ).encode() + body


def _json_error(answer: tuple[int, dict[str, str], bytes]) -> dict[str, Any]:
    status, headers, body = answer
    assert headers["content-type"] == "application/json", (status, body)
    data = json.loads(body)
    assert set(data) == {"error", "reason"}
    return dict(data)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.nip.io"])
def test_a_move_for_a_host_not_served_is_refused_and_changes_nothing(
    target: Target, host: str
) -> None:
    """Against DNS rebinding: a page that points its own name at 127.0.0.1 is not served."""
    before = target.moves()
    raw = _post(target, "Content-Type: application/json\r\nContent-Length: 6\r\n", b'"draw"')
    (answer,) = _exchange(target, raw.replace(b"Host: localhost", f"Host: {host}".encode()))
    assert answer[0] == 400
    refused = _json_error(answer)
    assert refused["error"] == "wrong host"
    assert repr(host.partition(":")[0]) in refused["reason"]
    assert answer[1]["connection"] == "close"
    assert target.moves() == before


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:8000", "null"])
def test_a_move_a_page_of_another_site_sent_is_refused_and_changes_nothing(
    target: Target, origin: str
) -> None:
    """Against cross-site request forgery: a page elsewhere may POST to a server here."""
    before = target.moves()
    body = b'"draw"'
    raw = _post(target, f"Origin: {origin}\r\nContent-Length: {len(body)}\r\n", body)
    (answer, *_) = _exchange(target, raw + b"GET /x HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert answer[0] == 403, answer
    refused = _json_error(answer)
    assert refused["error"] == "another site"
    assert repr(origin) in refused["reason"]
    assert target.moves() == before


def test_a_page_of_the_server_may_post_and_another_site_may_read() -> None:
    """The server's own page (its Origin the host and port the request is for) is not
    refused, nor is a GET from another site, which changes nothing."""
    server = JSONServer(("127.0.0.1", 0), _Hello, log=None, allowed_hosts=["table.example.org"])
    with serving(server):
        port = server.server_address[1]
        for method, origin, status in (
            ("POST", f"http://localhost:{port}", 200),
            ("POST", "https://table.example.org", 200),
            ("POST", f"http://localhost:{port + 1}", 403),
            ("GET", "http://evil.example", 200),
        ):
            raw = (
                f"{method} /x HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: {origin}\r\n"
                "Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
            with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
                sock.sendall(raw.encode())
                ((got, _, _),) = _responses(_read_all(sock))
            assert got == status, (method, origin)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost:{port}", "127.0.0.1:{port}", "[::1]"])
def test_a_request_for_a_loopback_host_is_served(target: Target, host: str) -> None:
    raw = f"GET /nowhere HTTP/1.1\r\nHost: {host.format(port=target.port)}\r\nConnection: close\r\n\r\n"
    (answer,) = _exchange(target, raw.encode())
    assert answer[0] != 400, answer


def test_a_json_server_answers_the_hosts_it_is_told_too() -> None:
    server = JSONServer(("127.0.0.1", 0), _Hello, log=None, allowed_hosts=["table.example.org"])
    with serving(server):
        port = server.server_address[1]
        for host, status in (("table.example.org", 200), ("other.example.org", 400)):
            raw = f"GET /x HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
            with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
                sock.sendall(raw.encode())
                ((got, _, _),) = _responses(_read_all(sock))
            assert got == status, host


@pytest.mark.parametrize("allowed", ["table.example.org", ["a b"], ["x.org:80"], [3]])
def test_a_json_server_refuses_allowed_hosts_that_are_no_names_before_it_listens(
    allowed: Any,
) -> None:
    with pytest.raises(InvalidArgumentError, match="allowed_hosts"):
        JSONServer(("127.0.0.1", 0), _Hello, log=None, allowed_hosts=allowed)


def _view_path(target: Target) -> str:
    """The path where *target* answers a seat's view to its token (a GET)."""
    return target.move_path.replace("/move", "") if target.name == "example" else "/api/view"


def _view(target: Target, headers: str, path: str | None = None, version: str = "1.1") -> bytes:
    """A GET of the seat's view with *headers* (each line ending in CRLF), closing after."""
    return (
        f"GET {path or _view_path(target)} HTTP/{version}\r\n{headers}Connection: close\r\n\r\n"
    ).encode()


@pytest.mark.parametrize(
    "hosts",
    [("localhost", "evil.example"), ("evil.example", "localhost"), ("localhost", "localhost")],
)
def test_several_host_headers_are_refused_and_change_nothing(
    target: Target, hosts: tuple[str, str]
) -> None:
    """RFC 9112 §3.2: a request names its host once.  Of two, the Host check and the
    application could each take another: one of a page's own name would pass."""
    raw = _post(target, "Content-Type: application/json\r\nContent-Length: 6\r\n", b'"draw"')
    twice = "".join(f"Host: {host}\r\n" for host in hosts).encode()
    (answer,) = _exchange(target, raw.replace(b"Host: localhost\r\n", twice))
    assert answer[0] == 400
    assert _json_error(answer) == {
        "error": "bad request",
        "reason": "send one Host header, not several: which host the request is for is not known",
    }
    assert answer[1]["connection"] == "close"
    assert target.moves() == 0


def test_an_http_11_request_without_a_host_header_is_refused(target: Target) -> None:
    """RFC 9112 §3.2; an HTTP/1.0 request without one (no browser's) is answered."""
    auth = f"Authorization: Bearer {target.token}\r\n"
    (answer,) = _exchange(target, _view(target, auth))
    assert answer[0] == 400
    assert "in a Host header" in _json_error(answer)["reason"]
    ((status, _, _),) = _exchange(target, _view(target, auth, version="1.0"))
    assert status == 200


@pytest.mark.parametrize("host", ["", "a b", "local host:80", "localhost:8o"])
def test_a_host_header_that_names_no_host_is_refused_even_where_any_host_is_served(
    host: str,
) -> None:
    """RFC 9112 §3.2: a Host that is not a host and an optional port is a 400, whatever
    hosts the server answers (``*``: any)."""
    table = WebTable(2, RULES, bots={1: GreedyPlayer()}, seed=11)
    makers: list[Callable[[], WebServer | JSONServer]] = [
        lambda: WebServer(("127.0.0.1", 0), table, log=None, allowed_hosts=["*"]),
        lambda: JSONServer(("127.0.0.1", 0), _Hello, log=None, allowed_hosts=["*"]),
    ]
    for make in makers:
        with serving(make()) as server:
            raw = f"GET /favicon.svg HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            ((status, _, body),) = _exchange_raw(server.server_address[1], raw.encode())
            assert status == 400, server
            reason = json.loads(body)["reason"]
            assert reason.startswith("the Host header is a host and an optional port"), reason
            assert repr(host) in reason


def test_several_authorization_headers_are_refused(target: Target) -> None:
    """Two tokens in one request: which seat it speaks for is not known, whichever comes
    first."""
    for first, second in ((target.token, target.other_token), (target.other_token, target.token)):
        auth = f"Host: localhost\r\nAuthorization: Bearer {first}\r\nAuthorization: Bearer {second}\r\n"
        (answer,) = _exchange(target, _view(target, auth))
        assert answer[0] == 400
        assert _json_error(answer) == {
            "error": "bad request",
            "reason": "send one Authorization header, not several: whose token it is is not known",
        }


def test_a_target_in_absolute_form_is_served_as_its_path_and_logged_as_sent(
    target: Target,
) -> None:
    """RFC 9112 §3.2.2: a server accepts ``GET http://host:port/path`` as it does the path."""
    auth = f"Host: localhost\r\nAuthorization: Bearer {target.token}\r\n"
    ((status, _, plain),) = _exchange(target, _view(target, auth))
    absolute = f"http://localhost:{target.port}{_view_path(target)}"
    ((status, _, body),) = _exchange(target, _view(target, auth, absolute))
    assert status == 200
    assert json.loads(body) == json.loads(plain)
    assert f'"GET {absolute}" 200' in target.log.getvalue()


def test_a_target_in_absolute_form_names_the_host_checked(target: Target) -> None:
    """RFC 9112 §3.2.2: the target's host takes the place of the Host header's: a host the
    server does not serve is refused as a wrong Host is, and the Host header is ignored."""
    path = _view_path(target)
    auth = f"Authorization: Bearer {target.token}\r\n"
    (wrong,) = _exchange(
        target, _view(target, f"Host: localhost\r\n{auth}", f"http://evil.example{path}")
    )
    assert wrong[0] == 400
    refused = _json_error(wrong)
    assert refused["error"] == "wrong host"
    assert "'evil.example'" in refused["reason"]
    served = f"http://127.0.0.1:{target.port}{path}"
    ((status, _, _),) = _exchange(target, _view(target, f"Host: evil.example\r\n{auth}", served))
    assert status == 200


@pytest.mark.parametrize(
    "url", ["ftp://localhost/x", "http://ann@localhost/x", "http:///x", "http://[zz]/x"]
)
def test_a_target_in_absolute_form_that_is_no_http_uri_of_a_host_is_refused(
    target: Target, url: str
) -> None:
    (answer,) = _exchange(target, _view(target, "Host: localhost\r\n", url))
    assert answer[0] == 400
    assert _json_error(answer)["reason"].startswith("the target")


@pytest.mark.parametrize(
    ("method", "target_sent"),
    [("CONNECT", "x:80"), ("CONNECT", "localhost:80"), ("BREW", "/nowhere"), ("PUT", "/"),
     ("OPTIONS", "*")],
)  # fmt: skip
def test_a_method_served_nowhere_is_a_405_logged_as_sent(
    target: Target, method: str, target_sent: str
) -> None:
    """CONNECT, and any method the server serves for no resource: 405 with Allow, and the
    log shows the target as it came (``CONNECT x:80``, not a path cut out of it)."""
    raw = f"{method} {target_sent} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    ((status, headers, body),) = _exchange(target, raw.encode())
    assert status == 405
    assert "GET" in headers["allow"].split(", ")
    assert json.loads(body)["error"] == "method not allowed"
    assert f'"{method} {target_sent}" 405' in target.log.getvalue()


@pytest.mark.parametrize("sent", ["/a%20b%3Fc", "/caf%C3%A9"])
def test_a_target_is_logged_as_sent_its_escapes_kept(target: Target, sent: str) -> None:
    """The log shows a target's percent escapes as they came, by both servers: decoded,
    ``%3F`` would read as a query, and a space or a UTF-8 letter as ``?``."""
    raw = f"GET {sent} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    ((status, _, _),) = _exchange(target, raw.encode())
    assert status == 404
    assert f'"GET {sent}" 404' in target.log.getvalue()


def test_a_body_without_content_length_is_refused(target: Target) -> None:
    """A POST with no Content-Length: 411 in JSON, the connection closed, nothing played."""
    answers = _exchange(target, _post(target, "") + b'{"move": "draw"}')
    assert [a[0] for a in answers] == [411]
    assert _json_error(answers[0])["error"] == "length required"
    assert target.moves() == 0


@pytest.mark.parametrize("length", ["-1", "-100", "+5", "0x10", "1e3", "", "99999999999999999"])
def test_a_bad_content_length_is_refused(target: Target, length: str) -> None:
    """A negative, signed, hexadecimal or absurd Content-Length is a 4xx in JSON, once."""
    answers = _exchange(target, _post(target, f"Content-Length: {length}\r\n") + b"{}")
    assert len(answers) == 1
    assert answers[0][0] in {400, 411, 413}
    _json_error(answers[0])
    assert target.moves() == 0


def test_two_content_lengths_are_refused(target: Target) -> None:
    raw = _post(target, "Content-Length: 2\r\nContent-Length: 5\r\n") + b"{}"
    answers = _exchange(target, raw)
    assert [a[0] for a in answers] == [400]


def test_a_chunked_body_is_refused_and_not_read_as_a_request(target: Target) -> None:
    """Transfer-Encoding: chunked is refused; the chunk never reaches the router."""
    smuggled = (
        f"GET /api/view HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n"
    )
    body = f"{len(smuggled):x}\r\n{smuggled}\r\n0\r\n\r\n".encode()
    answers = _exchange(target, _post(target, "Transfer-Encoding: chunked\r\n") + body)
    assert [a[0] for a in answers] == [411]
    assert answers[0][1]["connection"] == "close"


def test_an_early_error_closes_the_connection_before_the_body(target: Target) -> None:
    """A refused request's unread body is never parsed as the next request."""
    smuggled = f"GET /api/view HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n".encode()
    raw = (
        f"POST {target.move_path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.other_token}\r\n"
        f"Content-Length: {len(smuggled)}\r\n\r\n"
    ).encode() + smuggled
    answers = _exchange(target, raw)
    assert [a[0] for a in answers] == [403]
    assert answers[0][1]["connection"] == "close"


def test_a_malformed_header_line_is_refused_and_its_body_never_read(target: Target) -> None:
    """``X : y`` would end the headers early: the Content-Length after it must not be lost."""
    smuggled = f"GET /api/view HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n".encode()
    raw = _post(target, f"X : y\r\nContent-Length: {len(smuggled)}\r\n") + smuggled
    answers = _exchange(target, raw)
    assert [a[0] for a in answers] == [400]
    assert answers[0][1]["connection"] == "close"
    _json_error(answers[0])
    assert target.moves() == 0


def test_an_oversized_body_is_refused_unread(target: Target) -> None:
    raw = _post(target, "Content-Length: 200000000\r\n") + b"[" * 1000
    answers = _exchange(target, raw)
    assert [a[0] for a in answers] == [413]
    assert target.moves() == 0


def test_json_nested_thousands_deep_is_a_400(target: Target) -> None:
    """Deep JSON is refused before it is parsed: no RecursionError."""
    body = b'{"move": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    raw = _post(target, f"Content-Length: {len(body)}\r\nConnection: close\r\n")
    answers = _exchange(target, raw[:0] + raw + body)
    assert answers[0][0] in {400, 413}  # the example reads at most 16 KiB
    _json_error(answers[0])
    deep = b'{"move": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    answers = _exchange(
        target, _post(target, f"Content-Length: {len(deep)}\r\nConnection: close\r\n") + deep
    )
    assert answers[0][0] == 400
    assert "nests" in _json_error(answers[0])["reason"]


@pytest.mark.parametrize(
    "body",
    [b"\xff\xfe{}", b'{"move": NaN}', b'{"move": ' + b"9" * 5000 + b"}", b"{", b""],
    ids=["not-utf8", "nan", "huge-int", "truncated", "empty"],
)
def test_malformed_json_is_a_400(target: Target, body: bytes) -> None:
    raw = _post(target, f"Content-Length: {len(body)}\r\nConnection: close\r\n") + body
    answers = _exchange(target, raw)
    assert answers[0][0] == 400
    _json_error(answers[0])
    assert target.moves() == 0


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "BREW", "HEAD"])
def test_other_methods_are_a_json_405(target: Target, method: str) -> None:
    """PUT, DELETE and the rest: 405 with an Allow header and a JSON body, not HTML 501."""
    raw = f"{method} {target.move_path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    answers = _exchange(target, raw)
    assert answers[0][0] == 405
    assert "POST" in answers[0][1]["allow"]
    if method != "HEAD":
        _json_error(answers[0])


@pytest.mark.parametrize(
    "raw",
    [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: localhost\r\n" + b"X-A: b\r\n" * 200 + b"\r\n",
        b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n",
    ],
    ids=["garbage", "version", "long-line", "many-headers", "long-header"],
)
def test_a_malformed_request_gets_a_json_error(target: Target, raw: bytes) -> None:
    answers = _exchange(target, raw)
    assert len(answers) == 1
    assert 400 <= answers[0][0] < 600
    _json_error(answers[0])


def test_a_query_of_many_fields_is_a_400(target: Target) -> None:
    get = target.move_path.replace("/move", "") if target.name == "example" else "/api/view"
    query = "&".join(f"f{i}=1" for i in range(40))
    raw = f"GET {get}?{query} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n"
    answers = _exchange(
        target, raw.encode() + b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    assert [a[0] for a in answers] == [400, 200]
    assert "16 fields" in _json_error(answers[0])["reason"]


def test_a_refusal_before_the_route_carries_the_common_headers_and_is_logged(
    target: Target,
) -> None:
    get = target.move_path.replace("/move", "") if target.name == "example" else "/api/view"
    query = "&".join(f"f{i}=1" for i in range(40))
    raw = f"GET {get}?{query} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    ((status, headers, _),) = _exchange(target, raw.encode())
    assert status == 400
    assert headers["cache-control"] == "no-store"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert f'"GET {get}?<query>" 400' in target.log.getvalue()


def test_a_body_the_server_does_not_read_ends_the_exchange_after_the_answer(
    target: Target,
) -> None:
    """A body sent with a GET is not read: however long it says it is, the answer closes
    the connection rather than reading the body to its end (or to the request's deadline)."""
    get = target.move_path.replace("/move", "") if target.name == "example" else "/api/view"
    raw = (
        f"GET {get} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n"
        "Content-Length: 1000000000\r\n\r\n"
    ).encode() + b"x" * 100_000
    answers = _exchange(target, raw)
    assert [(status, headers.get("connection")) for status, headers, _ in answers] == [
        (200, "close")
    ]


def test_stalled_headers_time_out(timing_target: Target) -> None:
    """A client that never finishes its headers is disconnected (REQUEST_TIMEOUT)."""
    with timing_target.connect() as sock:
        sock.sendall(
            b"GET / HTTP/1.1\r\nHost: localhost\r\nHost: x\r\n"
        )  # and never the blank line
        assert _read_all(sock) == b""  # closed by the server, not by our SOCKET_TIMEOUT


def test_a_slow_drip_of_headers_times_out(timing_target: Target) -> None:
    """One byte at a time does not keep a connection alive: the deadline is per request."""
    closed = False
    with timing_target.connect() as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(200):  # 200 bytes, 0.05 s apart: 10 s, far beyond the 0.5 s deadline
            try:
                sock.sendall(b"X")
            except OSError:  # the server closed the connection: a reset
                closed = True
                break
            time.sleep(0.05)
            sock.setblocking(False)
            try:
                if sock.recv(1) == b"":
                    closed = True
                    break
            except BlockingIOError:
                pass
            except OSError:
                closed = True
                break
            finally:
                sock.setblocking(True)
    assert closed


def test_a_stalled_body_times_out_with_a_408(timing_target: Target) -> None:
    with timing_target.connect() as sock:
        sock.sendall(_post(timing_target, "Content-Length: 50\r\n") + b'{"move"')
        answers = _responses(_read_all(sock))
    assert [a[0] for a in answers] == [408]
    assert timing_target.moves() == 0


def test_tokens_are_never_logged(target: Target) -> None:
    """Neither a header's token nor one put in the URL appears in the access log."""
    get = target.move_path.replace("/move", "") if target.name == "example" else "/api/view"
    raw = (
        f"GET {get}?token={target.token} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n"
        f"GET {get} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {target.token}\r\n\r\n"
        f"GET /{target.token} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        f"GET {get}?token={target.token} HTTP/1.1\r\nHost: localhost\r\n\r\n"
    ).encode()
    answers = _exchange(target, raw)
    assert [a[0] for a in answers] == [400, 200, 404]
    log = target.log.getvalue()
    assert log.count("\n") >= 3
    assert target.token not in log


def test_the_timeout_is_five_seconds_by_default() -> None:
    assert REQUEST_TIMEOUT == 5.0
    server = JSONServer(("127.0.0.1", 0), JSONRequestHandler, log=None)
    try:
        assert server.request_timeout == REQUEST_TIMEOUT
    finally:
        server.server_close()


def test_connections_past_the_bound_are_answered_503() -> None:
    """Over max_connections, a new connection gets a JSON 503 at once and is closed; a
    connection closed frees its place."""

    class Small(JSONServer):
        max_connections = 2

    server = Small(("127.0.0.1", 0), _Hello, log=None)
    port = server.server_address[1]
    hello = b"GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    with serving(server), _refused_past(2, "127.0.0.1", port) as held:
        held.pop().close()
        assert _wait_for(lambda: [a[0] for a in _exchange_raw(port, hello)] == [200])


def test_one_client_cannot_take_every_connection() -> None:
    """Past max_per_client, one address gets 503 while another is still served."""

    class Small(JSONServer):
        max_per_client = 2

    server = Small(("127.0.0.1", 0), _Hello, log=None)
    port = server.server_address[1]
    hello = b"GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    with serving(server), _refused_past(2, "127.0.0.2", port) as held:
        with _connect_from("127.0.0.1", port) as other:
            other.sendall(hello)
            assert [a[0] for a in _responses(_read_all(other))] == [200]
        held.pop().close()  # a connection closed frees its place for the same client
        assert _wait_for(lambda: server._per_client.get("127.0.0.2") == 1)
        with _connect_from("127.0.0.2", port) as again:
            again.sendall(hello)
            assert [a[0] for a in _responses(_read_all(again))] == [200]


def test_a_connection_whose_thread_cannot_start_is_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A connection the server has no thread for (the process has none left) is closed,
    and frees its place: its client is not refused for good as past its cap."""

    class One(JSONServer):
        max_per_client = 1

    server = One(("127.0.0.1", 0), _Hello, log=None)
    port = server.server_address[1]
    hello = b"GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    real = threading.Thread.start
    failed: list[threading.Thread] = []

    def start(thread: threading.Thread) -> None:
        target = getattr(thread, "_target", None)
        if not failed and getattr(target, "__name__", "") == "process_request_thread":
            failed.append(thread)
            raise RuntimeError("can't start new thread")
        real(thread)

    with serving(server):
        monkeypatch.setattr(threading.Thread, "start", start)
        assert _exchange_raw(port, hello) == []  # closed, unanswered
        assert failed
        assert [a[0] for a in _exchange_raw(port, hello)] == [200]


def test_answers_go_out_at_once_in_one_write() -> None:
    """TCP_NODELAY is set, and a kept-alive connection gets each answer whole."""
    seen: list[int] = []

    class Probe(JSONRequestHandler):
        def respond(self, method: str, path: str) -> Response:
            seen.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            return Response.json({"path": path})

    server = JSONServer(("127.0.0.1", 0), Probe, log=None)
    with serving(server):
        request = b"GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n"
        answers = _exchange_raw(
            server.server_address[1],
            request * 3 + b"GET /b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        )
        assert [json.loads(a[2])["path"] for a in answers] == ["/a", "/a", "/a", "/b"]
        assert len(seen) == 4
        assert all(seen)


class _Hello(JSONRequestHandler):
    def respond(self, method: str, path: str) -> Response:
        return Response.json({"hello": path})


@contextlib.contextmanager
def _refused_past(count: int, address: str, port: int) -> Iterator[list[socket.socket]]:
    """Hold *count* connections from *address*, each mid-request (so being served), and
    check that one more from it is refused with a JSON 503; yield the held ones, closed
    after."""
    held = [_connect_from(address, port) for _ in range(count)]
    try:
        for sock in held:  # each waits for the rest of its request
            sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        with _connect_from(address, port) as extra:
            answers = _responses(_read_all(extra))
        assert [a[0] for a in answers] == [503]
        assert json.loads(answers[0][2])["error"] == "busy"
        yield held
    finally:
        for sock in held:
            sock.close()


def _connect_from(address: str, port: int) -> socket.socket:
    """Connect to the server from *address*, one of the loopback range's many addresses."""
    return socket.create_connection(("127.0.0.1", port), SOCKET_TIMEOUT, (address, 0))


def _exchange_raw(port: int, raw: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
        sock.sendall(raw)
        return _responses(_read_all(sock))


def _wait_for(condition: Any) -> bool:
    """Wait (at most SOCKET_TIMEOUT) until *condition()* holds; return whether it did."""
    end = time.monotonic() + SOCKET_TIMEOUT
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


# -- the JSON reader alone ---------------------------------------------------------------------


def test_json_depth_ignores_brackets_in_strings() -> None:
    assert json_depth('["[[[[", "\\"[[["]') == 1
    assert json_depth("[" * 40) == 40


def test_json_depth_reads_escaped_quotes_in_one_pass() -> None:
    """A body of escaped quotes (the worst case of a backtracking scan) is counted right."""
    body = '"' + '\\"' * 8000 + '"'
    assert json_depth(f"[{body}, [[{body}]]]") == 3
    assert json_depth('["' + '\\"' * 8000 + "[[") == 1  # a string never closed holds the rest
    assert json_depth('["\\\\", []]') == 2  # an escaped backslash ends no string early


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@given(json_values())
def test_json_depth_is_the_nesting_of_any_json_value(value: object) -> None:
    assert json_depth(json.dumps(value)) == _depth(value)


@given(request_bodies())
def test_read_json_lets_only_a_request_error_out(body: bytes) -> None:
    """Whatever the body, read_json returns a value or raises RequestError (400), nothing else."""
    refused: RequestError | None = None
    try:
        value = read_json(body)
    except RequestError as error:
        refused = error
    if refused is None:
        assert _depth(value) <= MAX_JSON_DEPTH
    else:
        assert refused.status == 400
        assert refused.reason


def test_read_json_refuses_depth_beyond_the_bound() -> None:
    nested = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    with pytest.raises(RequestError, match="nests 33 deep") as caught:
        read_json(nested.encode())
    assert caught.value.status == 400
    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert read_json(ok.encode()) is not None


def test_the_example_uses_the_shared_layer() -> None:
    """One hardened layer for every server: the example builds on mexican_train.web."""
    example = _load_example()
    assert issubclass(example.Handler, JSONRequestHandler)
    assert issubclass(example.TableServer, JSONServer)
    assert "from mexican_train.web import" in Path(str(example.__file__)).read_text()


def test_one_client_cannot_take_every_connection_of_the_web_table() -> None:
    """The web table's guard: past max_per_client, one address waits for its deadline and
    gets 503, while another is served."""
    table = WebTable(2, RULES, bots={1: GreedyPlayer()}, seed=11)
    server = WebServer(
        ("127.0.0.1", 0), table, log=None, max_per_client=2, request_timeout=SHORT_TIMEOUT
    )
    port = server.server_address[1]
    page = b"GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    with serving(server), _refused_past(2, "127.0.0.2", port) as held:
        with _connect_from("127.0.0.1", port) as other:
            other.sendall(page)
            assert [a[0] for a in _responses(_read_all(other))] == [200]
        held.pop().close()  # a connection closed frees its place for the same client

        def served_again() -> bool:
            with _connect_from("127.0.0.2", port) as again:
                again.sendall(page)
                return [a[0] for a in _responses(_read_all(again))] == [200]

        assert _wait_for(served_again)


def test_a_client_that_never_reads_its_answers_is_dropped_at_the_deadline() -> None:
    """Answers that a client leaves unread fill the connection's buffers; the server
    waits at most its request timeout for them to drain, then drops the connection,
    which stops counting towards its client's cap."""
    table = WebTable(2, RULES, bots={1: GreedyPlayer()}, seed=11)
    server = WebServer(
        ("127.0.0.1", 0), table, log=None, max_per_client=1, request_timeout=SHORT_TIMEOUT
    )
    port = server.server_address[1]
    page = b"GET /table.js HTTP/1.1\r\nHost: localhost\r\n\r\n"
    with serving(server):
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # it fills at once
        stalled.bind(("127.0.0.3", 0))
        stalled.connect(("127.0.0.1", port))
        with stalled:
            stalled.sendall(page * 400)  # megabytes of answers, never read

            def served_again() -> bool:  # refused (503, or reset) while the stalled one counts
                with _connect_from("127.0.0.3", port) as again:
                    again.sendall(page.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
                    try:
                        return [a[0] for a in _responses(_read_all(again))] == [200]
                    except ConnectionResetError:
                        return False

            assert _wait_for(served_again)


def test_a_socket_that_never_reads_its_documents_is_dropped_at_the_deadline() -> None:
    """A page's WebSocket that reads nothing of the documents pushed to it is dropped
    once its buffers are full and its client has not read for the request timeout."""
    table = WebTable(3, RULES, bots={2: GreedyPlayer()}, seed=11)
    server = WebServer(("127.0.0.1", 0), table, log=None, request_timeout=SHORT_TIMEOUT)
    port = server.server_address[1]
    with serving(server):
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", port))
        # The client's library stops reading once a few messages wait unread.
        with connect(f"ws://127.0.0.1:{port}/api/ws", sock=stalled, max_queue=1) as page:
            page.send(json.dumps({"token": table.tokens[0]}))
            assert _wait_for(lambda: table.connected[0])

            # Megabytes of documents fill the buffers: a few seconds, more on a loaded machine.
            end = time.monotonic() + 60
            while table.connected[0] and time.monotonic() < end:
                table.arrive(1)  # seat 1 comes and goes: a document pushed each time
                table.leave(1)
            assert not table.connected[0]


class _Peer:
    """A transport from *address*, as the guard of the web table's server reads one."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.paused = False

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 0, 0, 0) if name == "peername" else None

    def pause_reading(self) -> None:
        self.paused = True


def test_the_connections_of_an_ipv6_network_count_as_one_client() -> None:
    """The cap per client counts an IPv6 address as its /64: one host is commonly given
    a whole /64, and each address of it would otherwise be another client."""
    import asyncio

    from mexican_train._frontends.app import _Guard

    guard = _Guard(per_client=1, deadline=60.0)
    loop = asyncio.new_event_loop()
    try:
        first = guard.admit(_Peer("2001:db8::1"), loop)  # type: ignore[arg-type]
        same = _Peer("2001:db8::2")
        assert guard.admit(same, loop) is None  # type: ignore[arg-type]
        assert same.paused  # it waits, unread, for its deadline
        assert guard.admit(_Peer("2001:db8:0:1::1"), loop) is not None  # type: ignore[arg-type]
        guard.release(first)
        assert guard.admit(_Peer("2001:db8::2"), loop) is not None  # type: ignore[arg-type]
    finally:
        loop.close()
