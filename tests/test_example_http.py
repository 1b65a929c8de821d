"""The example front end (examples/http_table.py), driven over real HTTP on localhost.

Two seats play a complete round through the server; each sees only its own view
(S5); a move out of turn, an illegal move, a wrong token and malformed input are
refused with a 4xx status and a JSON error.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from mexican_train import STANDARD, NextRound, Tile, view
from mexican_train.serialize import SCHEMA_VERSION, to_json, view_from_json
from repo_scripts import load_script
from serving import serving

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "http_table.py"
TIMEOUT = 10  # seconds per request: a hung server fails the test instead of blocking it
MAX_REQUESTS = 400  # a double-6 round of two players takes far fewer moves


def _load_example() -> ModuleType:
    return load_script(EXAMPLE)  # in sys.modules: the handler's annotations resolve through it


@attrs.frozen
class Client:
    base: str
    tokens: tuple[str, ...]

    def request(
        self, method: str, path: str, body: object = None, *, token: str | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                status, raw, kind = answer.status, answer.read(), answer.headers["Content-Type"]
        except urllib.error.HTTPError as error:
            status, raw, kind = error.code, error.read(), error.headers["Content-Type"]
        return status, json.loads(raw) if kind == "application/json" else raw.decode()

    def get(self, seat: int) -> dict[str, Any]:
        status, doc = self.request("GET", f"/seat/{seat}", token=self.tokens[seat])
        assert status == 200, doc
        assert isinstance(doc, dict)
        return doc

    def move(self, seat: int, move: object, token: str | None = None) -> tuple[int, Any]:
        token = self.tokens[seat] if token is None else token
        return self.request("POST", f"/seat/{seat}/move", {"move": move}, token=token)


@pytest.fixture
def served() -> Iterator[tuple[Client, Any]]:
    """Serve a two-player double-6 game on a free port; stop the server afterwards."""
    example = _load_example()
    table = example.Table(2, attrs.evolve(STANDARD, max_pip=6), seed=11)
    server = example.TableServer(("127.0.0.1", 0), table)
    with serving(server):
        yield Client(f"http://127.0.0.1:{server.server_address[1]}", table.tokens), table


def _hidden_tiles_in(doc: dict[str, Any], other_hand: tuple[Tile, ...]) -> set[Tile]:
    """Tiles of another seat's hand that appear anywhere in *doc*."""
    data = json.dumps({k: v for k, v in doc.items() if k != "text"}) + "\n" + doc["text"]
    named = {Tile.parse(t) for t in re.findall(r"\b\d+-\d+\b", data)}
    return named & set(other_hand)


def test_two_seats_play_a_round_over_http(served: tuple[Client, Any]) -> None:
    """Both seats play a complete round through the server, one refused move included."""
    client, table = served
    refused = 0
    for _ in range(MAX_REQUESTS):
        docs = [client.get(0), client.get(1)]
        # S5: a seat's document holds its own hand and never the other seat's.
        for seat, doc in enumerate(docs):
            assert doc["seat"] == seat
            assert _hidden_tiles_in(doc, table.state.hand(1 - seat)) == set()
        current = docs[0]["view"]["current_player"]
        if current is None:
            break  # the round is over (E1/E2)
        waiting = 1 - current
        assert docs[waiting]["legal_moves"] == []
        if not refused:
            # Out of turn: refused, whatever the move.
            status, error = client.move(waiting, docs[current]["legal_moves"][0])
            assert (status, error["error"]) == (409, "not your turn")
            refused += 1
        moves = docs[current]["legal_moves"]
        assert len(docs[current]["legal_moves_notation"]) == len(moves)
        if refused == 1 and "draw" not in docs[current]["legal_moves_notation"]:
            # A draw while a play exists, sent in the notation: the engine's reason comes
            # back (P4 or P7) and nothing changes.
            status, error = client.move(current, "draw")
            assert status == 422
            assert error["error"] == "illegal move"
            assert error["reason"].startswith(("P4:", "P7:"))
            assert client.get(current)["moves_applied"] == docs[current]["moves_applied"]
            refused += 1
        status, after = client.move(current, moves[0])
        assert status == 200, after
        assert after["moves_applied"] == docs[current]["moves_applied"] + 1
    else:
        pytest.fail(f"the round did not end within {MAX_REQUESTS} requests")
    assert refused == 2
    assert table.state.is_round_over
    final = client.get(0)
    assert len(final["view"]["round_scores"]) == 1
    assert final["legal_moves"] == [to_json(NextRound())]
    assert final["legal_moves_notation"] == ["next"]
    # The view is a document of the library's schema, read back as the seat's view.
    assert view_from_json(final["view"]) == view(table.state, 0)


def test_a_seat_cannot_read_another_seats_view(served: tuple[Client, Any]) -> None:
    client, _ = served
    status, error = client.request("GET", "/seat/1", token=client.tokens[0])
    assert (status, error["error"]) == (403, "wrong token")
    status, error = client.request("GET", "/seat/1")
    assert (status, error["error"]) == (401, "no token")


def test_a_token_in_the_url_is_refused(served: tuple[Client, Any]) -> None:
    """A token in a URL would be logged: it is refused, even the right one."""
    client, _ = served
    status, error = client.request("GET", f"/seat/1?token={client.tokens[1]}")
    assert (status, error["error"]) == (400, "token in the URL")


def test_bad_requests_get_a_json_error(served: tuple[Client, Any]) -> None:
    client, table = served
    seat = table.state.current_player
    token = client.tokens[seat]
    cases: list[tuple[str, str, object, int]] = [
        ("GET", "/seat/7", None, 404),
        ("GET", "/nowhere", None, 404),
        ("GET", f"/seat/{seat}/move", None, 405),
        ("POST", f"/seat/{seat}/move", {"move": {"schema": SCHEMA_VERSION, "type": "fly"}}, 400),
        ("POST", f"/seat/{seat}/move", {"move": {"type": "draw"}}, 400),  # no schema
        ("POST", f"/seat/{seat}/move", {"move": "6-x@0"}, 400),
        ("POST", f"/seat/{seat}/move", {"move": 7}, 400),
        ("POST", f"/seat/{seat}/move", {"tile": "6-5"}, 400),
        ("POST", f"/seat/{seat}/move", [1, 2], 400),
        ("POST", f"/seat/{seat}/move", {"move": "0-0@1"}, 422),
    ]
    for method, path, body, expected in cases:
        status, error = client.request(method, path, body, token=token)
        assert status == expected, (path, body, error)
        assert set(error) == {"error", "reason"}
    assert table.moves_applied == 0


def test_the_table_picture_and_page_are_served(served: tuple[Client, Any]) -> None:
    client, _ = served
    status, svg = client.request("GET", "/seat/0/table.svg", token=client.tokens[0])
    assert status == 200
    assert svg.startswith("<svg")
    status, page = client.request("GET", "/play/0", token=client.tokens[0])
    assert status == 200
    assert "<script>" in page
