"""Play one complete game between random players and print the result."""

import argparse
import random

from mexican_train import STANDARD, apply, legal_moves, new_game


def main(seed: int = 2026) -> None:
    rng = random.Random(seed)
    state = new_game(4, STANDARD, seed=seed)
    while not state.is_over:
        moves = legal_moves(state)
        state = apply(state, rng.choice(moves))
    for number, scores in enumerate(state.round_scores, start=1):
        print(f"round {number:2}: " + "  ".join(f"{s:4}" for s in scores))
    print("total:    " + "  ".join(f"{s:4}" for s in state.scores))
    print("winner(s):", ", ".join(f"seat {seat}" for seat in state.winners))


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options
    main()
