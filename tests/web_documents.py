"""What a served web table answers and reads: real documents, by the name of their type.

tests/test_web_schema.py checks them against the web protocol's JSON Schema, and
types/write_samples.py writes them for ``tsc --strict`` against its TypeScript types.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs
from websockets.sync.client import connect

from mexican_train import STANDARD
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable, lobby_table
from serving import serving

TIMEOUT = 60  # seconds: a review takes a few


@contextmanager
def _serving(table: WebTable) -> Iterator[WebServer]:
    """Serve *table* (its bots moved by the caller) and a lobby on a free port."""
    with serving(WebServer(("127.0.0.1", 0), table, log=None, lobby=lobby_table)) as server:
        yield server


def answer(
    server: WebServer, path: str, body: object = None, token: str = "", timeout: float = TIMEOUT
) -> tuple[int, Any]:
    """The server's status and JSON answer to a request: a GET, or a POST of *body*."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.server_address[1]}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answered:
            return answered.status, json.load(answered)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _call(server: WebServer, path: str, body: object = None, token: str = "") -> Any:
    """The server's JSON answer to a request, a refusal's included."""
    return answer(server, path, body, token)[1]


def web_documents() -> dict[str, list[Any]]:
    """Return what a web table answers and reads, by the name of its type in the schema.

    A seat's document at the start, mid-round (answering a move, its json or its
    notation), between rounds, once the game is over and in the next game, pushed on the
    WebSocket, a spectator's, and one under a turn timer; the lobby's answers, a review,
    refusals (an expired table's among them), and the requests sent.
    """
    found: dict[str, list[Any]] = {
        "SeatDocument": [],
        "LobbyChoices": [],
        "NewTable": [],
        "Review": [],
        "Refusal": [],
        "MoveRequest": [],
        "TableRequest": [],
        "Hello": [],
    }
    short = attrs.evolve(STANDARD, max_pip=6, rounds=2)
    table = WebTable(2, short, bots={1: GreedyPlayer()}, seed=1)
    mine, watching = table.tokens[0], table.spectator_token
    assert watching is not None
    seats, refusals = found["SeatDocument"], found["Refusal"]
    with _serving(table) as server:

        def views() -> list[Any]:  # the seat's and the spectators'
            return [_call(server, "/api/view", token=token) for token in (mine, watching)]

        seats += views()
        refusals += [_call(server, "/api/view"), _call(server, "/api/review", token=mine)]
        found["Hello"].append({"token": mine})
        asked = {
            "rules": "hub",
            "house": ["last-tile-call"],
            "players": 3,
            "people": 2,
            "level": "easy",
        }
        found["TableRequest"].append(asked)
        found["LobbyChoices"].append(_call(server, "/api/lobby"))
        found["NewTable"].append(_call(server, "/api/tables", asked))
        refusals.append(_call(server, "/api/tables", {"players": 9}))
        now = [0.0]
        idle = WebTable(2, short, bots={1: GreedyPlayer()}, name="idle", clock=lambda: now[0])
        server.add(idle, expires=True)
        now[0] += 2 * 24 * 3600  # two days later, nobody has played at it: it expires
        assert server.expire_idle() == ["idle"]
        refusals.append(_call(server, "/api/view", token=idle.tokens[0]))  # 410 "expired"
        while not table.state.is_over:
            if table.state.current_player is None:  # between rounds
                found["Review"].append(_call(server, "/api/review", token=mine))
            if table.state.current_player in (0, None):
                document = _call(server, "/api/view", token=mine)
                offered = document["moves"][len(seats) % len(document["moves"])]
                sent = offered["json"] if len(found["MoveRequest"]) % 2 else offered["notation"]
                body = {"move": sent, "version": document["version"]}
                found["MoveRequest"].append(body)
                seats += [document, _call(server, "/api/move", body, token=mine)]
            table.play_bots()
        seats += views()
        refusals.append(_call(server, "/api/move", {"move": "9-9@0"}, token=mine))
        seats.append(_call(server, "/api/again", {}, token=mine))  # a new game
        url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
        with connect(url, open_timeout=TIMEOUT) as socket:
            socket.send(json.dumps(found["Hello"][0]))
            seats.append(json.loads(socket.recv(timeout=TIMEOUT)))  # pushed
    timed = WebTable(2, short, bots={1: GreedyPlayer()}, seed=4, turn_timer=60)
    with _serving(timed) as server:
        seats.append(_call(server, "/api/view", token=timed.tokens[0]))
    return found
