"""The web table's WebSocket (/api/ws): pushed documents, presence, refusals; the web extra."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import mexican_train
from mexican_train import STANDARD, InvalidArgumentError, legal_moves, view
from mexican_train._frontends import web
from mexican_train._frontends.cli import cli
from mexican_train._frontends.narrate import review_report
from mexican_train._frontends.store import TableStore
from mexican_train._frontends.web import SPECTATOR, lobby_table
from mexican_train.players import GreedyPlayer
from mexican_train.serialize import to_json
from mexican_train.web import RequestError, WebServer, WebTable
from serving import serving, within
from web_documents import answer

TIMEOUT = 20.0  # seconds: a server that never answers fails the test, never hangs it


@pytest.fixture
def server() -> Iterator[WebServer]:
    # Three seats: people in 0 and 1, a bot in 2.
    table = WebTable(3, STANDARD, bots={2: GreedyPlayer()}, seed=4)
    made = WebServer(("127.0.0.1", 0), table, log=None, request_timeout=0.5)
    table.start()
    with serving(made):
        yield made


@contextlib.contextmanager
def _open(server: WebServer, hello: object) -> Iterator[ClientConnection]:
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"
    with connect(url, open_timeout=TIMEOUT) as socket:
        if hello is not None:
            socket.send(json.dumps(hello))
        yield socket


def _next(socket: ClientConnection) -> dict[str, Any]:
    document = json.loads(socket.recv(timeout=TIMEOUT))
    assert isinstance(document, dict)
    return document


def _until(socket: ClientConnection, condition: Any) -> dict[str, Any]:
    while not condition(document := _next(socket)):
        pass
    return document


def test_a_socket_pushes_the_seats_document_at_every_move(server: WebServer) -> None:
    table = server.table
    with _open(server, {"token": table.tokens[0]}) as socket:
        first = _next(socket)
        assert first["seat"] == 0
        assert first["view"]["hand"] == to_json(view(table.state, 0))["hand"]  # its own (S5)
        while (seat := table.state.current_player) not in (0, 1):
            _next(socket)  # the bot moves: its move is pushed
        before = table.version
        table.play(seat, legal_moves(table.state)[0], before)
        pushed = _until(socket, lambda doc: doc["version"] > before)
        assert pushed["seat"] == 0


def _newer(version: int, document: dict[str, Any]) -> bool:
    return bool(document["version"] > version)


def test_a_socket_ignores_what_the_page_sends_after_its_hello_binary_too(
    server: WebServer,
) -> None:
    table = server.table
    with _open(server, {"token": table.tokens[0]}) as socket:
        _next(socket)
        socket.send("anything")
        socket.send(b"\x00binary")  # read and ignored as text is: the socket stays open
        for _ in range(4):  # moves pushed, each once the last was: the socket stays open
            before = table.version
            seat = table.state.current_player
            if seat in (0, 1):
                table.play(seat, legal_moves(table.state)[0], before)
            assert _until(socket, functools.partial(_newer, before))["seat"] == 0
        assert table.connected[0]


def test_others_see_who_is_connected(server: WebServer) -> None:
    table = server.table
    with _open(server, {"token": table.tokens[0]}) as first:
        assert _next(first)["connected"] == [True, False, True]  # a bot's seat is always taken
        with _open(server, {"token": table.tokens[1]}) as second:
            assert _next(second)["connected"] == [True, True, True]
            _until(first, lambda doc: doc["connected"] == [True, True, True])
        _until(first, lambda doc: doc["connected"] == [True, False, True])
    url = f"http://127.0.0.1:{server.server_address[1]}/api/view"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {table.tokens[1]}"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        assert json.load(answer)["connected"][0] is False  # the first page has gone too


def test_a_seat_with_two_pages_stays_connected_until_both_have_gone(server: WebServer) -> None:
    """A reload opens the new page's socket before the old one closes: the seat stays
    connected, and is away only once neither is open."""
    table = server.table
    with _open(server, {"token": table.tokens[1]}) as other:
        _until(other, lambda doc: doc["connected"] == [False, True, True])
        with _open(server, {"token": table.tokens[0]}) as old:
            _next(old)
            with _open(server, {"token": table.tokens[0]}) as new:
                _next(new)
                old.close()
                within(lambda: table._present[0] == 1, "the server sees the old page go")
                assert table.connected[0] is True
                with _open(server, {"token": table.tokens[1]}) as third:  # a change pushed
                    assert _next(third)["connected"] == [True, True, True]
            _until(other, lambda doc: doc["connected"][0] is False)


def test_a_hello_over_the_message_bound_closes_the_socket(server: WebServer) -> None:
    hello = {"token": server.table.tokens[0], "pad": "x" * 8192}
    with _open(server, hello) as socket, pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big: 4 KiB at most


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ({"token": "x" * 32}, 4403),  # a token no seat has
        ({"token": "not a token!"}, 4403),
        ({"seat": 0}, 4400),  # not a hello
        ("[[[[", 4400),
        (None, 4408),  # nothing said in time (0.5 s here)
    ],
)
def test_a_socket_that_does_not_name_its_seat_is_closed(
    server: WebServer, hello: object, code: int
) -> None:
    with _open(server, hello) as socket, pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == code
    assert server.table.connected == (False, False, True)


def test_the_sockets_path_asked_without_a_websocket_says_it_is_one(server: WebServer) -> None:
    status, refused = answer(server, "/api/ws")
    assert (status, refused) == (
        426,
        {"error": "upgrade required", "reason": "/api/ws is a WebSocket: open it as one"},
    )


def test_serve_without_the_web_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("mexican_train._frontends.web", "mexican_train._frontends.app"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: serve needs the web extra (uvicorn is missing): pip install 'mexican-train[web]'"
    ]


def test_a_spectator_watches_the_public_view_and_cannot_move(server: WebServer) -> None:
    table = server.table
    assert table.spectator_token is not None
    link = server.spectator_link()
    assert link is not None
    assert link.endswith(f"/#token={table.spectator_token}")
    with _open(server, {"token": table.spectator_token}) as socket:
        document = _next(socket)
        assert document["seat"] == -1
        assert document["view"]["hand"] == []
        assert document["moves"] == []
        assert table.connected == (False, False, True)  # a spectator is not a seat's person
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.server_address[1]}/api/move",
        data=json.dumps({"move": "draw"}).encode(),
        headers={"Authorization": f"Bearer {table.spectator_token}"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    assert refused.value.code == 403
    assert json.load(refused.value)["error"] == "a spectator"


def test_one_server_serves_many_tables_each_token_naming_its_own(server: WebServer) -> None:
    other = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=9, name="t2")
    server.add(other)
    assert server.tables == [server.table, other]
    assert other.tokens[0].startswith("t2.")
    with pytest.raises(InvalidArgumentError, match="served already"):
        server.add(WebTable(2, STANDARD, bots={1: GreedyPlayer()}, name="t2"))
    base = f"http://127.0.0.1:{server.server_address[1]}/api/view"

    def seat_of(token: str) -> Any:
        request = urllib.request.Request(base, headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                return json.load(answer)["view"]["hand"] == other.document(0)["view"]["hand"]
        except urllib.error.HTTPError as error:
            return error.code

    assert seat_of(other.tokens[0]) is True
    assert seat_of(server.table.tokens[0]) is False  # the first table's seat, not this one's
    assert seat_of("t3." + other.tokens[0][3:]) == 403  # no table t3
    assert seat_of("t2." + server.table.tokens[0]) == 403  # not a token of t2
    with _open(server, {"token": other.spectator_token}) as socket:
        assert _next(socket)["view"]["hand_sizes"] == other.document(0)["view"]["hand_sizes"]
    with pytest.raises(InvalidArgumentError, match="a table's name"):
        WebTable(2, STANDARD, bots={1: GreedyPlayer()}, name="no dots.")


# -- the lobby, and a new game at the same table ------------------------------------------------


def _json_call(server: WebServer, path: str, body: object = None, token: str = "") -> Any:
    """The server's JSON answer to a request, or its status when it refuses."""
    status, answered = answer(server, path, body, token)
    return answered if status < 400 else status


def test_the_lobby_makes_tables_with_a_link_per_seat_and_one_for_spectators() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1)
    made = WebServer(("127.0.0.1", 0), table, log=None, lobby=lobby_table, max_tables_per_client=2)
    with serving(made):
        assert _json_call(made, "/api/lobby")["levels"] == ["easy", "medium", "hard"]
        asked = {"rules": "hub", "house": [], "players": 3, "people": 2, "level": "easy"}
        answer = _json_call(made, "/api/tables", asked)
        assert set(answer["seats"]) == {"0", "1"}
        token = answer["seats"]["1"].removeprefix("/#token=")
        assert token.startswith(answer["table"] + ".")
        document = _json_call(made, "/api/view", token=token)
        assert document["seat"] == 1
        assert document["names"][2] == "Seat 2 (easy)"  # the level asked for
        watcher = answer["spectators"].removeprefix("/#token=")
        assert _json_call(made, "/api/view", token=watcher)["view"]["hand"] == []
        assert len(made.tables) == 2
        for wrong in ({"players": 9}, {"level": "expert"}, {"rules": "chess"}, [1], {"x": 1}):
            assert _json_call(made, "/api/tables", wrong) == 400
        assert "table" in _json_call(made, "/api/tables", asked)  # a refusal is not counted
        assert _json_call(made, "/api/tables", asked) == 503  # this address made its share
        assert len(made.tables) == 3


def test_a_seat_that_follows_by_long_polls_is_not_taken_over() -> None:
    # A page that cannot keep a WebSocket long-polls; under takeover, its person is there.
    table = WebTable(2, STANDARD, seed=3, takeover=1, bot_delay=0)  # two people
    assert table.state.current_player == 0
    made = WebServer(("127.0.0.1", 0), table, log=None, long_poll=1.5)
    documents: list[Any] = []

    def follow() -> None:
        token = table.tokens[0]
        document = _json_call(made, "/api/view", token=token)
        for _ in range(2):  # 3 s of polls, past the 1 s takeover, and nobody moves
            since = document["version"]
            document = _json_call(made, f"/api/view?since={since}", token=token)
        documents.append(document)

    try:
        with serving(made):
            polls = threading.Thread(target=follow, daemon=True)
            polls.start()
            # The seat is away from the table's making until a poll waits: its bots start
            # once one does, so that a server slower to start than the takeover's second
            # (a loaded machine) does not hand the seat to a bot before any page came.
            within(lambda: table._polls[0] > 0, "the first long poll waits")
            table.start()
            polls.join(TIMEOUT)
            (document,) = documents
            assert table.state.current_player == 0
            assert not any("away" in line for line in document["log"]), document["log"]
    finally:
        table.close()


def test_the_lobby_makes_no_more_tables_than_the_server_holds() -> None:
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1)
    made = WebServer(("127.0.0.1", 0), table, log=None, lobby=lobby_table, max_tables=2)
    with serving(made):
        asked = {"rules": "hub", "players": 2, "people": 1, "level": "easy"}
        assert "table" in _json_call(made, "/api/tables", asked)
        assert _json_call(made, "/api/tables", asked) == 503  # its own table and one made
        assert len(made.tables) == 2


def test_a_server_without_a_lobby_makes_no_tables(server: WebServer) -> None:
    assert _json_call(server, "/api/lobby") == 404
    assert _json_call(server, "/api/tables", {"players": 2}) == 404
    assert len(server.tables) == 1


def test_a_finished_game_is_followed_by_a_new_one_at_the_same_table(tmp_path: Path) -> None:
    # Ordinary first turns (V1): the new game, dealt from a seed of its own, cannot end in
    # the turn each seat plays below (a turn's doubles go on three trains at most, D1),
    # where a Rulebook A first turn (P4) could play a whole hand of 7.
    short = attrs.evolve(STANDARD, max_pip=6, rounds=1, first_turn=None)
    table = WebTable(2, short, bots={1: GreedyPlayer()}, seed=2)
    store = TableStore(tmp_path / "tables.sqlite3")
    number = store.add(table.record(), table.token_hashes, table.bot_names())
    web._keep(table, store, number)
    with pytest.raises(RequestError, match="not over"):
        table.again(0)
    while not table.state.is_over:
        if table.state.current_player == 0:
            table.play(0, legal_moves(view(table.state, 0))[0])
        table.play_bots()
    finished = table.version
    document = table.again(0)
    assert document["version"] == finished + 1  # pages take it for the newest
    assert not table.state.is_over
    assert table.seat_for(table.tokens[0]) == 0  # the same links
    assert "You dealt a new game." in document["log"]
    if table.state.current_player == 0:
        table.play(0, legal_moves(view(table.state, 0))[0])
    table.play_bots()
    assert not table.state.is_over
    kept = store.tables()
    assert len(kept) == 2  # the new game is kept as a table of its own, its moves with it
    assert len(kept[-1].record.moves) == table.version - finished - 1
    assert kept[-1].began == finished + 1
    options = web._TableOptions(0.0, None, None)
    resumed, _ = web._command_line_tables(store.tables(), store, 2, 1, short, options)
    assert isinstance(resumed, web._Resumed)
    again = resumed.table
    assert again.state == table.state
    assert again.seat_for(table.tokens[0]) == 0
    # A restart resumes the table at the version open pages last saw, never lower: they
    # take only newer documents.
    assert again.version == table.version
    assert again.document(0)["version"] == table.document(0)["version"]
    with pytest.raises(RequestError, match="spectator"):
        table.again(SPECTATOR)


def test_a_seat_gets_the_review_of_its_decisions_in_the_round_just_over() -> None:
    short = attrs.evolve(STANDARD, max_pip=6, rounds=2)
    table = WebTable(2, short, bots={1: GreedyPlayer()}, seed=1)  # mistakes in round 1
    made = WebServer(("127.0.0.1", 0), table, log=None)
    with serving(made):
        mine, watching = table.tokens[0], table.spectator_token
        assert watching is not None
        assert _json_call(made, "/api/review", token=mine) == 409  # no round is over yet
        while table.state.current_player is not None:  # the first round, played out
            if table.state.current_player == 0:
                table.play(0, legal_moves(view(table.state, 0))[0])
            table.play_bots()
        assert _json_call(made, "/api/review", token=watching) == 403  # no decisions
        assert _json_call(made, "/api/review", token="x" * 20) == 403
        review = _json_call(made, "/api/review", token=mine)
        # The coach judges each decision of seat 0 in round 1 by what it could know (S5).
        game = attrs.evolve(table.record(), moves=table._moves)
        judged = list(
            mexican_train.analyze(game, 0, samples=web.REVIEW_SAMPLES, names=table.labels)
        )
        assert {r.round_number for r in judged} == {1}
        report = review_report(judged, "seat 0", web.REVIEW_SAMPLES, yours=True)
        assert review == {
            "round": 1,
            "heading": report.heading,
            "mistakes": [{"said": s, "better": b} for s, b in report.mistakes],
            "ending": report.ending,
        }
        assert review["heading"].startswith(f"{len(judged)} decision")
        assert review["mistakes"]
        # Spoken to the seat's player, as the page speaks to them ("You have...").
        assert review["heading"].endswith("decisions of yours reviewed, 16 sampled deals each.")
        assert all(m["said"].startswith("round 1, your ") for m in review["mistakes"])
        assert table.review(0) is table.review(0)  # made once, then kept
        table.play(0, legal_moves(view(table.state, 0))[0])  # the next round is dealt (E4)
        assert table.state.current_player is not None
        assert _json_call(made, "/api/review", token=mine) == review  # round 1's still


def test_the_review_names_another_seats_train_as_the_table_does() -> None:
    """The coach's words name a seat by the table's label, as its log and board do."""
    short = attrs.evolve(STANDARD, max_pip=6, rounds=2)
    table = WebTable(2, short, bots={1: GreedyPlayer()}, seed=1)  # a move on seat 1's train
    while table.state.current_player is not None:
        if table.state.current_player == 0:
            table.play(0, legal_moves(view(table.state, 0))[0])
        table.play_bots()
    said = " ".join(mistake["better"] for mistake in table.review(0)["mistakes"])
    assert "Seat 1 (greedy)'s train" in said
    assert "seat 1's train" not in said


def test_a_websocket_opened_is_in_the_access_log_without_its_token() -> None:
    """The access log has each WebSocket the server accepts (101), as it has each request
    and each upgrade it refuses; never the token its first message carries."""
    log = io.StringIO()
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=4)
    made = WebServer(("127.0.0.1", 0), table, log=log)
    with serving(made), _open(made, {"token": table.tokens[0]}) as socket:
        assert _next(socket)["seat"] == 0
    logged = log.getvalue()
    assert re.search(r'^127\.0\.0\.1 \[[0-9:]{8}\] "GET /api/ws" 101$', logged, re.M), logged
    assert table.tokens[0] not in logged
