"""What a screen reader hears at the web table: the page's live regions, recorded.

Like ``test_web_browser.py``: Playwright drives Debian's chromium (``nox -s browser``).
Each addition to a live region (the text it reads out) is noted in ``window.__heard``
by a MutationObserver installed before the page's own script runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute

from mexican_train import STANDARD
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable, make_server
from tests_browser.chromium import WAIT, click_a_move, recorded, served
from tests_browser.screenshot import table_in_play

# A region is live as the ARIA roles and attributes make it: aria-live other than "off"
# wins over the role's own politeness.
_LIVE = (
    "[aria-live]:not([aria-live=off]), [role=status]:not([aria-live]),"
    " [role=log]:not([aria-live]), [role=alert]:not([aria-live])"
)

_LISTENER = f"""
(() => {{
  const heard = window.__heard = [];
  const live = (node) => {{
    const at = node instanceof Element ? node : node.parentElement;
    return at ? at.closest({_LIVE!r}) : null;
  }};
  new MutationObserver((changes) => {{
    for (const change of changes) {{
      const region = live(change.target);
      if (!region) continue;
      if (change.type === "characterData") {{
        heard.push([region.id, region.textContent]);
        continue;
      }}
      const added = [...change.addedNodes].map((node) => node.textContent).join("");
      // A role=status region reads itself whole (aria-atomic); a log, what was added.
      if (added) heard.push([region.id, region.matches("[role=log]") ? added : region.textContent]);
    }}
  }}).observe(document, {{childList: true, characterData: true, subtree: true}});
}})();
"""

SIX = attrs.evolve(STANDARD, max_pip=6, rounds=1)
NINE = attrs.evolve(STANDARD, max_pip=9, hand_size=8, rounds=1)


def _listening(browser: Browser) -> Page:
    context = recorded(browser.new_context(bypass_csp=True))
    context.add_init_script(_LISTENER)
    return context.new_page()


def _heard(page: Page) -> list[tuple[str, str]]:
    return [(region, words) for region, words in page.evaluate("window.__heard")]


def _forget(page: Page) -> None:
    page.evaluate("window.__heard.length = 0")


def _phase_after(page: Page, version: int) -> str:
    page.wait_for_function(
        f"Number(document.body.dataset.version) > {version}"
        " && document.body.dataset.phase !== 'waiting'",
        timeout=WAIT,
    )
    return str(page.evaluate("document.body.dataset.phase"))


@pytest.fixture
def three_bots() -> Iterator[WebServer]:
    """A person in seat 0 against three greedy bots that each wait a moment, double-9."""
    table = WebTable(
        4, NINE, bots={seat: GreedyPlayer() for seat in (1, 2, 3)}, seed=5, bot_delay=0.05
    )
    with served(table) as server:
        yield server


def test_a_person_hears_the_others_moves_once_a_turn_in_one_summary(
    browser: Browser, three_bots: WebServer
) -> None:
    """Between two of the person's turns the bots make several moves: the page says them
    together when the turn comes back, after the status line's words; meanwhile it says only
    what changes the person's next turn (one tile left, a marker, a double left open)."""
    table = three_bots.table
    page = _listening(browser)
    page.goto(three_bots.links()[0])
    page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
    alerts = ("has one tile left.", "you may play there (P6).", "must be covered first (D2).")
    summaries = 0
    for _ in range(6):
        version = int(page.evaluate("document.body.dataset.version"))
        before = table.document(0)["log"]
        _forget(page)
        click_a_move(page)
        phase = _phase_after(page, version)
        log = table.document(0)["log"]
        theirs = [line for line in log[len(before) :] if not line.startswith("You ")]
        heard = _heard(page)
        # Not the log, nor the status line; the coach's review says once that it is ready.
        assert {region for region, _ in heard} <= {"said", "review-ready"}, heard
        said = [words for region, words in heard if region == "said"]
        status = page.locator("#status").text_content() or ""
        if not theirs and phase == "my-turn":  # the person's turn goes on (a double, a draw)
            assert said == [], said
            continue
        # The last thing said: the status line's words, then every move of the others.
        assert said, heard
        assert said[-1].startswith(status), said
        assert all(line in said[-1] for line in theirs), (said, theirs)
        if len(theirs) > 1:
            summaries += 1
        # Before it, only what changes the person's next turn, each said once.
        for words in said[:-1]:
            assert words.endswith(alerts), said
        assert len(said) <= len(set(said))
        if phase != "my-turn":
            break
    assert summaries > 0  # the bots did make several moves between two turns


def _doc(page: Page) -> Any:
    return page.evaluate("doc")


def _show(page: Page, document: Any) -> None:
    page.evaluate("(d) => show(d)", document)


def test_while_waiting_a_person_hears_what_changes_their_next_turn(
    browser: Browser,
) -> None:
    """A player down to one tile, a marker on another's train (P6), a double left open for
    the next player (D2): each said as it happens, once; other moves wait for the summary."""
    with served(table_in_play(20)) as server:
        page = _listening(browser)
        page.goto(server.links()[0])
        page.wait_for_function(
            "document.body.dataset.phase === 'my-turn'"
            " && window.__documents.some((d) => d[1] === 'socket')",
            timeout=WAIT,
        )
        mine = _doc(page)
        _forget(page)
        # Documents as the others' moves would push them (the table waits for the person).
        # The person leaves a double open on their train: no news to them.
        own = [dict(train) for train in mine["view"]["trains"]]
        own[0]["tiles"] = [*own[0]["tiles"], "1-1"]
        waiting = {**mine, "moves": [], "version": mine["version"] + 1, "must_cover": [0]}
        waiting["view"] = {**mine["view"], "trains": own, "current_player": 1}
        waiting["log"] = [*mine["log"], "You played 1-1 on your train."]
        _show(page, waiting)
        step = {**waiting, "version": waiting["version"] + 1, "must_cover": []}
        step["log"] = [*waiting["log"], "Seat 1 (planner) played 2-2 on the Mexican train."]
        _show(page, step)
        assert _heard(page) == []  # a move that changes nothing of the person's turn
        view = step["view"]
        trains = [dict(train) for train in view["trains"]]
        trains[2]["marked"] = True
        trains[1]["tiles"] = [*trains[1]["tiles"], "9-9"]
        sizes = list(view["hand_sizes"])
        sizes[3] = 1
        alert = {**step, "version": step["version"] + 1, "must_cover": [1]}
        alert["view"] = {**view, "trains": trains, "hand_sizes": sizes, "current_player": 2}
        alert["log"] = [*step["log"], "Seat 1 (planner) played 9-9 on their own train."]
        _show(page, alert)
        _show(page, {**alert, "version": alert["version"] + 1})  # the same again: not said again
        assert _heard(page) == [
            (
                "said",
                "Seat 3 (planner) has one tile left. A marker is on Seat 2 (planner)'s train:"
                " you may play there (P6). The double 9-9 on Seat 1 (planner)'s train is left"
                " open: it must be covered first (D2).",
            )
        ]
        _forget(page)
        back = {**mine, "version": alert["version"] + 2, "must_cover": [1]}
        back["view"] = {**alert["view"], "current_player": 0}
        back["log"] = alert["log"]
        _show(page, back)
        assert _heard(page) == [
            (
                "said",
                f"{mine['status']} Since your last turn: Seat 1 (planner) played 2-2 on the"
                " Mexican train. Seat 1 (planner) played 9-9 on their own train. First cover"
                " the double 9-9 on Seat 1 (planner)'s train (D2).",
            )
        ]
        # The visible log keeps every line, and is no live region.
        assert page.locator("#log li").all_text_contents() == back["log"]
        assert page.locator("#log").evaluate(f"(b) => b.matches({_LIVE!r})") is False
        page.context.close()


def _serve_in_thread(table: WebTable, port: int = 0) -> tuple[WebServer, threading.Thread]:
    server = make_server(table, "127.0.0.1", port, log=None)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    return server, thread


def _stop(server: WebServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(WAIT / 1000)


def test_a_link_refused_on_reconnecting_takes_the_focus_to_why(browser: Browser) -> None:
    """The server stops mid-game and another table takes its port: the page's token is
    refused there.  The game is hidden, and the focus, on a tile of the hand, goes to the
    words that say what happened (read once, as the focus arrives: not also a live region)."""
    first, thread = _serve_in_thread(WebTable(2, SIX, bots={1: GreedyPlayer()}, seed=4))
    port = first.server_address[1]
    page = _listening(browser)
    other = None
    try:
        page.goto(first.links()[0])
        page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
        page.locator("#hand .hand-tile").first.focus()
        _stop(first, thread)
        page.wait_for_function("document.body.dataset.live === 'no'", timeout=WAIT)
        other, thread = _serve_in_thread(WebTable(2, SIX, bots={1: GreedyPlayer()}), port)
        page.wait_for_function("!document.getElementById('nolink').hidden", timeout=WAIT)
        reason = page.locator("#nolink-reason")
        assert (reason.text_content() or "").startswith("The server refused this link")
        assert page.evaluate("document.activeElement.id") == "nolink-reason"
        heard = [words for _, words in _heard(page)]
        assert not any("refused" in words for words in heard), heard
        assert heard.count("Lost the table; reconnecting\u2026") == 1, heard
    finally:
        page.context.close()
        if other is not None:
            _stop(other, thread)


def test_a_table_lost_with_the_focus_nowhere_takes_it_to_the_words_and_back(
    browser: Browser,
) -> None:
    """The table is lost (its WebSocket closes, the server answers no more) while the focus
    is on the page's body: it goes to the status line, which says so, once; the table back,
    the focus goes to the hand."""
    down = {"now": False}
    sockets: list[WebSocketRoute] = []
    refused = {"sockets": 0}

    def socket(route: WebSocketRoute) -> None:
        if down["now"]:
            refused["sockets"] += 1
            route.close(code=1012)
        else:
            route.connect_to_server()
            sockets.append(route)

    def request(route: Route) -> None:
        if down["now"]:
            route.abort()
        else:
            route.continue_()

    with served(WebTable(2, SIX, bots={1: GreedyPlayer()}, seed=4)) as server:
        page = _listening(browser)
        page.route_web_socket("**/api/ws", socket)
        page.route("**/api/view*", request)
        page.goto(server.links()[0])
        page.wait_for_function(
            "document.body.dataset.phase === 'my-turn'"
            " && window.__documents.some((d) => d[1] === 'socket')",
            timeout=WAIT,
        )
        page.evaluate("document.activeElement.blur()")
        _forget(page)
        down["now"] = True
        for route in sockets:
            route.close(code=1012)
        page.wait_for_function("document.body.dataset.live === 'no'", timeout=WAIT)
        assert page.evaluate("document.activeElement.id") == "status"
        assert page.locator("#status").text_content() == "Lost the table; reconnecting\u2026"
        # The page tries again and again: the loss is said once, by the focus reading it.
        deadline = time.monotonic() + WAIT / 1000
        while refused["sockets"] < 2:  # the page's events come while it is asked something
            assert time.monotonic() < deadline, "the page did not try to reconnect"
            page.evaluate("() => new Promise((done) => setTimeout(done, 10))")
        assert _heard(page) == []
        down["now"] = False
        page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
        page.wait_for_function("document.activeElement.matches('#hand .hand-tile')", timeout=WAIT)
        assert [words for _, words in _heard(page)] == ["Back at the table."]
        page.context.close()
