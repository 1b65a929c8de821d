"""Players and bots: the `Player` protocol, four ready bots, and `longest_train`.

People choose a strength by level (`LEVELS`: ``easy``, ``medium``, ``hard``);
`make_bot` makes any bot or level by name, as the command line's ``--bots`` does.

A player is anything with a ``choose(view, moves)`` method: it is shown a
`~mexican_train.PlayerView` (never the full `~mexican_train.GameState`) and
the legal moves, and returns one of them.

>>> from mexican_train import STANDARD, apply, legal_moves, new_game, view
>>> from mexican_train.players import GreedyPlayer, PlannerPlayer, RandomPlayer
>>> bots = [PlannerPlayer(), GreedyPlayer(), RandomPlayer(seed=1), GreedyPlayer()]
>>> state = new_game(4, STANDARD, seed=3)
>>> while not state.is_over:
...     seat = state.current_player
...     if seat is None:
...         state = apply(state, legal_moves(state)[0])  # NextRound()
...     else:
...         mine = view(state, seat)
...         state = apply(state, bots[seat].choose(mine, legal_moves(mine)))
...
>>> len(state.round_scores)
13
>>> longest_train(["12-5", "5-3", "3-3", "12-1"], 12)
Chain('12-5 5-3 3-3', start=12)
"""

from ._bots.longest import DEFAULT_MAX_NODES, Chain, longest_train
from ._bots.names import LEVELS, make_bot, player_name
from ._bots.players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from ._bots.search import SearchPlayer

__all__ = [
    "DEFAULT_MAX_NODES",
    "LEVELS",
    "Chain",
    "GreedyPlayer",
    "PlannerPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "longest_train",
    "make_bot",
    "player_name",
]
