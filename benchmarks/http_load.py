"""Abuse the web table over localhost and time honest players' moves meanwhile.

    python benchmarks/http_load.py [--seconds 10] [--stalled 600] [--flooders 4]
                                   [--target web|example] [--check SECONDS] [--json]

Starts a server in a process of its own (``mexican-train serve``, two people, or the
example ``examples/http_table.py``), then, for a bounded time:

- an attacker process, connecting from another loopback address (127.0.0.2) as
  another machine would, holds ``--stalled`` sockets open, each having sent half a
  request and then nothing, and opens a new one whenever the server closes one;
- ``--flooders`` threads of the same process, each from an address of its own, send oversized and malformed requests
  back to back, each on a new connection (a 200 MB Content-Length, a negative one, a
  chunked body, JSON nested thousands deep, a request line of 70 KB, PUT, a wrong
  token, garbage, a header line the parser cannot read, and a seated opponent's worst
  body: 16 KB of escaped quotes sent with a seat's own token);
- this process plays the honest players: every 50 ms the player to move reads its
  view and sends a legal move, each request on a new connection, and the time from
  sending the move to reading the answer is recorded.

It prints the honest moves' latency (median, 95th and 99th percentile, maximum), how
many flood requests were answered, how long the server took to close stalled sockets,
and, before the attack, the median of 50 ``GET /api/view`` on one kept-alive connection.  ``--check S`` exits with status 1 if an honest request failed, if the 95th
percentile exceeded S seconds, or if a stalled socket was held past 5 s plus S.
Everything is bounded: the sockets held, the threads, the time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "http_table.py"
HOST = "127.0.0.1"
# The attacker's own addresses (the loopback range is 127.0.0.0/8): the stalled sockets
# come from one, each flooder from another, as from other machines.
ATTACKER = "127.0.0.2"
IO_TIMEOUT = 30.0  # a socket operation that takes longer is a failure, not a hang


# -- the server ------------------------------------------------------------------------------


def start_server(target: str) -> tuple[subprocess.Popen[str], int, list[tuple[str, str]]]:
    """Start the server; return it, its port and (path prefix, token) for each honest seat."""
    if target == "web":
        command = [sys.executable, "-m", "mexican_train", "serve", "--port", "0",
                   "--players", "2", "--people", "2", "-q", "--seed", "1", "--no-db"]  # fmt: skip
        pattern = r"seat (\d): http://[\d.]+:(\d+)/#token=([\w-]+)"
    else:
        command = [sys.executable, str(EXAMPLE), "--players", "2", "--port", "0", "--seed", "1"]
        pattern = r"seat (\d): http://[\d.]+:(\d+)/play/\d#token=([\w-]+)"
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={"PYTHONUNBUFFERED": "1", "PATH": "", "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
    )  # fmt: skip
    assert server.stdout is not None
    seats: list[tuple[str, str]] = []
    port = 0
    while len(seats) < 2:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("the server stopped before printing its links")
        found = re.search(pattern, line)
        if found:
            port = int(found.group(2))
            prefix = "/api" if target == "web" else f"/seat/{found.group(1)}"
            seats.append((prefix, found.group(3)))
    return server, port, seats


# -- the attackers ----------------------------------------------------------------------------


def flood_requests(move_path: str, token: str) -> list[bytes]:
    deep = b"[" * 16_000
    quotes = b'{"move": "' + b'\\"' * 8_000 + b'"}'  # the worst case of a backtracking scan
    return [
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Length: {len(quotes)}\r\n\r\n".encode() + quotes,
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nX : y\r\nContent-Length: 2\r\n\r\n{{}}".encode(),
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nContent-Length: 200000000\r\n\r\n".encode() + b"x" * 4096,
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{{}}".encode(),
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".encode(),
        f"POST {move_path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\nContent-Length: {len(deep)}\r\n\r\n".encode() + deep,
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        f"PUT {move_path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}".encode(),
        f"GET {move_path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-token\r\n\r\n".encode(),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n",
    ]  # fmt: skip


def _connect(port: int, address: str = ATTACKER) -> socket.socket:
    return socket.create_connection((HOST, port), IO_TIMEOUT, (address, 0))


def attack(
    port: int, move_path: str, token: str, seconds: float, stalled: int, flooders: int
) -> None:
    """The attacker process: hold *stalled* sockets and flood, for *seconds*; print counts."""
    end = time.monotonic() + seconds
    counts = {"flood_sent": 0, "flood_answered": 0, "stalled_opened": 0, "stalled_closed": 0}
    close_times: list[float] = []
    lock = threading.Lock()

    def flooder(index: int) -> None:
        requests = flood_requests(move_path, token)
        n = index
        while time.monotonic() < end:
            n += 1
            try:
                with _connect(port, f"127.0.1.{index + 1}") as sock:
                    sock.sendall(requests[n % len(requests)])
                    answer = sock.recv(64)
            except OSError:
                answer = b""
            with lock:
                counts["flood_sent"] += 1
                counts["flood_answered"] += answer.startswith(b"HTTP/1.1 4")
            time.sleep(0.002)  # a flood, bounded: a few hundred requests a second

    def staller() -> None:
        while time.monotonic() < end:
            try:
                sock = _connect(port)
            except OSError:
                time.sleep(0.1)
                continue
            opened = time.monotonic()
            with lock:
                counts["stalled_opened"] += 1
            try:
                sock.sendall(b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Le")
                sock.settimeout(max(0.1, end - time.monotonic()) + 10)
                while sock.recv(4096):
                    pass
                with lock:
                    counts["stalled_closed"] += 1
                    close_times.append(time.monotonic() - opened)
            except OSError:
                pass
            finally:
                sock.close()

    # The few flooders first: hundreds of stallers take a while to start on a busy machine.
    threads = [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(flooders)]
    threads += [threading.Thread(target=staller, daemon=True) for _ in range(stalled)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + IO_TIMEOUT)
    counts["stalled_close_max"] = round(max(close_times, default=0.0), 3)  # type: ignore[assignment]
    print(json.dumps(counts), flush=True)


# -- the honest players --------------------------------------------------------------------------


def request(port: int, method: str, path: str, token: str, body: object = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection(HOST, port, timeout=IO_TIMEOUT)
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {token}", "Connection": "close"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def play_honestly(
    port: int, seats: list[tuple[str, str]], target: str, seconds: float
) -> tuple[list[float], int]:
    """Play moves every 50 ms for *seconds*; return the moves' latencies and the failures."""
    latencies: list[float] = []
    failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            prefix, token = seats[0]
            status, doc = request(
                port, "GET", prefix if target == "example" else "/api/view", token
            )
            current = doc["view"]["current_player"]
            if doc["view"]["is_over"]:
                break
            prefix, token = seats[0 if current is None else current]
            path = prefix if target == "example" else "/api/view"
            status, doc = request(port, "GET", path, token)
            if target == "web":
                move, move_path = doc["moves"][0]["notation"], "/api/move"
            else:
                move, move_path = doc["legal_moves_notation"][0], prefix + "/move"
            started = time.perf_counter()
            status, _ = request(port, "POST", move_path, token, {"move": move})
            latencies.append(time.perf_counter() - started)
            if status != 200:
                failures += 1
        except (OSError, http.client.HTTPException, ValueError, KeyError, IndexError):
            failures += 1
        time.sleep(0.05)
    return latencies, failures


def kept_alive(port: int, token: str, count: int = 50) -> list[float]:
    """Time *count* ``GET /api/view`` on one kept-alive connection, as a browser reuses one."""
    connection = http.client.HTTPConnection(HOST, port, timeout=IO_TIMEOUT)
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            connection.request("GET", "/api/view", headers={"Authorization": f"Bearer {token}"})
            connection.getresponse().read()
            times.append(time.perf_counter() - started)
    finally:
        connection.close()
    return times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--stalled", type=int, default=600)
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--target", choices=["web", "example"], default="web")
    parser.add_argument("--check", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--attack", metavar="PORT PATH TOKEN", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not (0 < args.seconds <= 60 and 0 <= args.stalled <= 1000 and 0 <= args.flooders <= 32):
        parser.error("bounds: 0 < --seconds <= 60, --stalled <= 1000, --flooders <= 32")
    if args.attack:
        port, path, token = args.attack.split(" ")
        attack(int(port), path, token, args.seconds, args.stalled, args.flooders)
        return

    server, port, seats = start_server(args.target)
    try:
        quiet_latencies, _ = play_honestly(port, seats, args.target, 1.0)  # a baseline
        reused = kept_alive(port, seats[0][1]) if args.target == "web" else []
        move_path = "/api/move" if args.target == "web" else "/seat/0/move"
        attacker = subprocess.Popen(
            # One argument, with "=": a token may begin with "-", which argparse reads as an option.
            [sys.executable, __file__, f"--attack={port} {move_path} {seats[1][1]}",
             "--seconds", str(args.seconds), "--stalled", str(args.stalled),
             "--flooders", str(args.flooders)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        time.sleep(min(1.0, args.seconds / 4))  # let the stalled sockets pile up first
        latencies, failures = play_honestly(port, seats, args.target, args.seconds - 1.0)
        out, _ = attacker.communicate(timeout=args.seconds + 2 * IO_TIMEOUT)
        attack_counts = json.loads(out.strip().splitlines()[-1])
    finally:
        server.terminate()
        server.wait(IO_TIMEOUT)

    result = {
        "target": args.target,
        "seconds": args.seconds,
        "stalled_sockets": args.stalled,
        "flooders": args.flooders,
        "quiet_p95_ms": round(percentile(quiet_latencies, 95) * 1000, 1),
        "kept_alive_p50_ms": round(percentile(reused, 50) * 1000, 2) if reused else None,
        "moves": len(latencies),
        "failures": failures,
        "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "p95_ms": round(percentile(latencies, 95) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
        **attack_counts,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    if args.check is not None:
        problems = []
        if failures or not latencies:
            problems.append(f"{failures} honest requests failed, {len(latencies)} moves answered")
        if result["p95_ms"] > args.check * 1000:
            problems.append(f"p95 {result['p95_ms']} ms is over {args.check * 1000:.0f} ms")
        if reused and percentile(reused, 50) > 0.040:  # a delayed ACK costs ~40 ms a request
            problems.append(f"a kept-alive request took {result['kept_alive_p50_ms']} ms")
        if (args.flooders and not attack_counts["flood_sent"]) or (
            args.stalled and not attack_counts["stalled_opened"]
        ):
            problems.append(f"the attack did not run: {attack_counts}")
        if attack_counts["stalled_close_max"] > 5 + args.check:
            problems.append(f"a stalled socket was held {attack_counts['stalled_close_max']} s")
        if problems:
            raise SystemExit("http_load: " + "; ".join(problems))


if __name__ == "__main__":
    main()
