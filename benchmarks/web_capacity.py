"""How many 4-player tables one web table process serves, at p95 <= 50 ms a move.

    python benchmarks/web_capacity.py [--tables 10 20 40] [--seconds 20] [--think 1.0]
                                      [--repeat 1] [--json]

For each count of tables: starts one server process (``WebServer`` with that many
tables of four people each, the standard rules), then plays every table as four
browsers would: each seat holds a WebSocket (``/api/ws``) that receives its document
at every move, and the seat to move waits ``--think`` seconds (a brisk player), then
sends its first legal move with ``POST /api/move`` on a kept-alive connection; the
time from sending the move to reading the answer is recorded, for ``--seconds`` after
three seconds of warm-up (every page connecting and reading its first document).  Between rounds seat 0
deals.  It prints, for each count, the moves played, the moves a second, and the
moves' latency (median, 95th percentile, maximum), and the largest count whose 95th
percentile is at most 50 ms; with ``--repeat R``, each count runs R times and the run
with the median 95th percentile is shown (a shared machine's other work shows as
outliers).  Everything is bounded: the tables, the time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from options import non_negative_float, positive_float, positive_int

HOST = "127.0.0.1"
TARGET_MS = 50.0
WARM_UP = 3.0  # seconds before the moves are timed


# -- the server, in a process of its own -------------------------------------------------------


def serve(tables: int) -> None:
    """Serve *tables* tables of four people; print each seat's token, as JSON, then serve.

    The server ends when its standard input closes: the measuring process holds the
    other end, so a server never outlives it, however it ends (killed by a timeout too).
    """
    from mexican_train import STANDARD
    from mexican_train.web import WebServer, WebTable

    made = [WebTable(4, STANDARD, seed=i, name=f"t{i}") for i in range(tables)]
    # Each page holds a WebSocket and a kept-alive connection, all from this machine: the
    # caps per client and for everyone (512 by default) are raised to let every page in.
    bound = 8 * tables + 64
    server = WebServer((HOST, 0), made[0], log=None, max_per_client=bound, max_connections=bound)
    for table in made[1:]:
        server.add(table)
    tokens = [[table.tokens[seat] for seat in range(4)] for table in made]
    print(json.dumps({"port": server.server_address[1], "tokens": tokens}), flush=True)
    threading.Thread(target=_end_with_stdin, daemon=True).start()
    server.serve_forever()


def _end_with_stdin() -> None:
    sys.stdin.read()  # returns at end of file: the measuring process has ended
    os._exit(0)


# -- the players ----------------------------------------------------------------------------------


async def _post(connection: list[Any], port: int, token: str, body: bytes) -> int:
    """Send a move on the seat's kept-alive connection (opened again if the server closed it)."""
    request = (
        f"POST /api/move HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    for _ in range(2):
        if not connection:
            connection.extend(await asyncio.open_connection(HOST, port))
        reader, writer = connection
        try:
            writer.write(request)
            status_line = await reader.readline()
        except ConnectionError:
            status_line = b""
        if status_line:
            break
        writer.close()  # closed while idle (uvicorn's keep-alive timeout): open another
        connection.clear()
    status = int(status_line.split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def _seat(
    port: int,
    token: str,
    seat: int,
    think: float,
    window: tuple[float, float],
    latencies: list[float],
) -> None:
    begin, end = window
    from websockets.asyncio.client import connect

    connection: list[Any] = []
    async with connect(f"ws://{HOST}:{port}/api/ws", max_size=None) as socket:
        await socket.send(json.dumps({"token": token}))
        while time.monotonic() < end:
            try:
                message = await asyncio.wait_for(socket.recv(), end - time.monotonic())
            except asyncio.TimeoutError:
                break
            document = json.loads(message)
            if document["view"]["is_over"]:
                break
            moves = document["moves"]
            between_rounds = document["view"]["current_player"] is None
            if not moves or (between_rounds and seat != 0):
                continue
            await asyncio.sleep(think)
            body = json.dumps({"move": moves[0]["notation"], "version": document["version"]})
            started = time.perf_counter()
            status = await _post(connection, port, token, body.encode())
            if status == 200 and time.monotonic() > begin:
                latencies.append(time.perf_counter() - started)
    if connection:
        connection[1].close()


async def _play(port: int, tokens: list[list[str]], seconds: float, think: float) -> list[float]:
    latencies: list[float] = []
    begin = time.monotonic() + WARM_UP  # every page has connected and had its document
    window = (begin, begin + seconds)
    await asyncio.gather(
        *(
            _seat(port, token, seat, think, window, latencies)
            for table in tokens
            for seat, token in enumerate(table)
        )
    )
    return latencies


def measure(tables: int, seconds: float, think: float) -> dict[str, Any]:
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(tables)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    try:
        assert server.stdout is not None
        started = json.loads(server.stdout.readline())
        latencies = asyncio.run(_play(started["port"], started["tokens"], seconds, think))
    finally:
        server.kill()
        server.wait()
    ordered = sorted(latencies)

    def ms(p: float) -> float:
        if not ordered:
            return float("nan")
        return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000, 1)

    return {
        "tables": tables,
        "moves": len(ordered),
        "moves_per_s": round(len(ordered) / seconds, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else float("nan"),
        "p95_ms": ms(95),
        "max_ms": round(ordered[-1] * 1000, 1) if ordered else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=positive_int, nargs="+", default=[10, 20, 40])
    parser.add_argument("--seconds", type=positive_float, default=20.0)
    parser.add_argument("--think", type=non_negative_float, default=1.0)
    parser.add_argument("--repeat", type=positive_int, default=1, help="runs per count; the median")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    rows = []
    for count in args.tables:
        runs = sorted(
            (measure(count, args.seconds, args.think) for _ in range(args.repeat)),
            key=lambda row: row["p95_ms"],
        )
        rows.append(runs[len(runs) // 2])  # the run of the median 95th percentile
    within = [row["tables"] for row in rows if row["p95_ms"] <= TARGET_MS]
    if args.json:
        print(json.dumps({"rows": rows, "capacity": max(within, default=0)}))
        return
    print(f"{'tables':>7} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for row in rows:
        print(
            f"{row['tables']:>7} {row['moves']:>6} {row['moves_per_s']:>8} "
            f"{row['p50_ms']:>7} {row['p95_ms']:>7} {row['max_ms']:>7}"
        )
    print(f"tables served at p95 <= {TARGET_MS:.0f} ms a move: {max(within, default=0)}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    main()
