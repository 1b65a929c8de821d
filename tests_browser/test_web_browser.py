"""The web table in a real browser: Playwright drives Debian's chromium and plays by clicking.

It also measures the page at a phone's and a desktop's size (the hand's tiles, each
train's last tile late in a round), and checks the selection, keyboard play, the log
and the pips' contrast.

Not part of the default test run (it needs chromium and the ``playwright`` package,
never a browser download): ``nox -s browser`` installs ``playwright``, finds chromium at
``/usr/bin/chromium`` and runs ``python -m pytest tests_browser``; ``.ci/run`` and the CI
workflow run that session.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from playwright.sync_api import APIResponse, Browser, ConsoleMessage, Page, Route, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    InvalidArgumentError,
    Play,
    legal_moves,
    view,
)
from mexican_train.players import GreedyPlayer
from mexican_train.web import WebServer, WebTable
from tests_browser.chromium import WAIT, click_a_move, click_a_train, recorded, served, shown, until
from tests_browser.screenshot import table_in_play

MAX_CLICKS = 600  # two rounds of a double-6 game take far fewer
# Two short rounds on a double-6 set: a whole game, by clicking, in a few seconds.
SHORT = attrs.evolve(STANDARD, max_pip=6, rounds=2)
SHORT_HUB = attrs.evolve(HUB, max_pip=6, hand_size=7, rounds=2)


def _page(browser: Browser) -> Page:
    """A page in a fresh context (cookies and storage of its own, like another person's browser).

    The page's Content-Security-Policy forbids evaluating strings, which is how
    ``wait_for_function`` works: the test's own context bypasses it.
    """
    return recorded(browser.new_context(bypass_csp=True)).new_page()


def _serve(table: WebTable) -> Iterator[WebServer]:
    with served(table) as server:
        yield server


@pytest.fixture(params=["standard", "hub"])
def one_person(request: pytest.FixtureRequest) -> Iterator[WebServer]:
    """A person in seat 0 against a greedy bot, two double-6 rounds of either rulebook."""
    rules = SHORT if request.param == "standard" else SHORT_HUB
    yield from _serve(WebTable(2, rules, bots={1: GreedyPlayer()}, seed=4))


@pytest.fixture
def two_people() -> Iterator[WebServer]:
    """People in seats 0 and 1, a bot in seat 2."""
    yield from _serve(WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=8))


@pytest.fixture
def late() -> Iterator[WebServer]:
    """A table late in a round: 50 tiles on the trains, the longest 12, your turn."""
    yield from _serve(table_in_play(50))


def _phase(page: Page) -> str:
    """Wait until *page* shows something to do, its WebSocket's first document come (a
    `recorded` page's: the page draws that document again, so a test acting before it
    could read what it replaces); return the phase."""
    page.wait_for_function(
        "['my-turn', 'round-over', 'game-over'].includes(document.body.dataset.phase)"
        " && (!window.__documents || window.__documents.some((d) => d[1] === 'socket'))",
        timeout=WAIT,
    )
    return str(page.evaluate("document.body.dataset.phase"))


def _each(page: Page, selector: str, measure: str) -> list[Any]:
    """Apply the JavaScript function *measure* to each element *selector* finds, at once.

    One call in the page: a document pushed meanwhile (a move, someone coming or going)
    redraws the hand and board, and elements found in one call and measured in the next
    would be detached, 0 px each way.
    """
    return list(page.evaluate(f"[...document.querySelectorAll({selector!r})].map({measure})"))


def _take_turn(page: Page) -> str:
    """Make one move by clicking: a playable tile then a train, else Draw/Pass/Next round.

    Return what was clicked last: ``"board"`` (a train on the board), ``"button"``
    (a train's button under the hand) or ``"action"``.
    """
    version = page.evaluate("document.body.dataset.version")
    tiles = page.locator("#hand .hand-tile.playable")
    if tiles.count() > 0:
        tiles.first.click()
        # The train on the board takes the click as well as its button; use both.
        lit = page.locator("#board [data-train].target")
        if int(version) % 2 and lit.count() > 0:
            lit.first.locator(".open-end").click()
            clicked = "board"
        else:
            click_a_train(page)
            clicked = "button"
    else:
        page.locator("#actions button").first.click()
        clicked = "action"
    try:
        page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the {clicked} clicked made no move: {shown(page)}") from None
    assert page.locator("#error").text_content() == ""
    return clicked


def _hand_on_page(page: Page) -> list[str]:
    return sorted(
        page.locator("#hand .hand-tile").evaluate_all("gs => gs.map(g => g.dataset.tile)")
    )


def test_a_move_chosen_before_the_last_ones_answer_is_made(
    browser: Browser, one_person: WebServer
) -> None:
    """The answer to a move may come after the table it made has come over the WebSocket:
    the person may choose their next move from that table before it, and the late answer
    neither drops that move nor puts back the tile chosen for it."""
    table = one_person.table
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    held: list[tuple[Route, APIResponse]] = []

    def hold_the_first(route: Route) -> None:
        answer = route.fetch()  # the server makes the move; the page hears of it later
        if held:
            route.fulfill(response=answer)
        else:
            held.append((route, answer))

    page.route("**/api/move", hold_the_first)
    first = table.version
    click_a_move(page)
    # The move's table comes over the WebSocket, then (the bot's moves, if any) the
    # person's turn again; the answer to the move is held.  (Playwright's calls run the
    # route's handler: the test waits in them.)
    page.wait_for_function(
        f"Number(document.body.dataset.version) > {first}"
        " && document.body.dataset.phase === 'my-turn'",
        timeout=WAIT,
    )
    assert len(held) == 1
    second = table.version
    click_a_move(page)
    route, answer = held[0]
    route.fulfill(response=answer)  # the first move's answer, late
    try:
        page.wait_for_function(f"Number(document.body.dataset.version) > {second}", timeout=WAIT)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the second move was not made: {shown(page)}") from None
    assert table.version > second
    assert page.locator("#error").text_content() == ""


def test_a_person_plays_a_whole_game_by_clicking(
    browser: Browser, one_person: WebServer, tmp_path: Path
) -> None:
    """Two rounds by clicking: tiles and trains, Draw/Pass, the next round, the final scores."""
    table = one_person.table
    page = _page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(one_person.links()[0])
    page.wait_for_selector("#board [data-train]", timeout=WAIT)
    reloaded = dealt = False
    clicked: set[str] = set()
    for _ in range(MAX_CLICKS):
        phase = _phase(page)
        if phase == "game-over":
            break
        if phase == "round-over":
            dealt = True
            hint = page.locator("#hint").text_content() or ""
            assert hint.startswith("The round is over"), hint  # E4: anyone may deal
        # S5: the page shows this seat's hand, and no other.
        if phase == "my-turn":
            assert _hand_on_page(page) == sorted(map(str, view(table.state, 0).hand))
        if not reloaded and table.version > 6 and phase == "my-turn":
            # A reload resumes the game where it was.
            before = page.evaluate("document.body.dataset.version")
            page.reload()
            page.wait_for_function(f"document.body.dataset.version === {before!r}", timeout=WAIT)
            reloaded = True
            continue
        clicked.add(_take_turn(page))
    else:
        pytest.fail(f"the game did not end within {MAX_CLICKS} clicks")
    assert reloaded
    assert dealt
    assert clicked == {"board", "button", "action"}
    assert table.state.is_over
    status = page.locator("#status").text_content() or ""
    assert status.startswith("The game is over")
    totals = page.locator("#scores tr.total td").evaluate_all(
        "cs => cs.map(c => c.firstChild.textContent)"
    )
    assert page.locator("#scores tr.total th").text_content() == "Total"
    assert totals == [*map(str, table.state.scores)]
    assert page.locator("#scores td.winner").count() == len(table.state.winners)
    page.screenshot(path=str(tmp_path / "game-over.png"), full_page=True)
    if os.environ.get("MT_SCREENSHOTS"):  # to look at the end of a game by eye
        page.screenshot(path=os.environ["MT_SCREENSHOTS"], full_page=True)
    assert errors == []


def test_the_lobby_and_a_whole_game_keep_to_the_pages_content_security_policy(
    browser: Browser,
) -> None:
    """The page under its own Content-Security-Policy, which the other tests bypass (to
    wait with ``wait_for_function``): the lobby making a table, then a short game played
    to the end by clicking, waited for with selectors alone.  Every style, script, image and
    connection the page uses is one the policy allows: the browser reports no violation
    and no error."""
    errors: list[str] = []
    context = browser.new_context()
    context.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " console.error(`CSP refused ${e.blockedURI} (${e.violatedDirective})`))"
    )
    page = context.new_page()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", console)
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    with served(table, lobby=True) as server:
        answer = page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        assert answer is not None
        assert "style-src 'self';" in answer.headers["content-security-policy"]
        page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
        page.fill("#lobby-players", "2")
        page.fill("#lobby-people", "1")
        page.click("#lobby-form button[type=submit]")
        page.wait_for_selector("#lobby-links li a", timeout=WAIT)
        page.goto(server.links()[0])  # the short game the server was started with
        over = False
        for _ in range(MAX_CLICKS):
            page.wait_for_selector(
                "body[data-phase=my-turn], body[data-phase=round-over], body[data-phase=game-over]",
                timeout=WAIT,
            )
            if page.get_attribute("body", "data-phase") == "game-over":
                over = True
                break
            version = page.get_attribute("body", "data-version")
            click_a_move(page)
            page.wait_for_selector(f"body:not([data-version='{version}'])", timeout=WAIT)
        assert over, f"the game did not end within {MAX_CLICKS} clicks: {shown(page)}"
        assert (page.locator("#status").text_content() or "").startswith("The game is over")
    assert errors == []


def test_two_people_share_a_table_and_see_each_others_moves(
    browser: Browser, two_people: WebServer
) -> None:
    """Each person's link seats them; a move by one reaches the other's page as it happens."""
    table = two_people.table
    links = two_people.links()
    pages = [_page(browser) for _ in links]
    for page, link in zip(pages, links.values(), strict=True):
        page.goto(link)
        page.wait_for_selector("#board [data-train]", timeout=WAIT)
    for _ in range(12):
        # The bot in seat 2 moves in a thread of its own, after a person's move.
        until(
            lambda: table.state.current_player in (0, 1) or table.state.is_round_over,
            "the bot in seat 2 moves",
        )
        if table.state.is_round_over:
            break
        current = table.state.current_player
        assert current in (0, 1)
        mover, watcher = pages[current], pages[1 - current]
        _phase(mover)
        _take_turn(mover)
        version = table.version
        # The other page catches up without a reload (long polling).
        watcher.wait_for_function(
            f"Number(document.body.dataset.version) >= {version}", timeout=WAIT
        )
        assert watcher.locator("#log li").count() > 0
        if table.state.is_round_over:
            break
    # Each page holds its own hand only.
    for seat, page in enumerate(pages):
        assert _hand_on_page(page) == sorted(map(str, view(table.state, seat).hand))


def test_a_page_without_a_token_says_how_to_sit_down(
    browser: Browser, one_person: WebServer
) -> None:
    page = _page(browser)
    base = one_person.links()[0].split("#")[0]
    page.goto(base)
    page.wait_for_selector("#nolink:not([hidden])", timeout=WAIT)
    assert "#token=" in (page.locator("#nolink").text_content() or "")
    assert page.locator("#game").is_hidden()
    page.goto(base + "#token=not-a-token")  # a new fragment: the page loads itself again
    page.wait_for_function(
        "document.getElementById('nolink-reason')?.textContent.includes('no seat')",
        timeout=WAIT,
    )
    # A wrong link gets the server's reason and still the words on where links come from.
    reason = page.locator("#nolink-reason").text_content()
    assert reason == "The server refused this link: no seat at this table has that token."
    assert "#token=" in (page.locator("#nolink").text_content() or "")
    assert page.locator("#game").is_hidden()


def test_a_spectators_page_shows_the_table_without_a_hand_or_moves(
    browser: Browser, one_person: WebServer
) -> None:
    """A spectator sees the board and the log: no "Your hand", no "Your move", and no train
    drawn as theirs (a spectator's seat is -1, the Mexican train's number)."""
    page = _page(browser)
    page.goto(str(one_person.spectator_link()))
    page.wait_for_selector("#board [data-train]", timeout=WAIT)
    assert page.evaluate("document.body.dataset.phase") == "waiting"
    assert page.locator("#board [data-train]").count() == 3  # two seats, the Mexican train
    assert page.locator("#hand-area").is_hidden()
    assert page.locator("#controls").is_hidden()
    assert page.locator("#board [data-train].mine").count() == 0
    # A person's page does mark their own train, and shows the hand and the moves.
    seat = _page(browser)
    seat.goto(one_person.links()[0])
    assert _phase(seat) == "my-turn"
    assert seat.locator("#board [data-train].mine").evaluate_all(
        "ts => ts.map(t => t.dataset.train)"
    ) == ["0"]
    assert seat.locator("#hand-area").is_visible()
    assert seat.locator("#controls").is_visible()


def test_the_status_line_is_not_rewritten_when_only_the_presence_changes(
    browser: Browser, two_people: WebServer
) -> None:
    """Someone coming or going changes the presence line and leaves the status line alone,
    which the focus may be on (a table lost): a screen reader would read it again."""
    links = two_people.links()
    page = _page(browser)
    page.goto(links[0])
    page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    page.wait_for_function(
        "document.getElementById('presence').textContent.includes('Seat 1: away')", timeout=WAIT
    )
    page.evaluate(
        "window.statusChanges = 0; new MutationObserver((changes) => {"
        " window.statusChanges += changes.length; }).observe(document.getElementById('status'),"
        " {childList: true, characterData: true, subtree: true})"
    )
    other = _page(browser)
    other.goto(links[1])
    page.wait_for_function(
        "document.getElementById('presence').textContent.includes('Seat 1: here')", timeout=WAIT
    )
    other.close()
    page.wait_for_function(
        "document.getElementById('presence').textContent.includes('Seat 1: away')", timeout=WAIT
    )
    assert page.evaluate("window.statusChanges") == 0


def test_a_move_the_server_does_not_answer_says_what_to_do(
    browser: Browser, one_person: WebServer
) -> None:
    """A move sent while the server cannot be reached: the page says the move may not have
    been made, without an error of its own, and plays once the server answers again."""
    page = _page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    # Settled: the page's own socket is open (the server then says the seat is here).
    page.wait_for_function(
        "document.getElementById('presence').textContent.startsWith('You: here')", timeout=WAIT
    )
    version = page.evaluate("document.body.dataset.version")
    page.route("**/api/*", lambda route: route.abort())
    page.locator("#hand .hand-tile.playable").first.click()
    try:
        page.locator("#hand .hand-tile.selected").wait_for(timeout=WAIT)
    except PlaywrightTimeoutError:
        said = page.evaluate(
            "[document.body.dataset.phase, document.getElementById('error').textContent]"
        )
        pytest.fail(f"the tile clicked was not chosen; the page's phase and error: {said}")
    page.locator("#trains button:not([disabled])").first.click()
    page.wait_for_function(
        "document.getElementById('error').textContent.startsWith('No answer from the server')",
        timeout=WAIT,
    )
    assert page.evaluate("document.body.dataset.version") == version
    assert one_person.table.version == int(version)
    page.unroute("**/api/*")
    assert page.locator("#hand .hand-tile.selected").count() == 1  # still chosen: play it
    page.locator("#trains button:not([disabled])").first.click()
    page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    # The table's push over the socket may show the move before the move's own answer,
    # which clears the error, arrives: wait for that answer.
    page.wait_for_function("document.getElementById('error').textContent === ''", timeout=WAIT)
    assert errors == []


def test_a_late_answer_with_an_older_version_does_not_take_the_page_back(
    browser: Browser, one_person: WebServer
) -> None:
    """The answer to a move and the long poll's may arrive in either order: the page keeps
    the newer document.  (Going back once showed the bot's turn after the person's, and a
    click then waited for a button that never came.)"""
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    shown = page.evaluate("document.body.dataset.version")
    # An older document, as a late answer would bring it: the bot's turn, no moves.
    page.evaluate(
        "show({...doc, version: doc.version - 1, moves: [],"
        " view: {...doc.view, current_player: 1}})"
    )
    assert page.evaluate("document.body.dataset.version") == shown
    assert page.evaluate("document.body.dataset.phase") == "my-turn"
    assert page.locator("#hand .hand-tile.playable").count() > 0
    # A newer one is shown.
    page.evaluate("show({...doc, version: doc.version + 1})")
    assert page.evaluate("document.body.dataset.version") == str(int(shown) + 1)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_hand_tiles_are_large_enough_to_touch(
    browser: Browser, one_person: WebServer, width: int, height: int
) -> None:
    """Each hand tile is a button of 44 CSS px at least each way, on a phone and a desktop."""
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    sizes = _each(
        page,
        "#hand .hand-tile",
        "t => [t.getBoundingClientRect().width, t.getBoundingClientRect().height]",
    )
    assert len(sizes) == len(view(one_person.table.state, 0).hand)
    assert min(min(size) for size in sizes) >= 44, sizes
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    assert page.locator("#board .hand-tile").count() == 0  # the board leaves the hand out
    context.close()


def test_a_tile_is_chosen_and_played_with_the_keyboard(
    browser: Browser, one_person: WebServer
) -> None:
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    version = page.evaluate("document.body.dataset.version")
    page.locator("#hand .hand-tile.playable").first.focus()
    page.keyboard.press("Enter")
    chosen = page.locator("#hand .hand-tile.selected")
    assert chosen.count() == 1
    assert chosen.get_attribute("aria-pressed") == "true"
    assert "playable" in (chosen.get_attribute("aria-label") or "")
    # Chosen is said once, as the button's pressed state: its name is the tile and where
    # it may go.
    a, b = (chosen.get_attribute("data-tile") or "").split("-")
    heard = chosen.aria_snapshot()
    assert re.fullmatch(f'- button "{a} and {b}, playable on [^"]+" \\[pressed\\]', heard), heard
    page.locator("#trains button:not([disabled])").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    assert page.locator("#error").text_content() == ""


def test_the_tabs_title_says_in_words_when_it_is_your_turn(
    browser: Browser, one_person: WebServer
) -> None:
    """The tab's title marks a turn in words a screen reader says plainly, no symbol."""
    page, watcher = _page(browser), _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    assert page.title() == "Your turn \u2013 Mexican Train"
    watcher.goto(str(one_person.spectator_link()))
    watcher.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    assert watcher.title() == "Mexican Train"  # no turn to take


def test_the_hand_is_one_tab_stop_and_tab_goes_on_to_the_trains(
    browser: Browser, one_person: WebServer
) -> None:
    """Keyboard alone, from the top of the page: Tab reaches the hand once (the arrows move
    along it), Enter chooses a tile, the next Tab reaches the trains' buttons, Enter plays."""
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    tiles = page.locator("#hand .hand-tile")
    assert tiles.count() > 2
    assert page.locator('#hand [tabindex="0"]').count() == 1
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#hand') !== null"):
            break
    else:
        pytest.fail("Tab never reached the hand")
    focused = "document.activeElement.dataset.tile"
    assert "playable" in (page.evaluate("document.activeElement.className") or "")
    page.keyboard.press("End")
    assert page.evaluate(focused) == tiles.last.get_attribute("data-tile")
    page.keyboard.press("Home")
    assert page.evaluate(focused) == tiles.first.get_attribute("data-tile")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == tiles.nth(1).get_attribute("data-tile")
    assert page.locator('#hand [tabindex="0"]').get_attribute("data-tile") == tiles.nth(
        1
    ).get_attribute("data-tile")
    page.locator("#hand .hand-tile.playable").first.focus()
    tile = page.evaluate(focused)
    page.keyboard.press("Enter")
    assert page.locator("#hand .hand-tile.selected").get_attribute("data-tile") == tile
    page.keyboard.press("Tab")  # out of the hand, on to the trains it may go on
    assert page.evaluate("document.activeElement.closest('#trains') !== null")
    assert page.evaluate("document.activeElement.disabled") is False
    version = page.evaluate("document.body.dataset.version")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    assert page.locator("#error").text_content() == ""
    assert tile not in _hand_on_page(page)
    assert page.locator('#hand [tabindex="0"]').count() == 1


@pytest.fixture
def eight() -> Iterator[WebServer]:
    """A person in seat 0 and seven greedy bots: eight columns of scores."""
    yield from _serve(WebTable(8, STANDARD, bots={s: GreedyPlayer() for s in range(1, 8)}, seed=2))


@pytest.mark.parametrize("who", ["person", "spectator"])
def test_a_table_of_eight_does_not_scroll_sideways_on_a_small_phone(
    browser: Browser, eight: WebServer, who: str
) -> None:
    """The scores of eight seats are wider than a 320 px screen: they scroll in their own
    box, and the page itself does not scroll sideways."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 320, "height": 640})
    page = context.new_page()
    page.goto(eight.links()[0] if who == "person" else str(eight.spectator_link()))
    page.wait_for_selector("#scores tr.total", timeout=WAIT)
    assert page.locator("#scores th[scope=col]").count() == 9  # "Round" and eight seats
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    context.close()


@pytest.mark.parametrize("who", ["person", "spectator"])
def test_the_scores_of_four_seats_fit_beside_the_board_on_a_desktop(
    browser: Browser, late: WebServer, who: str
) -> None:
    """Four seats, the table the server deals by default: on a 1280 px desktop their
    scores fit beside the board, none of them hidden in a box to scroll sideways (a
    spectator's columns are all "Seat N", wider than "You")."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(late.links()[0] if who == "person" else str(late.spectator_link()))
    page.wait_for_selector("#scores tr.total", timeout=WAIT)
    assert page.locator("#scores th[scope=col]").count() == 5  # "Round" and four seats
    box = page.evaluate(
        "(b => [b.scrollWidth, b.clientWidth])(document.querySelector('.scores-box'))"
    )
    assert box[0] <= box[1], box
    context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_each_trains_last_tile_and_open_end_stay_large_late_in_a_round(
    browser: Browser, late: WebServer, width: int, height: int
) -> None:
    """However long the trains, each one's last tile and open end are 24 CSS px at least;
    the tiles before them fold behind a button that unfolds them."""
    state = late.table.state
    assert max(len(train.tiles) for train in state.trains) >= 12  # long trains
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    short = (
        "e => e ? Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height) : 0"
    )
    trains = _each(
        page,
        "#board [data-train]",
        f"""t => [Number(t.dataset.train),
            [...t.querySelectorAll('[data-tile]')].at(-1)?.dataset.tile,
            ({short})([...t.querySelectorAll('[data-tile]')].at(-1)),
            t.querySelector('.open-end')?.dataset.openEnd,
            ({short})(t.querySelector('.open-end'))]""",
    )
    assert sorted(train_id for train_id, *_ in trains) == sorted([*range(state.players), MEXICAN])
    for train_id, last, last_side, end, end_side in trains:
        train = state.trains[train_id]
        assert last == str(train.tiles[-1]), train_id
        assert last_side >= 24, train_id
        assert end == str(train.open_end), train_id
        assert end_side >= 24, train_id
    longest = max(range(state.players), key=lambda seat: len(state.trains[seat].tiles))
    node = page.locator(f'#board [data-train="{longest}"]')
    assert node.locator("[data-tile]").count() < len(state.trains[longest].tiles)  # folded
    node.locator("button.more").click()
    page.wait_for_function(
        f"document.querySelectorAll('#board [data-train=\"{longest}\"] [data-tile]').length"
        f" === {len(state.trains[longest].tiles)}",
        timeout=WAIT,
    )
    assert node.locator("button.more").get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    context.close()


def _at_a_playable_tile(browser: Browser, late: WebServer) -> tuple[Page, str, set[int]]:
    """Seat 0's page at its turn, the first tile it may play, and the trains it may go on."""
    page = _page(browser)
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    plays = [move for move in late.table.document(0)["moves"] if move["kind"] == "play"]
    tile = plays[0]["tile"]
    return page, tile, {move["train"] for move in plays if move["tile"] == tile}


def test_the_chosen_tile_and_its_trains_stand_out_and_are_played_with_the_keyboard(
    browser: Browser, late: WebServer
) -> None:
    """The chosen tile has a check mark and a dashed outline, its trains a dashed border and
    words, not a colour alone; the trains it may go on are buttons; Escape puts it back."""
    page, tile, targets = _at_a_playable_tile(browser, late)
    first = page.locator("#hand .hand-tile").first
    first.focus()
    page.keyboard.press("ArrowRight")  # the arrows move along the hand
    second = page.locator("#hand .hand-tile").nth(1).get_attribute("data-tile")
    assert page.evaluate("document.activeElement.dataset.tile") == second
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').focus()
    page.keyboard.press("Enter")
    chosen = page.locator("#hand .hand-tile.selected")
    assert chosen.get_attribute("data-tile") == tile
    assert chosen.get_attribute("aria-pressed") == "true"
    assert chosen.locator(".chosen").count() == 1  # a check mark
    # A dashed outline once the focus is elsewhere (focused, it has the focus ring).
    assert chosen.evaluate("t => (t.blur(), getComputedStyle(t).outlineStyle)") == "dashed"
    lit = page.locator("#board [data-train].target")
    assert {int(t) for t in lit.evaluate_all("ts => ts.map(t => t.dataset.train)")} == targets
    for index in range(lit.count()):
        train = lit.nth(index)
        button = train.locator('[role="button"]')
        assert button.get_attribute("tabindex") == "0"
        assert (button.get_attribute("aria-label") or "").startswith(f"Play {tile} on ")
        assert f"{tile} goes here" in (train.text_content() or "")
        assert train.evaluate("t => getComputedStyle(t).borderTopStyle") == "dashed"
    assert page.locator('#board [data-train] [role="button"]').count() == len(targets)
    page.keyboard.press("Escape")
    assert page.locator("#hand .hand-tile.selected").count() == 0
    assert page.locator("#board [data-train].target").count() == 0
    # Choose it again, then press Enter on a train of the board.
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').focus()
    page.keyboard.press("Enter")
    version = page.evaluate("document.body.dataset.version")
    page.locator("#board [data-train].target .train-play").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    assert page.locator("#error").text_content() == ""
    assert tile not in _hand_on_page(page)
    # The focus goes back to the hand, and stays there while the bots answer.
    in_hand = "document.activeElement.closest('#hand, #actions') !== null"
    assert page.evaluate(in_hand)
    page.wait_for_function(
        f"Number(document.body.dataset.version) >= {int(version) + 2}", timeout=WAIT
    )
    assert _phase(page) in ("my-turn", "round-over")
    assert page.evaluate(in_hand)


def test_the_first_tab_offers_a_link_past_the_board_to_the_hand(
    browser: Browser, late: WebServer
) -> None:
    """The board holds a button for each folded train: the first Tab of the page reaches
    "Skip to your hand", shown while it has the focus, and Enter takes the focus to the
    hand's Tab stop, the link's token kept.  A spectator, who has no hand, has no link."""
    page = _page(browser)
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    assert page.locator("#board button.more").count() > 0  # Tab stops before the hand
    box = (
        "(() => { const r = document.getElementById('skip').getBoundingClientRect();"
        " return [r.top, r.height]; })()"
    )
    assert page.evaluate(box)[1] <= 1  # out of sight
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip"
    top, height = page.evaluate(box)
    assert height >= 24
    assert top >= 0
    assert page.locator("#skip").text_content() == "Skip to your hand"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    assert page.evaluate("document.activeElement.tabIndex") == 0
    assert "#token=" in page.url
    watcher = _page(browser)
    watcher.goto(str(late.spectator_link()))
    watcher.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    assert watcher.locator("#skip").is_hidden()


def test_a_hand_tiles_name_says_its_pips_and_every_train_it_may_go_on(
    browser: Browser, late: WebServer
) -> None:
    """A screen reader hears where a tile may go before choosing it, as the eye sees the
    lit trains once it is chosen: "4 and 2, playable on your train or Seat 1's train"."""
    page = _page(browser)
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    names = late.table.document(0)["names"]
    places: dict[str, list[str]] = {}
    for move in late.table.document(0)["moves"]:
        if move["kind"] == "play":
            train = move["train"]
            phrase = (
                "the Mexican train"
                if train == MEXICAN
                else "your train"
                if train == 0
                else f"{names[train]}'s train"
            )
            if phrase not in places.setdefault(move["tile"], []):
                places[move["tile"]].append(phrase)
    assert any(len(where) > 1 for where in places.values())  # "... or ..." is heard too
    heard = dict(
        _each(page, "#hand .hand-tile", "t => [t.dataset.tile, t.getAttribute('aria-label')]")
    )
    assert set(heard) == {str(tile) for tile in view(late.table.state, 0).hand}
    for tile, name in heard.items():
        a, b = tile.split("-")
        where = places.get(tile)
        if where is None:
            assert name == f"{a} and {b}", name
        else:
            said = ", ".join(where[:-1]) + " or " + where[-1] if len(where) > 1 else where[0]
            assert name == f"{a} and {b}, playable on {said}", name


# A tile is played (the answer: the others to move, the tile gone, the hand's tiles that
# cannot be played first), then the turn comes back: the page's own documents, as
# another test does, so that the order of the hand is known.
_PLAYED_THEN_BACK = """tile => {
  const hand = doc.view.hand.filter((t) => t !== tile);
  const order = [...hand.filter((t) => playsOf(t).length === 0),
                 ...hand.filter((t) => playsOf(t).length > 0)];
  const played = {...doc, view: {...doc.view, hand: order}};
  const back = [played, doc.version + 2, doc.moves.filter((move) => move.tile !== tile)];
  show({...played, version: doc.version + 1, moves: []});
  window.parkedOn = document.activeElement.dataset.tile;
  return back;
}"""


def test_the_focus_parked_on_a_tile_that_cannot_be_played_moves_when_the_turn_comes_back(
    browser: Browser, late: WebServer
) -> None:
    """A keyboard user plays a tile: the focus goes to the hand, on a tile that cannot be
    played while the others move; when the turn comes back it goes to a tile that can,
    unless the person moved it meanwhile."""
    page, tile, _ = _at_a_playable_tile(browser, late)
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').focus()
    back = "([played, version, moves]) => show({...played, version, moves})"
    page.evaluate(f"({back})(({_PLAYED_THEN_BACK})({tile!r}))")
    parked = page.evaluate("window.parkedOn")
    assert parked
    assert parked != tile
    page.wait_for_function("document.body.dataset.phase === 'my-turn'", timeout=WAIT)
    focused = page.evaluate(
        "[document.activeElement.dataset.tile, document.activeElement.className]"
    )
    assert focused[0] != parked, (parked, focused)
    assert "playable" in focused[1], (parked, focused)


def test_the_focus_a_person_moved_while_the_others_played_stays_where_they_put_it(
    browser: Browser, late: WebServer
) -> None:
    """The person moves the parked focus along the hand and back to the same tile, one
    that cannot be played: it is theirs now, and stays there when the turn comes back."""
    page, tile, _ = _at_a_playable_tile(browser, late)
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').focus()
    played = page.evaluate_handle(f"({_PLAYED_THEN_BACK})({tile!r})")
    parked = page.evaluate("window.parkedOn")
    page.keyboard.press("ArrowRight")  # the person moves along the hand meanwhile,
    assert page.evaluate("document.activeElement.dataset.tile") != parked
    page.keyboard.press("ArrowLeft")  # and back
    assert page.evaluate("document.activeElement.dataset.tile") == parked
    page.evaluate("([played, version, moves]) => show({...played, version, moves})", played)
    assert page.evaluate("document.activeElement.dataset.tile") == parked


def test_the_log_scrolls_and_holds_every_line_of_the_round(
    browser: Browser, late: WebServer
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    log = late.table.document(0)["log"]
    assert len(log) > 40
    box = page.locator("#log")
    # Read by moving to it: the page says the others' moves once a turn (see
    # test_what_a_screen_reader_hears.py), not each line as it comes.
    assert box.get_attribute("role") is None
    assert box.get_attribute("aria-live") is None
    assert box.locator("li").all_text_contents() == log
    height, shown, top = box.evaluate("b => [b.scrollHeight, b.clientHeight, b.scrollTop]")
    assert height > shown  # it scrolls
    assert top + shown >= height - 1  # the newest line in view
    _take_turn(page)
    _phase(page)  # the bots have answered: the page shows the table as it is
    now = late.table.document(0)["log"]
    assert len(now) > len(log)
    assert box.locator("li").all_text_contents() == now
    height, shown, top = box.evaluate("b => [b.scrollHeight, b.clientHeight, b.scrollTop]")
    assert top + shown >= height - 1
    context.close()


def _luminance(colour: str) -> float:
    """The relative luminance (WCAG 2) of ``#rrggbb`` or ``rgb(r, g, b)``."""
    if colour.startswith("#"):
        channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    else:
        channels = [int(c) for c in re.findall(r"\d+", colour)[:3]]
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_pips_are_dots_whose_colours_keep_a_contrast_of_3_to_1(
    browser: Browser, late: WebServer
) -> None:
    """Each half shows as many dots as pips; one colour a number, 3:1 at least on the face."""
    page = _page(browser)
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    halves = _each(
        page,
        "#hand .hand-tile .half, #board .tile .half",
        """h => [Number(h.dataset.pips), h.querySelectorAll('circle').length,
            [...new Set([...h.querySelectorAll('circle')].map(c => c.getAttribute('fill')))],
            getComputedStyle(h.closest('.tile, .hand-tile')).backgroundColor]""",
    )
    assert {pips for pips, *_ in halves} == set(range(13))  # every number of a double-12 set
    colours: dict[int, set[str]] = {}
    for pips, dots, fills, face in halves:
        assert dots == pips
        colours.setdefault(pips, set()).update(fills)
        for fill in fills:
            light, dark = sorted((_luminance(fill), _luminance(face)), reverse=True)
            assert (light + 0.05) / (dark + 0.05) >= 3, (pips, fill, face)
    assert all(len(fills) == 1 for pips, fills in colours.items() if pips)
    hand = page.locator("#hand .hand-tile").evaluate_all(
        "ts => ts.map(t => [t.dataset.tile, [...t.querySelectorAll('.half')].map(h => h.dataset.pips).join('-')])"
    )
    assert all(tile == pips for tile, pips in hand)


@pytest.fixture
def reviewed() -> Iterator[WebServer]:
    """A person in seat 0 against a greedy bot, two double-6 rounds, mistakes in round 1."""
    yield from _serve(WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=1))


def test_a_round_ends_its_review_appears_and_a_new_game_is_dealt_at_the_table(
    browser: Browser, reviewed: WebServer
) -> None:
    table = reviewed.table
    page, watcher = _page(browser), _page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(reviewed.links()[0])
    watcher.goto(str(reviewed.spectator_link()))
    for _ in range(MAX_CLICKS):
        if _phase(page) == "round-over":
            break
        _take_turn(page)
    else:
        pytest.fail(f"the round did not end within {MAX_CLICKS} clicks")
    # The person's page shows the coach's review of their round, as the CLI words it.
    page.wait_for_function("document.getElementById('review').dataset.round === '1'", timeout=WAIT)
    review = table.review(0)
    assert review["mistakes"]
    body = page.locator("#review-body")
    assert body.locator("p").first.text_content() == review["heading"]
    assert body.locator("li strong").all_text_contents() == [m["said"] for m in review["mistakes"]]
    # Each mistake starts an item of the list: with a capital, to the eye.
    capitals = body.locator("li strong").evaluate_all(
        "ss => ss.map(s => getComputedStyle(s, '::first-letter').textTransform)"
    )
    assert capitals == ["uppercase"] * len(review["mistakes"])
    assert body.locator("li p").all_text_contents() == [m["better"] for m in review["mistakes"]]
    # A screen reader is told briefly that the review is ready, on top of the round's end in
    # the status line, and is not read the whole review: that is not a live region, it is
    # read by moving through the page, a region under its heading.
    live = "[aria-live]:not([aria-live=off]), [role=status], [role=log], [role=alert]"
    assert (
        page.evaluate(f"document.getElementById('review-body').closest({live!r})?.id ?? null")
        is None
    )
    ready = page.get_by_role("status").filter(has_text="review")
    assert ready.text_content() == "Your review of round 1 is ready below."
    region = page.get_by_role("region", name="Your round 1, reviewed").aria_snapshot()
    assert '- heading "Your round 1, reviewed"' in region, region
    assert review["mistakes"][0]["said"] in region, region
    # A spectator has no decisions: no review.
    watcher.wait_for_function("document.body.dataset.phase === 'round-over'", timeout=WAIT)
    assert watcher.locator("#review").is_hidden()
    for _ in range(MAX_CLICKS):
        if _phase(page) == "game-over":
            break
        _take_turn(page)
        if page.evaluate("document.body.dataset.phase") == "my-turn":
            assert page.locator("#review").is_hidden()  # a round under way: no review
    else:
        pytest.fail(f"the game did not end within {MAX_CLICKS} clicks")
    page.wait_for_function("document.getElementById('review').dataset.round === '2'", timeout=WAIT)
    assert ready.text_content() == "Your review of round 2 is ready below."
    # "New game at this table": the same link, a new deal, the scores empty.
    over = int(page.evaluate("document.body.dataset.version"))
    page.locator("#again").click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {over}", timeout=WAIT)
    assert page.evaluate("document.body.dataset.phase") in {"my-turn", "waiting"}
    assert page.locator("#again").is_hidden()
    assert page.locator("#review").is_hidden()
    assert page.locator("#review-ready").text_content() == ""  # said anew at the next one
    assert not (page.locator("#status").text_content() or "").startswith("The game is over")
    assert page.locator("#scores tr").count() == 2  # the heading and the totals: no round yet
    assert "You dealt a new game." in page.locator("#log").all_text_contents()[0]
    assert not table.state.is_over
    watcher.wait_for_function(f"Number(document.body.dataset.version) > {over}", timeout=WAIT)
    assert errors == []


@pytest.fixture
def finished() -> Iterator[WebServer]:
    """A person in seat 0 against a greedy bot, the game over (played out before serving)."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    while not table.state.is_over:
        if table.state.current_player == 1:
            table.play_bots()
        else:
            table.play(0, legal_moves(view(table.state, 0))[0])
    yield from _serve(table)


def _cannot_keep(record: object) -> None:
    raise InvalidArgumentError("the disk is full")


def _ask_for_a_game_not_kept(page: Page, finished: WebServer) -> None:
    """Open seat 0's page at *finished*'s game, over, and ask for a new game, which the
    table cannot keep (its `restarted` hook fails): wait until the page says why."""
    finished.table.restarted = _cannot_keep
    page.goto(finished.links()[0])
    page.wait_for_function("document.body.dataset.live === 'yes'", timeout=WAIT)
    assert _phase(page) == "game-over"
    page.locator("#again").click()
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('could not be kept')",
        timeout=WAIT,
    )


def test_a_new_game_that_cannot_be_dealt_says_why_and_one_that_is_takes_the_focus(
    browser: Browser, finished: WebServer
) -> None:
    table = finished.table
    page = _page(browser)
    _ask_for_a_game_not_kept(page, finished)
    assert page.locator("#error").is_visible()  # not inside a hidden panel
    assert table.state.is_over
    table.restarted = None
    page.locator("#again").focus()
    page.keyboard.press("Enter")
    # The new game may arrive over the WebSocket before the answer to the request, which
    # clears the error and moves the focus: wait for both.
    page.wait_for_function(
        "document.body.dataset.phase !== 'game-over'"
        " && document.getElementById('error').textContent === ''"
        " && document.activeElement.closest('#hand, #actions') !== null",
        timeout=WAIT,
    )


def test_a_new_game_dealt_from_another_page_hands_the_focus_to_the_new_hand(
    browser: Browser, finished: WebServer
) -> None:
    """A keyboard user on "New game at this table" when the game is dealt elsewhere (the
    same seat's other tab, or another person): the button goes, and its focus goes to the
    new hand, not to the page's body."""
    page, other = _page(browser), _page(browser)
    for each in (page, other):
        each.goto(finished.links()[0])
        each.wait_for_function("!document.getElementById('again').hidden", timeout=WAIT)
    page.locator("#again").focus()
    other.locator("#again").click()
    page.wait_for_function("document.body.dataset.phase !== 'game-over'", timeout=WAIT)
    page.wait_for_function("document.activeElement !== document.body", timeout=WAIT)
    assert page.evaluate("document.activeElement.closest('#hand, #actions') !== null")


def test_why_a_new_game_cannot_be_dealt_stays_on_the_page_when_someone_comes(
    browser: Browser, finished: WebServer
) -> None:
    """The reason stays in view when the table pushes a document meanwhile (someone comes
    or goes): the move panel it is shown in was hidden again, a game that is over having
    no moves, and the button seemed to do nothing."""
    table = finished.table
    page = _page(browser)
    sockets: list[WebSocket] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    _ask_for_a_game_not_kept(page, finished)
    # The seat counted away, then back (as when its other page closes, then opens): each
    # change of who is here is pushed to every page.
    for change in (table.leave, table.arrive):
        with sockets[-1].expect_event("framereceived", timeout=WAIT):
            change(0)
    page.wait_for_function("document.getElementById('presence').textContent.includes('You: here')")
    assert page.locator("#error").is_visible()
    assert "could not be kept" in (page.locator("#error").text_content() or "")


def test_why_a_new_game_cannot_be_dealt_goes_once_one_is_dealt_elsewhere(
    browser: Browser, finished: WebServer
) -> None:
    """The reason is about a game that is over: a new game dealt from another page (the
    same seat's, in another tab) takes it away."""
    table = finished.table
    page = _page(browser)
    _ask_for_a_game_not_kept(page, finished)
    table.restarted = None
    table.again(0)  # as the seat's other tab would
    page.wait_for_function(
        "document.body.dataset.phase !== 'game-over'"
        " && document.getElementById('error').textContent === ''",
        timeout=WAIT,
    )


@pytest.fixture
def timed() -> Iterator[WebServer]:
    """A person in seat 0 against a greedy bot, with three seconds for each move."""
    yield from _serve(WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4, turn_timer=3))


def test_the_turn_timer_counts_down_on_the_page(browser: Browser, timed: WebServer) -> None:
    """The page counts the seconds down by itself, then a bot moves for the person (the log
    says so).  Every countdown is watched from the start: a page that loads late, with its
    first turn's time nearly up, counts down the next turn's."""
    page = _page(browser)
    page.add_init_script(
        "window.counted = []; new MutationObserver(() => {"
        " const timer = document.getElementById('timer');"
        " if (timer && timer.dataset.seconds !== undefined)"
        "  window.counted.push([document.body.dataset.version, Number(timer.dataset.seconds),"
        "                       timer.textContent]);"
        "}).observe(document, {attributes: true, attributeFilter: ['data-seconds'], subtree: true})"
    )
    page.goto(timed.links()[0])
    page.wait_for_function(
        "document.getElementById('log').textContent.includes('Your time ran out')"
        " && window.counted.some(([v, s]) => s >= 1 && window.counted.some(([w, t]) =>"
        "    w === v && t < s))",
        timeout=WAIT,
    )
    counted = page.evaluate("window.counted")
    for _, seconds, words in counted:
        assert 0 <= seconds <= 3
        if seconds > 0:
            assert re.fullmatch(r"You have \d s to move\.", words)
    by_turn: dict[str, list[int]] = {}
    for version, seconds, _ in counted:
        by_turn.setdefault(version, []).append(seconds)
    for seconds in by_turn.values():  # within a turn, the count only goes down
        assert seconds == sorted(seconds, reverse=True), counted


def test_a_table_without_a_turn_timer_shows_no_countdown(
    browser: Browser, one_person: WebServer
) -> None:
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    assert page.locator("#timer").is_hidden()


def test_a_train_that_takes_the_chosen_tile_stays_an_item_of_the_boards_list(
    browser: Browser, late: WebServer
) -> None:
    """The board is a list of trains: a train the chosen tile may go on holds a button,
    and is still one of the list's items, for a screen reader as for the eye."""
    page, tile, targets = _at_a_playable_tile(browser, late)
    trains = page.get_by_role("list", name="Trains")
    count = len(late.table.state.trains)
    assert trains.get_by_role("listitem").count() == count
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').click()
    page.wait_for_selector("#board [data-train].target", timeout=WAIT)
    assert trains.get_by_role("listitem").count() == count
    buttons = trains.get_by_role("listitem").get_by_role("button", name=f"Play {tile} on ")
    assert buttons.count() == len(targets)
    version = page.evaluate("document.body.dataset.version")
    buttons.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.version !== {version!r}", timeout=WAIT)
    assert page.locator("#error").text_content() == ""
    assert tile not in _hand_on_page(page)


def test_the_focus_stays_on_a_train_of_the_board_while_a_pushed_document_redraws_it(
    browser: Browser, two_people: WebServer
) -> None:
    """A keyboard user between choosing a tile and playing it: someone comes to the table,
    the server pushes a document, the board is drawn again, and the focus stays put."""
    table = two_people.table
    links = two_people.links()
    mover = table.state.current_player
    assert mover in (0, 1)  # the bot in seat 2 has already moved
    page = _page(browser)
    page.goto(links[mover])
    assert _phase(page) == "my-turn"
    other = 1 - mover
    page.wait_for_function(
        f"document.getElementById('presence').textContent.includes('Seat {other}: away')",
        timeout=WAIT,
    )
    page.locator("#hand .hand-tile.playable").first.focus()
    page.keyboard.press("Enter")
    lit = page.locator("#board [data-train].target .train-play").first
    lit.focus()
    train = lit.evaluate("b => b.closest('[data-train]').dataset.train")
    page.evaluate("window.redrawn = document.querySelector('#board [data-train]')")
    visitor = _page(browser)
    visitor.goto(links[other])
    page.wait_for_function(
        f"document.getElementById('presence').textContent.includes('Seat {other}: here')",
        timeout=WAIT,
    )
    assert page.evaluate("!window.redrawn.isConnected")  # the board was drawn again
    focused = page.evaluate(
        "[document.activeElement.matches('.train-play'),"
        " document.activeElement.closest('[data-train]')?.dataset.train]"
    )
    assert focused == [True, train]
    assert page.locator("#hand .hand-tile.selected").count() == 1


def test_the_trains_buttons_under_the_hand_say_which_tile_they_play(
    browser: Browser, late: WebServer
) -> None:
    """A train's button under the hand is named for what it does once a tile is chosen:
    "Play 2-1 on the Mexican train", not the train's name alone."""
    page, tile, targets = _at_a_playable_tile(browser, late)
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').click()
    page.wait_for_selector("#trains button:not([disabled])", timeout=WAIT)
    group = page.get_by_role("group", name="Play the chosen tile on")
    names = {
        int(train): name
        for train, name in group.locator("button:not([disabled])").evaluate_all(
            "bs => bs.map(b => [b.dataset.train, b.getAttribute('aria-label')])"
        )
    }
    assert set(names) == targets
    seats = late.table.document(0)["names"]
    trains = {MEXICAN: "the Mexican train", 0: "your train"}
    for train, name in names.items():
        assert name == f"Play {tile} on " + trains.get(train, f"{seats[train]}'s train")
        assert group.get_by_role("button", name=name, exact=True).count() == 1
        # The train on the board says the same, then what the train is like.
        board = page.locator(f'#board [data-train="{train}"] [role="button"]')
        assert (board.get_attribute("aria-label") or "").startswith(name + " (")


def test_the_scores_table_has_headers_and_marks_the_winners_in_words(
    browser: Browser, finished: WebServer
) -> None:
    """The scores are a table named "Scores", with a header for each seat's column and for
    each round's row and the totals', so that a screen reader says which number is whose;
    the winners' totals carry a mark and the word, not a colour alone."""
    table = finished.table
    page = _page(browser)
    page.goto(finished.links()[0])
    assert _phase(page) == "game-over"
    scores = page.get_by_role("table", name="Scores")
    heads = scores.get_by_role("columnheader").all_text_contents()
    assert heads == ["Round", *(name.split(" (")[0] for name in table.document(0)["names"])]
    rows = scores.get_by_role("rowheader").all_text_contents()
    assert rows == [*map(str, range(1, table.state.round_number + 1)), "Total"]
    totals = scores.get_by_role("row").last.get_by_role("cell")
    assert totals.count() == table.state.players
    assert table.state.winners
    for seat, points in enumerate(table.state.scores):
        cell = totals.nth(seat)
        mark = cell.locator(".win-mark")
        if seat in table.state.winners:
            said = f"{points} (winner)"  # the mark is for the eye, the word for the ear
            assert mark.is_visible()
            assert mark.get_attribute("aria-hidden") == "true"
        else:
            said = str(points)
            assert mark.count() == 0
        assert cell.aria_snapshot() == f'- cell "{said}"'


@pytest.fixture
def last_tile() -> Iterator[WebServer]:
    """A person in seat 0 against a greedy bot, the last round, one tile left and playable."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=0)
    you = GreedyPlayer()
    while True:
        if table.state.current_player == 1:
            table.play_bots()
            continue
        seen = view(table.state, 0)
        moves = legal_moves(seen)
        last = table.state.round_number == SHORT.rounds and len(seen.hand) == 1
        if last and any(isinstance(move, Play) for move in moves):
            break
        table.play(0, you.choose(seen, moves))
        assert not table.state.is_over, "the game ended before the person's last tile"
    yield from _serve(table)


def test_playing_the_last_tile_of_the_game_gives_the_focus_to_a_new_game(
    browser: Browser, last_tile: WebServer
) -> None:
    """A keyboard user who ends the game with their last tile: the hand and the moves are
    gone, and the focus goes to "New game at this table" rather than being lost."""
    page = _page(browser)
    page.goto(last_tile.links()[0])
    assert _phase(page) == "my-turn"
    page.locator("#hand .hand-tile.playable").first.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # on to the trains' buttons under the hand
    assert page.evaluate("document.activeElement.closest('#trains') !== null")
    page.keyboard.press("Enter")
    # The page is at "my-turn" until the server's answer comes: wait for the game's end.
    page.wait_for_function("document.body.dataset.phase === 'game-over'", timeout=WAIT)
    page.wait_for_function("!document.getElementById('again').hidden", timeout=WAIT)
    assert page.evaluate("document.activeElement.id") == "again"
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.phase !== 'game-over'", timeout=WAIT)


def test_each_part_of_the_table_has_a_heading_that_names_its_region(
    browser: Browser, one_person: WebServer
) -> None:
    """A screen reader moves by headings: the board and the moves have one too, as the
    hand, the scores and the log do, and each region is named by its heading."""
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    tiles = len(view(one_person.table.state, 0).hand)
    headings = page.get_by_role("heading").all_text_contents()
    assert headings == [
        "Mexican Train",
        "The table, as you see it",
        f"Your hand: {tiles} tiles",
        "Your move",
        "Scores",
        "At the table",
    ]
    for name in headings[1:4]:
        region = page.get_by_role("region", name=name, exact=True)
        assert region.get_by_role("heading", name=name, exact=True).count() == 1
    board = page.get_by_role("region", name="The table, as you see it")
    assert board.get_by_role("list", name="Trains").count() == 1


def test_the_pips_of_a_dimmed_tile_keep_a_contrast_of_3_to_1(
    browser: Browser, one_person: WebServer
) -> None:
    """The tiles that cannot be played are dimmed, drawn see-through over the page: their
    dots, blended as the eye sees them, still keep 3:1 against the blended face."""
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    tiles = _each(
        page,
        "#hand .hand-tile:not(.playable)",
        """t => {
            let under = t.parentElement;
            while (getComputedStyle(under).backgroundColor === 'rgba(0, 0, 0, 0)') {
                under = under.parentElement;
            }
            return [t.dataset.tile, Number(getComputedStyle(t).opacity),
                    getComputedStyle(t).backgroundColor, getComputedStyle(under).backgroundColor,
                    [...new Set([...t.querySelectorAll('circle')].map(c => c.getAttribute('fill')))]];
        }""",
    )
    assert tiles, "no dimmed tile to look at"
    assert any(fills for *_, fills in tiles), "no dimmed pip to look at"

    def rgb(colour: str) -> list[int]:
        if colour.startswith("#"):
            return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        return [int(c) for c in re.findall(r"\d+", colour)[:3]]

    def seen(colour: str, alpha: float, under: str) -> str:
        mixed = [alpha * c + (1 - alpha) * u for c, u in zip(rgb(colour), rgb(under), strict=True)]
        return "#" + "".join(f"{round(c):02x}" for c in mixed)

    for tile, alpha, face, under, fills in tiles:
        assert alpha < 1, tile  # dimmed
        for fill in fills:
            light, dark = sorted(
                (_luminance(seen(face, alpha, under)), _luminance(seen(fill, alpha, under))),
                reverse=True,
            )
            assert (light + 0.05) / (dark + 0.05) >= 3, (tile, fill, alpha)


def test_the_chosen_tile_shows_when_it_has_the_focus(
    browser: Browser, one_person: WebServer
) -> None:
    """The chosen tile's dashed outline is not a focus ring: a keyboard user back on the
    chosen tile sees the focus there as on any other tile (a solid ring)."""
    page = _page(browser)
    page.goto(one_person.links()[0])
    assert _phase(page) == "my-turn"
    assert page.locator("#hand .hand-tile").count() > 1
    page.locator("#hand .hand-tile.playable").first.focus()
    page.keyboard.press("Enter")  # chosen, and still focused
    ring = """t => [t === document.activeElement, t.matches(':focus-visible'),
        getComputedStyle(t).outlineStyle, getComputedStyle(t).outlineColor]"""
    chosen = page.locator("#hand .hand-tile.selected")
    focused, visible, style, colour = chosen.evaluate(ring)
    assert focused
    assert visible
    page.keyboard.press("ArrowRight")
    other = page.locator("#hand .hand-tile:focus")
    assert other.evaluate(ring) == [True, True, "solid", colour]  # the ring of any tile
    assert chosen.evaluate(ring)[2] == "dashed"  # chosen, not focused: its own outline
    assert style == "solid"  # chosen and focused: the focus ring


def test_a_screen_reader_hears_the_trains_in_words_not_their_icons(
    browser: Browser, late: WebServer
) -> None:
    """The icons of a train's row (the marker's flag, the turn's triangle, the dots between
    facts) help the eye; a screen reader gets the words alone, in the labels and the text."""
    page = _page(browser)
    page.goto(late.links()[0])
    assert _phase(page) == "my-turn"
    icons = re.compile("[\u2691\u25b6\u25c0\u25c6\u00b7]")
    board = page.get_by_role("region", name="The table, as you see it")
    assert icons.search(board.inner_text())  # the eye has them
    assert "Marker: open to everyone (P6)" in board.aria_snapshot()
    assert not icons.search(board.aria_snapshot())
    page.locator("#hand .hand-tile.playable").first.click()
    page.wait_for_selector("#board [data-train].target", timeout=WAIT)
    snapshot = board.aria_snapshot()
    assert "To play" in snapshot
    assert not icons.search(snapshot)


def test_a_screen_reader_is_told_once_when_the_turn_timer_runs_short(
    browser: Browser, timed: WebServer
) -> None:
    """The countdown itself is not read out each second (role="timer", not live): once the
    person's time runs short, a live region says so once, then a bot moves for them."""
    page = _page(browser)
    # Watched from the start: with three seconds a move, the time is short at once.
    page.add_init_script(
        "window.warnings = []; new MutationObserver((changes) => {"
        " for (const change of changes) {"
        "  const node = change.target.nodeType === 1 ? change.target : change.target.parentNode;"
        "  if (node && node.id === 'timer-warning')"
        "   window.warnings.push([document.body.dataset.version, node.textContent]); }"
        "}).observe(document, {childList: true, characterData: true, subtree: true})"
    )
    page.goto(timed.links()[0])
    assert _phase(page) == "my-turn"
    assert page.locator("#timer-warning").get_attribute("role") == "status"
    page.wait_for_function(
        "document.getElementById('log').textContent.includes('Your time ran out')",
        timeout=WAIT,
    )
    said = [(version, words) for version, words in page.evaluate("window.warnings") if words]
    assert said
    versions = [version for version, _ in said]
    assert len(set(versions)) == len(versions), said  # once a turn
    for _, words in said:
        assert re.fullmatch(r"Your time is short: [1-3] s left to move\.", words)
    assert page.locator("#timer").get_attribute("aria-live") == "off"
