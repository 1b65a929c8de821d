"""Write your own house rules against the public protocols, then play a whole game with them.

Two rules that are not in the catalogue:

- `HighestDoubleFirst`, an open-double rule (D2-D4): when several doubles are
  open, the highest one must be covered first, whoever laid it.
- `MexicanWhileAnyMarker`, a Mexican-train rule (V2): the Mexican train is open
  to everybody while any player's train carries a marker.

Run it with ``python examples/custom_rules.py``.
"""

from __future__ import annotations

import argparse
import random

import attrs

from mexican_train import STANDARD, apply, legal_moves, new_game
from mexican_train.variants import Cover, OpenDouble, Table, describe_rules


@attrs.frozen
class HighestDoubleFirst:
    """Open doubles are covered highest first (D2, D3); a dead double binds nobody (D4)."""

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        # Only a double that can still be covered binds (D4).
        live = [double for double in doubles if double.closable]
        if not live:
            return Cover((), only=False)
        highest = max(live, key=lambda double: double.pip)
        return Cover((highest.train,), only=True)

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        # Within the turn the next tile may go anywhere, onto the highest double if onto one.
        live = [double for double in doubles if double.closable]
        highest = max(live, key=lambda double: double.pip, default=None)
        return Cover(() if highest is None else (highest.train,), only=False)


@attrs.frozen
class MexicanWhileAnyMarker:
    """The Mexican train is open to everybody while any player's train carries a marker (V2)."""

    def is_open(self, table: Table, seat: int) -> bool:
        return any(table.train(other).marked for other in range(table.players))


HOUSE_RULES = attrs.evolve(
    STANDARD, open_doubles=HighestDoubleFirst(), mexican_train=MexicanWhileAnyMarker()
)


def main(seed: int = 2026, players: int = 4) -> None:
    """Play one whole game under HOUSE_RULES between random players and print the result."""
    standard, house = describe_rules(STANDARD), describe_rules(HOUSE_RULES)
    for axis, text in house.items():
        if text != standard[axis]:
            print(f"{axis}: {text}")
    rng = random.Random(seed)
    state = new_game(players, HOUSE_RULES, seed=seed)
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
    print(f"{len(state.round_scores)} rounds played; totals: {state.scores}")
    print("winner(s):", ", ".join(f"seat {seat}" for seat in state.winners))


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options
    main()
