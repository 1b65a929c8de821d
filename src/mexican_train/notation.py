"""The text notation for moves and positions (public API).

A move is one short token; a position is one line, like chess's FEN, holding
everything needed to continue the game exactly.  Both read back exactly what
was written: ``parse_move(format_move(m)) == m`` and
``parse_state(format_state(s)) == s``.

Moves:

==================  =======================================================
``12-5@3``          play the tile 12-5 on seat 3's train
``12-5@M``          play the tile 12-5 on the Mexican train
``draw``            draw a tile from the boneyard
``pass``            end the turn without a further tile
``next``            deal the next round
``call-last-tile``  call the last tile (``Rules.last_tile_penalty``)
==================  =======================================================

A position has nine fields separated by spaces::

    rules setup seed round hands boneyard trains turn scores

See ``docs/reference/notation.rst`` for every field, with examples.

>>> from mexican_train import HUB, new_game
>>> from mexican_train.notation import format_state, parse_state
>>> state = new_game(4, HUB, seed=1)
>>> parse_state(format_state(state)) == state
True
"""

from ._formats.notation import (
    FIELDS,
    NotationError,
    format_move,
    format_state,
    parse_move,
    parse_state,
)

__all__ = ["FIELDS", "NotationError", "format_move", "format_state", "parse_move", "parse_state"]
