"""Reinforcement learning: encodings, a PettingZoo environment and a Gymnasium one.

Needs the ``rl`` extra (``pip install 'mexican-train[rl]'``: numpy, pettingzoo,
gymnasium).  Everything here is built on the public API (`legal_moves`,
`apply`, `view`), and observes only what a seat may know (S5).

- `ActionCodec` and `ObservationCodec`: fixed-size numpy encodings of moves and
  views, with a documented, versioned layout (`ENCODING_VERSION`).
- `env` and `raw_env`: the PettingZoo AEC environment, one agent per seat.
  It has no global ``state()``: that would show every hand (S5).
- `SingleSeatEnv`: one seat as a Gymnasium environment, library players at the
  other seats, with `~SingleSeatEnv.action_masks` for MaskablePPO.  Importing
  this module also registers it with Gymnasium as ``mexican_train/SingleSeat-v0``.
- `vector_env`: many tables as one Gymnasium vector environment (`VectorEnv`),
  every table stepped by one call into the library, or in self-play.  It is the
  registered id's vector entry point: ``gymnasium.make_vec`` returns it, with
  `SingleSeatEnv`'s defaults (4 players, `GreedyPlayer` opponents).

>>> from mexican_train import HUB
>>> from mexican_train.rl import SingleSeatEnv
>>> game = SingleSeatEnv(players=4, rules=HUB)
>>> observation, info = game.reset(seed=1)
>>> total, done = 0.0, False
>>> while not done:
...     action = int(game.action_masks().nonzero()[0][0])  # the first legal move
...     observation, reward, done, truncated, info = game.step(action)
...     total += reward
...
>>> game.game.is_over  # the whole game, every hand in it (for tests and pictures)
True
"""

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:
    raise ImportError(
        "mexican_train.rl needs numpy, pettingzoo and gymnasium, from the rl extra: "
        "pip install 'mexican-train[rl]'"
    ) from error

from ._adapters.codecs import ENCODING_VERSION, ActionCodec, ObservationCodec
from ._adapters.envs import (
    RENDER_MODES,
    SingleSeatEnv,
    VectorEnv,
    env,
    raw_env,
    round_rewards,
    vector_env,
)
from ._core.tiles import tile_index

__all__ = [
    "ENCODING_VERSION",
    "RENDER_MODES",
    "ActionCodec",
    "ObservationCodec",
    "SingleSeatEnv",
    "VectorEnv",
    "env",
    "raw_env",
    "round_rewards",
    "tile_index",
    "vector_env",
]

if "mexican_train/SingleSeat-v0" not in gymnasium.registry:
    gymnasium.register(
        "mexican_train/SingleSeat-v0",
        entry_point="mexican_train.rl:SingleSeatEnv",
        # make_vec's own tables, stepped in one call (vectorization_mode="vector_entry_point").
        vector_entry_point="mexican_train._adapters.envs:single_seat_vector_env",
    )
