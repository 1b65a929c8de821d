"""Run the benchmarks on several builds of the library and print them side by side.

Each build is an interpreter (a virtual environment with the library installed),
optionally with a source directory put first on ``PYTHONPATH``::

    python benchmarks/compare.py pure=.venv/bin/python compiled=/tmp/cvenv/bin/python
    python benchmarks/compare.py --quick old=.venv/bin/python:/tmp/old/src new=.venv/bin/python

The builds run one after another, each its whole `run.py` (``--json``), so each
ratio *library ÷ baseline* is measured in its own run, interleaved with its own
baseline: the figure to compare, since the machine's load cancels out of it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: The figures compared: a label, and how to find the figure in run.py's JSON.
ROWS: list[tuple[str, tuple[str, ...], str]] = [
    ("HUB rounds ÷ baseline", ("rounds", "HUB", "ratio_to_baseline"), "{:.2f}"),
    ("STANDARD rounds ÷ baseline", ("rounds", "STANDARD", "ratio_to_baseline"), "{:.2f}"),
    ("HUB moves/s", ("rounds", "HUB", "moves_per_s"), "{:,.0f}"),
    ("baseline moves/s", ("rounds", "baseline", "moves_per_s"), "{:,.0f}"),
    ("one move, HUB (µs)", ("calls", "HUB", "apply_us"), "{:.2f}"),
    ("legal_moves of a new state, HUB (µs)", ("calls", "HUB", "legal_moves_us"), "{:.2f}"),
    ("legal_moves of a new view, HUB (µs)", ("calls", "HUB", "legal_moves_view_us"), "{:.2f}"),
    ("hash() of a new state, HUB (µs)", ("calls", "HUB", "hash_us"), "{:.2f}"),
    ("view, HUB (µs)", ("calls", "HUB", "view_us"), "{:.2f}"),
    ("simulate games/s, 1 core", ("simulate", "1 core", "games_per_s"), "{:.1f}"),
    ("simulate games/s, all cores", ("simulate", "*", "games_per_s"), "{:.1f}"),
    ("bytes/state, 4 players HUB", ("memory", "4 players, HUB", "bytes_per_state"), "{:.0f}"),
    ("bytes/state, 14 players", ("memory", "14 players, STANDARD", "bytes_per_state"), "{:.0f}"),
]


def figure(results: dict[str, Any], path: tuple[str, ...]) -> Any:
    """Return the figure at *path*, ``*`` matching the last key of its level; None if absent."""
    value: Any = results
    for key in path:
        if not isinstance(value, dict) or not value:
            return None
        value = value[list(value)[-1]] if key == "*" else value.get(key)
    return value


def run(name: str, spec: str, quick: bool) -> dict[str, Any]:
    """Run run.py in the build *spec* (``PYTHON[:SOURCE]``); return its figures."""
    python, _, source = spec.partition(":")
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = source
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "figures.json"
        command = [python, str(HERE / "run.py"), "--json", str(out), *(["--quick"] * quick)]
        print(f"== {name}: {' '.join(command)}", flush=True)
        subprocess.run(command, env=env, check=True, cwd=scratch)
        figures: dict[str, Any] = json.loads(out.read_text())
        return figures


def build(text: str) -> tuple[str, str]:
    """Return a ``NAME=PYTHON[:SOURCE]`` argument as (name, python[:source]), or refuse it."""
    name, equals, spec = text.partition("=")
    if not (name and equals and spec):
        raise argparse.ArgumentTypeError(f"a build is NAME=PYTHON[:SOURCE], not {text!r}")
    return name, spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("builds", nargs="+", type=build, metavar="NAME=PYTHON[:SOURCE]")
    parser.add_argument("--quick", action="store_true", help="a smoke run: little work, noisy")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write every figure here")
    args = parser.parse_args(argv)
    builds = dict(args.builds)
    if len(builds) < len(args.builds):
        parser.error("each build needs a name of its own")
    results = {name: run(name, spec, args.quick) for name, spec in builds.items()}
    names = list(results)
    width = max(len(label) for label, _, _ in ROWS)
    print(f"\nSide by side ({'quick' if args.quick else 'full'} runs; medians)")
    print("  " + "".ljust(width) + "".join(f"{name:>14}" for name in names))
    print("  " + "".ljust(width) + "".join(
        f"{'compiled' if results[n]['machine'].get('compiled') else 'pure':>14}" for n in names
    ))  # fmt: skip
    for label, path, form in ROWS:
        cells = []
        for name in names:
            value = figure(results[name], path)
            cells.append(f"{'-' if value is None else form.format(value):>14}")
        print("  " + label.ljust(width) + "".join(cells))
    held = []
    for name in names:
        found = results[name].get("targets")
        held.append("-" if not found else f"{sum(t['holds'] for t in found.values())}/{len(found)}")
    print("  " + "targets held".ljust(width) + "".join(f"{h:>14}" for h in held))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
