"""The hashes the docs promise the same in every process ("Why the core is immutable").

A state, a view (a seat's and a spectator's), a train, a tile and every move hash ints
only, so their ``hash()`` does not depend on ``PYTHONHASHSEED``; the rules' does, and the
docs say so.
"""

from __future__ import annotations

from child_processes import printed_under_hash_seed

#: Prints the hash of one value of each kind, one line each, from a game part-way through.
_HASHES = """
from mexican_train import (
    HUB, MEXICAN, CallLastTile, Draw, NextRound, Pass, Play, Tile, apply, full_set,
    legal_moves, new_game, spectator_view, view,
)
state = new_game(4, HUB, seed=5)
for _ in range(40):
    state = apply(state, legal_moves(state)[-1])
between_rounds = new_game(2, HUB, seed=2)
while between_rounds.current_player is not None:
    between_rounds = apply(between_rounds, legal_moves(between_rounds)[0])
values = {
    "state": state,
    "view": view(state, 0),
    "spectator": spectator_view(state),
    "view between rounds": view(between_rounds, 1),
    "trains": state.trains,
    "tiles": tuple(full_set(12)),
    "moves": (Play(Tile(6, 4), 2), Play(Tile(6, 4), MEXICAN), Draw(), Pass(), NextRound(),
              CallLastTile(), *legal_moves(state)),
}
for name, value in values.items():
    print(f"{name}: {hash(value)}")
"""


def test_states_views_trains_tiles_and_moves_hash_alike_in_every_process() -> None:
    """The same hashes under three hash seeds."""
    runs = {seed: printed_under_hash_seed(_HASHES, seed) for seed in ("0", "1", "4242")}
    names = [line.split(":")[0] for line in runs["0"].splitlines()]
    assert names == [
        "state", "view", "spectator", "view between rounds", "trains", "tiles", "moves"
    ]  # fmt: skip
    assert len(set(runs.values())) == 1, runs
