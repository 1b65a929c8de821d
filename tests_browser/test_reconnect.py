"""An open page survives the server's kill -9: it reconnects by itself once it is back.

Like ``test_web_browser.py``: Playwright drives Debian's chromium (``nox -s browser``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from mexican_train import STANDARD, legal_moves, view
from mexican_train._frontends import web
from mexican_train._frontends.store import TableStore
from mexican_train.players import GreedyPlayer
from mexican_train.web import SPECTATOR, WebTable, make_server
from tests_browser.chromium import WAIT, click_a_move, recorded


def _serve(db: Path, port: int, *table: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``mexican-train serve`` on *port* with *db*; return it and what it printed.

    *table* are its options for the table (by default three players, greedy bots).
    """
    table = table or ("--players", "3", "--bots", "greedy")
    with _log(db).open("a") as log:  # the server's own log, for a failure's message
        process = subprocess.Popen(
            [sys.executable, "-m", "mexican_train", "serve", "--port", str(port), *table,
             "--people", "1", "--bot-delay", "0.2", "--db", str(db), "-q"],
            stdout=subprocess.PIPE, stderr=log, text=True,
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


def _log(db: Path) -> Path:
    return db.with_suffix(".log")


def _your_turn(page: Page, db: Path) -> None:
    """Wait until the page shows the person's turn: the phase, the status's colour, the
    tab's title.  (A socket that drops for a moment takes the colour away until the page
    is back: the page is waited for, not read at one instant.)"""
    try:
        page.wait_for_function(
            "document.body.dataset.phase === 'my-turn'"
            " && document.getElementById('status').classList.contains('your-turn')",
            timeout=WAIT,
        )
    except PlaywrightTimeoutError:
        said = page.evaluate(
            "[document.body.dataset.phase, document.body.dataset.live,"
            " document.getElementById('status').textContent]"
        )
        log = _log(db).read_text(encoding="utf-8")[-3000:]
        pytest.fail(f"not the person's turn: phase, live, status {said}; the server's log:\n{log}")
    assert page.title() == "Your turn \u2013 Mexican Train"


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=20)


def _live(page: Page, live: str) -> None:
    page.wait_for_function(f"document.body.dataset.live === {live!r}", timeout=WAIT)


def _lost(page: Page) -> None:
    """Wait until the page says it lost the table and is reconnecting (live "no")."""
    try:
        page.wait_for_function(
            "document.body.dataset.live === 'no'"
            " && document.getElementById('status').textContent.includes('reconnecting')",
            timeout=WAIT,
        )
    except PlaywrightTimeoutError:
        said = page.evaluate(
            "[document.body.dataset.phase, document.body.dataset.live,"
            " document.getElementById('status').textContent]"
        )
        pytest.fail(f"the page does not say it is reconnecting: phase, live, status {said}")


def test_a_page_reconnects_after_kill_9_and_the_table_goes_on(
    browser: Browser, tmp_path: Path
) -> None:
    db = tmp_path / "tables.sqlite3"
    process, printed = _serve(db, 0)
    link = re.search(r"seat 0: (http://\S+)", printed).group(1)  # type: ignore[union-attr]
    port = int(re.search(r":(\d+)/", link).group(1))  # type: ignore[union-attr]
    page = recorded(browser.new_context(bypass_csp=True)).new_page()
    try:
        page.goto(link)
        _live(page, "yes")
        page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
        before = int(page.evaluate("document.body.dataset.version"))
        click_a_move(page)
        # The move made and shown before the kill: killed with the move in flight, the
        # server may never have kept it, and the page keeps its tile chosen, to send again.
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=WAIT)
        _your_turn(page, db)
        _kill(process)
        _lost(page)
        # Not in the colour of a turn, nor marked as one in the tab's title: nothing can be
        # played while the table is lost.
        assert "your-turn" not in (page.locator("#status").get_attribute("class") or "")
        assert page.title() == "Mexican Train"
        process, printed = _serve(db, port)  # the same database, the same port
        assert "is back at move" in printed
        _live(page, "yes")
        _your_turn(page, db)
        # The table goes on after the restart: a move, then the person's turn again.
        restarted = int(page.evaluate("document.body.dataset.version"))
        click_a_move(page)
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {restarted}"
            " && document.body.dataset.phase !== 'waiting'",
            timeout=WAIT,
        )
        assert "here" in (page.locator("#presence").text_content() or "")
    finally:
        page.context.close()
        if process.poll() is None:
            _kill(process)


def test_a_page_follows_a_new_game_at_the_table_across_a_restart(
    browser: Browser, tmp_path: Path
) -> None:
    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    table = WebTable(2, STANDARD, bots={1: GreedyPlayer()})
    hashes = {**table.token_hashes, SPECTATOR: table.spectator_hash}
    web._keep(table, store, store.add(table.record(), hashes, table.bot_names()))
    while not table.state.is_over:  # the first game, played out at once
        if table.state.current_player in {0, None}:
            table.play(0, legal_moves(view(table.state, 0))[0])
        table.play_bots()
    table.again(0)  # a new game at the table: its version goes on from the first game's
    seen = table.version
    server = make_server(table, port=0, log=None)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    page = browser.new_context(bypass_csp=True).new_page()
    process = None
    try:
        page.goto(server.links()[0])
        page.wait_for_function(f"Number(document.body.dataset.version) >= {seen}", timeout=WAIT)
        server.server_close()
        thread.join(WAIT / 1000)
        store.close()
        _live(page, "no")
        seen = int(page.evaluate("document.body.dataset.version"))  # the bot may have moved
        process, printed = _serve(db, port, "--players", "2", "--bots", "greedy")
        assert "is back at move" in printed
        _live(page, "yes")
        # The restarted table's documents are newer than the page's: it moves on with them.
        page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
        shown = int(page.evaluate("document.body.dataset.version"))
        assert shown >= seen
        click_a_move(page)
        page.wait_for_function(f"Number(document.body.dataset.version) > {shown}", timeout=WAIT)
    finally:
        page.context.close()
        if process is not None and process.poll() is None:
            _kill(process)
