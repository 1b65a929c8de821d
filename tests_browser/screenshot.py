"""Take the docs' picture of the web table: ``python tests_browser/screenshot.py OUT.png``.

A four-player standard game (you against three planner bots), a few turns in, with
a tile of your hand chosen; chromium as in the browser test.
"""

from __future__ import annotations

import sys
import threading

from playwright.sync_api import sync_playwright

from mexican_train import STANDARD, legal_moves, view
from mexican_train.players import PlannerPlayer
from mexican_train.web import WebTable, make_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main(out: str) -> None:
    bots = {seat: PlannerPlayer() for seat in (1, 2, 3)}
    table = WebTable(4, STANDARD, bots=bots, seed=12)
    # A few turns in: you play your longest first-turn line, the bots answer.
    for _ in range(40):
        table.play_bots()
        state = table.state
        if state.current_player != 0 or sum(len(t.tiles) for t in state.trains) > 16:
            break
        mine = view(state, 0)
        table.play(0, PlannerPlayer().choose(mine, legal_moves(mine)))
    table.play_bots()
    server = make_server(table, "127.0.0.1", 0, log=None)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(server.links()[0])
            page.wait_for_selector("#board svg")
            playable = page.locator("#hand .hand-tile.playable")
            if playable.count():
                playable.first.click()
            page.screenshot(path=out, full_page=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "web-table.png")
