"""What the page's board says of open doubles, under each open-double rule (D2-D4, V3, V4).

The badges read the seat's document (``must_cover``, ``dead_doubles``, ``cover_order``):
the page numbers the doubles as the rule closes them, as the text and SVG renderings
do, and never calls a dead double binding or a double that binds nobody one to cover.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from playwright.sync_api import Browser

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Deal,
    Draw,
    GameState,
    Move,
    OpenDoubleRule,
    Pass,
    Play,
    Rules,
    Tile,
    apply,
    full_set,
    new_game,
)
from mexican_train.variants import CloseInOrder, NeverBind, get_variant
from mexican_train.web import WebTable
from tests_browser.chromium import WAIT, served

DRAW_PASS: tuple[str, ...] = ("draw", "pass")


def _start(hands: Sequence[str], rules: Rules, boneyard: str) -> GameState:
    """A double-6 game whose round 1 deals *hands*; the boneyard is *boneyard*, then the rest."""
    dealt = [[Tile.parse(t) for t in hand.split()] for hand in hands]
    rules = attrs.evolve(rules, max_pip=6, hand_size=len(dealt[0]))
    front = [Tile.parse(t) for t in boneyard.split()]
    used = {t for hand in dealt for t in hand} | set(front)
    aside = rules == HUB or rules.engine_placement is HUB.engine_placement
    rest = [t for t in full_set(6) if t not in used and not (aside and t == Tile(6, 6))]
    return new_game(len(hands), rules, 0, deal=Deal(dealt, (*front, *rest)))


def _run(state: GameState, *moves: str | tuple[str, int]) -> GameState:
    for step in moves:
        move: Move
        if isinstance(step, tuple):
            move = Play(Tile.parse(step[0]), step[1])
        else:
            move = Draw() if step == "draw" else Pass()
        state = apply(state, move)
    return state


def _two_open(rule: OpenDoubleRule) -> GameState:
    """Seat 0 leaves 5-5 (its own train, played first) and 3-3 (the Mexican train) open;
    seat 1 is to move (as tests/test_render.py's position of two open doubles)."""
    state = _start(
        ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"],
        attrs.evolve(HUB, open_doubles=rule),
        "4-1 4-0",
    )
    state = _run(
        state,
        ("6-3", MEXICAN), *DRAW_PASS, ("6-5", 0), *DRAW_PASS,
        ("5-5", 0), ("3-3", MEXICAN), ("6-4", 1),
    )  # fmt: skip
    assert state.open_doubles == (0, MEXICAN)
    assert state.current_player == 1
    return state


def _dead_zero(rules: Rules) -> GameState:
    """0-0 ends seat 0's train, dead (every 0 is on the table, D4); seat 1 is to move."""
    state = _start(
        ["6-6 6-1 1-0 2-0 5-2 5-0 0-0 6-4 4-2", "6-0 3-0 4-3 4-0 4-4 1-1 2-1 2-2 5-5"],
        rules,
        "3-1",
    )
    state = _run(
        state,
        *((t, 0) for t in ("6-1", "1-0", "2-0", "5-2", "5-0")), "pass",
        *((t, 1) for t in ("6-0", "3-0", "4-3", "4-0")),
        ("0-0", 0), ("6-4", MEXICAN),
    )  # fmt: skip
    assert state.open_doubles == (0,)
    assert state.current_player == 1
    return state


def _badges(browser: Browser, state: GameState, seat: int) -> dict[str, str]:
    """The open-double badge of each train on *seat*'s page, by the train's name; a badge
    drawn muted (a dead double's) ends in " [muted]"."""
    table = WebTable(state.players, state.rules, seed=0)
    table._state = state  # the position to show; nobody moves
    with served(table) as server:
        page = browser.new_page()
        page.goto(server.links()[seat])
        page.wait_for_selector("#board .train", timeout=WAIT)
        badges = page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('#board .train')]
                 .filter((t) => t.querySelector('.badge.double'))
                 .map((t) => [t.querySelector('.owner').textContent,
                              t.querySelector('.badge.double').textContent.slice(2)
                              + (t.querySelector('.badge.double.dead') ? ' [muted]' : '')]))"""
        )
        page.close()
    return dict(badges)


def test_d3_open_doubles_are_numbered_in_the_order_they_close(browser: Browser) -> None:
    assert _badges(browser, _two_open(CloseInOrder()), 1) == {
        "Seat 0's train": "Open double #1 (D3): cover it first",
        "Mexican train": "Open double #2 (D3): covered after #1",
    }


def test_v3_reverse_order_numbers_the_latest_double_first(browser: Browser) -> None:
    assert _badges(browser, _two_open(CloseInOrder(reverse=True)), 1) == {
        "Seat 0's train": "Open double #2 (D3): covered after #1",
        "Mexican train": "Open double #1 (D3): cover it first",
    }


def test_v3_doubles_covered_in_any_order_are_not_numbered(browser: Browser) -> None:
    rule = get_variant("any-double").open_doubles
    expected = "Open double (V3): cover it or another open double first"
    assert _badges(browser, _two_open(rule), 1) == {
        "Seat 0's train": expected,
        "Mexican train": expected,
    }


def test_v3_doubles_that_never_bind_are_not_numbered(browser: Browser) -> None:
    expected = "Open double: it binds nobody under these rules (V3)"
    assert _badges(browser, _two_open(NeverBind()), 1) == {
        "Seat 0's train": expected,
        "Mexican train": expected,
    }


def test_d4_a_dead_double_is_called_dead_and_skipped_in_the_numbers(browser: Browser) -> None:
    state = _run(_dead_zero(STANDARD), ("4-4", MEXICAN), *DRAW_PASS)
    assert state.open_doubles == (0, MEXICAN)
    assert state.current_player == 0
    assert _badges(browser, state, 0) == {
        "Your train": "Dead double: nothing can cover it, it binds nobody (D4) [muted]",
        "Mexican train": "Open double (D2): cover it first",
    }


def test_v4_a_dead_double_that_binds_is_an_open_double_nothing_can_cover(
    browser: Browser,
) -> None:
    assert _badges(browser, _dead_zero(get_variant("dead-doubles-bind")), 1) == {
        "Seat 0's train": "Open double (V4): nothing can cover it, yet it binds",
    }


def _said_after(browser: Browser, state: GameState, seat: int, before: str) -> str:
    """What a screen reader hears last on *seat*'s page once it shows its document again,
    after a copy of it changed by *before* (a JavaScript expression of the copy ``d``)."""
    table = WebTable(state.players, state.rules, seed=0)
    table._state = state
    with served(table) as server:
        page = browser.new_page()
        page.goto(server.links()[seat])
        page.wait_for_selector("#board .train", timeout=WAIT)
        page.evaluate(
            f"""() => {{
                const real = doc;
                const d = structuredClone(real);
                d.version = real.version + 1;
                {before};
                show(d);
                show({{...real, version: real.version + 2}});
            }}"""
        )
        said = str(page.evaluate("document.querySelector('#said').lastElementChild.textContent"))
        page.close()
    return said


def test_v3_the_turn_says_any_one_of_the_open_doubles_is_to_be_covered(browser: Browser) -> None:
    """any-double (V3): the person to move hears that one of the doubles, any, comes first."""
    state = _two_open(get_variant("any-double").open_doubles)
    said = _said_after(browser, state, 1, "d.moves = []; d.view.current_player = 0")
    assert said.endswith(
        "First cover one of the doubles 5-5 on Seat 0's train and 3-3 on the Mexican train"
        " (D2, V3)."
    ), said


def test_v3_a_person_waiting_hears_that_any_one_of_the_open_doubles_binds(
    browser: Browser,
) -> None:
    state = _two_open(get_variant("any-double").open_doubles)
    said = _said_after(browser, state, 0, "d.view.current_player = null")
    assert said == (
        "The doubles 5-5 on your train and 3-3 on the Mexican train are open: one of them"
        " must be covered first (D2, V3)."
    ), said


def test_d1_a_double_laid_this_turn_is_said_to_be_followed(browser: Browser) -> None:
    """D1: seat 0 has laid 5-5 and 3-3 this turn and plays again; no double is open yet."""
    state = _start(["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"], HUB, "4-1 4-0")
    state = _run(
        state,
        ("6-3", MEXICAN), *DRAW_PASS, ("6-5", 0), *DRAW_PASS, ("5-5", 0), ("3-3", MEXICAN),
    )  # fmt: skip
    assert state.turn_doubles == (0, MEXICAN)
    assert state.open_doubles == ()
    expected = "Double to follow (D1): its player plays again"
    for seat, mine in ((0, "Your train"), (1, "Seat 0's train")):
        assert _badges(browser, state, seat) == {mine: expected, "Mexican train": expected}


def test_v4_a_dead_double_that_binds_is_not_said_to_be_covered(browser: Browser) -> None:
    """dead-doubles-bind (V4): nothing can cover the 0-0, so "First cover it" would be wrong."""
    state = _dead_zero(get_variant("dead-doubles-bind"))
    said = _said_after(browser, state, 1, "d.moves = []; d.view.current_player = 0")
    assert said.endswith(
        "The double 0-0 on Seat 0's train binds, and nothing can cover it (V4)."
    ), said
