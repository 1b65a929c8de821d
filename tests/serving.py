"""A server run in a thread for the length of a test: the suite's one way of serving."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, TypeVar

TIMEOUT = 20.0  # seconds to wait for the serving thread once the server is stopped


class Servable(Protocol):
    """What `serving` needs: `socketserver`'s three methods (`JSONServer`, `WebServer`)."""

    def serve_forever(self, poll_interval: float = ...) -> None: ...

    def shutdown(self) -> None: ...

    def server_close(self) -> None: ...


S = TypeVar("S", bound=Servable)


@contextmanager
def serving(server: S) -> Iterator[S]:
    """Serve *server* from a thread while the block runs; then stop it and close it."""
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(TIMEOUT)


def within(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Wait until *condition* holds, or fail saying *what* never happened in *timeout* s."""
    pause = threading.Event()  # never set: waited on between two looks
    for _ in range(int(timeout * 100)):
        if condition():
            return
        pause.wait(0.01)
    raise AssertionError(f"{what}: not within {timeout} s")
