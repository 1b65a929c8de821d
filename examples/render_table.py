"""Draw a game in the middle of a round: print the text rendering, write the SVG picture.

    python examples/render_table.py                      # 4 players, double-12, to table.svg
    python examples/render_table.py --players 8 -o eight.svg
    rsvg-convert table.svg -o table.png                   # a PNG, if librsvg is installed

Random legal moves are played from a seeded game until the table shows a marker and an
open double (P6, D2); the player to move's view is drawn, as that player sees it (S5),
with the last move outlined.
The pictures of the table in ``docs/_static/`` are made this way.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from mexican_train import (
    STANDARD,
    GameState,
    MexicanTrainError,
    Move,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train.render import render_svg, render_text

NAMES = ("Ana", "Bruno", "Chidi", "Dana", "Emil", "Fatima", "Goran", "Hana")


def mid_round(players: int, seed: int = 0, min_tiles: int = 30) -> tuple[GameState, Move]:
    """Return the first position of a random round with a marker, an open double and
    at least *min_tiles* tiles on the table, with a player to move; and the move before it."""
    for attempt in range(seed, seed + 1000):
        rng = random.Random(attempt)
        state = new_game(players, STANDARD, seed=attempt)
        while not state.is_round_over:
            move = rng.choice(legal_moves(state))
            state = apply(state, move)
            on_table = sum(len(train.tiles) for train in state.trains)
            if (
                state.current_player is not None
                and state.open_doubles
                and not state.turn_doubles
                and any(train.marked for train in state.trains)
                and on_table >= min_tiles
            ):
                return state, move
    raise LookupError("no such position in 1000 games")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", default="table.svg")
    args = parser.parse_args(argv)
    try:
        min_tiles = 30 if args.players <= 4 else 45
        state, move = mid_round(args.players, args.seed, min_tiles=min_tiles)
    except MexicanTrainError as error:  # a count of players the rules do not deal for
        parser.error(f"--players: {error}")
    seat = state.current_player
    assert seat is not None
    names = [*NAMES, *(f"Seat {number}" for number in range(len(NAMES), args.players))]
    names = names[: args.players]
    print(render_text(view(state, seat), names=names))
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(render_svg(view(state, seat), names=names, last_move=move))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
