"""Measure `SearchPlayer`'s strength: one searcher against three bots, single rounds.

Run from the repository root::

    python benchmarks/tournament.py --rounds 300 --iterations 40 100
    python benchmarks/tournament.py --smoke          # a few rounds, a tiny budget (CI)
    python benchmarks/tournament.py --paired old.jsonl new.jsonl   # two runs' --json, deal by deal
    python benchmarks/tournament.py --oracle --presets HUB --opponents planner  # hands shown
    python benchmarks/tournament.py --oracle early --presets HUB --opponents planner
    python benchmarks/tournament.py --iterations 180 --early planner   # search late only

Each cell is one preset (`STANDARD` or `HUB`, 4 players, cut to a single round with
``rounds=1``), one kind of opponent (three `PlannerPlayer`\\ s, three `GreedyPlayer`\\ s,
or, as ``search180``, three ``SearchPlayer(iterations=180, replan=False)``: the search
with playouts that keep each seat's first plan) and one iteration budget.  The seats
rotate in full, as in a duplicate tournament: deal *d* is dealt from seed *d* and played
four times, the searcher in seat 0, 1, 2 and 3 in turn, so ``--rounds 300`` plays 75
deals, and every cell plays the same deals.  For each round the figure is the **paired
difference**: the searcher's points less the mean of its three opponents' points (E3;
below 0 is better than the table).  Over the four seats of a deal, a table of four equal
bots scores exactly 0 (each round's differences sum to 0), so the luck of the deal and of
the seat cancels, and the control row (``--control``: the opponent bot itself in the
searcher's seat) is 0 by construction.  The confidence interval is taken over the deals'
means (the four rounds of a deal are not independent); a single deal gives none
(``(one deal)``).

Printed per cell: the mean difference with its 95% confidence interval (normal, mean ±
1.96 standard errors), the win rate (rounds where the seat scored lowest, ties shared),
and the median and 90th-percentile CPU time of a searched decision (a decision with more
than one legal move and no last-tile call to make): CPU time, because the machine may be
shared, and wall time then measures the other programs as much as this one.  ``--paired``
compares two runs of the same deals (their ``--json`` files, cell by cell in order): the
second's difference less the first's, deal by deal, with its 95% interval.
``--oracle`` shows the searcher every hand (its views carry them as under open hands,
V10; the boneyard's order stays hidden): not a player, a measure of what knowing the
hands is worth, the bound of what inference can give.  ``--oracle early`` shows them
only while every other seat holds more than `LATE_TILES` tiles, ``--oracle late`` only
once one holds that many or fewer: where in the round knowing them is worth most.
``--early`` and ``--late`` play the searcher's decisions of that part of the round with
another budget, or as the planner (``planner``): where in the round the search pays.
Only the public API is used, but for ``--overrule``, which sets the search's private
threshold (the player takes no argument for it).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs
from options import non_negative_float, positive_int

from mexican_train import (
    COMPILED,
    HUB,
    STANDARD,
    Move,
    Player,
    PlayerView,
    legal_moves,
    new_game,
    view,
)
from mexican_train._bots import search as search_module
from mexican_train.events import Event, apply_with_events, redact_events
from mexican_train.players import GreedyPlayer, PlannerPlayer, SearchPlayer

PRESETS = {"STANDARD": STANDARD, "HUB": HUB}
# --oracle late: the hands are shown once another seat holds this many tiles or fewer.
LATE_TILES = 4
ORACLES = ("always", "early", "late")
OPPONENTS: dict[str, Callable[[], Any]] = {
    "planner": PlannerPlayer,
    "greedy": GreedyPlayer,
    # The searcher at 180 iterations, its playouts keeping each seat's first plan.
    "search180": lambda: SearchPlayer(iterations=180, replan=False),
}


def play_round(
    preset: str, seed: int, players: list[Player], timed: int, oracle: str | None = None
) -> tuple[list[int], list[float]]:
    """Play one single-round game; return the points and the times of *timed*'s searched decisions.

    With *oracle* (one of `ORACLES`), *timed*'s views show every hand (as under open
    hands, V10), always or in that part of the round, so its worlds differ only in the
    boneyard's order: what perfect inference could give.
    """
    state = new_game(len(players), attrs.evolve(PRESETS[preset], rounds=1), seed=seed)
    times: list[float] = []
    while state.current_player is not None:
        seat = state.current_player
        mine = view(state, seat)
        if seat == timed and _shows_hands(oracle, state.hand_sizes, seat):
            mine = mine.replace(open_hands=tuple(state.hand(s) for s in range(state.players)))
        moves = legal_moves(mine)
        start = time.process_time()
        move = players[seat].choose(mine, moves)
        elapsed = time.process_time() - start
        if (
            seat == timed
            and len(moves) > 1
            and not any(type(m).__name__ == "CallLastTile" for m in moves)
        ):
            times.append(elapsed)
        after, events = apply_with_events(state, move)
        for watcher, player in enumerate(players):
            _tell(player, redact_events(events, watcher))  # as that seat sees the round
        state = after
    return list(state.round_scores[-1]), times


def _tell(player: Player, events: tuple[Event, ...]) -> None:
    # Give *player* the events, if it keeps what it is told (an ``observe`` method).
    observe = getattr(player, "observe", None)
    if observe is not None:
        observe(events)


def _is_late(hand_sizes: tuple[int, ...], seat: int | None) -> bool:
    # Whether another seat than *seat* holds LATE_TILES tiles or fewer.
    return min(n for other, n in enumerate(hand_sizes) if other != seat) <= LATE_TILES


def _shows_hands(oracle: str | None, hand_sizes: tuple[int, ...], seat: int) -> bool:
    if oracle is None:
        return False
    return oracle == "always" or _is_late(hand_sizes, seat) == (oracle == "late")


@attrs.frozen
class Phased:
    """A player that plays as *early* while every other seat holds more than `LATE_TILES`
    tiles, and as *late* once one holds that many or fewer; both are told every event."""

    early: Player
    late: Player

    def observe(self, events: tuple[Event, ...]) -> None:
        _tell(self.early, events)
        _tell(self.late, events)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        player = self.late if _is_late(view.hand_sizes, view.seat) else self.early
        return player.choose(view, moves)


def _budget(text: str) -> str:
    # An --early or --late budget: a number of iterations, or the planner's move.
    if text != "planner" and not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"a number of iterations or 'planner', not {text!r}")
    return text


def run_cell(
    preset: str,
    opponent: str,
    iterations: int | None,
    rounds: int,
    seed: int,
    first: int = 0,
    inference: bool = True,
    replan: bool = True,
    oracle: str | None = None,
    early: str | None = None,
    late: str | None = None,
) -> dict[str, Any]:
    """Play *rounds* rounds of one cell, four per deal; *iterations* None is the control.

    *early* and *late* (a number of iterations, or ``planner``) replace the searcher's
    budget in that part of the round (`Phased`).
    """

    def searcher(budget: str | None, iterations: int) -> Player:
        if budget == "planner":
            return PlannerPlayer()
        return SearchPlayer(
            iterations=iterations if budget is None else int(budget),
            seed=seed,
            inference=inference,
            replan=replan,
        )

    per_deal: list[float] = []
    diffs: list[float] = []
    wins = 0.0
    times: list[float] = []
    deals = max(1, math.ceil(rounds / 4))
    for deal in range(first, first + deals):
        here: list[float] = []
        for seat in range(4):
            # One player per seat: a searcher keeps what its seat has seen.
            players: list[Player] = [OPPONENTS[opponent]() for _ in range(4)]
            if iterations is not None:
                players[seat] = (
                    Phased(searcher(early, iterations), searcher(late, iterations))
                    if early or late
                    else searcher(None, iterations)
                )
            points, taken = play_round(preset, deal, players, seat, oracle)
            times += taken
            others = [p for s, p in enumerate(points) if s != seat]
            here.append(points[seat] - statistics.fmean(others))
            low = min(points)
            if points[seat] == low:
                wins += 1 / points.count(low)
        diffs += here
        per_deal.append(statistics.fmean(here))
    mean = statistics.fmean(per_deal)
    half = half_width(per_deal)
    ordered = sorted(times)
    return {
        "preset": preset,
        "opponent": opponent,
        "iterations": iterations,
        "inference": inference,
        "replan": replan,
        "oracle": oracle,
        "early": early,
        "late": late,
        "rounds": len(diffs),
        "deals": deals,
        "first_deal": first,
        "mean_diff": mean,
        "ci_low": None if half is None else mean - half,
        "ci_high": None if half is None else mean + half,
        "win_rate": wins / len(diffs),
        "decisions": len(times),
        "median_s": statistics.median(ordered) if ordered else None,
        "p90_s": ordered[int(0.9 * (len(ordered) - 1))] if ordered else None,
        "diffs": diffs,
    }


def _row(cell: dict[str, Any]) -> str:
    who = "control" if cell["iterations"] is None else f"search@{cell['iterations']}"
    if cell.get("oracle"):
        who += " oracle" if cell["oracle"] == "always" else f" {cell['oracle']}"
    for phase in ("early", "late"):
        if cell.get(phase):
            who += f" {phase}={cell[phase]}"
    timing = (
        f"{cell['median_s'] * 1000:7.1f} ms {cell['p90_s'] * 1000:7.1f} ms"
        if cell["median_s"] is not None
        else f"{'-':>10} {'-':>10}"
    )
    return (
        f"{cell['preset']:9} {cell['opponent']:8} {who:12} {cell['rounds']:5} "
        f"{cell['mean_diff']:+8.2f} {interval(cell['ci_low'], cell['ci_high'])} "
        f"{cell['win_rate']:6.1%} {timing}"
    )


def half_width(values: list[float]) -> float | None:
    """Return the half-width of the 95% normal interval of the mean of *values* (1.96
    standard errors); None for one value, which has no spread to make an interval of."""
    if len(values) < 2:
        return None
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def interval(low: float | None, high: float | None, form: str = "+7.2f") -> str:
    """Return the interval from *low* to *high* written, or ``(one deal)`` for none."""
    if low is None or high is None:
        width = 2 * len(format(0.0, form)) + 4
        return f"{'(one deal)':^{width}}"
    return f"[{low:{form}}, {high:{form}}]"


def measured_build() -> str:
    """The line that says which build of the core a run measured."""
    return f"the core: {'compiled (mypyc)' if COMPILED else 'pure Python'}"


def report(row: str, cell: dict[str, Any], path: str | None) -> None:
    """Print *row*, and with *path* append *cell* to that file as one line of JSON."""
    print(row, flush=True)
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(cell) + "\n")


def _deals(cell: dict[str, Any]) -> str:
    # The deals a cell played, in words.
    return f"{cell['preset']}, {cell['rounds']} rounds from deal {cell['first_deal']}"


def _cells(path: str) -> list[dict[str, Any]]:
    # The cells of a --json file, or a one-line error.
    try:
        with open(path, encoding="utf-8") as cells:
            found = [json.loads(line) for line in cells]
        for cell in found:
            for key in ("preset", "rounds", "first_deal", "diffs"):
                if not isinstance(cell, dict) or key not in cell:
                    raise ValueError(f"a cell has no {key!r}")
    except (OSError, ValueError) as error:
        raise SystemExit(
            f"cannot read {path} as a --json file of this tournament: {error}"
        ) from None
    return found


def paired(first: str, second: str) -> list[str]:
    """Return a line per cell of two ``--json`` files: *second* less *first*, deal by deal."""
    lines = []
    olds, news = _cells(first), _cells(second)
    if len(olds) != len(news):
        raise SystemExit(f"{first} has {len(olds)} cells and {second} {len(news)}")
    for old, new in zip(olds, news, strict=True):
        if _deals(old) != _deals(new):
            raise SystemExit(f"not the same deals: {_deals(old)} and {_deals(new)}")
        deals = [
            statistics.fmean(new["diffs"][i : i + 4]) - statistics.fmean(old["diffs"][i : i + 4])
            for i in range(0, len(old["diffs"]), 4)
        ]
        mean = statistics.fmean(deals)
        half = half_width(deals)
        spread = "(one deal)" if half is None else interval(mean - half, mean + half, "+.2f")
        lines.append(
            f"{new['preset']:9} {old['rounds']:5} rounds: {mean:+.2f} {spread} points a round"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rounds", type=positive_int, default=300, help="rounds per cell, 4 per deal (default 300)"
    )
    parser.add_argument("--iterations", type=positive_int, nargs="+", default=[40, 100])
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument(
        "--opponents",
        nargs="+",
        choices=list(OPPONENTS),
        help="the bots in the other seats (default: all; --smoke: planner and greedy)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the searcher's seed")
    parser.add_argument(
        "--first-deal", type=int, default=0, help="deal the first deal from this seed (default 0)"
    )
    parser.add_argument(
        "--control", action="store_true", help="also play the bot itself in the searcher's seat"
    )
    parser.add_argument("--json", help="also append every cell to this file, one JSON per line")
    parser.add_argument(
        "--no-inference",
        action="store_true",
        help="the searcher ignores what the round has shown (determinize without history)",
    )
    parser.add_argument(
        "--no-replan",
        action="store_true",
        help="the searcher's playouts keep each seat's first plan (SearchPlayer(replan=False))",
    )
    parser.add_argument(
        "--oracle",
        nargs="?",
        const="always",
        choices=ORACLES,
        help="the searcher sees every hand (not the boneyard's order): what perfect inference"
        f" gives; 'early' while every other seat holds more than {LATE_TILES} tiles, 'late'"
        " after",
    )
    for phase, when in (
        ("early", f"while every other seat holds more than {LATE_TILES} tiles"),
        ("late", f"once another seat holds {LATE_TILES} tiles or fewer"),
    ):
        parser.add_argument(
            f"--{phase}",
            type=_budget,
            metavar="N|planner",
            help=f"{when}, the searcher plays N iterations a decision, or the planner's move",
        )
    parser.add_argument(
        "--overrule",
        type=non_negative_float,
        metavar="SE",
        help="the searcher plays another move than the planner's when its outcome is lower by"
        " more than SE standard errors (0: lower at all; default: the player's own, 1)",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="8 rounds (2 deals) a cell, 8 iterations"
    )
    parser.add_argument(
        "--paired",
        nargs=2,
        metavar=("FIRST", "SECOND"),
        help="compare two --json files of the same deals: SECOND less FIRST, deal by deal",
    )
    args = parser.parse_args(argv)
    if args.paired:
        print("\n".join(paired(*args.paired)))
        return 0
    if args.smoke:
        args.rounds, args.iterations = 8, [8]
        # The runner is what a smoke run checks: three searchers in the other seats
        # would take minutes of it on the pure-Python build.
        args.opponents = args.opponents or ["planner", "greedy"]
    args.opponents = args.opponents or list(OPPONENTS)
    if args.overrule is not None:  # a screen of the threshold: the player has no argument for it
        search_module._Z = args.overrule
    print(measured_build())
    print(f"{'preset':9} {'vs':8} {'player':12} {'rounds':>5} {'diff':>8} {'95% CI':^18} "
          f"{'wins':>6} {'median':>10} {'p90':>10}")  # fmt: skip
    budgets: list[int | None] = [*([None] if args.control else []), *args.iterations]
    for preset in args.presets:
        for opponent in args.opponents:
            for iterations in budgets:
                cell = run_cell(
                    preset,
                    opponent,
                    iterations,
                    args.rounds,
                    args.seed,
                    args.first_deal,
                    inference=not args.no_inference,
                    replan=not args.no_replan,
                    oracle=args.oracle,
                    early=args.early,
                    late=args.late,
                )
                report(_row(cell), cell, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
