"""mexican-train: the rules of Mexican Train dominoes, as an immutable functional core.

>>> from mexican_train import new_game, legal_moves, apply, HUB
>>> state = new_game(4, HUB, seed=1)
>>> while not state.is_over:
...     state = apply(state, legal_moves(state)[0])
...
>>> len(state.round_scores), len(state.winners) >= 1
(13, True)
"""

from ._bots.coach import Review, analyze
from ._bots.determinize import determinize
from ._bots.longest import longest_train
from ._bots.players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from ._bots.search import SearchPlayer
from ._bots.simulate import SimulationResult, simulate
from ._catalogue.variants import VARIANTS, get_variant
from ._core import engine as _engine
from ._core.deal import Deal
from ._core.engine import apply, legal_moves, mexican_open, new_game, round_score
from ._core.errors import (
    DealError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    MexicanTrainError,
    RulesError,
    UnknownVariantError,
)
from ._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from ._core.rules import (
    HUB,
    STANDARD,
    CloseInOrder,
    Cover,
    EnginePlacement,
    FirstTurn,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    MexicanTrainRule,
    OpenDouble,
    OpenDoubleRule,
    Rules,
    Table,
)
from ._core.state import GameState, StateChanges, Train
from ._core.tables import TABLE_A, TABLE_B, DealTable
from ._core.tiles import Tile, TileNotationError, full_set, set_size
from ._core.view import PlayerView, ViewChanges, spectator_view, view
from ._formats.events import apply_with_events
from ._formats.notation import NotationError, format_move, format_state, parse_move, parse_state
from ._formats.record import GameRecord, ReplayError, record, replay, replay_states
from ._formats.serialize import SchemaError
from ._positions.chance import build_state, draw_tile, next_round, reorder_boneyard

__version__ = "0.1.0"

#: Whether the core imported is the compiled build (mypyc, ``MEXICAN_TRAIN_COMPILE=1``)
#: rather than pure Python.  Both behave alike; the compiled one is faster.
COMPILED: bool = not _engine.INTERPRETED


__all__ = [
    "COMPILED",
    "HUB",
    "MEXICAN",
    "STANDARD",
    "TABLE_A",
    "TABLE_B",
    "VARIANTS",
    "CallLastTile",
    "CloseInOrder",
    "Cover",
    "Deal",
    "DealError",
    "DealTable",
    "Draw",
    "EnginePlacement",
    "FirstTurn",
    "GameRecord",
    "GameState",
    "GreedyPlayer",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidStateError",
    "MexicanFromFirstTurn",
    "MexicanFromSecondTurn",
    "MexicanTrainError",
    "MexicanTrainRule",
    "Move",
    "NextRound",
    "NotationError",
    "OpenDouble",
    "OpenDoubleRule",
    "Pass",
    "PlannerPlayer",
    "Play",
    "Player",
    "PlayerView",
    "RandomPlayer",
    "ReplayError",
    "Review",
    "Rules",
    "RulesError",
    "SchemaError",
    "SearchPlayer",
    "SimulationResult",
    "StateChanges",
    "Table",
    "Tile",
    "TileNotationError",
    "Train",
    "UnknownVariantError",
    "ViewChanges",
    "__version__",
    "analyze",
    "apply",
    "apply_with_events",
    "build_state",
    "determinize",
    "draw_tile",
    "format_move",
    "format_state",
    "full_set",
    "get_variant",
    "legal_moves",
    "longest_train",
    "mexican_open",
    "new_game",
    "next_round",
    "parse_move",
    "parse_state",
    "record",
    "reorder_boneyard",
    "replay",
    "replay_states",
    "round_score",
    "set_size",
    "simulate",
    "spectator_view",
    "view",
]
