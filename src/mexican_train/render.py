"""Draw the table: a plain-text rendering for terminals and logs, and an SVG picture.

Both accept a `GameState` or a `PlayerView`.  A view shows only what its seat
may see (S5): its own hand, or every hand with open hands (V10).  A state shows
every hand, unless ``seat=`` asks for that seat's view of it.

>>> from mexican_train import HUB, new_game, view
>>> from mexican_train.render import render_svg, render_text
>>> mine = view(new_game(4, HUB, seed=1), 2)
>>> print(render_text(mine).splitlines()[0])
Round 1 of 13, engine 12-12: Seat 0 to play
>>> render_svg(mine).startswith("<svg")
True
"""

from ._formats.render import render_svg, render_text

__all__ = ["render_svg", "render_text"]
