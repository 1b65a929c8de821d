"""Hostile input: every reader refuses it with its own typed error and changes nothing.

Regression tests for what a hostile-input audit found, each closing the
class of bug and not only the instance: nesting is bounded in every reader, numbers
too long to print are refused wherever they are, a tile out of the set is a schema
error wherever a tile is read, a view is checked as a state is, and a refused
document costs its first fault only.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import attrs
import pytest

from mexican_train import (
    COMPILED,
    HUB,
    MEXICAN,
    GameRecord,
    GameState,
    NotationError,
    Play,
    PlayerView,
    Tile,
    apply,
    format_state,
    legal_moves,
    new_game,
    parse_state,
    round_score,
    spectator_view,
    view,
)
from mexican_train._core.bounds import MAX_DEPTH
from mexican_train._formats import notation as _notation
from mexican_train._formats import serialize as _serialize
from mexican_train.events import GameOver, TilePlayed
from mexican_train.serialize import (
    SCHEMA_VERSION,
    SchemaError,
    event_from_json,
    from_json,
    move_from_json,
    record_from_json,
    state_from_json,
    to_json,
    view_from_json,
)

Reader = Callable[[object], object]


def a_state() -> GameState:
    return new_game(4, HUB, seed=1)


def documents() -> dict[str, tuple[Reader, dict[str, Any]]]:
    """A valid document of each type, with its own reader."""
    state = a_state()
    return {
        "state": (state_from_json, to_json(state)),
        "view": (view_from_json, to_json(view(state, 0))),
        "move": (move_from_json, to_json(Play(Tile(12, 5), MEXICAN))),
        "record": (record_from_json, to_json(GameRecord(4, HUB, 1))),
        "event": (event_from_json, to_json(TilePlayed(0, Tile(12, 5), 0, 5))),
        "any": (from_json, to_json(state)),
    }


READERS = sorted(documents())


def nested(depth: int, leaf: object = 0) -> object:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# -- nesting: bounded in every reader -------------------------------------------------------


def test_rules_text_nested_500_deep_is_a_notation_error_not_a_recursion_error() -> None:
    """A piece's fields hold no piece: the first one named inside a piece is refused there,
    before its bracket is read (the depth stays within MAX_DEPTH whatever the text)."""
    fields = format_state(a_state()).split(" ")
    deep = "hub(open_doubles=" + "CloseInOrder(reverse=" * 500
    with pytest.raises(NotationError) as caught:
        parse_state(" ".join([deep, *fields[1:]]))
    assert (caught.value.field, caught.value.part) == ("rules", "CloseInOrder")
    assert caught.value.column == len("hub(open_doubles=CloseInOrder(reverse=") + 1
    assert caught.value.reason.startswith("reverse is a number, true, false, none")
    assert MAX_DEPTH > 2  # the brackets a piece inside the rules opens


@pytest.mark.parametrize("kind", READERS)
@pytest.mark.parametrize("depth", [MAX_DEPTH, 5000])
def test_json_nested_too_deep_is_a_schema_error_in_every_reader(kind: str, depth: int) -> None:
    reader, document = documents()[kind]
    document["deep"] = nested(depth)  # the document itself is the first level
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert f"nested deeper than {MAX_DEPTH} levels" in caught.value.reason
    assert caught.value.path.startswith("$.deep[0][0]")


@pytest.mark.parametrize("kind", READERS)
def test_json_nested_to_the_limit_is_read_on(kind: str) -> None:
    """A value MAX_DEPTH levels down passes the shape check; the unknown field is refused."""
    reader, document = documents()[kind]
    document["deep"] = nested(MAX_DEPTH - 1)  # 32 levels with the document
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert caught.value.reason == "unknown field" or "has no field" in caught.value.reason


# -- numbers too long to print ----------------------------------------------------------------


@pytest.mark.parametrize("kind", READERS)
@pytest.mark.parametrize("field", ["schema", "type", "players", "deep"])
def test_a_number_of_more_than_4300_digits_is_a_schema_error_anywhere(
    kind: str, field: str
) -> None:
    assert sys.get_int_max_str_digits() in (0, 4300)  # the default: such ints cannot be printed
    reader, document = documents()[kind]
    document[field] = [10**5000] if field == "deep" else 10**5000
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert "bits" in caught.value.reason
    assert caught.value.path.startswith(f"$.{field}")


@pytest.mark.parametrize("kind", READERS)
def test_a_number_of_more_than_4300_digits_in_a_tuple_is_a_schema_error(kind: str) -> None:
    """A tuple is read as an array (a Python caller's document), so it is looked into as one."""
    reader, document = documents()[kind]
    document["deep"] = (0, (10**5000,))
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert "bits" in caught.value.reason
    assert caught.value.path == "$.deep[1][0]"


@pytest.mark.parametrize("kind", READERS)
@pytest.mark.parametrize("key", [10**5000, 7, (1, 2), None], ids=["huge", "int", "tuple", "none"])
def test_a_key_that_is_not_a_string_is_a_schema_error(kind: str, key: object) -> None:
    """JSON's keys are strings; a dict from elsewhere may hold others, refused before showing one."""
    reader, document = documents()[kind]
    parent: Any = document.get("rules", document)
    parent[key] = 1
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert caught.value.reason.startswith("an object's keys are strings, not ")
    assert caught.value.path == ("$.rules" if parent is not document else "$")
    assert len(str(caught.value)) < SHORT_MESSAGE


# -- tiles out of the set ---------------------------------------------------------------------


@pytest.mark.parametrize("reader", [move_from_json, from_json])
def test_a_play_of_tile_99_1_is_a_schema_error(reader: Reader) -> None:
    document = {"schema": SCHEMA_VERSION, "type": "play", "tile": "99-1", "train": 0}
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert caught.value.path == "$.tile"
    assert "99-1" in caught.value.reason
    assert "from 0 to 30" in caught.value.reason


@pytest.mark.parametrize(
    ("kind", "where"),
    [("state", ("boneyard", 0)), ("view", ("hand", 0)), ("event", ("tile",))],
)
def test_a_tile_out_of_every_set_is_a_schema_error_wherever_a_tile_is_read(
    kind: str, where: tuple[str | int, ...]
) -> None:
    reader, document = documents()[kind]
    parent: Any = document
    for step in where[:-1]:
        parent = parent[step]
    parent[where[-1]] = "31-0"
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert caught.value.path == "$." + ".".join(map(str, where)).replace(".0", "[0]")
    assert "from 0 to 30" in caught.value.reason


# -- apply and views --------------------------------------------------------------------------


# A compiled build checks apply's typed state argument before the library does, in its
# own words: a TypeError on both builds.
_COMPILED_WORDS = "GameState object expected"


def test_apply_to_a_view_says_to_apply_moves_to_the_state() -> None:
    state = a_state()
    mine = view(state, state.current_player or 0)
    words = _COMPILED_WORDS if COMPILED else "apply moves to the state"
    with pytest.raises(TypeError, match=words):
        apply(mine, legal_moves(mine)[0])  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, "state", 5])
def test_apply_to_something_not_a_state_is_a_type_error(value: Any) -> None:
    words = _COMPILED_WORDS if COMPILED else "apply\\(\\) needs a GameState"
    with pytest.raises(TypeError, match=words):
        apply(value, Play(Tile(12, 5), 0))


def a_stalled_state() -> GameState:
    """A state whose boneyard is empty, at the start of a turn (nothing played or drawn)."""
    rng = random.Random(4)
    state = new_game(2, HUB, seed=4)
    while not (
        state.boneyard_size == 0
        and state.current_player is not None
        and not state.turn_tiles
        and not state.has_drawn
    ):
        moves = legal_moves(state)
        state = apply(state, rng.choice(moves))
        assert not state.is_over
    return state


@pytest.mark.parametrize("seat", [0, 1, None])
def test_e2_a_view_of_a_round_that_should_have_ended_is_refused_like_the_state(
    seat: int | None,
) -> None:
    """E2: an empty boneyard and a cycle of unchanged turns end the round, so no state has
    a player to move then; the view reader refuses such a view as the state reader does."""
    state = a_stalled_state()
    document = to_json(state)
    document["idle_turns"] = state.players
    with pytest.raises(SchemaError, match="E2"):
        state_from_json(document)
    shown: PlayerView = view(state, seat) if seat is not None else spectator_view(state)
    document = to_json(shown)
    document["idle_turns"] = state.players
    with pytest.raises(SchemaError) as caught:
        view_from_json(document)
    assert caught.value.path == "$.idle_turns"
    assert "E2" in caught.value.reason


def test_e3_a_view_with_open_hands_checks_every_seats_round_score() -> None:
    """E3 and V10: with open hands a view shows every hand left, so every round score is checked."""
    rules = attrs.evolve(HUB, open_hands=True)
    state = new_game(2, rules, seed=3)
    while state.current_player is not None:
        state = apply(state, legal_moves(state)[0])
    document = to_json(view(state, 0))
    document["round_scores"][-1][1] += 1
    document["scores"][1] += 1
    with pytest.raises(SchemaError) as caught:
        view_from_json(document)
    assert caught.value.path == "$.round_scores[0][1]"
    assert "E3" in caught.value.reason


# -- refusing a document costs its first fault -------------------------------------------------


@contextmanager
def counting_calls(function: Callable[..., object]) -> Iterator[list[int]]:
    """Count the calls of *function*, in Python or a builtin (``min``, ...), made inside
    the block."""
    code = getattr(function, "__code__", None)
    count = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if (event == "call" and frame.f_code is code) or (event == "c_call" and arg is function):
            count[0] += 1

    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)


@pytest.mark.parametrize("field", ["boneyard", "hands"])
def test_a_document_is_refused_at_its_first_bad_array_element(field: str) -> None:
    """Elements after the first bad one are not examined (a 1.6 MB document took 7 s)."""
    document = to_json(a_state())
    bad = ["99-1"] * 10_000
    document[field] = bad if field == "boneyard" else [bad] * 4
    with (
        counting_calls(_serialize._structure_tile) as examined,
        pytest.raises(SchemaError) as caught,
    ):
        state_from_json(document)
    assert caught.value.path == f"$.{field}[0]" + ("[0]" if field == "hands" else "")
    # The first bad tile of the field, and of the other fields read (the trains, the engine).
    assert examined[0] < 100


def test_a_position_with_a_long_hand_splits_it_once() -> None:
    """The hand's text is cut into tiles once, not once per tile (a hand of 20,000 tiles,
    written in 80 kB, took minutes)."""
    fields = format_state(a_state()).split(" ")
    fields[4] = ",".join(["1-1"] * 1000) + "/-/-/-"
    with (
        counting_calls(_notation._Part.split) as splits,
        pytest.raises(NotationError) as caught,
    ):
        parse_state(" ".join(fields))
    assert caught.value.field == "hands"
    assert splits[0] < 50


def test_e5_a_game_over_with_every_seat_a_winner_reads_the_totals_once() -> None:
    """Every winner is checked against the lowest total, found once, not once per winner
    (for a game over of 10**6 tied seats, that is hours)."""
    seats = 10_000
    document = {
        "schema": SCHEMA_VERSION,
        "type": "game-over",
        "scores": [0] * seats,
        "winners": list(range(seats)),
    }
    with counting_calls(min) as scans:
        event = event_from_json(document)
    assert isinstance(event, GameOver)
    assert len(event.winners) == seats
    assert scans[0] == 1  # the lowest total, found once (and the count counts)


def a_round_ended_by_going_out() -> GameState:
    """The end of a round that a player went out of, tiles still in the boneyard."""
    for seed in range(100):
        state = new_game(2, HUB, seed=seed)
        rng = random.Random(seed)
        while state.current_player is not None:
            state = apply(state, rng.choice(legal_moves(state)))
        if state.boneyard_size and not all(state.hands):
            return state
    raise AssertionError("no round in 100 ended with tiles in the boneyard")


@pytest.mark.parametrize("seat", ["other", None])
def test_e1_e2_a_round_over_with_nobody_out_and_a_boneyard_is_refused_in_states_and_views(
    seat: str | None,
) -> None:
    """E1, E2: a round ends when a player goes out, or blocked once the boneyard is empty;
    a state or a view that shows neither is refused."""
    state = a_round_ended_by_going_out()
    out = [len(hand) for hand in state.hands].index(0)
    # Give the seat that went out the boneyard's first tile, and score it (E3): only E1/E2
    # is then wrong.
    tile = state.boneyard[0]
    hands = list(state.hands)
    hands[out] = (tile,)
    scored = round_score((tile,), state.rules)
    rows = [list(row) for row in state.round_scores]
    rows[-1][out] += scored
    scores = list(state.scores)
    scores[out] += scored
    changed = state.replace(
        hands=tuple(hands),
        boneyard=state.boneyard[1:],
        round_scores=tuple(map(tuple, rows)),
        scores=tuple(scores),
    )
    with pytest.raises(SchemaError) as caught:
        state_from_json(to_json(changed))
    assert caught.value.path == "$.current_player"
    shown = spectator_view(changed) if seat is None else view(changed, 1 - out)
    with pytest.raises(SchemaError) as caught:
        view_from_json(to_json(shown))
    assert caught.value.path == "$.current_player"
    assert "E1" in caught.value.reason
    assert "E2" in caught.value.reason


def test_e3_a_view_checks_the_round_score_of_a_hand_it_knows_is_empty() -> None:
    """E3: a seat that went out scores nothing, and every view shows its hand size of 0."""
    state = a_round_ended_by_going_out()
    out = [len(hand) for hand in state.hands].index(0)
    document = to_json(view(state, 1 - out))
    document["round_scores"][-1][out] += 5
    document["scores"][out] += 5
    with pytest.raises(SchemaError) as caught:
        view_from_json(document)
    assert caught.value.path == f"$.round_scores[0][{out}]"
    assert "E3" in caught.value.reason


# -- long strings: every message stays one readable line --------------------------------------

LONG = "x" * 10**6
#: A message names a cut value (`shown`) and its path; the longest lists every variant.
SHORT_MESSAGE = 1000


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        *((kind, ()) for kind in READERS),
        ("state", ("rules",)),
        ("record", ("rules", "open_doubles")),
        ("view", ("trains", 0)),
    ],
)
def test_an_unknown_field_with_a_key_of_a_million_characters_is_named_cut(
    kind: str, where: tuple[str | int, ...]
) -> None:
    reader, document = documents()[kind]
    parent: Any = document
    for step in where:
        parent = parent[step]
    parent[LONG] = 1
    with pytest.raises(SchemaError) as caught:
        reader(document)
    assert len(str(caught.value)) < SHORT_MESSAGE
    assert "(1000000 characters)" in caught.value.path


def test_an_engine_placement_of_a_million_characters_is_refused_cut_naming_the_choices() -> None:
    document = to_json(a_state())
    document["rules"]["engine_placement"] = LONG
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.rules.engine_placement"
    assert len(str(caught.value)) < SHORT_MESSAGE
    assert '"holder", "set-aside"' in caught.value.reason


@pytest.mark.parametrize("value", [1, ["holder"], {}, None, "HOLDER"])
def test_an_engine_placement_not_one_of_its_strings_is_refused(value: object) -> None:
    document = to_json(a_state())
    document["rules"]["engine_placement"] = value
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.rules.engine_placement"
    assert caught.value.reason.startswith(
        'expected one of "holder", "set-aside" (EnginePlacement), not '
    )


@pytest.mark.parametrize(
    "rules",
    [
        LONG,
        f"hub({LONG}=1)",
        f"hub(max_pip={LONG})",
        f"hub(engine_placement=EnginePlacement.{LONG})",
    ],
    ids=["variant", "field", "value", "enum member"],
)
def test_a_name_of_a_million_characters_in_the_rules_field_is_shown_cut(rules: str) -> None:
    fields = format_state(a_state()).split(" ")
    with pytest.raises(NotationError) as caught:
        parse_state(" ".join([rules, *fields[1:]]))
    assert caught.value.field == "rules"
    assert len(str(caught.value)) < SHORT_MESSAGE
    assert "characters)" in caught.value.reason
