"""Record `SearchPlayer`'s decisions on a fixed set of positions, and time them.

Run from the repository root::

    python benchmarks/search_decisions.py --json before.json     # record (and time)
    python benchmarks/search_decisions.py --json after.json
    python benchmarks/search_decisions.py --compare before.json after.json

The positions are the views of the seat to move in single-round, 4-player games of four
`PlannerPlayer`\\ s under `HUB` and `STANDARD` (deals from seeds 0 to *--games* - 1)
where the seat has more than one legal move and no last-tile call to make: every
*--every*-th such decision of a seat's first turn (P4, under `STANDARD`), every
*--every*-th other one, and every decision under an open double (D2), which are rare.
For each position it records:

- the move of ``SearchPlayer(iterations=180, seed=0)`` (``--iterations``, ``--seed``),
  and the CPU time it took;
- the playout values themselves: in two worlds (`determinize` with ``random.Random(0)``
  and ``random.Random(1)``), the outcome of playing out every legal move with the
  search's playout (``mexican_train._bots.playout.playout``, a private function: this is a
  check of the implementation, not an example of the API), written with ``float.hex``
  so that equal means bit for bit equal.

``--compare A B`` checks that two recordings hold the same positions, the same moves and
the same playout values, and prints the median CPU time per decision of each.  A speed-up
of the search must leave every move and every value as it was: the tournament results
(`docs/explanation/search.rst`) then stay valid for the faster code.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs
from options import positive_int

from mexican_train import (
    COMPILED,
    HUB,
    STANDARD,
    GameState,
    apply,
    determinize,
    legal_moves,
    new_game,
    view,
)
from mexican_train.players import PlannerPlayer, SearchPlayer

PRESETS = {"HUB": HUB, "STANDARD": STANDARD}


#: Where the search's playout function is: in this layout, and in the flat layouts of
#: other commits, which a comparison may record (module, name).
PLAYOUT_HOMES = [
    ("mexican_train._bots.playout", "playout"),
    ("mexican_train._playout", "playout"),
    ("mexican_train._search", "_playout"),
]


def playout_function() -> Callable[[GameState, int], float]:
    """Return the search's playout: a private function (a check of the implementation)."""
    for module, name in PLAYOUT_HOMES:
        try:
            return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
        except ImportError:
            continue
    raise ImportError(f"no playout function in any of {PLAYOUT_HOMES}")


def positions(games: int, every: int) -> list[tuple[str, int, int, Any]]:
    """Return (preset, game, decision, view) for the positions recorded; see the module doc."""
    planner = PlannerPlayer()
    found = []
    for name, preset in PRESETS.items():
        for game in range(games):
            state = new_game(4, attrs.evolve(preset, rounds=1), seed=game)
            decision = 0
            seen = {"first turn": 0, "open double": 0, "other": 0}
            while state.current_player is not None:
                mine = view(state, state.current_player)
                moves = legal_moves(mine)
                if len(moves) > 1 and not any(type(m).__name__ == "CallLastTile" for m in moves):
                    # Every n-th decision of each kind, and every one under an open double.
                    kind = _kind(mine)
                    if seen[kind] % every == 0 or kind == "open double":
                        found.append((name, game, decision, mine))
                    seen[kind] += 1
                    decision += 1
                state = apply(state, planner.choose(mine, moves))
    return found


def _kind(mine: Any) -> str:
    if mine.rules.first_turn is not None and not mine.had_first_turn[mine.seat]:
        return "first turn"  # P4
    return "open double" if mine.open_doubles else "other"  # D2


def record(games: int, every: int, iterations: int, seed: int) -> dict[str, Any]:
    """Return the recording: every position's move, CPU time and playout values."""
    player = SearchPlayer(iterations=iterations, seed=seed)
    playout = playout_function()
    rows = []
    for name, game, decision, mine in positions(games, every):
        moves = legal_moves(mine)
        start = time.process_time()
        move = player.choose(mine, moves)
        elapsed = time.process_time() - start
        values = []
        for world_seed in (0, 1):
            world = determinize(mine, random.Random(world_seed))
            values.append([playout(apply(world, m), mine.seat).hex() for m in moves])
        rows.append(
            {
                "preset": name,
                "game": game,
                "decision": decision,
                "seat": mine.seat,
                "moves": len(moves),
                "kind": _kind(mine),
                "move": repr(move),
                "seconds": elapsed,
                "values": values,
            }
        )
    return {
        "compiled": COMPILED,
        "iterations": iterations,
        "seed": seed,
        "games": games,
        "every": every,
        "positions": rows,
    }


def summary(recording: dict[str, Any]) -> str:
    """Return one line: the build, the positions and the CPU time per decision."""
    rows = recording["positions"]
    times = sorted(row["seconds"] for row in rows)
    return (
        f"{'compiled' if recording['compiled'] else 'pure':8} {len(rows)} positions "
        f"({sum(r['kind'] == 'first turn' for r in rows)} first turns, "
        f"{sum(r['kind'] == 'open double' for r in rows)} under an open double), "
        f"iterations {recording['iterations']}: median {statistics.median(times) * 1000:.1f} ms, "
        f"90th percentile {times[int(0.9 * (len(times) - 1))] * 1000:.1f} ms, "
        f"total {sum(times):.2f} s"
    )


def compare(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Print both summaries and every difference; return the number of differences."""
    print("A:", summary(a))
    print("B:", summary(b))
    differences = 0
    if (a["iterations"], a["seed"]) != (b["iterations"], b["seed"]):
        print("the recordings used different settings")
        differences += 1
    if len(a["positions"]) != len(b["positions"]):
        print(f"{len(a['positions'])} positions against {len(b['positions'])}")
        differences += 1
    for x, y in zip(a["positions"], b["positions"], strict=False):
        where = f"{x['preset']} game {x['game']} decision {x['decision']}"
        keys = ("preset", "game", "decision", "seat", "moves", "move", "values")
        for key in keys:
            if x[key] != y[key]:
                differences += 1
                shown = f": {x[key]} / {y[key]}" if key != "values" else ""
                print(f"{where}: {key} differs{shown}")
    moves = sum(1 for _ in a["positions"])
    values = sum(len(v) for row in a["positions"] for v in row["values"])
    print(
        f"{differences} differences over {moves} moves and {values} playout values"
        if differences
        else f"identical: {moves} moves and {values} playout values"
    )
    return differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="write the recording to this file")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two recordings")
    parser.add_argument(
        "--games", type=positive_int, default=10, help="games per preset (default 10)"
    )
    parser.add_argument(
        "--every", type=positive_int, default=6, help="record every n-th decision (default 6)"
    )
    parser.add_argument("--iterations", type=positive_int, default=180)
    parser.add_argument("--seed", type=int, default=0, help="the searcher's seed")
    args = parser.parse_args(argv)
    if args.compare:
        loaded = []
        for path in args.compare:
            with open(path, encoding="utf-8") as handle:
                loaded.append(json.load(handle))
        return 1 if compare(*loaded) else 0
    recording = record(args.games, args.every, args.iterations, args.seed)
    print(summary(recording))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(recording, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
