"""What the browser tests and the docs' screenshot share: Debian's chromium, and a served table.

Playwright launches the chromium at ``/usr/bin/chromium``, headless, never one it
downloads; a table is served on a free port of 127.0.0.1 in a thread of its own.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from mexican_train.web import WebServer, WebTable, make_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT = 20_000  # ms: a page that never updates fails the test instead of hanging it


# Each document a page receives, by WebSocket or in a JSON answer, noted in
# window.__documents for a failure's message: [ms since load, how, version, moves, seat to
# move]; and its sockets' closes and the clicks, with what was clicked.
_RECORDER = """
(() => {
  const notes = window.__documents = [];
  const note = (how, text) => {
    try {
      const d = JSON.parse(text);
      if (d && d.view) {
        notes.push([Math.round(performance.now()), how, d.version, d.moves.length, d.view.current_player]);
      } else {
        notes.push([Math.round(performance.now()), how, d && (d.error || d.seat)]);
      }
    } catch (error) { /* not JSON */ }
  };
  document.addEventListener("click", (event) => {
    const at = event.target instanceof Element ? event.target.closest("[data-tile], [data-train], [data-kind]") : null;
    notes.push([Math.round(performance.now()), "click", at ? JSON.stringify(at.dataset) : String(event.target)]);
  }, true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => note("socket", event.data));
      this.addEventListener("close", (event) => notes.push([Math.round(performance.now()), "closed", event.code]));
    }
  };
  const fetched = window.fetch;
  window.fetch = async (...args) => {
    const answer = await fetched(...args);
    answer.clone().text().then((text) => note(String(args[0]), text), () => {});
    return answer;
  };
})();
"""


def recorded(context: BrowserContext) -> BrowserContext:
    """*context*, its pages noting each document they receive (see `documents`)."""
    context.add_init_script(_RECORDER)
    return context


def documents(page: Page) -> object:
    """The last documents *page* received (of a `recorded` context), for a failure's message."""
    return page.evaluate("(window.__documents || []).slice(-12)")


def shown(page: Page) -> str:
    """What *page* shows, and the last documents it received (a `recorded` page's), in
    words for a failure's message."""
    said = page.evaluate(
        "[document.body.dataset.phase, document.body.dataset.live,"
        " document.body.dataset.version, document.getElementById('status').textContent,"
        " document.getElementById('hint').textContent,"
        " document.getElementById('error').textContent,"
        " document.getElementById('trains').innerHTML.slice(0, 2000)]"
    )
    return (
        f"phase, live, version, status, hint, error, trains {said}; the last documents "
        f"received (ms since load, how, version, moves, to move): {documents(page)}"
    )


def click_a_train(page: Page) -> None:
    """Click the first train the chosen tile may go on; if none can be clicked, fail
    with what the page shows (`shown`)."""
    try:
        page.locator("#trains button:not([disabled])").first.click(timeout=WAIT)
    except PlaywrightTimeoutError:
        raise AssertionError(f"no train to click: {shown(page)}") from None


def click_a_move(page: Page) -> None:
    """Click a move: a playable tile and the first train it may go on, else the first
    action (draw, pass, the next round)."""
    tiles = page.locator("#hand .hand-tile.playable")
    if tiles.count() > 0:
        tiles.first.click()
        click_a_train(page)
    else:
        page.locator("#actions button").first.click()


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait until *condition()* holds on the server's side, failing after `WAIT` with *what*."""
    deadline = time.monotonic() + WAIT / 1000
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {WAIT / 1000:.0f} s"
        time.sleep(0.01)


@contextlib.contextmanager
def launched() -> Iterator[Browser]:
    """Debian's chromium, closed on the way out."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def served(table: WebTable, *, lobby: bool = False) -> Iterator[WebServer]:
    """*table* served on a free port of 127.0.0.1 (with the lobby, if asked), stopped after."""
    server = make_server(table, "127.0.0.1", 0, log=None, lobby=lobby)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
