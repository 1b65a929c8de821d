"""Rendering (`mexican_train.render`): plain text and SVG, never showing a hidden tile (S5).

- well-formed SVG: test_svg_is_well_formed_xml
- every tile on the table drawn: test_svg_draws_every_tile_on_the_table
- S5 (hands are private): test_s5_view_svg_draws_no_hidden_tile,
  test_s5_view_text_names_no_hidden_tile, test_s5_spectator_rendering_shows_no_hand
- V10 (open hands): test_v10_open_hands_view_shows_every_hand
- P6 markers, D2 open doubles: test_text_snapshot_with_markers_and_an_open_double,
  test_svg_flags_markers_and_the_open_double
"""

from __future__ import annotations

import itertools
import math
import random
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter

import attrs
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CloseInOrder,
    Deal,
    Draw,
    GameState,
    InvalidArgumentError,
    Move,
    OpenDoubleRule,
    Pass,
    Play,
    PlayerView,
    Rules,
    Tile,
    apply,
    full_set,
    get_variant,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train._formats.render import _text_width
from mexican_train.render import render_svg, render_text
from mexican_train.variants import NeverBind
from scenario_helpers import DRAW, PASS, on, run, start
from strategies import played_positions, rendered_positions

SVG = "{http://www.w3.org/2000/svg}"


def _tiles_drawn(svg: str, role: str) -> Counter[str]:
    root = ET.fromstring(svg)
    return Counter(
        g.attrib["data-tile"]
        for g in root.iter(f"{SVG}g")
        if role in g.attrib.get("class", "").split()
    )


def _table_tiles(state: GameState | PlayerView) -> Counter[str]:
    return Counter(str(t) for train in state.trains for t in train.tiles) + Counter(
        [str(state.engine)]
    )


def _small_position() -> GameState:
    """HUB on a double-6 set: Ann opens her train, Bob draws and is marked (P5), Ann plays
    the double 5-5, cannot follow it, draws and is marked: the 5-5 is left open (D1, D2)."""
    rules = attrs.evolve(HUB, max_pip=6, hand_size=4)
    hands = [["6-5", "5-5", "3-0", "2-1"], ["4-3", "1-0", "2-2", "1-1"]]
    dealt = {Tile.parse(t) for hand in hands for t in hand} | {Tile(6, 6)}
    first = [Tile(0, 0), Tile(4, 2)]
    rest = [t for t in full_set(6) if t not in dealt and t not in first]
    state = new_game(2, rules, seed=1, deal=Deal(hands, first + rest))
    for move in (Play(Tile(6, 5), 0), Draw(), Pass(), Play(Tile(5, 5), 0), Draw(), Pass()):
        state = apply(state, move)
    return state


@given(played_positions())
def test_svg_is_well_formed_xml(state: GameState) -> None:
    """Every rendering, of the state and of each seat's view, parses as SVG."""
    subjects: list[GameState | PlayerView] = [state, spectator_view(state)]
    subjects += [view(state, s) for s in range(state.players)]
    for subject in subjects:
        root = ET.fromstring(render_svg(subject))
        assert root.tag == f"{SVG}svg"


@given(played_positions())
def test_svg_draws_every_tile_on_the_table(state: GameState) -> None:
    """Each tile of every train, and the engine, is drawn exactly once (P2)."""
    assert _tiles_drawn(render_svg(spectator_view(state)), "tile") == _table_tiles(state)


@given(played_positions())
def test_s5_view_svg_draws_no_hidden_tile(state: GameState) -> None:
    """S5: a seat's picture draws the table and its own hand, and no other tile."""
    for seat in range(state.players):
        svg = render_svg(view(state, seat))
        assert _tiles_drawn(svg, "tile") == _table_tiles(state)
        assert _tiles_drawn(svg, "hand-tile") == Counter(str(t) for t in state.hand(seat))
        seen = {str(t) for t in state.hand(seat)} | set(_table_tiles(state))
        hidden = {str(t) for t in full_set(state.max_pip)} - seen
        # Not even in a <title> tooltip or any other text.
        texts = {t.strip() for t in ET.fromstring(svg).itertext()}
        assert not texts & hidden


@given(played_positions())
def test_s5_view_text_names_no_hidden_tile(state: GameState) -> None:
    """S5: the text rendering of a view names only tiles on the table or in the own hand."""
    for seat in range(state.players):
        named = set(re.findall(r"\b\d+-\d+\b", render_text(view(state, seat))))
        allowed = {str(t) for t in state.hand(seat)} | set(_table_tiles(state))
        # Tiles in a train are written as they lie ("3-10"), so compare as tiles.
        assert {str(Tile.parse(t)) for t in named} <= allowed


@given(played_positions())
def test_s5_spectator_rendering_shows_no_hand(state: GameState) -> None:
    """S5: a spectator sees hand sizes only."""
    spectator = spectator_view(state)
    assert not _tiles_drawn(render_svg(spectator), "hand-tile")
    assert "hand (" not in render_text(spectator).lower()


def test_v10_open_hands_view_shows_every_hand() -> None:
    """V10: with open hands, a view shows everybody's hand."""
    state = new_game(3, attrs.evolve(HUB, open_hands=True), seed=5)
    svg = render_svg(view(state, 1))
    assert _tiles_drawn(svg, "hand-tile") == Counter(str(t) for h in state.hands for t in h)
    text = render_text(view(state, 1))
    assert "Hand (Seat 0):" in text
    assert "Your hand (Seat 1):" in text


def test_state_without_a_seat_shows_every_hand_but_never_the_boneyard() -> None:
    """A state is the whole truth: every hand is drawn; the boneyard's tiles never are."""
    state = new_game(4, STANDARD, seed=2)
    drawn = _tiles_drawn(render_svg(state), "hand-tile")
    assert drawn == Counter(str(t) for h in state.hands for t in h)
    assert not set(drawn) & {str(t) for t in state.boneyard}


def test_text_snapshot_with_markers_and_an_open_double() -> None:
    """P6, D2: the text rendering of a small fixed position, as Bob sees it."""
    expected = """\
Round 1 of 7, engine 6-6: Bob to play, an open double waits (D2)
Trains:
  Ann            6-5 5-5 > 5 [marker] [open double]
* Bob (you)      (empty) > 6 [marker]
  Mexican train  (empty) > 6 [open to you]
Hand sizes: Ann: 3, Bob: 5
Boneyard: 17 tiles
Scores: Ann: 0, Bob: 0
Your hand (Bob): 0-0 1-0 1-1 2-2 4-3"""
    assert render_text(view(_small_position(), 1), names=["Ann", "Bob"]) == expected


def test_text_snapshot_of_a_whole_state() -> None:
    """A state rendered without a seat lists every hand."""
    text = render_text(_small_position())
    assert text.splitlines()[-2:] == [
        "Hand (Seat 0): 2-1 3-0 4-2",
        "Hand (Seat 1): 0-0 1-0 1-1 2-2 4-3",
    ]


def test_text_orients_tiles_as_they_lie_from_the_engine() -> None:
    """P2: each tile is written from the end that joins the train."""
    state = new_game(2, attrs.evolve(HUB, max_pip=6, hand_size=4), seed=0)
    state = apply(state, Play(Tile(6, 2), 0))
    assert "6-2 > 2" in render_text(state)


def test_svg_flags_markers_and_the_open_double() -> None:
    """P6, D2: one marker per marked train; the open double is outlined and labelled."""
    svg = render_svg(view(_small_position(), 1))
    root = ET.fromstring(svg)
    markers = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "marker"]
    assert len(markers) == 2
    assert "open double" in set(root.itertext())


def _after_seat_0s_first_turn(variant: str) -> GameState:
    """A two-player game of *variant* (double-6) once seat 0 has played its first turn."""
    state = new_game(2, attrs.evolve(get_variant(variant), max_pip=6, hand_size=7), seed=4)
    while state.current_player == 0:  # seat 0 plays its first turn, on its own train
        moves = legal_moves(state)
        state = apply(state, next((m for m in moves if isinstance(m, Play)), moves[0]))
    return state


@pytest.mark.parametrize(
    ("variant", "viewer", "table"),
    [
        ("train-dominoes", "not open to you", "open to nobody"),
        ("hub", "open to you", "open to everyone"),
        ("mexican-after-own-train", "open to you", "open to Ann"),
    ],
)
def test_v2_the_svg_says_whom_the_mexican_train_is_open_to(
    variant: str, viewer: str, table: str
) -> None:
    """V2: the Mexican train's label says whether it is open to the viewer now, and for the
    whole table (a state drawn without a seat) to whom, as the Mexican-train rule says."""
    state = _after_seat_0s_first_turn(variant)
    assert state.train(0).owner_played
    assert viewer in ET.fromstring(render_svg(view(state, 0))).itertext()
    assert table in ET.fromstring(render_svg(state, names=["Ann", "Bo"])).itertext()


@pytest.mark.parametrize(
    ("variant", "viewer", "table"),
    [
        ("train-dominoes", "[not open to you]", "[open to nobody]"),
        ("hub", "[open to you]", "[open to everyone]"),
        ("mexican-after-own-train", "[open to you]", "[open to Ann]"),
    ],
)
def test_v2_the_text_says_whom_the_mexican_train_is_open_to(
    variant: str, viewer: str, table: str
) -> None:
    """V2: the Mexican train's row says whom it is open to now, in the SVG's words."""
    state = _after_seat_0s_first_turn(variant)
    [mine] = [line for line in render_text(view(state, 0)).splitlines() if "Mexican" in line]
    assert mine.endswith(f" {viewer}")
    [whole] = [
        line for line in render_text(state, names=["Ann", "Bo"]).splitlines() if "Mexican" in line
    ]
    assert whole.endswith(f" {table}")


def test_v2_the_text_wraps_whom_the_mexican_train_is_open_to_between_names() -> None:
    """V2: a long list of the seats it is open to goes on under the first tile, a name kept
    whole (P4 keeps the Mexican train from those who have not had their first turn)."""
    state = new_game(8, STANDARD, seed=1)
    while state.had_first_turn.count(True) < 7:
        state = apply(state, legal_moves(state)[0])
    names = [f"seat {seat} (planner)" for seat in range(8)]
    lines = render_text(state, names=names).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  Mexican train"))
    rows = list(itertools.takewhile(lambda line: line[:1] == " ", lines[start:]))
    assert len(rows) > 1
    flag = " ".join(line.strip() for line in rows)
    opens = [names[s] for s in range(8) if state.had_first_turn[s]]
    assert flag.endswith("[open to " + ", ".join(opens) + "]")
    assert all(len(line) <= 79 for line in lines)
    assert not any(line.endswith(("seat", "(planner")) for line in rows)


def test_tiles_show_pips_up_to_double_nine_and_numbers_above() -> None:
    """Pips on double-6 and double-9 sets; numbers on double-12 and larger."""
    for max_pip, numbers in ((6, False), (9, False), (12, True), (15, True)):
        state = new_game(3, attrs.evolve(HUB, max_pip=max_pip, hand_size=5), seed=1)
        root = ET.fromstring(render_svg(view(state, 0)))
        hand = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "hand-tile"]
        has_text = any(el.tag == f"{SVG}text" for g in hand for el in g)
        assert has_text == numbers


def test_names_are_escaped_in_svg() -> None:
    """Names reach the SVG as text, never as markup."""
    nasty = ['<script>alert("x")</script>', "Bo & <Co>"]
    svg = render_svg(new_game(2, HUB, seed=1), names=nasty)
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{SVG}script"))
    texts = "".join(root.itertext())
    assert nasty[1] in texts
    assert "<script>" not in svg


@pytest.mark.parametrize("breaking", ["\n", "\r\n", "\t", "\x0b", "\u2028", "\x85"])
def test_a_name_is_drawn_on_one_line(breaking: str) -> None:
    # A line break in a name split its train's row, the hand sizes and the scores of
    # render_text across lines; it is drawn as a space.
    state = new_game(2, HUB, seed=1)
    spaced = "Ann" + " " * len(breaking) + "Lee"
    given = [f"Ann{breaking}Lee", "Bo"]
    assert render_text(state, names=given) == render_text(state, names=[spaced, "Bo"])
    assert render_svg(state, names=given) == render_svg(state, names=[spaced, "Bo"])
    assert spaced in render_text(state, names=given)


def test_state_with_a_seat_renders_that_seats_view() -> None:
    state = _small_position()
    assert render_svg(state, seat=1) == render_svg(view(state, 1))
    assert render_text(state, seat=0) == render_text(view(state, 0))


def test_repr_svg_is_the_rendering() -> None:
    """Jupyter shows states and views through `_repr_svg_`."""
    state = _small_position()
    assert state._repr_svg_() == render_svg(state)
    assert view(state, 0)._repr_svg_() == render_svg(view(state, 0))


def test_round_over_and_game_over_are_stated() -> None:
    state = new_game(2, attrs.evolve(HUB, max_pip=6, hand_size=4, rounds=1), seed=0)
    while not state.is_over:
        state = apply(state, legal_moves(state)[0])
    text = render_text(state)
    assert "game over, won by" in text.splitlines()[0]
    assert "Round 1 points:" in text
    texts = list(ET.fromstring(render_svg(state)).itertext())
    assert any(text.startswith("Game over, won by") for text in texts)  # it starts a line


def test_svg_status_line_starts_a_round_over_with_a_capital() -> None:
    state = new_game(2, attrs.evolve(HUB, max_pip=6, hand_size=4), seed=0)
    while not state.is_round_over:
        state = apply(state, legal_moves(state)[0])
    texts = list(ET.fromstring(render_svg(state)).itertext())
    assert any(text.startswith("Round over; round 2 comes next") for text in texts)


def test_a_view_renders_only_for_its_own_seat() -> None:
    state = _small_position()
    with pytest.raises(ValueError, match="seat 1"):
        render_text(view(state, 1), seat=0)
    with pytest.raises(ValueError, match="a seat is"):
        render_svg(state, seat=7)


def test_a_views_seat_is_checked_as_a_states_is() -> None:
    """seat=True was taken for a view's seat 1 (True == 1), and refused for a state's."""
    state = _small_position()
    for subject in (state, view(state, 1)):
        with pytest.raises(InvalidArgumentError, match="a seat is 0-1, not True"):
            render_text(subject, seat=True)


def test_names_must_name_every_seat() -> None:
    with pytest.raises(ValueError, match="2 strings"):
        render_text(_small_position(), names=["Ann"])
    with pytest.raises(ValueError, match="2 strings"):
        render_text(_small_position(), names="AB")


def test_only_states_and_views_render() -> None:
    with pytest.raises(TypeError, match="GameState or PlayerView"):
        render_svg("6-6")  # type: ignore[arg-type]


# -- the picture's geometry, legibility and palette ---------------------------------------------

_NUMBER = re.compile(r"-?[0-9.]+")


def _num(element: ET.Element, name: str, default: float = 0.0) -> float:
    value = element.attrib.get(name)
    return default if value is None else float(value)


def _text_box(text: ET.Element) -> tuple[float, float, float, float]:
    """Return (left, top, right, bottom) of a text element, on the wide side where estimated.

    Numbers on tiles carry their width (textLength); other text is estimated as the
    renderer estimates it, letter by letter from DejaVu Sans's widths
    (tests_browser/test_render_browser.py measures the text chromium draws)."""
    size = _num(text, "font-size")
    x, y = _num(text, "x"), _num(text, "y")
    if "textLength" in text.attrib:
        width = _num(text, "textLength")
    else:
        width = _text_width(text.text or "", size, text.attrib.get("font-weight", "normal"))
    anchor = text.attrib.get("text-anchor", "start")
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return left, y - 0.76 * size, left + width, y + 0.24 * size  # ascent, descent


def _boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Return every drawn element's tag and bounding box (strokes included)."""
    found = []
    for element in ET.fromstring(svg).iter():
        tag = element.tag.removeprefix(SVG)
        half = _num(element, "stroke-width") / 2
        if tag == "rect" and element.attrib.get("width") != "100%":
            x, y = _num(element, "x"), _num(element, "y")
            box = (x, y, x + _num(element, "width"), y + _num(element, "height"))
        elif tag == "circle":
            cx, cy, r = _num(element, "cx"), _num(element, "cy"), _num(element, "r")
            box = (cx - r, cy - r, cx + r, cy + r)
        elif tag == "line":
            x1, x2 = _num(element, "x1"), _num(element, "x2")
            y1, y2 = _num(element, "y1"), _num(element, "y2")
            box = (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
        elif tag == "path":
            points = [float(v) for v in _NUMBER.findall(element.attrib["d"])]
            xs, ys = points[0::2], points[1::2]  # a Bezier stays inside its control points
            box = (min(xs), min(ys), max(xs), max(ys))
        elif tag == "text":
            found.append((tag, _text_box(element)))
            continue
        else:
            continue
        found.append((tag, (box[0] - half, box[1] - half, box[2] + half, box[3] + half)))
    return found


def _assert_inside(svg: str) -> None:
    root = ET.fromstring(svg)
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    outside = [
        (tag, box)
        for tag, box in _boxes(svg)
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
    ]
    assert not outside, f"{len(outside)} elements outside {width} x {height}: {outside[:5]}"


def _wrapped_position() -> GameState:
    """The position that showed the bug: a Mexican train wrapped onto two lines."""
    state = new_game(4, seed=3)
    rng = random.Random(0)
    for _ in range(61):
        state = apply(state, rng.choice(legal_moves(state)))
    return state


@given(played_positions())
def test_text_fits_79_columns_and_loses_no_word(state: GameState) -> None:
    """A long train, a big hand or eight scores go on under their first tile or entry:
    every line fits a terminal of 80 columns, and the words are those of one line each."""
    for subject in (state, view(state, 0)):
        text = render_text(subject)
        assert max(len(line) for line in text.splitlines()) <= 79, text
        assert text.split() == render_text(subject, width=None).split()


def test_text_wraps_a_long_train_under_its_first_tile() -> None:
    lines = render_text(_wrapped_position()).splitlines()
    mexican = next(i for i, line in enumerate(lines) if line.startswith("  Mexican train  "))
    assert lines[mexican + 1] == " " * 17 + "11-4 4-0 0-5 5-3 3-9 9-11 11-2 2-3 3-1 1-1 1-8 > 8"
    with pytest.raises(InvalidArgumentError, match="width is a number of columns"):
        render_text(_wrapped_position(), width=0)


def test_text_keeps_a_seats_name_whole_in_the_wrapped_status_line() -> None:
    """The status line wraps between words, never inside the name of the player to move."""
    state = new_game(3, STANDARD, seed=1)
    names = [f"seat {seat} (planner)" for seat in range(3)]
    lines = render_text(state, names=names, width=40).splitlines()
    assert lines[:2] == [
        f"Round 1 of 10, engine 9-9: {names[state.first_player]}",
        "    to play, first turn (P4)",  # 4 in: the head takes over half the width
    ]


def test_svg_of_a_wrapped_train_is_wide_enough_for_its_longest_line() -> None:
    """The width came from a wrapped train's last line only: six tiles were cut off."""
    state = _wrapped_position()
    assert len(state.train(MEXICAN).tiles) > 16  # wrapped, with the longer line first
    _assert_inside(render_svg(state))


@given(rendered_positions())
def test_svg_draws_everything_inside_the_picture(
    position: tuple[GameState, Move | None, list[str] | None],
) -> None:
    state, last, names = position
    _assert_inside(render_svg(state, names=names, last_move=last))
    _assert_inside(render_svg(view(state, 0), names=names))
    _assert_inside(render_svg(spectator_view(state), names=names))


def _numbers(svg: str) -> list[tuple[ET.Element, ET.Element]]:
    """Return every number drawn on a tile, with the tile's outline (its rect)."""
    found = []
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if "data-tile" in group.attrib:
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            found += [(text, rect) for text in group.iter(f"{SVG}text")]
    return found


@pytest.mark.parametrize("max_pip", [12, 18])
def test_svg_numbers_are_legible_each_inside_its_half_tile(max_pip: int) -> None:
    """Each number, two digits too, lies inside its half of the tile, at 9 px or more."""
    state = new_game(4, attrs.evolve(STANDARD, max_pip=max_pip, hand_size=12), seed=3)
    rng = random.Random(0)
    for _ in range(61):
        state = apply(state, rng.choice(legal_moves(state)))
    numbers = _numbers(render_svg(state))
    assert {text.text for text, _ in numbers} >= {"10", "11", "12"}
    for text, rect in numbers:
        assert _num(text, "font-size") >= 9
        left, top, right, bottom = _text_box(text)
        x, y = _num(rect, "x"), _num(rect, "y")
        w, h = _num(rect, "width"), _num(rect, "height")
        u = min(w, h)  # a half-tile is a square; which half is the text's?
        hx = x if w == u or left < x + u else x + u
        hy = y if h == u or top < y + u else y + u
        assert hx < left, (text.text, left, hx)
        assert right < hx + u, (text.text, right, hx + u)
        assert hy < top, (text.text, top, hy)
        assert bottom < hy + u, (text.text, bottom, hy + u)


def _lab(colour: str) -> tuple[float, float, float]:
    """Return the CIELAB (D65) coordinates of an sRGB colour such as ``#12ab34``."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """Return the CIEDE2000 colour difference (Sharma, Wu and Dalal, 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * theta)) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # pairs 1, 7, 17 and 25 of Sharma, Wu and Dalal's test data
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 0, 0), (50, -1, 2), 2.3669),
        ((50, 2.5, 0), (73, 25, -18), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_agrees_with_the_published_test_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert round(ciede2000(lab1, lab2), 4) == expected


def test_svg_no_two_numbers_0_to_18_share_a_colour() -> None:
    """Matching ends are spotted by colour: any two numbers differ by CIEDE2000 >= 8."""
    state = new_game(2, attrs.evolve(HUB, max_pip=18, hand_size=40), seed=1)  # all 0-18 shown
    colours: dict[str, set[str]] = {}
    for text, _ in _numbers(render_svg(state)):
        colours.setdefault(text.text or "", set()).add(text.attrib["fill"])
    assert sorted(colours, key=int) == [str(n) for n in range(19)]
    assert all(len(fills) == 1 for fills in colours.values())  # one colour per number
    labs = {number: _lab(fills.pop()) for number, fills in colours.items()}
    for first, second in itertools.combinations(labs, 2):
        distance = ciede2000(labs[first], labs[second])
        assert distance >= 8, (first, second, distance)


def test_svg_outlines_the_tile_of_the_last_move() -> None:
    state = _wrapped_position()
    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    svg = render_svg(apply(state, move), last_move=move)
    assert _tiles_drawn(svg, "last-move") == Counter([str(move.tile)])
    assert "last move" in svg  # named in the legend


@pytest.mark.parametrize(("move", "words"), [(Draw(), "a draw"), (Pass(), "a pass")])
def test_svg_names_a_last_move_that_laid_no_tile(move: Draw | Pass, words: str) -> None:
    svg = render_svg(new_game(2, seed=1), last_move=move)
    assert f"last move: {words}" in svg
    assert _tiles_drawn(svg, "last-move") == Counter()


def test_svg_refuses_a_last_move_that_did_not_lead_here() -> None:
    with pytest.raises(InvalidArgumentError, match="12-5 is not on train 0"):
        render_svg(new_game(2, seed=1), last_move=Play(Tile(12, 5), 0))
    with pytest.raises(TypeError, match="last_move must be a move"):
        render_svg(new_game(2, seed=1), last_move="12-5@0")  # type: ignore[arg-type]


def test_svg_has_a_legend_for_the_marker_and_the_open_end() -> None:
    legend = ET.fromstring(render_svg(new_game(2, seed=1))).find(f"{SVG}g[@class='legend']")
    assert legend is not None
    words = " ".join(text.text or "" for text in legend.iter(f"{SVG}text"))
    assert "marker" in words
    assert "open end" in words


# Two doubles left open on a double-6 set (scenario_helpers' notation): seat 0 plays 5-5 on
# its own train and 3-3 on the Mexican train in one turn, follows with 6-4 on seat 1's
# marked train, and seat 1 is to move with both doubles open, 5-5 played first (D3).
_TWO_OPEN_HANDS = ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"]
_TWO_OPEN_MOVES = (
    on("6-3", MEXICAN), DRAW, PASS, on("6-5", 0), DRAW, PASS,
    on("5-5", 0), on("3-3", MEXICAN), on("6-4", 1),
)  # fmt: skip


def _two_open(open_doubles: OpenDoubleRule) -> GameState:
    rules = attrs.evolve(HUB, open_doubles=open_doubles)
    state = run(start(_TWO_OPEN_HANDS, rules=rules, boneyard="4-1 4-0"), *_TWO_OPEN_MOVES)
    assert state.open_doubles == (0, MEXICAN)
    return state


def _double_flags(state: GameState) -> dict[str, str]:
    """Return the open-double flag of each row of the text rendering that has one."""
    flags = {}
    for line in render_text(state).splitlines()[2:]:
        found = re.search(r"\[(open double[^\]]*|dead double[^\]]*)\]", line)
        if found:
            flags[line[2:].split("  ")[0]] = found[1]
    return flags


def _svg_double_flags(state: GameState) -> list[str]:
    texts = ET.fromstring(render_svg(state)).itertext()
    return sorted(t for t in texts if t.startswith(("open double", "dead double")))


def test_d3_open_doubles_are_numbered_in_the_order_they_close() -> None:
    """D3: the doubles are numbered as they must be covered, the first played first."""
    state = _two_open(CloseInOrder())
    assert _double_flags(state) == {"Seat 0": "open double #1", "Mexican train": "open double #2"}
    assert _svg_double_flags(state) == ["open double #1", "open double #2"]


def test_v3_reverse_order_numbers_the_latest_double_first() -> None:
    """V3 (Rulebook B's variation): the double played last is covered first, so it is #1."""
    state = _two_open(CloseInOrder(reverse=True))
    assert _double_flags(state) == {"Seat 0": "open double #2", "Mexican train": "open double #1"}
    assert legal_moves(state) == (DRAW,)  # seat 1 holds no 3 for the Mexican train's 3-3


def test_v3_doubles_covered_in_any_order_are_not_numbered() -> None:
    """V3 ("any-double"): every open double binds, none before another: no numbers."""
    state = _two_open(get_variant("any-double").open_doubles)
    assert _double_flags(state) == {"Seat 0": "open double", "Mexican train": "open double"}
    assert _svg_double_flags(state) == ["open double", "open double"]
    assert "an open double waits (D2)" in render_text(state)


def test_v3_doubles_that_never_bind_are_not_numbered_nor_said_to_wait() -> None:
    """V3 ("doubles-never-bind"): the doubles stay uncovered but bind nobody."""
    state = _two_open(NeverBind())
    assert _double_flags(state) == {"Seat 0": "open double", "Mexican train": "open double"}
    assert "waits" not in render_text(state)
    assert "waits" not in render_svg(state)


def _dead_zero(rules: Rules) -> GameState:
    """Return a double-6 game where 0-0 ends seat 0's train, dead (every 0 is on the table,
    D4), and seat 1 is to move; as in the rulebook scenarios of D4."""
    state = start(
        ["6-6 6-1 1-0 2-0 5-2 5-0 0-0 6-4 4-2", "6-0 3-0 4-3 4-0 4-4 1-1 2-1 2-2 5-5"],
        rules=rules,
        boneyard="3-1",
    )
    return run(
        state,
        *(on(t, 0) for t in ("6-1", "1-0", "2-0", "5-2", "5-0")), PASS,
        *(on(t, 1) for t in ("6-0", "3-0", "4-3", "4-0")),
        on("0-0", 0), on("6-4", MEXICAN),
    )  # fmt: skip


def test_d4_a_dead_double_is_flagged_dead_and_said_to_bind_nobody() -> None:
    """D4: a double nothing can cover binds nobody: it is not an open double that waits."""
    state = _dead_zero(STANDARD)
    assert state.open_doubles == (0,)
    assert _double_flags(state) == {"Seat 0": "dead double (D4)"}
    assert _svg_double_flags(state) == ["dead double (D4)"]
    assert "waits" not in render_text(state)
    assert "waits" not in render_svg(state)


def test_d4_a_dead_double_is_skipped_in_the_numbers() -> None:
    """D3/D4: dead doubles are skipped in the closing order: the live one is not #2."""
    state = run(_dead_zero(STANDARD), on("4-4", MEXICAN), DRAW, PASS)
    assert state.open_doubles == (0, MEXICAN)
    assert _double_flags(state) == {"Seat 0": "dead double (D4)", "Mexican train": "open double"}
    assert "an open double waits (D2)" in render_text(state)


def test_v4_a_dead_double_that_still_binds_is_an_open_double() -> None:
    """V4 ("dead-doubles-bind"): nothing can cover the 0-0, but it binds all the same."""
    state = _dead_zero(get_variant("dead-doubles-bind"))
    assert legal_moves(state) == (DRAW,)
    assert _double_flags(state) == {"Seat 0": "open double"}
    assert "an open double waits (D2)" in render_text(state)


def test_v10_a_view_says_nothing_of_the_plays_of_another_seat_to_move() -> None:
    """V10: with open hands a seat sees every hand, but its view offers no moves on another
    seat's turn: it must not say that the player to move has no tile to play."""
    state = new_game(3, attrs.evolve(HUB, open_hands=True), seed=0)
    assert state.current_player == 0
    assert legal_moves(state)[0] == Play(Tile(12, 3), 0)
    texts = set(ET.fromstring(render_svg(view(state, 1))).itertext())
    assert "Seat 0's hand: 16 tiles" in texts
    assert not any("none can be played" in text for text in texts)
    assert "Seat 0's hand: 16 tiles, playable tiles raised" in set(
        ET.fromstring(render_svg(state)).itertext()
    )


def test_text_aligns_the_trains_under_a_name_in_wide_letters() -> None:
    """A name in CJK letters takes two columns a letter on a terminal: the trains still
    start in one column, and a wrapped row still fits the width."""
    state = _wrapped_position()
    names = ["李小龍", "Ann", "Zoë", "Bo"]
    text = render_text(state, names=names)

    def columns(line: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)

    rows = text.splitlines()[2:7]
    starts = {columns(row[: row.index("12-")]) for row in rows}
    assert len(starts) == 1, rows
    assert max(columns(line) for line in text.splitlines()) <= 79
