"""The ladder of the levels for people: every level against every other, head to head.

Run from the repository root::

    python benchmarks/ladder.py --deals 200
    python benchmarks/ladder.py --smoke          # a couple of deals (CI)

For each pair of levels (``easy``, ``medium``, ``hard``: `mexican_train.players.LEVELS`,
made by `make_bot`), two players play single rounds of a preset (``HUB`` by default,
cut to one round with ``rounds=1``).  Deal *d* is dealt from seed *d* and played twice,
the two levels swapping seats, so the luck of the deal and of the seat cancels.  A round
is won by the lower score (E3; a tie is half a win each).  Printed per pair: the first
level's win rate with a 95% confidence interval (normal, over the deals' means, as a
deal's two rounds are not independent; cut to 0-100%) and its mean points less the
other's per round, with its own; a single deal has no spread to make one of: ``(one deal)``.
The search bots are told every event as their seat sees it (``observe``), as
`simulate` does.  Only the public API is used.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from typing import Any

from options import positive_int
from tournament import PRESETS, half_width, interval, measured_build, play_round, report

from mexican_train.players import LEVELS, make_bot


def run_pair(preset: str, first: str, second: str, deals: int, start: int) -> dict[str, Any]:
    """Play *deals* deals of *first* against *second*, each deal twice with the seats swapped."""
    wins: list[float] = []
    diffs: list[float] = []
    for deal in range(start, start + deals):
        won = diff = 0.0
        for seat in range(2):
            players = [make_bot(second), make_bot(second)]
            players[seat] = make_bot(first)
            points, _ = play_round(preset, deal, players, -1)
            mine, theirs = points[seat], points[1 - seat]
            won += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            diff += mine - theirs
        wins.append(won / 2)
        diffs.append(diff / 2)
    rate = statistics.fmean(wins)
    half = half_width(wins)
    mean = statistics.fmean(diffs)
    spread = half_width(diffs)
    return {
        "preset": preset,
        "first": first,
        "second": second,
        "rounds": 2 * deals,
        "deals": deals,
        "first_deal": start,
        "win_rate": rate,
        # A rate is within [0, 1] whatever the sample; one deal gives no interval (None).
        "ci_low": None if half is None else max(0.0, rate - half),
        "ci_high": None if half is None else min(1.0, rate + half),
        "mean_diff": mean,
        "diff_low": None if spread is None else mean - spread,
        "diff_high": None if spread is None else mean + spread,
    }


def row(cell: dict[str, Any]) -> str:
    """Return the printed line of a pair's *cell*: the first level's rate and points."""
    return (
        f"{cell['preset']:9} {cell['first']:7} {cell['second']:7} {cell['rounds']:6} "
        f"{cell['win_rate']:7.1%} {interval(cell['ci_low'], cell['ci_high'], '6.1%')} "
        f"{cell['mean_diff']:+8.2f} {interval(cell['diff_low'], cell['diff_high'])}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--deals", type=positive_int, default=200, help="deals per pair (default 200)"
    )
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--preset", default="HUB", choices=list(PRESETS))
    parser.add_argument("--json", help="also append every pair to this file, one JSON per line")
    parser.add_argument("--smoke", action="store_true", help="2 deals a pair")
    args = parser.parse_args(argv)
    if args.smoke:
        args.deals = 2
    print(measured_build())
    print(f"{'preset':9} {'level':7} {'vs':7} {'rounds':>6} {'wins':>7} {'95% CI':^17} "
          f"{'points':>8} {'95% CI':^18}")  # fmt: skip
    levels = list(LEVELS)
    for weaker, stronger in itertools.combinations(levels, 2):
        cell = run_pair(args.preset, stronger, weaker, args.deals, args.first_deal)
        report(row(cell), cell, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
