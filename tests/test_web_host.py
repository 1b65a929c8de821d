"""The web server answers only requests for a host it serves: no DNS rebinding.

A hostile page can point a name of its own at 127.0.0.1; the browser then sends that
name in the ``Host`` header.  A server on a loopback address answers only requests for
a loopback name; one on every interface those for an address, ``localhost``, this
machine's name, and the names given in ``allowed_hosts``.
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from mexican_train import STANDARD, InvalidArgumentError
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable, lobby_table
from serving import serving

TIMEOUT = 20.0  # seconds: a server that never answers fails the test, never hangs it


@pytest.fixture
def server() -> Iterator[WebServer]:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(("127.0.0.1", 0), table, log=None, lobby=lobby_table)
    with serving(made):
        yield made


def _get(server: WebServer, path: str, host: str | None) -> tuple[int, dict[str, Any] | bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=TIMEOUT)
    try:
        connection.putrequest("GET", path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        answer = connection.getresponse()
        body = answer.read()
        if answer.getheader("Content-Type", "").startswith("application/json"):
            return answer.status, json.loads(body)
        return answer.status, body
    finally:
        connection.close()


def _post_table(
    server: WebServer, host: str, origin: str | None = None, kind: str = "application/json"
) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=TIMEOUT)
    try:
        body = b'{"players": 2, "people": 1}'
        connection.putrequest("POST", "/api/tables", skip_host=True)
        connection.putheader("Host", host)
        if origin is not None:
            connection.putheader("Origin", origin)
        connection.putheader("Content-Type", kind)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_a_loopback_server_refuses_a_host_it_does_not_serve(server: WebServer, host: str) -> None:
    status, answer = _get(server, "/api/lobby", host)
    assert status == 400
    assert isinstance(answer, dict)
    assert answer["error"] == "wrong host"
    assert "localhost" in answer["reason"]
    assert repr(host.partition(":")[0]) in answer["reason"]


def test_a_loopback_server_makes_no_table_for_a_host_it_does_not_serve(server: WebServer) -> None:
    assert _post_table(server, "evil.example") == 400
    assert len(server.tables) == 1
    assert _post_table(server, f"127.0.0.1:{server.server_address[1]}") == 200
    assert len(server.tables) == 2


def test_a_loopback_server_refuses_the_page_to_a_host_it_does_not_serve(
    server: WebServer,
) -> None:
    status, _ = _get(server, "/", "evil.example")
    assert status == 400


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:{port}", "localhost", "LOCALHOST:{port}", "[::1]",
             "[::1]:{port}", "localhost."],
)  # fmt: skip
def test_a_loopback_server_answers_loopback_hosts(server: WebServer, host: str) -> None:
    status, _ = _get(server, "/api/lobby", host.format(port=server.server_address[1]))
    assert status == 200


def test_a_loopback_servers_websocket_refuses_a_host_it_does_not_serve(
    server: WebServer,
) -> None:
    port = server.server_address[1]
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://evil.example:{port}/api/ws", sock=sock, open_timeout=TIMEOUT).close()
    assert refused.value.response.status_code == 400
    assert json.loads(refused.value.response.body)["error"] == "wrong host"


def test_a_loopback_servers_websocket_opens_for_localhost(server: WebServer) -> None:
    port = server.server_address[1]
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    with connect(f"ws://localhost:{port}/api/ws", sock=sock, open_timeout=TIMEOUT) as opened:
        opened.send(json.dumps({"token": server.table.tokens[0]}))
        assert json.loads(opened.recv(timeout=TIMEOUT))["seat"] == 0


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://localhost:{other}", "file://",
               "http://127.0.0.1.evil.example:{port}", "http://localhost:{port}, http://evil.example"],
)  # fmt: skip
def test_a_page_of_another_site_makes_no_table_in_the_lobby(server: WebServer, origin: str) -> None:
    # A form's POST (text/plain) is sent cross-site without asking the server first.
    port = server.server_address[1]
    sent = origin.format(port=port, other=port + 1)
    assert _post_table(server, f"localhost:{port}", sent, "text/plain") == 403
    assert len(server.tables) == 1


@pytest.mark.parametrize(
    ("host", "origin"),
    [("localhost:{port}", "http://localhost:{port}"), ("127.0.0.1:{port}", "http://127.0.0.1:{port}"),
     ("LocalHost:{port}", "http://localhost:{port}"), ("[::1]:{port}", "http://[::1]:{port}"),
     ("localhost", "http://localhost"), ("localhost:80", "http://localhost"),
     ("localhost:{port}", None)],
)  # fmt: skip
def test_the_servers_own_page_makes_tables(
    server: WebServer, host: str, origin: str | None
) -> None:
    port = server.server_address[1]
    sent = None if origin is None else origin.format(port=port)
    assert _post_table(server, host.format(port=port), sent) == 200


def test_a_page_of_another_site_opens_no_websocket(server: WebServer) -> None:
    port = server.server_address[1]
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    with pytest.raises(InvalidStatus) as refused:
        connect(
            f"ws://localhost:{port}/api/ws",
            sock=sock,
            origin=Origin("http://evil.example"),
            open_timeout=TIMEOUT,
        ).close()
    assert refused.value.response.status_code == 403
    answer = json.loads(refused.value.response.body)
    assert answer["error"] == "another site"
    assert "'http://evil.example'" in answer["reason"]
    own = f"http://localhost:{port}"
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    with connect(
        f"ws://localhost:{port}/api/ws",
        sock=sock,
        origin=Origin(own),
        open_timeout=TIMEOUT,
    ) as opened:
        opened.send(json.dumps({"token": server.table.tokens[0]}))
        assert json.loads(opened.recv(timeout=TIMEOUT))["seat"] == 0


def test_a_proxys_name_in_allowed_hosts_is_a_site_of_the_servers_own() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(
        ("127.0.0.1", 0), table, log=None, lobby=lobby_table, allowed_hosts=["table.example.org"]
    )
    with serving(made):
        host = f"127.0.0.1:{made.server_address[1]}"  # a proxy that passes its own Host on
        assert _post_table(made, host, "https://table.example.org") == 200
        assert _post_table(made, host, "https://evil.example") == 403


def test_allowed_hosts_adds_a_proxys_name() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(("127.0.0.1", 0), table, log=None, allowed_hosts=["Table.Example.org"])
    with serving(made):
        assert _get(made, "/api/lobby", "table.example.org")[0] == 404  # served: no lobby
        assert _get(made, "/api/lobby", "127.0.0.1")[0] == 404
        assert _get(made, "/api/lobby", "evil.example")[0] == 400


def test_allowed_hosts_star_answers_any_host() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(("127.0.0.1", 0), table, log=None, allowed_hosts=["*"])
    with serving(made):
        assert _get(made, "/api/lobby", "evil.example")[0] == 404


def test_a_server_on_every_interface_answers_addresses_and_its_machines_name() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(("0.0.0.0", 0), table, log=None)
    with serving(made):
        for host in ["192.168.1.20", "10.0.0.7:8000", "[fe80::1]", "localhost",
                     socket.gethostname()]:  # fmt: skip
            assert _get(made, "/api/lobby", host)[0] == 404, host
        assert _get(made, "/api/lobby", "evil.example")[0] == 400


@pytest.mark.parametrize("hosts", ["localhost", [""], ["evil example"], [3], ["a:80"]])
def test_allowed_hosts_must_be_host_names(hosts: object) -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    with pytest.raises(InvalidArgumentError, match="allowed_hosts"):
        WebServer(("127.0.0.1", 0), table, log=None, allowed_hosts=hosts)  # type: ignore[arg-type]
