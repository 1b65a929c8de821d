"""JSON documents: exact round trips, the published schema, and a reader for untrusted input."""

from __future__ import annotations

import json
import re
import typing
from importlib import resources
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CallLastTile,
    Deal,
    Draw,
    GameRecord,
    GameState,
    MexicanTrainError,
    MexicanTrainRule,
    Move,
    NextRound,
    OpenDoubleRule,
    Pass,
    Play,
    PlayerView,
    Rules,
    SchemaError,
    Tile,
    apply,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train.events import (
    DoubleClosed,
    DoubleOpened,
    Event,
    GameOver,
    MarkerPlaced,
    MarkerRemoved,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilePlayed,
    derive_events,
)
from mexican_train.serialize import (
    SCHEMA_VERSION,
    event_from_json,
    from_json,
    json_schema,
    move_from_json,
    record_from_json,
    state_from_json,
    to_json,
    view_from_json,
)
from mexican_train.testing import check_invariants
from mexican_train.variants import VARIANTS
from strategies import (
    json_values,
    mutated_documents,
    own_tables,
    positions,
    recorded_games,
    variant_tables,
)

VALIDATOR = jsonschema.Draft202012Validator(json_schema())


def through_json(document: dict[str, Any]) -> Any:
    """The document after a trip through JSON text (it must be JSON-compatible)."""
    return json.loads(json.dumps(document, allow_nan=False))


def assert_valid(document: dict[str, Any]) -> None:
    errors = sorted(VALIDATOR.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:3]]


# -- round trips and the schema ---------------------------------------------------------


def test_the_schema_is_a_valid_json_schema_shipped_in_the_package() -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())
    path = resources.files("mexican_train") / "schema" / "mexican-train-2.schema.json"
    assert json.loads(path.read_text(encoding="utf-8")) == json_schema()
    assert json_schema()["properties"]["schema"]["const"] == SCHEMA_VERSION


def test_the_typescript_types_type_every_field_the_library_writes() -> None:
    """No field of a document is ``unknown`` to a front end: a custom deal table's rows,
    which the generator cannot type from ``prefixItems``, are typed by the schema's
    ``tsType``."""
    path = resources.files("mexican_train") / "schema" / "mexican-train-2.d.ts"
    types = path.read_text(encoding="utf-8")
    assert "unknown" not in types
    assert "hand_sizes: [players: number, max_pip: number, tiles_each: number][];" in types


@given(positions(tables=variant_tables()))
def test_states_round_trip_exactly_and_match_the_schema(state: GameState) -> None:
    document = to_json(state)
    assert document["schema"] == SCHEMA_VERSION
    assert document["type"] == "state"
    text = through_json(document)
    assert text == document
    assert_valid(text)
    back = state_from_json(text)
    assert back == state
    assert hash(back) == hash(state)
    assert from_json(text) == state


@given(positions(tables=variant_tables()))
def test_views_round_trip_exactly_and_match_the_schema(state: GameState) -> None:
    seats = range(state.players)
    for seen in [spectator_view(state), *(view(state, s) for s in seats)]:
        document = through_json(to_json(seen))
        back = view_from_json(document)
        assert back == seen
        assert hash(back) == hash(seen)
    assert_valid(to_json(view(state, state.players - 1)))


@given(recorded_games(tables=own_tables(), max_moves=150))
def test_s1_games_on_a_deal_table_of_ones_own_round_trip_and_match_the_schema(
    game: tuple[GameState, list[Move]],
) -> None:
    """A table with no public name is written row by row, for any player count it deals
    (one player included) and any set down to double-1: states, views and records."""
    start, moves = game
    states = [start]
    for move in moves:
        states.append(apply(states[-1], move))
    for state in (start, states[len(states) // 2], states[-1]):
        document = through_json(to_json(state))
        assert_valid(document)
        assert isinstance(document["rules"]["deal_table"], dict)
        assert state_from_json(document) == state
        for seen in [spectator_view(state), *(view(state, s) for s in range(state.players))]:
            document = through_json(to_json(seen))
            assert_valid(document)
            assert view_from_json(document) == seen
    game_record = GameRecord(start.players, start.rules, start.seed, moves=tuple(moves))
    document = through_json(to_json(game_record))
    assert_valid(document)
    assert record_from_json(document) == game_record


@given(positions(tables=variant_tables(), max_moves=100))
def test_moves_round_trip_and_match_the_schema(state: GameState) -> None:
    for move in legal_moves(state):
        document = through_json(to_json(move))
        assert_valid(document)
        assert move_from_json(document) is move


@pytest.mark.parametrize(
    ("move", "document"),
    [
        (Play(Tile(12, 5), 3), {"type": "play", "tile": "12-5", "train": 3}),
        (Play(Tile(6, 6), MEXICAN), {"type": "play", "tile": "6-6", "train": -1}),
        (Draw(), {"type": "draw"}),
        (Pass(), {"type": "pass"}),
        (NextRound(), {"type": "next-round"}),
        (CallLastTile(), {"type": "call-last-tile"}),
    ],
)
def test_move_documents(move: Move, document: dict[str, Any]) -> None:
    assert to_json(move) == {"schema": SCHEMA_VERSION, **document}
    assert_valid(to_json(move))


@given(recorded_games(tables=variant_tables(), max_moves=200))
def test_events_and_records_round_trip_and_match_the_schema(
    game: tuple[GameState, list[Move]],
) -> None:
    start, moves = game
    state = start
    kinds: set[type] = set()
    for move in moves:
        after = apply(state, move)
        for event in derive_events(state, move, after):
            document = through_json(to_json(event))
            if type(event) not in kinds:  # the schema once per kind: jsonschema is slow
                kinds.add(type(event))
                assert_valid(document)
            back = event_from_json(document)
            assert back == event
            assert hash(back) == hash(event)
        state = after
    recorded = GameRecord(start.players, start.rules, start.seed, moves=tuple(moves))
    document = through_json(to_json(recorded))
    assert_valid(document)
    record_back = record_from_json(document)
    assert record_back == recorded
    assert hash(record_back) == hash(recorded)


def test_a_record_with_a_deal_round_trips() -> None:
    rules = attrs.evolve(HUB, max_pip=3, hand_size=3)
    deal = Deal([["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0", "3-1"])
    state = new_game(2, rules, seed=9, deal=deal)
    game = GameRecord(2, rules, 9, deal, moves=(legal_moves(state)[0],))
    document = through_json(to_json(game))
    assert document["deal"] == {
        "hands": [["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]],
        "boneyard": ["0-0", "2-0", "3-1"],
    }
    assert_valid(document)
    assert record_from_json(document) == game


def test_a_drawn_tile_event_hidden_from_a_seat_is_null() -> None:
    document = to_json(TileDrawn(1, None))
    assert document == {"schema": SCHEMA_VERSION, "type": "tile-drawn", "seat": 1, "tile": None}
    assert_valid(document)
    assert event_from_json(document) == TileDrawn(1, None)


def test_s6_a_seed_new_game_picks_is_one_a_javascript_number_holds_exactly() -> None:
    # JSON.parse reads a number as a double, exact for whole numbers to 2**53: a seed
    # new_game picked above that (of 64 bits, almost all were) came back as another game's
    # from a front end that parsed a state or record and wrote it back.
    seeds = [new_game(2).seed for _ in range(200)]
    assert all(0 <= seed < 2**53 for seed in seeds)
    assert len(set(seeds)) == len(seeds)
    assert max(seeds) > 2**50  # all 53 bits are used (false once in 2**600 runs)
    assert all(float(seed) == seed for seed in seeds)


def test_documents_show_rules_by_field() -> None:
    document = to_json(new_game(4, STANDARD, seed=1))
    rules = document["rules"]
    assert set(rules) == {field.name for field in attrs.fields(Rules)}
    assert rules["deal_table"] == "Table A"
    assert rules["engine_placement"] == "holder"
    assert rules["open_doubles"] == {"type": "CloseInOrder", "reverse": False, "release_dead": True}


def test_a_custom_deal_table_is_written_row_by_row() -> None:
    table = attrs.evolve(HUB.deal_table, name="Tiny", hand_sizes={(2, 3): 3}, default_sets={2: 3})
    rules = attrs.evolve(HUB, deal_table=table)
    state = new_game(2, rules, seed=1)
    document = through_json(to_json(state))
    assert document["rules"]["deal_table"] == {
        "name": "Tiny",
        "hand_sizes": [[2, 3, 3]],
        "default_sets": [[2, 3]],
    }
    assert_valid(document)
    assert state_from_json(document) == state


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_registered_variant_round_trips(name: str) -> None:
    state = new_game(4, VARIANTS[name], seed=5)
    document = through_json(to_json(state))
    assert_valid(document)
    assert state_from_json(document) == state


def test_to_json_refuses_what_it_cannot_write() -> None:
    with pytest.raises(TypeError):
        to_json("state")  # type: ignore[arg-type]

    @attrs.frozen
    class Private:
        def is_open(self, table: object, seat: int) -> bool:
            return True

    with pytest.raises(TypeError, match="public class"):
        to_json(new_game(2, attrs.evolve(HUB, mexican_train=Private()), seed=1))


# -- the schema follows the code ------------------------------------------------------------


def schema_properties(name: str) -> set[str]:
    return set(json_schema()["$defs"][name]["properties"])


def test_the_schema_lists_every_field_of_every_value() -> None:
    """A field added to GameState, PlayerView, Rules or GameRecord must reach the schema."""
    assert schema_properties("state") == {"type"} | set(GameState.FIELDS)
    assert schema_properties("view") == {"type"} | set(PlayerView.FIELDS)
    assert schema_properties("rules") == {f.name for f in attrs.fields(Rules)}
    assert schema_properties("record") == {"type"} | {f.name for f in attrs.fields(GameRecord)}


def test_json_reads_and_writes_views_with_the_fields_of_playerview_in_order() -> None:
    """The record JSON uses for a view names PlayerView's fields, in the constructor's order."""
    from mexican_train._positions.fields import ViewFields

    assert tuple(field.name for field in attrs.fields(ViewFields)) == PlayerView.FIELDS


def test_the_schema_lists_every_move_and_event() -> None:
    def tags(name: str) -> set[str]:
        return {b["properties"]["type"]["const"] for b in json_schema()["$defs"][name]["oneOf"]}

    assert tags("move") == {
        to_json(cls())["type"] for cls in typing.get_args(Move) if cls is not Play
    } | {"play"}
    events = {cls.__name__ for cls in typing.get_args(Event)}
    assert len(tags("event")) == len(events)


def test_the_schema_lists_every_public_pluggable_rule() -> None:
    """The pluggable rules a reader accepts are the public classes implementing each protocol."""
    import mexican_train
    import mexican_train.variants

    names = {n: getattr(mexican_train, n) for n in mexican_train.__all__}
    names.update({n: getattr(mexican_train.variants, n) for n in mexican_train.variants.__all__})
    for protocol, definition in [
        (MexicanTrainRule, "mexicanTrainRule"),
        (OpenDoubleRule, "openDoubleRule"),
    ]:
        public = {
            name
            for name, cls in names.items()
            if isinstance(cls, type) and attrs.has(cls) and issubclass(cls, protocol)
        }
        listed = {
            branch["properties"]["type"]["const"]
            for branch in json_schema()["$defs"][definition]["oneOf"]
        }
        assert listed == public


# -- reading untrusted documents -------------------------------------------------------------


def small_document() -> dict[str, Any]:
    state = new_game(2, attrs.evolve(HUB, max_pip=3, hand_size=3), seed=5)
    return through_json(to_json(apply(state, legal_moves(state)[0])))  # type: ignore[no-any-return]


def refusal(document: object) -> SchemaError:
    with pytest.raises(SchemaError) as caught:
        from_json(document)
    return caught.value


def changed(path: str, value: object) -> dict[str, Any]:
    document = small_document()
    *parents, last = [int(p) if p.lstrip("-").isdigit() else p for p in path.split(".")]
    target: Any = document
    for step in parents:
        target = target[step]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return document


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "where", "reason"),
    [
        ("players", True, "$.players", "expected a whole number, not true"),
        ("players", 2.0, "$.players", "whole number"),
        ("players", "2", "$.players", "whole number"),
        ("is_over", 0, "$.is_over", "true or false"),
        ("hands", "0-0", "$.hands", "expected an array"),
        ("hands.0.0", "0:0", "$.hands[0][0]", "a tile is a string"),
        ("hands.0.0", "3-1", "$.trains[0].tiles[0]", "3-1 appears twice"),
        ("hands.1", ["2-1", "3-0"], "$.boneyard", "missing 3-2"),
        ("trains.0.tiles.0", "2-1", "$.trains[0].tiles[0]", "appears twice"),
        ("trains.0.open_end", 2, "$.trains[0].open_end", "ends in 1"),
        ("trains.1.open_end", -1, "$.trains[1].open_end", "from 0 to 30, not -1"),
        ("trains.2.open_end", 31, "$.trains[2].open_end", "from 0 to 30, not 31"),
        ("trains.2.marked", True, "$.trains[2].marked", "P6"),
        ("trains.0", [], "$.trains[0]", "expected an object"),
        ("trains.0.colour", "red", "$.trains[0].colour", "unknown field"),
        ("trains.0.tiles", DELETE, "$.trains[0].tiles", "required field missing"),
        ("engine", "2-2", "$.engine", "S2"),
        ("round_number", 0, "$.round_number", "a round is 1-4"),
        ("current_player", 2, "$.current_player", "a seat is 0-1"),
        ("current_player", None, "$.round_scores", "rounds scored"),
        ("first_player", 1, "$.first_player", "S4"),
        ("had_first_turn.0", False, "$.had_first_turn[0]", "P1"),
        ("open_doubles", [0], "$.open_doubles[0]", "does not end in a double"),
        ("open_doubles", [9], "$.open_doubles[0]", "a train id"),
        ("scores", [0, 5], "$.scores", "add up"),
        ("scores", [0], "$.scores", "1 scores for 2 players"),
        ("seed", 2**64, "$.seed", "64 bits"),
        ("idle_turns", 10**9, "$.idle_turns", "a count of turns"),
        ("max_pip", 10**9, "$.max_pip", "the rules choose a double-3 set"),
        ("rules.max_pip", 10**9, "$.rules.max_pip", "Rules.max_pip must be at most 30"),
        ("rules.max_pip", 0, "$.rules.max_pip", "Rules.max_pip must be None or a whole number"),
        ("rules.last_tile_penalty", -1, "$.rules.last_tile_penalty", "whole number >= 0"),
        ("rules.double_blank_score", 10**7, "$.rules.double_blank_score", "from -1000000"),
        ("rules.hand_size", 10, "$.rules.hand_size", "Rules.hand_size=10 cannot be dealt"),
        ("rules.hand_size", True, "$.rules.hand_size", "whole number"),
        ("rules.engine_placement", "sideways", "$.rules.engine_placement", "EnginePlacement"),
        ("rules.open_doubles", {"type": "os.system"}, "$.rules.open_doubles.type", "one of"),
        ("rules.open_doubles.reverse", 1, "$.rules.open_doubles.reverse", "true or false"),
        ("rules.mexican_train", "MexicanFromFirstTurn", "$.rules.mexican_train", "an object"),
        ("rules.deal_table", "Table C", "$.rules.deal_table", "Table A, Table B"),
        ("rules.deal_table", {"name": "x", "hand_sizes": [[2, 3]], "default_sets": [[2, 3]]},
         "$.rules.deal_table.hand_sizes[0]", "a row is"),
        ("rules.deal_table", {"name": "x", "hand_sizes": [], "default_sets": [[2, 3], [4, 3]]},
         "$.rules.deal_table.default_sets", "without gaps"),
        ("rules.deal_table", {"name": "x" * 10**6, "hand_sizes": [[2, 3, 3]],
                              "default_sets": [[2, 3]]},
         "$.rules.deal_table", "name is 1 to 60 characters"),
        ("rules.double_blank_score", None, "$.rules.double_blank_score", "whole number"),
        ("schema", "mexican-train/3", "$.schema", "reads 'mexican-train/2'"),
        ("type", "states", "$.type", "one of"),
        ("type", DELETE, "$.type", "one of"),
        ("colour", "red", "$.colour", "unknown field"),
    ],
)  # fmt: skip
def test_a_bad_field_raises_schema_error_naming_its_path(
    path: str, value: object, where: str, reason: str
) -> None:
    error = refusal(changed(path, value))
    assert error.path == where
    assert reason in error.reason
    assert str(error).startswith(where)


def test_of_several_unknown_fields_the_first_by_name_is_named() -> None:
    """Whatever order a document's unknown fields come in, the refusal names the same one:
    the least by name (found in one pass, however many fields there are)."""
    for names in (["zebra", "apple", "mango"], ["mango", "zebra", "apple"]):
        document = small_document()
        document.update(dict.fromkeys(names, 0))
        assert refusal(document).path == "$.apple"


def test_schema_error_is_a_value_error_of_the_library() -> None:
    assert issubclass(SchemaError, MexicanTrainError)
    assert issubclass(SchemaError, ValueError)


@pytest.mark.parametrize("document", [None, [], "state", 3, {"schema": SCHEMA_VERSION}])
def test_what_is_not_a_document_is_refused(document: object) -> None:
    assert refusal(document).path in ("$", "$.schema", "$.type")


def test_the_typed_readers_refuse_other_types() -> None:
    state_document = small_document()
    with pytest.raises(SchemaError, match=r"\$\.type"):
        view_from_json(state_document)
    with pytest.raises(SchemaError, match=r"\$\.type"):
        move_from_json(state_document)
    with pytest.raises(SchemaError, match=r"\$\.type"):
        event_from_json(to_json(Draw()))
    with pytest.raises(SchemaError, match=r"\$\.type"):
        record_from_json(to_json(Draw()))


@pytest.mark.parametrize(
    ("document", "where", "reason"),
    [
        ({"type": "play", "tile": "12-5"}, "$.train", "required field missing"),
        ({"type": "play", "tile": "12-5", "train": -2}, "$.train", "a train is"),
        ({"type": "play", "tile": [12, 5], "train": 0}, "$.tile", "a tile is a string"),
        ({"type": "draw", "tile": "1-1"}, "$.tile", "no field"),
        ({"type": "jump"}, "$.type", "one of"),
    ],
)
def test_bad_moves_are_refused_at_their_path(
    document: dict[str, Any], where: str, reason: str
) -> None:
    with pytest.raises(SchemaError) as caught:
        move_from_json({"schema": SCHEMA_VERSION, **document})
    assert caught.value.path == where
    assert reason in caught.value.reason


def test_bad_events_are_refused_at_their_path() -> None:
    document = to_json(TilePlayed(0, Tile(12, 5), 0, 5))
    document["seat"] = "0"
    with pytest.raises(SchemaError) as caught:
        event_from_json(document)
    assert caught.value.path == "$.seat"


@pytest.mark.parametrize(
    ("event", "where", "reason"),
    [
        (TilePlayed(0, Tile(5, 4), 0, 7), "$.open_end", "P2: a tile played leaves 5 or 4 open"),
        (DoubleOpened(0, Tile(5, 4)), "$.tile", "D2: only a double is left open"),
        (DoubleClosed(MEXICAN, Tile(5, 4)), "$.tile", "D2: only a double is left open"),
        (MarkerPlaced(MEXICAN), "$.train", "P6: the Mexican train carries no marker"),
        (MarkerRemoved(MEXICAN), "$.train", "P6: the Mexican train carries no marker"),
        (RoundStarted(1, Tile(12, 11), 0, (15, 15), 60), "$.engine", "S2: an engine is a double"),
        (RoundStarted(1, Tile(12, 12), 2, (15, 15), 60), "$.first_player", "2 seats"),
        (RoundEnded(1, (0, 5, 7), (0, 5)), "$.round_scores", "3 round scores for 2 totals"),
        (GameOver((10, 20), ()), "$.winners", "E5: a game over has a winner"),
        (GameOver((10, 20), (2,)), "$.winners[0]", "2 seats"),
        (GameOver((10, 20), (1,)), "$.winners[0]", "E5: seat 1's total of 20 is not the lowest"),
        (GameOver((10, 10), (1, 0)), "$.winners[1]", "in increasing order, each once"),
        (GameOver((10, 10), (0, 0)), "$.winners[1]", "in increasing order, each once"),
    ],
    ids=repr,
)
def test_an_event_no_move_can_give_is_refused_at_its_path(
    event: Event, where: str, reason: str
) -> None:
    with pytest.raises(SchemaError) as caught:
        event_from_json(to_json(event))
    assert caught.value.path == where
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    "event",
    [MarkerPlaced(MEXICAN), MarkerRemoved(MEXICAN), GameOver((10, 20), ())],
    ids=repr,
)
def test_the_schema_refuses_an_event_no_move_can_give_where_it_can_say_why(event: Event) -> None:
    """P6: a marker's train is a seat; E5: a game over has a winner.  The schema says both."""
    assert not VALIDATOR.is_valid(to_json(event))


@pytest.mark.parametrize(
    ("field", "named"),
    [("open_doubles", "an OpenDoubleRule is one of "), ("mexican_train", "a MexicanTrainRule is ")],
)
def test_a_pluggable_rule_of_no_public_class_is_refused_naming_the_classes(
    field: str, named: str
) -> None:
    """V2, V3: the message names the kind of rule, with its article, and the public classes."""
    document = to_json(new_game(2, HUB, seed=3))
    document["rules"][field] = {"type": "Rules"}
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.path == f"$.rules.{field}.type"
    assert caught.value.reason.startswith(named)
    assert caught.value.reason.endswith(', not "Rules"')


def view_document() -> dict[str, Any]:
    state = new_game(3, attrs.evolve(HUB, max_pip=4, hand_size=3), seed=2)
    return through_json(to_json(view(state, 1)))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("field", "value", "where", "reason"),
    [
        ("hand_sizes", [3, 4, 3], "$.hand", "hand_sizes says 4"),
        ("hand_sizes", [3, 3, 4], "$.boneyard_size", "unseen"),
        ("boneyard_size", 3, "$.boneyard_size", "unseen"),
        ("boneyard_size", -1, "$.boneyard_size", "at least 0"),
        ("seat", 3, "$.seat", "a seat is 0-2"),
        ("seat", None, "$.hand", "spectator"),
        ("open_hands", [[], [], []], "$.open_hands", "private"),
    ],
)
def test_bad_views_are_refused_at_their_path(
    field: str, value: object, where: str, reason: str
) -> None:
    document = view_document()
    document[field] = value
    with pytest.raises(SchemaError) as caught:
        view_from_json(document)
    assert caught.value.path == where
    assert reason in caught.value.reason


def test_a_tile_in_a_hand_listed_in_any_order_is_refused_where_the_document_has_it() -> None:
    """A hand is a set, read in any order: a fault's path, and the place a tile is said
    to appear already, are the document's indices, not those of the hand once sorted."""
    state = new_game(2, HUB, seed=1)
    document = to_json(state)
    hand = document["hands"][0]
    hand.reverse()
    hand[1] = hand[0]
    error = refusal(document)
    assert (error.path, error.reason) == (
        "$.hands[0][1]",
        f"{hand[0]} appears twice (also at hands[0][0])",
    )
    document = to_json(view(state, 0))
    hand = document["hand"]
    hand.reverse()
    hand[1] = hand[0]
    error = refusal(document)
    assert (error.path, error.reason) == ("$.hand[1]", f"{hand[0]} appears twice (also at hand[0])")


def tile_places(document: dict[str, Any]) -> list[tuple[object, ...]]:
    """The path of every tile a state or view document lists (the engine aside)."""
    places: list[tuple[object, ...]] = []
    for name in ("hands", "open_hands"):
        for seat, hand in enumerate(document.get(name) or ()):
            places += [(name, seat, i) for i in range(len(hand))]
    # Under open hands (V10) a view shows its own hand twice, as "hand" and in "open_hands".
    for name in ("boneyard",) if document.get("open_hands") else ("hand", "boneyard"):
        places += [(name, i) for i in range(len(document.get(name, ())))]
    for index, train in enumerate(document["trains"]):
        places += [("trains", index, "tiles", i) for i in range(len(train["tiles"]))]
    return places


def at(document: Any, path: tuple[object, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def steps(path: str) -> tuple[object, ...]:
    """The steps of a JSONPath such as ``$.hands[0][3]`` (or ``hands[0][3]``)."""
    return tuple(int(step) if step.isdigit() else step for step in re.findall(r"\w+", path))


@given(positions(tables=variant_tables(), max_moves=100), st.data())
def test_a_tile_shown_twice_is_refused_where_the_document_has_both_copies(
    state: GameState, data: st.DataObject
) -> None:
    """Hands are read in any order: shuffled, with one tile copied over another, a state or
    a view is refused at the copy, and says where the other one is, both as written."""
    seat = data.draw(st.integers(0, state.players - 1))
    shown = data.draw(st.sampled_from([state, view(state, seat)]))
    assert isinstance(shown, (GameState, PlayerView))
    document = through_json(to_json(shown))
    hands = [*document.get("hands", ()), *(document.get("open_hands") or ()), document.get("hand")]
    for hand in hands:
        if hand is not None:
            hand[:] = data.draw(st.permutations(hand))
    places = tile_places(document)
    if len(places) < 2:
        return
    pair = st.lists(st.sampled_from(places), min_size=2, max_size=2, unique=True)
    source, target = data.draw(pair)
    tile = at(document, source)
    at(document, target[:-1])[target[-1]] = tile
    error = refusal(document)
    also = re.fullmatch(rf"{tile} appears twice \(also at (.+)\)", error.reason)
    if also is None:  # a view's own hand changed in open_hands only: told as that
        assert error.reason.startswith("the hand differs from open_hands"), error
        return
    assert at(document, steps(error.path)) == at(document, steps(also[1])) == tile


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [("max_pip", 12, "the deal table gives 2 players a double-9 set, not 12"),
     ("hand_size", 7, "the deal table gives 2 players 15 tiles, not 7")],
)  # fmt: skip
def test_s1_a_set_or_hand_size_the_deal_table_does_not_give_is_refused_saying_both(
    field: str, value: int, reason: str
) -> None:
    """Under rules that leave the set and the hand size to the deal table (STANDARD's
    Table A: 2 players, double-9, 15 tiles each), the reason says what was written too."""
    document = to_json(new_game(2, STANDARD, seed=1))
    document[field] = value
    error = refusal(document)
    assert (error.path, error.reason) == (f"$.{field}", reason)


@pytest.mark.parametrize(
    ("rules", "reason"),
    [(STANDARD, "on which nobody draws under these rules (P4)"),
     (HUB, "3 tiles of the hand have a legal play")],
    ids=["first turn", "must play"],
)  # fmt: skip
def test_a_draw_no_game_makes_is_refused_in_a_state_and_a_view(rules: Rules, reason: str) -> None:
    # Seat 0 to move on its first turn: under STANDARD nobody draws then (P4), under HUB
    # it holds three tiles that fit, and a player who can play does not draw (P7).
    state = new_game(2, rules, seed=1)
    for document, read in [
        (to_json(state), state_from_json),
        (to_json(view(state, 0)), view_from_json),
    ]:
        with pytest.raises(SchemaError) as caught:
            read({**through_json(document), "has_drawn": True})
        assert caught.value.path == "$.has_drawn"
        assert reason in caught.value.reason


def test_a_typed_reader_names_the_one_type_it_reads_without_a_list_of_one() -> None:
    # It was 'the type is one of state, not "view"'.
    state = new_game(2, seed=1)
    with pytest.raises(SchemaError) as caught:
        state_from_json(to_json(view(state, 0)))
    assert caught.value.reason == 'the type is state, not "view"'
    with pytest.raises(SchemaError) as caught:
        view_from_json(to_json(state))
    assert caught.value.reason == 'the type is view, not "state"'


def test_a_tampered_record_is_refused_at_the_move() -> None:
    state = new_game(2, HUB, seed=5)
    moves = []
    for _ in range(6):
        moves.append(legal_moves(state)[0])
        state = apply(state, moves[-1])
    document = to_json(GameRecord(2, HUB, 5, moves=tuple(moves)))
    document["moves"][3] = {"type": "next-round"}
    with pytest.raises(SchemaError) as caught:
        record_from_json(document)
    assert caught.value.path == "$.moves[3]"
    assert "move 4" in caught.value.reason


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("players", 0, "GameRecord.players is a whole number from 1"),
        ("seed", 2**64, "GameRecord.seed is a whole number of at most 64 bits"),
        ("seed", -(2**64), "GameRecord.seed is a whole number of at most 64 bits"),
    ],
)
def test_a_record_s_number_out_of_its_bound_is_refused_at_its_field(
    field: str, value: int, reason: str
) -> None:
    """A bound the record checks as it is built is told at the field, not at the document."""
    document = to_json(GameRecord(2, HUB, 5))
    document[field] = value
    with pytest.raises(SchemaError) as caught:
        record_from_json(document)
    assert caught.value.path == f"$.{field}"
    assert reason in caught.value.reason


def test_a_record_whose_deal_is_wrong_is_refused_at_the_deal() -> None:
    rules = attrs.evolve(HUB, max_pip=3, hand_size=3)
    deal = Deal([["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0", "3-1"])
    document = to_json(GameRecord(2, rules, 9, deal))
    document["deal"]["boneyard"] = ["0-0", "2-0", "2-0"]
    with pytest.raises(SchemaError) as caught:
        record_from_json(document)
    assert caught.value.path == "$.deal"


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("highest_engine", 20, "Rules.highest_engine=20 needs the 20-20"),
        ("rounds", 31, "Rules.rounds=31, but a double-12 set"),
        ("hand_size", 60, "Rules.hand_size=60 does not fit"),
    ],
)
@pytest.mark.parametrize("with_deal", [False, True], ids=["seed", "deal"])
def test_s1_s2_a_record_whose_rules_cannot_deal_is_refused_at_the_rules(
    field: str, value: int, reason: str, with_deal: bool
) -> None:
    """The players fit the deal table, the rest of the rules do not: the path is the rules'
    field that does not fit, whether the record deals from its seed or holds a deal."""
    start = new_game(2, HUB, seed=9)
    deal = Deal(start.hands, start.boneyard) if with_deal else None
    document = to_json(GameRecord(2, HUB, 9, deal))
    document["rules"][field] = value
    with pytest.raises(SchemaError) as caught:
        record_from_json(document)
    assert caught.value.path == f"$.rules.{field}"
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    ("hands", "boneyard", "reason"),
    [
        ([["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0"], "leaves out 3-1"),
        ([["3-2", "1-0"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0", "3-1"], "seat 0 is dealt 2 tiles"),
    ],
    ids=["short-boneyard", "short-hand"],
)
def test_s1_a_record_whose_deal_lacks_tiles_names_what_is_missing(
    hands: list[list[str]], boneyard: list[str], reason: str
) -> None:
    document = to_json(GameRecord(2, attrs.evolve(HUB, max_pip=3, hand_size=3), 9))
    document["deal"] = {"hands": hands, "boneyard": boneyard}
    with pytest.raises(SchemaError, match=reason) as caught:
        record_from_json(document)
    assert caught.value.path == "$.deal"


def test_a_record_asking_for_a_huge_set_is_refused_before_dealing() -> None:
    document = to_json(GameRecord(2, HUB, 5))
    document["rules"]["max_pip"] = 5000
    document["rules"]["hand_size"] = 2
    with pytest.raises(SchemaError, match=r"Rules.max_pip must be at most 30, not 5000"):
        record_from_json(document)


# -- fuzz: only typed errors, never another exception ----------------------------------------


def read_or_refuse(document: object) -> object:
    """Return what the reader returns, or the SchemaError it raises: nothing else escapes."""
    try:
        return from_json(document)
    except SchemaError as error:
        return error


@given(json_values())
def test_fuzz_random_json_gives_only_schema_errors(document: object) -> None:
    result = read_or_refuse(document)
    assert isinstance(result, SchemaError)
    assert result.path.startswith("$")


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "players",
                "rules",
                "hands",
                "trains",
                "seat",
                "tile",
                "train",
                "moves",
                "deal",
                "round_number",
            ]
        ),
        json_values(),
        max_size=6,
    ),
    st.sampled_from(["state", "view", "record", "play", "draw", "tile-played", "game-over"]),
)
def test_fuzz_random_documents_with_a_valid_header_give_only_schema_errors(
    fields: dict[str, object], kind: str
) -> None:  # fmt: skip
    document = {"schema": SCHEMA_VERSION, "type": kind, **fields}
    result = read_or_refuse(document)
    if not isinstance(result, SchemaError):
        assert_valid(document)


def documents_of(state: GameState) -> list[dict[str, Any]]:
    documents = [to_json(state), to_json(view(state, 0)), to_json(spectator_view(state))]
    if not state.is_over:
        documents.append(to_json(legal_moves(state)[0]))
    return documents


@given(positions(tables=variant_tables(), max_moves=150), st.data())
def test_fuzz_mutated_documents_give_only_schema_errors_or_a_checked_value(
    state: GameState, data: st.DataObject
) -> None:
    """A damaged document is refused with SchemaError, or is itself a valid document."""
    document = data.draw(st.sampled_from(documents_of(state)))
    mutated = data.draw(mutated_documents(document))
    result = read_or_refuse(mutated)
    if isinstance(result, SchemaError):
        return
    # Accepted: the schema accepts it too, and the value is sound all the way through.
    assert_valid(mutated)  # type: ignore[arg-type]
    assert from_json(through_json(to_json(result))) == result  # type: ignore[arg-type]
    if isinstance(result, GameState):
        check_invariants(result)  # the conformance kit agrees: a consistent position
    if isinstance(result, (GameState, PlayerView)):
        legal_moves(result)


@given(recorded_games(max_moves=60), st.data())
def test_fuzz_mutated_records_give_only_schema_errors(
    game: tuple[GameState, list[Move]], data: st.DataObject
) -> None:
    start, moves = game
    document = to_json(GameRecord(start.players, start.rules, start.seed, moves=tuple(moves)))
    mutated = data.draw(mutated_documents(document))
    result = read_or_refuse(mutated)
    if not isinstance(result, SchemaError):
        assert_valid(mutated)  # type: ignore[arg-type]


def test_nothing_half_built_escapes_a_refused_document() -> None:
    """A refused document returns nothing: the error is raised before any value is returned."""
    document = small_document()
    document["trains"][1]["tiles"] = ["3-3"]
    with pytest.raises(SchemaError) as caught:
        state_from_json(document)
    assert caught.value.__cause__ is None
    assert caught.value.__context__ is None or isinstance(caught.value.__context__, Exception)


# -- only the released schema is read ----------------------------------------------------


@pytest.mark.parametrize("schema", ["mexican-train/1", "mexican-train/3", "mexican-train"])
@pytest.mark.parametrize("kind", ["state", "view", "move", "record"])
def test_a_document_of_any_other_schema_is_refused_naming_the_one_read(
    schema: str, kind: str
) -> None:
    """Only ``mexican-train/2`` is read: a document of any other schema is refused."""
    state = new_game(2, HUB, seed=3)
    values: dict[str, GameState | PlayerView | Move | GameRecord] = {
        "state": state,
        "view": view(state, 0),
        "move": legal_moves(state)[0],
        "record": GameRecord(2, HUB, seed=3),
    }
    with pytest.raises(SchemaError) as caught:
        from_json({**to_json(values[kind]), "schema": schema})
    assert caught.value.path == "$.schema"
    assert "'mexican-train/2'" in caught.value.reason
