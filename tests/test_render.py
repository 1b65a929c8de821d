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

import re
import xml.etree.ElementTree as ET
from collections import Counter

import attrs
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    STANDARD,
    Deal,
    Draw,
    GameState,
    Pass,
    Play,
    PlayerView,
    Tile,
    apply,
    full_set,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train.render import render_svg, render_text
from strategies import played_positions

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
  Mexican train  (empty) > 6
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
    ET.fromstring(render_svg(state))


def test_a_view_renders_only_for_its_own_seat() -> None:
    state = _small_position()
    with pytest.raises(ValueError, match="seat 1"):
        render_text(view(state, 1), seat=0)
    with pytest.raises(ValueError, match="a seat is"):
        render_svg(state, seat=7)


def test_names_must_name_every_seat() -> None:
    with pytest.raises(ValueError, match="2 strings"):
        render_text(_small_position(), names=["Ann"])
    with pytest.raises(ValueError, match="2 strings"):
        render_text(_small_position(), names="AB")


def test_only_states_and_views_render() -> None:
    with pytest.raises(TypeError, match="GameState or PlayerView"):
        render_svg("6-6")  # type: ignore[arg-type]
