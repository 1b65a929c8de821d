"""Count what the exact sampler of `determinize` must do, against its budget of splits.

Run from the repository root::

    python benchmarks/sampler_budget.py --players 4 --games 150 --presets HUB STANDARD
    python benchmarks/sampler_budget.py --players 8 --games 40 --presets STANDARD
    python benchmarks/sampler_budget.py --players 12 --games 20 --presets STANDARD

Single rounds (``rounds=1``) of planners, dealt from seeds 0 to *--games* - 1.  At every
decision (more than one legal move), the seat to move's view and the round's events as
it saw them are the sampler's input, as `SearchPlayer` gives them; where the events tell
something (a seat that passed holds none of the tiles it could have played, P7), the
count of the deals that fit is made as ``determinize`` makes it, splitting each class of
tiles among the seats that may hold it, and the splits are counted.  Printed: the
decisions with such facts, the largest count, and how many went over the budget
(``_EXACT_SPLITS``), where the sampler gives the count up for its Markov chain.  The
count is a private part of ``determinize`` (this is a check of the implementation, not
an example of the API); ``--check`` first checks this count against the sampler's own
on the first cases.  The figures are in ``docs/explanation/search.rst``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

import attrs
from options import positive_int

from mexican_train import HUB, STANDARD, PlannerPlayer, legal_moves, new_game, view
from mexican_train._bots import determinize as _determinize
from mexican_train.events import Event, apply_with_events, redact_events

PRESETS = {"HUB": HUB, "STANDARD": STANDARD}
#: A count's input: the classes' masks of seats, the classes' sizes, the seats' room.
Case = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def classes(facts: dict[int, int], unseen: Sequence[object], sizes: dict[int, int]) -> Case:
    """Return the masks, the sizes of the classes and the seats' room, as
    ``_deal_fitting`` makes them for its count."""
    seats = sorted(facts)
    by_mask: dict[int, int] = {}
    for position in range(len(unseen)):
        mask = sum(1 << k for k, s in enumerate(seats) if not facts[s] >> position & 1)
        by_mask[mask] = by_mask.get(mask, 0) + 1
    found = sorted(by_mask.items())
    return (
        tuple(mask for mask, _ in found),
        tuple(count for _, count in found),
        tuple(sizes[s] for s in seats),
    )


def count_splits(
    masks: tuple[int, ...], counts: tuple[int, ...], caps: tuple[int, ...], cap: int
) -> int:
    """Return the splits the count makes (each class's ways into the seats' room, once
    for every room reached), or *cap* + 1 as soon as it is over *cap*."""
    seats = len(caps)
    seen: set[tuple[int, tuple[int, ...]]] = set()
    stack = [(0, caps)]
    total = 0
    while stack:
        c, room = stack.pop()
        if c == len(masks) or (c, room) in seen:
            continue
        seen.add((c, room))
        rests = [room]
        for k in range(seats):
            if masks[c] >> k & 1:
                rests = [
                    (*rest[:k], rest[k] - take, *rest[k + 1 :])
                    for rest in rests
                    for take in range(min(rest[k], counts[c] - sum(room) + sum(rest)) + 1)
                ]
        total += len(rests)
        if total > cap:
            return cap + 1
        stack.extend((c + 1, rest) for rest in rests)
    return total


def cases(preset: str, players: int, games: int) -> list[Case]:
    """Return the classes of every decision with facts, game by game."""
    planner = PlannerPlayer()
    found: list[Case] = []
    for game in range(games):
        state = new_game(players, attrs.evolve(PRESETS[preset], rounds=1), seed=game)
        events: tuple[Event, ...] = ()
        while state.current_player is not None:
            seat = state.current_player
            mine = view(state, seat)
            moves = legal_moves(mine)
            if len(moves) > 1:
                history = redact_events(events, seat)
                _, _, unseen, facts, _ = _determinize._prepare(mine, random.Random(0), history)
                if facts:
                    sizes = {other: mine.hand_sizes[other] for other in facts}
                    found.append(classes(facts, unseen, sizes))
            state, new = apply_with_events(state, planner.choose(mine, moves))
            events += new
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players", type=int, choices=range(2, 13), default=4, metavar="2-12",
        help="players at the table (default 4)",
    )  # fmt: skip
    parser.add_argument("--games", type=positive_int, default=150, help="rounds (default 150)")
    parser.add_argument("--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS))
    parser.add_argument(
        "--check",
        action="store_true",
        help="first check the count against the sampler's own, on the first 50 decisions",
    )
    args = parser.parse_args()
    budget = _determinize._EXACT_SPLITS
    for preset in args.presets:
        found = cases(preset, args.players, args.games)
        counts = [count_splits(*case, budget) for case in found]
        checked = 0
        if args.check:
            for case, count in list(zip(found, counts, strict=True))[:50]:
                if count <= budget:
                    if _determinize._fitting_splits(*case, count) is None or (
                        count > 0 and _determinize._fitting_splits(*case, count - 1) is not None
                    ):
                        raise SystemExit(f"the sampler's own count is not {count:,} for {case}")
                    checked += 1
        over = sum(count > budget for count in counts)
        largest = max((c for c in counts if c <= budget), default=0)
        print(
            f"{preset} {args.players} players, {args.games} rounds: {len(found)} decisions "
            f"with facts, the largest count within the budget {largest:,} splits, "
            f"{over} over the budget of {budget:,}"
        )
        if args.check:
            print(f"  --check: the sampler's own count agrees on {checked} decisions")


if __name__ == "__main__":
    main()
