"""Write a bot, seat it with the library's bots, and watch one game.

A player is anything with a ``choose(view, moves)`` method: it sees its seat's
PlayerView (never the whole state) and the legal moves, and returns one of them.
"""

from __future__ import annotations

import argparse

from mexican_train import (
    STANDARD,
    GreedyPlayer,
    Move,
    NextRound,
    PlannerPlayer,
    Play,
    Player,
    PlayerView,
    RandomPlayer,
    apply,
    legal_moves,
    longest_train,
    new_game,
    view,
)


class LightestFirst:
    """A deliberately poor bot: it plays its lightest tile, keeping the heavy ones."""

    name = "lightest-first"

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        plays = [move for move in moves if isinstance(move, Play)]
        if plays:
            return min(plays, key=lambda move: move.tile.pips)
        return moves[0]  # Draw, or Pass when there is nothing left to draw


def main(seed: int = 2026) -> None:
    players: list[Player] = [PlannerPlayer(), GreedyPlayer(), RandomPlayer(seed=1), LightestFirst()]
    names = ["planner", "greedy", "random", "lightest-first"]
    state = new_game(len(players), STANDARD, seed=seed)

    # The planner's idea: the longest train its hand can build from the engine.
    seat = state.current_player
    assert seat is not None
    plan = longest_train(state.hand(seat), state.engine.high)
    print(f"seat {seat} holds {len(state.hand(seat))} tiles; its longest train from "
          f"{state.engine}: {' '.join(map(str, plan))}")  # fmt: skip

    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state = apply(state, NextRound())  # between rounds: deal the next one
            continue
        mine = view(state, seat)
        state = apply(state, players[seat].choose(mine, legal_moves(mine)))

    for number, points in enumerate(state.round_scores, start=1):
        print(f"round {number:2}: " + "  ".join(f"{p:4}" for p in points))
    print("total:    " + "  ".join(f"{s:4}" for s in state.scores))
    for seat in sorted(range(len(players)), key=lambda s: state.scores[s]):
        print(f"{names[seat]:>15}: {state.scores[seat]}")
    print("winner(s):", ", ".join(names[seat] for seat in state.winners))


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options
    main()
