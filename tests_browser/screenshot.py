"""Take the docs' picture of the web table: ``python -m tests_browser.screenshot OUT.png``.

A four-player standard game (you against three planner bots) in the middle of its first
round, a tile of your hand chosen; chromium as in the browser test, at 1280x800.
"""

from __future__ import annotations

import sys

from mexican_train import STANDARD, legal_moves, view
from mexican_train.players import PlannerPlayer
from mexican_train.web import WebTable
from tests_browser.chromium import launched, served


def table_in_play(tiles: int) -> WebTable:
    """You and three planners at double-12 (seed 12), played until the trains hold *tiles*
    tiles in all, your turn; up to 50, round 1 has not ended."""
    table = WebTable(4, STANDARD, bots={seat: PlannerPlayer() for seat in (1, 2, 3)}, seed=12)
    you = PlannerPlayer()
    while sum(len(train.tiles) for train in table.state.trains) < tiles:
        table.play(0, you.choose(view(table.state, 0), legal_moves(view(table.state, 0))))
        table.play_bots()
        assert table.state.current_player == 0, "the round ended before the trains grew"
    return table


def main(out: str) -> None:
    with served(table_in_play(38)) as server, launched() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.links()[0])
        page.wait_for_selector("#board [data-train]")
        playable = page.locator("#hand .hand-tile.playable")
        if playable.count():
            playable.first.click()
        page.screenshot(path=out, full_page=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "web-table.png")
