"""What the page's badge on the Mexican train says, under each Mexican-train rule (V2).

The badge reads the document's ``mexican_open``: whether the Mexican train is open to the
reader now, or for a spectator to whom.
"""

from __future__ import annotations

import attrs
from playwright.sync_api import Browser

from mexican_train import Draw, GameState, Pass, Play, apply, legal_moves, new_game
from mexican_train.variants import get_variant
from mexican_train.web import WebTable
from tests_browser.chromium import WAIT, served


def _mexican_badge(browser: Browser, state: GameState, link: str) -> str:
    """The words of the badge on the Mexican train's head, on the page of *link*
    (a seat's number, or ``"spectator"``), at a table showing *state*."""
    table = WebTable(state.players, state.rules, seed=0)
    table._state = state  # the position to show; nobody moves
    with served(table) as server:
        host, port = server.server_address[:2]
        url = (
            f"http://{host}:{port}/#token={table.spectator_token}"
            if link == "spectator"
            else server.links()[int(link)]
        )
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector('#board .train[data-train="-1"] .badge', timeout=WAIT)
        words: list[str] = page.locator('#board .train[data-train="-1"] .badge').all_text_contents()
        page.close()
    assert len(words) == 1, words
    return words[0]


def _after_seat_0s_first_turn(variant: str) -> GameState:
    """A double-6 game of two under *variant*: seat 0 has played its first turn on its
    own train, and seat 1 is to move on its first."""
    rules = attrs.evolve(get_variant(variant), max_pip=6, hand_size=7, rounds=1)
    state = new_game(2, rules, seed=4)
    while state.current_player == 0:
        moves = legal_moves(state)
        play = next((m for m in moves if isinstance(m, Play)), None)
        state = apply(state, play or next(m for m in moves if isinstance(m, Draw | Pass)))
    assert state.train(0).owner_played
    assert not state.has_had_first_turn(1)
    return state


def test_v2_the_mexican_train_is_never_open_without_it(browser: Browser) -> None:
    state = _after_seat_0s_first_turn("train-dominoes")
    assert _mexican_badge(browser, state, "0") == "Not open to you (V2)"
    assert _mexican_badge(browser, state, "spectator") == "Open to nobody (V2)"


def test_v2_the_mexican_train_is_open_from_the_start_under_hub(browser: Browser) -> None:
    state = new_game(2, attrs.evolve(get_variant("hub"), max_pip=6, hand_size=7), seed=4)
    assert _mexican_badge(browser, state, "1") == "Open to you (V2)"
    assert _mexican_badge(browser, state, "spectator") == "Open to everyone (V2)"


def test_v2_the_badge_names_whom_the_mexican_train_is_open_to(browser: Browser) -> None:
    state = _after_seat_0s_first_turn("mexican-after-own-train")
    assert _mexican_badge(browser, state, "0") == "Open to you (V2)"
    assert _mexican_badge(browser, state, "1") == "Not open to you (V2)"
    assert _mexican_badge(browser, state, "spectator") == "Open to Seat 0 (V2)"
