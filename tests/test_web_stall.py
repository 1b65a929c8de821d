"""A table waiting on its database holds up no other table: the event loop never waits.

A move is committed to the database (`WebTable.journal`) and an expired table deleted
from it (`WebTable.expiring`) under a lock of the table's changes alone; a database
that is slow, or locked by another program, then holds that lock for seconds.  The
table's readers (the server's event loop among them) never wait for it, so requests
and WebSockets at every table, that one's too, are answered.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from mexican_train import STANDARD, Move, format_move, legal_moves
from mexican_train._frontends.app import REVIEWS_AT_ONCE
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable
from serving import serving, within
from web_documents import answer

TIMEOUT = 20.0  # seconds: a server that never answers fails the test, never hangs it


class _SlowJournal:
    """A journal that holds each move until the test lets it go: a slow database."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, count: int, seat: int, move: Move) -> None:
        self.entered.set()
        assert self.release.wait(TIMEOUT), "the test never let the move go"


@pytest.fixture
def tables() -> Iterator[tuple[WebServer, WebTable, WebTable, _SlowJournal]]:
    """A server of two tables, people at both; the first's journal is slow."""
    # Each look at its clock is 10 s later: it has been idle for as long as a test likes.
    slow = WebTable(2, STANDARD, seed=1, name="slow", clock=itertools.count(0.0, 10.0).__next__)
    other = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=2, name="other")
    own = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=3)
    journal = _SlowJournal()
    slow.journal = journal
    server = WebServer(("127.0.0.1", 0), own, log=None)
    server.add(slow)
    server.add(other)
    with serving(server):
        try:
            yield server, slow, other, journal
        finally:
            journal.release.set()


def _held(server: WebServer, slow: WebTable, journal: _SlowJournal) -> list[Any]:
    """Send a move to *slow* and wait until its journal holds it; return where its answer
    goes."""
    seat = slow.state.current_player
    assert seat is not None
    move = legal_moves(slow.state)[0]
    body = {"move": format_move(move), "version": slow.version}
    answers: list[Any] = []
    thread = threading.Thread(
        target=lambda: answers.append(answer(server, "/api/move", body, token=slow.tokens[seat])),
        daemon=True,
    )
    thread.start()
    assert journal.entered.wait(TIMEOUT)
    return answers


def _in_thread(call: Any) -> list[Any]:
    """Call *call* in a thread; return the list its result goes to."""
    results: list[Any] = []
    threading.Thread(target=lambda: results.append(call()), daemon=True).start()
    return results


def _answered(results: list[Any]) -> Any:
    """Wait for the result of a call `_in_thread` made, and return it."""
    done = threading.Event()
    for _ in range(int(TIMEOUT * 100)):
        if results:
            return results[0]
        done.wait(0.01)
    pytest.fail("no answer in time")


def test_a_table_whose_move_waits_on_its_database_holds_up_no_other_table(
    tables: tuple[WebServer, WebTable, WebTable, _SlowJournal],
) -> None:
    server, slow, other, journal = tables
    moved = _held(server, slow, journal)
    # Requests at the slow table itself, while its move waits: its view, and a socket.
    looking = _in_thread(lambda: answer(server, "/api/view", token=slow.tokens[1]))
    url = f"ws://127.0.0.1:{server.server_address[1]}/api/ws"

    def open_socket() -> int:
        with connect(url, open_timeout=TIMEOUT) as socket:
            socket.send(json.dumps({"token": slow.tokens[1]}))
            seat: int = json.loads(socket.recv(timeout=TIMEOUT))["seat"]
            return seat

    opened = _in_thread(open_socket)
    # Another table is answered meanwhile: its document, and its socket.
    status, document = answer(server, "/api/view", token=other.tokens[0])
    assert (status, document["seat"]) == (200, 0)
    with connect(url, open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": other.tokens[0]}))
        assert json.loads(socket.recv(timeout=TIMEOUT))["seat"] == 0
    # The slow table's own readers are answered while its move waits.
    assert _answered(looking)[0] == 200
    assert _answered(opened) == 1
    assert moved == []  # the slow table's move still waits
    journal.release.set()
    assert _answered(moved)[0] == 200


def test_a_table_whose_expiry_waits_on_its_database_holds_up_no_other_table(
    tables: tuple[WebServer, WebTable, WebTable, _SlowJournal],
) -> None:
    server, slow, other, journal = tables
    slow.expiring = lambda: journal(0, 0, legal_moves(slow.state)[0])  # a slow delete
    expired = _in_thread(lambda: slow.expire(1))
    assert journal.entered.wait(TIMEOUT)
    looking = _in_thread(lambda: answer(server, "/api/view", token=slow.tokens[0]))
    status, document = answer(server, "/api/view", token=other.tokens[0])
    assert (status, document["seat"]) == (200, 0)
    assert _answered(looking)[0] == 200  # the slow table's own reader too, not expired yet
    assert expired == []  # the slow table's expiry still waits
    journal.release.set()
    assert _answered(expired) is True


class _SlowReview(WebTable):
    """A table whose reviews wait until the test lets them go: each takes long."""

    def __init__(self) -> None:
        super().__init__(2, STANDARD, seed=4)
        self.asked = threading.Semaphore(0)
        self.release = threading.Event()

    def review(self, seat: int) -> dict[str, Any]:
        self.asked.release()
        assert self.release.wait(TIMEOUT), "the test never let the review go"
        return {"round": 1}


def test_reviews_asked_for_at_once_take_not_every_worker_thread() -> None:
    """A review takes seconds: a client asking for many at once (more than the worker
    threads, 40) has them made a few at a time, and moves and documents, at its table and
    others, are answered meanwhile."""
    table = _SlowReview()
    other = WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=2, name="other")
    server = WebServer(("127.0.0.1", 0), table, log=None, max_per_client=100)
    server.add(other)
    with serving(server):
        try:
            asked = [
                _in_thread(lambda: answer(server, "/api/review", token=table.tokens[0]))
                for _ in range(50)
            ]
            within(
                lambda: _waiting_reviews(server) == len(asked) - REVIEWS_AT_ONCE,
                "every review asked but those made waits its turn",
            )
            # Every review asked but those made waits on the limiter: the ones it let go are
            # made (each reaches review() in its own time), and no other.
            for _ in range(REVIEWS_AT_ONCE):
                assert table.asked.acquire(timeout=TIMEOUT), "a review let go was never made"
            assert not table.asked.acquire(blocking=False), "more reviews made than allowed"
            for token in (table.tokens[1], other.tokens[0]):
                assert answer(server, "/api/view", token=token, timeout=5)[0] == 200
            move = {"move": format_move(legal_moves(table.state)[0]), "version": table.version}
            seat = table.state.current_player
            assert seat is not None
            assert answer(server, "/api/move", move, token=table.tokens[seat], timeout=5)[0] == 200
        finally:
            table.release.set()
        assert all(_answered(results)[0] == 200 for results in asked)


def _waiting_reviews(server: WebServer) -> int:
    """Return how many reviews wait for their turn to be made (none asked yet: 0)."""
    limiter = server._routes._reviews
    return 0 if limiter is None else limiter.statistics().tasks_waiting
