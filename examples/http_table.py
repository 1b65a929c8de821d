"""A minimal multiplayer Mexican Train table over HTTP, with the standard library only.

Each seat gets a secret token.  A seat reads only its own view of the game (S5) and
sends its moves; the server checks the token, the turn and the rules.

    python examples/http_table.py --players 2 --port 8000

prints one URL per seat (open it in a browser to play; the token after ``#`` is never
sent in a URL) and serves:

``GET /seat/<n>``
    ``{"seat": n, "view": ..., "legal_moves": [...], "legal_moves_notation": [...],
    "moves_applied": k, "text": ...}``: seat *n*'s view and the moves it may make now
    (empty when it is not its turn) as documents of the library's JSON schema
    (`mexican_train.serialize`), the same moves in the notation (``"12-5@M"``), a counter
    that grows with every move (poll it), and the plain-text rendering.
``POST /seat/<n>/move``
    a JSON body ``{"move": <move>}``: one of the ``legal_moves`` documents, or its
    notation string; answers like ``GET``, or with a 4xx status and
    ``{"error": ..., "reason": ...}``.
``GET /seat/<n>/table.svg``
    the SVG picture of seat *n*'s view.
``GET /play/<n>``
    a tiny HTML page that shows the table and offers the legal moves as buttons.

Every ``/seat`` request needs the seat's token as ``Authorization: Bearer <token>``;
a token in the URL is refused, since URLs end up in logs.  The page reads its token
from the URL's fragment (``/play/0#token=...``), which browsers never send.
Status codes: 400 malformed request, 401 no token, 403 wrong token (or a page of another
site), 404 no such seat or path, 405 wrong method, 409 not this seat's turn, 411 no
``Content-Length``, 413 body too large, 422 a move the rules refuse (the reason comes
from `IllegalMoveError`).

The server is built on `mexican_train.web.JSONRequestHandler` and
`~mexican_train.web.JSONServer`, the library's hardened request layer: stalled
connections time out, bodies need a plain ``Content-Length``, deeply nested JSON is
refused before it is parsed, another site's pages cannot post, every error is JSON,
and tokens are never logged.
"""

from __future__ import annotations

import argparse
import hmac
import re
import secrets
import sys
import threading
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from mexican_train import (
    STANDARD,
    IllegalMoveError,
    MexicanTrainError,
    Move,
    Rules,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train.notation import NotationError, format_move, parse_move
from mexican_train.render import render_svg, render_text
from mexican_train.serialize import SchemaError, move_from_json, to_json
from mexican_train.web import JSONRequestHandler, JSONServer, RequestError, Response

MAX_BODY = 16 * 1024  # a move is a few dozen bytes


class Table:
    """One game and its seats' tokens; every read and write holds the lock."""

    def __init__(
        self,
        players: int,
        rules: Rules = STANDARD,
        seed: int | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.state = new_game(players, rules, seed)
        self.names = list(names) if names is not None else None
        self.tokens = tuple(secrets.token_urlsafe(16) for _ in range(players))
        self.moves_applied = 0
        self.lock = threading.Lock()

    def check_token(self, seat: int, token: str | None) -> None:
        """Refuse a request without the seat's own token."""
        if not 0 <= seat < len(self.tokens):
            raise RequestError(
                HTTPStatus.NOT_FOUND, "no such seat", f"seats are 0-{len(self.tokens) - 1}"
            )
        if token is None:
            raise RequestError(
                HTTPStatus.UNAUTHORIZED, "no token", "send 'Authorization: Bearer <token>'"
            )
        # A constant-time comparison: a token must not leak through response times.
        if not hmac.compare_digest(token.encode(), self.tokens[seat].encode()):
            raise RequestError(
                HTTPStatus.FORBIDDEN, "wrong token", f"that is not seat {seat}'s token"
            )

    def document(self, seat: int) -> dict[str, Any]:
        """Return what seat *seat* may know now, as JSON-ready data (S5)."""
        with self.lock:
            mine = view(self.state, seat)
            count = self.moves_applied
        moves = legal_moves(mine)
        return {
            "seat": seat,
            "view": to_json(mine),  # the library's JSON schema, mexican-train/2
            "legal_moves": [to_json(move) for move in moves],
            "legal_moves_notation": [format_move(move) for move in moves],
            "moves_applied": count,
            "text": render_text(mine, names=self.names),
        }

    def svg(self, seat: int) -> str:
        with self.lock:
            mine = view(self.state, seat)
        return render_svg(mine, names=self.names)

    def play(self, seat: int, body: object) -> dict[str, Any]:
        """Apply seat *seat*'s move, given as the JSON request body, and return its new document."""
        if not isinstance(body, dict) or set(body) != {"move"}:
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "bad request", 'the body is {"move": <move>}'
            )
        move = _read_move(body["move"])
        with self.lock:
            current = self.state.current_player
            # Between rounds (current_player is None) any seat may deal the next round (E4).
            if current is not None and current != seat:
                raise RequestError(
                    HTTPStatus.CONFLICT, "not your turn", f"it is seat {current}'s turn"
                )
            try:
                self.state = apply(self.state, move)
            except IllegalMoveError as error:
                raise RequestError(
                    HTTPStatus.UNPROCESSABLE_ENTITY, "illegal move", error.reason
                ) from None
            self.moves_applied += 1
        return self.document(seat)


def _read_move(data: object) -> Move:
    """Read a move sent as a JSON move document or as a notation string (``"12-5@M"``)."""
    try:
        if isinstance(data, str):
            return parse_move(data)
        return move_from_json(data)  # untrusted: every field is checked
    except (SchemaError, NotationError) as error:
        raise RequestError(HTTPStatus.BAD_REQUEST, "bad move", str(error)) from None


_SEAT = re.compile(r"/seat/(\d{1,3})(/move|/table\.svg)?")
_PLAY = re.compile(r"/play/(\d{1,3})")


class Handler(JSONRequestHandler):
    """Route requests to the `Table` in ``self.server.table``."""

    server: TableServer
    max_body = MAX_BODY

    def respond(self, method: str, path: str) -> Response:
        table = self.server.table
        if path == "/" and method == "GET":
            return Response(HTTPStatus.OK, __doc__.encode(), "text/plain; charset=utf-8")
        page = _PLAY.fullmatch(path)
        if page is not None:  # the page holds no secret: its script reads the token
            if method != "GET":
                raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", "use GET")
            return Response(HTTPStatus.OK, _PAGE.encode(), "text/html; charset=utf-8")
        match = _SEAT.fullmatch(path)
        if match is None:
            raise RequestError(HTTPStatus.NOT_FOUND, "not found", f"no resource at {path[:80]}")
        if "token" in self.query:
            raise RequestError(
                HTTPStatus.BAD_REQUEST,
                "token in the URL",
                "send the token as 'Authorization: Bearer <token>', never in the URL",
            )
        seat = int(match.group(1))
        table.check_token(seat, self.bearer_token())
        action = match.group(2)
        allowed = "POST" if action == "/move" else "GET"
        if method != allowed:
            raise RequestError(
                HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", f"use {allowed}"
            )
        if action == "/move":
            return Response.json(table.play(seat, self.json_body()))
        if action == "/table.svg":
            return Response(HTTPStatus.OK, table.svg(seat).encode(), "image/svg+xml")
        return Response.json(table.document(seat))


class TableServer(JSONServer):
    """A hardened threading HTTP server that serves one `Table`."""

    def __init__(self, address: tuple[str, int], table: Table, *, verbose: bool = False) -> None:
        super().__init__(address, Handler, log=sys.stderr if verbose else None)
        self.table = table


_PAGE = """<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Mexican Train</title>
<style>body{font-family:sans-serif;background:#0f2e1e;color:#eee;margin:1em}
button{margin:.2em;font-size:1em}#table img{max-width:100%}#error{color:#ff8a80}</style>
<div id="table"></div><p id="error"></p><div id="moves"></div>
<script>
const seat = location.pathname.split("/").pop();
// The token is in the fragment (#token=...), which is never sent in a URL.
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"};
let seen = -1;
async function show(doc) {
  seen = doc.moves_applied;
  const picture = await fetch(`/seat/${seat}/table.svg`, {headers});
  const img = document.createElement("img");
  img.src = URL.createObjectURL(await picture.blob());
  img.alt = doc.text;
  document.getElementById("table").replaceChildren(img);
  const moves = document.getElementById("moves");
  moves.replaceChildren(...doc.legal_moves_notation.map(move => {
    const button = document.createElement("button");
    button.textContent = move;
    button.onclick = () => send(move);
    return button;
  }));
}
async function send(move) {
  const answer = await fetch(`/seat/${seat}/move`,
    {method: "POST", headers, body: JSON.stringify({move})});
  const doc = await answer.json();
  document.getElementById("error").textContent = answer.ok ? "" : doc.reason;
  if (answer.ok) show(doc);
}
async function poll() {
  const answer = await fetch(`/seat/${seat}`, {headers});
  const doc = await answer.json();
  if (answer.ok && doc.moves_applied !== seen) show(doc);
}
poll(); setInterval(poll, 1500);
</script></html>
"""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port: a port is from 0 (any free one) to 65535, not {args.port}")
    try:
        table = Table(args.players, STANDARD, args.seed)
    except MexicanTrainError as error:  # a count of players or a seed the rules refuse
        parser.error(str(error))
    try:
        server = TableServer((args.host, args.port), table, verbose=True)
    except OSError as error:  # the port is taken, or the host is not this machine's
        parser.exit(1, f"{parser.prog}: cannot serve on {args.host}:{args.port}: {error}\n")
    port = server.server_address[1]
    try:  # Ctrl-C may come as soon as the URLs are out: stop cleanly from here on
        for seat, token in enumerate(table.tokens):
            print(f"seat {seat}: http://{args.host}:{port}/play/{seat}#token={token}")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
