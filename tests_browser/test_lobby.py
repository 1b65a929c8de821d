"""The lobby in a real browser: make a table, open a seat's link and the spectators'.

Like ``test_web_browser.py``: Playwright drives Debian's chromium (``nox -s browser``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from mexican_train import STANDARD
from mexican_train._frontends.lobby import TABLE_IDLE
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable
from tests_browser.chromium import WAIT, served, until


@pytest.fixture
def server() -> Iterator[WebServer]:
    with served(WebTable(2, STANDARD, bots={1: GreedyPlayer()}, seed=1), lobby=True) as made:
        yield made


def _watched(browser: Browser) -> tuple[BrowserContext, Page, list[str]]:
    """Return a new context, a page of it, and the list its page's errors go to."""
    context = browser.new_context(bypass_csp=True)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _open_lobby(browser: Browser, server: WebServer) -> tuple[BrowserContext, Page, list[str]]:
    """Return a new context, its page on the lobby once shown, and that page's errors."""
    context, lobby, errors = _watched(browser)
    lobby.goto(f"http://127.0.0.1:{server.server_address[1]}/")
    lobby.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    return context, lobby, errors


def test_the_lobby_makes_a_table_whose_links_open_a_seat_and_the_spectators_view(
    browser: Browser, server: WebServer
) -> None:
    context, lobby, errors = _open_lobby(browser, server)
    lobby.select_option("#lobby-rules", "hub")
    lobby.fill("#lobby-players", "3")
    lobby.fill("#lobby-people", "1")
    lobby.select_option("#lobby-level", "easy")
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 2", timeout=WAIT
    )
    seat, spectators = lobby.locator("#lobby-links a").evaluate_all("as => as.map(a => a.href)")
    assert len(server.tables) == 2
    made = server.tables[1]
    assert made.state.players == 3
    assert seat.endswith(f"#token={made.tokens[0]}")

    player = context.new_page()
    player.on("pageerror", lambda error: errors.append(str(error)))
    player.goto(seat)
    player.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    player.wait_for_selector("#hand .hand-tile", timeout=WAIT)
    assert "Seat 2 (easy)" in (player.locator("#presence").text_content() or "")

    watcher = context.new_page()
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.goto(spectators)
    watcher.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    watcher.wait_for_selector("#board svg", timeout=WAIT)
    assert watcher.locator("#hand .hand-tile").count() == 0  # no hand for spectators (S5)
    assert errors == []
    context.close()


def test_the_lobby_says_when_a_table_is_made_and_when_the_server_does_not_answer(
    browser: Browser, server: WebServer
) -> None:
    context, lobby, errors = _open_lobby(browser, server)
    assert lobby.get_by_label("Bots' level").count() == 1
    # The server cannot be reached: the lobby says so, and nothing is left half-done.
    lobby.route("**/api/tables", lambda route: route.abort())
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.getElementById('lobby-error').textContent.includes('did not answer')",
        timeout=WAIT,
    )
    assert lobby.locator("#lobby-links li").count() == 0
    # Once it answers, the status line says the links below are new, and so is a screen
    # reader told (the page's live words, #said).
    lobby.unroute("**/api/tables")
    lobby.fill("#lobby-people", "2")
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 3", timeout=WAIT
    )
    assert lobby.locator("#lobby-error").text_content() == ""
    status = lobby.locator("#status")
    assert status.text_content() == (
        "The table is made: below, a link for each of its 2 people and one for spectators."
    )
    assert lobby.locator("#said p").last.text_content() == status.text_content()
    # A table of one person: the words are for one.
    lobby.fill("#lobby-people", "1")
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 2", timeout=WAIT
    )
    assert status.text_content() == (
        "The table is made: below, a link for its person and one for spectators."
    )
    assert errors == []
    context.close()


def test_the_lobby_and_the_page_without_a_seat_are_the_pages_main_landmark(
    browser: Browser, server: WebServer
) -> None:
    """A screen reader's "go to main" lands on the lobby's form, or on the words saying
    where a seat's link comes from; the page has one main landmark shown at a time."""
    context, lobby, errors = _open_lobby(browser, server)
    main = lobby.get_by_role("main")
    assert main.count() == 1
    assert main.get_by_role("heading", name="A new table").count() == 1
    assert main.get_by_role("button", name="Make the table").count() == 1
    lobby.goto(f"http://127.0.0.1:{server.server_address[1]}/#token=not-a-token")
    lobby.wait_for_selector("#nolink:not([hidden])", timeout=WAIT)
    main = lobby.get_by_role("main")
    assert main.count() == 1
    assert main.get_by_role("heading", name="No seat here").count() == 1
    assert errors == []
    context.close()


def test_the_lobbys_links_are_named_for_whose_they_are_not_by_their_secret(
    browser: Browser, server: WebServer
) -> None:
    """A screen reader names each link by whose it is, never reading its token aloud; the
    URL stays in view, to be read and copied."""
    context, lobby, errors = _open_lobby(browser, server)
    lobby.fill("#lobby-people", "2")
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 3", timeout=WAIT
    )
    made = server.tables[1]
    names = {"Seat 0's link": 0, "Seat 1's link": 1, "Spectators' link": None}
    for name, seat in names.items():
        link = lobby.get_by_role("link", name=name, exact=True)
        assert link.count() == 1, lobby.locator("#lobby-links").aria_snapshot()
        href = link.get_attribute("href") or ""
        if seat is not None:
            assert href.endswith(f"#token={made.tokens[seat]}")
        shown = lobby.locator("#lobby-links li", has=link).locator("code")
        assert shown.text_content() == href  # in view as it is, to copy
        assert shown.is_visible()
    # What a screen reader says: the links' names, not their URLs (the snapshot's /url
    # lines are the links' targets, which it does not read out).
    snapshot = lobby.locator("#lobby-links").aria_snapshot().splitlines()
    heard = [line for line in snapshot if not line.strip().startswith("- /url:")]
    assert not any("token" in line for line in heard), snapshot
    assert [line.strip() for line in heard if "link" in line] == [
        f'- link "{name}":' for name in names
    ]
    assert errors == []
    context.close()


def test_a_page_at_a_table_that_expires_says_so_and_leads_to_the_lobby(
    browser: Browser, server: WebServer
) -> None:
    """The open page is told at once (its WebSocket closes with 4410), and the link opened
    afterwards (answered 410) says the same: in words, with the way to a new table."""
    now = [1_000_000.0]
    table = WebTable(2, STANDARD, seed=1, name="old", clock=lambda: now[0])  # two people
    server.add(table, expires=True)
    link = f"http://127.0.0.1:{server.server_address[1]}/#token={table.tokens[0]}"
    context = browser.new_context(bypass_csp=True)
    errors: list[str] = []
    said = (
        "Nobody played at this table for 24 hours, so it has expired: make a new one in the lobby."
    )
    open_page = context.new_page()
    open_page.on("pageerror", lambda error: errors.append(str(error)))
    open_page.goto(link)
    open_page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    open_page.wait_for_selector("#hand .hand-tile", timeout=WAIT)
    now[0] += TABLE_IDLE
    assert server.expire_idle() == ["old"]
    late_page = context.new_page()
    late_page.on("pageerror", lambda error: errors.append(str(error)))
    late_page.goto(link)
    for page in (open_page, late_page):
        page.wait_for_selector("#nolink:not([hidden])", timeout=WAIT)
        main = page.get_by_role("main")
        assert main.get_by_role("heading", name="This table has expired").count() == 1
        assert page.locator("#nolink-reason").text_content() == said
        assert page.locator("#status").text_content() == "This table has expired."
        assert page.locator("#game").is_hidden()
        assert page.locator("#nolink-help").is_hidden()  # no seat's link would help
    open_page.get_by_role("link", name="Make a new table in the lobby").click()
    open_page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    assert errors == []
    context.close()


def _says_closed(page: Page) -> None:
    """Wait until *page* says its table has closed, in the server's words."""
    page.wait_for_selector("#nolink:not([hidden])", timeout=WAIT)
    main = page.get_by_role("main")
    assert main.get_by_role("heading", name="This table has closed").count() == 1
    assert page.locator("#nolink-reason").text_content() == (
        "Whoever runs the server closed it: it plays no more games."
    )
    assert page.locator("#status").text_content() == "This table has closed."


def test_a_page_at_a_table_that_closes_says_so_and_leads_to_the_lobby(
    browser: Browser, server: WebServer
) -> None:
    """The open page is told at once (its WebSocket closes with 4404): in the server's
    words, with the way to a new table, and it does not try again."""
    table = WebTable(2, STANDARD, seed=1, name="done")  # two people
    server.add(table, expires=True)
    link = f"http://127.0.0.1:{server.server_address[1]}/#token={table.tokens[0]}"
    context, page, errors = _watched(browser)
    page.goto(link)
    page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    page.wait_for_selector("#hand .hand-tile", timeout=WAIT)
    # The page is live once its first document came over HTTP; its WebSocket may connect
    # later: this is the open socket's close (a late one's is the next test's).
    until(lambda: table.connected[0], "the page's WebSocket connects")
    table.close()
    _says_closed(page)
    assert page.locator("#game").is_hidden()
    assert page.get_by_role("link", name="Make a new table in the lobby").is_visible()
    assert errors == []
    context.close()


def test_the_focus_on_a_table_that_closes_goes_to_the_way_to_the_lobby(
    browser: Browser, server: WebServer
) -> None:
    """A keyboard user on a tile of their hand when the table closes: the game is hidden
    under the focus, which goes to the link to the lobby, not to the page's body."""
    table = WebTable(2, STANDARD, seed=1, name="done")
    server.add(table, expires=True)
    link = f"http://127.0.0.1:{server.server_address[1]}/#token={table.tokens[0]}"
    context, page, errors = _watched(browser)
    page.goto(link)
    page.wait_for_selector("#hand .hand-tile", timeout=WAIT)
    until(lambda: table.connected[0], "the page's WebSocket connects")
    page.locator("#hand .hand-tile").first.focus()
    table.close()
    _says_closed(page)
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Make a new table in the lobby", focused
    assert errors == []
    context.close()


def test_a_link_opened_after_its_table_closed_says_so_and_leads_to_the_lobby(
    browser: Browser, server: WebServer
) -> None:
    """A seat's link opened once its table has closed (answered 410 "closed") says so in
    the server's words, with the way to a new table, as the page open then does."""
    table = WebTable(2, STANDARD, seed=1, name="done")  # two people
    server.add(table, expires=True)
    table.close()
    link = f"http://127.0.0.1:{server.server_address[1]}/#token={table.tokens[0]}"
    context, page, errors = _watched(browser)
    page.goto(link)
    _says_closed(page)
    assert page.locator("#nolink-help").is_hidden()  # no seat's link would help
    page.get_by_role("link", name="Make a new table in the lobby").click()
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    assert errors == []
    context.close()


def test_the_lobby_on_a_phone_keeps_each_label_by_its_field_and_its_links_on_the_screen(
    browser: Browser, server: WebServer
) -> None:
    """On a 390 px phone each field sits under its own label, in one box (a label broken
    across lines leaves "People" at the end of one line and its field on the next), and
    the links' URLs, which have no space to break at, wrap instead of widening the page."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    lobby = context.new_page()
    lobby.goto(f"http://127.0.0.1:{server.server_address[1]}/")
    lobby.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    broken = lobby.evaluate(
        "[...document.querySelectorAll('#lobby-form label')]"
        ".filter(l => l.getClientRects().length !== 1).map(l => l.textContent.trim())"
    )
    assert broken == []
    lobby.fill("#lobby-people", "2")
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 3", timeout=WAIT
    )
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_lobbys_fields_button_and_links_are_touch_targets_of_24_px_at_least(
    browser: Browser, server: WebServer
) -> None:
    """On a 375 px phone with a touch screen, each field, the button and each link of the
    lobby is 24 CSS px high and wide at least (WCAG 2.5.8), its text in the page's type."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    lobby = context.new_page()
    lobby.goto(f"http://127.0.0.1:{server.server_address[1]}/")
    lobby.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    lobby.click("#lobby-form button[type=submit]")
    lobby.wait_for_function(
        "document.querySelectorAll('#lobby-links li').length === 2", timeout=WAIT
    )
    sizes = lobby.evaluate(
        "[...document.querySelectorAll('#lobby input, #lobby select, #lobby button, #lobby a')]"
        ".map(e => [e.id || e.textContent, e.getBoundingClientRect().width,"
        " e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)])"
    )
    assert len(sizes) == 8  # five fields, the button, two links
    small = [size for size in sizes if min(size[1], size[2]) < 24 or size[3] < 16]
    assert small == [], small
    context.close()
