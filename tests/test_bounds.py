"""One table of bounds for every number, in every format and at every entry point.

A number inside its bound round-trips through JSON and the notation; a number outside is
refused by both readers, whatever the field.  The JSON Schema publishes the same table.
The functions that take a number (a seed, a set, a bot's budget) accept the same ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    GameRecord,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    Play,
    Tile,
    apply,
    build_state,
    format_move,
    format_state,
    full_set,
    legal_moves,
    new_game,
    parse_move,
    parse_state,
    set_size,
    view,
)
from mexican_train._core.bounds import BOUNDS, FIELD_BOUNDS, MAX_DEPTH, MAX_PIP, Bound, check_bound
from mexican_train._core.errors import shown
from mexican_train._core.tables import NAME_CHARS
from mexican_train.events import RoundEnded, TurnStarted
from mexican_train.players import (
    GreedyPlayer,
    PlannerPlayer,
    RandomPlayer,
    SearchPlayer,
    longest_train,
)
from mexican_train.serialize import (
    SchemaError,
    event_from_json,
    json_schema,
    move_from_json,
    state_from_json,
    to_json,
    view_from_json,
)
from mexican_train.simulation import simulate
from mexican_train.web import MAX_JSON_DEPTH
from strategies import numbers_near, parts_of

# -- the schema publishes the table -----------------------------------------------------------


def bound_at(path: tuple[str | int, ...]) -> Bound:
    """Return the bound the integer at *path* in the schema must publish."""
    if path == ("$defs", "seat"):
        return BOUNDS["seat"]
    if path == ("$defs", "trainId"):
        return BOUNDS["train"]
    if path == ("$defs", "seed"):
        return BOUNDS["seed"]
    if path[:2] == ("$defs", "dealTable"):  # rows: [players, set, hand size]
        return (BOUNDS["players"], BOUNDS["pip"], BOUNDS["hand_size"])[int(path[-1])]
    skipped = {"$defs", "properties", "items", "oneOf", "prefixItems"}
    names = [key for key in path if isinstance(key, str) and key not in skipped]
    if names[0] == "rules":
        return BOUNDS["rules.max_pip" if names[-1] == "max_pip" else names[-1]]
    return FIELD_BOUNDS[names[-1]]


def integers_of(node: object, path: tuple[str | int, ...] = ()) -> list[tuple[Any, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "integer":
            found.append((path, node))
        for key, item in node.items():
            found += integers_of(item, (*path, key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found += integers_of(item, (*path, index))
    return found


def test_the_json_schema_publishes_the_bound_of_every_whole_number() -> None:
    integers = integers_of(json_schema())
    assert len(integers) > 30
    for path, node in integers:
        bound = bound_at(path)
        assert (node.get("minimum"), node.get("maximum")) == (bound.low, bound.high), path


def test_the_json_schema_publishes_the_length_of_a_deal_table_s_name() -> None:
    name = json_schema()["$defs"]["dealTable"]["oneOf"][1]["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (1, NAME_CHARS)


def test_every_bound_is_a_range() -> None:
    for name, bound in BOUNDS.items():
        assert bound.low < bound.high, name
        assert bound.low in bound
        assert bound.high in bound
        assert bound.high + 1 not in bound
        assert True not in bound  # a bool is not a number


# -- inside round-trips, outside is refused, in both formats -----------------------------------


def _round_two() -> GameState:
    """A state of round 2 with a player to move: round 1's scores are free but for their sum."""
    rules = attrs.evolve(HUB, max_pip=6, hand_size=5)
    state = new_game(2, rules, seed=4)
    rng = random.Random(4)
    while state.round_number == 1 or state.current_player is None:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


ROUND_TWO = _round_two()


def with_seed(value: int) -> GameState:
    return ROUND_TWO.replace(seed=value)


#: A field whose only limit is its bound, and a state holding any value in it.
STATE_FIELDS: dict[str, tuple[Bound, Callable[[int], GameState]]] = {
    "seed": (BOUNDS["seed"], with_seed),
}
#: A field of Rules whose only limit is its bound, and the value written in the base state.
RULES_FIELDS: dict[str, int] = {"double_blank_score": 7, "last_tile_penalty": 3}


def inside(bound: Bound) -> st.SearchStrategy[int]:
    return st.integers(bound.low, bound.high)


def outside(bound: Bound) -> st.SearchStrategy[int]:
    # Up to 1000 bits: longer numbers are refused before any field is read (test_hostile_input).
    return st.integers(-(2**999), bound.low - 1) | st.integers(bound.high + 1, 2**999)


def edges(bound: Bound) -> list[int]:
    return [bound.low, bound.high, bound.low - 1, bound.high + 1]


def round_trips_or_refused(state: GameState, bound: Bound, value: int) -> None:
    document, text = to_json(state), format_state(state)
    if value in bound:
        assert state_from_json(document) == state
        assert parse_state(text) == state
    else:
        with pytest.raises(SchemaError):
            state_from_json(document)
        with pytest.raises(NotationError):
            parse_state(text)


@pytest.mark.parametrize("field", sorted(STATE_FIELDS))
@given(data=st.data())
def test_a_state_number_inside_its_bound_round_trips_and_outside_is_refused(
    field: str, data: st.DataObject
) -> None:
    bound, build = STATE_FIELDS[field]
    value = data.draw(st.sampled_from(edges(bound)) | inside(bound) | outside(bound))
    round_trips_or_refused(build(value), bound, value)


@pytest.mark.parametrize("field", sorted(RULES_FIELDS))
@given(data=st.data())
def test_a_rules_number_inside_its_bound_round_trips_and_outside_is_refused(
    field: str, data: st.DataObject
) -> None:
    bound, base = BOUNDS[field], RULES_FIELDS[field]
    value = data.draw(st.sampled_from(edges(bound)) | inside(bound) | outside(bound))
    if value in bound:
        changes: dict[str, Any] = {field: value}
        rules = attrs.evolve(ROUND_TWO.rules, **changes)
        round_trips_or_refused(ROUND_TWO.replace(rules=rules), bound, value)
        return
    # Rules refuses to hold the value: write it into the documents of a valid state.
    written: dict[str, Any] = {field: base}
    state = ROUND_TWO.replace(rules=attrs.evolve(ROUND_TWO.rules, **written))
    document = to_json(state)
    document["rules"][field] = value
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.path == f"$.rules.{field}"
    assert f"Rules.{field}" in caught.value.reason
    text = format_state(state).replace(f"{field}={base}", f"{field}={value}")
    assert text != format_state(state)
    with pytest.raises(NotationError) as refused:
        parse_state(text)
    assert refused.value.field == "rules"


@given(st.sampled_from(edges(BOUNDS["train"])) | inside(BOUNDS["train"]) | outside(BOUNDS["train"]))
@example(-1)
def test_a_train_id_inside_its_bound_round_trips_and_outside_is_refused(value: int) -> None:
    bound = BOUNDS["train"]
    base = Play(Tile(12, 5), 0)
    document = {**to_json(base), "train": value}
    text = format_move(base).replace("@0", f"@{value}")
    if value in bound:
        move = Play(Tile(12, 5), value)
        assert move_from_json(to_json(move)) == move == move_from_json(document)
        assert parse_move(format_move(move)) == move
        return
    with pytest.raises(SchemaError):
        move_from_json(document)
    with pytest.raises(NotationError):
        parse_move(text)


@given(st.sampled_from(edges(BOUNDS["seat"])) | inside(BOUNDS["seat"]) | outside(BOUNDS["seat"]))
def test_an_event_seat_inside_its_bound_round_trips_and_outside_is_refused(value: int) -> None:
    """Events have no notation: JSON only."""
    document = to_json(TurnStarted(value))
    if value in BOUNDS["seat"]:
        assert event_from_json(document) == TurnStarted(value)
    else:
        with pytest.raises(SchemaError, match=r"\$\.seat: a seat is"):
            event_from_json(document)


@given(st.sampled_from(edges(BOUNDS["score"])) | inside(BOUNDS["score"]) | outside(BOUNDS["score"]))
def test_an_event_score_inside_its_bound_round_trips_and_outside_is_refused(value: int) -> None:
    event = RoundEnded(2, (value, 0), (0, value))
    if value in BOUNDS["score"]:
        assert event_from_json(to_json(event)) == event
    else:
        with pytest.raises(SchemaError, match=r"\$\.round_scores\[0\]: a score is"):
            event_from_json(to_json(event))


# -- round scores: the pips of a hand (E3, V7) -------------------------------------------------


def with_round_score(state: GameState, value: int) -> GameState:
    """*state*, in round 2, with seat 0's round-1 score (and so its total, E3) *value*."""
    other = state.round_scores[0][1]
    return state.replace(scores=(value, other), round_scores=((value, other),))


def round_two(double_blank_score: int) -> GameState:
    rules = attrs.evolve(ROUND_TWO.rules, double_blank_score=double_blank_score)
    return ROUND_TWO.replace(rules=rules)


@pytest.mark.parametrize("double_blank_score", [50, 0, -50])
@given(data=st.data())
def test_a_round_score_is_one_a_hand_can_score_in_every_reader_and_build_state(
    double_blank_score: int, data: st.DataObject
) -> None:
    """E3, V7: a hand scores its pips, the double-blank counting ``double_blank_score``: at
    least min(0, that score), at most every pip of the set plus it.  No rule makes a round
    score below 0 unless the double-blank counts below 0."""
    low = min(0, double_blank_score)
    high = 6 * 7 * 8 // 2 + max(0, double_blank_score)  # the pips of a double-6 set
    value = data.draw(numbers_near(low, high).filter(lambda n: n in BOUNDS["score"]))
    state = with_round_score(round_two(double_blank_score), value)
    document, text = to_json(state), format_state(state)
    if low <= value <= high:
        assert state_from_json(document) == state
        assert parse_state(text) == state
        assert build_state(**parts_of(state)) == state
        return
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.path == "$.round_scores[0][0]"
    assert "E3" in caught.value.reason
    with pytest.raises(NotationError) as refused:
        parse_state(text)
    assert refused.value.field == "scores"
    with pytest.raises(InvalidStateError) as invalid:
        build_state(**parts_of(state))
    assert invalid.value.field == "round_scores[0][0]"


@pytest.mark.parametrize("score", [-1, -50])
def test_a_negative_round_score_is_refused_when_the_double_blank_counts_50(score: int) -> None:
    state = with_round_score(ROUND_TWO, score)
    assert state.rules.double_blank_score == 50
    with pytest.raises(SchemaError, match="V7"):
        state_from_json(to_json(state))
    with pytest.raises(NotationError, match="V7"):
        parse_state(format_state(state))
    with pytest.raises(InvalidStateError, match="V7"):
        build_state(**parts_of(state))


def test_a_view_with_a_negative_round_score_is_refused() -> None:
    document = to_json(view(with_round_score(ROUND_TWO, -1), 1))
    with pytest.raises(SchemaError) as caught:
        view_from_json(document)
    assert caught.value.path == "$.round_scores[0][0]"


# -- every entry point takes the same numbers ---------------------------------------------------


def _agrees(calls: dict[str, Callable[[], object]]) -> None:
    """Every call of *calls* succeeds, or every one raises InvalidArgumentError."""
    refused: dict[str, bool] = {}
    for name, call in calls.items():
        try:
            call()
        except InvalidArgumentError:
            refused[name] = True
        else:
            refused[name] = False
    assert len(set(refused.values())) == 1, refused


SEED = BOUNDS["seed"]


@given(numbers_near(SEED.low, SEED.high))
@example(-(2**64))
@example(2**64)
def test_every_entry_point_takes_the_same_seeds(seed: int) -> None:
    """S6: a seed is whole number of at most 64 bits, either sign, wherever it is given."""
    start = new_game(2, HUB, seed=1)
    _agrees(
        {
            "new_game": lambda: new_game(2, HUB, seed=seed),
            "RandomPlayer": lambda: RandomPlayer(seed=seed),
            "SearchPlayer": lambda: SearchPlayer(seed=seed),
            "GameRecord": lambda: GameRecord(2, HUB, seed),
            "build_state": lambda: build_state(**{**parts_of(start), "seed": seed}),
            "simulate": lambda: simulate([GreedyPlayer(), GreedyPlayer()], HUB, games=1, seed=seed),
        }
    )
    assert (seed in SEED) == (SEED.low <= seed <= SEED.high)


@given(numbers_near(0, MAX_PIP) | st.sampled_from([True, False]))
@example(31)
def test_set_size_and_full_set_take_the_same_sets(max_pip: int) -> None:
    _agrees({"set_size": lambda: set_size(max_pip), "full_set": lambda: full_set(max_pip)})
    if max_pip in BOUNDS["pip"]:
        assert set_size(max_pip) == len(full_set(max_pip))


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("iterations", lambda n: SearchPlayer(iterations=n)),
        ("endgame", lambda n: PlannerPlayer(endgame=n)),
        ("max_nodes", lambda n: PlannerPlayer(max_nodes=n)),
        ("max_nodes", lambda n: longest_train([], 12, max_nodes=n)),
        ("pip", lambda n: longest_train([], n)),
        ("games", lambda n: simulate([GreedyPlayer(), GreedyPlayer()], HUB, games=1, batch_size=n)),
    ],
)
def test_a_bot_budget_outside_its_bound_is_refused_naming_it(
    name: str, make: Callable[[int], object]
) -> None:
    bound = BOUNDS[name]
    make(bound.low)
    for value in (bound.low - 1, bound.high + 1, 10**5000):
        with pytest.raises(InvalidArgumentError, match="is a whole number from"):
            make(value)


def test_every_reader_nests_to_the_same_depth() -> None:
    assert MAX_JSON_DEPTH == MAX_DEPTH == BOUNDS["depth"].high


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_check_bound_names_the_argument_and_shows_the_value(name: str) -> None:
    bound = BOUNDS[name]
    assert check_bound(name, bound.low, "x") == bound.low
    assert check_bound(name, bound.high, "x") == bound.high
    for value in (bound.high + 1, 10**5000, True, "1"):
        with pytest.raises(InvalidArgumentError) as caught:
            check_bound(name, value, "the_argument")
        assert str(caught.value).startswith(f"the_argument is a whole number {bound.words()}")
        assert str(caught.value).endswith(shown(value))
