"""`render_svg`'s picture as chromium draws it, with DejaVu Sans's real glyphs.

The unit tests (tests/test_render.py) estimate a text's width as the renderer does;
here the browser measures each text, so names of wide letters (capitals, ``m``,
``W``) are checked against what is drawn: every text inside the picture, a train's
name inside its label, and the hands' titles clear of one another.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from mexican_train import STANDARD, GameState, apply, legal_moves, new_game
from mexican_train.render import render_svg

# Names as wide as DejaVu Sans draws them: capitals, and its widest letters.
WIDE = [
    "WWWWWWWWWWWWWWWWWWWWWWWW",
    "MAXIMILIAN ALEXANDER VON HUMBOLDT",
    "mmmmmmmmmmmmmmmmmmmmm",
    "Ann",
]

# Each text's box, and each train label's box, as the browser lays them out.
_MEASURE = """() => {
  const svg = document.querySelector("svg");
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  return {
    width: svg.width.baseVal.value,
    height: svg.height.baseVal.value,
    texts: [...svg.querySelectorAll("text")].map((t) => [t.textContent, box(t)]),
  };
}"""


def _position(round_over: bool = False) -> GameState:
    """A round in play, or at its end (the status line names every seat then)."""
    state = new_game(4, STANDARD, seed=5)
    rng = random.Random(2)
    for _ in range(40):
        state = apply(state, rng.choice(legal_moves(state)))
    while round_over and not state.is_round_over:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    yield page
    page.close()


def _measured(page: Page, svg: str) -> dict[str, object]:
    page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
    return page.evaluate(_MEASURE)  # type: ignore[no-any-return]


@pytest.mark.parametrize("round_over", [False, True])
def test_every_text_of_wide_names_is_inside_the_picture(page: Page, round_over: bool) -> None:
    measured = _measured(page, render_svg(_position(round_over), names=WIDE))
    width, height = measured["width"], measured["height"]
    outside = [
        (text, box)
        for text, box in measured["texts"]  # type: ignore[attr-defined]
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
    ]
    assert not outside, f"{len(outside)} texts outside {width} x {height}: {outside[:3]}"


def test_a_wide_name_stays_inside_its_trains_label(page: Page) -> None:
    state = _position()
    svg = render_svg(state, names=WIDE)
    page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
    # The label's box is the rect before its name; the name is the label's first text.
    labels = page.evaluate(
        """() => [...document.querySelectorAll("svg > rect + text")].map((name) => {
          const rect = name.previousElementSibling.getBBox(), text = name.getBBox();
          return [name.textContent, text.x + text.width - (rect.x + rect.width)];
        })"""
    )
    # Every seat's label is measured (a name cut short keeps its first letters).
    for name in WIDE:
        assert any(name[:8] in text for text, _ in labels), (name, labels)
    overflows = [(text, over) for text, over in labels if over > -4]
    assert not overflows, f"names running to or past the label's edge: {overflows}"


def test_the_hands_titles_of_wide_names_do_not_overlap(page: Page) -> None:
    measured = _measured(page, render_svg(_position(), names=WIDE))
    titles = [
        box
        for text, box in measured["texts"]  # type: ignore[attr-defined]
        if "hand:" in text
    ]
    assert len(titles) == 4
    for first, second in ((a, b) for i, a in enumerate(titles) for b in titles[i + 1 :]):
        apart = first[2] <= second[0] or second[2] <= first[0] or first[3] <= second[1]
        apart = apart or second[3] <= first[1]
        assert apart, f"hand titles overlap: {first} and {second}"
