"""Mexican Train as an OpenSpiel game: importing this module registers it.

Needs the ``openspiel`` extra (``pip install 'mexican-train[openspiel]'``; open_spiel
publishes wheels for Python 3.11 and later).  The game is a Python game named
``python_mexican_train`` with the parameters ``players`` and ``rules`` (a variant's
name), explicit chance nodes for every tile dealt or drawn, and observation tensors
from `mexican_train.rl.ObservationCodec`.

>>> import pyspiel
>>> import mexican_train.openspiel
>>> game = pyspiel.load_game("python_mexican_train", {"players": 4, "rules": "hub"})
>>> state = game.new_initial_state()
>>> import random
>>> rng = random.Random(0)
>>> while not state.is_terminal():
...     if state.is_chance_node():
...         tiles, odds = zip(*state.chance_outcomes())
...         state.apply_action(rng.choices(tiles, odds)[0])
...     else:
...         state.apply_action(rng.choice(state.legal_actions()))
...
>>> round(sum(state.returns()), 6)
0.0
"""

try:
    import pyspiel  # noqa: F401  (the openspiel extra)
except ImportError as error:
    raise ImportError(
        "mexican_train.openspiel needs open_spiel, from the openspiel extra: "
        "pip install 'mexican-train[openspiel]' (Python 3.11 or later)"
    ) from error

from ._adapters.openspiel import GAME_NAME, MexicanTrainGame, MexicanTrainState

__all__ = ["GAME_NAME", "MexicanTrainGame", "MexicanTrainState"]
