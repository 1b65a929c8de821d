"""An open page survives the server's kill -9: it reconnects by itself once it is back.

Like ``test_web_browser.py``: Playwright drives Debian's chromium (``nox -s browser``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT = 20_000  # ms: a page that never reconnects fails the test instead of hanging it


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def _serve(db: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    """Start ``mexican-train serve`` on *port* with *db*; return it and seat 0's link."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", str(port),
         "--players", "3", "--people", "1", "--bots", "greedy", "--bot-delay", "0.2",
         "--db", str(db), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    assert process.stdout is not None
    printed = ""
    while "Press Ctrl-C" not in printed:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"the server stopped: {printed}")
        printed += line
    return process, printed


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=20)


def _live(page: Page, live: str) -> None:
    page.wait_for_function(f"document.body.dataset.live === {live!r}", timeout=WAIT)


def test_a_page_reconnects_after_kill_9_and_the_table_goes_on(
    browser: Browser, tmp_path: Path
) -> None:
    db = tmp_path / "tables.sqlite3"
    process, printed = _serve(db, 0)
    link = re.search(r"seat 0: (http://\S+)", printed).group(1)  # type: ignore[union-attr]
    port = int(re.search(r":(\d+)/", link).group(1))  # type: ignore[union-attr]
    page = browser.new_context(bypass_csp=True).new_page()
    try:
        page.goto(link)
        _live(page, "yes")
        page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
        tiles = page.locator("#hand .hand-tile.playable")
        if tiles.count() > 0:
            tiles.first.click()
            page.locator("#trains button:not([disabled])").first.click()
        else:
            page.locator("#actions button").first.click()
        page.wait_for_function("Number(document.body.dataset.version) >= 1", timeout=WAIT)
        _kill(process)
        _live(page, "no")
        assert "reconnecting" in (page.locator("#status").text_content() or "")
        process, printed = _serve(db, port)  # the same database, the same port
        assert "is back at move" in printed
        _live(page, "yes")
        # The bots play on after the restart: the person's turn comes round again.
        page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
        assert "here" in (page.locator("#presence").text_content() or "")
    finally:
        page.context.close()
        if process.poll() is None:
            _kill(process)
