"""The web table, and the hardened HTTP request layer it is built on (public API).

`WebTable` holds a game with people in some seats and bots in the others, one
secret token per person; `make_server` serves it to browsers (``mexican-train
serve`` does both).  Each seat only ever receives its own view (S5); every move is
checked by `~mexican_train.apply` on the server.

The table's server, `WebServer`, is Starlette on uvicorn with a thin guard against
hostile clients; the ``web`` extra installs them.  `JSONRequestHandler` and
`JSONServer` are the standard library's HTTP server made to withstand hostile input
(stalled connections, bad ``Content-Length``, deep JSON, unknown methods, chunked
bodies; tokens never logged): build a JSON service of your own on them, with no
dependency, as ``examples/http_table.py`` does.

>>> from mexican_train import STANDARD
>>> from mexican_train.players import GreedyPlayer
>>> from mexican_train.web import WebTable, make_server
>>> table = WebTable(3, STANDARD, bots={1: GreedyPlayer(), 2: GreedyPlayer()}, seed=5)
>>> server = make_server(table, "127.0.0.1", 0, log=None)  # port 0: any free port
>>> list(server.links())
[0]
>>> server.server_close()
"""

from typing import TYPE_CHECKING

from ._frontends.http import (
    MAX_JSON_DEPTH,
    REQUEST_TIMEOUT,
    JSONRequestHandler,
    JSONServer,
    RequestError,
    Response,
    json_depth,
    lacks_web_extra,
    read_json,
)

if TYPE_CHECKING:
    from ._frontends.web import (
        BOT_TIMER,
        REVIEW_SAMPLES,
        SPECTATOR,
        WebServer,
        WebTable,
        lobby_choices,
        lobby_table,
        make_server,
    )


def __getattr__(name: str) -> object:
    # The web table is imported when one of its names is first asked for, so that the
    # request layer, the standard library's server, serves without the web extra.
    if name not in __all__:  # the request layer's names are found without asking
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        from ._frontends import web
    except ImportError as error:
        if not lacks_web_extra(error):
            raise
        raise ImportError(
            f"mexican_train.web.{name} needs the web extra ({error.name} is missing): "
            "pip install 'mexican-train[web]'"
        ) from error
    return getattr(web, name)


__all__ = [
    "BOT_TIMER",
    "MAX_JSON_DEPTH",
    "REQUEST_TIMEOUT",
    "REVIEW_SAMPLES",
    "SPECTATOR",
    "JSONRequestHandler",
    "JSONServer",
    "RequestError",
    "Response",
    "WebServer",
    "WebTable",
    "json_depth",
    "lobby_choices",
    "lobby_table",
    "make_server",
    "read_json",
]
